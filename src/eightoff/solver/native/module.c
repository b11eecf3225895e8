/* The solver's C core: eightoff.solver._native, the one fast solver.
 *
 * It runs a weighted best-first search (positions told apart by a 64-bit
 * order-free hash), the exact proof search, the A* of optimal mode (single-card
 * moves, Paul & Helmert's bound, exact keys) and the finish of a found line
 * (engine moves, optimal ending, merges) on plain data: columns as bytes, the cells,
 * four foundation ranks, and a config (eightoff.solver.core.Config). The
 * move rules are the kernel's (src/eightoff/_kernel/rules.h), and the tests hold
 * the verdicts to the Python engine's reference solver. This file is the binding
 * only: each search is its own C file behind its header, with no Python in it.
 * Nothing touches a Python object inside a search: the GIL is released for the
 * whole loop. */
#define PY_SSIZE_T_CLEAN
#include <Python.h> /* first, as Python asks */

#include "astar.h"
#include "best_first.h"
#include "binding.h"
#include "dive.h"
#include "exhaust.h"
#include "keys.h"
#include "layered.h"
#include "line.h"
#include "portfolio.h"
#include "proof.h"
#include "scans.h"
#include "schedule.h"
#include "shortcut.h"
#include "solve.h"

#include <math.h>

/* ---- Python glue --------------------------------------------------------------------- */

/* One field of a config (core.Config) by name: an int, or a double. */
static int config_field(PyObject *obj, const char *name, int *as_int, double *as_double) {
    PyObject *value = PyObject_GetAttrString(obj, name);
    if (value == NULL) {
        PyErr_Format(PyExc_TypeError, "config: no field %s (an eightoff.solver.core.Config is needed)", name);
        return 0;
    }
    int ok;
    if (as_double != NULL) {
        *as_double = PyFloat_AsDouble(value);
        ok = !(*as_double == -1.0 && PyErr_Occurred());
    } else {
        long v = PyLong_AsLong(value);
        ok = !(v == -1 && PyErr_Occurred()) && v >= INT_MIN && v <= INT_MAX;
        *as_int = (int)v;
    }
    Py_DECREF(value);
    if (!ok) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "config.%s: %s", name, as_double != NULL ? "a number is needed" : "an integer is needed");
    }
    return ok;
}

/* The rules and the heuristic's weights, from a core.Config read field by field. */
static int read_config(PyObject *obj, Config *cfg) {
    if (!config_field(obj, "cells", &cfg->ncells, NULL) || !config_field(obj, "suit", &cfg->suit, NULL) ||
        !config_field(obj, "kings_only", &cfg->kings_only, NULL) || !config_field(obj, "group", &cfg->group, NULL) ||
        !config_field(obj, "take_back", &cfg->take_back, NULL) ||
        !config_field(obj, "autoplay", &cfg->autoplay, NULL) || !config_field(obj, "dig", &cfg->dig, NULL) ||
        !config_field(obj, "weight", NULL, &cfg->weight) || !config_field(obj, "inv_weight", NULL, &cfg->inv_w) ||
        !config_field(obj, "cell_weight", NULL, &cfg->cell_w) ||
        !config_field(obj, "cover_weight", NULL, &cfg->cover_w))
        return 0;
    cfg->root_autoplay = cfg->autoplay;
    const char *bad = config_invalid(cfg);
    if (bad != NULL) PyErr_SetString(PyExc_ValueError, bad);
    return bad == NULL;
}

static PyObject *autos_tuple(const uint8_t *homed, int nh) {
    PyObject *t = PyTuple_New(nh);
    if (t == NULL) return NULL;
    for (int k = 0; k < nh; k++) PyTuple_SET_ITEM(t, k, PyLong_FromLong(homed[k]));
    return t;
}

static PyObject *step_tuple(Move m, const uint8_t *homed, int nh) {
    PyObject *move = move_tuple(m), *autos = autos_tuple(homed, nh);
    if (move == NULL || autos == NULL) {
        Py_XDECREF(move);
        Py_XDECREF(autos);
        return NULL;
    }
    return Py_BuildValue("(NN)", move, autos);
}

/* The steps from the root (before its autoplay) to node ``goal``, as Python tuples
 * (a Step: (move, cards autoplay then sent home)); the root's autoplay is a step only when it sent cards home. */
static PyObject *path_steps(const Config *cfg, const State *start, const Nodes *nodes, int32_t goal) {
    Steps steps;
    if (!collect_path(cfg, start, nodes, goal, &steps)) {
        steps_free(&steps);
        return PyErr_NoMemory();
    }
    PyObject *out = PyList_New(0);
    const uint8_t *homed = steps.autos;
    for (int k = 0; out != NULL && k < steps.n; k++) {
        if (k > 0 || steps.nautos[0]) {
            PyObject *step = step_tuple(steps.moves[k], homed, steps.nautos[k]);
            if (step == NULL || PyList_Append(out, step) < 0) Py_CLEAR(out);
            Py_XDECREF(step);
        }
        homed += steps.nautos[k];
    }
    steps_free(&steps);
    return out;
}

enum { BEST_FIRST = 0, EXHAUST = 1, ASTAR = 2 };

/* Every binding's first arguments: the state (cols, cells, founds) and the config;
 * then, keyword-only, the limits (max_nodes, seconds: < 0 none; max_bytes of tables)
 * and the binding's own options. SEARCH_KWLIST names them, SEARCH_FORMAT parses them
 * for PyArg_ParseTupleAndKeywords (a binding's options' formats after it) into the
 * places SEARCH_PLACES gives, the cells as ``cells_type`` (bytes, or a tuple of a card
 * or -1 per cell in place). STATE_* alone: for a binding with required arguments of
 * its own after the config. */
