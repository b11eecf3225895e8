#ifndef EIGHTOFF_PROOF_H
#define EIGHTOFF_PROOF_H

#include "best_first.h"
#include "exhaust.h"
#include "portfolio.h"

/* The whole search of core.solve_fast: the portfolio first, then, on a deal it has
 * not settled within ``first`` expansions (first unless told), its best-first search
 * and the exact proof (exhaust.c) by turns.
 *
 * A large deal used to be searched twice: best-first (hashed positions) until it
 * ran dry, then the exact proof over the same positions again, which also held the
 * only "no solution" answer. Past ``first``, the exact depth-first search runs beside
 * best-first instead, proof_ratio expansions for each of best-first's: it finds
 * lines of its own (a depth-first scan, as Freecell Solver's), its running dry is
 * the proof. Where best-first's open list was small, the proof took turns in the
 * portfolio already (portfolio.c, portfolio_proof_turn) and goes on from there; its
 * running dry there ends the search. Best-first goes on where the portfolio left
 * it (a deal it would win at a few hundred thousand positions is not searched
 * again from the start); it is
 * dropped when it runs dry, when the tables are full (then the proof has them), or
 * past late_bf_max expansions.
 * The portfolio's depth-first dives go on too, longer (late_dive expansions each,
 * the kinds in turn, twice that from the second cycle on), late_num positions per
 * late_den of best-first's and only while best-first's open list looks like a won
 * deal's: deals Freecell Solver wins in a second by its depth-first scans were
 * still "unknown" to best-first and the proof after millions of positions, while
 * a dive of one kind or another wins most of them within 30,000-300,000; they stop
 * once best-first has expanded late_dives_max. Freecell Solver's preset scans go on
 * as well (scan_late_num per scan_late_den of best-first's and the proof's positions,
 * gated the same way by scan_late_gate, and at scan_floor's slower pace while the
 * gate is shut), up to scan_late_nodes of theirs in all. */


typedef struct {
    /* Its helpers go on past ``first``: the proof (pf.proof), the long dives (pf.dive)
     * and the late scans (pf.scan). */
    Portfolio pf;
    BestFirst bf; /* the portfolio's, going on beside the proof (its tables: the caller's nodes) */
    int blive;
    int dives;        /* 1 while the long dives go on */
    long scan_base;   /* the scans' positions at ``first`` */
    long others_base; /* best-first's and the proof's then */
    long dive_base;   /* the dives' positions when the long dives began */
    long spent;       /* past ``first``: the positions of the searches no longer running */
    long max_nodes, ratio; /* ratio: the proof's positions per best-first one */
    double deadline;
    Winner win;
    const Schedule *sch; /* the schedule the turns follow (the caller's) */
} Settle;

/* The proof side's config: in alternating colours the refined safe autoplay
 * (rules.h proven_safe_home), which sends more cards home at once and so merges
 * positions the basic rule keeps apart; the same config otherwise. */
Config proof_config(const Config *cfg);

void settle_free(Settle *s);

/* Searches from ``root`` (after its autoplay) until a line, a proof, or a limit;
 * best-first stops past sch->late_bf_max expansions; the portfolio alone
 * for the first sch->first.
 * On SOLVED, ``win`` names the path's search (``nodes`` for
 * best-first's, the proof's own or a helper's else: settle_free after
 * collect_path). */
Outcome settle(Settle *s, const Schedule *sch, const Config *cfg, const State *start, const State *root,
               Nodes *nodes, long max_nodes, double deadline, int tail);

#endif
