/* A greedy depth-first dive: the portfolio's second kind of search (portfolio.c).
 *
 * From each position it tries the children best h first (h of the child itself,
 * after its autoplay), going as deep as it can before it backs up, like the
 * depth-first "soft threads" of Freecell Solver. It finds a line in few
 * expansions on deals where the best-first search wanders among many
 * near-equal positions; its lines are long (the finish shortens them) and its
 * running dry proves nothing (positions are told apart by 64-bit hashes, and a
 * streamlined config may leave moves out). A seed > 0 shuffles each node's ties
 * and near-ties, so two dives with different seeds take different paths.
 *
 * Part of the _native extension, built as one unit: module.c includes every file
 * (in dependency order), so all functions stay static and inline across files. */

/* A child waiting on the dive's stack: its move and its score (lower first). */
typedef struct {
    double key;
    Move move;
} Child;

/* One position on the dive's path: its node and its children, kids[first..first+count). */
typedef struct {
    int32_t node;
    uint32_t first, count, next;
} Frame;

typedef struct {
    Config cfg;
    const State *root;
    Nodes *nodes;
    HashSet seen;
    Frame *frames;
    size_t depth, fcap;
    Child *kids;
    size_t nkids, kcap;
    uint64_t rng;
    double noise; /* a child's score moves by up to this much (a seed > 0) */
    Outcome out;
} Dive;

/* Whether h is in the set already (hashset_add without the adding). */
static int hashset_has(const HashSet *set, uint64_t h) {
    if (h == 0) h = 1;
    size_t p = (size_t)h & set->mask;
    while (set->slots[p]) {
        if (set->slots[p] == h) return 1;
        p = (p + 1) & set->mask;
    }
    return 0;
}

static double dive_random(Dive *d) { /* uniform in [0, 1) */
    d->rng = mix64(d->rng);
    return (double)(d->rng >> 11) * (1.0 / 9007199254740992.0);
}

/* Pushes the frame of node ``here`` (state ``st``): its unseen children, best first. */
static int dive_expand(Dive *d, int32_t here, const State *st) {
    Move moves[MAXMOVES];
    uint8_t homed[52];
    double terms[NCOLS];
    State child;
    int nm = gen_moves(&d->cfg, st, moves);
    if (d->depth == d->fcap) {
        size_t cap = d->fcap ? 2 * d->fcap : 256;
        Frame *more = budget_resize(d->nodes->budget, d->frames, d->fcap * sizeof(Frame), cap * sizeof(Frame));
        if (more == NULL) return 0;
        d->frames = more;
        d->fcap = cap;
    }
    while (d->nkids + (size_t)nm > d->kcap) {
        size_t cap = d->kcap ? 2 * d->kcap : 4096;
        Child *more = budget_resize(d->nodes->budget, d->kids, d->kcap * sizeof(Child), cap * sizeof(Child));
        if (more == NULL) return 0;
        d->kids = more;
        d->kcap = cap;
    }
    Child *kids = d->kids + d->nkids;
    int n = 0;
    for (int k = 0; k < nm; k++) {
        child = *st;
        apply_move(&child, moves[k]);
        autoplay(&d->cfg, &child, homed);
        if (hashset_has(&d->seen, state_hash(&child))) continue;
        double key = full_h(&d->cfg, &child, terms);
        if (d->noise > 0) key += d->noise * dive_random(d);
        int at = n++; /* insertion sort: a position has a few dozen children */
        while (at > 0 && kids[at - 1].key > key) {
            kids[at] = kids[at - 1];
            at--;
        }
        kids[at].key = key;
        kids[at].move = moves[k];
    }
    d->frames[d->depth++] = (Frame){here, (uint32_t)d->nkids, (uint32_t)n, 0};
    d->nkids += (size_t)n;
    return 1;
}

static int dive_init(Dive *d, const Config *cfg, const State *root, Nodes *nodes, uint64_t seed, double noise) {
    memset(d, 0, sizeof *d);
    d->cfg = *cfg;
    d->root = root;
    d->nodes = nodes;
    d->rng = seed;
    d->noise = seed ? noise : 0.0;
    d->out = (Outcome){EXHAUSTED, 0, -1};
    if (!hashset_init(&d->seen, 1 << 10, nodes->budget) || add_node(nodes, root, -1, mv(-1, -1, -1, -1, 0), 0) == NULL ||
        hashset_add(&d->seen, state_hash(root)) < 0 || !dive_expand(d, 0, root)) {
        d->out.status = no_room(nodes->budget);
        return 0;
    }
    d->out.nodes = 1;
    return 1;
}

static void dive_free(Dive *d) {
    hashset_free(&d->seen);
    budget_free(d->nodes->budget, d->frames, d->fcap * sizeof(Frame));
    budget_free(d->nodes->budget, d->kids, d->kcap * sizeof(Child));
    d->frames = NULL;
    d->kids = NULL;
}

/* As bf_run: 0 when paused at ``pause_at`` expansions, 1 when the dive ended. */
static int dive_run(Dive *d, long pause_at, long max_nodes, double deadline) {
    Nodes *nodes = d->nodes;
    uint8_t homed[52];
    State st;
    while (d->depth) {
        if (d->out.nodes >= pause_at) return 0;
        Frame *f = &d->frames[d->depth - 1];
        if (f->next == f->count) { /* every child tried: back up */
            d->nkids = f->first;
            d->depth--;
            continue;
        }
        int32_t parent = f->node;
        Move m = d->kids[f->first + f->next++].move;
        unpack(&nodes->items[parent], &st);
        apply_move(&st, m);
        autoplay(&d->cfg, &st, homed);
        int fresh = hashset_add(&d->seen, state_hash(&st));
        if (fresh < 0) goto nomem;
        if (!fresh) continue;
        if (add_node(nodes, &st, parent, m, 0) == NULL) goto nomem;
        int32_t here = (int32_t)(nodes->n - 1);
        if (sum_founds(&st) == 52) {
            d->out.status = SOLVED;
            d->out.goal = here;
            return 1;
        }
        if (limit_reached(&d->out, max_nodes, deadline)) return 1;
        if (!dive_expand(d, here, &st)) goto nomem;
    }
    d->out.status = EXHAUSTED;
    return 1;
nomem:
    d->out.status = no_room(nodes->budget);
    return 1;
}
