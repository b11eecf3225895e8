/* Shortcuts over a found line: a stretch the engine's legal moves can skip is
 * replaced by one legal move (or two, on a long line) reaching the same position,
 * whatever its column and cell order. */
#include "shortcut.h"
#include "position.h"
#include "tables.h"

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

/* A line this long (single-card moves) or longer once one-move shortcuts are made
 * wanders (the proof's depth-first line, mostly): its shortcuts then try two moves as
 * well, up to two_moves_max moves in the line (the pass costs the square of a
 * position's moves for each of its positions). */

/* The line's positions for shortcut_line: each with its hash (estate_hash_any_order)
 * in a table of slots, the fewest single-card moves to it found so far and the way
 * it is reached (from ``from``, by ``via`` then ``then``: no move where via.n == 0,
 * one where then.n == 0). */
typedef struct {
    EState *states;
    uint64_t *hashes;
    int *slots, *cost, *from;
    Move *via, *then;
    size_t size;
    int nc;
} Shortcuts;

/* Where ``trial`` (hash ``h``), reached from position ``i`` for ``c`` single-card
 * moves by ``m1`` then ``m2``, is a later position of the line reached for more. */
static void shortcut_to(Shortcuts *w, int i, const EState *trial, uint64_t h, int c, Move m1, Move m2) {
    for (size_t p = (size_t)h & (w->size - 1); w->slots[p]; p = (p + 1) & (w->size - 1)) {
        int j = w->slots[p] - 1;
        if (j <= i || c >= w->cost[j] || w->hashes[j] != h || !estate_same_any_order(trial, &w->states[j], w->nc))
            continue;
        w->cost[j] = c;
        w->from[j] = i;
        w->via[j] = m1;
        w->then[j] = m2;
    }
}

/* The legal move of ``n`` cards from ``cur`` whose child (into ``child``) is ``want``
 * whatever the order of its columns and cells, then (``n2`` > 0) one of ``n2`` from
 * that child: how many moves went to ``out`` (0: none is). */
static int shortcut_moves(const Config *cfg, const EngineRules *r, const EState *cur, int n, int n2,
                          const EState *want, EState *child, Move *out) {
    Move moves[MAXMOVES];
    int nm = engine_moves(r, cur, moves);
    for (int k = 0; k < nm; k++) {
        if (moves[k].n != n) continue;
        *child = *cur;
        engine_play(cfg, child, moves[k]);
        if (n2 > 0) {
            EState mid = *child;
            if (shortcut_moves(cfg, r, &mid, n2, 0, want, child, out + 1)) {
                out[0] = moves[k];
                return 2;
            }
        } else if (estate_same_any_order(child, want, cfg->ncells)) {
            out[0] = moves[k];
            return 1;
        }
    }
    return 0;
}

/* What lies under each card, whatever the order of columns and cells: the card
 * beneath it in its column, or UNDER_BASE (a column's first card), UNDER_CELL,
 * UNDER_HOME. Two positions that are one but for that order have the same map, and a
 * move changes one card's entry at most (its first card's: the cards on it go with
 * it), so positions k moves apart differ in k entries or fewer (bridge_cards). */
enum { UNDER_BASE = 52, UNDER_CELL, UNDER_HOME };

static void under_map(const EState *es, int nc, uint8_t *under) {
    memset(under, UNDER_HOME, 52); /* home unless found below */
    for (int j = 0; j < NCOLS; j++)
        for (int k = 0; k < es->len[j]; k++) under[es->cards[j][k]] = k ? es->cards[j][k - 1] : UNDER_BASE;
    for (int k = 0; k < nc; k++)
        if (es->cells[k] >= 0) under[es->cells[k]] = UNDER_CELL;
}

/* The first card of the cards ``m`` moves from ``es``. */
static int moved_card(const EState *es, Move m) {
    if (m.sk == COL) return es->cards[m.si][es->len[m.si] - m.n];
    if (m.sk == CELL) return es->cells[m.si];
    return m.si * 13 + es->founds[m.si] - 1;
}

/* The cards a bridge of ``moves`` moves from position ``i`` of the line could move
 * to shorten the way to a later one (a bit per card): those that lie elsewhere
 * (under_map) in a position j > i that differs from i in ``moves`` entries or fewer
 * and is reached so far for more than ``moves`` single-card moves past i's cost.
 * The cards that differ are kept as a mask along the line: the line's move to j
 * changes the entry of its card ``moved[j]`` alone. */
