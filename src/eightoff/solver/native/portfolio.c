/* The portfolio: the weighted best-first search with two helpers, run by turns.
 *
 * Most deals fall to the best-first search within a few hundred expansions, so it
 * runs alone first (SOLO expansions). Then, in one thread, it takes turns of
 * QUANTUM expansions with its helpers, which together may expand one position per
 * HELPER_RATIO of its own, DIVE_MAX at most: a greedy best-first search (weight
 * GREEDY_WEIGHT, one helper turn in GREEDY_EVERY) and a sequence of greedy
 * depth-first dives (dive.c), each stopped
 * after DIVE_NODES expansions and followed by the next. Like Freecell Solver's
 * soft threads, the dives differ in what they prefer: they cycle through
 * DIVE_KINDS (h's weights for cards in cells and for cards covering a suit's next
 * card; streamlined or not), and from the second round on a seed shuffles
 * near-ties. The first line found wins and goes through the same finish.
 *
 * Only the best-first search settles "no solution": its running dry goes on to the
 * exact proof as before, while a helper that runs dry (hashed positions; a
 * streamlined dive leaves choices out), or fills its share of the tables, stops.
 * Deals best-first ends within SOLO expansions get exactly the line they got
 * before; the others pay at most DIVE_MAX more expansions for a chance of a line
 * many times sooner.
 *
 * Part of the _native extension, built as one unit: module.c includes every file
 * (in dependency order), so all functions stay static and inline across files. */

/* Tuned on PySolFC deals 1-1000 of the standard game, Fore Cell and 2-cell
 * alternating (never on the deals the benchmark reports): see benchmarks/README.md. */
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
#define DIVE_MAX 30000 /* all helpers together, at most: then best-first alone */
#endif
#ifndef DIVE_NOISE
#define DIVE_NOISE 2.0
#endif
#ifndef HELPER_RATIO
#define HELPER_RATIO 1 /* best-first expands this many positions per helper expansion */
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
#define DIVE_SHARE 16 /* a dive's tables: at most max_bytes / DIVE_SHARE */
#define GREEDY_SHARE 4 /* the greedy search's: at most max_bytes / GREEDY_SHARE */

/* What a dive prefers: h's weight for a card in a cell and for a card over its
 * suit's next card (< 0: the rules' own), and whether it is streamlined (every
 * card that can go home goes, where the rules' autoplay is only the safe kind:
 * Solvitaire's auto-foundations; its failure proves nothing). */
typedef struct {
    double cell_w, cover_w;
    int streamlined;
} DiveKind;

static const DiveKind DIVE_KINDS[] = {
    {1.0, -1, 0}, {-1, 1.0, 1}, {-1, -1, 0}, {-1, 1.0, 0}, {-1, -1, 1}, {1.0, -1, 1},
};
#define NKINDS ((int)(sizeof DIVE_KINDS / sizeof DIVE_KINDS[0]))

typedef struct {
    BestFirst bf;
    BestFirst greedy; /* best-first again with GREEDY_WEIGHT: fewer, deeper expansions */
    Nodes gnodes;
    Budget gbudget;
    Config gcfg;
    int glive, turn;
    Dive dive; /* the current dive (one at a time, restarted with a new seed) */
    Nodes dnodes;
    Budget dbudget;
    Config dcfg;
    int restarts, live;
    long dive_nodes; /* expanded by the dives before the current one */
    const Config *win_cfg; /* the winner's config and nodes, for collect_path */
    const Nodes *win_nodes;
} Portfolio;

/* Positions expanded by all the searches so far. */
static long portfolio_nodes(const Portfolio *p) {
    return p->bf.out.nodes + p->greedy.out.nodes + p->dive_nodes + (p->live ? p->dive.out.nodes : 0);
}

static void portfolio_drop_dive(Portfolio *p) {
    if (!p->live) return;
    p->dive_nodes += p->dive.out.nodes;
    dive_free(&p->dive);
    nodes_free(&p->dnodes);
    p->live = 0;
}

static void portfolio_drop_greedy(Portfolio *p) {
    if (!p->glive) return;
    bf_free(&p->greedy);
    nodes_free(&p->gnodes);
    p->glive = 0;
}

static void portfolio_free(Portfolio *p) {
    portfolio_drop_dive(p);
    portfolio_drop_greedy(p);
}

/* The greedy search's turn: 1 when it found a line (or hit the node or time limit). */
static int portfolio_greedy_turn(Portfolio *p, const Config *cfg, const State *root, size_t share, long max_nodes,
                                 double deadline) {
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
    if (!bf_run(g, g->out.nodes + QUANTUM, left, deadline)) return 0;
    if (g->out.status == SOLVED || (g->out.status == LIMIT && !p->gbudget.full)) return 1;
    portfolio_drop_greedy(p); /* ran dry or filled its share: it proves nothing here */
    p->glive = -1;
    return 0;
}

