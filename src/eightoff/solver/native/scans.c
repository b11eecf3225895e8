/* Freecell Solver's soft threads together: the seventeen scans of its preset
 * "toons-for-twenty-somethings" (fc-solve's in-process default here), fifteen
 * depth-first and two A* (its best-first search), run by its prelude over one
 * shared collection of positions with its dead-end marks; or the sixteen of its
 * preset "looking-glass" (meta-move tests, test j, orders that change with depth,
 * groups sorted by BeFS weights, its pruning -sp r:tf; no scan of it complete, so no
 * dead-end marks), held to fc-solve's count where any card fills a column.
 *
 * dive.c runs one of fc-solve's scans move for move. The preset runs seventeen,
 * by turns of a few thousand positions each ("2800@0,2800@3,1750@0,..."), and they
 * are not independent: every position any scan generates is stored once, with
 *
 * - one "checked" bit per scan (a scan skips what it checked itself, not what the
 *   others did),
 * - the position that generated it first (its parent) and how many of the
 *   positions it generated first are not dead ends yet,
 * - a dead-end mark: set when a complete scan (one whose first order holds every
 *   test any scan of the preset starts with: all of toons', none of looking-glass's)
 *   has tried every test of a position, and passed up to the parent once all the
 *   parent's children are dead and the parent had every test tried; every scan
 *   skips a dead end.
 *
 * So a scan on its second turn skips what another scan finished, and wins where no
 * scan alone would within as many positions (2-cell alternating PySolFC 2286: the
 * preset at 8,961 positions, no scan of it alone by 11,646). This file keeps that
 * collection (a hash table of Shared records, positions told apart by their 64-bit
 * hashes) and the prelude, and counts positions as fc-solve counts them ("states
 * checked"): tests/test_native_scans.py holds the two to the same count, on deals
 * won (or run dry) in the depth-first scans' turns and in the A* scans' alike. */
#include "scans.h"

#include <math.h>
#include <stdio.h>

#include "position.h"
#include "tables.h"

enum { SHARED_DEAD = 1, SHARED_DONE = 2, SHARED_PRUNED = 4 }; 
#define BEFS_MAX_DEPTH 20000 /* fc-solve's: a depth's weight counts BEFS_MAX_DEPTH less it */

/* The tests order of a frame at ``depth`` (the root's 0). */
static inline const ScanUnit *scan_unit(const Scan *sc, size_t depth) {
    int k = sc->nunits - 1;
    while (k > 0 && (size_t)sc->units[k].min_depth > depth) k--;
    return &sc->units[k];
}

/* toons-for-twenty-somethings: fifteen depth-first scans of single-card tests, two A*. */
static const ScanSpec TOONS_SCANS[] = {
    {0, "01ABCDE", 0, {0}, 0, 0},
    {1, "[01][ABCDE]", 1, {0}, 0, 0},
    {2, "[01][ABCDE]", 2, {0}, 0, 0},
    {3, "[01][ABCDE]", 3, {0}, 0, 0},
    {4, "01[ABCDE]", 268, {0}, 0, 0},
    {5, "01ABCDE", 0, {0.5, 0, 0.3, 0, 0.2}, 1, 0}, /* fc-solve's default weights */
    {7, "01ABCDE", 0, {0.5, 0, 0.5, 0, 0}, 1, 0},   /* -asw 0.5,0,0.5,0,0 */
    {8, "[01][ABD][CE]", 1900, {0}, 0, 0},
    {9, "[01][ABCDE]", 192, {0}, 0, 0},
    {10, "[01ABCDE]", 1977, {0}, 0, 0},
    {11, "[01ABCDE]", 24, {0}, 0, 0},
    {14, "01EABCD", 0, {0}, 0, 0},
    {15, "01BDAEC", 0, {0}, 0, 0},
    {16, "[01][ABCDE]", 4, {0}, 0, 0},
    {17, "[01][ABD][CE]", 8, {0}, 0, 0},
    {18, "01DECAB", 0, {0}, 0, 0},
    {19, "[01][ABCDE]", 71, {0}, 0, 0},
};

/* The prelude: turns of {positions, scan name}; then each scan in turn for 500. */
static const int TOONS_PRELUDE[][2] = {
    {2800, 0},   {2800, 3},   {1750, 0},   {3150, 16},  {350, 3},    {700, 0},    {1400, 3},  {2450, 4},
    {350, 0},    {1400, 4},   {700, 16},   {2100, 0},   {350, 3},    {350, 4},    {350, 3},   {1400, 16},
    {700, 3},    {700, 4},    {700, 0},    {700, 3},    {1400, 0},   {1050, 4},   {700, 0},   {350, 3},
    {350, 0},    {4550, 18},  {5600, 7},   {700, 4},    {2450, 18},  {4900, 19},  {1400, 18}, {1050, 3},
    {2450, 19},  {1750, 0},   {4550, 1},   {350, 18},   {1050, 0},   {350, 1},    {700, 15},  {350, 7},
    {1050, 0},   {8050, 1},   {2450, 4},   {350, 18},   {1750, 19},  {1750, 0},   {12250, 2}, {700, 4},
    {2450, 18},  {3500, 11},  {2800, 9},   {1750, 7},   {3150, 8},   {2100, 10},  {700, 15},  {4200, 10},
    {700, 2},    {1050, 4},   {700, 5},    {700, 7},    {4550, 9},   {2800, 10},  {3500, 14}, {1050, 4},
    {1050, 17},  {3150, 1},   {3500, 3},   {2100, 14},  {1050, 15},  {1750, 18},  {2100, 0},  {4900, 15},
    {4200, 3},   {1750, 7},   {2450, 9},   {1750, 17},  {1750, 19},  {2100, 16},  {2800, 4},  {7700, 8},
    {5600, 16},  {2800, 19},  {4550, 18},  {4900, 1},   {5950, 4},   {2450, 14},  {2450, 16}, {2800, 2},
    {2800, 3},   {2800, 9},   {5600, 19},  {3150, 3},   {3150, 14},  {3850, 2},   {3850, 19}, {4550, 7},
    {4900, 4},   {6650, 18},  {6650, 16},  {13650, 19}, {6300, 4},   {14700, 15}, {11900, 5}, {11900, 17},
    {9800, 2},   {10150, 19}, {10500, 4},  {27650, 3},  {23450, 8},  {35700, 9},  {50750, 11}, {82600, 14},
};

