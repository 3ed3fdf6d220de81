/* The VCD writer's body (everything after the $dumpvars block) against a
 * plain model of the same rules written here with snprintf and a
 * bit-by-bit binary: per cycle, the lanes in the order of their first event
 * there, each lane's changed activity, item, arg and in-flight count and its
 * instant, after "#<time>" when that is not the time last written and a
 * value changed; at the close the last time when it was not written.
 *
 * The streams go through the writer's fast paths (tl_vcd.c): the time
 * stamps made from the last one plus the step (steps 0 to 12, carries
 * through every digit, powers of ten up to 10^19, times up to 2^64 - 2, a
 * stamp taken back when nothing changed), the whole lines of values below
 * 16 and the values either side (activity codes, EXEC indexes, in-flight
 * counts up to 40), one- and two-character variable codes (40 lanes), and
 * items ending oldest first, newest first, from the middle, alone, twice
 * or never begun. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fileio.h"
#include "sim/out/tl_vcd.h"
#include "tests/test_util.h"

enum { LANES = 40, MAXI = 128, VARS = 5 };

typedef struct m_item {
	uint32_t id, arg;
} m_item;

typedef struct m_lane {
	uint8_t act, out_act;
	bool instant, dirty, out_has;
	m_item items[MAXI], out_item;
	uint32_t n, out_n;
} m_lane;

typedef struct model {
	m_lane lane[LANES];
	uint16_t dirty[LANES];
	unsigned ndirty;
	uint64_t now, written;
	char *text;
	size_t len, cap;
} model;

static void m_put(model *m, const char *s)
{
	size_t n = strlen(s);
	if (m->len + n + 1 > m->cap) {
		m->cap = (m->len + n + 1) * 2;
		m->text = realloc(m->text, m->cap);
		cr_assert(m->text);
	}
	memcpy(m->text + m->len, s, n + 1);
	m->len += n;
}

/* The variable's code: base-94 printable ASCII, the low digit first. */
static void code(char *b, unsigned lane, unsigned var)
{
	unsigned k = lane * VARS + var, n = 0;
	do {
		b[n++] = (char)('!' + k % 94);
		k /= 94;
	} while (k);
	b[n] = '\0';
}

static void m_value(model *m, uint32_t v, bool x, unsigned lane, unsigned var)
{
	char bits[40], c[8], line[64];
	size_t n = 0;
	char t[33];
	do {
		t[n++] = (char)('0' + (v & 1u));
		v >>= 1;
	} while (v);
	for (size_t i = 0; i < n; i++)
		bits[i] = t[n - 1 - i];
	bits[n] = '\0';
	code(c, lane, var);
	snprintf(line, sizeof line, "b%s %s\n", x ? "x" : bits, c);
	m_put(m, line);
}

static void m_flush(model *m)
{
	if (!m->ndirty)
		return;
	size_t mark = m->len;
	char stamp[32];
	snprintf(stamp, sizeof stamp, "#%llu\n", (unsigned long long)m->now);
	if (m->now != m->written)
		m_put(m, stamp);
	size_t values = m->len;
	for (unsigned i = 0; i < m->ndirty; i++) {
		unsigned ln = m->dirty[i];
		m_lane *l = &m->lane[ln];
		l->dirty = false;
		if (l->act != l->out_act) {
			m_value(m, l->act, false, ln, 0);
			l->out_act = l->act;
		}
		bool has = l->n > 0;
		m_item cur = has ? l->items[l->n - 1] : (m_item){ 0, 0 };
		if (has != l->out_has) {
			m_value(m, cur.id, !has, ln, 1);
			m_value(m, cur.arg, !has, ln, 2);
		} else if (has) {
			if (cur.id != l->out_item.id)
				m_value(m, cur.id, false, ln, 1);
			if (cur.arg != l->out_item.arg)
				m_value(m, cur.arg, false, ln, 2);
		}
		l->out_has = has;
		l->out_item = cur;
		if (l->n != l->out_n) {
			m_value(m, l->n, false, ln, 3);
			l->out_n = l->n;
		}
		if (l->instant) {
			char c[8], line[16];
			code(c, ln, 4);
			snprintf(line, sizeof line, "1%s\n", c);
			m_put(m, line);
			l->instant = false;
		}
	}
	m->ndirty = 0;
	if (m->len == values) {
		m->len = mark;                       /* nothing changed: no stamp */
		m->text[mark] = '\0';
	} else {
		m->written = m->now;
	}
}

