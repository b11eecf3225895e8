/* The helpers' one interface (see helper.h) over their four searches. */
#include "helper.h"

static size_t search_size(HelperKind kind) {
    switch (kind) {
    case HELPER_GREEDY: return sizeof(BestFirst);
    case HELPER_DIVE: return sizeof(Dive);
    case HELPER_SCANS: return sizeof(Scans);
    default: return sizeof(Exhaust);
    }
}

void helper_init(Helper *h, HelperKind kind, const Config *cfg, const State *root, Budget *shared, size_t share) {
    h->kind = kind;
    h->cfg = *cfg;
    h->root = *root;
    h->budget = (Budget){0, share, 0};
    h->nodes = (Nodes){NULL, 0, 0, shared != NULL ? shared : &h->budget};
}

int helper_start(Helper *h, const HelperStart *how) {
    h->state = HELPER_RUNNING;
    h->search.any = calloc(1, search_size(h->kind));
    if (h->search.any == NULL) return 0;
    switch (h->kind) {
    case HELPER_GREEDY: return bf_init(h->search.bf, &h->cfg, &h->root, &h->nodes);
    case HELPER_DIVE:
        return dive_init(h->search.dive, &h->cfg, &h->root, &h->nodes, how->seed, how->noise, how->rank, NULL);
    case HELPER_SCANS: return scans_init(h->search.scans, &h->cfg, &h->root, &h->nodes, how->tests, 0, 0, how->preset);
    default: return ex_init(h->search.ex, &h->cfg, &h->root, &h->nodes);
    }
}

int helper_resume(Helper *h, long pause_at, long max_nodes, double deadline) {
    switch (h->kind) {
    case HELPER_GREEDY: return bf_run(h->search.bf, pause_at, max_nodes, deadline);
    case HELPER_DIVE: return dive_run(h->search.dive, pause_at, max_nodes, deadline);
    case HELPER_SCANS: return scans_resume(h->search.scans, pause_at, max_nodes, deadline);
    default: return ex_run(h->search.ex, &h->root, pause_at, max_nodes, deadline);
    }
}

const Outcome *helper_outcome(const Helper *h) {
    static const Outcome no_search = {NOMEM, 0, -1}; /* its search could not be allocated */
    if (!helper_started(h)) return &no_search;
    switch (h->kind) {
    case HELPER_GREEDY: return &h->search.bf->out;
    case HELPER_DIVE: return &h->search.dive->out;
    case HELPER_SCANS: return &h->search.scans->out;
    default: return &h->search.ex->out;
    }
}

long helper_nodes(const Helper *h) { return h->released + (helper_started(h) ? helper_outcome(h)->nodes : 0); }

void helper_release(Helper *h, HelperState after) {
    if (!helper_started(h)) {
        if (h->state == HELPER_RUNNING) h->state = after; /* its search could not be allocated */
        return;
    }
    int won = helper_outcome(h)->status == SOLVED;
    h->released += helper_outcome(h)->nodes;
    switch (h->kind) {
    case HELPER_GREEDY: bf_free(h->search.bf); break;
    case HELPER_DIVE: dive_free(h->search.dive); break;
    case HELPER_SCANS: scans_free(h->search.scans); break;
    default: ex_free(h->search.ex); break;
    }
    free(h->search.any);
    h->search.any = NULL;
    if (!won) nodes_free(&h->nodes);
    h->state = after;
}

void helper_free(Helper *h) {
    helper_release(h, HELPER_STOPPED);
    nodes_free(&h->nodes);
}
