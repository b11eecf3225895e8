/* The page's game service in a Web Worker (a module worker): the kernel and the solver in
 * WebAssembly (kernel.js, kernel.wasm) answer what the server's routes /api/new (with a
 * code), /api/state, /api/hint and /api/solve answer, with the same JSON (local/service.js),
 * off the page's thread.
 *
 * Messages in: {id, path, body}. Out: {ready: true} once the kernel is loaded, or
 * {failed: why}; then per request {id, status, body} (the route's status and JSON), or
 * {id, status: 0, body: {error}} when the service itself failed. */

import { loadKernel } from "./kernel.js";
import { LocalService } from "./local/service.js";

const service = loadKernel(new URL("./kernel.wasm", import.meta.url)).then((kernel) => new LocalService(kernel));

service.then(
  () => self.postMessage({ ready: true }),
  (err) => self.postMessage({ failed: String((err && err.message) || err) }),
);

self.addEventListener("message", async (event) => {
  const { id, path, body } = event.data;
  let answer;
  try {
    answer = (await service).answer(path, body);
  } catch (err) {
    answer = { status: 0, body: { error: String((err && err.message) || err) } };
  }
  self.postMessage({ id, ...answer });
});