typedef struct {
    PyObject *cols, *cells, *founds, *config;
    long max_nodes;
    double seconds;
    Py_ssize_t max_bytes;
} SearchArgs;
#define SEARCH_ARGS_DEFAULT {NULL, NULL, NULL, NULL, -1, -1.0, (Py_ssize_t)DEFAULT_MAX_BYTES}
#define STATE_FORMAT "(O!O!O!)O"
#define STATE_PLACES(a, cells_type) \
    &PyTuple_Type, &(a).cols, cells_type, &(a).cells, &PyTuple_Type, &(a).founds, &(a).config
#define LIMITS_FORMAT "ldn"
#define LIMITS_PLACES(a) &(a).max_nodes, &(a).seconds, &(a).max_bytes
#define SEARCH_KWLIST "state", "config", "max_nodes", "seconds", "max_bytes"
#define SEARCH_FORMAT STATE_FORMAT "|$" LIMITS_FORMAT
#define SEARCH_PLACES(a, cells_type) STATE_PLACES(a, cells_type), LIMITS_PLACES(a)

/* A search's seconds and max_bytes (solve.c limits_invalid). */
static int read_limits(const SearchArgs *a) {
    SolveLimits limits = SOLVE_LIMITS_DEFAULT;
    limits.seconds = a->seconds;
    limits.max_bytes = a->max_bytes;
    const char *bad = limits_invalid(&limits);
    if (bad != NULL) PyErr_SetString(PyExc_ValueError, bad);
    return bad == NULL;
}

/* A search's root and rules from its state and config (and its limits checked):
 * no more cards in the cells than the config has cells. */
static int read_root(const SearchArgs *a, State *root, Config *cfg) {
    if (!read_limits(a) || !read_state(a->cols, a->cells, a->founds, root) || !read_config(a->config, cfg)) return 0;
    if (root->ncells > cfg->ncells) {
        PyErr_SetString(PyExc_ValueError, "cells: more cards than the config's cells");
        return 0;
    }
    return 1;
}

/* A search's answer where autoplay alone won from ``start``: (SOLVED, steps, 0). */
static PyObject *won_at_root(const Config *cfg, const State *start) {
    PyObject *steps = path_steps(cfg, start, NULL, 0);
    return steps == NULL ? NULL : Py_BuildValue("(iNi)", SOLVED, steps, 0);
}

/* A search's answer (status, steps from ``start``, ``count``); frees the nodes. */
static PyObject *search_answer(const Config *cfg, const State *start, Nodes *nodes, const Outcome *out, long count) {
    if (out->status == NOMEM) {
        nodes_free(nodes);
        return PyErr_NoMemory();
    }
    PyObject *steps = out->status == SOLVED ? path_steps(cfg, start, nodes, out->goal) : PyList_New(0);
    nodes_free(nodes);
    if (steps == NULL) return NULL;
    return Py_BuildValue("(iNl)", out->status, steps, count);
}

/* best_first, exhaust or astar (``kind``) on its arguments, with the GIL released:
 * (status, steps, nodes expanded). Exhaust's ``normal``, astar's ``below``. */
static PyObject *run_search(PyObject *args, PyObject *kwargs, int kind) {
    static char *plain[] = {SEARCH_KWLIST, NULL}, *normal_kw[] = {SEARCH_KWLIST, "normal", NULL},
                *below_kw[] = {SEARCH_KWLIST, "below", NULL};
    SearchArgs a = SEARCH_ARGS_DEFAULT;
    int option = kind == EXHAUST ? 1 : -1; /* exhaust: normal forms; astar: no bound */
    State root;
    Config cfg;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, kind == BEST_FIRST ? SEARCH_FORMAT : SEARCH_FORMAT "i",
                                     kind == EXHAUST ? normal_kw : kind == ASTAR ? below_kw : plain,
                                     SEARCH_PLACES(a, &PyBytes_Type), &option))
        return NULL;
    if (kind == EXHAUST && (option < 0 || option > NORMAL_EVERY_MOVE)) {
        PyErr_SetString(PyExc_ValueError, "normal: 0, 1 or 2");
        return NULL;
    }
    if (!read_root(&a, &root, &cfg)) return NULL;
    if (kind == ASTAR && (cfg.group != GROUP_NONE || cfg.dig)) {
        PyErr_SetString(PyExc_ValueError, "astar: the config must ask for single-card moves (group 3, dig 0)");
        return NULL;
    }
    if (kind == EXHAUST) cfg = proof_config(&cfg); /* the proof side's autoplay */
    State start = root;
    int g0 = autoplayed(&cfg, &start, &root);
    if (sum_founds(&root) == 52) return won_at_root(&cfg, &start);
    Budget budget = {0, (size_t)a.max_bytes, 0};
    Nodes nodes = {NULL, 0, 0, &budget};
    Outcome out = {NOMEM, 0, -1};
    double deadline = deadline_after(a.seconds);
    Py_BEGIN_ALLOW_THREADS /* plain C data from here on: other threads may run */
    if (kind == BEST_FIRST)
        out = best_first(&cfg, &root, &nodes, a.max_nodes, deadline);
    else if (kind == EXHAUST)
        out = exhaust(&cfg, &root, &nodes, a.max_nodes, deadline, option);
    else
        out = astar(&cfg, &root, g0, &nodes, a.max_nodes, deadline, option);
    Py_END_ALLOW_THREADS
    return search_answer(&cfg, &start, &nodes, &out, out.nodes);
}