/* looking-glass (presets/looking-glass.sh): fourteen depth-first scans of meta-move
 * tests, test j among them, most with other orders from a depth on, two A*, all
 * pruned. Its names sI, sF, sH, sG, sD, sB and "new" are 101-107 here; a scan
 * without -seed has random-dfs's default, 24; without -to, the default order
 * "[01][23456789]" (shuffled where random: scan "20"). */
static const ScanSpec LOOKING_GLASS_SCANS[] = {
    {24, "01j234;33,016[234j]=asw(1)", 24, {0}, 0, 1},
    {5, "0[124]=asw(1)j[36]=asw(1);55,016[234j]=asw(1)", 24, {0}, 0, 1},
    {9, "0j26[34]", 6, {0}, 0, 1},
    {101, "012j[35];9,[012]j[468];15,[012346j8]=asw(1)", 10468, {0}, 0, 1},
    {102, "01[2345j];9,012[456j]", 44250, {0}, 0, 1},
    {103, "[01][2345j];5,[0123][456j];13,[0123456j]=asw(1)", 18296, {0}, 0, 1},
    {104, "[01][2345j];5,[0123][456j];13,[0123456j]=asw(1)", 33627, {0}, 0, 1},
    {32, "0123456j;13,01[8j465]=asw(1);26,26[013458j]=asw(1)", 24, {0}, 0, 1},
    {12, "[01]=asw(1)[23456j89]=asw(1)", 24, {0}, 0, 1},
    {107, "0123;6,01[2435]=asw(3,20,10,0,1);13,[0123456j]=asw(1)", 24, {0}, 0, 1},
    {105, "[01][2345j];7,[0123][456j]", 98361, {0}, 0, 1},
    {10, "[01][23456j89]", 8, {0}, 0, 1},
    {11, "0123456789", 0, {0.2, 0.8, 0, 0, 0}, 1, 1},
    {18, "012346j", 0, {0.5, 0, 0.3, 0, 0}, 1, 1},
    {20, "[01][23456789]", 105, {0}, 0, 1},
    {106, "[01][2345j];8,[0123][456j]", 38693, {0}, 0, 1},
};

static const int LOOKING_GLASS_PRELUDE[][2] = {
    {245, 24}, {230, 5},   {280, 9},  {412, 101}, {400, 102}, {490, 103}, {428, 104}, {760, 32}, {380, 12}, {281, 24},
    {380, 10}, {76, 5},    {200, 107}, {225, 105}, {266, 106}, {380, 24}, {760, 20}, {380, 11}, {760, 24}, {380, 11},
};

#define COUNT_OF(a) ((int)(sizeof(a) / sizeof((a)[0])))
static const Preset PRESETS[] = {
    {TOONS_SCANS, COUNT_OF(TOONS_SCANS), TOONS_PRELUDE, COUNT_OF(TOONS_PRELUDE)},
    {LOOKING_GLASS_SCANS, COUNT_OF(LOOKING_GLASS_SCANS), LOOKING_GLASS_PRELUDE, COUNT_OF(LOOKING_GLASS_PRELUDE)},
};

/* The record of ``hash``, added (generated first from ``parent``) when new; -1 when
 * the tables have no room. */
static int32_t scans_record(Scans *s, uint64_t hash, int32_t parent) {
    size_t p = (size_t)hash & s->mask;
    while (s->slots[p]) {
        int32_t at = s->slots[p] - 1;
        if (s->shared[at].hash == hash) return at;
        p = (p + 1) & s->mask;
    }
    Shared *shared = budget_room(s->nodes->budget, s->shared, &s->scap, s->nshared + 1, 4096, sizeof(Shared));
    if (shared == NULL) return -1;
    s->shared = shared;
    int32_t at = (int32_t)s->nshared++;
    uint16_t depth = parent < 0 ? 0 : s->shared[parent].depth;
    s->shared[at] = (Shared){hash, parent, 0, 0, 0, (uint16_t)(depth + (depth < UINT16_MAX))};
    s->slots[p] = at + 1;
    if (parent >= 0) s->shared[parent].active++; /* fc-solve counts a new child at once */
    if (2 * s->nshared > s->mask) { /* half full: twice the slots, every record placed again */
        size_t slots = 2 * (s->mask + 1);
        int32_t *grown = budget_resize(s->nodes->budget, NULL, 0, slots * sizeof(int32_t));
        if (grown == NULL) return -1;
        memset(grown, 0, slots * sizeof(int32_t));
        budget_free(s->nodes->budget, s->slots, (s->mask + 1) * sizeof(int32_t));
        s->slots = grown;
        s->mask = slots - 1;
        for (size_t k = 0; k < s->nshared; k++) {
            size_t q = (size_t)s->shared[k].hash & s->mask;
            while (s->slots[q]) q = (q + 1) & s->mask;
            s->slots[q] = (int32_t)k + 1;
        }
    }
    return at;
}

