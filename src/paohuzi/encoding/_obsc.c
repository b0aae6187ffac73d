/* The observation encoder in C: paohuzi.encoding.observation's encode(), compiled.
 *
 * An optional accelerator. observation.py is the definition (encode_view) and the
 * portable fast path (_raw, Encoder); this file computes the same vector straight
 * from the State's fields into a caller's float32 buffer, and the tests compare the
 * two on every position of many random rounds. The layout is declared once, in
 * layout.py: setup() passes every block's (start, size) by name, and refuses a layout
 * whose sizes differ from what this file writes (BLOCK below); the six table kinds,
 * the phases and the §14 rule that hides a card on offer (observation.offer_hidden)
 * come the same way, so nothing here restates them.
 *
 * Every index read from the state (a face, an action id, a seat) is bounds-checked
 * before it is written to: a malformed state raises ValueError, never corrupts
 * memory.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#define NFACES 20
#define NKINDS 6

/* The layout, filled by setup() from observation.py's offsets. */
static struct {
    int ready;
    Py_ssize_t size, nactions;
    Py_ssize_t hand, table[3], facedown[3], pile[3], disc[3];
    Py_ssize_t chou_chi, chou_peng, unseen, hand_sizes, stock, dealer, phase, to_act;
    Py_ssize_t liang, offer, offer_hidden, offer_src, offer_draw, offer_placed, dead;
    Py_ssize_t legal, bal;
} L;

static PyObject *KINDS[NKINDS]; /* TABLE_KINDS, in block order */
static PyObject *CLAIM, *OVER;  /* Phase.CLAIM, Phase.OVER */
static PyObject *HIDDEN_OFFER;  /* observation.offer_hidden(state, seat): the §14 rule */

/* Interned attribute names. */
static PyObject *s_phase, *s_hands, *s_tables, *s_piles, *s_discards, *s_dead, *s_chou_chi,
    *s_chou_peng, *s_stock, *s_dealer, *s_deal, *s_liangzhang, *s_window, *s_turn,
    *s_balances, *s_group, *s_hidden, *s_kind, *s_faces, *s_options, *s_answers, *s_card,
    *s_source, *s_from_draw, *s_after_own, *s_legal_actions;

static int intern_names(void) {
#define I(v, s)                                   \
    if (!(v = PyUnicode_InternFromString(s))) \
        return -1;
    I(s_phase, "phase") I(s_hands, "hands") I(s_tables, "tables") I(s_piles, "piles")
    I(s_discards, "discards") I(s_dead, "dead") I(s_chou_chi, "chou_chi")
    I(s_chou_peng, "chou_peng") I(s_stock, "stock") I(s_dealer, "dealer") I(s_deal, "deal")
    I(s_liangzhang, "liangzhang") I(s_window, "window") I(s_turn, "turn")
    I(s_balances, "balances") I(s_group, "group") I(s_hidden, "hidden") I(s_kind, "kind")
    I(s_faces, "faces") I(s_options, "options") I(s_answers, "answers") I(s_card, "card")
    I(s_source, "source") I(s_from_draw, "from_draw") I(s_after_own, "after_own")
    I(s_legal_actions, "legal_actions")
#undef I
    return 0;
}

/* An int in [0, bound), else -1 with ValueError set. */
static long small_index(PyObject *o, long bound, const char *what) {
    long v = PyLong_AsLong(o);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (v < 0 || v >= bound) {
        PyErr_Format(PyExc_ValueError, "%s %ld out of range 0-%ld", what, v, bound - 1);
        return -1;
    }
    return v;
}

/* getattr(o, name) as a list or tuple: a new reference from PySequence_Fast. */
static PyObject *seq_attr(PyObject *o, PyObject *name) {
    PyObject *v = PyObject_GetAttr(o, name);
    if (!v)
        return NULL;
    PyObject *s = PySequence_Fast(v, "expected a list or tuple");
    Py_DECREF(v);
    return s;
}

/* Seat i's entry of a per-seat fast sequence (borrowed), or NULL with ValueError. */
static PyObject *per_seat(PyObject *seq, Py_ssize_t i) {
    if (i >= PySequence_Fast_GET_SIZE(seq)) {
        PyErr_SetString(PyExc_ValueError, "a per-seat field has fewer than three entries");
        return NULL;
    }
    return PySequence_Fast_GET_ITEM(seq, i);
}

