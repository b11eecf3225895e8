/* The proof's compact exact keys (see keys.h). */
#include "keys.h"

void keyroot_init(KeyRoot *r, const State *root, int suit) {
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

static inline int built_card(int onto, unsigned bit, int suit) {
    if (suit) return onto - 1;
    int r = RANK(onto) - 1, s = is_red(onto) ? (bit ? 3 : 0) : (bit ? 2 : 1);
    return s * 13 + r;
}

int key_assemble(const KeyRoot *r, const Chunk *ch, const State *st, uint8_t *key) {
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

int key_encode(const KeyRoot *r, const State *st, uint8_t *key) {
    Chunk ch[NCOLS];
    for (int j = 0; j < NCOLS; j++) col_chunk(r, st->cards[j], st->len[j], &ch[j]);
    return key_assemble(r, ch, st, key);
}

int state_frozen(const KeyRoot *r, const State *st) {
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

void key_decode(const KeyRoot *r, const uint8_t *key, int len, State *st, Chunk *ch) {
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
