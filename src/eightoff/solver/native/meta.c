/* Freecell Solver's meta-move tests (see meta.h). */
#include "meta.h"
#include "position.h"
#include "tables.h"

void meta_list_free(MetaList *l) {
    budget_free(l->budget, l->items, l->cap * sizeof(MetaMove));
    budget_free(l->budget, l->steps, l->scap * sizeof(Move));
    l->items = NULL;
    l->steps = NULL;
    l->n = l->cap = l->nsteps = l->scap = 0;
}

static inline int meta_empty_columns(const State *st) {
    int e = 0;
    for (int i = 0; i < NCOLS; i++) e += st->len[i] == 0;
    return e;
}

void meta_step(const Config *cfg, MetaBuild *b, Move m) {
    State *w = &b->w;
    if (b->bad || b->n == META_STEPS) {
        b->bad = 1;
        return;
    }
    int card;
    if (m.sk == COL) {
        if (w->len[m.si] < m.n) goto bad;
        card = w->cards[m.si][w->len[m.si] - m.n];
        for (int k = w->len[m.si] - m.n; k + 1 < w->len[m.si]; k++)
            if (!builds(w->cards[m.si][k + 1], w->cards[m.si][k], cfg->suit)) goto bad;
    } else {
        card = m.si; /* a cell's card */
    }
    if (m.dk == COL) {
        int to_empty = w->len[m.di] == 0;
        if (m.sk == COL && (m.si == m.di || (to_empty && m.n == w->len[m.si]))) goto bad;
        if (m.n > run_capacity(cfg->group, cfg->ncells - w->ncells, meta_empty_columns(w), to_empty)) goto bad;
        if (to_empty ? !starts_column(card, cfg->kings_only)
                     : !builds(card, w->cards[m.di][w->len[m.di] - 1], cfg->suit))
            goto bad;
    } else if (m.dk == CELL) {
        if (w->ncells >= cfg->ncells) goto bad;
    } else if (w->founds[SUIT(card)] != RANK(card)) {
        goto bad;
    }
    apply_move(w, m);
    b->steps[b->n++] = m;
    return;
bad:
    b->bad = 1;
}

/* fc-solve's empty_two_cols_from_new_state: parks the top ``count`` cards of column
 * ``i``, top first, in the free cells, then one each in the empty columns in stored
 * order from the ``*next``-th place on. Returns where the last card went: a column
 * (>= 0) or a cell (-1 - its card). */
static int meta_park(const Config *cfg, MetaBuild *b, const FcsOrder *o, int i, int count, int *next) {
    int last = 0;
    for (int k = 0; k < count && !b->bad; k++) {
        if (b->w.len[i] == 0) { /* never by the tests' counts: a guard */
            b->bad = 1;
            break;
        }
        int card = b->w.cards[i][b->w.len[i] - 1];
        if (b->w.ncells < cfg->ncells) {
            meta_step(cfg, b, mv(COL, i, CELL, -1, 1));
            last = -1 - card;
            continue;
        }
        while (*next < NCOLS && b->w.len[o->order[*next]] != 0) (*next)++;
        if (*next == NCOLS) {
            b->bad = 1;
            break;
        }
        last = o->order[*next];
        meta_step(cfg, b, mv(COL, i, COL, last, 1));
        (*next)++;
    }
    return last;
}

int meta_keep(MetaList *l, const MetaBuild *b, uint32_t context) {
    if (b->bad) return 1;
    MetaMove *items = budget_room(l->budget, l->items, &l->cap, l->n + 1, 64, sizeof(MetaMove));
    if (items == NULL) return 0;
    l->items = items;
    Move *steps = budget_room(l->budget, l->steps, &l->scap, l->nsteps + (size_t)b->n, 256, sizeof(Move));
    if (steps == NULL) return 0;
    l->steps = steps;
    memcpy(l->steps + l->nsteps, b->steps, (size_t)b->n * sizeof(Move));
    l->items[l->n++] = (MetaMove){state_hash(&b->w), (uint32_t)l->nsteps, context, (uint8_t)b->n};
    l->nsteps += (size_t)b->n;
    return 1;
}

/* fc-solve's sort_derived_states: items[from..] by context, stable. */
static void meta_sort(MetaList *l, size_t from) {
    for (size_t k = from + 1; k < l->n; k++) {
        MetaMove x = l->items[k];
        size_t at = k;
        while (at > from && l->items[at - 1].context > x.context) {
            l->items[at] = l->items[at - 1];
            at--;
        }
        l->items[at] = x;
    }
}

