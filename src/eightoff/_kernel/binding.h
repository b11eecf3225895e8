#ifndef EIGHTOFF_BINDING_H
#define EIGHTOFF_BINDING_H

/* Python <-> C conversions shared by the two CPython bindings over the kernel:
 * eightoff._kernel._kernel (module.c here) and eightoff.solver._native. Include it
 * after Python.h; nothing else in the kernel knows Python. */
#include "engine.h"
#include "position.h"

/* The binding's module ``module``: its name, its docstring and its ``methods`` table. */
#define BINDING_MODULE(name, doc)                                                                                 \
    static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, name, doc, -1, methods, NULL, NULL, NULL, NULL}

/* A search state from (columns as bytes, the cells' cards as bytes, four ranks),
 * each of the 52 cards once; 0 with a ValueError otherwise. */
static int read_state(PyObject *cols, PyObject *cells, PyObject *founds, State *st) {
    if (!PyTuple_Check(cols) || PyTuple_GET_SIZE(cols) != NCOLS) {
        PyErr_SetString(PyExc_ValueError, "columns: a tuple of 8 bytes objects is needed");
        return 0;
    }
    int count = 0;
    for (int i = 0; i < NCOLS; i++) {
        PyObject *col = PyTuple_GET_ITEM(cols, i);
        if (!PyBytes_Check(col) || PyBytes_GET_SIZE(col) > MAXCOL) {
            PyErr_SetString(PyExc_ValueError, "columns: each must be bytes of at most 52 cards");
            return 0;
        }
        st->len[i] = (uint8_t)PyBytes_GET_SIZE(col);
        memcpy(st->cards[i], PyBytes_AS_STRING(col), st->len[i]);
        count += st->len[i];
    }
    if (!PyBytes_Check(cells) || PyBytes_GET_SIZE(cells) > MAXCELLS) {
        PyErr_SetString(PyExc_ValueError, "cells: bytes of at most 8 cards are needed");
        return 0;
    }
    st->ncells = 0;
    for (Py_ssize_t k = 0; k < PyBytes_GET_SIZE(cells); k++) cell_add(st, (uint8_t)PyBytes_AS_STRING(cells)[k]);
    count += st->ncells;
    int a, b, c, d;
    if (PyTuple_GET_SIZE(founds) != 4) {
        PyErr_SetString(PyExc_ValueError, "foundations: a tuple of 4 ranks is needed");
        return 0;
    }
    if (!PyArg_ParseTuple(founds, "iiii", &a, &b, &c, &d)) return 0;
    int f[4] = {a, b, c, d};
    for (int s = 0; s < 4; s++) {
        if (f[s] < 0 || f[s] > 13) {
            PyErr_SetString(PyExc_ValueError, "foundations: ranks 0..13 are needed");
            return 0;
        }
        st->founds[s] = (uint8_t)f[s];
        count += f[s];
    }
    /* Each card once: anything else would break the search's invariants. */
    uint8_t seen[52] = {0};
    for (int i = 0; i < NCOLS; i++)
        for (int k = 0; k < st->len[i]; k++) {
            int card = st->cards[i][k];
            if (card >= 52 || seen[card]++) count = -1;
        }
    for (int k = 0; k < st->ncells; k++) {
        int card = st->cells[k];
        if (card >= 52 || seen[card]++) count = -1;
    }
    for (int s = 0; s < 4; s++)
        for (int r = 0; r < st->founds[s]; r++)
            if (seen[s * 13 + r]++) count = -1;
    if (count != 52) {
        PyErr_SetString(PyExc_ValueError, "the state must hold each of the 52 cards once");
        return 0;
    }
    return 1;
}

/* A C move as the tuple (src_kind, src, dst_kind, dst, count). */
static PyObject *move_tuple(Move m) {
    return Py_BuildValue("(iiiii)", m.sk, m.si, m.dk, m.di, m.n);
}

/* Moves as a list of move tuples. */
static PyObject *moves_list(const Move *moves, int n) {
    PyObject *out = PyList_New(n);
    for (int k = 0; out != NULL && k < n; k++) {
        PyObject *m = move_tuple(moves[k]);
        if (m == NULL)
            Py_CLEAR(out);
        else
            PyList_SET_ITEM(out, k, m);
    }
    return out;
}

/* Columns (their cards and lengths) as a tuple of 8 bytes objects. */
static PyObject *cols_tuple(uint8_t cards[][MAXCOL], const uint8_t *len) {
    PyObject *out = PyTuple_New(NCOLS);
    for (int i = 0; out != NULL && i < NCOLS; i++) {
        PyObject *col = PyBytes_FromStringAndSize((const char *)cards[i], len[i]);
        if (col == NULL) Py_CLEAR(out);
        else PyTuple_SET_ITEM(out, i, col);
    }
    return out;
}

/* The engine's state (cells in place: a card or -1 each) and the search's. */
static int read_engine_state(PyObject *cols, PyObject *slots, PyObject *founds, const Config *cfg,
                             State *st, EState *es) {
    if (cfg->group == GROUP_NONE || PyTuple_GET_SIZE(slots) != cfg->ncells) {
        PyErr_SetString(PyExc_ValueError, "one slot per cell and the rules' group moves are needed");
        return 0;
    }
    uint8_t held[MAXCELLS];
    int nheld = 0;
    for (int k = 0; k < cfg->ncells; k++) {
        long c = PyLong_AsLong(PyTuple_GET_ITEM(slots, k));
        if ((c < -1 || c >= 52) && !PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "cells: a card 0..51 or -1");
        if (PyErr_Occurred()) return 0;
        es->cells[k] = (int8_t)c;
        if (c >= 0) held[nheld++] = (uint8_t)c;
    }
    PyObject *cells = PyBytes_FromStringAndSize((const char *)held, nheld);
    if (cells == NULL) return 0;
    int ok = read_state(cols, cells, founds, st);
    Py_DECREF(cells);
    if (!ok) return 0;
    memcpy(es->len, st->len, NCOLS);
    memcpy(es->founds, st->founds, 4);
    for (int i = 0; i < NCOLS; i++) memcpy(es->cards[i], st->cards[i], st->len[i]);
    return 1;
}

#endif