static PyObject *py_best_first(PyObject *self, PyObject *args, PyObject *kwargs) {
    (void)self;
    return run_search(args, kwargs, BEST_FIRST);
}

static PyObject *py_exhaust(PyObject *self, PyObject *args, PyObject *kwargs) {
    (void)self;
    return run_search(args, kwargs, EXHAUST);
}

static PyObject *py_astar(PyObject *self, PyObject *args, PyObject *kwargs) {
    (void)self;
    return run_search(args, kwargs, ASTAR);
}

/* proof_key(root, position, suit): the proof's key of ``position`` relative to
 * ``root`` (each a (cols, cells, founds) state) and the position decoded from it. */
static PyObject *py_proof_key(PyObject *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"root", "position", "suit", NULL};
    PyObject *rc, *rcells, *rf, *cols, *cells, *founds;
    int suit;
    State root, st, back;
    KeyRoot kr;
    uint8_t key[KEYMAX];
    (void)self;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "(O!O!O!)(O!O!O!)p", kwlist, &PyTuple_Type, &rc, &PyBytes_Type,
                                     &rcells, &PyTuple_Type, &rf, &PyTuple_Type, &cols, &PyBytes_Type, &cells,
                                     &PyTuple_Type, &founds, &suit))
        return NULL;
    if (!read_state(rc, rcells, rf, &root) || !read_state(cols, cells, founds, &st)) return NULL;
    keyroot_init(&kr, &root, suit);
    int len = key_encode(&kr, &st, key);
    key_decode(&kr, key, len, &back, NULL);
    PyObject *out_cols = cols_tuple(back.cards, back.len);
    if (out_cols == NULL) return NULL;
    return Py_BuildValue("(y#(Ny#(iiii)))", (const char *)key, (Py_ssize_t)len, out_cols, (const char *)back.cells,
                         (Py_ssize_t)back.ncells, back.founds[0], back.founds[1], back.founds[2], back.founds[3]);
}

/* The layers' runs as a list of ((foundations), frozen, positions); frees them. */
static PyObject *layer_runs(LayeredStats *stats) {
    PyObject *runs = PyList_New((Py_ssize_t)stats->nruns);
    for (size_t i = 0; runs != NULL && i < stats->nruns; i++) {
        const LayerRun *r = &stats->runs[i];
        PyObject *item = Py_BuildValue("((iiii)in)", r->founds[0], r->founds[1], r->founds[2], r->founds[3],
                                       r->frozen, (Py_ssize_t)r->positions);
        if (item == NULL) Py_CLEAR(runs);
        else PyList_SET_ITEM(runs, (Py_ssize_t)i, item);
    }
    free(stats->runs);
    stats->runs = NULL;
    return runs;
}

/* exhaust_layered(state, config, dir, *, max_nodes, seconds, max_bytes, max_buffered=64
 * MiB, tag=b"") -> (status, nodes, layers, largest layer, bytes spilled, [(foundations,
 * frozen, positions) of each layer as run], seconds before). */
static PyObject *py_exhaust_layered(PyObject *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"state", "config", "dir", "max_nodes", "seconds", "max_bytes", "max_buffered", "tag", NULL};
    SearchArgs a = SEARCH_ARGS_DEFAULT;
    Py_ssize_t max_buffered = (Py_ssize_t)64 << 20, taglen = 0;
    const char *dir, *tag = "";
    State root;
    Config cfg;
    LayeredStats stats;
    Carried sofar;
    (void)self;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, STATE_FORMAT "s|$" LIMITS_FORMAT "ny#", kwlist,
                                     STATE_PLACES(a, &PyBytes_Type), &dir, LIMITS_PLACES(a), &max_buffered, &tag,
                                     &taglen))
        return NULL;
    const char *bad = max_buffered < 0 ? "max_buffered: 0 or more bytes"
                      : strlen(dir) > 4000 ? "dir: a path of at most 4000 bytes is needed"
                      : taglen > 255       ? "tag: at most 255 bytes"
                                           : NULL;
    if (bad != NULL) {
        PyErr_SetString(PyExc_ValueError, bad);
        return NULL;
    }
    if (!read_root(&a, &root, &cfg)) return NULL;
    if (cfg.take_back) {
        PyErr_SetString(PyExc_ValueError, "config: no layers where cards come back from the foundations (take-back)");
        return NULL;
    }
    cfg = proof_config(&cfg);
    uint8_t homed[52];
    autoplay(&cfg, &root, homed);
    if (sum_founds(&root) == 52) return Py_BuildValue("(illnK[]d)", SOLVED, 0L, 0L, (Py_ssize_t)0, 0ULL, 0.0);
    Budget budget = {0, (size_t)a.max_bytes, 0};
    Nodes nodes = {NULL, 0, 0, &budget};
    Outcome out;
    double deadline = deadline_after(a.seconds);
    Py_BEGIN_ALLOW_THREADS
    out = exhaust_layered(&cfg, &root, &nodes, a.max_nodes, deadline, dir, (size_t)max_buffered, (const uint8_t *)tag,
                          (size_t)taglen, &stats, &sofar);
    Py_END_ALLOW_THREADS
    nodes_free(&nodes);
    if (stats.io_failed || out.status == NOMEM) free(stats.runs);
    if (stats.io_failed) return PyErr_Format(PyExc_OSError, "dir: the pending positions could not be kept in %s", dir);
    if (out.status == NOMEM) return PyErr_NoMemory();
    PyObject *runs = layer_runs(&stats);
    if (runs == NULL) return NULL;
    return Py_BuildValue("(iKlnKNd)", out.status, (unsigned long long)sofar.nodes + (unsigned long long)out.nodes,
                         stats.layers, (Py_ssize_t)stats.largest, (unsigned long long)stats.spilled, runs,
                         sofar.seconds);
}

