#ifndef EIGHTOFF_NATIVE_RULES_H
#define EIGHTOFF_NATIVE_RULES_H

/* The game's move rules, once, for the C core: the move generator (position.c),
 * the engine's legal moves and their play (engine.c), and through them the line
 * finisher's checks (solver/native/line.c) are all built from these. The Python engine's twin is
 * eightoff.position (builds_on, Position.capacity); tests/test_native.py holds the
 * two to the same legal moves over random positions of every preset.
 *
 * Cards are 0..51 = suit * 13 + rank - 1, suits in the order spades, hearts,
 * diamonds, clubs (hearts and diamonds red). */
#include "core.h"

static inline int is_red(int c) { return 13 <= c && c < 39; }

/* A card's rank - 1 and suit, looked up: in the hottest loops (move generation,
 * autoplay, h) a table load is cheaper than the multiply and shifts of % 13 and / 13. */
static const uint8_t CARD_RANK[52] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
                                      11, 12, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0, 1, 2, 3, 4, 5, 6, 7, 8,
                                      9, 10, 11, 12};
static const uint8_t CARD_SUIT[52] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                                      2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3};
#define RANK(c) ((int)CARD_RANK[(c)])
#define SUIT(c) ((int)CARD_SUIT[(c)])

/* Whether ``card`` may lie on ``onto`` in a column: one rank lower, in suit or in
 * the other colour. */
static inline int builds(int card, int onto, int suit) {
    if (RANK(onto) != RANK(card) + 1) return 0;
    if (suit) return SUIT(onto) == SUIT(card);
    return is_red(card) != is_red(onto);
}

/* Whether ``card`` may go to an empty column (alone or heading a run). */
static inline int starts_column(int card, int kings_only) { return !kings_only || RANK(card) == 12; }

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
    int r = RANK(card);
    if (r <= 1) return 1;
    if (is_red(card)) return f[0] >= r && f[3] >= r;
    return f[1] >= r && f[2] >= r;
}

/* Alternating colours, refined: a card of rank r (1-based) that may go home may go
 * at once when both opposite-colour piles hold r - 2 and the other pile of its
 * colour r - 3 (or the basic rule holds). Proof, for any cells, empty columns
 * (kings only or any card), group moves, as long as nothing ever leaves a
 * foundation (no take-back). The cards that can ever lie on the card c, directly or
 * not, are those that build on it, down the ranks: the opposite-colour r - 1s, on
 * them the same-colour r - 2s, then r - 3s, ... Each of them is home already or is
 * the next card of its pile (c's own pile holds r - 1, the others hold at least
 * rank - 1 of each such card; piles only grow). Take a winning line L from the
 * position with c on the table, and play L' from the one with c home: the same
 * moves, with H, the cards home in L' but not in L, left out of them. Invariant:
 * L' is L without the cards of H (anything above a card of H in a column is in H:
 * it was built on it). A move of L of cards of H only is skipped; a move of a run R
 * moves R's cards not in H (a run headed by the same card: the same target, rules
 * and capacity hold, with at least as many free cells and empty columns); a move of
 * L that puts cards on a card of H instead sends them home in L', top first: each
 * builds on a card of H, so it is one of the cards above, the next of its pile, and
 * at the top of its place in L'. A foundation move of L is played or, for a card
 * of H, skipped. So L' wins, and never takes more single-card moves than L. */
static inline int proven_safe_home(int card, const uint8_t *f) {
    int r = RANK(card);
    if (safe_home(card, f)) return 1;
    int s = SUIT(card), other = 3 - s; /* the other suit of the same colour */
    if (is_red(card)) return f[0] >= r - 1 && f[3] >= r - 1 && f[other] >= r - 2;
    return f[1] >= r - 1 && f[2] >= r - 1 && f[other] >= r - 2;
}

/* Whether autoplay of ``mode`` sends ``card`` home (it may go there). */
static inline int autoplays(int mode, int card, const uint8_t *f) {
    if (mode == AUTO_ALL) return 1;
    if (mode == AUTO_PROVEN) return proven_safe_home(card, f);
    return mode == AUTO_SAFE && safe_home(card, f);
}

#endif
