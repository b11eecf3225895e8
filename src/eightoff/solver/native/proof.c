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

/* Best-first stops: its tables go back to the budget (the proof's room); the late
 * scans, which take turns only beside it, stop too. */
static void settle_drop_bf(Settle *s) {
    portfolio_drop_scan(&s->pf);
    if (!s->blive) return;
    bf_free(&s->bf);
    nodes_free(s->bf.nodes);
    s->blive = 0;
}

/* Best-first and the long dives stop for good: the proof alone from here, with all
 * the room; ``*spent`` takes best-first's expansions. */
static void settle_proof_alone(Settle *s, Budget *budget, long *spent) {
    *spent += s->bf.out.nodes;
    settle_drop_bf(s);
    budget->full = 0;
    s->dives = 0;
    portfolio_drop_dive(&s->pf);
}

void settle_free(Settle *s) {
    portfolio_free(&s->pf);
    if (s->ex.nodes != NULL) ex_free(&s->ex); /* made (freed already: a no-op) */
    settle_drop_bf(s);
    nodes_free(&s->pnodes);
}

/* Positions the long dives and the late scans have expanded. */
static long settle_helper_nodes(const Settle *s) {
    return s->pf.dive_nodes - s->dive_base + (s->pf.live ? s->pf.dive.out.nodes : 0) + portfolio_scanned(&s->pf) -
           s->scan_base;
}

/* A turn of the long dives: ``quantum`` expansions, over as many dives as it takes
 * (each stopped after late_dive, doubled each round of DIVE_KINDS); ``left`` is
 * what the node limit leaves them (< 0: none). 1 when a dive found a line or hit
 * the node or time limit (``out``); a dive that runs dry (proving nothing) or fills
 * its share of the tables is followed by the next. */
static int settle_dive_turn(Settle *s, const Config *cfg, const State *root, size_t share, long left,
                            double deadline, long quantum, Outcome *out) {
    const Schedule *sch = s->sch;
    Portfolio *p = &s->pf;
    while (quantum > 0) {
        if (!p->live) {
            int round = p->late_restarts / NKINDS;
            long cap = (long)sch->late_dive << (round < sch->late_rounds ? round : sch->late_rounds);
            portfolio_next_dive(p, cfg, root, share, &p->late_restarts, cap);
            quantum--; /* a dive that ends at once still costs its turn something */
            if (!p->live) { /* no room for a dive */
                s->dives = 0;
                return 0;
            }
        }
        Dive *d = &p->dive;
        long before = d->out.nodes;
        long pause = d->out.nodes + quantum < p->dive_cap ? d->out.nodes + quantum : p->dive_cap;
        int ended = dive_run(d, pause, left < 0 ? -1 : left + before, deadline);
        quantum -= d->out.nodes - before;
        if (left >= 0) left -= d->out.nodes - before;
        if (!ended) {
            if (d->out.nodes >= p->dive_cap) portfolio_drop_dive(p);
            continue;
        }
        if (d->out.status == SOLVED || (d->out.status == LIMIT && !p->dbudget.full)) {
            *out = d->out;
            return 1;
        }
        portfolio_drop_dive(p);
    }
    return 0;
}

/* The proof's turn in the portfolio (Portfolio.proof_turn), where best-first's open
 * list looks like a lost deal's: pf_proof_num / pf_proof_den of the expansions it has
 * in settle's turns per one of best-first's (``bf_quantum``: best-first's last turn).
 * It is made on its first turn and goes on past ``first`` (settle); out of room, it
 * waits for best-first's. 1 when it ended the search (a line, its running dry, a
 * limit: ``out``). */
static int settle_proof_turn(void *ctx, long bf_quantum, long max_nodes, double deadline, Outcome *out) {
    Settle *s = ctx;
    const Schedule *sch = s->sch;
    if (s->exstate == 0) {
        if (!ex_init(&s->ex, &s->pcfg, &s->proot, &s->pnodes)) {
            ex_free(&s->ex);
            s->exstate = -1; /* settle makes it again past ``first`` */
            return 0;
        }
        s->exstate = 1;
    }
    if (s->exstate != 1) return 0;
    s->ex.crowd = 0; /* never where lone cards are put back (settle): proof_ratio */
    int r = ex_run(&s->ex, &s->proot, s->ex.out.nodes + bf_quantum * sch->proof_ratio * sch->pf_proof_num / sch->pf_proof_den,
                   max_nodes, deadline);
    s->pf.proof_nodes = s->ex.out.nodes;
    if (r == EX_PAUSED) return 0;
    if (r == EX_FULL) { /* best-first's tables give it room later */
        s->exstate = 2;
        s->pnodes.budget->full = 0;
        return 0;
    }
    *out = s->ex.out;
    s->proof_ended = 1;
    if (out->status == SOLVED) {
        s->pf.win = (Winner){&s->pcfg, &s->pnodes};
    }
    return 1;
}

