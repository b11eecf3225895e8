/* The portfolio: the weighted best-first search with three helpers, run by turns.
 *
 * Most deals fall to the best-first search within a few hundred expansions, so it
 * runs alone first (EARLY_START expansions; SOLO with eight cells, early_start).
 * Then, in one thread, it takes turns
 * with its helpers: until SOLO, of EARLY_QUANTUM expansions, the helpers expanding
 * EARLY_NUM positions per EARLY_DEN of its own; then of QUANTUM expansions, the
 * helpers expanding HELPER_NUM per HELPER_DEN of best-first's, DIVE_MAX in all at
 * most. The helpers:
 *
 * - Freecell Solver's preset scans, move for move (scans.c: the depth-first and A*
 *   scans of its toons-for-twenty-somethings preset, or under FreeCell's own rules
 *   its looking-glass (scans_preset), by its prelude, over one collection with
 *   their shared dead-end marks, no autoplay of their own), on an allowance of
 *   their own: SCAN_NUM positions per SCAN_DEN of
 *   best-first's from early_start and of the proof's turns (scan_own; and, for
 *   their first SCAN_FIRST, the other helpers' turns first), while best-first's
 *   open list holds at least one position
 *   per SCAN_OPEN_SHARE expanded (while it does not, a quarter of their allowance,
 *   up to SCAN_EARLY_FLOOR_CAP), SCAN_NODES at most (WIDE_SCAN_NODES with eight
 *   cells). On the deals where fc-solve is fastest it is these scans that find the
 *   line; running them as fc-solve runs them (not a look-alike) makes those deals
 *   ours at the same count of positions. Their
 *   positions count neither against the other helpers' DIVE_MAX nor against the
 *   proof's ``first`` (proof.c), past which they go on to SCAN_LATE_NODES.
 * - Freecell Solver's meta-move scan (meta.c: its default soft-dfs, tests
 *   "0123456789", move for move; where any card fills a column looking-glass's
 *   preset whole), from best-first's META_START-th expansion
 *   (META_START_ANY-th) on an allowance of its own (META_EARLY), in the first
 *   stretch only; where the scans are looking-glass's, toons' scans in its place,
 *   on the scans' allowance (TOONS_BESIDE_NODES, then up to TOONS_BESIDE_MAX while
 *   best-first's open list is not a lost deal's);
 * - a greedy best-first search (weight GREEDY_WEIGHT, one of the other turns in
 *   GREEDY_EVERY);
 * - a sequence of depth-first dives (dive.c), each stopped after EARLY_DIVE
 *   expansions before SOLO and DIVE_NODES after, and followed by the next. Like
 *   Freecell Solver's soft threads, the dives differ in what they prefer: they
 *   cycle through DIVE_KINDS, which order a position's children by h under other
 *   weights (cards in cells, cards covering a suit's next card) or by the kind of
 *   their move (Freecell Solver's "tests order": home first, cells last),
 *   streamlined or not; from the second round on with fresh seeds.
 *
 * The first line found wins and goes through the same finish, a helper's with its
 * detours cut first (shortcut.c's shortcut_line).
 *
 * "No solution" comes from the exact proof (exhaust.c, proof.c's): best-first's
 * running dry (hashed positions) goes on to it, while a helper that runs dry (a
 * streamlined dive leaves choices out), or fills its share of the tables, stops.
 * Where best-first's open list holds less than one position per PF_PROOF_GATE
 * expanded (past PF_PROOF_MIN), the proof takes turns beside it already, as many
 * positions per best-first one as past ``first`` (proof.c's settle_proof_turn; not
 * where lone cards are put back), once the other helpers' share is spent too: on a
 * lost deal the proof needs about half of best-first's positions (2-cell
 * alternating PySolFC 11, 36, 43: 3,050 / 6,985, 4,910 / 8,471, 26,418 / 55,712),
 * and it used to run only after best-first had run dry (43: 97,860 -> 61,556
 * positions in all); a won deal whose line best-first does not find while its open
 * list is small is often won by the proof's depth-first search (PySolFC 98: 149,465
 * -> 54,862). Its positions count neither against ``first`` nor against DIVE_MAX.
 * Tuned on PySolFC 3001-3250 (CPU s, builds taking turns deal by deal): C2-A 9.04
 * without, 8.58 with the gate at 1/4 (kept), 8.02 at 1/2, 8.65 at 1/4 from 10,000;
 * C2-AB 17.20, 15.76 (kept), 15.25, 15.89. At 1/2 the won deals best-first finds
 * while its open list is small pay more (Fore Cell 3141 1.95 -> 2.51 s, C2-AB 276
 * 36 -> 134 ms); with lone cards put back (C2-EA, C2-EAB) the proof's wins there,
 * lines of 170 moves for 117, cost the finish more than they save (C2-EAB 176 21 ->
 * 55 ms at 17,201 positions rather than 26,157): not there (benchmarks/README.md).
 * Deals best-first ends within early_start expansions get exactly the line they got
 * before; the others pay at most DIVE_MAX more expansions for a chance of a line
 * many times sooner, and only while best-first's open list is large (at least one
 * position per OPEN_SHARE expanded): on a lost deal it shrinks as the search runs
 * dry, and the helpers, which cannot prove the loss, would only add their cost
 * (on PySolFC deals 3001-3300 of 2-cell alternating, the open list held a median
 * 0.34 positions per expansion at 2,000 expansions on lost deals, 0.59 on won ones). */
#include "portfolio.h"
#include "position.h"
#include "tables.h"

