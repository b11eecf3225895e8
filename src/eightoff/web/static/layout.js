/* Card size and column fans from the window size (no game rule here). */

import { board, state } from "./state.js";

/** Columns up to this long fit at the least fan that shows a covered card's whole index;
 * longer ones close their fan to the ``tight`` one (its rank still whole) before the cards
 * shrink. */
export const DESIGN_COLUMN = 11;
const MIN_STRIP_PX = 14; // a covered card always shows at least this much of its top

/** Space kept below the longest column (the floating banners); less on short screens. */
export const bottomReserve = (H) => (H < 560 ? 12 : 56);

/** Cards narrower than this (phones) get a bigger index, when the height allows it. */
const SMALL_CARD = 56;

/** The index (rank and suit) height as a fraction of the card width; matches style.css. */
const indexScale = (big) => (state.settings.largePrint ? (big ? 0.4 : 0.36) : big ? 0.36 : 0.3);

/** The least and the most a covered card shows, in px: the least keeps its rank and suit
 * whole, the tight its rank (a column past DESIGN_COLUMN cards), the most stays above the
 * card's centre picture. */
export function fanLimits(cw, wide, big) {
  const ch = cw * 1.4;
  const scale = indexScale(big);
  const most = Math.min(ch * 0.4, ch * (wide ? 0.27 : 0.36) + cw * (scale - 0.3));
  const least = Math.min(most, Math.max(MIN_STRIP_PX, cw * (scale + 0.04)));
  const tight = Math.min(least, Math.max(MIN_STRIP_PX, cw * (0.02 + 0.95 * scale))); // the rank whole
  return { least, tight, most };
}

/** Card width, gaps and arrangement from the window size: the largest cards with which
 * every pile fits across and a column of DESIGN_COLUMN cards fits above the bottom of the
 * window with its covered cards at their least fan, and a longer column of ``longest``
 * cards at their tight fan: a column passing 11 cards shrinks no card while its fan can
 * close. */
export function sizeBoard(longest) {
  const W = document.documentElement.clientWidth;
  const H = window.innerHeight;
  const top = board.getBoundingClientRect().top + window.scrollY;
  const gap = Math.round(Math.min(12, Math.max(4, W / 130)));
  // From the first row down to the footer, less the board's padding (a gap above, three below).
  const room = Math.max(160, H - top - 4 * gap - bottomReserve(H) - footHeight());
  const cells = state.builtCells;
  const cellCols = Math.ceil(cells / 2);
  // Three arrangements: "wide" (foundations down the left, cells above the columns),
  // "narrow" (foundations and cells above the columns) and "sides" (foundations left and
  // cells right of the columns, two rows each: the whole height to the columns).
  const across = {
    wide: (W - 24 - 10 * gap) / 9,
    narrow: (W - (W > 560 ? 26 : 12) - 7 * gap) / 8,
    sides: (W - 24 - (10 + cellCols + 3) * gap) / (10 + cellCols),
  };
  const fit = (arrangement, big) => {
    const rows = arrangement === "sides" ? 0 : arrangement === "wide" || cells <= 4 ? 1 : 2;
    const side = arrangement === "wide" ? 4 : arrangement === "sides" ? 2 : 0; // piles stacked at the side
    let cw = Math.floor(Math.min(124, across[arrangement]));
    for (; cw > 34; cw--) {
      const ch = cw * 1.4;
      const { least, tight } = fanLimits(cw, arrangement !== "narrow", big);
      const column = ch + Math.max((DESIGN_COLUMN - 1) * least, (longest - 1) * tight);
      const height = Math.max(rows * (ch + gap) + column, side * ch + (side - 1) * gap);
      if (height <= room) break;
    }
    return Math.max(34, cw);
  };
  // Whichever gives the larger cards; on a tie, the wide arrangement on landscape screens;
  // the sides only when they win outright (phones held sideways).
  const landscape = W >= 720 && W / H >= 1.2;
  const widths = { wide: fit("wide", false), narrow: fit("narrow", false), sides: fit("sides", false) };
  let arrangement = widths.wide > widths.narrow || (widths.wide === widths.narrow && landscape) ? "wide" : "narrow";
  if (widths.sides > widths[arrangement]) arrangement = "sides";
  const cw = widths[arrangement];
  // Small cards, held back by the width rather than the height: a bigger index if it
  // costs no card width.
  const big = cw < SMALL_CARD && fit(arrangement, true) === cw;
  board.classList.toggle("big-index", big);
  board.style.setProperty("--cw", `${cw}px`);
  board.style.setProperty("--gap", `${gap}px`);
  board.style.setProperty("--cell-cols", String(cellCols));
  for (const name of Object.keys(across)) board.classList.toggle(name, name === arrangement);
  board.classList.toggle("one-row", arrangement === "narrow" && cells <= 4);
  return cw;
}

/** The height of the footer under the board (kept on screen). */
export function footHeight() {
  const foot = document.querySelector(".foot");
  return foot ? foot.getBoundingClientRect().height : 0;
}

/** The least room the solution bar needs beside the columns, in px. */
const ASIDE_MIN = { width: 200, height: 136 };

/** The solution bar, on a phone held sideways (the cells right of the columns, the
 * foundations left): in the room under the cells or the foundations, where no card ever
 * lies, so it hides none of the cards it moves. Elsewhere (or with too little room there)
 * it floats at the foot of the window. */
export function placeSolutionBar() {
  const bar = document.getElementById("solution");
  const spot = board.classList.contains("sides") ? roomBeside() : null;
  bar.classList.toggle("aside", spot !== null);
  for (const side of ["left", "top", "width", "height"]) bar.style[side] = spot ? `${spot[side]}px` : "";
}

/** The larger free box under the cells or under the foundations (out to the window's edge
 * on their side of the columns), if the bar fits in it. */
function roomBeside() {
  const margin = 4;
  const W = document.documentElement.clientWidth;
  const H = window.innerHeight;
  const columns = board.querySelector(".tableau").getBoundingClientRect();
  let best = null;
  for (const group of [".cells", ".foundations"]) {
    const el = board.querySelector(group);
    const r = el.getBoundingClientRect();
    const right = r.left > columns.left;
    const bottom = Math.max(...[...el.children].map((pile) => pile.getBoundingClientRect().bottom));
    const left = right ? r.left : margin;
    const box = {
      left,
      top: bottom + 2 * margin,
      width: (right ? W - margin : r.right) - left,
      height: H - bottom - 3 * margin,
    };
    if (box.width < ASIDE_MIN.width || box.height < ASIDE_MIN.height) continue;
    if (!best || box.width * box.height > best.width * best.height) best = box;
  }
  return best;
}
