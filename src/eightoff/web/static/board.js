/* Drawing the board from the server's answer: piles, cards, status, banners, notices. */

import { t, tForm, cardName, indexText, pileName, rankName } from "./i18n.js";
import { DESIGN_COLUMN, bottomReserve, fanLimits, footHeight, sizeBoard } from "./layout.js";
import {
  $, RANKS, SUITS, SVG_NS, board, cardEls, cardSuit, elapsedNow, flatMoves, formatTime, isRed,
  moveFrom, moveTo, parsePile, reducedMotion, setBuiltCells, setHintTimer, setSelection, setSolution,
  solutionLongest, state, where,
} from "./state.js";

export function svgUse(suit, cls) {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("class", cls);
  svg.setAttribute("viewBox", "0 0 100 100");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const use = document.createElementNS(SVG_NS, "use");
  use.setAttribute("href", `#suit-${suit}`);
  svg.appendChild(use);
  return svg;
}

/** A jack, queen or king's picture (court.svg), in the card's colour. */
function courtArt(rank) {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", "0 0 100 100");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const use = document.createElementNS(SVG_NS, "use");
  use.setAttribute("href", `/static/court.svg#court-${rank}`);
  svg.appendChild(use);
  return svg;
}

function cardEl(card) {
  let el = cardEls.get(card);
  if (el) return el;
  const suit = cardSuit(card);
  el = document.createElement("div");
  el.className = `card s-${suit}${isRed(suit) ? " red" : ""}`;
  el.dataset.card = card;
  el.setAttribute("role", "button");
  el.tabIndex = -1;
  const idx = document.createElement("span");
  idx.className = "idx";
  idx.setAttribute("aria-hidden", "true");
  const rank = document.createElement("span");
  rank.className = card[0] === "T" ? "rank ten" : "rank";
  rank.textContent = indexText(card);
  idx.append(rank, svgUse(suit, "pip"));
  el.appendChild(idx);
  if ("JQK".includes(card[0])) {
    const face = document.createElement("span");
    face.className = "face";
    face.appendChild(courtArt(card[0]));
    el.appendChild(face);
  } else {
    el.appendChild(svgUse(suit, "big"));
  }
  cardEls.set(card, el);
  return el;
}

function makePile(label, parent, extra) {
  const pile = document.createElement("div");
  pile.className = `pile slot ${extra || ""}`.trim();
  pile.dataset.pile = label;
  pile.tabIndex = -1;
  pile.setAttribute("role", "button");
  const { kind, suit } = parsePile(label);
  if (kind === "foundation") pile.appendChild(svgUse(suit, "watermark"));
  parent.appendChild(pile);
  return pile;
}

function buildBoard(cells) {
  const founds = board.querySelector(".foundations");
  const cellRow = board.querySelector(".cells");
  const tableau = board.querySelector(".tableau");
  for (const el of cardEls.values()) el.remove();
  founds.replaceChildren();
  cellRow.replaceChildren();
  tableau.replaceChildren();
  for (const s of SUITS) makePile(`foundation-${s}`, founds);
  for (let k = 1; k <= cells; k++) makePile(`cell-${k}`, cellRow);
  for (let k = 1; k <= 8; k++) makePile(`column-${k}`, tableau, "column");
  setBuiltCells(cells);
}

export const pileEl = (label) => board.querySelector(`[data-pile="${label}"]`);

/** Every pile label in reading order: foundations, cells, columns. */
export function pileOrder() {
  const labels = [...SUITS].map((s) => `foundation-${s}`);
  for (let k = 1; k <= state.builtCells; k++) labels.push(`cell-${k}`);
  for (let k = 1; k <= 8; k++) labels.push(`column-${k}`);
  return labels;
}

function cardLabel(card, label, index, size) {
  const name = cardName(card);
  const { kind } = parsePile(label);
  if (kind === "column") {
    const key = index === size - 1 ? "card.exposed" : "card.covered";
    return t(key, { card: name, pile: pileName(label) });
  }
  if (kind === "foundation") return t("card.onFoundation", { card: name, pile: pileName(label) });
  return t("card.inCell", { card: name, pile: pileName(label) });
}