/* Tuned on PySolFC deals 1-1000 and 3001-3600 of the standard game, Fore Cell and
 * 2-cell alternating (never on the deals the benchmark reports): see
 * benchmarks/README.md. */
#ifndef SOLO
#define SOLO 2000 /* best-first alone first: most deals end within this */
#endif
#ifndef QUANTUM
#define QUANTUM 256 /* then turns of this many expansions each */
#endif
#ifndef DIVE_NODES
#define DIVE_NODES 4000 /* a dive that found no line within this many expansions stops */
#endif
#ifndef DIVE_MAX
#define DIVE_MAX 20000 /* all helpers together, at most: then best-first alone */
#endif
#define ORDER_NOISE 0.999 /* a seeded dive by kind: shuffles each bracket, never across */
#ifndef OPEN_SHARE
#define OPEN_SHARE 2 /* helpers only while best-first's open list holds 1 / OPEN_SHARE of its expansions */
#endif
#ifndef HELPER_NUM /* the helpers expand HELPER_NUM positions per HELPER_DEN of best-first's */
#define HELPER_NUM 2
#endif
#ifndef HELPER_DEN
#define HELPER_DEN 1
#endif
#ifndef GREEDY_EVERY
#define GREEDY_EVERY 4 /* one helper turn in this many is the greedy search's, the rest dives' */
#endif
/* Each helper can be left out of a tuning build (-DUSE_GREEDY=0, -DUSE_DIVES=0). */
#ifndef USE_GREEDY
#define USE_GREEDY 1
#endif
#ifndef USE_DIVES
#define USE_DIVES 1
#endif
#ifndef GREEDY_WEIGHT
#define GREEDY_WEIGHT 40.0 /* the greedy best-first search's weight */
#endif
#ifndef EARLY_START
#define EARLY_START 750 /* the helpers' first turn: after this many of best-first's (past the median deal) */
#endif
#ifndef WIDE_CELLS
#define WIDE_CELLS 8 /* with this many cells the helpers start at SOLO (early_start) */
#endif
#ifndef EARLY_NUM /* until SOLO, the helpers expand EARLY_NUM positions per EARLY_DEN of best-first's */
#define EARLY_NUM 2
#endif
#ifndef EARLY_DEN
#define EARLY_DEN 1
#endif
#ifndef EARLY_QUANTUM
#define EARLY_QUANTUM 64 /* turns until SOLO */
#endif
#ifndef EARLY_DIVE
#define EARLY_DIVE 300 /* a dive started before SOLO stops after this many expansions */
#endif
#ifndef USE_SCAN
#define USE_SCAN 1
#endif
#ifndef SCAN_NUM /* the scans expand SCAN_NUM positions per SCAN_DEN of best-first's, from early_start */
#define SCAN_NUM 1
#endif
#ifndef SCAN_DEN
#define SCAN_DEN 1
#endif
/* The scans stop after SCAN_NODES expansions. Past the prelude's first A* turn
 * (33,600 positions) fc-solve wins deals best-first takes 10-40x longer over (C4-AB
 * and C2-AB, 36,000-59,000 positions). Tuned on PySolFC 3001-3200 of C2-A, C2-AB,
 * C2-EA, C2-EAB, C4-A and C4-AB (CPU s of all six, deals over 10x fc-solve's time):
 * 17,000 40.79 s, 1 deal; 60,000 41.49 s, 0; 100,000 42.23 s, 0; 100,000 with no
 * open-list gate 44.53 s, 0. A deal best-first wins meanwhile pays for the scans'
 * positions 1:1; past ``first`` (proof.c) they stop. */
#ifndef SCAN_NODES
#define SCAN_NODES 60000
#endif
/* With WIDE_CELLS cells the scans stop sooner: there best-first ends most deals
 * itself, and the scans' wins on the standard game came early (PySolFC 1-2000: 33
 * wins, none past 3,400 of their positions), while each of their positions costs
 * about as much as one of best-first's on the deals it ends in 2,000-20,000
 * expansions. Standard game, PySolFC 3001-5200, instructions (callgrind) of every
 * solve: 17,000 -> 10.53G, 8,000 10.35G, 6,000 10.27G, 4,000 10.20G, 3,000 10.18G
 * (the solver of 8aff81b: 10.79G); at 3,000 deal 1996 (tuning range) is 18x
 * fc-solve's time, at 4,000 it is won by the scans as before. */
#ifndef WIDE_SCAN_NODES
#define WIDE_SCAN_NODES 4000
#endif

/* The scans' first SCAN_FIRST positions may take the other helpers' turns too. At 500,
 * deals fc-solve's first scans win within 650-2,100 positions took over 10x its time
 * here (C4-A PySolFC 142 13.5 ms, fc-solve 1.3; C4-EA 326 11.6, 0.9; C2-EAB 491 6.7,
 * 0.6); at 1,500 6.9, 8.4 and 5.5 ms, and PySolFC 3001-3100 of the 24 rows 18.28 s
 * against 18.66 (3,000: 18.44), no row over 1.12x (C4-EAB, one deal: 3066 3.8 -> 12.2
 * ms), C4-E 1.03x (benchmarks/README.md's twenty-sixth round). */
#ifndef SCAN_FIRST
#define SCAN_FIRST 1500
#endif
/* The gate holds from the scans' first position: held back only past their first
 * 5,000 (2-cell alternating PySolFC 98, won by fc-solve's preset at 5,022: 135 ->
 * 13 ms), lost deals of 1,000-10,000 positions paid for them, PySolFC 1-500: C2-E
 * 0.06 -> 0.10 s, C4-E 0.24 -> 0.30, C2-B 0.17 -> 0.21, C4-EB 2.20 -> 2.48. */
