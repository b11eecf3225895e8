/* Eight Off: the page's entry point. It binds the controls and starts or resumes a game. */

import { ask } from "./engine.js";
import { bindArchive } from "./archive.js";
import { announce, applySettings, bindBanner, closeSolution, notice, render, say } from "./board.js";
import { bindDialogs, loadRules, openNewDialog } from "./dialogs.js";
import { confirmDialog } from "./modal.js";
import { bindPointer } from "./drag.js";
import { placeSolutionBar } from "./layout.js";
import { t } from "./i18n.js";
import { bindKeys } from "./input.js";
import { keepOffline } from "./install.js";
import { chooseLanguage, useLanguage } from "./lang.js";
import {
  askHint, dealRequest, finish, guarded, newGame, redo, refresh, restart, startGame, undo, undoTo,
} from "./play.js";
import { bindShare } from "./share.js";
import { solutionGo, solutionPlay, solutionStep, startSolution, stopSolution } from "./solution.js";
import {
  $, DEFAULT_SETTINGS, KEYS, elapsedNow, formatTime, keepMoves, runClock, setGame, setSetting, state,
} from "./state.js";
import { corrupted, loadStored, saveGame, saveSettings, validGame } from "./storage.js";

/** Another tab saved the game: follow it, so that neither tab loses the other's moves. */
function onStorage(e) {
  if (e.key !== KEYS.game || e.newValue === null || !state.game) return;
  let other;
  try {
    other = JSON.parse(e.newValue);
  } catch (err) {
    return;
  }
  if (!validGame(other)) return;
  const same = (g) => JSON.stringify([g.code, g.actions, g.redo]);
  if (same(other) === same(state.game)) return;
  closeSolution();
  setGame({ ...other, counted: Boolean(other.counted), won: Boolean(other.won) });
  guarded(async () => {
    await refresh();
    say(t("notice.otherTab"));
  });
}

function bind() {
  bindBanner({ undo, undoTo, finish, newGame: openNewDialog });
  bindPointer();
  bindKeys();
  bindDialogs();
  bindShare();
  bindArchive();
  // A new window size or orientation: lay the board out again, once per frame.
  let relayout = 0;
  const onResize = () => {
    if (relayout) return;
    relayout = window.requestAnimationFrame(() => {
      relayout = 0;
      if (state.view) render();
      if (state.sol) placeSolutionBar();
    });
  };
  window.addEventListener("resize", onResize);
  window.addEventListener("orientationchange", onResize);
  document.addEventListener("visibilitychange", () => {
    const { game, view } = state;
    if (!game) return;
    if (document.hidden) {
      runClock(false);
      saveGame();
    } else if (game.counted && !game.won && view && view.status !== "won") runClock(true);
  });
  window.addEventListener("pagehide", saveGame);
  window.addEventListener("storage", onStorage);

  $("btn-new").addEventListener("click", openNewDialog);
  $("btn-restart").addEventListener("click", restart);
  $("btn-undo").addEventListener("click", undo);
  $("btn-redo").addEventListener("click", redo);
  $("btn-hint").addEventListener("click", askHint);
  $("btn-solution").addEventListener("click", startSolution);
  $("notice-close").addEventListener("click", () => {
    $("notice").hidden = true;
  });
  $("sol-first").addEventListener("click", () => solutionGo(0));
  $("sol-back").addEventListener("click", () => solutionStep(-1));
  $("sol-fwd").addEventListener("click", () => solutionStep(1));
  $("sol-play").addEventListener("click", solutionPlay);
  $("sol-keep").addEventListener("click", () => stopSolution(true));
  $("sol-return").addEventListener("click", () => stopSolution(false));
  window.setInterval(() => {
    if (state.game && state.view && state.settings.showTimer) $("time").textContent = formatTime(elapsedNow());
  }, 1000);
}

/** Go on with the saved game ``saved``: true when the server could replay it. */
async function resume(saved) {
  saved.counted = Boolean(saved.counted); // read from storage: not the state yet
  saved.won = Boolean(saved.won);
  setGame(saved);
  try {
    try {
      await refresh();
    } catch (err) {
      // A move saved on its way and then refused: the game goes on from the moves before it.
      if (!(err.status === 422 && err.data && Number.isInteger(err.data.index))) throw err;
      keepMoves(err.data.index);
      await refresh();
    }
    announce(t("announce.resumed", { code: saved.code }));
    document.body.dataset.ready = "1";
    return true;
  } catch (err) {
    notice(t("notice.cannotResume", { error: err.message }));
    setGame(null);
    return false;
  }
}

async function start() {
  const savedGame = loadStored();
  // Never played here: the board names its cells and foundations.
  document.body.classList.toggle("first-run", !savedGame && Object.keys(state.stats).length === 0);
  useLanguage(chooseLanguage());
  applySettings();
  bind();
  document.body.dataset.busy = "0";
  if (corrupted.length) notice(t("notice.corrupted", { what: corrupted.map((k) => t(`stored.${k}`)).join(", ") }));
  const rules = loadRules().catch(() => {}); // the New game form, the stats headings, the difficulty levels
  const params = new URLSearchParams(window.location.search);
  const code = params.get("code");
  if (code) window.history.replaceState(null, "", "/");
  const sameCode = savedGame && code && code.trim().toUpperCase() === savedGame.code.toUpperCase();
  if (savedGame && code && !sameCode && savedGame.actions.length && !savedGame.won) {
    // A share link while a game is in progress: a bad code changes nothing; a good one asks.
    let answer = null;
    try {
      answer = await ask("/api/new", { code });
    } catch (err) {
      notice(t("notice.cannotStart", { error: err.message }));
    }
    if (answer && (await confirmDialog(t("confirm.openShared", { code: answer.code, moves: savedGame.actions.length })))) {
      startGame(answer, { code });
      document.body.dataset.ready = "1";
      return;
    }
    if (await resume(savedGame)) return;
  } else if (savedGame && (!code || sameCode) && (await resume(savedGame))) return;
  await rules; // a stored difficulty the server does not offer is back to the first level
  let ok = await newGame(code ? { code } : undefined);
  if (!ok && code && savedGame && (await resume(savedGame))) return; // a bad code: the game goes on
  if (!ok && !code) {
    // The saved rules are refused: back to the standard game rather than an empty board.
    setSetting("rules", DEFAULT_SETTINGS.rules);
    saveSettings();
    notice(t("notice.rulesRefused"));
  }
  if (!ok) ok = await newGame(dealRequest());
  document.body.dataset.ready = "1";
}

keepOffline();
start();
