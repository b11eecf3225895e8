/* ---- the proof: depth-first over every reachable position, exact keys ----------------- */
#include "exhaust.h"
#include "normal.h"
#include "position.h"
#include "tables.h"

#define TAG_BITS (64 - REC_BITS)
#define REC_MASK (((uint64_t)1 << REC_BITS) - 1)
#define MAX_ARENA SIZE_AT_MOST((uint64_t)1 << 33)

int pending_add(struct Pending *p, const uint8_t *founds, int frozen, const uint8_t *key, int len);

/* Whether the child with these foundations and this key_frozen (keys.c) leaves the
 * layer the table holds: the proof by layers sends it to the pending positions
 * (``*failed`` when that failed: no room). */
static inline int ex_elsewhere(Exhaust *e, const uint8_t *founds, int frozen, const uint8_t *key, int len,
                               int *failed) {
    if (e->pending == NULL || (!memcmp(founds, e->layer, 4) && frozen == e->layer_frozen)) return 0;
    *failed = !pending_add(e->pending, founds, frozen, key, len);
    return 1;
}

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

static inline size_t record_size(const Exhaust *e, int len) { return ((size_t)e->hdr + (size_t)len + 3) & ~(size_t)3; }

static inline const uint8_t *record_key(const Exhaust *e, size_t r) { return e->arena + 4 * r + e->hdr; }

static inline int record_len(const Exhaust *e, size_t r) { return e->arena[4 * r + e->hdr - 1]; }

/* The parent of record ``r`` (the whole proof's: by layers records keep none). */
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

/* A slot holds a position's hash tag (the hash's top TAG_BITS) and its record + 1;
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
        size_t p = ex_home(e, s >> REC_BITS);
        while (slots[p]) p = (p + 1) & (cap - 1);
        slots[p] = s;
    }
    budget_free(e->nodes->budget, e->slots, old * sizeof(uint64_t));
    e->slots = slots;
    return 1;
}

/* Twice the slots where the budget has no room for the old and the new at once
 * (the last doubling of a large proof: the slots are a third of its memory): the
 * old ones go first, and every record is placed again from the arena, its key
 * hashed again (about 140 ns a record: 0.11 s for C2-AB 1541's 786,421, a minute
 * for 400 million, once in a proof that took an hour). Only for a search that has the
 * budget to itself (``crowd``). 0 when there was no room (the slots as they were);
 * where not even the old number could be had again (the memory just given back
 * taken meanwhile), ``slots`` NULL: ex_run then stops (NOMEM). */
static int ex_rebuild(Exhaust *e) {
    Budget *b = e->nodes->budget;
    size_t old = e->mask + 1, cap = 2 * old;
    if (!e->crowd || b->used - old * sizeof(uint64_t) + cap * sizeof(uint64_t) > b->max) return 0;
    budget_free(b, e->slots, old * sizeof(uint64_t));
    e->slots = budget_resize(b, NULL, 0, cap * sizeof(uint64_t));
    int grown = e->slots != NULL;
    if (!grown) {
        cap = old;
        e->slots = budget_resize(b, NULL, 0, cap * sizeof(uint64_t));
        if (e->slots == NULL) {
            e->mask = 0;
            return 0;
        }
    }
    memset(e->slots, 0, cap * sizeof(uint64_t));
    e->mask = cap - 1;
    e->shift = TAG_BITS - __builtin_ctzll((unsigned long long)cap);
    for (size_t w = 0; 4 * w < e->used; w += record_size(e, record_len(e, w)) / 4) {
        uint64_t h = key_hash(record_key(e, w), record_len(e, w));
        size_t p = ex_home(e, h >> REC_BITS);
        while (e->slots[p]) p = (p + 1) & e->mask;
        e->slots[p] = (h >> REC_BITS) << REC_BITS | (uint64_t)(w + 1);
    }
    if (grown) b->full = 0; /* ex_rehash's refusal said otherwise */
    return grown;
}

int ex_room(Exhaust *e, int n) {
    Budget *b = e->nodes->budget;
    /* Load at most 3/4; where the budget has no room for twice the slots and the
     * search may crowd them, up to 7/8 (a look-up for a new position reads about
     * 32 slots there, against 8.5 at 3/4: four cache lines, no more misses), so the
     * last of the budget holds records (a sixth more positions) rather than
     * stopping the proof at the doubling. */
    while (4 * (e->n + (size_t)n) > 3 * (e->mask + 1))
        if (!ex_rehash(e) && !ex_rebuild(e)) {
            if (e->slots == NULL) return 0;
            if (!e->crowd || 8 * (e->n + (size_t)n) > 7 * (e->mask + 1)) return 0;
            b->full = 0;
            break;
        }
    size_t need = e->used + (size_t)n * record_size(e, KEYMAX);
    if (need > e->max_arena) {
        b->full = 1;
        return 0;
    }
    return ex_grow(b, (void **)&e->arena, &e->acap, need, 1) &&
           ex_grow(b, (void **)&e->stack, &e->cap, e->depth + (size_t)n, sizeof(Rec));
}

