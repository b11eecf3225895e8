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

/* ---- shortcuts over a found line ------------------------------------------------------ */

static uint64_t estate_hash(const EState *es, int nc) {
    uint64_t h = fnv_more(FNV_START, es->len, NCOLS);
    h = fnv_more(h, es->founds, 4);
    h = fnv_more(h, (const uint8_t *)es->cells, (size_t)nc);
    for (int i = 0; i < NCOLS; i++) h = fnv_more(h, es->cards[i], es->len[i]);
    return mix64(h);
}

/* Shortens ``line`` (engine moves from ``start``) where one legal move from a
 * position on it reaches a later position on it (exactly: columns and cells in
 * place) for fewer single-card moves than the line takes there: the shortest way
 * from the first position to the last over the line's own moves and those bridges
 * (the line's positions come in order, so one pass in that order settles each).
 * A depth-first helper's line wanders (cards parked and fetched back, runs built
 * and taken apart); this cuts the detours one move can bridge. Returns 1; 0 when
 * out of memory; -1 when the line does not replay. */
static int shortcut_line(const Config *cfg, const EState *start, Line *line) {
    int n = line->n, nc = cfg->ncells;
    size_t size = 64;
    while (size < 2 * (size_t)(n + 1)) size *= 2;
    EState *states = malloc((size_t)(n + 1) * sizeof(EState));
    int *slots = malloc(size * sizeof(int)); /* hash table: state index + 1, 0 empty */
    int *cost = malloc((size_t)(n + 1) * sizeof(int)); /* single-card moves before each state */
    Move *out = malloc((size_t)(n > 0 ? n : 1) * sizeof(Move));
    int *from = malloc((size_t)(n + 1) * sizeof(int)); /* the position each is reached from */
    Move *via = malloc((size_t)(n + 1) * sizeof(Move)); /* and the move */
    int ok = states != NULL && slots != NULL && cost != NULL && out != NULL && from != NULL && via != NULL;
    if (!ok) goto done;
    memset(slots, 0, size * sizeof(int));
    states[0] = *start;
    cost[0] = 0;
    for (int k = 0; k <= n && ok; k++) {
        if (k > 0) {
            states[k] = states[k - 1];
            ok = engine_play(cfg, &states[k], line->items[k - 1]);
            cost[k] = cost[k - 1] + 2 * line->items[k - 1].n - 1;
        }
        size_t p = (size_t)estate_hash(&states[k], nc) & (size - 1);
        while (slots[p]) p = (p + 1) & (size - 1);
        slots[p] = k + 1; /* a line never repeats a position; if it did, the later one is found too */
    }
    if (!ok) {
        ok = -1;
        goto done;
    }
    EngineRules r = {cfg->ncells, cfg->suit, cfg->kings_only, cfg->group, cfg->take_back};
    Move moves[MAXMOVES];
    EState trial;
    /* cost[] now becomes the fewest single-card moves to each position; from[] and via[]
     * the position and move it is reached by (the line's own move unless a bridge). */
    for (int k = 1; k <= n; k++) {
        from[k] = k - 1;
        via[k] = line->items[k - 1];
    }
    for (int i = 0; i < n; i++) {
        if (cost[i] + 2 * line->items[i].n - 1 < cost[i + 1]) {
            cost[i + 1] = cost[i] + 2 * line->items[i].n - 1;
            from[i + 1] = i;
            via[i + 1] = line->items[i];
        }
        int nm = engine_moves(&r, &states[i], moves);
        for (int k = 0; k < nm; k++) {
            trial = states[i];
            engine_play(cfg, &trial, moves[k]);
            size_t p = (size_t)estate_hash(&trial, nc) & (size - 1);
            for (; slots[p]; p = (p + 1) & (size - 1)) {
                int j = slots[p] - 1;
                if (j <= i + 1 || !estate_equal(&trial, &states[j], nc)) continue;
                int c = cost[i] + 2 * moves[k].n - 1;
                if (c < cost[j]) {
                    cost[j] = c;
                    from[j] = i;
                    via[j] = moves[k];
                }
            }
        }
    }
    int m = 0;
    for (int j = n; j > 0; j = from[j]) out[m++] = via[j]; /* backwards from the end */
    for (int a = 0, b = m - 1; a < b; a++, b--) {
        Move t = out[a];
        out[a] = out[b];
        out[b] = t;
    }
    memcpy(line->items, out, (size_t)m * sizeof(Move));
    line->n = m;
done:
    free(states);
    free(slots);
    free(cost);
    free(out);
    free(from);
    free(via);
    return ok;
}
