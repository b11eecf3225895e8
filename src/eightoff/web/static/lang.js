/* The page in English and French: the words of the static page (index.html marks them with
 * data-i18n attributes) in both languages, the French table of every message, and the
 * choice of language (the saved setting, else the browser's first language we speak). */

import { addMessages, currentLanguage, indexText, setLanguage, t } from "./i18n.js";
import { cardEls, state } from "./state.js";

export const LANGUAGES = { en: "English", fr: "Français" };

// The static page, in English: index.html holds the same words for a page without script.
addMessages("en", {
  "ui.title": "Eight Off",
  "ui.controls": "Game controls",
  "ui.new": "New", "ui.new.title": "New game (N)",
  "ui.restart": "Restart", "ui.restart.title": "Restart this deal",
  "ui.undo": "Undo", "ui.undo.title": "Undo (Ctrl+Z)",
  "ui.redo": "Redo", "ui.redo.title": "Redo (Ctrl+Y)",
  "ui.hint": "Hint", "ui.hint.title": "Hint (H)",
  "ui.solution": "Solution", "ui.solution.title": "Show the solver's solution",
  "ui.options": "Options",
  "ui.stats": "Stats", "ui.stats.title": "Statistics",
  "ui.rules": "Rules", "ui.rules.title": "Rules, tips and keys",
  "ui.dismiss": "Dismiss notice",
  "ui.status": "Game status",
  "ui.solutionView": "Solution:",
  "ui.moves": "Moves", "ui.score": "Score", "ui.time": "Time",
  "ui.code": "Code", "ui.code.title": "Game code and share link",
  "ui.solFirst": "Back to the start of the solution", "ui.solBack": "Step back",
  "ui.solFwd": "Step forward", "ui.solKeep": "Keep playing from here",
  "ui.solReturn": "Return to my game",
  "ui.board": "Eight Off board", "ui.foundations": "Foundations", "ui.cells": "Cells",
  "ui.columns": "Columns",
  "ui.keysHint": "Arrow keys move between cards and piles, Enter picks up or puts down, F sends to the foundation, D plays the smart move, H asks for a hint, Ctrl+Z undoes, Ctrl+Y redoes.",
  "ui.rulesTips": "Rules & tips", "ui.keys": "Keys", "ui.privacy": "Privacy",
  "ui.close": "Close",
  "ui.newGame": "New game", "ui.preset": "Preset",
  "ui.preset.standard": "Standard", "ui.preset.easy": "Easy (any card to an empty column)",
  "ui.preset.alternate": "Alternating colours", "ui.preset.bakers": "Baker's Game",
  "ui.preset.app": "App (FreeCell-formula runs, take-back)", "ui.preset.custom": "Custom",
  // The rule options of /api/rules: "rule.<name>" names one, "rule.<name>.<value>" a value
  // (an option or a value missing here is shown in the server's own words).
  "rule.cells": "Cells", "rule.cells.8": "8", "rule.cells.4": "4", "rule.cells.2": "2",
  "rule.empty_column": "Empty column takes", "rule.empty_column.kings": "Kings only",
  "rule.empty_column.any": "Any card",
  "rule.build": "Columns build down", "rule.build.suit": "In suit",
  "rule.build.alternate": "Alternating colours",
  "rule.layout": "Deal", "rule.layout.eight-off": "Eight Off", "rule.layout.bakers": "Baker's Game",
  "rule.group_moves": "Group moves", "rule.group_moves.single": "One card",
  "rule.group_moves.cells": "Free cells + 1", "rule.group_moves.freecell": "FreeCell formula",
  "rule.take_back": "Take cards back from the foundations",
  // How often the chosen variant can be won (/api/winnability: the survey shipped)
  "odds.almost": "Almost every deal of this variant can be won: {percent} % of {counted}.",
  "odds.percent": "About {percent} % of the deals of this variant can be won ({counted}).",
  "odds.one_in": "About 1 in {n} deals of this variant can be won ({counted}).",
  "odds.none": "No deal of this variant could be won ({counted}).",
  "odds.surveyed": "{n} surveyed", "odds.undecided": "{n} surveyed, {unknown} undecided",
  "odds.unsurveyed": "How often this variant can be won has not been surveyed.",
  "ui.autoplay": "Autoplay safe cards to the foundations",
  "ui.winnable": "Winnable deals only", "ui.difficulty": "Difficulty of winnable deals",
  "ui.difficulty.any": "Any", "ui.difficulty.easy": "Easy", "ui.difficulty.medium": "Medium",
  "ui.difficulty.hard": "Hard",
  "ui.deal": "Deal", "ui.cancel": "Cancel", "ui.daily": "Deal of the day",
  "ui.playCode.heading": "Play a game code", "ui.playCode.label": "Game code",
  "ui.playCode": "Play code",
  "ui.fourColour": "Four-colour suits", "ui.largePrint": "Large print",
  "ui.showMoves": "Show moves", "ui.showScore": "Show score", "ui.showTimer": "Show timer",
  "ui.language": "Language", "ui.theme": "Theme", "ui.theme.auto": "Like the device",
  "ui.theme.light": "Light", "ui.theme.dark": "Dark",
  "ui.done": "Done",
  "ui.statistics": "Statistics", "ui.resetStats": "Reset statistics",
  "ui.gameCode": "Game code", "ui.codeExplains": "This code recreates the deal exactly.",
  "ui.shareLink": "Share link:", "ui.shareLink.label": "Share link", "ui.copy": "Copy",
  "ui.sure": "Are you sure?", "ui.yes": "Yes", "ui.no": "No",
  "ui.shareResult": "Your result:",
  // the deal of the day
  "announce.daily": "Deal of the day, {date}: {code}.",
  "stats.daily": "Deal of the day",
  "stats.dailyStreak": "Days won in a row",
  "daily.share": "Eight Off — {date} — won in {moves} moves, {hints}",
  "daily.noHints": "no hints", "daily.oneHint": "1 hint", "daily.hints": "{n} hints",
  "daily.solution": ", solution shown",
});

