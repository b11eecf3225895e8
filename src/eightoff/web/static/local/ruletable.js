/* The rule options as the engine declares them (eightoff.rules), in the order game
 * codes and descriptions list them: written by `python -m eightoff.web.ruletable`,
 * not by hand. */

export const TABLE = [
  {"name": "cells", "flag": "--cells", "help": "number of cells", "default": 8, "values": [{"value": 8, "text": "8 cells", "letter": ""}, {"value": 4, "text": "4 cells", "letter": ""}, {"value": 2, "text": "2 cells", "letter": ""}]},
  {"name": "empty_column", "flag": "--empty-column", "help": "what an empty column takes", "default": "kings", "values": [{"value": "kings", "text": "Kings only to empty columns", "letter": ""}, {"value": "any", "text": "any card to empty columns", "letter": "E"}]},
  {"name": "build", "flag": "--build", "help": "how columns build down", "default": "suit", "values": [{"value": "suit", "text": "build in suit", "letter": ""}, {"value": "alternate", "text": "build in alternating colours", "letter": "A"}]},
  {"name": "layout", "flag": "--layout", "help": "how the cards are dealt", "default": "eight-off", "values": [{"value": "eight-off", "text": "Eight Off deal", "letter": ""}, {"value": "bakers", "text": "Baker's Game deal", "letter": "B"}]},
  {"name": "group_moves", "flag": "--group-moves", "help": "how many cards move as one", "default": "cells", "values": [{"value": "single", "text": "one card per move", "letter": "S"}, {"value": "cells", "text": "runs of free cells + 1", "letter": ""}, {"value": "freecell", "text": "runs by the FreeCell formula", "letter": "F"}]},
  {"name": "take_back", "flag": "--take-back", "help": "allow taking cards back from the foundations", "default": false, "values": [{"value": false, "text": "no take-back", "letter": ""}, {"value": true, "text": "take-back allowed", "letter": "T"}]},
];
