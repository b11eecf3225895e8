/* The page's one shared state, its constants and the pile labels ("column-3", "cell-2",
 * "foundation-H"), parsed here and nowhere else. The page holds no game rule: legal moves,
 * taps, autoplay and "can finish" all come from the API's answers (computed in the page's
 * worker on the kernel, engine.js, or by the server). */

export const SUITS = "SHDC";
export const RANKS = "A23456789TJQK";
export const KEYS = {
  settings: "eightoff.settings", stats: "eightoff.stats", game: "eightoff.game", offline: "eightoff.offline",
};
export const DOUBLE_TAP_MS = 400;
export const DRAG_START_PX = 6;
export const SVG_NS = "http://www.w3.org/2000/svg";
export const DEFAULT_SETTINGS = Object.freeze({
  rules: "standard",
  winnable: true,
  difficulty: "any", // one of state.difficulties: the pool rating of new winnable deals
  autoplay: false,
  fourColour: false,
  largePrint: false,
  showMoves: true,
  showScore: true,
  showTimer: true,
  theme: "auto", // "auto" (the device's), "light" or "dark"
  language: "", // "en" or "fr"; "" follows the browser
  leftHanded: false, // the cells and foundations swap sides
  sound: false, // a tick per move, a chord for a win (sound.js)
});

export const $ = (id) => document.getElementById(id);
export const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");
export const board = $("board");

/** Everything the modules share, written by this module alone (the functions below): the
 * others read it. ``game`` is what is saved: {code, rules, rulesText,
 * winnable, actions, redo, elapsed, counted, won}, an action being the list of moves one
 * gesture played; ``view`` is the last answer (the worker's, or the server's). */
export const state = {
  settings: { ...DEFAULT_SETTINGS },
  stats: {},
  game: null,
  difficulties: ["any"], // the levels the server offers (GET /api/rules), "any" first
  view: null,
  busy: false,
  selection: null, // {label, index, count, card}
  drag: null,
  held: new Set(), // card elements let go by a drag, where they were dropped until their drop's turn (drag.js)
  press: null,
  lastTap: null,
  clockStart: null, // Date.now() when the clock last started running
  lostOffer: null, // {undoTo}: the solver proved the position lost
  sol: null, // solution mode: {base, steps, k, timer, cache, longest (the longest column drawn)}
  hintTimer: null,
  builtCells: -1,
  focusLabel: "column-1",
  presets: null, // /api/rules: the presets by name
  ruleTable: null, // /api/rules: every rule option, its values and words
  pending: [], // actions on their way to the server, drawn already: {moves, shown, game, label}
};

/** The card elements by card text ("7H"), and where each card lies: {label, index, size}. */
export const cardEls = new Map();
export const where = new Map();

export const rankText = (card) => (card[0] === "T" ? "10" : card[0]);
export const cardSuit = (card) => card[card.length - 1];
export const isRed = (suit) => suit === "H" || suit === "D";

/** A pile label's parts: {kind: "column" | "cell" | "foundation", n (1-based, or the
 * foundation's position in SUITS), suit (foundations only)}. */
export function parsePile(label) {
  const [kind, rest] = label.split("-");
  if (kind === "foundation") return { kind, n: SUITS.indexOf(rest) + 1, suit: rest };
  return { kind, n: Number(rest), suit: null };
}

/** A move place (["column", 3], ["cell", 2], ["foundation", 2]) as a pile label. */
export function placeLabel(place, card) {
  const [kind, index] = place;
  if (kind === "foundation") {
    const suit = typeof index === "number" ? SUITS[index - 1] : card ? cardSuit(card) : "S";
    return `foundation-${suit}`;
  }
  return `${kind}-${index}`;
}
/** A pile label as a move place: a foundation source names its suit, a target does not. */
export function labelPlace(label, asSource) {
  const { kind, n, suit } = parsePile(label);
  if (kind === "foundation") return asSource ? [kind, suit] : [kind];
  return [kind, n];
}

/** The move of ``pick`` ({label, count, card}) to pile ``label``, legal or not. */
export const moveOf = (pick, label) => ({
  card: pick.card, from: labelPlace(pick.label, true), to: labelPlace(label, false), count: pick.count,
});

export const moveFrom = (m) => placeLabel(m.from, m.card);
export const moveTo = (m) => placeLabel(m.to, m.card);

// -- the one writer: every change to the shared state goes through these ----------------

const setter = (field) => (value) => {
  state[field] = value;
};

/** The fields set whole: ``setView(answer)`` and so on (the selection is {label, index,
 * count, card}; a press, a drag and the last tap are drag.js's; ``sol`` is solution mode,
 * null when left). */
