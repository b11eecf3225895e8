/* The phone's share sheet (navigator.share), where the browser has one: a Share button in
 * the Game code dialog and in the win, beside the links to copy. */

import { say } from "./board.js";
import { dailyShare } from "./daily.js";
import { t } from "./i18n.js";
import { $, formatTime, state } from "./state.js";

/** The share link of the game in progress. */
export const shareLink = () => `${window.location.origin}/?code=${encodeURIComponent(state.game.code)}`;

/** What the win shares: the deal of the day's line, else the moves and time. */
function wonText() {
  const { game } = state;
  return dailyShare(game) || t("share.won", { moves: game.actions.length, time: formatTime(game.elapsed) });
}

async function share(text) {
  try {
    await navigator.share({ title: t("ui.title"), text, url: shareLink() });
  } catch (err) {
    if (err && err.name !== "AbortError") say(t("announce.copyByHand")); // no sheet: copy instead
  }
}

/** Show the Share buttons where the browser can share, and listen to them. */
export function bindShare() {
  const can = typeof navigator.share === "function";
  for (const id of ["code-share", "celebrate-share-btn"]) $(id).hidden = !can;
  $("code-share").addEventListener("click", () => share(t("share.code", { code: state.game.code })));
  $("celebrate-share-btn").addEventListener("click", () => share(wonText()));
}
