/* From search steps to the engine's moves, the optimal ending and the merges (see line.h). */
#include "line.h"
#include "astar.h"
#include "position.h"
#include "shortcut.h"
#include "tables.h"

static int line_push(Line *line, Move m) {
    if (line->n == line->cap) {
        int cap = line->cap ? 2 * line->cap : 256;
        Move *items = realloc(line->items, (size_t)cap * sizeof(Move));
        if (items == NULL) return 0;
        line->items = items;
        line->cap = cap;
    }
    line->items[line->n++] = m;
    return 1;
}

int single_card_length(const Move *moves, int n) {
    int total = 0;
    for (int k = 0; k < n; k++) total += 2 * moves[k].n - 1;
    return total;
}

int expand_steps(const Config *cfg, EState *es, const Move *steps, const uint8_t *autos,
                        const int *nautos, int nsteps, Line *line) {
    int single = cfg->group == GROUP_SINGLE, nc = cfg->ncells;
    const uint8_t *homed = autos;
    for (int k = 0; k < nsteps; k++) {
        Move s = steps[k];
        if (s.sk >= 0) {
            uint8_t moving[MAXCOL];
            int n = s.n, src_kind = s.sk, src = s.si;
            if (s.sk == COL) {
                es->len[s.si] = (uint8_t)(es->len[s.si] - n);
                memcpy(moving, es->cards[s.si] + es->len[s.si], (size_t)n);
            } else if (s.sk == CELL) {
                moving[0] = (uint8_t)s.si;
                src = from_cell(es, nc, s.si);
                if (src < 0) return -1;
            } else {
                es->founds[s.si]--;
                moving[0] = (uint8_t)(s.si * 13 + es->founds[s.si]);
            }
            if (s.dk == COL) {
                if (n > 1 && single) {
                    int parked[MAXCOL];
                    for (int p = 0; p < n - 1; p++) { /* the top card first */
                        parked[p] = to_cell(es, nc, moving[n - 1 - p]);
                        if (parked[p] < 0) return -1;
                        if (!line_push(line, mv(src_kind, src, CELL, parked[p], 1))) return 0;
                    }
                    if (!line_push(line, mv(src_kind, src, COL, s.di, 1))) return 0;
                    for (int p = n - 2; p >= 0; p--) {
                        if (!line_push(line, mv(CELL, parked[p], COL, s.di, 1))) return 0;
                        es->cells[parked[p]] = -1;
                    }
                } else if (!line_push(line, mv(src_kind, src, COL, s.di, n))) {
                    return 0;
                }
                memcpy(es->cards[s.di] + es->len[s.di], moving, (size_t)n);
                es->len[s.di] = (uint8_t)(es->len[s.di] + n);
            } else if (s.dk == CELL) { /* one card, or the n cards of a dig, top card first */
                for (int p = n - 1; p >= 0; p--) {
                    int at = to_cell(es, nc, moving[p]);
                    if (at < 0) return -1;
                    if (!line_push(line, mv(src_kind, src, CELL, at, 1))) return 0;
                }
            } else {
                es->founds[moving[0] / 13]++;
                if (!line_push(line, mv(src_kind, src, FOUND, -1, 1))) return 0;
            }
        }
        for (int a = 0; a < nautos[k]; a++) {
            int c = homed[a], j = 0, at;
            es->founds[c / 13]++;
            for (at = 0; at < nc; at++)
                if (es->cells[at] == c) break;
            if (at < nc) {
                es->cells[at] = -1;
                if (!line_push(line, mv(CELL, at, FOUND, -1, 1))) return 0;
            } else {
                while (j < NCOLS && !(es->len[j] && es->cards[j][es->len[j] - 1] == c)) j++;
                if (j == NCOLS) return -1;
                es->len[j]--;
                if (!line_push(line, mv(COL, j, FOUND, -1, 1))) return 0;
            }
        }
        homed += nautos[k];
    }
    return 1;
}

/* A move the merges have taken out of a line (merge_pass): no cards. */
#define GONE(m) ((m).n == 0)

