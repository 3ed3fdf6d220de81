/* Chrome trace-event JSON timeline sink (tl_chrome.h). */
#include "sim/out/tl_chrome.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/out/tl_file.h"
#include "sim/core/unit.h"

enum { SLOT_WORDS = TL_CHROME_MAX_SLOTS / 64, TID_STRIDE = 1000 };
_Static_assert((int)TL_CHROME_MAX_SLOTS < (int)TID_STRIDE, "slot tids stay inside a lane's block");

typedef struct ch_item {
	uint32_t id, arg;
	uint64_t begin;
	uint16_t slot;
} ch_item;

typedef struct ch_lane {
	bool named;                        /* thread_name written */
	uint8_t act;                       /* SIM_ACT_* of the open span */
	uint64_t since;
	ch_item *items;                    /* in flight, oldest first */
	uint32_t n, cap;
	uint64_t slot_used[SLOT_WORDS];
	uint64_t slot_named[SLOT_WORDS];
} ch_lane;

/* The constant text of an event, made at open and copied HEAD_ROOM bytes at
 * a time (the bytes past its length are overwritten by what follows). */
enum { HEAD_ROOM = 64, NACT = SIM_ACT_STALL + SIM_STALL_COUNT };

/* The digits of recent values (of 3 to 8 digits), by their low bits: an
 * item's start and id, and a span's start, were mostly written a few
 * events before (the cycles of the last few dozen events, the quads in
 * flight). */
enum { DIGIT_CACHE = 64 };

typedef struct ch_digits {
	uint64_t v;                        /* v % DIGIT_CACHE != the entry's index: none */
	uint64_t text;                     /* the digits, 8 bytes copied */
	size_t n;
} ch_digits;

typedef struct ch_head {
	char text[HEAD_ROOM];
	uint8_t n;
} ch_head;

struct tl_chrome {
	tl_file file;               /* the output, its first error */
	tl_chrome_opts o;
	uint64_t last;                     /* last cycle seen */
	uint64_t dropped;
	ch_lane lane[SIM_TL_MAX_LANES];
	/* ,\n{"ph":"X","pid":1,"tid":<tid>,"cat":"activity","name":  per lane */
	ch_head act_head[SIM_TL_MAX_LANES];
	/* ,\n{"ph":"X","pid":1,"tid":<lane + 1>001,"cat":"item","name":  per lane;
	 * the three digits at slot_at are those of 1 + the item's slot */
	ch_head item_head[SIM_TL_MAX_LANES];
	uint8_t slot_at[SIM_TL_MAX_LANES];
	/* "<activity name>","ts":  per activity code, the last for codes past
	 * them ("?"); n = 0: too long, written the slow way */
	ch_head act_name[NACT + 1];
	ch_digits ts_digits[DIGIT_CACHE], id_digits[DIGIT_CACHE];
};

/* tl_u64 through a cache of digits. */
TL_INLINE char *cached_u64(ch_digits *cache, char *p, uint64_t v)
{
	if (v < 100u || v >= 100000000u)
		return tl_u64(p, v);
	ch_digits *e = &cache[v % DIGIT_CACHE];
	if (e->v != v) {
		e->v = v;
		e->n = tl_fmt_var8(p, (uint32_t)v);
		memcpy(&e->text, p, 8);
		return p + e->n;
	}
	memcpy(p, &e->text, 8);
	return p + e->n;
}

/* s[0..n) escaped for a JSON string at p (room: 6 bytes a character);
 * returns the end. */
static char *json_body_at(char *p, const char *s, size_t n)
{
	for (const unsigned char *c = (const unsigned char *)s, *e = c + n; c < e; c++) {
		if (*c == '"' || *c == '\\') {
			*p++ = '\\';
			*p++ = (char)*c;
		} else if (*c < 0x20) {
			p = TL_LIT(p, "\\u00");
			*p++ = "0123456789abcdef"[*c >> 4];
			*p++ = "0123456789abcdef"[*c & 15];
		} else {
			*p++ = (char)*c;
		}
	}
	return p;
}

/* The length of s escaped for a JSON string. */
static size_t json_body_len(const char *s)
{
	size_t n = 0;
	for (const unsigned char *c = (const unsigned char *)s; *c; c++)
		n += *c == '"' || *c == '\\' ? 2 : *c < 0x20 ? 6 : 1;
	return n;
}