/* While the gate holds them the scans still go on, at a floor of one position per
 * SCAN_EARLY_FLOOR of their allowance, up to SCAN_EARLY_FLOOR_CAP of theirs: a lost
 * deal pays a quarter more at most, and none of it past its first 160,000 positions
 * (PySolFC 98 again: the proof won it at 54,862 positions in all, 47 ms, 9x fc-solve's
 * 5.2; now at 28,802, 26 ms; 2-cell alternating Baker's 873, which the scans win at
 * 34,614: 681,176 -> 175,454 positions, 908 -> 199 ms, fc-solve 33). `solve()` CPU s
 * of C2-A, C2-AB, C4-A, C4-AB, C2-EA and C2-EAB, builds taking turns deal by deal,
 * without / with a cap of 10,000: PySolFC 1-500 97.01 / 94.44 (the other 18 rows 9.75
 * / 9.71), 3001-3250 50.74 / 50.27, 3501-3750 64.74 / 62.67; with 10,000 / 40,000:
 * 1-500 93.67 / 92.63, 3001-3250 49.42 / 48.71. The geometric mean of the ratios over
 * deals of 5 ms or more 0.99-1.00 each time. One per 2 instead: 3001-3250 50.85, 11
 * deals 1.3 times slower, the small lost ones. */
#ifndef SCAN_EARLY_FLOOR
#define SCAN_EARLY_FLOOR 4
#endif
#ifndef SCAN_EARLY_FLOOR_CAP
#define SCAN_EARLY_FLOOR_CAP 40000
#endif
#ifndef SCAN_OPEN_SHARE
#define SCAN_OPEN_SHARE 4 /* the scans only while best-first's open list holds 1 / SCAN_OPEN_SHARE of its expansions */
#endif
/* Freecell Solver's meta-move scan (meta.c: one soft-dfs of its tests "0123456789",
 * move for move) takes turns with best-first from best-first's META_START-th
 * expansion (with WIDE_CELLS cells, where the other helpers start: meta_start): one
 * position per best-first expansion for META_EARLY, then one per META_LATE_DEN,
 * META_NODES at most, and (like the scans) only while best-first's
 * open list holds at least one position per META_OPEN_SHARE expanded. Only under the
 * group moves fc-solve's "--sequence-move limited" plays (runs of free cells + 1
 * with Kings-only columns, the FreeCell formula where any card fills one: eightoff's
 * defaults), where its lines are the engine's. It wins in a few hundred positions
 * deals best-first wanders over: C4-EB PySolFC 48 at 246 (best-first's portfolio
 * 28,052), C4-A 7 at 216 (110,585), C2-EAB 9 at 12,829 (3.3 s -> 0.11 s). Tuned on
 * PySolFC 3001-3100 of the 24 atlas rows (CPU s of solve(), builds taking turns
 * deal by deal, benchmarks/README.md's twenty-sixth round): from the first expansion
 * 1:1 throughout, the small rows' lost deals paid 1.5-1.7x (C4, C2-B, C2-EB); as
 * kept, Σ 18.23 s against 18.40 without, C4-A 0.76x, C4-AB 0.86x, C4-EB 0.91x, C4
 * 1.10x, C8-EB 1.18x. */
#ifndef USE_META
#define USE_META 1
#endif
#ifndef META_START
#define META_START 400
#endif
#ifndef META_EARLY
#define META_EARLY 1000
#endif
#ifndef META_LATE_DEN
#define META_LATE_DEN 4
#endif
#ifndef META_OPEN_SHARE
#define META_OPEN_SHARE 2
#endif
#ifndef META_NODES
#define META_NODES 20000
#endif
#ifndef META_QUANTUM
#define META_QUANTUM 64 /* best-first's turns between the meta scan's */
#endif
#define GREEDY_SHARE 4 /* the greedy search's: at most max_bytes / GREEDY_SHARE */

#ifndef PF_PROOF_GATE /* the proof's turns while best-first's open list holds less than 1 / PF_PROOF_GATE */
#define PF_PROOF_GATE 4 /* of its expansions ... */
#endif
#ifndef PF_PROOF_MIN
#define PF_PROOF_MIN 2000 /* ... and it has expanded this many */
#endif
#ifndef PF_PROOF_ALL /* 1: the proof's turns go on once the other helpers' share is spent */
#define PF_PROOF_ALL 1
#endif

/* Whether the scans may take a turn in the portfolio: not started, or running. */
static inline int portfolio_scans_on(const Portfolio *p) { return p->slive == 0 || p->slive == 1; }

long portfolio_scanned(const Portfolio *p) { return p->slive > 0 ? p->scan.out.nodes : p->scan_nodes; }

/* Positions the meta-move scan has expanded so far. */
static long portfolio_meta(const Portfolio *p) { return p->mlive > 0 ? p->meta.out.nodes : p->meta_nodes; }

/* Positions expanded by all the searches so far. */
static long portfolio_nodes(const Portfolio *p) {
    return p->bf.out.nodes + p->greedy.out.nodes + p->dive_nodes + (p->live ? p->dive.out.nodes : 0) +
           portfolio_scanned(p) + p->proof_nodes + portfolio_meta(p);
}

