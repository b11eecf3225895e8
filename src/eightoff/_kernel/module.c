/* The kernel's CPython binding: eightoff._kernel._kernel, the engine's legal moves
 * and its long replays in C (engine.c, replay.c) on plain data. The engine reaches
 * it through eightoff._kernel; the tests hold its moves to Position.legal_moves. */
#define PY_SSIZE_T_CLEAN
#include <Python.h> /* first, as Python asks */

#include "binding.h"
#include "engine.h"
#include "replay.h"

/* The engine's rules as checked and as the kernel's config (no autoplay, no weights). */
static int read_rules(const EngineRules *r, Config *cfg) {
    if (r->ncells < 0 || r->ncells > MAXCELLS || r->group < GROUP_SINGLE || r->group > GROUP_FREECELL) {
        PyErr_SetString(PyExc_ValueError, "rules: cells 0..8, group 0..2 are needed");
        return 0;
    }
    *cfg = (Config){r->ncells, r->suit, r->kings_only, r->group, r->take_back, AUTO_NONE, 0, 0.0, 0.0, 0.0, 0.0,
                    AUTO_NONE};
    return 1;
}

/* Position.legal_moves in C (engine.c), for the tests: the same moves as the engine. */
static PyObject *py_legal_moves(PyObject *self, PyObject *args) {
    PyObject *cols, *slots, *founds;
    EngineRules r;
    State st;
    EState es;
    Config cfg;
    Move moves[4 * MAXMOVES];
    (void)self;
    if (!PyArg_ParseTuple(args, "O!O!O!(iiiip)", &PyTuple_Type, &cols, &PyTuple_Type, &slots, &PyTuple_Type,
                          &founds, &r.ncells, &r.suit, &r.kings_only, &r.group, &r.take_back))
        return NULL;
    if (!read_rules(&r, &cfg)) return NULL;
    if (!read_engine_state(cols, slots, founds, &cfg, &st, &es)) return NULL;
    return moves_list(moves, engine_moves(&r, &es, moves));
}

/* Names read from engine Move and Place objects (interned once). */
static PyObject *S_SOURCE, *S_TARGET, *S_COUNT, *S_KIND, *S_INDEX;

/* A Place (kind, index) as C ints: 1, 0 when no C move names it (never legal), -1 on
 * a Python error. ``kinds`` are PlaceKind COLUMN, CELL, FOUNDATION. */
static int read_place(PyObject *place, PyObject *const *kinds, int as_target, int8_t *kind, int8_t *index) {
    PyObject *k = PyObject_GetAttr(place, S_KIND);
    if (k == NULL) return -1;
    int found = -1;
    for (int i = 0; i < 3; i++)
        if (k == kinds[i]) found = i;
    Py_DECREF(k);
    PyObject *i = PyObject_GetAttr(place, S_INDEX);
    if (i == NULL) return -1;
    int overflow = 0;
    long value = PyLong_Check(i) ? PyLong_AsLongAndOverflow(i, &overflow) : -2;
    Py_DECREF(i);
    if (value == -1 && PyErr_Occurred()) return -1;
    if (found < 0 || overflow || value < 0 || value > 8) return 0;
    *kind = (int8_t)found;
    /* A foundation target names no suit (ANY_SUIT, 4); the C moves say -1. */
    *index = (int8_t)(as_target && found == FOUND ? (value == 4 ? -1 : 9) : value);
    return 1;
}

/* An engine Move as a C move: 1, 0 when no C move matches it, -1 on a Python error. */
static int read_engine_move(PyObject *obj, PyObject *const *kinds, Move *m) {
    PyObject *src = PyObject_GetAttr(obj, S_SOURCE);
    if (src == NULL) return -1;
    int ok = read_place(src, kinds, 0, &m->sk, &m->si);
    Py_DECREF(src);
    if (ok <= 0) return ok;
    PyObject *dst = PyObject_GetAttr(obj, S_TARGET);
    if (dst == NULL) return -1;
    ok = read_place(dst, kinds, 1, &m->dk, &m->di);
    Py_DECREF(dst);
    if (ok <= 0) return ok;
    PyObject *count = PyObject_GetAttr(obj, S_COUNT);
    if (count == NULL) return -1;
    int overflow = 0;
    long n = PyLong_Check(count) ? PyLong_AsLongAndOverflow(count, &overflow) : 0;
    Py_DECREF(count);
    if (n == -1 && PyErr_Occurred()) return -1;
    if (overflow || n < 1 || n > MAXCOL) return 0;
    m->n = (int8_t)n;
    return 1;
}