/* A JSON string at p (room: 6 bytes a character + 2); returns the end. */
static char *json_at(char *p, const char *s)
{
	*p++ = '"';
	p = json_body_at(p, s, strlen(s));
	*p++ = '"';
	return p;
}

/* A JSON string of any length, in pieces. */
static void put_json_string(tl_file *f, const char *s)
{
	enum { PIECE = 1024 };
	tl_putc(f, '"');
	for (size_t n = strlen(s); n;) {
		size_t k = n < PIECE ? n : PIECE;
		tl_done(f, json_body_at(tl_room(f, 6 * PIECE), s, k));
		s += k;
		n -= k;
	}
	tl_putc(f, '"');
}

/* Room for an event's literals and numbers (the names aside). */
enum { EV_ROOM = 320 };

/* The start of a cycle in whole ns (rounded down).  Both ends of a span are
 * computed this way, so ts + dur is exact and spans that touch never
 * overlap once a viewer converts µs to integer ns. */
static uint64_t time_ns(const tl_chrome *w, uint64_t cycle)
{
	uint64_t mhz = w->o.clock_mhz;
	return (cycle / mhz) * 1000u + (cycle % mhz) * 1000u / mhz;
}

/* Times in µs: whole cycles, or ns as µs with three decimals. */
static char *us_at(const tl_chrome *w, char *p, uint64_t v)
{
	if (!w->o.clock_mhz)
		return tl_u64(p, v);
	p = tl_u64(p, v / 1000u);
	*p++ = '.';
	uint64_t r = v % 1000u;
	p[0] = (char)('0' + r / 100);
	p[1] = (char)('0' + r / 10 % 10);
	p[2] = (char)('0' + r % 10);
	return p + 3;
}

static char *ts_at(const tl_chrome *w, char *p, uint64_t cycle)
{
	p = TL_LIT(p, ",\"ts\":");
	return us_at(w, p, w->o.clock_mhz ? time_ns(w, cycle) : cycle);
}

static char *dur_at(const tl_chrome *w, char *p, uint64_t begin, uint64_t end)
{
	p = TL_LIT(p, ",\"dur\":");
	return us_at(w, p, w->o.clock_mhz ? time_ns(w, end) - time_ns(w, begin) : end - begin);
}

/* ,"args":{"id":<id>,"arg":<arg> (the braces are left open) */
TL_INLINE char *args_at(char *p, uint32_t id, uint32_t arg)
{
	p = TL_LIT(p, ",\"args\":{\"id\":");
	p = tl_u64(p, id);
	p = TL_LIT(p, ",\"arg\":");
	return tl_u64(p, arg);
}

/* An "X" or "i" event's start, up to its tid. */
static char *x_start(char *p, char ph, unsigned tid)
{
	p = TL_LIT(p, ",\n{\"ph\":\"");
	*p++ = ph;
	p = TL_LIT(p, "\",\"pid\":1,\"tid\":");
	return tl_u64(p, tid);
}

/* ph is one character: "X", "i" or "M".  Every event but the first
 * (tl_chrome_open's process_name) follows another. */
static void event_start(tl_chrome *w, char ph)
{
	TL_PUT_LIT(&w->file, ",\n{\"ph\":\"");
	tl_putc(&w->file, ph);
	TL_PUT_LIT(&w->file, "\",\"pid\":1");
}

static const char *lane_name(const tl_chrome *w, uint16_t lane, char *buf, size_t n)
{
	const sim_timeline *tl = w->o.tl;
	if (tl && lane < tl->nlanes && tl->lane_name[lane])
		return tl->lane_name[lane];
	snprintf(buf, n, "lane%u", (unsigned)lane);
	return buf;
}

