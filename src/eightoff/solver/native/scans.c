/* Freecell Solver's soft threads together: the depth-first scans of its preset
 * "toons-for-twenty-somethings" (fc-solve's in-process default here), run by its
 * prelude, over one shared collection of positions with its dead-end marks.
 *
 * dive.c runs one of fc-solve's scans move for move. The preset runs seventeen,
 * by turns of a few thousand positions each ("2800@0,2800@3,1750@0,..."), and they
 * are not independent: every position any scan generates is stored once, with
 *
 * - one "checked" bit per scan (a scan skips what it checked itself, not what the
 *   others did),
 * - the position that generated it first (its parent) and how many of the
 *   positions it generated first are not dead ends yet,
 * - a dead-end mark: set when a scan has tried every test of a position, and
 *   passed up to the parent once all the parent's children are dead and the parent
 *   had every test tried; every scan skips a dead end.
 *
 * So a scan on its second turn skips what another scan finished, and wins where no
 * scan alone would within as many positions (2-cell alternating PySolFC 2286: the
 * preset at 8,961 positions, no scan of it alone by 11,646). This file keeps that
 * collection (a hash table of Shared records, positions told apart by their 64-bit
 * hashes) and the prelude, and counts positions as fc-solve counts them ("states
 * checked"): tests/test_native_scans.py holds the two to the same count on deals
 * won before the prelude's first A* scan, which this file does not run (it stops
 * there: SCANS_END).
 *
 * Part of the _native extension, built as one unit: module.c includes every file
 * (in dependency order), so all functions stay static and inline across files. */

enum { SHARED_DEAD = 1, SHARED_DONE = 2 }; /* fc-solve's FCS_VISITED_DEAD_END, FCS_VISITED_ALL_TESTS_DONE */

/* A position of the shared collection. */
typedef struct {
    uint64_t hash;
    int32_t parent; /* the position that generated it first; -1 for the root */
    int32_t active; /* the positions it generated first that are not dead ends (it may go below 0, as fc-solve's) */
    uint32_t checked; /* bit t: scan t checked it */
    uint8_t flags;
} Shared;

/* A generated child waiting in a frame: its record and the move to it. */
typedef struct {
    int32_t shared;
    Move move;
} ScanKid;

/* A position on a scan's path: its record, its node (the stored position) and its
 * derived list kids[first..first+count); ``group``, ``test``: the next test to run. */
typedef struct {
    int32_t shared, node;
    uint32_t first, count, next;
    uint8_t group, test;
    State st; /* the position and its order, kept for its next tests (made at its first) */
    FcsOrder order;
} ScanFrame;

typedef struct {
    TestGroups groups;
    int64_t rng; /* fc-solve's generator, seeded with the scan's -seed */
    ScanFrame *frames;
    size_t depth, fcap;
    ScanKid *kids;
    size_t nkids, kcap;
    int finished, astar;
} Scan;

/* The preset's scans, in the order it declares them (the index is the scan's
 * checked bit) with its names for the prelude; its two A* scans (names 5 and 7)
 * are not run here. */
typedef struct {
    int name;
    const char *tests;
    int seed;
} ScanSpec;

static const ScanSpec SCAN_SPECS[] = {
    {0, "01ABCDE", 0},        {1, "[01][ABCDE]", 1},   {2, "[01][ABCDE]", 2},   {3, "[01][ABCDE]", 3},
    {4, "01[ABCDE]", 268},    {5, NULL, 0},            {7, NULL, 0},            {8, "[01][ABD][CE]", 1900},
    {9, "[01][ABCDE]", 192},  {10, "[01ABCDE]", 1977}, {11, "[01ABCDE]", 24},   {14, "01EABCD", 0},
    {15, "01BDAEC", 0},       {16, "[01][ABCDE]", 4},  {17, "[01][ABD][CE]", 8}, {18, "01DECAB", 0},
    {19, "[01][ABCDE]", 71},
};
#define NSCANS ((int)(sizeof SCAN_SPECS / sizeof SCAN_SPECS[0]))

/* The prelude up to its first A* scan's turn (5600@7 at 33,600 positions): turns of
 * {positions, scan name}. */
