/*
 * The compiled kernel of amigos.academy.two_ended: the same fail-soft alpha-beta with a
 * transposition table as TwoEndedSolver's pure-Python search, move for move.
 *
 * Why it mirrors the Python search exactly instead of being a different, faster algorithm:
 * node budgets (the hard bot's, the Academy's 800,000) are counted in nodes, and an answer
 * must be the same on every machine, with or without a compiler. So this kernel visits the
 * same nodes in the same order, stores the same bounds and the same best tile, and counts
 * nodes the same way; the tests compare values and node counts with the Python search.
 * The speed comes from C itself: hands are 64-bit masks, a table entry is 32 bytes (48 for four
 * hands of double-nine; a Python dict entry was about 190), probes read 4-byte tags, and there
 * are no interpreter calls per node.
 *
 * Interface (see _two_ended_kernel.pyi): Kernel(players, suit_masks, halves, pips, rank,
 * scoring, tie_winner, horizon, estimate); kernel.search(hands, a, b, seat, alpha, beta, nodes, budget)
 * -> (value or None when the budget ran out, nodes counted so far).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define KERNEL_INFINITY 1000000
#define MAX_TILES 64
#define MAX_SUITS 16
#define SCORING_LOSERS 0
#define SCORING_ALL 1
#define SCORING_HANDS 2
/* The horizon's estimate: as many weights as two_ended.py's ESTIMATE_FEATURES, then `lowest`. */
#define ESTIMATE_FEATURES 15

/* What the table keeps of a position besides its key. */
typedef struct {
    int32_t lower;
    int32_t upper;
    int8_t best;
    uint8_t a;
    uint8_t b;
    uint8_t seat;
} Info;

typedef struct {
    PyObject_HEAD
    int players;
    int tile_count;
    int scoring;
    int tie_winner; /* -1: a tied block scores nothing */
    int horizon;    /* 0: exact; else a play leaving at most this many tiles in the hands is estimated */
    int weights[ESTIMATE_FEATURES]; /* HorizonEstimate.weights, in ten-thousandths */
    int lowest;                     /* HorizonEstimate.lowest */
    uint64_t doubles;               /* the mask of the doubles */
    uint64_t suits[MAX_SUITS];
    int high[MAX_TILES];
    int low[MAX_TILES];
    int pips[MAX_TILES];
    int rank[MAX_TILES];
    /* Open addressing: tags[i] is 0 for an empty slot, else 32 bits of the position's hash, so a
     * probe reads 4 bytes per slot and touches a slot's key only when its tag matches. A slot is
     * the key (`width` words: the hands, two to a word when they fit in 32 bits) then its Info:
     * 32 bytes for double-six or one-against-one, 48 for four hands of double-nine. */
    uint32_t *tags;
    unsigned char *slots;
    int width;
    size_t stride;
    size_t capacity; /* a power of two */
    size_t used;
    uint64_t generation; /* bumped when the table grows: slot numbers change */
    int64_t nodes;
    int64_t budget;
    int exceeded;
} Kernel;

static void make_key(const Kernel *k, const uint64_t *hands, uint64_t *key) {
    if (k->width == 4) {
        memcpy(key, hands, 4 * sizeof(uint64_t));
    } else if (k->players == 4) {
        key[0] = hands[0] | hands[1] << 32;
        key[1] = hands[2] | hands[3] << 32;
    } else {
        key[0] = hands[0];
        key[1] = hands[1];
    }
}

static uint64_t *slot_key(const Kernel *k, size_t i) {
    return (uint64_t *)(k->slots + i * k->stride);
}

static Info *slot_info(const Kernel *k, size_t i) {
    return (Info *)(k->slots + i * k->stride + (size_t)k->width * sizeof(uint64_t));
}

