/* One interface for every search that takes turns beside best-first: the greedy
 * best-first search, the dives (dive.c), Freecell Solver's preset scans and its
 * meta-move scan (scans.c) and the exact proof (exhaust.c). The portfolio
 * (portfolio.c) and the whole search (proof.c) run them all alike:
 *
 *     helper_init    set up on a root, with its config and its share of the tables;
 *     helper_start   its search made;
 *     helper_resume  runs until its allowance (positions of its own in all), a line,
 *                    running dry or a limit (the node limit, the deadline, no room);
 *     helper_nodes   the positions it has expanded, released searches included;
 *     helper_release its tables given back, its count kept.
 *
 * A helper's search lives on the heap from its start to its release (a Helper is
 * small while it waits); its positions (``nodes``) hold the path of a win for
 * collect_path (line.c) until helper_free. */
#ifndef EIGHTOFF_HELPER_H
#define EIGHTOFF_HELPER_H

#include "best_first.h"
#include "dive.h"
#include "exhaust.h"
#include "scans.h"

typedef enum {
    HELPER_GREEDY, /* best-first with a larger weight (BestFirst) */
    HELPER_DIVE,   /* one depth-first dive (Dive) */
    HELPER_SCANS,  /* Freecell Solver's scans: a preset's, or one scan of given tests (Scans) */
    HELPER_PROOF,  /* the exact proof (Exhaust): its running dry proves the deal lost */
} HelperKind;

typedef enum {
    HELPER_IDLE,    /* not started (the dives: between one dive and the next) */
    HELPER_RUNNING, /* started: it takes turns */
    HELPER_HELD,    /* started, its turns waiting (the scans at their cap, the proof out of room) */
    HELPER_STOPPED, /* released for good */
} HelperState;

/* What helper_resume returns. */
enum {
    HELPER_PAUSED = EX_PAUSED, /* at its allowance: resume it again */
    HELPER_ENDED = EX_ENDED,   /* a line, running dry or a limit: helper_outcome says which */
    HELPER_FULL = EX_FULL,     /* the proof only: a table found no room, its search intact */
};

/* How a helper starts beside its kind, config and root. */
typedef struct {
    uint64_t seed;      /* a dive: its seed (0: ties in generation order) */
    double noise;       /* a dive: its children's scores move by up to this much (a seed > 0) */
    const int8_t *rank; /* a dive: its children by the kind of their move (NULL: by h) */
    const char *tests;  /* the scans: one scan of these tests (NULL: the preset's scans) */
    int preset;         /* the scans: PRESET_TOONS or PRESET_LOOKING_GLASS */
} HelperStart;

typedef struct {
    HelperKind kind;
    HelperState state;
    Config cfg;    /* its rules and weights (its own autoplay) */
    State root;    /* where it started */
    Budget budget; /* its share of the tables (unless it shares its caller's) */
    Nodes nodes;   /* its positions: its win's path */
    long released; /* the positions of its searches released so far */
    union {
        void *any;
        BestFirst *bf;
        Dive *dive;
        Scans *scans;
        Exhaust *ex;
    } search; /* NULL unless started */
} Helper;

/* Sets ``h`` up as a ``kind`` search from ``root`` under ``cfg`` (both copied), its
 * tables within ``*shared`` (NULL: a budget of its own of ``share`` bytes), not started
 * yet: its state and count are left as they are (IDLE in a zeroed Helper). */
void helper_init(Helper *h, HelperKind kind, const Config *cfg, const State *root, Budget *shared, size_t share);

/* Makes ``h``'s search (helper_init first); state RUNNING. 0 when there was no room
 * (its outcome says which limit): release it. */
int helper_start(Helper *h, const HelperStart *how);

/* Runs ``h`` until ``pause_at`` positions of its own in all (HELPER_PAUSED), or its
 * end (HELPER_ENDED), or, the proof, no room (HELPER_FULL); ``max_nodes`` (< 0:
 * none) and ``deadline`` (< 0: none) as every search takes them. */
int helper_resume(Helper *h, long pause_at, long max_nodes, double deadline);

/* The outcome of its search so far (not started or released: NOMEM). */
const Outcome *helper_outcome(const Helper *h);

/* Whether ``h`` has a search: started and not released. */
static inline int helper_started(const Helper *h) { return h->search.any != NULL; }

/* Positions ``h`` has expanded: its released searches' and its current one's. */
long helper_nodes(const Helper *h);

/* Gives back a started helper's tables (its positions too, unless it won: the path
 * stays for collect_path, until helper_free), keeps its count, and leaves it in
 * ``after`` (IDLE: it may start again; STOPPED: for good). A no-op unless started. */
void helper_release(Helper *h, HelperState after);

/* Releases ``h`` for good, its positions too. */
void helper_free(Helper *h);

/* Whether ``h``'s end ends the whole search: a line, or the node or time limit (not
 * its share of the tables filling, nor its running dry: that proves nothing). */
static inline int helper_ends_search(const Helper *h) {
    const Outcome *o = helper_outcome(h);
    return o->status == SOLVED || (o->status == LIMIT && !h->budget.full);
}

#endif
