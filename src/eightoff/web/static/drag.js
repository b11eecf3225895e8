/* Pointer input (mouse, pen, touch): dragging cards, taps, double taps and selections.
 * A drag follows the pointer at once; what a drop, a tap or a key means is resolved in the
 * input queue (busy.js), in the order the player made them. */

import { announce, clearHint, pileEl, render, say } from "./board.js";
import { cardName, cardShort, pileName, t } from "./i18n.js";
import { enqueue } from "./busy.js";
import { explain, lockedInput, play, settledView } from "./play.js";
import {
  DOUBLE_TAP_MS, DRAG_START_PX, board, cardEls, holdCard, moveFrom, moveOf, moveTo, parsePile, setDrag,
  setFocusLabel, setLastTap, setPress, setSelection, state, where,
} from "./state.js";

/** Dragged cards are drawn above everything on the page (banners included). */
const DRAG_Z = 1600;

/** The legal moves of ``count`` cards from pile ``label``. */
function legalFrom(label, count) {
  return state.view.legal_moves.filter((m) => m.count === count && moveFrom(m) === label);
}

/** What pressing on a card picks up: {label, index, count, card} (a column's run from it). */
export function pickAt(cardElement) {
  if (!cardElement) return null;
  const card = cardElement.dataset.card;
  const w = where.get(card);
  if (!w) return null;
  const count = parsePile(w.label).kind === "column" ? w.size - w.index : 1;
  return { label: w.label, index: w.index, count, card };
}

function movingEls(pick) {
  const pile = pileEl(pick.label);
  const cards = [...pile.querySelectorAll(".card")];
  return parsePile(pick.label).kind === "column" ? cards.slice(pick.index) : [cardEls.get(pick.card)];
}

function onPointerDown(e) {
  if (e.pointerType === "mouse" && e.button !== 0) return;
  if (lockedInput()) return;
  const target = e.target.closest(".card, .pile");
  if (!target || !board.contains(target)) {
    enqueue(clearSelection); // a click on the felt puts the selection down
    setLastTap(null);
    return;
  }
  setPress({
    id: e.pointerId,
    x: e.clientX,
    y: e.clientY,
    cardEl: e.target.closest(".card"),
    pileEl: e.target.closest(".pile"),
  });
}

function onPointerMove(e) {
  const { press } = state;
  if (!press || e.pointerId !== press.id) return;
  if (!state.drag) {
    if (Math.hypot(e.clientX - press.x, e.clientY - press.y) < DRAG_START_PX) return;
    if (!press.cardEl) return;
    const pick = pickAt(press.cardEl);
    if (!pick) return;
    clearSelection();
    clearHint();
    // With moves on their way or inputs still to resolve, where the cards may go is not
    // known yet: the drop is tried in turn, and the server decides.
    const pending = state.busy || state.pending.length > 0;
    const moves = pending ? [] : legalFrom(pick.label, pick.count);
    const els = movingEls(pick);
    setDrag({ pick, moves, els, pending, targets: new Set(moves.map(moveTo)) });
    for (const label of state.drag.targets) pileEl(label).classList.add("target");
    els.forEach((el, i) => {
      el.classList.add("dragging");
      el.style.zIndex = String(DRAG_Z + i);
    });
    if (!moves.length && !pending) explainStuck(pick);
  }
  const dx = e.clientX - press.x;
  const dy = e.clientY - press.y;
  for (const el of state.drag.els) el.style.transform = `translate(${dx}px, ${dy}px)`;
  e.preventDefault();
}

/** Why the cards of ``pick`` cannot move at all, said on screen. */
async function explainStuck(pick) {
  if (pick.count === 1) {
    say(t("refuse.cannotMove", { card: cardShort(pick.card) }));
    return;
  }
  // The run's own fault comes first in the server's reason, whatever the target.
  const { n } = parsePile(pick.label);
  const reason = await explain(moveOf(pick, `column-${(n % 8) + 1}`));
  say(reason ? t("refuse.stuckRun", { card: cardShort(pick.card), reason }) : t("refuse.cannotMove", { card: cardShort(pick.card) }));
}

/** Why ``pick`` may not go to pile ``label``, said on screen. */
async function explainRefusal(pick, label) {
  const reason = await explain(moveOf(pick, label));
  say(reason ? t("refuse.why", { card: cardShort(pick.card), reason }) : t("refuse.there", { card: cardShort(pick.card) }));
}

