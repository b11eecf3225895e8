#ifndef EIGHTOFF_REPLAY_H
#define EIGHTOFF_REPLAY_H

#include "engine.h"

/* A game's moves checked and played in C, for the engine's long replays
 * (eightoff.position.Board.play_all): a move is played when it is one of the
 * engine's legal moves there (engine.c, held to Position.legal_moves by the tests);
 * the replay stops at the first move that is not, and the engine says why. */

/* Plays ``moves`` on ``es`` in turn while each is legal; ``carried[k]`` is the card
 * move k carried (the deepest of a run). Returns how many were played. */
int replay_moves(const EngineRules *r, EState *es, const Move *moves, int n, uint8_t *carried);

#endif
