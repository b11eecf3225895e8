/* The search core in C: the same searches as search.py / optimal.py, ~20x faster.
 *
 * eightoff.solver._native runs :meth:`Searcher.best_first_fast` (weighted
 * best-first, positions told apart by a 64-bit order-free hash) and the A* of
 * optimal.py (single-card moves, Paul & Helmert's bound, exact keys) on the same
 * plain data and returns the same (status, steps, nodes) triples, so callers
 * cannot tell the two cores apart except by speed. The move set, its order, the
 * heuristic and the tie-breaks follow search.py line for line; read that file
 * for the why of each rule. Nothing here touches a Python object inside a
 * search: the GIL is released for the whole loop.
 *
 * State: 8 columns of card numbers (0..51 = suit*13 + rank-1, covered -> exposed),
 * the sorted cards held in cells, four foundation ranks. A move is
 * (src_kind, src, dst_kind, dst, count) with kinds COL/CELL/FOUND exactly as in
 * search.py (a cell source names its card, a foundation source its suit, a cell
 * target is -1, a foundation target the suit).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NCOLS 8
#define MAXCOL 52
#define MAXCELLS 8
#define MAXMOVES 512 /* generous: the most a position can offer is well under 200 */

enum { COL = 0, CELL = 1, FOUND = 2 };
enum { SOLVED = 0, EXHAUSTED = 1, LIMIT = 2, NOMEM = 3 };
enum { GROUP_SINGLE = 0, GROUP_CELLS = 1, GROUP_FREECELL = 2, GROUP_NONE = 3 };
enum { AUTO_NONE = 0, AUTO_ALL = 1, AUTO_SAFE = 2 };

typedef struct {
    int ncells, suit, kings_only, group, take_back, autoplay, dig;
    double weight, inv_w, cell_w, cover_w;
} Config;

typedef struct {
    int8_t sk, si, dk, di, n;
} Move;

typedef struct {
    uint8_t len[NCOLS];
    uint8_t ncells;
    uint8_t founds[4];
    uint8_t cells[MAXCELLS]; /* sorted, so cell order never matters */
    uint8_t cards[NCOLS][MAXCOL];
} State;

/* A stored position: the state packed into 52 bytes (columns in order, then the
 * cells), where it came from and by which move. */
typedef struct {
    int32_t parent;
    int32_t g;          /* A*: single-card moves from the root */
    uint8_t superseded; /* A*: reached more cheaply since (a new node holds that) */
    Move move;
    uint8_t len[NCOLS];
    uint8_t ncells;
    uint8_t founds[4];
    uint8_t cards[52];
} Node;

typedef struct {
    Node *items;
    size_t n, cap;
} Nodes;

/* ---- cards and columns -------------------------------------------------------- */

static inline int is_red(int c) { return 13 <= c && c < 39; }

static inline int builds(int card, int onto, int suit) {
    if (onto % 13 != card % 13 + 1) return 0;
    if (suit) return onto / 13 == card / 13;
    return is_red(card) != is_red(onto);
}

static int run_length(const State *st, int i, int suit) {
    int n = st->len[i];
    if (n == 0) return 0;
    const uint8_t *col = st->cards[i];
    int k = 1;
    while (k < n && builds(col[n - k], col[n - k - 1], suit)) k++;
    return k;
}

/* Alternating colours: a card is needed only as a base for the two opposite-colour
 * cards one rank lower; once both are home it never is. */
static inline int safe_home(int card, const uint8_t *f) {
    int r = card % 13;
    if (r <= 1) return 1;
    if (is_red(card)) return f[0] >= r && f[3] >= r;
    return f[1] >= r && f[2] >= r;
}

static inline int sum_founds(const State *st) {
    return st->founds[0] + st->founds[1] + st->founds[2] + st->founds[3];
}

static void cell_add(State *st, int c) {
    int k = st->ncells++;
    while (k > 0 && st->cells[k - 1] > c) { /* insertion keeps the cells sorted */
        st->cells[k] = st->cells[k - 1];
        k--;
    }
    st->cells[k] = (uint8_t)c;
}

static void cell_remove(State *st, int c) {
    int k = 0;
    while (st->cells[k] != c) k++;
    memmove(st->cells + k, st->cells + k + 1, (size_t)(st->ncells - k - 1));
    st->ncells--;
}

static void pack(const State *st, Node *node) {
    memcpy(node->len, st->len, NCOLS);
    memcpy(node->founds, st->founds, 4);
    node->ncells = st->ncells;
    uint8_t *out = node->cards;
    for (int i = 0; i < NCOLS; i++) {
        memcpy(out, st->cards[i], st->len[i]);
        out += st->len[i];
    }
    memcpy(out, st->cells, st->ncells);
}

static void unpack(const Node *node, State *st) {
    memcpy(st->len, node->len, NCOLS);
    memcpy(st->founds, node->founds, 4);
    st->ncells = node->ncells;
    const uint8_t *in = node->cards;
    for (int i = 0; i < NCOLS; i++) {
        memcpy(st->cards[i], in, st->len[i]);
        in += st->len[i];
    }
    memcpy(st->cells, in, st->ncells);
}

/* ---- hashing ------------------------------------------------------------------- */

