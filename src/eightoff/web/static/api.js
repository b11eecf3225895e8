/* The game server's JSON API. */

import { serverWords, t } from "./i18n.js";
import { isObject, state } from "./state.js";

export class ApiError extends Error {
  constructor(status, message, data) {
    super(message);
    this.status = status;
    this.data = data;
  }
}

/** A move as the server is sent it: the compact notation the server wrote in its ``text``
 * (every move it answers carries one), else the move object itself (one the page made from
 * a drag, or one saved before moves carried their text). */
export const wireMove = (m) => (typeof m.text === "string" ? m.text : m);

/** ``body`` as it is sent: its ``moves`` as the compact notation where known. */
export const wireBody = (body) =>
  (body && Array.isArray(body.moves) ? { ...body, moves: body.moves.map(wireMove) } : body);

/** The answer ``data`` of status ``status`` (a 200 that holds a refusal asked for with
 * refusal_ok included) as the page takes it: the data, or an ApiError saying what was
 * refused, by its reason code in the page's language where it has the words. */
export function answered(status, data) {
  // A move refused, asked with refusal_ok: an answer (no error in the console), thrown as
  // the same ApiError as a 422.
  const ok = status >= 200 && status < 300;
  const refused = ok && isObject(data) && isObject(data.refused);
  if (ok && !refused) return data;
  const body = refused ? data.refused : data;
  let message = (body && body.error) || t("server.status", { status });
  const rules = state.game && state.game.rules;
  const words = serverWords(body, isObject(rules) ? rules.build : "suit");
  if (words !== null) {
    message = words; // said by its reason code in the page's language
    if (body.reason) body.reason = words;
  }
  throw new ApiError(refused ? 422 : status, message, body);
}

/** GET ``path`` (no body) or POST ``body`` as JSON, its ``moves`` as the server's compact
 * notation where known; the answer's JSON, or an ApiError. */
export async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(wireBody(body)),
  };
  let response;
  try {
    response = await fetch(path, init);
  } catch (err) {
    throw new ApiError(0, t("server.unreachable"), null);
  }
  let data = null;
  try {
    data = await response.json();
  } catch (err) {
    data = null;
  }
  return answered(response.status, data);
}
