/* The whole search: the portfolio, then best-first, the proof and long dives by turns (see proof.h). */
#include "proof.h"
#include "dive.h"
#include "normal.h"
#include "position.h"
#include "tables.h"

/* How the schedule's fields of this stretch were chosen (schedule.h says what each
 * bounds):
 *
 * proof_ratio: the larger, the sooner lost deals end, while the wins best-first
 * finds late come later. Where lone cards are put back too (normal.c lone_rule), a
 * proof position stands for about two and costs about two: proof_ratio_lone 1.
 *
 * Past late_dives_max expansions of best-first's own, the long dives stop; past
 * late_bf_max, best-first too, and the proof goes on alone. On the slow lost deals
 * measured (2-cell and 4-cell alternating colours, millions of positions) the
 * proof itself ended each search, while best-first's turns, its expansions half as
 * dear again as the proof's, took a third of the time. But best-first wins large
 * won deals the proof wanders through, some of them only past a million of its own
 * expansions: hence best-first's longer reach than the dives'.
 *
 * The portfolio's scans go on past ``first``, from where its cap or its open-list
 * gate held them, up to scan_late_nodes (portfolio.c): Freecell Solver's preset wins
 * some deals at 100,000-300,000 of its positions that best-first and the proof take
 * seconds over. The gate keeps them to deals whose open list looks won: without
 * it, a lost deal pays for their positions in full.
 *
 * While the gate holds the late scans they still go on at a floor of one position
 * per scan_floor of the others' since ``first``, up to scan_floor_cap of theirs in
 * all: a deal Freecell Solver's preset wins within that many positions then costs at
 * most about scan_floor + 1 times its scans alone, whatever best-first's open list
 * holds. The cap keeps a lost deal's cost to a few tens of thousands of positions,
 * and is high enough that a deal the scans win at their 100,000-200,000th position
 * is not left to the slower searches. */

Config proof_config(const Config *cfg) {
    Config p = *cfg;
    if (p.autoplay == AUTO_SAFE) p.autoplay = p.root_autoplay = AUTO_PROVEN;
    return p;
}

/* How a turn past ``first`` left the search: going on to the next turn of the round,
 * on to the next round, or ended (its outcome given). */
enum { TURN_ON, TURN_NEXT, TURN_ENDED };

/* Best-first stops: its tables go back to the budget (the proof's room); the late
 * scans, which take turns only beside it, stop too. */
static void settle_drop_bf(Settle *s) {
    portfolio_drop_scan(&s->pf);
    if (!s->blive) return;
    bf_free(&s->bf);
    nodes_free(s->bf.nodes);
    s->blive = 0;
}

/* Best-first's room goes to the proof: ``spent`` takes best-first's expansions. */
static void settle_bf_to_proof(Settle *s) {
    s->spent += s->bf.out.nodes;
    settle_drop_bf(s);
    s->pf.nodes->budget->full = 0;
}

/* Best-first and the long dives stop for good: the proof alone from here, with all
 * the room. */
static void settle_proof_alone(Settle *s) {
    settle_bf_to_proof(s);
    s->dives = 0;
    portfolio_drop_dive(&s->pf);
}

void settle_free(Settle *s) {
    portfolio_free(&s->pf);
    settle_drop_bf(s);
}

/* Positions the long dives and the late scans have expanded. */
static long settle_helper_nodes(const Settle *s) {
    return helper_nodes(&s->pf.dive) - s->dive_base + portfolio_scanned(&s->pf) - s->scan_base;
}

/* Best-first's positions while it runs, and the proof's. */
static long settle_bf_nodes(const Settle *s) { return s->blive ? s->bf.out.nodes : 0; }

static long settle_proof_nodes(const Settle *s) { return helper_outcome(&s->pf.proof)->nodes; }

/* What the node limit leaves a search once the others have expanded ``others``. */
static long settle_left(const Settle *s, long others) { return s->max_nodes < 0 ? -1 : s->max_nodes - others; }

/* A turn of the long dives: ``quantum`` expansions, over as many dives as it takes
 * (each stopped after late_dive, doubled each round of DIVE_KINDS); ``left`` is
 * what the node limit leaves them (< 0: none). 1 when a dive found a line or hit
 * the node or time limit (``out``); a dive that runs dry (proving nothing) or fills
 * its share of the tables is followed by the next. */
