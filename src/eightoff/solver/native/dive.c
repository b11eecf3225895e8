/* The greedy depth-first dives and Freecell Solver's move orders (see dive.h). */
#include "dive.h"
#include "position.h"

int parse_order(const char *spec, int8_t *rank) {
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

/* ---- Freecell Solver's first scan, move for move ----------------------------------
 *
 * Freecell Solver's default first scan is a depth-first search over single-card
 * ("atomic") moves, tried in its tests order ("01ABCDE"), each test's moves in the
 * order of its stored position: columns sorted (compared card by card from the
 * bottom, shorter first; a card is rank * 4 + its suit in the order hearts, clubs,
 * diamonds, spades) and the cells sorted the same way. A dive given that order
 * expands exactly the positions it checks (tests/test_native_portfolio.py holds
 * the two to the same count). Its random scans ("[01][ABCDE]" and a seed) take a
 * bracket's tests as one group, generated when the tests before it are done with,
 * and shuffle the group's moves (already-visited positions among them, as its
 * derived-states list holds them) by Fisher-Yates with its own generator (fcs_random):
 * the same count again, on 576 scans of the 24 variants. scans.c runs all the
 * depth-first scans of its preset together, one of the portfolio's helpers. */

static const uint8_t FCS_SUIT[4] = {3, 0, 2, 1}; /* our suits S, H, D, C in Freecell Solver's order */

static inline int fcs_card(int c) { return (RANK(c) + 1) * 4 + FCS_SUIT[SUIT(c)]; }

/* Columns a, b in Freecell Solver's stored order: < 0 when a comes first. */
static int fcs_column_cmp(const State *st, int a, int b) {
    int na = st->len[a], nb = st->len[b], n = na < nb ? na : nb;
    for (int k = 0; k < n; k++) {
        int d = fcs_card(st->cards[a][k]) - fcs_card(st->cards[b][k]);
        if (d) return d;
    }
    return na - nb;
}

void fcs_column_order(const State *st, int *order) {
    for (int i = 0; i < NCOLS; i++) { /* insertion sort: eight columns */
        int at = i;
        while (at > 0 && fcs_column_cmp(st, order[at - 1], i) > 0) {
            order[at] = order[at - 1];
            at--;
        }
        order[at] = i;
    }
}

void fcs_order(const State *st, FcsOrder *o) {
    int *order = o->order, *cells = o->cells, empty = -1;
    fcs_column_order(st, order);
    for (int i = 0; i < NCOLS && empty < 0; i++)
        if (st->len[i] == 0) empty = i;
    memset(o->tops, -1, sizeof o->tops);
    for (int a = 0; a < NCOLS; a++) {
        int i = order[a];
        o->place[i] = (int8_t)a;
        if (st->len[i]) o->tops[st->cards[i][st->len[i] - 1]] = (int8_t)i;
    }
    for (int k = 0; k < st->ncells; k++) {
        int at = k;
        while (at > 0 && fcs_card(cells[at - 1]) > fcs_card(st->cells[k])) {
            cells[at] = cells[at - 1];
            at--;
        }
        cells[at] = st->cells[k];
    }
    o->empty = empty;
}

/* The columns (not ``skip``) whose top ``card`` may go onto, in ``o``'s order: the
 * one or two cards it builds on, looked up (not every column's top tried). */
static int onto_columns(const Config *cfg, int card, const FcsOrder *o, int skip, int *to) {
    int r = RANK(card) + 1, n = 0, a = -1, b = -1;
    if (r == 13) return 0;
    if (cfg->suit) {
        a = o->tops[card + 1];
    } else {
        int red = is_red(card);
        a = o->tops[(red ? 0 : 13) + r];
        b = o->tops[(red ? 39 : 26) + r];
    }
    if (a == skip) a = -1;
    if (b == skip) b = -1;
    if (a >= 0 && b >= 0 && o->place[b] < o->place[a]) {
        int t = a;
        a = b;
        b = t;
    }
    if (a >= 0) to[n++] = a;
    if (b >= 0) to[n++] = b;
    return n;
}

int atomic_moves_in(const Config *cfg, const State *st, const FcsOrder *o, const char *tests, Move *out) {
    const int *order = o->order, *cells = o->cells, empty = o->empty;
    int nm = 0;
    for (const char *t = tests; *t; t++) {
        for (int a = 0; a < NCOLS; a++) {
            int i = order[a], n = st->len[i];
            if (*t == '1' || *t == 'D' || *t == 'E') break; /* the cells' tests, below */
            if (n == 0) continue;
            int top = st->cards[i][n - 1];
            if (*t == '0') {
                if (st->founds[SUIT(top)] == RANK(top)) out[nm++] = mv(COL, i, FOUND, SUIT(top), 1);
            } else if (*t == 'A') {
                if (empty >= 0 && n > 1 && starts_column(top, cfg->kings_only)) out[nm++] = mv(COL, i, COL, empty, 1);
            } else if (*t == 'B') {
                int to[2], nt = onto_columns(cfg, top, o, i, to);
                for (int x = 0; x < nt; x++) out[nm++] = mv(COL, i, COL, to[x], 1);
            } else if (st->ncells < cfg->ncells) { /* C */
                out[nm++] = mv(COL, i, CELL, -1, 1);
            }
        }
        for (int k = 0; k < st->ncells; k++) {
            int c = cells[k];
            if (*t == '1') {
                if (st->founds[SUIT(c)] == RANK(c)) out[nm++] = mv(CELL, c, FOUND, SUIT(c), 1);
            } else if (*t == 'D') {
                int to[2], nt = onto_columns(cfg, c, o, -1, to);
                for (int x = 0; x < nt; x++) out[nm++] = mv(CELL, c, COL, to[x], 1);
            } else if (*t == 'E') {
                if (empty >= 0 && starts_column(c, cfg->kings_only)) out[nm++] = mv(CELL, c, COL, empty, 1);
            }
        }
    }
    return nm;
}

static int atomic_moves(const Config *cfg, const State *st, const char *tests, Move *out) {
    FcsOrder o;
    fcs_order(st, &o);
    return atomic_moves_in(cfg, st, &o, tests, out);
}

int parse_test_groups(const char *tests, TestGroups *g) {
    memset(g, 0, sizeof *g);
    int open = 0, len = 0;
    for (const char *t = tests; *t; t++) {
        if (*t == '[' || *t == ']') {
            if ((*t == '[') == open || (*t == ']' && len == 0)) return 0;
            if (*t == '[' && len > 0) g->n++; /* the plain tests before it: a group */
            if (*t == ']') {
                int k = g->n++;
                g->random[k] = GROUP_RANDOM;
                if (strncmp(t + 1, "=rand()", 7) == 0) {
                    t += 7;
                } else if (strncmp(t + 1, "=asw(", 5) == 0) { /* up to six weights */
                    t += 6;
                    for (int w = 0;; w++) {
                        char *end;
                        double x = strtod(t, &end);
                        if (end == t || w == 6 || x < 0) return 0;
                        g->weights[k][w] = x;
                        t = end;
                        if (*t == ')') break;
                        if (*t++ != ',') return 0;
                    }
                    g->random[k] = GROUP_WEIGHED;
                }
            }
            open = *t == '[';
            len = 0;
            continue;
        }
        if (!strchr("0123456789ABCDEj", *t) || len == 15 || g->n == MAX_GROUPS) return 0;
        g->tests[g->n][len++] = *t;
    }
    if (open) return 0;
    if (len > 0) g->n++;
    return g->n > 0;
}

int atomic_tests_valid(const char *tests) {
    TestGroups g;
    if (strpbrk(tests, "23456789j") != NULL || !parse_test_groups(tests, &g)) return 0;
    for (int k = 0; k < g.n; k++)
        if (g.random[k] == GROUP_WEIGHED) return 0; /* a dive shuffles, it does not rate */
    return 1;
}

uint32_t fcs_random(int64_t *rng) {
    *rng = (int64_t)((uint64_t)*rng * 214013u + 2531011u); /* unsigned: its long wraps */
    uint32_t first = (uint32_t)(*rng >> 16) & 0x7fff;
    *rng = (int64_t)((uint64_t)*rng * 214013u + 2531011u);
    return first | (((uint32_t)(*rng >> 16) & 0x7fff) << 15);
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

/* Pushes the frame of node ``here`` (state ``st``): its unseen children, best first
 * (an atomic dive: those of its test group ``group``, shuffled if it is random). */
static int dive_expand(Dive *d, int32_t here, const State *st, int group) {
    Move moves[MAXMOVES];
    uint8_t homed[52];
    double terms[NCOLS];
    uint64_t colh[NCOLS];
    State child;
    int nm = d->atomic ? atomic_moves(&d->cfg, st, d->groups.tests[group], moves) : gen_moves(&d->cfg, st, moves);
    if (d->atomic && d->groups.random[group]) { /* Freecell Solver's shuffle, as its soft-dfs does it */
        for (int i = nm - 1; i > 0; i--) {
            int j = (int)(fcs_random(&d->fcs_rng) % (uint32_t)(i + 1));
            Move t = moves[i];
            moves[i] = moves[j];
            moves[j] = t;
        }
    }
    Frame *frames = budget_room(d->nodes->budget, d->frames, &d->fcap, d->depth + 1, 256, sizeof(Frame));
    if (frames == NULL) return 0;
    d->frames = frames;
    Child *room = budget_room(d->nodes->budget, d->kids, &d->kcap, d->nkids + (size_t)nm, 4096, sizeof(Child));
    if (room == NULL) return 0;
    d->kids = room;
    if (d->rank == NULL && d->atomic == NULL) full_h(&d->cfg, st, terms);
    for (int i = 0; i < NCOLS; i++) colh[i] = column_hash(st->cards[i], st->len[i]);
    Child *kids = d->kids + d->nkids;
    int n = 0;
    for (int k = 0; k < nm; k++) {
        child = *st;
        apply_move(&child, moves[k]);
        int nh = autoplay(&d->cfg, &child, homed);
        uint64_t hash = child_hash(st, colh, &child, moves[k]);
        if (hashset_has(&d->seen, hash)) continue;
        double key = d->atomic ? k /* Freecell Solver's order: as generated */
                     : d->rank ? d->rank[move_kind(st, moves[k])]
                               : child_h(&d->cfg, terms, &child, moves[k], nh);
        if (d->noise > 0 && d->atomic == NULL) key += d->noise * dive_random(d);
        int at = n++; /* insertion sort: a position has a few dozen children */
        while (at > 0 && kids[at - 1].key > key) {
            kids[at] = kids[at - 1];
            at--;
        }
        kids[at].key = key;
        kids[at].hash = hash;
        kids[at].move = moves[k];
    }
    d->frames[d->depth++] = (Frame){here, (uint32_t)d->nkids, (uint32_t)n, 0, group};
    d->nkids += (size_t)n;
    return 1;
}

int dive_init(Dive *d, const Config *cfg, const State *root, Nodes *nodes, uint64_t seed, double noise,
                     const int8_t *rank, const char *atomic) {
    memset(d, 0, sizeof *d);
    d->cfg = *cfg;
    d->rank = rank;
    d->atomic = atomic;
    d->fcs_rng = (int64_t)seed;
    d->nodes = nodes;
    d->rng = seed;
    d->noise = seed && atomic == NULL ? noise : 0.0;
    d->out = (Outcome){EXHAUSTED, 0, -1};
    if (atomic != NULL && !parse_test_groups(atomic, &d->groups)) return 0; /* the caller checks it first */
    /* A streamlined dive sends home more than the search that hands it ``root``: its
     * line replays from the deal with its own autoplay (collect_path), so it starts
     * from the root as its autoplay leaves it, as every position after. */
    uint8_t homed[52];
    d->root = *root;
    autoplay(&d->cfg, &d->root, homed);
    /* Freecell Solver's scan checks its root again when a line comes back to it (its
     * first check is not a visit): an atomic dive leaves the root out of its set. */
    if (!hashset_init(&d->seen, 1 << 10, nodes->budget) ||
        add_node(nodes, &d->root, -1, mv(-1, -1, -1, -1, 0), 0) == NULL ||
        (atomic == NULL && hashset_add(&d->seen, state_hash(&d->root)) < 0)) {
        d->out.status = no_room(nodes->budget);
        return 0;
    }
    d->out.nodes = 1;
    if (sum_founds(&d->root) == 52) { /* won by that autoplay alone */
        d->out.status = SOLVED;
        d->out.goal = 0;
        return 1;
    }
    if (!dive_expand(d, 0, &d->root, 0)) {
        d->out.status = no_room(nodes->budget);
        return 0;
    }
    return 1;
}

void dive_free(Dive *d) {
    hashset_free(&d->seen);
    budget_free(d->nodes->budget, d->frames, d->fcap * sizeof(Frame));
    budget_free(d->nodes->budget, d->kids, d->kcap * sizeof(Child));
    d->frames = NULL;
    d->kids = NULL;
}

int dive_run(Dive *d, long pause_at, long max_nodes, double deadline) {
    Nodes *nodes = d->nodes;
    uint8_t homed[52];
    State st;
    if (d->out.status == SOLVED) return 1; /* its root was won (dive_init) */
    while (d->depth) {
        if (d->out.nodes >= pause_at) return 0;
        Frame *f = &d->frames[d->depth - 1];
        if (f->next == f->count) { /* every child tried: the next test group, or back up */
            d->nkids = f->first;
            d->depth--;
            if (d->atomic && f->group + 1 < d->groups.n) {
                int32_t node = f->node, group = f->group + 1;
                unpack(&nodes->items[node], &st);
                if (!dive_expand(d, node, &st, group)) goto nomem;
            }
            continue;
        }
        int32_t parent = f->node;
        const Child *kid = &d->kids[f->first + f->next++];
        Move m = kid->move;
        int fresh = hashset_add(&d->seen, kid->hash); /* hashed at expansion: a seen child costs no rebuild */
        if (fresh < 0) goto nomem;
        if (!fresh) continue;
        unpack(&nodes->items[parent], &st);
        apply_move(&st, m);
        autoplay(&d->cfg, &st, homed);
        if (add_node(nodes, &st, parent, m, 0) == NULL) goto nomem;
        int32_t here = (int32_t)(nodes->n - 1);
        if (sum_founds(&st) == 52) {
            d->out.status = SOLVED;
            d->out.goal = here;
            return 1;
        }
        if (limit_reached(&d->out, max_nodes, deadline)) return 1;
        if (!dive_expand(d, here, &st, 0)) goto nomem;
    }
    d->out.status = EXHAUSTED;
    return 1;
nomem:
    d->out.status = no_room(nodes->budget);
    return 1;
}
