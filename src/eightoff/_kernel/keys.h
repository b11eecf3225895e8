#ifndef EIGHTOFF_KEYS_H
#define EIGHTOFF_KEYS_H

#include "position.h"

/* Compact exact keys for the proof (exhaust.c): a position in about 12-20 bytes,
 * the same for positions equal up to column and cell order.
 *
 * Relative to the search's root: a column whose bottom card was a root column's
 * bottom card is named by that root column and keeps k of its cards (the longest
 * prefix still in place); every card above those k was put there by a move, so it
 * builds on the card below it, and is named by one bit in alternating colours
 * (which of the two suits of the other colour), by none in suit. Any other column
 * was started in an empty column: its bottom card, then built cards again. Then the
 * cells. The foundations are what is left: each suit's lowest card not on the
 * table. So a key is a handful of bits per column, and decodes back to the State. */

#define KEYMAX 40 /* bytes: 8 k fields, 8 columns of at most 22 bits, counts, 8 cells */

/* The root the keys are relative to. */
typedef struct {
    uint8_t len[NCOLS];
    uint8_t cards[NCOLS][MAXCOL];
    uint8_t kbits[NCOLS]; /* bits for k in 0..len */
    int8_t rooted[52];    /* card -> the root column it was the bottom card of, or -1 */
    uint8_t frozen[NCOLS]; /* the root column's first card that builds on the one under it (its length if none) */
    int suit;
} KeyRoot;

void keyroot_init(KeyRoot *r, const State *root, int suit);

/* The bit naming ``card`` on ``onto`` (alternating colours; it builds on it). */
static inline unsigned build_bit(int card, int onto) {
    int s = SUIT(card);
    return is_red(onto) ? s == 3 : s == 2;
}

/* A column's part of a key, alone: what it holds (bits, LSB first), and whose place
 * it takes (a root column's, or the columns started in an empty column's, sorted by
 * bottom card). A key is its columns' chunks put together (key_assemble), so a
 * child's key reuses its parent's chunks for the columns a move left alone. */
typedef struct {
    uint64_t v; /* the bits: a root column's k (kbits) or the bottom card (6), the
                   number of built cards above (4), a bit each (alternating colours) */
    int8_t nb;
    int8_t role; /* the root column it continues; -1 started in an empty column; -2 empty */
    uint8_t bottom;
    uint8_t k;     /* cards in place from the root (1 for a column started in an empty one) */
    uint16_t bits; /* the built cards' bits, the lowest the first card above the k */
} Chunk;

/* ``c``'s bits from its parts, for a column of ``n`` cards. */
static inline void chunk_pack(const KeyRoot *r, Chunk *c, int n) {
    int nb = c->role >= 0 ? r->kbits[c->role] : 6;
    uint64_t v = c->role >= 0 ? c->k : c->bottom;
    v |= (uint64_t)(n - c->k) << nb;
    nb += 4;
    if (!r->suit) { /* every card above the first k builds on the one below it */
        v |= (uint64_t)c->bits << nb;
        nb += n - c->k;
    }
    c->v = v;
    c->nb = (int8_t)nb;
}

/* The built bits of cards ``from``..n-1 of ``col``, laid from bit ``from - k``. */
static inline unsigned built_bits(const KeyRoot *r, const uint8_t *col, int from, int n, int k) {
    unsigned bits = 0;
    if (!r->suit)
        for (int x = from; x < n; x++) bits |= build_bit(col[x], col[x - 1]) << (x - k);
    return bits;
}

static inline void col_chunk(const KeyRoot *r, const uint8_t *col, int n, Chunk *c) {
    if (!n) {
        c->role = -2;
        return;
    }
    int i = r->rooted[col[0]], k = 1;
    if (i >= 0) { /* k: the longest prefix of root column i still in place */
        int most = n < r->len[i] ? n : r->len[i];
        while (k < most && col[k] == r->cards[i][k]) k++;
    }
    c->role = (int8_t)(i >= 0 ? i : -1);
    c->bottom = col[0];
    c->k = (uint8_t)k;
    c->bits = (uint16_t)built_bits(r, col, k, n, k);
    chunk_pack(r, c, n);
}