/** Move the cards of ``m`` in the plain position ``pos`` (drawing only: no rule checked). */
function moveCards(pos, m) {
  const from = parsePile(moveFrom(m));
  const to = parsePile(moveTo(m));
  let cards;
  if (from.kind === "column") cards = pos.columns[from.n - 1].splice(-m.count);
  else if (from.kind === "cell") {
    cards = pos.cells[from.n - 1] ? [pos.cells[from.n - 1]] : [];
    pos.cells[from.n - 1] = null;
  } else if (pos.foundations[from.suit] > 0) {
    cards = [RANKS[pos.foundations[from.suit] - 1] + from.suit];
    pos.foundations[from.suit] -= 1;
  } else cards = [];
  if (!cards.length) return;
  if (to.kind === "column") pos.columns[to.n - 1].push(...cards);
  else if (to.kind === "cell") pos.cells[to.n - 1] = cards[0];
  else pos.foundations[to.suit] += 1;
}

/** Pile ``pile`` with cards (``filled``) or without: an empty pile is a button (a place to
 * put a card down); one with cards is a group of card buttons, no control inside a control. */
function holding(pile, filled) {
  pile.classList.toggle("slot", !filled);
  pile.setAttribute("role", filled ? "group" : "button");
  if (parsePile(pile.dataset.pile).kind === "cell") pile.dataset.caption = t("caption.cell"); // a first run
}

/** The position drawn: the server's, with the moves still on their way played on it (the
 * server decides whether they stand). */
function shownPosition() {
  const base = state.view.position;
  if (!state.pending.length) return base;
  const pos = {
    columns: base.columns.map((col) => col.slice()),
    cells: base.cells.slice(),
    foundations: { ...base.foundations },
  };
  for (const action of state.pending) action.moves.slice(0, action.shown).forEach((m) => moveCards(pos, m));
  return pos;
}

/** Whether card element ``el`` is drawn where the player has it, not where it lies: under
 * the pointer in a drag, or let go there while its drop waits for its turn (drag.js). */
function inHand(el) {
  if (el.parentNode === null) return false; // off the board (a new board): drawn afresh
  return (state.drag !== null && state.drag.els.includes(el)) || state.held.has(el);
}

/** Draw ``state.view`` (and the moves on their way); ``options.animate`` slides the cards
 * from where they were. */
