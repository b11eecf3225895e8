#ifndef EIGHTOFF_NATIVE_CORE_H
#define EIGHTOFF_NATIVE_CORE_H

/* Types shared by the kernel's and the searches' C files.
 *
 * State: 8 columns of card numbers (0..51 = suit*13 + rank-1, covered -> exposed),
 * the sorted cards held in cells, four foundation ranks. A move is
 * (src_kind, src, dst_kind, dst, count) with kinds COL/CELL/FOUND (a cell source
 * names its card, a foundation source its suit, a cell target is -1, a foundation
 * target the suit); eightoff.solver.core turns them into engine moves.
 */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NCOLS 8
#define MAXCOL 52
#define MAXCELLS 8
#define MAXMOVES 512 /* generous: the most a position can offer is well under 200 */

enum { COL = 0, CELL = 1, FOUND = 2 };
enum { SOLVED = 0, EXHAUSTED = 1, LIMIT = 2, NOMEM = 3 };
enum { GROUP_SINGLE = 0, GROUP_CELLS = 1, GROUP_FREECELL = 2, GROUP_NONE = 3 };
/* Automatic foundation moves: none, all (building in suit), the basic safe rule
 * (alternating colours), the refined one (alternating colours: the proof side's, see
 * rules.h proven_safe_home). */
enum { AUTO_NONE = 0, AUTO_ALL = 1, AUTO_SAFE = 2, AUTO_PROVEN = 3 };

/* ``root_autoplay``: the autoplay that made the search's root from the deal (a line
 * replays from the deal with it, then with ``autoplay``: line.c collect_path). It
 * is ``autoplay`` but for a helper that sends home less than the search that hands
 * it its root (portfolio.c's scan of Freecell Solver, which sends none itself). */
typedef struct {
    int ncells, suit, kings_only, group, take_back, autoplay, dig;
    double weight, inv_w, cell_w, cover_w;
    int root_autoplay;
} Config;

typedef struct {
    int8_t sk, si, dk, di, n;
} Move;

typedef struct {
    uint8_t len[NCOLS];
    uint8_t ncells;
    uint8_t founds[4];
    uint8_t cells[MAXCELLS]; /* sorted, so cell order never matters */
    uint8_t cards[NCOLS][MAXCOL];
} State;

/* A stored position: the state packed into 52 bytes (columns in order, then the
 * cells), where it came from and by which move. */
typedef struct {
    int32_t parent;
    int32_t g;          /* A*: single-card moves from the root */
    uint8_t superseded; /* A*: reached more cheaply since (a new node holds that) */
    Move move;
    uint8_t len[NCOLS];
    uint8_t ncells;
    uint8_t founds[4];
    uint8_t cards[52];
} Node;

/* What a search may allocate for its tables. A search that would pass ``max``
 * stops with LIMIT (its verdict is "unknown"), as at a node or time limit. */
typedef struct {
    size_t used, max;
    int full; /* a table was refused room */
} Budget;

#define DEFAULT_MAX_BYTES ((size_t)1 << 30) /* 1 GiB: ~1M expanded positions */

typedef struct {
    Node *items;
    size_t n, cap;
    Budget *budget;
} Nodes;


typedef struct {
    int status;
    long nodes;
    int32_t goal; /* node index of the won position */
} Outcome;


#endif
