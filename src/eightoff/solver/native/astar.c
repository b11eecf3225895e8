/* ---- optimal: A* over single-card moves with Paul & Helmert's bound --------------------- */
#include "astar.h"
#include "position.h"
#include "tables.h"

uint64_t SUIT_FROM[52];

typedef struct {
    int card;
    uint64_t waits, above;
} Item;

/* A column's share of the bound (optimal.column_info): how many of its cards must
 * move twice, and an Item for every other card with cards beneath it. */
typedef struct {
    int forced, n;
    Item items[MAXCOL];
} ColumnInfo;
uint64_t SUIT_BITS[4]; /* all 13 bits of a suit */

void astar_init(void) {
    for (int c = 0; c < 52; c++) SUIT_FROM[c] = ((1ULL << (13 - c % 13)) - 1) << c;
    for (int s = 0; s < 4; s++) SUIT_BITS[s] = SUIT_FROM[13 * s];
}

static void column_info(const uint8_t *col, int len, ColumnInfo *info) {
    int low[4] = {99, 99, 99, 99}, any = 0;
    uint64_t waits = 0, above = 0; /* kept up to date as the lowest cards change */
    info->forced = info->n = 0;
    for (int k = 0; k < len; k++) {
        int c = col[k], s = SUIT(c);
        if (low[s] < c) {
            info->forced++;
        } else if (any) {
            Item *item = &info->items[info->n++];
            item->card = c;
            item->waits = waits;
            item->above = above;
        }
        if (c < low[s]) {
            low[s] = c;
            any = 1;
            waits |= SUIT_FROM[c]; /* a lower card of a suit: a superset of its bits */
            above = (above & ~SUIT_BITS[s]) | (SUIT_FROM[c] & ~(1ULL << c));
        }
    }
}

/* The lower bound: one move per card not home, one more per card above a
 * lower card of its suit, and one per pair in a greedy packing of two-card cycles. */
static int bound_of(int home, const ColumnInfo *const *infos) {
    const Item *items[52];
    int n = 0, v = 52 - home;
    for (int i = 0; i < NCOLS; i++) {
        v += infos[i]->forced;
        for (int k = 0; k < infos[i]->n; k++) items[n++] = &infos[i]->items[k];
    }
    uint8_t used[52] = {0};
    for (int i = 0; i < n; i++) {
        if (used[i]) continue;
        for (int j = i + 1; j < n; j++) {
            if (used[j]) continue;
            if ((items[i]->waits >> items[j]->card) & 1 && (items[j]->above >> items[i]->card) & 1) {
                used[i] = used[j] = 1;
                v++;
                break;
            }
        }
    }
    return v;
}

static int lower_bound(const State *st, ColumnInfo *infos) {
    const ColumnInfo *use[NCOLS];
    for (int i = 0; i < NCOLS; i++) {
        column_info(st->cards[i], st->len[i], &infos[i]);
        use[i] = &infos[i];
    }
    return bound_of(sum_founds(st), use);
}

/* A child's bound from its parent's column infos (only changed columns recomputed,
 * as in child_hash). */
static int child_bound(const State *parent, const ColumnInfo *infos, const State *child, Move m,
                       ColumnInfo *scratch) {
    const ColumnInfo *use[NCOLS];
    int i = m.sk == COL ? m.si : -1, j = m.dk == COL ? m.di : -1;
    for (int c = 0; c < NCOLS; c++) {
        if (c == i || c == j || child->len[c] != parent->len[c]) {
            column_info(child->cards[c], child->len[c], &scratch[c]);
            use[c] = &scratch[c];
        } else {
            use[c] = &infos[c];
        }
    }
    return bound_of(sum_founds(child), use);
}

/* An A* open-list entry: ordered by f, ties to the deeper node, then FIFO. */
typedef struct {
    int32_t f, g;
    uint32_t counter;
    int32_t node;
} AEntry;

static inline int aentry_less(const AEntry *a, const AEntry *b) {
    if (a->f != b->f) return a->f < b->f;
    if (a->g != b->g) return a->g > b->g;
    return a->counter < b->counter;
}

DEFINE_HEAP(AHeap, AEntry, aentry_less)

Outcome astar(const Config *cfg, const State *root, int g0, Nodes *nodes, long max_nodes,
                     double deadline, int below) {
    Outcome out = {EXHAUSTED, 0, -1};
    AHeap heap = {NULL, 0, 0, nodes->budget};
    ExactMap map;
    Move moves[MAXMOVES];
    uint8_t homed[52];
    State st, child;
    uint64_t colh[NCOLS];
    ColumnInfo infos[NCOLS], scratch[NCOLS];
    uint32_t counter = 0;
    if (!exactmap_init(&map, 1 << 10, nodes->budget)) {
        out.status = no_room(nodes->budget);
        return out;
    }
    if (add_node(nodes, root, -1, mv(-1, -1, -1, -1, 0), g0) == NULL) goto nomem;
    uint64_t h0 = state_hash(root);
    Slot *slot = exactmap_find(&map, nodes, root, h0);
    slot->hash = h0;
    slot->node = 0;
    map.count = 1;
    AEntry e0 = {g0 + lower_bound(root, infos), g0, 0, 0};
    if (!AHeap_push(&heap, e0)) goto nomem;
    while (heap.n) {
        AEntry e = AHeap_pop(&heap);
        Node *node = &nodes->items[e.node];
        if (node->superseded) continue; /* reached more cheaply since */
        unpack(node, &st);
        for (int c = 0; c < NCOLS; c++) {
            colh[c] = column_hash(st.cards[c], st.len[c]);
            column_info(st.cards[c], st.len[c], &infos[c]);
        }
        if (sum_founds(&st) == 52) {
            out.status = SOLVED;
            out.goal = e.node;
            break;
        }
        if (limit_reached(&out, max_nodes, deadline)) break;
        int nm = gen_moves(cfg, &st, moves);
        for (int k = 0; k < nm; k++) {
            child = st;
            apply_move(&child, moves[k]);
            int g2 = e.g + 1 + autoplay(cfg, &child, homed);
            if (below >= 0 && g2 >= below) continue; /* no shorter solution through it */
            uint64_t h = child_hash(&st, colh, &child, moves[k]);
            if (!exactmap_reserve(&map)) goto nomem;
            slot = exactmap_find(&map, nodes, &child, h);
            if (slot->node >= 0 && nodes->items[slot->node].g <= g2) continue;
            int f = g2 + child_bound(&st, infos, &child, moves[k], scratch);
            if (below >= 0 && f >= below) continue; /* its bound says none shorter */
            int32_t old = slot->node;
            if (add_node(nodes, &child, e.node, moves[k], g2) == NULL) goto nomem;
            if (old >= 0)
                nodes->items[old].superseded = 1;
            else
                map.count++;
            slot->hash = h;
            slot->node = (int32_t)(nodes->n - 1);
            AEntry c = {f, g2, ++counter, slot->node};
            if (!AHeap_push(&heap, c)) goto nomem;
        }
    }
    AHeap_free(&heap);
    exactmap_free(&map);
    return out;
nomem:
    out.status = no_room(nodes->budget);
    AHeap_free(&heap);
    exactmap_free(&map);
    return out;
}

