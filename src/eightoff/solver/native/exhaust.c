/* The proof: every reachable position, exact keys (no heuristic, no heap).
 *
 * Part of the _native extension, built as one unit: module.c includes every file
 * (in dependency order), so all functions stay static and inline across files. */

/* ---- the proof: depth-first over every reachable position, exact keys ----------------- */

static Outcome exhaust(const Config *cfg, const State *root, Nodes *nodes, long max_nodes,
                       double deadline) {
    Outcome out = {EXHAUSTED, 0, -1};
    ExactMap map;
    Move moves[MAXMOVES];
    uint8_t homed[52];
    State st, child;
    uint64_t colh[NCOLS];
    int32_t *stack = NULL;
    size_t depth = 0, cap = 0;
    if (!exactmap_init(&map, 1 << 10, nodes->budget)) {
        out.status = no_room(nodes->budget);
        return out;
    }
    if (add_node(nodes, root, -1, mv(-1, -1, -1, -1, 0), 0) == NULL) goto nomem;
    Slot *slot = exactmap_find(&map, nodes, root, state_hash(root));
    slot->hash = state_hash(root);
    slot->node = 0;
    map.count = 1;
    stack = budget_resize(nodes->budget, NULL, 0, 1024 * sizeof(int32_t));
    if (stack == NULL) goto nomem;
    cap = 1024;
    stack[depth++] = 0;
    while (depth) {
        int32_t here = stack[--depth];
        unpack(&nodes->items[here], &st);
        for (int c = 0; c < NCOLS; c++) colh[c] = column_hash(st.cards[c], st.len[c]);
        if (limit_reached(&out, max_nodes, deadline)) break;
        int nm = gen_moves(cfg, &st, moves);
        for (int k = 0; k < nm; k++) {
            child = st;
            apply_move(&child, moves[k]);
            autoplay(cfg, &child, homed);
            uint64_t h = child_hash(&st, colh, &child, moves[k]);
            if (!exactmap_reserve(&map)) goto nomem;
            slot = exactmap_find(&map, nodes, &child, h);
            if (slot->node >= 0) continue;
            if (add_node(nodes, &child, here, moves[k], 0) == NULL) goto nomem;
            slot->hash = h;
            slot->node = (int32_t)(nodes->n - 1);
            map.count++;
            if (sum_founds(&child) == 52) {
                out.status = SOLVED;
                out.goal = slot->node;
                goto done;
            }
            if (depth == cap) {
                int32_t *more = budget_resize(nodes->budget, stack, cap * sizeof(int32_t), 2 * cap * sizeof(int32_t));
                if (more == NULL) goto nomem;
                stack = more;
                cap *= 2;
            }
            stack[depth++] = slot->node;
        }
    }
done:
    budget_free(nodes->budget, stack, cap * sizeof(int32_t));
    exactmap_free(&map);
    return out;
nomem:
    out.status = no_room(nodes->budget);
    budget_free(nodes->budget, stack, cap * sizeof(int32_t));
    exactmap_free(&map);
    return out;
}

