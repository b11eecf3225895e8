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

/* A position's hash whatever the order of its columns and of its cells: the sum of
 * one term per column, one per cell and one for the foundations (a multiset's hash),
 * so a move's child changes only the terms of what the move touched (placed_child_hash). */
static inline uint64_t placed_column_term(const EState *es, int j) {
    return mix64(fnv_more(FNV_START ^ es->len[j], es->cards[j], es->len[j]));
}
static inline uint64_t cell_term(int card) { return mix64(0x5BD1E995ULL + (uint64_t)(card + 1)); }
static inline uint64_t founds_term(const uint8_t *founds) { return mix64(fnv_more(FNV_START, founds, 4)); }

static uint64_t estate_hash_any_order(const EState *es, int nc) {
    uint64_t h = founds_term(es->founds);
    for (int j = 0; j < NCOLS; j++) h += placed_column_term(es, j);
    for (int k = 0; k < nc; k++) h += cell_term(es->cells[k]);
    return h;
}

/* estate_hash_any_order of ``child``, a move's from ``es`` (whose hash is ``h`` and
 * column terms ``terms``): a move changes the length of each column it touches, and
 * only their cards, cells and foundations. */
static uint64_t placed_child_hash(const EState *es, uint64_t h, const uint64_t *terms, const EState *child, int nc) {
    for (int j = 0; j < NCOLS; j++)
        if (child->len[j] != es->len[j]) h += placed_column_term(child, j) - terms[j];
    for (int k = 0; k < nc; k++)
        if (child->cells[k] != es->cells[k]) h += cell_term(child->cells[k]) - cell_term(es->cells[k]);
    if (memcmp(child->founds, es->founds, 4)) h += founds_term(child->founds) - founds_term(es->founds);
    return h;
}

/* Whether ``a`` and ``b`` are one position but for the order of their columns and of
 * their cells. The cards are all different, so a column is known by its first card. */
static int estate_same_any_order(const EState *a, const EState *b, int nc) {
    if (memcmp(a->founds, b->founds, 4)) return 0;
    uint64_t ca = 0, cb = 0;
    for (int k = 0; k < nc; k++) {
        if (a->cells[k] >= 0) ca |= 1ULL << a->cells[k];
        if (b->cells[k] >= 0) cb |= 1ULL << b->cells[k];
    }
    if (ca != cb) return 0;
    int8_t at[52]; /* a card's column in b, where it is the column's first card */
    memset(at, -1, sizeof at);
    for (int j = 0; j < NCOLS; j++)
        if (b->len[j]) at[b->cards[j][0]] = (int8_t)j;
    int na = 0, nb = 0;
    for (int i = 0; i < NCOLS; i++) {
        nb += b->len[i] > 0;
        if (!a->len[i]) continue;
        na++;
        int j = at[a->cards[i][0]];
        if (j < 0 || a->len[i] != b->len[j] || memcmp(a->cards[i], b->cards[j], a->len[i])) return 0;
    }
    return na == nb;
}

/* Shortens ``line`` (engine moves from ``start``) where one legal move from a
 * position on it reaches a later position on it for fewer single-card moves than
 * the line takes there, or where the line comes back to a position it was in with
 * its columns or cells in another order (no move at all): the shortest way from the
 * first position to the last over the line's own moves and those bridges (they only
 * go forward, so one pass in the line's order settles each). Positions are matched
 * whatever the order of their columns and cells, as the proof's keys are: the moves
 * are then found again from the start, each the legal move that reaches the next
 * position of the shortest way (the same move in the columns and cells where the
 * cards now lie). A depth-first helper's line wanders (cards parked and fetched back,
 * runs built and taken apart, columns emptied and filled in another order); this
 * cuts the detours one move can bridge. Returns 1; 0 when out of memory; -1 when
 * the line does not replay. */