int64_t ex_find(const Exhaust *e, const uint8_t *key, int len, uint64_t h, size_t *free) {
    uint64_t tag = h >> REC_BITS;
    size_t p = ex_home(e, tag);
    for (;;) {
        uint64_t s = e->slots[p];
        if (!s) {
            *free = p;
            return -1;
        }
        if (s >> REC_BITS == tag) {
            size_t n = (size_t)(s & REC_MASK) - 1;
            if (record_len(e, n) == len && !memcmp(record_key(e, n), key, (size_t)len)) return (int64_t)n;
        }
        p = (p + 1) & e->mask;
    }
}

Rec ex_add(Exhaust *e, Rec parent, const uint8_t *key, int len, uint64_t h, size_t slot) {
    size_t n = e->used / 4;
    e->n++;
    uint8_t *rec = e->arena + e->used;
    if (e->hdr == 5) { /* the whole proof: its arena is MAX_ARENA at most, parents fit */
        int32_t p = (int32_t)parent;
        memcpy(rec, &p, 4);
    }
    rec[e->hdr - 1] = (uint8_t)len;
    memcpy(rec + e->hdr, key, (size_t)len);
    e->used += record_size(e, len);
    e->slots[slot] = (h >> REC_BITS) << REC_BITS | (uint64_t)(n + 1);
    return (Rec)n;
}

void ex_free(Exhaust *e) {
    Budget *b = e->nodes->budget;
    budget_free(b, e->arena, e->acap);
    budget_free(b, e->slots, (e->mask + 1) * sizeof(uint64_t));
    budget_free(b, e->stack, e->cap * sizeof(Rec));
    e->arena = NULL;
    e->slots = NULL;
    e->stack = NULL;
    e->acap = e->cap = 0;
    e->mask = 0;
    e->shift = TAG_BITS;
}

int ex_slots(Exhaust *e) {
    e->slots = budget_resize(e->nodes->budget, NULL, 0, 1024 * sizeof(uint64_t));
    if (e->slots == NULL) return 0;
    memset(e->slots, 0, 1024 * sizeof(uint64_t));
    e->mask = 1023;
    e->shift = TAG_BITS - 10;
    return 1;
}

int ex_init(Exhaust *e, const Config *cfg, const State *root, Nodes *nodes) {
    uint8_t key[KEYMAX];
    memset(e, 0, sizeof *e);
    e->hdr = 5;
    e->max_arena = MAX_ARENA;
    e->cfg = cfg;
    e->nodes = nodes;
    e->out = (Outcome){EXHAUSTED, 0, -1};
    e->normal = 1;
    keyroot_init(&e->root, root, cfg->suit);
    if (!ex_slots(e)) {
        e->out.status = no_room(nodes->budget);
        return 0;
    }
    if (!ex_room(e, 1)) {
        e->out.status = no_room(nodes->budget);
        return 0;
    }
    int len = key_encode(&e->root, root, key);
    uint64_t h = key_hash(key, len);
    size_t slot;
    ex_find(e, key, len, h, &slot);
    e->stack[e->depth++] = ex_add(e, -1, key, len, h, slot);
    return 1;
}

/* ``st``'s child by ``m`` as the proof makes it: the move, autoplay, the normal
 * form (normal.c); the cards placed by it and their moves to ``placed``, how many
 * to ``*np``. */
static void ex_child(const Config *cfg, const State *st, Move m, State *child, Move *placed, int *np, int normal) {
    uint8_t homed[52];
    unsigned touched = 0;
    *child = *st;
    apply_move(child, m);
    autoplay(cfg, child, homed);
    *np = normal ? normal_form(cfg, child, &touched, placed, NULL) : 0;
}

/* Adds to ``nodes`` the moves from ``st`` to its child with the key ``want``: a
 * lift's moves (a card to a cell each), the move, the normal form's placements;
 * ``st`` becomes the child. 0 when there was no room or no such child. */
