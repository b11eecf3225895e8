/* The game kernel and the solver as WebAssembly: the functions the page's JavaScript
 * calls (web/static/kernel.js), over one shared buffer of plain bytes.
 *
 * `make wasm` builds this file with the kernel (the _kernel folder's C files) and the solver's C core
 * (the solver/native folder's but its CPython binding and the proof by layers, which keeps
 * files on disk) for wasm32-wasi: web/static/kernel.wasm. No Python, no threads, no
 * files; the clock is WASI's.
 *
 * The buffer (eo_io: IO_BYTES bytes). The caller writes a call's input at its start:
 *
 *     0   rules: cells 0..8, in suit 0/1, Kings only 0/1, group 0..2
 *         (GroupMoves SINGLE, CELLS, FREECELL), take-back 0/1
 *     5   a position (72 bytes):
 *         +0   foundations: the four top ranks 0..13 (S, H, D, C)
 *         +4   cells: 8 bytes, a card 0..51 or 255 (empty); only the rules' cells count
 *         +12  column lengths: 8 bytes
 *         +20  the columns' cards, column after column, covered -> exposed (52 at most)
 *     80  a move (eo_play): source kind, source, target kind, target, count
 *
 * Cards are 0..51 = suit * 13 + rank - 1 (spades, hearts, diamonds, clubs). A move is
 * the engine's (engine.h), each field a signed byte: kinds 0 column, 1 cell, 2
 * foundation; a cell is named by its place, a foundation source by its suit, a
 * foundation target is -1. Each of the 52 cards must be on the table, in a cell or
 * home exactly once.
 *
 * Answers go to the same buffer: a position at OUT_POSITION (the same 72 bytes), moves at OUT_MOVES (5 bytes each), solve's figures at OUT_HEAD.
 * A call returns a count (>= 0) or one of the EO_* errors (< 0). */
#include "engine.h"
#include "position.h"
#include "replay.h"

#define EXPORT(name) __attribute__((export_name(name)))

enum {
    IO_BYTES = 65536,
    IN_RULES = 0,
    IN_POSITION = 5,
    IN_MOVE = 80,
    P_FOUNDS = 0, /* a position's fields, from its start */
    P_CELLS = 4,
    P_LENS = 12,
    P_CARDS = 20,
    OUT_HEAD = 128,     /* solve: four little-endian int32: status, moves, length, nodes */
    OUT_POSITION = 128, /* play, autoplay: the position reached */
    OUT_MOVES = 256,
    OUT_MOVES_MAX = (IO_BYTES - OUT_MOVES) / 5,
    EMPTY_CELL = 255,
};

/* Errors: what the input got wrong, or what stopped a call. */
enum {
    EO_BAD_RULES = -1,    /* an option out of range */
    EO_BAD_POSITION = -2, /* not each of the 52 cards once, or a card in a cell the rules lack */
    EO_BAD_MOVE = -3,     /* a kind, place or count no move has */
    EO_NOMEM = -4,        /* out of memory (the tables' budget ends a solve as "unknown" instead) */
    EO_BROKEN = -5,       /* a found line did not replay: a bug in the C core */
    EO_TOO_LONG = -6,     /* a line longer than the buffer holds */
    EO_BAD_LIMITS = -7,   /* solve: a NaN time or a budget under 4096 bytes */
};

static uint8_t io[IO_BYTES];

/* The shared buffer's address in the module's memory. */
EXPORT("eo_io") uint8_t *eo_io(void) { return io; }

/* The shared buffer's size in bytes. */
EXPORT("eo_io_bytes") int eo_io_bytes(void) { return IO_BYTES; }

/* The kernel's tables; once, before any other call. */
EXPORT("eo_init") void eo_init(void) { position_init(); }

/* The rules at IN_RULES; 0 when an option is out of range. */
static int read_rules(EngineRules *r) {
    const uint8_t *in = io + IN_RULES;
    *r = (EngineRules){in[0], in[1], in[2], in[3], in[4]};
    return r->ncells <= MAXCELLS && r->suit <= 1 && r->kings_only <= 1 && r->group <= GROUP_FREECELL &&
           r->take_back <= 1;
}

/* The position at ``p`` as the engine's state; 0 unless it holds each of the 52 cards
 * once, in the rules' cells only. */