static int shortcut_line(const Config *cfg, const EState *start, Line *line) {
    int n = line->n, nc = cfg->ncells;
    size_t size = 64;
    while (size < 2 * (size_t)(n + 1)) size *= 2;
    EState *states = malloc((size_t)(n + 1) * sizeof(EState));
    int *slots = malloc(size * sizeof(int)); /* hash table: state index + 1, 0 empty */
    uint64_t *hashes = malloc((size_t)(n + 1) * sizeof(uint64_t));
    int *cost = malloc((size_t)(n + 1) * sizeof(int)); /* single-card moves before each state */
    Move *out = malloc((size_t)(n > 0 ? n : 1) * sizeof(Move));
    int *from = malloc((size_t)(n + 1) * sizeof(int)); /* the position each is reached from */
    Move *via = malloc((size_t)(n + 1) * sizeof(Move)); /* and the move (none: n == 0) */
    int *way = malloc((size_t)(n + 1) * sizeof(int)); /* the shortest way's positions, backwards */
    int ok = states != NULL && slots != NULL && hashes != NULL && cost != NULL && out != NULL && from != NULL &&
             via != NULL && way != NULL;
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
        hashes[k] = estate_hash_any_order(&states[k], nc);
        size_t p = (size_t)hashes[k] & (size - 1);
        while (slots[p]) p = (p + 1) & (size - 1);
        slots[p] = k + 1;
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
        /* The same position later on, its columns or cells in another order: no move. */
        for (size_t p = (size_t)hashes[i] & (size - 1); slots[p]; p = (p + 1) & (size - 1)) {
            int j = slots[p] - 1;
            if (j > i && cost[i] < cost[j] && hashes[j] == hashes[i] &&
                estate_same_any_order(&states[i], &states[j], nc)) {
                cost[j] = cost[i];
                from[j] = i;
                via[j] = mv(COL, 0, COL, 0, 0);
            }
        }
        if (cost[i] + 2 * line->items[i].n - 1 < cost[i + 1]) {
            cost[i + 1] = cost[i] + 2 * line->items[i].n - 1;
            from[i + 1] = i;
            via[i + 1] = line->items[i];
        }
        int nm = engine_moves(&r, &states[i], moves);
        uint64_t terms[NCOLS];
        for (int j = 0; j < NCOLS; j++) terms[j] = placed_column_term(&states[i], j);
        for (int k = 0; k < nm; k++) {
            trial = states[i];
            engine_play(cfg, &trial, moves[k]);
            uint64_t h = placed_child_hash(&states[i], hashes[i], terms, &trial, nc);
            for (size_t p = (size_t)h & (size - 1); slots[p]; p = (p + 1) & (size - 1)) {
                int j = slots[p] - 1, c = cost[i] + 2 * moves[k].n - 1;
                if (j <= i || c >= cost[j] || hashes[j] != h || !estate_same_any_order(&trial, &states[j], nc))
                    continue;
                cost[j] = c;
                from[j] = i;
                via[j] = moves[k];
            }
        }
    }
    /* The shortest way backwards from the end, then played forwards: at each step,
     * the legal move of as many cards that reaches the next position of the way
     * wherever its columns and cells now lie. */
    int m = 0;
    for (int j = n; j > 0; j = from[j]) way[m++] = j;
    EState cur = *start;
    int made = 0;
    for (int s = m - 1; s >= 0 && ok > 0; s--) {
        int j = way[s];
        if (via[j].n == 0) continue; /* the same position: nothing to play */
        int nm = engine_moves(&r, &cur, moves), k = 0;
        for (; k < nm; k++) {
            if (moves[k].n != via[j].n) continue;
            trial = cur;
            engine_play(cfg, &trial, moves[k]);
            if (estate_same_any_order(&trial, &states[j], nc)) break;
        }
        if (k == nm) {
            ok = -1; /* a bug: the move exists, in other columns and cells */
            break;
        }
        cur = trial;
        out[made++] = moves[k];
    }
    if (ok > 0) {
        memcpy(line->items, out, (size_t)made * sizeof(Move));
        line->n = made;
    }
done:
    free(states);
    free(slots);
    free(hashes);
    free(cost);
    free(out);
    free(from);
    free(via);
    free(way);
    return ok;
}
