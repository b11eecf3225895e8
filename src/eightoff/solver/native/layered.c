/* The proof by foundation layers: every reachable position in bounded memory.
 *
 * No card comes back from a foundation (take-back is not proved here), so a move
 * keeps a position's foundations or adds to them: the positions fall into layers,
 * one for each set of foundations, and a move leads to the same layer or to one
 * with more cards home. The proof (exhaust.c) runs dry on one layer at a time,
 * lowest first (fewest cards home), its table holding that layer alone: a child
 * with other foundations is written to that layer's pending positions (on disk,
 * one file a layer, buffered) and waits for its turn. A layer's turn comes after
 * every layer with fewer cards home, so every position that leads into it has been
 * expanded: its pending positions are all its entries, and once it ran dry it is
 * dropped, table and file. The layers left when none is pending are all the
 * reachable positions: none won means no solution.
 *
 * A layer of foundations is split further by key_frozen (keys.c): the cards of the
 * root's columns still in place below their first card that builds on the one
 * under it. A move never makes it grow, so within one set of foundations the
 * layers run from the highest key_frozen down, and the largest layers, where the
 * foundations stand still while the other cards are moved about, fall into parts.
 * The same positions as the
 * whole proof, the same work (a little more: a position is written and read
 * again where it enters a layer), where the memory a table needs is that of the
 * largest layer, not of them all: the proof degrades to disk when the position
 * count outgrows memory, rather than answering "unknown".
 *
 * A win ends the search without its line (the layers before are gone): the
 * verdict, for the solver's other searches to find the line. The buffers of the
 * pending positions (written out past ``max_buffered`` bytes) are not counted in the
 * tables' budget; a layer's file in the directory from an earlier search is
 * removed when the layer is made.
 *
 * Part of the _native extension, built as one unit: module.c includes every file
 * (in dependency order), so all functions stay static and inline across files. */

/* A layer: its foundations and key_frozen, and its pending positions (records: key
 * length, key) in a buffer and, past it, in its file. */
typedef struct {
    uint8_t founds[4];
    int frozen, sum, done;
    uint8_t *buf;
    size_t blen, bcap;
    size_t on_disk; /* bytes in its file */
} Layer;

typedef struct Pending {
    Layer *layers;
    size_t n, cap;
    int32_t *index; /* (foundations, frozen) -> layer + 1, open addressing; 0: free */
    size_t imask;
    char dir[4096];
    size_t buffered, max_buffered; /* bytes in the buffers: written out past max_buffered */
    uint64_t written;              /* bytes written to the files in all */
    int failed;
} Pending;

static inline uint32_t founds_word(const uint8_t *f) { return (uint32_t)f[0] | (uint32_t)f[1] << 8 | (uint32_t)f[2] << 16 | (uint32_t)f[3] << 24; }

/* A layer's name in the index: its foundations and key_frozen (at most 52). */
static inline uint64_t layer_word(const uint8_t *founds, int frozen) {
    return (uint64_t)founds_word(founds) << 9 | (uint64_t)frozen;
}

static inline size_t layer_home(uint64_t w, size_t mask) { return (size_t)((w * 0x9E3779B97F4A7C15ull) >> 32) & mask; }

static void layer_path(const Pending *p, size_t i, char *out, size_t size) {
    snprintf(out, size, "%s/layer-%zu", p->dir, i);
}

/* The layer with these foundations and key_frozen, made if new; -1 when there was
 * no memory. */
static int64_t pending_layer(Pending *p, const uint8_t *founds, int frozen) {
    uint64_t w = layer_word(founds, frozen);
    if (2 * (p->n + 1) > p->imask + 1) { /* the index at most half full, room for a new layer */
        size_t cap = 2 * (p->imask + 1);
        int32_t *index = calloc(cap, sizeof(int32_t));
        if (index == NULL) return -1;
        for (size_t i = 0; i < p->n; i++) {
            size_t r = layer_home(layer_word(p->layers[i].founds, p->layers[i].frozen), cap - 1);
            while (index[r]) r = (r + 1) & (cap - 1);
            index[r] = (int32_t)i + 1;
        }
        free(p->index);
        p->index = index;
        p->imask = cap - 1;
    }
    size_t q = layer_home(w, p->imask);
    for (; p->index[q]; q = (q + 1) & p->imask) {
        const Layer *l = &p->layers[p->index[q] - 1];
        if (layer_word(l->founds, l->frozen) == w) return p->index[q] - 1;
    }
    if (p->n == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 64;
        Layer *layers = realloc(p->layers, cap * sizeof(Layer));
        if (layers == NULL) return -1;
        p->layers = layers;
        p->cap = cap;
    }
    Layer *l = &p->layers[p->n];
    memset(l, 0, sizeof *l);
    memcpy(l->founds, founds, 4);
    l->frozen = frozen;
    l->sum = founds[0] + founds[1] + founds[2] + founds[3];
    char path[4200];
    layer_path(p, p->n, path, sizeof path);
    remove(path); /* a file left in the directory by another search is not this layer's */
    p->index[q] = (int32_t)++p->n;
    return (int64_t)p->n - 1;
}

