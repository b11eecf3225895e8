#ifndef EIGHTOFF_BEST_FIRST_H
#define EIGHTOFF_BEST_FIRST_H

#include "tables.h"

/* Weighted best-first search: f = g + weight * h (h: cards not home, plus weighted
 * inversions, cards in cells and cards over each suit's next card). Positions are
 * told apart by a 64-bit order-free hash, so a win found is real but "exhausted"
 * is proven by exhaust.c, with exact keys. */

/* A best-first open-list entry: a child not built yet (its parent's node and the
 * move), ordered by f, then by push order (FIFO ties, as heapq's counter). */
typedef struct {
    double f;
    uint32_t counter;
    int32_t parent; /* -1: the root itself */
    int32_t g;
    Move move;
} Entry;

static inline int entry_less(const Entry *a, const Entry *b) {
    return a->f < b->f || (a->f == b->f && a->counter < b->counter);
}

DEFINE_HEAP(Heap, Entry, entry_less)

/* A best-first search that can stop after any expansion and go on later, so the
 * portfolio (portfolio.c) can run it by turns with other searches. */
typedef struct {
    const Config *cfg;
    const State *root;
    Nodes *nodes;
    Heap heap;
    HashSet seen;
    uint32_t counter;
    Outcome out;
} BestFirst;

/* Ready to run from ``root``; 0 (``out.status`` set) when there was no room. */
int bf_init(BestFirst *s, const Config *cfg, const State *root, Nodes *nodes);

void bf_free(BestFirst *s);

/* Expands positions until ``pause_at`` have been expanded in all (returns 0: call
 * again to go on) or the search ends (returns 1, ``out`` holds the outcome). */
int bf_run(BestFirst *s, long pause_at, long max_nodes, double deadline);

/* The whole search in one go (the ``best_first`` entry point). */
Outcome best_first(const Config *cfg, const State *root, Nodes *nodes, long max_nodes,
                          double deadline);

#endif
