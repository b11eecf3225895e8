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
 * positions per best-first one as past ``first`` (portfolio_proof_turn, the proof set
 * up by proof.c; not where lone cards are put back), once the other helpers' share is
 * spent too: on a lost deal the proof needs about half of best-first's positions, and a
 * won deal whose line best-first does not find while its open list is small is often
 * won by the proof's depth-first search. Where lone cards are put back (any card to an
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

/* How a turn of the portfolio's loop left it: going on, best-first ended (its outcome
 * is the search's), or the search ended with the outcome given. */
enum { ROUND_ON, ROUND_BF_ENDED, ROUND_ENDED };

/* Whether the scans may take a turn in the portfolio: not started, or running. */
static inline int portfolio_scans_on(const Portfolio *p) {
    return p->scan.state == HELPER_IDLE || p->scan.state == HELPER_RUNNING;
}

long portfolio_scanned(const Portfolio *p) { return helper_nodes(&p->scan); }

/* Positions the meta-move scan has expanded so far. */
static long portfolio_meta(const Portfolio *p) { return helper_nodes(&p->meta); }

/* Positions expanded by all the searches so far. */
static long portfolio_nodes(const Portfolio *p) {
    return p->bf.out.nodes + helper_nodes(&p->greedy) + helper_nodes(&p->dive) + portfolio_scanned(p) +
           helper_nodes(&p->proof) + portfolio_meta(p);
}

void portfolio_drop_dive(Portfolio *p) { helper_release(&p->dive, HELPER_IDLE); }

void portfolio_drop_greedy(Portfolio *p) { helper_release(&p->greedy, HELPER_STOPPED); }

void portfolio_drop_scan(Portfolio *p) { helper_release(&p->scan, HELPER_STOPPED); }

void portfolio_drop_meta(Portfolio *p) { helper_release(&p->meta, HELPER_STOPPED); }

void portfolio_free(Portfolio *p) {
    helper_free(&p->dive);
    helper_free(&p->greedy);
    helper_free(&p->scan);
    helper_free(&p->meta);
    helper_free(&p->proof);
}

void portfolio_init(Portfolio *p, const Schedule *sch, const Config *cfg, const State *start, const State *root,
                    Nodes *nodes) {
    memset(p, 0, sizeof *p);
    p->sch = sch;
    p->cfg = cfg;
    p->root = root;
    p->start = *start;
    p->nodes = nodes;
    p->win = (Winner){cfg, nodes};
}

/* A helper's share of the tables (the budget / ``share``). */
static size_t helper_share(const Portfolio *p, long share) { return p->nodes->budget->max / (size_t)share; }

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

/* Starts scans in ``h`` (fc-solve's, from the deal itself: no autoplay of their
 * own): ``tests`` (NULL: ``preset``'s). 0 when there was no room (dropped). */
static int portfolio_start_scans(Portfolio *p, Helper *h, const char *tests, int preset) {
    Config cfg = *p->cfg;
    cfg.autoplay = cfg.root_autoplay = AUTO_NONE;
    helper_init(h, HELPER_SCANS, &cfg, &p->start, NULL, helper_share(p, p->sch->dive_share));
    HelperStart how = {.tests = tests, .preset = preset};
    if (helper_start(h, &how)) return 1;
    helper_release(h, HELPER_STOPPED);
    return 0;
}

/* Resumes a started ``h`` for ``quantum`` more positions of its own, ``cap`` in all:
 * HELPER_PAUSED (then ``*capped``: at its cap) or HELPER_ENDED. */
static int resume_to_cap(Helper *h, long quantum, long cap, long max_nodes, double deadline, int *capped) {
    long used = helper_outcome(h)->nodes;
    int r = helper_resume(h, used + quantum < cap ? used + quantum : cap, max_nodes, deadline);
    *capped = r == HELPER_PAUSED && helper_outcome(h)->nodes >= cap;
    return r;
}

