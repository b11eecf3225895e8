/* The daily archive: a calendar of the deals of the day, past days playable, each day
 * marked won or lost from the daily statistics (daily.js keeps them by date). */

import { localDate, longDate } from "./daily.js";
import { currentLanguage, t } from "./i18n.js";
import { newGame } from "./play.js";
import { $, state } from "./state.js";

let shown = null; // the first day of the month shown: a Date

const locale = () => (currentLanguage() === "en" ? "en-GB" : currentLanguage());

/** What the player did with the deal of ``iso``: "won", "lost" (played, not won: a past
 * day), "played" (today, not won yet), or "" (not played). */
export function dayMark(iso, today = localDate()) {
  const s = state.stats.daily;
  const mark = s && s.days ? s.days[iso] : undefined;
  if (mark === "won" || (s && s.lastWon === iso)) return "won";
  if (mark === "played" || (s && s.lastPlayed === iso)) return iso < today ? "lost" : "played";
  return "";
}

function drawMonth() {
  const today = localDate();
  const year = shown.getFullYear();
  const month = shown.getMonth();
  $("archive-month").textContent = new Intl.DateTimeFormat(locale(), { month: "long", year: "numeric" })
    .format(shown);
  $("archive-next").disabled = localDate(new Date(year, month + 1, 1)) > today;
  const grid = $("archive-days");
  grid.replaceChildren();
  const weekday = new Intl.DateTimeFormat(locale(), { weekday: "narrow" });
  for (let d = 1; d <= 7; d++) { // 1 Jan 2024 was a Monday
    const head = document.createElement("span");
    head.className = "weekday";
    head.setAttribute("aria-hidden", "true");
    head.textContent = weekday.format(new Date(2024, 0, d));
    grid.appendChild(head);
  }
  const lead = (new Date(year, month, 1).getDay() + 6) % 7; // Monday first
  for (let k = 0; k < lead; k++) grid.appendChild(document.createElement("span"));
  for (let day = 1; new Date(year, month, day).getMonth() === month; day++) {
    const iso = localDate(new Date(year, month, day));
    const button = document.createElement("button");
    button.type = "button";
    button.className = "day";
    button.dataset.date = iso;
    button.textContent = String(day);
    const mark = dayMark(iso, today);
    if (mark) button.classList.add(mark);
    button.disabled = iso > today;
    button.setAttribute("aria-label", t(mark ? `archive.${mark}` : "archive.day", { date: longDate(iso) }));
    if (iso === today) button.setAttribute("aria-current", "date");
    grid.appendChild(button);
  }
}

/** Open the calendar on the current month. */
export function openArchive() {
  const now = new Date();
  shown = new Date(now.getFullYear(), now.getMonth(), 1);
  drawMonth();
  $("dlg-archive").showModal();
}

/** Listen to the calendar: a month back or on, a day played. */
export function bindArchive() {
  const step = (delta) => () => {
    shown = new Date(shown.getFullYear(), shown.getMonth() + delta, 1);
    drawMonth();
  };
  $("archive-prev").addEventListener("click", step(-1));
  $("archive-next").addEventListener("click", step(1));
  $("archive-days").addEventListener("click", (e) => {
    const button = e.target.closest("button.day");
    if (!button || button.disabled) return;
    $("dlg-archive").close();
    newGame({ daily: button.dataset.date });
  });
}
