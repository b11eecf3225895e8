/* The text pages (privacy, page not found): their words from the page's one language
 * table (lang.js), in the language the game is played in; the service worker registered
 * from them too (install.js). */

import { keepOffline } from "./install.js";
import { chooseLanguage, useLanguage } from "./lang.js";
import { KEYS, isObject, setSetting } from "./state.js";

try {
  const saved = JSON.parse(window.localStorage.getItem(KEYS.settings));
  if (isObject(saved) && typeof saved.language === "string") setSetting("language", saved.language);
} catch (err) {
  /* no saved settings: the browser's language */
}
useLanguage(chooseLanguage());
keepOffline();
