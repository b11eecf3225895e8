/* Playing: moves, undo and redo, new games, hints. The game is {code, actions}: the game
 * service (the page's worker, else the server: engine.js) is sent the flat list of moves
 * and answers the position they reach. */

import { ask } from "./engine.js";
import { enqueue, sendInTurn, settled } from "./busy.js";
import {
  announce, clearHint, closeSolution, landed, notice, render, renderBanner, renderStatus, say, showHint,
} from "./board.js";
import { celebrate, confirmDialog } from "./modal.js";
import { rulesTitle } from "./rulesets.js";
import { longDate } from "./daily.js";
import { cardShort, describeMove, t } from "./i18n.js";
import {
  addPending, advancePending, dropPending, flatMoves, markGame, playAgain, pushAction, reducedMotion, restartGame, runClock,
  setGame, setLostOffer, setView, state, takeBack,
} from "./state.js";
import { countAbandon, countStart, countWin, saveGame } from "./storage.js";
import { keepAhead, keptDeal, noteSeen } from "./offline.js";
import { playSound } from "./sound.js";

/** How long each card of "Finish" takes on its way home, in ms. */
const FINISH_STEP_MS = 110;

/** No board input now: the solution is shown, or nothing is drawn yet. (A move made while
 * another is on its way is queued, never dropped.) */
export function lockedInput() {
  return state.sol !== null || !state.view;
}

/** Resolve ``fn`` in the input queue once the server has answered every move before it
 * (undo, redo, a new game); a failure becomes a notice. */
export function guarded(fn) {
  return enqueue(async () => {
    await settled();
    try {
      await fn();
    } catch (err) {
      notice(err.message);
    }
  });
}

const pause = (ms) => new Promise((resolve) => window.setTimeout(resolve, ms));

/** Play ``moves`` as the player's next action: drawn at once, sent to the server after the
 * moves before it (autoplay adds its moves to the action). Called while an input is
 * resolved, in turn; the promise says whether the server accepted it. */
export function play(moves, label) {
  const action = { moves, shown: moves.length, label, game: state.game, ready: null };
  addPending(action);
  saveGame(); // kept at once: a reload now keeps the move
  render({ animate: true });
  return sendInTurn(() => send(action));
}

/** The server's word on the position drawn: resolves once no move is on its way. */
export async function settledView() {
  await settled();
  return state.view;
}

async function send(action) {
  const { game } = action;
  if (!state.pending.includes(action)) return false; // dropped with a refused move before it
  if (state.game !== game) return false;
  let answer;
  try {
    answer = await ask("/api/state", {
      code: game.code,
      moves: flatMoves().concat(action.moves),
      autoplay: state.settings.autoplay,
      refusal_ok: true,
    });
  } catch (err) {
    // Refused: the moves queued after it were made on top of it; they go too.
    dropPending();
    if (state.game !== game) return false;
    render({ animate: true });
    const move = err.status === 422 && err.data ? action.moves[err.data.index - flatMoves().length] : null;
    if (move) say(t("refuse.why", { card: cardShort(move.card), reason: err.data.reason || err.message }));
    else notice(err.message);
    return false;
  }
  if (action.ready) await action.ready; // the cards finish going home one by one first
  dropPending(action);
  if (state.game !== game) return false;
  const moves = action.moves.concat(answer.autoplayed);
  setView(answer);
  if (!moves.length) {
    render();
    return false;
  }
  pushAction(moves);
  setLostOffer(null);
  countStart();
  runClock(true);
  playSound("move");
  render({ animate: true });
  let text = action.label || describeMove(action.moves[0]);
  if (action.moves.length && answer.autoplayed.length) text += t("move.autoplayed", { n: answer.autoplayed.length });
  announce(text);
  if (action.ready) await landed(); // the last card lands
  afterMove();
  return true;
}

/** Autoplay just turned on: the cards it would have sent home go now, as one action. */
export function autoplayNow() {
  enqueue(async () => {
    await settled();
    if (!lockedInput() && state.view.status === "playing") play([], t("announce.autoplayNow"));
  });
}

/** Why the server refuses ``move`` here (its reason), or null when the move is legal. */
export async function explain(move) {
  try {
    await ask("/api/state", { code: state.game.code, moves: flatMoves().concat([move]), refusal_ok: true });
    return null;
  } catch (err) {
    return err.status === 422 && err.data && err.data.reason ? err.data.reason : err.message;
  }
}

/** After the game changed: the win, or "stuck"; the game saved. */
export function afterMove() {
  const { game, view } = state;
  if (view.status === "won" && !game.won) {
    runClock(false);
    markGame({ won: true });
    countWin();
    saveGame();
    renderStatus();
    celebrate();
    playSound("win");
    return;
  }
  if (view.status === "stuck") announce(t("announce.stuck"));
  saveGame();
}

/** Ask the server for the game as it is now and draw it. */
export async function refresh(options) {
  const { game } = state;
  setView(await ask("/api/state", { code: game.code, moves: flatMoves() }));
  render(options);
  runClock(game.counted && !game.won && state.view.status !== "won");
}

export function undo() {
  const { game } = state;
  guarded(async () => {
    if (!game.actions.length || state.sol || state.game !== game) return;
    const action = takeBack();
    saveGame(); // kept at once, as a move is
    setLostOffer(null);
    await refresh({ animate: true });
    announce(t("announce.undone", { move: describeMove(action[0]) }));
    saveGame();
  });
}

