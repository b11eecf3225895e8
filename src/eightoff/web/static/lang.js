/* The page in English and French: every word of the static page (index.html marks them with
 * data-i18n attributes) and of the page's modules, side by side in both languages, the
 * French words of the server's refusals, and the choice of language (the saved setting,
 * else the browser's first language we speak). */

import { addMessages, currentLanguage, indexText, setLanguage, t } from "./i18n.js";
import { cardEls, state } from "./state.js";

export const LANGUAGES = { en: "English", fr: "Français" };

/** Words in both languages, each key once: ``{key: [English, French]}``. */
function addBoth(table) {
  for (const [i, code] of ["en", "fr"].entries()) {
    addMessages(code, Object.fromEntries(Object.entries(table).map(([key, words]) => [key, words[i]])));
  }
}

// The static page (index.html holds the English words for a page without script), and the
// messages of the page's own parts: [English, French].
addBoth({
  "ui.title": ["Eight Off", "Eight Off"],
  "ui.controls": ["Game controls", "Commandes du jeu"],
  "ui.new": ["New", "Nouvelle"], "ui.new.title": ["New game (N)", "Nouvelle partie (N)"],
  "ui.restart": ["Restart", "Recommencer"], "ui.restart.title": ["Restart this deal", "Recommencer cette donne"],
  "ui.undo": ["Undo", "Annuler"], "ui.undo.title": ["Undo (Ctrl+Z)", "Annuler (Ctrl+Z)"],
  "ui.redo": ["Redo", "Rétablir"], "ui.redo.title": ["Redo (Ctrl+Y)", "Rétablir (Ctrl+Y)"],
  "ui.hint": ["Hint", "Indice"], "ui.hint.title": ["Hint (H)", "Indice (H)"],
  "ui.solution": ["Solution", "Solution"], "ui.solution.title": ["Show the solver's solution", "Montrer la solution du solveur"],
  "ui.options": ["Options", "Réglages"],
  "ui.stats": ["Stats", "Stats"], "ui.stats.title": ["Statistics", "Statistiques"],
  "ui.rules": ["Rules", "Règles"], "ui.rules.title": ["Rules, tips and keys", "Règles, conseils et touches"],
  "ui.dismiss": ["Dismiss notice", "Fermer le message"],
  "ui.status": ["Game status", "État de la partie"],
  "ui.solutionView": ["Solution:", "Solution :"],
  "ui.moves": ["Moves", "Coups"], "ui.score": ["Score", "Score"], "ui.time": ["Time", "Temps"],
  "ui.code": ["Code", "Code"], "ui.code.title": ["Game code and share link", "Code de partie et lien à partager"],
  "ui.solFirst": ["Back to the start of the solution", "Revenir au début de la solution"], "ui.solBack": ["Step back", "Reculer d’une étape"],
  "ui.solFwd": ["Step forward", "Avancer d’une étape"], "ui.solKeep": ["Keep playing from here", "Continuer à jouer d’ici"],
  "ui.solReturn": ["Return to my game", "Revenir à ma partie"],
  "ui.board": ["Eight Off board", "Table de Eight Off"], "ui.foundations": ["Foundations", "Fondations"], "ui.cells": ["Cells", "Cellules"],
  "ui.columns": ["Columns", "Colonnes"],
  "ui.keysHint": ["Arrow keys move between cards and piles, Enter picks up or puts down, F sends to the foundation, D plays the smart move, H asks for a hint, Ctrl+Z undoes, Ctrl+Y redoes.", "Les flèches passent d’une carte ou d’une pile à l’autre, Entrée prend ou pose, F envoie sur la fondation, D joue le coup malin, H demande un indice, Ctrl+Z annule, Ctrl+Y rétablit."],
  "ui.rulesTips": ["Rules & tips", "Règles et conseils"], "ui.keys": ["Keys", "Touches"], "ui.privacy": ["Privacy", "Confidentialité"],
  "ui.close": ["Close", "Fermer"],
  "ui.newGame": ["New game", "Nouvelle partie"], "ui.preset": ["Preset", "Règles"],
  "ui.preset.standard": ["Standard", "Standard"], "ui.preset.easy": ["Easy (any card to an empty column)", "Facile (toute carte dans une colonne vide)"],
  "ui.preset.alternate": ["Alternating colours", "Couleurs alternées"], "ui.preset.bakers": ["Baker's Game", "Baker’s Game"],
  "ui.preset.app": ["App (FreeCell-formula runs, take-back)", "Appli (suites au calcul du Freecell, reprise)"], "ui.preset.custom": ["Custom", "Sur mesure"],
  // The rule options of /api/rules: "rule.<name>" names one, "rule.<name>.<value>" a value
  // (an option or a value missing here is shown in the server's own words).
  "rule.cells": ["Cells", "Cellules"], "rule.cells.8": ["8", "8"], "rule.cells.4": ["4", "4"], "rule.cells.2": ["2", "2"],
  "rule.empty_column": ["Empty column takes", "Une colonne vide reçoit"], "rule.empty_column.kings": ["Kings only", "Un Roi seulement"],
  "rule.empty_column.any": ["Any card", "Toute carte"],
  "rule.build": ["Columns build down", "Les colonnes descendent"], "rule.build.suit": ["In suit", "Dans la même couleur"],
  "rule.build.alternate": ["Alternating colours", "En couleurs alternées"],
  "rule.layout": ["Deal", "Donne"], "rule.layout.eight-off": ["Eight Off", "Eight Off"], "rule.layout.bakers": ["Baker's Game", "Baker’s Game"],
  "rule.group_moves": ["Group moves", "Déplacements groupés"], "rule.group_moves.single": ["One card", "Une carte"],
  "rule.group_moves.cells": ["Free cells + 1", "Cellules libres + 1"], "rule.group_moves.freecell": ["FreeCell formula", "Calcul du Freecell"],
  "rule.take_back": ["Take cards back from the foundations", "Reprendre des cartes sur les fondations"],
  // How often the chosen variant can be won (/api/winnability: the survey shipped)
  "odds.almost": ["Almost every deal of this variant can be won: {percent} % of {counted}.", "Presque toutes les donnes de cette variante peuvent être gagnées : {percent} % des {counted}."],
  "odds.percent": ["About {percent} % of the deals of this variant can be won ({counted}).", "Environ {percent} % des donnes de cette variante peuvent être gagnées ({counted})."],
  "odds.one_in": ["About 1 in {n} deals of this variant can be won ({counted}).", "Environ 1 donne sur {n} de cette variante peut être gagnée ({counted})."],
  "odds.none": ["No deal of this variant could be won ({counted}).", "Aucune donne de cette variante n’a pu être gagnée ({counted})."],
  "odds.surveyed": ["{n} surveyed", "{n} étudiées"], "odds.undecided": ["{n} surveyed, {unknown} undecided", "{n} étudiées, {unknown} non résolues"],
  "odds.unsurveyed": ["How often this variant can be won has not been surveyed.", "La part des donnes gagnables de cette variante n’a pas été étudiée."],
  "ui.autoplay": ["Autoplay safe cards to the foundations", "Monter seul les cartes sûres sur les fondations"],
  "ui.winnable": ["Winnable deals only", "Donnes gagnables seulement"], "ui.difficulty": ["Difficulty of winnable deals", "Difficulté des donnes gagnables"],
  "ui.difficulty.any": ["Any", "Toutes"], "ui.difficulty.easy": ["Easy", "Facile"], "ui.difficulty.medium": ["Medium", "Moyenne"],
  "ui.difficulty.hard": ["Hard", "Difficile"],
  "ui.deal": ["Deal", "Distribuer"], "ui.cancel": ["Cancel", "Annuler"], "ui.daily": ["Deal of the day", "Donne du jour"],
  "ui.playCode.heading": ["Play a game code", "Jouer un code de partie"], "ui.playCode.label": ["Game code", "Code de partie"],
  "ui.playCode": ["Play code", "Jouer ce code"],
  "ui.fourColour": ["Four-colour suits", "Quatre couleurs"], "ui.largePrint": ["Large print", "Gros caractères"],
  "ui.showMoves": ["Show moves", "Afficher les coups"], "ui.showScore": ["Show score", "Afficher le score"], "ui.showTimer": ["Show timer", "Afficher le temps"],
  "ui.leftHanded": ["Left-handed: cells and foundations swap sides", "Gaucher : cellules et fondations changent de côté"], "ui.sound": ["Sound", "Son"],
  "ui.language": ["Language", "Langue"], "ui.theme": ["Theme", "Thème"], "ui.theme.auto": ["Like the device", "Comme l’appareil"],
  "ui.theme.light": ["Light", "Clair"], "ui.theme.dark": ["Dark", "Sombre"],
  "ui.done": ["Done", "OK"],
  "ui.statistics": ["Statistics", "Statistiques"], "ui.resetStats": ["Reset statistics", "Remettre à zéro"],
  "ui.gameCode": ["Game code", "Code de partie"], "ui.codeExplains": ["This code recreates the deal exactly.", "Ce code recrée exactement la donne."],
  "ui.shareLink": ["Share link:", "Lien à partager :"], "ui.shareLink.label": ["Share link", "Lien à partager"], "ui.copy": ["Copy", "Copier"],
  "ui.sure": ["Are you sure?", "Êtes-vous sûr ?"], "ui.yes": ["Yes", "Oui"], "ui.no": ["No", "Non"],
  "ui.shareResult": ["Your result:", "Votre résultat :"], "ui.share": ["Share…", "Partager…"],
  // the deal of the day
  "announce.daily": ["Deal of the day, {date}: {code}.", "Donne du jour, {date} : {code}."],
  "stats.daily": ["Deal of the day", "Donne du jour"],
  "stats.dailyStreak": ["Days won in a row", "Jours gagnés d’affilée"],
  "daily.share": ["Eight Off — {date} — won in {moves} moves, {hints}", "Eight Off — {date} — gagnée en {moves} coups, {hints}"],
  "daily.noHints": ["no hints", "sans indice"], "daily.oneHint": ["1 hint", "1 indice"], "daily.hints": ["{n} hints", "{n} indices"],
  "daily.solution": [", solution shown", ", solution montrée"],
  // the daily archive (archive.js)
  "ui.archive": ["Past days", "Jours passés"], "ui.archive.title": ["Deals of past days", "Donnes des jours passés"],
  "ui.archive.prev": ["Month before", "Mois précédent"], "ui.archive.next": ["Month after", "Mois suivant"],
  "ui.archive.wonKey": ["won", "gagnée"], "ui.archive.lostKey": ["played, not won", "jouée, pas gagnée"],
  "archive.day": ["{date}", "{date}"], "archive.won": ["{date}, won", "{date}, gagnée"], "archive.lost": ["{date}, played, not won", "{date}, jouée, pas gagnée"],
  "archive.played": ["{date}, being played", "{date}, en cours"],
  // the text pages: privacy, page not found (page.js)
  "page.back": ["← Back to the game", "← Retour au jeu"],
  "notfound.title": ["Eight Off: page not found", "Eight Off : page introuvable"], "notfound.heading": ["Page not found", "Page introuvable"],
  "notfound.text": ["There is nothing at this address.", "Il n’y a rien à cette adresse."],
  "privacy.title": ["Eight Off: privacy", "Eight Off : confidentialité"],
  "privacy.none": ["There is no account, no cookie, no analytics and no advertising. The page loads nothing from other sites (no fonts, scripts or images from a CDN): every request goes to the server that served the page.", "Pas de compte, pas de cookie, pas de mesure d’audience ni de publicité. La page ne charge rien d’autres sites (ni polices, ni scripts, ni images d’un CDN) : chaque requête va au serveur qui a servi la page."],
  "privacy.server.heading": ["What the server receives", "Ce que reçoit le serveur"],
  "privacy.server": ["Each time you move, ask for a hint or a solution, the page sends the game code and the list of moves played so far. The server works out the position from them, answers, and keeps nothing. The program running the server may print a log line per request (time, path and status) on the computer it runs on.", "À chaque coup, indice ou solution demandés, la page envoie le code de la partie et la liste des coups joués jusque-là. Le serveur en déduit la position, répond et ne garde rien. Le programme qui fait tourner le serveur peut écrire une ligne de journal par requête (heure, chemin et statut) sur l’ordinateur où il tourne."],
  "privacy.browser.heading": ["What this page stores in your browser", "Ce que cette page garde dans votre navigateur"],
  "privacy.browser": ["Four entries in this site's local storage (localStorage), and the page's own files in its cache (Cache Storage) so that it opens offline; nothing else:", "Quatre entrées dans le stockage local (localStorage) de ce site, et les fichiers de la page dans son cache (Cache Storage) pour qu’elle s’ouvre hors ligne ; rien d’autre :"],
  "privacy.key": ["Key", "Clé"], "privacy.contents": ["Contents", "Contenu"],
  "privacy.settings": ["Your choices: the rules for new games (cells, empty-column rule, build rule, deal, group moves, take-back), winnable deals only and their difficulty, autoplay, four-colour suits, large print, theme, language, left-handed layout, sound, and whether moves, score and timer are shown.", "Vos choix : les règles des nouvelles parties (cellules, colonne vide, construction, donne, déplacements groupés, reprise), donnes gagnables seulement et leur difficulté, jeu automatique, quatre couleurs, gros caractères, thème, langue, disposition pour gaucher, son, et l’affichage des coups, du score et du temps."],
  "privacy.stats": ["For each rule set you have played, and for the deals of the day: a description of the rules, games played, games won, games solved with help, current and best winning streak, best time and fewest moves of a win, and the days of the deals of the day played and won.", "Pour chaque jeu de règles joué, et pour les donnes du jour : une description des règles, les parties jouées, gagnées, résolues avec aide, la série en cours et la meilleure, le meilleur temps et le moins de coups d’une victoire, et les jours des donnes du jour jouées et gagnées."],
  "privacy.game": ["The game in progress, so a reload resumes it: its game code, rules and their description, whether the deal is known to be winnable, the moves played (grouped as you made them, for undo) and the moves undone (for redo), the time played, the hints and solution shown, whether it has been counted as played, and whether it was won.", "La partie en cours, pour la reprendre après un rechargement : son code, ses règles et leur description, si la donne est connue gagnable, les coups joués (groupés comme vous les avez faits, pour annuler) et les coups annulés (pour rétablir), le temps joué, les indices et la solution montrés, si elle a été comptée comme jouée et si elle a été gagnée."],
  "privacy.offline": ["What the game needs offline: codes of winnable deals for your next new games, the deals of the day of the coming two weeks, the codes of the games started here (so that none is dealt twice), and the list of rule options.", "Ce dont le jeu a besoin hors ligne : des codes de donnes gagnables pour vos prochaines parties, les donnes du jour des deux semaines à venir, les codes des parties commencées ici (pour qu’aucune ne soit donnée deux fois) et la liste des options de règles."],
  "privacy.delete": ["To delete them, use your browser's \"clear site data\" for this address, or Stats → Reset statistics for the statistics alone. If the stored data cannot be read, the page says so, removes it and starts a fresh game.", "Pour les effacer, utilisez « effacer les données du site » de votre navigateur pour cette adresse, ou Stats → Remettre à zéro pour les seules statistiques. Si les données gardées sont illisibles, la page le dit, les efface et commence une nouvelle partie."],
});

