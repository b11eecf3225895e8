/* Eight Off: the page. It draws what the server says and holds no game rule:
 * legal moves, tap and smart moves, autoplay and "can finish" all come from the API.
 * The game lives here as {code, actions}: an action is the list of moves one gesture
 * played (a move plus the foundation moves autoplay added), so undo takes it back whole.
 * The server is sent the flat list of moves and replays it on every call.
 */
"use strict";

(() => {
  // -- constants and small helpers ------------------------------------------------------

  const SUITS = "SHDC";
  const RANKS = "A23456789TJQK";
  const SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
  const SUIT_SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };
  const RANK_NAMES = ["ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king"];
  const KEYS = { settings: "eightoff.settings", stats: "eightoff.stats", game: "eightoff.game" };
  const DOUBLE_TAP_MS = 400;
  const DRAG_START_PX = 6;
  const SVG_NS = "http://www.w3.org/2000/svg";

  const DIFFICULTIES = ["any", "easy", "medium", "hard"];
  const DEFAULT_SETTINGS = {
    rules: "standard",
    winnable: true,
    difficulty: "any", // "any" | "easy" | "medium" | "hard": the pool rating of new winnable deals
    autoplay: false,
    fourColour: false,
    largePrint: false,
    showMoves: true,
    showScore: true,
    showTimer: true,
  };

  const $ = (id) => document.getElementById(id);
  const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");
  const board = $("board");

  const rankText = (card) => (card[0] === "T" ? "10" : card[0]);
  const cardSuit = (card) => card[card.length - 1];
  const cardName = (card) => `${RANK_NAMES[RANKS.indexOf(card[0])]} of ${SUIT_NAMES[cardSuit(card)]}`;
  const cardShort = (card) => rankText(card) + SUIT_SYMBOLS[cardSuit(card)];

  /** A move place (["column", 3], ["cell", 2], ["foundation", 2]) as a pile label. */
  function placeLabel(place, card) {
    const [kind, index] = place;
    if (kind === "foundation") {
      const suit = typeof index === "number" ? SUITS[index - 1] : card ? cardSuit(card) : "S";
      return `foundation-${suit}`;
    }
    return `${kind}-${index}`;
  }
  const moveFrom = (m) => placeLabel(m.from, m.card);
  const moveTo = (m) => placeLabel(m.to, m.card);

  function pileName(label) {
    const [kind, n] = label.split("-");
    return kind === "foundation" ? `${SUIT_NAMES[n]} foundation` : `${kind} ${n}`;
  }

  function describeMove(m) {
    const what = m.count > 1 ? `${cardShort(m.card)} and ${m.count - 1} more` : cardShort(m.card);
    const to = moveTo(m).startsWith("foundation") ? "the foundation" : pileName(moveTo(m));
    return `${what} from ${pileName(moveFrom(m))} to ${to}`;
  }

  function formatTime(ms) {
    const s = Math.floor(ms / 1000);
    const h = Math.floor(s / 3600);
    const mm = String(Math.floor((s % 3600) / 60));
    const ss = String(s % 60).padStart(2, "0");
    return h ? `${h}:${mm.padStart(2, "0")}:${ss}` : `${mm}:${ss}`;
  }

  class ApiError extends Error {
    constructor(status, message, data) {
      super(message);
      this.status = status;
      this.data = data;
    }
  }

  async function api(path, body) {
    const init = body === undefined ? {} : {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    };
    let response;
    try {
      response = await fetch(path, init);
    } catch (err) {
      throw new ApiError(0, "cannot reach the game server", null);
    }
    let data = null;
    try {
      data = await response.json();
    } catch (err) {
      data = null;
    }
    if (!response.ok) {
      const message = (data && data.error) || `the server answered ${response.status}`;
      throw new ApiError(response.status, message, data);
    }
    return data;
  }

  // -- storage: settings, statistics and the game in progress ---------------------------

  const corrupted = [];

  function storageGet(key, valid) {
    let raw;
    try {
      raw = window.localStorage.getItem(key);
    } catch (err) {
      return null; // storage disabled: play without saving
    }
    if (raw === null) return null;
    try {
      const value = JSON.parse(raw);
      if (!valid(value)) throw new Error("unexpected shape");
      return value;
    } catch (err) {
      corrupted.push(key);
      try {
        window.localStorage.removeItem(key);
      } catch (err2) {
        /* ignore */
      }
      return null;
    }
  }

  function storageSet(key, value) {
    try {
      window.localStorage.setItem(key, JSON.stringify(value));
    } catch (err) {
      /* storage full or disabled: the game goes on unsaved */
    }
  }

  const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
  const isMove = (m) => isObject(m) && Array.isArray(m.from) && Array.isArray(m.to);
  const isActionList = (a) => Array.isArray(a) && a.every((x) => Array.isArray(x) && x.length > 0 && x.every(isMove));

  function validSettings(v) {
    if (!isObject(v)) return false;
    for (const [key, def] of Object.entries(DEFAULT_SETTINGS)) {
      if (!(key in v)) continue;
      if (key === "rules") {
        if (typeof v.rules !== "string" && !isObject(v.rules)) return false;
      } else if (key === "difficulty") {
        if (!DIFFICULTIES.includes(v.difficulty)) return false;
      } else if (typeof v[key] !== typeof def) return false;
    }
    return true;
  }

  function validStats(v) {
    if (!isObject(v)) return false;
    return Object.values(v).every((s) => isObject(s) && typeof s.played === "number" && typeof s.won === "number");
  }

  function validGame(v) {
    return isObject(v) && typeof v.code === "string" && isActionList(v.actions) && isActionList(v.redo)
      && typeof v.elapsed === "number" && isObject(v.rules);
  }

  let settings = { ...DEFAULT_SETTINGS, ...(storageGet(KEYS.settings, validSettings) || {}) };
  let stats = storageGet(KEYS.stats, validStats) || {};
  const savedGame = storageGet(KEYS.game, validGame);

  const saveSettings = () => storageSet(KEYS.settings, settings);
  const saveStats = () => storageSet(KEYS.stats, stats);
  function saveGame() {
    if (!game) return;
    foldClock();
    storageSet(KEYS.game, game);
  }

  // -- state ----------------------------------------------------------------------------

  let game = null; // {code, rules, rulesText, winnable, actions, redo, elapsed, counted, won}
  let view = null; // the server's last answer: position, legal_moves, status, score, taps, finish
  let busy = false;
  let selection = null; // {label, index, count}
  let drag = null;
  let press = null;
  let lastTap = null;
  let clockStart = null; // Date.now() when the clock last started running
  let lostOffer = null; // {undoTo}: the solver proved the position lost
  let sol = null; // solution mode: {base, steps, k, timer}
  let hintTimer = null;
  let builtCells = -1;
  let focusLabel = "column-1";
  const cardEls = new Map();
  const where = new Map(); // card -> {label, index, size}
  let presets = null;

  const flatMoves = () => game.actions.flat();
  const elapsedNow = () => game.elapsed + (clockStart === null ? 0 : Date.now() - clockStart);

  function foldClock() {
    if (clockStart !== null) {
      game.elapsed += Date.now() - clockStart;
      clockStart = Date.now();
    }
  }
  function runClock(on) {
    if (on && clockStart === null) clockStart = Date.now();
    if (!on && clockStart !== null) {
      game.elapsed += Date.now() - clockStart;
      clockStart = null;
    }
  }

  // -- statistics -----------------------------------------------------------------------

  function statsKey(rules) {
    return JSON.stringify(Object.keys(rules).sort().map((k) => [k, rules[k]]));
  }

  function statsFor(g) {
    const key = statsKey(g.rules);
    if (!stats[key]) {
      stats[key] = { label: g.rulesText, played: 0, won: 0, streak: 0, bestStreak: 0, bestTime: null, fewestMoves: null };
    }
    return stats[key];
  }

  function countStart() {
    if (game.counted) return;
    game.counted = true;
    statsFor(game).played += 1;
    saveStats();
  }

  function countWin() {
    const s = statsFor(game);
    s.won += 1;
    s.streak += 1;
    s.bestStreak = Math.max(s.bestStreak, s.streak);
    const time = game.elapsed;
    s.bestTime = s.bestTime === null ? time : Math.min(s.bestTime, time);
    const moves = game.actions.length;
    s.fewestMoves = s.fewestMoves === null ? moves : Math.min(s.fewestMoves, moves);
    saveStats();
  }

  function countAbandon() {
    if (game && game.counted && !game.won) {
      statsFor(game).streak = 0;
      saveStats();
    }
  }

  // -- the board: piles and cards --------------------------------------------------------

  function svgUse(suit, cls) {
    const svg = document.createElementNS(SVG_NS, "svg");
    svg.setAttribute("class", cls);
    svg.setAttribute("viewBox", "0 0 100 100");
    svg.setAttribute("aria-hidden", "true");
    svg.setAttribute("focusable", "false");
    const use = document.createElementNS(SVG_NS, "use");
    use.setAttribute("href", `#suit-${suit}`);
    svg.appendChild(use);
    return svg;
  }

  function cardEl(card) {
    let el = cardEls.get(card);
    if (el) return el;
    const suit = cardSuit(card);
    el = document.createElement("div");
    el.className = `card s-${suit}${suit === "H" || suit === "D" ? " red" : ""}`;
    el.dataset.card = card;
    el.setAttribute("role", "button");
    el.tabIndex = -1;
    const idx = document.createElement("span");
    idx.className = "idx";
    idx.setAttribute("aria-hidden", "true");
    const rank = document.createElement("span");
    rank.textContent = rankText(card);
    idx.append(rank, svgUse(suit, "pip"));
    el.appendChild(idx);
    if ("JQK".includes(card[0])) {
      const face = document.createElement("span");
      face.className = "face";
      face.setAttribute("aria-hidden", "true");
      face.textContent = card[0];
      el.appendChild(face);
    } else {
      el.appendChild(svgUse(suit, "big"));
    }
    cardEls.set(card, el);
    return el;
  }

  function makePile(label, parent, extra) {
    const pile = document.createElement("div");
    pile.className = `pile slot ${extra || ""}`.trim();
    pile.dataset.pile = label;
    pile.tabIndex = -1;
    pile.setAttribute("role", "button");
    if (label.startsWith("foundation")) pile.appendChild(svgUse(label.slice(-1), "watermark"));
    parent.appendChild(pile);
    return pile;
  }

  function buildBoard(cells) {
    const founds = board.querySelector(".foundations");
    const cellRow = board.querySelector(".cells");
    const tableau = board.querySelector(".tableau");
    for (const el of cardEls.values()) el.remove();
    founds.replaceChildren();
    cellRow.replaceChildren();
    tableau.replaceChildren();
    for (const s of SUITS) makePile(`foundation-${s}`, founds);
    for (let k = 1; k <= cells; k++) makePile(`cell-${k}`, cellRow);
    for (let k = 1; k <= 8; k++) makePile(`column-${k}`, tableau, "column");
    builtCells = cells;
  }

  const pileEl = (label) => board.querySelector(`[data-pile="${label}"]`);

  function pileOrder() {
    const labels = [...SUITS].map((s) => `foundation-${s}`);
    for (let k = 1; k <= builtCells; k++) labels.push(`cell-${k}`);
    for (let k = 1; k <= 8; k++) labels.push(`column-${k}`);
    return labels;
  }

  // -- layout: card size and column fans from the window (no rule here) ------------------

  /** Columns up to this long fit at the minimum fan without shrinking the cards. */
  const DESIGN_COLUMN = 11;
  const MIN_STRIP_PX = 14; // a covered card always shows at least this much of its top

  /** Space kept below the longest column (the floating banners); less on short screens. */
  const bottomReserve = (H) => (H < 560 ? 12 : 56);

  /** Cards narrower than this (phones) get a bigger index, when the height allows it. */
  const SMALL_CARD = 56;

  /** The index (rank and suit) height as a fraction of the card width; matches style.css. */
  const indexScale = (big) => (settings.largePrint ? (big ? 0.4 : 0.36) : big ? 0.36 : 0.3);

  /** The least and the most a covered card shows, in px: the least keeps its rank and suit
   * readable, the most stays above the card's centre picture. */
  function fanLimits(cw, wide, big) {
    const ch = cw * 1.4;
    const scale = indexScale(big);
    const most = Math.min(ch * 0.4, ch * (wide ? 0.27 : 0.36) + cw * (scale - 0.3));
    const least = Math.min(most, Math.max(MIN_STRIP_PX, cw * (scale + 0.04)));
    return { least, most };
  }

  /** Card width, gaps and arrangement from the window size: the largest cards with which
   * every pile fits across and a column of ``longest`` cards (at least DESIGN_COLUMN) fits
   * above the bottom of the window with its covered cards at their least readable fan. */
  function sizeBoard(longest) {
    const W = document.documentElement.clientWidth;
    const H = window.innerHeight;
    const top = board.getBoundingClientRect().top + window.scrollY;
    const gap = Math.round(Math.min(12, Math.max(4, W / 130)));
    const room = Math.max(160, H - top - gap - bottomReserve(H)); // from the first row down
    const n = Math.max(longest, DESIGN_COLUMN);
    const fit = (wide, big) => {
      const rows = wide || builtCells <= 4 ? 1 : 2; // rows of piles above the columns
      let cw = Math.floor(Math.min(124, wide ? (W - 24 - 10 * gap) / 9 : (W - (W > 560 ? 26 : 12) - 7 * gap) / 8));
      for (; cw > 34; cw--) {
        const ch = cw * 1.4;
        const column = ch + (n - 1) * fanLimits(cw, wide, big).least;
        const height = Math.max(rows * (ch + gap) + column, wide ? 4 * ch + 3 * gap : 0);
        if (height <= room) break;
      }
      return Math.max(34, cw);
    };
    // Foundations down the left side (wide) or above the cells (narrow): whichever gives
    // the larger cards; on a tie, the wide arrangement on landscape screens.
    const landscape = W >= 720 && W / H >= 1.2;
    const wideCw = fit(true, false);
    const narrowCw = fit(false, false);
    const wide = wideCw > narrowCw || (wideCw === narrowCw && landscape);
    const cw = wide ? wideCw : narrowCw;
    // Small cards, held back by the width rather than the height: a bigger index if it
    // costs no card width.
    const big = cw < SMALL_CARD && fit(wide, true) === cw;
    board.classList.toggle("big-index", big);
    board.style.setProperty("--cw", `${cw}px`);
    board.style.setProperty("--gap", `${gap}px`);
    board.classList.toggle("wide", wide);
    board.classList.toggle("narrow", !wide);
    board.classList.toggle("one-row", !wide && builtCells <= 4);
    return cw;
  }

  function cardLabel(card, label, index, size) {
    const name = cardName(card);
    if (label.startsWith("column")) {
      const state = index === size - 1 ? "exposed" : "covered";
      return `${name}, ${pileName(label)}, ${state}`;
    }
    if (label.startsWith("foundation")) return `${name}, on the ${pileName(label)}`;
    return `${name}, ${pileName(label)}`;
  }

  function render(options) {
    const animate = options && options.animate;
    const hadFocus = board.contains(document.activeElement);
    const pos = view.position;
    if (pos.cells.length !== builtCells) buildBoard(pos.cells.length);
    const first = animate && !reducedMotion.matches ? measureCards() : null;
    const cw = sizeBoard(Math.max(...pos.columns.map((col) => col.length)));
    const ch = cw * 1.4;
    const placed = new Set();
    where.clear();

    const put = (card, label, index, size, top) => {
      const el = cardEl(card);
      const pile = pileEl(label);
      if (el.parentNode !== pile || el.nextSibling) pile.appendChild(el);
      el.style.transform = "";
      el.classList.remove("dragging", "snap", "selected", "hint");
      el.style.top = `${top}px`;
      el.style.zIndex = String(index + 1);
      el.setAttribute("aria-label", cardLabel(card, label, index, size));
      // The card under a foundation's top is only there to show when the top is dragged.
      el.toggleAttribute("aria-hidden", label.startsWith("foundation") && index === 0);
      placed.add(card);
      where.set(card, { label, index, size });
    };

    // Foundations: the top card and the one under it (shown when the top is dragged away).
    for (const s of SUITS) {
      const top = pos.foundations[s];
      const label = `foundation-${s}`;
      for (let r = Math.max(1, top - 1); r <= top; r++) put(RANKS[r - 1] + s, label, r === top ? 1 : 0, 2, 0);
      const pile = pileEl(label);
      pile.classList.toggle("slot", top === 0);
      pile.setAttribute("aria-label", top ? `${pileName(label)}, up to ${RANK_NAMES[top - 1]}` : `${pileName(label)}, empty`);
    }
    pos.cells.forEach((card, k) => {
      const label = `cell-${k + 1}`;
      if (card) put(card, label, 0, 1, 0);
      const pile = pileEl(label);
      pile.classList.toggle("slot", !card);
      pile.setAttribute("aria-label", card ? pileName(label) : `${pileName(label)}, empty`);
    });
    // Each column fans as far down as the window allows, between the least offset that
    // keeps a covered card's index readable and a comfortable most.
    const tableauTop = board.querySelector(".tableau").getBoundingClientRect().top + window.scrollY;
    const bottom = window.innerHeight - bottomReserve(window.innerHeight);
    const { least, most } = fanLimits(cw, board.classList.contains("wide"), board.classList.contains("big-index"));
    pos.columns.forEach((col, k) => {
      const label = `column-${k + 1}`;
      const n = col.length;
      const off = n > 1 ? Math.min(most, Math.max(least, (bottom - tableauTop - ch) / (n - 1))) : most;
      col.forEach((card, i) => put(card, label, i, n, Math.round(i * off)));
      const pile = pileEl(label);
      pile.classList.toggle("slot", n === 0);
      pile.style.height = `${ch + Math.max(0, n - 1) * off}px`;
      pile.setAttribute("aria-label", n ? `${pileName(label)}, ${n} cards` : `${pileName(label)}, empty`);
    });
    for (const [card, el] of cardEls) if (!placed.has(card) && el.parentNode) el.remove();
    board.querySelectorAll(".target, .hint-target").forEach((p) => p.classList.remove("target", "hint-target"));
    selection = null;
    if (first) flip(first);
    const focusEl = updateFocusTargets();
    if (hadFocus && focusEl && document.activeElement !== focusEl) focusEl.focus({ preventScroll: true });
    renderStatus();
  }

  function measureCards() {
    const rects = new Map();
    for (const [card, el] of cardEls) if (el.isConnected) rects.set(card, el.getBoundingClientRect());
    return rects;
  }

  /** Animate cards from where they were drawn before to where they are now. */
  function flip(first) {
    const moving = [];
    for (const [card, el] of cardEls) {
      const old = first.get(card);
      if (!old || !el.isConnected) continue;
      const now = el.getBoundingClientRect();
      const dx = old.left - now.left;
      const dy = old.top - now.top;
      if (Math.abs(dx) < 1 && Math.abs(dy) < 1) continue;
      el.classList.remove("flip");
      el.style.transform = `translate(${dx}px, ${dy}px)`;
      el.style.zIndex = String(500 + Number(el.style.zIndex));
      moving.push(el);
    }
    if (!moving.length) return;
    void board.offsetWidth; // apply the start transforms before transitioning away from them
    for (const el of moving) {
      el.classList.add("flip");
      el.style.transform = "";
    }
    window.setTimeout(() => {
      for (const el of moving) {
        el.classList.remove("flip");
        const w = where.get(el.dataset.card);
        if (w) el.style.zIndex = String(w.index + 1);
      }
    }, 220);
  }

  // -- status, banners, notices ----------------------------------------------------------

  function renderStatus() {
    $("moves").textContent = String(game.actions.length);
    $("score").textContent = String(view.score);
    $("time").textContent = formatTime(elapsedNow());
    $("st-moves").hidden = !settings.showMoves;
    $("st-score").hidden = !settings.showScore;
    $("st-time").hidden = !settings.showTimer;
    $("code").textContent = game.code;
    const inSolution = sol !== null;
    $("btn-undo").disabled = inSolution || game.actions.length === 0;
    $("btn-redo").disabled = inSolution || game.redo.length === 0;
    $("btn-hint").disabled = inSolution || view.status !== "playing";
    $("btn-solution").disabled = inSolution || view.status === "won";
    $("btn-restart").disabled = inSolution;
    const status = view.status;
    $("st-state").textContent = status === "won" ? "Won!" : status === "stuck" ? "Stuck" : "";
    document.body.dataset.status = status;
    document.body.dataset.moves = String(flatMoves().length);
    renderBanner();
  }

  function setBanner(text, actions) {
    const banner = $("banner");
    if (!text) {
      banner.hidden = true;
      return;
    }
    $("banner-text").textContent = text;
    const box = $("banner-actions");
    box.replaceChildren();
    for (const [label, fn, id] of actions) {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = label;
      if (id) b.id = id;
      b.addEventListener("click", fn);
      box.appendChild(b);
    }
    banner.hidden = false;
  }

  function renderBanner() {
    if (sol) return setBanner("", []);
    if (lostOffer) {
      const acts = [];
      if (lostOffer.undoTo !== null) {
        acts.push([`Undo to the last winnable position`, () => undoTo(lostOffer.undoTo), "btn-undo-to"]);
      }
      return setBanner("The solver proved this position cannot be won.", acts);
    }
    if (view.status === "stuck") {
      return setBanner("Stuck: no legal move is left.", [["Undo", undo], ["New game", openNewDialog]]);
    }
    if (view.status === "playing" && view.finish) {
      return setBanner("Every remaining card can go home.", [["Finish", finish, "btn-finish"]]);
    }
    return setBanner("", []);
  }

  function notice(text) {
    $("notice-text").textContent = text;
    $("notice").hidden = false;
  }

  function announce(text) {
    const live = $("live");
    live.textContent = "";
    window.setTimeout(() => {
      live.textContent = text;
    }, 30);
  }

  function applySettings() {
    document.body.classList.toggle("four", settings.fourColour);
    document.body.classList.toggle("large", settings.largePrint);
  }

  // -- playing ------------------------------------------------------------------------------

  function lockedInput() {
    return busy || sol !== null || !view;
  }

  /** Play ``moves`` as one action (autoplay adds its moves to it). */
  async function commit(moves, label) {
    if (busy) return false;
    busy = true;
    document.body.dataset.busy = "1";
    try {
      const answer = await api("/api/state", {
        code: game.code,
        moves: flatMoves().concat(moves),
        autoplay: settings.autoplay,
      });
      game.actions.push(moves.concat(answer.autoplayed));
      game.redo = [];
      lostOffer = null;
      countStart();
      runClock(true);
      view = answer;
      render({ animate: true });
      let text = label || describeMove(moves[0]);
      if (answer.autoplayed.length) text += `; ${answer.autoplayed.length} more to the foundations`;
      announce(text);
      afterMove();
      return true;
    } catch (err) {
      announce(err.message);
      if (err.status !== 422) notice(err.message);
      render();
      return false;
    } finally {
      busy = false;
      document.body.dataset.busy = "0";
    }
  }

  function afterMove() {
    if (view.status === "won" && !game.won) {
      runClock(false);
      game.won = true;
      countWin();
      saveGame();
      renderStatus();
      celebrate();
      return;
    }
    if (view.status === "stuck") announce("Stuck: no legal move is left. Undo or start a new game.");
    saveGame();
  }

  async function refresh(options) {
    view = await api("/api/state", { code: game.code, moves: flatMoves() });
    render(options);
    runClock(game.counted && !game.won && view.status !== "won");
  }

  async function guarded(fn) {
    if (busy) return;
    busy = true;
    document.body.dataset.busy = "1";
    try {
      await fn();
    } catch (err) {
      notice(err.message);
    } finally {
      busy = false;
      document.body.dataset.busy = "0";
    }
  }

  function undo() {
    if (!game.actions.length || sol) return;
    guarded(async () => {
      const action = game.actions.pop();
      game.redo.push(action);
      lostOffer = null;
      await refresh({ animate: true });
      announce(`Undone: ${describeMove(action[0])}`);
      saveGame();
    });
  }

  function redo() {
    if (!game.redo.length || sol) return;
    guarded(async () => {
      const action = game.redo.pop();
      game.actions.push(action);
      await refresh({ animate: true });
      announce(`Redone: ${describeMove(action[0])}`);
      afterMove();
    });
  }

  function undoTo(count) {
    guarded(async () => {
      while (game.actions.length && flatMoves().length > count) game.redo.push(game.actions.pop());
      lostOffer = null;
      await refresh({ animate: true });
      announce(`Back to move ${game.actions.length}.`);
      saveGame();
    });
  }

  function finish() {
    if (view.finish) commit(view.finish, "Every remaining card goes home");
  }

  /** The /api/new body for a fresh deal under the current settings. */
  function dealRequest() {
    const body = { rules: settings.rules, winnable: settings.winnable };
    if (settings.winnable && settings.difficulty !== "any") body.difficulty = settings.difficulty;
    return body;
  }

  async function newGame(request) {
    const body = request || dealRequest();
    let answer;
    busy = true;
    document.body.dataset.busy = "1";
    try {
      answer = await api("/api/new", body);
    } catch (err) {
      notice(`Could not start that game: ${err.message}`);
      return false;
    } finally {
      busy = false;
      document.body.dataset.busy = "0";
    }
    countAbandon();
    closeSolution();
    game = {
      code: answer.code,
      rules: answer.rules,
      rulesText: answer.rules_text,
      winnable: answer.winnable,
      actions: [],
      redo: [],
      elapsed: 0,
      counted: false,
      won: false,
    };
    clockStart = null;
    lostOffer = null;
    view = answer;
    render();
    saveGame();
    announce(`New game ${game.code}: ${game.rulesText}.`);
    if (body.winnable && !body.code && answer.winnable !== true) {
      notice("The solver found no winnable deal for these rules in time; this deal may not be winnable.");
    }
    return true;
  }

  async function restart() {
    if (!(await confirmDialog("Restart this deal from the beginning?"))) return;
    countAbandon();
    game.actions = [];
    game.redo = [];
    game.elapsed = 0;
    game.counted = false;
    game.won = false;
    clockStart = null;
    lostOffer = null;
    await guarded(() => refresh());
    saveGame();
    announce("Restarted.");
  }

  // -- hint and solution -------------------------------------------------------------------

  function clearHint() {
    if (hintTimer) window.clearTimeout(hintTimer);
    hintTimer = null;
    board.querySelectorAll(".hint, .hint-target").forEach((el) => el.classList.remove("hint", "hint-target"));
  }

  function showHint(move) {
    clearHint();
    const from = moveFrom(move);
    const w = where.get(move.card);
    if (w) {
      const pile = pileEl(from);
      [...pile.querySelectorAll(".card")].slice(-move.count).forEach((el) => el.classList.add("hint"));
    }
    const target = pileEl(moveTo(move));
    if (target) target.classList.add("hint-target");
    hintTimer = window.setTimeout(clearHint, 4000);
  }

  function askHint() {
    if (lockedInput() || view.status !== "playing") return;
    guarded(async () => {
      announce("Thinking…");
      const answer = await api("/api/hint", { code: game.code, moves: flatMoves() });
      if (answer.winnable === false) {
        lostOffer = { undoTo: answer.undo_to };
        renderBanner();
        announce("The solver proved this position cannot be won." + (answer.undo_to !== null ? ` Undo to move ${answer.undo_to} to get back to a winnable position.` : ""));
        return;
      }
      if (answer.move) {
        showHint(answer.move);
        announce(`Hint: ${describeMove(answer.move)}.`);
      } else {
        announce(answer.detail || "No hint found in time.");
      }
    });
  }

  function startSolution() {
    if (lockedInput()) return;
    guarded(async () => {
      announce("Solving…");
      const result = await api("/api/solve", { code: game.code, moves: flatMoves() });
      if (result.verdict !== "solved") {
        if (result.verdict === "unsolvable") {
          // Lost: the hint knows how far back the game was last winnable.
          const answer = await api("/api/hint", { code: game.code, moves: flatMoves() });
          lostOffer = { undoTo: answer.winnable === false ? answer.undo_to : null };
          renderBanner();
          announce("The solver proved this position cannot be won.");
        } else {
          announce("The solver found no solution in its time limit.");
          notice("The solver found no solution in its time limit; try again from a later position.");
        }
        return;
      }
      clearHint();
      sol = { base: flatMoves(), steps: result.moves, k: 0, timer: null, cache: new Map() };
      sol.cache.set(0, view);
      $("solution").hidden = false;
      renderStatus();
      updateSolution();
      announce(`Solution found: ${result.moves.length} moves. Step through it or press Play.`);
    });
  }

  function updateSolution() {
    const { k, steps } = sol;
    const last = k > 0 ? `: ${describeMove(steps[k - 1])}` : "";
    $("sol-text").textContent = `Solution step ${k} of ${steps.length}${last}`;
    $("sol-back").disabled = k === 0;
    $("sol-first").disabled = k === 0;
    $("sol-fwd").disabled = k === steps.length;
    $("sol-play").textContent = sol.timer ? "❚❚ Pause" : "▶ Play";
  }

  async function solutionGo(k) {
    if (!sol || busy) return;
    k = Math.max(0, Math.min(sol.steps.length, k));
    let state = sol.cache.get(k);
    if (!state) {
      busy = true;
      try {
        state = await api("/api/state", { code: game.code, moves: sol.base.concat(sol.steps.slice(0, k)) });
      } catch (err) {
        notice(err.message);
        return;
      } finally {
        busy = false;
      }
      if (!sol) return;
      sol.cache.set(k, state);
    }
    sol.k = k;
    view = state;
    render({ animate: true });
    updateSolution();
    if (k > 0) announce(`Step ${k}: ${describeMove(sol.steps[k - 1])}`);
  }

  function solutionPlay() {
    if (!sol) return;
    if (sol.timer) {
      window.clearInterval(sol.timer);
      sol.timer = null;
    } else {
      if (sol.k === sol.steps.length) solutionGo(0);
      sol.timer = window.setInterval(() => {
        if (!sol) return;
        if (sol.k >= sol.steps.length) {
          window.clearInterval(sol.timer);
          sol.timer = null;
          updateSolution();
          return;
        }
        solutionGo(sol.k + 1);
      }, 650);
    }
    updateSolution();
  }

  /** Leave solution mode; the caller redraws the game. */
  function closeSolution() {
    if (sol && sol.timer) window.clearInterval(sol.timer);
    sol = null;
    $("solution").hidden = true;
  }

  function stopSolution(keep) {
    if (!sol) return;
    const taken = keep ? sol.steps.slice(0, sol.k) : [];
    closeSolution();
    if (taken.length) {
      for (const m of taken) game.actions.push([m]);
      game.redo = [];
      countStart();
    }
    guarded(async () => {
      await refresh({ animate: true });
      announce(keep ? `Playing on from move ${game.actions.length}.` : "Back to your game.");
      afterMove();
    });
  }

  // -- pointer input: drag and drop, taps ---------------------------------------------------

  function legalFrom(label, count) {
    return view.legal_moves.filter((m) => m.count === count && moveFrom(m) === label);
  }

  function pickAt(cardElement) {
    const card = cardElement.dataset.card;
    const w = where.get(card);
    if (!w) return null;
    const count = w.label.startsWith("column") ? w.size - w.index : 1;
    return { label: w.label, index: w.index, count, card };
  }

  function movingEls(pick) {
    const pile = pileEl(pick.label);
    const cards = [...pile.querySelectorAll(".card")];
    return pick.label.startsWith("column") ? cards.slice(pick.index) : [cardEls.get(pick.card)];
  }

  function onPointerDown(e) {
    if (e.pointerType === "mouse" && e.button !== 0) return;
    if (lockedInput()) return;
    const target = e.target.closest(".card, .pile");
    if (!target || !board.contains(target)) return;
    press = {
      id: e.pointerId,
      x: e.clientX,
      y: e.clientY,
      cardEl: e.target.closest(".card"),
      pileEl: e.target.closest(".pile"),
    };
  }

  function onPointerMove(e) {
    if (!press || e.pointerId !== press.id) return;
    if (!drag) {
      if (Math.hypot(e.clientX - press.x, e.clientY - press.y) < DRAG_START_PX) return;
      if (!press.cardEl) return;
      const pick = pickAt(press.cardEl);
      if (!pick) return;
      clearSelection();
      clearHint();
      const moves = legalFrom(pick.label, pick.count);
      const els = movingEls(pick);
      drag = { pick, moves, els, targets: new Set(moves.map(moveTo)) };
      for (const label of drag.targets) pileEl(label).classList.add("target");
      els.forEach((el) => el.classList.add("dragging"));
    }
    const dx = e.clientX - press.x;
    const dy = e.clientY - press.y;
    for (const el of drag.els) el.style.transform = `translate(${dx}px, ${dy}px)`;
    e.preventDefault();
  }

  function dropTarget(e, d) {
    for (const el of document.elementsFromPoint(e.clientX, e.clientY)) {
      const pile = el.closest && el.closest(".pile");
      if (pile && d.targets.has(pile.dataset.pile)) return pile.dataset.pile;
    }
    // Else the legal target the dragged card overlaps most.
    const r = d.els[0].getBoundingClientRect();
    let best = null;
    let bestArea = 0;
    for (const label of d.targets) {
      const pile = pileEl(label);
      const cards = pile.querySelectorAll(".card");
      const t = (cards.length ? cards[cards.length - 1] : pile).getBoundingClientRect();
      const w = Math.min(r.right, t.right) - Math.max(r.left, t.left);
      const h = Math.min(r.bottom, t.bottom) - Math.max(r.top, t.top);
      if (w > 0 && h > 0 && w * h > bestArea) {
        bestArea = w * h;
        best = label;
      }
    }
    return best;
  }

  function snapBack(els) {
    for (const el of els) {
      el.classList.remove("dragging");
      el.classList.add("snap");
      el.style.transform = "";
    }
    window.setTimeout(() => els.forEach((el) => el.classList.remove("snap")), 220);
  }

  function onPointerUp(e) {
    if (!press || e.pointerId !== press.id) return;
    const p = press;
    press = null;
    if (drag) {
      const d = drag;
      drag = null;
      board.querySelectorAll(".target").forEach((el) => el.classList.remove("target"));
      const label = dropTarget(e, d);
      const move = label && d.moves.find((m) => moveTo(m) === label);
      if (move) {
        commit([move]).then((ok) => {
          if (!ok) snapBack(d.els);
        });
      } else {
        snapBack(d.els);
        if (label === null) announce(`${cardShort(d.pick.card)} cannot go there.`);
      }
      return;
    }
    onTap(p);
  }

  function onPointerCancel() {
    if (drag) {
      snapBack(drag.els);
      board.querySelectorAll(".target").forEach((el) => el.classList.remove("target"));
    }
    drag = null;
    press = null;
  }

  function clearSelection() {
    selection = null;
    board.querySelectorAll(".selected").forEach((el) => el.classList.remove("selected"));
    board.querySelectorAll(".target").forEach((el) => el.classList.remove("target"));
  }

  function select(pick) {
    clearSelection();
    const moves = legalFrom(pick.label, pick.count);
    if (!moves.length) {
      announce(`${cardShort(pick.card)} cannot move now.`);
      return false;
    }
    selection = pick;
    movingEls(pick).forEach((el) => el.classList.add("selected"));
    for (const m of moves) pileEl(moveTo(m)).classList.add("target");
    announce(`${cardName(pick.card)}${pick.count > 1 ? ` and ${pick.count - 1} more` : ""} picked up; choose where it goes.`);
    return true;
  }

  function moveSelectionTo(label) {
    const pick = selection;
    clearSelection();
    let move = legalFrom(pick.label, pick.count).find((m) => moveTo(m) === label);
    if (!move) {
      // A shorter part of the run may fit there: take the longest that does.
      const others = view.legal_moves.filter((m) => moveFrom(m) === pick.label && moveTo(m) === label);
      move = others.sort((a, b) => b.count - a.count)[0];
    }
    if (move) commit([move]);
    else announce(`${cardShort(pick.card)} cannot go to ${pileName(label)}.`);
  }

  function smartFrom(label) {
    const entry = view.taps[label];
    if (entry && entry.smart) commit([entry.smart]);
    else announce(`No move from ${pileName(label)}.`);
  }

  function tapFrom(label) {
    const entry = view.taps[label];
    if (entry && entry.tap) {
      commit([entry.tap]);
      return true;
    }
    return false;
  }

  function onTap(p) {
    if (lockedInput() || !p.pileEl) return;
    const label = p.pileEl.dataset.pile;
    const card = p.cardEl ? p.cardEl.dataset.card : null;
    const now = performance.now();
    const double = lastTap && lastTap.label === label && now - lastTap.time < DOUBLE_TAP_MS;
    if (double && lastTap.moved) {
      lastTap = null; // the first tap already played: ignore the second half of the double tap
      return;
    }
    if (double && card && lastTap.card === card) {
      lastTap = null;
      clearSelection();
      smartFrom(label);
      return;
    }
    lastTap = { label, card, time: now, moved: false };
    focusLabel = label;
    if (selection) {
      if (selection.label === label) clearSelection();
      else moveSelectionTo(label);
      return;
    }
    if (!card) return;
    const pick = pickAt(p.cardEl);
    if (!pick) return;
    const isTop = pick.count === 1 || !label.startsWith("column");
    if (isTop && !label.startsWith("foundation") && tapFrom(label)) {
      lastTap.moved = true;
      return;
    }
    select(pick);
  }

  // -- keyboard --------------------------------------------------------------------------

  function focusTarget(label, index) {
    const pile = pileEl(label);
    if (!pile) return null;
    const cards = [...pile.querySelectorAll(".card")];
    if (!cards.length) return pile;
    if (index === undefined || index >= cards.length) return cards[cards.length - 1];
    return cards[Math.max(0, index)];
  }

  function updateFocusTargets(index) {
    board.querySelectorAll("[tabindex='0']").forEach((el) => {
      el.tabIndex = -1;
    });
    const el = focusTarget(focusLabel, index);
    if (el) el.tabIndex = 0;
    return el;
  }

  function moveFocus(label, index) {
    focusLabel = label;
    const el = updateFocusTargets(index);
    if (el) el.focus();
  }

  function currentFocus() {
    const el = document.activeElement;
    if (!el || !board.contains(el)) return null;
    const pile = el.closest(".pile");
    if (!pile) return null;
    const cards = [...pile.querySelectorAll(".card")];
    return { label: pile.dataset.pile, index: el.classList.contains("card") ? cards.indexOf(el) : -1, cards, el };
  }

  function onBoardKey(e) {
    if (e.ctrlKey || e.metaKey || e.altKey || sol) return; // in the solution the keys step it
    const f = currentFocus();
    if (!f) return;
    const order = pileOrder();
    const at = order.indexOf(f.label);
    const topRow = !f.label.startsWith("column");
    let handled = true;
    switch (e.key) {
      case "ArrowRight":
      case "ArrowLeft": {
        const step = e.key === "ArrowRight" ? 1 : -1;
        moveFocus(order[(at + step + order.length) % order.length]);
        break;
      }
      case "ArrowDown":
        if (topRow) {
          const n = Number(f.label.split("-")[1]) || "SHDC".indexOf(f.label.slice(-1)) + 1;
          moveFocus(`column-${Math.min(8, n)}`);
        } else if (f.index >= 0 && f.index < f.cards.length - 1) moveFocus(f.label, f.index + 1);
        break;
      case "ArrowUp":
        if (!topRow && f.index > 0) moveFocus(f.label, f.index - 1);
        else if (!topRow) {
          const n = Number(f.label.split("-")[1]);
          moveFocus(n <= builtCells ? `cell-${n}` : `foundation-${SUITS[(n - 1) % 4]}`);
        }
        break;
      case "Enter":
      case " ":
        if (lockedInput()) break;
        if (selection) {
          if (selection.label === f.label) clearSelection();
          else moveSelectionTo(f.label);
        } else if (f.el.classList.contains("card")) {
          const pick = pickAt(f.el);
          if (pick) select(pick);
        }
        break;
      case "f":
      case "F":
        if (!lockedInput() && !tapFrom(f.label)) announce(`Nothing goes to the foundation from ${pileName(f.label)}.`);
        break;
      case "d":
      case "D":
        if (!lockedInput()) smartFrom(f.label);
        break;
      case "Escape":
        clearSelection();
        break;
      default:
        if (/^[1-8]$/.test(e.key)) moveFocus(`column-${e.key}`);
        else handled = false;
    }
    if (handled) e.preventDefault();
  }

  function anyDialogOpen() {
    return [...document.querySelectorAll("dialog")].some((d) => d.open) || !$("celebrate").hidden;
  }

  function onGlobalKey(e) {
    if (anyDialogOpen()) return;
    const typing = e.target && (e.target.tagName === "INPUT" || e.target.tagName === "SELECT");
    if (typing) return;
    const key = e.key.toLowerCase();
    if ((e.ctrlKey || e.metaKey) && key === "z" && !e.shiftKey) {
      e.preventDefault();
      undo();
    } else if ((e.ctrlKey || e.metaKey) && (key === "y" || (key === "z" && e.shiftKey))) {
      e.preventDefault();
      redo();
    } else if (e.ctrlKey || e.metaKey || e.altKey) {
      return;
    } else if (key === "h") {
      askHint();
    } else if (key === "n") {
      openNewDialog();
    } else if (sol && (key === "escape" || key === "arrowleft" || key === "arrowright" || key === "p")) {
      e.preventDefault();
      if (key === "escape") stopSolution(false);
      else if (key === "p") solutionPlay();
      else solutionGo(sol.k + (key === "arrowright" ? 1 : -1));
    } else if (!board.contains(document.activeElement) && /^[1-8]$/.test(key)) {
      moveFocus(`column-${key}`);
    }
  }

  // -- dialogs ------------------------------------------------------------------------------

  function confirmDialog(text) {
    const dlg = $("dlg-confirm");
    $("confirm-text").textContent = text;
    return new Promise((resolve) => {
      dlg.addEventListener("close", () => resolve(dlg.returnValue === "yes"), { once: true });
      dlg.returnValue = "";
      dlg.showModal();
    });
  }

  const RULE_FIELDS = ["cells", "empty_column", "build", "layout", "group_moves"];

  function rulesOf(value) {
    if (isObject(value)) return value;
    if (presets && presets[value]) return presets[value].rules;
    return { cells: 8, empty_column: "kings", build: "suit", layout: "eight-off", group_moves: "cells", take_back: false };
  }

  function presetMatching(rules) {
    if (!presets) return "custom";
    for (const [name, p] of Object.entries(presets)) {
      if (RULE_FIELDS.every((k) => String(p.rules[k]) === String(rules[k])) && p.rules.take_back === rules.take_back) return name;
    }
    return "custom";
  }

  function fillRuleForm(form, rules) {
    for (const k of RULE_FIELDS) {
      const input = form.querySelector(`input[name="${k}"][value="${rules[k]}"]`);
      if (input) input.checked = true;
    }
    form.elements.take_back.checked = Boolean(rules.take_back);
  }

  function readRuleForm(form) {
    const rules = {};
    for (const k of RULE_FIELDS) {
      const input = form.querySelector(`input[name="${k}"]:checked`);
      if (input) rules[k] = k === "cells" ? Number(input.value) : input.value;
    }
    rules.take_back = form.elements.take_back.checked;
    return rules;
  }

  function openNewDialog() {
    if (anyDialogOpen()) return;
    const form = $("form-new");
    const rules = rulesOf(game ? game.rules : settings.rules);
    fillRuleForm(form, rules);
    form.elements.preset.value = presetMatching(rules);
    form.elements.autoplay.checked = settings.autoplay;
    form.elements.winnable.checked = settings.winnable;
    form.elements.difficulty.value = settings.difficulty;
    $("new-code").value = "";
    $("dlg-new").showModal();
  }

  function onNewClose() {
    const dlg = $("dlg-new");
    const form = $("form-new");
    if (dlg.returnValue === "deal") {
      const rules = readRuleForm(form);
      settings.rules = rules;
      settings.autoplay = form.elements.autoplay.checked;
      settings.winnable = form.elements.winnable.checked;
      settings.difficulty = form.elements.difficulty.value;
      saveSettings();
      newGame();
    } else if (dlg.returnValue === "code") {
      const code = $("new-code").value.trim();
      if (code) newGame({ code });
    }
  }

  function openOptions() {
    const form = $("form-options");
    for (const k of ["fourColour", "largePrint", "autoplay", "showMoves", "showScore", "showTimer"]) {
      form.elements[k].checked = settings[k];
    }
    $("dlg-options").showModal();
  }

  function onOptionChange(e) {
    const input = e.target;
    if (!(input.name in DEFAULT_SETTINGS)) return;
    settings[input.name] = input.checked;
    saveSettings();
    applySettings();
    if (view) render();
  }

  function openStats() {
    const body = $("stats-body");
    body.replaceChildren();
    const rows = Object.values(stats).filter((s) => s.played > 0);
    if (!rows.length) {
      const p = document.createElement("p");
      p.textContent = "No games played yet.";
      body.appendChild(p);
    } else {
      for (const s of rows) {
        const heading = document.createElement("h3");
        heading.className = "stats-rules";
        heading.textContent = s.label || "Rules";
        const table = document.createElement("table");
        table.className = "stats-table";
        const lines = [
          ["Played", s.played],
          ["Won", s.won],
          ["Win rate", `${Math.round((100 * s.won) / Math.max(1, s.played))}%`],
          ["Current streak", s.streak],
          ["Best streak", s.bestStreak],
          ["Best time", s.bestTime === null ? "–" : formatTime(s.bestTime)],
          ["Fewest moves", s.fewestMoves === null ? "–" : s.fewestMoves],
        ];
        for (const [name, value] of lines) {
          const row = document.createElement("tr");
          const th = document.createElement("th");
          th.scope = "row";
          th.textContent = name;
          const td = document.createElement("td");
          td.textContent = String(value);
          row.append(th, td);
          table.appendChild(row);
        }
        body.append(heading, table);
      }
    }
    $("dlg-stats").showModal();
  }

  function shareLink() {
    return `${window.location.origin}/?code=${encodeURIComponent(game.code)}`;
  }

  function openCode() {
    $("code-text").value = game.code;
    $("share-text").value = shareLink();
    $("dlg-code").showModal();
  }

  async function copy(inputId) {
    const input = $(inputId);
    input.select();
    try {
      await navigator.clipboard.writeText(input.value);
      announce("Copied.");
    } catch (err) {
      announce("Select the text and copy it.");
    }
  }

  // -- celebration ------------------------------------------------------------------------

  let celebrateTimer = null;

  function celebrate() {
    const box = $("celebrate");
    $("celebrate-text").textContent = `${game.actions.length} moves, ${formatTime(game.elapsed)}, score ${view.score}.`;
    box.querySelectorAll(".fly").forEach((el) => el.remove());
    if (!reducedMotion.matches) {
      for (let i = 0; i < 28; i++) {
        const suit = SUITS[i % 4];
        const fly = svgUse(suit, `fly ${suit === "H" || suit === "D" ? "red" : "black"}`);
        fly.style.left = `${Math.random() * 96}%`;
        fly.style.animationDelay = `${Math.random() * 1.2}s`;
        box.appendChild(fly);
      }
    }
    box.hidden = false;
    $("celebrate-new").focus();
    announce(`You won! ${$("celebrate-text").textContent}`);
    celebrateTimer = window.setTimeout(endCelebration, 6000);
  }

  function endCelebration() {
    if (celebrateTimer) window.clearTimeout(celebrateTimer);
    celebrateTimer = null;
    $("celebrate").hidden = true;
  }

  // -- start-up ---------------------------------------------------------------------------

  function bind() {
    board.addEventListener("pointerdown", onPointerDown);
    window.addEventListener("pointermove", onPointerMove, { passive: false });
    window.addEventListener("pointerup", onPointerUp);
    window.addEventListener("pointercancel", onPointerCancel);
    board.addEventListener("keydown", onBoardKey);
    board.addEventListener("focusin", (e) => {
      const pile = e.target.closest(".pile");
      if (pile) focusLabel = pile.dataset.pile;
    });
    board.addEventListener("contextmenu", (e) => e.preventDefault());
    document.addEventListener("keydown", onGlobalKey);
    // A new window size or orientation: lay the board out again, once per frame.
    let relayout = 0;
    const onResize = () => {
      if (relayout) return;
      relayout = window.requestAnimationFrame(() => {
        relayout = 0;
        if (view) render();
      });
    };
    window.addEventListener("resize", onResize);
    window.addEventListener("orientationchange", onResize);
    document.addEventListener("visibilitychange", () => {
      if (!game) return;
      if (document.hidden) {
        runClock(false);
        saveGame();
      } else if (game.counted && !game.won && view && view.status !== "won") runClock(true);
    });
    window.addEventListener("pagehide", saveGame);

    $("btn-new").addEventListener("click", openNewDialog);
    $("btn-restart").addEventListener("click", restart);
    $("btn-undo").addEventListener("click", undo);
    $("btn-redo").addEventListener("click", redo);
    $("btn-hint").addEventListener("click", askHint);
    $("btn-solution").addEventListener("click", startSolution);
    $("btn-options").addEventListener("click", openOptions);
    $("btn-stats").addEventListener("click", openStats);
    $("btn-code").addEventListener("click", openCode);
    $("notice-close").addEventListener("click", () => {
      $("notice").hidden = true;
    });
    $("dlg-new").addEventListener("close", onNewClose);
    $("form-options").addEventListener("change", onOptionChange);
    $("new-preset").addEventListener("change", (e) => {
      if (e.target.value !== "custom") fillRuleForm($("form-new"), rulesOf(e.target.value));
    });
    $("form-new").addEventListener("change", (e) => {
      if (e.target.name !== "preset" && RULE_FIELDS.concat("take_back").includes(e.target.name)) {
        $("new-preset").value = presetMatching(readRuleForm($("form-new")));
      }
    });
    $("stats-reset").addEventListener("click", () => {
      stats = {};
      saveStats();
      $("dlg-stats").close();
      announce("Statistics reset.");
    });
    $("code-copy").addEventListener("click", () => copy("code-text"));
    $("share-copy").addEventListener("click", () => copy("share-text"));
    $("celebrate").addEventListener("click", (e) => {
      if (e.target.id !== "celebrate-new") endCelebration();
    });
    $("celebrate").addEventListener("keydown", (e) => {
      if (e.key === "Escape") endCelebration();
    });
    $("celebrate-new").addEventListener("click", () => {
      endCelebration();
      openNewDialog();
    });
    $("sol-first").addEventListener("click", () => solutionGo(0));
    $("sol-back").addEventListener("click", () => solutionGo(sol.k - 1));
    $("sol-fwd").addEventListener("click", () => solutionGo(sol.k + 1));
    $("sol-play").addEventListener("click", solutionPlay);
    $("sol-keep").addEventListener("click", () => stopSolution(true));
    $("sol-return").addEventListener("click", () => stopSolution(false));
    window.setInterval(() => {
      if (game && view && settings.showTimer) $("time").textContent = formatTime(elapsedNow());
    }, 1000);
  }

  async function start() {
    applySettings();
    bind();
    document.body.dataset.busy = "0";
    if (corrupted.length) {
      notice("Some data saved in this browser could not be read and was reset; a fresh game has started.");
    }
    api("/api/rules").then((info) => {
      presets = info.presets;
    }).catch(() => {});
    const params = new URLSearchParams(window.location.search);
    const code = params.get("code");
    if (code) window.history.replaceState(null, "", "/");
    if (savedGame && (!code || code.trim().toUpperCase() === savedGame.code.toUpperCase())) {
      game = savedGame;
      game.counted = Boolean(game.counted);
      game.won = Boolean(game.won);
      try {
        await refresh();
        announce(`Resumed game ${game.code}.`);
        document.body.dataset.ready = "1";
        return;
      } catch (err) {
        notice(`The saved game could not be resumed (${err.message}); a fresh game has started.`);
        game = null;
      }
    }
    let ok = await newGame(code ? { code } : undefined);
    if (!ok && !code) {
      // The saved rules are refused: back to the standard game rather than an empty board.
      settings.rules = DEFAULT_SETTINGS.rules;
      saveSettings();
      notice("The saved rules could not be used; a standard game has started.");
    }
    if (!ok) ok = await newGame(dealRequest());
    document.body.dataset.ready = "1";
  }

  start();
})();