/* Writes the buffer of layer ``i`` to its file; 0 when that failed. */
static int pending_flush(Pending *p, size_t i) {
    Layer *l = &p->layers[i];
    if (!l->blen) return 1;
    char path[4200];
    layer_path(p, i, path, sizeof path);
    FILE *f = fopen(path, "ab");
    int ok = f != NULL && fwrite(l->buf, 1, l->blen, f) == l->blen;
    if (f != NULL && fclose(f) != 0) ok = 0;
    if (!ok) {
        p->failed = 1;
        return 0;
    }
    l->on_disk += l->blen;
    p->written += l->blen;
    p->buffered -= l->blen;
    l->blen = 0;
    return 1;
}

/* A position (its key) waiting in the layer of ``founds`` and ``frozen``; 0 when it
 * could not be kept (no memory, or the file could not be written). */
static int pending_add(Pending *p, const uint8_t *founds, int frozen, const uint8_t *key, int len) {
    int64_t i = pending_layer(p, founds, frozen);
    if (i < 0) return 0;
    Layer *l = &p->layers[i];
    if (l->done) return 0; /* cannot happen (layers go by cards home, then key_frozen down): never dropped */
    if (l->blen + 1 + (size_t)len > l->bcap) {
        size_t cap = l->bcap ? 2 * l->bcap : 4096;
        uint8_t *buf = realloc(l->buf, cap);
        if (buf == NULL) return 0;
        l->buf = buf;
        l->bcap = cap;
    }
    l->buf[l->blen++] = (uint8_t)len;
    memcpy(l->buf + l->blen, key, (size_t)len);
    l->blen += (size_t)len;
    p->buffered += 1 + (size_t)len;
    if (p->buffered > p->max_buffered) /* every buffer to its file, the largest ones' memory given back */
        for (size_t j = 0; j < p->n; j++) {
            if (!pending_flush(p, j)) return 0;
            if (p->layers[j].bcap > 65536) {
                free(p->layers[j].buf);
                p->layers[j].buf = NULL;
                p->layers[j].bcap = 0;
            }
        }
    return 1;
}

static void pending_free(Pending *p) {
    char path[4200];
    for (size_t i = 0; i < p->n; i++) {
        free(p->layers[i].buf);
        layer_path(p, i, path, sizeof path);
        remove(path); /* a layer's file, whole, cut short by a failed write, or none */
    }
    free(p->layers);
    free(p->index);
}

/* The next layer: of those not done with pending positions, one with the fewest
 * cards home, and of those the highest key_frozen; -1 when none is left. */
static int64_t pending_next(const Pending *p) {
    int64_t best = -1;
    for (size_t i = 0; i < p->n; i++) {
        const Layer *l = &p->layers[i];
        if (l->done || !(l->blen || l->on_disk)) continue;
        const Layer *b = best < 0 ? NULL : &p->layers[best];
        if (b == NULL || l->sum < b->sum || (l->sum == b->sum && l->frozen > b->frozen)) best = (int64_t)i;
    }
    return best;
}

/* Stores one pending record of the layer the table holds (a root: no parent) and
 * pushes it, unless it is there already; 0 when there was no room. */
static int layer_enter(Exhaust *e, const uint8_t *key, int len) {
    uint64_t h = key_hash(key, len);
    size_t slot;
    if (ex_find(e, key, len, h, &slot) >= 0) return 1;
    if (!ex_room(e, 1)) return 0;
    ex_find(e, key, len, h, &slot);
    e->stack[e->depth++] = ex_add(e, -1, key, len, h, slot);
    return 1;
}

/* Empties the table for the next layer (the key root stays: keys are relative to
 * the deal's root in every layer); 0 when there was no room. */
static int layer_reset(Exhaust *e) {
    Budget *b = e->nodes->budget;
    budget_free(b, e->arena, e->acap);
    budget_free(b, e->slots, (e->mask + 1) * sizeof(uint64_t));
    e->arena = NULL;
    e->acap = e->used = e->n = 0;
    e->depth = 0;
    return ex_slots(e);
}

/* Reads layer ``i``'s pending positions into the emptied table; 0 when there was no
 * room (``out.status`` set) or its file could not be read. */
