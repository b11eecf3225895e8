/* The dialogs the game opens by itself: a yes/no question, and the win. */

import { announce, svgUse } from "./board.js";
import { dailyShare } from "./daily.js";
import { t } from "./i18n.js";
import { $, SUITS, formatTime, isRed, reducedMotion, state } from "./state.js";

/** Ask ``text``: true when the player says yes. */
export function confirmDialog(text) {
  const dlg = $("dlg-confirm");
  $("confirm-text").textContent = text;
  return new Promise((resolve) => {
    dlg.addEventListener("close", () => resolve(dlg.returnValue === "yes"), { once: true });
    dlg.returnValue = "";
    dlg.showModal();
  });
}

// -- the win --------------------------------------------------------------------------------

export function celebrate() {
  const { game, view } = state;
  const box = $("celebrate");
  $("celebrate-text").textContent = t("win.summary", {
    moves: game.actions.length, time: formatTime(game.elapsed), score: view.score,
  });
  const result = dailyShare(game);
  $("celebrate-share").hidden = result === null;
  $("celebrate-share").textContent = result || "";
  box.querySelectorAll(".fly").forEach((el) => el.remove());
  if (!reducedMotion.matches) {
    for (let i = 0; i < 28; i++) {
      const suit = SUITS[i % 4];
      const fly = svgUse(suit, `fly ${isRed(suit) ? "red" : "black"}`);
      fly.style.left = `${Math.random() * 96}%`;
      fly.style.animationDelay = `${Math.random() * 1.2}s`;
      box.appendChild(fly);
    }
  }
  box.hidden = false;
  $("celebrate-new").focus();
  announce(`${t("win.title")} ${$("celebrate-text").textContent}`);
}

/** The win stays on screen until the player closes it (or starts a new game). */
export function endCelebration() {
  $("celebrate").hidden = true;
}
