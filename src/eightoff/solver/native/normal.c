/* The column tops of ``st`` (a bit each). */
#include "normal.h"

static inline uint64_t top_cards(const State *st) {
    uint64_t m = 0;
    for (int j = 0; j < NCOLS; j++)
        if (st->len[j]) m |= 1ULL << st->cards[j][st->len[j] - 1];
    return m;
}

int normalize(const Config *cfg, State *st, unsigned *touched, Move *placed, Placed *undo, uint64_t *top_set) {
    int n = 0;
    uint64_t tops = *top_set; /* top_cards(st), kept up to date */
    for (int k = 0; k < st->ncells;) {
        int c = st->cells[k];
        uint64_t onto = bases(cfg, c) & tops;
        if (!onto) {
            k++;
            continue;
        }
        int t = __builtin_ctzll(onto), j = 0;
        while (!st->len[j] || st->cards[j][st->len[j] - 1] != t) j++;
        cell_remove(st, c);
        if (undo != NULL) undo[n] = (Placed){(uint8_t)j, st->cards[j][st->len[j]]};
        st->cards[j][st->len[j]++] = (uint8_t)c;
        tops = (tops & ~(1ULL << t)) | 1ULL << c;
        *touched |= 1u << j;
        if (placed != NULL) placed[n] = mv(CELL, c, COL, j, 1);
        n++;
        k = 0; /* a new top: the cells again from the lowest */
    }
    *top_set = tops;
    return n;
}

int lone_normalize(const Config *cfg, State *st, unsigned *touched, Move *placed, Placed *undo, int n,
                          uint64_t tops, uint64_t lone) {
    while (lone) {
        uint64_t left = lone;
        int c = -1, t = -1;
        while (left) {
            c = __builtin_ctzll(left);
            uint64_t onto = bases(cfg, c) & tops;
            if (onto) {
                t = __builtin_ctzll(onto);
                break;
            }
            left &= left - 1;
        }
        if (t < 0) break;
        int from = 0, j = 0;
        while (st->len[from] != 1 || st->cards[from][0] != c) from++;
        while (!st->len[j] || st->cards[j][st->len[j] - 1] != t) j++;
        st->len[from] = 0;
        if (undo != NULL) undo[n] = (Placed){(uint8_t)j, st->cards[j][st->len[j]]};
        st->cards[j][st->len[j]++] = (uint8_t)c;
        tops &= ~(1ULL << t); /* c stays a top, on j now */
        lone &= ~(1ULL << c | 1ULL << t);
        *touched |= 1u << j | 1u << from;
        if (placed != NULL) placed[n] = mv(COL, from, COL, j, 1);
        n++;
    }
    return n;
}

int lift_most(const Config *cfg, const State *st, const uint8_t *run, int *most, int free) {
    for (int j = 0; j < NCOLS; j++) {
        int n = st->len[j], k = 0, top = run[j] - 1 < free ? run[j] - 1 : free;
        const uint8_t *col = st->cards[j];
        while (k < top && !(cfg->autoplay != AUTO_NONE && st->founds[SUIT(col[n - 2 - k])] == RANK(col[n - 2 - k]) &&
                            autoplays(cfg->autoplay, col[n - 2 - k], st->founds)))
            k++;
        most[j] = k;
    }
    return free;
}

int lift_limits(const Config *cfg, const State *st, const uint8_t *run, int *most) {
    return lift_most(cfg, st, run, most, cfg->ncells - st->ncells);
}

int lift_next(const int *most, int free, int *k) {
    int total = 0;
    for (int j = 0; j < NCOLS; j++) total += k[j];
    for (int j = 0; j < NCOLS; j++) {
        if (k[j] < most[j] && total < free) {
            k[j]++;
            return 1;
        }
        total -= k[j];
        k[j] = 0;
    }
    return 0;
}

void lift_apply(State *st, const int *k, unsigned *cols, uint64_t *cards) {
    *cols = 0;
    *cards = 0;
    for (int j = 0; j < NCOLS; j++) {
        for (int t = 0; t < k[j]; t++) {
            int c = st->cards[j][--st->len[j]];
            cell_add(st, c);
            *cards |= 1ULL << c;
        }
        if (k[j]) *cols |= 1u << j;
    }
}

int lone_lift_apply(State *st, const int *k, Move *moves) {
    int n = 0, e = 0;
    for (int j = 0; j < NCOLS; j++)
        for (int t = 0; t < k[j]; t++) {
            while (st->len[e]) e++;
            st->cards[e][0] = st->cards[j][--st->len[j]];
            st->len[e] = 1;
            moves[n++] = mv(COL, j, COL, e, 1);
        }
    return n;
}

int lifts_meet(const Config *cfg, const State *st, int a, int ka, int b, int kb) {
    const uint8_t *ca = st->cards[a];
    int na = st->len[a], onto = st->cards[b][st->len[b] - 1 - kb];
    if (ka > 1)
        for (int t = 1; t <= ka; t++)
            if (builds(ca[na - t], onto, cfg->suit)) return 1;
    for (int x = na - 1 - ka; x >= 0; x--) {
        if (builds(ca[x], onto, cfg->suit)) return 1;
        if (x == 0 || !builds(ca[x], ca[x - 1], cfg->suit)) break;
    }
    return 0;
}

/* The runs of the columns but ``c`` that go onto ``onto`` (``c``'s uncovered top),
 * as column_moves makes them (``x``: runs and capacity). */