/* fc-solve's mark_as_dead_end: the position, then each parent whose children are
 * all dead ends and whose tests were all tried. */
static void scans_mark_dead(Scans *s, int32_t at) {
    s->shared[at].flags |= SHARED_DEAD;
    int32_t p = s->shared[at].parent;
    if (p < 0) return;
    s->shared[p].active--;
    while (s->shared[p].active == 0 && (s->shared[p].flags & SHARED_DONE)) {
        s->shared[p].flags |= SHARED_DEAD;
        p = s->shared[p].parent;
        if (p < 0) break;
        s->shared[p].active--;
    }
}

static int scans_push(Scans *s, Scan *sc, int32_t shared, int32_t node) {
    ScanFrame *frames = budget_room(s->nodes->budget, sc->frames, &sc->fcap, sc->depth + 1, 256, sizeof(ScanFrame));
    if (frames == NULL) return 0;
    sc->frames = frames;
    ScanFrame *f = &sc->frames[sc->depth++];
    f->shared = shared;
    f->node = node;
    f->first = (uint32_t)sc->nkids;
    f->sfirst = (uint32_t)sc->nsteps;
    f->count = f->next = 0;
    f->group = f->test = 0;
    return 1;
}

/* Keeps the children of a meta test (s->meta) as the frame's kids: 0 when no room. */
static int scans_meta_kids(Scans *s, Scan *sc, ScanFrame *f) {
    const MetaList *l = &s->meta;
    Move *steps = budget_room(s->nodes->budget, sc->steps, &sc->stcap, sc->nsteps + l->nsteps, 1024, sizeof(Move));
    if (steps == NULL) return 0;
    sc->steps = steps;
    for (size_t k = 0; k < l->n; k++) {
        const MetaMove *m = &l->items[k]; /* its position hashed as it was made (no autoplay: the scans' own) */
        int32_t at = scans_record(s, m->hash, f->shared);
        if (at < 0) return 0;
        memcpy(sc->steps + sc->nsteps, l->steps + m->first, m->n * sizeof(Move));
        sc->kids[sc->nkids++] = (ScanKid){at, l->steps[m->first + m->n - 1], m->n, (uint32_t)sc->nsteps};
        sc->nsteps += m->n;
    }
    return 1;
}

/* Whether ``card`` goes home by Horne's rule as fc-solve applies it (its
 * calc_foundation_to_put_card_on): building in suit, whenever it can; in alternating
 * colours, when the other colour's foundations are no more than two below it and its
 * own colour's other one no more than three. */
static int scans_safe_home(const Config *cfg, const State *st, int card) {
    if (st->founds[SUIT(card)] != RANK(card)) return 0;
    if (cfg->suit) return 1;
    for (int s = 0; s < 4; s++)
        if (st->founds[s] < RANK(card) - 1 - (is_red(s * 13) == is_red(card))) return 0;
    return 1;
}

/* fc-solve's pruning, -sp r:tf (its raymond_prune): the cards of ``st`` that go home
 * by Horne's rule (scans_safe_home: each column's top in stored order ``o``, then
 * each cell, again until none), played into ``b`` (b->n 0: none goes). */
static void scans_prune_build(const Config *cfg, const State *st, const FcsOrder *o, MetaBuild *b) {
    *b = (MetaBuild){*st, {{0}}, 0, 0};
    for (int moved = 1; moved && !b->bad;) {
        moved = 0;
        for (int p = 0; p < NCOLS; p++) {
            int i = o->order[p], n = b->w.len[i];
            if (n && scans_safe_home(cfg, &b->w, b->w.cards[i][n - 1])) {
                meta_step(cfg, b, mv(COL, i, FOUND, SUIT(b->w.cards[i][n - 1]), 1));
                moved = 1;
            }
        }
        for (int k = 0; k < st->ncells; k++) { /* the cells as they were: emptied in place */
            int card = o->cells[k];
            if (b->w.founds[SUIT(card)] > RANK(card) || !scans_safe_home(cfg, &b->w, card)) continue;
            meta_step(cfg, b, mv(CELL, card, FOUND, SUIT(card), 1));
            moved = 1;
        }
    }
}

/* A depth-first scan's pruning: where cards go home (scans_prune_build), the frame's
 * only child is the position with all of them home, as one meta-move, and no test
 * runs. That child is marked and never pruned itself. 1 when pruned, 0 when no card
 * goes, -1 when the tables have no room. */