// The messages of the page's modules (i18n.js reads them): [English, French].
addBoth({
  // cards and piles
  "rank.1": ["ace", "as"], "rank.2": ["2", "2"], "rank.3": ["3", "3"], "rank.4": ["4", "4"], "rank.5": ["5", "5"], "rank.6": ["6", "6"],
  "rank.7": ["7", "7"], "rank.8": ["8", "8"], "rank.9": ["9", "9"], "rank.10": ["10", "10"], "rank.11": ["jack", "valet"],
  "rank.12": ["queen", "dame"], "rank.13": ["king", "roi"],
  "index.A": ["A", "A"], "index.J": ["J", "V"], "index.Q": ["Q", "D"], "index.K": ["K", "R"],
  "suit.S": ["spades", "pique"], "suit.H": ["hearts", "cœur"], "suit.D": ["diamonds", "carreau"], "suit.C": ["clubs", "trèfle"],
  "card.name": ["{rank} of {suit}", "{rank} de {suit}"],
  "card.exposed": ["{card}, {pile}, exposed", "{card}, {pile}, découverte"],
  "card.covered": ["{card}, {pile}, covered", "{card}, {pile}, recouverte"],
  "card.onFoundation": ["{card}, on the {pile}", "{card}, sur {pile}"],
  "card.inCell": ["{card}, {pile}", "{card}, {pile}"],
  "pile.foundation": ["{suit} foundation", "la fondation de {suit}"],
  "pile.column": ["column {n}", "la colonne {n}"],
  "pile.cell": ["cell {n}", "la cellule {n}"],
  "pile.empty": ["{pile}, empty", "{pile}, vide"],
  "caption.cell": ["Cell", "Cellule"], "caption.foundations": ["Foundations", "Fondations"],
  "pile.cards": ["{pile}, {n} cards", "{pile}, {n} cartes"],
  "pile.foundationUpTo": ["{pile}, up to {rank}", "{pile}, jusqu’au {rank}"],
  // French says "jusqu'au roi" but "jusqu'à la dame", "jusqu'à l'as": those ranks' own forms.
  "pile.foundationUpTo.1": ["{pile}, up to ace", "{pile}, jusqu’à l’as"], "pile.foundationUpTo.12": ["{pile}, up to queen", "{pile}, jusqu’à la dame"],
  "move.one": ["{card} from {from} to {to}", "{card} de {from} à {to}"],
  "move.run": ["{card} and {more} more from {from} to {to}", "{card} et {more} de plus de {from} à {to}"],
  "move.toFoundation": ["the foundation", "la fondation"],
  "move.autoplayed": ["; {n} more to the foundations", " ; {n} de plus vers les fondations"],
  // status and banners
  "status.won": ["Won!", "Gagné !"],
  "status.stuck": ["Stuck", "Bloqué"],
  "banner.lost": ["The solver proved this position cannot be won.", "Le solveur a prouvé que cette position ne peut pas être gagnée."],
  "banner.undoTo": ["Undo to the last winnable position", "Annuler jusqu’à la dernière position gagnable"],
  "banner.winnableUntil": ["It was winnable up to move {n}.", "Elle était gagnable jusqu’au coup {n}."],
  "banner.neverWinnable": ["This deal was never winnable.", "Cette donne n’a jamais été gagnable."],
  "banner.stuck": ["Stuck: no legal move is left.", "Bloqué : plus aucun coup permis."],
  "banner.finish": ["Every remaining card can go home.", "Toutes les cartes restantes peuvent monter."],
  "button.undo": ["Undo", "Annuler"],
  "button.newGame": ["New game", "Nouvelle partie"],
  "button.finish": ["Finish", "Terminer"],
  // what the page says (screen readers)
  "announce.stuck": ["Stuck: no legal move is left. Undo or start a new game.", "Bloqué : plus aucun coup permis. Annulez ou commencez une nouvelle partie."],
  "announce.undone": ["Undone: {move}", "Annulé : {move}"],
  "announce.redone": ["Redone: {move}", "Rétabli : {move}"],
  "announce.backTo": ["Back to move {n}.", "Retour au coup {n}."],
  "announce.finish": ["Every remaining card goes home", "Toutes les cartes restantes montent"],
  "announce.newGame": ["New game {code}: {rules}.", "Nouvelle partie {code} : {rules}."],
  "announce.restarted": ["Restarted.", "Donne recommencée."],
  "announce.resumed": ["Resumed game {code}.", "Partie {code} reprise."],
  "announce.thinking": ["Thinking…", "Réflexion…"],
  "announce.undoToMove": ["Undo to move {n} to get back to a winnable position.", "Annulez jusqu’au coup {n} pour revenir à une position gagnable."],
  "announce.hint": ["Hint: {move}.", "Indice : {move}."],
  "announce.noHint": ["No hint found in time.", "Aucun indice trouvé à temps."],
  "announce.solving": ["Solving…", "Recherche de la solution…"],
  "announce.noSolution": ["The solver found no solution in its time limit.", "Le solveur n’a pas trouvé de solution dans le temps imparti."],
  "announce.solution": ["Solution found: {n} moves. Step through it or press Play.", "Solution trouvée : {n} coups. Avancez pas à pas ou appuyez sur Lire."],
  "announce.step": ["Step {k}: {move}", "Étape {k} : {move}"],
  "announce.playingOn": ["Playing on from move {n}.", "La partie continue depuis le coup {n}."],
  "announce.backToGame": ["Back to your game.", "Retour à votre partie."],
  "announce.picked": ["{card} picked up; choose where it goes.", "{card} en main ; choisissez où la poser."],
  "announce.pickedRun": ["{card} and {more} more picked up; choose where it goes.", "{card} et {more} de plus en main ; choisissez où les poser."],
  "announce.copied": ["Copied.", "Copié."],
  "announce.copyByHand": ["Select the text and copy it.", "Sélectionnez le texte et copiez-le."],
  "announce.statsReset": ["Statistics reset.", "Statistiques remises à zéro."],
  // refused moves
  "refuse.there": ["{card} cannot go there.", "{card} ne peut pas aller là."],
  "refuse.cannotMove": ["{card} cannot move now.", "{card} ne peut pas bouger pour l’instant."],
  "refuse.noMoveFrom": ["No move from {pile}.", "Aucun coup depuis {pile}."],
  "refuse.nothingHome": ["Nothing goes to the foundation from {pile}.", "Rien ne monte sur une fondation depuis {pile}."],
  // notices and questions
  "notice.corrupted": ["Some data saved in this browser could not be read and was reset: {what}.", "Des données gardées dans ce navigateur étaient illisibles et ont été remises à zéro : {what}."],
  "notice.cannotResume": ["The saved game could not be resumed ({error}); a fresh game has started.", "La partie gardée n’a pas pu reprendre ({error}) ; une nouvelle partie a commencé."],
  "notice.rulesRefused": ["The saved rules could not be used; a standard game has started.", "Les règles gardées n’ont pas pu servir ; une partie standard a commencé."],
  "notice.cannotStart": ["Could not start that game: {error}", "Impossible de commencer cette partie : {error}"],
  "notice.notWinnable": ["The solver found no winnable deal for these rules in time; this deal may not be winnable.", "Le solveur n’a pas trouvé à temps de donne gagnable avec ces règles ; cette donne n’est peut-être pas gagnable."],
  "notice.noSolution": ["The solver found no solution in its time limit; try again from a later position.", "Le solveur n’a pas trouvé de solution dans le temps imparti ; réessayez depuis une position plus avancée."],
  "confirm.restart": ["Restart this deal from the beginning?", "Recommencer cette donne depuis le début ?"],
  "confirm.openShared": ["Open the shared game {code}? Your game in progress ({moves} moves) will be left.", "Ouvrir la partie partagée {code} ? Votre partie en cours ({moves} coups) sera laissée."],
  "server.unreachable": ["cannot reach the game server", "le serveur du jeu est injoignable"],
  "server.status": ["the server answered {status}", "le serveur a répondu {status}"],
  // solution bar
  "solution.step": ["Solution step {k} of {n}", "Solution, étape {k} sur {n}"],
  "solution.stepMove": ["Solution step {k} of {n}: {move}", "Solution, étape {k} sur {n} : {move}"],
  "solution.play": ["▶ Play", "▶ Lire"],
  "solution.pause": ["❚❚ Pause", "❚❚ Pause"],
  // statistics
  "stats.none": ["No games played yet.", "Aucune partie jouée pour l’instant."],
  "stats.helped": ["Solved with help", "Résolues avec aide"],
  "stats.helpNote": ["A game won after a hint or the solver's solution was shown counts as solved with help, not as a win. Restarting the deal clears the help.", "Une partie gagnée après un indice ou la solution du solveur compte comme résolue avec aide, pas comme une victoire. Recommencer la donne efface l’aide."],
  "stats.cells": ["{n} cells", "{n} cellules"],
  "confirm.resetStats": ["Forget every statistic of every rule set?", "Oublier toutes les statistiques de toutes les règles ?"],
  "preset.standard": ["Standard", "Standard"],
  "preset.easy": ["Easy", "Facile"],
  "preset.alternate": ["Alternating colours", "Couleurs alternées"],
  "preset.bakers": ["Baker's Game", "Baker’s Game"],
  "preset.app": ["App rules", "Règles de l’appli"],
  "preset.custom": ["Custom rules", "Règles personnalisées"],
  "stored.eightoff.game": ["the game in progress (a fresh game has started)", "la partie en cours (une nouvelle partie a commencé)"],
  "stored.eightoff.stats": ["the statistics", "les statistiques"],
  "stored.eightoff.settings": ["the settings", "les réglages"],
  "announce.autoplayNow": ["Autoplay: safe cards go to the foundations", "Jeu automatique : les cartes sûres montent sur les fondations"],
  "refuse.why": ["{card} cannot go there: {reason}", "{card} ne peut pas aller là : {reason}"],
  "refuse.stuckRun": ["{card} cannot move: {reason}", "{card} ne peut pas bouger : {reason}"],
  "notice.otherTab": ["This game was played on in another tab; this tab now shows it.", "Cette partie a avancé dans un autre onglet ; cet onglet la montre maintenant."],
  "stats.played": ["Played", "Jouées"],
  "stats.won": ["Won", "Gagnées"],
  "stats.winRate": ["Win rate", "Taux de victoire"],
  "stats.streak": ["Current streak", "Série en cours"],
  "stats.bestStreak": ["Best streak", "Meilleure série"],
  "stats.bestTime": ["Best time", "Meilleur temps"],
  "stats.fewestMoves": ["Fewest moves", "Moins de coups"],
  // the win
  "win.title": ["You won!", "Gagné !"],
  "win.summary": ["{moves} moves, {time}, score {score}.", "{moves} coups, {time}, score {score}."],
  "share.code": ["A game of Eight Off to play: {code}", "Une partie de Eight Off à jouer : {code}"],
  "share.won": ["I won this game of Eight Off in {moves} moves, {time}.", "J’ai gagné cette partie de Eight Off en {moves} coups, {time}."],
});