static int ex_path_step(Exhaust *e, State *st, const uint8_t *want, int len, int lifts) {
    const Config *cfg = e->cfg;
    Move moves[MAXMOVES], placed[NPLACED], lone_moves[NCOLS];
    uint8_t key[KEYMAX];
    MoveCtx x;
    int most_lone[NCOLS], kl[NCOLS] = {0}, np, nl;
    move_ctx(cfg, st, &x);
    int nempty = lifts && lone_rule(cfg) ? lift_most(cfg, st, x.run, most_lone, x.nempty) : 0;
    State lone, lift, child;
    do {
        lone = *st;
        nl = lone_lift_apply(&lone, kl, lone_moves);
        MoveCtx lx;
        move_ctx(cfg, &lone, &lx);
        int most[NCOLS], k[NCOLS] = {0};
        int free = lift_limits(cfg, &lone, lx.run, most);
        do {
            unsigned cols = 0;
            uint64_t cards = 0;
            lift = lone;
            lift_apply(&lift, k, &cols, &cards);
            int nm = gen_moves(cfg, &lift, moves);
            for (int y = 0; y < nm; y++) {
                ex_child(cfg, &lift, moves[y], &child, placed, &np, e->normal);
                if (key_encode(&e->root, &child, key) != len || memcmp(key, want, (size_t)len)) continue;
                Nodes *nodes = e->nodes;
                State at = *st;
                for (int q = 0; q < nl; q++) {
                    apply_move(&at, lone_moves[q]);
                    if (add_node(nodes, &at, (int32_t)nodes->n - 1, lone_moves[q], 0) == NULL) return 0;
                }
                for (int j = 0; j < NCOLS; j++)
                    for (int t = 0; t < k[j]; t++) {
                        Move lm = mv(COL, j, CELL, -1, 1);
                        apply_move(&at, lm);
                        if (add_node(nodes, &at, (int32_t)nodes->n - 1, lm, 0) == NULL) return 0;
                    }
                if (add_node(nodes, &child, (int32_t)nodes->n - 1, moves[y], 0) == NULL) return 0;
                for (int p = 0; p < np; p++)
                    if (add_node(nodes, &child, (int32_t)nodes->n - 1, placed[p], 0) == NULL) return 0;
                *st = child;
                return 1;
            }
        } while (lifts && lift_next(most, free, k));
    } while (nempty && lift_next(most_lone, nempty, kl));
    return 0; /* cannot happen: the child was made by one of these */
}

/* The won position ``goal``'s path into ``nodes`` (node d: the d-th position, its
 * parent d - 1 and the move from it; goal: the last), for collect_path. Each step
 * is found again from the root in the root's own column order: the move (of the
 * position or of one of its lifts) whose child has the next key. 0 when there was
 * no room. */
static int ex_path(Exhaust *e, const State *root, size_t goal, int32_t *last) {
    int32_t *chain = NULL;
    size_t depth = 0;
    for (int32_t k = (int32_t)goal; k >= 0; k = record_parent(e, (size_t)k)) depth++;
    chain = malloc(depth * sizeof(int32_t));
    if (chain == NULL) return 0;
    size_t d = depth;
    for (int32_t k = (int32_t)goal; k >= 0; k = record_parent(e, (size_t)k)) chain[--d] = k;
    State st = *root;
    int ok = add_node(e->nodes, &st, -1, mv(-1, -1, -1, -1, 0), 0) != NULL;
    for (d = 1; ok && d < depth; d++)
        ok = ex_path_step(e, &st, record_key(e, (size_t)chain[d]), record_len(e, (size_t)chain[d]),
                          e->normal);
    free(chain);
    *last = (int32_t)(e->nodes->n - 1);
    return ok;
}

/* The search won at record ``n``: its path into ``nodes`` (the slots' room goes to
 * the path's nodes); EX_ENDED. */
static int ex_won(Exhaust *e, const State *root, size_t n) {
    Budget *b = e->nodes->budget;
    if (e->pending != NULL) { /* the proof by layers keeps no path across its layers */
        e->out.status = SOLVED;
        e->out.goal = -1;
        return EX_ENDED;
    }
    budget_free(b, e->slots, (e->mask + 1) * sizeof(uint64_t));
    e->slots = NULL;
    e->mask = 0;
    e->out.status = ex_path(e, root, n, &e->out.goal) ? SOLVED : no_room(b);
    return EX_ENDED;
}

/* The pending positions could not be written: ``here`` goes back on the stack, as
 * where a table has no room (EX_FULL). */
