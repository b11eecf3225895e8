#ifndef EIGHTOFF_LINE_H
#define EIGHTOFF_LINE_H

#include "best_first.h"
#include "engine.h"
#include "schedule.h"

typedef struct {
    Move *items;
    int n, cap;
} Line;

int single_card_length(const Move *moves, int n);

/* Search steps -> engine moves, played on ``es``. Under
 * one-card-per-move rules a run of n parks n - 1 cards in cells, moves its head and
 * brings the parked cards back; autoplay's cards become foundation moves. Returns
 * 1, 0 when out of memory, -1 when the steps do not fit the state (never for the
 * steps of a search from it). */
int expand_steps(const Config *cfg, EState *es, const Move *steps, const uint8_t *autos,
                        const int *nautos, int nsteps, Line *line);

/* The card at the bottom of what move ``m`` carries from ``es``. */
uint8_t carried(const EState *es, Move m);

/* Step 0 is the root's autoplay (move (-1, -1, -1, -1, 0): ``cfg->root_autoplay``'s); step k > 0 is the k-th
 * move of the path to ``goal`` with the cards autoplay then sent home, found by
 * replaying the path from ``start`` (the root before its autoplay). */
typedef struct {
    Move *moves;
    int *nautos;
    uint8_t autos[52]; /* every step's cards sent home, one after another */
    int n;
} Steps;

int collect_path(const Config *cfg, const State *start, const Nodes *nodes, int32_t goal, Steps *out);

void steps_free(Steps *steps);

/* The finish of a found line (core.solve_fast):
 * the engine moves for ``steps`` from ``start``; once ``endgame_home`` cards are
 * home (-1: never) the rest is re-solved by A* within ``endgame_nodes`` (and the
 * budget) and a shorter ending replaces it; with ``shortcuts``, one move (or two,
 * on a long line) replaces any stretch it can, positions matched whatever the order
 * of their columns and cells (shortcut_line: for a helper's wandering line); then a
 * card's two moves merge wherever the line allows. Returns 1; 0 when out of memory; -1
 * when the steps do not replay from ``start`` (a bug: callers check them first). */
int finish_line(const Schedule *sch, const Config *cfg, const EState *start, const Steps *steps, int endgame_home,
                       long endgame_nodes, double deadline, Budget *budget, int shortcuts, Line *line);

/* The kept line's ending re-solved (endgame_pass), then a card's two moves merged
 * where the new ending meets the rest. solve_line runs it once, on the line it keeps,
 * rather than on each line it tries (finish_line's endgame_home): the same lengths
 * to within a move or two, and the A* runs once against the shortest bound (PySolFC
 * 3001-3100 of twelve rows, 74,236 single-card moves -> 74,234, CPU -2%; C4-EA,
 * C4-EB and C4-EAB -6 to -10%). Returns as finish_line does. */
int finish_ending(const Schedule *sch, const Config *cfg, const EState *start, int endgame_home, long endgame_nodes,
                         double deadline, Budget *budget, Line *line);

/* How far best-first goes on after a dive's or the greedy search's win with
 * ``spent`` positions expanded in all: 1 / go_on_div of them, go_on_min to go_on_max,
 * within the node limit (< 0: none). */
long go_on_nodes(const Schedule *sch, long spent, long max_nodes);

/* Best-first ``bf`` goes on for ``n`` more expansions after a helper's win;
 * ``*spent`` (positions expanded in all) takes them. 1 when it found a line
 * (``bf->out.goal``). */
int bf_go_on(BestFirst *bf, long n, long *spent, double deadline);

/* ``own`` (best-first's steps from ``start``), finished (its ending left to
 * finish_ending, as ``line``'s), replaces ``line`` (a helper's, finished) unless
 * longer; out of memory, ``line`` stands. Returns 1; -1 when ``own`` does not replay
 * (a bug). */
int keep_shorter(const Schedule *sch, const Config *cfg, const EState *start, const Steps *own, double deadline, Budget *budget,
                        Line *line);

/* A helper's line (portfolio.c's, or the exact proof's depth-first one) winds: cards
 * parked and fetched back, runs built and taken apart. Once it has sent a few cards
 * home, the hard part of the deal is mostly behind it, and best-first from there
 * (the same search as the first one, from a position that is no longer the deal)
 * often ends the game within a few hundred expansions, its own way (on Fore Cell
 * deals 3001-3400, 90 of the 343 won got shorter lines, none longer: 38,352
 * single-card moves in all -> 36,279, the median 103 -> 102). */

/* Each of resolve_line's best-first searches may expand a quarter of the positions
 * the search that found the line took (``spent``), resolve_min to resolve_max, and
 * no more than ``max_nodes`` (< 0: none) leaves of it: as
 * many as that (Fore Cell 3001-3400: 38,352 single-card moves in all -> 35,813)
 * cost 8% more time and put a deal over 10x fc-solve; a quarter (36,279) 5.6%. */
long resolve_nodes(const Schedule *sch, long spent, long max_nodes);

/* For each resolve_home, best-first within ``max_nodes`` expansions from the first
 * position of ``line`` with that many more cards home than ``start``; its line,
 * finished as best-first's own are (finish_line; the ending is finish_ending's, on
 * the line kept), after ``line``'s moves up to there, replaces ``line`` when shorter
 * (the shortest of them), and the merges run again over the whole. Out of memory,
 * ``line`` is kept as it was: the line found stands. Returns 1; -1 when a line does not replay (a bug). */
int resolve_line(const Schedule *sch, const Config *cfg, const EState *start, Line *line, long max_nodes, double deadline,
                        Budget *budget);

#endif