static int read_position(const EngineRules *r, const uint8_t *p, EState *es) {
    uint8_t seen[52] = {0};
    int count = 0, at = P_CARDS;
    memset(es, 0, sizeof *es);
    for (int s = 0; s < 4; s++) {
        int f = p[P_FOUNDS + s];
        if (f > 13) return 0;
        es->founds[s] = (uint8_t)f;
        for (int k = 0; k < f; k++) seen[s * 13 + k]++;
        count += f;
    }
    for (int k = 0; k < MAXCELLS; k++) {
        int c = p[P_CELLS + k];
        es->cells[k] = -1;
        if (c == EMPTY_CELL) continue;
        if (c >= 52 || k >= r->ncells) return 0;
        es->cells[k] = (int8_t)c;
        seen[c]++;
        count++;
    }
    for (int i = 0; i < NCOLS; i++) {
        int n = p[P_LENS + i];
        if (n > MAXCOL || count + n > 52) return 0;
        for (int k = 0; k < n; k++) {
            int c = p[at++];
            if (c >= 52) return 0;
            es->cards[i][k] = (uint8_t)c;
            seen[c]++;
        }
        es->len[i] = (uint8_t)n;
        count += n;
    }
    for (int c = 0; c < 52; c++)
        if (seen[c] != 1) return 0;
    return count == 52;
}

/* The rules and the position at the buffer's start: 0, or the error. */
static int read_input(EngineRules *r, EState *es) {
    if (!read_rules(r)) return EO_BAD_RULES;
    return read_position(r, io + IN_POSITION, es) ? 0 : EO_BAD_POSITION;
}

/* ``es`` at OUT_POSITION, as a position is read. */
static void write_position(const EState *es) {
    uint8_t *out = io + OUT_POSITION;
    memcpy(out + P_FOUNDS, es->founds, 4);
    for (int k = 0; k < MAXCELLS; k++) out[P_CELLS + k] = es->cells[k] < 0 ? EMPTY_CELL : (uint8_t)es->cells[k];
    memcpy(out + P_LENS, es->len, NCOLS);
    uint8_t *cards = out + P_CARDS;
    for (int i = 0; i < NCOLS; i++) {
        memcpy(cards, es->cards[i], es->len[i]);
        cards += es->len[i];
    }
}

/* ``moves`` at OUT_MOVES, 5 bytes each. */
static void write_moves(const Move *moves, int n) {
    for (int k = 0; k < n; k++) {
        int8_t *out = (int8_t *)(io + OUT_MOVES + 5 * k);
        out[0] = moves[k].sk, out[1] = moves[k].si, out[2] = moves[k].dk, out[3] = moves[k].di, out[4] = moves[k].n;
    }
}

/* Position.legal_moves (engine.c engine_moves, in its order) at OUT_MOVES; returns
 * how many, or an error. */
EXPORT("eo_legal_moves") int eo_legal_moves(void) {
    EngineRules r;
    EState es;
    Move moves[4 * MAXMOVES];
    int bad = read_input(&r, &es);
    if (bad) return bad;
    int n = engine_moves(&r, &es, moves);
    write_moves(moves, n);
    return n;
}

/* Whether the move at IN_MOVE names places these rules have (not whether it is legal). */
static int read_move(const EngineRules *r, Move *m) {
    const int8_t *in = (const int8_t *)(io + IN_MOVE);
    *m = mv(in[0], in[1], in[2], in[3], in[4]);
    int places[3] = {NCOLS, r->ncells, 4};
    if (m->sk < COL || m->sk > FOUND || m->dk < COL || m->dk > FOUND || m->n < 1 || m->n > MAXCOL) return 0;
    if (m->si < 0 || m->si >= places[m->sk]) return 0;
    return m->dk == FOUND ? m->di == -1 : m->di >= 0 && m->di < places[m->dk];
}

/* The move at IN_MOVE played when it is one of the legal moves (replay.c): 1 and the
 * position reached at OUT_POSITION; 0 when it is not legal there; or an error. */
EXPORT("eo_play") int eo_play(void) {
    EngineRules r;
    EState es;
    Move m;
    uint8_t carried;
    int bad = read_input(&r, &es);
    if (bad) return bad;
    if (!read_move(&r, &m)) return EO_BAD_MOVE;
    if (replay_moves(&r, &es, &m, 1, &carried) != 1) return 0;
    write_position(&es);
    return 1;
}

/* The game's autoplay (eightoff.game.autoplay_moves: engine.c engine_autoplay): its
 * moves at OUT_MOVES, the position after them at OUT_POSITION; returns how many, or
 * an error. */
EXPORT("eo_autoplay") int eo_autoplay(void) {
    EngineRules r;
    EState es;
    Move moves[52];
    int bad = read_input(&r, &es);
    if (bad) return bad;
    int n = engine_autoplay(&r, &es, moves);
    write_moves(moves, n);
    write_position(&es);
    return n;
}
