/* The proof: every reachable position, exact keys (no heuristic, no heap).
 *
 * Part of the _native extension, built as one unit: module.c includes every file
 * (in dependency order), so all functions stay static and inline across files. */

/* ---- the proof: depth-first over every reachable position, exact keys ----------------- */

/* A depth-first search over every position reachable from the root, told apart by
 * exact keys (keys.c): running dry proves that no solution exists. A position is
 * stored as its parent's record and its key, about 20 bytes with its table slot (a
 * Node took 80, its map slot 16 to 32 more). It can stop after any
 * expansion and go on later (proof.c runs it by turns with best-first), and a
 * position whose children found no room is left on the stack, so the search can go
 * on once room was made (ex_run returns EX_FULL). */
typedef struct {
    const Config *cfg;
    Nodes *nodes; /* its budget; on a win, the path from the root (collect_path) */
    KeyRoot root;
    uint8_t *arena; /* records: parent's (int32), key length (1 byte), key; 4-aligned */
    size_t used, acap;
    size_t n; /* positions stored */
    uint64_t *slots; /* hash tag << 32 | record + 1; 0: free */
    size_t mask;
    int shift; /* 32 - log2(slots): a tag's first slot is tag >> shift */
    int32_t *stack; /* records */
    size_t depth, cap;
    int crowd; /* 1: when the slots cannot double, fill them past 3/4 (ex_room) */
    Outcome out;
} Exhaust;

/* A position is named by its record's place in the arena, in 4-byte words (an
 * int32: MAX_ARENA bytes at most): a slot or a stack entry leads straight to the
 * key, with no table of offsets between (one cache miss less a look-up). */
#define MAX_ARENA ((size_t)1 << 33)

enum { EX_PAUSED = 0, EX_ENDED = 1, EX_FULL = 2 };

/* What a move and autoplay change in a State besides the cards past a column's
 * length: saved before a child is played on its parent, put back after. */
typedef struct {
    uint8_t len[NCOLS];
    uint8_t ncells;
    uint8_t founds[4];
    uint8_t cells[MAXCELLS];
} StateHead;

static inline void head_save(const State *st, StateHead *h) {
    memcpy(h->len, st->len, NCOLS);
    h->ncells = st->ncells;
    memcpy(h->founds, st->founds, 4);
    memcpy(h->cells, st->cells, MAXCELLS);
}

static inline void head_restore(State *st, const StateHead *h) {
    memcpy(st->len, h->len, NCOLS);
    st->ncells = h->ncells;
    memcpy(st->founds, h->founds, 4);
    memcpy(st->cells, h->cells, MAXCELLS);
}

static inline size_t record_size(int len) { return (4 + 1 + (size_t)len + 3) & ~(size_t)3; }

static inline const uint8_t *record_key(const Exhaust *e, size_t r) { return e->arena + 4 * r + 5; }

static inline int record_len(const Exhaust *e, size_t r) { return e->arena[4 * r + 4]; }

static inline int32_t record_parent(const Exhaust *e, size_t r) {
    int32_t p;
    memcpy(&p, e->arena + 4 * r, 4);
    return p;
}

/* Grows ``*p`` (``*cap`` items of ``size`` bytes) to hold ``need``; 0 when no room.
 * By halves (less idle room than doubling); near the budget's end, where half as
 * much again finds no room, by what is left of it, at most a sixteenth (so the
 * last positions still find room, and the other tables some). */
static int ex_grow(Budget *b, void **p, size_t *cap, size_t need, size_t size) {
    if (need <= *cap) return 1;
    size_t c = *cap ? *cap : 1024;
    while (c < need) c += c / 2 + 1024;
    void *q = budget_resize(b, *p, *cap * size, c * size);
    if (q == NULL && b->max > b->used) {
        size_t left = (b->max - b->used) / size;
        c = *cap + (left < *cap / 16 ? left : *cap / 16);
        if (c < need) return 0;
        b->full = 0;
        q = budget_resize(b, *p, *cap * size, c * size);
    }
    if (q == NULL) return 0;
    *p = q;
    *cap = c;
    return 1;
}

/* A slot holds a position's hash tag (the hash's top 32 bits) and its number + 1;
 * a position's first slot is the tag's top bits (as many as the table's size
 * needs), so the table doubles without reading a key again. */
static inline size_t ex_home(const Exhaust *e, uint64_t tag) { return (size_t)(tag >> e->shift); }