/* Plays the moves of ``line`` in [lo, hi) on ``es``, skipping those taken out. */
static int replays(const Config *cfg, EState *es, const Move *line, int lo, int hi) {
    for (int k = lo; k < hi; k++)
        if (!GONE(line[k]) && !engine_play(cfg, es, line[k])) return 0;
    return 1;
}

uint8_t carried(const EState *es, Move m) {
    if (m.sk == COL) return es->cards[m.si][es->len[m.si] - m.n];
    if (m.sk == CELL) return (uint8_t)es->cells[m.si];
    return (uint8_t)(m.si * 13 + es->founds[m.si] - 1);
}

/* Notes move ``k`` (``m`` from ``es``) as the latest to carry each of its cards. */
static void note_carried(const EState *es, Move m, int k, int *last) {
    for (int c = 0; c < m.n; c++) last[m.sk == COL ? es->cards[m.si][es->len[m.si] - m.n + c] : carried(es, m)] = k;
}

/* ``last``[card]: the latest move in [from, upto] that carries the card (-1: none). */
static void latest_moves(const EState *states, const Move *ms, int from, int upto, int *last) {
    for (int c = 0; c < 52; c++) last[c] = -1;
    for (int k = from; k <= upto; k++)
        if (!GONE(ms[k])) note_carried(&states[k], ms[k], k, last);
}

/* A card's two moves merge only within this many moves of each other: a line the
 * searches find is a few hundred moves long, but one the exact proof's depth-first
 * search finds may have hundreds of thousands (a pass over it took hours). */

/* One pass of merges of a card's two moves over ``line``, in place: for each move b,
 * with a the card's previous move, the two go (a round trip: the card never leaves)
 * or become one, made at b's time (late) or at a's (early), whenever the rest
 * of the stretch still plays and the position after b is unchanged. Merged moves
 * are taken out as the pass goes (GONE; the positions after b stay as they were,
 * only the stretch is played again) and the line is closed up at the end. Returns
 * the number of merges (another pass may find more), -1 when out of memory, -2
 * when the line does not replay from ``start``. Past ``deadline`` (>= 0) it stops,
 * the merges made so far kept. */
static int merge_pass(const Schedule *sch, const Config *cfg, const EState *start, Line *line, double deadline) {
    int n = line->n, nc = cfg->ncells, merges = 0;
    Move *ms = line->items;
    EState *states = malloc((size_t)(n + 1) * sizeof(EState)); /* states[k]: before move k */
    if (states == NULL) return -1;
    states[0] = *start;
    for (int k = 0; k < n; k++) {
        states[k + 1] = states[k];
        if (!engine_play(cfg, &states[k + 1], ms[k])) { /* cannot happen for a line expand_steps made */
            free(states);
            return -2;
        }
    }
    int last[52]; /* card -> index of its latest move so far */
    for (int c = 0; c < 52; c++) last[c] = -1;
    EState trial;
    for (int b = 0; b < n; b++) {
        if (!(b & 1023) && b && past(deadline)) break;
        const EState *es = &states[b];
        int a = last[carried(es, ms[b])];
        note_carried(es, ms[b], b, last);
        if (a < 0 || b - a > sch->merge_span) continue;
        Move ma = ms[a], mb = ms[b];
        /* Only a lone card's two moves merge; take-backs and runs stay as they are. */
        if (ma.n > 1 || mb.n > 1 || ma.dk == FOUND || ma.sk == FOUND || mb.sk == FOUND) continue;
        const EState *after = &states[b + 1];
        int done = 0;
        if (ma.sk == mb.dk && ma.si == mb.di) {
            /* A round trip: does the line work with the card never leaving? */
            trial = states[a];
            if (replays(cfg, &trial, ms, a + 1, b) && estate_equal(&trial, after, nc)) {
                ms[a].n = ms[b].n = 0;
                done = 1;
            }
        } else {
            Move merged = mv(ma.sk, ma.si, mb.dk, mb.di, 1);
            /* Late: the card waits at its source until b's time. */
            trial = states[a];
            if (replays(cfg, &trial, ms, a + 1, b) && engine_play(cfg, &trial, merged) &&
                estate_equal(&trial, after, nc)) {
                ms[a].n = 0;
                ms[b] = merged;
                done = 1;
            } else {
                /* Early: the card goes straight to its later target at a's time. */
                trial = states[a];
                if (engine_play(cfg, &trial, merged) && replays(cfg, &trial, ms, a + 1, b) &&
                    estate_equal(&trial, after, nc)) {
                    ms[a] = merged;
                    ms[b].n = 0;
                    done = 1;
                }
            }
        }
        if (!done) continue;
        merges++;
        for (int k = a; k < b; k++) { /* the stretch played again; from b on nothing changed */
            states[k + 1] = states[k];
            if (!GONE(ms[k])) engine_play(cfg, &states[k + 1], ms[k]);
        }
        /* The stretch's moves may carry other cards now. Moves further back than
         * merge_span from b never merge with a later one: they need not be looked at. */
        latest_moves(states, ms, b > sch->merge_span ? b - sch->merge_span : 0, b, last);
    }
    int m = 0;
    for (int k = 0; k < n; k++)
        if (!GONE(ms[k])) ms[m++] = ms[k];
    line->n = m;
    free(states);
    return merges;
}