Outcome settle(Settle *s, const Schedule *sch, const Config *cfg, const State *start, const State *root,
               Nodes *nodes, long max_nodes, double deadline, int tail) {
    Budget *budget = nodes->budget;
    long first = sch->first, late = sch->late_bf_max;
    if (max_nodes >= 0 && max_nodes < first) first = max_nodes;
    memset(s, 0, sizeof *s);
    s->sch = sch;
    s->pnodes = (Nodes){NULL, 0, 0, budget};
    s->pcfg = proof_config(cfg);
    s->proot = *root;
    uint8_t homed[52];
    autoplay(&s->pcfg, &s->proot, homed);
    /* The proof's turns in the portfolio; not where lone cards are put back (normal.c
     * lone_rule): there a proof position costs about two, and the wins it finds there
     * (lines of 170 moves for 117) cost the finish more than they save. */
    if (tail && sch->pf_proof_num > 0 && !lone_rule(&s->pcfg) && sum_founds(&s->proot) < 52) {
        s->pf.proof_turn = settle_proof_turn;
        s->pf.proof_ctx = s;
    }
    Outcome out = portfolio_run(&s->pf, sch, cfg, start, root, nodes, max_nodes, deadline, tail, tail ? first : -1);
    if (s->pf.win.cfg != &s->pf.mcfg) portfolio_drop_meta(&s->pf); /* it runs in the first stretch only */
    s->win = s->pf.win;
    long spent = out.nodes - s->pf.proof_nodes; /* expansions of the searches no longer running (the proof's apart) */
    int undecided = tail && out.status == LIMIT && !budget->full && spent >= first && (max_nodes < 0 || out.nodes < max_nodes);
    /* A helper's win keeps best-first too: solve_line (solve.c) may let it go on a little, for
     * a line of its own (settle_free frees it). */
    int helper_won = out.status == SOLVED && s->pf.win.nodes != nodes;
    if (undecided || helper_won) { /* best-first goes on: its tables stay in ``nodes`` */
        s->bf = s->pf.bf;
        s->blive = 1;
        if (undecided) spent -= s->bf.out.nodes;
    } else {
        bf_free(&s->pf.bf);
    }
    if ((out.status != EXHAUSTED && !undecided) || s->proof_ended) return out;
    portfolio_drop_dive(&s->pf);
    portfolio_drop_greedy(&s->pf);
    if (undecided && s->pf.slive > 0 && portfolio_scanned(&s->pf) < sch->scan_late_nodes && sch->scan_late_num > 0) {
        s->pf.slive = 1; /* the late scans (held at the portfolio's cap, or held back by its gate) */
    } else {
        portfolio_drop_scan(&s->pf);
    }
    s->scan_base = portfolio_scanned(&s->pf);
    Nodes *pn = &s->pnodes;
    if (!undecided && s->exstate <= 0) { /* best-first ran dry: the proof starts over with exact keys */
        nodes->n = 0;
        pn = nodes;
    }
    const Config *bcfg = cfg;
    const State *broot = root;
    cfg = &s->pcfg;
    root = &s->proot;
    s->win = (Winner){cfg, pn};
    long bnodes = s->blive ? s->bf.out.nodes : 0;
    if (sum_founds(root) == 52) /* won by that autoplay alone */
        return add_node(pn, root, -1, mv(-1, -1, -1, -1, 0), 0) ? (Outcome){SOLVED, spent + bnodes, 0}
                                                                : (Outcome){no_room(budget), spent + bnodes, -1};
    if (out.status == EXHAUSTED && s->exstate <= 0) { /* hashes could (very rarely) have merged two positions */
        out = exhaust(cfg, root, pn, max_nodes < 0 ? -1 : (max_nodes - spent > 1 ? max_nodes - spent : 1),
                      deadline, 1);
        out.nodes += spent;
        return out;
    }
    Exhaust *exp = &s->ex;
    if (out.status == EXHAUSTED) { /* the same, the proof going on from its turns in the portfolio, alone */
        nodes_free(nodes);
        budget->full = 0;
        exp->crowd = 1;
        ex_run(exp, root, LONG_MAX, max_nodes < 0 ? -1 : (max_nodes - spent > 1 ? max_nodes - spent : 1), deadline);
        out = exp->out;
        out.nodes += spent;
        return out;
    }
    if (s->exstate <= 0) {
        if (!ex_init(exp, cfg, root, pn)) {
            out = exp->out;
            ex_free(exp);
            out.nodes = spent + bnodes;
            return out;
        }
        s->exstate = 1;
    }
    /* The long dives: a deal best-first has not won within ``first`` is often won
     * by a depth-first scan (as Freecell Solver's) it would not reach for long.
     * They go on while best-first does, and only while its open list is large (a
     * lost deal's shrinks: the dives cannot prove the loss, the proof can). */
    s->dive_base = s->pf.dive_nodes;
    s->dives = sch->late_num > 0 && s->blive;
    s->others_base = spent + exp->out.nodes + (s->blive ? s->bf.out.nodes : 0);
    long ratio = lone_rule(cfg) ? sch->proof_ratio_lone : sch->proof_ratio;
    for (;;) {
        bnodes = s->blive ? s->bf.out.nodes : 0;
        long dnodes = settle_helper_nodes(s);
        long left = max_nodes < 0 ? -1 : max_nodes - spent - bnodes - dnodes;
        exp->crowd = !s->blive; /* best-first's tables give the proof room first */
        int r = ex_run(exp, root, s->blive ? exp->out.nodes + ratio * sch->proof_quantum : LONG_MAX, left, deadline);
        if (s->dives && s->blive && s->bf.out.nodes >= sch->late_dives_max) { /* the long dives stop first */
            s->dives = 0;
            portfolio_drop_dive(&s->pf);
        }
        if (r == EX_PAUSED && s->blive && s->bf.out.nodes >= late) {
            settle_proof_alone(s, budget, &spent);
            continue;
        }
        if (r == EX_FULL && s->blive) { /* the proof needs best-first's room */
            spent += s->bf.out.nodes;
            settle_drop_bf(s);
            budget->full = 0;
            continue;
        }
        if (r != EX_PAUSED) {
            out = exp->out;
            out.nodes += spent + (s->blive ? s->bf.out.nodes : 0) + dnodes;
            break;
        }
        left = max_nodes < 0 ? -1 : max_nodes - spent - exp->out.nodes - dnodes;
        if (bf_run(&s->bf, s->bf.out.nodes + sch->proof_quantum, left, deadline)) {
            if (s->bf.out.status == SOLVED || (s->bf.out.status == LIMIT && !budget->full)) {
                out = s->bf.out;
                out.nodes += spent + exp->out.nodes + dnodes;
                if (out.status == SOLVED) {
                    s->win = (Winner){bcfg, s->bf.nodes};
                }
                break;
            }
            settle_proof_alone(s, budget, &spent); /* it ran dry (hashed: no proof) or filled the tables */
            continue;
        }
        int gate_open = s->blive && (sch->scan_late_gate == 0 || (long)s->bf.heap.n * sch->scan_late_gate >= s->bf.out.nodes);
        if (s->pf.slive > 0 && (gate_open || (sch->scan_floor > 0 && portfolio_scanned(&s->pf) < sch->scan_floor_cap))) {
            long others = spent + exp->out.nodes + (s->blive ? s->bf.out.nodes : 0);
            long late = portfolio_scanned(&s->pf) - s->scan_base;
            long to_go = gate_open ? (others - s->others_base) * sch->scan_late_num / sch->scan_late_den - late
                                   : (others - s->others_base) / (sch->scan_floor > 0 ? sch->scan_floor : 1) - late;
            if (to_go > 0) {
                long max_scanned = max_nodes < 0 ? -1 : max_nodes - (others + settle_helper_nodes(s) - late) + s->scan_base;
                /* Past scan_late_nodes they stop (held at scan_floor_cap while the gate
                 * is shut); run dry or out of room, they prove nothing. */
                if (portfolio_scan_turn(&s->pf, bcfg, 0, max_scanned, deadline, to_go, gate_open ? sch->scan_late_nodes : sch->scan_floor_cap)) {
                    out = s->pf.scan.out;
                    out.nodes = others + settle_helper_nodes(s);
                    if (out.status == SOLVED) {
                        s->win = (Winner){&s->pf.scfg, &s->pf.snodes};
                    }
                    break;
                }
            }
        }
        if (!s->dives || (long)s->bf.heap.n * sch->late_gate < s->bf.out.nodes) continue;
        left = max_nodes < 0 ? -1 : max_nodes - spent - exp->out.nodes - s->bf.out.nodes - settle_helper_nodes(s);
        if (settle_dive_turn(s, bcfg, broot, budget->max / sch->dive_share, left, deadline,
                             sch->proof_quantum * sch->late_num / sch->late_den, &out)) {
            out.nodes = spent + exp->out.nodes + s->bf.out.nodes + settle_helper_nodes(s);
            if (out.status == SOLVED) {
                s->win = (Winner){&s->pf.dcfg, &s->pf.dnodes};
            }
            break;
        }
    }
    ex_free(exp);
    return out;
}
