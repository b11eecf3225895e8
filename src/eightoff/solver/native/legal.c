/* The engine's legal moves in C: Position.legal_moves over an EState, built from
 * rules.h as the move generator and the line finisher are. Exposed as
 * _native.legal_moves so the tests can hold the C rules to the engine's.
 *
 * Part of the _native extension, built as one unit: module.c includes every file
 * (in dependency order), so all functions stay static and inline across files. */

/* The engine's rule options (eightoff.rules.Rules) as plain ints. */
typedef struct {
    int ncells, suit, kings_only, group, take_back;
} EngineRules;

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

/* Every legal move, in Position.legal_moves' order; returns how many. */
static int engine_moves(const EngineRules *r, const EState *es, Move *out) {
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
