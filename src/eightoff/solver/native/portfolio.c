/* The portfolio: the weighted best-first search with three helpers, run by turns.
 *
 * Most deals fall to the best-first search within a few hundred expansions, so it
 * runs alone first (early_start expansions; solo with eight cells, early_start).
 * Then, in one thread, it takes turns
 * with its helpers: until solo, of early_quantum expansions, the helpers expanding
 * early_num positions per early_den of its own; then of quantum expansions, the
 * helpers expanding helper_num per helper_den of best-first's, dive_max in all at
 * most. The helpers:
 *
 * - Freecell Solver's preset scans, move for move (scans.c: the depth-first and A*
 *   scans of its toons-for-twenty-somethings preset, or under FreeCell's own rules
 *   its looking-glass (scans_preset), by its prelude, over one collection with
 *   their shared dead-end marks, no autoplay of their own), on an allowance of
 *   their own: scan_num positions per scan_den of
 *   best-first's from early_start and of the proof's turns (scan_own; and, for
 *   their first scan_first, the other helpers' turns first), while best-first's
 *   open list holds at least one position
 *   per scan_open_share expanded (while it does not, a quarter of their allowance,
 *   up to scan_early_floor_cap), scan_nodes at most (wide_scan_nodes with eight
 *   cells). On the deals where fc-solve is fastest it is these scans that find the
 *   line; running them as fc-solve runs them (not a look-alike) makes those deals
 *   ours at the same count of positions. Their
 *   positions count neither against the other helpers' dive_max nor against the
 *   proof's ``first`` (proof.c), past which they go on to scan_late_nodes.
 * - Freecell Solver's meta-move scan (meta.c: its default soft-dfs, tests
 *   "0123456789", move for move; where any card fills a column looking-glass's
 *   preset whole), from best-first's meta_start-th expansion
 *   (meta_start_any-th) on an allowance of its own (meta_early), in the first
 *   stretch only; where the scans are looking-glass's, toons' scans in its place,
 *   on the scans' allowance (toons_beside_nodes, then up to toons_beside_max while
 *   best-first's open list is not a lost deal's);
 * - a greedy best-first search (weight greedy_weight, one of the other turns in
 *   greedy_every);
 * - a sequence of depth-first dives (dive.c), each stopped after early_dive
 *   expansions before solo and dive_nodes after, and followed by the next. Like
 *   Freecell Solver's soft threads, the dives differ in what they prefer: they
 *   cycle through DIVE_KINDS, which order a position's children by h under other
 *   weights (cards in cells, cards covering a suit's next card) or by the kind of
 *   their move (Freecell Solver's "tests order": home first, cells last),
 *   streamlined or not; from the second pass over the kinds on with fresh seeds.
 *
 * The first line found wins and goes through the same finish, a helper's with its
 * detours cut first (shortcut.c's shortcut_line).
 *
 * "No solution" comes from the exact proof (exhaust.c, proof.c's): best-first's
 * running dry (hashed positions) goes on to it, while a helper that runs dry (a
 * streamlined dive leaves choices out), or fills its share of the tables, stops.
 * Where best-first's open list holds less than one position per pf_proof_gate
 * expanded (past pf_proof_min), the proof takes turns beside it already, as many
 * positions per best-first one as past ``first`` (proof.c's settle_proof_turn; not
 * where lone cards are put back), once the other helpers' share is spent too: on a
 * lost deal the proof needs about half of best-first's positions, and a won deal
 * whose line best-first does not find while its open list is small is often won by
 * the proof's depth-first search. Where lone cards are put back (any card to an
 * empty column, alternating colours), the proof's wins there are long lines that
 * cost the finish more than they save: not there. Its positions count neither
 * against ``first`` nor against dive_max.
 * Deals best-first ends within early_start expansions get exactly the line they got
 * before; the others pay at most dive_max more expansions for a chance of a line
 * many times sooner, and only while best-first's open list is large (at least one
 * position per open_share expanded): on a lost deal it shrinks as the search runs
 * dry, and the helpers, which cannot prove the loss, would only add their cost. */
#include "portfolio.h"
#include "position.h"
#include "tables.h"

