#ifndef EIGHTOFF_TABLES_H
#define EIGHTOFF_TABLES_H

#include "rules.h"

/* Resizes a table from ``old_bytes`` to ``new_bytes`` (``p`` NULL: a new one) within
 * the search's budget; NULL when that would pass it (``full`` set) or memory ran out.
 * Only the new size is counted: a large block (past malloc's mmap threshold, 32 MiB at
 * most) is a mapping of its own, which realloc moves (mremap) rather than copies, so
 * old and new never coexist. */
void *budget_resize(Budget *b, void *p, size_t old_bytes, size_t new_bytes);

/* ``items`` (``*cap`` items of ``size`` bytes) with room for ``need``: the same
 * block, or one doubled (from ``first`` items) until it holds them; NULL only when
 * the budget refuses (``items`` and ``*cap`` as they were). */
void *budget_room(Budget *b, void *items, size_t *cap, size_t need, size_t first, size_t size);

void budget_free(Budget *b, void *p, size_t bytes);

/* Where the search stopped when a table found no room: at the budget (LIMIT, an
 * "unknown" verdict) or out of memory (NOMEM, a MemoryError). */
int no_room(const Budget *b);

/* An open-addressing table's fields: its slots (of ``SlotType``), one less than their
 * count (a power of two), the entries in it, the budget its slots come from. */
#define TABLE_OF(SlotType)                                                                                        \
    SlotType *slots;                                                                                              \
    size_t mask, count;                                                                                           \
    Budget *budget

/* Table ``t`` made over ``fresh`` (NULL: no room), ``cap`` slots from budget ``b``;
 * its value: whether there were slots. */
#define TABLE_INIT(t, b, fresh, cap)                                                                              \
    ((t)->budget = (b), (t)->slots = (fresh), (t)->mask = (cap) - 1, (t)->count = 0, (t)->slots != NULL)

/* Table ``t``'s slots given back to its budget. */
#define TABLE_FREE(t)                                                                                             \
    (budget_free((t)->budget, (t)->slots, ((t)->mask + 1) * sizeof *(t)->slots), (t)->slots = NULL)

/* Open-addressing set of 64-bit hashes (0 marks a free slot). */
typedef struct {
    TABLE_OF(uint64_t);
} HashSet;

int hashset_init(HashSet *set, size_t cap, Budget *b);

void hashset_free(HashSet *set);

/* Fetches h's first slot into the cache ahead of hashset_add. */
static inline void hashset_prefetch(const HashSet *set, uint64_t h) {
    __builtin_prefetch(&set->slots[(size_t)(h ? h : 1) & set->mask]);
}

/* Adds h; returns 1 if it was new, 0 if present, -1 when there was no room. */
int hashset_add(HashSet *set, uint64_t h);

void nodes_free(Nodes *nodes);

double now_seconds(void);

/* Whether ``deadline`` (< 0: none) has passed. */
int past(double deadline);

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
    static inline int Name##_push(Name *heap, Type e) {                                               \
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
    static inline Type Name##_pop(Name *heap) {                                                       \
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
    static inline void Name##_free(Name *heap) { /* twice is harmless */                              \
        budget_free(heap->budget, heap->items, heap->cap * sizeof(Type));                     \
        heap->items = NULL;                                                                    \
        heap->n = heap->cap = 0;                                                               \
    }

/* Same position up to column and cell order. Cells are kept sorted; a non-empty
 * column is named by its bottom card (every card is unique), so the columns match
 * when each of a's has an equal column in b with that bottom card. */
int same_position(const State *a, const State *b);

/* Hash -> node index; equal hashes are told apart by same_position, so a hit is
 * exact and "no solution" from a search over this map is a proof. */
typedef struct {
    uint64_t hash;
    int32_t node; /* -1: free */
} Slot;

typedef struct {
    TABLE_OF(Slot);
} ExactMap;

int exactmap_init(ExactMap *map, size_t cap, Budget *b);

void exactmap_free(ExactMap *map);

/* The slot holding ``st`` (node >= 0) or the free slot where it belongs (node -1). */
Slot *exactmap_find(const ExactMap *map, const Nodes *nodes, const State *st, uint64_t h);

/* Room for one more entry (call before exactmap_find for an insert); 0 when none. */
int exactmap_reserve(ExactMap *map);

Node *add_node(Nodes *nodes, const State *st, int32_t parent, Move move, int32_t g);

#endif
