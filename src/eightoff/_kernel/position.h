#ifndef EIGHTOFF_POSITION_H
#define EIGHTOFF_POSITION_H

#include "rules.h"

int run_length(const State *st, int i, int suit);

static inline int sum_founds(const State *st) {
    return st->founds[0] + st->founds[1] + st->founds[2] + st->founds[3];
}

void cell_add(State *st, int c);

void cell_remove(State *st, int c);

void pack(const State *st, Node *node);

void unpack(const Node *node, State *st);

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

uint64_t column_hash(const uint8_t *col, int n);

extern uint64_t CELL_HASH[52];

/* Fills CELL_HASH: once, before any hash is taken. */
void position_init(void);

uint64_t cells_hash(const State *st);

/* Order-free: a sum over columns and cells, so permuted columns hash alike. */
uint64_t state_hash(const State *st);

/* A child's hash from its parent's column hashes: autoplay only shortens columns,
 * so a column other than the move's own two changed exactly when its length did. */
uint64_t child_hash(const State *parent, const uint64_t *colh, const State *child, Move m);

/* A column's share of h: its inversions (cards above a lower card of their suit)
 * and the cards lying over each suit's next foundation card. */
double column_term(const Config *cfg, const uint8_t *col, int n, const uint8_t *founds);

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
double column_terms(const Config *cfg, const uint8_t *col, int n, const uint8_t *founds, ColumnTerms *ct);

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

double full_h(const Config *cfg, const State *st, double *terms);

/* Sends home every card the rules' safe autoplay allows, repeatedly; the cards
 * sent home go to ``homed`` in order. Returns how many. */
int autoplay(const Config *cfg, State *st, uint8_t *homed);

void apply_move(State *st, Move m);

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
 * engine's legal moves are engine.c's; this set keeps every winning line. ``x``
 * gets what they were made from (move_ctx). */
int gen_moves_in(const Config *cfg, const State *st, MoveCtx *x, Move *out);

/* gen_moves_in, its MoveCtx thrown away. */
static inline int gen_moves(const Config *cfg, const State *st, Move *out) {
    MoveCtx x;
    return gen_moves_in(cfg, st, &x, out);
}

#endif
