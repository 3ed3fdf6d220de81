/* VCD timeline sink (tl_vcd.h). */
#include "sim/out/tl_vcd.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/out/tl_file.h"
#include "sim/core/unit.h"

enum { VAR_ACT, VAR_ITEM, VAR_ARG, VAR_INFLIGHT, VAR_INSTANT, VARS_PER_LANE,
       MAX_INFLIGHT = 65535 };

typedef struct vcd_item {
	uint32_t id, arg;
} vcd_item;

typedef struct vcd_lane {
	uint8_t act;
	vcd_item *items;                   /* in flight, in BEGIN order */
	uint32_t n, cap;
	bool instant;                      /* an instant this cycle */
	bool dirty;
	/* what the file shows */
	uint8_t out_act;
	bool out_has_item;
	vcd_item out_item;
	uint32_t out_n;
} vcd_lane;

struct tl_vcd {
	tl_file file;               /* the output, its first error */
	tl_vcd_opts o;
	bool started;
	unsigned nlanes;                   /* declared in the header */
	uint64_t now, written;             /* current time; last "#t" written */
	uint64_t dropped;
	uint16_t dirty[SIM_TL_MAX_LANES];
	unsigned ndirty;
	vcd_lane lane[SIM_TL_MAX_LANES];
	/* var_code of every lane's variables, made at open */
	char code[SIM_TL_MAX_LANES][VARS_PER_LANE][4];
	uint8_t code_n[SIM_TL_MAX_LANES][VARS_PER_LANE];
};
_Static_assert(SIM_TL_MAX_LANES * VARS_PER_LANE <= 94 * 94, "variable codes of at most 2 characters");

/* Identifier code of variable v of a lane: base-94 printable ASCII; returns
 * its length. */
static size_t var_code(unsigned lane, unsigned v, char buf[8])
{
	unsigned k = lane * VARS_PER_LANE + v, n = 0;
	do {
		buf[n++] = (char)('!' + k % 94);
		k /= 94;
	} while (k && n < 7);
	buf[n] = '\0';
	return n;
}

/* "b<v in binary> <code>\n", four bits at a time */
static void put_bin(tl_vcd *w, uint32_t v, unsigned lane, unsigned var)
{
	static const char NIB[16][4] = {
		"0000", "0001", "0010", "0011", "0100", "0101", "0110", "0111",
		"1000", "1001", "1010", "1011", "1100", "1101", "1110", "1111",
	};
	tl_file *f = &w->file;
	char *p = tl_room(f, 1 + 32 + 1 + 4 + 1);
	int nb = v ? 32 - __builtin_clz(v) : 1;
	*p++ = 'b';
	int b = nb - 1;
	for (; (b & 3) != 3; b--)          /* the top bits, down to a whole nibble */
		*p++ = (char)('0' + ((v >> b) & 1u));
	for (; b >= 3; b -= 4, p += 4)
		memcpy(p, NIB[(v >> (b - 3)) & 15u], 4);
	*p++ = ' ';
	memcpy(p, w->code[lane][var], 2);
	p += w->code_n[lane][var];
	*p++ = '\n';
	tl_done(f, p);
}

static void put_x(tl_vcd *w, unsigned lane, unsigned var)
{
	tl_file *f = &w->file;
	char *p = tl_room(f, 3 + 4 + 1);
	p = TL_LIT(p, "bx ");
	memcpy(p, w->code[lane][var], 2);
	p += w->code_n[lane][var];
	*p++ = '\n';
	tl_done(f, p);
}

/* Scope names: identifier characters only. */
static void put_scope(tl_file *f, const char *name)
{
	TL_PUT_LIT(f, "$scope module ");
	for (const char *p = name; *p; p++) {
		char c = *p;
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		          c == '_';
		tl_putc(f, ok ? c : '_');
	}
	TL_PUT_LIT(f, " $end\n");
}

