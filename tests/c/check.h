/* What the C tests share (tests/c/test_kernel.c, test_solve.c): CHECK, which counts a
 * failure and says where, and PySolFC's Eight Off deal 1. Cards are 0..51 = suit * 13 +
 * rank - 1 (spades, hearts, diamonds, clubs). */
#ifndef EIGHTOFF_TESTS_CHECK_H
#define EIGHTOFF_TESTS_CHECK_H

#include <stdio.h>

#include "core.h"

static int failures = 0;

#define CHECK(cond)                                                       \
    do {                                                                  \
        if (!(cond)) {                                                    \
            fprintf(stderr, "%s:%d: failed: %s\n", __FILE__, __LINE__, #cond); \
            failures++;                                                   \
        }                                                                 \
    } while (0)

/* PySolFC deal 1: eight columns of six (covered -> exposed), four cards in cells. */
static const uint8_t DEAL[NCOLS][6] = {
    {36, 38, 1, 42, 2, 31}, {27, 51, 12, 43, 35, 7}, {21, 8, 34, 9, 3, 33},  {49, 4, 37, 24, 22, 11},
    {30, 26, 10, 16, 20, 44}, {19, 50, 0, 39, 40, 28}, {45, 25, 13, 29, 23, 46}, {17, 15, 41, 6, 32, 48},
};
static const int8_t CELLS[MAXCELLS] = {5, 47, 14, 18, -1, -1, -1, -1};

#endif