/* Seat i's entry of a per-seat fast sequence, itself as a fast sequence (new reference). */
static PyObject *seq_item(PyObject *seq, Py_ssize_t i) {
    PyObject *item = per_seat(seq, i);
    return item ? PySequence_Fast(item, "expected a list or tuple") : NULL;
}

/* Add one to out[base + f] for each face f of a sequence; count it in seen if given. */
static int add_faces(float *out, Py_ssize_t base, PyObject *cards, int *seen) {
    PyObject *s = PySequence_Fast(cards, "expected a list or tuple of faces");
    if (!s)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(s);
    PyObject **it = PySequence_Fast_ITEMS(s);
    for (Py_ssize_t i = 0; i < n; i++) {
        long f = small_index(it[i], NFACES, "face");
        if (f < 0) {
            Py_DECREF(s);
            return -1;
        }
        out[base + f] += 1.0f;
        if (seen)
            seen[f]++;
    }
    Py_DECREF(s);
    return 0;
}

static int attr_true(PyObject *o, PyObject *name) {
    PyObject *v = PyObject_GetAttr(o, name);
    if (!v)
        return -1;
    int t = PyObject_IsTrue(v);
    Py_DECREF(v);
    return t;
}

static long attr_index(PyObject *o, PyObject *name, long bound, const char *what) {
    PyObject *v = PyObject_GetAttr(o, name);
    if (!v)
        return -1;
    long r = small_index(v, bound, what);
    Py_DECREF(v);
    return r;
}

static int kind_index(PyObject *kind) {
    for (int k = 0; k < NKINDS; k++)
        if (kind == KINDS[k])
            return k;
    PyErr_SetString(PyExc_ValueError, "a table group of a kind no table holds");
    return -1;
}

/* One seat's table: each group's faces into its kind's block (face-down groups of
 * another seat only counted by kind while the round is on, §14). */
static int encode_table(float *out, PyObject *table, int r, int over, int *seen) {
    Py_ssize_t n = PySequence_Fast_GET_SIZE(table);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *tg = PySequence_Fast_GET_ITEM(table, i);
        PyObject *g = PyObject_GetAttr(tg, s_group);
        if (!g)
            return -1;
        PyObject *kind = PyObject_GetAttr(g, s_kind);
        if (!kind) {
            Py_DECREF(g);
            return -1;
        }
        int k = kind_index(kind);
        Py_DECREF(kind);
        int hidden = k < 0 ? -1 : attr_true(tg, s_hidden);
        if (hidden < 0) {
            Py_DECREF(g);
            return -1;
        }
        int rc = 0;
        if (r > 0 && hidden && !over) {
            out[L.facedown[r] + k] += 1.0f;
        } else {
            PyObject *faces = PyObject_GetAttr(g, s_faces);
            rc = faces ? add_faces(out, L.table[r] + (Py_ssize_t)k * NFACES, faces, seen) : -1;
            Py_XDECREF(faces);
        }
        Py_DECREF(g);
        if (rc < 0)
            return -1;
    }
    return 0;
}

static int sum_counts(PyObject *hand, long *total) {
    PyObject *h = PySequence_Fast(hand, "a hand is a list of counts");
    if (!h)
        return -1;
    long t = 0;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(h);
    for (Py_ssize_t i = 0; i < n; i++) {
        long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(h, i));
        if (c == -1 && PyErr_Occurred()) {
            Py_DECREF(h);
            return -1;
        }
        t += c;
    }
    Py_DECREF(h);
    *total = t;
    return 0;
}

static void set_bits(float *out, Py_ssize_t base, unsigned long bits) {
    for (int f = 0; f < NFACES; f++)
        if (bits >> f & 1)
            out[base + f] = 1.0f;
}

/* The phase, who is to act and the offer (observation.py's _mark_turn). Adds the card
 * on offer to seen when the seat sees it come from outside the other blocks. */