/* dive(state, config, *, max_nodes, seconds, max_bytes, seed=0, noise=2.0, order=None):
 * one greedy dive alone (dive.c), as best_first. */
static PyObject *py_dive(PyObject *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {SEARCH_KWLIST, "seed", "noise", "order", NULL};
    SearchArgs a = SEARCH_ARGS_DEFAULT;
    double noise = SCHEDULE_DEFAULT.dive_noise;
    unsigned long long seed = 0;
    const char *order = NULL;
    int8_t rank[NMOVE_KINDS];
    State root;
    Config cfg;
    Dive d;
    (void)self;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, SEARCH_FORMAT "Kdz", kwlist, SEARCH_PLACES(a, &PyBytes_Type), &seed,
                                     &noise, &order))
        return NULL;
    const char *atomic = order != NULL && strncmp(order, "atomic:", 7) == 0 ? order + 7 : NULL;
    if (atomic != NULL && !atomic_tests_valid(atomic)) {
        PyErr_SetString(PyExc_ValueError, "order: atomic tests are 0, 1 and A-E, 15 to a group and 8 groups at "
                                          "most, in brackets (not nested, not empty) for a random group");
        return NULL;
    }
    if (order != NULL && atomic == NULL && !parse_order(order, rank)) {
        PyErr_SetString(PyExc_ValueError, "order: tests 0, 1, A-E, brackets grouping them");
        return NULL;
    }
    if (!read_root(&a, &root, &cfg)) return NULL;
    if (atomic != NULL) /* Freecell Solver's scan sends no card home by itself */
        cfg.autoplay = cfg.root_autoplay = AUTO_NONE;
    if (!isfinite(noise) || noise < 0) {
        PyErr_SetString(PyExc_ValueError, "noise: a finite number >= 0 is needed");
        return NULL;
    }
    State start = root;
    autoplayed(&cfg, &start, &root);
    if (sum_founds(&root) == 52) return won_at_root(&cfg, &start);
    Budget budget = {0, (size_t)a.max_bytes, 0};
    Nodes nodes = {NULL, 0, 0, &budget};
    double deadline = deadline_after(a.seconds);
    Py_BEGIN_ALLOW_THREADS
    if (dive_init(&d, &cfg, &root, &nodes, (uint64_t)seed, noise, order && !atomic ? rank : NULL, atomic)) dive_run(&d, LONG_MAX, a.max_nodes, deadline);
    dive_free(&d);
    Py_END_ALLOW_THREADS
    return search_answer(&cfg, &start, &nodes, &d.out, d.out.nodes);
}

/* scans(state, config, *, max_nodes, seconds, max_bytes, tests=None, prune=False,
 * seed=0, preset="toons") -> (status, steps, checked): Freecell Solver's preset scans
 * together, or one depth-first scan of ``tests`` (scans.c; ``prune``: with its -sp r:tf). */
static PyObject *py_scans(PyObject *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {SEARCH_KWLIST, "tests", "prune", "seed", "preset", NULL};
    SearchArgs a = SEARCH_ARGS_DEFAULT;
    const char *tests = NULL;
    int prune = 0, seed = 0, preset = PRESET_TOONS;
    const char *preset_name = "toons";
    State root;
    Config cfg;
    Scans *s;
    (void)self;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, SEARCH_FORMAT "zpis", kwlist, SEARCH_PLACES(a, &PyBytes_Type),
                                     &tests, &prune, &seed, &preset_name))
        return NULL;
    if (strcmp(preset_name, "looking-glass") == 0) {
        preset = PRESET_LOOKING_GLASS;
    } else if (strcmp(preset_name, "toons") != 0) {
        PyErr_SetString(PyExc_ValueError, "preset: toons or looking-glass");
        return NULL;
    }
    if (tests != NULL && !scans_tests_valid(tests)) {
        PyErr_SetString(PyExc_ValueError,
                        "tests: 0-9, A-E and j, 15 to a group and 8 groups at most, in brackets (not nested, not "
                        "empty) for a random group, =asw(...) after them (the 4th and 6th weights 0) for a "
                        "weighed one; then \";DEPTH,TESTS\" from that depth on, 4 orders at most");
        return NULL;
    }
    if (!read_root(&a, &root, &cfg)) return NULL;
    cfg.autoplay = cfg.root_autoplay = AUTO_NONE; /* Freecell Solver's scans send no card home by themselves */
    if ((s = malloc(sizeof *s)) == NULL) return PyErr_NoMemory(); /* large: not on the stack */
    Budget budget = {0, (size_t)a.max_bytes, 0};
    Nodes nodes = {NULL, 0, 0, &budget};
    double deadline = deadline_after(a.seconds);
    Py_BEGIN_ALLOW_THREADS
    if (scans_init(s, &cfg, &root, &nodes, tests, prune && tests != NULL, seed, preset))
        scans_resume(s, LONG_MAX, a.max_nodes, deadline);
    scans_free(s);
    Py_END_ALLOW_THREADS
    Outcome out = s->out;
    long checked = s->checked;
    free(s);
    return search_answer(&cfg, &root, &nodes, &out, checked);
}