export function redo() {
  const { game } = state;
  guarded(async () => {
    if (!game.redo.length || state.sol || state.game !== game) return;
    const action = playAgain();
    saveGame();
    await refresh({ animate: true });
    announce(t("announce.redone", { move: describeMove(action[0]) }));
    afterMove();
  });
}

/** Take back whole actions until at most ``count`` moves are played. */
export function undoTo(count) {
  const { game } = state;
  guarded(async () => {
    while (state.game === game && game.actions.length && flatMoves().length > count) takeBack();
    saveGame();
    setLostOffer(null);
    await refresh({ animate: true });
    announce(t("announce.backTo", { n: game.actions.length }));
    saveGame();
  });
}

/** Play every remaining card home, one by one where the eye can follow (at once with
 * reduced motion), as one action; the win shows once the last card has landed. */
export function finish() {
  enqueue(async () => {
    await settled();
    const moves = state.view && state.view.finish;
    if (!moves || lockedInput()) return;
    const action = { moves, shown: 0, label: t("announce.finish"), game: state.game, ready: null };
    addPending(action);
    const step = reducedMotion.matches ? 0 : FINISH_STEP_MS;
    const drawn = (async () => {
      for (let k = 1; k <= moves.length; k++) {
        if (!state.pending.includes(action)) return;
        advancePending(action, { shown: k });
        if (step) {
          render({ animate: true });
          await pause(step);
        }
      }
      if (!step) render();
    })();
    advancePending(action, { ready: drawn });
    sendInTurn(() => send(action));
  });
}

/** The /api/new body for a fresh deal under the current settings. */
export function dealRequest() {
  const { settings } = state;
  const body = { rules: settings.rules, winnable: settings.winnable };
  if (settings.winnable && settings.difficulty !== "any") body.difficulty = settings.difficulty;
  return body;
}

/** The start of the game of ``code``, as /api/new answers it (in the page's worker). */
const startOf = (code) => ask("/api/new", { code });

/** The answer to the New game ``body`` (the server deals fresh deals and the deal of the
 * day); offline, the kept deal for it (a code of a winnable deal, the deal of the day of
 * its date) started from its code. */
async function dealFor(body) {
  try {
    return await (body.daily ? ask(`/api/daily?date=${encodeURIComponent(body.daily)}`) : ask("/api/new", body));
  } catch (err) {
    const kept = err.status === 0 ? keptDeal(body) : null; // 0: the server is out of reach
    if (!kept) throw err;
    return { ...(await startOf(kept.code)), ...kept.fields };
  }
}

/** Start the game ``request`` asks for (default: a fresh deal): true when started. */
export async function newGame(request) {
  const body = request || dealRequest();
  let answer;
  try {
    answer = await enqueue(async () => {
      await settled();
      return dealFor(body);
    });
  } catch (err) {
    notice(t("notice.cannotStart", { error: err.message }));
    return false;
  }
  startGame(answer, body);
  return true;
}

/** Start the game of ``code`` (its deal computed in the page where the worker runs):
 * true when started; a bad code is said in a notice, as the server words it. */
export const startFromCode = (code) => newGame({ code });

/** Play the game of ``answer``, the answer to the /api/new ``body`` (or /api/daily's). */
export function startGame(answer, body) {
  countAbandon();
  dropPending();
  closeSolution();
  setGame({
    code: answer.code,
    rules: answer.rules,
    rulesText: answer.rules_text,
    winnable: answer.winnable,
    actions: [],
    redo: [],
    elapsed: 0,
    counted: false,
    won: false,
    daily: answer.date || null, // the deal of the day: its date
    hints: 0,
  });
  setView(answer);
  render();
  saveGame();
  announce(answer.date
    ? t("announce.daily", { date: longDate(answer.date), code: answer.code })
    : t("announce.newGame", { code: answer.code, rules: rulesTitle(answer.rules) }));
  if (body.winnable && !body.code && answer.winnable !== true) notice(t("notice.notWinnable"));
  noteSeen(answer.code);
  keepAhead(dealRequest()); // what the next games need offline
}

export async function restart() {
  if (!(await confirmDialog(t("confirm.restart")))) return;
  countAbandon();
  restartGame();
  await guarded(() => refresh());
  saveGame();
  announce(t("announce.restarted"));
}

/** The solver proved the position lost: offer to go back to the last winnable one. */
export function offerUndo(undoTo) {
  setLostOffer({ undoTo });
  renderBanner();
}

export function askHint() {
  if (lockedInput() || state.view.status !== "playing") return;
  const { game } = state;
  guarded(async () => {
    if (state.game !== game || state.view.status !== "playing") return;
    announce(t("announce.thinking"));
    const answer = await ask("/api/hint", { code: game.code, moves: flatMoves() });
    if (state.game === game) markGame({ hints: (game.hints || 0) + 1 });
    if (answer.winnable === false) {
      offerUndo(answer.undo_to);
      let text = t("banner.lost");
      if (answer.undo_to !== null) text += ` ${t("announce.undoToMove", { n: answer.undo_to })}`;
      announce(text);
      return;
    }
    if (answer.move) {
      clearHint();
      showHint(answer.move);
      announce(t("announce.hint", { move: describeMove(answer.move) }));
    } else {
      announce(answer.detail || t("announce.noHint"));
    }
  });
}
