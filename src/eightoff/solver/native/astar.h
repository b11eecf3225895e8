#ifndef EIGHTOFF_ASTAR_H
#define EIGHTOFF_ASTAR_H

#include "rules.h"

/* Optimal mode: A* with Paul & Helmert's bound (SoCS 2016). The bound need not be
 * consistent, so a position reached again more cheaply is expanded again. Safe
 * automatic foundation moves keep optimality: playing a safe card home at once
 * removes its later moves and breaks no other move. */

/* SUIT_FROM[c]: the bits of card c and the higher cards of its suit. */
extern uint64_t SUIT_FROM[52];

extern uint64_t SUIT_BITS[4];

/* Fills SUIT_FROM and SUIT_BITS: once, before any search. */
void astar_init(void);

/* ``root`` is after autoplay, ``g0`` the cards that autoplay sent home. With
 * ``below`` >= 0 only solutions shorter than it are sought. A position reached
 * again more cheaply gets a new node (its stale entries are skipped), so every
 * node's state is exactly its parent's plus its move. */
Outcome astar(const Config *cfg, const State *root, int g0, Nodes *nodes, long max_nodes,
                     double deadline, int below);

#endif