/* The next dive: the r-th cycles through DIVE_KINDS, with seed r / NKINDS (the
 * first round in plain greedy order). */
static void portfolio_next_dive(Portfolio *p, const Config *cfg, const State *root, size_t share) {
    int r = p->restarts++;
    const DiveKind *kind = &DIVE_KINDS[r % NKINDS];
    p->dcfg = *cfg;
    if (kind->cell_w >= 0) p->dcfg.cell_w = kind->cell_w;
    if (kind->cover_w >= 0) p->dcfg.cover_w = kind->cover_w;
    if (cfg->autoplay == AUTO_SAFE && kind->streamlined) p->dcfg.autoplay = AUTO_ALL;
    p->dbudget = (Budget){0, share, 0};
    p->dnodes = (Nodes){NULL, 0, 0, &p->dbudget};
    p->live = 1;
    if (!dive_init(&p->dive, &p->dcfg, root, &p->dnodes, (uint64_t)(r / NKINDS), DIVE_NOISE)) portfolio_drop_dive(p);
}

/* Runs the portfolio from ``root`` (after its autoplay); ``tail`` 0 runs best-first
 * alone. On SOLVED, ``win_cfg`` and ``win_nodes`` name the path's search (the
 * best-first search's tables are ``nodes``, a dive's its own: portfolio_free). */
static Outcome portfolio_run(Portfolio *p, const Config *cfg, const State *root, Nodes *nodes, long max_nodes,
                             double deadline, int tail) {
    Outcome out;
    memset(p, 0, sizeof *p);
    p->win_cfg = cfg;
    p->win_nodes = nodes;
    if (bf_init(&p->bf, cfg, root, nodes)) {
        if (!bf_run(&p->bf, tail ? SOLO : LONG_MAX, max_nodes, deadline)) {
            size_t share = nodes->budget->max / DIVE_SHARE;
            for (;;) {
                /* Best-first's turn, then the dive's while the dives have spent no more
                 * than it has: a search's node limit is what the other left of max_nodes. */
                long total = portfolio_nodes(p);
                long left = max_nodes < 0 ? -1 : max_nodes - (total - p->bf.out.nodes);
                if (bf_run(&p->bf, p->bf.out.nodes + QUANTUM, left, deadline)) break;
                total = portfolio_nodes(p);
                long spent = total - p->bf.out.nodes;
                if (spent >= DIVE_MAX) { /* the helpers' share is spent: best-first alone */
                    portfolio_free(p);
                    bf_run(&p->bf, LONG_MAX, max_nodes < 0 ? -1 : max_nodes - spent, deadline);
                    break;
                }
                if (spent * HELPER_RATIO > p->bf.out.nodes - SOLO) continue;
                int greedy_turn = USE_GREEDY && (!USE_DIVES || p->turn++ % GREEDY_EVERY == 0);
                if (greedy_turn && p->glive >= 0) {
                    if (!portfolio_greedy_turn(p, cfg, root, nodes->budget->max / GREEDY_SHARE, max_nodes, deadline))
                        continue;
                    out = p->greedy.out;
                    out.nodes = portfolio_nodes(p);
                    if (out.status == SOLVED) {
                        p->win_cfg = &p->gcfg;
                        p->win_nodes = &p->gnodes;
                    }
                    bf_free(&p->bf);
                    return out;
                }
                if (!USE_DIVES) continue;
                if (!p->live) portfolio_next_dive(p, cfg, root, share);
                if (!p->live) continue;
                Dive *d = &p->dive;
                long stop = DIVE_NODES;
                left = max_nodes < 0 ? -1 : max_nodes - (total - d->out.nodes);
                long pause = d->out.nodes + QUANTUM < stop ? d->out.nodes + QUANTUM : stop;
                if (!dive_run(d, pause, left, deadline)) {
                    if (d->out.nodes >= stop) portfolio_drop_dive(p); /* its turn is over: the next seed */
                    continue;
                }
                if (d->out.status == SOLVED) {
                    out = d->out;
                    out.nodes = portfolio_nodes(p);
                    p->win_cfg = &p->dcfg;
                    p->win_nodes = &p->dnodes;
                    bf_free(&p->bf);
                    return out;
                }
                if (d->out.status == LIMIT && !p->dbudget.full) { /* the node or time limit */
                    out = d->out;
                    out.nodes = portfolio_nodes(p);
                    bf_free(&p->bf);
                    return out;
                }
                portfolio_drop_dive(p); /* ran dry or filled its share: it proves nothing */
            }
        }
    }
    out = p->bf.out;
    out.nodes = portfolio_nodes(p);
    bf_free(&p->bf);
    return out;
}