/* The stored places (p, height) of the cards fc-solve's positions_by_rank holds:
 * ``place[card]`` = p * 64 + height, or -1. */
static void meta_places(const Config *cfg, const State *st, const FcsOrder *o, int16_t *place) {
    for (int c = 0; c < 52; c++) place[c] = -1;
    for (int p = 0; p < NCOLS; p++) {
        int i = o->order[p], n = st->len[i];
        for (int h = 0; h < n; h++)
            if (h == n - 1 || !builds(st->cards[i][h + 1], st->cards[i][h], cfg->suit))
                place[st->cards[i][h]] = (int16_t)(p * 64 + h);
    }
}

/* The cards ``card`` builds on, in fc-solve's order: returns how many. */
static int meta_parents(const Config *cfg, int card, int *out) {
    int r = RANK(card) + 1;
    if (r == 13) return 0;
    if (cfg->suit) {
        out[0] = SUIT(card) * 13 + r;
        return 1;
    }
    if (is_red(card)) { /* clubs, then spades (fc-solve's suits: hearts, clubs, diamonds, spades) */
        out[0] = 3 * 13 + r;
        out[1] = 0 * 13 + r;
    } else { /* hearts, then diamonds */
        out[0] = 1 * 13 + r;
        out[1] = 2 * 13 + r;
    }
    return 2;
}

/* fc-solve's calc_max_sequence_move under "--sequence-move limited". A count of
 * empty columns below 0 (test 2's E - fs - 1 with every empty column taken, which its
 * caller then refuses) counts as none: a shift by a negative count is undefined. */
static inline int meta_max_run(const Config *cfg, int free_cells, int empty_columns) {
    return cfg->kings_only || empty_columns <= 0 ? free_cells + 1 : (free_cells + 1) << empty_columns;
}

/* The end of the maximal run that starts at ``c`` in column ``i``. */
static inline int meta_run_end(const Config *cfg, const State *st, int i, int c) {
    int e = c;
    while (e + 1 < st->len[i] && builds(st->cards[i][e + 1], st->cards[i][e], cfg->suit)) e++;
    return e;
}

