/* Search tables: stored nodes, the hash set, the exact-key map, the clock. */
#define _GNU_SOURCE /* clock_gettime, madvise's huge pages, fileno, truncate */
#include "tables.h"
#include "position.h"

#ifdef __linux__ /* madvise's huge pages; elsewhere (WebAssembly: no mmap) realloc alone */
#include <sys/mman.h>
#endif
#ifdef MADV_HUGEPAGE
#include <malloc.h> /* malloc_usable_size */
#endif

#define HUGE_PAGES_FROM ((size_t)4 << 20) /* tables this large ask for 2 MB pages: fewer TLB misses */
/* ---- the budget ------------------------------------------------------------------- */

void *budget_resize(Budget *b, void *p, size_t old_bytes, size_t new_bytes) {
    if (b->used - old_bytes + new_bytes > b->max) {
        b->full = 1;
        return NULL;
    }
    void *q = realloc(p, new_bytes);
    if (q == NULL) return NULL;
    b->used = b->used - old_bytes + new_bytes;
#ifdef MADV_HUGEPAGE
    if (new_bytes >= HUGE_PAGES_FROM) { /* 2 MB pages where the kernel has them */
        /* The whole mapping, from its first page (the block's header) to its last
         * (malloc_usable_size reaches it): advice on part of it would split it, and
         * mremap refuses a range of two mappings (EFAULT), so realloc would copy the
         * table, old and new both resident (1.5x the budget at the next growth). */
        uintptr_t from = (uintptr_t)q & ~(uintptr_t)4095;
        uintptr_t to = ((uintptr_t)q + malloc_usable_size(q) + 4095) & ~(uintptr_t)4095;
        madvise((void *)from, to - from, MADV_HUGEPAGE);
    }
#endif
    return q;
}

void *budget_room(Budget *b, void *items, size_t *cap, size_t need, size_t first, size_t size) {
    if (need <= *cap && items != NULL) return items; /* none yet: ``first`` even for need 0 */
    size_t grown = *cap ? *cap : first;
    while (grown < need) grown *= 2;
    void *more = budget_resize(b, items, *cap * size, grown * size);
    if (more != NULL) *cap = grown;
    return more;
}

void budget_free(Budget *b, void *p, size_t bytes) {
    if (p == NULL) return;
    free(p);
    b->used -= bytes;
}

int no_room(const Budget *b) { return b->full ? LIMIT : NOMEM; }
/* ---- the hash set ------------------------------------------------------------------ */

static uint64_t *hashset_slots(Budget *b, size_t cap) {
    uint64_t *slots = budget_resize(b, NULL, 0, cap * sizeof(uint64_t));
    if (slots != NULL) memset(slots, 0, cap * sizeof(uint64_t));
    return slots;
}

int hashset_init(HashSet *set, size_t cap, Budget *b) { return TABLE_INIT(set, b, hashset_slots(b, cap), cap); }

void hashset_free(HashSet *set) { TABLE_FREE(set); }

int hashset_add(HashSet *set, uint64_t h) {
    if (h == 0) h = 1;
    if (2 * (set->count + 1) > set->mask + 1) { /* keep the load under one half */
        size_t cap = 2 * (set->mask + 1);
        uint64_t *slots = hashset_slots(set->budget, cap);
        if (slots == NULL) return -1;
        for (size_t k = 0; k <= set->mask; k++) {
            uint64_t v = set->slots[k];
            if (v) {
                size_t p = (size_t)v & (cap - 1);
                while (slots[p]) p = (p + 1) & (cap - 1);
                slots[p] = v;
            }
        }
        hashset_free(set);
        set->slots = slots;
        set->mask = cap - 1;
    }
    size_t p = (size_t)h & set->mask;
    while (set->slots[p]) {
        if (set->slots[p] == h) return 0;
        p = (p + 1) & set->mask;
    }
    set->slots[p] = h;
    set->count++;
    return 1;
}

