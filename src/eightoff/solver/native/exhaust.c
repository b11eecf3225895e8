/* The proof: every reachable position, exact keys (no heuristic, no heap).
 *
 * Part of the _native extension, built as one unit: module.c includes every file
 * (in dependency order), so all functions stay static and inline across files. */

/* ---- the proof: depth-first over every reachable position, exact keys ----------------- */

/* A depth-first search over every position reachable from the root, told apart by
 * exact keys: running dry proves that no solution exists. It can stop after any
 * expansion and go on later (proof.c runs it by turns with best-first), and a
 * position whose children found no room is left on the stack, so the search can go
 * on once room was made (ex_run returns EX_FULL). */
typedef struct {
    const Config *cfg;
    Nodes *nodes;
    ExactMap map;
    int32_t *stack;
    size_t depth, cap;
    Outcome out;
} Exhaust;

enum { EX_PAUSED = 0, EX_ENDED = 1, EX_FULL = 2 };

/* Room in every table for ``n`` more children (before any is added, so that a
 * refusal leaves the search as it was); 0 when a table found none. */
static int ex_room(Exhaust *e, int n) {
    while (2 * (e->map.count + (size_t)n) > e->map.mask + 1)
        if (!exactmap_grow(&e->map)) return 0;
    Nodes *nodes = e->nodes;
    if (nodes->n + (size_t)n > nodes->cap) {
        size_t cap = nodes->cap ? nodes->cap : 256;
        while (cap < nodes->n + (size_t)n) cap *= 2;
        Node *items = budget_resize(nodes->budget, nodes->items, nodes->cap * sizeof(Node), cap * sizeof(Node));
        if (items == NULL) return 0;
        nodes->items = items;
        nodes->cap = cap;
    }
    if (e->depth + (size_t)n > e->cap) {
        size_t cap = e->cap;
        while (cap < e->depth + (size_t)n) cap *= 2;
        int32_t *more = budget_resize(nodes->budget, e->stack, e->cap * sizeof(int32_t), cap * sizeof(int32_t));
        if (more == NULL) return 0;
        e->stack = more;
        e->cap = cap;
    }
    return 1;
}

/* Ready to run from ``root`` (node 0 of ``nodes``, which must be empty); 0
 * (``out.status`` set) when there was no room. */
static int ex_init(Exhaust *e, const Config *cfg, const State *root, Nodes *nodes) {
    e->cfg = cfg;
    e->nodes = nodes;
    e->stack = NULL;
    e->depth = e->cap = 0;
    e->out = (Outcome){EXHAUSTED, 0, -1};
    if (!exactmap_init(&e->map, 1 << 10, nodes->budget)) {
        e->out.status = no_room(nodes->budget);
        return 0;
    }
    e->stack = budget_resize(nodes->budget, NULL, 0, 1024 * sizeof(int32_t));
    if (e->stack == NULL || add_node(nodes, root, -1, mv(-1, -1, -1, -1, 0), 0) == NULL) {
        e->out.status = no_room(nodes->budget);
        return 0;
    }
    e->cap = 1024;
    uint64_t h = state_hash(root);
    Slot *slot = exactmap_find(&e->map, nodes, root, h);
    slot->hash = h;
    slot->node = 0;
    e->map.count = 1;
    e->stack[e->depth++] = 0;
    return 1;
}

static void ex_free(Exhaust *e) {
    budget_free(e->nodes->budget, e->stack, e->cap * sizeof(int32_t));
    e->stack = NULL;
    e->cap = 0;
    exactmap_free(&e->map);
}

/* Expands positions until ``pause_at`` have been expanded in all (EX_PAUSED: call
 * again to go on), the search ends (EX_ENDED: ``out`` holds the outcome), or a
 * table finds no room (EX_FULL: ``out.status`` is no_room's; the position stays on
 * the stack, so a call after room was made goes on). */
static int ex_run(Exhaust *e, long pause_at, long max_nodes, double deadline) {
    const Config *cfg = e->cfg;
    Nodes *nodes = e->nodes;
    Outcome *out = &e->out;
    Move moves[MAXMOVES];
    uint8_t homed[52];
    State st, child;
    uint64_t colh[NCOLS];
    while (e->depth) {
        if (out->nodes >= pause_at) return EX_PAUSED;
        int32_t here = e->stack[e->depth - 1];
        unpack(&nodes->items[here], &st);
        int nm = gen_moves(cfg, &st, moves);
        if (!ex_room(e, nm)) {
            out->status = no_room(nodes->budget);
            return EX_FULL;
        }
        e->depth--;
        if (limit_reached(out, max_nodes, deadline)) {
            e->depth++; /* not expanded: a later call may go on from it */
            return EX_ENDED;
        }
        for (int c = 0; c < NCOLS; c++) colh[c] = column_hash(st.cards[c], st.len[c]);
        for (int k = 0; k < nm; k++) {
            child = st;
            apply_move(&child, moves[k]);
            autoplay(cfg, &child, homed);
            uint64_t h = child_hash(&st, colh, &child, moves[k]);
            Slot *slot = exactmap_find(&e->map, nodes, &child, h);
            if (slot->node >= 0) continue;
            add_node(nodes, &child, here, moves[k], 0); /* ex_room made room */
            slot->hash = h;
            slot->node = (int32_t)(nodes->n - 1);
            e->map.count++;
            if (sum_founds(&child) == 52) {
                out->status = SOLVED;
                out->goal = slot->node;
                return EX_ENDED;
            }
            e->stack[e->depth++] = slot->node;
        }
    }
    out->status = EXHAUSTED;
    return EX_ENDED;
}

/* The whole search in one go (the ``exhaust`` entry point). */
static Outcome exhaust(const Config *cfg, const State *root, Nodes *nodes, long max_nodes, double deadline) {
    Exhaust e;
    if (ex_init(&e, cfg, root, nodes)) ex_run(&e, LONG_MAX, max_nodes, deadline);
    ex_free(&e);
    return e.out;
}