static int encode_turn(float *out, PyObject *st, long seat, PyObject *phase, int *seen) {
    PyObject *w = PyObject_GetAttr(st, s_window);
    if (!w)
        return -1;
    int rc = -1;
    if (phase == CLAIM && w != Py_None) {
        out[L.phase + 1] = 1.0f;
        PyObject *key = PyLong_FromLong(seat);
        PyObject *options = key ? PyObject_GetAttr(w, s_options) : NULL;
        PyObject *answers = options ? PyObject_GetAttr(w, s_answers) : NULL;
        int asked = answers ? PySequence_Contains(options, key) : -1;
        int answered = asked > 0 ? PySequence_Contains(answers, key) : 0;
        Py_XDECREF(key);
        Py_XDECREF(options);
        Py_XDECREF(answers);
        if (asked < 0 || answered < 0)
            goto done;
        if (asked && !answered)
            out[L.to_act] = 1.0f;
        long x = attr_index(w, s_card, NFACES, "card on offer");
        long src = x < 0 ? -1 : attr_index(w, s_source, 3, "seat");
        int draw = src < 0 ? -1 : attr_true(w, s_from_draw);
        int after_own = draw < 0 ? -1 : attr_true(w, s_after_own);
        if (after_own < 0)
            goto done;
        out[L.offer_src + (src - seat + 3) % 3] = 1.0f;
        if (draw)
            out[L.offer_draw] = 1.0f;
        if (!after_own) {
            out[L.offer + x] = 1.0f;
            seen[x]++;
        } else {
            out[L.offer_placed] = 1.0f;
            int hid = -1;
            PyObject *key = PyLong_FromLong(seat);
            if (key) {
                PyObject *r = PyObject_CallFunctionObjArgs(HIDDEN_OFFER, st, key, NULL);
                Py_DECREF(key);
                if (r) {
                    hid = PyObject_IsTrue(r);
                    Py_DECREF(r);
                }
            }
            if (hid < 0)
                goto done;
            if (hid)
                out[L.offer_hidden] = 1.0f; /* a 偎胡 on a face-down 偎 (§14) */
            else
                out[L.offer + x] = 1.0f;
        }
    } else if (phase == OVER) {
        out[L.phase + 2] = 1.0f;
    } else {
        out[L.phase] = 1.0f;
        long turn = attr_index(st, s_turn, 3, "seat");
        if (turn < 0)
            goto done;
        out[L.to_act + (turn - seat + 3) % 3] = 1.0f;
    }
    rc = 0;
done:
    Py_DECREF(w);
    return rc;
}