void portfolio_drop_dive(Portfolio *p) {
    if (!p->live) return;
    p->dive_nodes += p->dive.out.nodes;
    dive_free(&p->dive);
    nodes_free(&p->dnodes);
    p->live = 0;
}

void portfolio_drop_greedy(Portfolio *p) { /* for good: it never starts again */
    if (p->glive <= 0) return;
    bf_free(&p->greedy);
    nodes_free(&p->gnodes);
    p->glive = -1;
}

/* Stops scans for good (``*live`` -1), keeping their count of positions in ``*count``. */
static void scans_drop(Scans *s, Nodes *nodes, int *live, long *count) {
    if (*live <= 0) return;
    *count = s->out.nodes;
    scans_free(s);
    nodes_free(nodes);
    *live = -1;
}

void portfolio_drop_scan(Portfolio *p) { scans_drop(&p->scan, &p->snodes, &p->slive, &p->scan_nodes); }

void portfolio_drop_meta(Portfolio *p) { scans_drop(&p->meta, &p->mnodes, &p->mlive, &p->meta_nodes); }

void portfolio_free(Portfolio *p) {
    portfolio_drop_dive(p);
    portfolio_drop_greedy(p);
    portfolio_drop_scan(p);
    portfolio_drop_meta(p);
}

/* Whether fc-solve's moves of runs are this game's: under the group moves it plays
 * ("--sequence-move limited": free cells + 1 with Kings-only columns, the FreeCell
 * formula where any card fills one), eightoff's defaults. Elsewhere its meta-moves'
 * children that the rules refuse are dropped (meta_step), and its counts are not
 * fc-solve's. */
static int fcs_runs_are_ours(const Config *cfg) {
    return cfg->group == (cfg->kings_only ? GROUP_CELLS : GROUP_FREECELL);
}

/* Which of Freecell Solver's presets the scans run: looking-glass under FreeCell's
 * own rules (alternating colours, any card to an empty column, its group moves),
 * which it was made for, toons elsewhere. PySolFC 3001-3200 of the eight rows where
 * any card fills a column, with 4 and 2 cells (builds taking turns deal by deal,
 * benchmarks/README.md's twenty-seventh round): Σ 18.78 s -> 14.31 (C2-EAB 15.97 ->
 * 11.71, C2-EA 1.71 -> 1.48, C4-EA and C4-EAB 1.07-1.08x), deals over 10x
 * looking-glass's own time 31 -> 6; where they build in suit it made no difference
 * but on C4-E, 1.2x slower. */
static int scans_preset(const Config *cfg) {
    return !cfg->kings_only && !cfg->suit && fcs_runs_are_ours(cfg) ? PRESET_LOOKING_GLASS : PRESET_TOONS;
}

int portfolio_scan_turn(Portfolio *p, const Config *cfg, size_t share, long max_scanned,
                               double deadline, long quantum, long cap) {
    if (p->slive == 0) {
        p->scfg = *cfg;
        p->scfg.autoplay = p->scfg.root_autoplay = AUTO_NONE;
        p->sbudget = (Budget){0, share, 0};
        p->snodes = (Nodes){NULL, 0, 0, &p->sbudget};
        p->slive = 1;
        if (!scans_init(&p->scan, &p->scfg, &p->start, &p->snodes, NULL, 0, 0, scans_preset(cfg))) {
            portfolio_drop_scan(p);
            return 0;
        }
    }
    if (p->slive < 0) return 0;
    Scans *s = &p->scan;
    long pause = s->out.nodes + quantum < cap ? s->out.nodes + quantum : cap;
    if (!scans_resume(s, pause, max_scanned, deadline)) {
        if (s->out.nodes >= cap) {
            if (cap < SCAN_LATE_NODES) p->slive = 2; /* held for the late turns */
            else portfolio_drop_scan(p);
        }
        return 0;
    }
    if (s->out.status == SOLVED || (s->out.status == LIMIT && !p->sbudget.full)) return 1;
    portfolio_drop_scan(p); /* ran dry, reached its end or filled its share: it proves nothing */
    return 0;
}

/* Whether a helper that stopped with ``o`` ends the whole search: a line, or the node
 * or time limit (not its share of the tables, ``b``, filling: that proves nothing).
 * Then ``out`` takes ``o``, and a line's search (``cfg``, ``nodes``) is the winner. */
static int portfolio_helper_ends(Portfolio *p, const Outcome *o, const Budget *b, const Config *cfg,
                                 const Nodes *nodes, Outcome *out) {
    if (o->status != SOLVED && (o->status != LIMIT || b->full)) return 0;
    *out = *o;
    if (out->status == SOLVED) {
        p->win_cfg = cfg;
        p->win_nodes = nodes;
    }
    return 1;
}

/* The greedy search's turn: 1 when it found a line (or hit the node or time limit). */
static int portfolio_greedy_turn(Portfolio *p, const Config *cfg, const State *root, size_t share, long max_nodes,
                                 double deadline, long quantum) {
    if (p->glive == 0) {
        p->gcfg = *cfg;
        p->gcfg.weight = GREEDY_WEIGHT;
        p->gbudget = (Budget){0, share, 0};
        p->gnodes = (Nodes){NULL, 0, 0, &p->gbudget};
        p->glive = 1;
        if (!bf_init(&p->greedy, &p->gcfg, root, &p->gnodes)) {
            portfolio_drop_greedy(p);
            p->glive = -1;
            return 0;
        }
    }
    if (p->glive < 0) return 0;
    BestFirst *g = &p->greedy;
    long total = portfolio_nodes(p);
    long left = max_nodes < 0 ? -1 : max_nodes - (total - g->out.nodes);
    if (!bf_run(g, g->out.nodes + quantum, left, deadline)) return 0;
    if (g->out.status == SOLVED || (g->out.status == LIMIT && !p->gbudget.full)) return 1;
    portfolio_drop_greedy(p); /* ran dry or filled its share: it proves nothing here */
    p->glive = -1;
    return 0;
}

