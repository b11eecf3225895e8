/* Cards, columns, hashing, the heuristic and move generation on a State.
 * The
 * move rules themselves are rules.h's. */
#include "position.h"

/* ---- cards and columns -------------------------------------------------------- */

int run_length(const State *st, int i, int suit) {
    int n = st->len[i];
    if (n == 0) return 0;
    const uint8_t *col = st->cards[i];
    int k = 1;
    while (k < n && builds(col[n - k], col[n - k - 1], suit)) k++;
    return k;
}

void cell_add(State *st, int c) {
    int k = st->ncells++;
    while (k > 0 && st->cells[k - 1] > c) { /* insertion keeps the cells sorted */
        st->cells[k] = st->cells[k - 1];
        k--;
    }
    st->cells[k] = (uint8_t)c;
}

void cell_remove(State *st, int c) {
    int k = 0;
    while (st->cells[k] != c) k++;
    memmove(st->cells + k, st->cells + k + 1, (size_t)(st->ncells - k - 1));
    st->ncells--;
}

void pack(const State *st, Node *node) {
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

void unpack(const Node *node, State *st) {
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

uint64_t column_hash(const uint8_t *col, int n) { return column_done(fnv_more(FNV_START, col, n), n); }
uint64_t CELL_HASH[52]; /* a cell's card's share of the hash */

void position_init(void) {
    for (int c = 0; c < 52; c++) CELL_HASH[c] = mix64(0xC0FFEE00ULL + (uint64_t)c);
}

uint64_t cells_hash(const State *st) {
    uint64_t h = 0;
    for (int k = 0; k < st->ncells; k++) h += CELL_HASH[st->cells[k]];
    return h;
}

uint64_t state_hash(const State *st) {
    uint64_t h = cells_hash(st);
    for (int i = 0; i < NCOLS; i++) h += column_hash(st->cards[i], st->len[i]);
    return h;
}

uint64_t child_hash(const State *parent, const uint64_t *colh, const State *child, Move m) {
    int i = m.sk == COL ? m.si : -1, j = m.dk == COL ? m.di : -1;
    uint64_t h = cells_hash(child);
    for (int c = 0; c < NCOLS; c++)
        h += (c == i || c == j || child->len[c] != parent->len[c]) ? column_hash(child->cards[c], child->len[c])
                                                                     : colh[c];
    return h;
}
/* ---- heuristic ----------------------------------------------------------------- */

double column_term(const Config *cfg, const uint8_t *col, int n, const uint8_t *founds) {
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

double column_terms(const Config *cfg, const uint8_t *col, int n, const uint8_t *founds, ColumnTerms *ct) {
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

double full_h(const Config *cfg, const State *st, double *terms) {
    double v = 52 - sum_founds(st) + cfg->cell_w * st->ncells;
    for (int i = 0; i < NCOLS; i++) {
        terms[i] = column_term(cfg, st->cards[i], st->len[i], st->founds);
        v += terms[i];
    }
    return v;
}
/* ---- moves ------------------------------------------------------------------------- */

int autoplay(const Config *cfg, State *st, uint8_t *homed) {
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

void apply_move(State *st, Move m) {
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

int gen_moves_in(const Config *cfg, const State *st, MoveCtx *x, Move *out) {
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