/* A search Step list ((move, autos) tuples) read back into C. The list is copied to
 * a tuple first: reading an item can run Python code (__index__) that changes it. */
static int read_steps(PyObject *list, Steps *steps) {
    PyObject *items = PySequence_Tuple(list);
    if (items == NULL) return 0;
    int ok = 1, total = 0;
    Py_ssize_t n = PyTuple_GET_SIZE(items);
    steps->n = (int)n;
    steps->moves = malloc((size_t)(n + 1) * sizeof(Move));
    steps->nautos = malloc((size_t)(n + 1) * sizeof(int));
    if (steps->moves == NULL || steps->nautos == NULL) {
        PyErr_NoMemory();
        ok = 0;
    }
    for (Py_ssize_t k = 0; ok && k < n; k++) {
        int sk, si, dk, di, count;
        PyObject *item = PyTuple_GET_ITEM(items, k), *autos;
        if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != 2 ||
            !PyArg_ParseTuple(item, "(iiiii)O!", &sk, &si, &dk, &di, &count, &PyTuple_Type, &autos)) {
            if (!PyErr_Occurred() || PyErr_ExceptionMatches(PyExc_SystemError)) {
                PyErr_Clear();
                PyErr_SetString(PyExc_ValueError, "steps: each step is ((src_kind, src, dst_kind, dst, count), autos)");
            }
            ok = 0;
            break;
        }
        if (sk < -1 || sk > 2 || dk < -1 || dk > 2 || si < -1 || si > 51 || di < -1 || di > 51 || count < 0 ||
            count > 52) {
            PyErr_SetString(PyExc_ValueError, "steps: a move's kinds are -1..2, its indices -1..51, its count 0..52");
            ok = 0;
            break;
        }
        Py_ssize_t na = PyTuple_GET_SIZE(autos);
        if (na > 52 - total) {
            PyErr_SetString(PyExc_ValueError, "steps: more than 52 cards sent home");
            ok = 0;
            break;
        }
        for (Py_ssize_t a = 0; ok && a < na; a++) {
            long c = PyLong_AsLong(PyTuple_GET_ITEM(autos, a));
            if (c < 0 || c >= 52) {
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "steps: a card is 0..51");
                ok = 0;
            } else {
                steps->autos[total++] = (uint8_t)c;
            }
        }
        steps->moves[k] = mv(sk, si, dk, di, count);
        steps->nautos[k] = (int)na;
    }
    Py_DECREF(items);
    return ok;
}

/* The steps must replay from ``start``: checked here, so finish_line may trust them. */
static int steps_replay(const Config *cfg, const State *start, const Steps *steps) {
    State st = *start;
    uint8_t homed[52];
    const uint8_t *autos = steps->autos;
    for (int k = 0; k < steps->n; k++) {
        Move m = steps->moves[k];
        if (m.sk >= 0) {
            Move legal[MAXMOVES];
            int nm = gen_moves(cfg, &st, legal), ok = 0;
            for (int j = 0; j < nm && !ok; j++) ok = !memcmp(&legal[j], &m, sizeof(Move));
            if (!ok) return 0;
            apply_move(&st, m);
        }
        int nh = autoplay(cfg, &st, homed);
        if (nh != steps->nautos[k] || memcmp(homed, autos, (size_t)nh)) return 0;
        autos += nh;
    }
    return sum_founds(&st) == 52;
}

/* A line as a list of move tuples; frees the line. */
static PyObject *line_list(Line *line) {
    PyObject *out = moves_list(line->items, line->n);
    free(line->items);
    line->items = NULL;
    return out;
}

/* The error for a finish_line result <= 0: -1 a line that does not replay, 0 no memory. */
static PyObject *finish_failed(int ok) {
    if (ok < 0) {
        PyErr_SetString(PyExc_RuntimeError, "finish: the found line does not replay (a bug in the C core)");
        return NULL;
    }
    return PyErr_NoMemory();
}

/* A Schedule from eightoff.solver.Schedule.values: its fields' values in the order of
 * SCHEDULE_FIELDS (schedule.h), which eightoff.solver.core checks against this module's
 * SCHEDULE names when it loads it. None: the default schedule. */
static int read_schedule(PyObject *obj, Schedule *out) {
    *out = SCHEDULE_DEFAULT;
    if (obj == NULL || obj == Py_None) return 1;
    if (!PyTuple_Check(obj) || PyTuple_GET_SIZE(obj) != NSCHEDULE_FIELDS) {
        PyErr_Format(PyExc_ValueError, "schedule: a tuple of %d values is needed (Schedule.values)",
                     NSCHEDULE_FIELDS);
        return 0;
    }
    for (int k = 0; k < NSCHEDULE_FIELDS; k++) {
        const ScheduleField *f = &SCHEDULE_FIELDS[k];
        PyObject *value = PyTuple_GET_ITEM(obj, k);
        char *at = (char *)out + f->offset;
        int ok = 1;
        if (f->type == FIELD_DOUBLE) {
            double d = PyFloat_AsDouble(value);
            ok = !(d == -1.0 && PyErr_Occurred()) && isfinite(d);
            if (ok) *(double *)at = d;
        } else if (f->type == FIELD_BOOL) {
            int b = PyObject_IsTrue(value);
            ok = b >= 0;
            if (ok) *(int *)at = b;
        } else if (f->count == 1) {
            long v = PyLong_AsLong(value);
            ok = !(v == -1 && PyErr_Occurred());
            if (ok) *(long *)at = v;
        } else {
            ok = PyTuple_Check(value) && PyTuple_GET_SIZE(value) == f->count;
            for (int i = 0; ok && i < f->count; i++) {
                long v = PyLong_AsLong(PyTuple_GET_ITEM(value, i));
                ok = !(v == -1 && PyErr_Occurred());
                if (ok) ((long *)at)[i] = v;
            }
        }
        if (!ok) {
            PyErr_Clear();
            PyErr_Format(PyExc_ValueError, "schedule.%s: %s", f->name,
                         f->type == FIELD_DOUBLE ? "a finite number is needed"
                         : f->count > 1          ? "a tuple of 3 integers is needed"
                                                 : "an integer is needed");
            return 0;
        }
    }
    const char *bad = schedule_invalid(out);
    if (bad != NULL) {
        PyErr_SetString(PyExc_ValueError, bad);
        return 0;
    }
    return 1;
}