/* Board.play_all's C side (replay.c): the engine moves played in turn while legal. */
static PyObject *py_replay(PyObject *self, PyObject *args) {
    PyObject *cols, *slots, *founds, *moves, *kinds;
    EngineRules r;
    State st;
    EState es;
    Config cfg;
    (void)self;
    if (!PyArg_ParseTuple(args, "O!O!O!(iiiip)OO!", &PyTuple_Type, &cols, &PyTuple_Type, &slots, &PyTuple_Type,
                          &founds, &r.ncells, &r.suit, &r.kings_only, &r.group, &r.take_back, &moves,
                          &PyTuple_Type, &kinds))
        return NULL;
    if (!read_rules(&r, &cfg)) return NULL;
    if (PyTuple_GET_SIZE(kinds) != 3) {
        PyErr_SetString(PyExc_ValueError, "kinds: PlaceKind COLUMN, CELL, FOUNDATION are needed");
        return NULL;
    }
    if (!read_engine_state(cols, slots, founds, &cfg, &st, &es)) return NULL;
    PyObject *seq = PySequence_Fast(moves, "moves: a sequence of engine moves is needed");
    if (seq == NULL) return NULL;
    Py_ssize_t total = PySequence_Fast_GET_SIZE(seq);
    Move *list = malloc((size_t)(total ? total : 1) * sizeof(Move));
    uint8_t *carried = malloc((size_t)(total ? total : 1));
    if (list == NULL || carried == NULL) {
        free(list);
        free(carried);
        Py_DECREF(seq);
        return PyErr_NoMemory();
    }
    /* Read the moves up to the first that no C move matches (the replay stops there). */
    Py_ssize_t n = 0;
    for (; n < total && n < INT_MAX; n++) {
        int ok = read_engine_move(PySequence_Fast_GET_ITEM(seq, n), &PyTuple_GET_ITEM(kinds, 0), &list[n]);
        if (ok < 0) {
            free(list);
            free(carried);
            Py_DECREF(seq);
            return NULL;
        }
        if (!ok) break;
    }
    Py_DECREF(seq);
    int done = replay_moves(&r, &es, list, (int)n, carried);
    free(list);
    PyObject *out_cols = cols_tuple(es.cards, es.len), *out_cells = PyTuple_New(r.ncells);
    PyObject *played = PyBytes_FromStringAndSize((const char *)carried, done);
    free(carried);
    if (out_cols == NULL || out_cells == NULL || played == NULL) goto fail;
    for (int k = 0; k < r.ncells; k++) {
        PyObject *c = PyLong_FromLong(es.cells[k]);
        if (c == NULL) goto fail;
        PyTuple_SET_ITEM(out_cells, k, c);
    }
    return Py_BuildValue("(iNNN(iiii))", done, played, out_cols, out_cells, es.founds[0], es.founds[1],
                         es.founds[2], es.founds[3]);
fail:
    Py_XDECREF(out_cols);
    Py_XDECREF(out_cells);
    Py_XDECREF(played);
    return NULL;
}

static PyMethodDef methods[] = {
    {"legal_moves", py_legal_moves, METH_VARARGS,
     "legal_moves(cols, cells, founds, (ncells, suit, kings_only, group, take_back))\n"
     "-> [(src_kind, src, dst_kind, dst, count), ...]\n\n"
     "Position.legal_moves from the C rules (rules.h), in the same order: cells in\n"
     "place (a card or -1 each), group 0..2 as GroupMoves SINGLE, CELLS, FREECELL;\n"
     "a foundation source names its suit, a foundation target is -1."},
    {"replay", py_replay, METH_VARARGS,
     "replay(cols, cells, founds, (ncells, suit, kings_only, group, take_back), moves, kinds)\n"
     "-> (played, carried, cols, cells, founds)\n\n"
     "Plays the engine Move objects ``moves`` in turn while each is one of the engine's\n"
     "legal moves (engine.c); ``kinds`` are PlaceKind COLUMN, CELL, FOUNDATION. played:\n"
     "how many were; carried: the card each carried (bytes); then the state reached\n"
     "(cells in place, a card or -1 each). The engine says why the next one is not legal."},
    {NULL, NULL, 0, NULL},
};

BINDING_MODULE("_kernel", "The game kernel in C (see eightoff._kernel).");

PyMODINIT_FUNC PyInit__kernel(void) {
    position_init();
    S_SOURCE = PyUnicode_InternFromString("source");
    S_TARGET = PyUnicode_InternFromString("target");
    S_COUNT = PyUnicode_InternFromString("count");
    S_KIND = PyUnicode_InternFromString("kind");
    S_INDEX = PyUnicode_InternFromString("index");
    if (!S_SOURCE || !S_TARGET || !S_COUNT || !S_KIND || !S_INDEX) return NULL;
    return PyModule_Create(&module);
}
