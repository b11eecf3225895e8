/* One whole solve and one optimal solve in plain C (see solve.h): the search, then the
 * finish of its line, from the engine's state to the engine's moves. */
#include "solve.h"
#include "astar.h"
#include "line.h"
#include "proof.h"
#include "scans.h"

#include <math.h>

void solve_init(void) {
    position_init();
    astar_init();
    scans_init_tables();
}

const char *config_invalid(const Config *cfg) {
    if (cfg->ncells < 0 || cfg->ncells > MAXCELLS || cfg->group < 0 || cfg->group > 3 || cfg->autoplay < 0 ||
        cfg->autoplay > 3)
        return "config: cells 0..8, group 0..3, auto 0..3";
    if (!isfinite(cfg->weight) || !isfinite(cfg->inv_w) || !isfinite(cfg->cell_w) || !isfinite(cfg->cover_w))
        return "config: the weights must be finite numbers";
    /* A card taken back and sent home again would loop; config_for never asks for both. */
    if (cfg->take_back && cfg->autoplay != AUTO_NONE)
        return "config: take-back moves need automatic foundation moves off";
    return NULL;
}

const char *limits_invalid(const SolveLimits *limits) {
    if (limits->max_bytes < 4096) return "max_bytes: at least 4096 bytes of tables are needed";
    if (isnan(limits->seconds)) return "seconds: a number is needed (< 0: no limit)";
    return NULL;
}

/* Why ``es`` is no state of the config's game: each of the 52 cards once, a card or
 * -1 in each of its cells. */
static const char *estate_invalid(const Config *cfg, const EState *es) {
    if (cfg->group == GROUP_NONE) return "one slot per cell and the rules' group moves are needed";
    uint8_t seen[52] = {0};
    int count = 0;
    for (int k = 0; k < cfg->ncells; k++) {
        int c = es->cells[k];
        if (c < -1 || c >= 52) return "cells: a card 0..51 or -1";
        if (c >= 0 && !seen[c]++) count++;
    }
    for (int i = 0; i < NCOLS; i++) {
        if (es->len[i] > MAXCOL) return "columns: each must be bytes of at most 52 cards";
        for (int k = 0; k < es->len[i]; k++) {
            int c = es->cards[i][k];
            if (c < 52 && !seen[c]++) count++;
        }
    }
    for (int s = 0; s < 4; s++) {
        if (es->founds[s] > 13) return "foundations: ranks 0..13 are needed";
        for (int r = 0; r < es->founds[s]; r++)
            if (!seen[s * 13 + r]++) count++;
    }
    int placed = es->founds[0] + es->founds[1] + es->founds[2] + es->founds[3];
    for (int k = 0; k < cfg->ncells; k++) placed += es->cells[k] >= 0;
    for (int i = 0; i < NCOLS; i++) placed += es->len[i];
    return count == 52 && placed == 52 ? NULL : "the state must hold each of the 52 cards once";
}

const char *solve_invalid(const Config *cfg, const EState *es, const SolveLimits *limits, const Schedule *sch) {
    const char *bad = config_invalid(cfg);
    if (bad == NULL) bad = estate_invalid(cfg, es);
    if (bad == NULL) bad = limits_invalid(limits);
    if (bad != NULL || sch == NULL) return bad;
    if (sch->first < 1) return "schedule.first: at least 1 expansion is needed";
    if (sch->late_bf_max < 1) return "schedule.late_bf_max: at least 1 expansion is needed";
    return schedule_invalid(sch);
}

void estate_search_state(const Config *cfg, const EState *es, State *st) {
    memcpy(st->len, es->len, NCOLS);
    memcpy(st->founds, es->founds, 4);
    for (int i = 0; i < NCOLS; i++) memcpy(st->cards[i], es->cards[i], es->len[i]);
    st->ncells = 0;
    for (int k = 0; k < cfg->ncells; k++)
        if (es->cells[k] >= 0) cell_add(st, es->cells[k]);
}

int autoplayed(const Config *cfg, const State *start, State *root) {
    uint8_t homed[52];
    *root = *start;
    return autoplay(cfg, root, homed);
}

double deadline_after(double seconds) { return seconds < 0 ? -1.0 : now_seconds() + seconds; }

void solve_answer_free(SolveAnswer *answer) {
    free(answer->moves);
    answer->moves = NULL;
    answer->nmoves = 0;
}

/* ``answer`` from a search's outcome, the finish's ``ok`` (finish_line's: 1, 0 out of
 * memory, -1 a line that does not replay) and its line (taken); the call's result. */
static int line_answer(const Outcome *out, int ok, Line *line, SolveAnswer *answer) {
    *answer = (SolveAnswer){out->status, NULL, 0, 0, out->nodes};
    if (out->status == NOMEM || ok <= 0) {
        free(line->items);
        return out->status == NOMEM || ok == 0 ? SOLVE_NOMEM : SOLVE_BROKEN;
    }
    answer->moves = line->items;
    answer->nmoves = line->n;
    answer->length = single_card_length(line->items, line->n);
    return SOLVE_OK;
}

/* The search's winner may hand best-first the rest (a helper's win, line.c bf_go_on):
 * best-first's own line in ``own`` when it found one (1), and ``*again``, each
 * resolve_line search's positions, what is left of them. ``won_at``: the positions
 * spent when the helper won. */