static int scans_prune(Scans *s, Scan *sc, ScanFrame *f) {
    MetaBuild b;
    scans_prune_build(&s->cfg, &f->st, &f->order, &b);
    if (b.n == 0 || b.bad) return 0;
    s->meta.n = s->meta.nsteps = 0;
    ScanKid *kids = budget_room(s->nodes->budget, sc->kids, &sc->kcap, sc->nkids + 1, 4096, sizeof(ScanKid));
    if (kids == NULL || !meta_keep(&s->meta, &b, 0)) return -1;
    sc->kids = kids;
    sc->nsteps = f->sfirst;
    f->first = (uint32_t)sc->nkids;
    f->count = 1;
    f->next = 0;
    f->group = (uint8_t)scan_unit(sc, (size_t)(f - sc->frames))->groups.n; /* no test runs here */
    f->test = 0;
    if (!scans_meta_kids(s, sc, f)) return -1;
    s->shared[sc->kids[f->first].shared].flags |= SHARED_PRUNED;
    return 1;
}

/* Appends the children of test ``t`` of the frame's position to the scan's kids,
 * each generated into the collection (recorded, with this position as its parent
 * when new): how many, -1 when the tables have no room. */
static int scans_test_kids(Scans *s, Scan *sc, ScanFrame *f, char t) {
    const State *st = &f->st;
    if ((t >= '2' && t <= '9') || t == 'j') { /* a meta test (meta.c) */
        s->meta.n = s->meta.nsteps = 0;
        if (!meta_moves(&s->cfg, st, &f->order, t, &s->meta)) return -1;
        ScanKid *kids = budget_room(s->nodes->budget, sc->kids, &sc->kcap, sc->nkids + s->meta.n, 4096, sizeof(ScanKid));
        if (kids == NULL) return -1;
        sc->kids = kids;
        return scans_meta_kids(s, sc, f) ? (int)s->meta.n : -1;
    }
    Move moves[MAXMOVES];
    uint64_t colh[NCOLS];
    uint8_t homed[52];
    State child;
    char one[2] = {t, 0};
    int nm = atomic_moves_in(&s->cfg, st, &f->order, one, moves);
    if (nm == 0) return 0; /* most tests of a plain group find nothing: no hashing then */
    ScanKid *kids = budget_room(s->nodes->budget, sc->kids, &sc->kcap, sc->nkids + (size_t)nm, 4096, sizeof(ScanKid));
    if (kids == NULL) return -1;
    sc->kids = kids;
    for (int i = 0; i < NCOLS; i++) colh[i] = column_hash(st->cards[i], st->len[i]);
    for (int k = 0; k < nm; k++) {
        child = *st;
        apply_move(&child, moves[k]);
        autoplay(&s->cfg, &child, homed);
        int32_t at = scans_record(s, child_hash(st, colh, &child, moves[k]), f->shared);
        if (at < 0) return -1;
        sc->kids[sc->nkids++] = (ScanKid){at, moves[k], 0, 0};
    }
    return nm;
}

static int32_t rater_rating(const Rater *r, double initial_under, const Config *cfg, const State *st, int depth);

/* Orders a weighed group's kids as fc-solve does: rated as the A* scans rate
 * (befs_rate_state with the group's weights), then insertion-sorted by rising rating,
 * ties in generation order: the lowest first. 0 when no room. */
static int scans_weigh_kids(Scans *s, Scan *sc, ScanFrame *f, const Rater *r) {
    size_t n = sc->nkids - f->first;
    int32_t local[MAXMOVES]; /* most groups: no allocation */
    int32_t *rating = n <= MAXMOVES ? local : budget_resize(s->nodes->budget, NULL, 0, n * sizeof(int32_t));
    if (rating == NULL) return 0;
    ScanKid *kids = sc->kids + f->first;
    for (size_t k = 0; k < n; k++) {
        State child = f->st;
        if (kids[k].nsteps)
            for (uint32_t j = 0; j < kids[k].nsteps; j++) apply_move(&child, sc->steps[kids[k].steps + j]);
        else
            apply_move(&child, kids[k].move);
        rating[k] = rater_rating(r, sc->initial_under, &s->cfg, &child, s->shared[kids[k].shared].depth);
    }
    for (size_t k = 1; k < n; k++) {
        ScanKid kid = kids[k];
        int32_t x = rating[k];
        size_t at = k;
        for (; at > 0 && x < rating[at - 1]; at--) {
            kids[at] = kids[at - 1];
            rating[at] = rating[at - 1];
        }
        kids[at] = kid;
        rating[at] = x;
    }
    if (rating != local) budget_free(s->nodes->budget, rating, n * sizeof(int32_t));
    return 1;
}

/* Runs the frame's next tests as fc-solve does (the tests order of its depth): a
 * random group's tests all at once, its children shuffled, or a weighed group's,
 * its children sorted by their rating; a plain group's tests one by one until one
 * gives children (or the group ends). 0 when the tables have no room. */
