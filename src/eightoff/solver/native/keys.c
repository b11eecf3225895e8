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
 * table. So a key is a handful of bits per column, and decodes back to the State.
 *
 * Part of the _native extension, built as one unit: module.c includes every file
 * (in dependency order), so all functions stay static and inline across files. */

#define KEYMAX 40 /* bytes: 8 k fields, 8 columns of at most 22 bits, counts, 8 cells */

/* The root the keys are relative to. */
typedef struct {
    uint8_t len[NCOLS];
    uint8_t cards[NCOLS][MAXCOL];
    uint8_t kbits[NCOLS]; /* bits for k in 0..len */
    int8_t rooted[52];    /* card -> the root column it was the bottom card of, or -1 */
    int suit;
} KeyRoot;

static void keyroot_init(KeyRoot *r, const State *root, int suit) {
    memset(r->rooted, -1, sizeof r->rooted);
    r->suit = suit;
    for (int i = 0; i < NCOLS; i++) {
        r->len[i] = root->len[i];
        memcpy(r->cards[i], root->cards[i], root->len[i]);
        int b = 0;
        while ((1 << b) <= root->len[i]) b++;
        r->kbits[i] = (uint8_t)b;
        if (root->len[i]) r->rooted[root->cards[i][0]] = (int8_t)i;
    }
}

typedef struct {
    uint8_t *buf;
    uint64_t acc;
    int nb, len;
} Bits;

static inline void bits_put(Bits *w, unsigned v, int n) {
    w->acc |= (uint64_t)v << w->nb;
    w->nb += n;
    while (w->nb >= 8) {
        w->buf[w->len++] = (uint8_t)w->acc;
        w->acc >>= 8;
        w->nb -= 8;
    }
}

static inline unsigned bits_get(Bits *r, int n) {
    while (r->nb < n) {
        r->acc |= (uint64_t)r->buf[r->len++] << r->nb;
        r->nb += 8;
    }
    unsigned v = (unsigned)(r->acc & ((1u << n) - 1));
    r->acc >>= n;
    r->nb -= n;
    return v;
}

/* The bit naming ``card`` on ``onto`` (alternating colours; it builds on it). */
static inline unsigned build_bit(int card, int onto) {
    int s = card / 13;
    return is_red(onto) ? s == 3 : s == 2;
}

static inline int built_card(int onto, unsigned bit, int suit) {
    if (suit) return onto - 1;
    int r = onto % 13 - 1, s = is_red(onto) ? (bit ? 3 : 0) : (bit ? 2 : 1);
    return s * 13 + r;
}

/* Cards from[0..n) each building on the one below ``below``: length, then bits. */
static inline void put_run(Bits *w, const KeyRoot *r, int below, const uint8_t *from, int n) {
    bits_put(w, (unsigned)n, 4);
    if (r->suit) return;
    for (int x = 0; x < n; x++) {
        bits_put(w, build_bit(from[x], below), 1);
        below = from[x];
    }
}

/* ``st``'s key into ``key`` (KEYMAX bytes); its length. */
static int key_encode(const KeyRoot *r, const State *st, uint8_t *key) {
    Bits w = {key, 0, 0, 0};
    int8_t at[NCOLS]; /* the column each root column's bottom card heads, or -1 */
    int free_cols[NCOLS], nfree = 0;
    memset(at, -1, sizeof at);
    for (int j = 0; j < NCOLS; j++) {
        if (!st->len[j]) continue;
        int i = r->rooted[st->cards[j][0]];
        if (i >= 0)
            at[i] = (int8_t)j;
        else {
            int k = nfree++; /* free columns sorted by bottom card */
            while (k > 0 && st->cards[free_cols[k - 1]][0] > st->cards[j][0]) {
                free_cols[k] = free_cols[k - 1];
                k--;
            }
            free_cols[k] = j;
        }
    }
    for (int i = 0; i < NCOLS; i++) {
        if (!r->len[i]) continue;
        int j = at[i], k = 0;
        if (j >= 0) {
            const uint8_t *col = st->cards[j];
            int n = st->len[j], most = n < r->len[i] ? n : r->len[i];
            k = 1;
            while (k < most && col[k] == r->cards[i][k]) k++;
            bits_put(&w, (unsigned)k, r->kbits[i]);
            put_run(&w, r, col[k - 1], col + k, n - k);
        } else {
            bits_put(&w, 0, r->kbits[i]);
        }
    }
    bits_put(&w, (unsigned)nfree, 4);
    for (int f = 0; f < nfree; f++) {
        const uint8_t *col = st->cards[free_cols[f]];
        bits_put(&w, col[0], 6);
        put_run(&w, r, col[0], col + 1, st->len[free_cols[f]] - 1);
    }
    bits_put(&w, st->ncells, 4);
    for (int k = 0; k < st->ncells; k++) bits_put(&w, st->cells[k], 6);
    if (w.nb) key[w.len++] = (uint8_t)w.acc;
    return w.len;
}

static inline void get_run(Bits *b, const KeyRoot *r, uint8_t *col, int *n) {
    int t = (int)bits_get(b, 4);
    for (int x = 0; x < t; x++) {
        unsigned bit = r->suit ? 0 : bits_get(b, 1);
        col[*n] = (uint8_t)built_card(col[*n - 1], bit, r->suit);
        (*n)++;
    }
}

/* The State of a key: a root column where it was, the others in the first empty
 * places (where a move starts a column), so that moves are tried in much the order
 * they are tried on the position as it was made. */
static void key_decode(const KeyRoot *r, const uint8_t *key, State *st) {
    Bits b = {(uint8_t *)key, 0, 0, 0};
    uint8_t present[52] = {0};
    memset(st->len, 0, NCOLS);
    for (int i = 0; i < NCOLS; i++) {
        if (!r->len[i]) continue;
        int k = (int)bits_get(&b, r->kbits[i]);
        if (!k) continue;
        int n = k;
        memcpy(st->cards[i], r->cards[i], (size_t)k);
        get_run(&b, r, st->cards[i], &n);
        st->len[i] = (uint8_t)n;
    }
    int nfree = (int)bits_get(&b, 4), j = 0;
    for (int f = 0; f < nfree; f++) {
        int n = 1;
        while (st->len[j]) j++;
        st->cards[j][0] = (uint8_t)bits_get(&b, 6);
        get_run(&b, r, st->cards[j], &n);
        st->len[j] = (uint8_t)n;
    }
    st->ncells = (uint8_t)bits_get(&b, 4);
    for (int k = 0; k < st->ncells; k++) present[st->cells[k] = (uint8_t)bits_get(&b, 6)] = 1;
    for (int c = 0; c < NCOLS; c++)
        for (int x = 0; x < st->len[c]; x++) present[st->cards[c][x]] = 1;
    for (int s = 0; s < 4; s++) {
        int f = 0;
        while (f < 13 && !present[s * 13 + f]) f++;
        st->founds[s] = (uint8_t)f;
    }
}

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
