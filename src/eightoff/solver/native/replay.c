/* A game's moves checked and played in C, for the engine's long replays
 * (eightoff.position.Board.play_all): a move is played when it is one of the
 * engine's legal moves there (legal.c, held to Position.legal_moves by the tests);
 * the replay stops at the first move that is not, and the engine says why.
 *
 * Part of the _native extension, built as one unit (see module.c). */

/* Plays ``moves`` on ``es`` in turn while each is legal; ``carried[k]`` is the card
 * move k carried (the deepest of a run). Returns how many were played. */
static int replay_moves(const EngineRules *r, EState *es, const Move *moves, int n, uint8_t *carried) {
    Move legal[4 * MAXMOVES];
    Config cfg = {r->ncells, r->suit, r->kings_only, r->group, r->take_back, AUTO_NONE, 0, 0.0, 0.0, 0.0, 0.0, AUTO_NONE};
    for (int k = 0; k < n; k++) {
        Move m = moves[k];
        int nm = engine_moves(r, es, legal), listed = 0;
        for (int j = 0; j < nm && !listed; j++) listed = !memcmp(&legal[j], &m, sizeof(Move));
        if (!listed) return k;
        if (m.sk == COL)
            carried[k] = es->cards[m.si][es->len[m.si] - m.n];
        else if (m.sk == CELL)
            carried[k] = (uint8_t)es->cells[m.si];
        else
            carried[k] = (uint8_t)(m.si * 13 + es->founds[m.si] - 1);
        if (!engine_play(&cfg, es, m)) return k; /* never: a listed move plays */
    }
    return n;
}