static int scans_generate(Scans *s, Scan *sc, ScanFrame *f) {
    const ScanUnit *unit = scan_unit(sc, (size_t)(f - sc->frames));
    int g = f->group, random = unit->groups.random[g], got = 0;
    const char *tests = unit->groups.tests[g];
    if (g == 0 && f->test == 0) { /* its first tests: the position once for all of them */
        unpack(&s->nodes->items[f->node], &f->st);
        fcs_order(&f->st, &f->order);
        if (sc->prune && !(s->shared[f->shared].flags & SHARED_PRUNED)) {
            int pruned = scans_prune(s, sc, f);
            if (pruned) return pruned > 0;
        }
    }
    sc->nsteps = f->sfirst;
    f->first = (uint32_t)sc->nkids;
    f->next = 0;
    if (random) {
        for (const char *t = tests; *t && got >= 0; t++) got = scans_test_kids(s, sc, f, *t);
        f->group++;
        f->test = 0;
        if (got < 0) return 0;
        int nm = (int)(sc->nkids - f->first);
        ScanKid *kids = sc->kids + f->first;
        if (random == GROUP_WEIGHED) {
            if (!scans_weigh_kids(s, sc, f, &unit->rater[g])) return 0;
        } else {
            for (int i = nm - 1; i > 0; i--) { /* Fisher-Yates with fc-solve's generator, as its random-dfs */
                int j = (int)(fcs_random(&sc->rng) % (uint32_t)(i + 1));
                ScanKid t = kids[i];
                kids[i] = kids[j];
                kids[j] = t;
            }
        }
    } else {
        do {
            got = scans_test_kids(s, sc, f, tests[f->test]);
            if (tests[++f->test] == '\0') {
                f->group++;
                f->test = 0;
                break;
            }
        } while (got == 0);
        if (got < 0) return 0;
    }
    f->count = (uint32_t)(sc->nkids - f->first);
    return 1;
}

/* Reads a depth-first scan's tests orders: "TESTS", then for each of fc-solve's
 * -dto2 ";DEPTH,TESTS" (rising depths, MAX_UNITS orders in all). A group is plain,
 * in brackets (shuffled), or in brackets and weighed by "=asw(...)": any weights
 * but the fourth and sixth (sequences over renegade cards, cards not on parents).
 * 0 when it cannot follow them. */
static int scan_units_parse(const char *tests, ScanUnit *units, int *n) {
    char text[256];
    size_t len = strlen(tests);
    if (len >= sizeof text) return 0;
    memcpy(text, tests, len + 1);
    *n = 0;
    for (char *part = text, *next; part != NULL; part = next) {
        next = strchr(part, ';');
        if (next != NULL) *next++ = '\0';
        if (*n == MAX_UNITS) return 0;
        ScanUnit *u = &units[(*n)++];
        u->min_depth = 0;
        if (*n > 1) { /* "DEPTH," first */
            char *end;
            long depth = strtol(part, &end, 10);
            if (end == part || *end != ',' || depth <= units[*n - 2].min_depth || depth > 65535) return 0;
            u->min_depth = (int)depth;
            part = end + 1;
        }
        if (!parse_test_groups(part, &u->groups)) return 0;
        for (int k = 0; k < u->groups.n; k++) {
            const double *w = u->groups.weights[k];
            if (w[3] != 0 || w[5] != 0) return 0; /* weights this port does not rate by */
        }
    }
    return 1;
}

/* The tests of a tests order up to its first ';' (a bit each, brackets and weights
 * aside). */
static uint32_t first_tests_mask(const char *tests) {
    static const char ALL[] = "0123456789ABCDEj";
    uint32_t mask = 0;
    for (const char *t = tests; *t && *t != ';'; t++) {
        if (*t == '=') { /* a group's =asw(...) or =rand() */
            t = strchr(t, ')');
            if (t == NULL) break;
            continue;
        }
        const char *at = strchr(ALL, *t);
        if (at != NULL) mask |= 1u << (at - ALL);
    }
    return mask;
}

int scans_tests_valid(const char *tests) {
    ScanUnit units[MAX_UNITS];
    int n;
    return scan_units_parse(tests, units, &n);
}

/* Its turn is over; it is held at the caller's pause (it goes on where it was); it
 * ran dry; the search ended (s->out). */
enum { SCAN_PAUSED, SCAN_HELD, SCAN_DRY, SCAN_ENDED };

/* fc-solve's dfs_solve for scan ``t``: until the count reaches the turn's end just
 * after a position is checked, the scan runs dry, or a line is found; or until
 * ``pause_at`` expansions, between two steps. */
static int scans_run(Scans *s, int t, long pause_at, long max_nodes, double deadline) {
    Scan *sc = &s->scans[t];
    uint32_t bit = 1u << t;
    uint8_t homed[52];
    State st;
    while (sc->depth) {
        if (s->out.nodes >= pause_at) return SCAN_HELD;
        ScanFrame *f = &sc->frames[sc->depth - 1];
        if (f->next == f->count) {
            if (f->group == scan_unit(sc, sc->depth - 1)->groups.n) { /* every test tried: a dead end, back up */
                if (sc->complete) {
                    s->shared[f->shared].flags |= SHARED_DONE;
                    scans_mark_dead(s, f->shared);
                }
                sc->nkids = f->first;
                sc->nsteps = f->sfirst;
                sc->depth--;
                continue;
            }
            sc->nkids = f->first;
            if (!scans_generate(s, sc, f)) goto nomem;
            continue;
        }
        const ScanKid kid = sc->kids[f->first + f->next++];
        Shared *c = &s->shared[kid.shared];
        if ((c->flags & SHARED_DEAD) || (c->checked & bit)) continue;
        c->checked |= bit;
        s->checked++;
        st = f->st; /* the frame's position, kept since its first tests */
        int32_t from = f->node;
        for (int j = 0; j + 1 < kid.nsteps; j++) { /* a meta-move's steps but its last: each a node of the line */
            Move m = sc->steps[kid.steps + (uint32_t)j];
            apply_move(&st, m);
            if (add_node(s->nodes, &st, from, m, 0) == NULL) goto nomem;
            from = (int32_t)(s->nodes->n - 1);
        }
        apply_move(&st, kid.move);
        autoplay(&s->cfg, &st, homed);
        if (add_node(s->nodes, &st, from, kid.move, 0) == NULL) goto nomem;
        int32_t here = (int32_t)(s->nodes->n - 1);
        if (sum_founds(&st) == 52) {
            s->checked++; /* fc-solve counts the won position twice: checked, then found won */
            s->out.status = SOLVED;
            s->out.goal = here;
            return SCAN_ENDED;
        }
        if (limit_reached(&s->out, max_nodes, deadline)) return SCAN_ENDED;
        if (!scans_push(s, sc, kid.shared, here)) goto nomem;
        if (s->checked == s->until) return SCAN_PAUSED;
    }
    s->checked++; /* fc-solve counts a scan's end as one more */
    return SCAN_DRY;
nomem:
    s->out.status = no_room(s->nodes->budget);
    return SCAN_ENDED;
}