export function render(options) {
  const animate = options && options.animate;
  const hadFocus = board.contains(document.activeElement);
  const pos = shownPosition();
  if (pos.cells.length !== state.builtCells) buildBoard(pos.cells.length);
  const first = animate && !reducedMotion.matches ? measureCards() : null;
  // While the solution is shown the cards never grow (its bar keeps the room it was given).
  let longest = Math.max(...pos.columns.map((col) => col.length));
  if (state.sol) longest = solutionLongest(longest);
  const cw = sizeBoard(longest);
  const ch = cw * 1.4;
  const placed = new Set();
  where.clear();

  const put = (card, label, index, size, top) => {
    const el = cardEl(card);
    const pile = pileEl(label);
    const dragged = inHand(el);
    if (!dragged && (el.parentNode !== pile || el.nextSibling)) pile.appendChild(el);
    if (!dragged) {
      el.style.transform = "";
      el.classList.remove("dragging", "snap", "selected", "hint");
      el.style.zIndex = String(index + 1);
    }
    el.style.top = `${top}px`;
    el.setAttribute("aria-label", cardLabel(card, label, index, size));
    // The card under a foundation's top is only there to show when the top is dragged.
    if (label.startsWith("foundation") && index === 0) el.setAttribute("aria-hidden", "true");
    else el.removeAttribute("aria-hidden");
    placed.add(card);
    where.set(card, { label, index, size });
  };

  board.querySelector(".foundations").dataset.caption = t("caption.foundations"); // a first run
  // Foundations: the top card and the one under it (shown when the top is dragged away).
  for (const s of SUITS) {
    const top = pos.foundations[s];
    const label = `foundation-${s}`;
    for (let r = Math.max(1, top - 1); r <= top; r++) put(RANKS[r - 1] + s, label, r === top ? 1 : 0, 2, 0);
    const pile = pileEl(label);
    holding(pile, top > 0);
    pile.setAttribute("aria-label", top
      ? tForm("pile.foundationUpTo", top, { pile: pileName(label), rank: rankName(top) })
      : t("pile.empty", { pile: pileName(label) }));
  }
  pos.cells.forEach((card, k) => {
    const label = `cell-${k + 1}`;
    if (card) put(card, label, 0, 1, 0);
    const pile = pileEl(label);
    holding(pile, Boolean(card));
    pile.setAttribute("aria-label", card ? pileName(label) : t("pile.empty", { pile: pileName(label) }));
  });
  // Each column fans as far down as the window allows, between the least offset that
  // keeps a covered card's index readable and a comfortable most.
  const tableauTop = board.querySelector(".tableau").getBoundingClientRect().top + window.scrollY;
  const padding = 3 * parseFloat(board.style.getPropertyValue("--gap")); // the board's, below the columns
  let bottom = window.innerHeight - bottomReserve(window.innerHeight) - footHeight() - padding;
  const bar = $("solution"); // at the foot of the window: the columns stop above it
  const barBelow = state.sol !== null && !bar.hidden && !bar.classList.contains("aside");
  if (barBelow) bottom = Math.min(bottom, bar.getBoundingClientRect().top - padding);
  const { least, tight, most } = fanLimits(cw, !board.classList.contains("narrow"), board.classList.contains("big-index"));
  pos.columns.forEach((col, k) => {
    const label = `column-${k + 1}`;
    const n = col.length;
    const floor = n > DESIGN_COLUMN || barBelow ? tight : least; // a long column closes its fan
    const off = n > 1 ? Math.min(most, Math.max(floor, (bottom - tableauTop - ch) / (n - 1))) : most;
    col.forEach((card, i) => put(card, label, i, n, Math.round(i * off)));
    const pile = pileEl(label);
    holding(pile, n > 0);
    pile.style.height = `${ch + Math.max(0, n - 1) * off}px`;
    pile.setAttribute("aria-label", n
      ? t("pile.cards", { pile: pileName(label), n })
      : t("pile.empty", { pile: pileName(label) }));
  });
  for (const [card, el] of cardEls) if (!placed.has(card) && el.parentNode) el.remove();
  board.querySelectorAll(".target, .hint-target").forEach((p) => p.classList.remove("target", "hint-target"));
  keepSelection();
  if (first) flip(first);
  const focusEl = updateFocusTargets();
  if (hadFocus && focusEl && document.activeElement !== focusEl) focusEl.focus({ preventScroll: true });
  renderStatus();
}

/** A selection whose card is still where it was stays, with its targets lit. */
function keepSelection() {
  const sel = state.selection;
  const w = sel && where.get(sel.card);
  if (!w || w.label !== sel.label) {
    setSelection(null);
    return;
  }
  const column = parsePile(sel.label).kind === "column";
  const count = column ? w.size - w.index : 1;
  setSelection({ ...sel, index: w.index, count });
  const cards = [...pileEl(sel.label).querySelectorAll(".card")];
  (column ? cards.slice(w.index) : [cardEls.get(sel.card)]).forEach((el) => el.classList.add("selected"));
  if (state.pending.length) return; // where it may go is known once the server answers
  for (const m of state.view.legal_moves) {
    if (m.count === count && moveFrom(m) === sel.label) pileEl(moveTo(m)).classList.add("target");
  }
}

function measureCards() {
  const rects = new Map();
  for (const [card, el] of cardEls) if (el.isConnected) rects.set(card, el.getBoundingClientRect());
  return rects;
}

/** How long a card slides to its new place, in ms. */
const SLIDE_MS = 160;

/** The slide each sliding card is on (its Animation). A slide ends when the card has really
 * landed, not after a set time: on a busy device the slide may start late. */
const slides = new Map();

/** Animate cards from where they were drawn before to where they are now. A card in the
 * player's hand (inHand) stays where it is. */
