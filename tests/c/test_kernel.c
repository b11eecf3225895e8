/* The game kernel (src/eightoff/_kernel) tested with a C compiler alone: no Python.
 *
 *     make kernel-test
 *
 * PySolFC's Eight Off deal 1 under the standard rules: the engine's legal moves (the
 * count Position.legal_moves gives), why moves may not be played, a move applied, the search's move generator and
 * hashes, an exact key's round trip, a short replay that stops at an illegal move, and
 * the game's autoplay.
 * Cards are 0..51 = suit * 13 + rank - 1 (spades, hearts, diamonds, clubs). */
#include "check.h"
#include "engine.h"
#include "keys.h"
#include "position.h"
#include "replay.h"
#include "tables.h"

static void deal(EState *es, State *st) {
    memset(es, 0, sizeof *es);
    memset(st, 0, sizeof *st);
    for (int i = 0; i < NCOLS; i++) {
        es->len[i] = st->len[i] = 6;
        memcpy(es->cards[i], DEAL[i], 6);
        memcpy(st->cards[i], DEAL[i], 6);
    }
    memcpy(es->cells, CELLS, sizeof CELLS);
    for (int k = 0; k < MAXCELLS; k++)
        if (CELLS[k] >= 0) cell_add(st, CELLS[k]);
}