/* finish(state, config, steps, *, endgame_home=-1, endgame_nodes=0, seconds=-1.0,
 * shortcuts=False, schedule=None): the engine moves of a winning Step list. */
static PyObject *py_finish(PyObject *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"state", "config", "steps", "endgame_home", "endgame_nodes", "seconds", "shortcuts",
                             "schedule", NULL};
    SearchArgs a = SEARCH_ARGS_DEFAULT;
    PyObject *steplist, *schobj = Py_None;
    int endgame_home = -1, ok, shortcuts = 0;
    long endgame_nodes = 0;
    State st;
    Config cfg;
    EState es;
    Schedule schedule;
    (void)self;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, STATE_FORMAT "O!|$ildpO", kwlist, STATE_PLACES(a, &PyTuple_Type),
                                     &PyList_Type, &steplist, &endgame_home, &endgame_nodes, &a.seconds, &shortcuts,
                                     &schobj) ||
        !read_limits(&a) || !read_schedule(schobj, &schedule))
        return NULL;
    if (!read_config(a.config, &cfg) || !read_engine_state(a.cols, a.cells, a.founds, &cfg, &st, &es)) return NULL;
    Steps steps = {NULL, NULL, {0}, 0};
    if (!read_steps(steplist, &steps)) {
        steps_free(&steps);
        return NULL;
    }
    if (!steps_replay(&cfg, &st, &steps)) {
        steps_free(&steps);
        PyErr_SetString(PyExc_ValueError, "finish: the steps do not replay to a win from this state");
        return NULL;
    }
    Line line = {NULL, 0, 0};
    Budget budget = {0, DEFAULT_MAX_BYTES, 0};
    double deadline = deadline_after(a.seconds);
    Py_BEGIN_ALLOW_THREADS
    ok = finish_line(&schedule, &cfg, &es, &steps, endgame_home, endgame_nodes, deadline, &budget, shortcuts, &line);
    Py_END_ALLOW_THREADS
    steps_free(&steps);
    if (ok <= 0) {
        free(line.items);
        return finish_failed(ok);
    }
    return line_list(&line);
}

/* solve's and optimal's answer (status, moves, length in single-card moves, nodes)
 * from solve.c's; frees it. */
static PyObject *solve_answer(int result, SolveAnswer *answer) {
    PyObject *moves = result == SOLVE_OK ? moves_list(answer->moves, answer->nmoves)
                                         : finish_failed(result == SOLVE_BROKEN ? -1 : 0);
    PyObject *out = moves == NULL ? NULL : Py_BuildValue("(iNil)", answer->status, moves, answer->length, answer->nodes);
    solve_answer_free(answer);
    return out;
}

/* solve's and optimal's engine state (cells in place) and config, and their limits
 * from ``a``: a ValueError unless solve.c can run them (under ``sch``; NULL: optimal). */
static int read_solve(const SearchArgs *a, const Schedule *sch, Config *cfg, EState *es, SolveLimits *limits) {
    State start;
    if (!read_config(a->config, cfg) || !read_engine_state(a->cols, a->cells, a->founds, cfg, &start, es)) return 0;
    limits->max_nodes = a->max_nodes;
    limits->seconds = a->seconds;
    limits->max_bytes = a->max_bytes;
    const char *bad = solve_invalid(cfg, es, limits, sch);
    if (bad != NULL) PyErr_SetString(PyExc_ValueError, bad);
    return bad == NULL;
}

/* core.solve_fast in one call (solve.c solve_line): the portfolio, then best-first and
 * the exact proof by turns (proof.c); on a win, the finish. */
static PyObject *py_solve(PyObject *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {SEARCH_KWLIST, "endgame_home", "endgame_nodes", "tail", "resolve", "schedule", NULL};
    SearchArgs a = SEARCH_ARGS_DEFAULT;
    SolveLimits limits = SOLVE_LIMITS_DEFAULT;
    PyObject *schobj = Py_None;
    Config cfg;
    EState es;
    Schedule schedule;
    SolveAnswer answer;
    int result;
    (void)self;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, SEARCH_FORMAT "ilppO", kwlist, SEARCH_PLACES(a, &PyTuple_Type),
                                     &limits.endgame_home, &limits.endgame_nodes, &limits.tail, &limits.resolve,
                                     &schobj) ||
        !read_schedule(schobj, &schedule) || !read_solve(&a, &schedule, &cfg, &es, &limits))
        return NULL;
    Py_BEGIN_ALLOW_THREADS /* plain C data from here on: other threads may run */
    result = solve_line(&cfg, &es, &limits, &schedule, &answer);
    Py_END_ALLOW_THREADS
    return solve_answer(result, &answer);
}

/* Optimal mode in one call (solve.c optimal_line): A* over single-card moves
 * (astar.c) from the engine's state, then the engine moves of the shortest line found. */