/* encode(st, seat) into out (L.size floats); the legal ids also into mask if given. */
static int encode_one(PyObject *st, long seat, PyObject *legal, float *out, signed char *mask) {
    int seen[NFACES];
    int rc = -1;
    PyObject *phase = NULL, *hands = NULL, *tables = NULL, *piles = NULL, *discs = NULL,
             *dead = NULL, *h = NULL, *x = NULL, *y = NULL;
    memset(out, 0, (size_t)L.size * sizeof(float));
    if (mask)
        memset(mask, 0, (size_t)L.nactions);
    if (!(phase = PyObject_GetAttr(st, s_phase)))
        goto done;
    int over = phase == OVER;
    if (!(hands = seq_attr(st, s_hands)) || !(tables = seq_attr(st, s_tables)) ||
        !(piles = seq_attr(st, s_piles)) || !(discs = seq_attr(st, s_discards)) ||
        !(dead = seq_attr(st, s_dead)))
        goto done;
    if (!(h = seq_item(hands, seat)) || PySequence_Fast_GET_SIZE(h) != NFACES) {
        if (h)
            PyErr_SetString(PyExc_ValueError, "a hand has one count per face (20)");
        goto done;
    }
    for (int f = 0; f < NFACES; f++) {
        long c = small_index(PySequence_Fast_GET_ITEM(h, f), 5, "hand count");
        if (c < 0)
            goto done;
        out[L.hand + f] = (float)c;
        seen[f] = (int)c;
    }
    for (int r = 0; r < 3; r++) {
        long s = (seat + r) % 3;
        Py_CLEAR(x);
        if (!(x = seq_item(tables, s)) || encode_table(out, x, r, over, seen) < 0)
            goto done;
        PyObject *pile, *disc, *hand, *is_dead;
        if (!(pile = per_seat(piles, s)) || !(disc = per_seat(discs, s)) ||
            !(hand = per_seat(hands, s)) || !(is_dead = per_seat(dead, s)))
            goto done;
        if (add_faces(out, L.pile[r], pile, seen) < 0 ||
            add_faces(out, L.disc[r], disc, NULL) < 0)
            goto done;
        long size;
        if (sum_counts(hand, &size) < 0)
            goto done;
        out[L.hand_sizes + r] = (float)(unsigned char)size;
        int d = PyObject_IsTrue(is_dead);
        if (d < 0)
            goto done;
        if (d)
            out[L.dead + r] = 1.0f;
    }
    PyObject *names[2] = {s_chou_chi, s_chou_peng};
    Py_ssize_t bases[2] = {L.chou_chi, L.chou_peng};
    for (int i = 0; i < 2; i++) {
        Py_CLEAR(y);
        if (!(y = seq_attr(st, names[i])))
            goto done;
        PyObject *own = per_seat(y, seat);
        if (!own)
            goto done;
        unsigned long bits = PyLong_AsUnsignedLong(own);
        if (bits == (unsigned long)-1 && PyErr_Occurred())
            goto done;
        set_bits(out, bases[i], bits);
    }
    Py_CLEAR(y);
    if (!(y = PyObject_GetAttr(st, s_stock)))
        goto done;
    Py_ssize_t n_stock = PyObject_Length(y);
    if (n_stock < 0)
        goto done;
    out[L.stock] = (float)(unsigned char)n_stock;
    long dealer = attr_index(st, s_dealer, 3, "dealer");
    if (dealer < 0)
        goto done;
    out[L.dealer + (dealer - seat + 3) % 3] = 1.0f;
    Py_CLEAR(y);
    if (!(y = PyObject_GetAttr(st, s_deal)))
        goto done;
    long liang = attr_index(y, s_liangzhang, NFACES, "亮张");
    if (liang < 0)
        goto done;
    out[L.liang + liang] = 1.0f;
    if (encode_turn(out, st, seat, phase, seen) < 0)
        goto done;
    for (int f = 0; f < NFACES; f++)
        out[L.unseen + f] = (float)(unsigned char)(4 - seen[f]);
    Py_CLEAR(x);
    if (!(x = PySequence_Fast(legal, "legal actions are a tuple of ids")))
        goto done;
    Py_ssize_t nl = PySequence_Fast_GET_SIZE(x);
    for (Py_ssize_t i = 0; i < nl; i++) {
        long a = small_index(PySequence_Fast_GET_ITEM(x, i), (long)L.nactions, "action id");
        if (a < 0)
            goto done;
        out[L.legal + a] = 1.0f;
        if (mask)
            mask[a] = 1;
    }
    Py_CLEAR(y);
    if (!(y = seq_attr(st, s_balances)))
        goto done;
    if (PySequence_Fast_GET_SIZE(y) != 3) {
        PyErr_SetString(PyExc_ValueError, "three balances expected");
        goto done;
    }
    for (int r = 0; r < 3; r++) {
        long b = PyLong_AsLong(PySequence_Fast_GET_ITEM(y, (seat + r) % 3));
        if (b == -1 && PyErr_Occurred())
            goto done;
        out[L.bal + r] = (float)((double)b / 100.0); /* as BALANCE_SCALE's division */
    }
    rc = 0;
done:
    Py_XDECREF(phase);
    Py_XDECREF(hands);
    Py_XDECREF(tables);
    Py_XDECREF(piles);
    Py_XDECREF(discs);
    Py_XDECREF(dead);
    Py_XDECREF(h);
    Py_XDECREF(x);
    Py_XDECREF(y);
    return rc;
}

