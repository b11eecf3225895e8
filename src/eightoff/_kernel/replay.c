/* A game's moves checked and played in C (see replay.h). */
#include "replay.h"

int replay_moves(const EngineRules *r, EState *es, const Move *moves, int n, uint8_t *carried) {
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