static void header(tl_vcd *w, const sim_tl_event *ev, size_t n)
{
	tl_file *f = &w->file;
	const sim_timeline *tl = w->o.tl;
	unsigned nl = tl ? tl->nlanes : 0;
	for (size_t i = 0; i < n; i++)
		if (ev[i].lane >= nl && ev[i].lane < SIM_TL_MAX_LANES)
			nl = ev[i].lane + 1u;
	w->nlanes = nl;
	TL_PUT_LIT(f, "$version ulpsim timeline (docs/outputs.md) $end\n$comment activity codes:");
	for (unsigned a = 0; a < SIM_ACT_STALL + SIM_STALL_COUNT; a++) {
		tl_putc(f, ' ');
		tl_put_u64(f, a);
		tl_putc(f, ' ');
		tl_puts(f, sim_activity_name((uint8_t)a));
		if (a + 1 < SIM_ACT_STALL + SIM_STALL_COUNT)
			tl_putc(f, ',');
	}
	TL_PUT_LIT(f, " $end\n$timescale 1ns $end\n");
	put_scope(f, w->o.top ? w->o.top : "gpu");
	static const char *const var_type[VARS_PER_LANE] = {
		"reg 8", "reg 32", "reg 32", "reg 16", "event 1",
	};
	static const char *const var_name[VARS_PER_LANE] = {
		"activity", "item", "arg", "inflight", "instant",
	};
	for (unsigned l = 0; l < nl; l++) {
		char buf[32], code[8];
		const char *name = tl && l < tl->nlanes && tl->lane_name[l] ? tl->lane_name[l] : NULL;
		if (!name) {
			snprintf(buf, sizeof buf, "lane%u", l);
			name = buf;
		}
		put_scope(f, name);
		for (unsigned v = 0; v < VARS_PER_LANE; v++) {
			var_code(l, v, code);
			TL_PUT_LIT(f, "$var ");
			tl_puts(f, var_type[v]);
			tl_putc(f, ' ');
			tl_puts(f, code);
			tl_putc(f, ' ');
			tl_puts(f, var_name[v]);
			TL_PUT_LIT(f, " $end\n");
		}
		TL_PUT_LIT(f, "$upscope $end\n");
	}
	TL_PUT_LIT(f, "$upscope $end\n$enddefinitions $end\n#0\n$dumpvars\n");
	for (unsigned l = 0; l < nl; l++) {
		put_bin(w, 0, l, VAR_ACT);
		put_x(w, l, VAR_ITEM);
		put_x(w, l, VAR_ARG);
		put_bin(w, 0, l, VAR_INFLIGHT);
	}
	TL_PUT_LIT(f, "$end\n");
	w->started = true;
}

static void mark(tl_vcd *w, uint16_t lane)
{
	if (!w->lane[lane].dirty) {
		w->lane[lane].dirty = true;
		w->dirty[w->ndirty++] = lane;
	}
}

static void put_time(tl_file *f, uint64_t t)
{
	char *p = tl_room(f, 22);
	p[0] = '#';
	size_t n = 1 + tl_fmt_u64(p + 1, t);
	p[n++] = '\n';
	f->tn += n;
}

static void stamp(tl_vcd *w, bool *stamped)
{
	if (!*stamped && w->now != w->written)
		put_time(&w->file, w->now);
	w->written = w->now;
	*stamped = true;
}

/* Dump the end-of-cycle values of the lanes that changed at w->now. */
static void flush_time(tl_vcd *w)
{
	tl_file *f = &w->file;
	bool stamped = false;
	for (unsigned i = 0; i < w->ndirty; i++) {
		uint16_t ln = w->dirty[i];
		vcd_lane *l = &w->lane[ln];
		l->dirty = false;
		if (l->act != l->out_act) {
			stamp(w, &stamped);
			put_bin(w, l->act, ln, VAR_ACT);
			l->out_act = l->act;
		}
		bool has = l->n > 0;
		vcd_item cur = has ? l->items[l->n - 1] : (vcd_item){ 0, 0 };
		if (has != l->out_has_item || (has && cur.id != l->out_item.id)) {
			stamp(w, &stamped);
			if (has)
				put_bin(w, cur.id, ln, VAR_ITEM);
			else
				put_x(w, ln, VAR_ITEM);
		}
		if (has != l->out_has_item || (has && cur.arg != l->out_item.arg)) {
			stamp(w, &stamped);
			if (has)
				put_bin(w, cur.arg, ln, VAR_ARG);
			else
				put_x(w, ln, VAR_ARG);
		}
		l->out_has_item = has;
		l->out_item = cur;
		if (l->n != l->out_n) {
			stamp(w, &stamped);
			put_bin(w, l->n, ln, VAR_INFLIGHT);
			l->out_n = l->n;
		}
		if (l->instant) {
			stamp(w, &stamped);
			char *p = tl_room(f, 1 + 4 + 1);
			*p++ = '1';
			memcpy(p, w->code[ln][VAR_INSTANT], 2);
			p += w->code_n[ln][VAR_INSTANT];
			*p++ = '\n';
			tl_done(f, p);
			l->instant = false;
		}
	}
	w->ndirty = 0;
}