static const int SCAN_PRELUDE[][2] = {
    {2800, 0}, {2800, 3}, {1750, 0}, {3150, 16}, {350, 3},  {700, 0},  {1400, 3}, {2450, 4}, {350, 0},
    {1400, 4}, {700, 16}, {2100, 0}, {350, 3},   {350, 4},  {350, 3},  {1400, 16}, {700, 3}, {700, 4},
    {700, 0},  {700, 3},  {1400, 0}, {1050, 4},  {700, 0},  {350, 3},  {350, 0},  {4550, 18}, {5600, 7},
};
#define NPRELUDE ((int)(sizeof SCAN_PRELUDE / sizeof SCAN_PRELUDE[0]))
#define SCANS_END 33600 /* where the prelude reaches an A* scan: the scans stop there */

typedef struct {
    Config cfg;
    State root;
    Nodes *nodes;
    Shared *shared;
    size_t nshared, scap;
    int32_t *slots; /* the collection's hash table: record index + 1, 0 free */
    size_t mask;
    Scan scans[NSCANS];
    int current, prelude, finished;
    long checked, until; /* fc-solve's count of states checked; the current turn ends there */
    Outcome out;
} Scans;

/* The record of ``hash``, added (generated first from ``parent``) when new; -1 when
 * the tables have no room. */
static int32_t scans_record(Scans *s, uint64_t hash, int32_t parent) {
    size_t p = (size_t)hash & s->mask;
    while (s->slots[p]) {
        int32_t at = s->slots[p] - 1;
        if (s->shared[at].hash == hash) return at;
        p = (p + 1) & s->mask;
    }
    if (s->nshared == s->scap) {
        size_t cap = s->scap ? 2 * s->scap : 4096;
        Shared *more = budget_resize(s->nodes->budget, s->shared, s->scap * sizeof(Shared), cap * sizeof(Shared));
        if (more == NULL) return -1;
        s->shared = more;
        s->scap = cap;
    }
    int32_t at = (int32_t)s->nshared++;
    s->shared[at] = (Shared){hash, parent, 0, 0, 0};
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
    if (sc->depth == sc->fcap) {
        size_t cap = sc->fcap ? 2 * sc->fcap : 256;
        ScanFrame *more = budget_resize(s->nodes->budget, sc->frames, sc->fcap * sizeof(ScanFrame),
                                        cap * sizeof(ScanFrame));
        if (more == NULL) return 0;
        sc->frames = more;
        sc->fcap = cap;
    }
    ScanFrame *f = &sc->frames[sc->depth++];
    f->shared = shared;
    f->node = node;
    f->first = (uint32_t)sc->nkids;
    f->count = f->next = 0;
    f->group = f->test = 0;
    return 1;
}

/* Runs the frame's next tests as fc-solve does: a random group's tests all at once,
 * its children shuffled; a plain group's tests one by one until one gives children
 * (or the group ends). Each child is generated into the collection (recorded, with
 * this position as its parent when new). 0 when the tables have no room. */