/** The pile under the pointer, other than the one the cards come from. */
function pileUnder(e, d) {
  for (const el of document.elementsFromPoint(e.clientX, e.clientY)) {
    const pile = el.closest && el.closest(".pile");
    if (pile && board.contains(pile) && pile.dataset.pile !== d.pick.label) return pile.dataset.pile;
  }
  return null;
}

function dropTarget(e, d) {
  const under = pileUnder(e, d);
  if (under) return d.targets.has(under) ? under : null; // the pile the player points at
  // Else the legal target the dragged card overlaps most.
  const r = d.els[0].getBoundingClientRect();
  let best = null;
  let bestArea = 0;
  for (const label of d.targets) {
    const pile = pileEl(label);
    const cards = pile.querySelectorAll(".card");
    const box = (cards.length ? cards[cards.length - 1] : pile).getBoundingClientRect();
    const w = Math.min(r.right, box.right) - Math.max(r.left, box.left);
    const h = Math.min(r.bottom, box.bottom) - Math.max(r.top, box.top);
    if (w > 0 && h > 0 && w * h > bestArea) {
      bestArea = w * h;
      best = label;
    }
  }
  return best;
}

function snapBack(els) {
  for (const el of els) {
    el.classList.remove("dragging");
    const w = where.get(el.dataset.card);
    if (w) el.style.zIndex = String(w.index + 1);
    el.classList.add("snap");
    el.style.transform = "";
  }
  window.setTimeout(() => els.forEach((el) => el.classList.remove("snap")), 220);
  // A card an input before the drop sent elsewhere (drawn meanwhile, but not in the
  // player's hand) goes where it lies now.
  const misplaced = (el) => {
    const w = where.get(el.dataset.card);
    return w !== undefined && el.closest(".pile") !== pileEl(w.label);
  };
  if (els.some(misplaced)) render();
}

function onPointerUp(e) {
  const p = state.press;
  if (!p || e.pointerId !== p.id) return;
  setPress(null);
  if (state.drag) {
    const d = state.drag;
    setDrag(null);
    board.querySelectorAll(".target").forEach((el) => el.classList.remove("target"));
    const under = pileUnder(e, d);
    const label = d.pending ? under : dropTarget(e, d);
    if (label) {
      // Drawn where they were let go until the drop's turn, whatever is drawn meanwhile.
      for (const el of d.els) holdCard(el, true);
      enqueue(() => resolveDrop(d, label));
      return;
    }
    snapBack(d.els);
    if (d.moves.length && under) explainRefusal(d.pick, under);
    else if (d.moves.length) say(t("refuse.there", { card: cardShort(d.pick.card) }));
    return;
  }
  tap(p);
}

/** The cards of drag ``d`` dropped on pile ``label``, in turn: played, or back they go.
 * The card is taken from where it lies now (inputs before it may have moved it since it
 * was drawn where the player picked it up). */
function resolveDrop(d, label) {
  for (const el of d.els) holdCard(el, false);
  const pick = pickAt(cardEls.get(d.pick.card));
  if (lockedInput() || !pick || pick.label === label) {
    snapBack(d.els);
    return;
  }
  clearSelection();
  if (state.pending.length) {
    play([moveOf(pick, label)]); // the server decides, in turn
    return;
  }
  const move = legalFrom(pick.label, pick.count).find((m) => moveTo(m) === label);
  if (move) {
    play([move]);
    return;
  }
  snapBack(d.els);
  explainRefusal(pick, label);
}

function onPointerCancel() {
  if (state.drag) {
    snapBack(state.drag.els);
    board.querySelectorAll(".target").forEach((el) => el.classList.remove("target"));
  }
  setDrag(null);
  setPress(null);
}

export function clearSelection() {
  setSelection(null);
  board.querySelectorAll(".selected").forEach((el) => el.classList.remove("selected"));
  board.querySelectorAll(".target").forEach((el) => el.classList.remove("target"));
}

/** Pick up ``pick`` and light where it can go: false when it cannot move. */
export function select(pick) {
  clearSelection();
  const moves = legalFrom(pick.label, pick.count);
  if (!moves.length && !state.pending.length) {
    explainStuck(pick);
    return false;
  }
  setSelection(pick);
  movingEls(pick).forEach((el) => el.classList.add("selected"));
  for (const m of moves) pileEl(moveTo(m)).classList.add("target");
  const key = pick.count > 1 ? "announce.pickedRun" : "announce.picked";
  announce(t(key, { card: cardName(pick.card), more: pick.count - 1 }));
  return true;
}