static void thread_meta(tl_chrome *w, unsigned tid, const char *name, int slot)
{
	event_start(w, 'M');
	TL_PUT_LIT(&w->file, ",\"tid\":");
	tl_put_u64(&w->file, tid);
	TL_PUT_LIT(&w->file, ",\"name\":\"thread_name\",\"args\":{\"name\":");
	if (slot < 0) {
		put_json_string(&w->file, name);
	} else {
		char buf[160];
		snprintf(buf, sizeof buf, "%s #%d", name, slot);
		put_json_string(&w->file, buf);
	}
	TL_PUT_LIT(&w->file, "}}");
	event_start(w, 'M');
	TL_PUT_LIT(&w->file, ",\"tid\":");
	tl_put_u64(&w->file, tid);
	TL_PUT_LIT(&w->file, ",\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":");
	tl_put_u64(&w->file, tid);
	TL_PUT_LIT(&w->file, "}}");
}

static unsigned act_tid(uint16_t lane) { return ((unsigned)lane + 1) * TID_STRIDE; }

static ch_lane *lane_get(tl_chrome *w, uint16_t lane)
{
	if (lane >= SIM_TL_MAX_LANES)
		lane = SIM_TL_MAX_LANES - 1;
	ch_lane *l = &w->lane[lane];
	if (!l->named) {
		char buf[32];
		thread_meta(w, act_tid(lane), lane_name(w, lane, buf, sizeof buf), -1);
		l->named = true;
	}
	return l;
}

TL_INLINE void close_span(tl_chrome *w, uint16_t lane, ch_lane *l, uint64_t at)
{
	if (l->act == SIM_ACT_IDLE || at <= l->since)
		return;
	const ch_head *name = &w->act_name[l->act < NACT ? l->act : NACT];
	if (!name->n) {
		const char *s = sim_activity_name(l->act);
		char *p = tl_room(&w->file, EV_ROOM + 6 * strlen(s));
		p = x_start(p, 'X', act_tid(lane));
		p = TL_LIT(p, ",\"cat\":\"activity\",\"name\":");
		p = json_at(p, s);
		p = ts_at(w, p, l->since);
		p = dur_at(w, p, l->since, at);
		*p++ = '}';
		tl_done(&w->file, p);
		return;
	}
	_Static_assert(2 * HEAD_ROOM + 80 <= EV_ROOM, "an activity span fits its room");
	char *p = tl_room(&w->file, EV_ROOM);
	memcpy(p, w->act_head[lane].text, HEAD_ROOM);
	p += w->act_head[lane].n;
	memcpy(p, name->text, HEAD_ROOM);
	p += name->n;
	if (!w->o.clock_mhz) {
		p = cached_u64(w->ts_digits, p, l->since);
		p = TL_LIT(p, ",\"dur\":");
		p = tl_u64(p, at - l->since);
	} else {
		p = us_at(w, p, time_ns(w, l->since));
		p = dur_at(w, p, l->since, at);
	}
	*p++ = '}';
	tl_done(&w->file, p);
}

/* "0x<arg>" in quotes, as printf's "\"0x%x\"" (plain for JSON). */
TL_INLINE char *hex_name_at(char *p, uint32_t arg)
{
	if (arg < 16u) {
		memcpy(p, "\"0x0\"", 5);
		p[3] = "0123456789abcdef"[arg];
		return p + 5;
	}
	unsigned n = arg ? (35u - (unsigned)__builtin_clz(arg)) / 4 : 1;
	p = TL_LIT(p, "\"0x");
	for (unsigned i = n; i--;) {
		p[i] = "0123456789abcdef"[arg & 15];
		arg >>= 4;
	}
	p[n] = '"';
	return p + n + 1;
}

TL_INLINE void write_item(tl_chrome *w, uint16_t lane, const ch_item *it, uint64_t end, bool open)
{
	char name[128];
	if (w->o.label) {
		name[0] = '\0';
		w->o.label(w->o.label_ctx, lane, it->id, it->arg, name, sizeof name);
	}
	_Static_assert(HEAD_ROOM + 140 <= EV_ROOM, "an item fits its room");
	char *p = tl_room(&w->file, EV_ROOM + (w->o.label ? 6 * sizeof name : 0));
	memcpy(p, w->item_head[lane].text, HEAD_ROOM);
	char *slot = p + w->slot_at[lane];      /* 1 + slot < 1000: the tid's last 3 digits */
	unsigned k = 1u + it->slot;
	slot[0] = (char)('0' + k / 100u);
	memcpy(slot + 1, tl_d2 + 2 * (k % 100u), 2);
	p += w->item_head[lane].n;
	p = w->o.label ? json_at(p, name) : hex_name_at(p, it->arg);
	if (!w->o.clock_mhz) {                  /* 1 cycle = 1 µs: the common case, straight */
		p = TL_LIT(p, ",\"ts\":");
		p = cached_u64(w->ts_digits, p, it->begin);
		p = TL_LIT(p, ",\"dur\":");
		p = tl_u64(p, end - it->begin);
	} else {
		p = ts_at(w, p, it->begin);
		p = dur_at(w, p, it->begin, end);
	}
	p = TL_LIT(p, ",\"args\":{\"id\":");
	p = cached_u64(w->id_digits, p, it->id);
	p = TL_LIT(p, ",\"arg\":");
	p = tl_u64(p, it->arg);
	if (open)
		p = TL_LIT(p, ",\"unfinished\":true");
	p = TL_LIT(p, "}}");
	tl_done(&w->file, p);
}

static void item_begin(tl_chrome *w, uint16_t lane, ch_lane *l, const sim_tl_event *ev)
{
	unsigned slot = TL_CHROME_MAX_SLOTS;
	for (unsigned k = 0; k < SLOT_WORDS; k++) {
		if (~l->slot_used[k]) {
			slot = k * 64 + (unsigned)__builtin_ctzll(~l->slot_used[k]);
			break;
		}
	}
	if (slot == TL_CHROME_MAX_SLOTS) {
		w->dropped++;
		return;
	}
	if (l->n == l->cap) {
		uint32_t cap = l->cap ? l->cap * 2 : 16;
		ch_item *ni = realloc(l->items, cap * sizeof *ni);
		if (!ni) {
			tl_file_fail(&w->file, "out of memory");
			return;
		}
		l->items = ni;
		l->cap = cap;
	}
	l->items[l->n++] = (ch_item){ .id = ev->id, .arg = ev->arg, .begin = ev->cycle,
	                              .slot = (uint16_t)slot };
	l->slot_used[slot / 64] |= 1ull << (slot % 64);
	if (!(l->slot_named[slot / 64] & (1ull << (slot % 64)))) {
		char buf[32];
		thread_meta(w, act_tid(lane) + 1 + slot, lane_name(w, lane, buf, sizeof buf), (int)slot);
		l->slot_named[slot / 64] |= 1ull << (slot % 64);
	}
}

static void item_end(tl_chrome *w, uint16_t lane, ch_lane *l, const sim_tl_event *ev)
{
	for (uint32_t i = 0; i < l->n; i++) {
		if (l->items[i].id != ev->id)
			continue;
		ch_item it = l->items[i];
		write_item(w, lane, &it, ev->cycle, false);
		l->slot_used[it.slot / 64] &= ~(1ull << (it.slot % 64));
		if (i + 1 < l->n)
			memmove(&l->items[i], &l->items[i + 1], (l->n - i - 1) * sizeof *l->items);
		l->n--;
		return;
	}
	/* an END without its BEGIN (recording window): nothing to draw */
}

static bool chrome_write(void *ctx, const sim_tl_event *ev, size_t n)
{
	tl_chrome *w = ctx;
	if (w->file.failed)
		return false;
	for (size_t i = 0; i < n && !w->file.failed; i++) {
		const sim_tl_event *e = &ev[i];
		uint16_t lane = e->lane < SIM_TL_MAX_LANES ? e->lane : SIM_TL_MAX_LANES - 1;
		ch_lane *l = lane_get(w, lane);
		if (e->cycle > w->last)
			w->last = e->cycle;
		switch (e->kind) {
		case SIM_TL_ACTIVITY:
			if (e->arg == l->act)
				break;
			close_span(w, lane, l, e->cycle);
			l->act = (uint8_t)e->arg;
			l->since = e->cycle;
			break;
		case SIM_TL_BEGIN:
			item_begin(w, lane, l, e);
			break;
		case SIM_TL_END:
			item_end(w, lane, l, e);
			break;
		case SIM_TL_INSTANT: {
			char *p = tl_room(&w->file, EV_ROOM);
			p = x_start(p, 'i', act_tid(lane));
			p = TL_LIT(p, ",\"s\":\"t\",\"cat\":\"instant\",\"name\":");
			p = hex_name_at(p, e->arg);
			p = ts_at(w, p, e->cycle);
			p = args_at(p, e->id, e->arg);
			p = TL_LIT(p, "}}");
			tl_done(&w->file, p);
			break;
		}
		default:
			break;
		}
	}
	return tl_file_check(&w->file);
}

/* The writer's constant texts (struct tl_chrome). */
static void make_heads(tl_chrome *w)
{
	for (unsigned i = 0; i < DIGIT_CACHE; i++)
		w->ts_digits[i].v = w->id_digits[i].v = i + 1u;
	for (unsigned lane = 0; lane < SIM_TL_MAX_LANES; lane++) {
		char *p = w->act_head[lane].text;
		p = x_start(p, 'X', act_tid((uint16_t)lane));
		p = TL_LIT(p, ",\"cat\":\"activity\",\"name\":");
		w->act_head[lane].n = (uint8_t)(p - w->act_head[lane].text);
		p = x_start(w->item_head[lane].text, 'X', act_tid((uint16_t)lane) + 1);
		w->slot_at[lane] = (uint8_t)(p - 3 - w->item_head[lane].text);
		p = TL_LIT(p, ",\"cat\":\"item\",\"name\":");
		w->item_head[lane].n = (uint8_t)(p - w->item_head[lane].text);
	}
	for (unsigned a = 0; a <= NACT; a++) {
		const char *name = sim_activity_name((uint8_t)(a < NACT ? a : 255));
		ch_head *h = &w->act_name[a];
		if (json_body_len(name) + 2 + 6 > HEAD_ROOM) {
			h->n = 0;
			continue;
		}
		char *p = json_at(h->text, name);
		p = TL_LIT(p, ",\"ts\":");
		h->n = (uint8_t)(p - h->text);
	}
}

_Static_assert(offsetof(tl_chrome, file) == 0, "tl_file_new_writer: the file comes first");

tl_chrome *tl_chrome_open(const char *path, const tl_chrome_opts *opts, ulp_diag *d)
{
	tl_chrome *w = tl_file_new_writer(sizeof *w, path, d);
	if (!w)
		return NULL;
	if (opts)
		w->o = *opts;
	make_heads(w);
	TL_PUT_LIT(&w->file, "{\"traceEvents\":[\n{\"ph\":\"M\",\"pid\":1");
	TL_PUT_LIT(&w->file, ",\"name\":\"process_name\",\"args\":{\"name\":");
	put_json_string(&w->file, w->o.process_name ? w->o.process_name : "GPU");
	TL_PUT_LIT(&w->file, "}}");
	return w;
}

sim_tl_sink tl_chrome_sink(tl_chrome *w)
{
	return (sim_tl_sink){ .ctx = w, .write = chrome_write, .close = NULL };
}

uint64_t tl_chrome_dropped(const tl_chrome *w) { return w->dropped; }

static void free_writer(tl_chrome *w)
{
	for (unsigned i = 0; i < SIM_TL_MAX_LANES; i++)
		free(w->lane[i].items);
	free(w);
}

bool tl_chrome_close(tl_chrome *w, ulp_diag *d)
{
	if (!w)
		return false;
	if (!w->file.failed) {
		for (uint16_t i = 0; i < SIM_TL_MAX_LANES; i++) {
			ch_lane *l = &w->lane[i];
			close_span(w, i, l, w->last);
			for (uint32_t k = 0; k < l->n; k++)
				write_item(w, i, &l->items[k], w->last, true);
		}
		TL_PUT_LIT(&w->file, "\n],\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":\"ulpsim\",");
		if (w->o.clock_mhz) {
			TL_PUT_LIT(&w->file, "\"time_unit\":\"ts in us at ");
			tl_put_u64(&w->file, w->o.clock_mhz);
			TL_PUT_LIT(&w->file, " MHz\",\"clock_mhz\":");
			tl_put_u64(&w->file, w->o.clock_mhz);
			tl_putc(&w->file, ',');
		} else {
			TL_PUT_LIT(&w->file, "\"time_unit\":\"1 cycle = 1 us\",");
		}
		TL_PUT_LIT(&w->file, "\"last_cycle\":");
		tl_put_u64(&w->file, w->last);
		TL_PUT_LIT(&w->file, ",\"dropped_items\":");
		tl_put_u64(&w->file, w->dropped);
		TL_PUT_LIT(&w->file, "}}\n");
	}
	bool ok = tl_file_close(&w->file, d);
	free_writer(w);
	return ok;
}

void tl_chrome_abort(tl_chrome *w)
{
	if (!w)
		return;
	ulp_out_abort(&w->file.out);
	free_writer(w);
}