static uint64_t entry_hash(const Kernel *k, const uint64_t *key, int a, int b, int seat) {
    uint64_t h = (uint64_t)((a << 6) | (b << 2) | seat) * 0x9E3779B97F4A7C15ULL;
    h ^= key[0] * 0xBF58476D1CE4E5B9ULL;
    h ^= (key[1] ^ (key[1] >> 29)) * 0x94D049BB133111EBULL;
    if (k->width == 4) {
        h ^= (key[2] ^ (key[2] >> 31)) * 0xD6E8FEB86659FD93ULL;
        h ^= (key[3] ^ (key[3] >> 27)) * 0xA0761D6478BD642FULL;
    }
    h ^= h >> 32;
    h *= 0xE7037ED1A0B428DBULL;
    h ^= h >> 29;
    return h;
}

static uint32_t tag_of(uint64_t hash) {
    return (uint32_t)(hash >> 32) | 1u;
}

/* The slot of a position: its entry's, or the empty slot where it would go. */
static size_t table_slot(const Kernel *k, const uint64_t *key, int a, int b, int seat, uint64_t hash) {
    size_t mask = k->capacity - 1;
    size_t i = (size_t)hash & mask;
    uint32_t tag = tag_of(hash);
    for (;;) {
        uint32_t here = k->tags[i];
        if (here == 0)
            return i;
        if (here == tag) {
            const uint64_t *other = slot_key(k, i);
            const Info *info = slot_info(k, i);
            if (info->a == a && info->b == b && info->seat == seat && other[0] == key[0] && other[1] == key[1] &&
                (k->width == 2 || (other[2] == key[2] && other[3] == key[3])))
                return i;
        }
        i = (i + 1) & mask;
    }
}

static int table_grow(Kernel *k) {
    size_t old_capacity = k->capacity;
    unsigned char *old = k->slots;
    uint32_t *old_tags = k->tags;
    size_t capacity = old_capacity ? old_capacity * 2 : (size_t)1 << 16;
    unsigned char *fresh = malloc(capacity * k->stride);
    uint32_t *tags = calloc(capacity, sizeof(uint32_t));
    if (fresh == NULL || tags == NULL) {
        free(fresh);
        free(tags);
        return -1;
    }
    k->slots = fresh;
    k->tags = tags;
    k->capacity = capacity;
    k->generation++;
    for (size_t i = 0; i < old_capacity; i++) {
        if (old_tags[i]) {
            const uint64_t *key = (const uint64_t *)(old + i * k->stride);
            const Info *info = (const Info *)(old + i * k->stride + (size_t)k->width * sizeof(uint64_t));
            uint64_t hash = entry_hash(k, key, info->a, info->b, info->seat);
            size_t j = table_slot(k, key, info->a, info->b, info->seat, hash);
            tags[j] = old_tags[i];
            memcpy(fresh + j * k->stride, old + i * k->stride, k->stride);
        }
    }
    free(old);
    free(old_tags);
    return 0;
}

/* Claim the slot of a new position (the caller checked it is empty): the table then holds one
 * entry per position searched, like the Python search's dict. */
static void table_claim(Kernel *k, size_t i, const uint64_t *key, int a, int b, int seat, uint64_t hash) {
    Info *info = slot_info(k, i);
    k->tags[i] = tag_of(hash);
    memcpy(slot_key(k, i), key, (size_t)k->width * sizeof(uint64_t));
    info->a = (uint8_t)a;
    info->b = (uint8_t)b;
    info->seat = (uint8_t)seat;
    k->used++;
}

static int pip_sum(const Kernel *k, uint64_t mask) {
    int total = 0;
    while (mask) {
        total += k->pips[__builtin_ctzll(mask)];
        mask &= mask - 1;
    }
    return total;
}

static void side_pips(const Kernel *k, const uint64_t *hands, int seat, int *mine, int *theirs) {
    uint64_t even = hands[0] | hands[2];
    uint64_t odd = hands[1] | hands[3];
    int e = pip_sum(k, even), o = pip_sum(k, odd);
    if (seat & 1) {
        *mine = o;
        *theirs = e;
    } else {
        *mine = e;
        *theirs = o;
    }
}

static int domino_award(const Kernel *k, int mine, int theirs) {
    if (k->scoring == SCORING_HANDS)
        return 1;
    return k->scoring == SCORING_ALL ? theirs + mine : theirs;
}