int portfolio_scan_turn(Portfolio *p, long max_scanned, double deadline, long quantum, long cap) {
    const Schedule *sch = p->sch;
    Helper *h = &p->scan;
    if (h->state == HELPER_IDLE && !portfolio_start_scans(p, h, NULL, scans_preset(p->cfg))) return 0;
    if (h->state == HELPER_STOPPED) return 0;
    int capped;
    if (resume_to_cap(h, quantum, cap, max_scanned, deadline, &capped) == HELPER_PAUSED) {
        if (capped && cap < sch->scan_late_nodes) h->state = HELPER_HELD; /* held for the late turns */
        else if (capped) portfolio_drop_scan(p);
        return 0;
    }
    if (helper_ends_search(h)) return 1;
    portfolio_drop_scan(p); /* ran dry, reached its end or filled its share: it proves nothing */
    return 0;
}

/* Whether a helper that ended ends the whole search: a line, or the node or time
 * limit (helper_ends_search). Then ``out`` takes its outcome, and a line's search is
 * the winner. */
static int portfolio_helper_ends(Portfolio *p, const Helper *h, Outcome *out) {
    if (!helper_ends_search(h)) return 0;
    *out = *helper_outcome(h);
    if (out->status == SOLVED) p->win = helper_winner(h);
    return 1;
}

/* The greedy search's turn: 1 when it found a line (or hit the node or time limit). */
static int portfolio_greedy_turn(Portfolio *p, long max_nodes, double deadline, long quantum) {
    const Schedule *sch = p->sch;
    Helper *h = &p->greedy;
    if (h->state == HELPER_IDLE) {
        Config cfg = *p->cfg;
        cfg.weight = sch->greedy_weight;
        helper_init(h, HELPER_GREEDY, &cfg, p->root, NULL, helper_share(p, sch->greedy_share));
        if (!helper_start(h, NULL)) {
            portfolio_drop_greedy(p);
            return 0;
        }
    }
    long used = helper_outcome(h)->nodes;
    long left = max_nodes < 0 ? -1 : max_nodes - (portfolio_nodes(p) - used);
    if (helper_resume(h, used + quantum, left, deadline) == HELPER_PAUSED) return 0;
    if (helper_ends_search(h)) return 1;
    portfolio_drop_greedy(p); /* ran dry or filled its share: it proves nothing here */
    return 0;
}

void portfolio_next_dive(Portfolio *p, int *count, long cap) {
    const Schedule *sch = p->sch;
    int r = (*count)++;
    p->dive_cap = cap;
    const DiveKind *kind = &DIVE_KINDS[r % NKINDS];
    HelperStart how = {.seed = kind->seed + (uint64_t)(r / NKINDS)};
    how.rank = kind->order != NULL && parse_order(kind->order, p->rank) ? p->rank : NULL;
    how.noise = how.rank ? sch->order_noise : sch->dive_noise;
    Config cfg = *p->cfg;
    if (kind->cell_w >= 0) cfg.cell_w = kind->cell_w;
    if (kind->cover_w >= 0) cfg.cover_w = kind->cover_w;
    if (p->cfg->autoplay == AUTO_SAFE && kind->streamlined) cfg.autoplay = cfg.root_autoplay = AUTO_ALL;
    helper_init(&p->dive, HELPER_DIVE, &cfg, p->root, NULL, helper_share(p, sch->dive_share));
    if (!helper_start(&p->dive, &how)) portfolio_drop_dive(p);
}

/* The current dive's turn (the next dive's, if none): 1 when it ended the whole
 * search, with the outcome in ``out``. */
