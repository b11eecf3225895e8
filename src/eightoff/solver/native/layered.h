#ifndef EIGHTOFF_LAYERED_H
#define EIGHTOFF_LAYERED_H

#include "rules.h"

/* A layer: its foundations and key_frozen, and its pending positions (records: key
 * length, key) in a buffer and, past it, in its file. */
typedef struct {
    uint8_t founds[4];
    int frozen, sum, done;
    int kept; /* done, and its file left for the next manifest to remove (tagged searches) */
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
    const uint8_t *tag; /* tagged searches: a manifest before each layer (NULL: none) */
    size_t taglen;
    int restoring; /* the manifest's layers are being made again: their files stay */
    size_t saved;  /* layers the last manifest names */
} Pending;

/* A position (its key) waiting in the layer of ``founds`` and ``frozen``; 0 when it
 * could not be kept (no memory, or the file could not be written). */
int pending_add(Pending *p, const uint8_t *founds, int frozen, const uint8_t *key, int len);

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

/* The counts a tagged search carries over from the searches before it. */
typedef struct {
    uint64_t nodes;
    double seconds;
} Carried;

Outcome exhaust_layered(const Config *cfg, const State *root, Nodes *nodes, long max_nodes, double deadline,
                               const char *dir, size_t max_buffered, const uint8_t *tag, size_t taglen,
                               LayeredStats *stats, Carried *sofar);

#endif
