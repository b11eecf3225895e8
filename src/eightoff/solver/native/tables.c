/* Search tables: stored nodes, the hash set, the exact-key map, the clock.
 *
 * Part of the _native extension, built as one unit: module.c includes every file
 * (in dependency order), so all functions stay static and inline across files. */

#include <sys/mman.h>
#ifdef MADV_HUGEPAGE
#include <malloc.h> /* malloc_usable_size */
#endif

#define HUGE_PAGES_FROM ((size_t)4 << 20) /* tables this large ask for 2 MB pages: fewer TLB misses */

/* ---- the budget ------------------------------------------------------------------- */

/* Resizes a table from ``old_bytes`` to ``new_bytes`` (``p`` NULL: a new one) within
 * the search's budget; NULL when that would pass it (``full`` set) or memory ran out.
 * Only the new size is counted: a large block (past malloc's mmap threshold, 32 MiB at
 * most) is a mapping of its own, which realloc moves (mremap) rather than copies, so
 * old and new never coexist. */
static void *budget_resize(Budget *b, void *p, size_t old_bytes, size_t new_bytes) {
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

/* ``items`` (``*cap`` items of ``size`` bytes) with room for ``need``: the same
 * block, or one doubled (from ``first`` items) until it holds them; NULL only when
 * the budget refuses (``items`` and ``*cap`` as they were). */
static void *budget_room(Budget *b, void *items, size_t *cap, size_t need, size_t first, size_t size) {
    if (need <= *cap && items != NULL) return items; /* none yet: ``first`` even for need 0 */
    size_t grown = *cap ? *cap : first;
    while (grown < need) grown *= 2;
    void *more = budget_resize(b, items, *cap * size, grown * size);
    if (more != NULL) *cap = grown;
    return more;
}

static void budget_free(Budget *b, void *p, size_t bytes) {
    if (p == NULL) return;
    free(p);
    b->used -= bytes;
}

/* Where the search stopped when a table found no room: at the budget (LIMIT, an
 * "unknown" verdict) or out of memory (NOMEM, a MemoryError). */
static int no_room(const Budget *b) { return b->full ? LIMIT : NOMEM; }

/* ---- the hash set ------------------------------------------------------------------ */

/* Open-addressing set of 64-bit hashes (0 marks a free slot). */
typedef struct {
    uint64_t *slots;
    size_t mask, count;
    Budget *budget;
} HashSet;

static uint64_t *hashset_slots(Budget *b, size_t cap) {
    uint64_t *slots = budget_resize(b, NULL, 0, cap * sizeof(uint64_t));
    if (slots != NULL) memset(slots, 0, cap * sizeof(uint64_t));
    return slots;
}

static int hashset_init(HashSet *set, size_t cap, Budget *b) {
    set->budget = b;
    set->slots = hashset_slots(b, cap);
    set->mask = cap - 1;
    set->count = 0;
    return set->slots != NULL;
}

static void hashset_free(HashSet *set) {
    budget_free(set->budget, set->slots, (set->mask + 1) * sizeof(uint64_t));
    set->slots = NULL;
}

/* Fetches h's first slot into the cache ahead of hashset_add. */
static inline void hashset_prefetch(const HashSet *set, uint64_t h) {
    __builtin_prefetch(&set->slots[(size_t)(h ? h : 1) & set->mask]);
}

/* Adds h; returns 1 if it was new, 0 if present, -1 when there was no room. */
static int hashset_add(HashSet *set, uint64_t h) {
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

static void nodes_free(Nodes *nodes) {
    budget_free(nodes->budget, nodes->items, nodes->cap * sizeof(Node));
    nodes->items = NULL;
    nodes->n = nodes->cap = 0;
}

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Whether ``deadline`` (< 0: none) has passed. */
static int past(double deadline) { return deadline >= 0 && now_seconds() > deadline; }

/* Counts one more expanded position; 1 (status LIMIT) when the node or time limit
 * stops the search there. The clock is read every 256 positions. */
static inline int limit_reached(Outcome *out, long max_nodes, double deadline) {
    out->nodes++;
    if (max_nodes >= 0 && out->nodes > max_nodes) {
        out->status = LIMIT;
        out->nodes--;
        return 1;
    }
    if (deadline >= 0 && !(out->nodes & 255) && now_seconds() > deadline) {
        out->status = LIMIT;
        return 1;
    }
    return 0;
}

/* ---- open lists ----------------------------------------------------------------------- */

/* A binary min-heap ``Name`` of ``Type`` ordered by ``less(a, b)``, within the budget:
 * ``Name_push`` (0 when there is no room) and ``Name_pop`` (the heap must not be
 * empty). A macro, so each search's entry type gets its own inlined comparisons. */
#define DEFINE_HEAP(Name, Type, less)                                                          \
    typedef struct {                                                                           \
        Type *items;                                                                           \
        size_t n, cap;                                                                         \
        Budget *budget;                                                                        \
    } Name;                                                                                    \
                                                                                               \
    static int Name##_push(Name *heap, Type e) {                                               \
        if (heap->n == heap->cap) {                                                            \
            size_t cap = heap->cap ? 2 * heap->cap : 1024;                                     \
            Type *items = budget_resize(heap->budget, heap->items, heap->cap * sizeof(Type),   \
                                        cap * sizeof(Type));                                   \
            if (items == NULL) return 0;                                                       \
            heap->items = items;                                                               \
            heap->cap = cap;                                                                   \
        }                                                                                      \
        size_t k = heap->n++;                                                                  \
        Type *a = heap->items;                                                                 \
        while (k > 0) {                                                                        \
            size_t p = (k - 1) / 2;                                                            \
            if (!less(&e, &a[p])) break;                                                       \
            a[k] = a[p];                                                                       \
            k = p;                                                                             \
        }                                                                                      \
        a[k] = e;                                                                              \
        return 1;                                                                              \
    }                                                                                          \
                                                                                               \
    static Type Name##_pop(Name *heap) {                                                       \
        Type *a = heap->items;                                                                 \
        Type top = a[0], last = a[--heap->n];                                                  \
        size_t n = heap->n, k = 0;                                                             \
        for (;;) {                                                                             \
            size_t c = 2 * k + 1;                                                              \
            if (c >= n) break;                                                                 \
            if (c + 1 < n && less(&a[c + 1], &a[c])) c++;                                      \
            if (!less(&a[c], &last)) break;                                                    \
            a[k] = a[c];                                                                       \
            k = c;                                                                             \
        }                                                                                      \
        if (n) a[k] = last;                                                                    \
        return top;                                                                            \
    }                                                                                          \
                                                                                               \
    static void Name##_free(Name *heap) { /* twice is harmless */                                \
        budget_free(heap->budget, heap->items, heap->cap * sizeof(Type));                     \
        heap->items = NULL;                                                                    \
        heap->n = heap->cap = 0;                                                               \
    }