/* Twice the slots, the positions placed again; 0 when no room. */
static int ex_rehash(Exhaust *e) {
    size_t cap = 2 * (e->mask + 1);
    uint64_t *slots = budget_resize(e->nodes->budget, NULL, 0, cap * sizeof(uint64_t));
    if (slots == NULL) return 0;
    memset(slots, 0, cap * sizeof(uint64_t));
    size_t old = e->mask + 1;
    e->mask = cap - 1;
    e->shift--;
    for (size_t q = 0; q < old; q++) {
        uint64_t s = e->slots[q];
        if (!s) continue;
        size_t p = ex_home(e, s >> 32);
        while (slots[p]) p = (p + 1) & (cap - 1);
        slots[p] = s;
    }
    budget_free(e->nodes->budget, e->slots, old * sizeof(uint64_t));
    e->slots = slots;
    return 1;
}

/* Room in every table for ``n`` more positions (before any is added, so that a
 * refusal leaves the search as it was); 0 when a table found none. */
static int ex_room(Exhaust *e, int n) {
    Budget *b = e->nodes->budget;
    /* Load at most 3/4; where the budget has no room for twice the slots and the
     * search may crowd them, up to 7/8 (a look-up for a new position reads about
     * 32 slots there, against 8.5 at 3/4: four cache lines, no more misses), so the
     * last of the budget holds records (a sixth more positions) rather than
     * stopping the proof at the doubling. */
    while (4 * (e->n + (size_t)n) > 3 * (e->mask + 1))
        if (!ex_rehash(e)) {
            if (!e->crowd || 8 * (e->n + (size_t)n) > 7 * (e->mask + 1)) return 0;
            b->full = 0;
            break;
        }
    size_t need = e->used + (size_t)n * record_size(KEYMAX);
    if (need > MAX_ARENA) {
        b->full = 1;
        return 0;
    }
    return ex_grow(b, (void **)&e->arena, &e->acap, need, 1) &&
           ex_grow(b, (void **)&e->stack, &e->cap, e->depth + (size_t)n, sizeof(int32_t));
}

/* The position with this key: its record, or -1 (and ``*free`` its slot). */
static int64_t ex_find(const Exhaust *e, const uint8_t *key, int len, uint64_t h, size_t *free) {
    uint64_t tag = h >> 32;
    size_t p = ex_home(e, tag);
    for (;;) {
        uint64_t s = e->slots[p];
        if (!s) {
            *free = p;
            return -1;
        }
        if (s >> 32 == tag) {
            size_t n = (size_t)(s & 0xFFFFFFFFu) - 1;
            if (record_len(e, n) == len && !memcmp(record_key(e, n), key, (size_t)len)) return (int64_t)n;
        }
        p = (p + 1) & e->mask;
    }
}

/* Stores a position (room made by ex_room); its record. */
static size_t ex_add(Exhaust *e, int32_t parent, const uint8_t *key, int len, uint64_t h, size_t slot) {
    size_t n = e->used / 4;
    e->n++;
    uint8_t *rec = e->arena + e->used;
    memcpy(rec, &parent, 4);
    rec[4] = (uint8_t)len;
    memcpy(rec + 5, key, (size_t)len);
    e->used += record_size(len);
    e->slots[slot] = (h >> 32) << 32 | (uint64_t)(n + 1);
    return n;
}

static void ex_free(Exhaust *e) {
    Budget *b = e->nodes->budget;
    budget_free(b, e->arena, e->acap);
    budget_free(b, e->slots, (e->mask + 1) * sizeof(uint64_t));
    budget_free(b, e->stack, e->cap * sizeof(int32_t));
    e->arena = NULL;
    e->slots = NULL;
    e->stack = NULL;
    e->acap = e->cap = 0;
    e->mask = 0;
    e->shift = 32;
}

/* Ready to run from ``root`` (``nodes`` must be empty); 0 (``out.status`` set) when
 * there was no room. */
