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
    uint8_t frozen[NCOLS]; /* the root column's first card that builds on the one under it (its length if none) */
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
        int f = 1;
        while (f < root->len[i] && !builds(root->cards[i][f], root->cards[i][f - 1], suit)) f++;
        r->frozen[i] = (uint8_t)f;
    }
}

typedef struct {
    uint8_t *buf;
    uint64_t acc;
    int nb, len;
} Bits;

/* Bits go out LSB first, four whole bytes at a time (a chunk is at most 22 bits, so
 * the accumulator never holds more than 53); bits_done writes the last bytes. */
static inline void bits_put(Bits *w, uint64_t v, int n) {
    w->acc |= v << w->nb;
    w->nb += n;
    if (w->nb >= 32) {
        uint8_t *out = w->buf + w->len;
        out[0] = (uint8_t)w->acc;
        out[1] = (uint8_t)(w->acc >> 8);
        out[2] = (uint8_t)(w->acc >> 16);
        out[3] = (uint8_t)(w->acc >> 24);
        w->len += 4;
        w->acc >>= 32;
        w->nb -= 32;
    }
}

static inline int bits_done(Bits *w) {
    for (; w->nb > 0; w->nb -= 8) {
        w->buf[w->len++] = (uint8_t)w->acc;
        w->acc >>= 8;
    }
    return w->len;
}

/* Reads LSB first from a key copied into a buffer with KEY_PAD zero bytes after it,
 * refilling four bytes at a time (a field is at most 6 bits). */
#define KEY_PAD 8

static inline unsigned bits_get(Bits *r, int n) {
    if (r->nb < n) {
        const uint8_t *in = r->buf + r->len;
        r->acc |= ((uint64_t)in[0] | (uint64_t)in[1] << 8 | (uint64_t)in[2] << 16 | (uint64_t)in[3] << 24) << r->nb;
        r->len += 4;
        r->nb += 32;
    }
    unsigned v = (unsigned)(r->acc & ((1u << n) - 1));
    r->acc >>= n;
    r->nb -= n;
    return v;
}

/* The bit naming ``card`` on ``onto`` (alternating colours; it builds on it). */
static inline unsigned build_bit(int card, int onto) {
    int s = SUIT(card);
    return is_red(onto) ? s == 3 : s == 2;
}