static int block_award(const Kernel *k, int mine, int theirs, int seat) {
    int won, award;
    if (k->scoring == SCORING_HANDS)
        return 0;
    if (mine == theirs) {
        if (k->tie_winner < 0)
            return 0;
        won = k->tie_winner == (seat & 1);
    } else {
        won = mine < theirs;
    }
    award = k->scoring == SCORING_ALL ? mine + theirs : (won ? theirs : mine);
    return won ? award : -award;
}

static int floor_div(int x, int d) {
    int q = x / d;
    return (x % d != 0 && (x < 0) != (d < 0)) ? q - 1 : q;
}

/* TwoEndedSolver.estimate: the expected award for `seat`'s side, `seat` having just played and left
 * the ends a and b; the features in the order of two_ended.py's ESTIMATE_FEATURES. */
static int estimate(const Kernel *k, const uint64_t *hands, int seat, int a, int b) {
    int mine, theirs;
    int players = k->players;
    uint64_t fit = k->suits[a] | k->suits[b];
    uint64_t own = hands[seat];
    uint64_t following = hands[(seat + 1) % players];
    uint64_t partner = players == 4 ? hands[(seat + 2) % 4] : 0;
    uint64_t other = players == 4 ? hands[(seat + 3) % 4] : 0;
    int c_own = __builtin_popcountll(own), c_partner = __builtin_popcountll(partner);
    int c_next = __builtin_popcountll(following), c_other = __builtin_popcountll(other);
    int f_next = __builtin_popcountll(following & fit), f_other = __builtin_popcountll(other & fit);
    int f_partner = __builtin_popcountll(partner & fit), f_own = __builtin_popcountll(own & fit);
    int own_side = c_own, other_side = c_next;
    if (players == 4) {
        if (c_partner < own_side)
            own_side = c_partner;
        if (c_other < other_side)
            other_side = c_other;
    }
    side_pips(k, hands, seat, &mine, &theirs);
    int features[ESTIMATE_FEATURES] = {
        1,
        other_side - own_side,
        f_next > 0,
        f_other > 0,
        f_partner > 0,
        f_own > 0,
        f_next,
        f_other,
        f_partner,
        f_own,
        c_own - c_next,
        c_partner - c_other,
        theirs - mine,
        k->tie_winner >= 0 && k->tie_winner == (seat & 1),
        __builtin_popcountll((own | partner) & k->doubles) - __builtin_popcountll((following | other) & k->doubles),
    };
    int chance = 0;
    for (int i = 0; i < ESTIMATE_FEATURES; i++)
        chance += k->weights[i] * features[i];
    if (chance < k->lowest)
        chance = k->lowest;
    if (chance > 10000 - k->lowest)
        chance = 10000 - k->lowest;
    return floor_div(chance * theirs - (10000 - chance) * mine, 10000);
}

typedef struct {
    int8_t tile;
    uint8_t a;
    uint8_t b;
} Candidate;

/* The plays of `fitting` on ends a <= b in the Python search's order: tiles by rank (heavier
 * first, doubles first among equals), each tile's play on `a` before its play on `b`. */
static int ordered(const Kernel *k, uint64_t fitting, int a, int b, Candidate *out) {
    int tiles[MAX_TILES];
    int count = 0, n = 0;
    while (fitting) {
        int t = __builtin_ctzll(fitting);
        fitting &= fitting - 1;
        int j = count++;
        while (j > 0 && k->rank[tiles[j - 1]] > k->rank[t]) {
            tiles[j] = tiles[j - 1];
            j--;
        }
        tiles[j] = t;
    }
    for (int i = 0; i < count; i++) {
        int t = tiles[i], x = k->high[t], y = k->low[t];
        int first = n;
        if (x == a || y == a) {
            int other = x == a ? y : x;
            out[n].tile = (int8_t)t;
            out[n].a = (uint8_t)(other <= b ? other : b);
            out[n].b = (uint8_t)(other <= b ? b : other);
            n++;
        }
        if (a != b && (x == b || y == b)) {
            int other = x == b ? y : x;
            uint8_t na = (uint8_t)(other <= a ? other : a), nb = (uint8_t)(other <= a ? a : other);
            if (n == first || out[n - 1].a != na || out[n - 1].b != nb) {
                out[n].tile = (int8_t)t;
                out[n].a = na;
                out[n].b = nb;
                n++;
            }
        }
    }
    return n;
}