static int ex_init(Exhaust *e, const Config *cfg, const State *root, Nodes *nodes) {
    uint8_t key[KEYMAX];
    memset(e, 0, sizeof *e);
    e->cfg = cfg;
    e->nodes = nodes;
    e->out = (Outcome){EXHAUSTED, 0, -1};
    keyroot_init(&e->root, root, cfg->suit);
    e->slots = budget_resize(nodes->budget, NULL, 0, 1024 * sizeof(uint64_t));
    if (e->slots == NULL) {
        e->out.status = no_room(nodes->budget);
        return 0;
    }
    memset(e->slots, 0, 1024 * sizeof(uint64_t));
    e->mask = 1023;
    e->shift = 32 - 10;
    if (!ex_room(e, 1)) {
        e->out.status = no_room(nodes->budget);
        return 0;
    }
    int len = key_encode(&e->root, root, key);
    uint64_t h = key_hash(key, len);
    size_t slot;
    ex_find(e, key, len, h, &slot);
    e->stack[e->depth++] = (int32_t)ex_add(e, -1, key, len, h, slot);
    return 1;
}

/* The won position ``goal``'s path into ``nodes`` (node d: the d-th position, its
 * parent d - 1 and the move from it; goal: the last), for collect_path. Each move
 * is found again from the root in the root's own column order: the move whose
 * child has the next key. 0 when there was no room. */
static int ex_path(Exhaust *e, const State *root, size_t goal, int32_t *last) {
    int32_t *chain = NULL;
    size_t depth = 0;
    for (int32_t k = (int32_t)goal; k >= 0; k = record_parent(e, (size_t)k)) depth++;
    chain = malloc(depth * sizeof(int32_t));
    if (chain == NULL) return 0;
    size_t d = depth;
    for (int32_t k = (int32_t)goal; k >= 0; k = record_parent(e, (size_t)k)) chain[--d] = k;
    Nodes *nodes = e->nodes;
    State st = *root, child;
    Move moves[MAXMOVES];
    uint8_t homed[52], key[KEYMAX];
    int ok = add_node(nodes, &st, -1, mv(-1, -1, -1, -1, 0), 0) != NULL;
    for (d = 1; ok && d < depth; d++) {
        const uint8_t *want = record_key(e, (size_t)chain[d]);
        int len = record_len(e, (size_t)chain[d]), nm = gen_moves(e->cfg, &st, moves), k = 0;
        for (; k < nm; k++) {
            child = st;
            apply_move(&child, moves[k]);
            autoplay(e->cfg, &child, homed);
            if (key_encode(&e->root, &child, key) == len && !memcmp(key, want, (size_t)len)) break;
        }
        if (k == nm) break; /* cannot happen: the child was made by one of these moves */
        st = child;
        ok = add_node(nodes, &st, (int32_t)(d - 1), moves[k], 0) != NULL;
    }
    free(chain);
    *last = (int32_t)(nodes->n - 1);
    return ok && d == depth;
}

/* Whether autoplay would send ``c``, on top of a column or in a cell, home. */
static inline int sends_home(const Config *cfg, const State *st, int c) {
    return st->founds[c / 13] == c % 13 && autoplays(cfg->autoplay, c, st->founds);
}

/* Whether autoplay would send the top card of column ``i`` home. */
static inline int goes_home(const Config *cfg, const State *st, int i) {
    return st->len[i] && sends_home(cfg, st, st->cards[i][st->len[i] - 1]);
}

/* Whether autoplay would send any card of ``st`` home. */
static int autoplay_due(const Config *cfg, const State *st) {
    if (cfg->autoplay == AUTO_NONE) return 0;
    for (int i = 0; i < NCOLS; i++)
        if (goes_home(cfg, st, i)) return 1;
    for (int k = 0; k < st->ncells; k++)
        if (sends_home(cfg, st, st->cells[k])) return 1;
    return 0;
}

/* Expands positions until ``pause_at`` have been expanded in all (EX_PAUSED: call
 * again to go on), the search ends (EX_ENDED: ``out`` holds the outcome), or a
 * table finds no room (EX_FULL: ``out.status`` is no_room's; the position stays on
 * the stack, so a call after room was made goes on). ``root``: the search's root, in
 * its own column order, for the path of a win. */