/* ---- stored nodes ---------------------------------------------------------------- */

static Node *nodes_push(Nodes *nodes) {
    if (nodes->n >= (size_t)INT32_MAX) { /* node indices are int32: stop as at the budget */
        nodes->budget->full = 1;
        return NULL;
    }
    if (nodes->n == nodes->cap) {
        size_t cap = nodes->cap ? 2 * nodes->cap : 256;
        Node *items = budget_resize(nodes->budget, nodes->items, nodes->cap * sizeof(Node), cap * sizeof(Node));
        if (items == NULL) return NULL;
        nodes->items = items;
        nodes->cap = cap;
    }
    return &nodes->items[nodes->n++];
}

void nodes_free(Nodes *nodes) {
    budget_free(nodes->budget, nodes->items, nodes->cap * sizeof(Node));
    nodes->items = NULL;
    nodes->n = nodes->cap = 0;
}

double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int past(double deadline) { return deadline >= 0 && now_seconds() > deadline; }
/* ---- open lists ----------------------------------------------------------------------- */

/* ---- exact keys ---------------------------------------------------------------------- */

int same_position(const State *a, const State *b) {
    if (memcmp(a->founds, b->founds, 4) || a->ncells != b->ncells ||
        memcmp(a->cells, b->cells, a->ncells))
        return 0;
    for (int i = 0; i < NCOLS; i++) {
        int n = a->len[i];
        if (!n) continue;
        int j = 0;
        while (j < NCOLS && !(b->len[j] && b->cards[j][0] == a->cards[i][0])) j++;
        if (j == NCOLS || b->len[j] != n || memcmp(a->cards[i], b->cards[j], (size_t)n)) return 0;
    }
    return 1; /* equal foundations and cells: both hold the same number of column cards */
}

static Slot *exactmap_slots(Budget *b, size_t cap) {
    Slot *slots = budget_resize(b, NULL, 0, cap * sizeof(Slot));
    if (slots != NULL)
        for (size_t k = 0; k < cap; k++) slots[k].node = -1;
    return slots;
}

int exactmap_init(ExactMap *map, size_t cap, Budget *b) { return TABLE_INIT(map, b, exactmap_slots(b, cap), cap); }

void exactmap_free(ExactMap *map) { TABLE_FREE(map); }

Slot *exactmap_find(const ExactMap *map, const Nodes *nodes, const State *st, uint64_t h) {
    State other;
    size_t p = (size_t)h & map->mask;
    for (;;) {
        Slot *slot = &map->slots[p];
        if (slot->node < 0) return slot;
        if (slot->hash == h) {
            unpack(&nodes->items[slot->node], &other);
            if (same_position(st, &other)) return slot;
        }
        p = (p + 1) & map->mask;
    }
}

/* Twice the slots; 0 when there was no room. */
static int exactmap_grow(ExactMap *map) {
    size_t cap = 2 * (map->mask + 1);
    Slot *slots = exactmap_slots(map->budget, cap);
    if (slots == NULL) return 0;
    for (size_t k = 0; k <= map->mask; k++) {
        Slot s = map->slots[k];
        if (s.node >= 0) {
            size_t p = (size_t)s.hash & (cap - 1);
            while (slots[p].node >= 0) p = (p + 1) & (cap - 1);
            slots[p] = s;
        }
    }
    exactmap_free(map);
    map->slots = slots;
    map->mask = cap - 1;
    return 1;
}

int exactmap_reserve(ExactMap *map) {
    return 2 * (map->count + 1) <= map->mask + 1 || exactmap_grow(map);
}

Node *add_node(Nodes *nodes, const State *st, int32_t parent, Move move, int32_t g) {
    Node *node = nodes_push(nodes);
    if (node == NULL) return NULL;
    node->parent = parent;
    node->g = g;
    node->superseded = 0;
    node->move = move;
    pack(st, node);
    return node;
}

