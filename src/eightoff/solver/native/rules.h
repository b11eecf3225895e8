#ifndef EIGHTOFF_NATIVE_RULES_H
#define EIGHTOFF_NATIVE_RULES_H

/* The game's move rules, once, for the C core: the move generator (position.c),
 * the line finisher's replay checks (line.c) and the engine's legal moves
 * (legal.c) are all built from these. The Python engine's twin is
 * eightoff.position (builds_on, Position.capacity); tests/test_native.py holds the
 * two to the same legal moves over random positions of every preset.
 *
 * Cards are 0..51 = suit * 13 + rank - 1, suits in the order spades, hearts,
 * diamonds, clubs (hearts and diamonds red). */
#include "core.h"

static inline int is_red(int c) { return 13 <= c && c < 39; }

/* Whether ``card`` may lie on ``onto`` in a column: one rank lower, in suit or in
 * the other colour. */
static inline int builds(int card, int onto, int suit) {
    if (onto % 13 != card % 13 + 1) return 0;
    if (suit) return onto / 13 == card / 13;
    return is_red(card) != is_red(onto);
}

/* Whether ``card`` may go to an empty column (alone or heading a run). */
static inline int starts_column(int card, int kings_only) { return !kings_only || card % 13 == 12; }

/* The most cards one move may carry: one card per move; free cells + 1; or the
 * FreeCell formula (free cells + 1) * 2^(empty columns), an empty target column
 * not counted. */
static inline int run_capacity(int group, int free_cells, int empty_columns, int to_empty_column) {
    if (group == GROUP_SINGLE || group == GROUP_NONE) return 1;
    if (group == GROUP_CELLS) return free_cells + 1;
    int room = empty_columns - (to_empty_column ? 1 : 0);
    return room > 0 ? (free_cells + 1) << room : free_cells + 1;
}

/* Alternating colours: a card is needed only as a base for the two opposite-colour
 * cards one rank lower; once both are home it never is. */
static inline int safe_home(int card, const uint8_t *f) {
    int r = card % 13;
    if (r <= 1) return 1;
    if (is_red(card)) return f[0] >= r && f[3] >= r;
    return f[1] >= r && f[2] >= r;
}

#endif
