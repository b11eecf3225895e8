/* The engine's legal moves and their play on an EState (see engine.h). */
#include "engine.h"
#include "position.h"

int to_cell(EState *es, int ncells, int card) {
    int k = 0;
    while (k < ncells && es->cells[k] >= 0) k++;
    if (k == ncells) return -1;
    es->cells[k] = (int8_t)card;
    return k;
}

int from_cell(EState *es, int ncells, int card) {
    int k = 0;
    while (k < ncells && es->cells[k] != card) k++;
    if (k == ncells) return -1;
    es->cells[k] = -1;
    return k;
}

int engine_play(const Config *cfg, EState *es, Move m) {
    int nc = cfg->ncells, card;
    if (m.n > 1) { /* a run between columns (group moves) */
        int si = m.si, di = m.di, n = m.n, len = es->len[si];
        if (m.sk != COL || m.dk != COL || si == di || len < n || cfg->group == GROUP_SINGLE) return 0;
        const uint8_t *run = es->cards[si] + len - n;
        for (int k = 0; k + 1 < n; k++)
            if (!builds(run[k + 1], run[k], cfg->suit)) return 0;
        int free = 0, empty = 0;
        for (int k = 0; k < nc; k++) free += es->cells[k] < 0;
        for (int j = 0; j < NCOLS; j++) empty += !es->len[j];
        if (n > run_capacity(cfg->group, free, empty, !es->len[di])) return 0;
        if (es->len[di]) {
            if (!builds(run[0], es->cards[di][es->len[di] - 1], cfg->suit)) return 0;
        } else if (!starts_column(run[0], cfg->kings_only) || n == len) {
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
        } else if (!starts_column(card, cfg->kings_only) || (m.sk == COL && es->len[m.si] == 1)) {
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

int estate_equal(const EState *a, const EState *b, int nc) {
    if (memcmp(a->len, b->len, NCOLS) || memcmp(a->founds, b->founds, 4) || memcmp(a->cells, b->cells, (size_t)nc))
        return 0;
    for (int i = 0; i < NCOLS; i++)
        if (memcmp(a->cards[i], b->cards[i], a->len[i])) return 0;
    return 1;
}

/* Length of the built run at the exposed end of column i. */
static int engine_run(const EState *es, int i, int suit) {
    int n = es->len[i], k = n ? 1 : 0;
    const uint8_t *col = es->cards[i];
    while (k < n && builds(col[n - k], col[n - k - 1], suit)) k++;
    return k;
}

/* The moves of one card from (sk, si): home, onto a column, to an empty column, to
 * a cell (never from a cell). */
static int card_moves(const EngineRules *r, const EState *es, int card, int sk, int si, int whole_column,
                      int to_found, Move *out) {
    int nm = 0;
    if (to_found && es->founds[card / 13] == card % 13) out[nm++] = mv(sk, si, FOUND, -1, 1);
    for (int j = 0; j < NCOLS; j++) {
        if (es->len[j]) {
            if (!(sk == COL && si == j) && builds(card, es->cards[j][es->len[j] - 1], r->suit))
                out[nm++] = mv(sk, si, COL, j, 1);
        } else if (!whole_column && starts_column(card, r->kings_only)) {
            out[nm++] = mv(sk, si, COL, j, 1);
        }
    }
    if (sk != CELL)
        for (int k = 0; k < r->ncells; k++)
            if (es->cells[k] < 0) out[nm++] = mv(sk, si, CELL, k, 1);
    return nm;
}

int engine_moves(const EngineRules *r, const EState *es, Move *out) {
    int nm = 0, free = 0, empty = 0;
    for (int k = 0; k < r->ncells; k++) free += es->cells[k] < 0;
    for (int j = 0; j < NCOLS; j++) empty += !es->len[j];
    int cap = run_capacity(r->group, free, empty, 0), cap_empty = run_capacity(r->group, free, empty, 1);
    for (int i = 0; i < NCOLS; i++) {
        int len = es->len[i];
        if (!len) continue;
        const uint8_t *col = es->cards[i];
        nm += card_moves(r, es, col[len - 1], COL, i, len == 1, 1, out + nm);
        if (r->group == GROUP_SINGLE) continue;
        int run = engine_run(es, i, r->suit);
        for (int n = 2; n <= run; n++) {
            int head = col[len - n];
            for (int j = 0; j < NCOLS && n <= cap; j++)
                if (j != i && es->len[j] && builds(head, es->cards[j][es->len[j] - 1], r->suit))
                    out[nm++] = mv(COL, i, COL, j, n);
            if (n <= cap_empty && n < len && starts_column(head, r->kings_only))
                for (int j = 0; j < NCOLS; j++)
                    if (!es->len[j]) out[nm++] = mv(COL, i, COL, j, n);
        }
    }
    for (int k = 0; k < r->ncells; k++)
        if (es->cells[k] >= 0) nm += card_moves(r, es, es->cells[k], CELL, k, 0, 1, out + nm);
    if (r->take_back)
        for (int s = 0; s < 4; s++)
            if (es->founds[s]) nm += card_moves(r, es, s * 13 + es->founds[s] - 1, FOUND, s, 0, 0, out + nm);
    return nm;
}

/* The first card that may go home safely: its move, or 0 when there is none. */
static int next_home(const EngineRules *r, const EState *es, Move *m) {
    int mode = r->suit ? AUTO_ALL : AUTO_SAFE;
    for (int i = 0; i < NCOLS; i++) {
        if (!es->len[i]) continue;
        int card = es->cards[i][es->len[i] - 1];
        if (es->founds[SUIT(card)] == RANK(card) && autoplays(mode, card, es->founds)) {
            *m = mv(COL, i, FOUND, -1, 1);
            return 1;
        }
    }
    for (int k = 0; k < r->ncells; k++) {
        int card = es->cells[k];
        if (card >= 0 && es->founds[SUIT(card)] == RANK(card) && autoplays(mode, card, es->founds)) {
            *m = mv(CELL, k, FOUND, -1, 1);
            return 1;
        }
    }
    return 0;
}

int engine_autoplay(const EngineRules *r, EState *es, Move *out) {
    int n = 0;
    Move m;
    while (n < 52 && next_home(r, es, &m)) {
        int card = m.sk == COL ? es->cards[m.si][--es->len[m.si]] : es->cells[m.si];
        if (m.sk == CELL) es->cells[m.si] = -1;
        es->founds[SUIT(card)]++;
        out[n++] = m;
    }
    return n;
}

/* A refusal with code ``code`` and no values yet. */
static WhyNot why(int code) { return (WhyNot){code, 0, -1, -1, -1, -1, -1, -1, -1}; }

/* Whether (kind, i) names no place these rules have: the refusal, variant and place set. */
static int no_such_place(const EngineRules *r, int kind, int i, int target, WhyNot *out) {
    int bad = kind == FOUND ? (target ? i != -1 : i < 0 || i >= 4)
                            : i < 0 || i >= (kind == COL ? NCOLS : r->ncells);
    if (!bad) return 0;
    *out = why(WHY_NO_SUCH_PLACE);
    out->variant = kind == FOUND ? target : kind == COL ? 2 : 3;
    out->place = target, out->number = i, out->most = r->ncells;
    return 1;
}

WhyNot engine_why_not(const EngineRules *r, const EState *es, int sk, int si, int dk, int di, int n) {
    WhyNot w = why(WHY_LEGAL);
    int head;
    if (n < 1) return why(WHY_NO_CARD);
    if (no_such_place(r, sk, si, 0, &w) || no_such_place(r, dk, di, 1, &w)) return w;
    if (sk == dk && si == di) return why(WHY_SAME_PLACE);
    if (sk == COL) {
        int len = es->len[si], run = 1;
        const uint8_t *col = es->cards[si];
        if (!len) return why(WHY_EMPTY_SOURCE);
        if (n > len) {
            w = why(WHY_TOO_FEW_CARDS);
            w.number = len;
            return w;
        }
        head = col[len - n];
        while (run < n && builds(col[len - run], col[len - run - 1], r->suit)) run++;
        if (run < n) {
            w = why(WHY_NOT_A_RUN);
            w.card = head, w.lower = col[len - run], w.other = col[len - run - 1], w.number = n;
            return w;
        }
    } else {
        if (sk == FOUND && !r->take_back) return why(WHY_NO_TAKE_BACK);
        head = sk == CELL ? es->cells[si] : es->founds[si] ? si * 13 + es->founds[si] - 1 : -1;
        if (head < 0) return why(WHY_EMPTY_SOURCE);
        if (n > 1) return why(WHY_ONE_AT_A_TIME);
    }
    w.card = head;
    if (dk == FOUND) {
        int have = es->founds[SUIT(head)];
        if (n > 1) w.code = WHY_ONE_AT_A_TIME, w.variant = 1;
        else if (sk == FOUND) w.code = WHY_SAME_PLACE, w.variant = 1;
        else if (have != RANK(head)) w.code = WHY_NOT_NEXT, w.need = have > RANK(head) ? -1 : SUIT(head) * 13 + have;
        return w.code ? w : why(WHY_LEGAL);
    }
    if (dk == CELL) {
        if (n > 1) w.code = WHY_ONE_AT_A_TIME, w.variant = 2;
        else if (sk == CELL) w.code = WHY_CELL_TO_CELL;
        else if (es->cells[di] >= 0) w.code = WHY_CELL_FULL, w.other = es->cells[di];
        return w.code ? w : why(WHY_LEGAL);
    }
    int to_empty = !es->len[di];
    if (!to_empty) {
        int onto = es->cards[di][es->len[di] - 1];
        if (!builds(head, onto, r->suit)) {
            w.code = WHY_DOES_NOT_BUILD, w.other = onto;
            w.need = RANK(head) == 12 ? -1 : head + 1;
            w.variant = r->suit || w.need < 0 ? 0 : is_red(head) ? 2 : 1;
            return w;
        }
    } else if (!starts_column(head, r->kings_only)) {
        w.code = WHY_KINGS_ONLY;
        return w;
    } else if (sk == COL && n == es->len[si]) {
        return why(WHY_WHOLE_COLUMN);
    }
    if (n > 1) {
        int free = 0, empty = 0;
        if (r->group == GROUP_SINGLE) return why(WHY_SINGLE_MOVES);
        for (int k = 0; k < r->ncells; k++) free += es->cells[k] < 0;
        for (int j = 0; j < NCOLS; j++) empty += !es->len[j];
        int most = run_capacity(r->group, free, empty, to_empty);
        if (n > most) {
            w = why(WHY_NO_ROOM);
            w.number = n, w.most = most;
            return w;
        }
    }
    return why(WHY_LEGAL);
}
