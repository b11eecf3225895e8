/* The solver's plain C entry points (src/eightoff/solver/native/solve.h) with a C
 * compiler alone: no Python.
 *
 *     make kernel-test
 *
 * PySolFC's Eight Off deal 1 under the standard rules: solve_line's line replays to a
 * win move by move through the engine's rules, its length is its moves' single-card
 * count, optimal_line's is no longer; a node limit of one position answers "unknown"
 * with no line; solve_invalid names what is wrong with a bad state or limit. The same
 * file built for wasm32-wasi runs the same checks under a WebAssembly runtime. */
#include "check.h"
#include "solve.h"

static void deal(EState *es) {
    memset(es, 0, sizeof *es);
    for (int i = 0; i < NCOLS; i++) {
        es->len[i] = 6;
        memcpy(es->cards[i], DEAL[i], 6);
    }
    memcpy(es->cells, CELLS, sizeof CELLS);
}

/* Whether ``answer``'s moves, each legal under ``cfg``'s rules, take ``es`` to a win. */
static int wins(const Config *cfg, const EState *es, const SolveAnswer *answer) {
    EState at = *es;
    for (int k = 0; k < answer->nmoves; k++)
        if (!engine_play(cfg, &at, answer->moves[k])) return 0;
    return at.founds[0] + at.founds[1] + at.founds[2] + at.founds[3] == 52;
}

/* The line's length in single-card moves: a run of n cards counts 2n - 1. */
static int single_cards(const SolveAnswer *answer) {
    int n = 0;
    for (int k = 0; k < answer->nmoves; k++) n += 2 * answer->moves[k].n - 1;
    return n;
}

int main(void) {
    solve_init();
    /* The standard game: 8 cells, in suit, kings only, runs of free cells + 1, no take-back. */
    const Config cfg = {8, 1, 1, GROUP_CELLS, 0, AUTO_ALL, 1, 4.0, 0.5, 0.4, 0.25, AUTO_ALL};
    EState es;
    deal(&es);
    SolveLimits limits = SOLVE_LIMITS_DEFAULT;
    limits.max_nodes = 200000;
    limits.endgame_home = 20;
    limits.endgame_nodes = 300;
    CHECK(solve_invalid(&cfg, &es, &limits, &SCHEDULE_DEFAULT) == NULL);

    SolveAnswer line = {0}, shortest = {0}, none = {0};
    CHECK(solve_line(&cfg, &es, &limits, &SCHEDULE_DEFAULT, &line) == SOLVE_OK);
    CHECK(line.status == SOLVED && line.nmoves > 0 && line.nodes > 0);
    CHECK(wins(&cfg, &es, &line));
    CHECK(line.length == single_cards(&line));

    CHECK(solve_invalid(&cfg, &es, &limits, NULL) == NULL);
    CHECK(optimal_line(&cfg, &es, &limits, &shortest) == SOLVE_OK);
    CHECK(shortest.status == SOLVED && wins(&cfg, &es, &shortest));
    CHECK(shortest.length <= line.length);

    limits.max_nodes = 1; /* unknown, never a line past the limit */
    CHECK(solve_line(&cfg, &es, &limits, &SCHEDULE_DEFAULT, &none) == SOLVE_OK);
    CHECK(none.status == LIMIT && none.nmoves == 0 && none.moves == NULL);

    EState twice = es; /* a card in two places */
    twice.cells[4] = 5;
    const char *bad = solve_invalid(&cfg, &twice, &limits, &SCHEDULE_DEFAULT);
    CHECK(bad != NULL && strstr(bad, "52 cards once") != NULL);
    limits.max_bytes = 100;
    bad = solve_invalid(&cfg, &es, &limits, &SCHEDULE_DEFAULT);
    CHECK(bad != NULL && strstr(bad, "max_bytes") != NULL);

    if (!failures)
        printf("test_solve: all checks passed (a line of %d moves, %d single-card; the shortest %d)\n",
               line.nmoves, line.length, shortest.length);
    solve_answer_free(&line);
    solve_answer_free(&shortest);
    solve_answer_free(&none);
    return failures ? 1 : 0;
}