static int layer_load(Exhaust *e, Pending *p, size_t i) {
    Layer *l = &p->layers[i];
    if (!layer_reset(e)) {
        e->out.status = no_room(e->nodes->budget);
        return 0;
    }
    memcpy(e->layer, l->founds, 4);
    e->layer_frozen = l->frozen;
    if (l->on_disk) {
        char path[4200];
        layer_path(p, i, path, sizeof path);
        FILE *f = fopen(path, "rb");
        if (f == NULL) {
            p->failed = 1;
            e->out.status = NOMEM;
            return 0;
        }
        uint8_t key[KEYMAX + 1];
        int len;
        while ((len = fgetc(f)) != EOF) {
            if (len > KEYMAX || fread(key, 1, (size_t)len, f) != (size_t)len) { /* cut short: not a proof */
                fclose(f);
                p->failed = 1;
                e->out.status = NOMEM;
                return 0;
            }
            if (!layer_enter(e, key, len)) {
                fclose(f);
                e->out.status = no_room(e->nodes->budget);
                return 0;
            }
        }
        fclose(f);
        remove(path);
    }
    for (size_t at = 0; at < l->blen; at += 1 + l->buf[at])
        if (!layer_enter(e, l->buf + at + 1, l->buf[at])) {
            e->out.status = no_room(e->nodes->budget);
            return 0;
        }
    p->buffered -= l->blen;
    free(l->buf);
    l->buf = NULL;
    l->blen = l->bcap = l->on_disk = 0;
    l->done = 1;
    return 1;
}

/* A layer as it ran: its foundations, key_frozen and positions. */
typedef struct {
    uint8_t founds[4];
    int frozen;
    size_t positions;
} LayerRun;

/* What the proof by layers did besides its outcome. */
typedef struct {
    long layers;     /* layers run dry (or begun) */
    size_t largest;  /* positions of the largest layer */
    uint64_t spilled; /* bytes of pending positions written to disk */
    int io_failed;    /* a file of pending positions could not be written or read */
    LayerRun *runs;   /* each layer in the order run (malloc'd; NULL where there was no memory) */
    size_t nruns, rcap;
} LayeredStats;

/* Adds the layer the table holds to ``stats->runs`` (left out where there is no memory). */
static void layered_note(LayeredStats *stats, const Exhaust *e) {
    if (e->n > stats->largest) stats->largest = e->n;
    if (stats->nruns == stats->rcap) {
        size_t cap = stats->rcap ? 2 * stats->rcap : 64;
        LayerRun *runs = realloc(stats->runs, cap * sizeof(LayerRun));
        if (runs == NULL) return;
        stats->runs = runs;
        stats->rcap = cap;
    }
    LayerRun *r = &stats->runs[stats->nruns++];
    memcpy(r->founds, e->layer, 4);
    r->frozen = e->layer_frozen;
    r->positions = e->n;
}

/* The proof by layers from ``root`` (settled by autoplay), pending positions in
 * files under ``dir`` past ``max_buffered`` bytes of buffers; ``stats->runs`` for the
 * caller to free. SOLVED (no path),
 * EXHAUSTED, LIMIT (nodes, time, or a layer alone outgrew the budget) or NOMEM. */
static Outcome exhaust_layered(const Config *cfg, const State *root, Nodes *nodes, long max_nodes, double deadline,
                               const char *dir, size_t max_buffered, LayeredStats *stats) {
    Exhaust e;
    Pending p;
    memset(&p, 0, sizeof p);
    memset(stats, 0, sizeof *stats);
    snprintf(p.dir, sizeof p.dir, "%s", dir);
    p.max_buffered = max_buffered;
    p.index = calloc(64, sizeof(int32_t));
    p.imask = 63;
    if (p.index == NULL) return (Outcome){NOMEM, 0, -1};
    int ready = ex_init(&e, cfg, root, nodes);
    if (ready) { /* records without parents from here: the root again, as the first layer's */
        uint8_t key[KEYMAX];
        e.crowd = 1;
        e.pending = &p;
        e.hdr = 1;
        e.max_arena = LAYER_ARENA;
        memcpy(e.layer, root->founds, 4);
        e.layer_frozen = state_frozen(&e.root, root);
        ready = layer_reset(&e) && layer_enter(&e, key, key_encode(&e.root, root, key));
        if (!ready) e.out.status = no_room(nodes->budget);
    }
    if (ready) {
        stats->layers = 1;
        for (;;) {
            int r = ex_run(&e, root, LONG_MAX, max_nodes, deadline);
            layered_note(stats, &e);
            if (r != EX_ENDED || e.out.status != EXHAUSTED) break;
            int64_t next = pending_next(&p);
            if (next < 0) break; /* every layer ran dry: no solution */
            stats->layers++;
            if (!layer_load(&e, &p, (size_t)next)) break;
        }
    }
    stats->spilled = p.written;
    stats->io_failed = p.failed;
    ex_free(&e);
    pending_free(&p);
    return e.out;
}