static PyObject *py_optimal(PyObject *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {SEARCH_KWLIST, NULL};
    SearchArgs a = SEARCH_ARGS_DEFAULT;
    SolveLimits limits = SOLVE_LIMITS_DEFAULT;
    Config cfg;
    EState es;
    SolveAnswer answer;
    int result;
    (void)self;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, SEARCH_FORMAT, kwlist, SEARCH_PLACES(a, &PyTuple_Type)) ||
        !read_solve(&a, NULL, &cfg, &es, &limits))
        return NULL;
    Py_BEGIN_ALLOW_THREADS
    result = optimal_line(&cfg, &es, &limits, &answer);
    Py_END_ALLOW_THREADS
    return solve_answer(result, &answer);
}

/* A binding of keyword arguments, in the methods table. */
#define KEYWORDS(f) (PyCFunction)(void (*)(void))(f), METH_VARARGS | METH_KEYWORDS

/* Every binding takes keywords: state (cols, cells, founds), config, then keyword-only
 * max_nodes and seconds (< 0: no limit, the default) and max_bytes (1 GiB), and its
 * own options (_native.pyi). */
static PyMethodDef methods[] = {
    {"best_first", KEYWORDS(py_best_first),
     "best_first(state, config, *, max_nodes=-1, seconds=-1.0, max_bytes=1 GiB)\n"
     "-> (status, steps, nodes)\n\n"
     "Weighted best-first search with 64-bit hashes (best_first.c). state: (cols, cells,\n"
     "founds), the cells' cards as bytes.\n"
     "config: an eightoff.solver.core.Config (cells, suit, kings_only, group, take_back,\n"
     "autoplay, dig, weight, inv_weight, cell_weight, cover_weight, read by name); autoplay:\n"
     "0 none, 1 all, 2 safe, 3 the refined safe rule; max_nodes or seconds < 0: no limit.\n"
     "A search whose tables would pass max_bytes stops as at a limit (status LIMIT)."},
    {"exhaust", KEYWORDS(py_exhaust),
     "exhaust(state, config, *, max_nodes=-1, seconds=-1.0, max_bytes=1 GiB, normal=1)\n"
     "-> (status, steps, nodes)\n\n"
     "Depth-first search of every reachable position with exact keys (exhaust.c):\n"
     "status EXHAUSTED is a proof that no solution exists. Auto 2 (the basic safe\n"
     "autoplay of alternating colours) plays as auto 3, the refined rule (rules.h).\n"
     "normal: positions in normal form, cell cards (and, where any card fills an\n"
     "empty column, lone cards) back on the tops they build on (normal.c; 0:\n"
     "every position, as solve's proof did before it; 2: normal forms, every move's\n"
     "child looked up, none dropped: a check on drop_returns and lone_uses)."},
    {"exhaust_layered", KEYWORDS(py_exhaust_layered),
     "exhaust_layered(state, config, dir, *, max_nodes=-1, seconds=-1.0, max_bytes=1 GiB,\n"
     "max_buffered=64 MiB, tag=b'') -> (status, nodes, layers, largest, spilled, runs,\n"
     "seconds_before)\n\n"
     "exhaust's proof one layer at a time (layered.c): the table holds the positions\n"
     "of one set of foundations and one count of root cards frozen in place (keys.c\n"
     "key_frozen), the children of other layers wait in files under dir (past\n"
     "max_buffered bytes of buffers). The same verdict as exhaust (normal forms)\n"
     "where the largest layer, not every position, fits in max_bytes; SOLVED comes\n"
     "without a line. largest: the positions of the largest layer; spilled: bytes\n"
     "written to dir; runs: (foundations, frozen, positions) of each layer in the\n"
     "order run. No take-back (cards come back home). With a tag (at most 255 bytes\n"
     "naming the deal, rules and build), a manifest in dir before each layer: a search\n"
     "stopped by a limit or killed goes on from it when given the same dir and tag;\n"
     "nodes, layers, largest, spilled and runs then count the searches before too,\n"
     "whose seconds are seconds_before (0.0 for a search from the root)."},
    {"proof_key", KEYWORDS(py_proof_key),
     "proof_key(root, position, suit) -> (key, (cols, cells, founds))\n\n"
     "The exact search's compact key of a position relative to its root (keys.c), and\n"
     "the position decoded from the key (columns in the key's order), for the tests;\n"
     "root and position: (cols, cells, founds) states."},
    {"astar", KEYWORDS(py_astar),
     "astar(state, config, *, max_nodes=-1, seconds=-1.0, max_bytes=1 GiB, below=-1)\n"
     "-> (status, steps, nodes)\n\n"
     "A* with Paul & Helmert's admissible bound and exact keys (optimal.solve_optimal);\n"
     "config should ask for single-card moves. below >= 0: only solutions shorter than it."},
    {"dive", KEYWORDS(py_dive),
     "dive(state, config, *, max_nodes=-1, seconds=-1.0, max_bytes=1 GiB, seed=0, noise=2.0,\n"
     "order=None) -> (status, steps, nodes)\n\n"
     "One greedy depth-first dive (the portfolio's other search): children best h\n"
     "first; seed > 0 shuffles near-ties (scores move by up to noise). Its status\n"
     "EXHAUSTED proves nothing (hashed positions). order: children by their move's\n"
     "kind instead, in Freecell Solver's test order notation (\"[01][ABD][CE]\");\n"
     "\"atomic:01ABCDE\": Freecell Solver's own depth-first scan, single-card moves in\n"
     "its order, with no automatic foundation moves (it expands the positions that\n"
     "fc-solve --method soft-dfs -to 01ABCDE checks, its root's second check included);\n"
     "\"atomic:[01][ABCDE]\" with a seed: its random-dfs, each bracket's moves shuffled\n"
     "by its own generator (fc-solve --method random-dfs -to [01][ABCDE] -seed N)."},
    {"scans", KEYWORDS(py_scans),
     "scans(state, config, *, max_nodes=-1, seconds=-1.0, max_bytes=1 GiB, tests=None,\n"
     "prune=False, seed=0, preset=\"toons\") -> (status, steps, checked)\n\n"
     "Freecell Solver's preset toons-for-twenty-somethings (or preset=\"looking-glass\"),\n"
     "its depth-first and A* scans run by its prelude over one shared collection with\n"
     "its dead-end marks (scans.c);\n"
     "tests=\"0123456789\": one depth-first scan of those tests instead, its meta-move\n"
     "tests 2-9 and j among them (meta.c), as fc-solve --method soft-dfs -to 0123456789;\n"
     "prune=True with tests: with its pruning too (-sp r:tf: cards home by Horne's rule);\n"
     "tests=\"01j234;33,016[234j]=asw(1)\": another order from depth 33 on (-dto2),\n"
     "a bracket's children shuffled (random-dfs with seed) or =asw(...)-sorted;\n"
     "checked: positions as fc-solve counts its states checked. EXHAUSTED (every scan\n"
     "dry) proves nothing: positions are told apart by 64-bit hashes."},
    {"solve", KEYWORDS(py_solve),
     "solve(state, config, *, max_nodes=-1, seconds=-1.0, max_bytes=1 GiB, endgame_home=-1,\n"
     "endgame_nodes=0, tail=True, resolve=True, schedule=None)\n"
     "-> (status, [(src_kind, src, dst_kind, dst, count), ...], length, nodes)\n\n"
     "The whole search of core.solve_fast, then the finish on a win (solve.c\n"
     "solve_line); state: (cols, cells, founds), the cells in place (a card or -1 each).\n"
     "Run by ``schedule`` (an eightoff.solver.Schedule's values, in SCHEDULE's order;\n"
     "None: the default): best_first alone first, then by turns with its helpers\n"
     "(portfolio.c) until schedule.first expansions, then best_first, the exact proof,\n"
     "long dives and the late scans by turns (proof.c), best_first until\n"
     "schedule.late_bf_max. tail=False: best_first alone. resolve=True: a helper's line\n"
     "(with fewer than schedule.resolve_cells cells) is tried again by best_first from a\n"
     "few of its positions (line.c resolve_line), the shortest kept. The ending is\n"
     "re-solved optimally once endgame_home cards are home (-1: never; A* within\n"
     "endgame_nodes)."},
    {"optimal", KEYWORDS(py_optimal),
     "optimal(state, config, *, max_nodes=-1, seconds=-1.0, max_bytes=1 GiB)\n"
     "-> (status, [(src_kind, src, dst_kind, dst, count), ...], length, nodes)\n\n"
     "A shortest line in single-card moves (astar, then the engine moves), proven\n"
     "(solve.c optimal_line): the rules' config (as for solve); cells in place."},
    {"finish", KEYWORDS(py_finish),
     "finish(state, config, steps, *, endgame_home=-1, endgame_nodes=0, seconds=-1.0,\n"
     "shortcuts=False, schedule=None) -> [(src_kind, src, dst_kind, dst, count), ...]\n\n"
     "The engine moves for a winning Step list from this state (cells: a card or -1\n"
     "per cell, in place), with the ending re-solved optimally once endgame_home cards\n"
     "are home (-1: never; A* within endgame_nodes), shortcuts=True: one legal move\n"
     "(or two, on a long line) in place of any stretch of the line it skips for fewer\n"
     "single-card moves, positions matched whatever their column and cell order (as\n"
     "solve does for a helper's line), and a card's two moves merged where the line\n"
     "allows (line.c, shortcut.c)."},
    {NULL, NULL, 0, NULL},
};