static inline uint64_t mix64(uint64_t z) { /* SplitMix64's finaliser */
    z += 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* FNV-1a over a column's cards, then mixed with its length: the running state of a
 * prefix extends to the whole column, so a child's column hash costs only the cards
 * a move adds. */
#define FNV_START 0xCBF29CE484222325ULL

static inline uint64_t fnv_more(uint64_t h, const uint8_t *cards, int n) {
    for (int k = 0; k < n; k++) h = (h ^ cards[k]) * 0x100000001B3ULL;
    return h;
}

static inline uint64_t column_done(uint64_t h, int n) { return mix64(h ^ ((uint64_t)n << 56)); }

static uint64_t column_hash(const uint8_t *col, int n) { return column_done(fnv_more(FNV_START, col, n), n); }

static uint64_t CELL_HASH[52]; /* a cell's card's share of the hash */

static uint64_t cells_hash(const State *st) {
    uint64_t h = 0;
    for (int k = 0; k < st->ncells; k++) h += CELL_HASH[st->cells[k]];
    return h;
}

/* Order-free: a sum over columns and cells, so permuted columns hash alike. */
static uint64_t state_hash(const State *st) {
    uint64_t h = cells_hash(st);
    for (int i = 0; i < NCOLS; i++) h += column_hash(st->cards[i], st->len[i]);
    return h;
}

/* A child's hash from its parent's column hashes: autoplay only shortens columns,
 * so a column other than the move's own two changed exactly when its length did. */
static uint64_t child_hash(const State *parent, const uint64_t *colh, const State *child, Move m) {
    int i = m.sk == COL ? m.si : -1, j = m.dk == COL ? m.di : -1;
    uint64_t h = cells_hash(child);
    for (int c = 0; c < NCOLS; c++)
        h += (c == i || c == j || child->len[c] != parent->len[c]) ? column_hash(child->cards[c], child->len[c])
                                                                     : colh[c];
    return h;
}

/* Open-addressing set of 64-bit hashes (0 marks a free slot). */
typedef struct {
    uint64_t *slots;
    size_t mask, count;
} HashSet;

static int hashset_init(HashSet *set, size_t cap) {
    set->slots = calloc(cap, sizeof(uint64_t));
    set->mask = cap - 1;
    set->count = 0;
    return set->slots != NULL;
}

/* Adds h; returns 1 if it was new, 0 if present, -1 when memory ran out. */
static int hashset_add(HashSet *set, uint64_t h) {
    if (h == 0) h = 1;
    if (2 * (set->count + 1) > set->mask + 1) { /* keep the load under one half */
        size_t cap = 2 * (set->mask + 1);
        uint64_t *slots = calloc(cap, sizeof(uint64_t));
        if (slots == NULL) return -1;
        for (size_t k = 0; k <= set->mask; k++) {
            uint64_t v = set->slots[k];
            if (v) {
                size_t p = (size_t)v & (cap - 1);
                while (slots[p]) p = (p + 1) & (cap - 1);
                slots[p] = v;
            }
        }
        free(set->slots);
        set->slots = slots;
        set->mask = cap - 1;
    }
    size_t p = (size_t)h & set->mask;
    while (set->slots[p]) {
        if (set->slots[p] == h) return 0;
        p = (p + 1) & set->mask;
    }
    set->slots[p] = h;
    set->count++;
    return 1;
}

/* ---- heuristic ----------------------------------------------------------------- */

/* A column's share of h: its inversions (cards above a lower card of their suit)
 * and the cards lying over each suit's next foundation card. */
static double column_term(const Config *cfg, const uint8_t *col, int n, const uint8_t *founds) {
    int mins[4] = {99, 99, 99, 99};
    int bad = 0, cover = 0;
    for (int k = 0; k < n; k++) { /* one pass: % and / by 13 compile to multiplies */
        int c = col[k], s = c / 13;
        if (mins[s] < c)
            bad++;
        else
            mins[s] = c;
        if (c % 13 == founds[s]) cover += n - 1 - k; /* suit s's next card (each card once) */
    }
    return cfg->inv_w * bad + cfg->cover_w * cover;
}

static double full_h(const Config *cfg, const State *st, double *terms) {
    double v = 52 - sum_founds(st) + cfg->cell_w * st->ncells;
    for (int i = 0; i < NCOLS; i++) {
        terms[i] = column_term(cfg, st->cards[i], st->len[i], st->founds);
        v += terms[i];
    }
    return v;
}

/* ---- moves ------------------------------------------------------------------------- */

/* Sends home every card the rules' safe autoplay allows, repeatedly; the cards
 * sent home go to ``homed`` in order. Returns how many. */
static int autoplay(const Config *cfg, State *st, uint8_t *homed) {
    int mode = cfg->autoplay, nh = 0, changed = 0;
    if (mode == AUTO_NONE) return 0;
    /* Most positions have nothing to send home: one look at the tops and cells. */
    for (int i = 0; i < NCOLS && !changed; i++)
        if (st->len[i]) {
            int c = st->cards[i][st->len[i] - 1];
            changed = st->founds[c / 13] == c % 13;
        }
    for (int k = 0; k < st->ncells && !changed; k++) changed = st->founds[st->cells[k] / 13] == st->cells[k] % 13;
    while (changed) {
        changed = 0;
        for (int i = 0; i < NCOLS; i++) {
            while (st->len[i]) {
                int c = st->cards[i][st->len[i] - 1], s = c / 13;
                if (st->founds[s] != c % 13 || (mode == AUTO_SAFE && !safe_home(c, st->founds)))
                    break;
                st->founds[s]++;
                homed[nh++] = (uint8_t)c;
                st->len[i]--;
                changed = 1;
            }
        }
        if (st->ncells) {
            uint8_t snap[MAXCELLS];
            int m = st->ncells;
            memcpy(snap, st->cells, (size_t)m);
            for (int k = 0; k < m; k++) {
                int c = snap[k], s = c / 13;
                if (st->founds[s] == c % 13 && (mode == AUTO_ALL || safe_home(c, st->founds))) {
                    st->founds[s]++;
                    homed[nh++] = (uint8_t)c;
                    cell_remove(st, c);
                    changed = 1;
                }
            }
        }
    }
    return nh;
}

static void apply_move(State *st, Move m) {
    uint8_t moving[MAXCOL];
    int n = m.n;
    if (m.sk == COL) {
        int i = m.si;
        st->len[i] = (uint8_t)(st->len[i] - n);
        memcpy(moving, st->cards[i] + st->len[i], (size_t)n);
    } else if (m.sk == CELL) {
        moving[0] = (uint8_t)m.si;
        cell_remove(st, m.si);
    } else {
        st->founds[m.si]--;
        moving[0] = (uint8_t)(m.si * 13 + st->founds[m.si]);
    }
    if (m.dk == COL) {
        memcpy(st->cards[m.di] + st->len[m.di], moving, (size_t)n);
        st->len[m.di] = (uint8_t)(st->len[m.di] + n);
    } else if (m.dk == CELL) {
        for (int k = n - 1; k >= 0; k--) cell_add(st, moving[k]);
    } else {
        st->founds[moving[0] / 13]++;
    }
}

static inline Move mv(int sk, int si, int dk, int di, int n) {
    Move m = {(int8_t)sk, (int8_t)si, (int8_t)dk, (int8_t)di, (int8_t)n};
    return m;
}

/* Every move worth trying, in search.py's order (see Searcher.children). */
static int gen_moves(const Config *cfg, const State *st, Move *out) {
    int suit = cfg->suit, kings_only = cfg->kings_only, group = cfg->group;
    int free = cfg->ncells - st->ncells;
    int nm = 0, empty = -1, nempty = 0, cap, cap_empty;
    int8_t tops[52], next_col[4], next_at[4], located = 0;
    int top_cols[NCOLS], ntops = 0; /* columns with a top card, in column order */
    memset(tops, -1, sizeof tops);
    for (int j = 0; j < NCOLS; j++) {
        if (st->len[j]) {
            tops[st->cards[j][st->len[j] - 1]] = (int8_t)j;
            top_cols[ntops++] = j;
        } else {
            nempty++;
            if (empty < 0) empty = j;
        }
    }
    if (group == GROUP_FREECELL) {
        cap = (free + 1) << nempty;
        cap_empty = nempty ? (free + 1) << (nempty - 1) : 0;
    } else if (group == GROUP_NONE) {
        cap = cap_empty = 1;
    } else {
        cap = cap_empty = free + 1;
    }
    for (int i = 0; i < NCOLS; i++) {
        int n = st->len[i];
        if (!n) continue;
        const uint8_t *col = st->cards[i];
        int top = col[n - 1], s = top / 13;
        if (st->founds[s] == top % 13) out[nm++] = mv(COL, i, FOUND, s, 1);
        int run = run_length(st, i, suit);
        if (suit) {
            /* Only the whole same-suit run can fit on another column. */
            int head = col[n - run];
            if (run <= cap && head % 13 != 12) {
                int j = tops[head + 1];
                if (j >= 0) out[nm++] = mv(COL, i, COL, j, run);
            }
        } else {
            int trank = top % 13;
            for (int t = 0; t < ntops; t++) {
                int j = top_cols[t];
                if (j == i) continue;
                int d = st->cards[j][st->len[j] - 1];
                int k = d % 13 - trank;
                if (1 <= k && k <= run && k <= cap && is_red(col[n - k]) != is_red(d))
                    out[nm++] = mv(COL, i, COL, j, k);
            }
        }
        if (empty >= 0) {
            int top_k = run < cap_empty ? run : cap_empty;
            if (top_k > n - 1) top_k = n - 1; /* never a whole column into an empty one */
            for (int k = 1; k <= top_k; k++) {
                if (kings_only && col[n - k] % 13 != 12) continue;
                out[nm++] = mv(COL, i, COL, empty, k);
            }
        }
        if (free) {
            out[nm++] = mv(COL, i, CELL, -1, 1);
            if (cfg->dig && free > 1) {
                /* Park the d cards over a suit's next card in cells at once. */
                if (!located) { /* where each suit's next card lies: one scan per node */
                    located = 1;
                    memset(next_col, -1, sizeof next_col);
                    for (int c = 0; c < NCOLS; c++)
                        for (int x = 0; x < st->len[c]; x++) {
                            int card = st->cards[c][x];
                            if (card % 13 == st->founds[card / 13]) {
                                next_col[card / 13] = (int8_t)c;
                                next_at[card / 13] = (int8_t)x;
                            }
                        }
                }
                for (int s2 = 0; s2 < 4; s2++) {
                    int x = next_at[s2];
                    if (next_col[s2] == i && x < n - 2 && n - 1 - x <= free)
                        out[nm++] = mv(COL, i, CELL, -1, n - 1 - x);
                }
            }
        }
    }
    for (int k = 0; k < st->ncells; k++) {
        int c = st->cells[k], s = c / 13;
        if (st->founds[s] == c % 13) out[nm++] = mv(CELL, c, FOUND, s, 1);
        if (c % 13 != 12) {
            if (suit) {
                int j = tops[c + 1];
                if (j >= 0) out[nm++] = mv(CELL, c, COL, j, 1);
            } else {
                int r = c % 13 + 1;
                int d1 = is_red(c) ? r : r + 13, d2 = is_red(c) ? r + 39 : r + 26;
                if (tops[d1] >= 0) out[nm++] = mv(CELL, c, COL, tops[d1], 1);
                if (tops[d2] >= 0) out[nm++] = mv(CELL, c, COL, tops[d2], 1);
            }
        }
        if (empty >= 0 && (!kings_only || c % 13 == 12)) out[nm++] = mv(CELL, c, COL, empty, 1);
    }
    if (cfg->take_back) {
        for (int s = 0; s < 4; s++) {
            int f = st->founds[s];
            if (!f) continue;
            int c = s * 13 + f - 1;
            if (free) out[nm++] = mv(FOUND, s, CELL, -1, 1);
            for (int j = 0; j < NCOLS; j++)
                if (st->len[j] && builds(c, st->cards[j][st->len[j] - 1], suit))
                    out[nm++] = mv(FOUND, s, COL, j, 1);
            if (empty >= 0 && (!kings_only || c % 13 == 12)) out[nm++] = mv(FOUND, s, COL, empty, 1);
        }
    }
    return nm;
}

/* ---- storage ----------------------------------------------------------------------- */

static Node *nodes_push(Nodes *nodes) {
    if (nodes->n == nodes->cap) {
        size_t cap = nodes->cap ? 2 * nodes->cap : 256;
        Node *items = realloc(nodes->items, cap * sizeof(Node));
        if (items == NULL) return NULL;
        nodes->items = items;
        nodes->cap = cap;
    }
    return &nodes->items[nodes->n++];
}

/* A best-first open-list entry: a child not built yet (its parent's node and the
 * move), ordered by f, then by push order (FIFO ties, as heapq's counter). */
typedef struct {
    double f;
    uint32_t counter;
    int32_t parent; /* -1: the root itself */
    uint16_t g;
    Move move;
} Entry;

typedef struct {
    Entry *items;
    size_t n, cap;
} Heap;

static inline int entry_less(const Entry *a, const Entry *b) {
    return a->f < b->f || (a->f == b->f && a->counter < b->counter);
}

static int heap_push(Heap *heap, Entry e) {
    if (heap->n == heap->cap) {
        size_t cap = heap->cap ? 2 * heap->cap : 1024;
        Entry *items = realloc(heap->items, cap * sizeof(Entry));
        if (items == NULL) return 0;
        heap->items = items;
        heap->cap = cap;
    }
    size_t k = heap->n++;
    Entry *a = heap->items;
    while (k > 0) {
        size_t p = (k - 1) / 2;
        if (!entry_less(&e, &a[p])) break;
        a[k] = a[p];
        k = p;
    }
    a[k] = e;
    return 1;
}

static Entry heap_pop(Heap *heap) {
    Entry *a = heap->items;
    Entry top = a[0], last = a[--heap->n];
    size_t n = heap->n, k = 0;
    for (;;) {
        size_t c = 2 * k + 1;
        if (c >= n) break;
        if (c + 1 < n && entry_less(&a[c + 1], &a[c])) c++;
        if (!entry_less(&a[c], &last)) break;
        a[k] = a[c];
        k = c;
    }
    if (n) a[k] = last;
    return top;
}

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- weighted best-first ---------------------------------------------------------- */

typedef struct {
    int status;
    long nodes;
    int32_t goal; /* node index of the won position */
} Outcome;

static Outcome best_first(const Config *cfg, const State *root, Nodes *nodes, long max_nodes,
                          double deadline) {
    Outcome out = {EXHAUSTED, 0, -1};
    Heap heap = {NULL, 0, 0};
    HashSet seen;
    Move moves[MAXMOVES];
    uint8_t homed[52];
    double terms[NCOLS];
    uint64_t colh[NCOLS], prefix[NCOLS][MAXCOL + 1];
    uint32_t counter = 0;
    State st, child;
    if (!hashset_init(&seen, 1 << 10)) {
        out.status = NOMEM;
        return out;
    }
    Node *first = nodes_push(nodes);
    if (first == NULL) goto nomem;
    first->parent = -1;
    first->move = mv(-1, -1, -1, -1, 0);
    pack(root, first);
    hashset_add(&seen, state_hash(root));
    Entry e0 = {0.0, 0, -1, 0, mv(-1, -1, -1, -1, 0)};
    if (!heap_push(&heap, e0)) goto nomem;
    while (heap.n) {
        Entry e = heap_pop(&heap);
        int32_t here;
        if (e.parent < 0) {
            st = *root;
            here = 0;
        } else {
            unpack(&nodes->items[e.parent], &st);
            apply_move(&st, e.move);
            if (autoplay(cfg, &st, homed)) {
                /* The pushed hash was of the position before autoplay. */
                int fresh = hashset_add(&seen, state_hash(&st));
                if (fresh < 0) goto nomem;
                if (!fresh) continue;
            }
            Node *node = nodes_push(nodes);
            if (node == NULL) goto nomem;
            here = (int32_t)(nodes->n - 1);
            node->parent = e.parent;
            node->move = e.move;
            pack(&st, node);
            if (sum_founds(&st) == 52) {
                out.status = SOLVED;
                out.goal = here;
                break;
            }
        }
        out.nodes++;
        if (max_nodes >= 0 && out.nodes > max_nodes) {
            out.status = LIMIT;
            out.nodes--;
            break;
        }
        if (deadline >= 0 && !(out.nodes & 255) && now_seconds() > deadline) {
            out.status = LIMIT;
            break;
        }
        double hv = full_h(cfg, &st, terms);
        uint64_t x = cells_hash(&st);
        for (int i = 0; i < NCOLS; i++) { /* each column's running FNV state, per prefix */
            prefix[i][0] = FNV_START;
            for (int k = 0; k < st.len[i]; k++) prefix[i][k + 1] = fnv_more(prefix[i][k], &st.cards[i][k], 1);
            x += colh[i] = column_done(prefix[i][st.len[i]], st.len[i]);
        }
        int nm = gen_moves(cfg, &st, moves);
        for (int k = 0; k < nm; k++) {
            /* The child is not built: its hash and h come from the parent's columns and
             * the cards that move (most children are seen already or never popped). */
            Move m = moves[k];
            int i = m.sk == COL ? m.si : -1, j = m.dk == COL ? m.di : -1, n = m.n;
            uint8_t one;
            const uint8_t *moving = &one;
            if (i >= 0)
                moving = st.cards[i] + st.len[i] - n;
            else if (m.sk == CELL)
                one = (uint8_t)m.si;
            else
                one = (uint8_t)(m.si * 13 + st.founds[m.si] - 1);
            uint64_t y = x;
            if (i >= 0) y += column_done(prefix[i][st.len[i] - n], st.len[i] - n) - colh[i];
            if (j >= 0)
                y += column_done(fnv_more(prefix[j][st.len[j]], moving, n), st.len[j] + n) - colh[j];
            if (m.sk == CELL) y -= CELL_HASH[one];
            if (m.dk == CELL)
                for (int c = 0; c < n; c++) y += CELL_HASH[moving[c]];
            int fresh = hashset_add(&seen, y);
            if (fresh < 0) goto nomem;
            if (!fresh) continue;
            int cost = e.g + (m.dk == CELL ? n : 2 * n - 1);
            double h2, bonus = 0;
            if (m.sk == FOUND || m.dk == FOUND) { /* the foundations changed: all of h */
                double t2[NCOLS];
                child = st;
                apply_move(&child, m);
                h2 = full_h(cfg, &child, t2);
            } else {
                h2 = hv + cfg->cell_w * (m.dk == CELL ? n : -1 * (m.sk == CELL));
                if (i >= 0) {
                    int left = st.len[i] - n;
                    h2 += column_term(cfg, st.cards[i], left, st.founds) - terms[i];
                    if (cfg->autoplay && left) {
                        /* The card this move exposes will go home: rank it a card better. */
                        int t = st.cards[i][left - 1];
                        if (st.founds[t / 13] == t % 13 && (cfg->autoplay == AUTO_ALL || safe_home(t, st.founds)))
                            bonus = 1;
                    }
                }
                if (j >= 0) {
                    uint8_t col[2 * MAXCOL];
                    memcpy(col, st.cards[j], st.len[j]);
                    memcpy(col + st.len[j], moving, (size_t)n);
                    h2 += column_term(cfg, col, st.len[j] + n, st.founds) - terms[j];
                }
            }
            Entry c = {cost + cfg->weight * (h2 - bonus), ++counter, here, (uint16_t)cost, m};
            if (!heap_push(&heap, c)) goto nomem;
        }
    }
    free(heap.items);
    free(seen.slots);
    return out;
nomem:
    free(heap.items);
    free(seen.slots);
    out.status = NOMEM;
    return out;
}

/* ---- exact keys ---------------------------------------------------------------------- */

/* Same position up to column and cell order. Cells are kept sorted; a non-empty
 * column is named by its bottom card (every card is unique), so the columns match
 * when each of a's has an equal column in b with that bottom card. */
static int same_position(const State *a, const State *b) {
    if (memcmp(a->founds, b->founds, 4) || a->ncells != b->ncells ||
        memcmp(a->cells, b->cells, a->ncells))
        return 0;
    for (int i = 0; i < NCOLS; i++) {
        int n = a->len[i];
        if (!n) continue;
        int j = 0;
        while (j < NCOLS && !(b->len[j] && b->cards[j][0] == a->cards[i][0])) j++;
        if (j == NCOLS || b->len[j] != n || memcmp(a->cards[i], b->cards[j], (size_t)n)) return 0;
    }
    return 1; /* equal foundations and cells: both hold the same number of column cards */
}

/* Hash -> node index; equal hashes are told apart by same_position, so a hit is
 * exact and "no solution" from a search over this map is a proof. */
typedef struct {
    uint64_t hash;
    int32_t node; /* -1: free */
} Slot;

typedef struct {
    Slot *slots;
    size_t mask, count;
} ExactMap;

static int exactmap_init(ExactMap *map, size_t cap) {
    map->slots = malloc(cap * sizeof(Slot));
    if (map->slots == NULL) return 0;
    for (size_t k = 0; k < cap; k++) map->slots[k].node = -1;
    map->mask = cap - 1;
    map->count = 0;
    return 1;
}

/* The slot holding ``st`` (node >= 0) or the free slot where it belongs (node -1). */
static Slot *exactmap_find(const ExactMap *map, const Nodes *nodes, const State *st, uint64_t h) {
    State other;
    size_t p = (size_t)h & map->mask;
    for (;;) {
        Slot *slot = &map->slots[p];
        if (slot->node < 0) return slot;
        if (slot->hash == h) {
            unpack(&nodes->items[slot->node], &other);
            if (same_position(st, &other)) return slot;
        }
        p = (p + 1) & map->mask;
    }
}

/* Room for one more entry (call before exactmap_find for an insert); 0 when out of memory. */
static int exactmap_reserve(ExactMap *map) {
    if (2 * (map->count + 1) <= map->mask + 1) return 1;
    size_t cap = 2 * (map->mask + 1);
    Slot *slots = malloc(cap * sizeof(Slot));
    if (slots == NULL) return 0;
    for (size_t k = 0; k < cap; k++) slots[k].node = -1;
    for (size_t k = 0; k <= map->mask; k++) {
        Slot s = map->slots[k];
        if (s.node >= 0) {
            size_t p = (size_t)s.hash & (cap - 1);
            while (slots[p].node >= 0) p = (p + 1) & (cap - 1);
            slots[p] = s;
        }
    }
    free(map->slots);
    map->slots = slots;
    map->mask = cap - 1;
    return 1;
}

static Node *add_node(Nodes *nodes, const State *st, int32_t parent, Move move, int32_t g) {
    Node *node = nodes_push(nodes);
    if (node == NULL) return NULL;
    node->parent = parent;
    node->g = g;
    node->superseded = 0;
    node->move = move;
    pack(st, node);
    return node;
}

/* ---- the proof: depth-first over every reachable position, exact keys ----------------- */

static Outcome exhaust(const Config *cfg, const State *root, Nodes *nodes, long max_nodes,
                       double deadline) {
    Outcome out = {EXHAUSTED, 0, -1};
    ExactMap map;
    Move moves[MAXMOVES];
    uint8_t homed[52];
    State st, child;
    uint64_t colh[NCOLS];
    int32_t *stack = NULL;
    size_t depth = 0, cap = 0;
    if (!exactmap_init(&map, 1 << 10)) {
        out.status = NOMEM;
        return out;
    }
    if (add_node(nodes, root, -1, mv(-1, -1, -1, -1, 0), 0) == NULL) goto nomem;
    Slot *slot = exactmap_find(&map, nodes, root, state_hash(root));
    slot->hash = state_hash(root);
    slot->node = 0;
    map.count = 1;
    stack = malloc(1024 * sizeof(int32_t));
    if (stack == NULL) goto nomem;
    cap = 1024;
    stack[depth++] = 0;
    while (depth) {
        int32_t here = stack[--depth];
        unpack(&nodes->items[here], &st);
        for (int c = 0; c < NCOLS; c++) colh[c] = column_hash(st.cards[c], st.len[c]);
        out.nodes++;
        if (max_nodes >= 0 && out.nodes > max_nodes) {
            out.status = LIMIT;
            out.nodes--;
            break;
        }
        if (deadline >= 0 && !(out.nodes & 255) && now_seconds() > deadline) {
            out.status = LIMIT;
            break;
        }
        int nm = gen_moves(cfg, &st, moves);
        for (int k = 0; k < nm; k++) {
            child = st;
            apply_move(&child, moves[k]);
            autoplay(cfg, &child, homed);
            uint64_t h = child_hash(&st, colh, &child, moves[k]);
            if (!exactmap_reserve(&map)) goto nomem;
            slot = exactmap_find(&map, nodes, &child, h);
            if (slot->node >= 0) continue;
            if (add_node(nodes, &child, here, moves[k], 0) == NULL) goto nomem;
            slot->hash = h;
            slot->node = (int32_t)(nodes->n - 1);
            map.count++;
            if (sum_founds(&child) == 52) {
                out.status = SOLVED;
                out.goal = slot->node;
                goto done;
            }
            if (depth == cap) {
                int32_t *more = realloc(stack, 2 * cap * sizeof(int32_t));
                if (more == NULL) goto nomem;
                stack = more;
                cap *= 2;
            }
            stack[depth++] = slot->node;
        }
    }
done:
    free(stack);
    free(map.slots);
    return out;
nomem:
    free(stack);
    free(map.slots);
    out.status = NOMEM;
    return out;
}

/* ---- optimal: A* over single-card moves with Paul & Helmert's bound --------------------- */

/* SUIT_FROM[c]: the bits of card c and the higher cards of its suit. */
static uint64_t SUIT_FROM[52];

typedef struct {
    int card;
    uint64_t waits, above;
} Item;

/* A column's share of the bound (optimal.column_info): how many of its cards must
 * move twice, and an Item for every other card with cards beneath it. */
typedef struct {
    int forced, n;
    Item items[MAXCOL];
} ColumnInfo;

static uint64_t SUIT_BITS[4]; /* all 13 bits of a suit */

static void column_info(const uint8_t *col, int len, ColumnInfo *info) {
    int low[4] = {99, 99, 99, 99}, any = 0;
    uint64_t waits = 0, above = 0; /* kept up to date as the lowest cards change */
    info->forced = info->n = 0;
    for (int k = 0; k < len; k++) {
        int c = col[k], s = c / 13;
        if (low[s] < c) {
            info->forced++;
        } else if (any) {
            Item *item = &info->items[info->n++];
            item->card = c;
            item->waits = waits;
            item->above = above;
        }
        if (c < low[s]) {
            low[s] = c;
            any = 1;
            waits |= SUIT_FROM[c]; /* a lower card of a suit: a superset of its bits */
            above = (above & ~SUIT_BITS[s]) | (SUIT_FROM[c] & ~(1ULL << c));
        }
    }
}

/* optimal.py's lower_bound: one move per card not home, one more per card above a
 * lower card of its suit, and one per pair in a greedy packing of two-card cycles. */
static int bound_of(int home, const ColumnInfo *const *infos) {
    const Item *items[52];
    int n = 0, v = 52 - home;
    for (int i = 0; i < NCOLS; i++) {
        v += infos[i]->forced;
        for (int k = 0; k < infos[i]->n; k++) items[n++] = &infos[i]->items[k];
    }
    uint8_t used[52] = {0};
    for (int i = 0; i < n; i++) {
        if (used[i]) continue;
        for (int j = i + 1; j < n; j++) {
            if (used[j]) continue;
            if ((items[i]->waits >> items[j]->card) & 1 && (items[j]->above >> items[i]->card) & 1) {
                used[i] = used[j] = 1;
                v++;
                break;
            }
        }
    }
    return v;
}

static int lower_bound(const State *st, ColumnInfo *infos) {
    const ColumnInfo *use[NCOLS];
    for (int i = 0; i < NCOLS; i++) {
        column_info(st->cards[i], st->len[i], &infos[i]);
        use[i] = &infos[i];
    }
    return bound_of(sum_founds(st), use);
}

/* A child's bound from its parent's column infos (only changed columns recomputed,
 * as in child_hash). */
static int child_bound(const State *parent, const ColumnInfo *infos, const State *child, Move m,
                       ColumnInfo *scratch) {
    const ColumnInfo *use[NCOLS];
    int i = m.sk == COL ? m.si : -1, j = m.dk == COL ? m.di : -1;
    for (int c = 0; c < NCOLS; c++) {
        if (c == i || c == j || child->len[c] != parent->len[c]) {
            column_info(child->cards[c], child->len[c], &scratch[c]);
            use[c] = &scratch[c];
        } else {
            use[c] = &infos[c];
        }
    }
    return bound_of(sum_founds(child), use);
}

/* An A* open-list entry: ordered by f, ties to the deeper node, then FIFO. */
typedef struct {
    int32_t f, g;
    uint32_t counter;
    int32_t node;
} AEntry;

typedef struct {
    AEntry *items;
    size_t n, cap;
} AHeap;

static inline int aentry_less(const AEntry *a, const AEntry *b) {
    if (a->f != b->f) return a->f < b->f;
    if (a->g != b->g) return a->g > b->g;
    return a->counter < b->counter;
}

static int aheap_push(AHeap *heap, AEntry e) {
    if (heap->n == heap->cap) {
        size_t cap = heap->cap ? 2 * heap->cap : 1024;
        AEntry *items = realloc(heap->items, cap * sizeof(AEntry));
        if (items == NULL) return 0;
        heap->items = items;
        heap->cap = cap;
    }
    size_t k = heap->n++;
    AEntry *a = heap->items;
    while (k > 0) {
        size_t p = (k - 1) / 2;
        if (!aentry_less(&e, &a[p])) break;
        a[k] = a[p];
        k = p;
    }
    a[k] = e;
    return 1;
}

static AEntry aheap_pop(AHeap *heap) {
    AEntry *a = heap->items;
    AEntry top = a[0], last = a[--heap->n];
    size_t n = heap->n, k = 0;
    for (;;) {
        size_t c = 2 * k + 1;
        if (c >= n) break;
        if (c + 1 < n && aentry_less(&a[c + 1], &a[c])) c++;
        if (!aentry_less(&a[c], &last)) break;
        a[k] = a[c];
        k = c;
    }
    if (n) a[k] = last;
    return top;
}

/* ``root`` is after autoplay, ``g0`` the cards that autoplay sent home. With
 * ``below`` >= 0 only solutions shorter than it are sought. A position reached
 * again more cheaply gets a new node (its stale entries are skipped), so every
 * node's state is exactly its parent's plus its move. */
static Outcome astar(const Config *cfg, const State *root, int g0, Nodes *nodes, long max_nodes,
                     double deadline, int below) {
    Outcome out = {EXHAUSTED, 0, -1};
    AHeap heap = {NULL, 0, 0};
    ExactMap map;
    Move moves[MAXMOVES];
    uint8_t homed[52];
    State st, child;
    uint64_t colh[NCOLS];
    ColumnInfo infos[NCOLS], scratch[NCOLS];
    uint32_t counter = 0;
    if (!exactmap_init(&map, 1 << 10)) {
        out.status = NOMEM;
        return out;
    }
    if (add_node(nodes, root, -1, mv(-1, -1, -1, -1, 0), g0) == NULL) goto nomem;
    uint64_t h0 = state_hash(root);
    Slot *slot = exactmap_find(&map, nodes, root, h0);
    slot->hash = h0;
    slot->node = 0;
    map.count = 1;
    AEntry e0 = {g0 + lower_bound(root, infos), g0, 0, 0};
    if (!aheap_push(&heap, e0)) goto nomem;
    while (heap.n) {
        AEntry e = aheap_pop(&heap);
        Node *node = &nodes->items[e.node];
        if (node->superseded) continue; /* reached more cheaply since */
        unpack(node, &st);
        for (int c = 0; c < NCOLS; c++) {
            colh[c] = column_hash(st.cards[c], st.len[c]);
            column_info(st.cards[c], st.len[c], &infos[c]);
        }
        if (sum_founds(&st) == 52) {
            out.status = SOLVED;
            out.goal = e.node;
            break;
        }
        out.nodes++;
        if (max_nodes >= 0 && out.nodes > max_nodes) {
            out.status = LIMIT;
            out.nodes--;
            break;
        }
        if (deadline >= 0 && !(out.nodes & 255) && now_seconds() > deadline) {
            out.status = LIMIT;
            break;
        }
        int nm = gen_moves(cfg, &st, moves);
        for (int k = 0; k < nm; k++) {
            child = st;
            apply_move(&child, moves[k]);
            int g2 = e.g + 1 + autoplay(cfg, &child, homed);
            if (below >= 0 && g2 >= below) continue; /* no shorter solution through it */
            uint64_t h = child_hash(&st, colh, &child, moves[k]);
            if (!exactmap_reserve(&map)) goto nomem;
            slot = exactmap_find(&map, nodes, &child, h);
            if (slot->node >= 0 && nodes->items[slot->node].g <= g2) continue;
            int f = g2 + child_bound(&st, infos, &child, moves[k], scratch);
            if (below >= 0 && f >= below) continue; /* its bound says none shorter */
            int32_t old = slot->node;
            if (add_node(nodes, &child, e.node, moves[k], g2) == NULL) goto nomem;
            if (old >= 0)
                nodes->items[old].superseded = 1;
            else
                map.count++;
            slot->hash = h;
            slot->node = (int32_t)(nodes->n - 1);
            AEntry c = {f, g2, ++counter, slot->node};
            if (!aheap_push(&heap, c)) goto nomem;
        }
    }
    free(heap.items);
    free(map.slots);
    return out;
nomem:
    free(heap.items);
    free(map.slots);
    out.status = NOMEM;
    return out;
}

/* ---- from search steps to the engine's moves, shortened (convert.py, shorten.py) ------ */

/* The engine's view: cells have places (-1: empty), columns keep their order. A
 * line move is the engine's (src_kind, src, dst_kind, dst, count): a cell is named
 * by its index, a foundation source by its suit, a foundation target is -1. */
typedef struct {
    uint8_t len[NCOLS];
    uint8_t cards[NCOLS][MAXCOL];
    int8_t cells[MAXCELLS];
    uint8_t founds[4];
} EState;

typedef struct {
    Move *items;
    int n, cap;
} Line;

static int line_push(Line *line, Move m) {
    if (line->n == line->cap) {
        int cap = line->cap ? 2 * line->cap : 256;
        Move *items = realloc(line->items, (size_t)cap * sizeof(Move));
        if (items == NULL) return 0;
        line->items = items;
        line->cap = cap;
    }
    line->items[line->n++] = m;
    return 1;
}

static int single_card_length(const Move *moves, int n) {
    int total = 0;
    for (int k = 0; k < n; k++) total += 2 * moves[k].n - 1;
    return total;
}

static int to_cell(EState *es, int ncells, int card) {
    int k = 0;
    while (k < ncells && es->cells[k] >= 0) k++;
    es->cells[k] = (int8_t)card;
    return k;
}

static int from_cell(EState *es, int ncells, int card) {
    int k = 0;
    while (k < ncells && es->cells[k] != card) k++;
    es->cells[k] = -1;
    return k;
}

/* convert.engine_moves: search steps -> engine moves, played on ``es``. Under
 * one-card-per-move rules a run of n parks n - 1 cards in cells, moves its head and
 * brings the parked cards back; autoplay's cards become foundation moves. */
static int expand_steps(const Config *cfg, EState *es, const Move *steps, const uint8_t *autos,
                        const int *nautos, int nsteps, Line *line) {
    int single = cfg->group == GROUP_SINGLE, nc = cfg->ncells;
    const uint8_t *homed = autos;
    for (int k = 0; k < nsteps; k++) {
        Move s = steps[k];
        if (s.sk >= 0) {
            uint8_t moving[MAXCOL];
            int n = s.n, src_kind = s.sk, src = s.si;
            if (s.sk == COL) {
                es->len[s.si] = (uint8_t)(es->len[s.si] - n);
                memcpy(moving, es->cards[s.si] + es->len[s.si], (size_t)n);
            } else if (s.sk == CELL) {
                moving[0] = (uint8_t)s.si;
                src = from_cell(es, nc, s.si);
            } else {
                es->founds[s.si]--;
                moving[0] = (uint8_t)(s.si * 13 + es->founds[s.si]);
            }
            if (s.dk == COL) {
                if (n > 1 && single) {
                    int parked[MAXCOL];
                    for (int p = 0; p < n - 1; p++) { /* the top card first */
                        parked[p] = to_cell(es, nc, moving[n - 1 - p]);
                        if (!line_push(line, mv(src_kind, src, CELL, parked[p], 1))) return 0;
                    }
                    if (!line_push(line, mv(src_kind, src, COL, s.di, 1))) return 0;
                    for (int p = n - 2; p >= 0; p--) {
                        if (!line_push(line, mv(CELL, parked[p], COL, s.di, 1))) return 0;
                        es->cells[parked[p]] = -1;
                    }
                } else if (!line_push(line, mv(src_kind, src, COL, s.di, n))) {
                    return 0;
                }
                memcpy(es->cards[s.di] + es->len[s.di], moving, (size_t)n);
                es->len[s.di] = (uint8_t)(es->len[s.di] + n);
            } else if (s.dk == CELL) { /* one card, or the n cards of a dig, top card first */
                for (int p = n - 1; p >= 0; p--)
                    if (!line_push(line, mv(src_kind, src, CELL, to_cell(es, nc, moving[p]), 1))) return 0;
            } else {
                es->founds[moving[0] / 13]++;
                if (!line_push(line, mv(src_kind, src, FOUND, -1, 1))) return 0;
            }
        }
        for (int a = 0; a < nautos[k]; a++) {
            int c = homed[a], j = 0, at;
            es->founds[c / 13]++;
            for (at = 0; at < nc; at++)
                if (es->cells[at] == c) break;
            if (at < nc) {
                es->cells[at] = -1;
                if (!line_push(line, mv(CELL, at, FOUND, -1, 1))) return 0;
            } else {
                while (!(es->len[j] && es->cards[j][es->len[j] - 1] == c)) j++;
                es->len[j]--;
                if (!line_push(line, mv(COL, j, FOUND, -1, 1))) return 0;
            }
        }
        homed += nautos[k];
    }
    return 1;
}

/* shorten._Checker.play: plays ``m`` on ``es`` if the engine would allow it. */
static int engine_play(const Config *cfg, EState *es, Move m) {
    int nc = cfg->ncells, card;
    if (m.n > 1) { /* a run between columns (group moves) */
        int si = m.si, di = m.di, n = m.n, len = es->len[si];
        if (m.sk != COL || m.dk != COL || si == di || len < n || cfg->group == GROUP_SINGLE) return 0;
        const uint8_t *run = es->cards[si] + len - n;
        for (int k = 0; k + 1 < n; k++)
            if (!builds(run[k + 1], run[k], cfg->suit)) return 0;
        int free = 0, empty = 0, cap;
        for (int k = 0; k < nc; k++) free += es->cells[k] < 0;
        for (int j = 0; j < NCOLS; j++) empty += !es->len[j];
        if (cfg->group == GROUP_CELLS)
            cap = free + 1;
        else
            cap = (free + 1) << (empty - (es->len[di] ? 0 : 1));
        if (n > cap) return 0;
        if (es->len[di]) {
            if (!builds(run[0], es->cards[di][es->len[di] - 1], cfg->suit)) return 0;
        } else if ((cfg->kings_only && run[0] % 13 != 12) || n == len) {
            return 0;
        }
        memcpy(es->cards[di] + es->len[di], run, (size_t)n);
        es->len[di] = (uint8_t)(es->len[di] + n);
        es->len[si] = (uint8_t)(len - n);
        return 1;
    }
    if (m.sk == COL) {
        if (!es->len[m.si]) return 0;
        card = es->cards[m.si][es->len[m.si] - 1];
    } else if (m.sk == CELL) {
        card = es->cells[m.si];
        if (card < 0) return 0;
    } else {
        if (!es->founds[m.si]) return 0;
        card = m.si * 13 + es->founds[m.si] - 1;
    }
    if (m.dk == FOUND) {
        if (m.sk == FOUND || es->founds[card / 13] != card % 13) return 0;
        es->founds[card / 13]++;
    } else if (m.dk == CELL) {
        if (m.sk == CELL || es->cells[m.di] >= 0) return 0; /* the engine has no cell-to-cell moves */
        es->cells[m.di] = (int8_t)card;
    } else {
        int di = m.di;
        if (m.sk == COL && m.si == di) return 0;
        if (es->len[di]) {
            if (!builds(card, es->cards[di][es->len[di] - 1], cfg->suit)) return 0;
        } else if ((cfg->kings_only && card % 13 != 12) || (m.sk == COL && es->len[m.si] == 1)) {
            return 0; /* the engine never moves a whole column into an empty one */
        }
        es->cards[di][es->len[di]++] = (uint8_t)card;
    }
    if (m.sk == COL)
        es->len[m.si]--;
    else if (m.sk == CELL)
        es->cells[m.si] = -1;
    else
        es->founds[m.si]--;
    return 1;
}

static int estate_equal(const EState *a, const EState *b, int nc) {
    if (memcmp(a->len, b->len, NCOLS) || memcmp(a->founds, b->founds, 4) || memcmp(a->cells, b->cells, (size_t)nc))
        return 0;
    for (int i = 0; i < NCOLS; i++)
        if (memcmp(a->cards[i], b->cards[i], a->len[i])) return 0;
    return 1;
}

static int replays(const Config *cfg, EState *es, const Move *line, int lo, int hi) {
    for (int k = lo; k < hi; k++)
        if (!engine_play(cfg, es, line[k])) return 0;
    return 1;
}

/* shorten._first_edit: the first merge of a card's two moves (by the earlier one)
 * that leaves the position after the later one unchanged. Returns 1 and rewrites
 * ``line`` in place when it finds one; -1 when out of memory. */
static int first_edit(const Config *cfg, const EState *start, Line *line) {
    int n = line->n, nc = cfg->ncells;
    Move *ms = line->items;
    EState *states = malloc((size_t)(n + 1) * sizeof(EState));
    uint8_t *first = malloc((size_t)n + 1); /* the bottom card each move carries */
    if (states == NULL || first == NULL) {
        free(states);
        free(first);
        return -1;
    }
    int last[52]; /* card -> index of its latest move so far */
    for (int c = 0; c < 52; c++) last[c] = -1;
    states[0] = *start;
    for (int k = 0; k < n; k++) {
        states[k + 1] = states[k];
        EState *es = &states[k + 1];
        if (ms[k].sk == COL)
            first[k] = es->cards[ms[k].si][es->len[ms[k].si] - ms[k].n];
        else if (ms[k].sk == CELL)
            first[k] = (uint8_t)es->cells[ms[k].si];
        else
            first[k] = (uint8_t)(ms[k].si * 13 + es->founds[ms[k].si] - 1);
        engine_play(cfg, es, ms[k]); /* the line replays: it came from the engine's rules */
    }
    int found = 0;
    EState trial;
    for (int b = 0; b < n && !found; b++) {
        int a = last[first[b]];
        for (int c = 0; c < ms[b].n; c++) {
            const EState *es = &states[b];
            int card = ms[b].sk == COL ? es->cards[ms[b].si][es->len[ms[b].si] - ms[b].n + c] : first[b];
            last[card] = b;
        }
        if (a < 0) continue;
        Move ma = ms[a], mb = ms[b];
        /* Only a lone card's two moves merge; take-backs and runs stay as they are. */
        if (ma.n > 1 || mb.n > 1 || ma.dk == FOUND || ma.sk == FOUND || mb.sk == FOUND) continue;
        const EState *after = &states[b + 1];
        if (ma.sk == mb.dk && ma.si == mb.di) {
            /* A round trip: does the line work with the card never leaving? */
            trial = states[a];
            if (replays(cfg, &trial, ms, a + 1, b) && estate_equal(&trial, after, nc)) {
                memmove(ms + b, ms + b + 1, (size_t)(n - b - 1) * sizeof(Move));
                memmove(ms + a, ms + a + 1, (size_t)(n - a - 2) * sizeof(Move));
                line->n -= 2;
                found = 1;
            }
            continue;
        }
        Move merged = mv(ma.sk, ma.si, mb.dk, mb.di, 1);
        /* Late: the card waits at its source until b's time. */
        trial = states[a];
        if (replays(cfg, &trial, ms, a + 1, b) && engine_play(cfg, &trial, merged) &&
            estate_equal(&trial, after, nc)) {
            memmove(ms + a, ms + a + 1, (size_t)(b - a - 1) * sizeof(Move));
            ms[b - 1] = merged;
            memmove(ms + b, ms + b + 1, (size_t)(n - b - 1) * sizeof(Move));
            line->n -= 1;
            found = 1;
            continue;
        }
        /* Early: the card goes straight to its later target at a's time. */
        trial = states[a];
        if (engine_play(cfg, &trial, merged) && replays(cfg, &trial, ms, a + 1, b) &&
            estate_equal(&trial, after, nc)) {
            ms[a] = merged;
            memmove(ms + b, ms + b + 1, (size_t)(n - b - 1) * sizeof(Move));
            line->n -= 1;
            found = 1;
        }
    }
    free(states);
    free(first);
    return found;
}

static void search_state_of(const EState *es, int nc, State *st) {
    memcpy(st->len, es->len, NCOLS);
    memcpy(st->founds, es->founds, 4);
    for (int i = 0; i < NCOLS; i++) memcpy(st->cards[i], es->cards[i], es->len[i]);
    st->ncells = 0;
    for (int k = 0; k < nc; k++)
        if (es->cells[k] >= 0) cell_add(st, es->cells[k]);
}

/* ---- a found path as steps ---------------------------------------------------------- */

/* Step 0 is the root's autoplay (move (-1, -1, -1, -1, 0)); step k > 0 is the k-th
 * move of the path to ``goal`` with the cards autoplay then sent home, found by
 * replaying the path from ``start`` (the root before its autoplay). */
typedef struct {
    Move *moves;
    int *nautos;
    uint8_t autos[52]; /* every step's cards sent home, one after another */
    int n;
} Steps;

static int collect_path(const Config *cfg, const State *start, const Nodes *nodes, int32_t goal, Steps *out) {
    int depth = 0;
    for (int32_t k = goal; k > 0; k = nodes->items[k].parent) depth++;
    out->moves = malloc((size_t)(depth + 1) * sizeof(Move));
    out->nautos = malloc((size_t)(depth + 1) * sizeof(int));
    out->n = depth + 1;
    if (out->moves == NULL || out->nautos == NULL) return 0;
    int d = depth;
    for (int32_t k = goal; k > 0; k = nodes->items[k].parent) out->moves[d--] = nodes->items[k].move;
    out->moves[0] = mv(-1, -1, -1, -1, 0);
    State st = *start;
    int total = out->nautos[0] = autoplay(cfg, &st, out->autos);
    for (int k = 1; k <= depth; k++) {
        apply_move(&st, out->moves[k]);
        total += out->nautos[k] = autoplay(cfg, &st, out->autos + total);
    }
    return 1;
}

static void steps_free(Steps *steps) {
    free(steps->moves);
    free(steps->nautos);
}

/* solve_fast's finish (convert.engine_moves, __init__._better_ending, shorten):
 * the engine moves for ``steps`` from ``start``; once ``endgame_home`` cards are
 * home (-1: never) the rest is re-solved by A* within ``endgame_nodes`` and a
 * shorter ending replaces it; then a card's two moves merge wherever the line
 * allows. Returns 0 when out of memory. */
static int finish_line(const Config *cfg, const EState *start, const Steps *steps, int endgame_home,
                       long endgame_nodes, double deadline, Line *line) {
    EState es = *start;
    if (!expand_steps(cfg, &es, steps->moves, steps->autos, steps->nautos, steps->n, line)) return 0;
    if (endgame_home >= 0) {
        EState mid = *start;
        int i = 0;
        while (i < line->n && mid.founds[0] + mid.founds[1] + mid.founds[2] + mid.founds[3] < endgame_home)
            engine_play(cfg, &mid, line->items[i++]);
        if (i < line->n && (deadline < 0 || now_seconds() < deadline)) {
            /* Only endings shorter than the found one are sought: A* stops as soon
             * as its bound shows there is none. */
            int rest = single_card_length(line->items + i, line->n - i);
            Config single = *cfg;
            single.group = GROUP_NONE;
            single.dig = 0;
            State before, root;
            search_state_of(&mid, cfg->ncells, &before);
            root = before;
            uint8_t homed[52];
            int g0 = autoplay(&single, &root, homed);
            Nodes nodes = {NULL, 0, 0};
            Outcome out = {SOLVED, 0, 0};
            if (sum_founds(&root) < 52) {
                out = astar(&single, &root, g0, &nodes, endgame_nodes, deadline, rest);
                if (out.status == NOMEM) {
                    free(nodes.items);
                    return 0;
                }
            }
            if (out.status == SOLVED) {
                Steps end;
                Line ending = {NULL, 0, 0};
                EState at = mid;
                int ok = collect_path(&single, &before, &nodes, out.goal, &end) &&
                         expand_steps(&single, &at, end.moves, end.autos, end.nautos, end.n, &ending);
                steps_free(&end);
                if (ok && single_card_length(ending.items, ending.n) < rest) {
                    line->n = i;
                    for (int k = 0; ok && k < ending.n; k++) ok = line_push(line, ending.items[k]);
                }
                free(ending.items);
                if (!ok) {
                    free(nodes.items);
                    return 0;
                }
            }
            free(nodes.items);
        }
    }
    for (;;) {
        int edit = first_edit(cfg, start, line);
        if (edit < 0) return 0;
        if (!edit) return 1;
    }
}

/* ---- Python glue --------------------------------------------------------------------- */

static int read_state(PyObject *cols, PyObject *cells, PyObject *founds, State *st) {
    if (!PyTuple_Check(cols) || PyTuple_GET_SIZE(cols) != NCOLS) {
        PyErr_SetString(PyExc_ValueError, "columns: a tuple of 8 bytes objects is needed");
        return 0;
    }
    int count = 0;
    for (int i = 0; i < NCOLS; i++) {
        PyObject *col = PyTuple_GET_ITEM(cols, i);
        if (!PyBytes_Check(col) || PyBytes_GET_SIZE(col) > MAXCOL) {
            PyErr_SetString(PyExc_ValueError, "columns: each must be bytes of at most 52 cards");
            return 0;
        }
        st->len[i] = (uint8_t)PyBytes_GET_SIZE(col);
        memcpy(st->cards[i], PyBytes_AS_STRING(col), st->len[i]);
        count += st->len[i];
    }
    if (!PyBytes_Check(cells) || PyBytes_GET_SIZE(cells) > MAXCELLS) {
        PyErr_SetString(PyExc_ValueError, "cells: bytes of at most 8 cards are needed");
        return 0;
    }
    st->ncells = 0;
    for (Py_ssize_t k = 0; k < PyBytes_GET_SIZE(cells); k++) cell_add(st, (uint8_t)PyBytes_AS_STRING(cells)[k]);
    count += st->ncells;
    int a, b, c, d;
    if (!PyArg_ParseTuple(founds, "iiii", &a, &b, &c, &d)) return 0;
    int f[4] = {a, b, c, d};
    for (int s = 0; s < 4; s++) {
        if (f[s] < 0 || f[s] > 13) {
            PyErr_SetString(PyExc_ValueError, "foundations: ranks 0..13 are needed");
            return 0;
        }
        st->founds[s] = (uint8_t)f[s];
        count += f[s];
    }
    /* Each card once: anything else would break the search's invariants. */
    uint8_t seen[52] = {0};
    for (int i = 0; i < NCOLS; i++)
        for (int k = 0; k < st->len[i]; k++) {
            int card = st->cards[i][k];
            if (card >= 52 || seen[card]++) count = -1;
        }
    for (int k = 0; k < st->ncells; k++) {
        int card = st->cells[k];
        if (card >= 52 || seen[card]++) count = -1;
    }
    for (int s = 0; s < 4; s++)
        for (int r = 0; r < st->founds[s]; r++)
            if (seen[s * 13 + r]++) count = -1;
    if (count != 52) {
        PyErr_SetString(PyExc_ValueError, "the state must hold each of the 52 cards once");
        return 0;
    }
    return 1;
}

static int read_config(PyObject *obj, Config *cfg) {
    if (!PyArg_ParseTuple(obj, "iiiiiiidddd", &cfg->ncells, &cfg->suit, &cfg->kings_only, &cfg->group,
                          &cfg->take_back, &cfg->autoplay, &cfg->dig, &cfg->weight, &cfg->inv_w,
                          &cfg->cell_w, &cfg->cover_w))
        return 0;
    if (cfg->ncells < 0 || cfg->ncells > MAXCELLS || cfg->group < 0 || cfg->group > 3 ||
        cfg->autoplay < 0 || cfg->autoplay > 2) {
        PyErr_SetString(PyExc_ValueError, "config: cells 0..8, group 0..3, auto 0..2");
        return 0;
    }
    return 1;
}

static PyObject *move_tuple(Move m) {
    return Py_BuildValue("(iiiii)", m.sk, m.si, m.dk, m.di, m.n);
}

static PyObject *autos_tuple(const uint8_t *homed, int nh) {
    PyObject *t = PyTuple_New(nh);
    if (t == NULL) return NULL;
    for (int k = 0; k < nh; k++) PyTuple_SET_ITEM(t, k, PyLong_FromLong(homed[k]));
    return t;
}

static PyObject *step_tuple(Move m, const uint8_t *homed, int nh) {
    PyObject *move = move_tuple(m), *autos = autos_tuple(homed, nh);
    if (move == NULL || autos == NULL) {
        Py_XDECREF(move);
        Py_XDECREF(autos);
        return NULL;
    }
    return Py_BuildValue("(NN)", move, autos);
}

/* The steps from the root (before its autoplay) to node ``goal``, as Python tuples
 * (search.py's Step); the root's autoplay is a step only when it sent cards home. */
static PyObject *path_steps(const Config *cfg, const State *start, const Nodes *nodes, int32_t goal) {
    Steps steps;
    if (!collect_path(cfg, start, nodes, goal, &steps)) {
        steps_free(&steps);
        return PyErr_NoMemory();
    }
    PyObject *out = PyList_New(0);
    const uint8_t *homed = steps.autos;
    for (int k = 0; out != NULL && k < steps.n; k++) {
        if (k > 0 || steps.nautos[0]) {
            PyObject *step = step_tuple(steps.moves[k], homed, steps.nautos[k]);
            if (step == NULL || PyList_Append(out, step) < 0) Py_CLEAR(out);
            Py_XDECREF(step);
        }
        homed += steps.nautos[k];
    }
    steps_free(&steps);
    return out;
}

enum { BEST_FIRST = 0, EXHAUST = 1, ASTAR = 2 };

/* Reads (cols, cells, founds, config, max_nodes, seconds[, below]), runs one search
 * with the GIL released, returns (status, steps, nodes expanded). */
static PyObject *run_search(PyObject *args, int kind) {
    PyObject *cols, *cells, *founds, *cfgobj;
    long max_nodes;
    double seconds;
    int below = -1;
    State root;
    Config cfg;
    if (!PyArg_ParseTuple(args, kind == ASTAR ? "O!O!O!O!ld|i" : "O!O!O!O!ld", &PyTuple_Type, &cols,
                          &PyBytes_Type, &cells, &PyTuple_Type, &founds, &PyTuple_Type, &cfgobj,
                          &max_nodes, &seconds, &below))
        return NULL;
    if (!read_state(cols, cells, founds, &root) || !read_config(cfgobj, &cfg)) return NULL;
    State start = root;
    uint8_t homed[52];
    int g0 = autoplay(&cfg, &root, homed);
    if (sum_founds(&root) == 52) {
        PyObject *steps = path_steps(&cfg, &start, NULL, 0);
        return steps == NULL ? NULL : Py_BuildValue("(iNi)", SOLVED, steps, 0);
    }
    Nodes nodes = {NULL, 0, 0};
    Outcome out = {NOMEM, 0, -1};
    double deadline = seconds < 0 ? -1.0 : now_seconds() + seconds;
    Py_BEGIN_ALLOW_THREADS /* plain C data from here on: other threads may run */
    if (kind == BEST_FIRST)
        out = best_first(&cfg, &root, &nodes, max_nodes, deadline);
    else if (kind == EXHAUST)
        out = exhaust(&cfg, &root, &nodes, max_nodes, deadline);
    else
        out = astar(&cfg, &root, g0, &nodes, max_nodes, deadline, below);
    Py_END_ALLOW_THREADS
    if (out.status == NOMEM) {
        free(nodes.items);
        return PyErr_NoMemory();
    }
    PyObject *steps = out.status == SOLVED ? path_steps(&cfg, &start, &nodes, out.goal) : PyList_New(0);
    free(nodes.items);
    if (steps == NULL) return NULL;
    return Py_BuildValue("(iNl)", out.status, steps, out.nodes);
}

static PyObject *py_best_first(PyObject *self, PyObject *args) {
    (void)self;
    return run_search(args, BEST_FIRST);
}

static PyObject *py_exhaust(PyObject *self, PyObject *args) {
    (void)self;
    return run_search(args, EXHAUST);
}

static PyObject *py_astar(PyObject *self, PyObject *args) {
    (void)self;
    return run_search(args, ASTAR);
}

/* A search Step list ((move, autos) tuples) read back into C. */
static int read_steps(PyObject *list, Steps *steps) {
    Py_ssize_t n = PyList_GET_SIZE(list);
    int total = 0;
    steps->n = (int)n;
    steps->moves = malloc((size_t)(n + 1) * sizeof(Move));
    steps->nautos = malloc((size_t)(n + 1) * sizeof(int));
    if (steps->moves == NULL || steps->nautos == NULL) {
        PyErr_NoMemory();
        return 0;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        int sk, si, dk, di, count;
        PyObject *autos;
        if (!PyArg_ParseTuple(PyList_GET_ITEM(list, k), "(iiiii)O!", &sk, &si, &dk, &di, &count,
                              &PyTuple_Type, &autos))
            return 0;
        Py_ssize_t na = PyTuple_GET_SIZE(autos);
        if (na > 52 - total) {
            PyErr_SetString(PyExc_ValueError, "steps: more than 52 cards sent home");
            return 0;
        }
        for (Py_ssize_t a = 0; a < na; a++) {
            long c = PyLong_AsLong(PyTuple_GET_ITEM(autos, a));
            if (c < 0 || c >= 52) {
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "steps: a card is 0..51");
                return 0;
            }
            steps->autos[total++] = (uint8_t)c;
        }
        steps->moves[k] = mv(sk, si, dk, di, count);
        steps->nautos[k] = (int)na;
    }
    return 1;
}