addMessages("fr", {
  "index.A": "A", "index.J": "V", "index.Q": "D", "index.K": "R",
    // cards and piles
    "rank.1": "as", "rank.2": "2", "rank.3": "3", "rank.4": "4", "rank.5": "5", "rank.6": "6",
    "rank.7": "7", "rank.8": "8", "rank.9": "9", "rank.10": "10", "rank.11": "valet",
    "rank.12": "dame", "rank.13": "roi",
    "suit.S": "pique", "suit.H": "cœur", "suit.D": "carreau", "suit.C": "trèfle",
    "card.name": "{rank} de {suit}",
    "card.exposed": "{card}, {pile}, découverte",
    "card.covered": "{card}, {pile}, recouverte",
    "card.onFoundation": "{card}, sur {pile}",
    "card.inCell": "{card}, {pile}",
    "pile.foundation": "la fondation de {suit}",
    "pile.column": "la colonne {n}",
    "pile.cell": "la cellule {n}",
    "pile.empty": "{pile}, vide",
    "pile.cards": "{pile}, {n} cartes",
    "pile.foundationUpTo": "{pile}, jusqu’au {rank}",
    "move.one": "{card} de {from} à {to}",
    "move.run": "{card} et {more} de plus de {from} à {to}",
    "move.toFoundation": "la fondation",
    "move.autoplayed": " ; {n} de plus vers les fondations",
    // status and banners
    "status.won": "Gagné !",
    "status.stuck": "Bloqué",
    "banner.lost": "Le solveur a prouvé que cette position ne peut pas être gagnée.",
    "banner.undoTo": "Annuler jusqu’à la dernière position gagnable",
    "banner.stuck": "Bloqué : plus aucun coup permis.",
    "banner.finish": "Toutes les cartes restantes peuvent monter.",
    "button.undo": "Annuler",
    "button.newGame": "Nouvelle partie",
    "button.finish": "Terminer",
    // what the page says (screen readers)
    "announce.stuck": "Bloqué : plus aucun coup permis. Annulez ou commencez une nouvelle partie.",
    "announce.undone": "Annulé : {move}",
    "announce.redone": "Rétabli : {move}",
    "announce.backTo": "Retour au coup {n}.",
    "announce.finish": "Toutes les cartes restantes montent",
    "announce.newGame": "Nouvelle partie {code} : {rules}.",
    "announce.restarted": "Donne recommencée.",
    "announce.resumed": "Partie {code} reprise.",
    "announce.thinking": "Réflexion…",
    "announce.undoToMove": "Annulez jusqu’au coup {n} pour revenir à une position gagnable.",
    "announce.hint": "Indice : {move}.",
    "announce.noHint": "Aucun indice trouvé à temps.",
    "announce.solving": "Recherche de la solution…",
    "announce.noSolution": "Le solveur n’a pas trouvé de solution dans le temps imparti.",
    "announce.solution": "Solution trouvée : {n} coups. Avancez pas à pas ou appuyez sur Lire.",
    "announce.step": "Étape {k} : {move}",
    "announce.playingOn": "La partie continue depuis le coup {n}.",
    "announce.backToGame": "Retour à votre partie.",
    "announce.picked": "{card} en main ; choisissez où la poser.",
    "announce.pickedRun": "{card} et {more} de plus en main ; choisissez où les poser.",
    "announce.copied": "Copié.",
    "announce.copyByHand": "Sélectionnez le texte et copiez-le.",
    "announce.statsReset": "Statistiques remises à zéro.",
    // refused moves
    "refuse.there": "{card} ne peut pas aller là.",
    "refuse.cannotMove": "{card} ne peut pas bouger pour l’instant.",
    "refuse.noMoveFrom": "Aucun coup depuis {pile}.",
    "refuse.nothingHome": "Rien ne monte sur une fondation depuis {pile}.",
    // notices and questions
    "notice.corrupted": "Des données gardées dans ce navigateur étaient illisibles et ont été remises à zéro : {what}.",
    "stored.eightoff.game": "la partie en cours (une nouvelle partie a commencé)",
    "stored.eightoff.stats": "les statistiques",
    "stored.eightoff.settings": "les réglages",
    "notice.otherTab": "Cette partie a avancé dans un autre onglet ; cet onglet la montre maintenant.",
    "confirm.resetStats": "Oublier toutes les statistiques de toutes les règles ?",
    "announce.autoplayNow": "Jeu automatique : les cartes sûres montent sur les fondations",
    "refuse.why": "{card} ne peut pas aller là : {reason}",
    "refuse.stuckRun": "{card} ne peut pas bouger : {reason}",
    "banner.winnableUntil": "Elle était gagnable jusqu’au coup {n}.",
    "banner.neverWinnable": "Cette donne n’a jamais été gagnable.",
    "notice.cannotResume": "La partie gardée n’a pas pu reprendre ({error}) ; une nouvelle partie a commencé.",
    "notice.rulesRefused": "Les règles gardées n’ont pas pu servir ; une partie standard a commencé.",
    "notice.cannotStart": "Impossible de commencer cette partie : {error}",
    "notice.notWinnable": "Le solveur n’a pas trouvé à temps de donne gagnable avec ces règles ; cette donne n’est peut-être pas gagnable.",
    "notice.noSolution": "Le solveur n’a pas trouvé de solution dans le temps imparti ; réessayez depuis une position plus avancée.",
    "confirm.restart": "Recommencer cette donne depuis le début ?",
    "confirm.openShared": "Ouvrir la partie partagée {code} ? Votre partie en cours ({moves} coups) sera laissée.",
    "server.unreachable": "le serveur du jeu est injoignable",
    "server.status": "le serveur a répondu {status}",
    // What the server refuses, by its reason code ("reason.<code>"): it speaks English, so
    // only other languages need these (an English page shows the server's own words).
    "reason.no-card": "un coup déplace au moins une carte",
    "reason.no-such-place": "cette place n’existe pas avec ces règles",
    "reason.same-place": "elle y est déjà",
    "reason.no-take-back": "ces règles ne permettent pas de reprendre une carte sur une fondation",
    "reason.empty-source": "il n’y a pas de carte à cet endroit",
    "reason.one-at-a-time": "une seule carte à la fois ici",
    "reason.too-few-cards": "la colonne n’a pas autant de cartes",
    "reason.not-a-run": "ces cartes ne forment pas une suite",
    "reason.not-next": "sa fondation attend d’abord une autre carte",
    "reason.cell-to-cell": "une carte en cellule ne passe pas dans une autre cellule",
    "reason.cell-full": "cette cellule est déjà prise",
    "reason.does-not-build": "elle ne se pose que sur la carte d’un rang au-dessus, {build}",
    "reason.build.suit": "de la même couleur",
    "reason.build.alternate": "d’une couleur de l’autre teinte (rouge sur noire, noire sur rouge)",
    "reason.kings-only": "seul un Roi peut aller dans une colonne vide",
    "reason.whole-column": "déplacer une colonne entière dans une colonne vide ne change rien",
    "reason.single-moves": "ces règles déplacent une carte à la fois",
    "reason.no-room": "pas assez de cellules libres ni de colonnes vides pour une suite aussi longue",
    "reason.bad-game-code": "ce code de partie ne se lit pas (un code ressemble à EO1-C8-AAAAAFA)",
    // solution bar
    "solution.step": "Solution, étape {k} sur {n}",
    "solution.play": "▶ Lire",
    "solution.pause": "❚❚ Pause",
    // statistics
    "stats.none": "Aucune partie jouée pour l’instant.",
    "stats.helped": "Résolues avec aide",
    "stats.helpNote": "Une partie gagnée après un indice ou la solution du solveur compte comme résolue avec aide, pas comme une victoire. Recommencer la donne efface l’aide.",
    "stats.cells": "{n} cellules",
    "preset.standard": "Standard",
    "preset.easy": "Facile",
    "preset.alternate": "Couleurs alternées",
    "preset.bakers": "Baker’s Game",
    "preset.app": "Règles de l’appli",
    "preset.custom": "Règles personnalisées",
    "stats.played": "Jouées",
    "stats.won": "Gagnées",
    "stats.winRate": "Taux de victoire",
    "stats.streak": "Série en cours",
    "stats.bestStreak": "Meilleure série",
    "stats.bestTime": "Meilleur temps",
    "stats.fewestMoves": "Moins de coups",
    // the win
    "win.title": "Gagné !",
    "win.summary": "{moves} coups, {time}, score {score}.",
  // the static page
  "ui.title": "Eight Off",
  "ui.controls": "Commandes du jeu",
  "ui.new": "Nouvelle", "ui.new.title": "Nouvelle partie (N)",
  "ui.restart": "Recommencer", "ui.restart.title": "Recommencer cette donne",
  "ui.undo": "Annuler", "ui.undo.title": "Annuler (Ctrl+Z)",
  "ui.redo": "Rétablir", "ui.redo.title": "Rétablir (Ctrl+Y)",
  "ui.hint": "Indice", "ui.hint.title": "Indice (H)",
  "ui.solution": "Solution", "ui.solution.title": "Montrer la solution du solveur",
  "ui.options": "Réglages",
  "ui.stats": "Stats", "ui.stats.title": "Statistiques",
  "ui.rules": "Règles", "ui.rules.title": "Règles, conseils et touches",
  "ui.dismiss": "Fermer le message",
  "ui.status": "État de la partie",
  "ui.solutionView": "Solution :",
  "ui.moves": "Coups", "ui.score": "Score", "ui.time": "Temps",
  "ui.code": "Code", "ui.code.title": "Code de partie et lien à partager",
  "ui.solFirst": "Revenir au début de la solution", "ui.solBack": "Reculer d’une étape",
  "ui.solFwd": "Avancer d’une étape", "ui.solKeep": "Continuer à jouer d’ici",
  "ui.solReturn": "Revenir à ma partie",
  "ui.board": "Table de Eight Off", "ui.foundations": "Fondations", "ui.cells": "Cellules",
  "ui.columns": "Colonnes",
  "ui.keysHint": "Les flèches passent d’une carte ou d’une pile à l’autre, Entrée prend ou pose, F envoie sur la fondation, D joue le coup malin, H demande un indice, Ctrl+Z annule, Ctrl+Y rétablit.",
  "ui.rulesTips": "Règles et conseils", "ui.keys": "Touches", "ui.privacy": "Confidentialité",
  "ui.close": "Fermer",
  "ui.newGame": "Nouvelle partie", "ui.preset": "Règles",
  "ui.preset.standard": "Standard", "ui.preset.easy": "Facile (toute carte dans une colonne vide)",
  "ui.preset.alternate": "Couleurs alternées", "ui.preset.bakers": "Baker’s Game",
  "ui.preset.app": "Appli (suites au calcul du Freecell, reprise)", "ui.preset.custom": "Sur mesure",
  "rule.cells": "Cellules", "rule.cells.8": "8", "rule.cells.4": "4", "rule.cells.2": "2",
  "odds.almost": "Presque toutes les donnes de cette variante peuvent être gagnées : {percent} % des {counted}.",
  "odds.percent": "Environ {percent} % des donnes de cette variante peuvent être gagnées ({counted}).",
  "odds.one_in": "Environ 1 donne sur {n} de cette variante peut être gagnée ({counted}).",
  "odds.none": "Aucune donne de cette variante n’a pu être gagnée ({counted}).",
  "odds.surveyed": "{n} étudiées", "odds.undecided": "{n} étudiées, {unknown} non résolues",
  "odds.unsurveyed": "La part des donnes gagnables de cette variante n’a pas été étudiée.",
  "rule.empty_column": "Une colonne vide reçoit", "rule.empty_column.kings": "Un Roi seulement",
  "rule.empty_column.any": "Toute carte",
  "rule.build": "Les colonnes descendent", "rule.build.suit": "Dans la même couleur",
  "rule.build.alternate": "En couleurs alternées",
  "rule.layout": "Donne", "rule.layout.eight-off": "Eight Off", "rule.layout.bakers": "Baker’s Game",
  "rule.group_moves": "Déplacements groupés", "rule.group_moves.single": "Une carte",
  "rule.group_moves.cells": "Cellules libres + 1", "rule.group_moves.freecell": "Calcul du Freecell",
  "rule.take_back": "Reprendre des cartes sur les fondations",
  "ui.autoplay": "Monter seul les cartes sûres sur les fondations",
  "ui.winnable": "Donnes gagnables seulement", "ui.difficulty": "Difficulté des donnes gagnables",
  "ui.difficulty.any": "Toutes", "ui.difficulty.easy": "Facile", "ui.difficulty.medium": "Moyenne",
  "ui.difficulty.hard": "Difficile",
  "ui.deal": "Distribuer", "ui.cancel": "Annuler", "ui.daily": "Donne du jour",
  "ui.playCode.heading": "Jouer un code de partie", "ui.playCode.label": "Code de partie",
  "ui.playCode": "Jouer ce code",
  "ui.fourColour": "Quatre couleurs", "ui.largePrint": "Gros caractères",
  "ui.showMoves": "Afficher les coups", "ui.showScore": "Afficher le score",
  "ui.showTimer": "Afficher le temps",
  "ui.language": "Langue", "ui.theme": "Thème", "ui.theme.auto": "Comme l’appareil",
  "ui.theme.light": "Clair", "ui.theme.dark": "Sombre",
  "ui.done": "OK",
  "ui.statistics": "Statistiques", "ui.resetStats": "Remettre à zéro",
  "ui.gameCode": "Code de partie", "ui.codeExplains": "Ce code recrée exactement la donne.",
  "ui.shareLink": "Lien à partager :", "ui.shareLink.label": "Lien à partager", "ui.copy": "Copier",
  "ui.sure": "Êtes-vous sûr ?", "ui.yes": "Oui", "ui.no": "Non",
  "ui.shareResult": "Votre résultat :",
  // the deal of the day
  "announce.daily": "Donne du jour, {date} : {code}.",
  "stats.daily": "Donne du jour",
  "stats.dailyStreak": "Jours gagnés d’affilée",
  "daily.share": "Eight Off — {date} — gagnée en {moves} coups, {hints}",
  "daily.noHints": "sans indice", "daily.oneHint": "1 indice", "daily.hints": "{n} indices",
  "daily.solution": ", solution montrée",
});