BINDING_MODULE("_native", "The solver's C core (see eightoff.solver.core).");

PyMODINIT_FUNC PyInit__native(void) {
    solve_init();
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    /* SCHEDULE: ((name, default), ...) in the C struct's order, for eightoff.solver.Schedule
     * to be checked against (the same names, the same defaults). */
    PyObject *fields = PyTuple_New(NSCHEDULE_FIELDS);
    for (int k = 0; fields != NULL && k < NSCHEDULE_FIELDS; k++) {
        const ScheduleField *f = &SCHEDULE_FIELDS[k];
        const char *at = (const char *)&SCHEDULE_DEFAULT + f->offset;
        PyObject *value;
        if (f->type == FIELD_DOUBLE)
            value = PyFloat_FromDouble(*(const double *)at);
        else if (f->type == FIELD_BOOL)
            value = PyBool_FromLong(*(const int *)at);
        else if (f->count == 1)
            value = PyLong_FromLong(*(const long *)at);
        else {
            const long *v = (const long *)at;
            value = Py_BuildValue("(lll)", v[0], v[1], v[2]);
        }
        PyObject *pair = value == NULL ? NULL : Py_BuildValue("(sN)", f->name, value);
        if (pair == NULL) Py_CLEAR(fields);
        else PyTuple_SET_ITEM(fields, k, pair);
    }
    if (fields == NULL || PyModule_AddObject(m, "SCHEDULE", fields) < 0) {
        Py_XDECREF(fields);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