/* How the schedule's fields of the portfolio were chosen (schedule.h says what each
 * bounds), on deals the benchmark does not report (docs/solver.md, "How to tune");
 * use_greedy, use_dives, use_scan and use_meta leave a helper out.
 *
 * The scans stop after scan_nodes expansions: past the prelude's first A* turn,
 * fc-solve's scans still win deals best-first takes many times longer over. A deal
 * best-first wins meanwhile pays for the scans' positions 1:1; past ``first``
 * (proof.c) they stop.
 *
 * With wide_cells cells the scans stop sooner: there best-first ends most deals
 * itself, the scans' wins come early, and each of their positions costs about as much
 * as one of best-first's.
 *
 * The scans' first scan_first positions may take the other helpers' turns too:
 * fc-solve's first scans win many deals within their first couple of thousand
 * positions, which best-first's share alone would reach many times later.
 *
 * The gate holds from the scans' first position: held back only later, lost deals of a
 * few thousand positions paid for scans that could not help them.
 *
 * While the gate holds them the scans still go on, at a floor of one position per
 * scan_early_floor of their allowance, up to scan_early_floor_cap of theirs: a lost
 * deal pays a quarter more at most, while a deal the scans win late (after the gate
 * shut) is still theirs long before best-first or the proof ends it.
 *
 * Freecell Solver's meta-move scan (meta.c: one soft-dfs of its tests "0123456789",
 * move for move) takes turns with best-first from best-first's meta_start-th expansion
 * (with wide_cells cells, where the other helpers start: meta_start): one position per
 * best-first expansion for meta_early, then one per meta_late_den, meta_nodes at most,
 * and (like the scans) only while best-first's open list holds at least one position
 * per meta_open_share expanded. Only under the group moves fc-solve's "--sequence-move
 * limited" plays (runs of free cells + 1 with Kings-only columns, the FreeCell formula
 * where any card fills one: eightoff's defaults), where its lines are the engine's. It
 * wins in a few hundred positions deals best-first wanders over for thousands of times
 * more. From the first expansion at 1:1 throughout, the small rows' lost deals paid
 * for it: hence the start, the later share and the gate. */

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
 * which it was made for, toons elsewhere: under those rules looking-glass's scans
 * win more deals sooner. */
static int scans_preset(const Config *cfg) {
    return !cfg->kings_only && !cfg->suit && fcs_runs_are_ours(cfg) ? PRESET_LOOKING_GLASS : PRESET_TOONS;
}

int portfolio_scan_turn(Portfolio *p, const Config *cfg, size_t share, long max_scanned,
                               double deadline, long quantum, long cap) {
    const Schedule *sch = p->sch;
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
            if (cap < sch->scan_late_nodes) p->slive = 2; /* held for the late turns */
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
        p->win = (Winner){cfg, nodes};
    }
    return 1;
}

