#ifndef EIGHTOFF_NORMAL_H
#define EIGHTOFF_NORMAL_H

#include "position.h"

/* The proof's normal form: cell cards put back on the tops they build on.
 *
 * A card in a cell that builds on a column's top card can go there and back in one
 * move each way, so the two positions win or lose together (70% of the positions
 * a 2-cell alternating-colours proof met had such a card). The proof (exhaust.c)
 * stores only normal forms, where no cell card builds on a top: after each move and
 * autoplay, normalize() moves such cards from the cells onto the tops.
 *
 * What the proof loses by it, it gets back with lifts: a lift puts some of the top
 * cards of some columns (each building on the card under it, as the cards
 * normalize() places do) into free cells. Every position P of the full search is a
 * lift of its normal form N(P) (lift back what normalize placed), and a move of P
 * is one of N(P)'s lift, so expanding a normal form's lifts reaches the normal
 * forms of all of P's children: no winning line is lost. Only the moves of a lift
 * that use it are made (from or onto a lifted column, of a lifted card): any other
 * is a move of the position with that column unlifted too (more free cells, the
 * same other columns), whose child lifts back to the lifted child. Autoplay sends a
 * lifted card home no later than the card it lay on (lift_homes_together), so it
 * makes no difference there; where it might, the moves that send cards home are
 * made too. A lift whose uncovered or lifted cards autoplay would send home is
 * skipped: no position the search makes (after autoplay) is one. Where runs move
 * by free cells, most moves of a lift are a run's from the unlifted column, up to
 * a lift of their child, and only a few are made (lift_moves).
 *
 * Where any card fills an empty column, a card alone in a column that builds on a
 * top goes onto it the same way (lone_normalize, after normalize): it goes back in
 * one move, and two thirds of the positions of a 2-cell proof of that kind had such
 * a card. Its lifts are lone lifts: top cards taken each alone into an empty column
 * (exhaust.c ex_lone_lifts), whose own lifts into cells are made as a stored
 * position's; half as many positions on those proofs. */

/* The cards ``card`` builds on (a bit each): one rank above, in its suit or in
 * the other colour. */
static inline uint64_t bases(const Config *cfg, int card) {
    int r = RANK(card) + 1;
    if (r == 13) return 0;
    if (cfg->suit) return 1ULL << (card + 1);
    return is_red(card) ? 1ULL << r | 1ULL << (39 + r) : 1ULL << (13 + r) | 1ULL << (26 + r);
}

/* Whether autoplay would send ``c``, on top of a column or in a cell, home. */
static inline int sends_home(const Config *cfg, const State *st, int c) {
    return st->founds[c / 13] == c % 13 && autoplays(cfg->autoplay, c, st->founds);
}

/* A card normalize put on a column, and the card that was in its place past the
 * column's end (normal_undo puts it back). */
typedef struct {
    uint8_t col, was;
} Placed;

/* Moves every cell card that builds on a column top onto it, again until none
 * does (a card placed is a top another may build on): the lowest cell card first,
 * onto the lowest of its tops (so that a position has one normal form, whatever
 * its column order). The columns given cards go to ``*touched`` (a bit each), the
 * moves to ``placed`` (if not NULL) and the cards overwritten to ``undo`` (if not
 * NULL); returns how many. ``*top_set``: the tops (top_cards), before and after. */
int normalize(const Config *cfg, State *st, unsigned *touched, Move *placed, Placed *undo, uint64_t *top_set);

/* Whether a lone card (a column's only card) that builds on a top may go onto it
 * and back: a card goes back into the empty column only where any card may. */
static inline int lone_rule(const Config *cfg) { return !cfg->kings_only; }

/* The column tops of ``st`` (a bit each), and those alone in their columns to
 * ``*lone``: one pass over the columns (a cache line or so each). */
static inline uint64_t tops_and_lone(const State *st, uint64_t *lone) {
    uint64_t m = 0, l = 0;
    for (int j = 0; j < NCOLS; j++) {
        int n = st->len[j];
        if (!n) continue;
        uint64_t b = 1ULL << st->cards[j][n - 1];
        m |= b;
        if (n == 1) l |= b;
    }
    *lone = l;
    return m;
}

/* Where any card fills an empty column, puts every lone card that builds on a top
 * onto it, again until none does (a card placed is a top another may build on):
 * the lowest lone card first, onto the lowest of its tops. Its column empties, and
 * the card goes back there in one move: the two positions win or lose together
 * (two thirds of the positions a 2-cell proof with any card to an empty column met
 * had such a card). As normalize, from placement ``n`` on (the cards placed by
 * normalize before); returns the placements in all. The emptied columns go to
 * ``*touched`` too; their lengths are the caller's to restore (head_restore).
 * ``tops``, ``lone``: tops_and_lone's. */
int lone_normalize(const Config *cfg, State *st, unsigned *touched, Move *placed, Placed *undo, int n,
                          uint64_t tops, uint64_t lone);

/* The proof's normal form of ``st``: normalize, then lone_normalize (normalize
 * need not run again: a lone card placed was a top already, and covers one, so no
 * cell card comes to build on a top). Returns the placements (undo, placed:
 * NPLACED at most). */
#define NPLACED (MAXCELLS + NCOLS)
static inline int normal_form(const Config *cfg, State *st, unsigned *touched, Move *placed, Placed *undo) {
    uint64_t lone, tops = tops_and_lone(st, &lone);
    int n = st->ncells ? normalize(cfg, st, touched, placed, undo, &tops) : 0;
    /* normalize only covers tops: the lone cards it left are still tops */
    return lone_rule(cfg) && lone ? lone_normalize(cfg, st, touched, placed, undo, n, tops, lone & tops) : n;
}

