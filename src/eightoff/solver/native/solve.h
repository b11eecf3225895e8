/* The solver's plain C entry points: one whole solve (core.solve_fast) and one optimal
 * solve (core.solve_optimal), from the engine's state to the engine moves of a line.
 *
 * No Python and no threads: plain structs in, a plain answer out, its moves allocated
 * here and freed by the caller (solve_answer_free). The CPython binding
 * (module.c py_solve, py_optimal) calls them with the GIL released; a WebAssembly
 * build (wasm32-wasi) can call them from JavaScript the same way. A call allocates
 * its tables within ``max_bytes`` (malloc and free only) and keeps nothing between
 * calls; the move tables are made once by solve_init. Its deepest stack frames are the
 * proof's move generation (about 30 KiB) and A*'s (about 24 KiB): give it a stack of
 * 256 KiB or more (wasm-ld's -z stack-size).
 *
 * A call from C:
 *
 *     solve_init();
 *     Config rules = {...};            // eightoff.solver.core.Config's fields
 *     EState deal = {...};             // columns, cells in place (-1: empty), foundations
 *     SolveLimits limits = SOLVE_LIMITS_DEFAULT;
 *     limits.max_nodes = 100000;
 *     const char *bad = solve_invalid(&rules, &deal, &limits, &SCHEDULE_DEFAULT);
 *     SolveAnswer answer;
 *     if (bad == NULL && solve_line(&rules, &deal, &limits, &SCHEDULE_DEFAULT, &answer) == SOLVE_OK)
 *         ... answer.status, answer.moves[0 .. answer.nmoves) ...
 *     solve_answer_free(&answer);
 */
#ifndef EIGHTOFF_SOLVE_H
#define EIGHTOFF_SOLVE_H

#include "engine.h"
#include "schedule.h"

/* What one solve may spend, and how it finishes a line. */
typedef struct {
    long max_nodes;      /* positions expanded in all, at most (< 0: no limit) */
    double seconds;      /* wall-clock seconds, at most (< 0: no limit; not NaN) */
    long long max_bytes; /* the tables' memory, at most (4096 or more): past it, LIMIT */
    int endgame_home;    /* once this many cards are home the ending is re-solved optimally (-1: never) */
    long endgame_nodes;  /* ... by an A* of at most this many positions */
    int tail;            /* 0: best-first alone, no helper, no proof beside it */
    int resolve;         /* 1: a helper's line is tried again by best-first from a few of its positions */
} SolveLimits;

/* No limit but 1 GiB of tables; no optimal ending; the helpers and the re-solving on. */
#define SOLVE_LIMITS_DEFAULT ((SolveLimits){-1, -1.0, (long long)DEFAULT_MAX_BYTES, -1, 0, 1, 1})

/* How a call ended: SOLVE_OK (the answer holds the verdict), or no answer. */
enum {
    SOLVE_OK = 0,
    SOLVE_NOMEM = 1,  /* out of memory (not the budget: that ends in LIMIT) */
    SOLVE_BROKEN = 2, /* the found line did not replay: a bug in the C core */
};

/* One solve's answer. ``status``: SOLVED (``moves`` win from the state given),
 * EXHAUSTED (proven: no solution) or LIMIT (unknown: a node, time or memory limit).
 * ``moves``: the engine's moves (src_kind, src, dst_kind, dst, count: engine.h), every
 * card sent home a move of its own; NULL unless SOLVED. */
typedef struct {
    int status;
    Move *moves;
    int nmoves;
    int length; /* the line in single-card moves (a run of n cards: 2n - 1) */
    long nodes; /* positions expanded by every search */
} SolveAnswer;

/* The kernel's and the searches' tables; once, before any call. */
void solve_init(void);

/* Why ``cfg`` cannot be run (a message), or NULL. */
const char *config_invalid(const Config *cfg);

/* Why ``limits`` cannot be run (its seconds and max_bytes), or NULL. */
const char *limits_invalid(const SolveLimits *limits);

/* Why solve_line (or, ``sch`` NULL, optimal_line) cannot run these arguments (a
 * message naming what is wrong), or NULL: the config, the state (each of the 52
 * cards once, a card or -1 in each of the config's cells), the limits and the
 * schedule. The calls below trust their arguments: check them first. */
const char *solve_invalid(const Config *cfg, const EState *es, const SolveLimits *limits, const Schedule *sch);

/* The whole search of core.solve_fast from ``es`` under ``cfg`` (the rules and the
 * heuristic's weights), run by ``sch`` (SCHEDULE_DEFAULT: the tuned one): best-first,
 * its helpers by turns (portfolio.c), the exact proof beside it past sch->first
 * (proof.c); on a win, the finish (line.c). Fills ``answer`` (solve_answer_free it,
 * whatever the return); returns SOLVE_OK, SOLVE_NOMEM or SOLVE_BROKEN. */
int solve_line(const Config *cfg, const EState *es, const SolveLimits *limits, const Schedule *sch,
               SolveAnswer *answer);

/* A shortest line in single-card moves, proven (core.solve_optimal): A* (astar.c)
 * from ``es``, then its engine moves. ``limits``: max_nodes, seconds, max_bytes. */
int optimal_line(const Config *cfg, const EState *es, const SolveLimits *limits, SolveAnswer *answer);

void solve_answer_free(SolveAnswer *answer);

/* The search state of the engine's ``es`` (its cells' cards sorted). */
void estate_search_state(const Config *cfg, const EState *es, State *st);

/* ``root``: ``start`` after the config's autoplay; returns the cards it sent home. */
int autoplayed(const Config *cfg, const State *start, State *root);

/* When a search given ``seconds`` stops (< 0: never): a deadline for now_seconds. */
double deadline_after(double seconds);

#endif