function flip(first) {
  for (const [card, el] of cardEls) {
    const old = first.get(card);
    if (!old || !el.isConnected || inHand(el)) continue;
    let now = el.getBoundingClientRect();
    // At rest where it was, or sliding on as it was.
    if (Math.abs(old.left - now.left) < 1 && Math.abs(old.top - now.top) < 1) continue;
    const sliding = slides.get(el);
    if (sliding) {
      // Sent on again from mid-flight (a render before it landed): on from where it is.
      sliding.cancel();
      land(el, sliding);
      now = el.getBoundingClientRect();
    }
    const dx = old.left - now.left;
    const dy = old.top - now.top;
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1) continue;
    slide(el, dx, dy);
  }
}

/** Slide ``el`` to its place from (dx, dy) away. On its way (.flip) it is drawn over the
 * cards at rest and lets presses through to what lies beneath (style.css). */
function slide(el, dx, dy) {
  el.classList.add("flip");
  el.style.zIndex = String(500 + Number(el.style.zIndex));
  const animation = el.animate(
    [{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }],
    { duration: SLIDE_MS, easing: "ease-out" },
  );
  slides.set(el, animation);
  animation.finished.then(() => land(el, animation), () => {}); // cancelled: see flip
}

/** ``el`` at rest once its slide ``animation`` is over (unless a later slide took over). */
function land(el, animation) {
  if (slides.get(el) !== animation) return;
  slides.delete(el);
  el.classList.remove("flip");
  const w = where.get(el.dataset.card);
  if (w && !inHand(el)) el.style.zIndex = String(w.index + 1);
}

/** Resolves once no card is sliding (every slide, those begun meanwhile too, has landed).
 * A card taken off the board mid-slide (a new board) is at rest at once. */
export async function landed() {
  while (slides.size) {
    for (const [el, animation] of slides) {
      if (el.isConnected) continue;
      animation.cancel();
      land(el, animation);
    }
    await Promise.all([...slides.values()].map((a) => a.finished.catch(() => {})));
  }
}

// -- focus targets (one card or pile in the tab order) ------------------------------------

function focusTarget(label, index) {
  const pile = pileEl(label);
  if (!pile) return null;
  const cards = [...pile.querySelectorAll(".card")];
  if (!cards.length) return pile;
  if (index === undefined || index >= cards.length) return cards[cards.length - 1];
  return cards[Math.max(0, index)];
}

export function updateFocusTargets(index) {
  board.querySelectorAll("[tabindex='0']").forEach((el) => {
    el.tabIndex = -1;
  });
  const el = focusTarget(state.focusLabel, index);
  if (el) el.tabIndex = 0;
  return el;
}

// -- status, banners, notices -------------------------------------------------------------

export function renderStatus() {
  const { game, view, settings, sol } = state;
  // In the solution the status is the solution's position, labelled as such.
  const inSolution = sol !== null;
  $("st-view").hidden = !inSolution;
  $("moves").textContent = String(game.actions.length + (inSolution ? sol.k : 0));
  $("score").textContent = String(view.score);
  $("time").textContent = formatTime(elapsedNow());
  $("st-moves").hidden = !settings.showMoves;
  $("st-score").hidden = !settings.showScore;
  $("st-time").hidden = !settings.showTimer;
  $("code").textContent = game.code;
  $("btn-undo").disabled = inSolution || game.actions.length === 0;
  $("btn-redo").disabled = inSolution || game.redo.length === 0;
  $("btn-hint").disabled = inSolution || view.status !== "playing";
  $("btn-solution").disabled = inSolution || view.status === "won";
  $("btn-restart").disabled = inSolution;
  const status = view.status;
  $("st-state").textContent = status === "won" ? t("status.won") : status === "stuck" ? t("status.stuck") : "";
  document.body.dataset.status = status;
  document.body.dataset.moves = String(flatMoves().length);
  renderBanner();
}

function setBanner(text, actions) {
  const banner = $("banner");
  if (!text) {
    banner.hidden = true;
    return;
  }
  $("banner-text").textContent = text;
  const box = $("banner-actions");
  box.replaceChildren();
  for (const [label, fn, id] of actions) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = label;
    if (id) b.id = id;
    b.addEventListener("click", fn);
    box.appendChild(b);
  }
  banner.hidden = false;
}

