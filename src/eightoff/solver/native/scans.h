#ifndef EIGHTOFF_SCANS_H
#define EIGHTOFF_SCANS_H

#include "astar.h"
#include "dive.h"
#include "meta.h"

/* fc-solve's FCS_VISITED_DEAD_END,
                                                                  * _ALL_TESTS_DONE, _GENERATED_BY_PRUNING */

/* A position of the shared collection. */
typedef struct {
    uint64_t hash;
    int32_t parent; /* the position that generated it first; -1 for the root */
    int32_t active; /* the positions it generated first that are not dead ends (it may go below 0, as fc-solve's) */
    uint32_t checked; /* bit t: scan t checked it */
    uint8_t flags;
    uint16_t depth; /* its generator's depth + 1 (fc-solve's depth field), at most 65,535 */
} Shared;

/* A generated child waiting in a frame: its record and the move to it (a meta-move's
 * child, meta.c: its ``nsteps`` moves, the scan's steps[steps..]). */
typedef struct {
    int32_t shared;
    Move move;
    uint8_t nsteps;
    uint32_t steps;
} ScanKid;

/* A position on a scan's path: its record, its node (the stored position) and its
 * derived list kids[first..first+count); ``group``, ``test``: the next test to run. */
typedef struct {
    int32_t shared, node;
    uint32_t first, count, next, sfirst; /* sfirst: its kids' first step in the scan's steps */
    uint8_t group, test;
    State st; /* the position and its order, kept for its next tests (made at its first) */
    FcsOrder order;
} ScanFrame;

/* A position waiting in an A* scan's queue: its record, its rating, and how to make
 * it (``move`` from the stored position ``from``, or a meta-move's ``nsteps`` moves,
 * the scan's apool[steps..]; ``from`` -1: the root itself). */
typedef struct {
    int32_t shared, rating, from;
    Move move;
    uint32_t steps;
    uint8_t nsteps;
} AStarItem;

/* A BeFS rater's factors (fc-solve's befs weighting, from -asw's weights of cards
 * out, the longest run a move can carry, cards under sequences and depth: rater_init). */
typedef struct {
    double out_rating[14], run_factor, under_factor, depth_factor;
} Rater;

/* A depth-first scan's tests order from ``min_depth`` on (fc-solve's -dto2: the
 * first from the root), and the raters of its weighed groups. */
#define MAX_UNITS 4
typedef struct {
    int min_depth;
    TestGroups groups;
    Rater rater[MAX_GROUPS];
} ScanUnit;

typedef struct {
    ScanUnit units[MAX_UNITS];
    int nunits;
    int64_t rng; /* fc-solve's generator, seeded with the scan's -seed */
    ScanFrame *frames;
    size_t depth, fcap;
    ScanKid *kids;
    size_t nkids, kcap;
    Move *steps; /* the meta-move children's steps (meta.c), kept as the kids are */
    size_t nsteps, stcap;
    int finished, astar, prune; /* prune: fc-solve's -sp r:tf (scans_prune) */
    /* Whether its first order has every test any scan of its preset starts with
     * (fc-solve's complete scan): only such a scan marks dead ends. */
    int complete;
    /* An A* scan (fc-solve's BeFS): its tests (all run at once), its queue,
     * fc-solve's binary heap (1-based, the highest rating on top), the position it
     * checks next (fc-solve's first_state_to_check; ``shared`` -1 when none), the
     * steps of the meta-moves queued (kept as long as the queue) and its rater. */
    const char *astar_tests;
    AStarItem *heap, next;
    size_t hn, hcap;
    Move *apool;
    size_t napool, apcap;
    Rater rater;
    double initial_under; /* the root's cards under sequences, for every rater */
} Scan;

/* A preset's scans, in the order it declares them (the index is the scan's checked
 * bit), with its names for the prelude: a depth-first scan of ``tests``
 * (scan_units_parse) with its random-dfs ``seed``, or (``astar``) an A* scan running
 * ``tests`` at once, rated by ``weights`` (fc-solve's six -asw weights: cards out,
 * the longest run a move can carry, cards under sequences, sequences over renegade
 * cards, depth, cards not on parents; the fourth and sixth are not rated here), each
 * with fc-solve's pruning (-sp r:tf) where ``prune``. */
typedef struct {
    int name;
    const char *tests;
    int seed;
    double weights[6];
    uint8_t astar, prune;
} ScanSpec;

/* A preset: its scans and its prelude. */
typedef struct {
    const ScanSpec *specs;
    int nspecs;
    const int (*prelude)[2];
    int nprelude;
} Preset;
enum { PRESET_TOONS, PRESET_LOOKING_GLASS };
#define MAX_SCANS 17 /* the most scans of a preset (toons) */

typedef struct {
    Config cfg;
    State root;
    Nodes *nodes;
    Shared *shared;
    size_t nshared, scap;
    int32_t *slots; /* the collection's hash table: record index + 1, 0 free */
    size_t mask;
    Scan scans[MAX_SCANS];
    int nscans; /* the preset's, or 1: one scan of the caller's tests (``one``), no prelude */
    const Preset *preset;
    ScanSpec one;
    MetaList meta; /* a meta test's children, before they become kids */
    int current, prelude, finished;
    long checked, until; /* fc-solve's count of states checked; the current turn ends there */
    Outcome out;
} Scans;

/* Whether one scan can follow ``tests`` (scan_units_parse). */
int scans_tests_valid(const char *tests);

void scans_init_tables(void);

void scans_free(Scans *s);

/* Sets up the scans from ``root`` (``cfg`` as the caller gives it: fc-solve's scans
 * send no card home themselves, AUTO_NONE): the scans of PRESETS[``preset``] (``tests``
 * NULL), or one depth-first scan of ``tests`` (scans_tests_valid), fc-solve's
 * "--method soft-dfs -to TESTS" (--method random-dfs -seed ``seed`` where a group is
 * random), with ``prune`` its pruning too ("-sp r:tf": scans_prune). 0 when the
 * tables have no room. */
int scans_init(Scans *s, const Config *cfg, const State *root, Nodes *nodes, const char *tests, int prune,
                      int seed, int preset);

/* Runs the scans until ``pause_at`` expansions (0 returned: paused), a line, the
 * node or time limit, no room, or every scan dry (1 returned, the status in
 * s->out: EXHAUSTED for the last two, which prove nothing). */
int scans_resume(Scans *s, long pause_at, long max_nodes, double deadline);

#endif