/* ---- the A* scans: fc-solve's best-first search (its BeFS), rating as it rates ---- */

static const uint8_t FCS_FOUNDATION_SUIT[4] = {1, 3, 2, 0}; /* its foundations H, C, D, S: our suits */
static double SEQ_POWER[105]; /* n ** 1.3 as fc-solve's table holds it: printed to 15 digits, read back */

void scans_init_tables(void) {
    char text[32];
    for (int n = 0; n < 105; n++) {
        snprintf(text, sizeof text, "%.15g", pow(n, 1.3));
        SEQ_POWER[n] = strtod(text, NULL);
    }
}

/* How many cards of ``col`` lie under its top sequence (fc-solve's
 * update_col_cards_under_sequences, from its top card ``d``). */
static int cards_under_sequence(const Config *cfg, const uint8_t *col, int d) {
    while (d > 0 && builds(col[d], col[d - 1], cfg->suit)) d--;
    return d;
}

/* The columns' sum of SEQ_POWER[cards under the top sequence], in fc-solve's column
 * order (a sum of doubles: its order is part of the exact value). */
static double under_sequences(const Config *cfg, const State *st) {
    int order[NCOLS];
    fcs_column_order(st, order);
    double sum = 0;
    for (int a = 0; a < NCOLS; a++) {
        int i = order[a];
        if (st->len[i] > 1) sum += SEQ_POWER[cards_under_sequence(cfg, st->cards[i], st->len[i] - 1)];
    }
    return sum;
}

/* fc-solve's fc_solve_initialize_befs_rater for its six weights ``w`` (ScanSpec's),
 * the root's cards under sequences ``initial_under``. */
static void rater_init(Rater *r, const double *w, double initial_under, const Config *cfg) {
    double sum = 0;
    for (int i = 0; i < 6; i++) sum += w[i]; /* summed in order, as it does */
    if (sum < 1e-6) sum = 1;
    double factor = INT_MAX / sum, out = w[0] * factor / 52, out_sum = 0;
    for (int i = 0; i <= 13; i++, out_sum += out) r->out_rating[i] = out_sum; /* summed, as it does */
    /* the longest run under "--sequence-move limited", at most (Kings-only: none rated) */
    r->run_factor = w[1] * factor / (cfg->kings_only ? 1 : (double)((cfg->ncells + 1) << NCOLS));
    /* fc-solve divides by 0 where every column is one sequence (NaN ratings, an
     * undefined cast): there the term is left out */
    r->under_factor = initial_under > 0 ? w[2] * factor / initial_under : 0;
    r->depth_factor = w[4] * factor / BEFS_MAX_DEPTH;
}

/* fc-solve's befs_rate_state: higher is checked sooner by the A* scans. */
static int32_t rater_rating(const Rater *r, double initial_under, const Config *cfg, const State *st, int depth) {
    double sum = (depth < BEFS_MAX_DEPTH ? BEFS_MAX_DEPTH - depth : 0) * r->depth_factor;
    if (r->out_rating[1] != 0)
        for (int f = 0; f < 4; f++) sum += r->out_rating[st->founds[FCS_FOUNDATION_SUIT[f]]];
    if (r->run_factor != 0 || r->under_factor != 0) {
        int empty = 0;
        for (int i = 0; i < NCOLS; i++) empty += st->len[i] == 0;
        double run = cfg->kings_only ? 0 : (double)((cfg->ncells - st->ncells + 1) << empty);
        /* its three terms summed first, then added (the third, renegade cards, is 0) */
        sum += run * r->run_factor + (initial_under - under_sequences(cfg, st)) * r->under_factor;
    }
    return (int32_t)sum;
}

/* fc-solve's pqueue push: up from the first free place past every lower rating. */
static int astar_push(Scans *s, Scan *sc, AStarItem item) {
    AStarItem *heap = budget_room(s->nodes->budget, sc->heap, &sc->hcap, sc->hn + 2, 4096, sizeof(AStarItem));
    if (heap == NULL) return 0; /* items 1..hn, and room for one more */
    sc->heap = heap;
    size_t i = ++sc->hn;
    while (i > 1 && sc->heap[i / 2].rating < item.rating) {
        sc->heap[i] = sc->heap[i / 2];
        i /= 2;
    }
    sc->heap[i] = item;
    return 1;
}

/* fc-solve's pqueue pop (the top; the last item sifted down from there); the
 * record -1 when the queue is empty. */
