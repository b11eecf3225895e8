#ifndef EIGHTOFF_PORTFOLIO_H
#define EIGHTOFF_PORTFOLIO_H

#include "helper.h"
#include "schedule.h"


/* What a dive prefers: the order of a position's children, by h (``order`` NULL:
 * h's weight for a card in a cell and for a card over its suit's next card, < 0
 * the rules' own) or by the kind of their move (``order``: Freecell Solver's
 * "tests order", dive.c's parse_order, its brackets shuffled by the seed), and
 * whether it is streamlined (every card that can go home goes, where the rules'
 * autoplay is only the safe kind: Solvitaire's auto-foundations; its failure
 * proves nothing). The first cycle runs each kind with its own seed (0: ties in
 * generation order), later cycles with fresh seeds. */
typedef struct {
    double cell_w, cover_w;
    int streamlined;
    const char *order;
    uint64_t seed;
} DiveKind;

static const DiveKind DIVE_KINDS[] = {
    {1.0, -1, 0, NULL, 0},
    {-1, 1.0, 1, NULL, 0},
    {-1, -1, 0, "[01][ABD][CE]", 2},
    {-1, -1, 0, NULL, 0},
    {-1, 1.0, 0, NULL, 0},
    {-1, -1, 1, "01BDAEC", 0},
    {-1, -1, 1, NULL, 0},
    {1.0, -1, 1, NULL, 0},
    {-1, -1, 0, "[01][ABCDE]", 1},
};
#define NKINDS ((int)(sizeof DIVE_KINDS / sizeof DIVE_KINDS[0]))

/* The search that won: its config and nodes, for collect_path. */
typedef struct {
    const Config *cfg;
    const Nodes *nodes;
} Winner;

/* A helper's win: its config and positions. */
static inline Winner helper_winner(const Helper *h) { return (Winner){&h->cfg, &h->nodes}; }

typedef struct {
    BestFirst bf;
    const Config *cfg; /* the rules: best-first's config, the helpers' made from it */
    const State *root; /* the deal after the rules' autoplay: best-first's, the greedy search's and the dives' root */
    State start;       /* the deal before it: the scans' root, as fc-solve's */
    Nodes *nodes;      /* best-first's tables, within the whole search's budget */
    Helper greedy;     /* best-first again with greedy_weight: fewer, deeper expansions */
    Helper dive;       /* the current dive (one at a time, then the next kind or seed) */
    Helper scan;       /* Freecell Solver's preset scans (scans.c), one run for the whole search */
    Helper meta;       /* the meta-move scan's slot (meta_start; toons' scans beside looking-glass's) */
    /* The exact proof (set up by proof.c's settle, within the whole search's budget):
     * its turns while best-first's open list looks like a lost deal's (pf_proof_gate),
     * where ``proof_turns``; settle goes on with it past ``first``. */
    Helper proof;
    int proof_turns, proof_ended; /* proof_ended: its turn ended the search */
    int8_t rank[NMOVE_KINDS];     /* the current dive's children's order by kind of move */
    int turn, restarts, early_restarts, late_restarts;
    long dive_cap; /* the current dive stops after this many expansions */
    Winner win;
    const Schedule *sch; /* the schedule the turns follow (the caller's) */
} Portfolio;

/* Past ``first`` the scans go on in proof.c's turns (``settle``, scan_late_num there),
 * up to scan_late_nodes positions in all: at the portfolio's cap they are held, not
 * dropped (a deal past ``first`` is one best-first has not won within 100,000). */

/* Positions the scans have expanded so far. */
long portfolio_scanned(const Portfolio *p);

/* Each helper's end: its tables given back (the dive: the next may start; the
 * others: for good). */
void portfolio_drop_dive(Portfolio *p);

void portfolio_drop_greedy(Portfolio *p);

void portfolio_drop_scan(Portfolio *p);

void portfolio_drop_meta(Portfolio *p);

void portfolio_free(Portfolio *p);

/* The scans' turn of ``quantum`` expansions, ``cap`` in all, ``max_scanned`` at most
 * by the node limit (< 0: none): 1 when they found a line (or hit the node or time
 * limit). They start from the deal itself, before the rules' autoplay, and send no
 * card home themselves, as Freecell Solver; they stop for good when they all run
 * dry or fill their share of the tables, and at ``cap`` (held there where
 * scan_late_nodes goes further: proof.c's late turns). */
int portfolio_scan_turn(Portfolio *p, long max_scanned, double deadline, long quantum, long cap);

/* The next dive, stopped after ``cap`` expansions: the r-th of its stretch
 * (``*count``: the short dives before solo, the dives up to dive_max and the long
 * ones beside the proof, proof.c, count their own) cycles through DIVE_KINDS,
 * each kind with its own seed in the first cycle and seed + r / NKINDS after. */
void portfolio_next_dive(Portfolio *p, int *count, long cap);

/* Sets ``p`` up to search from ``root`` (``start`` after its autoplay; the scans start
 * from ``start``) under ``cfg`` and ``sch``, best-first's tables in ``nodes``. Its
 * proof is the caller's to set up (helper_init, ``proof_turns``); no turns else. */
void portfolio_init(Portfolio *p, const Schedule *sch, const Config *cfg, const State *start, const State *root,
                    Nodes *nodes);

/* Runs the portfolio; ``tail`` 0 runs best-first alone. ``first`` >= 0: it stops
 * (LIMIT) once the searches other than the scans have expanded that many positions
 * (the scans' cost falls on deals won past ``first`` once, not three times over:
 * the proof's turns, proof.c). On SOLVED, ``win`` names the path's search (the
 * best-first search's tables are ``nodes``, a helper's its own: portfolio_free).
 * Best-first (``p->bf``) is left to the caller, to go on with or bf_free. */
Outcome portfolio_run(Portfolio *p, long max_nodes, double deadline, int tail, long first);

#endif