static bool item_push(tl_vcd *w, vcd_lane *l, const sim_tl_event *e)
{
	if (l->n == MAX_INFLIGHT) {
		w->dropped++;
		return true;
	}
	if (l->n == l->cap) {
		uint32_t cap = l->cap ? l->cap * 2 : 16;
		vcd_item *ni = realloc(l->items, cap * sizeof *ni);
		if (!ni)
			return tl_file_fail(&w->file, "out of memory");
		l->items = ni;
		l->cap = cap;
	}
	l->items[l->n++] = (vcd_item){ e->id, e->arg };
	return true;
}

static void item_pop(vcd_lane *l, uint32_t id)
{
	for (uint32_t i = 0; i < l->n; i++) {
		if (l->items[i].id == id) {
			memmove(&l->items[i], &l->items[i + 1], (l->n - i - 1) * sizeof *l->items);
			l->n--;
			return;
		}
	}
}

static bool vcd_write(void *ctx, const sim_tl_event *ev, size_t n)
{
	tl_vcd *w = ctx;
	if (w->file.failed)
		return false;
	if (!w->started)
		header(w, ev, n);
	for (size_t i = 0; i < n; i++) {
		const sim_tl_event *e = &ev[i];
		if (e->lane >= w->nlanes) {
			w->dropped++;
			continue;
		}
		if (e->cycle > w->now) {
			flush_time(w);
			w->now = e->cycle;
		}
		vcd_lane *l = &w->lane[e->lane];
		switch (e->kind) {
		case SIM_TL_ACTIVITY:
			l->act = (uint8_t)e->arg;
			break;
		case SIM_TL_BEGIN:
			if (!item_push(w, l, e))
				return false;
			break;
		case SIM_TL_END:
			item_pop(l, e->id);
			break;
		case SIM_TL_INSTANT:
			l->instant = true;
			break;
		default:
			continue;
		}
		mark(w, e->lane);
	}
	return tl_file_check(&w->file);
}

_Static_assert(offsetof(tl_vcd, file) == 0, "tl_file_new_writer: the file comes first");

tl_vcd *tl_vcd_open(const char *path, const tl_vcd_opts *opts, ulp_diag *d)
{
	tl_vcd *w = tl_file_new_writer(sizeof *w, path, d);
	if (!w)
		return NULL;
	if (opts)
		w->o = *opts;
	for (unsigned l = 0; l < SIM_TL_MAX_LANES; l++)
		for (unsigned v = 0; v < VARS_PER_LANE; v++)
			w->code_n[l][v] = (uint8_t)var_code(l, v, w->code[l][v]);
	return w;
}

sim_tl_sink tl_vcd_sink(tl_vcd *w)
{
	return (sim_tl_sink){ .ctx = w, .write = vcd_write, .close = NULL };
}

uint64_t tl_vcd_dropped(const tl_vcd *w) { return w->dropped; }

static void free_writer(tl_vcd *w)
{
	for (unsigned i = 0; i < SIM_TL_MAX_LANES; i++)
		free(w->lane[i].items);
	free(w);
}

bool tl_vcd_close(tl_vcd *w, ulp_diag *d)
{
	if (!w)
		return false;
	if (!w->file.failed) {
		if (!w->started)
			header(w, NULL, 0);
		flush_time(w);
		if (w->now != w->written)
			put_time(&w->file, w->now);
	}
	bool ok = tl_file_close(&w->file, d);
	free_writer(w);
	return ok;
}

void tl_vcd_abort(tl_vcd *w)
{
	if (!w)
		return;
	ulp_out_abort(&w->file.out);
	free_writer(w);
}
