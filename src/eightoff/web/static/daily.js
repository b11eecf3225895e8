/* The deal of the day on the page: the player's calendar date, its own streak of days won in
 * a row, and the line to share after the win. The deal itself comes from /api/daily. */

import { currentLanguage, t } from "./i18n.js";

/** A date as YYYY-MM-DD in the player's time zone (default: today). */
export function localDate(when = new Date()) {
  const pad = (n) => String(n).padStart(2, "0");
  return `${when.getFullYear()}-${pad(when.getMonth() + 1)}-${pad(when.getDate())}`;
}

/** The calendar day before ``iso`` (YYYY-MM-DD). */
export function dayBefore(iso) {
  const [y, m, d] = iso.split("-").map(Number);
  return localDate(new Date(y, m - 1, d - 1));
}

/** "30 Nov 2026" / "30 nov. 2026": the date as the page's language writes it. */
export function longDate(iso) {
  const [y, m, d] = iso.split("-").map(Number);
  const locale = currentLanguage() === "en" ? "en-GB" : currentLanguage();
  return new Intl.DateTimeFormat(locale, { day: "numeric", month: "short", year: "numeric" })
    .format(new Date(y, m - 1, d));
}

/** The line to share once the deal of the day is won, else null. */
export function dailyShare(game) {
  if (!game || !game.daily || !game.won) return null;
  const n = game.hints || 0;
  let hints = n === 0 ? t("daily.noHints") : n === 1 ? t("daily.oneHint") : t("daily.hints", { n });
  if (game.solutionSeen) hints += t("daily.solution");
  return t("daily.share", { date: longDate(game.daily), moves: game.actions.length, hints });
}

/** Record a start of the deal of ``date`` in the daily statistics ``s`` (once per date;
 * ``s.days`` maps each date played to "played" or "won", for the archive's calendar). */
export function dailyStart(s, date) {
  s.days = s.days || {};
  if (s.lastPlayed === date || date in s.days) return;
  s.days[date] = "played";
  if (!s.lastPlayed || date > s.lastPlayed) s.lastPlayed = date;
  s.played += 1;
}

/** Record the win of the deal of ``date``: the streak grows on consecutive days only (a
 * past day won from the archive counts as won, and leaves the streak as it is). */
export function dailyWin(s, date) {
  s.days = s.days || {};
  if (s.lastWon === date || s.days[date] === "won") return false;
  s.days[date] = "won";
  s.won += 1;
  if (!s.lastWon || date > s.lastWon) {
    s.streak = s.lastWon === dayBefore(date) ? s.streak + 1 : 1;
    s.lastWon = date;
    s.bestStreak = Math.max(s.bestStreak, s.streak);
  }
  return true;
}

/** The streak still running today: the last day won is today or yesterday. */
export function dailyStreak(s, today = localDate()) {
  return s.lastWon === today || s.lastWon === dayBefore(today) ? s.streak : 0;
}
