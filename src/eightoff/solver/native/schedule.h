/* The solver's schedule as data: every start, share, gate, floor and cap by which
 * the searches take turns (portfolio.c, proof.c) and the finish shortens a line
 * (line.c, shortcut.c). eightoff.solver.Schedule is its Python twin, field for
 * field with the same defaults; the binding reads Schedule.values in the order of
 * SCHEDULE_FIELDS below, whose names it exports (_native.SCHEDULE) for Python to
 * check on load. docs/solver.md says what each one bounds. */
#ifndef EIGHTOFF_SCHEDULE_H
#define EIGHTOFF_SCHEDULE_H

#include <stddef.h>

#define NRESOLVE 3 /* resolve_home's length */

typedef struct {
    /* Best-first's expansions alone before its helpers' first turn (with fewer than wide_cells
     * cells). */
    long early_start;
    /* The end of the early stretch: the helpers' first turn with wide_cells cells or more;
     * before it the turns are early_quantum long, after it quantum. */
    long solo;
    /* With this many cells or more the helpers (and the meta scan) start at solo, and the
     * scans stop at wide_scan_nodes. */
    long wide_cells;
    /* Best-first's turn, in expansions, until solo. */
    long early_quantum;
    /* Best-first's turn, in expansions, from solo on. */
    long quantum;
    /* Until solo the helpers expand early_num positions per early_den of best-first's (0:
     * best-first alone until solo). */
    long early_num;
    /* See early_num. */
    long early_den;
    /* From solo on the helpers expand helper_num positions per helper_den of best-first's. */
    long helper_num;
    /* See helper_num. */
    long helper_den;
    /* The dives and the greedy search take turns only while best-first's open list holds at
     * least one position per open_share expanded (a lost deal's list shrinks). */
    long open_share;
    /* The dives' and the greedy search's positions in all, at most; then best-first alone (the
     * scans, the meta scan and the proof have shares of their own). */
    long dive_max;
    /* A dive started before solo stops after this many expansions, and the next kind starts. */
    long early_dive;
    /* A dive started from solo on stops after this many expansions. */
    long dive_nodes;
    /* A seeded dive by h: a child's h moves by up to this much, shuffling near-ties. */
    double dive_noise;
    /* A seeded dive by kind of move: shuffles the moves within each bracket of the order,
     * never across. */
    double order_noise;
    /* A dive's, a scan's or the meta scan's tables: at most the memory budget / dive_share. */
    long dive_share;
    /* The greedy search's tables: at most the memory budget / greedy_share. */
    long greedy_share;
    /* One helper turn in this many is the greedy search's, the rest the dives'. */
    long greedy_every;
    /* The greedy best-first search's weight of h. */
    double greedy_weight;
    /* Whether the greedy best-first search takes turns. */
    int use_greedy;
    /* Whether the depth-first dives take turns. */
    int use_dives;
    /* Whether Freecell Solver's preset scans (toons, or looking-glass under FreeCell's rules)
     * take turns. */
    int use_scan;
    /* The scans expand scan_num positions per scan_den of best-first's past its first stretch
     * and of the proof's. */
    long scan_num;
    /* See scan_num. */
    long scan_den;
    /* The scans' positions in the portfolio, at most (fewer than wide_cells cells). */
    long scan_nodes;
    /* The scans' positions in the portfolio, at most, with wide_cells cells or more. */
    long wide_scan_nodes;
    /* The scans' first positions may take the other helpers' turns too, up to this many. */
    long scan_first;
    /* The scans' gate: they run at their full share only while best-first's open list holds at
     * least one position per scan_open_share expanded. */
    long scan_open_share;
    /* While the gate holds them, the scans still expand one position per scan_early_floor of
     * their allowance ... */
    long scan_early_floor;
    /* ... up to this many of theirs. */
    long scan_early_floor_cap;
    /* The scans' positions in all, at most, past first too. */
    long scan_late_nodes;
    /* Where the scans are looking-glass's, toons' scans run in the meta scan's place up to
     * this many positions ... */
    long toons_beside_nodes;
    /* ... and on to this many while best-first's open list is not a lost deal's
     * (scan_open_share). */
    long toons_beside_max;
    /* Whether Freecell Solver's meta-move scan takes turns in the first stretch. */
    int use_meta;
    /* The meta scan's first turn comes at best-first's meta_start-th expansion (Kings-only
     * columns, fewer than wide_cells cells). */
    long meta_start;
    /* The same where any card fills an empty column. */
    long meta_start_any;
    /* The meta scan expands one position per best-first expansion for its first meta_early ... */
    long meta_early;
    /* ... then one per meta_late_den. */
    long meta_late_den;
    /* The meta scan runs only while best-first's open list holds at least one position per
     * meta_open_share expanded. */
    long meta_open_share;
    /* The meta scan's positions, at most. */
    long meta_nodes;
    /* Best-first's turn, in expansions, between the meta scan's before the helpers start. */
    long meta_quantum;
    /* The proof takes turns in the portfolio while best-first's open list holds less than one
     * position per pf_proof_gate expanded ... */
    long pf_proof_gate;
    /* ... once best-first has expanded this many. */
    long pf_proof_min;
    /* Whether the proof's turns go on once the other helpers' share is spent. */
    int pf_proof_all;
    /* In the portfolio the proof's turns are pf_proof_num / pf_proof_den of those past first
     * (0: none). */
    long pf_proof_num;
    /* See pf_proof_num. */
    long pf_proof_den;
    /* The portfolio alone for this many expansions; then best-first and the exact proof take
     * turns. */
    long first;
    /* Best-first stops past this many of its own expansions and the proof goes on alone (solve
     * stretches it with a time limit over a minute). */
    long late_bf_max;
    /* Past first the proof expands this many positions per best-first one. */
    long proof_ratio;
    /* The same where lone cards are put back (any card to an empty column, alternating
     * colours): a proof position there costs about two. */
    long proof_ratio_lone;
    /* Best-first's turn past first, in expansions. */
    long proof_quantum;
    /* The long dives stop once best-first has expanded this many. */
    long late_dives_max;
    /* The long dives expand late_num positions per late_den of best-first's. */
    long late_num;
    /* See late_num. */
    long late_den;
    /* A long dive of the first pass over the kinds stops after this many expansions ... */
    long late_dive;
    /* ... each later pass doubles it, up to 2 ** late_rounds times. */
    long late_rounds;
    /* The long dives run only while best-first's open list holds at least one position per
     * late_gate expanded. */
    long late_gate;
    /* Past first the scans expand scan_late_num positions per scan_late_den of the others'. */
    long scan_late_num;
    /* See scan_late_num. */
    long scan_late_den;
    /* Past first the scans' gate: best-first running and its open list holding one position
     * per scan_late_gate expanded (0: whatever it holds). */
    long scan_late_gate;
    /* While that gate holds them the scans still expand one position per scan_floor of the
     * others' since first ... */
    long scan_floor;
    /* ... up to this many of theirs in all. */
    long scan_floor_cap;
    /* After a helper's win best-first goes on for 1 / go_on_div of the positions spent ... */
    long go_on_div;
    /* ... at least this many ... */
    long go_on_min;
    /* ... at most this many, and keeps its own line if no longer. */
    long go_on_max;
    /* A helper's line is re-solved by best-first only with fewer cells than this. */
    long resolve_cells;
    /* Where best-first starts again on a helper's line: once this many more cards are home
     * than at the start (rising). */
    long resolve_home[NRESOLVE];
    /* Each of those searches may expand 1 / resolve_div of the positions spent ... */
    long resolve_div;
    /* ... at least this many ... */
    long resolve_min;
    /* ... at most this many. */
    long resolve_max;
    /* A line this long (single-card moves) or longer once one-move shortcuts are made has its
     * shortcuts try two moves as well ... */
    long long_line;
    /* ... up to this many moves in the line. */
    long two_moves_max;
    /* A card's two moves merge only within this many moves of each other. */
    long merge_span;
} Schedule;

/* Today's schedule: the values the solver was tuned with. */
extern const Schedule SCHEDULE_DEFAULT;

enum { FIELD_LONG, FIELD_DOUBLE, FIELD_BOOL };

/* One field of Schedule: its name, type, place and count (NRESOLVE for resolve_home). */
typedef struct {
    const char *name;
    int type;
    size_t offset;
    int count;
} ScheduleField;

extern const ScheduleField SCHEDULE_FIELDS[];
extern const int NSCHEDULE_FIELDS;

/* NULL when ``s`` is a schedule the searches can run, else what is wrong with it
 * (a share's denominator or a turn of 0, a negative count). */
const char *schedule_invalid(const Schedule *s);

#endif