static int settle_dive_turn(Settle *s, long left, long quantum, Outcome *out) {
    const Schedule *sch = s->sch;
    Portfolio *p = &s->pf;
    Helper *h = &p->dive;
    while (quantum > 0) {
        if (h->state == HELPER_IDLE) {
            int round = p->late_restarts / NKINDS;
            long cap = (long)sch->late_dive << (round < sch->late_rounds ? round : sch->late_rounds);
            portfolio_next_dive(p, &p->late_restarts, cap);
            quantum--; /* a dive that ends at once still costs its turn something */
            if (h->state != HELPER_RUNNING) { /* no room for a dive */
                s->dives = 0;
                return 0;
            }
        }
        long before = helper_outcome(h)->nodes;
        long pause = before + quantum < p->dive_cap ? before + quantum : p->dive_cap;
        int r = helper_resume(h, pause, left < 0 ? -1 : left + before, s->deadline);
        long now = helper_outcome(h)->nodes;
        quantum -= now - before;
        if (left >= 0) left -= now - before;
        if (r == HELPER_PAUSED) {
            if (now >= p->dive_cap) portfolio_drop_dive(p);
            continue;
        }
        if (helper_ends_search(h)) {
            *out = *helper_outcome(h);
            return 1;
        }
        portfolio_drop_dive(p);
    }
    return 0;
}

/* The portfolio with the proof beside it (its turns where best-first's open list looks
 * like a lost deal's; not where lone cards are put back, normal.c lone_rule: there a
 * proof position costs about two, and the wins it finds there, lines of 170 moves for
 * 117, cost the finish more than they save). */
static Outcome settle_portfolio(Settle *s, const Config *cfg, const State *start, const State *root, Nodes *nodes,
                                int tail, long first) {
    const Schedule *sch = s->sch;
    Portfolio *p = &s->pf;
    portfolio_init(p, sch, cfg, start, root, nodes);
    Config pcfg = proof_config(cfg);
    State proot = *root; /* the root after the proof side's autoplay */
    uint8_t homed[52];
    autoplay(&pcfg, &proot, homed);
    helper_init(&p->proof, HELPER_PROOF, &pcfg, &proot, nodes->budget, 0);
    p->proof_turns = tail && sch->pf_proof_num > 0 && !lone_rule(&pcfg) && sum_founds(&proot) < 52;
    return portfolio_run(p, s->max_nodes, s->deadline, tail, tail ? first : -1);
}

/* The proof's turn past ``first``: proof_ratio positions per best-first one while
 * best-first runs, to the end once it stopped. Best-first stops past late_bf_max (the
 * proof alone from there) and when the proof needs its room. */
static int settle_proof_step(Settle *s, Outcome *out) {
    const Schedule *sch = s->sch;
    Helper *proof = &s->pf.proof;
    Exhaust *ex = proof->search.ex;
    long dnodes = settle_helper_nodes(s);
    long left = settle_left(s, s->spent + settle_bf_nodes(s) + dnodes);
    ex->crowd = !s->blive; /* best-first's tables give the proof room first */
    int r = helper_resume(proof, s->blive ? ex->out.nodes + s->ratio * sch->proof_quantum : LONG_MAX, left, s->deadline);
    if (s->dives && s->blive && s->bf.out.nodes >= sch->late_dives_max) { /* the long dives stop first */
        s->dives = 0;
        portfolio_drop_dive(&s->pf);
    }
    if (r == HELPER_PAUSED && s->blive && s->bf.out.nodes >= sch->late_bf_max) {
        settle_proof_alone(s);
        return TURN_NEXT;
    }
    if (r == HELPER_FULL && s->blive) { /* the proof needs best-first's room */
        settle_bf_to_proof(s);
        return TURN_NEXT;
    }
    if (r == HELPER_PAUSED) return TURN_ON;
    *out = ex->out;
    out->nodes += s->spent + settle_bf_nodes(s) + dnodes;
    return TURN_ENDED;
}

/* Best-first's turn past ``first`` (proof_quantum expansions): its line, the node or
 * time limit ends the search; its running dry (hashed: no proof) or filling the
 * tables leaves the proof alone. */