void portfolio_next_dive(Portfolio *p, const Config *cfg, const State *root, size_t share, int *count,
                                long cap) {
    int r = (*count)++;
    p->dive_cap = cap;
    const DiveKind *kind = &DIVE_KINDS[r % NKINDS];
    uint64_t seed = kind->seed + (uint64_t)(r / NKINDS);
    const int8_t *rank = kind->order != NULL && parse_order(kind->order, p->rank) ? p->rank : NULL;
    p->dcfg = *cfg;
    if (kind->cell_w >= 0) p->dcfg.cell_w = kind->cell_w;
    if (kind->cover_w >= 0) p->dcfg.cover_w = kind->cover_w;
    if (cfg->autoplay == AUTO_SAFE && kind->streamlined) p->dcfg.autoplay = p->dcfg.root_autoplay = AUTO_ALL;
    p->dbudget = (Budget){0, share, 0};
    p->dnodes = (Nodes){NULL, 0, 0, &p->dbudget};
    p->live = 1;
    if (!dive_init(&p->dive, &p->dcfg, root, &p->dnodes, seed, rank ? ORDER_NOISE : DIVE_NOISE, rank, NULL))
        portfolio_drop_dive(p);
}

/* One helper turn (the greedy search's one turn in GREEDY_EVERY, else the current
 * dive's): 1 when it ended the whole search (a line, or the node or time limit),
 * with the outcome in ``out``. */
static int portfolio_helper_turn(Portfolio *p, const Config *cfg, const State *root, const Nodes *nodes,
                                 long max_nodes, double deadline, int early, Outcome *out) {
    long quantum = early ? EARLY_QUANTUM : QUANTUM;
    int greedy_turn = USE_GREEDY && (!USE_DIVES || p->turn++ % GREEDY_EVERY == 0);
    if (greedy_turn && p->glive >= 0) {
        if (!portfolio_greedy_turn(p, cfg, root, nodes->budget->max / GREEDY_SHARE, max_nodes, deadline, quantum))
            return 0;
        *out = p->greedy.out;
        if (out->status == SOLVED) {
            p->win_cfg = &p->gcfg;
            p->win_nodes = &p->gnodes;
        }
        return 1;
    }
    if (!USE_DIVES) return 0;
    if (!p->live)
        portfolio_next_dive(p, cfg, root, nodes->budget->max / DIVE_SHARE, early ? &p->early_restarts : &p->restarts,
                            early ? EARLY_DIVE : DIVE_NODES);
    if (!p->live) return 0;
    Dive *d = &p->dive;
    long left = max_nodes < 0 ? -1 : max_nodes - (portfolio_nodes(p) - d->out.nodes);
    long pause = d->out.nodes + quantum < p->dive_cap ? d->out.nodes + quantum : p->dive_cap;
    if (!dive_run(d, pause, left, deadline)) {
        if (d->out.nodes >= p->dive_cap) portfolio_drop_dive(p); /* its turn is over: the next kind */
        return 0;
    }
    if (portfolio_helper_ends(p, &d->out, &p->dbudget, &p->dcfg, &p->dnodes, out)) return 1;
    portfolio_drop_dive(p); /* ran dry or filled its share: it proves nothing */
    return 0;
}

/* Where the helpers' first turn comes: EARLY_START, but SOLO with WIDE_CELLS cells
 * or more. With eight cells best-first's h guides it well: the deals it ends in
 * 750-2,000 expansions are most of what the early turns cost there, and no deal of
 * the tuning range needed them (standard game, PySolFC 3001-4200: Σ positions
 * 491,101 -> 432,099, CPU -14%, none over 10x fc-solve either way). */
static long early_start(const Config *cfg) {
    return cfg->ncells >= WIDE_CELLS || EARLY_START > SOLO ? SOLO : EARLY_START;
}

/* The meta-move scan's tests: fc-solve's default order with Kings-only columns;
 * where any card fills one, looking-glass's preset whole: its sixteen scans by its
 * prelude, the first (its "24": test j among them, another order from depth 33 on
 * with [234j] sorted by cards out, and its pruning -sp r:tf) given its first 245
 * positions. That first scan wins in a few hundred positions deals the default order
 * takes thousands over or never wins (C4-EA PySolFC 5: 127 against 6,644; 26: 48
 * against none by 20,000); on PySolFC 3001-3100 of the eight such rows with four and
 * two cells, builds taking turns deal by deal (benchmarks/README.md's twenty-seventh
 * round): Σ 2.68 s -> 2.24, deals over 10x looking-glass's time 41 -> 12; with
 * "01j234" and the pruning alone 2.38 s and 26. The whole preset rather than that
 * scan alone wins the deals its other scans win at once (C4-EB PySolFC 21, 73, 74:
 * 383-669 positions; 6.6-13.0 ms -> 2.0-2.8, looking-glass 0.5-0.8): PySolFC
 * 3001-3200 and 3201-3400 of C4-E, C4-EB, C2-E and C2-EB (twenty-eighth round) Σ
 * 0.77 -> 0.79 s and 1.04 -> 1.08, deals over 10x looking-glass 6 -> 4 and 2 -> 1.
 * Where the scans are looking-glass's (scans_preset), toons' run in this slot
 * instead (TOONS_BESIDE_MAX). */