/* ---- exact keys ---------------------------------------------------------------------- */

/* Same position up to column and cell order. Cells are kept sorted; a non-empty
 * column is named by its bottom card (every card is unique), so the columns match
 * when each of a's has an equal column in b with that bottom card. */
static int same_position(const State *a, const State *b) {
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

/* Hash -> node index; equal hashes are told apart by same_position, so a hit is
 * exact and "no solution" from a search over this map is a proof. */
typedef struct {
    uint64_t hash;
    int32_t node; /* -1: free */
} Slot;

typedef struct {
    Slot *slots;
    size_t mask, count;
    Budget *budget;
} ExactMap;

static Slot *exactmap_slots(Budget *b, size_t cap) {
    Slot *slots = budget_resize(b, NULL, 0, cap * sizeof(Slot));
    if (slots != NULL)
        for (size_t k = 0; k < cap; k++) slots[k].node = -1;
    return slots;
}

static int exactmap_init(ExactMap *map, size_t cap, Budget *b) {
    map->budget = b;
    map->slots = exactmap_slots(b, cap);
    map->mask = cap - 1;
    map->count = 0;
    return map->slots != NULL;
}

static void exactmap_free(ExactMap *map) {
    budget_free(map->budget, map->slots, (map->mask + 1) * sizeof(Slot));
    map->slots = NULL;
}

/* The slot holding ``st`` (node >= 0) or the free slot where it belongs (node -1). */
static Slot *exactmap_find(const ExactMap *map, const Nodes *nodes, const State *st, uint64_t h) {
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

/* Room for one more entry (call before exactmap_find for an insert); 0 when none. */
static int exactmap_reserve(ExactMap *map) {
    return 2 * (map->count + 1) <= map->mask + 1 || exactmap_grow(map);
}

static Node *add_node(Nodes *nodes, const State *st, int32_t parent, Move move, int32_t g) {
    Node *node = nodes_push(nodes);
    if (node == NULL) return NULL;
    node->parent = parent;
    node->g = g;
    node->superseded = 0;
    node->move = move;
    pack(st, node);
    return node;
}