/** Put the selected cards on pile ``label`` (the longest part of the run that fits); called
 * in turn. A single card goes at once (the server decides); for a run, which part fits is
 * known once the moves before it are answered. */
export async function moveSelectionTo(label) {
  const pick = state.selection;
  clearSelection();
  if (state.pending.length && pick.count === 1) {
    play([moveOf(pick, label)]);
    return;
  }
  await settledView();
  const w = where.get(pick.card);
  if (!w || w.label !== pick.label) return; // autoplay took the card meanwhile
  pick.index = w.index;
  pick.count = parsePile(pick.label).kind === "column" ? w.size - w.index : 1;
  let move = legalFrom(pick.label, pick.count).find((m) => moveTo(m) === label);
  if (!move) {
    const others = state.view.legal_moves.filter((m) => moveFrom(m) === pick.label && moveTo(m) === label);
    move = others.sort((a, b) => b.count - a.count)[0];
  }
  if (move) play([move]);
  else explainRefusal(pick, label);
}

const tapMove = (view, label, kind) => (view.taps[label] || {})[kind] || null;

/** Play the move ``kind`` ("tap": home; "smart": a double tap's) from pile ``label`` once
 * the server has answered the moves before it; ``refusal`` is said when there is none.
 * True when a move was played. */
async function tapPlay(label, kind, refusal) {
  const view = await settledView();
  if (lockedInput()) return false;
  const move = tapMove(view, label, kind);
  if (move) play([move]);
  else say(t(refusal, { pile: pileName(label) }));
  return move !== null;
}

/** Play the smart move (double tap) from pile ``label``, in turn. */
export function smartFrom(label) {
  enqueue(() => tapPlay(label, "smart", "refuse.noMoveFrom"));
}

/** Play the single-tap move (to the foundation) from pile ``label``, in turn. */
export function tapFrom(label) {
  enqueue(() => tapPlay(label, "tap", "refuse.nothingHome"));
}

/** A tap (a press that did not drag): told apart from a double tap now, resolved in turn. */
function tap(p) {
  if (lockedInput() || !p.pileEl) return;
  const label = p.pileEl.dataset.pile;
  const card = p.cardEl ? p.cardEl.dataset.card : null;
  const now = performance.now();
  const { lastTap } = state;
  if (lastTap && lastTap.card && lastTap.label === label && now - lastTap.time < DOUBLE_TAP_MS) {
    // The second half of a double tap on the first tap's pile (whatever card the finger
    // lands on now: the first tap may have sent its card home, baring the one beneath):
    // the smart move of the first card, unless the first tap played. One action, never two.
    setLastTap(null);
    const first = lastTap.outcome;
    const tapped = lastTap.card;
    enqueue(async () => {
      if ((await first) || lockedInput()) return;
      clearSelection();
      const w = where.get(tapped);
      await tapPlay(w ? w.label : label, "smart", "refuse.noMoveFrom");
    });
    return;
  }
  const outcome = enqueue(() => resolveTap(label, card));
  setLastTap({ label, card, time: now, outcome });
}

/** A tap on pile ``label`` (on ``card``, if any), in turn: put the selection down there,
 * or send the card home, or pick it up (the card from where it lies now: inputs before
 * the tap may have moved it since it was drawn). True when it played a move. */
async function resolveTap(label, card) {
  if (lockedInput()) return false;
  setFocusLabel(label);
  if (state.selection) {
    if (state.selection.label === label) clearSelection();
    else await moveSelectionTo(label);
    return false;
  }
  const pick = card && pickAt(cardEls.get(card));
  if (!pick) return false;
  const { kind } = parsePile(pick.label);
  if ((pick.count === 1 || kind !== "column") && kind !== "foundation") {
    // A tap sends the card home when it may go (the server's word); else it picks it up.
    const view = await settledView();
    const now = pickAt(cardEls.get(card));
    if (lockedInput() || !now) return false;
    const move = tapMove(view, now.label, "tap");
    if (move && move.card === card) {
      play([move]);
      return true;
    }
    select(now);
    return false;
  }
  select(pick);
  return false;
}

/** Listen to the pointer on the board. */
export function bindPointer() {
  board.addEventListener("pointerdown", onPointerDown);
  window.addEventListener("pointermove", onPointerMove, { passive: false });
  window.addEventListener("pointerup", onPointerUp);
  window.addEventListener("pointercancel", onPointerCancel);
  board.addEventListener("contextmenu", (e) => e.preventDefault());
}