#define META_TESTS "0123456789"
/* Where the meta-move scan's first turn comes: META_START, but with WIDE_CELLS cells
 * where the other helpers' do (early_start), and where any card fills a column
 * META_START_ANY: looking-glass's first scan wins most such deals it wins within its
 * first 245 positions (its prelude's first turn). PySolFC 3001-3100 and 3101-3200 of
 * the eight rows (its first scan alone): Σ 2.25 -> 2.18 s and 17.00 -> 16.22 s, deals
 * over 10x looking-glass 24 -> 18 on the second range; from the first expansion 2.20
 * s, C4-E and C2-EB 1.07-1.16x slower. */
#ifndef META_START_ANY
#define META_START_ANY 150
#endif
static long meta_start(const Config *cfg) {
    return cfg->ncells >= WIDE_CELLS ? early_start(cfg) : cfg->kings_only ? META_START : META_START_ANY;
}

static long helper_allowance(const Config *cfg, long b);
static long scan_own(const Portfolio *p, const Config *cfg);

/* Whether best-first's open list looks like a lost deal's to the scans (under one
 * position per SCAN_OPEN_SHARE expanded): then they go on at a floor, or are held. */
static inline int scans_gated(const Portfolio *p) { return (long)p->bf.heap.n * SCAN_OPEN_SHARE < p->bf.out.nodes; }

/* Where the scans are looking-glass's (scans_preset), the meta-move scan's slot runs
 * toons' scans beside them instead, on the same allowance as theirs (scan_own and
 * the other helpers' first turns, not held back by best-first's open list; like the
 * meta scan's, their positions count against no other helper's share), up to
 * TOONS_BESIDE_NODES: toons' first scans win at once deals looking-glass's take 2-8
 * times the positions over (PySolFC 120 of 2-cell alternating: 2,445 against
 * 13,547). PySolFC 1-500 of the four such rows: deals over 10x fc-solve's toons 6 ->
 * 1 (C4-EA 76, won at 340 positions, 11x: best-first's first 750 expansions);
 * 3001-3200 and 3201-3400, CPU s of solve() (builds taking turns deal by deal): Σ
 * 14.05 -> 14.71 s and 5.18 -> 5.37 (1.04x), with toons from best-first's 150th
 * expansion (C4-EA 76 won) 1.03x and 1.07x, C4-EA and C4-EAB 1.1-1.3x.
 * Past TOONS_BESIDE_NODES they go on while best-first's open list is not a lost
 * deal's (SCAN_OPEN_SHARE, as looking-glass's scans), up to TOONS_BESIDE_MAX:
 * toons wins C2-EAB PySolFC 1785 at 18,647 positions, looking-glass at 182,921
 * (solve() 171,232 positions, 191 ms, 12-14x fc-solve's toons; now 60,156, 62 ms).
 * The 1,331 deals of C2-EA, C2-EAB, C4-EA and C4-EAB that took 5 ms-10 s in PySolFC
 * 1-2000: positions Σ 1.049x, CPU s 62.27 -> 63.52 (builds taking turns deal by
 * deal), the same verdicts; up to 60,000 1.080x and 65.06 s; 20,000 without the
 * open list's hold 1.079x. */
#ifndef TOONS_BESIDE_NODES
#define TOONS_BESIDE_NODES 5000
#endif
#ifndef TOONS_BESIDE_MAX
#define TOONS_BESIDE_MAX 20000
#endif

/* The meta-move scan's turn, up to its allowance (from META_START; toons' scans
 * beside looking-glass's from early_start, as theirs): 1 when it found a line (or hit
 * the node or time limit), with the outcome in ``out``. It starts from the deal itself, as the
 * scans, and stops for good at its cap (META_NODES, TOONS_BESIDE_MAX), when it
 * runs dry (that proves nothing) or fills its share of the tables. */
static int portfolio_meta_turn(Portfolio *p, const Config *cfg, size_t share, long max_nodes, double deadline,
                               Outcome *out) {
    if (!USE_META || p->mlive < 0) return 0;
    int beside = scans_preset(cfg) == PRESET_LOOKING_GLASS;
    long b = p->bf.out.nodes, allowance, cap = beside ? TOONS_BESIDE_MAX : META_NODES;
    if (beside) {
        long helpers = helper_allowance(cfg, b);
        if (helpers < 0) return 0; /* not yet */
        allowance = scan_own(p, cfg) + (helpers < SCAN_FIRST ? helpers : SCAN_FIRST);
        if (scans_gated(p) && allowance > TOONS_BESIDE_NODES) allowance = TOONS_BESIDE_NODES; /* held */
    } else {
        long from = meta_start(cfg), early = b < from + META_EARLY ? b : from + META_EARLY;
        if (b <= from || (long)p->bf.heap.n * META_OPEN_SHARE < b) return 0; /* not yet, or a lost deal's look */
        allowance = early - from + (b - early) / META_LATE_DEN;
    }
    if (allowance > cap) allowance = cap;
    if (p->mlive == 0) {
        if (!fcs_runs_are_ours(cfg) || cap == 0) {
            p->mlive = -1;
            return 0;
        }
        p->mcfg = *cfg;
        p->mcfg.autoplay = p->mcfg.root_autoplay = AUTO_NONE;
        p->mbudget = (Budget){0, share, 0};
        p->mnodes = (Nodes){NULL, 0, 0, &p->mbudget};
        p->mlive = 1;
        int any = !p->mcfg.kings_only; /* looking-glass whole, or toons' beside its scans */
        const char *tests = any ? NULL : META_TESTS;
        if (!scans_init(&p->meta, &p->mcfg, &p->start, &p->mnodes, tests, 0, 0,
                        beside || !any ? PRESET_TOONS : PRESET_LOOKING_GLASS)) {
            portfolio_drop_meta(p);
            return 0;
        }
    }
    Scans *s = &p->meta;
    if (s->out.nodes >= allowance) return 0;
    long max_meta = max_nodes < 0 ? -1 : max_nodes - (portfolio_nodes(p) - s->out.nodes);
    if (!scans_resume(s, allowance, max_meta, deadline)) {
        if (s->out.nodes >= cap) portfolio_drop_meta(p);
        return 0;
    }
    if (portfolio_helper_ends(p, &s->out, &p->mbudget, &p->mcfg, &p->mnodes, out)) return 1;
    portfolio_drop_meta(p); /* ran dry or filled its share: it proves nothing */
    return 0;
}