static AStarItem astar_pop(Scan *sc) {
    if (sc->hn == 0) return (AStarItem){-1, 0, -1, {0}, 0, 0};
    AStarItem top = sc->heap[1], last = sc->heap[sc->hn--];
    size_t i = 1, child;
    for (; 2 * i <= sc->hn; i = child) {
        child = 2 * i;
        if (child != sc->hn && sc->heap[child + 1].rating > sc->heap[child].rating) child++;
        if (last.rating < sc->heap[child].rating) sc->heap[i] = sc->heap[child];
        else break;
    }
    sc->heap[i] = last;
    return top;
}

/* fc-solve's fc_solve_befs_or_bfs_do_solve for the A* scan ``t``: it checks the
 * best-rated position not checked by it and not a dead end, every test at once,
 * and queues each child rated; until the count reaches the turn's end (the next
 * position kept for the next turn), the queue runs dry, or a line. */
static int astar_run(Scans *s, int t, long pause_at, long max_nodes, double deadline) {
    Scan *sc = &s->scans[t];
    uint32_t bit = 1u << t;
    uint8_t homed[52];
    State st;
    FcsOrder order;
    for (; sc->next.shared >= 0; sc->next = astar_pop(sc)) {
        AStarItem it = sc->next;
        int32_t at = it.shared;
        if (it.from < 0) {
            st = s->root;
        } else {
            unpack(&s->nodes->items[it.from], &st);
            for (uint32_t j = 0; j < it.nsteps; j++) apply_move(&st, sc->apool[it.steps + j]);
            if (!it.nsteps) apply_move(&st, it.move);
            autoplay(&s->cfg, &st, homed);
        }
        /* fc-solve prunes before it looks at the marks: the position checked is then
         * the one with the cards home (marked, never pruned again) */
        MetaBuild pruned = {st, {{0}}, 0, 0};
        if (sc->prune && !(s->shared[at].flags & SHARED_PRUNED)) {
            fcs_order(&st, &order);
            scans_prune_build(&s->cfg, &st, &order, &pruned);
            if (pruned.n > 0 && !pruned.bad) {
                int32_t y = scans_record(s, state_hash(&pruned.w), at);
                if (y < 0) goto nomem;
                s->shared[y].flags |= SHARED_PRUNED;
                at = y;
            } else {
                pruned.n = 0;
            }
        }
        if ((s->shared[at].flags & SHARED_DEAD) || (s->shared[at].checked & bit)) continue;
        if (s->checked == s->until) return SCAN_PAUSED; /* it is checked first next turn */
        if (s->out.nodes >= pause_at) return SCAN_HELD;
        int32_t here = 0;
        if (it.from >= 0) { /* its line: the meta-move's steps, then the pruning's, each a node */
            State w;
            unpack(&s->nodes->items[it.from], &w);
            here = it.from;
            for (uint32_t j = 0; j < (it.nsteps ? it.nsteps : 1); j++) {
                Move m = it.nsteps ? sc->apool[it.steps + j] : it.move;
                apply_move(&w, m);
                if (add_node(s->nodes, &w, here, m, 0) == NULL) goto nomem;
                here = (int32_t)(s->nodes->n - 1);
            }
        }
        for (int j = 0; j < pruned.n; j++) {
            apply_move(&st, pruned.steps[j]);
            if (add_node(s->nodes, &st, here, pruned.steps[j], 0) == NULL) goto nomem;
            here = (int32_t)(s->nodes->n - 1);
        }
        if (sum_founds(&st) == 52) {
            s->checked++;
            s->out.status = SOLVED;
            s->out.goal = here;
            return SCAN_ENDED;
        }
        if (limit_reached(&s->out, max_nodes, deadline)) return SCAN_ENDED;
        fcs_order(&st, &order);
        size_t before = sc->nkids;
        ScanFrame f = {at, here, (uint32_t)before, 0, 0, 0, 0, 0, st, order};
        for (const char *test = sc->astar_tests; *test; test++) /* every test at once */
            if (scans_test_kids(s, sc, &f, *test) < 0) goto nomem;
        size_t nm = sc->nkids - before;
        if (sc->complete) s->shared[at].flags |= SHARED_DONE;
        s->checked++;
        for (size_t k = before; k < sc->nkids; k++) {
            ScanKid kid = sc->kids[k];
            State child = st;
            AStarItem item = {kid.shared, 0, here, kid.move, 0, kid.nsteps};
            if (kid.nsteps) { /* its steps kept as long as the queue */
                Move *pool = budget_room(s->nodes->budget, sc->apool, &sc->apcap, sc->napool + kid.nsteps, 1024, sizeof(Move));
                if (pool == NULL) goto nomem;
                sc->apool = pool;
                item.steps = (uint32_t)sc->napool;
                for (uint32_t j = 0; j < kid.nsteps; j++) {
                    sc->apool[sc->napool++] = sc->steps[kid.steps + j];
                    apply_move(&child, sc->steps[kid.steps + j]);
                }
            } else {
                apply_move(&child, kid.move);
            }
            item.rating = rater_rating(&sc->rater, sc->initial_under, &s->cfg, &child, s->shared[kid.shared].depth);
            if (!astar_push(s, sc, item)) goto nomem;
        }
        sc->nkids = before;
        sc->nsteps = 0;
        s->shared[at].checked |= bit;
        if (nm == 0 && sc->complete) scans_mark_dead(s, at);
    }
    return SCAN_DRY;
nomem:
    s->out.status = no_room(s->nodes->budget);
    return SCAN_ENDED;
}