static int moves_onto(const Config *cfg, const State *st, const MoveCtx *x, int c, int onto, Move *out) {
    int nm = 0;
    for (int i = 0; i < NCOLS; i++) {
        int ni = st->len[i];
        if (i == c || !ni) continue;
        const uint8_t *col = st->cards[i];
        int run = x->run[i];
        if (cfg->suit) {
            if (run <= x->cap && builds(col[ni - run], onto, 1)) out[nm++] = mv(COL, i, COL, c, run);
        } else {
            int most = run < x->cap ? run : x->cap;
            for (int t = 1; t <= most; t++) {
                if (RANK(col[ni - t]) == 12) break;
                if (builds(col[ni - t], onto, 0)) out[nm++] = mv(COL, i, COL, c, t);
            }
        }
    }
    return nm;
}

/* With take-back, the foundations' tops that go onto ``onto``, on column ``c``. */
static int take_backs_onto(const Config *cfg, const State *st, int c, int onto, Move *out) {
    int nm = 0;
    if (cfg->take_back)
        for (int s = 0; s < 4; s++)
            if (st->founds[s] && builds(s * 13 + st->founds[s] - 1, onto, cfg->suit)) out[nm++] = mv(FOUND, s, COL, c, 1);
    return nm;
}

int lift_moves(const Config *cfg, const State *st, int c, int k, uint64_t cards, Move *out) {
    MoveCtx x;
    int nm = 0, onto = st->cards[c][st->len[c] - 1], suit = cfg->suit;
    move_ctx(cfg, st, &x);
    nm += column_moves(cfg, st, &x, c, out);
    nm += moves_onto(cfg, st, &x, c, onto, out + nm);
    for (int q = 0; q < st->ncells; q++) {
        int card = st->cells[q];
        if (!(cards >> card & 1)) {
            if (builds(card, onto, suit)) out[nm++] = mv(CELL, card, COL, c, 1);
        } else if (k > 1) {
            Move own[4];
            int m = cell_moves(cfg, st, &x, card, own);
            for (int y = 0; y < m; y++) /* all but back onto c */
                if (!(own[y].dk == COL && own[y].di == c)) out[nm++] = own[y];
        }
    }
    nm += take_backs_onto(cfg, st, c, onto, out + nm);
    return nm;
}

void run_places(const State *st, const MoveCtx *x, RunPlaces *p) {
    memset(p->col, -1, sizeof p->col);
    for (int i = 0; i < NCOLS; i++)
        for (int t = 1; t <= x->run[i]; t++) {
            int card = st->cards[i][st->len[i] - t];
            p->col[card] = (int8_t)i;
            p->depth[card] = (uint8_t)t;
        }
}

int grouped_lift_moves(const Config *cfg, const State *st, const MoveCtx *x, const RunPlaces *places, int c,
                              int k, int extends, Move *out) {
    int nm = 0, onto = st->cards[c][st->len[c] - 1 - k], free = x->free - k; /* k cells fewer */
    int cap = run_capacity(cfg->group, free, x->nempty, 0);
    if (st->founds[SUIT(onto)] == RANK(onto)) out[nm++] = mv(COL, c, FOUND, SUIT(onto), 1);
    if (free > 0 && !extends) out[nm++] = mv(COL, c, CELL, -1, 1);
    /* The runs of other columns onto it, as moves_onto makes them: at most one a
     * column, headed by a card that builds on onto (in suit, only a whole run). */
    int r = RANK(onto) - 1;
    if (r >= 0) {
        int b1, b2;
        if (cfg->suit)
            b1 = onto - 1, b2 = -1;
        else if (is_red(onto))
            b1 = r, b2 = 39 + r;
        else
            b1 = 13 + r, b2 = 26 + r;
        int i1 = places->col[b1], i2 = b2 >= 0 ? places->col[b2] : -1;
        if (i1 == c || (i1 >= 0 && (places->depth[b1] > cap || (cfg->suit && places->depth[b1] != x->run[i1])))) i1 = -1;
        if (i2 == c || (i2 >= 0 && places->depth[b2] > cap)) i2 = -1;
        if (i2 >= 0 && (i1 < 0 || i2 < i1)) { /* column order */
            out[nm++] = mv(COL, i2, COL, c, places->depth[b2]);
            i2 = -1;
        }
        if (i1 >= 0) out[nm++] = mv(COL, i1, COL, c, places->depth[b1]);
        if (i2 >= 0) out[nm++] = mv(COL, i2, COL, c, places->depth[b2]);
    }
    for (int q = 0; q < st->ncells; q++) /* the lifted cards come after: none builds on onto */
        if (builds(st->cells[q], onto, cfg->suit)) out[nm++] = mv(CELL, st->cells[q], COL, c, 1);
    nm += take_backs_onto(cfg, st, c, onto, out + nm);
    return nm;
}

int drop_returns(const Config *cfg, const State *st, Move *moves, int nm) {
    uint64_t onto_cells = 0; /* the cards cell cards build on */
    for (int q = 0; q < st->ncells; q++) onto_cells |= bases(cfg, st->cells[q]);
    int kept = 0;
    for (int k = 0; k < nm; k++) {
        Move m = moves[k];
        if (m.sk == COL && m.dk == CELL && m.n == 1) {
            int n = st->len[m.si], c = st->cards[m.si][n - 1], b = n > 1 ? st->cards[m.si][n - 2] : -1;
            if (b >= 0 && builds(c, b, cfg->suit) && !(onto_cells >> b & 1) && !sends_home(cfg, st, b)) continue;
        }
        moves[kept++] = m;
    }
    return kept;
}