/* The greedy search's turn: 1 when it found a line (or hit the node or time limit). */
static int portfolio_greedy_turn(Portfolio *p, const Config *cfg, const State *root, size_t share, long max_nodes,
                                 double deadline, long quantum) {
    const Schedule *sch = p->sch;
    if (p->glive == 0) {
        p->gcfg = *cfg;
        p->gcfg.weight = sch->greedy_weight;
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
    const Schedule *sch = p->sch;
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
    if (!dive_init(&p->dive, &p->dcfg, root, &p->dnodes, seed, rank ? sch->order_noise : sch->dive_noise, rank, NULL))
        portfolio_drop_dive(p);
}

/* One helper turn (the greedy search's one turn in greedy_every, else the current
 * dive's): 1 when it ended the whole search (a line, or the node or time limit),
 * with the outcome in ``out``. */
static int portfolio_helper_turn(Portfolio *p, const Config *cfg, const State *root, const Nodes *nodes,
                                 long max_nodes, double deadline, int early, Outcome *out) {
    const Schedule *sch = p->sch;
    long quantum = early ? sch->early_quantum : sch->quantum;
    int greedy_turn = sch->use_greedy && (!sch->use_dives || p->turn++ % sch->greedy_every == 0);
    if (greedy_turn && p->glive >= 0) {
        if (!portfolio_greedy_turn(p, cfg, root, nodes->budget->max / sch->greedy_share, max_nodes, deadline, quantum))
            return 0;
        *out = p->greedy.out;
        if (out->status == SOLVED) {
            p->win = (Winner){&p->gcfg, &p->gnodes};
        }
        return 1;
    }
    if (!sch->use_dives) return 0;
    if (!p->live)
        portfolio_next_dive(p, cfg, root, nodes->budget->max / sch->dive_share, early ? &p->early_restarts : &p->restarts,
                            early ? sch->early_dive : sch->dive_nodes);
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

/* Where the helpers' first turn comes: early_start, but solo with wide_cells cells
 * or more. With eight cells best-first's h guides it well: the deals it ends in
 * between early_start and solo expansions are most of what the early turns cost
 * there, and hardly any deal needs them. */
static long early_start(const Schedule *sch, const Config *cfg) {
    return cfg->ncells >= sch->wide_cells || sch->early_start > sch->solo ? sch->solo : sch->early_start;
}

/* The meta-move scan's tests: fc-solve's default order with Kings-only columns;
 * where any card fills one, looking-glass's preset whole: its sixteen scans by its
 * prelude, the first (its "24": test j among them, another order from depth 33 on
 * with [234j] sorted by cards out, and its pruning -sp r:tf) given its first 245
 * positions. That first scan wins in a few hundred positions deals the default order
 * takes thousands over or never wins, and the whole preset rather than that scan
 * alone also wins at once the deals its other scans win at once.
 * Where the scans are looking-glass's (scans_preset), toons' run in this slot
 * instead (toons_beside_max). */
#define META_TESTS "0123456789"
/* Where the meta-move scan's first turn comes: meta_start, but with wide_cells cells
 * where the other helpers' do (early_start), and where any card fills a column
 * meta_start_any: looking-glass's first scan wins most such deals it wins within its
 * first 245 positions (its prelude's first turn), so it starts earlier there; from
 * the first expansion, the lost deals of the small rows paid for it. */
static long meta_start(const Schedule *sch, const Config *cfg) {
    return cfg->ncells >= sch->wide_cells ? early_start(sch, cfg) : cfg->kings_only ? sch->meta_start : sch->meta_start_any;
}

static long helper_allowance(const Schedule *sch, const Config *cfg, long b);
static long scan_own(const Portfolio *p, const Config *cfg);

/* Whether best-first's open list looks like a lost deal's to the scans (under one
 * position per scan_open_share expanded): then they go on at a floor, or are held. */
static inline int scans_gated(const Portfolio *p) { return (long)p->bf.heap.n * p->sch->scan_open_share < p->bf.out.nodes; }

/* Where the scans are looking-glass's (scans_preset), the meta-move scan's slot runs
 * toons' scans beside them instead, on the same allowance as theirs (scan_own and
 * the other helpers' first turns, not held back by best-first's open list; like the
 * meta scan's, their positions count against no other helper's share), up to
 * toons_beside_nodes: toons' first scans win at once deals looking-glass's take 2-8
 * times the positions over.
 * Past toons_beside_nodes they go on while best-first's open list is not a lost
 * deal's (scan_open_share, as looking-glass's scans), up to toons_beside_max:
 * a deal toons wins within that many positions may take looking-glass ten times
 * more, while the hold keeps the lost deals from paying for it. */

/* The meta-move scan's turn, up to its allowance (from meta_start; toons' scans
 * beside looking-glass's from early_start, as theirs): 1 when it found a line (or hit
 * the node or time limit), with the outcome in ``out``. It starts from the deal itself, as the
 * scans, and stops for good at its cap (meta_nodes, toons_beside_max), when it
 * runs dry (that proves nothing) or fills its share of the tables. */
static int portfolio_meta_turn(Portfolio *p, const Config *cfg, size_t share, long max_nodes, double deadline,
                               Outcome *out) {
    const Schedule *sch = p->sch;
    if (!sch->use_meta || p->mlive < 0) return 0;
    int beside = scans_preset(cfg) == PRESET_LOOKING_GLASS;
    long b = p->bf.out.nodes, allowance, cap = beside ? sch->toons_beside_max : sch->meta_nodes;
    if (beside) {
        long helpers = helper_allowance(sch, cfg, b);
        if (helpers < 0) return 0; /* not yet */
        allowance = scan_own(p, cfg) + (helpers < sch->scan_first ? helpers : sch->scan_first);
        if (scans_gated(p) && allowance > sch->toons_beside_nodes) allowance = sch->toons_beside_nodes; /* held */
    } else {
        long from = meta_start(sch, cfg), early = b < from + sch->meta_early ? b : from + sch->meta_early;
        if (b <= from || (long)p->bf.heap.n * sch->meta_open_share < b) return 0; /* not yet, or a lost deal's look */
        allowance = early - from + (b - early) / sch->meta_late_den;
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
 * ``b``: none up to early_start, then early_num per early_den of best-first's up
 * to solo, then helper_num per helper_den. */
static long helper_allowance(const Schedule *sch, const Config *cfg, long b) {
    long start = early_start(sch, cfg);
    if (b <= start) return -1;
    long early = ((b < sch->solo ? b : sch->solo) - start) * sch->early_num / sch->early_den;
    return b <= sch->solo ? early : early + (b - sch->solo) * sch->helper_num / sch->helper_den;
}

/* The scans' own allowance: scan_num per scan_den of best-first's expansions past
 * early_start and of the proof's positions (its turns beside best-first, pf_proof_gate),
 * as past ``first`` (proof.c). Counting best-first's alone, the scans fell four times
 * behind once the proof took its turns (proof_ratio of best-first's each), and the
 * proof won slowly deals the scans would have won at once. */
static long scan_own(const Portfolio *p, const Config *cfg) {
    const Schedule *sch = p->sch;
    long start = early_start(sch, cfg), b = p->bf.out.nodes;
    return ((b <= start ? 0 : b - start) + p->proof_nodes) * sch->scan_num / sch->scan_den;
}

/* The scans' turns while they are behind their allowance (scan_num per scan_den of
 * best-first's expansions past early_start) and best-first's open list is not tiny
 * (while it is, behind a scan_early_floor-th of it, up to scan_early_floor_cap):
 * 1 when they ended the whole search (a line, or the node or time limit), with the
 * outcome in ``out``. */
static int portfolio_scans_turns(Portfolio *p, const Config *cfg, const Nodes *nodes,
                                 long max_nodes, double deadline, Outcome *out) {
    const Schedule *sch = p->sch;
    long b = p->bf.out.nodes, helpers = helper_allowance(sch, cfg, b); /* < 0 before early_start */
    int gated = scans_gated(p);
    if (!sch->use_scan || helpers < 0 || (gated && (sch->scan_early_floor == 0 || portfolio_scanned(p) >= sch->scan_early_floor_cap))) return 0;
    long quantum = b < sch->solo ? sch->early_quantum : sch->quantum;
    long shared = helpers < sch->scan_first ? helpers : sch->scan_first;
    long allowance = gated ? scan_own(p, cfg) / (sch->scan_early_floor > 0 ? sch->scan_early_floor : 1)
                           : scan_own(p, cfg) + shared; /* their own, and first the other helpers' turns too */
    long cap = cfg->ncells >= sch->wide_cells ? sch->wide_scan_nodes : sch->scan_nodes;
    while (portfolio_scans_on(p) && portfolio_scanned(p) <= allowance) {
        long before = portfolio_scanned(p);
        long max_scanned = max_nodes < 0 ? -1 : max_nodes - (portfolio_nodes(p) - before);
        long q = gated && before + quantum > sch->scan_early_floor_cap ? sch->scan_early_floor_cap - before : quantum;
        if (portfolio_scan_turn(p, cfg, nodes->budget->max / sch->dive_share, max_scanned, deadline, q, cap)) {
            *out = p->scan.out;
            if (out->status == SOLVED) {
                p->win = (Winner){&p->scfg, &p->snodes};
            }
            return 1;
        }
        if (portfolio_scanned(p) == before) break;
    }
    return 0;
}

Outcome portfolio_run(Portfolio *p, const Schedule *sch, const Config *cfg, const State *start, const State *root,
                      Nodes *nodes, long max_nodes, double deadline, int tail, long first) {
    Outcome out;
    int (*proof_turn)(void *, long, long, double, Outcome *) = p->proof_turn;
    void *proof_ctx = p->proof_ctx;
    memset(p, 0, sizeof *p);
    p->sch = sch;
    p->proof_turn = proof_turn; /* the caller's */
    p->proof_ctx = proof_ctx;
    p->start = *start;
    p->win = (Winner){cfg, nodes};
    long alone = sch->early_num > 0 ? early_start(sch, cfg) : sch->solo;
    if (first >= 0 && alone > first) alone = first;
    int ended = !bf_init(&p->bf, cfg, root, nodes);
    while (!ended && tail && p->bf.out.nodes < alone) { /* best-first's stretch, the meta scan beside it */
        if (portfolio_meta_turn(p, cfg, nodes->budget->max / sch->dive_share, max_nodes, deadline, &out)) {
            out.nodes = portfolio_nodes(p);
            return out;
        }
        long pause = p->bf.out.nodes + sch->meta_quantum < alone ? p->bf.out.nodes + sch->meta_quantum : alone;
        long left = max_nodes < 0 ? -1 : max_nodes - portfolio_meta(p);
        ended = bf_run(&p->bf, pause, left, deadline);
    }
    if (!ended && !tail) ended = bf_run(&p->bf, LONG_MAX, max_nodes, deadline);
    if (!ended) {
        for (;;) {
            /* Best-first's turn, then the scans' and the other helpers' while they
             * have spent no more than their shares: a search's node limit is what
             * the others left of max_nodes. */
            if (portfolio_meta_turn(p, cfg, nodes->budget->max / sch->dive_share, max_nodes, deadline, &out)) {
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
            long b = p->bf.out.nodes, pause = b < sch->solo ? b + sch->early_quantum : b + sch->quantum;
            if (p->mlive > 0 && pause > b + sch->meta_quantum) pause = b + sch->meta_quantum;
            if (b < sch->solo && pause > sch->solo) pause = sch->solo;
            if (pause - b > to_first) pause = b + to_first;
            if (bf_run(&p->bf, pause, left, deadline)) break;
            /* Where best-first's open list is a lost deal's, the proof takes turns beside
             * it: its running dry settles the deal, where best-first's must be proved
             * again with exact keys. */
            if (p->proof_turn != NULL && p->bf.out.nodes >= sch->pf_proof_min &&
                (long)p->bf.heap.n * sch->pf_proof_gate < p->bf.out.nodes) {
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
            if (borrowed > sch->scan_first) borrowed = sch->scan_first; /* the scans' positions on the other helpers' share */
            if (borrowed < 0) borrowed = 0;
            long spent = portfolio_nodes(p) - p->bf.out.nodes - scanned - p->proof_nodes - portfolio_meta(p) + borrowed; /* the other helpers' */
            if (spent >= sch->dive_max) { /* their share is spent */
                portfolio_drop_dive(p);
                portfolio_drop_greedy(p);
                if (sch->use_scan && portfolio_scans_on(p)) continue; /* the scans go on */
                if (p->slive != 2) portfolio_drop_scan(p); /* held scans wait for proof.c's turns */
                if (sch->pf_proof_all && p->proof_turn != NULL) continue; /* best-first by turns, the proof's beside it */
                long bf_max = max_nodes < 0 ? -1 : max_nodes - spent - scanned - portfolio_meta(p);
                if (first >= 0 && (bf_max < 0 || bf_max > first - spent)) bf_max = first - spent;
                bf_run(&p->bf, LONG_MAX, bf_max, deadline);
                break;
            }
            /* A small open list for the positions expanded is how a lost deal's search
             * looks (a closed space running dry): then best-first goes on alone (the
             * scans down to a smaller one, scan_open_share). */
            if ((long)p->bf.heap.n * sch->open_share < p->bf.out.nodes) continue;
            while (spent < sch->dive_max && spent <= helper_allowance(sch, cfg, p->bf.out.nodes)) {
                int early = p->bf.out.nodes < sch->solo;
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
