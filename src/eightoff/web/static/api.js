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
const wireMove = (m) => (typeof m.text === "string" ? m.text : m);

/** GET ``path`` (no body) or POST ``body`` as JSON, its ``moves`` as the server's compact
 * notation where known; the answer's JSON, or an ApiError. */
export async function api(path, body) {
  const sent = body && Array.isArray(body.moves) ? { ...body, moves: body.moves.map(wireMove) } : body;
  const init = body === undefined ? {} : {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(sent),
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
  // A move the server refuses, asked with refusal_ok: an answer (no error in the console),
  // thrown as the same ApiError as a 422.
  const refused = response.ok && isObject(data) && isObject(data.refused);
  if (!response.ok || refused) {
    if (refused) data = data.refused;
    let message = (data && data.error) || t("server.status", { status: response.status });
    const rules = state.game && state.game.rules;
    const words = serverWords(data, isObject(rules) ? rules.build : "suit");
    if (words !== null) {
      message = words; // said by its reason code in the page's language
      if (data.reason) data.reason = words;
    }
    throw new ApiError(refused ? 422 : response.status, message, data);
  }
  return data;
}