static void m_event(model *m, uint64_t cycle, unsigned lane, unsigned kind, uint32_t id, uint32_t arg)
{
	if (cycle > m->now) {
		m_flush(m);
		m->now = cycle;
	}
	m_lane *l = &m->lane[lane];
	switch (kind) {
	case SIM_TL_ACTIVITY:
		l->act = (uint8_t)arg;
		break;
	case SIM_TL_BEGIN:
		cr_assert(l->n < MAXI);
		l->items[l->n++] = (m_item){ id, arg };
		break;
	case SIM_TL_END:
		for (uint32_t i = 0; i < l->n; i++) {
			if (l->items[i].id == id) {
				memmove(&l->items[i], &l->items[i + 1], (l->n - i - 1) * sizeof *l->items);
				l->n--;
				break;
			}
		}
		break;
	default:
		l->instant = true;
		break;
	}
	if (!l->dirty) {
		l->dirty = true;
		m->dirty[m->ndirty++] = (uint16_t)lane;
	}
}

static uint32_t rnd(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(*s >> 33);
}

typedef struct runner {
	sim_timeline tl;
	tl_vcd *v;
	model m;
	char *dir, path[1024];
	uint64_t s;
	uint32_t next_id;
} runner;

static void start(runner *r, uint64_t seed)
{
	memset(r, 0, sizeof *r);
	r->s = seed;
	r->next_id = 1;
	cr_assert(sim_tl_init(&r->tl));
	static char names[LANES][8];
	for (unsigned l = 0; l < LANES; l++) {
		snprintf(names[l], sizeof names[l], "l%u", l);
		sim_tl_lane(&r->tl, names[l]);
	}
	r->dir = test_tmpdir();
	cr_assert(r->dir);
	snprintf(r->path, sizeof r->path, "%s/m.vcd", r->dir);
	ulp_diag d;
	ulp_diag_clear(&d);
	r->v = tl_vcd_open(r->path, &(tl_vcd_opts){ .tl = &r->tl }, &d);
	cr_assert(r->v, "%s", d.msg);
	cr_assert(sim_tl_add_sink(&r->tl, tl_vcd_sink(r->v)));
	r->tl.enabled = true;
}

static void ev(runner *r, uint64_t cycle, unsigned lane, unsigned kind, uint32_t id, uint32_t arg)
{
	sim_tl_emit(&r->tl, cycle, (uint16_t)lane, (enum sim_tl_kind)kind, id, arg);
	m_event(&r->m, cycle, lane, kind, id, arg);
}

/* A few random events on random lanes at cycle t: activity codes 0 to 20,
 * items with args 0 to 40 (and now and then a large one), ends of the
 * oldest, the newest, one in the middle or an unknown id, instants. */
static void some_events(runner *r, uint64_t t)
{
	unsigned k = 1 + rnd(&r->s) % 4;
	for (unsigned i = 0; i < k; i++) {
		uint32_t x = rnd(&r->s);
		unsigned lane = x % 8 == 0 ? 19 + (x >> 3) % 21 : (x >> 3) % 4;
		m_lane *l = &r->m.lane[lane];
		unsigned what = (x >> 9) % 8;
		if (what <= 1) {
			ev(r, t, lane, SIM_TL_ACTIVITY, 0, (x >> 12) % 21);
		} else if (what <= 4 && l->n < 40) {
			uint32_t arg = x % 97 == 0 ? x : (x >> 13) % 41;
			uint32_t id = x % 89 == 0 && l->n ? l->items[0].id : r->next_id++;   /* twice in flight */
			ev(r, t, lane, SIM_TL_BEGIN, id, arg);
		} else if (what <= 6 && l->n) {
			unsigned c = (x >> 14) % 4;
			uint32_t j = c == 0 ? 0 : c == 1 ? l->n - 1 : (x >> 16) % l->n;
			ev(r, t, lane, SIM_TL_END, l->items[j].id, 0);
		} else if (what == 6) {
			ev(r, t, lane, SIM_TL_END, 0xdeadu, 0);       /* never begun */
		} else {
			ev(r, t, lane, SIM_TL_INSTANT, x, x >> 3);
		}
	}
}

