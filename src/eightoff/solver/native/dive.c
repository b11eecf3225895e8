/* A depth-first dive: the portfolio's second kind of search (portfolio.c).
 *
 * From each position it tries the children in order, going as deep as it can
 * before it backs up, like the depth-first "soft threads" of Freecell Solver: best
 * h first (h of the child itself, after its autoplay), or by the kind of move that
 * makes them, in an order given as Freecell Solver gives its "tests order"
 * (parse_order). It finds a line in few expansions on deals where the best-first
 * search wanders among many near-equal positions; its lines are long (the finish
 * shortens them) and its running dry proves nothing (positions are told apart by
 * 64-bit hashes, and a streamlined config may leave moves out). A seed > 0
 * shuffles each node's ties and near-ties (by h) or each bracket of kinds, so two
 * dives with different seeds take different paths.
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
    State root; /* the search's root after the dive's own autoplay */
    Nodes *nodes;
    HashSet seen;
    Frame *frames;
    size_t depth, fcap;
    Child *kids;
    size_t nkids, kcap;
    uint64_t rng;
    double noise; /* a child's score moves by up to this much (a seed > 0) */
    const int8_t *rank; /* NULL: children best h first; else by their move's kind (move_kind) */
    Outcome out;
} Dive;

/* Kinds of move, as Freecell Solver's "tests" name them: a card home (its tests 0
 * and 1), a column's cards to an empty column (A), onto another column (B), to a
 * cell (C, the dig macro too), a cell's card onto a column (D) or to an empty one
 * (E), and a card taken back from its foundation (always last). */
enum { K_HOME, K_COL_EMPTY, K_COL_COL, K_COL_CELL, K_CELL_COL, K_CELL_EMPTY, K_BACK, NMOVE_KINDS };

/* Ranks for the kinds from a test order in Freecell Solver's notation ("01ABCDE",
 * "[01][ABD][CE]": a bracket is one rank, its kinds shuffled by a seeded dive).
 * Returns 0 on a letter it does not know (or past 64 of them). Kinds left out
 * rank last. */
static int parse_order(const char *spec, int8_t *rank) {
    int r = 0, group = 0;
    for (int k = 0; k < NMOVE_KINDS; k++) rank[k] = -1;
    for (const char *c = spec; *c; c++) {
        int kind;
        if (c - spec >= 64) return 0;
        switch (*c) {
        case '[': group = 1; continue;
        case ']': group = 0; r++; continue;
        case '0': case '1': kind = K_HOME; break;
        case 'A': kind = K_COL_EMPTY; break;
        case 'B': kind = K_COL_COL; break;
        case 'C': kind = K_COL_CELL; break;
        case 'D': kind = K_CELL_COL; break;
        case 'E': kind = K_CELL_EMPTY; break;
        default: return 0;
        }
        if (rank[kind] < 0) rank[kind] = (int8_t)r;
        if (!group) r++;
    }
    for (int k = 0; k < NMOVE_KINDS; k++)
        if (rank[k] < 0) rank[k] = (int8_t)r;
    rank[K_BACK] = (int8_t)(r + 1);
    return 1;
}

static int move_kind(const State *st, Move m) {
    if (m.dk == FOUND) return K_HOME;
    if (m.sk == FOUND) return K_BACK;
    if (m.dk == CELL) return K_COL_CELL;
    int to_empty = st->len[m.di] == 0;
    if (m.sk == CELL) return to_empty ? K_CELL_EMPTY : K_CELL_COL;
    return to_empty ? K_COL_EMPTY : K_COL_COL;
}

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

/* h of ``child``, reached from a position whose h ``terms`` are given by ``m`` with ``nh`` cards sent
 * home after it: only the move's two columns change when no foundation did. Sums
 * as full_h does, so the value is the same to the last bit. */
static double child_h(const Config *cfg, const double *terms, const State *child, Move m, int nh) {
    double t[NCOLS];
    if (nh || m.sk == FOUND || m.dk == FOUND) return full_h(cfg, child, t);
    memcpy(t, terms, sizeof t);
    if (m.sk == COL) t[m.si] = column_term(cfg, child->cards[m.si], child->len[m.si], child->founds);
    if (m.dk == COL) t[m.di] = column_term(cfg, child->cards[m.di], child->len[m.di], child->founds);
    double v = 52 - sum_founds(child) + cfg->cell_w * child->ncells;
    for (int i = 0; i < NCOLS; i++) v += t[i];
    return v;
}

/* Pushes the frame of node ``here`` (state ``st``): its unseen children, best first. */
static int dive_expand(Dive *d, int32_t here, const State *st) {
    Move moves[MAXMOVES];
    uint8_t homed[52];
    double terms[NCOLS];
    uint64_t colh[NCOLS];
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
    if (d->rank == NULL) full_h(&d->cfg, st, terms);
    for (int i = 0; i < NCOLS; i++) colh[i] = column_hash(st->cards[i], st->len[i]);
    Child *kids = d->kids + d->nkids;
    int n = 0;
    for (int k = 0; k < nm; k++) {
        child = *st;
        apply_move(&child, moves[k]);
        int nh = autoplay(&d->cfg, &child, homed);
        if (hashset_has(&d->seen, child_hash(st, colh, &child, moves[k]))) continue;
        double key = d->rank ? d->rank[move_kind(st, moves[k])] : child_h(&d->cfg, terms, &child, moves[k], nh);
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

static int dive_init(Dive *d, const Config *cfg, const State *root, Nodes *nodes, uint64_t seed, double noise,
                     const int8_t *rank) {
    memset(d, 0, sizeof *d);
    d->cfg = *cfg;
    d->rank = rank;
    d->nodes = nodes;
    d->rng = seed;
    d->noise = seed ? noise : 0.0;
    d->out = (Outcome){EXHAUSTED, 0, -1};
    /* A streamlined dive sends home more than the search that hands it ``root``: its
     * line replays from the deal with its own autoplay (collect_path), so it starts
     * from the root as its autoplay leaves it, as every position after. */
    uint8_t homed[52];
    d->root = *root;
    autoplay(&d->cfg, &d->root, homed);
    if (!hashset_init(&d->seen, 1 << 10, nodes->budget) ||
        add_node(nodes, &d->root, -1, mv(-1, -1, -1, -1, 0), 0) == NULL ||
        hashset_add(&d->seen, state_hash(&d->root)) < 0) {
        d->out.status = no_room(nodes->budget);
        return 0;
    }
    d->out.nodes = 1;
    if (sum_founds(&d->root) == 52) { /* won by that autoplay alone */
        d->out.status = SOLVED;
        d->out.goal = 0;
        return 1;
    }
    if (!dive_expand(d, 0, &d->root)) {
        d->out.status = no_room(nodes->budget);
        return 0;
    }
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
    if (d->out.status == SOLVED) return 1; /* its root was won (dive_init) */
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
