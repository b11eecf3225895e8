/* The deals kept for playing offline, fetched ahead while the server answers and kept in
 * localStorage (``eightoff.offline``):
 *
 * - codes of winnable deals for the rules and difficulty of the player's new games
 *   (GET /api/pool): offline, New game deals the next one, never a code played here before;
 * - the deals of the day of the next two weeks (GET /api/daily/ahead): offline, the deal of
 *   the day is the one kept for the date;
 * - the rule declaration (GET /api/rules), for the New game form.
 *
 * The service worker keeps the page's files (sw.js); starting a game from its code is the
 * game's own (play.js). */

import { api } from "./api.js";
import { localDate } from "./daily.js";
import { rulesOf } from "./rulesets.js";
import { KEYS, isObject, state } from "./state.js";

/** Codes kept per rule set and difficulty; fewer than LOW left, more are asked for. */
const KEEP = 24;
const LOW = 8;
/** Deals of the day kept ahead, asked again once fewer than AHEAD_LOW days are left. */
const AHEAD = 14;
const AHEAD_LOW = 7;
/** Days of past deals of the day kept (the archive's latest days, offline). */
const PAST_DAYS = 31;
/** Codes remembered as played here: never dealt again from the kept ones. */
const SEEN = 1000;

const empty = () => ({ pools: {}, days: {}, seen: [], rules: null });

const isCodes = (v) => Array.isArray(v) && v.every((c) => typeof c === "string");
const valid = (v) =>
  isObject(v) && isObject(v.pools) && Object.values(v.pools).every(isCodes) && isObject(v.days)
  && Object.values(v.days).every((d) => isObject(d) && typeof d.code === "string") && isCodes(v.seen);

/** What is kept (a damaged or missing entry reads as nothing kept: it is only a cache). */
function load() {
  try {
    const kept = JSON.parse(window.localStorage.getItem(KEYS.offline));
    if (valid(kept)) return kept;
  } catch (err) {
    /* storage disabled or unreadable */
  }
  return empty();
}

function save(kept) {
  try {
    window.localStorage.setItem(KEYS.offline, JSON.stringify(kept));
  } catch (err) {
    /* storage full or disabled: nothing kept for offline */
  }
}

/** The calendar date ``n`` days after ``iso`` (YYYY-MM-DD). */
function dayAfter(iso, n) {
  const [y, m, d] = iso.split("-").map(Number);
  return localDate(new Date(y, m - 1, d + n));
}

/** The rules of a New game request as the list of every option's value, in the rule
 * table's order (a preset's name and its options, or options given in another order, make
 * the same list); as given while the table is not known. */
function everyOption(rules) {
  if (!state.ruleTable) return rules;
  const given = isObject(rules) ? rules : {};
  const full = { ...rulesOf(isObject(rules) ? given.preset : rules), ...given };
  return state.ruleTable.map((option) => [option.name, full[option.name] ?? option.default]);
}

/** The kept codes' key: the rules and the difficulty of a New game request. */
const poolKey = (rules, difficulty) => JSON.stringify([everyOption(rules), difficulty || "any"]);

/** A game code started here: never dealt again from the kept ones (startGame). */
export function noteSeen(code) {
  const kept = load();
  if (kept.seen.includes(code)) return;
  kept.seen = kept.seen.concat(code).slice(-SEEN);
  for (const key of Object.keys(kept.pools)) kept.pools[key] = kept.pools[key].filter((c) => c !== code);
  save(kept);
}

/** The kept deal for the New game ``request`` (what /api/new or /api/daily would be
 * asked): {code, fields} where ``fields`` are what the server's answer would add to the
 * game's start (the date of a deal of the day...), or null when nothing is kept for it. */
export function keptDeal(request) {
  if (request.code) return { code: request.code, fields: {} };
  const kept = load();
  if (request.daily) {
    const day = kept.days[request.daily];
    return day ? { code: day.code, fields: { date: request.daily, solver_moves: day.solver_moves, winnable: true } } : null;
  }
  const seen = new Set(kept.seen);
  // Of the difficulty asked, else of any difficulty under the same rules; the code is
  // used up once its game starts (noteSeen).
  for (const key of [poolKey(request.rules, request.difficulty), poolKey(request.rules, "any")]) {
    const code = (kept.pools[key] || []).find((c) => !seen.has(c));
    if (code) return { code, fields: { winnable: true } };
  }
  return null;
}

let asking = false; // one round of questions at a time

/** Ask the server, while it answers, for what the next games offline need: more codes for
 * New game ``request`` when few are left, the deals of the day ahead when few days are
 * kept. Quietly does nothing offline. */
export async function keepAhead(request) {
  if (asking) return;
  asking = true;
  try {
    const key = poolKey(request.rules, request.difficulty);
    if ((load().pools[key] || []).length < LOW) {
      const rules = typeof request.rules === "string" ? request.rules : JSON.stringify(request.rules);
      const query = new URLSearchParams({ rules, difficulty: request.difficulty || "any", count: String(KEEP) });
      const answer = await api(`/api/pool?${query}`);
      const kept = load();
      const seen = new Set(kept.seen);
      const codes = kept.pools[key] || [];
      kept.pools[key] = codes.concat(answer.codes.filter((c) => !seen.has(c) && !codes.includes(c))).slice(0, 2 * KEEP);
      save(kept);
    }
    const today = localDate();
    if (!load().days[dayAfter(today, AHEAD_LOW)]) {
      const answer = await api(`/api/daily/ahead?date=${today}&days=${AHEAD}`);
      const kept = load();
      for (const day of answer.days) kept.days[day.date] = { code: day.code, solver_moves: day.solver_moves };
      const oldest = dayAfter(today, -PAST_DAYS);
      for (const date of Object.keys(kept.days)) if (date < oldest) delete kept.days[date];
      save(kept);
    }
  } catch (err) {
    /* offline, or refused: asked again with the next game */
  } finally {
    asking = false;
  }
}

/** Keep the server's rule declaration (GET /api/rules) for the New game form offline. */
export function keepRules(info) {
  const kept = load();
  kept.rules = info;
  save(kept);
}

/** The rule declaration kept, or null. */
export function keptRules() {
  const { rules } = load();
  return isObject(rules) && isObject(rules.presets) && Array.isArray(rules.table) ? rules : null;
}
