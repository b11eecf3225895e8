/* Solution mode: the solver's line from the current position, stepped through or played. */

import { ask } from "./engine.js";
import { enqueue } from "./busy.js";
import { announce, clearHint, closeSolution, notice, render } from "./board.js";
import { describeMove, t } from "./i18n.js";
import { placeSolutionBar } from "./layout.js";
import {
  $, flatMoves, keepSolutionView, markGame, pushAction, runClock, setSolution, setSolutionTimer, setView,
  showSolutionStep, state,
} from "./state.js";
import { countStart } from "./storage.js";
import { afterMove, guarded, lockedInput, offerUndo, refresh } from "./play.js";

export function startSolution() {
  if (lockedInput()) return;
  const { game } = state;
  guarded(async () => {
    announce(t("announce.solving"));
    const result = await ask("/api/solve", { code: game.code, moves: flatMoves() });
    if (result.verdict !== "solved") {
      if (result.verdict === "unsolvable") {
        // Lost: the hint knows how far back the game was last winnable.
        const answer = await ask("/api/hint", { code: game.code, moves: flatMoves() });
        if (state.game === game) markGame({ assisted: true }); // the solver's word on the position is help
        offerUndo(answer.winnable === false ? answer.undo_to : null);
        announce(t("banner.lost"));
      } else {
        announce(t("announce.noSolution"));
        notice(t("notice.noSolution"));
      }
      return;
    }
    clearHint();
    runClock(false); // the clock stops while the solution is shown
    if (state.game === game) markGame({ solutionSeen: true }); // help (storage.js wasHelped), told in the daily share line
    const longest = Math.max(...state.view.position.columns.map((col) => col.length));
    setSolution({ base: flatMoves(), steps: result.moves, k: 0, timer: null, cache: new Map([[0, state.view]]), longest });
    $("solution").hidden = false;
    placeSolutionBar();
    updateSolution();
    render(); // the columns make room for the bar
    announce(t("announce.solution", { n: result.moves.length }));
  });
}

function updateSolution() {
  const { k, steps, timer } = state.sol;
  const n = steps.length;
  $("sol-text").textContent = k > 0
    ? t("solution.stepMove", { k, n, move: describeMove(steps[k - 1]) })
    : t("solution.step", { k, n });
  $("sol-back").disabled = k === 0;
  $("sol-first").disabled = k === 0;
  $("sol-fwd").disabled = k === steps.length;
  $("sol-play").textContent = timer ? t("solution.pause") : t("solution.play");
}

/** Show the position after the solution's first ``k(sol)`` moves, in turn. */
function showStep(k) {
  const { sol, game } = state;
  if (!sol) return Promise.resolve();
  return enqueue(async () => {
    if (state.sol !== sol) return;
    const step = Math.max(0, Math.min(sol.steps.length, k(sol)));
    let view = sol.cache.get(step);
    if (!view) {
      try {
        view = await ask("/api/state", { code: game.code, moves: sol.base.concat(sol.steps.slice(0, step)) });
      } catch (err) {
        notice(err.message);
        return;
      }
      if (state.sol !== sol) return;
      keepSolutionView(step, view);
    }
    showSolutionStep(step);
    setView(view);
    render({ animate: true });
    updateSolution();
    if (step > 0) announce(t("announce.step", { k: step, move: describeMove(sol.steps[step - 1]) }));
  });
}

/** Show the solution's position after ``k`` moves. */
export const solutionGo = (k) => showStep(() => k);

/** ``delta`` steps forward (or back) from the step shown when the queue reaches it. */
export const solutionStep = (delta) => showStep((sol) => sol.k + delta);

export function solutionPlay() {
  const { sol } = state;
  if (!sol) return;
  if (sol.timer) {
    window.clearInterval(sol.timer);
    setSolutionTimer(null);
  } else {
    if (sol.k === sol.steps.length) solutionGo(0);
    setSolutionTimer(window.setInterval(() => {
      if (state.sol !== sol) return;
      if (sol.k >= sol.steps.length) {
        window.clearInterval(sol.timer);
        setSolutionTimer(null);
        updateSolution();
        return;
      }
      if (!state.busy) solutionStep(1); // a slow answer is not overtaken
    }, 650));
  }
  updateSolution();
}

/** Leave solution mode: ``keep`` plays the steps shown into the game. */
export function stopSolution(keep) {
  const { sol, game } = state;
  if (!sol) return;
  const taken = keep ? sol.steps.slice(0, sol.k) : [];
  closeSolution();
  if (taken.length) {
    for (const m of taken) pushAction([m]);
    markGame({ assisted: true }); // a win from here is "solved with help"
    countStart();
  }
  guarded(async () => {
    await refresh({ animate: true });
    announce(keep ? t("announce.playingOn", { n: game.actions.length }) : t("announce.backToGame"));
    afterMove();
  });
}
