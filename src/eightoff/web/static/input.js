/* The keyboard: arrows walk the piles, Enter picks up and puts down, letters play. */

import { pileOrder, updateFocusTargets } from "./board.js";
import { enqueue } from "./busy.js";
import { anyDialogOpen, openNewDialog } from "./dialogs.js";
import { clearSelection, moveSelectionTo, pickAt, select, smartFrom, tapFrom } from "./drag.js";
import { askHint, lockedInput, redo, undo } from "./play.js";
import { solutionPlay, solutionStep, stopSolution } from "./solution.js";
import { SUITS, board, parsePile, setFocusLabel, state } from "./state.js";

export function moveFocus(label, index) {
  setFocusLabel(label);
  const el = updateFocusTargets(index);
  if (el) el.focus();
}

function currentFocus() {
  const el = document.activeElement;
  if (!el || !board.contains(el)) return null;
  const pile = el.closest(".pile");
  if (!pile) return null;
  const cards = [...pile.querySelectorAll(".card")];
  return { label: pile.dataset.pile, index: el.classList.contains("card") ? cards.indexOf(el) : -1, cards, el };
}

/** Enter on pile ``label`` (on the card ``el``), in turn: pick up or put down there. */
async function pressOn(label, el) {
  if (lockedInput()) return;
  if (state.selection) {
    if (state.selection.label === label) clearSelection();
    else await moveSelectionTo(label);
  } else if (el.classList.contains("card")) {
    const pick = pickAt(el);
    if (pick) select(pick);
  }
}

function onBoardKey(e) {
  if (e.ctrlKey || e.metaKey || e.altKey || state.sol) return; // in the solution the keys step it
  const f = currentFocus();
  if (!f) return;
  const order = pileOrder();
  const at = order.indexOf(f.label);
  const { kind, n } = parsePile(f.label);
  const topRow = kind !== "column";
  let handled = true;
  switch (e.key) {
    case "ArrowRight":
    case "ArrowLeft": {
      const step = e.key === "ArrowRight" ? 1 : -1;
      moveFocus(order[(at + step + order.length) % order.length]);
      break;
    }
    case "ArrowDown":
      if (topRow) moveFocus(`column-${Math.min(8, n)}`);
      else if (f.index >= 0 && f.index < f.cards.length - 1) moveFocus(f.label, f.index + 1);
      break;
    case "ArrowUp":
      if (!topRow && f.index > 0) moveFocus(f.label, f.index - 1);
      else if (!topRow) moveFocus(n <= state.builtCells ? `cell-${n}` : `foundation-${SUITS[(n - 1) % 4]}`);
      break;
    case "Enter":
    case " ":
      enqueue(() => pressOn(f.label, f.el));
      break;
    case "f":
    case "F":
      if (!lockedInput()) tapFrom(f.label);
      break;
    case "d":
    case "D":
      if (!lockedInput()) smartFrom(f.label);
      break;
    case "Escape":
      enqueue(clearSelection);
      break;
    default:
      if (/^[1-8]$/.test(e.key)) moveFocus(`column-${e.key}`);
      else handled = false;
  }
  if (handled) e.preventDefault();
}

function onGlobalKey(e) {
  if (anyDialogOpen()) return;
  const typing = e.target && (e.target.tagName === "INPUT" || e.target.tagName === "SELECT");
  if (typing) return;
  const key = e.key.toLowerCase();
  const { sol } = state;
  if ((e.ctrlKey || e.metaKey) && key === "z" && !e.shiftKey) {
    e.preventDefault();
    undo();
  } else if ((e.ctrlKey || e.metaKey) && (key === "y" || (key === "z" && e.shiftKey))) {
    e.preventDefault();
    redo();
  } else if (e.ctrlKey || e.metaKey || e.altKey) {
    return;
  } else if (key === "h") {
    askHint();
  } else if (key === "n") {
    openNewDialog();
  } else if (sol && (key === "escape" || key === "arrowleft" || key === "arrowright" || key === "p")) {
    e.preventDefault();
    if (key === "escape") stopSolution(false);
    else if (key === "p") solutionPlay();
    else solutionStep(key === "arrowright" ? 1 : -1);
  } else if (key === "escape") {
    enqueue(clearSelection);
  } else if (!board.contains(document.activeElement) && /^[1-8]$/.test(key)) {
    moveFocus(`column-${key}`);
  }
}

/** Listen to the keyboard on the board and on the page. */
export function bindKeys() {
  board.addEventListener("keydown", onBoardKey);
  board.addEventListener("focusin", (e) => {
    const pile = e.target.closest(".pile");
    if (pile) setFocusLabel(pile.dataset.pile);
  });
  document.addEventListener("keydown", onGlobalKey);
}