static int settle_bf_step(Settle *s, Outcome *out) {
    long pnodes = settle_proof_nodes(s), dnodes = settle_helper_nodes(s);
    long left = settle_left(s, s->spent + pnodes + dnodes);
    if (!bf_run(&s->bf, s->bf.out.nodes + s->sch->proof_quantum, left, s->deadline)) return TURN_ON;
    if (s->bf.out.status == SOLVED || (s->bf.out.status == LIMIT && !s->pf.nodes->budget->full)) {
        *out = s->bf.out;
        out->nodes += s->spent + pnodes + dnodes;
        if (out->status == SOLVED) s->win = (Winner){s->pf.cfg, s->bf.nodes};
        return TURN_ENDED;
    }
    settle_proof_alone(s);
    return TURN_NEXT;
}

/* The late scans' turn: scan_late_num per scan_late_den of the others' positions
 * since ``first`` while best-first's open list looks won (scan_late_gate), else one
 * per scan_floor up to scan_floor_cap of theirs; scan_late_nodes in all. Run dry or
 * out of room, they prove nothing. */
static int settle_scans_step(Settle *s, Outcome *out) {
    const Schedule *sch = s->sch;
    Portfolio *p = &s->pf;
    int gate_open = s->blive && (sch->scan_late_gate == 0 || (long)s->bf.heap.n * sch->scan_late_gate >= s->bf.out.nodes);
    if (!helper_started(&p->scan) || !(gate_open || (sch->scan_floor > 0 && portfolio_scanned(p) < sch->scan_floor_cap)))
        return TURN_ON;
    long others = s->spent + settle_proof_nodes(s) + settle_bf_nodes(s);
    long late = portfolio_scanned(p) - s->scan_base;
    long to_go = gate_open ? (others - s->others_base) * sch->scan_late_num / sch->scan_late_den - late
                           : (others - s->others_base) / (sch->scan_floor > 0 ? sch->scan_floor : 1) - late;
    if (to_go <= 0) return TURN_ON;
    long max_scanned = s->max_nodes < 0 ? -1 : s->max_nodes - (others + settle_helper_nodes(s) - late) + s->scan_base;
    if (!portfolio_scan_turn(p, max_scanned, s->deadline, to_go, gate_open ? sch->scan_late_nodes : sch->scan_floor_cap))
        return TURN_ON;
    *out = *helper_outcome(&p->scan);
    out->nodes = others + settle_helper_nodes(s);
    if (out->status == SOLVED) s->win = helper_winner(&p->scan);
    return TURN_ENDED;
}

/* The long dives' turn (late_num per late_den of best-first's quantum), while
 * best-first's open list is large: a lost deal's shrinks, and the dives cannot prove
 * the loss, the proof can. */
static int settle_dives_step(Settle *s, Outcome *out) {
    const Schedule *sch = s->sch;
    if (!s->dives || (long)s->bf.heap.n * sch->late_gate < s->bf.out.nodes) return TURN_NEXT;
    long left = settle_left(s, s->spent + settle_proof_nodes(s) + s->bf.out.nodes + settle_helper_nodes(s));
    if (!settle_dive_turn(s, left, sch->proof_quantum * sch->late_num / sch->late_den, out)) return TURN_NEXT;
    out->nodes = s->spent + settle_proof_nodes(s) + s->bf.out.nodes + settle_helper_nodes(s);
    if (out->status == SOLVED) s->win = helper_winner(&s->pf.dive);
    return TURN_ENDED;
}

/* Past ``first``: the proof, best-first, the late scans and the long dives by turns
 * until one ends the search. The long dives: a deal best-first has not won within
 * ``first`` is often won by a depth-first scan (as Freecell Solver's) it would not
 * reach for long; they go on while best-first does. */
static Outcome settle_turns(Settle *s) {
    const Schedule *sch = s->sch;
    Outcome out;
    s->dive_base = helper_nodes(&s->pf.dive);
    s->dives = sch->late_num > 0 && s->blive;
    s->others_base = s->spent + settle_proof_nodes(s) + settle_bf_nodes(s);
    s->ratio = lone_rule(&s->pf.proof.cfg) ? sch->proof_ratio_lone : sch->proof_ratio;
    for (;;) {
        int r = settle_proof_step(s, &out);
        if (r == TURN_ON) r = settle_bf_step(s, &out);
        if (r == TURN_ON) r = settle_scans_step(s, &out);
        if (r == TURN_ON) r = settle_dives_step(s, &out);
        if (r == TURN_ENDED) break;
    }
    helper_release(&s->pf.proof, HELPER_STOPPED);
    return out;
}

