/* The service worker: after one visit the game opens, and plays, offline.
 *
 * The server writes SHELL ahead of this script (/sw.js): every page and static file to
 * keep, under a version that changes with any of them (eightoff.web.shell). Installing
 * keeps them all in a cache named after that version; activating drops the caches of
 * other versions and takes over the open pages at once.
 *
 * - A page (a navigation): the network first, for a few seconds; offline, too slow or
 *   failing, the page kept for its path: the game for /?code=…, the rules in the language
 *   asked or the browser's, "page not found" for any other path.
 * - A static file: the one kept, else the network. A page newer than this worker's shell
 *   (its header names another version) takes its files from the network, so that it
 *   never runs with older modules; the worker that comes with it keeps them.
 * - The API: left to the network, but for the deals kept ahead for offline play (the pool's
 *   codes, the deals of the day to come): their last answer is kept too, per address, in a
 *   cache of its own that outlives versions, and answers offline. The page also keeps the
 *   codes it deals from (offline.js), and marks those it has played. */

/* global SHELL */

const PREFIX = "eightoff-";
const CACHE = `${PREFIX}${SHELL.version}`;
const DEALS = `${PREFIX}deals`;
const DEAL_PATHS = new Set(["/api/pool", "/api/daily/ahead"]);
const PAGE_WAIT_MS = 3000;
const newer = new Set(); // ids of the pages newer than this shell

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // Asked again of the server (a 304 costs nothing): the files of this very version.
    await cache.addAll(SHELL.urls.map((url) => new Request(url, { cache: "no-cache" })));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const names = await caches.keys();
    await Promise.all(names.filter((name) => name.startsWith(PREFIX) && name !== CACHE && name !== DEALS).map((name) => caches.delete(name)));
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (request.mode === "navigate") event.respondWith(page(event, url));
  else if (url.pathname.startsWith("/static/")) event.respondWith(file(event));
  else if (DEAL_PATHS.has(url.pathname)) event.respondWith(deals(request));
});

const kept = (address) => caches.match(address, { cacheName: CACHE, ignoreVary: true });

/** The address of the page kept for ``url``. */
function keptPage(url) {
  const address = SHELL.pages[url.pathname];
  if (!address) return SHELL.missing;
  if (!address.includes("?lang=")) return address;
  const browser = (self.navigator.language || "").slice(0, 2).toLowerCase();
  const lang = [url.searchParams.get("lang"), browser].find((l) => SHELL.languages.includes(l)) || SHELL.languages[0];
  return `${url.pathname}?lang=${lang}`;
}

const waited = (ms) => new Promise((resolve) => {
  setTimeout(() => resolve(null), ms);
});

async function page(event, url) {
  const network = fetch(event.request);
  network.catch(() => {}); // offline: answered from the cache below
  let answer = null;
  try {
    answer = await Promise.race([network, waited(PAGE_WAIT_MS)]);
  } catch (err) {
    answer = null; // offline
  }
  if (answer && answer.status < 500) {
    const version = answer.headers.get(SHELL.header);
    if (version && version !== SHELL.version && event.resultingClientId) newer.add(event.resultingClientId);
    return answer;
  }
  return (await kept(keptPage(url))) || answer || network;
}

async function file(event) {
  const { request } = event;
  if (newer.has(event.clientId)) {
    try {
      return await fetch(request);
    } catch (err) {
      return (await kept(request)) || Response.error();
    }
  }
  return (await kept(request)) || fetch(request);
}

/** Deals kept ahead: the network's answer, kept; offline, the last one kept for the address. */
async function deals(request) {
  const cache = await caches.open(DEALS);
  try {
    const answer = await fetch(request);
    if (answer.ok) await cache.put(request, answer.clone());
    return answer;
  } catch (err) {
    return (await cache.match(request)) || Response.error();
  }
}