static int portfolio_dive_turn(Portfolio *p, long max_nodes, double deadline, int early, Outcome *out) {
    const Schedule *sch = p->sch;
    Helper *h = &p->dive;
    if (h->state == HELPER_IDLE)
        portfolio_next_dive(p, early ? &p->early_restarts : &p->restarts, early ? sch->early_dive : sch->dive_nodes);
    if (h->state != HELPER_RUNNING) return 0;
    long left = max_nodes < 0 ? -1 : max_nodes - (portfolio_nodes(p) - helper_outcome(h)->nodes);
    int capped;
    if (resume_to_cap(h, early ? sch->early_quantum : sch->quantum, p->dive_cap, left, deadline, &capped) ==
        HELPER_PAUSED) {
        if (capped) portfolio_drop_dive(p); /* its turn is over: the next kind */
        return 0;
    }
    if (portfolio_helper_ends(p, h, out)) return 1;
    portfolio_drop_dive(p); /* ran dry or filled its share: it proves nothing */
    return 0;
}

/* One helper turn (the greedy search's one turn in greedy_every, else the current
 * dive's): 1 when it ended the whole search (a line, or the node or time limit),
 * with the outcome in ``out``. */
static int portfolio_helper_turn(Portfolio *p, long max_nodes, double deadline, int early, Outcome *out) {
    const Schedule *sch = p->sch;
    int greedy_turn = sch->use_greedy && (!sch->use_dives || p->turn++ % sch->greedy_every == 0);
    if (greedy_turn && p->greedy.state != HELPER_STOPPED)
        return portfolio_greedy_turn(p, max_nodes, deadline, early ? sch->early_quantum : sch->quantum) &&
               portfolio_helper_ends(p, &p->greedy, out);
    return sch->use_dives && portfolio_dive_turn(p, max_nodes, deadline, early, out);
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
static long scan_own(const Portfolio *p);

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

/* The meta-move scan's slot's positions by now (-1: not yet): from meta_start one
 * per best-first expansion for meta_early, then one per meta_late_den, while
 * best-first's open list is not a lost deal's; toons' scans beside looking-glass's
 * (``beside``) as the scans' allowance, held at toons_beside_nodes by their gate. */
static long meta_allowance(const Portfolio *p, int beside) {
    const Schedule *sch = p->sch;
    long b = p->bf.out.nodes;
    if (beside) {
        long helpers = helper_allowance(sch, p->cfg, b);
        if (helpers < 0) return -1; /* not yet */
        long allowance = scan_own(p) + (helpers < sch->scan_first ? helpers : sch->scan_first);
        return scans_gated(p) && allowance > sch->toons_beside_nodes ? sch->toons_beside_nodes : allowance; /* held */
    }
    long from = meta_start(sch, p->cfg), early = b < from + sch->meta_early ? b : from + sch->meta_early;
    if (b <= from || (long)p->bf.heap.n * sch->meta_open_share < b) return -1; /* not yet, or a lost deal's look */
    return early - from + (b - early) / sch->meta_late_den;
}

/* The meta-move scan's turn, up to its allowance (from meta_start; toons' scans
 * beside looking-glass's from early_start, as theirs): 1 when it found a line (or hit
 * the node or time limit), with the outcome in ``out``. It starts from the deal itself, as the
 * scans, and stops for good at its cap (meta_nodes, toons_beside_max), when it
 * runs dry (that proves nothing) or fills its share of the tables. */
static int portfolio_meta_turn(Portfolio *p, long max_nodes, double deadline, Outcome *out) {
    const Schedule *sch = p->sch;
    Helper *h = &p->meta;
    if (!sch->use_meta || h->state == HELPER_STOPPED) return 0;
    int beside = scans_preset(p->cfg) == PRESET_LOOKING_GLASS;
    long allowance = meta_allowance(p, beside), cap = beside ? sch->toons_beside_max : sch->meta_nodes;
    if (allowance < 0) return 0;
    if (allowance > cap) allowance = cap;
    if (h->state == HELPER_IDLE) {
        if (!fcs_runs_are_ours(p->cfg) || cap == 0) {
            h->state = HELPER_STOPPED;
            return 0;
        }
        int any = !p->cfg->kings_only; /* looking-glass whole, or toons' beside its scans */
        if (!portfolio_start_scans(p, h, any ? NULL : META_TESTS, beside || !any ? PRESET_TOONS : PRESET_LOOKING_GLASS))
            return 0;
    }
    long used = helper_outcome(h)->nodes;
    if (used >= allowance) return 0;
    long max_meta = max_nodes < 0 ? -1 : max_nodes - (portfolio_nodes(p) - used);
    if (helper_resume(h, allowance, max_meta, deadline) == HELPER_PAUSED) {
        if (helper_outcome(h)->nodes >= cap) portfolio_drop_meta(p);
        return 0;
    }
    if (portfolio_helper_ends(p, h, out)) return 1;
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
static long scan_own(const Portfolio *p) {
    const Schedule *sch = p->sch;
    long start = early_start(sch, p->cfg), b = p->bf.out.nodes;
    return ((b <= start ? 0 : b - start) + helper_nodes(&p->proof)) * sch->scan_num / sch->scan_den;
}

/* The scans' turns while they are behind their allowance (scan_num per scan_den of
 * best-first's expansions past early_start) and best-first's open list is not tiny
 * (while it is, behind a scan_early_floor-th of it, up to scan_early_floor_cap):
 * 1 when they ended the whole search (a line, or the node or time limit), with the
 * outcome in ``out``. */
static int portfolio_scans_turns(Portfolio *p, long max_nodes, double deadline, Outcome *out) {
    const Schedule *sch = p->sch;
    long b = p->bf.out.nodes, helpers = helper_allowance(sch, p->cfg, b); /* < 0 before early_start */
    int gated = scans_gated(p);
    if (!sch->use_scan || helpers < 0 || (gated && (sch->scan_early_floor == 0 || portfolio_scanned(p) >= sch->scan_early_floor_cap))) return 0;
    long quantum = b < sch->solo ? sch->early_quantum : sch->quantum;
    long shared = helpers < sch->scan_first ? helpers : sch->scan_first;
    long allowance = gated ? scan_own(p) / (sch->scan_early_floor > 0 ? sch->scan_early_floor : 1)
                           : scan_own(p) + shared; /* their own, and first the other helpers' turns too */
    long cap = p->cfg->ncells >= sch->wide_cells ? sch->wide_scan_nodes : sch->scan_nodes;
    while (portfolio_scans_on(p) && portfolio_scanned(p) <= allowance) {
        long before = portfolio_scanned(p);
        long max_scanned = max_nodes < 0 ? -1 : max_nodes - (portfolio_nodes(p) - before);
        long q = gated && before + quantum > sch->scan_early_floor_cap ? sch->scan_early_floor_cap - before : quantum;
        if (portfolio_scan_turn(p, max_scanned, deadline, q, cap)) return portfolio_helper_ends(p, &p->scan, out);
        if (portfolio_scanned(p) == before) break;
    }
    return 0;
}

/* The proof's turn (``p->proof_turns``), where best-first's open list looks like a
 * lost deal's (under one position per pf_proof_gate expanded, past pf_proof_min):
 * pf_proof_num / pf_proof_den of the expansions it has past ``first`` (proof_ratio)
 * per one of best-first's (``bf_quantum``: best-first's last turn). It is made on its
 * first turn and goes on past ``first`` (proof.c settle); out of room, it is held
 * until best-first's tables give it room. 1 when it ended the search (a line, its
 * running dry, a limit: ``out``). */
static int portfolio_proof_turn(Portfolio *p, long bf_quantum, long max_nodes, double deadline, Outcome *out) {
    const Schedule *sch = p->sch;
    Helper *h = &p->proof;
    if (!p->proof_turns || p->bf.out.nodes < sch->pf_proof_min || (long)p->bf.heap.n * sch->pf_proof_gate >= p->bf.out.nodes)
        return 0;
    long max_proof = max_nodes < 0 ? -1 : max_nodes - (portfolio_nodes(p) - helper_nodes(h));
    if (h->state == HELPER_IDLE && !helper_start(h, NULL)) {
        helper_release(h, HELPER_STOPPED); /* settle makes it again past ``first`` */
        return 0;
    }
    if (h->state != HELPER_RUNNING) return 0;
    Exhaust *ex = h->search.ex;
    ex->crowd = 0; /* never where lone cards are put back (settle): proof_ratio */
    int r = helper_resume(h, ex->out.nodes + bf_quantum * sch->proof_ratio * sch->pf_proof_num / sch->pf_proof_den,
                          max_proof, deadline);
    if (r == HELPER_PAUSED) return 0;
    if (r == HELPER_FULL) { /* best-first's tables give it room later */
        h->state = HELPER_HELD;
        h->nodes.budget->full = 0;
        return 0;
    }
    *out = ex->out;
    p->proof_ended = 1;
    if (out->status == SOLVED) p->win = helper_winner(h);
    return 1;
}

/* Best-first alone (the meta scan beside it) until its helpers' first turn, or to
 * the end where ``tail`` is 0. */
static int portfolio_alone(Portfolio *p, long max_nodes, double deadline, int tail, long first, Outcome *out) {
    const Schedule *sch = p->sch;
    if (!tail) return bf_run(&p->bf, LONG_MAX, max_nodes, deadline) ? ROUND_BF_ENDED : ROUND_ON;
    long alone = sch->early_num > 0 ? early_start(sch, p->cfg) : sch->solo;
    if (first >= 0 && alone > first) alone = first;
    while (p->bf.out.nodes < alone) {
        if (portfolio_meta_turn(p, max_nodes, deadline, out)) return ROUND_ENDED;
        long pause = p->bf.out.nodes + sch->meta_quantum < alone ? p->bf.out.nodes + sch->meta_quantum : alone;
        long left = max_nodes < 0 ? -1 : max_nodes - portfolio_meta(p);
        if (bf_run(&p->bf, pause, left, deadline)) return ROUND_BF_ENDED;
    }
    return ROUND_ON;
}

/* Best-first's turn between its helpers': a search's node limit is what the others
 * left of max_nodes; past ``first`` (the scans' and the proof's positions aside) the
 * portfolio ends in LIMIT. */
static int portfolio_bf_turn(Portfolio *p, long max_nodes, double deadline, long first, Outcome *out) {
    const Schedule *sch = p->sch;
    long total = portfolio_nodes(p);
    long to_first = first < 0 ? LONG_MAX : first - (total - portfolio_scanned(p) - helper_nodes(&p->proof) - portfolio_meta(p));
    if (to_first <= 0) { /* the first stretch is over */
        *out = p->bf.out;
        out->status = LIMIT;
        return ROUND_ENDED;
    }
    long left = max_nodes < 0 ? -1 : max_nodes - (total - p->bf.out.nodes);
    long b = p->bf.out.nodes, pause = b < sch->solo ? b + sch->early_quantum : b + sch->quantum;
    if (helper_started(&p->meta) && pause > b + sch->meta_quantum) pause = b + sch->meta_quantum;
    if (b < sch->solo && pause > sch->solo) pause = sch->solo;
    if (pause - b > to_first) pause = b + to_first;
    return bf_run(&p->bf, pause, left, deadline) ? ROUND_BF_ENDED : ROUND_ON;
}

/* Positions of the helpers other than the scans, the meta scan and the proof (the
 * dives' and the greedy search's share, dive_max), the scans' first scan_first
 * beyond their own allowance (borrowed from that share) among them. */
static long portfolio_others(const Portfolio *p) {
    long scanned = portfolio_scanned(p), borrowed = scanned - scan_own(p);
    if (borrowed > p->sch->scan_first) borrowed = p->sch->scan_first;
    if (borrowed < 0) borrowed = 0;
    return portfolio_nodes(p) - p->bf.out.nodes - scanned - helper_nodes(&p->proof) - portfolio_meta(p) + borrowed;
}

/* The dives' and the greedy search's share is spent (``spent``): they stop; the
 * scans and the proof go on by turns where they may, else best-first alone to the
 * end of the first stretch. */
static int portfolio_share_spent(Portfolio *p, long spent, long max_nodes, double deadline, long first) {
    const Schedule *sch = p->sch;
    portfolio_drop_dive(p);
    portfolio_drop_greedy(p);
    if (sch->use_scan && portfolio_scans_on(p)) return ROUND_ON; /* the scans go on */
    if (p->scan.state != HELPER_HELD) portfolio_drop_scan(p); /* held scans wait for proof.c's turns */
    if (sch->pf_proof_all && p->proof_turns) return ROUND_ON; /* best-first by turns, the proof's beside it */
    long bf_max = max_nodes < 0 ? -1 : max_nodes - spent - portfolio_scanned(p) - portfolio_meta(p);
    if (first >= 0 && (bf_max < 0 || bf_max > first - spent)) bf_max = first - spent;
    bf_run(&p->bf, LONG_MAX, bf_max, deadline);
    return ROUND_BF_ENDED;
}

/* The dives' and the greedy search's turns, while within their share and best-first's
 * open list is large: a small open list for the positions expanded is how a lost
 * deal's search looks (a closed space running dry), and then best-first goes on alone
 * (the scans down to a smaller one, scan_open_share). */
static int portfolio_helpers_turns(Portfolio *p, long max_nodes, double deadline, long first, Outcome *out) {
    const Schedule *sch = p->sch;
    long spent = portfolio_others(p);
    if (spent >= sch->dive_max) return portfolio_share_spent(p, spent, max_nodes, deadline, first);
    if ((long)p->bf.heap.n * sch->open_share < p->bf.out.nodes) return ROUND_ON;
    while (spent < sch->dive_max && spent <= helper_allowance(sch, p->cfg, p->bf.out.nodes)) {
        if (portfolio_helper_turn(p, max_nodes, deadline, p->bf.out.nodes < sch->solo, out)) return ROUND_ENDED;
        long now = portfolio_others(p);
        if (now == spent) break; /* none went on (one stopped): best-first's turn */
        spent = now;
    }
    return ROUND_ON;
}

/* One round of the turns: the meta scan's, best-first's, the proof's where its open
 * list is a lost deal's (its running dry settles the deal, where best-first's must be
 * proved again with exact keys), the scans', the other helpers'. */
static int portfolio_round(Portfolio *p, long max_nodes, double deadline, long first, Outcome *out) {
    if (portfolio_meta_turn(p, max_nodes, deadline, out)) return ROUND_ENDED;
    long b = p->bf.out.nodes;
    int r = portfolio_bf_turn(p, max_nodes, deadline, first, out);
    if (r != ROUND_ON) return r;
    if (portfolio_proof_turn(p, p->bf.out.nodes - b, max_nodes, deadline, out)) return ROUND_ENDED;
    if (portfolio_scans_turns(p, max_nodes, deadline, out)) return ROUND_ENDED;
    return portfolio_helpers_turns(p, max_nodes, deadline, first, out);
}

Outcome portfolio_run(Portfolio *p, long max_nodes, double deadline, int tail, long first) {
    Outcome out;
    int r = bf_init(&p->bf, p->cfg, p->root, p->nodes) ? portfolio_alone(p, max_nodes, deadline, tail, first, &out)
                                                       : ROUND_BF_ENDED;
    while (r == ROUND_ON) r = portfolio_round(p, max_nodes, deadline, first, &out);
    if (r == ROUND_BF_ENDED) out = p->bf.out;
    out.nodes = portfolio_nodes(p);
    return out;
}