static int ex_run(Exhaust *e, const State *root, long pause_at, long max_nodes, double deadline) {
    const Config *cfg = e->cfg;
    Outcome *out = &e->out;
    Move moves[MAXMOVES], made = {0, 0, 0, 0, 0};
    uint8_t homed[52], keys[MAXMOVES][KEYMAX], lens[MAXMOVES], won[MAXMOVES], autoplayed[MAXMOVES];
    uint64_t hashes[MAXMOVES];
    State st;
    Chunk parent[NCOLS], chunks[NCOLS];
    /* The last child stored is the next one expanded (the top of the stack): it is
     * made again from its parent, still in ``st``, by its move, rather than decoded
     * from its key. */
    int32_t next = -1;
    int made_autoplay = 0;
    while (e->depth) {
        if (out->nodes >= pause_at) return EX_PAUSED;
        int32_t here = e->stack[e->depth - 1];
        if (here == next) {
            StateHead head;
            head_save(&st, &head);
            apply_move(&st, made);
            if (made_autoplay) autoplay(cfg, &st, homed);
            for (int j = 0; j < NCOLS; j++)
                if (st.len[j] != head.len[j]) {
                    col_chunk_after(&e->root, st.cards[j], st.len[j], &parent[j], head.len[j], &chunks[j]);
                    parent[j] = chunks[j];
                }
        } else {
            key_decode(&e->root, record_key(e, (size_t)here), record_len(e, (size_t)here), &st, parent);
        }
        next = -1;
        int nm = gen_moves(cfg, &st, moves);
        if (!ex_room(e, nm)) {
            out->status = no_room(e->nodes->budget);
            return EX_FULL;
        }
        e->depth--;
        if (limit_reached(out, max_nodes, deadline)) {
            e->depth++; /* not expanded: a later call may go on from it */
            return EX_ENDED;
        }
        /* A position autoplay has nothing to send home from ("settled": as every
         * stored one but perhaps the root) gets something to send home from a move
         * only where the move uncovers a card: the top of the column it leaves, or
         * the cards a dig parks in cells, or changes a foundation. Elsewhere the
         * child's autoplay would look at every top and cell in vain. */
        int settled = !autoplay_due(cfg, &st);
        /* The children's keys first, their first slots fetched meanwhile; then the
         * look-ups, which find those slots in the cache. A child is played on ``st``
         * itself and undone: a move and autoplay change the lengths, cells and
         * foundations, and write cards only past a column's length. A column whose
         * length a move left alone keeps its parent's chunk of the key. */
        for (int k = 0; k < nm; k++) {
            StateHead head;
            head_save(&st, &head);
            apply_move(&st, moves[k]);
            autoplayed[k] = !settled || moves[k].dk == FOUND || moves[k].sk == FOUND ||
                            (moves[k].dk == CELL && moves[k].n > 1) ||
                            (moves[k].sk == COL && goes_home(cfg, &st, moves[k].si));
            if (autoplayed[k]) autoplay(cfg, &st, homed);
            for (int j = 0; j < NCOLS; j++) {
                if (st.len[j] == head.len[j])
                    chunks[j] = parent[j];
                else
                    col_chunk_after(&e->root, st.cards[j], st.len[j], &parent[j], head.len[j], &chunks[j]);
            }
            lens[k] = (uint8_t)key_assemble(&e->root, chunks, &st, keys[k]);
            hashes[k] = key_hash(keys[k], lens[k]);
            __builtin_prefetch(&e->slots[ex_home(e, hashes[k] >> 32)]);
            won[k] = sum_founds(&st) == 52;
            head_restore(&st, &head);
        }
        for (int k = 0; k < nm; k++) {
            size_t slot;
            if (ex_find(e, keys[k], lens[k], hashes[k], &slot) >= 0) continue;
            size_t n = ex_add(e, here, keys[k], lens[k], hashes[k], slot);
            if (won[k]) {
                Budget *b = e->nodes->budget; /* the path's nodes get the table's room */
                budget_free(b, e->slots, (e->mask + 1) * sizeof(uint64_t));
                e->slots = NULL;
                e->mask = 0;
                out->status = ex_path(e, root, n, &out->goal) ? SOLVED : no_room(b);
                return EX_ENDED;
            }
            e->stack[e->depth++] = (int32_t)n;
            next = (int32_t)n;
            made = moves[k];
            made_autoplay = autoplayed[k];
        }
    }
    out->status = EXHAUSTED;
    return EX_ENDED;
}

/* The whole search in one go (the ``exhaust`` entry point). */
static Outcome exhaust(const Config *cfg, const State *root, Nodes *nodes, long max_nodes, double deadline) {
    Exhaust e;
    if (ex_init(&e, cfg, root, nodes)) {
        e.crowd = 1; /* the only search: its tables have the whole budget */
        ex_run(&e, root, LONG_MAX, max_nodes, deadline);
    }
    ex_free(&e);
    return e.out;
}