int meta_moves(const Config *cfg, const State *st, const FcsOrder *o, char test, MetaList *l) {
    int F = cfg->ncells - st->ncells, E = meta_empty_columns(st), any = !cfg->kings_only;
    int slots = F + (any ? E : 0), virt = any ? E : 0;
    size_t from = l->n;
    MetaBuild b;
    int16_t place[52];
    int parents[2], next;
    if (test == '2' || test == '4' || test == '8') meta_places(cfg, st, o, place);
#define META_BEGIN() (b.w = *st, b.n = 0, b.bad = 0, next = 0)
    switch (test) {
    case '2': /* a cell's card onto a parent, the cards above the parent parked */
        for (int k = 0; k < st->ncells; k++) {
            int src = o->cells[k], np = meta_parents(cfg, src, parents);
            for (int q = 0; q < np; q++) {
                if (place[parents[q]] < 0) continue;
                int p = place[parents[q]] / 64, dc = place[parents[q]] % 64, ds = o->order[p];
                if (st->len[ds] > dc + 1 + slots) continue;
                META_BEGIN();
                meta_park(cfg, &b, o, ds, st->len[ds] - dc - 1, &next);
                meta_step(cfg, &b, mv(CELL, src, COL, ds, 1));
                /* fc-solve's fc index: the empty cells come first */
                if (!meta_keep(l, &b, (uint32_t)((p << 16) | ((255 - dc) << 8) | (k + F)))) return 0;
            }
        }
        meta_sort(l, from);
        break;
    case '3': /* a card under others home, the cards above it parked */
        for (int p = 0; p < NCOLS; p++) {
            int i = o->order[p], n = st->len[i], bottom = n - slots - 1 > 0 ? n - slots - 1 : 0;
            for (int c = n - 2; c >= bottom; c--) {
                int card = st->cards[i][c];
                if (st->founds[SUIT(card)] != RANK(card)) continue;
                META_BEGIN();
                meta_park(cfg, &b, o, i, n - c - 1, &next);
                meta_step(cfg, &b, mv(COL, i, FOUND, SUIT(card), 1));
                if (!meta_keep(l, &b, 0)) return 0;
            }
        }
        break;
    case '4': /* a run onto a parent in another column, the cards above both parked */
        for (int p = 0; p < NCOLS; p++) {
            int i = o->order[p], len = st->len[i];
            for (int c = 0; c < len;) {
                int end = meta_run_end(cfg, st, i, c), above = len - 1 - end, run = end - c + 1;
                int card = st->cards[i][c], np = RANK(card) == 12 ? 0 : meta_parents(cfg, card, parents);
                for (int q = 0; q < np; q++) {
                    if (place[parents[q]] < 0 || place[parents[q]] / 64 == p) continue;
                    int pd = place[parents[q]] / 64, dc = place[parents[q]] % 64, ds = o->order[pd];
                    int dest_above = st->len[ds] - dc - 1, left = dest_above + above;
                    int fc = left < F ? left : F;
                    left -= fc;
                    int fs = left < virt ? left : virt;
                    left -= fs;
                    if (left != 0 || meta_max_run(cfg, F - fc, virt - fs) < run) continue;
                    META_BEGIN();
                    meta_park(cfg, &b, o, ds, dest_above, &next);
                    meta_park(cfg, &b, o, i, above, &next);
                    meta_step(cfg, &b, mv(COL, i, COL, ds, run));
                    if (!meta_keep(l, &b, (uint32_t)((p << 24) | (c << 16) | (pd << 8) | dc))) return 0;
                }
                c = end + 1;
            }
        }
        meta_sort(l, from);
        break;
    case '5': /* a card onto a parent lower in its own column */
        for (int p = 0; p < NCOLS; p++) {
            int i = o->order[p], n = st->len[i], start = n - slots - 1 > 0 ? n - slots - 1 : 0;
            const uint8_t *col = st->cards[i];
            for (int c = start + 2; c < n; c++) {
                int card = col[c];
                if (builds(card, col[c - 1], cfg->suit)) continue;
                for (int dc = start; dc < c - 1; dc++) {
                    if (!builds(card, col[dc], cfg->suit) || builds(col[dc + 1], col[dc], cfg->suit)) continue;
                    META_BEGIN();
                    int last = meta_park(cfg, &b, o, i, n - c, &next);
                    next = 0; /* a second call of fc-solve's: its own search for empty columns */
                    meta_park(cfg, &b, o, i, c - 1 - dc, &next);
                    meta_step(cfg, &b, last < 0 ? mv(CELL, -1 - last, COL, i, 1) : mv(COL, last, COL, i, 1));
                    if (!meta_keep(l, &b, 0)) return 0;
                }
            }
        }
        break;
    case '6': { /* a run to an empty column */
        if (E == 0) break;
        int ds = o->order[0], longest = meta_max_run(cfg, F, E - 1);
        for (int p = 0; p < NCOLS; p++) {
            int i = o->order[p], len = st->len[i];
            const uint8_t *col = st->cards[i];
            for (int c = 0; c < len;) {
                int end = meta_run_end(cfg, st, i, c);
                if (!any && RANK(col[c]) != 12) {
                    c = end + 1;
                    continue;
                }
                if (end == len - 1) {
                    if (longest >= len - c && c > 0) {
                        META_BEGIN();
                        meta_step(cfg, &b, mv(COL, i, COL, ds, len - c));
                        if (!meta_keep(l, &b, 0)) return 0;
                    }
                } else {
                    int left = len - 1 - end, fc = left < F ? left : F;
                    left -= fc;
                    int fs = left < virt ? left : virt;
                    left -= fs;
                    int s = end + 1 - meta_max_run(cfg, F - fc, E - fs - 1);
                    if (s < c) s = c;
                    if (left == 0 && E - fs > 0 && s <= end && (any || RANK(col[s]) == 12)) {
                        META_BEGIN();
                        int last = meta_park(cfg, &b, o, i, fc + fs, &next);
                        int at = fs > 0 ? o->place[last] + 1 : 0; /* after the last column parked in */
                        while (at < NCOLS && b.w.len[o->order[at]] != 0) at++;
                        if (at == NCOLS) b.bad = 1;
                        /* a whole column to an empty one is the same position (columns are
                         * not told apart by place), which the engine never plays: fc-solve's
                         * child is the parking alone */
                        else if (end - s + 1 < b.w.len[i])
                            meta_step(cfg, &b, mv(COL, i, COL, o->order[at], end - s + 1));
                        if (b.n > 0 && !meta_keep(l, &b, 0)) return 0;
                    }
                }
                c = end + 1;
            }
        }
        break;
    }
    case '7': /* a cell's card to an empty column */
        if (E == 0) break;
        for (int k = 0; k < st->ncells; k++) {
            if (!any && RANK(o->cells[k]) != 12) continue;
            META_BEGIN();
            meta_step(cfg, &b, mv(CELL, o->cells[k], COL, o->order[0], 1));
            if (!meta_keep(l, &b, 0)) return 0;
        }
        break;
    case '8': /* cards already on a parent onto another parent */
        for (int p = 0; p < NCOLS; p++) {
            int i = o->order[p], n = st->len[i];
            if (n < 2) continue;
            const uint8_t *col = st->cards[i];
            int h = n - 2;
            while (h >= 0 && builds(col[h + 1], col[h], cfg->suit)) h--;
            for (int c = h + 2; c < n; c++) {
                int np = meta_parents(cfg, col[c], parents);
                for (int q = 0; q < np; q++) {
                    if (place[parents[q]] < 0 || place[parents[q]] / 64 == p) continue;
                    int pd = place[parents[q]] / 64, dc = place[parents[q]] % 64, ds = o->order[pd];
                    int left = st->len[ds] - dc - 1, fc = left < F ? left : F;
                    left -= fc;
                    int fs = left < virt ? left : virt;
                    left -= fs;
                    if (left != 0 || meta_max_run(cfg, F - fc, E - fs) < n - c) continue;
                    META_BEGIN();
                    meta_park(cfg, &b, o, ds, fc + fs, &next);
                    meta_step(cfg, &b, mv(COL, i, COL, ds, n - c));
                    if (!meta_keep(l, &b, (uint32_t)((p << 24) | (c << 16) | (pd << 8) | dc))) return 0;
                }
            }
        }
        meta_sort(l, from);
        break;
    case 'j': /* a cell's card to an empty column, and at once a card or run onto it */
        if (E == 0) break;
        for (int k = 0; k < st->ncells; k++) {
            int src = o->cells[k], es = o->order[0];
            if (!any && RANK(src) != 12) continue;
            for (int k2 = 0; k2 < st->ncells; k2++) { /* another cell's card */
                int dest = o->cells[k2];
                if (k2 == k || !builds(dest, src, cfg->suit)) continue;
                META_BEGIN();
                meta_step(cfg, &b, mv(CELL, src, COL, es, 1));
                meta_step(cfg, &b, mv(CELL, dest, COL, es, 1));
                if (!meta_keep(l, &b, 0)) return 0;
            }
            for (int p = 0; p < NCOLS; p++) { /* a column's run, the cards above it parked */
                int i = o->order[p], len = st->len[i];
                for (int c = 0; c < len;) {
                    int end = meta_run_end(cfg, st, i, c), above = len - 1 - end;
                    /* the cell it leaves is free for them, the column it fills is not */
                    int left = above, fc = left < F + 1 ? left : F + 1;
                    left -= fc;
                    int fs = left < E - 1 ? left : E - 1;
                    left -= fs;
                    if (builds(st->cards[i][c], src, cfg->suit) && left == 0 &&
                        meta_max_run(cfg, F + 1 - fc, E - 1 - fs) >= end - c + 1) {
                        META_BEGIN();
                        meta_step(cfg, &b, mv(CELL, src, COL, es, 1));
                        meta_park(cfg, &b, o, i, above, &next);
                        meta_step(cfg, &b, mv(COL, i, COL, es, end - c + 1));
                        if (!meta_keep(l, &b, 0)) return 0;
                    }
                    c = end + 1;
                }
            }
        }
        break;
    case '9': /* a whole column into the cells */
        if (F == 0 || E > 0) break;
        for (int p = 0; p < NCOLS; p++) {
            int i = o->order[p], n = st->len[i];
            if (n == 0 || n > F) continue;
            META_BEGIN();
            for (int k = 0; k < n; k++) meta_step(cfg, &b, mv(COL, i, CELL, -1, 1));
            if (!meta_keep(l, &b, 0)) return 0;
        }
        break;
    default:
        break;
    }
#undef META_BEGIN
    return 1;
}