export const [
  setSettings, setStats, setView, setLostOffer, setBusy, setSelection, setPress, setDrag, setLastTap,
  setFocusLabel, setBuiltCells, setHintTimer, setSolution,
] = [
  "settings", "stats", "view", "lostOffer", "busy", "selection", "press", "drag", "lastTap",
  "focusLabel", "builtCells", "hintTimer", "sol",
].map(setter);

/** One setting as the player changes it. */
export function setSetting(name, value) {
  state.settings[name] = value;
}
/** Change statistics ``key``'s record (``fresh()`` the first time) by ``change(record)``,
 * given a copy to change; what ``change`` returns. */
export function changeStats(key, fresh, change) {
  const record = structuredClone(state.stats[key] || fresh());
  const out = change(record);
  state.stats[key] = record;
  return out;
}

/** The server's rule declaration (GET /api/rules): a stored difficulty it does not offer
 * is back to its first level. */
export function setRulesInfo(info) {
  state.presets = info.presets;
  state.ruleTable = info.table;
  state.difficulties = info.difficulties;
  if (!info.difficulties.includes(state.settings.difficulty)) state.settings.difficulty = info.difficulties[0];
}

/** Play ``game`` (or none): its clock stopped, no lost position on offer. */
export function setGame(game) {
  state.game = game;
  state.clockStart = null;
  state.lostOffer = null;
}
/** The game played again from its deal: no move, no time, no help, not counted yet. */
export function restartGame() {
  Object.assign(state.game, {
    actions: [], redo: [], elapsed: 0, counted: false, won: false, hints: 0, solutionSeen: false,
    assisted: false, // played again from the deal: a win without help is a win
  });
  state.clockStart = null;
  state.lostOffer = null;
  state.pending = [];
}
/** Mark the game: ``won``, ``counted``, ``hints``, ``assisted`` (helped), ``solutionSeen``. */
export function markGame(fields) {
  Object.assign(state.game, fields);
}
/** ``moves`` played as the game's next action (the redo list is forgotten). */
export function pushAction(moves) {
  state.game.actions.push(moves);
  state.game.redo = [];
}
/** Keep the game's first actions that hold at most ``count`` moves (a saved move the game
 * refuses goes, with every move after it). */
export function keepMoves(count) {
  const kept = [];
  let n = 0;
  for (const action of state.game.actions) {
    if (n + action.length > count) break;
    kept.push(action);
    n += action.length;
  }
  state.game.actions = kept;
  state.game.redo = [];
}
/** Take back the last action (to the redo list): the action, or undefined. */
export function takeBack() {
  const action = state.game.actions.pop();
  if (action) state.game.redo.push(action);
  return action;
}
/** Play again the last action taken back: the action, or undefined. */
export function playAgain() {
  const action = state.game.redo.pop();
  if (action) state.game.actions.push(action);
  return action;
}

/** Actions drawn already, on their way to the server. */
export function addPending(action) {
  state.pending.push(action);
}
/** How far a pending action has come: ``shown`` moves drawn, ``ready`` once all are. */
export function advancePending(action, fields) {
  Object.assign(action, fields);
}
export function dropPending(action) {
  state.pending = action ? state.pending.filter((a) => a !== action) : [];
}

/** A card element held where a drag let it go (``held``), or let go. */
export function holdCard(el, held) {
  if (held) state.held.add(el);
  else state.held.delete(el);
}

/** The position after ``step`` of the solution's moves, kept to be shown again. */
export function keepSolutionView(step, view) {
  state.sol.cache.set(step, view);
}
/** Solution mode: the step shown, the timer playing it. */
export function showSolutionStep(k) {
  state.sol.k = k;
}
export function setSolutionTimer(timer) {
  state.sol.timer = timer;
}
/** The longest column drawn in solution mode, with ``longest`` now. */
export function solutionLongest(longest) {
  state.sol.longest = Math.max(state.sol.longest || 0, longest);
  return state.sol.longest;
}

export const flatMoves = () => state.game.actions.flat();
export const elapsedNow = () =>
  state.game.elapsed + (state.clockStart === null ? 0 : Date.now() - state.clockStart);

/** Add the running clock's time to the game (the clock keeps running). */
export function foldClock() {
  if (state.clockStart !== null) {
    state.game.elapsed += Date.now() - state.clockStart;
    state.clockStart = Date.now();
  }
}

export function runClock(on) {
  if (on && state.clockStart === null) state.clockStart = Date.now();
  if (!on && state.clockStart !== null) {
    state.game.elapsed += Date.now() - state.clockStart;
    state.clockStart = null;
  }
}

export function formatTime(ms) {
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60));
  const ss = String(s % 60).padStart(2, "0");
  return h ? `${h}:${mm.padStart(2, "0")}:${ss}` : `${mm}:${ss}`;
}

export const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