static int go_on_after_helper(Settle *search, const Schedule *sch, const Config *cfg, const State *start,
                              Nodes *nodes, long max_nodes, double deadline, Outcome *out, long *again, Steps *own) {
    long won_at = out->nodes;
    int scans = search->win.cfg == &search->pf.scan.cfg || search->win.cfg == &search->pf.meta.cfg;
    /* After the scans' win (on deals fc-solve ends fastest, where time counts most)
     * best-first takes one of resolve_line's shares, and its searches split the rest:
     * no more positions in all than resolve_line alone. */
    long n = scans ? *again : go_on_nodes(sch, won_at, max_nodes);
    int bf_won = n > 0 && bf_go_on(&search->bf, n, &out->nodes, deadline);
    if (bf_won) bf_won = collect_path(cfg, start, nodes, search->bf.out.goal, own); /* no room: the helper's */
    *again = scans ? *again - (out->nodes - won_at) / NRESOLVE : resolve_nodes(sch, out->nodes, max_nodes);
    if (max_nodes >= 0 && *again > max_nodes - out->nodes) *again = max_nodes - out->nodes;
    return bf_won;
}

/* The finish of the line won (``steps``): its engine moves, the helper's detours cut
 * (``helper``), then best-first's own line if no longer (``own``, ``bf_won``), or
 * best-first again from a few of its positions (``again`` each), then the ending. */
static int finish_won(const Schedule *sch, const Config *cfg, const EState *es, const SolveLimits *limits,
                      const Steps *steps, const Steps *own, int helper, int bf_won, long again, int shorten,
                      double deadline, Budget *budget, Line *line) {
    /* The ending is re-solved once, on the line kept: not on each line tried. */
    int ok = finish_line(sch, cfg, es, steps, -1, 0, deadline, budget, helper, line);
    if (ok > 0 && bf_won)
        ok = keep_shorter(sch, cfg, es, own, deadline, budget, line);
    else if (ok > 0 && shorten && again > 0)
        ok = resolve_line(sch, cfg, es, line, again, deadline, budget);
    if (ok > 0 && limits->endgame_home >= 0)
        ok = finish_ending(sch, cfg, es, limits->endgame_home, limits->endgame_nodes, deadline, budget, line);
    return ok;
}

int solve_line(const Config *rules, const EState *es, const SolveLimits *limits, const Schedule *sch,
               SolveAnswer *answer) {
    Config cfg = *rules;
    cfg.root_autoplay = cfg.autoplay;
    State start, root;
    estate_search_state(&cfg, es, &start);
    const long max_nodes = limits->max_nodes;
    double deadline = deadline_after(limits->seconds);
    Budget budget = {0, (size_t)limits->max_bytes, 0};
    Nodes nodes = {NULL, 0, 0, &budget};
    Outcome out = {SOLVED, 0, 0};
    Steps steps = {NULL, NULL, {0}, 0};
    Steps own = {NULL, NULL, {0}, 0}; /* best-first's line, when it goes on to one (line.c bf_go_on) */
    Line line = {NULL, 0, 0};
    int ok = 1;
    Settle search = {.win = {&cfg, &nodes}};
    autoplayed(&cfg, &start, &root);
    if (sum_founds(&root) < 52) out = settle(&search, sch, &cfg, &start, &root, &nodes, max_nodes, deadline, limits->tail);
    /* A portfolio helper's line, or the exact depth-first search's (it wanders far
     * more: thousands of moves): the finish cuts its detours too. */
    int helper = !(search.win.cfg == &cfg && search.win.nodes == &nodes); /* any line but best-first's */
    /* Not with eight cells, where best-first's own lines are found by the helpers' too
     * (there re-solving buys a fraction of a move for several percent more time). */
    int shorten = helper && limits->resolve && cfg.ncells < sch->resolve_cells;
    int bf_won = 0;
    long again = resolve_nodes(sch, out.nodes, max_nodes); /* each resolve_line search's */
    if (out.status == SOLVED) /* the winner's path: a dive's config may differ (its autoplay) */
        ok = collect_path(search.win.cfg, &start, search.win.nodes, out.goal, &steps);
    /* Best-first goes on a little (line.c bf_go_on) after any helper's win (a dive's,
     * the greedy search's, the proof's, the scans'). */
    if (ok && out.status == SOLVED && shorten && search.blive)
        bf_won = go_on_after_helper(&search, sch, &cfg, &start, &nodes, max_nodes, deadline, &out, &again, &own);
    settle_free(&search);
    if (out.status == SOLVED) {
        nodes_free(&nodes); /* the finish's A* gets the whole budget */
        if (ok) ok = finish_won(sch, &cfg, es, limits, &steps, &own, helper, bf_won, again, shorten, deadline, &budget, &line);
    }
    nodes_free(&nodes);
    steps_free(&steps);
    steps_free(&own);
    return line_answer(&out, ok, &line, answer);
}

int optimal_line(const Config *rules, const EState *es, const SolveLimits *limits, SolveAnswer *answer) {
    Config single = *rules; /* one card a move, no digging macro: lengths in single-card moves */
    single.root_autoplay = single.autoplay;
    single.group = GROUP_NONE;
    single.dig = 0;
    State start, root;
    estate_search_state(rules, es, &start);
    double deadline = deadline_after(limits->seconds);
    Budget budget = {0, (size_t)limits->max_bytes, 0};
    Nodes nodes = {NULL, 0, 0, &budget};
    Outcome out = {SOLVED, 0, 0};
    Steps steps = {NULL, NULL, {0}, 0};
    Line line = {NULL, 0, 0};
    EState play = *es; /* expand_steps plays the line on it */
    int ok = 1;
    int g0 = autoplayed(&single, &start, &root);
    if (sum_founds(&root) < 52) out = astar(&single, &root, g0, &nodes, limits->max_nodes, deadline, -1);
    if (out.status == SOLVED) {
        ok = collect_path(&single, &start, &nodes, out.goal, &steps);
        if (ok) ok = expand_steps(&single, &play, steps.moves, steps.autos, steps.nautos, steps.n, &line);
    }
    nodes_free(&nodes);
    steps_free(&steps);
    return line_answer(&out, ok, &line, answer);
}
