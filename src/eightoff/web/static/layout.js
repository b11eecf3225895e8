/* Card size and column fans from the window size (no game rule here). */

import { board, state } from "./state.js";

/** Columns up to this long fit at the minimum fan without shrinking the cards. */
const DESIGN_COLUMN = 11;
const MIN_STRIP_PX = 14; // a covered card always shows at least this much of its top

/** Space kept below the longest column (the floating banners); less on short screens. */
export const bottomReserve = (H) => (H < 560 ? 12 : 56);

/** Cards narrower than this (phones) get a bigger index, when the height allows it. */
const SMALL_CARD = 56;

/** The index (rank and suit) height as a fraction of the card width; matches style.css. */
const indexScale = (big) => (state.settings.largePrint ? (big ? 0.4 : 0.36) : big ? 0.36 : 0.3);

/** The least and the most a covered card shows, in px: the least keeps its rank and suit
 * readable, the most stays above the card's centre picture. */
export function fanLimits(cw, wide, big) {
  const ch = cw * 1.4;
  const scale = indexScale(big);
  const most = Math.min(ch * 0.4, ch * (wide ? 0.27 : 0.36) + cw * (scale - 0.3));
  const least = Math.min(most, Math.max(MIN_STRIP_PX, cw * (scale + 0.04)));
  return { least, most };
}

/** Card width, gaps and arrangement from the window size: the largest cards with which
 * every pile fits across and a column of ``longest`` cards (at least DESIGN_COLUMN) fits
 * above the bottom of the window with its covered cards at their least readable fan. */
export function sizeBoard(longest) {
  const W = document.documentElement.clientWidth;
  const H = window.innerHeight;
  const top = board.getBoundingClientRect().top + window.scrollY;
  const gap = Math.round(Math.min(12, Math.max(4, W / 130)));
  const room = Math.max(160, H - top - gap - bottomReserve(H)); // from the first row down
  const n = Math.max(longest, DESIGN_COLUMN);
  const cells = state.builtCells;
  const fit = (wide, big) => {
    const rows = wide || cells <= 4 ? 1 : 2; // rows of piles above the columns
    let cw = Math.floor(Math.min(124, wide ? (W - 24 - 10 * gap) / 9 : (W - (W > 560 ? 26 : 12) - 7 * gap) / 8));
    for (; cw > 34; cw--) {
      const ch = cw * 1.4;
      const column = ch + (n - 1) * fanLimits(cw, wide, big).least;
      const height = Math.max(rows * (ch + gap) + column, wide ? 4 * ch + 3 * gap : 0);
      if (height <= room) break;
    }
    return Math.max(34, cw);
  };
  // Foundations down the left side (wide) or above the cells (narrow): whichever gives
  // the larger cards; on a tie, the wide arrangement on landscape screens.
  const landscape = W >= 720 && W / H >= 1.2;
  const wideCw = fit(true, false);
  const narrowCw = fit(false, false);
  const wide = wideCw > narrowCw || (wideCw === narrowCw && landscape);
  const cw = wide ? wideCw : narrowCw;
  // Small cards, held back by the width rather than the height: a bigger index if it
  // costs no card width.
  const big = cw < SMALL_CARD && fit(wide, true) === cw;
  board.classList.toggle("big-index", big);
  board.style.setProperty("--cw", `${cw}px`);
  board.style.setProperty("--gap", `${gap}px`);
  board.classList.toggle("wide", wide);
  board.classList.toggle("narrow", !wide);
  board.classList.toggle("one-row", !wide && cells <= 4);
  return cw;
}
