#ifndef EIGHTOFF_EXHAUST_H
#define EIGHTOFF_EXHAUST_H

#include "keys.h"
#include "layered.h"

/* The proof: every reachable position, exact keys (no heuristic, no heap). */

/* A position's record: its place in the arena, in 4-byte words. A slot holds it
 * in its low REC_BITS bits (plus one: 0 marks a free slot) under the top TAG_BITS
 * of the position's hash, so a slot or a stack entry leads straight to the key,
 * with no table of offsets between (one cache miss less a look-up). The whole
 * proof's records name their parents in 32 bits (MAX_ARENA bytes at most); the
 * proof by layers keeps no parents and may fill LAYER_ARENA (a layer of 7755 of
 * 2-cell alternating Baker's, any card to an empty column, holds over 359 million
 * positions: MAX_ARENA's worth). */
typedef int64_t Rec;
#define REC_BITS 33
#define SIZE_AT_MOST(n) ((uint64_t)(n) < (uint64_t)SIZE_MAX ? (size_t)(n) : SIZE_MAX) /* a 32-bit size_t: all it holds */
#define LAYER_ARENA SIZE_AT_MOST(((uint64_t)1 << (REC_BITS + 2)) - 8)

/* A depth-first search over every position reachable from the root, told apart by
 * exact keys (keys.c): running dry proves that no solution exists. A position is
 * stored as its parent's record and its key, about 20 bytes with its table slot (a
 * Node took 80, its map slot 16 to 32 more). It can stop after any
 * expansion and go on later (proof.c runs it by turns with best-first), and a
 * position whose children found no room is left on the stack, so the search can go
 * on once room was made (ex_run returns EX_FULL). */
typedef struct {
    const Config *cfg;
    Nodes *nodes; /* its budget; on a win, the path from the root (collect_path) */
    KeyRoot root;
    uint8_t *arena; /* records: parent's (int32; not by layers), key length (1 byte), key; 4-aligned */
    size_t used, acap;
    size_t max_arena; /* MAX_ARENA, or LAYER_ARENA by layers */
    int hdr;          /* a record's bytes before its key: 5, or 1 by layers (no parent) */
    size_t n; /* positions stored */
    uint64_t *slots; /* hash tag << REC_BITS | record + 1; 0: free */
    size_t mask;
    int shift; /* TAG_BITS - log2(slots): a tag's first slot is tag >> shift */
    Rec *stack; /* records */
    size_t depth, cap;
    int crowd; /* 1: when the slots cannot double, fill them past 3/4 (ex_room) */
    int normal; /* 1: positions in normal form, and lifts (normal.c); NORMAL_EVERY_MOVE: */
                /* the same without drop_returns and lone_uses (the same positions: a check) */
    struct Pending *pending; /* the proof by layers (layered.c): children of other foundations go there */
    uint8_t layer[4];        /* ... and this table holds the positions with these foundations */
    int layer_frozen;        /* ... and this key_frozen */
    Outcome out;
} Exhaust;

enum { EX_PAUSED = 0, EX_ENDED = 1, EX_FULL = 2 };
#define NORMAL_EVERY_MOVE 2

/* Room in every table for ``n`` more positions (before any is added, so that a
 * refusal leaves the search as it was); 0 when a table found none. */
int ex_room(Exhaust *e, int n);

/* The position with this key: its record, or -1 (and ``*free`` its slot). */
int64_t ex_find(const Exhaust *e, const uint8_t *key, int len, uint64_t h, size_t *free);

/* Stores a position (room made by ex_room); its record. */
Rec ex_add(Exhaust *e, Rec parent, const uint8_t *key, int len, uint64_t h, size_t slot);

void ex_free(Exhaust *e);

/* The table's first slots, all free (1,024: they double as positions come); 0
 * when there was no room. */
int ex_slots(Exhaust *e);

/* Ready to run from ``root`` (``nodes`` must be empty); 0 (``out.status`` set) when
 * there was no room. */
int ex_init(Exhaust *e, const Config *cfg, const State *root, Nodes *nodes);

/* Expands positions until ``pause_at`` have been expanded in all (EX_PAUSED: call
 * again to go on), the search ends (EX_ENDED: ``out`` holds the outcome), or a
 * table finds no room (EX_FULL: ``out.status`` is no_room's; the position stays on
 * the stack, so a call after room was made goes on). ``root``: the search's root, in
 * its own column order, for the path of a win. */
int ex_run(Exhaust *e, const State *root, long pause_at, long max_nodes, double deadline);

/* The whole search in one go (the ``exhaust`` entry point). */
Outcome exhaust(const Config *cfg, const State *root, Nodes *nodes, long max_nodes, double deadline,
                       int normal);

#endif