/* How many positions the helpers may have expanded once best-first has expanded
 * ``b``: none up to early_start, then EARLY_NUM per EARLY_DEN of best-first's up
 * to SOLO, then HELPER_NUM per HELPER_DEN. */
static long helper_allowance(const Config *cfg, long b) {
    long start = early_start(cfg);
    if (b <= start) return -1;
    long early = ((b < SOLO ? b : SOLO) - start) * EARLY_NUM / EARLY_DEN;
    return b <= SOLO ? early : early + (b - SOLO) * HELPER_NUM / HELPER_DEN;
}

/* The scans' own allowance: SCAN_NUM per SCAN_DEN of best-first's expansions past
 * early_start and of the proof's positions (its turns beside best-first, PF_PROOF_GATE),
 * as past ``first`` (proof.c). Counting best-first's alone, the scans fell four times
 * behind once the proof took its turns (PROOF_RATIO of best-first's each): 2-cell
 * alternating Baker's PySolFC 3427, which the scans win at 4,292 of their positions, was
 * won by the proof at 21,640 while they stood at 4,291 (35 ms; fc-solve 2.6 ms); now
 * 10 ms. Tuned on PySolFC 3001-3700 (C2-A, C2-AB, C4-A, C4-AB, C2-EA, C2-EAB; CPU s of
 * solve(), builds taking turns deal by deal): 3001-3250 48.62 -> 48.39, 3201-3700
 * 164.93 -> 162.04, and no deal over 10x fc-solve's time there (one before: 3427). */
static long scan_own(const Portfolio *p, const Config *cfg) {
    long start = early_start(cfg), b = p->bf.out.nodes;
    return ((b <= start ? 0 : b - start) + p->proof_nodes) * SCAN_NUM / SCAN_DEN;
}

/* The scans' turns while they are behind their allowance (SCAN_NUM per SCAN_DEN of
 * best-first's expansions past early_start) and best-first's open list is not tiny
 * (while it is, behind a SCAN_EARLY_FLOOR-th of it, up to SCAN_EARLY_FLOOR_CAP):
 * 1 when they ended the whole search (a line, or the node or time limit), with the
 * outcome in ``out``. */
static int portfolio_scans_turns(Portfolio *p, const Config *cfg, const Nodes *nodes,
                                 long max_nodes, double deadline, Outcome *out) {
    long b = p->bf.out.nodes, helpers = helper_allowance(cfg, b); /* < 0 before early_start */
    int gated = scans_gated(p);
    if (!USE_SCAN || helpers < 0 || (gated && (SCAN_EARLY_FLOOR == 0 || portfolio_scanned(p) >= SCAN_EARLY_FLOOR_CAP))) return 0;
    long quantum = b < SOLO ? EARLY_QUANTUM : QUANTUM;
    long shared = helpers < SCAN_FIRST ? helpers : SCAN_FIRST;
    long allowance = gated ? scan_own(p, cfg) / (SCAN_EARLY_FLOOR > 0 ? SCAN_EARLY_FLOOR : 1)
                           : scan_own(p, cfg) + shared; /* their own, and first the other helpers' turns too */
    long cap = cfg->ncells >= WIDE_CELLS ? WIDE_SCAN_NODES : SCAN_NODES;
    while (portfolio_scans_on(p) && portfolio_scanned(p) <= allowance) {
        long before = portfolio_scanned(p);
        long max_scanned = max_nodes < 0 ? -1 : max_nodes - (portfolio_nodes(p) - before);
        long q = gated && before + quantum > SCAN_EARLY_FLOOR_CAP ? SCAN_EARLY_FLOOR_CAP - before : quantum;
        if (portfolio_scan_turn(p, cfg, nodes->budget->max / DIVE_SHARE, max_scanned, deadline, q, cap)) {
            *out = p->scan.out;
            if (out->status == SOLVED) {
                p->win_cfg = &p->scfg;
                p->win_nodes = &p->snodes;
            }
            return 1;
        }
        if (portfolio_scanned(p) == before) break;
    }
    return 0;
}