/* The steps must replay from ``start``: checked here, so finish_line may trust them. */
static int steps_replay(const Config *cfg, const State *start, const Steps *steps) {
    State st = *start;
    uint8_t homed[52];
    const uint8_t *autos = steps->autos;
    for (int k = 0; k < steps->n; k++) {
        Move m = steps->moves[k];
        if (m.sk >= 0) {
            Move legal[MAXMOVES];
            int nm = gen_moves(cfg, &st, legal), ok = 0;
            for (int j = 0; j < nm && !ok; j++) ok = !memcmp(&legal[j], &m, sizeof(Move));
            if (!ok) return 0;
            apply_move(&st, m);
        }
        int nh = autoplay(cfg, &st, homed);
        if (nh != steps->nautos[k] || memcmp(homed, autos, (size_t)nh)) return 0;
        autos += nh;
    }
    return sum_founds(&st) == 52;
}

/* The engine's state (cells in place: a card or -1 each) and the search's. */
static int read_engine_state(PyObject *cols, PyObject *slots, PyObject *founds, const Config *cfg,
                             State *st, EState *es) {
    if (cfg->group == GROUP_NONE || PyTuple_GET_SIZE(slots) != cfg->ncells) {
        PyErr_SetString(PyExc_ValueError, "one slot per cell and the rules' group moves are needed");
        return 0;
    }
    uint8_t held[MAXCELLS];
    int nheld = 0;
    for (int k = 0; k < cfg->ncells; k++) {
        long c = PyLong_AsLong(PyTuple_GET_ITEM(slots, k));
        if ((c < -1 || c >= 52) && !PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "cells: a card 0..51 or -1");
        if (PyErr_Occurred()) return 0;
        es->cells[k] = (int8_t)c;
        if (c >= 0) held[nheld++] = (uint8_t)c;
    }
    PyObject *cells = PyBytes_FromStringAndSize((const char *)held, nheld);
    if (cells == NULL) return 0;
    int ok = read_state(cols, cells, founds, st);
    Py_DECREF(cells);
    if (!ok) return 0;
    memcpy(es->len, st->len, NCOLS);
    memcpy(es->founds, st->founds, 4);
    for (int i = 0; i < NCOLS; i++) memcpy(es->cards[i], st->cards[i], st->len[i]);
    return 1;
}