static int ex_spill_failed(Exhaust *e, Rec here) {
    e->stack[e->depth++] = here;
    e->out.status = NOMEM;
    return EX_FULL;
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

/* The children of one lift ``k`` of ``st`` (normal.c) that its own moves and
 * smaller lifts do not make, stored and pushed (``here``: its record; ``parent``:
 * its columns' chunks); EX_PAUSED when done, else as ex_run (EX_FULL: ``here``
 * pushed again, to be expanded again once room was made). ``reserve``: the room
 * kept for ``st``'s own children. ``homes_apart``: autoplay may send home a card
 * a lifted card built on while that card is not home (lift_homes_together).
 * ``given``: the lift's moves (``ngiven``), where grouped_lift_moves made them. */
static int ex_lift(Exhaust *e, const State *st, const Chunk *parent, const int *k, Rec here, int reserve,
                   const State *root, int homes_apart, const Move *given, int ngiven) {
    const Config *cfg = e->cfg;
    Move own[MAXMOVES];
    uint8_t homed[52], key[KEYMAX];
    Chunk lifted[NCOLS], chunks[NCOLS];
    State lift = *st;
    unsigned cols;
    uint64_t cards;
    lift_apply(&lift, k, &cols, &cards);
    for (int j = 0; j < NCOLS; j++)
        if (cols >> j & 1)
            col_chunk_after(&e->root, lift.cards[j], lift.len[j], &parent[j], st->len[j], &lifted[j]);
        else
            lifted[j] = parent[j];
    const Move *moves = given;
    int nm = ngiven;
    if (given == NULL) {
        int single = !homes_apart && __builtin_popcount(cols) == 1, c = single ? __builtin_ctz(cols) : -1;
        nm = single ? lift_moves(cfg, &lift, c, k[c], cards, own) : gen_moves(cfg, &lift, own);
        moves = own;
    }
    for (int x = 0; x < nm; x++) {
        Move m = moves[x];
        int from = -1; /* the column a lifted card came from */
        if (m.sk == CELL && (cards >> m.si & 1))
            for (int j = 0; j < NCOLS && from < 0; j++)
                if (cols >> j & 1 && lift_holds(st, j, k[j], m.si)) from = j;
        if (from >= 0 && ((m.dk == COL && m.di == from) || (k[from] == 1 && m.dk != FOUND)))
            continue; /* back where it was, or a move the column's top makes unlifted */
        unsigned used = (m.sk == COL ? 1u << m.si : 0) | (m.dk == COL ? 1u << m.di : 0) |
                        (from >= 0 ? 1u << from : 0);
        unsigned idle = cols & ~used; /* lifted columns the move leaves alone */
        if (idle && (!homes_apart || !(m.dk == FOUND || m.sk == FOUND ||
                                       (m.sk == COL && lift.len[m.si] > m.n &&
                                        sends_home(cfg, &lift, lift.cards[m.si][lift.len[m.si] - m.n - 1])))))
            continue; /* a smaller lift makes it: nothing goes home, or not from those columns */
        StateHead head;
        head_save(&lift, &head);
        apply_move(&lift, m);
        int nh = autoplay(cfg, &lift, homed);
        if (idle) { /* kept only if autoplay sent home cards of an idle lifted column */
            int touched_idle = 0;
            for (int h = 0; h < nh && !touched_idle; h++) touched_idle = (int)(cards >> homed[h] & 1);
            for (int j = 0; j < NCOLS && !touched_idle; j++) touched_idle = (idle >> j & 1) && lift.len[j] < head.len[j];
            if (!touched_idle) {
                head_restore(&lift, &head);
                continue;
            }
        }
        for (int j = 0; j < NCOLS; j++)
            if (lift.len[j] == head.len[j])
                chunks[j] = lifted[j];
            else
                col_chunk_after(&e->root, lift.cards[j], lift.len[j], &lifted[j], head.len[j], &chunks[j]);
        int len, won = sum_founds(&lift) == 52;
        Placed undo[NPLACED];
        unsigned touched = 0;
        int np = normal_form(cfg, &lift, &touched, NULL, undo);
        for (int j = 0; j < NCOLS; j++)
            if (touched >> j & 1) col_chunk(&e->root, lift.cards[j], lift.len[j], &chunks[j]);
        len = key_assemble(&e->root, chunks, &lift, key);
        int frozen = e->pending != NULL ? key_frozen(&e->root, chunks) : 0;
        normal_undo(&lift, undo, np);
        uint8_t founds[4];
        memcpy(founds, lift.founds, 4);
        head_restore(&lift, &head);
        int failed = 0;
        if (!won && ex_elsewhere(e, founds, frozen, key, len, &failed)) {
            if (failed) return ex_spill_failed(e, here);
            continue;
        }
        uint64_t h = key_hash(key, len);
        size_t slot;
        if (ex_find(e, key, len, h, &slot) >= 0) continue;
        if (!ex_room(e, reserve + 2)) {
            e->stack[e->depth++] = here;
            e->out.status = no_room(e->nodes->budget);
            return EX_FULL;
        }
        ex_find(e, key, len, h, &slot); /* the room may have moved the slots */
        Rec n = ex_add(e, here, key, len, h, slot);
        if (won) return ex_won(e, root, (size_t)n);
        e->stack[e->depth++] = n;
    }
    return EX_PAUSED;
}

/* The children of ``st``'s lifts (ex_lift for each). Where autoplay sends lifted
 * cards home no later than the cards under them, a move that leaves a lifted
 * column alone is made by the smaller lift without it, and a move involves two
 * columns at most: the lifts of one column, and of two where a card of one can
 * go onto the other's uncovered top. Else every lift. */
static int ex_lifts(Exhaust *e, const State *st, const MoveCtx *sx, const Chunk *parent, Rec here, int reserve,
                    const State *root) {
    const Config *cfg = e->cfg;
    int most[NCOLS], k[NCOLS] = {0}, free = lift_limits(cfg, st, sx->run, most), r = EX_PAUSED;
    if (!lift_homes_together(cfg)) {
        while (r == EX_PAUSED && lift_next(most, free, k))
            r = ex_lift(e, st, parent, k, here, reserve, root, 1, NULL, 0);
        return r;
    }
    if (lifts_grouped(cfg)) {
        /* The lifts of one column whose uncovered card has a move of the few of
         * grouped_lift_moves: most have none, and are not made. */
        Move moves[MAXMOVES];
        RunPlaces places;
        run_places(st, sx, &places);
        for (int a = 0; a < NCOLS && r == EX_PAUSED; a++) {
            for (k[a] = 1; r == EX_PAUSED && k[a] <= most[a]; k[a]++) {
                int nm = grouped_lift_moves(cfg, st, sx, &places, a, k[a], k[a] < most[a], moves);
                if (nm) r = ex_lift(e, st, parent, k, here, reserve, root, 0, moves, nm);
            }
            k[a] = 0;
        }
        return r; /* a move of two lifted columns is one of a lift of one (grouped_lift_moves) */
    }
    for (int a = 0; a < NCOLS; a++) {
        for (k[a] = 1; r == EX_PAUSED && k[a] <= most[a]; k[a]++)
            r = ex_lift(e, st, parent, k, here, reserve, root, 0, NULL, 0);
        k[a] = 0;
    }
    for (int a = 0; a < NCOLS; a++)
        for (int b = a + 1; b < NCOLS; b++)
            for (k[a] = 1; k[a] <= most[a]; k[a]++) {
                for (k[b] = 1; r == EX_PAUSED && k[b] <= most[b] && k[a] + k[b] <= free; k[b]++)
                    if (lifts_meet(cfg, st, a, k[a], b, k[b]) || lifts_meet(cfg, st, b, k[b], a, k[a]))
                        r = ex_lift(e, st, parent, k, here, reserve, root, 0, NULL, 0);
                k[b] = 0;
                if (r != EX_PAUSED) return r;
            }
    return r;
}

/* The last child ex_moves stored from a position's own moves: the next one
 * expanded, made again from its parent by its move rather than decoded. */
typedef struct {
    Rec next; /* its record; -1: none */
    Move made;
    int autoplayed; /* 1: autoplay ran on it */
} LastChild;

/* The children of ``st`` (its ``parent`` chunks) by ``moves``, stored and pushed
 * (room made for them); ``last`` (if not NULL) gets the last one stored. EX_PAUSED,
 * or ex_won's. */
static inline int ex_moves(Exhaust *e, State *st, const Chunk *parent, Move *moves, int nm, Rec here,
                           const State *root, LastChild *last) {
    const Config *cfg = e->cfg;
    uint8_t homed[52], keys[MAXMOVES][KEYMAX], lens[MAXMOVES], won[MAXMOVES], autoplayed[MAXMOVES];
    uint8_t founds[MAXMOVES][4];
    int frozen[MAXMOVES];
    uint64_t hashes[MAXMOVES];
    Chunk chunks[NCOLS];
    /* A position autoplay has nothing to send home from ("settled": as every
     * stored one but perhaps the root) gets something to send home from a move
     * only where the move uncovers a card: the top of the column it leaves, or
     * the cards a dig parks in cells, or changes a foundation. Elsewhere the
     * child's autoplay would look at every top and cell in vain. */
    int settled = !autoplay_due(cfg, st);
    /* Moves whose child is this position or a sibling's (not the root's: it may
     * not be in normal form). */
    if (e->normal == 1 && here != 0 && settled && st->ncells < cfg->ncells)
        nm = drop_returns(cfg, st, moves, nm);
    /* The children's keys first, their first slots fetched meanwhile; then the
     * look-ups, which find those slots in the cache. A child is played on ``st``
     * itself and undone: a move and autoplay change the lengths, cells and
     * foundations, and write cards only past a column's length. A column whose
     * length a move left alone keeps its parent's chunk of the key. */
    for (int k = 0; k < nm; k++) {
        StateHead head;
        head_save(st, &head);
        apply_move(st, moves[k]);
        autoplayed[k] = !settled || moves[k].dk == FOUND || moves[k].sk == FOUND ||
                        (moves[k].dk == CELL && moves[k].n > 1) ||
                        (moves[k].sk == COL && goes_home(cfg, st, moves[k].si));
        if (autoplayed[k]) autoplay(cfg, st, homed);
        for (int j = 0; j < NCOLS; j++) {
            if (st->len[j] == head.len[j])
                chunks[j] = parent[j];
            else
                col_chunk_after(&e->root, st->cards[j], st->len[j], &parent[j], head.len[j], &chunks[j]);
        }
        /* The normal form: normalize writes cards where the parent has some,
         * which normal_undo puts back. */
        Placed undo[NPLACED];
        unsigned touched = 0;
        int np = e->normal ? normal_form(cfg, st, &touched, NULL, undo) : 0;
        for (int j = 0; j < NCOLS; j++)
            if (touched >> j & 1) col_chunk(&e->root, st->cards[j], st->len[j], &chunks[j]);
        lens[k] = (uint8_t)key_assemble(&e->root, chunks, st, keys[k]);
        frozen[k] = e->pending != NULL ? key_frozen(&e->root, chunks) : 0;
        normal_undo(st, undo, np);
        hashes[k] = key_hash(keys[k], lens[k]);
        __builtin_prefetch(&e->slots[ex_home(e, hashes[k] >> REC_BITS)]);
        won[k] = sum_founds(st) == 52;
        memcpy(founds[k], st->founds, 4);
        head_restore(st, &head);
    }
    for (int k = 0; k < nm; k++) {
        size_t slot;
        int failed = 0;
        if (!won[k] && ex_elsewhere(e, founds[k], frozen[k], keys[k], lens[k], &failed)) {
            if (failed) return ex_spill_failed(e, here);
            continue;
        }
        if (ex_find(e, keys[k], lens[k], hashes[k], &slot) >= 0) continue;
        Rec n = ex_add(e, here, keys[k], lens[k], hashes[k], slot);
        if (won[k]) return ex_won(e, root, (size_t)n);
        e->stack[e->depth++] = n;
        if (last != NULL) *last = (LastChild){n, moves[k], autoplayed[k]};
    }
    return EX_PAUSED;
}

/* Whether ``a`` and ``b`` hold the same columns, column by column. */
static inline int same_columns(const State *a, const State *b) {
    if (memcmp(a->len, b->len, NCOLS)) return 0;
    for (int j = 0; j < NCOLS; j++)
        if (memcmp(a->cards[j], b->cards[j], a->len[j])) return 0;
    return 1;
}

/* Whether no cell card of ``st`` builds on a top (``tops``): normalize would leave it. */
static inline int cells_normal(const Config *cfg, const State *st, uint64_t tops) {
    for (int q = 0; q < st->ncells; q++)
        if (bases(cfg, st->cells[q]) & tops) return 0;
    return 1;
}

/* ``moves`` (``nm`` of ``lone``, a lone lift ``k`` of the stored ``st`` that
 * lone_normalize puts back) without those that do not use the lift: their child's
 * normal form is that of the same move's child of ``st``, which ``st``'s own moves
 * make. Such a move m leaves the lifted and the lone columns alone, sends nothing
 * home (from or to a foundation, or by autoplay: the card it uncovers stays), puts
 * no card that builds on a lifted or uncovered card in a cell or alone in a
 * column, and uncovers no card that a lifted card builds on, nor one that a bottom
 * card the lift leaves alone builds on (nor does a cell card lie on such a card:
 * normalize could place it). m is a move of ``st`` (as many cells, more empty
 * columns), and the two children differ by the lift alone; normalize places the
 * same cards on both (no cell card builds on a lifted or uncovered card: ``lone``
 * is as normalize leaves it), and lone_normalize puts each lifted card back where
 * it lay, its one top to build on (it did so from ``lone``, and the child has no
 * new top it builds on), and the other lone cards as it does on the other child
 * (one that built on an uncovered card would have taken its place first, or found
 * it covered). Needs lift_homes_together (a lifted card goes home no later than
 * the card under it) and ``lone`` settled; else all. The lifted card of a lift of
 * one makes from its column the moves it makes from ``st``: none is made. */
static int lone_uses(const Config *cfg, const State *st, const State *lone, const int *k, Move *moves, int nm) {
    if (!lift_homes_together(cfg) || autoplay_due(cfg, lone)) return nm;
    unsigned lifted = 0;
    uint64_t onto = 0, tops = 0; /* the cards lifted cards build on; the lifted and uncovered cards */
    for (int j = 0; j < NCOLS; j++) {
        if (k[j]) {
            lifted |= 1u << j;
            tops |= 1ULL << lone->cards[j][lone->len[j] - 1];
            if (lone->len[j] == 1) onto |= bases(cfg, lone->cards[j][0]); /* left alone: lone too */
        } else if (!st->len[j] && lone->len[j]) {
            lifted |= 1u << j;
            onto |= bases(cfg, lone->cards[j][0]);
            tops |= 1ULL << lone->cards[j][0];
        }
    }
    for (int q = 0; q < lone->ncells; q++)
        if (onto >> lone->cells[q] & 1) return nm;
    int single = __builtin_popcount(lifted) == 2, kept = 0; /* one card lifted */
    for (int y = 0; y < nm; y++) {
        Move m = moves[y];
        if (single && m.sk == COL && !st->len[m.si]) continue; /* the lifted card's: its moves from ``st`` */
        int uses = m.sk == FOUND || m.dk == FOUND || (m.sk == COL && lifted >> m.si & 1) ||
                   (m.dk == COL && lifted >> m.di & 1) || (m.dk == CELL && m.n > 1);
        /* a card alone in a column, or in a cell: not one that builds on a lifted or uncovered card */
        int head = m.sk == CELL ? m.si : m.sk == COL ? lone->cards[m.si][lone->len[m.si] - m.n] : -1;
        if (!uses && (m.dk == CELL || (m.dk == COL && !lone->len[m.di] && m.n == 1)))
            uses = (bases(cfg, head) & tops) != 0;
        if (!uses && m.sk == COL) {
            int left = lone->len[m.si] - m.n, u = left > 0 ? lone->cards[m.si][left - 1] : -1;
            uses = left == 1 || (u >= 0 && ((onto >> u & 1) || sends_home(cfg, lone, u)));
        }
        if (uses) moves[kept++] = m;
    }
    return kept;
}

/* The children of ``st``'s lone lifts (where any card fills an empty column): each
 * way to take top cards that build on the card under them (each column keeping
 * its bottom card) alone into the empty columns, which lone_normalize would put
 * back. A position P of the full search is a lift (into cells) of a lone lift of
 * its normal form (normal_form: normalize, then lone_normalize), so the lone lifts
 * normalize leaves alone are expanded as a stored position is: their moves and
 * their lifts (ex_lifts). Then as ex_lifts (``parent``: ``st``'s chunks). */
static int ex_lone_lifts(Exhaust *e, const State *st, const MoveCtx *sx, const Chunk *parent, Rec here,
                         int reserve, const State *root) {
    const Config *cfg = e->cfg;
    Move moves[MAXMOVES], lone_moves[NCOLS];
    Chunk chunks[NCOLS];
    int most[NCOLS], k[NCOLS] = {0}, nempty = lift_most(cfg, st, sx->run, most, sx->nempty);
    while (lift_next(most, nempty, k)) {
        State lone = *st;
        lone_lift_apply(&lone, k, lone_moves);
        uint64_t lone_set, tops = tops_and_lone(&lone, &lone_set);
        if (!cells_normal(cfg, &lone, tops)) continue; /* not a normal form's lone lift */
        State back = lone;
        unsigned t = 0;
        lone_normalize(cfg, &back, &t, NULL, NULL, 0, tops, lone_set);
        if (!same_columns(&back, st)) continue; /* nor: the lone cards go elsewhere */
        for (int j = 0; j < NCOLS; j++)
            if (lone.len[j] == st->len[j])
                chunks[j] = parent[j];
            else if (st->len[j])
                col_chunk_after(&e->root, lone.cards[j], lone.len[j], &parent[j], st->len[j], &chunks[j]);
            else
                col_chunk(&e->root, lone.cards[j], lone.len[j], &chunks[j]);
        MoveCtx x;
        int nm = gen_moves_in(cfg, &lone, &x, moves);
        if (e->normal == 1) nm = lone_uses(cfg, st, &lone, k, moves, nm);
        if (lone.ncells < cfg->ncells) {
            int r = ex_lifts(e, &lone, &x, chunks, here, reserve, root);
            if (r != EX_PAUSED) return r;
        }
        if (!ex_room(e, reserve + nm + 1)) {
            e->stack[e->depth++] = here;
            e->out.status = no_room(e->nodes->budget);
            return EX_FULL;
        }
        int r = ex_moves(e, &lone, chunks, moves, nm, here, root, NULL);
        if (r != EX_PAUSED) return r;
    }
    return EX_PAUSED;
}

int ex_run(Exhaust *e, const State *root, long pause_at, long max_nodes, double deadline) {
    const Config *cfg = e->cfg;
    Outcome *out = &e->out;
    Move moves[MAXMOVES];
    uint8_t homed[52];
    State st;
    Chunk parent[NCOLS], chunks[NCOLS];
    /* The last child stored is the next one expanded (the top of the stack): it is
     * made again from its parent, still in ``st``, by its move, rather than decoded
     * from its key. */
    LastChild last = {-1, {0, 0, 0, 0, 0}, 0};
    if (e->slots == NULL) { /* ex_rebuild lost them */
        out->status = NOMEM;
        return EX_ENDED;
    }
    while (e->depth) {
        if (out->nodes >= pause_at) return EX_PAUSED;
        Rec here = e->stack[e->depth - 1];
        if (here == last.next) {
            StateHead head;
            unsigned touched = 0;
            head_save(&st, &head);
            apply_move(&st, last.made);
            if (last.autoplayed) autoplay(cfg, &st, homed);
            if (e->normal) normal_form(cfg, &st, &touched, NULL, NULL);
            for (int j = 0; j < NCOLS; j++)
                if (touched >> j & 1)
                    col_chunk(&e->root, st.cards[j], st.len[j], &parent[j]);
                else if (st.len[j] != head.len[j]) {
                    col_chunk_after(&e->root, st.cards[j], st.len[j], &parent[j], head.len[j], &chunks[j]);
                    parent[j] = chunks[j];
                }
        } else {
            key_decode(&e->root, record_key(e, (size_t)here), record_len(e, (size_t)here), &st, parent);
        }
        last.next = -1;
        MoveCtx mctx;
        int nm = gen_moves_in(cfg, &st, &mctx, moves);
        if (!ex_room(e, nm + 1)) {
            out->status = no_room(e->nodes->budget);
            return EX_FULL;
        }
        e->depth--;
        if (limit_reached(out, max_nodes, deadline)) {
            e->depth++; /* not expanded: a later call may go on from it */
            return EX_ENDED;
        }
        /* The lifts' children first, so that the last child stored (the next one
         * expanded) is one of ``st``'s own moves, made again rather than decoded.
         * The root's too: where it is a normal form, a child that normalizes back
         * to it is found in the table, and only its lifts make what the child's
         * moves would (its other lifts are legal moves all the same). */
        if (e->normal && mctx.nempty && lone_rule(cfg)) {
            int r = ex_lone_lifts(e, &st, &mctx, parent, here, nm, root);
            if (r != EX_PAUSED) return r;
        }
        if (e->normal && st.ncells < cfg->ncells) {
            int r = ex_lifts(e, &st, &mctx, parent, here, nm, root);
            if (r != EX_PAUSED) return r;
        }
        int r = ex_moves(e, &st, parent, moves, nm, here, root, &last);
        if (r != EX_PAUSED) return r;
    }
    out->status = EXHAUSTED;
    return EX_ENDED;
}

Outcome exhaust(const Config *cfg, const State *root, Nodes *nodes, long max_nodes, double deadline,
                       int normal) {
    Exhaust e;
    if (ex_init(&e, cfg, root, nodes)) {
        e.crowd = 1; /* the only search: its tables have the whole budget */
        e.normal = normal;
        ex_run(&e, root, LONG_MAX, max_nodes, deadline);
    }
    ex_free(&e);
    return e.out;
}
