/* Playing: moves sent to the server, undo and redo, new games, hints. The game is
 * {code, actions}: the server is sent the flat list of moves and replays it every time. */

import { api } from "./api.js";
import { exclusive } from "./busy.js";
import { announce, clearHint, notice, render, renderBanner, renderStatus, showHint } from "./board.js";
import { celebrate, confirmDialog } from "./dialogs.js";
import { longDate } from "./daily.js";
import { describeMove, t } from "./i18n.js";
import { flatMoves, runClock, state } from "./state.js";
import { countAbandon, countStart, countWin, saveGame } from "./storage.js";
import { closeSolution } from "./solution.js";

/** No board input now: a round trip runs, the solution is shown, or nothing is drawn. */
export function lockedInput() {
  return state.busy || state.sol !== null || !state.view;
}

/** Run ``fn`` under the lock; a failure becomes a notice. */
export function guarded(fn) {
  return exclusive(async () => {
    try {
      await fn();
    } catch (err) {
      notice(err.message);
    }
  });
}

/** Play ``moves`` as one action (autoplay adds its moves to it): true when played. */
export async function commit(moves, label) {
  const { game } = state;
  const played = await exclusive(async () => {
    try {
      const answer = await api("/api/state", {
        code: game.code,
        moves: flatMoves().concat(moves),
        autoplay: state.settings.autoplay,
      });
      const action = moves.concat(answer.autoplayed);
      state.view = answer;
      if (!action.length) {
        render();
        return false;
      }
      game.actions.push(action);
      game.redo = [];
      state.lostOffer = null;
      countStart();
      runClock(true);
      render({ animate: true });
      let text = label || describeMove(moves[0]);
      if (moves.length && answer.autoplayed.length) text += t("move.autoplayed", { n: answer.autoplayed.length });
      announce(text);
      afterMove();
      return true;
    } catch (err) {
      announce(err.message);
      if (err.status !== 422) notice(err.message);
      render();
      return false;
    }
  });
  return Boolean(played);
}

/** Autoplay just turned on: the cards it would have sent home go now, as one action. */
export function autoplayNow() {
  if (!lockedInput() && state.view.status === "playing") commit([], t("announce.autoplayNow"));
}

/** Why the server refuses ``move`` here (its reason), or null when the move is legal. */
export async function explain(move) {
  try {
    await api("/api/state", { code: state.game.code, moves: flatMoves().concat([move]) });
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
    game.won = true;
    countWin();
    saveGame();
    renderStatus();
    celebrate();
    return;
  }
  if (view.status === "stuck") announce(t("announce.stuck"));
  saveGame();
}

/** Ask the server for the game as it is now and draw it. */
export async function refresh(options) {
  const { game } = state;
  state.view = await api("/api/state", { code: game.code, moves: flatMoves() });
  render(options);
  runClock(game.counted && !game.won && state.view.status !== "won");
}

export function undo() {
  const { game } = state;
  if (!game.actions.length || state.sol) return;
  guarded(async () => {
    const action = game.actions.pop();
    game.redo.push(action);
    state.lostOffer = null;
    await refresh({ animate: true });
    announce(t("announce.undone", { move: describeMove(action[0]) }));
    saveGame();
  });
}

export function redo() {
  const { game } = state;
  if (!game.redo.length || state.sol) return;
  guarded(async () => {
    const action = game.redo.pop();
    game.actions.push(action);
    await refresh({ animate: true });
    announce(t("announce.redone", { move: describeMove(action[0]) }));
    afterMove();
  });
}

/** Take back whole actions until at most ``count`` moves are played. */
export function undoTo(count) {
  const { game } = state;
  guarded(async () => {
    while (game.actions.length && flatMoves().length > count) game.redo.push(game.actions.pop());
    state.lostOffer = null;
    await refresh({ animate: true });
    announce(t("announce.backTo", { n: game.actions.length }));
    saveGame();
  });
}

export function finish() {
  if (state.view.finish) commit(state.view.finish, t("announce.finish"));
}

/** The /api/new body for a fresh deal under the current settings. */
export function dealRequest() {
  const { settings } = state;
  const body = { rules: settings.rules, winnable: settings.winnable };
  if (settings.winnable && settings.difficulty !== "any") body.difficulty = settings.difficulty;
  return body;
}

/** Start the game ``request`` asks for (default: a fresh deal): true when started. */
export async function newGame(request) {
  const body = request || dealRequest();
  let answer;
  try {
    answer = await exclusive(() => (body.daily
      ? api(`/api/daily?date=${encodeURIComponent(body.daily)}`)
      : api("/api/new", body)));
  } catch (err) {
    notice(t("notice.cannotStart", { error: err.message }));
    return false;
  }
  if (answer === undefined) return false;
  countAbandon();
  closeSolution();
  state.game = {
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
  };
  state.clockStart = null;
  state.lostOffer = null;
  state.view = answer;
  render();
  saveGame();
  announce(answer.date
    ? t("announce.daily", { date: longDate(answer.date), code: answer.code })
    : t("announce.newGame", { code: answer.code, rules: answer.rules_text }));
  if (body.winnable && !body.code && answer.winnable !== true) notice(t("notice.notWinnable"));
  return true;
}

export async function restart() {
  if (!(await confirmDialog(t("confirm.restart")))) return;
  const { game } = state;
  countAbandon();
  game.actions = [];
  game.redo = [];
  game.elapsed = 0;
  game.counted = false;
  game.won = false;
  game.hints = 0;
  game.solutionSeen = false;
  state.clockStart = null;
  state.lostOffer = null;
  await guarded(() => refresh());
  saveGame();
  announce(t("announce.restarted"));
}

/** The solver proved the position lost: offer to go back to the last winnable one. */
export function offerUndo(undoTo) {
  state.lostOffer = { undoTo };
  renderBanner();
}

export function askHint() {
  if (lockedInput() || state.view.status !== "playing") return;
  const { game } = state;
  guarded(async () => {
    announce(t("announce.thinking"));
    const answer = await api("/api/hint", { code: game.code, moves: flatMoves() });
    game.hints = (game.hints || 0) + 1;
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