/* A line as a list of move tuples; frees the line. */
static PyObject *line_list(Line *line) {
    PyObject *out = PyList_New(line->n);
    for (int k = 0; out != NULL && k < line->n; k++) {
        PyObject *m = move_tuple(line->items[k]);
        if (m == NULL)
            Py_CLEAR(out);
        else
            PyList_SET_ITEM(out, k, m);
    }
    free(line->items);
    line->items = NULL;
    return out;
}

static PyObject *py_finish(PyObject *self, PyObject *args) {
    PyObject *cols, *slots, *founds, *cfgobj, *steplist;
    int endgame_home, ok;
    long endgame_nodes;
    double seconds;
    State st;
    Config cfg;
    EState es;
    (void)self;
    if (!PyArg_ParseTuple(args, "O!O!O!O!O!ild", &PyTuple_Type, &cols, &PyTuple_Type, &slots,
                          &PyTuple_Type, &founds, &PyTuple_Type, &cfgobj, &PyList_Type, &steplist,
                          &endgame_home, &endgame_nodes, &seconds))
        return NULL;
    if (!read_config(cfgobj, &cfg) || !read_engine_state(cols, slots, founds, &cfg, &st, &es)) return NULL;
    Steps steps = {NULL, NULL, {0}, 0};
    if (!read_steps(steplist, &steps)) {
        steps_free(&steps);
        return NULL;
    }
    if (!steps_replay(&cfg, &st, &steps)) {
        steps_free(&steps);
        PyErr_SetString(PyExc_ValueError, "finish: the steps do not replay to a win from this state");
        return NULL;
    }
    Line line = {NULL, 0, 0};
    double deadline = seconds < 0 ? -1.0 : now_seconds() + seconds;
    Py_BEGIN_ALLOW_THREADS
    ok = finish_line(&cfg, &es, &steps, endgame_home, endgame_nodes, deadline, &line);
    Py_END_ALLOW_THREADS
    steps_free(&steps);
    if (!ok) {
        free(line.items);
        return PyErr_NoMemory();
    }
    return line_list(&line);
}