static int scans_generate(Scans *s, Scan *sc, ScanFrame *f) {
    Move moves[MAXMOVES];
    uint64_t colh[NCOLS];
    State child;
    uint8_t homed[52];
    int g = f->group, random = sc->groups.random[g], nm = 0;
    const char *tests = sc->groups.tests[g];
    const State *st = &f->st;
    if (g == 0 && f->test == 0) { /* its first tests: the position once for all of them */
        unpack(&s->nodes->items[f->node], &f->st);
        fcs_order(&f->st, &f->order);
    }
    if (random) {
        nm = atomic_moves_in(&s->cfg, st, &f->order, tests, moves);
        f->group++;
        f->test = 0;
        for (int i = nm - 1; i > 0; i--) { /* Fisher-Yates with fc-solve's generator, as its random-dfs */
            int j = (int)(fcs_random(&sc->rng) % (uint32_t)(i + 1));
            Move t = moves[i];
            moves[i] = moves[j];
            moves[j] = t;
        }
    } else {
        char one[2] = {0, 0};
        do {
            one[0] = tests[f->test];
            nm = atomic_moves_in(&s->cfg, st, &f->order, one, moves);
            if (tests[++f->test] == '\0') {
                f->group++;
                f->test = 0;
                break;
            }
        } while (nm == 0);
    }
    while (sc->nkids + (size_t)nm > sc->kcap) {
        size_t cap = sc->kcap ? 2 * sc->kcap : 4096;
        ScanKid *more = budget_resize(s->nodes->budget, sc->kids, sc->kcap * sizeof(ScanKid), cap * sizeof(ScanKid));
        if (more == NULL) return 0;
        sc->kids = more;
        sc->kcap = cap;
    }
    if (nm > 0) /* most calls of a plain group find nothing: no hashing then */
        for (int i = 0; i < NCOLS; i++) colh[i] = column_hash(st->cards[i], st->len[i]);
    f->first = (uint32_t)sc->nkids;
    f->count = (uint32_t)nm;
    f->next = 0;
    for (int k = 0; k < nm; k++) {
        child = *st;
        apply_move(&child, moves[k]);
        autoplay(&s->cfg, &child, homed);
        int32_t at = scans_record(s, child_hash(st, colh, &child, moves[k]), f->shared);
        if (at < 0) return 0;
        sc->kids[sc->nkids++] = (ScanKid){at, moves[k]};
    }
    return 1;
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
            if (f->group == sc->groups.n) { /* every test tried: a dead end, back up */
                s->shared[f->shared].flags |= SHARED_DONE;
                scans_mark_dead(s, f->shared);
                sc->nkids = f->first;
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
        apply_move(&st, kid.move);
        autoplay(&s->cfg, &st, homed);
        if (add_node(s->nodes, &st, f->node, kid.move, 0) == NULL) goto nomem;
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

/* The next turn: the prelude's next one, then each scan in turn for 500. */
static void scans_next_turn(Scans *s) {
    if (s->prelude < NPRELUDE) {
        int name = SCAN_PRELUDE[s->prelude][1];
        s->until = s->checked + SCAN_PRELUDE[s->prelude++][0];
        for (int t = 0; t < NSCANS; t++)
            if (SCAN_SPECS[t].name == name) s->current = t;
    } else {
        s->current = (s->current + 1) % NSCANS;
        s->until = s->checked + 500;
    }
}

static void scans_free(Scans *s) {
    Budget *b = s->nodes->budget;
    for (int t = 0; t < NSCANS; t++) {
        budget_free(b, s->scans[t].frames, s->scans[t].fcap * sizeof(ScanFrame));
        budget_free(b, s->scans[t].kids, s->scans[t].kcap * sizeof(ScanKid));
        s->scans[t].frames = NULL;
        s->scans[t].kids = NULL;
    }
    budget_free(b, s->shared, s->scap * sizeof(Shared));
    budget_free(b, s->slots, (s->mask + 1) * sizeof(int32_t));
    s->shared = NULL;
    s->slots = NULL;
}

/* Sets up the scans from ``root`` (``cfg`` as the caller gives it: fc-solve's scans
 * send no card home themselves, AUTO_NONE). 0 when the tables have no room. */
static int scans_init(Scans *s, const Config *cfg, const State *root, Nodes *nodes) {
    memset(s, 0, sizeof *s);
    s->cfg = *cfg;
    s->nodes = nodes;
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
    for (int t = 0; t < NSCANS; t++) {
        Scan *sc = &s->scans[t];
        sc->astar = SCAN_SPECS[t].tests == NULL;
        if (sc->astar) continue;
        parse_test_groups(SCAN_SPECS[t].tests, &sc->groups);
        sc->rng = SCAN_SPECS[t].seed;
        if (!scans_push(s, sc, 0, 0)) goto nomem;
    }
    scans_next_turn(s);
    return 1;
nomem:
    s->out.status = no_room(nodes->budget);
    return 0;
}

/* Runs the scans until ``pause_at`` expansions (0 returned: paused), a line, the
 * node or time limit, no room, every scan dry, or the prelude's first A* turn (1
 * returned, the status in s->out: EXHAUSTED for the last two, which prove nothing). */
static int scans_resume(Scans *s, long pause_at, long max_nodes, double deadline) {
    if (s->out.status != EXHAUSTED || s->checked >= SCANS_END) return 1;
    while (s->out.nodes < pause_at) {
        Scan *sc = &s->scans[s->current];
        if (sc->astar) return 1; /* the A* scans are not run: the scans end here */
        if (sc->finished) {
            scans_next_turn(s);
            continue;
        }
        int r = scans_run(s, s->current, pause_at, max_nodes, deadline);
        if (r == SCAN_ENDED) return 1;
        if (r == SCAN_HELD) return 0;
        if (r == SCAN_DRY) {
            sc->finished = 1;
            if (++s->finished == NSCANS - 2) return 1; /* every depth-first scan ran dry */
        }
        if (s->checked >= s->until) scans_next_turn(s);
        if (s->checked >= SCANS_END) return 1;
    }
    return 0;
}