/* The next turn: the prelude's next one, then each scan in turn for 500. */
static void scans_next_turn(Scans *s) {
    if (s->nscans == 1) { /* one scan: no turns */
        s->current = 0;
        s->until = LONG_MAX;
        return;
    }
    const Preset *p = s->preset;
    if (s->prelude < p->nprelude) {
        int name = p->prelude[s->prelude][1];
        s->until = s->checked + p->prelude[s->prelude++][0];
        for (int t = 0; t < p->nspecs; t++)
            if (p->specs[t].name == name) s->current = t;
    } else {
        s->current = (s->current + 1) % p->nspecs;
        s->until = s->checked + 500;
    }
}

void scans_free(Scans *s) {
    Budget *b = s->nodes->budget;
    for (int t = 0; t < MAX_SCANS; t++) {
        budget_free(b, s->scans[t].apool, s->scans[t].apcap * sizeof(Move));
        s->scans[t].apool = NULL;
        budget_free(b, s->scans[t].frames, s->scans[t].fcap * sizeof(ScanFrame));
        budget_free(b, s->scans[t].kids, s->scans[t].kcap * sizeof(ScanKid));
        budget_free(b, s->scans[t].heap, s->scans[t].hcap * sizeof(AStarItem));
        budget_free(b, s->scans[t].steps, s->scans[t].stcap * sizeof(Move));
        s->scans[t].frames = NULL;
        s->scans[t].kids = NULL;
        s->scans[t].heap = NULL;
        s->scans[t].steps = NULL;
    }
    meta_list_free(&s->meta);
    budget_free(b, s->shared, s->scap * sizeof(Shared));
    budget_free(b, s->slots, (s->mask + 1) * sizeof(int32_t));
    s->shared = NULL;
    s->slots = NULL;
}

int scans_init(Scans *s, const Config *cfg, const State *root, Nodes *nodes, const char *tests, int prune,
                      int seed, int preset) {
    memset(s, 0, sizeof *s);
    s->cfg = *cfg;
    s->nodes = nodes;
    s->meta.budget = nodes->budget;
    s->preset = &PRESETS[preset];
    s->nscans = tests == NULL ? s->preset->nspecs : 1;
    s->one = (ScanSpec){0, tests, seed, {0}, 0, (uint8_t)prune};
    s->out = (Outcome){EXHAUSTED, 0, -1};
    uint8_t homed[52];
    s->root = *root;
    autoplay(&s->cfg, &s->root, homed);
    size_t slots = 1 << 12;
    s->slots = budget_resize(nodes->budget, NULL, 0, slots * sizeof(int32_t));
    if (s->slots == NULL || add_node(nodes, &s->root, -1, mv(-1, -1, -1, -1, 0), 0) == NULL) goto nomem;
    memset(s->slots, 0, slots * sizeof(int32_t));
    s->mask = slots - 1;
    if (scans_record(s, state_hash(&s->root), -1) < 0) goto nomem; /* the root is in the collection, unchecked */
    s->out.nodes = 1;
    if (sum_founds(&s->root) == 52) {
        s->out.status = SOLVED;
        s->out.goal = 0;
        return 1;
    }
    uint32_t all = 0; /* fc-solve's global tests order: what any scan starts with */
    for (int t = 0; t < s->nscans; t++) all |= first_tests_mask(tests == NULL ? s->preset->specs[t].tests : tests);
    for (int t = 0; t < s->nscans; t++) {
        Scan *sc = &s->scans[t];
        const ScanSpec *spec = tests == NULL ? &s->preset->specs[t] : &s->one;
        sc->complete = first_tests_mask(spec->tests) == all;
        sc->astar = spec->astar;
        sc->prune = spec->prune;
        sc->initial_under = under_sequences(&s->cfg, &s->root);
        if (sc->astar) { /* its first position to check: the root (record 0, node 0) */
            sc->astar_tests = spec->tests;
            rater_init(&sc->rater, spec->weights, sc->initial_under, &s->cfg);
            sc->next = (AStarItem){0, 0, -1, {0}, 0, 0};
            continue;
        }
        scan_units_parse(spec->tests, sc->units, &sc->nunits);
        for (int u = 0; u < sc->nunits; u++)
            for (int k = 0; k < sc->units[u].groups.n; k++) {
                rater_init(&sc->units[u].rater[k], sc->units[u].groups.weights[k], sc->initial_under, &s->cfg);
            }
        sc->rng = spec->seed;
        if (!scans_push(s, sc, 0, 0)) goto nomem;
    }
    scans_next_turn(s);
    return 1;
nomem:
    s->out.status = no_room(nodes->budget);
    return 0;
}

int scans_resume(Scans *s, long pause_at, long max_nodes, double deadline) {
    if (s->out.status != EXHAUSTED) return 1;
    while (s->out.nodes < pause_at) {
        Scan *sc = &s->scans[s->current];
        if (sc->finished) {
            scans_next_turn(s);
            continue;
        }
        int r = sc->astar ? astar_run(s, s->current, pause_at, max_nodes, deadline)
                          : scans_run(s, s->current, pause_at, max_nodes, deadline);
        if (r == SCAN_ENDED) return 1;
        if (r == SCAN_HELD) return 0;
        if (r == SCAN_DRY) {
            sc->finished = 1;
            if (++s->finished == s->nscans) return 1; /* every scan ran dry */
        }
        if (s->checked >= s->until) scans_next_turn(s);
    }
    return 0;
}
