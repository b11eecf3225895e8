/* The whole search of core.solve_fast: the portfolio first, then, on a deal it has
 * not settled within ``first`` expansions (FIRST unless told), best-first and the exact proof (exhaust.c)
 * by turns.
 *
 * A large deal used to be searched twice: best-first (hashed positions) until it
 * ran dry, then the exact proof over the same positions again, which also held the
 * only "no solution" answer. Past ``first``, the exact depth-first search runs beside
 * best-first instead, PROOF_RATIO expansions for each of best-first's: it finds
 * lines of its own (a depth-first scan, as Freecell Solver's), its running dry is
 * the proof, and best-first, which gets at most 1 / BF_SHARE of the tables, is
 * dropped when it fills them or when the proof needs its room.
 *
 * Part of the _native extension, built as one unit: module.c includes every file
 * (in dependency order), so all functions stay static and inline across files. */

#define FIRST 100000 /* the portfolio alone first: most deals end within this */
#ifndef PROOF_RATIO
#define PROOF_RATIO 2 /* then the proof expands this many positions per best-first one */
#endif
#define PROOF_QUANTUM 4096 /* best-first's turn, in expansions */
#define BF_SHARE 4         /* best-first's tables: at most max_bytes / BF_SHARE */

typedef struct {
    Portfolio pf;
    BestFirst bf;
    Nodes bnodes;
    Budget bbudget;
    int blive;
    Config pcfg; /* the proof side's: the refined safe autoplay (proof_config) */
    State proot; /* the root after the proof side's autoplay */
    const Config *win_cfg; /* the winner's config and nodes, for collect_path */
    const Nodes *win_nodes;
} Settle;

/* The proof side's config: in alternating colours the refined safe autoplay
 * (rules.h proven_safe_home), which sends more cards home at once and so merges
 * positions the basic rule keeps apart; the same config otherwise. */
static Config proof_config(const Config *cfg) {
    Config p = *cfg;
    if (p.autoplay == AUTO_SAFE) p.autoplay = AUTO_PROVEN;
    return p;
}

static void settle_drop_bf(Settle *s, Budget *budget) {
    if (!s->blive) return;
    bf_free(&s->bf);
    nodes_free(&s->bnodes);
    budget->max += s->bbudget.max; /* its share goes back to the proof */
    s->blive = 0;
}

static void settle_free(Settle *s, Budget *budget) {
    portfolio_free(&s->pf);
    settle_drop_bf(s, budget);
}

/* Searches from ``root`` (after its autoplay) until a line, a proof, or a limit.
 * On SOLVED, ``win_cfg`` and ``win_nodes`` name the path's search (``nodes`` for
 * the proof's or best-first's when the portfolio's, their own else: settle_free
 * after collect_path). */
static Outcome settle(Settle *s, const Config *cfg, const State *root, Nodes *nodes, long max_nodes, double deadline,
                      int tail, long first) {
    Budget *budget = nodes->budget;
    if (max_nodes >= 0 && max_nodes < first) first = max_nodes;
    memset(s, 0, sizeof *s);
    Outcome out = portfolio_run(&s->pf, cfg, root, nodes, tail ? first : max_nodes, deadline, tail);
    s->win_cfg = s->pf.win_cfg;
    s->win_nodes = s->pf.win_nodes;
    long spent = out.nodes;
    int undecided = tail && out.status == LIMIT && !budget->full && spent >= first && (max_nodes < 0 || spent < max_nodes);
    if (out.status != EXHAUSTED && !undecided) return out;
    portfolio_free(&s->pf);
    nodes->n = 0; /* the portfolio's positions: the proof starts over with exact keys */
    s->pcfg = proof_config(cfg);
    s->proot = *root;
    uint8_t homed[52];
    autoplay(&s->pcfg, &s->proot, homed);
    cfg = &s->pcfg;
    root = &s->proot;
    s->win_cfg = cfg;
    s->win_nodes = nodes;
    if (sum_founds(root) == 52) /* won by that autoplay alone */
        return add_node(nodes, root, -1, mv(-1, -1, -1, -1, 0), 0) ? (Outcome){SOLVED, spent, 0}
                                                                   : (Outcome){no_room(budget), spent, -1};
    if (out.status == EXHAUSTED) { /* hashes could (very rarely) have merged two positions */
        out = exhaust(cfg, root, nodes, max_nodes < 0 ? -1 : (max_nodes - spent > 1 ? max_nodes - spent : 1),
                      deadline);
        out.nodes += spent;
        return out;
    }
    Exhaust ex;
    size_t share = budget->max / BF_SHARE;
    budget->max -= share;
    s->bbudget = (Budget){0, share, 0};
    s->bnodes = (Nodes){NULL, 0, 0, &s->bbudget};
    s->blive = bf_init(&s->bf, cfg, root, &s->bnodes);
    if (!s->blive) {
        nodes_free(&s->bnodes);
        budget->max += share;
    }
    if (!ex_init(&ex, cfg, root, nodes)) {
        out = ex.out;
        ex_free(&ex);
        out.nodes = spent;
        return out;
    }
    for (;;) {
        long bnodes = s->blive ? s->bf.out.nodes : 0, left = max_nodes < 0 ? -1 : max_nodes - spent - bnodes;
        int r = ex_run(&ex, root, s->blive ? ex.out.nodes + PROOF_RATIO * PROOF_QUANTUM : LONG_MAX, left, deadline);
        if (r == EX_FULL && s->blive) { /* the proof needs best-first's room */
            spent += s->bf.out.nodes;
            settle_drop_bf(s, budget);
            budget->full = 0;
            continue;
        }
        if (r != EX_PAUSED) {
            out = ex.out;
            out.nodes += spent + (s->blive ? s->bf.out.nodes : 0);
            break;
        }
        left = max_nodes < 0 ? -1 : max_nodes - spent - ex.out.nodes;
        if (!bf_run(&s->bf, s->bf.out.nodes + PROOF_QUANTUM, left, deadline)) continue;
        if (s->bf.out.status == SOLVED || (s->bf.out.status == LIMIT && !s->bbudget.full)) {
            out = s->bf.out;
            out.nodes += spent + ex.out.nodes;
            if (out.status == SOLVED) s->win_nodes = &s->bnodes;
            break;
        }
        spent += s->bf.out.nodes; /* ran dry (hashed: no proof) or filled its share */
        settle_drop_bf(s, budget);
    }
    ex_free(&ex);
    return out;
}