/* After the portfolio: whether best-first goes on (``undecided``: past ``first``, or
 * a helper won and best-first may go on a little for a line of its own: solve_line,
 * solve.c; settle_free frees it), and the positions of the searches no longer
 * running. */
static void settle_keep_bf(Settle *s, const Outcome *out, int undecided) {
    s->spent = out->nodes - helper_nodes(&s->pf.proof); /* the proof's apart */
    int helper_won = out->status == SOLVED && s->pf.win.nodes != s->pf.nodes;
    if (undecided || helper_won) { /* best-first goes on: its tables stay in ``nodes`` */
        s->bf = s->pf.bf;
        s->blive = 1;
        if (undecided) s->spent -= s->bf.out.nodes;
    } else {
        bf_free(&s->pf.bf);
    }
}

/* The proof alone on a deal best-first ran dry on: from the start with exact keys
 * in best-first's tables (hashes could, very rarely, have merged two positions), or
 * going on from its turns in the portfolio. */
static Outcome settle_proof_to_end(Settle *s, Nodes *pn) {
    Helper *proof = &s->pf.proof;
    long left = s->max_nodes < 0 ? -1 : (s->max_nodes - s->spent > 1 ? s->max_nodes - s->spent : 1);
    Outcome out;
    if (!helper_started(proof)) {
        out = exhaust(&proof->cfg, &proof->root, pn, left, s->deadline, 1);
    } else {
        nodes_free(s->pf.nodes);
        s->pf.nodes->budget->full = 0;
        proof->search.ex->crowd = 1;
        helper_resume(proof, LONG_MAX, left, s->deadline);
        out = *helper_outcome(proof);
    }
    out.nodes += s->spent;
    return out;
}

Outcome settle(Settle *s, const Schedule *sch, const Config *cfg, const State *start, const State *root,
               Nodes *nodes, long max_nodes, double deadline, int tail) {
    Budget *budget = nodes->budget;
    long first = max_nodes >= 0 && max_nodes < sch->first ? max_nodes : sch->first;
    memset(s, 0, sizeof *s);
    s->sch = sch;
    s->max_nodes = max_nodes;
    s->deadline = deadline;
    Outcome out = settle_portfolio(s, cfg, start, root, nodes, tail, first);
    Portfolio *p = &s->pf;
    if (p->win.cfg != &p->meta.cfg) portfolio_drop_meta(p); /* it runs in the first stretch only */
    s->win = p->win;
    long spent = out.nodes - helper_nodes(&p->proof);
    int undecided = tail && out.status == LIMIT && !budget->full && spent >= first && (max_nodes < 0 || out.nodes < max_nodes);
    settle_keep_bf(s, &out, undecided);
    if ((out.status != EXHAUSTED && !undecided) || p->proof_ended) return out;
    portfolio_drop_dive(p);
    portfolio_drop_greedy(p);
    if (undecided && helper_started(&p->scan) && portfolio_scanned(p) < sch->scan_late_nodes && sch->scan_late_num > 0)
        p->scan.state = HELPER_RUNNING; /* the late scans (held at the portfolio's cap, or held back by its gate) */
    else
        portfolio_drop_scan(p);
    s->scan_base = portfolio_scanned(p);
    Helper *proof = &p->proof;
    Nodes *pn = !undecided && !helper_started(proof) ? nodes : &proof->nodes; /* best-first's tables: the proof's */
    if (pn == nodes) nodes->n = 0;
    s->win = (Winner){&proof->cfg, pn};
    if (sum_founds(&proof->root) == 52) /* won by that autoplay alone */
        return add_node(pn, &proof->root, -1, mv(-1, -1, -1, -1, 0), 0)
                   ? (Outcome){SOLVED, s->spent + settle_bf_nodes(s), 0}
                   : (Outcome){no_room(budget), s->spent + settle_bf_nodes(s), -1};
    if (out.status == EXHAUSTED) return settle_proof_to_end(s, pn);
    if (!helper_started(proof) && !helper_start(proof, NULL)) {
        out = *helper_outcome(proof);
        helper_release(proof, HELPER_STOPPED);
        out.nodes = s->spent + settle_bf_nodes(s);
        return out;
    }
    return settle_turns(s);
}