/* Closes the writer; its body equals the model's. */
static void finish(runner *r)
{
	sim_tl_fini(&r->tl);
	m_flush(&r->m);
	if (r->m.now != r->m.written) {
		char stamp[32];
		snprintf(stamp, sizeof stamp, "#%llu\n", (unsigned long long)r->m.now);
		m_put(&r->m, stamp);
	}
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert(tl_vcd_close(r->v, &d), "%s", d.msg);
	size_t n = 0;
	char *text = ulp_read_file(r->path, &n, &d);
	cr_assert(text, "%s", d.msg);
	const char *body = strstr(text, "$dumpvars\n");
	cr_assert(body);
	body = strstr(body, "$end\n");
	cr_assert(body);
	body += 5;
	const char *want = r->m.text ? r->m.text : "";
	size_t i = 0;
	while (body[i] && body[i] == want[i])
		i++;
	if (body[i] || want[i]) {
		size_t from = i > 60 ? i - 60 : 0;
		cr_assert_fail("the body differs at byte %zu:\n--- writer\n%.120s\n--- model\n%.120s", i, body + from,
		               want + from);
	}
	cr_expect(strlen(want) > 1000, "the stream wrote %zu bytes", strlen(want));
	free(text);
	free(r->m.text);
	remove(r->path);
	remove(r->dir);
	free(r->dir);
}

/* Time stamps: steps 0 to 12 from 1 to 5000 (the carries into a new digit
 * at 10, 100, 1000), then around every power of ten up to 10^19 and up to
 * 2^64 - 2, each approached by steps below 10 (the carry through every
 * digit) and left by steps of 10 or more; a cycle whose only event changes
 * nothing writes no stamp, and the next stamp is still right. */
Test(tl_vcd_model, stamps_step_by_step)
{
	runner r;
	start(&r, 11);
	uint64_t t = 1;
	while (t < 5000) {
		uint32_t x = rnd(&r.s);
		if (x % 9 == 0)
			ev(&r, t, 2, SIM_TL_ACTIVITY, 0, r.m.lane[2].act);   /* no change */
		else
			some_events(&r, t);
		t += x % 13;
	}
	uint64_t p10 = 10000;
	for (int k = 4; k <= 19; k++, p10 *= 10) {
		t = p10 - 40;
		while (t < p10 + 40) {
			uint32_t x = rnd(&r.s);
			some_events(&r, t);
			t += 1 + x % (t < p10 ? 9 : 13);
		}
	}
	t = UINT64_MAX - 60;
	while (t < UINT64_MAX - 1) {
		some_events(&r, t);
		uint64_t step = 1 + rnd(&r.s) % 12;
		t = UINT64_MAX - 1 - t < step ? UINT64_MAX - 1 : t + step;
	}
	some_events(&r, t);
	ev(&r, t, 2, SIM_TL_ACTIVITY, 0, r.m.lane[2].act);   /* an unchanged last cycle: stamped at close */
	finish(&r);
}

/* Values around the 16 whose lines are made whole, on lanes with one- and
 * two-character codes, many cycles and more than one chunk of events. */
Test(tl_vcd_model, small_values_and_items)
{
	for (uint64_t seed = 1; seed <= 4; seed++) {
		runner r;
		start(&r, seed);
		uint64_t t = 100;
		for (int i = 0; i < 20000; i++) {
			some_events(&r, t);
			t += rnd(&r.s) % 3;
		}
		/* a lane counted up past 16 and down again, newest first */
		for (uint32_t i = 0; i < 36; i++)
			ev(&r, ++t, 33, SIM_TL_BEGIN, 5000 + i, i);
		for (uint32_t i = 36; i-- > 0;)
			ev(&r, ++t, 33, SIM_TL_END, 5000 + i, 0);
		for (uint32_t a = 0; a < 256; a++)
			ev(&r, ++t, 1, SIM_TL_ACTIVITY, 0, a);
		finish(&r);
	}
}
