#ifndef EIGHTOFF_PORTFOLIO_H
#define EIGHTOFF_PORTFOLIO_H

#include "best_first.h"
#include "dive.h"
#include "scans.h"
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

typedef struct {
    BestFirst bf;
    BestFirst greedy; /* best-first again with greedy_weight: fewer, deeper expansions */
    Nodes gnodes;
    Budget gbudget;
    Config gcfg;
    int glive, turn;
    Dive dive; /* the current dive (one at a time, then the next kind or seed) */
    int8_t rank[NMOVE_KINDS]; /* its children's order by kind of move */
    Nodes dnodes;
    Budget dbudget;
    Config dcfg;
    int restarts, early_restarts, late_restarts, live;
    long dive_cap; /* the current dive stops after this many expansions */
    long dive_nodes; /* expanded by the dives before the current one */
    Scans scan; /* Freecell Solver's preset scans (scans.c), one run for the whole search */
    State start; /* the deal before the rules' autoplay: the scans' root, as fc-solve's */
    Nodes snodes;
    Budget sbudget;
    Config scfg;
    int slive; /* 0 not started, 1 running, 2 held at the cap (for proof.c's late scans), -1 stopped */
    long scan_nodes; /* its expansions once it stopped */
    Scans meta; /* the meta-move scan's slot (meta_start; toons' scans beside looking-glass's), its tables and config */
    Nodes mnodes;
    Budget mbudget;
    Config mcfg;
    int mlive; /* 0 not started, 1 running, -1 stopped */
    long meta_nodes; /* its expansions once it stopped */
    /* The exact proof's turns while best-first's open list looks like a lost deal's
     * (pf_proof_gate): proof.c's, which keeps the proof and its count. */
    int (*proof_turn)(void *ctx, long bf_quantum, long max_nodes, double deadline, Outcome *out);
    void *proof_ctx;
    long proof_nodes;
    Winner win;
    const Schedule *sch; /* the schedule the turns follow (the caller's) */
} Portfolio;

/* Past ``first`` the scans go on in proof.c's turns (``settle``, scan_late_num there),
 * up to scan_late_nodes positions in all: at the portfolio's cap they are held, not
 * dropped (a deal past ``first`` is one best-first has not won within 100,000). */

/* Positions the scans have expanded so far. */
long portfolio_scanned(const Portfolio *p);

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
int portfolio_scan_turn(Portfolio *p, const Config *cfg, size_t share, long max_scanned,
                               double deadline, long quantum, long cap);

/* The next dive, stopped after ``cap`` expansions: the r-th of its stretch
 * (``*count``: the short dives before solo, the dives up to dive_max and the long
 * ones beside the proof, proof.c, count their own) cycles through DIVE_KINDS,
 * each kind with its own seed in the first cycle and seed + r / NKINDS after. */
void portfolio_next_dive(Portfolio *p, const Config *cfg, const State *root, size_t share, int *count,
                                long cap);

/* Runs the portfolio from ``root`` (``start`` after its autoplay; the scans start
 * from ``start``); ``tail`` 0 runs best-first alone. ``first`` >= 0: it stops
 * (LIMIT) once the searches other than the scans have expanded that many positions
 * (the scans' cost falls on deals won past ``first`` once, not three times over:
 * the proof's turns, proof.c). On SOLVED, ``win`` names the
 * path's search (the best-first search's tables are ``nodes``, a helper's its own:
 * portfolio_free). Best-first (``p->bf``) is left to the caller, to go on with or
 * bf_free. ``p->proof_turn`` and ``p->proof_ctx`` are the caller's (NULL: no proof
 * turns); the rest of ``p`` is made here. */
Outcome portfolio_run(Portfolio *p, const Schedule *sch, const Config *cfg, const State *start, const State *root,
                      Nodes *nodes, long max_nodes, double deadline, int tail, long first);

#endif
