#ifndef EIGHTOFF_META_H
#define EIGHTOFF_META_H

#include "dive.h"

/* Freecell Solver's meta-move tests 2-9, move for move: each child is a short run of
 * single-card (and run) moves that ends in a move worth making, the cards in its way
 * parked first in the free cells, then (where any card may fill one) in the empty
 * columns, one card each.
 *
 * fc-solve's soft-dfs with its default tests order "0123456789" wins deals its
 * single-card tests ("01ABCDE", the toons preset's) take tens or hundreds of times
 * longer over (PySolFC C4-EB 48: 246 positions against 13,630; C2-EAB 83: 1,474
 * against none within 2,000,000). The portfolio runs such a scan (portfolio.c
 * meta_start). The tests, in
 * the stored order of the position (dive.c's FcsOrder: columns p = 0..7 sorted,
 * empty ones first; the cells sorted):
 *
 * 2 a cell's card onto a card it builds on, the cards above that parked;
 * 3 a card under others home, the cards above it parked;
 * 4 a column's run (each maximal run from the bottom, not headed by a King) onto a
 *   card it builds on in another column, the cards above both parked, if the run
 *   then fits the group-move formula;
 * 5 a card onto a card it builds on lower in its own column: the cards from the top
 *   down to it parked, then those between, then the card;
 * 6 a run to an empty column: a top run whole (never a whole column), or the top
 *   part of a lower run that fits once the cards above it are parked (where that
 *   part is then the whole column, fc-solve moves it into an empty one: the same
 *   position, which the engine never plays, so the child is the parking alone);
 * 7 a cell's card to an empty column;
 * 8 a top run's cards that already lie on a parent (from the second card of the
 *   run up) onto another parent, the cards above that parent parked;
 * 9 a whole column into the cells, when there is no empty column;
 * j a cell's card to an empty column, then at once another cell's card onto it, or
 *   a run from a column (each maximal run from the bottom) with the cards above it
 *   parked, if it then fits the group-move formula (fc-solve counts the cell the
 *   card leaves as free and the column it fills as not empty).
 *
 * A parent is looked up as fc-solve's positions_by_rank holds it: a card in a column
 * that is its column's top or lies under a card that does not build on it; with
 * alternating colours the two candidates in the suit order clubs, spades (for a red
 * card) or hearts, diamonds (for a black one). Tests 2, 4 and 8 sort their children
 * by fc-solve's context key (stable). tests/test_native_meta.py and
 * benchmarks/fcs_meta.py hold a scan of these tests to fc-solve's count of states
 * checked (0 mismatches on the 24 rules' PySolFC 1-40).
 *
 * Each step is checked against rules.h before it is kept (a child with a step the
 * rules refuse is dropped): the line a scan finds replays in the engine as it is. */

#define META_STEPS 56 /* the most steps of one child: 52 cards home at once (scans.c's pruning), room to spare */

/* A child: its steps[first..first+n) in the list's pool, fc-solve's sort key, and the
 * hash of the position the steps make (state_hash). */
typedef struct {
    uint64_t hash;
    uint32_t first, context;
    uint8_t n;
} MetaMove;

/* The children of one test, and the pool of their steps (grown within ``budget``). */
typedef struct {
    MetaMove *items;
    size_t n, cap;
    Move *steps;
    size_t nsteps, scap;
    Budget *budget;
} MetaList;

/* A child being built: the position as its steps leave it, and the steps. */
typedef struct {
    State w;
    Move steps[META_STEPS];
    int n, bad;
} MetaBuild;

void meta_list_free(MetaList *l);

/* Plays ``m`` on the child if rules.h allows it (else marks the child bad). */
void meta_step(const Config *cfg, MetaBuild *b, Move m);

/* Keeps the child ``b`` (unless bad) with sort key ``context``: 0 when no room. */
int meta_keep(MetaList *l, const MetaBuild *b, uint32_t context);

/* Appends the children of meta test ``test`` ('2'-'9') of ``st`` to ``l``: 0 when no room. */
int meta_moves(const Config *cfg, const State *st, const FcsOrder *o, char test, MetaList *l);

#endif
