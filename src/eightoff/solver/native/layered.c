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
 * Given a tag (the deal, rules and build, named by the caller), the search can
 * be stopped and go on later: before each layer is read, every buffer goes to its
 * file and a manifest (``manifest``: the tag, the counts so far, each layer's
 * foundations, key_frozen, state and bytes on disk) replaces the last one, and a
 * layer's file stays until the next manifest says it is done. A search given the
 * same directory and tag reads the manifest, cuts each file back to the bytes it
 * names (what was written after it was never counted) and goes on from the layer
 * it names next: the same positions as a search that never stopped. A manifest
 * with another tag is replaced. A verdict removes the files and the manifest; a
 * limit leaves them. */
#define _GNU_SOURCE /* clock_gettime, madvise's huge pages, fileno, truncate */
#include "layered.h"
#include "exhaust.h"
#include "keys.h"
#include "tables.h"

#include <dirent.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

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
    if (!p->restoring) remove(path); /* a file left in the directory by another search is not this layer's */
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

int pending_add(Pending *p, const uint8_t *founds, int frozen, const uint8_t *key, int len) {
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

/* Frees ``p``; with ``files``, removes every layer's file, else (a tagged search
 * stopped) only those of layers its manifest does not name. */
static void pending_free(Pending *p, int files) {
    char path[4200];
    for (size_t i = 0; i < p->n; i++) {
        free(p->layers[i].buf);
        layer_path(p, i, path, sizeof path);
        if (files || i >= p->saved) remove(path); /* a layer's file, whole, cut short by a failed write, or none */
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
        if (p->tag == NULL) remove(path);
        else l->kept = 1; /* until the next manifest: a search stopped in this layer reads it again */
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

/* Appends a layer to ``stats->runs``; 0 where there was no memory (left out). */
static int runs_push(LayeredStats *stats, const uint8_t *founds, int frozen, size_t positions) {
    if (stats->nruns == stats->rcap) {
        size_t cap = stats->rcap ? 2 * stats->rcap : 64;
        LayerRun *runs = realloc(stats->runs, cap * sizeof(LayerRun));
        if (runs == NULL) return 0;
        stats->runs = runs;
        stats->rcap = cap;
    }
    LayerRun *r = &stats->runs[stats->nruns++];
    memcpy(r->founds, founds, 4);
    r->frozen = frozen;
    r->positions = positions;
    return 1;
}

/* Adds the layer the table holds to ``stats->runs`` (left out where there is no memory). */
static void layered_note(LayeredStats *stats, const Exhaust *e) {
    if (e->n > stats->largest) stats->largest = e->n;
    runs_push(stats, e->layer, e->layer_frozen, e->n);
}

/* The manifest's first bytes: its format (a layer's record and the counts below). */
static const char MANIFEST_MAGIC[8] = {'E', 'O', 'L', 'A', 'Y', 'E', 'R', '1'};

static void manifest_path(const Pending *p, const char *name, char *out, size_t size) {
    snprintf(out, size, "%s/%s", p->dir, name);
}

/* Writes every buffer out and a new manifest in place of the last one (written
 * beside it, then renamed over it: a stop while writing leaves the last one), then
 * removes the files of the layers it names done; 0 when a file could not be
 * written. */
static int pending_checkpoint(Pending *p, const LayeredStats *stats, Carried sofar) {
    for (size_t j = 0; j < p->n; j++)
        if (!pending_flush(p, j)) return 0;
    char tmp[4200], path[4200];
    manifest_path(p, "manifest.new", tmp, sizeof tmp);
    manifest_path(p, "manifest", path, sizeof path);
    FILE *f = fopen(tmp, "wb");
    if (f == NULL) {
        p->failed = 1;
        return 0;
    }
    uint32_t taglen = (uint32_t)p->taglen;
    uint64_t layers = (uint64_t)stats->layers, largest = stats->largest, n = p->n, nruns = stats->nruns;
    int ok = fwrite(MANIFEST_MAGIC, 8, 1, f) == 1 && fwrite(&taglen, 4, 1, f) == 1 &&
             fwrite(p->tag, 1, p->taglen, f) == p->taglen && fwrite(&sofar, sizeof sofar, 1, f) == 1 &&
             fwrite(&layers, 8, 1, f) == 1 && fwrite(&largest, 8, 1, f) == 1 && fwrite(&p->written, 8, 1, f) == 1 &&
             fwrite(&n, 8, 1, f) == 1;
    for (size_t i = 0; ok && i < p->n; i++) {
        const Layer *l = &p->layers[i];
        int32_t frozen = l->frozen;
        uint8_t done = (uint8_t)l->done;
        uint64_t on_disk = l->on_disk;
        ok = fwrite(l->founds, 4, 1, f) == 1 && fwrite(&frozen, 4, 1, f) == 1 && fwrite(&done, 1, 1, f) == 1 &&
             fwrite(&on_disk, 8, 1, f) == 1;
    }
    ok = ok && fwrite(&nruns, 8, 1, f) == 1;
    for (size_t i = 0; ok && i < stats->nruns; i++) {
        const LayerRun *r = &stats->runs[i];
        int32_t frozen = r->frozen;
        uint64_t positions = r->positions;
        ok = fwrite(r->founds, 4, 1, f) == 1 && fwrite(&frozen, 4, 1, f) == 1 && fwrite(&positions, 8, 1, f) == 1;
    }
    ok = ok && fflush(f) == 0 && fsync(fileno(f)) == 0; /* on disk before it replaces the last one */
    if (fclose(f) != 0) ok = 0;
    if (!ok || rename(tmp, path) != 0) {
        remove(tmp);
        p->failed = 1;
        return 0;
    }
    p->saved = p->n;
    for (size_t i = 0; i < p->n; i++)
        if (p->layers[i].kept) {
            layer_path(p, i, path, sizeof path);
            remove(path);
            p->layers[i].kept = 0;
        }
    return 1;
}

/* Removes the layer files in ``p->dir`` numbered ``first`` or more. */
static void remove_layers_from(const Pending *p, size_t first) {
    char path[4400]; /* the directory (4096 bytes at most) and a name (255) */
    DIR *d = opendir(p->dir);
    for (struct dirent *ent; d != NULL && (ent = readdir(d)) != NULL;) {
        char *end;
        if (strncmp(ent->d_name, "layer-", 6) || !ent->d_name[6]) continue;
        unsigned long long k = strtoull(ent->d_name + 6, &end, 10);
        if (*end == 0 && k >= first) {
            manifest_path(p, ent->d_name, path, sizeof path);
            remove(path);
        }
    }
    if (d != NULL) closedir(d);
}

/* Reads ``f``'s next ``size`` bytes into ``out``; 0 at its end. */
static int read_all(FILE *f, void *out, size_t size) { return fread(out, 1, size, f) == size; }

/* Makes the layers, counts and runs again from the manifest in ``p->dir`` if it
 * carries ``p``'s tag, each file cut back to the bytes the manifest names: 1 when
 * the search goes on from it, 0 when there is none to go on from (none, another
 * tag or format, or a file shorter than it names: ``p`` and ``stats`` are left empty
 * or must be made again, the manifest removed). */
static int pending_resume(Pending *p, LayeredStats *stats, Carried *sofar) {
    char path[4200];
    manifest_path(p, "manifest", path, sizeof path);
    FILE *f = fopen(path, "rb");
    if (f == NULL) return 0;
    char magic[8];
    uint32_t taglen;
    uint8_t tag[256];
    uint64_t layers, largest, written, n, nruns;
    int ok = read_all(f, magic, 8) && !memcmp(magic, MANIFEST_MAGIC, 8) && read_all(f, &taglen, 4) &&
             taglen == p->taglen && taglen <= sizeof tag && read_all(f, tag, taglen) && !memcmp(tag, p->tag, taglen) &&
             read_all(f, sofar, sizeof *sofar) && read_all(f, &layers, 8) && read_all(f, &largest, 8) &&
             read_all(f, &written, 8) && read_all(f, &n, 8);
    p->restoring = 1;
    for (uint64_t i = 0; ok && i < n; i++) {
        uint8_t founds[4], done;
        int32_t frozen;
        uint64_t on_disk;
        ok = read_all(f, founds, 4) && read_all(f, &frozen, 4) && read_all(f, &done, 1) && read_all(f, &on_disk, 8) &&
             frozen >= 0 && frozen <= 52 && pending_layer(p, founds, frozen) == (int64_t)i;
        if (!ok) break;
        Layer *l = &p->layers[i];
        l->done = done != 0;
        l->on_disk = (size_t)on_disk;
        layer_path(p, (size_t)i, path, sizeof path);
        struct stat st;
        if (l->done || !on_disk) remove(path); /* a done layer's file the manifest outlived, or none */
        else ok = stat(path, &st) == 0 && (uint64_t)st.st_size >= on_disk && truncate(path, (off_t)on_disk) == 0;
    }
    p->restoring = 0;
    ok = ok && read_all(f, &nruns, 8);
    for (uint64_t i = 0; ok && i < nruns; i++) {
        uint8_t founds[4];
        int32_t frozen;
        uint64_t positions;
        ok = read_all(f, founds, 4) && read_all(f, &frozen, 4) && read_all(f, &positions, 8) &&
             runs_push(stats, founds, frozen, (size_t)positions);
    }
    fclose(f);
    if (!ok) {
        manifest_path(p, "manifest", path, sizeof path);
        remove(path);
        return 0;
    }
    stats->layers = (long)layers;
    stats->largest = (size_t)largest;
    p->written = written;
    p->saved = p->n;
    remove_layers_from(p, p->n); /* made after the manifest by the search that stopped */
    return 1;
}

/* The proof by layers from ``root`` (settled by autoplay), pending positions in
 * files under ``dir`` past ``max_buffered`` bytes of buffers; ``stats->runs`` for the
 * caller to free. SOLVED (no path),
 * EXHAUSTED, LIMIT (nodes, time, or a layer alone outgrew the budget) or NOMEM. */
/* An empty set of pending positions under ``dir``; 0 where there was no memory. */
static int pending_init(Pending *p, const char *dir, size_t max_buffered, const uint8_t *tag, size_t taglen) {
    memset(p, 0, sizeof *p);
    snprintf(p->dir, sizeof p->dir, "%s", dir);
    p->max_buffered = max_buffered;
    p->tag = taglen ? tag : NULL;
    p->taglen = taglen;
    p->index = calloc(64, sizeof(int32_t));
    p->imask = 63;
    return p->index != NULL;
}

Outcome exhaust_layered(const Config *cfg, const State *root, Nodes *nodes, long max_nodes, double deadline,
                               const char *dir, size_t max_buffered, const uint8_t *tag, size_t taglen,
                               LayeredStats *stats, Carried *sofar) {
    Exhaust e;
    Pending p;
    double started = now_seconds();
    memset(stats, 0, sizeof *stats);
    memset(sofar, 0, sizeof *sofar);
    if (!pending_init(&p, dir, max_buffered, tag, taglen)) return (Outcome){NOMEM, 0, -1};
    int ready = ex_init(&e, cfg, root, nodes), resumed = 0;
    if (ready) { /* records without parents from here: the root again, as the first layer's */
        uint8_t key[KEYMAX];
        e.crowd = 1;
        e.pending = &p;
        e.hdr = 1;
        e.max_arena = LAYER_ARENA;
        if (p.tag != NULL && !(resumed = pending_resume(&p, stats, sofar))) {
            /* none to go on from: a search from the root, in a directory of its own */
            pending_free(&p, 1);
            free(stats->runs);
            memset(stats, 0, sizeof *stats);
            memset(sofar, 0, sizeof *sofar);
            if (!pending_init(&p, dir, max_buffered, tag, taglen)) ready = 0, e.out.status = NOMEM;
            else remove_layers_from(&p, 0);
        }
        if (ready && resumed) {
            int64_t next = pending_next(&p);
            stats->layers++;
            if (next < 0) { /* every layer ran dry before the stop (not saved so: cannot happen) */
                e.out.status = EXHAUSTED;
                ready = 0;
            } else {
                ready = layer_load(&e, &p, (size_t)next);
            }
        } else if (ready) {
            stats->layers = 1;
            memcpy(e.layer, root->founds, 4);
            e.layer_frozen = state_frozen(&e.root, root);
            ready = layer_reset(&e) && layer_enter(&e, key, key_encode(&e.root, root, key));
            if (!ready) e.out.status = no_room(nodes->budget);
        }
    }
    int finished = 0; /* a verdict: every layer ran dry, or a win */
    if (ready) {
        for (;;) {
            int r = ex_run(&e, root, LONG_MAX, max_nodes, deadline);
            layered_note(stats, &e);
            if (r != EX_ENDED || e.out.status != EXHAUSTED) {
                finished = r == EX_ENDED && e.out.status == SOLVED;
                break;
            }
            int64_t next = pending_next(&p);
            if (next < 0) { /* every layer ran dry: no solution */
                finished = 1;
                break;
            }
            if (p.tag != NULL &&
                !pending_checkpoint(&p, stats,
                                    (Carried){sofar->nodes + (uint64_t)e.out.nodes,
                                              sofar->seconds + now_seconds() - started})) {
                e.out.status = LIMIT;
                break;
            }
            stats->layers++;
            if (!layer_load(&e, &p, (size_t)next)) break;
        }
    }
    stats->spilled = p.written;
    stats->io_failed = p.failed;
    ex_free(&e);
    if (p.tag != NULL && finished) {
        char path[4200];
        manifest_path(&p, "manifest", path, sizeof path);
        remove(path);
    }
    pending_free(&p, p.tag == NULL || finished);
    return e.out;
}
