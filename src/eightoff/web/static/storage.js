/* What the browser keeps: settings, statistics and the game in progress. Damaged entries
 * are dropped and remembered in ``corrupted`` (the page says what was reset). */

import { dailyStart, dailyWin } from "./daily.js";
import { DEFAULT_SETTINGS, KEYS, changeStats, foldClock, isObject, markGame, setSettings, setStats, state } from "./state.js";

export const corrupted = [];

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

const isMove = (m) => isObject(m) && Array.isArray(m.from) && Array.isArray(m.to);
const isActionList = (a) =>
  Array.isArray(a) && a.every((x) => Array.isArray(x) && x.length > 0 && x.every(isMove));

function validSettings(v) {
  if (!isObject(v)) return false;
  for (const [key, def] of Object.entries(DEFAULT_SETTINGS)) {
    if (!(key in v)) continue;
    if (key === "rules") {
      if (typeof v.rules !== "string" && !isObject(v.rules)) return false;
    } else if (typeof v[key] !== typeof def) return false;
  }
  return true;
}

function validStats(v) {
  if (!isObject(v)) return false;
  return Object.values(v).every((s) => isObject(s) && typeof s.played === "number" && typeof s.won === "number");
}

export function validGame(v) {
  return isObject(v) && typeof v.code === "string" && isActionList(v.actions) && isActionList(v.redo)
    && typeof v.elapsed === "number" && isObject(v.rules);
}

/** Read settings and statistics into the state; the saved game (or null). */
export function loadStored() {
  setSettings({ ...DEFAULT_SETTINGS, ...(storageGet(KEYS.settings, validSettings) || {}) });
  setStats(storageGet(KEYS.stats, validStats) || {});
  return storageGet(KEYS.game, validGame);
}

export const saveSettings = () => storageSet(KEYS.settings, state.settings);
export const saveStats = () => storageSet(KEYS.stats, state.stats);

/** Save the game, with the moves drawn already and still on their way (a reload keeps
 * every move the player made, answered or not). */
export function saveGame() {
  const { game } = state;
  if (!game) return;
  foldClock();
  const drawn = state.pending.filter((a) => a.game === game && a.moves.length).map((a) => a.moves);
  storageSet(KEYS.game, drawn.length ? { ...game, actions: game.actions.concat(drawn), redo: [] } : game);
}

// -- statistics, one entry per rule set ---------------------------------------------------

function statsKey(rules) {
  return JSON.stringify(Object.keys(rules).sort().map((k) => [k, rules[k]]));
}

/** Change the statistics of game ``g``'s rule set (or of the deals of the day) by
 * ``change(record)``. */
function changeStatsOf(g, change) {
  const key = g.daily ? "daily" : statsKey(g.rules);
  return changeStats(key, () => ({
    label: g.daily ? "" : g.rulesText, daily: Boolean(g.daily), played: 0, won: 0, streak: 0, bestStreak: 0, bestTime: null, fewestMoves: null,
  }), change);
}

export function countStart() {
  const { game } = state;
  if (game.counted) return;
  markGame({ counted: true });
  changeStatsOf(game, (s) => {
    if (game.daily) dailyStart(s, game.daily);
    else s.played += 1;
  });
  saveStats();
}

/** The rules of a statistics entry (its key). */
export const statsRules = (key) => Object.fromEntries(JSON.parse(key));

/** Whether the game had help: a hint or the solver's solution was shown (a restart
 * forgets it). */
export const wasHelped = (game) => Boolean(game.assisted || game.hints || game.solutionSeen);

export function countWin() {
  const { game } = state;
  changeStatsOf(game, (s) => {
    if (wasHelped(game)) {
      s.helped = (s.helped || 0) + 1;
      s.streak = 0;
      return;
    }
    if (game.daily) {
      if (!dailyWin(s, game.daily)) return;
    } else {
      s.won += 1;
      s.streak += 1;
      s.bestStreak = Math.max(s.bestStreak, s.streak);
    }
    const time = game.elapsed;
    s.bestTime = s.bestTime === null ? time : Math.min(s.bestTime, time);
    const moves = game.actions.length;
    s.fewestMoves = s.fewestMoves === null ? moves : Math.min(s.fewestMoves, moves);
  });
  saveStats();
}

/** Forget every statistic; a game in progress counts as played again. */
export function resetStats() {
  const { game } = state;
  setStats({});
  if (game && game.counted && !game.won) {
    markGame({ counted: false });
    countStart();
  }
  saveStats();
}

export function countAbandon() {
  const { game } = state;
  if (game && game.counted && !game.won && !game.daily) { // a daily streak counts days
    changeStatsOf(game, (s) => {
      s.streak = 0;
    });
    saveStats();
  }
}