/* Store what a search proved at `slot` (found again if the table grew meanwhile). The table grows
 * before a lookup, never here, so this never allocates. */
static void table_store(Kernel *k, size_t slot, uint64_t generation, int found, const uint64_t *key, int a,
                        int b, int seat, uint64_t hash, int lower, int upper, int best) {
    if (generation != k->generation)
        slot = table_slot(k, key, a, b, seat, hash);
    else if (!found && k->tags[slot] != 0)
        slot = table_slot(k, key, a, b, seat, hash); /* a child took the empty slot we saw */
    if (k->tags[slot] == 0)
        table_claim(k, slot, key, a, b, seat, hash);
    Info *info = slot_info(k, slot);
    info->lower = lower;
    info->upper = upper;
    info->best = (int8_t)best;
}

static int search(Kernel *k, uint64_t *hands, uint64_t remaining, int a, int b, int seat, int alpha, int beta) {
    if (++k->nodes > k->budget) {
        k->exceeded = 1;
        return 0;
    }
    if ((k->used + 1) * 2 > k->capacity && table_grow(k) < 0) {
        k->exceeded = -1;
        return 0;
    }
    uint64_t key[4];
    make_key(k, hands, key);
    uint64_t hash = entry_hash(k, key, a, b, seat);
    size_t slot = table_slot(k, key, a, b, seat, hash);
    uint64_t generation = k->generation;
    int found = k->tags[slot] != 0;
    if (!found)
        __builtin_prefetch(slot_key(k, slot), 1, 1); /* written when this node is done */
    int lower = -KERNEL_INFINITY, upper = KERNEL_INFINITY, best_first = -1;
    if (found) {
        const Info *entry = slot_info(k, slot);
        lower = entry->lower;
        upper = entry->upper;
        best_first = entry->best;
        if (lower >= beta)
            return lower;
        if (upper <= alpha)
            return upper;
        if (lower == upper)
            return lower;
        if (lower > alpha)
            alpha = lower;
        if (upper < beta)
            beta = upper;
    }
    uint64_t hand = hands[seat];
    uint64_t fitting = hand & (k->suits[a] | k->suits[b]);
    int following = seat + 1 < k->players ? seat + 1 : 0;
    if (!fitting) {
        int value = -search(k, hands, remaining, a, b, following, -beta, -alpha);
        if (k->exceeded)
            return 0;
        int best_tile = best_first; /* a pass keeps the tile an earlier visit found */
        if (value <= alpha)
            upper = upper < value ? upper : value;
        else if (value >= beta)
            lower = lower > value ? lower : value;
        else
            lower = upper = value;
        table_store(k, slot, generation, found, key, a, b, seat, hash, lower, upper, best_tile);
        return value;
    }
    Candidate candidates[2 * MAX_TILES];
    int n = ordered(k, fitting, a, b, candidates);
    if (best_first >= 0 && n > 1 && candidates[0].tile != best_first) {
        Candidate moved[2 * MAX_TILES];
        int m = 0;
        for (int i = 0; i < n; i++)
            if (candidates[i].tile == best_first)
                moved[m++] = candidates[i];
        for (int i = 0; i < n; i++)
            if (candidates[i].tile != best_first)
                moved[m++] = candidates[i];
        memcpy(candidates, moved, sizeof(Candidate) * (size_t)n);
    }
    int best = -KERNEL_INFINITY, best_tile = -1, window_alpha = alpha;
    for (int i = 0; i < n; i++) {
        int t = candidates[i].tile, na = candidates[i].a, nb = candidates[i].b;
        uint64_t bit = 1ULL << t;
        int score, mine, theirs;
        hands[seat] = hand ^ bit;
        if (hand == bit) {
            side_pips(k, hands, seat, &mine, &theirs);
            score = domino_award(k, mine, theirs);
        } else {
            uint64_t left = remaining ^ bit;
            if (left & (k->suits[na] | k->suits[nb])) {
                if (k->horizon && __builtin_popcountll(left) <= k->horizon) {
                    score = estimate(k, hands, seat, na, nb);
                } else {
                    score = -search(k, hands, left, na, nb, following, -beta, -window_alpha);
                    if (k->exceeded) {
                        hands[seat] = hand;
                        return 0;
                    }
                }
            } else {
                side_pips(k, hands, seat, &mine, &theirs);
                score = block_award(k, mine, theirs, seat);
            }
        }
        hands[seat] = hand;
        if (score > best) {
            best = score;
            best_tile = t;
            if (score > window_alpha) {
                window_alpha = score;
                if (window_alpha >= beta)
                    break;
            }
        }
    }
    if (best <= alpha)
        upper = best < upper ? best : upper;
    else if (best >= beta)
        lower = best > lower ? best : lower;
    else
        lower = upper = best;
    table_store(k, slot, generation, found, key, a, b, seat, hash, lower, upper, best_tile);
    return best;
}