/* The chunk of a column of ``n`` cards that was ``p`` at ``pn`` cards: a move and
 * autoplay take cards off its top or put a run on it, then take cards off again, so
 * its first min(n, pn) cards are the parent's and only the cards past ``pn`` are
 * looked at (col_chunk reads the whole column). */
static inline void col_chunk_after(const KeyRoot *r, const uint8_t *col, int n, const Chunk *p, int pn, Chunk *c) {
    if (!n || !pn) {
        col_chunk(r, col, n, c);
        return;
    }
    *c = *p;
    int k = p->k;
    if (n < pn) {
        if (n <= k) {
            c->k = (uint8_t)n;
            c->bits = 0;
        } else {
            c->bits = (uint16_t)(p->bits & ((1u << (n - k)) - 1));
        }
    } else {
        if (k == pn && p->role >= 0) { /* all in place: the new cards may go on with the root's */
            int i = p->role, most = n < r->len[i] ? n : r->len[i];
            while (k < most && col[k] == r->cards[i][k]) k++;
            c->k = (uint8_t)k;
        }
        int from = pn > k ? pn : k;
        c->bits = (uint16_t)(c->bits | built_bits(r, col, from, n, k));
    }
    chunk_pack(r, c, n);
}

/* The cards still in place above the root columns' bottom cards, below each one's
 * first card that builds on the card under it (KeyRoot.frozen), in the columns with
 * the chunks ``ch``: a move never makes it grow. Such a card, once it left, never
 * lies on the card under it again (a card goes onto a column only where it builds,
 * or into an empty one, and a run's cards build on each other), so the prefix up to
 * it never grows back; the bottom card alone may (into an empty column), and is not
 * counted. So the proof by layers (layered.c) splits a layer of foundations by it. */
static inline int key_frozen(const KeyRoot *r, const Chunk *ch) {
    int m = 0;
    for (int j = 0; j < NCOLS; j++)
        if (ch[j].role >= 0) { /* k >= 1: the column's bottom card is the root column's */
            int f = r->frozen[ch[j].role];
            m += (ch[j].k < f ? ch[j].k : f) - 1;
        }
    return m;
}

/* The key of the position whose columns have the chunks ``ch`` and whose cells are
 * ``st``'s, into ``key`` (KEYMAX bytes); its length. Per root column in order, the
 * chunk of the column that continues it (or k = 0); the number of other columns and
 * their chunks by bottom card; the cells. */
int key_assemble(const KeyRoot *r, const Chunk *ch, const State *st, uint8_t *key);

/* ``st``'s key into ``key`` (KEYMAX bytes); its length. */
int key_encode(const KeyRoot *r, const State *st, uint8_t *key);

/* key_frozen of ``st``. */
int state_frozen(const KeyRoot *r, const State *st);

/* The State of a key: a root column where it was, the others in the first empty
 * places (where a move starts a column), so that moves are tried in much the order
 * they are tried on the position as it was made. ``ch`` (if not NULL) gets each
 * column's chunk, as col_chunk would make it, read off the key on the way. */
void key_decode(const KeyRoot *r, const uint8_t *key, int len, State *st, Chunk *ch);

static inline uint64_t key_hash(const uint8_t *key, int len) {
    uint64_t h = (uint64_t)len, w;
    int x = 0;
    for (; x + 8 <= len; x += 8) {
        memcpy(&w, key + x, 8);
        h = mix64(h ^ w);
    }
    if (x < len) {
        w = 0;
        memcpy(&w, key + x, (size_t)(len - x));
        h = mix64(h ^ w);
    }
    return h;
}

#endif