/** What the banner's buttons do: ``undo``, ``undoTo(count)``, ``finish`` and ``newGame``,
 * given at start-up (main.js) by the modules above the board. */
const bannerActions = {};

export function bindBanner(actions) {
  Object.assign(bannerActions, actions);
}

export function renderBanner() {
  const { lostOffer, view } = state;
  if (state.sol) return setBanner("", []);
  const { undo, undoTo, finish, newGame } = bannerActions;
  const stuckActions = [[t("button.undo"), () => undo(), "btn-stuck-undo"], [t("button.newGame"), () => newGame()]];
  if (lostOffer) {
    const acts = [];
    let text = t("banner.lost");
    if (lostOffer.undoTo !== null) {
      acts.push([t("banner.undoTo"), () => undoTo(lostOffer.undoTo), "btn-undo-to"]);
      text += ` ${t("banner.winnableUntil", { n: lostOffer.undoTo })}`;
    } else text += ` ${t("banner.neverWinnable")}`;
    // Stuck as well: the way out stays on offer.
    return setBanner(text, view.status === "stuck" ? acts.concat(stuckActions) : acts);
  }
  if (view.status === "stuck") return setBanner(t("banner.stuck"), stuckActions);
  if (view.status === "playing" && view.finish) {
    return setBanner(t("banner.finish"), [[t("button.finish"), () => finish(), "btn-finish"]]);
  }
  return setBanner("", []);
}

/** Leave solution mode; the caller redraws the game. */
export function closeSolution() {
  if (state.sol && state.sol.timer) window.clearInterval(state.sol.timer);
  setSolution(null);
  $("solution").hidden = true;
}

let toastTimer = null;

/** Say ``text`` on screen for a few seconds, and to screen readers. */
export function say(text) {
  announce(text);
  const toast = $("toast");
  toast.textContent = text;
  // A popover: in the top layer, so it shows over an open dialog too.
  if (toast.matches(":popover-open")) toast.hidePopover();
  toast.showPopover();
  if (toastTimer) window.clearTimeout(toastTimer);
  toastTimer = window.setTimeout(() => toast.hidePopover(), 4000);
}

export function notice(text) {
  $("notice-text").textContent = text;
  $("notice").hidden = false;
}

/** Say ``text`` to screen readers. */
export function announce(text) {
  const live = $("live");
  live.textContent = "";
  window.setTimeout(() => {
    live.textContent = text;
  }, 30);
}

const darkDevice = window.matchMedia("(prefers-color-scheme: dark)");

export function applySettings() {
  const { settings } = state;
  document.body.classList.toggle("four", settings.fourColour);
  document.body.classList.toggle("large", settings.largePrint);
  document.body.classList.toggle("left-handed", settings.leftHanded);
  const dark = settings.theme === "dark" || (settings.theme !== "light" && darkDevice.matches);
  document.documentElement.classList.toggle("dark", dark);
  // The browser's (or the installed app's) bar takes the top bar's colour of the theme shown,
  // whichever media its theme-color tag names.
  const bar = getComputedStyle(document.documentElement).getPropertyValue("--bar").trim();
  if (bar) document.querySelectorAll('meta[name="theme-color"]').forEach((meta) => meta.setAttribute("content", bar));
}
darkDevice.addEventListener("change", applySettings);

// -- the hint on the board -----------------------------------------------------------------

export function clearHint() {
  if (state.hintTimer) window.clearTimeout(state.hintTimer);
  setHintTimer(null);
  board.querySelectorAll(".hint, .hint-target").forEach((el) => el.classList.remove("hint", "hint-target"));
}

export function showHint(move) {
  clearHint();
  if (where.get(move.card)) {
    const pile = pileEl(moveFrom(move));
    [...pile.querySelectorAll(".card")].slice(-move.count).forEach((el) => el.classList.add("hint"));
  }
  const target = pileEl(moveTo(move));
  if (target) target.classList.add("hint-target");
  setHintTimer(window.setTimeout(clearHint, 4000));
}
