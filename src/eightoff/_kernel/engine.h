/* The engine's position and moves in C: Position.legal_moves and Position.apply over
 * an EState (cells in place, columns in order), built from rules.h as the search's
 * move generator is. The kernel's binding lists them (eightoff._kernel), and the
 * tests hold them to the Python engine's; the line finisher (solver/native/line.c)
 * checks every move it writes with engine_play. */
#ifndef EIGHTOFF_ENGINE_H
#define EIGHTOFF_ENGINE_H

#include "rules.h"

/* The engine's view: cells have places (-1: empty), columns keep their order. A
 * line move is the engine's (src_kind, src, dst_kind, dst, count): a cell is named
 * by its index, a foundation source by its suit, a foundation target is -1. */
typedef struct {
    uint8_t len[NCOLS];
    uint8_t cards[NCOLS][MAXCOL];
    int8_t cells[MAXCELLS];
    uint8_t founds[4];
} EState;

/* The first free cell, now holding ``card``; -1 when none is free. */
int to_cell(EState *es, int ncells, int card);

/* The cell that held ``card``, now empty; -1 when no cell holds it. */
int from_cell(EState *es, int ncells, int card);

/* Plays ``m`` on ``es`` if the engine would allow it (rules.h's rules). */
int engine_play(const Config *cfg, EState *es, Move m);

/* Whether two engine states are the same, cells compared place by place (nc of them). */
int estate_equal(const EState *a, const EState *b, int nc);

/* The engine's rule options (eightoff.rules.Rules) as plain ints. */
typedef struct {
    int ncells, suit, kings_only, group, take_back;
} EngineRules;

/* Every legal move, in Position.legal_moves' order; returns how many. */
int engine_moves(const EngineRules *r, const EState *es, Move *out);

/* The safe foundation moves the game's autoplay makes (eightoff.game.autoplay_moves),
 * played on ``es`` in turn until none is left: each time the first card that may go
 * home safely (rules.h safe_home; building in suit, any), columns left to right, then
 * cells. ``out`` gets them (52 at most); returns how many. */
int engine_autoplay(const EngineRules *r, EState *es, Move *out);

/* Why a move may not be played (eightoff.errors.Illegal, in that enum's order): the
 * codes of eightoff.moverules.why_not; WHY_LEGAL when it may. */
enum {
    WHY_LEGAL = 0,
    WHY_NO_CARD,       /* the count is below one */
    WHY_NO_SUCH_PLACE, /* variant: 0 a foundation source names no suit, 1 a foundation target
                        * names one, 2 no such column, 3 no such cell (place: 0 source, 1
                        * target; number: its index; most: the rules' cells) */
    WHY_SAME_PLACE,    /* variant: 0 one pile, 1 a foundation card to a foundation */
    WHY_NO_TAKE_BACK,
    WHY_EMPTY_SOURCE,
    WHY_ONE_AT_A_TIME, /* variant: 0 from a cell or foundation, 1 to a foundation, 2 to a cell */
    WHY_TOO_FEW_CARDS, /* number: the cards the column holds */
    WHY_NOT_A_RUN,     /* number: the count; card: the run's head; lower does not build on other */
    WHY_NOT_NEXT,      /* card; need: the card the foundation wants first, -1: card is home */
    WHY_CELL_TO_CELL,
    WHY_CELL_FULL,     /* other: the card the cell holds */
    WHY_DOES_NOT_BUILD, /* card, other: the column's card; need: the card one rank up in
                         * card's suit, -1 for a King; variant: 0 that card, 1 a red card
                         * of its rank, 2 a black one (building in alternate colours) */
    WHY_KINGS_ONLY,    /* card */
    WHY_WHOLE_COLUMN,
    WHY_SINGLE_MOVES,
    WHY_NO_ROOM,       /* number: the count; most: the most cards that may move now */
};

/* A move's refusal: its code and the values its words name (-1 where none). */
typedef struct {
    int code, variant, place;
    int card, other, lower, need; /* cards 0..51 */
    int number, most;
} WhyNot;

/* eightoff.moverules.why_not: why the move (sk, si, dk, di, n) may not be played in
 * ``es``, its checks in the same order. Any ints may be given: a foundation target is
 * -1 (a suit 0..3 names one, which no move does), places the rules lack are refused. */
WhyNot engine_why_not(const EngineRules *r, const EState *es, int sk, int si, int dk, int di, int n);

#endif
