/* Cards, columns, hashing, the heuristic and move generation on a State.
 *
 * Part of the _native extension, built as one unit: module.c includes every file
 * (in dependency order), so all functions stay static and inline across files. The
 * move rules themselves are rules.h's. */
#include "rules.h"

/* ---- cards and columns -------------------------------------------------------- */

static int run_length(const State *st, int i, int suit) {
    int n = st->len[i];
    if (n == 0) return 0;
    const uint8_t *col = st->cards[i];
    int k = 1;
    while (k < n && builds(col[n - k], col[n - k - 1], suit)) k++;
    return k;
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

/* ---- heuristic ----------------------------------------------------------------- */

/* A column's share of h: its inversions (cards above a lower card of their suit)
 * and the cards lying over each suit's next foundation card. */
static double column_term(const Config *cfg, const uint8_t *col, int n, const uint8_t *founds) {
    int mins[4] = {99, 99, 99, 99};
    int bad = 0, cover = 0;
    for (int k = 0; k < n; k++) { /* one pass: % and / by 13 compile to multiplies */
        int c = col[k], s = SUIT(c);
        if (mins[s] < c)
            bad++;
        else
            mins[s] = c;
        if (RANK(c) == founds[s]) cover += n - 1 - k; /* suit s's next card (each card once) */
    }
    return cfg->inv_w * bad + cfg->cover_w * cover;
}

/* column_term's integers for every prefix of a column, from one pass, so that a
 * child's term costs only the cards its move takes off or puts on (best_first.c):
 * for the first m cards, ``bad[m]`` inversions, ``nexts[m]`` suits' next cards and
 * ``at[m]`` the sum of their places (they lie under nexts[m] * (m - 1) - at[m]
 * cards); ``mins``: each suit's lowest card in the whole column. */
typedef struct {
    uint8_t bad[MAXCOL + 1], nexts[MAXCOL + 1];
    uint16_t at[MAXCOL + 1];
    int mins[4];
} ColumnTerms;

/* Card ``c`` at place ``k`` of a column, over the cards below it: column_term's
 * counts go on (``mins``: each suit's lowest card so far). */
static inline void term_card(int c, int k, const uint8_t *founds, int *mins, int *bad, int *nexts, int *at) {
    int s = SUIT(c);
    if (mins[s] < c)
        ++*bad;
    else
        mins[s] = c;
    if (RANK(c) == founds[s]) {
        ++*nexts;
        *at += k;
    }
}

/* ``col``'s ColumnTerms into ``ct``; its term, to the last bit column_term's. */
static double column_terms(const Config *cfg, const uint8_t *col, int n, const uint8_t *founds, ColumnTerms *ct) {
    int mins[4] = {99, 99, 99, 99};
    int bad = 0, nexts = 0, at = 0;
    ct->bad[0] = ct->nexts[0] = 0;
    ct->at[0] = 0;
    for (int k = 0; k < n; k++) {
        term_card(col[k], k, founds, mins, &bad, &nexts, &at);
        ct->bad[k + 1] = (uint8_t)bad;
        ct->nexts[k + 1] = (uint8_t)nexts;
        ct->at[k + 1] = (uint16_t)at;
    }
    memcpy(ct->mins, mins, sizeof mins);
    return cfg->inv_w * bad + cfg->cover_w * (nexts * (n - 1) - at);
}

/* The term of the column's first ``m`` cards (column_term's, to the last bit). */
static inline double prefix_term(const Config *cfg, const ColumnTerms *ct, int m) {
    return cfg->inv_w * ct->bad[m] + cfg->cover_w * (ct->nexts[m] * (m - 1) - ct->at[m]);
}

/* The term of the column of ``len`` cards with the ``n`` cards ``moving`` put on it
 * (column_term's, to the last bit). */
static inline double appended_term(const Config *cfg, const ColumnTerms *ct, int len, const uint8_t *moving, int n,
                                   const uint8_t *founds) {
    int mins[4], bad = ct->bad[len], nexts = ct->nexts[len], at = ct->at[len];
    memcpy(mins, ct->mins, sizeof mins);
    for (int t = 0; t < n; t++) term_card(moving[t], len + t, founds, mins, &bad, &nexts, &at);
    return cfg->inv_w * bad + cfg->cover_w * (nexts * (len + n - 1) - at);
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
    /* Most positions have nothing to send home: one look at the tops and cells (a card
     * that may go home but is not safe to is no reason to look again). */
    for (int i = 0; i < NCOLS && !changed; i++)
        if (st->len[i]) {
            int c = st->cards[i][st->len[i] - 1];
            changed = st->founds[SUIT(c)] == RANK(c) && autoplays(mode, c, st->founds);
        }
    for (int k = 0; k < st->ncells && !changed; k++) {
        int c = st->cells[k];
        changed = st->founds[SUIT(c)] == RANK(c) && autoplays(mode, c, st->founds);
    }
    while (changed) {
        changed = 0;
        for (int i = 0; i < NCOLS; i++) {
            while (st->len[i]) {
                int c = st->cards[i][st->len[i] - 1], s = SUIT(c);
                if (st->founds[s] != RANK(c) || !autoplays(mode, c, st->founds))
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
                int c = snap[k], s = SUIT(c);
                if (st->founds[s] == RANK(c) && autoplays(mode, c, st->founds)) {
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
        st->founds[SUIT(moving[0])]++;
    }
}

static inline Move mv(int sk, int si, int dk, int di, int n) {
    Move m = {(int8_t)sk, (int8_t)si, (int8_t)dk, (int8_t)di, (int8_t)n};
    return m;
}

/* What the moves of a position need to know once: where each top card is, the
 * first empty column, the free cells and how many cards a move may carry; where
 * each suit's next card lies (for the dig, found when first needed). */
typedef struct {
    int8_t tops[52]; /* card -> the column it tops, or -1 */
    int empty, nempty, free, cap, cap_empty;
    uint8_t run[NCOLS]; /* each column's top run (run_length) */
    int located;
    int8_t next_col[4], next_at[4];
} MoveCtx;

static inline void move_ctx(const Config *cfg, const State *st, MoveCtx *x) {
    x->empty = -1;
    x->nempty = 0;
    x->located = 0;
    x->free = cfg->ncells - st->ncells;
    memset(x->tops, -1, sizeof x->tops);
    for (int j = 0; j < NCOLS; j++) {
        x->run[j] = (uint8_t)run_length(st, j, cfg->suit);
        if (st->len[j]) {
            x->tops[st->cards[j][st->len[j] - 1]] = (int8_t)j;
        } else {
            x->nempty++;
            if (x->empty < 0) x->empty = j;
        }
    }
    x->cap = run_capacity(cfg->group, x->free, x->nempty, 0);
    x->cap_empty = run_capacity(cfg->group, x->free, x->nempty, 1);
}

/* The moves from column ``i`` (not empty), in gen_moves' order. */
static inline int column_moves(const Config *cfg, const State *st, MoveCtx *x, int i, Move *out) {
    int suit = cfg->suit, kings_only = cfg->kings_only, cap = x->cap, cap_empty = x->cap_empty;
    int free = x->free, empty = x->empty, nm = 0;
    const int8_t *tops = x->tops;
    int n = st->len[i];
    const uint8_t *col = st->cards[i];
    int top = col[n - 1], s = SUIT(top);
    if (st->founds[s] == RANK(top)) out[nm++] = mv(COL, i, FOUND, s, 1);
    int run = x->run[i];
    if (suit) {
        /* Only the whole same-suit run can fit on another column. */
        int head = col[n - run];
        if (run <= cap && RANK(head) != 12) {
            int j = tops[head + 1];
            if (j >= 0) out[nm++] = mv(COL, i, COL, j, run);
        }
    } else {
        /* The run's tail of k cards goes onto a top one rank above its head and of
         * the other colour: two cards, looked up in ``tops`` (not every top tried
         * against every k). A target column takes one k at most; they go out in
         * column order. */
        int most = run < cap ? run : cap, nt = 0;
        int8_t to[2 * MAXCOL], count[2 * MAXCOL];
        for (int k = 1; k <= most; k++) {
            int head = col[n - k], r = RANK(head) + 1;
            if (r == 13) break; /* a King heads it: nothing above */
            int red = is_red(head), j1 = tops[(red ? 0 : 13) + r], j2 = tops[(red ? 39 : 26) + r];
            if (j1 >= 0 && j1 != i) to[nt] = (int8_t)j1, count[nt++] = (int8_t)k;
            if (j2 >= 0 && j2 != i) to[nt] = (int8_t)j2, count[nt++] = (int8_t)k;
        }
        for (int a = 1; a < nt; a++) /* insertion sort by column */
            for (int b = a; b > 0 && to[b - 1] > to[b]; b--) {
                int8_t t = to[b];
                to[b] = to[b - 1], to[b - 1] = t;
                t = count[b];
                count[b] = count[b - 1], count[b - 1] = t;
            }
        for (int a = 0; a < nt; a++) out[nm++] = mv(COL, i, COL, to[a], count[a]);
    }
    if (empty >= 0) {
        int top_k = run < cap_empty ? run : cap_empty;
        if (top_k > n - 1) top_k = n - 1; /* never a whole column into an empty one */
        for (int k = 1; k <= top_k; k++) {
            if (!starts_column(col[n - k], kings_only)) continue;
            out[nm++] = mv(COL, i, COL, empty, k);
        }
    }
    if (free > 0) {
        out[nm++] = mv(COL, i, CELL, -1, 1);
        if (cfg->dig && free > 1) {
            /* Park the d cards over a suit's next card in cells at once. */
            if (!x->located) { /* where each suit's next card lies: one scan per node */
                x->located = 1;
                memset(x->next_col, -1, sizeof x->next_col);
                memset(x->next_at, -1, sizeof x->next_at);
                for (int c = 0; c < NCOLS; c++)
                    for (int y = 0; y < st->len[c]; y++) {
                        int card = st->cards[c][y];
                        if (RANK(card) == st->founds[SUIT(card)]) {
                            x->next_col[SUIT(card)] = (int8_t)c;
                            x->next_at[SUIT(card)] = (int8_t)y;
                        }
                    }
            }
            for (int s2 = 0; s2 < 4; s2++) {
                int y = x->next_at[s2];
                if (x->next_col[s2] == i && y < n - 2 && n - 1 - y <= free) out[nm++] = mv(COL, i, CELL, -1, n - 1 - y);
            }
        }
    }
    return nm;
}

/* The moves of the cell card ``c``, in gen_moves' order. */
static inline int cell_moves(const Config *cfg, const State *st, const MoveCtx *x, int c, Move *out) {
    int nm = 0, s = SUIT(c);
    const int8_t *tops = x->tops;
    if (st->founds[s] == RANK(c)) out[nm++] = mv(CELL, c, FOUND, s, 1);
    if (RANK(c) != 12) {
        if (cfg->suit) {
            int j = tops[c + 1];
            if (j >= 0) out[nm++] = mv(CELL, c, COL, j, 1);
        } else {
            int r = RANK(c) + 1;
            int d1 = is_red(c) ? r : r + 13, d2 = is_red(c) ? r + 39 : r + 26;
            if (tops[d1] >= 0) out[nm++] = mv(CELL, c, COL, tops[d1], 1);
            if (tops[d2] >= 0) out[nm++] = mv(CELL, c, COL, tops[d2], 1);
        }
    }
    if (x->empty >= 0 && starts_column(c, cfg->kings_only)) out[nm++] = mv(CELL, c, COL, x->empty, 1);
    return nm;
}

/* Every move worth trying, in a fixed order: per column, home, onto another column
 * (in suit only the whole run can fit: the card a shorter part needs lies just
 * under it, in this very run), into the first empty column (a run or its tail; an
 * empty column is as good as another), to a cell, and the "dig" macro (park the
 * cards over a suit's next card in cells at once, so that it goes home; each of
 * those single moves is a child too); then per cell card, and take-backs. The
 * engine's legal moves are legal.c's; this set keeps every winning line. ``x``
 * gets what they were made from (move_ctx). */
static int gen_moves_in(const Config *cfg, const State *st, MoveCtx *x, Move *out) {
    int nm = 0;
    move_ctx(cfg, st, x);
    for (int i = 0; i < NCOLS; i++)
        if (st->len[i]) nm += column_moves(cfg, st, x, i, out + nm);
    for (int k = 0; k < st->ncells; k++) nm += cell_moves(cfg, st, x, st->cells[k], out + nm);
    if (cfg->take_back) {
        for (int s = 0; s < 4; s++) {
            int f = st->founds[s];
            if (!f) continue;
            int c = s * 13 + f - 1;
            if (x->free > 0) out[nm++] = mv(FOUND, s, CELL, -1, 1);
            for (int j = 0; j < NCOLS; j++)
                if (st->len[j] && builds(c, st->cards[j][st->len[j] - 1], cfg->suit))
                    out[nm++] = mv(FOUND, s, COL, j, 1);
            if (x->empty >= 0 && starts_column(c, cfg->kings_only)) out[nm++] = mv(FOUND, s, COL, x->empty, 1);
        }
    }
    return nm;
}

/* gen_moves_in, its MoveCtx thrown away. */
static inline int gen_moves(const Config *cfg, const State *st, Move *out) {
    MoveCtx x;
    return gen_moves_in(cfg, st, &x, out);
}