static int read_ints(PyObject *sequence, int *out, int limit, const char *what) {
    PyObject *fast = PySequence_Fast(sequence, what);
    if (fast == NULL)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > limit) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: at most %d items", what, limit);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long value = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (value == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        out[i] = (int)value;
    }
    Py_DECREF(fast);
    return (int)n;
}

static int Kernel_init(Kernel *self, PyObject *args, PyObject *kwargs) {
    static char *keywords[] = {"players", "suit_masks", "halves", "pips", "rank", "scoring", "tie_winner",
                               "horizon", "estimate", NULL};
    int players, scoring, tie_winner, horizon;
    PyObject *suit_masks, *halves, *pips, *rank, *estimate_weights;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "iOOOOiiiO", keywords, &players, &suit_masks, &halves, &pips,
                                     &rank, &scoring, &tie_winner, &horizon, &estimate_weights))
        return -1;
    /* The HorizonEstimate (its weights, then `lowest`): two_ended.py always passes its solver's. */
    int given[ESTIMATE_FEATURES + 1];
    if (read_ints(estimate_weights, given, ESTIMATE_FEATURES + 1, "estimate") != ESTIMATE_FEATURES + 1) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "estimate: one weight per feature, then lowest");
        return -1;
    }
    memcpy(self->weights, given, sizeof(self->weights));
    self->lowest = given[ESTIMATE_FEATURES];
    if (players != 2 && players != 4) {
        PyErr_SetString(PyExc_ValueError, "two-ended search supports 2 or 4 seats");
        return -1;
    }
    if (scoring < SCORING_LOSERS || scoring > SCORING_HANDS) {
        PyErr_SetString(PyExc_ValueError, "unknown scoring");
        return -1;
    }
    self->players = players;
    self->scoring = scoring;
    self->tie_winner = tie_winner;
    self->horizon = horizon;
    PyObject *fast = PySequence_Fast(suit_masks, "suit_masks");
    if (fast == NULL)
        return -1;
    Py_ssize_t suits = PySequence_Fast_GET_SIZE(fast);
    if (suits > MAX_SUITS) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "too many suits");
        return -1;
    }
    memset(self->suits, 0, sizeof(self->suits));
    for (Py_ssize_t i = 0; i < suits; i++) {
        unsigned long long mask = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(fast, i));
        if (PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        self->suits[i] = mask;
    }
    Py_DECREF(fast);
    int flat[2 * MAX_TILES];
    PyObject *pairs = PySequence_Fast(halves, "halves");
    if (pairs == NULL)
        return -1;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(pairs);
    if (count > MAX_TILES - 1) {
        Py_DECREF(pairs);
        PyErr_SetString(PyExc_ValueError, "too many tiles");
        return -1;
    }
    self->doubles = 0;
    for (Py_ssize_t i = 0; i < count; i++) {
        if (read_ints(PySequence_Fast_GET_ITEM(pairs, i), flat + 2 * i, 2, "halves") != 2) {
            Py_DECREF(pairs);
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "a tile has two halves");
            return -1;
        }
        self->high[i] = flat[2 * i];
        self->low[i] = flat[2 * i + 1];
        if (self->high[i] == self->low[i])
            self->doubles |= 1ULL << i;
    }
    Py_DECREF(pairs);
    self->tile_count = (int)count;
    if (read_ints(pips, self->pips, MAX_TILES, "pips") != count ||
        read_ints(rank, self->rank, MAX_TILES, "rank") != count) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "one pip count and one rank per tile");
        return -1;
    }
    free(self->slots);
    free(self->tags);
    self->slots = NULL;
    self->tags = NULL;
    self->capacity = 0;
    self->used = 0;
    self->width = (self->tile_count <= 32 || players == 2) ? 2 : 4;
    self->stride = (size_t)self->width * sizeof(uint64_t) + sizeof(Info);
    self->stride = (self->stride + 15) & ~(size_t)15; /* 32 or 48 bytes */
    if (table_grow(self) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static void Kernel_dealloc(Kernel *self) {
    free(self->slots);
    free(self->tags);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Kernel_search(Kernel *self, PyObject *args) {
    PyObject *hand_tuple;
    int a, b, seat, alpha, beta;
    long long nodes, budget;
    if (!PyArg_ParseTuple(args, "OiiiiiLL", &hand_tuple, &a, &b, &seat, &alpha, &beta, &nodes, &budget))
        return NULL;
    if (self->slots == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "kernel not initialised");
        return NULL;
    }
    uint64_t hands[4] = {0, 0, 0, 0};
    PyObject *fast = PySequence_Fast(hand_tuple, "hands");
    if (fast == NULL)
        return NULL;
    if (PySequence_Fast_GET_SIZE(fast) != self->players) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "one hand per seat");
        return NULL;
    }
    uint64_t remaining = 0;
    for (int i = 0; i < self->players; i++) {
        hands[i] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(fast, i));
        if (PyErr_Occurred()) {
            Py_DECREF(fast);
            return NULL;
        }
        remaining |= hands[i];
    }
    Py_DECREF(fast);
    if (a < 0 || b < a || b >= MAX_SUITS || seat < 0 || seat >= self->players) {
        PyErr_SetString(PyExc_ValueError, "ends must be 0 <= a <= b and the seat one of the table's");
        return NULL;
    }
    if (self->tile_count < 64 && (remaining >> self->tile_count)) {
        PyErr_SetString(PyExc_ValueError, "a hand holds a tile outside the set");
        return NULL;
    }
    self->nodes = nodes;
    self->budget = budget;
    self->exceeded = 0;
    int value = search(self, hands, remaining, a, b, seat, alpha, beta);
    if (self->exceeded < 0)
        return PyErr_NoMemory();
    if (self->exceeded)
        return Py_BuildValue("(OL)", Py_None, (long long)self->nodes);
    return Py_BuildValue("(iL)", value, (long long)self->nodes);
}