/* solve_fast in one call: best-first; when it runs dry, the exact proof; on a win,
 * the finish. No Python object is made until the line is done. */
static PyObject *py_solve(PyObject *self, PyObject *args) {
    PyObject *cols, *slots, *founds, *cfgobj;
    int endgame_home, ok = 1;
    long max_nodes, endgame_nodes;
    double seconds;
    State start, root;
    Config cfg;
    EState es;
    (void)self;
    if (!PyArg_ParseTuple(args, "O!O!O!O!ldil", &PyTuple_Type, &cols, &PyTuple_Type, &slots,
                          &PyTuple_Type, &founds, &PyTuple_Type, &cfgobj, &max_nodes, &seconds,
                          &endgame_home, &endgame_nodes))
        return NULL;
    if (!read_config(cfgobj, &cfg) || !read_engine_state(cols, slots, founds, &cfg, &start, &es)) return NULL;
    double deadline = seconds < 0 ? -1.0 : now_seconds() + seconds;
    uint8_t homed[52];
    Nodes nodes = {NULL, 0, 0};
    Outcome out = {SOLVED, 0, 0};
    Steps steps = {NULL, NULL, {0}, 0};
    Line line = {NULL, 0, 0};
    root = start;
    autoplay(&cfg, &root, homed);
    Py_BEGIN_ALLOW_THREADS
    if (sum_founds(&root) < 52) {
        out = best_first(&cfg, &root, &nodes, max_nodes, deadline);
        if (out.status == EXHAUSTED) {
            /* Hashes could (very rarely) have merged two positions: prove it exactly. */
            long spent = out.nodes, more = max_nodes < 0 ? -1 : (max_nodes - spent > 1 ? max_nodes - spent : 1);
            nodes.n = 0;
            out = exhaust(&cfg, &root, &nodes, more, deadline);
            out.nodes += spent;
        }
    }
    if (out.status == SOLVED)
        ok = collect_path(&cfg, &start, &nodes, out.goal, &steps) &&
             finish_line(&cfg, &es, &steps, endgame_home, endgame_nodes, deadline, &line);
    Py_END_ALLOW_THREADS
    free(nodes.items);
    steps_free(&steps);
    if (out.status == NOMEM || !ok) {
        free(line.items);
        return PyErr_NoMemory();
    }
    int length = single_card_length(line.items, line.n);
    PyObject *moves = line_list(&line);
    return moves == NULL ? NULL : Py_BuildValue("(iNil)", out.status, moves, length, out.nodes);
}