static uint64_t bridge_cards(const uint8_t *under, const int8_t *moved, const int *cost, int n, int i, int moves) {
    const uint8_t *at = under + (size_t)i * 52;
    uint64_t cards = 0, apart = 0;
    int d = 0; /* the bits set in apart (no popcount instruction without -mpopcnt) */
    for (int j = i + 1; j <= n; j++) {
        int c = moved[j];
        uint64_t was = apart >> c & 1, now = under[(size_t)j * 52 + c] != at[c];
        apart ^= (was ^ now) << c;
        d += (int)now - (int)was;
        if (d <= moves && cost[j] > cost[i] + moves) cards |= apart;
    }
    return cards;
}

/* Shortens ``line`` (engine moves from ``start``) where one legal move from a
 * position on it (or two, with ``two``: shortcut_line) reaches a later position on
 * it for fewer single-card moves than the line takes there, or
 * where the line comes back to a position it was in with its columns or cells in
 * another order (no move at all): the shortest way from the first position to the
 * last over the line's own moves and those bridges (they only go forward, so one
 * pass in the line's order settles each). Positions are matched whatever the order
 * of their columns and cells, as the proof's keys are: the moves are then found
 * again from the start, the legal moves of as many cards that reach the next
 * position of the shortest way (the same moves in the columns and cells where the
 * cards now lie). A depth-first helper's line wanders (cards parked and fetched
 * back, runs built and taken apart, columns emptied and filled in another order);
 * this cuts the detours a move or two can bridge. Past ``deadline`` (< 0: none) a
 * two-move pass stops and leaves the line as it was. Returns 1; 0 when out of memory;
 * -1 when the line does not replay. */