int main(void) {
    position_init();
    /* The standard game: 8 cells, in suit, kings only, runs of free cells + 1, no take-back. */
    EngineRules rules = {8, 1, 1, GROUP_CELLS, 0};
    Config cfg = {8, 1, 1, GROUP_CELLS, 0, AUTO_ALL, 1, 4.0, 0.5, 0.4, 0.25, AUTO_ALL};
    EState es;
    State st;
    deal(&es, &st);

    /* The engine's legal moves: 33 on the deal, as Position.legal_moves lists them,
     * the first column 1's exposed card (the 6 of diamonds) to the first free cell. */
    Move moves[4 * MAXMOVES];
    int nm = engine_moves(&rules, &es, moves);
    CHECK(nm == 33);
    CHECK(moves[0].sk == COL && moves[0].si == 0 && moves[0].dk == CELL && moves[0].di == 4 && moves[0].n == 1);
    for (int k = 0; k < nm; k++) { /* each legal move plays */
        EState trial = es;
        CHECK(engine_play(&cfg, &trial, moves[k]));
    }
    /* A move to a full cell is not legal and changes nothing. */
    EState before = es;
    CHECK(!engine_play(&cfg, &es, mv(COL, 0, CELL, 0, 1)));
    CHECK(estate_equal(&before, &es, 8));

    /* Why a move may not be played (eightoff.moverules.why_not): each legal move may; the
     * 6 of diamonds (31) does not go to cell a (the 6 of spades, 5), on the 8 of spades
     * (7; it needs the 7 of diamonds, 32), home (the ace, 26, first) or, in alternate
     * colours, on the 8 of diamonds (33; a black 7); the 3 of spades (2) under it is no run. */
    for (int k = 0; k < nm; k++) {
        Move m = moves[k];
        CHECK(engine_why_not(&rules, &es, m.sk, m.si, m.dk, m.di, m.n).code == WHY_LEGAL);
    }
    WhyNot w = engine_why_not(&rules, &es, COL, 0, CELL, 0, 1);
    CHECK(w.code == WHY_CELL_FULL && w.card == 31 && w.other == 5);
    w = engine_why_not(&rules, &es, COL, 0, COL, 1, 1);
    CHECK(w.code == WHY_DOES_NOT_BUILD && w.other == 7 && w.need == 32 && w.variant == 0);
    w = engine_why_not(&(EngineRules){8, 0, 1, GROUP_CELLS, 0}, &es, COL, 0, COL, 2, 1);
    CHECK(w.code == WHY_DOES_NOT_BUILD && w.other == 33 && w.need == 32 && w.variant == 2);
    w = engine_why_not(&rules, &es, COL, 0, FOUND, -1, 1);
    CHECK(w.code == WHY_NOT_NEXT && w.card == 31 && w.need == 26);
    w = engine_why_not(&rules, &es, COL, 0, COL, 1, 2);
    CHECK(w.code == WHY_NOT_A_RUN && w.card == 2 && w.lower == 31 && w.other == 2 && w.number == 2);
    w = engine_why_not(&rules, &es, COL, 0, COL, 1, 7);
    CHECK(w.code == WHY_TOO_FEW_CARDS && w.number == 6);
    CHECK(engine_why_not(&rules, &es, COL, 0, COL, 1, 0).code == WHY_NO_CARD);
    CHECK(engine_why_not(&rules, &es, FOUND, 0, COL, 1, 1).code == WHY_NO_TAKE_BACK);
    w = engine_why_not(&(EngineRules){4, 1, 1, GROUP_CELLS, 0}, &es, COL, 0, CELL, 5, 1);
    CHECK(w.code == WHY_NO_SUCH_PLACE && w.variant == 3 && w.place == 1 && w.number == 5 && w.most == 4);
    w = engine_why_not(&(EngineRules){8, 1, 1, GROUP_SINGLE, 0}, &es, COL, 0, COL, 1, 2);
    CHECK(w.code == WHY_NOT_A_RUN);

    /* Applying the first move: 25 legal moves then, as the engine counts them. */
    EState next = es;
    CHECK(engine_play(&cfg, &next, moves[0]));
    CHECK(next.len[0] == 5 && next.cells[4] == 31);
    CHECK(engine_moves(&rules, &next, moves) == 25);

    /* The search side: moves generated from the search state apply, and a child's
     * hash is its own whatever the order of its columns. */
    Move gen[MAXMOVES];
    int ng = gen_moves(&cfg, &st, gen);
    CHECK(ng > 0);
    for (int k = 0; k < ng; k++) {
        State child = st;
        apply_move(&child, gen[k]);
        State swapped = child;
        memcpy(swapped.cards[0], child.cards[7], MAXCOL);
        memcpy(swapped.cards[7], child.cards[0], MAXCOL);
        swapped.len[0] = child.len[7];
        swapped.len[7] = child.len[0];
        CHECK(state_hash(&child) == state_hash(&swapped));
        CHECK(same_position(&child, &swapped));
    }

    /* An exact key relative to the deal decodes to the same position. */
    KeyRoot root;
    keyroot_init(&root, &st, 1);
    State child = st;
    apply_move(&child, gen[0]);
    uint8_t key[KEYMAX];
    int len = key_encode(&root, &child, key);
    CHECK(len > 0 && len <= KEYMAX);
    State back;
    key_decode(&root, key, len, &back, NULL);
    CHECK(same_position(&back, &child));
    CHECK(key_hash(key, len) != 0);

    /* A replay plays the legal moves and stops at the first illegal one. */
    engine_moves(&rules, &es, moves);
    Move line[3] = {moves[0], moves[0], mv(COL, 1, CELL, 5, 1)}; /* the second: to a full cell */
    EState replayed = es;
    uint8_t carried[3];
    int played = replay_moves(&rules, &replayed, line, 3, carried);
    CHECK(played == 1 && carried[0] == 31);
    CHECK(estate_equal(&replayed, &next, 8));

    /* The game's autoplay: none on the deal (no ace on top). In alternating colours,
     * with spades home to 2, diamonds to the ace and the rest of both suits in two
     * columns, the 2 of diamonds goes, then each suit's next card as the other colour's
     * piles allow, columns left to right: all 23, ending with every pile full. */
    Move homed[52];
    EState dealt = es;
    CHECK(engine_autoplay(&rules, &dealt, homed) == 0 && estate_equal(&dealt, &es, 8));
    EngineRules alternate = {8, 0, 1, GROUP_CELLS, 0};
    EState end;
    memset(&end, 0, sizeof end);
    memset(end.cells, -1, sizeof end.cells);
    for (int r = 12; r >= 1; r--) end.cards[0][end.len[0]++] = (uint8_t)(26 + r); /* KD .. 2D */
    for (int r = 12; r >= 2; r--) end.cards[1][end.len[1]++] = (uint8_t)r;        /* KS .. 3S */
    end.founds[0] = 2, end.founds[1] = 13, end.founds[2] = 1, end.founds[3] = 13;
    CHECK(engine_autoplay(&alternate, &end, homed) == 23);
    CHECK(homed[0].si == 0 && homed[1].si == 0 && homed[2].si == 1 && homed[3].si == 0);
    CHECK(homed[0].sk == COL && homed[0].dk == FOUND && homed[0].di == -1);
    CHECK(end.len[0] == 0 && end.len[1] == 0 && end.founds[0] == 13 && end.founds[2] == 13);

    if (failures) {
        fprintf(stderr, "test_kernel: %d checks failed\n", failures);
        return 1;
    }
    printf("test_kernel: all checks passed\n");
    return 0;
}