static PyObject *Kernel_entries(Kernel *self, void *closure) {
    (void)closure;
    return PyLong_FromSize_t(self->used);
}

static PyMethodDef Kernel_methods[] = {
    {"search", (PyCFunction)Kernel_search, METH_VARARGS,
     "search(hands, a, b, seat, alpha, beta, nodes, budget) -> (value or None, nodes)"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Kernel_getset[] = {
    {"entries", (getter)Kernel_entries, NULL, "positions in the transposition table", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject KernelType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "amigos.academy._two_ended_kernel.Kernel",
    .tp_basicsize = sizeof(Kernel),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The two-ended alpha-beta search with its transposition table.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Kernel_init,
    .tp_dealloc = (destructor)Kernel_dealloc,
    .tp_methods = Kernel_methods,
    .tp_getset = Kernel_getset,
};

static struct PyModuleDef kernel_module = {
    PyModuleDef_HEAD_INIT, "_two_ended_kernel", "The compiled search of amigos.academy.two_ended.", -1, NULL, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__two_ended_kernel(void) {
    if (PyType_Ready(&KernelType) < 0)
        return NULL;
    PyObject *module = PyModule_Create(&kernel_module);
    if (module == NULL)
        return NULL;
    Py_INCREF(&KernelType);
    if (PyModule_AddObject(module, "Kernel", (PyObject *)&KernelType) < 0) {
        Py_DECREF(&KernelType);
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