static void search_state_of(const EState *es, int nc, State *st) {
    memcpy(st->len, es->len, NCOLS);
    memcpy(st->founds, es->founds, 4);
    for (int i = 0; i < NCOLS; i++) memcpy(st->cards[i], es->cards[i], es->len[i]);
    st->ncells = 0;
    for (int k = 0; k < nc; k++)
        if (es->cells[k] >= 0) cell_add(st, es->cells[k]);
}
/* ---- a found path as steps ---------------------------------------------------------- */

int collect_path(const Config *cfg, const State *start, const Nodes *nodes, int32_t goal, Steps *out) {
    int depth = 0;
    for (int32_t k = goal; k > 0; k = nodes->items[k].parent) depth++;
    out->moves = malloc((size_t)(depth + 1) * sizeof(Move));
    out->nautos = malloc((size_t)(depth + 1) * sizeof(int));
    out->n = depth + 1;
    if (out->moves == NULL || out->nautos == NULL) return 0;
    int d = depth;
    for (int32_t k = goal; k > 0; k = nodes->items[k].parent) out->moves[d--] = nodes->items[k].move;
    out->moves[0] = mv(-1, -1, -1, -1, 0);
    State st = *start;
    Config first = *cfg; /* step 0: the autoplay that made the search's root */
    first.autoplay = cfg->root_autoplay;
    int total = out->nautos[0] = autoplay(&first, &st, out->autos);
    for (int k = 1; k <= depth; k++) {
        apply_move(&st, out->moves[k]);
        total += out->nautos[k] = autoplay(cfg, &st, out->autos + total);
    }
    return 1;
}

void steps_free(Steps *steps) {
    free(steps->moves);
    free(steps->nautos);
}


/* The line's ending re-solved: once ``endgame_home`` cards are home, A* within
 * ``endgame_nodes`` (and the budget) over single-card moves, and a shorter ending
 * replaces the found one. Returns 2 when it did, else 1; 0 when out of memory; -1
 * when a line does not replay (a bug). */