static inline int built_card(int onto, unsigned bit, int suit) {
    if (suit) return onto - 1;
    int r = RANK(onto) - 1, s = is_red(onto) ? (bit ? 3 : 0) : (bit ? 2 : 1);
    return s * 13 + r;
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
static int key_assemble(const KeyRoot *r, const Chunk *ch, const State *st, uint8_t *key) {
    Bits w = {key, 0, 0, 0};
    int8_t at[NCOLS];
    int free_cols[NCOLS], nfree = 0;
    memset(at, -1, sizeof at);
    for (int j = 0; j < NCOLS; j++) {
        if (ch[j].role >= 0)
            at[ch[j].role] = (int8_t)j;
        else if (ch[j].role == -1) {
            int k = nfree++; /* free columns sorted by bottom card */
            while (k > 0 && ch[free_cols[k - 1]].bottom > ch[j].bottom) {
                free_cols[k] = free_cols[k - 1];
                k--;
            }
            free_cols[k] = j;
        }
    }
    for (int i = 0; i < NCOLS; i++) {
        if (!r->len[i]) continue;
        if (at[i] >= 0)
            bits_put(&w, ch[at[i]].v, ch[at[i]].nb);
        else
            bits_put(&w, 0, r->kbits[i]);
    }
    bits_put(&w, (unsigned)nfree, 4);
    for (int f = 0; f < nfree; f++) bits_put(&w, ch[free_cols[f]].v, ch[free_cols[f]].nb);
    bits_put(&w, st->ncells, 4);
    for (int k = 0; k < st->ncells; k++) bits_put(&w, st->cells[k], 6);
    return bits_done(&w);
}

/* ``st``'s key into ``key`` (KEYMAX bytes); its length. */
static int key_encode(const KeyRoot *r, const State *st, uint8_t *key) {
    Chunk ch[NCOLS];
    for (int j = 0; j < NCOLS; j++) col_chunk(r, st->cards[j], st->len[j], &ch[j]);
    return key_assemble(r, ch, st, key);
}

/* key_frozen of ``st``. */
static int state_frozen(const KeyRoot *r, const State *st) {
    Chunk ch[NCOLS];
    for (int j = 0; j < NCOLS; j++) col_chunk(r, st->cards[j], st->len[j], &ch[j]);
    return key_frozen(r, ch);
}

/* Reads a column's built cards onto ``col`` (``*n`` cards so far); their bits. */
static inline unsigned get_run(Bits *b, const KeyRoot *r, uint8_t *col, int *n) {
    int t = (int)bits_get(b, 4);
    unsigned bits = 0;
    for (int x = 0; x < t; x++) {
        unsigned bit = r->suit ? 0 : bits_get(b, 1);
        bits |= bit << x;
        col[*n] = (uint8_t)built_card(col[*n - 1], bit, r->suit);
        (*n)++;
    }
    return bits;
}

/* The State of a key: a root column where it was, the others in the first empty
 * places (where a move starts a column), so that moves are tried in much the order
 * they are tried on the position as it was made. ``ch`` (if not NULL) gets each
 * column's chunk, as col_chunk would make it, read off the key on the way. */
static void key_decode(const KeyRoot *r, const uint8_t *key, int len, State *st, Chunk *ch) {
    uint8_t padded[KEYMAX + KEY_PAD] = {0};
    memcpy(padded, key, (size_t)len);
    Bits b = {padded, 0, 0, 0};
    Chunk spare[NCOLS];
    if (ch == NULL) ch = spare;
    memset(st->len, 0, NCOLS);
    for (int j = 0; j < NCOLS; j++) ch[j].role = -2;
    for (int i = 0; i < NCOLS; i++) {
        if (!r->len[i]) continue;
        int k = (int)bits_get(&b, r->kbits[i]);
        if (!k) continue;
        int n = k;
        memcpy(st->cards[i], r->cards[i], (size_t)k);
        ch[i].bits = (uint16_t)get_run(&b, r, st->cards[i], &n);
        ch[i].role = (int8_t)i;
        ch[i].k = (uint8_t)k;
        ch[i].bottom = st->cards[i][0];
        chunk_pack(r, &ch[i], n);
        st->len[i] = (uint8_t)n;
    }
    int nfree = (int)bits_get(&b, 4), j = 0;
    for (int f = 0; f < nfree; f++) {
        int n = 1;
        while (st->len[j]) j++;
        st->cards[j][0] = (uint8_t)bits_get(&b, 6);
        ch[j].bits = (uint16_t)get_run(&b, r, st->cards[j], &n);
        ch[j].role = -1;
        ch[j].k = 1;
        ch[j].bottom = st->cards[j][0];
        chunk_pack(r, &ch[j], n);
        st->len[j] = (uint8_t)n;
    }
    /* The foundations: each suit's lowest card on the table (a bit a card, in a
     * register: no byte stores for the loads after them to wait on). */
    uint64_t present = 0;
    st->ncells = (uint8_t)bits_get(&b, 4);
    for (int k = 0; k < st->ncells; k++) present |= 1ULL << (st->cells[k] = (uint8_t)bits_get(&b, 6));
    for (int c = 0; c < NCOLS; c++)
        for (int x = 0; x < st->len[c]; x++) present |= 1ULL << st->cards[c][x];
    for (int s = 0; s < 4; s++) {
        uint64_t suit = (present >> (13 * s)) & 0x1FFF;
        st->founds[s] = (uint8_t)(suit ? __builtin_ctzll(suit) : 13);
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