/* A writable C-contiguous buffer of exactly n items of the struct format fmt. */
static int get_buffer(PyObject *o, Py_buffer *view, Py_ssize_t n, char fmt, const char *what) {
    if (PyObject_GetBuffer(o, view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return -1;
    const char *f = view->format ? view->format : "B";
    if (*f == '<' || *f == '=' || *f == '@')
        f++;
    if (f[0] != fmt || f[1] != 0 || view->len != n * view->itemsize) {
        PyErr_Format(PyExc_ValueError, "%s must be %zd items of format '%c'", what, n, fmt);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

static long get_seat(PyObject *o) { return small_index(o, 3, "seat"); }

static int check_ready(void) {
    if (!L.ready)
        PyErr_SetString(PyExc_RuntimeError, "call setup() first");
    return L.ready;
}

static PyObject *py_encode(PyObject *self, PyObject *args) {
    PyObject *st, *seat_o, *legal, *out_o, *mask_o;
    if (!PyArg_UnpackTuple(args, "encode", 5, 5, &st, &seat_o, &legal, &out_o, &mask_o) ||
        !check_ready())
        return NULL;
    long seat = get_seat(seat_o);
    if (seat < 0)
        return NULL;
    Py_buffer out, mask;
    if (get_buffer(out_o, &out, L.size, 'f', "out") < 0)
        return NULL;
    int has_mask = mask_o != Py_None;
    if (has_mask && get_buffer(mask_o, &mask, L.nactions, 'b', "mask") < 0) {
        PyBuffer_Release(&out);
        return NULL;
    }
    int rc = encode_one(st, seat, legal, (float *)out.buf, has_mask ? (signed char *)mask.buf : NULL);
    PyBuffer_Release(&out);
    if (has_mask)
        PyBuffer_Release(&mask);
    if (rc < 0)
        return NULL;
    Py_RETURN_NONE;
}

static PyObject *py_encode_rows(PyObject *self, PyObject *args) {
    PyObject *states_o, *seats_o, *out_o;
    if (!PyArg_UnpackTuple(args, "encode_rows", 3, 3, &states_o, &seats_o, &out_o) ||
        !check_ready())
        return NULL;
    PyObject *states = PySequence_Fast(states_o, "states must be a sequence");
    if (!states)
        return NULL;
    PyObject *seats = PySequence_Fast(seats_o, "seats must be a sequence");
    if (!seats) {
        Py_DECREF(states);
        return NULL;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(states);
    PyObject *res = NULL;
    Py_buffer out;
    if (PySequence_Fast_GET_SIZE(seats) != n) {
        PyErr_SetString(PyExc_ValueError, "as many seats as states");
        goto done;
    }
    if (get_buffer(out_o, &out, n * L.size, 'f', "out") < 0)
        goto done;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *st = PySequence_Fast_GET_ITEM(states, i);
        PyObject *seat_o = PySequence_Fast_GET_ITEM(seats, i);
        long seat = get_seat(seat_o);
        PyObject *legal = seat < 0 ? NULL : PyObject_CallMethodOneArg(st, s_legal_actions, seat_o);
        int rc = legal ? encode_one(st, seat, legal, (float *)out.buf + i * L.size, NULL) : -1;
        Py_XDECREF(legal);
        if (rc < 0) {
            PyBuffer_Release(&out);
            goto done;
        }
    }
    PyBuffer_Release(&out);
    res = Py_NewRef(Py_None);
done:
    Py_DECREF(states);
    Py_DECREF(seats);
    return res;
}

/* The blocks the encoder writes, by their names in layout.py, with the entries each must
 * have (-1: any; the legal block's size is the number of action ids). The table blocks
 * of the other kinds follow each "table.<seat>.chi", NFACES entries a kind. */
#define NBLOCKS 28
static const struct { const char *name; int size; } BLOCK[NBLOCKS] = {
    {"hand", NFACES}, {"table.self.chi", NFACES}, {"table.next.chi", NFACES},
    {"table.prev.chi", NFACES}, {"table.self.facedown", NKINDS},
    {"table.next.facedown", NKINDS}, {"table.prev.facedown", NKINDS}, {"pile.self", NFACES},
    {"pile.next", NFACES}, {"pile.prev", NFACES}, {"discards.self", NFACES},
    {"discards.next", NFACES}, {"discards.prev", NFACES}, {"chou_chi", NFACES},
    {"chou_peng", NFACES}, {"unseen", NFACES}, {"hand_sizes", 3}, {"stock", 1},
    {"dealer", 3}, {"phase", 3}, {"to_act", 3}, {"liangzhang", NFACES}, {"offer", NFACES},
    {"offer.hidden", 1}, {"offer.source", 3}, {"offer.from_draw", 1}, {"offer.placed", 1},
    {"dead", 3},
};

/* Block name's start from d (name -> (start, size)), its size checked against want. */
static int offset(PyObject *d, const char *name, long want, Py_ssize_t *into,
                  Py_ssize_t *size) {
    PyObject *v = PyDict_GetItemString(d, name); /* borrowed */
    if (!v) {
        PyErr_Format(PyExc_KeyError, "setup: the layout has no block %s", name);
        return -1;
    }
    Py_ssize_t start, n;
    if (!PyArg_ParseTuple(v, "nn", &start, &n))
        return -1;
    if (want >= 0 && n != want) {
        PyErr_Format(PyExc_ValueError,
                     "setup: block %s has %zd entries in the layout, the C encoder writes %ld",
                     name, n, want);
        return -1;
    }
    *into = start;
    if (size)
        *size = n;
    return 0;
}

static PyObject *py_setup(PyObject *self, PyObject *args) {
    PyObject *kinds, *claim, *over, *off, *hidden;
    if (!PyArg_UnpackTuple(args, "setup", 5, 5, &kinds, &claim, &over, &off, &hidden))
        return NULL;
    if (!PyTuple_Check(kinds) || PyTuple_GET_SIZE(kinds) != NKINDS || !PyDict_Check(off) ||
        !PyCallable_Check(hidden)) {
        PyErr_SetString(PyExc_TypeError,
                        "setup(six kinds, Phase.CLAIM, Phase.OVER, blocks, offer_hidden)");
        return NULL;
    }
    typeof(L) T = L; /* filled here, kept only if the whole layout fits */
    Py_ssize_t *into[NBLOCKS] = {
        &T.hand, &T.table[0], &T.table[1], &T.table[2], &T.facedown[0], &T.facedown[1],
        &T.facedown[2], &T.pile[0], &T.pile[1], &T.pile[2], &T.disc[0], &T.disc[1],
        &T.disc[2], &T.chou_chi, &T.chou_peng, &T.unseen, &T.hand_sizes, &T.stock, &T.dealer,
        &T.phase, &T.to_act, &T.liang, &T.offer, &T.offer_hidden, &T.offer_src,
        &T.offer_draw, &T.offer_placed, &T.dead,
    };
    for (int i = 0; i < NBLOCKS; i++)
        if (offset(off, BLOCK[i].name, BLOCK[i].size, into[i], NULL) < 0)
            return NULL;
    if (offset(off, "legal", -1, &T.legal, &T.nactions) < 0 ||
        offset(off, "balances", 3, &T.bal, NULL) < 0)
        return NULL;
    T.size = T.bal + 3;
    if (T.legal + T.nactions > T.bal) {
        PyErr_SetString(PyExc_ValueError, "setup: the legal block overlaps the balances");
        return NULL;
    }
    for (int i = 0; i < NBLOCKS; i++)
        if (*into[i] < 0 || *into[i] + (BLOCK[i].size > 0 ? BLOCK[i].size : 0) > T.bal) {
            PyErr_Format(PyExc_ValueError, "setup: block %s lies outside the vector",
                         BLOCK[i].name);
            return NULL;
        }
    for (int r = 0; r < 3; r++)
        if (T.table[r] + NKINDS * NFACES > T.bal) {
            PyErr_SetString(PyExc_ValueError, "setup: a table's six kinds overrun the vector");
            return NULL;
        }
    for (int k = 0; k < NKINDS; k++) {
        Py_XSETREF(KINDS[k], Py_NewRef(PyTuple_GET_ITEM(kinds, k)));
    }
    Py_XSETREF(CLAIM, Py_NewRef(claim));
    Py_XSETREF(OVER, Py_NewRef(over));
    Py_XSETREF(HIDDEN_OFFER, Py_NewRef(hidden));
    L = T;
    L.ready = 1;
    Py_RETURN_NONE;
}

/* BLOCKS: the names of the blocks the encoder reads from the layout, for the tests. */
static PyObject *block_names(void) {
    PyObject *t = PyTuple_New(NBLOCKS + 2);
    if (!t)
        return NULL;
    for (int i = 0; i < NBLOCKS + 2; i++) {
        const char *n = i < NBLOCKS ? BLOCK[i].name : i == NBLOCKS ? "legal" : "balances";
        PyObject *s = PyUnicode_FromString(n);
        if (!s) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, s);
    }
    return t;
}

static PyMethodDef methods[] = {
    {"setup", py_setup, METH_VARARGS,
     "setup(kinds, claim, over, blocks, offer_hidden): the layout (name -> (start, size)), "
     "from layout.py, and the §14 rule that hides a card on offer."},
    {"encode", py_encode, METH_VARARGS,
     "encode(state, seat, legal, out, mask): encode(state, seat) into the float32 buffer "
     "out; the legal ids also into the int8 buffer mask (or None)."},
    {"encode_rows", py_encode_rows, METH_VARARGS,
     "encode_rows(states, seats, out): encode each pair into a row of the float32 buffer out."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_obsc",
    "The observation encoder in C (an optional accelerator of paohuzi.encoding.observation).", -1,
    methods,
};

PyMODINIT_FUNC PyInit__obsc(void) {
    if (intern_names() < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m)
        return NULL;
    PyObject *blocks = block_names();
    int bad = !blocks || PyModule_AddObjectRef(m, "BLOCKS", blocks) < 0;
    Py_XDECREF(blocks);
    if (bad) {
        Py_DECREF(m);
        return NULL;
    }
#ifdef PAOHUZI_OBSC_SHA256
    if (PyModule_AddStringConstant(m, "SOURCE_SHA256", PAOHUZI_OBSC_SHA256) < 0) {
        Py_DECREF(m);
        return NULL;
    }
#endif
    return m;
}
