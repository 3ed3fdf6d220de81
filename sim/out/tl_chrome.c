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

struct tl_chrome {
	tl_file file;               /* the output, its first error */
	tl_chrome_opts o;
	bool any;                          /* an event has been written */
	uint64_t last;                     /* last cycle seen */
	uint64_t dropped;
	ch_lane lane[SIM_TL_MAX_LANES];
};

static void put_json_string(FILE *f, const char *s)
{
	bool plain = true;
	for (const unsigned char *p = (const unsigned char *)s; *p && plain; p++)
		plain = *p >= 0x20 && *p != '"' && *p != '\\';
	if (plain) {
		fprintf(f, "\"%s\"", s);
		return;
	}
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

/* The start of a cycle in whole ns (rounded down).  Both ends of a span are
 * computed this way, so ts + dur is exact and spans that touch never
 * overlap once a viewer converts µs to integer ns. */
static uint64_t time_ns(const tl_chrome *w, uint64_t cycle)
{
	uint64_t mhz = w->o.clock_mhz;
	return (cycle / mhz) * 1000u + (cycle % mhz) * 1000u / mhz;
}

static void put_ts(tl_chrome *w, uint64_t cycle)
{
	if (!w->o.clock_mhz) {
		fprintf(w->file.out.f, ",\"ts\":%llu", (unsigned long long)cycle);
		return;
	}
	uint64_t t = time_ns(w, cycle);
	fprintf(w->file.out.f, ",\"ts\":%llu.%03llu", (unsigned long long)(t / 1000u),
	        (unsigned long long)(t % 1000u));
}

static void put_dur(tl_chrome *w, uint64_t begin, uint64_t end)
{
	if (!w->o.clock_mhz) {
		fprintf(w->file.out.f, ",\"dur\":%llu", (unsigned long long)(end - begin));
		return;
	}
	uint64_t t = time_ns(w, end) - time_ns(w, begin);
	fprintf(w->file.out.f, ",\"dur\":%llu.%03llu", (unsigned long long)(t / 1000u),
	        (unsigned long long)(t % 1000u));
}

static void event_start(tl_chrome *w, const char *ph)
{
	fputs(w->any ? ",\n{" : "\n{", w->file.out.f);
	w->any = true;
	fprintf(w->file.out.f, "\"ph\":\"%s\",\"pid\":1", ph);
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
	event_start(w, "M");
	fprintf(w->file.out.f, ",\"tid\":%u,\"name\":\"thread_name\",\"args\":{\"name\":", tid);
	if (slot < 0) {
		put_json_string(w->file.out.f, name);
	} else {
		char buf[160];
		snprintf(buf, sizeof buf, "%s #%d", name, slot);
		put_json_string(w->file.out.f, buf);
	}
	fputs("}}", w->file.out.f);
	event_start(w, "M");
	fprintf(w->file.out.f, ",\"tid\":%u,\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":%u}}",
	        tid, tid);
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

static void close_span(tl_chrome *w, uint16_t lane, ch_lane *l, uint64_t at)
{
	if (l->act != SIM_ACT_IDLE && at > l->since) {
		event_start(w, "X");
		fprintf(w->file.out.f, ",\"tid\":%u,\"cat\":\"activity\",\"name\":", act_tid(lane));
		put_json_string(w->file.out.f, sim_activity_name(l->act));
		put_ts(w, l->since);
		put_dur(w, l->since, at);
		fputc('}', w->file.out.f);
	}
}

static void item_name(const tl_chrome *w, uint16_t lane, const ch_item *it, char *buf, size_t n)
{
	if (w->o.label) {
		buf[0] = '\0';
		w->o.label(w->o.label_ctx, lane, it->id, it->arg, buf, n);
	} else {
		snprintf(buf, n, "0x%x", it->arg);
	}
}

static void write_item(tl_chrome *w, uint16_t lane, const ch_item *it, uint64_t end, bool open)
{
	char name[128];
	item_name(w, lane, it, name, sizeof name);
	event_start(w, "X");
	fprintf(w->file.out.f, ",\"tid\":%u,\"cat\":\"item\",\"name\":", act_tid(lane) + 1 + it->slot);
	put_json_string(w->file.out.f, name);
	put_ts(w, it->begin);
	put_dur(w, it->begin, end);
	fprintf(w->file.out.f, ",\"args\":{\"id\":%lu,\"arg\":%lu%s}}", (unsigned long)it->id,
	        (unsigned long)it->arg, open ? ",\"unfinished\":true" : "");
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
		case SIM_TL_INSTANT:
			event_start(w, "i");
			fprintf(w->file.out.f, ",\"tid\":%u,\"s\":\"t\",\"cat\":\"instant\",\"name\":\"0x%x\"",
			        act_tid(lane), e->arg);
			put_ts(w, e->cycle);
			fprintf(w->file.out.f, ",\"args\":{\"id\":%lu,\"arg\":%lu}}", (unsigned long)e->id,
			        (unsigned long)e->arg);
			break;
		default:
			break;
		}
	}
	return tl_file_check(&w->file);
}

_Static_assert(offsetof(tl_chrome, file) == 0, "tl_file_new_writer: the file comes first");

tl_chrome *tl_chrome_open(const char *path, const tl_chrome_opts *opts, ulp_diag *d)
{
	tl_chrome *w = tl_file_new_writer(sizeof *w, path, d);
	if (!w)
		return NULL;
	if (opts)
		w->o = *opts;
	fputs("{\"traceEvents\":[", w->file.out.f);
	event_start(w, "M");
	fputs(",\"name\":\"process_name\",\"args\":{\"name\":", w->file.out.f);
	put_json_string(w->file.out.f, w->o.process_name ? w->o.process_name : "GPU");
	fputs("}}", w->file.out.f);
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
		fputs("\n],\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":\"ulpsim\",", w->file.out.f);
		if (w->o.clock_mhz)
			fprintf(w->file.out.f, "\"time_unit\":\"ts in us at %u MHz\",\"clock_mhz\":%u,",
			        w->o.clock_mhz, w->o.clock_mhz);
		else
			fputs("\"time_unit\":\"1 cycle = 1 us\",", w->file.out.f);
		fprintf(w->file.out.f, "\"last_cycle\":%llu,\"dropped_items\":%llu}}\n",
		        (unsigned long long)w->last, (unsigned long long)w->dropped);
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