// What only French needs: the server's refusals and faults in its words.
addMessages("fr", {
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
    // What exactly is wrong with a game code (the server's "fault": its code and values).
    "reason.bad-game-code.fault": "ce code de partie ne se lit pas : {fault}",
    "reason.code.not-ascii": "« {char} » n’est ni une lettre ni un chiffre ASCII (un code n’a que A-Z, 0-9 et des tirets)",
    "reason.code.empty": "il est vide ; un code ressemble à EO1-C8-AAAAAFA",
    "reason.code.start": "il doit commencer par EO1",
    "reason.code.start-zero": "il doit commencer par EO1 (la lettre O, pas le chiffre zéro)",
    "reason.code.no-c": "il manque le C devant le nombre de cellules (EO1-C{cells}-…)",
    "reason.code.version": "version {got} inconnue après EO (ce programme lit EO1)",
    "reason.code.cells-missing": "le nombre de cellules, C8, C4 ou C2, doit suivre EO1",
    "reason.code.cells": "le nombre de cellules après C est 8, 4 ou 2, pas {got}",
    "reason.code.deal-digit": "un chiffre « {char} » là où le numéro de donne attend une lettre A-Z",
    "reason.code.deal-lookalike": "un chiffre « {char} » là où le numéro de donne attend une lettre A-Z (vouliez-vous dire {like} ?)",
    "reason.code.deal-char": "« {char} » là où le numéro de donne attend une lettre A-Z",
    "reason.code.deal-missing": "il manque le numéro de donne (7 lettres)",
    "reason.code.deal-short": "le numéro de donne s’écrit en 7 lettres, pas « {got} »",
    "reason.code.deal-long": "le numéro de donne s’écrit en 7 lettres, pas « {got} » (les options de règles suivent un tiret)",
    "reason.code.option": "lettre d’option « {char} » inconnue",
    "reason.code.option-twice": "l’option {char} est donnée deux fois",
    "reason.code.options-exclude": "les options {first} et {second} s’excluent",
    "reason.code.deal-range": "le numéro de donne doit être entre {low} et {high}",
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
  document.title = t(document.documentElement.dataset.pageTitle || "ui.title");
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
