/* The one ordered queue of what the player does. Every input (a tap, a drop, a key, undo,
 * a new game) is resolved here, one after another in the order it was made, against the
 * position drawn (the server's, with the moves still on their way played on it), so no
 * input is dropped or reordered whatever the server's delay. An input that needs the
 * server's word on that position (where a tapped card may go, undo) first waits for the
 * round trips sent before it: ``settled()``.
 *
 * Round trips to the server run one after another too (each sends every move before it):
 * ``sendInTurn``. ``document.body.dataset.busy`` is "1" while an input or a round trip
 * waits or runs (tests wait on it). */

import { setBusy } from "./state.js";

let inputs = Promise.resolve();
let trips = Promise.resolve();
let open = 0;

function hold(promise) {
  open += 1;
  setBusy(true);
  document.body.dataset.busy = "1";
  promise.catch(() => {}).then(() => {
    open -= 1;
    if (open === 0) {
      setBusy(false);
      document.body.dataset.busy = "0";
    }
  });
}

/** Resolve the input ``fn`` after every input made before it: its result, or its error. */
export function enqueue(fn) {
  const result = inputs.then(fn);
  inputs = result.catch(() => {});
  hold(result);
  return result;
}

/** Send the round trip ``fn`` after every one sent before it: its result, or its error. */
export function sendInTurn(fn) {
  const result = trips.then(fn);
  trips = result.catch(() => {});
  hold(result);
  return result;
}

/** Resolves once every round trip sent so far has its answer (and is drawn). */
export function settled() {
  return trips;
}
