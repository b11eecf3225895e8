/* The one queue for server round trips: tasks run one after another in the order the player
 * asked for them, so no input is dropped. ``document.body.dataset.busy`` is "1" while a
 * task waits or runs (tests wait on it). */

import { state } from "./state.js";

let tail = Promise.resolve();
let waiting = 0;

function setBusy(on) {
  state.busy = on;
  document.body.dataset.busy = on ? "1" : "0";
}

/** Run the async ``fn`` after every task queued before it: its result, or its error. */
export function enqueue(fn) {
  waiting += 1;
  setBusy(true);
  const result = tail.then(fn);
  tail = result.catch(() => {}).then(() => {
    waiting -= 1;
    if (waiting === 0) setBusy(false);
  });
  return result;
}