static int endgame_pass(const Config *cfg, const EState *start, int endgame_home, long endgame_nodes,
                        double deadline, Budget *budget, Line *line) {
    EState mid = *start;
    int i = 0;
    while (i < line->n && mid.founds[0] + mid.founds[1] + mid.founds[2] + mid.founds[3] < endgame_home)
        engine_play(cfg, &mid, line->items[i++]);
    if (i < line->n && !past(deadline)) {
        /* Only endings shorter than the found one are sought: A* stops as soon
         * as its bound shows there is none. */
        int rest = single_card_length(line->items + i, line->n - i);
        Config single = *cfg;
        single.group = GROUP_NONE;
        single.dig = 0;
        State before, root;
        search_state_of(&mid, cfg->ncells, &before);
        root = before;
        uint8_t homed[52];
        int g0 = autoplay(&single, &root, homed);
        Nodes nodes = {NULL, 0, 0, budget};
        Outcome out = {SOLVED, 0, 0};
        if (sum_founds(&root) < 52) {
            out = astar(&single, &root, g0, &nodes, endgame_nodes, deadline, rest);
            if (out.status == NOMEM) {
                nodes_free(&nodes);
                return 0;
            }
        }
        if (out.status == SOLVED) { /* else no shorter ending, or the limits hit */
            Steps end = {NULL, NULL, {0}, 0};
            Line ending = {NULL, 0, 0};
            EState at = mid;
            int ok = collect_path(&single, &before, &nodes, out.goal, &end);
            if (ok) ok = expand_steps(&single, &at, end.moves, end.autos, end.nautos, end.n, &ending);
            steps_free(&end);
            if (ok > 0 && single_card_length(ending.items, ending.n) < rest) {
                line->n = i;
                for (int k = 0; ok && k < ending.n; k++) ok = line_push(line, ending.items[k]);
                if (ok > 0) ok = 2;
            }
            free(ending.items);
            nodes_free(&nodes);
            return ok;
        }
        nodes_free(&nodes);
    }
    return 1;
}

int finish_line(const Schedule *sch, const Config *cfg, const EState *start, const Steps *steps, int endgame_home,
                       long endgame_nodes, double deadline, Budget *budget, int shortcuts, Line *line) {
    EState es = *start;
    int ok = expand_steps(cfg, &es, steps->moves, steps->autos, steps->nautos, steps->n, line);
    if (ok <= 0) return ok;
    if (endgame_home >= 0 && (ok = endgame_pass(cfg, start, endgame_home, endgame_nodes, deadline, budget, line)) <= 0)
        return ok;
    /* Shortcuts and merges open up more of each other; they only shorten a line that
     * wins already, so past the deadline they stop. */
    for (int before = -1; before != line->n && !past(deadline);) {
        before = line->n;
        if (shortcuts) {
            ok = shortcut_line(sch, cfg, start, line, deadline);
            if (ok <= 0) return ok;
        }
        while (!past(deadline)) {
            int merges = merge_pass(sch, cfg, start, line, deadline);
            if (merges == -1) return 0;
            if (merges == -2) return -1;
            if (!merges) break;
        }
        if (!shortcuts) break;
    }
    return 1;
}

int finish_ending(const Schedule *sch, const Config *cfg, const EState *start, int endgame_home, long endgame_nodes,
                         double deadline, Budget *budget, Line *line) {
    int ok = endgame_pass(cfg, start, endgame_home, endgame_nodes, deadline, budget, line);
    if (ok != 2) return ok; /* out of memory, a bug, or the ending kept */
    while (!past(deadline)) { /* a new ending: where it meets the rest */
        int merges = merge_pass(sch, cfg, start, line, deadline);
        if (merges == -1) return 0;
        if (merges == -2) return -1;
        if (!merges) break;
    }
    return 1;
}

/* ---- a helper's line: best-first's own instead, or resolved from where it got going -- */

/* A helper wins while best-first is on its way, and best-first is often close: it
 * often ends soon after, with a shorter line than the helper's once finished. So
 * after a dive's, the greedy search's or the exact proof's win best-first goes on
 * for 1 / go_on_div of the positions spent (go_on_min to go_on_max, within the node
 * limit); its line, if it finds one, is kept unless longer, and resolve_line's
 * searches are saved. After Freecell Solver's scans' win it goes on only as far as
 * one of resolve_line's searches would, the others sharing the rest if it finds
 * nothing (solve.c solve_line): the scans win where fc-solve is fastest, where eightoff's
 * time is what counts. */

long go_on_nodes(const Schedule *sch, long spent, long max_nodes) {
    long n = spent / sch->go_on_div;
    n = n < sch->go_on_min ? sch->go_on_min : n > sch->go_on_max ? sch->go_on_max : n;
    return max_nodes < 0 || n <= max_nodes - spent ? n : max_nodes - spent;
}

int bf_go_on(BestFirst *bf, long n, long *spent, double deadline) {
    long before = bf->out.nodes;
    int ended = bf_run(bf, before + n, -1, deadline);
    *spent += bf->out.nodes - before;
    return ended && bf->out.status == SOLVED;
}