static int shortcut_pass(const Config *cfg, const EState *start, Line *line, int two, double deadline) {
    int n = line->n, nc = cfg->ncells;
    Shortcuts w = {NULL, NULL, NULL, NULL, NULL, NULL, NULL, 64, nc};
    while (w.size < 2 * (size_t)(n + 1)) w.size *= 2;
    w.states = malloc((size_t)(n + 1) * sizeof(EState));
    w.slots = malloc(w.size * sizeof(int)); /* hash table: state index + 1, 0 empty */
    w.hashes = malloc((size_t)(n + 1) * sizeof(uint64_t));
    w.cost = malloc((size_t)(n + 1) * sizeof(int)); /* single-card moves before each state */
    w.from = malloc((size_t)(n + 1) * sizeof(int));
    w.via = malloc((size_t)(n + 1) * sizeof(Move));
    w.then = malloc((size_t)(n + 1) * sizeof(Move));
    int *way = malloc((size_t)(n + 1) * sizeof(int)); /* the shortest way's positions, backwards */
    uint8_t *under = malloc((size_t)(n + 1) * 52); /* each position's under_map */
    int8_t *moved = malloc((size_t)(n + 1)); /* the card the line's move to each position moves */
    Move *out = malloc(2 * (size_t)(n + 1) * sizeof(Move));
    int ok = w.states != NULL && w.slots != NULL && w.hashes != NULL && w.cost != NULL && w.from != NULL &&
             w.via != NULL && w.then != NULL && way != NULL && out != NULL && under != NULL &&
             moved != NULL;
    if (!ok) goto done;
    memset(w.slots, 0, w.size * sizeof(int));
    w.states[0] = *start;
    w.cost[0] = 0;
    for (int k = 0; k <= n && ok; k++) {
        if (k > 0) {
            w.states[k] = w.states[k - 1];
            moved[k] = (int8_t)moved_card(&w.states[k - 1], line->items[k - 1]);
            ok = engine_play(cfg, &w.states[k], line->items[k - 1]);
            w.cost[k] = w.cost[k - 1] + 2 * line->items[k - 1].n - 1;
        }
        w.hashes[k] = estate_hash_any_order(&w.states[k], nc);
        under_map(&w.states[k], nc, under + (size_t)k * 52);
        size_t p = (size_t)w.hashes[k] & (w.size - 1);
        while (w.slots[p]) p = (p + 1) & (w.size - 1);
        w.slots[p] = k + 1;
    }
    if (!ok) {
        ok = -1;
        goto done;
    }
    EngineRules r = {cfg->ncells, cfg->suit, cfg->kings_only, cfg->group, cfg->take_back};
    const Move none = mv(COL, 0, COL, 0, 0);
    Move moves[MAXMOVES], seconds[MAXMOVES];
    EState trial, second;
    /* cost[] now becomes the fewest single-card moves to each position; from[], via[]
     * and then[] the way it is reached (the line's own move unless a bridge). */
    for (int k = 1; k <= n; k++) {
        w.from[k] = k - 1;
        w.via[k] = line->items[k - 1];
        w.then[k] = none;
    }
    for (int i = 0; i < n; i++) {
        if (two && (i & 63) == 0 && past(deadline)) goto done; /* the line as it was */
        const EState *at = &w.states[i];
        shortcut_to(&w, i, at, w.hashes[i], w.cost[i], none, none); /* the same position later on */
        if (w.cost[i] + 2 * line->items[i].n - 1 < w.cost[i + 1]) { /* the line's own move */
            w.cost[i + 1] = w.cost[i] + 2 * line->items[i].n - 1;
            w.from[i + 1] = i;
            w.via[i + 1] = line->items[i];
            w.then[i + 1] = none;
        }
        /* Only moves of cards that lie elsewhere in a later position a move or two
         * away that costs more can shorten the way (bridge_cards): the rest are not
         * played, nor are the positions they reach (the same bridges are found). */
        uint64_t seconds_of = two ? bridge_cards(under, moved, w.cost, n, i, 2) : 0;
        uint64_t firsts_of = seconds_of | bridge_cards(under, moved, w.cost, n, i, 1);
        if (!firsts_of) continue;
        int nm = engine_moves(&r, at, moves);
        uint64_t terms[NCOLS], terms2[NCOLS];
        for (int j = 0; j < NCOLS; j++) terms[j] = placed_column_term(at, j);
        for (int k = 0; k < nm; k++) {
            if (!(firsts_of >> moved_card(at, moves[k]) & 1)) continue;
            trial = *at;
            engine_play(cfg, &trial, moves[k]);
            uint64_t h = placed_child_hash(at, w.hashes[i], terms, &trial, nc);
            int c = w.cost[i] + 2 * moves[k].n - 1;
            shortcut_to(&w, i, &trial, h, c, moves[k], none);
            if (!(seconds_of >> moved_card(at, moves[k]) & 1)) continue;
            int nm2 = engine_moves(&r, &trial, seconds);
            for (int j = 0; j < NCOLS; j++) terms2[j] = placed_column_term(&trial, j);
            for (int k2 = 0; k2 < nm2; k2++) {
                if (!(seconds_of >> moved_card(&trial, seconds[k2]) & 1)) continue;
                second = trial;
                engine_play(cfg, &second, seconds[k2]);
                uint64_t h2 = placed_child_hash(&trial, h, terms2, &second, nc);
                shortcut_to(&w, i, &second, h2, c + 2 * seconds[k2].n - 1, moves[k], seconds[k2]);
            }
        }
    }
    /* The shortest way backwards from the end, then played forwards: its own moves
     * while the cards lie where they lay on the line, else found again. */
    int m = 0;
    for (int j = n; j > 0; j = w.from[j]) way[m++] = j;
    EState cur = *start;
    int made = 0;
    int placed = 1; /* cur is w.states[i] column for column, cell for cell (no jump moved a card yet) */
    for (int s = m - 1, i = 0; s >= 0 && ok > 0; i = way[s--]) {
        int j = way[s];
        if (w.via[j].n == 0) { /* the same position: nothing to play */
            placed = placed && estate_equal(&w.states[i], &w.states[j], nc);
            continue;
        }
        if (placed) { /* the way's own moves, made from this very position */
            trial = cur;
            engine_play(cfg, &trial, w.via[j]);
            out[made++] = w.via[j];
            if (w.then[j].n) {
                engine_play(cfg, &trial, w.then[j]);
                out[made++] = w.then[j];
            }
            cur = trial;
            placed = estate_equal(&cur, &w.states[j], nc);
            continue;
        }
        int got = shortcut_moves(cfg, &r, &cur, w.via[j].n, w.then[j].n, &w.states[j], &trial, out + made);
        if (!got) {
            ok = -1; /* a bug: the moves exist, in other columns and cells */
            break;
        }
        cur = trial;
        made += got;
        placed = estate_equal(&cur, &w.states[j], nc);
    }
    if (ok > 0 && made > line->cap) {
        Move *items = realloc(line->items, (size_t)made * sizeof(Move));
        if (items == NULL) {
            ok = 0;
        } else {
            line->items = items;
            line->cap = made;
        }
    }
    if (ok > 0) {
        if (made) memcpy(line->items, out, (size_t)made * sizeof(Move)); /* an empty line may have no items */
        line->n = made;
    }
done:
    free(w.states);
    free(w.slots);
    free(w.hashes);
    free(w.cost);
    free(w.from);
    free(w.via);
    free(w.then);
    free(way);
    free(out);
    free(under);
    free(moved);
    return ok;
}

int shortcut_line(const Schedule *sch, const Config *cfg, const EState *start, Line *line, double deadline) {
    int ok = shortcut_pass(cfg, start, line, 0, deadline);
    if (ok > 0 && line->n <= sch->two_moves_max && single_card_length(line->items, line->n) >= sch->long_line)
        ok = shortcut_pass(cfg, start, line, 1, deadline);
    return ok;
}