static PyMethodDef methods[] = {
    {"best_first", py_best_first, METH_VARARGS,
     "best_first(cols, cells, founds, config, max_nodes, seconds) -> (status, steps, nodes)\n\n"
     "Weighted best-first search with 64-bit hashes (Searcher.best_first_fast).\n"
     "config = (ncells, suit, kings_only, group, take_back, auto, dig, weight,\n"
     "inv_weight, cell_weight, cover_weight); max_nodes or seconds < 0: no limit."},
    {"exhaust", py_exhaust, METH_VARARGS,
     "exhaust(cols, cells, founds, config, max_nodes, seconds) -> (status, steps, nodes)\n\n"
     "Depth-first search of every reachable position with exact keys (Searcher.exhaust):\n"
     "status EXHAUSTED is a proof that no solution exists."},
    {"astar", py_astar, METH_VARARGS,
     "astar(cols, cells, founds, config, max_nodes, seconds, below=-1) -> (status, steps, nodes)\n\n"
     "A* with Paul & Helmert's admissible bound and exact keys (optimal.solve_optimal);\n"
     "config should ask for single-card moves. below >= 0: only solutions shorter than it."},
    {"solve", py_solve, METH_VARARGS,
     "solve(cols, cells, founds, config, max_nodes, seconds, endgame_home, endgame_nodes)\n"
     "-> (status, [(src_kind, src, dst_kind, dst, count), ...], length, nodes)\n\n"
     "best_first, exhaust when it runs dry, then finish on a win: solve_fast in one call."},
    {"finish", py_finish, METH_VARARGS,
     "finish(cols, cells, founds, config, steps, endgame_home, endgame_nodes, seconds)\n"
     "-> [(src_kind, src, dst_kind, dst, count), ...]\n\n"
     "The engine moves for a winning Step list from this state (cells: a card or -1\n"
     "per cell, in place), with the ending re-solved optimally once endgame_home cards\n"
     "are home (-1: never; A* within endgame_nodes) and a card's two moves merged\n"
     "where the line allows (convert.engine_moves, _better_ending, shorten)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_native", "The solver's search core in C (see search.py).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__native(void) {
    for (int c = 0; c < 52; c++) SUIT_FROM[c] = ((1ULL << (13 - c % 13)) - 1) << c;
    for (int s = 0; s < 4; s++) SUIT_BITS[s] = SUIT_FROM[13 * s];
    for (int c = 0; c < 52; c++) CELL_HASH[c] = mix64(0xC0FFEE00ULL + (uint64_t)c);
    return PyModule_Create(&module);
}