int keep_shorter(const Schedule *sch, const Config *cfg, const EState *start, const Steps *own, double deadline, Budget *budget,
                 Line *line) {
    Line other = {NULL, 0, 0};
    int ok = finish_line(sch, cfg, start, own, -1, 0, deadline, budget, 0, &other);
    if (ok > 0 && single_card_length(other.items, other.n) <= single_card_length(line->items, line->n)) {
        Line t = *line;
        *line = other;
        other = t;
    }
    free(other.items);
    return ok < 0 ? -1 : 1;
}
/* ---- a helper's line, resolved by best-first from where it got going ---------------- */


long resolve_nodes(const Schedule *sch, long spent, long max_nodes) {
    long n = spent / sch->resolve_div;
    n = n < sch->resolve_min ? sch->resolve_min : n > sch->resolve_max ? sch->resolve_max : n;
    /* under a node limit, no more than the searches left of it */
    return max_nodes < 0 || n <= max_nodes - spent ? n : max_nodes - spent;
}

static int estate_home(const EState *es) { return es->founds[0] + es->founds[1] + es->founds[2] + es->founds[3]; }

int resolve_line(const Schedule *sch, const Config *cfg, const EState *start, Line *line, long max_nodes, double deadline,
                        Budget *budget) {
    int best = single_card_length(line->items, line->n), base = estate_home(start);
    Line shortest = {NULL, 0, 0};
    int ok = 1, i = 0;
    EState mid = *start; /* the line played up to its i-th move: resolve_home rises, line stays */
    for (int t = 0; t < NRESOLVE && ok > 0; t++) {
        if (past(deadline)) break;
        while (i < line->n && estate_home(&mid) < base + sch->resolve_home[t]) engine_play(cfg, &mid, line->items[i++]);
        int prefix = single_card_length(line->items, i);
        if (i == line->n || prefix >= best) continue;
        State before, root;
        uint8_t homed[52];
        search_state_of(&mid, cfg->ncells, &before);
        root = before;
        autoplay(cfg, &root, homed);
        if (sum_founds(&root) == 52) continue; /* the line's rest is that autoplay already */
        Nodes nodes = {NULL, 0, 0, budget};
        Outcome out = best_first(cfg, &root, &nodes, max_nodes, deadline);
        if (out.status == NOMEM) ok = 0;
        if (out.status != SOLVED) { /* the node or time limit, the budget full, or no room */
            nodes_free(&nodes);
            continue;
        }
        Steps steps = {NULL, NULL, {0}, 0};
        Line rest = {NULL, 0, 0};
        ok = collect_path(cfg, &before, &nodes, out.goal, &steps);
        nodes_free(&nodes);
        if (ok) ok = finish_line(sch, cfg, &mid, &steps, -1, 0, deadline, budget, 0, &rest);
        steps_free(&steps);
        if (ok > 0 && prefix + single_card_length(rest.items, rest.n) < best) {
            Line whole = {NULL, 0, 0};
            for (int k = 0; ok && k < i; k++) ok = line_push(&whole, line->items[k]);
            for (int k = 0; ok && k < rest.n; k++) ok = line_push(&whole, rest.items[k]);
            if (ok) {
                best = prefix + single_card_length(rest.items, rest.n);
                free(shortest.items);
                shortest = whole;
            } else {
                free(whole.items);
            }
        }
        free(rest.items);
    }
    if (ok < 0) {
        free(shortest.items);
        return -1;
    }
    if (shortest.n > 0) { /* the shortest found before any lack of room stands too */
        while (!past(deadline)) { /* where the two parts meet, a card's two moves may merge */
            int merges = merge_pass(sch, cfg, start, &shortest, deadline);
            if (merges == -2) {
                free(shortest.items);
                return -1;
            }
            if (merges <= 0) break; /* none left, or no room for more: the line stands */
        }
        free(line->items);
        *line = shortest;
        shortest.items = NULL;
    }
    free(shortest.items);
    return 1;
}
