/* The weighted best-first search (see best_first.h). */
#include "best_first.h"
#include "position.h"

#include <limits.h>
/* ---- weighted best-first ---------------------------------------------------------- */

int bf_init(BestFirst *s, const Config *cfg, const State *root, Nodes *nodes) {
    Entry e0 = {0.0, 0, -1, 0, mv(-1, -1, -1, -1, 0)};
    s->cfg = cfg;
    s->root = root;
    s->nodes = nodes;
    s->heap = (Heap){NULL, 0, 0, nodes->budget};
    s->counter = 0;
    s->out = (Outcome){EXHAUSTED, 0, -1};
    if (!hashset_init(&s->seen, 1 << 10, nodes->budget)) {
        s->out.status = no_room(nodes->budget);
        return 0;
    }
    if (add_node(nodes, root, -1, mv(-1, -1, -1, -1, 0), 0) == NULL || hashset_add(&s->seen, state_hash(root)) < 0 ||
        !Heap_push(&s->heap, e0)) {
        s->out.status = no_room(nodes->budget);
        return 0;
    }
    return 1;
}

void bf_free(BestFirst *s) {
    Heap_free(&s->heap);
    hashset_free(&s->seen);
}

/* The cards move ``m`` carries from ``st``: the top of its source column, or the
 * one card of a cell or a foundation (written to ``*one``). */
static inline const uint8_t *moved_cards(const State *st, Move m, uint8_t *one) {
    if (m.sk == COL) return st->cards[m.si] + st->len[m.si] - m.n;
    *one = (uint8_t)(m.sk == CELL ? m.si : m.si * 13 + st->founds[m.si] - 1);
    return one;
}

int bf_run(BestFirst *s, long pause_at, long max_nodes, double deadline) {
    const Config *cfg = s->cfg;
    Nodes *nodes = s->nodes;
    Outcome *out = &s->out;
    Move moves[MAXMOVES];
    uint8_t homed[52];
    double terms[NCOLS];
    ColumnTerms cts[NCOLS];
    uint64_t colh[NCOLS], prefix[NCOLS][MAXCOL + 1];
    State st, child;
    while (s->heap.n) {
        if (out->nodes >= pause_at) return 0;
        Entry e = Heap_pop(&s->heap);
        int32_t here;
        if (e.parent < 0) {
            st = *s->root;
            here = 0;
        } else {
            unpack(&nodes->items[e.parent], &st);
            apply_move(&st, e.move);
            if (autoplay(cfg, &st, homed)) {
                /* The pushed hash was of the position before autoplay. */
                int fresh = hashset_add(&s->seen, state_hash(&st));
                if (fresh < 0) goto nomem;
                if (!fresh) continue;
            }
            if (add_node(nodes, &st, e.parent, e.move, e.g) == NULL) goto nomem;
            here = (int32_t)(nodes->n - 1);
            if (sum_founds(&st) == 52) {
                out->status = SOLVED;
                out->goal = here;
                return 1;
            }
        }
        if (limit_reached(out, max_nodes, deadline)) return 1;
        /* h as full_h sums it, each column's terms kept for its children's */
        double hv = 52 - sum_founds(&st) + cfg->cell_w * st.ncells;
        for (int i = 0; i < NCOLS; i++) {
            terms[i] = column_terms(cfg, st.cards[i], st.len[i], st.founds, &cts[i]);
            hv += terms[i];
        }
        uint64_t x = cells_hash(&st);
        for (int i = 0; i < NCOLS; i++) { /* each column's running FNV state, per prefix */
            prefix[i][0] = FNV_START;
            for (int k = 0; k < st.len[i]; k++) prefix[i][k + 1] = fnv_more(prefix[i][k], &st.cards[i][k], 1);
            x += colh[i] = column_done(prefix[i][st.len[i]], st.len[i]);
        }
        int nm = gen_moves(cfg, &st, moves);
        /* The children's hashes first, their slots fetched meanwhile; then the
         * look-ups, which find them in the cache (as exhaust.c's children's). The
         * child is not built: its hash and h come from the parent's columns and the
         * cards that move (most children are seen already or never popped). */
        uint64_t ys[MAXMOVES];
        for (int k = 0; k < nm; k++) {
            Move m = moves[k];
            int i = m.sk == COL ? m.si : -1, j = m.dk == COL ? m.di : -1, n = m.n;
            uint8_t one;
            const uint8_t *moving = moved_cards(&st, m, &one);
            uint64_t y = x;
            if (i >= 0) y += column_done(prefix[i][st.len[i] - n], st.len[i] - n) - colh[i];
            if (j >= 0)
                y += column_done(fnv_more(prefix[j][st.len[j]], moving, n), st.len[j] + n) - colh[j];
            if (m.sk == CELL) y -= CELL_HASH[one];
            if (m.dk == CELL)
                for (int c = 0; c < n; c++) y += CELL_HASH[moving[c]];
            ys[k] = y;
            hashset_prefetch(&s->seen, y);
        }
        for (int k = 0; k < nm; k++) {
            Move m = moves[k];
            int fresh = hashset_add(&s->seen, ys[k]);
            if (fresh < 0) goto nomem;
            if (!fresh) continue;
            int i = m.sk == COL ? m.si : -1, j = m.dk == COL ? m.di : -1, n = m.n;
            uint8_t one;
            const uint8_t *moving = moved_cards(&st, m, &one);
            int cost = e.g + (m.dk == CELL ? n : 2 * n - 1);
            double h2, bonus = 0;
            if (m.sk == FOUND || m.dk == FOUND) { /* the foundations changed: all of h */
                double t2[NCOLS];
                child = st;
                apply_move(&child, m);
                h2 = full_h(cfg, &child, t2);
            } else {
                h2 = hv + cfg->cell_w * (m.dk == CELL ? n : -1 * (m.sk == CELL));
                if (i >= 0) {
                    int left = st.len[i] - n;
                    h2 += prefix_term(cfg, &cts[i], left) - terms[i];
                    if (cfg->autoplay && left) {
                        /* The card this move exposes will go home: rank it a card better. */
                        int t = st.cards[i][left - 1];
                        if (st.founds[SUIT(t)] == RANK(t) && (cfg->autoplay == AUTO_ALL || safe_home(t, st.founds)))
                            bonus = 1;
                    }
                }
                if (j >= 0) h2 += appended_term(cfg, &cts[j], st.len[j], moving, n, st.founds) - terms[j];
            }
            Entry c = {cost + cfg->weight * (h2 - bonus), ++s->counter, here, cost, m};
            if (!Heap_push(&s->heap, c)) goto nomem;
        }
    }
    out->status = EXHAUSTED;
    return 1;
nomem:
    out->status = no_room(nodes->budget);
    return 1;
}

Outcome best_first(const Config *cfg, const State *root, Nodes *nodes, long max_nodes,
                          double deadline) {
    BestFirst s;
    if (bf_init(&s, cfg, root, nodes)) bf_run(&s, LONG_MAX, max_nodes, deadline);
    bf_free(&s);
    return s.out;
}
