/* The page as an app: its service worker (sw.js, served at /sw.js with the list of files it
 * keeps) makes the game open and play offline after one visit; the manifest
 * (manifest.webmanifest, linked from every page) lets the browser install it. */

/** Register the service worker once the page has loaded (its downloads come after the
 * page's own); nothing happens where the browser has none, or refuses it. */
export function keepOffline() {
  if (!("serviceWorker" in navigator)) return;
  const register = () => {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {});
  };
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register, { once: true });
}
