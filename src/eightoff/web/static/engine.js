/* The game's answers, computed in the page: a move, undo, a tap's targets, a hint or a
 * solution ask no server. Two Web Workers (worker.js) run the kernel in WebAssembly: one
 * answers the game (/api/state, and /api/new for a game code), the other the solver
 * (/api/hint, /api/solve), so a long search never holds a move back. They answer what the
 * server's routes answer, in the same JSON; where a worker cannot start (an old browser,
 * no WebAssembly), the server answers as before. The server still deals new random deals
 * (its pool of winnable ones) and the deal of the day. */

import { api, answered, wireBody } from "./api.js";

/** How long a worker may take to load its kernel before the server answers instead. */
const LOAD_MS = 10_000;

/** A worker running the game service: ``ask(path, body)`` resolves to {status, body}, or
 * to null when the worker is not there (it failed to load, or died) or still loading after
 * LOAD_MS (the server answers meanwhile; the worker, once loaded, answers the next ones). */
class GameWorker {
  constructor() {
    this.calls = new Map();
    this.next = 1;
    this.worker = null;
    this.dead = false; // an error in the worker: the server answers from then on
    this.loaded = new Promise((resolve) => {
      try {
        this.worker = new window.Worker(new URL("./worker.js", import.meta.url), { type: "module" });
      } catch (err) {
        resolve(false);
        return;
      }
      this.worker.addEventListener("message", (event) => {
        const data = event.data;
        if (data.ready) resolve(true);
        else if (data.failed !== undefined) resolve(false);
        else this.settle(data);
      });
      this.worker.addEventListener("error", (event) => {
        event.preventDefault();
        this.dead = true;
        resolve(false);
        for (const call of this.calls.values()) call(null); // the server answers them
        this.calls.clear();
      });
    });
  }

  settle(data) {
    const call = this.calls.get(data.id);
    this.calls.delete(data.id);
    if (call) call(data.status ? { status: data.status, body: data.body } : null);
  }

  async ask(path, body) {
    const late = new Promise((resolve) => {
      window.setTimeout(() => resolve(false), LOAD_MS);
    });
    if (!(await Promise.race([this.loaded, late])) || this.dead) return null;
    const id = this.next++;
    return new Promise((resolve) => {
      this.calls.set(id, resolve);
      this.worker.postMessage({ id, path, body: wireBody(body) });
    });
  }
}

const game = new GameWorker();
let solver = null; // started at the first hint or solution

/** Whether ``path`` with ``body`` is answered in the page: a game code's deal, a game's
 * state, a hint, a solution. */
function local(path, body) {
  if (body === undefined) return false;
  if (path === "/api/new") return typeof body.code === "string";
  return path === "/api/state" || path === "/api/hint" || path === "/api/solve";
}

/** What the route ``path`` answers to ``body``: in the page where it can be, else from the
 * server; the answer's JSON, or the ApiError ``api`` would throw. */
export async function ask(path, body) {
  if (!local(path, body)) return api(path, body);
  let worker = game;
  if (path === "/api/hint" || path === "/api/solve") {
    if (solver === null) solver = new GameWorker();
    worker = solver;
  }
  const answer = await worker.ask(path, body);
  if (answer === null) return api(path, body);
  return answered(answer.status, answer.body);
}

/** Resolves to whether the game is answered in the page (its worker loaded the kernel). */
export const localGame = () => game.loaded;