Outcome portfolio_run(Portfolio *p, const Config *cfg, const State *start, const State *root, Nodes *nodes,
                             long max_nodes, double deadline, int tail, long first) {
    Outcome out;
    int (*proof_turn)(void *, long, long, double, Outcome *) = p->proof_turn;
    void *proof_ctx = p->proof_ctx;
    memset(p, 0, sizeof *p);
    p->proof_turn = proof_turn; /* the caller's */
    p->proof_ctx = proof_ctx;
    p->start = *start;
    p->win_cfg = cfg;
    p->win_nodes = nodes;
    long alone = EARLY_NUM > 0 ? early_start(cfg) : SOLO;
    if (first >= 0 && alone > first) alone = first;
    int ended = !bf_init(&p->bf, cfg, root, nodes);
    while (!ended && tail && p->bf.out.nodes < alone) { /* best-first's stretch, the meta scan beside it */
        if (portfolio_meta_turn(p, cfg, nodes->budget->max / DIVE_SHARE, max_nodes, deadline, &out)) {
            out.nodes = portfolio_nodes(p);
            return out;
        }
        long pause = p->bf.out.nodes + META_QUANTUM < alone ? p->bf.out.nodes + META_QUANTUM : alone;
        long left = max_nodes < 0 ? -1 : max_nodes - portfolio_meta(p);
        ended = bf_run(&p->bf, pause, left, deadline);
    }
    if (!ended && !tail) ended = bf_run(&p->bf, LONG_MAX, max_nodes, deadline);
    if (!ended) {
        for (;;) {
            /* Best-first's turn, then the scans' and the other helpers' while they
             * have spent no more than their shares: a search's node limit is what
             * the others left of max_nodes. */
            if (portfolio_meta_turn(p, cfg, nodes->budget->max / DIVE_SHARE, max_nodes, deadline, &out)) {
                out.nodes = portfolio_nodes(p);
                return out;
            }
            long total = portfolio_nodes(p);
            long to_first = first < 0 ? LONG_MAX : first - (total - portfolio_scanned(p) - p->proof_nodes - portfolio_meta(p));
            if (to_first <= 0) { /* the first stretch is over (the scans' and the proof's positions aside) */
                out = p->bf.out;
                out.status = LIMIT;
                out.nodes = total;
                return out;
            }
            long left = max_nodes < 0 ? -1 : max_nodes - (total - p->bf.out.nodes);
            long b = p->bf.out.nodes, pause = b < SOLO ? b + EARLY_QUANTUM : b + QUANTUM;
            if (p->mlive > 0 && pause > b + META_QUANTUM) pause = b + META_QUANTUM;
            if (b < SOLO && pause > SOLO) pause = SOLO;
            if (pause - b > to_first) pause = b + to_first;
            if (bf_run(&p->bf, pause, left, deadline)) break;
            /* Where best-first's open list is a lost deal's, the proof takes turns beside
             * it: its running dry settles the deal, where best-first's must be proved
             * again with exact keys. */
            if (p->proof_turn != NULL && p->bf.out.nodes >= PF_PROOF_MIN &&
                (long)p->bf.heap.n * PF_PROOF_GATE < p->bf.out.nodes) {
                long max_proof = max_nodes < 0 ? -1 : max_nodes - (portfolio_nodes(p) - p->proof_nodes);
                if (p->proof_turn(p->proof_ctx, p->bf.out.nodes - b, max_proof, deadline, &out)) {
                    out.nodes = portfolio_nodes(p);
                    return out;
                }
            }
            if (portfolio_scans_turns(p, cfg, nodes, max_nodes, deadline, &out)) {
                out.nodes = portfolio_nodes(p);
                return out;
            }
            long scanned = portfolio_scanned(p), borrowed = scanned - scan_own(p, cfg);
            if (borrowed > SCAN_FIRST) borrowed = SCAN_FIRST; /* the scans' positions on the other helpers' share */
            if (borrowed < 0) borrowed = 0;
            long spent = portfolio_nodes(p) - p->bf.out.nodes - scanned - p->proof_nodes - portfolio_meta(p) + borrowed; /* the other helpers' */
            if (spent >= DIVE_MAX) { /* their share is spent */
                portfolio_drop_dive(p);
                portfolio_drop_greedy(p);
                if (USE_SCAN && portfolio_scans_on(p)) continue; /* the scans go on */
                if (p->slive != 2) portfolio_drop_scan(p); /* held scans wait for proof.c's turns */
                if (PF_PROOF_ALL && p->proof_turn != NULL) continue; /* best-first by turns, the proof's beside it */
                long bf_max = max_nodes < 0 ? -1 : max_nodes - spent - scanned - portfolio_meta(p);
                if (first >= 0 && (bf_max < 0 || bf_max > first - spent)) bf_max = first - spent;
                bf_run(&p->bf, LONG_MAX, bf_max, deadline);
                break;
            }
            /* A small open list for the positions expanded is how a lost deal's search
             * looks (a closed space running dry): then best-first goes on alone (the
             * scans down to a smaller one, SCAN_OPEN_SHARE). */
            if ((long)p->bf.heap.n * OPEN_SHARE < p->bf.out.nodes) continue;
            while (spent < DIVE_MAX && spent <= helper_allowance(cfg, p->bf.out.nodes)) {
                int early = p->bf.out.nodes < SOLO;
                if (portfolio_helper_turn(p, cfg, root, nodes, max_nodes, deadline, early, &out)) {
                    out.nodes = portfolio_nodes(p);
                    return out;
                }
                long now = portfolio_nodes(p) - p->bf.out.nodes - scanned - p->proof_nodes - portfolio_meta(p) + borrowed;
                if (now == spent) break; /* none went on (one stopped): best-first's turn */
                spent = now;
            }
        }
    }
    out = p->bf.out;
    out.nodes = portfolio_nodes(p);
    return out;
}
