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

#endif
