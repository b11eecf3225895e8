#ifndef EIGHTOFF_DIVE_H
#define EIGHTOFF_DIVE_H

#include "tables.h"

/* A depth-first dive: the portfolio's second kind of search (portfolio.c).
 *
 * From each position it tries the children in order, going as deep as it can
 * before it backs up, like the depth-first "soft threads" of Freecell Solver: best
 * h first (h of the child itself, after its autoplay), or by the kind of move that
 * makes them, in an order given as Freecell Solver gives its "tests order"
 * (parse_order). It finds a line in few expansions on deals where the best-first
 * search wanders among many near-equal positions; its lines are long (the finish
 * shortens them) and its running dry proves nothing (positions are told apart by
 * 64-bit hashes, and a streamlined config may leave moves out). A seed > 0
 * shuffles each node's ties and near-ties (by h) or each bracket of kinds, so two
 * dives with different seeds take different paths. */

/* A child waiting on the dive's stack: its move, its score (lower first) and its
 * hash (child_hash at expansion, so that its visit need not hash it again). */
typedef struct {
    double key;
    uint64_t hash;
    Move move;
} Child;

/* One position on the dive's path: its node and its children, kids[first..first+count). */
typedef struct {
    int32_t node;
    uint32_t first, count, next;
    int group; /* an atomic dive: the test group its children came from */
} Frame;

/* An atomic dive's tests order in groups, as Freecell Solver reads "01[ABCDE]": a
 * bracket is one group whose children are shuffled (GROUP_RANDOM; "[...]=rand()"
 * too) or, after "=asw(w1,...,w6)", sorted by those BeFS weights (GROUP_WEIGHED:
 * scans.c), the tests outside brackets one group each run together, in their order. */
#define MAX_GROUPS 8
enum { GROUP_PLAIN, GROUP_RANDOM, GROUP_WEIGHED };
typedef struct {
    char tests[MAX_GROUPS][16];
    uint8_t random[MAX_GROUPS]; /* GROUP_PLAIN, GROUP_RANDOM or GROUP_WEIGHED */
    double weights[MAX_GROUPS][6]; /* a weighed group's -asw weights */
    int n;
} TestGroups;

typedef struct {
    Config cfg;
    State root; /* the search's root after the dive's own autoplay */
    Nodes *nodes;
    HashSet seen;
    Frame *frames;
    size_t depth, fcap;
    Child *kids;
    size_t nkids, kcap;
    uint64_t rng;
    double noise; /* a child's score moves by up to this much (a seed > 0) */
    const int8_t *rank; /* NULL: children best h first; else by their move's kind (move_kind) */
    const char *atomic; /* non-NULL: single-card moves in Freecell Solver's order (atomic_moves) */
    TestGroups groups; /* the atomic tests order, parsed */
    int64_t fcs_rng; /* Freecell Solver's generator for its random groups, seeded as its -seed */
    Outcome out;
} Dive;

/* Kinds of move, as Freecell Solver's "tests" name them: a card home (its tests 0
 * and 1), a column's cards to an empty column (A), onto another column (B), to a
 * cell (C, the dig macro too), a cell's card onto a column (D) or to an empty one
 * (E), and a card taken back from its foundation (always last). */
enum { K_HOME, K_COL_EMPTY, K_COL_COL, K_COL_CELL, K_CELL_COL, K_CELL_EMPTY, K_BACK, NMOVE_KINDS };

/* Ranks for the kinds from a test order in Freecell Solver's notation ("01ABCDE",
 * "[01][ABD][CE]": a bracket is one rank, its kinds shuffled by a seeded dive).
 * Returns 0 on a letter it does not know (or past 64 of them). Kinds left out
 * rank last. */
int parse_order(const char *spec, int8_t *rank);

/* The single-card moves of ``tests`` (characters 0, 1, A-E; checked by the caller),
 * in Freecell Solver's order: 0 a column's top card home, 1 a cell's card home, A a
 * top card to an empty column (not a column's only card), B a top card onto a
 * column, C a top card to a cell, D a cell's card onto a column, E a cell's card to
 * an empty column. Returns how many. */
/* The columns and cells of ``st`` in Freecell Solver's stored order (and its first
 * empty column, -1 when none), what atomic_moves_in reads. */
typedef struct {
    int order[NCOLS], cells[MAXCELLS], empty;
    int8_t tops[52]; /* card -> the column it tops, or -1 */
    int8_t place[NCOLS]; /* column -> its place in ``order`` */
} FcsOrder;

/* The columns of ``st`` in Freecell Solver's stored order. */
void fcs_column_order(const State *st, int *order);

void fcs_order(const State *st, FcsOrder *o);

/* atomic_moves with the order already made (a scan runs its tests one at a time). */
int atomic_moves_in(const Config *cfg, const State *st, const FcsOrder *o, const char *tests, Move *out);

/* Parses a tests order (0-9, A-E; brackets for random groups, not nested, none
 * empty) into ``g``: 0 when it is not one. The meta-move tests 2-9 are a scan's
 * only (meta.c; scans_tests_valid). */
int parse_test_groups(const char *tests, TestGroups *g);

/* Whether ``tests`` is a tests order atomic_moves can follow (parse_test_groups). */
int atomic_tests_valid(const char *tests);

/* Freecell Solver's random number (rand.h): two steps of the Microsoft C generator,
 * 15 bits each, the second above the first. */
uint32_t fcs_random(int64_t *rng);

int dive_init(Dive *d, const Config *cfg, const State *root, Nodes *nodes, uint64_t seed, double noise,
                     const int8_t *rank, const char *atomic);

void dive_free(Dive *d);

/* As bf_run: 0 when paused at ``pause_at`` expansions, 1 when the dive ended. */
int dive_run(Dive *d, long pause_at, long max_nodes, double deadline);

#endif
