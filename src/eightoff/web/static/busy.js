/* The one lock around server round trips: ``document.body.dataset.busy`` is "1" while a
 * task runs (tests wait on it). */

import { state } from "./state.js";

function setBusy(on) {
  state.busy = on;
  document.body.dataset.busy = on ? "1" : "0";
}

/** Run the async ``fn`` unless another task is running (then nothing happens and the
 * answer is undefined); its result otherwise. */
export async function exclusive(fn) {
  if (state.busy) return undefined;
  setBusy(true);
  try {
    return await fn();
  } finally {
    setBusy(false);
  }
}