/* Puts back the cards normalize's ``n`` placements overwrote (the lengths, cells
 * and foundations are the caller's to restore: head_restore). */
static inline void normal_undo(State *st, const Placed *undo, int n) {
    for (int p = n - 1; p >= 0; p--) st->cards[undo[p].col][--st->len[undo[p].col]] = undo[p].was;
}

/* How many top cards of each column a lift may take (``most``), ``free`` in all:
 * each builds on the card under it (within the column's top run, ``run``), the
 * column keeps its bottom card, and no card the lift uncovers or puts in a cell (or
 * an empty column) would autoplay home. Returns ``free``. */
int lift_most(const Config *cfg, const State *st, const uint8_t *run, int *most, int free);

/* lift_most for a lift into the free cells. */
int lift_limits(const Config *cfg, const State *st, const uint8_t *run, int *most);

/* The next lift after ``k`` (cards per column; all 0 before the first), at most
 * ``most`` per column and ``free`` in all; 0 when there is none. */
int lift_next(const int *most, int free, int *k);

/* ``st`` with the lift ``k`` made: the lifted cards in cells. The lifted columns
 * go to ``*cols`` and the lifted cards to ``*cards`` (a bit each). */
void lift_apply(State *st, const int *k, unsigned *cols, uint64_t *cards);

/* ``st`` with the lone lift ``k`` made: the top ``k[j]`` cards of each column ``j``
 * each alone in an empty column (the first empty ones), as the moves written to
 * ``moves``; returns how many. What lone_normalize placed, put back. */
int lone_lift_apply(State *st, const int *k, Move *moves);

/* Whether ``card`` is one of the ``k`` top cards of column ``j`` of ``st``. */
static inline int lift_holds(const State *st, int j, int k, int card) {
    for (int t = 1; t <= k; t++)
        if (st->cards[j][st->len[j] - t] == card) return 1;
    return 0;
}

/* Whether autoplay sends a card home only once (or as soon as) every card that
 * builds on it may go too: so a lifted card goes home no later than the card it
 * lay on, and a lift changes nothing autoplay does to the cards it leaves alone.
 * In suit, a card builds on the next card of its own pile; in alternating colours
 * the safe rules send a card of rank r home only once the other colour's piles
 * hold r - 1 or r - 2 cards (rules.h), and then a card of rank r - 1 that builds
 * on it is home or may go too. Not so where any card may go home at once
 * (AUTO_ALL) in alternating colours. */
static inline int lift_homes_together(const Config *cfg) { return cfg->suit || cfg->autoplay != AUTO_ALL; }

/* Whether a move may carry a run (as many cards as free cells + 1, or more) and
 * autoplay treats lifted cards as lift_homes_together says: lift_moves' shortcut. */
static inline int lifts_grouped(const Config *cfg) {
    return (cfg->group == GROUP_CELLS || cfg->group == GROUP_FREECELL) && lift_homes_together(cfg);
}

/* Whether, with ``ka`` cards lifted off column ``a`` and ``kb`` off ``b``, a card
 * of ``a`` can go onto ``b``'s uncovered top: one of ``a``'s run under the lift,
 * or (more than one lifted) one of its lifted cards. */
int lifts_meet(const Config *cfg, const State *st, int a, int ka, int b, int kb);

/* The moves of ``st`` (a lift of ``k`` cards off column ``c`` alone, ``cards``
 * the lifted ones) that use the lift, as gen_moves makes them: from ``c``, onto
 * its uncovered top, and (more than one lifted) of the lifted cards but back onto
 * ``c``. The lifted card of a lift of one makes the moves the column's top makes
 * unlifted: none of its own. Returns how many. */
int lift_moves(const Config *cfg, const State *st, int c, int k, uint64_t cards, Move *out);

/* Where each card of a column's top run lies: its column (-1: in no run) and
 * its depth in the run (1: the top). */
typedef struct {
    int8_t col[52];
    uint8_t depth[52];
} RunPlaces;

void run_places(const State *st, const MoveCtx *x, RunPlaces *p);

/* lift_moves where runs move by free cells and lift_homes_together holds, made
 * from ``st`` itself before the lift of ``k`` cards off column ``c`` (``x``: its
 * MoveCtx): the same moves in the same order, and none for most lifts, which are
 * then not made at all. Only the uncovered card's moves home and to a cell, and
 * the moves onto it. The rest are made without the lift, up to a lift of their
 * child: a run from ``c`` onto a column (or into an empty one, or parked by a dig)
 * is the run with the lifted cards on it, from the unlifted column (a move of k
 * more cards with k more free cells, which the group rules allow); a lifted card's
 * move is its run's, or (home) the move home of the top of a smaller lift; and
 * where a larger lift of ``c`` is one (``extends``), the uncovered card to a cell
 * is that lift. */
int grouped_lift_moves(const Config *cfg, const State *st, const MoveCtx *x, const RunPlaces *places, int c,
                              int k, int extends, Move *out);

/* ``moves`` (``nm`` of the settled normal form ``st``) without those whose child is
 * ``st`` itself or a sibling's: a column's top card c to a cell, where it builds
 * on the card b under it, b would not go home and no cell card builds on b. The
 * child's normal form puts c back onto the lowest top it builds on (no other cell
 * card builds on a top: none did on ``st``'s, nor does on b): onto b, which is
 * ``st``; or onto another top t, which is the move of c onto t, made before it
 * (column_moves: onto columns, then to a cell). In a 2-cell alternating proof a
 * third of the children were these, all found in the table. Returns how many are
 * left. */
int drop_returns(const Config *cfg, const State *st, Move *moves, int nm);

#endif