/** The page's language: the saved choice, else the browser's first language we speak. */
export function chooseLanguage() {
  const saved = state.settings.language;
  if (saved in LANGUAGES) return saved;
  for (const tag of navigator.languages || [navigator.language]) {
    const primary = String(tag).toLowerCase().split("-")[0];
    if (primary in LANGUAGES) return primary;
  }
  return "en";
}

/** Write the static page's words (data-i18n, data-i18n-title, -aria-label, -placeholder)
 * in the current language; links to the rules page ask for that language. */
export function translatePage() {
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const attr of ["title", "aria-label", "placeholder"]) {
    for (const el of document.querySelectorAll(`[data-i18n-${attr}]`)) {
      el.setAttribute(attr, t(el.getAttribute(`data-i18n-${attr}`)));
    }
  }
  document.title = t("ui.title");
  for (const a of document.querySelectorAll('a[href^="/rules"]')) {
    const url = new URL(a.href);
    url.searchParams.set("lang", currentLanguage());
    a.setAttribute("href", url.pathname + url.search + url.hash);
  }
  for (const [card, el] of cardEls) el.querySelector(".idx span").textContent = indexText(card);
}

/** Switch the page to language ``code`` (the board's labels follow on its next render). */
export function useLanguage(code) {
  setLanguage(code in LANGUAGES ? code : "en");
  translatePage();
}
