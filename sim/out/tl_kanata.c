/* Kanata v4 timeline sink (tl_kanata.h). */
#include "sim/out/tl_kanata.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/out/tl_file.h"

typedef struct kn_instr {
	uint32_t id, arg;
	uint32_t key_lane;                 /* the lane with lane_local, else 0 */
	uint64_t serial;
	uint64_t idle_since;
	uint32_t held;                     /* lanes holding it */
	uint32_t gen;                      /* bumped on retire (stale queue entries) */
	int32_t stage;                     /* lane of the open stage, -1: none */
	bool live;
	uint8_t serial_n;                  /* digits of serial in serial_text; 0: serial >= 10^8 */
	uint64_t serial_text;              /* they are written on most of its lines */
} kn_instr;

typedef struct kn_ref {
	uint32_t id, slot;
} kn_ref;

typedef struct kn_lane {
	kn_ref *r;                         /* items in the lane, oldest first */
	uint32_t n, cap;
} kn_lane;

/* A lane's name as Kanata shows it (tabs and newlines cleaned), kept once
 * the timeline names the lane; with it, when it is short, the end of a
 * stage line, "\t0\t<name>\n", copied TAIL_ROOM bytes at a time. */
enum { TAIL_ROOM = 48, TAIL_NAME_MAX = TAIL_ROOM - 4 };

typedef struct kn_name {
	const char *s;                     /* NULL: not kept yet */
	size_t n;
	char buf[64];
	uint8_t tail_n;                    /* 0: the name is not kept, or too long */
	char tail[TAIL_ROOM + 4];          /* + 4: TAIL_ROOM bytes may be read from the name (tail + 3) */
} kn_name;

typedef struct kn_retire {
	uint32_t slot, gen;
	uint64_t since, due;
} kn_retire;

struct tl_kanata {
	tl_file file;               /* the output, its first error */
	tl_kanata_opts o;
	bool started;
	uint64_t now;
	uint64_t next_serial, next_retire, dropped;
	kn_instr *pool;                    /* slots; free ones listed in free_slots */
	uint32_t pool_n, pool_cap, live;
	uint32_t *free_slots;
	uint32_t nfree;
	uint32_t domain[SIM_TL_MAX_LANES];   /* gr3d_domains: each lane's key lane + 1, 0 not yet known */
	uint8_t last[SIM_TL_MAX_LANES];      /* gr3d_domains: 1 a lane that retires, 2 not, 0 not yet known */
	uint32_t key[SIM_TL_MAX_LANES];      /* key_lane of each lane, once known */
	uint64_t key_known;                  /* bit L: key[L] is known */
	int32_t *tab;                      /* open-addressing hash of live slots by key */
	uint32_t tab_cap;
	kn_retire *q;                      /* pending retirements, ring, due order */
	size_t q_head, q_n, q_cap;
	kn_lane lane[SIM_TL_MAX_LANES];
	kn_name name[SIM_TL_MAX_LANES];
};

static bool oom(tl_kanata *w)
{
	return tl_file_fail(&w->file, "out of memory");
}

static const char *lane_name(const tl_kanata *w, uint16_t lane, char *buf, size_t n)
{
	const sim_timeline *tl = w->o.tl;
	if (tl && lane < tl->nlanes && tl->lane_name[lane])
		return tl->lane_name[lane];
	snprintf(buf, n, "lane%u", (unsigned)lane);
	return buf;
}

/* ---- the live-item hash: key (id, arg) -> pool slot ---- */

static uint32_t key_hash(uint32_t lane, uint32_t id, uint32_t arg)
{
	uint64_t k = ((((uint64_t)id << 32) | arg) ^ ((uint64_t)lane << 48)) * 0x9E3779B97F4A7C15ull;
	return (uint32_t)(k >> 32);
}

/* Index of the key's cell, or of the empty cell where it would go. */
TL_INLINE uint32_t tab_find(const tl_kanata *w, uint32_t lane, uint32_t id, uint32_t arg)
{
	uint32_t mask = w->tab_cap - 1, i = key_hash(lane, id, arg) & mask;
	while (w->tab[i] >= 0) {
		const kn_instr *in = &w->pool[w->tab[i]];
		if (in->id == id && in->arg == arg && in->key_lane == lane)
			return i;
		i = (i + 1) & mask;
	}
	return i;
}

static bool tab_grow(tl_kanata *w)
{
	uint32_t cap = w->tab_cap ? w->tab_cap * 2 : 64;
	int32_t *old = w->tab;
	uint32_t old_cap = w->tab_cap;
	w->tab = malloc(cap * sizeof *w->tab);
	if (!w->tab) {
		w->tab = old;
		return oom(w);
	}
	memset(w->tab, 0xff, cap * sizeof *w->tab);
	w->tab_cap = cap;
	for (uint32_t i = 0; i < old_cap; i++) {
		if (old[i] >= 0) {
			const kn_instr *in = &w->pool[old[i]];
			w->tab[tab_find(w, in->key_lane, in->id, in->arg)] = old[i];
		}
	}
	free(old);
	return true;
}

/* Remove cell i, shifting later cells of the probe run back. */
static void tab_delete(tl_kanata *w, uint32_t i)
{
	uint32_t mask = w->tab_cap - 1, j = i;
	for (;;) {
		j = (j + 1) & mask;
		if (w->tab[j] < 0)
			break;
		const kn_instr *in = &w->pool[w->tab[j]];
		uint32_t home = key_hash(in->key_lane, in->id, in->arg) & mask;
		bool stays = i <= j ? (i < home && home <= j) : (i < home || home <= j);
		if (!stays) {
			w->tab[i] = w->tab[j];
			i = j;
		}
	}
	w->tab[i] = -1;
}

/* ---- output ---- */

static void set_time(tl_kanata *w, uint64_t t)
{
	if (t > w->now) {
		char *p = tl_room(&w->file, 2 + 20 + 1);
		p = TL_LIT(p, "C\t");
		p = tl_u64(p, t - w->now);
		*p++ = '\n';
		tl_done(&w->file, p);
		w->now = t;
	}
}

/* The instruction's serial at p (room: 20 bytes). */
TL_INLINE char *serial_at(const kn_instr *in, char *p)
{
	if (!in->serial_n)
		return tl_u64(p, in->serial);
	memcpy(p, &in->serial_text, 8);
	return p + in->serial_n;
}

/* s without tabs and newlines (they would break the line format). */
static const char *clean(const char *s, char *buf, size_t n)
{
	if (!strpbrk(s, "\t\n\r"))
		return s;
	size_t k = 0;
	for (; s[k] && k + 1 < n; k++)
		buf[k] = s[k] == '\t' || s[k] == '\n' || s[k] == '\r' ? ' ' : s[k];
	buf[k] = '\0';
	return buf;
}

/* clean(lane_name(lane)) and its length; tmp holds an unnamed lane's. */
static const char *stage_name(tl_kanata *w, uint16_t lane, char tmp[32], size_t *len)
{
	kn_name *c = &w->name[lane];
	if (!c->s) {
		const char *s = lane_name(w, lane, tmp, 32);
		if (s == tmp) {                /* not named (yet): not kept */
			*len = strlen(tmp);
			return tmp;
		}
		c->s = clean(s, c->buf, sizeof c->buf);
		c->n = strlen(c->s);
		if (c->n <= TAIL_NAME_MAX) {
			memcpy(c->tail, "\t0\t", 3);
			memcpy(c->tail + 3, c->s, c->n);
			c->tail[3 + c->n] = '\n';
			c->tail_n = (uint8_t)(c->n + 4);
		}
	}
	*len = c->n;
	return c->s;
}

static void stage_cmd_named(tl_kanata *w, char cmd, const kn_instr *in, uint16_t lane)
{
	char tmp[32];
	size_t n;
	const char *name = stage_name(w, lane, tmp, &n);
	char *p = tl_room(&w->file, 2 + 20 + 3);
	*p++ = cmd;
	*p++ = '\t';
	p = tl_u64(p, in->serial);
	tl_done(&w->file, TL_LIT(p, "\t0\t"));
	tl_put(&w->file, name, n);
	tl_putc(&w->file, '\n');
}

/* "<cmd>\t<serial>\t0\t<lane name>\n": S or E. */
TL_INLINE void stage_cmd(tl_kanata *w, char cmd, const kn_instr *in, uint16_t lane)
{
	const kn_name *c = &w->name[lane];
	if (!c->tail_n) {
		stage_cmd_named(w, cmd, in, lane);
		return;
	}
	char *p = tl_room(&w->file, 2 + 20 + TAIL_ROOM);
	p[0] = cmd;
	p[1] = '\t';
	p = serial_at(in, p + 2);
	memcpy(p, c->tail, TAIL_ROOM);
	tl_done(&w->file, p + c->tail_n);
}

static void retire(tl_kanata *w, uint32_t slot, int flush)
{
	kn_instr *in = &w->pool[slot];
	if (in->stage >= 0)
		stage_cmd(w, 'E', in, (uint16_t)in->stage);
	char *p = tl_room(&w->file, 2 + 20 + 1 + 20 + 3);
	p = TL_LIT(p, "R\t");
	p = serial_at(in, p);
	*p++ = '\t';
	p = tl_u64(p, w->next_retire++);
	*p++ = '\t';
	*p++ = flush ? '1' : '0';
	*p++ = '\n';
	tl_done(&w->file, p);
	tab_delete(w, tab_find(w, in->key_lane, in->id, in->arg));
	in->live = false;
	in->gen++;
	w->free_slots[w->nfree++] = slot;
	w->live--;
}

/* Retire the items whose grace ended before cycle `before`. */
static void run_retirements(tl_kanata *w, uint64_t before)
{
	while (w->q_n && w->q[w->q_head].due < before) {
		kn_retire r = w->q[w->q_head];
		w->q_head = (w->q_head + 1) % w->q_cap;
		w->q_n--;
		kn_instr *in = &w->pool[r.slot];
		if (!in->live || in->gen != r.gen || in->held || in->idle_since != r.since)
			continue;
		set_time(w, r.due);
		retire(w, r.slot, 0);
	}
}

static bool queue_retire(tl_kanata *w, uint32_t slot, uint64_t grace)
{
	if (w->q_n == w->q_cap) {
		size_t cap = w->q_cap ? w->q_cap * 2 : 64;
		kn_retire *nq = malloc(cap * sizeof *nq);
		if (!nq)
			return oom(w);
		for (size_t i = 0; i < w->q_n; i++)
			nq[i] = w->q[(w->q_head + i) % w->q_cap];
		free(w->q);
		w->q = nq;
		w->q_cap = cap;
		w->q_head = 0;
	}
	kn_instr *in = &w->pool[slot];
	w->q[(w->q_head + w->q_n++) % w->q_cap] =
		(kn_retire){ .slot = slot, .gen = in->gen, .since = in->idle_since,
		             .due = in->idle_since + grace };
	return true;
}

/* The GR3D fragment units a quad-EXEC (quad id, EXEC index) passes: one
 * block's lanes share item keys.  ZS's items are (quad, coverage mask),
 * once per quad, so ZS keys its own. */
static uint32_t gr3d_domain(const char *name, uint16_t lane)
{
	static const char *const UNITS[] = { "raster", "pseq", "mfu", "tex", "alu", "dw" };
	size_t n = name ? strlen(name) : 0;
	bool b = n > 2 && !strcmp(name + n - 2, "_b");
	for (size_t k = 0; k < sizeof UNITS / sizeof UNITS[0]; k++)
		if (n == strlen(UNITS[k]) + (b ? 2 : 0) && !strncmp(name, UNITS[k], n - (b ? 2 : 0)))
			return SIM_TL_MAX_LANES + (b ? 1u : 0u);     /* past every lane number */
	return lane;
}

static __attribute__((noinline)) uint32_t key_lane_first(tl_kanata *w, uint16_t lane)
{
	if (w->o.lane_local)
		return lane;
	if (!w->o.gr3d_domains || !w->o.tl || lane >= SIM_TL_MAX_LANES)
		return 0;
	if (!w->domain[lane])
		w->domain[lane] = gr3d_domain(w->o.tl->lane_name[lane], lane) + 1;
	return w->domain[lane] - 1;
}

/* The lane part of an item's key: the lane (lane_local), its GR3D block
 * (gr3d_domains), or 0; kept per lane once known (a lane's name does not
 * change once the timeline has it). */
TL_INLINE uint32_t key_lane(tl_kanata *w, uint16_t lane)
{
	if (lane < SIM_TL_MAX_LANES && (w->key_known >> lane & 1u))
		return w->key[lane];
	uint32_t k = key_lane_first(w, lane);
	if (lane < SIM_TL_MAX_LANES && (w->o.lane_local || !w->o.gr3d_domains || w->domain[lane])) {
		w->key[lane] = k;
		w->key_known |= 1ull << lane;
	}
	return k;
}

/* Does leaving this lane retire an item (when no lane holds it)?  With
 * last_lanes, only its lanes; with gr3d_domains, a quad-EXEC only when it
 * leaves DW (between GR3D units it waits in a port, held by no lane: the
 * same instruction, docs/outputs.md), any other item on leaving its lane. */
static bool lane_retires(tl_kanata *w, uint16_t lane)
{
	if (w->o.last_lanes)
		return lane < 64 && (w->o.last_lanes & (1ull << lane));
	if (!w->o.gr3d_domains || lane >= SIM_TL_MAX_LANES)
		return true;
	if (!w->last[lane]) {
		const char *n = w->o.tl && lane < w->o.tl->nlanes ? w->o.tl->lane_name[lane] : NULL;
		bool dw = n && (!strcmp(n, "dw") || !strcmp(n, "dw_b"));
		w->last[lane] = key_lane(w, lane) < SIM_TL_MAX_LANES || dw ? 1 : 2;
	}
	return w->last[lane] == 1;
}

/* "<lane> 0x<arg> #<id>" as snprintf would write it into buf (n bytes). */
static void default_label(const char *ln, uint32_t arg, uint32_t id, char *buf, size_t n)
{
	size_t len = strlen(ln);
	if (len + 2 + 8 + 2 + 10 + 1 > n) {          /* may not fit: let snprintf cut it */
		snprintf(buf, n, "%s 0x%x #%lu", ln, arg, (unsigned long)id);
		return;
	}
	memcpy(buf, ln, len);
	memcpy(buf + len, " 0x", 3);
	len += 3;
	char tmp[8];
	size_t k = 0;
	do {
		tmp[7 - k++] = "0123456789abcdef"[arg & 15];
		arg >>= 4;
	} while (arg);
	memcpy(buf + len, tmp + 8 - k, k);
	len += k;
	memcpy(buf + len, " #", 2);
	len += 2;
	char digits[24];                              /* tl_fmt_u64 may store 20 bytes */
	size_t nd = tl_fmt_u64(digits, id);
	memcpy(buf + len, digits, nd);
	len += nd;
	buf[len] = '\0';
}

/* v in lower-case hexadecimal at p, as printf's %x (room: 8 bytes). */
static char *hex_at(char *p, uint32_t v)
{
	unsigned n = v ? (35u - (unsigned)__builtin_clz(v)) / 4 : 1;
	for (unsigned i = n; i--;) {
		p[i] = "0123456789abcdef"[v & 15];
		v >>= 4;
	}
	return p + n;
}

/* A new instruction's I line and its two labels, the left one the default
 * "<lane> 0x<arg> #<id>", for a lane whose name is kept and short (c): the
 * name was cleaned alone, the rest of the label needs no cleaning, and it
 * is far below the label's 160 bytes. */
static void instr_lines(tl_kanata *w, const kn_instr *in, const kn_name *c)
{
	char id[24] = { 0 };
	size_t idn = tl_fmt_u64(id, in->id);
	char *p = tl_room(&w->file, 320);
	p = TL_LIT(p, "I\t");
	p = serial_at(in, p);
	*p++ = '\t';
	memcpy(p, id, 16);
	p = TL_LIT(p + idn, "\t0\nL\t");
	p = serial_at(in, p);
	p = TL_LIT(p, "\t0\t");
	memcpy(p, c->tail + 3, TAIL_ROOM);
	p = TL_LIT(p + c->n, " 0x");
	p = hex_at(p, in->arg);
	p = TL_LIT(p, " #");
	memcpy(p, id, 16);
	p = TL_LIT(p + idn, "\nL\t");
	p = serial_at(in, p);
	p = TL_LIT(p, "\t1\tid ");
	memcpy(p, id, 16);
	p = TL_LIT(p + idn, " arg ");
	p = tl_u64(p, in->arg);
	p = TL_LIT(p, " (");
	memcpy(p, c->tail + 3, TAIL_ROOM);
	p = TL_LIT(p + c->n, ")\n");
	tl_done(&w->file, p);
}

static bool new_instr(tl_kanata *w, const sim_tl_event *e, uint32_t *slot_out)
{
	if ((w->live + 1) * 2 > w->tab_cap && !tab_grow(w))
		return false;
	uint32_t slot;
	if (w->nfree) {
		slot = w->free_slots[--w->nfree];
	} else {
		if (w->pool_n == w->pool_cap) {
			uint32_t cap = w->pool_cap ? w->pool_cap * 2 : 64;
			kn_instr *np = realloc(w->pool, cap * sizeof *np);
			if (!np)
				return oom(w);
			w->pool = np;
			uint32_t *nf = realloc(w->free_slots, cap * sizeof *nf);
			if (!nf)
				return oom(w);
			w->free_slots = nf;
			w->pool_cap = cap;
		}
		slot = w->pool_n++;
		w->pool[slot].gen = 0;
	}
	kn_instr *in = &w->pool[slot];
	uint32_t gen = in->gen;
	*in = (kn_instr){ .id = e->id, .arg = e->arg, .key_lane = key_lane(w, e->lane),
	                  .serial = w->next_serial++, .gen = gen, .stage = -1, .live = true };
	w->tab[tab_find(w, in->key_lane, e->id, e->arg)] = (int32_t)slot;
	w->live++;
	if (in->serial < 100000000u) {
		char d[24] = { 0 };
		in->serial_n = (uint8_t)tl_fmt_u64(d, in->serial);
		memcpy(&in->serial_text, d, 8);
	}
	*slot_out = slot;
	char tmp2[32];
	size_t sn;
	const char *sname = stage_name(w, e->lane, tmp2, &sn);
	const kn_name *c = &w->name[e->lane];
	if (!w->o.label && c->tail_n) {
		instr_lines(w, in, c);
		return true;
	}
	char label[160], buf[32];
	const char *ln = lane_name(w, e->lane, buf, sizeof buf);
	if (w->o.label) {
		label[0] = '\0';
		w->o.label(w->o.label_ctx, e->lane, e->id, e->arg, label, sizeof label);
	} else {
		default_label(ln, e->arg, e->id, label, sizeof label);
	}
	char tmp[160];
	tl_file *f = &w->file;
	char *p = tl_room(f, 2 + 20 + 1 + 20 + 5 + 2 + 20 + 3);
	p = TL_LIT(p, "I\t");
	p = tl_u64(p, in->serial);
	*p++ = '\t';
	p = tl_u64(p, e->id);
	p = TL_LIT(p, "\t0\nL\t");
	p = tl_u64(p, in->serial);
	tl_done(f, TL_LIT(p, "\t0\t"));
	tl_puts(f, clean(label, tmp, sizeof tmp));
	p = tl_room(f, 3 + 20 + 6 + 20 + 5 + 20 + 2);
	p = TL_LIT(p, "\nL\t");
	p = tl_u64(p, in->serial);
	p = TL_LIT(p, "\t1\tid ");
	p = tl_u64(p, e->id);
	p = TL_LIT(p, " arg ");
	p = tl_u64(p, e->arg);
	tl_done(f, TL_LIT(p, " ("));
	tl_put(f, sname, sn);
	TL_PUT_LIT(f, ")\n");
	return true;
}

static bool on_begin(tl_kanata *w, const sim_tl_event *e)
{
	uint32_t slot = 0;
	uint32_t cell = w->tab_cap ? tab_find(w, key_lane(w, e->lane), e->id, e->arg) : 0;
	if (w->tab_cap && w->tab[cell] >= 0) {
		slot = (uint32_t)w->tab[cell];
	} else if (w->live == TL_KANATA_MAX_LIVE) {
		w->dropped++;
		return true;
	} else if (!new_instr(w, e, &slot)) {
		return false;
	}
	kn_lane *l = &w->lane[e->lane];
	if (l->n == l->cap) {
		uint32_t cap = l->cap ? l->cap * 2 : 16;
		kn_ref *nr = realloc(l->r, cap * sizeof *nr);
		if (!nr)
			return oom(w);
		l->r = nr;
		l->cap = cap;
	}
	l->r[l->n++] = (kn_ref){ .id = e->id, .slot = slot };
	kn_instr *in = &w->pool[slot];
	in->held++;
	if (in->stage != (int32_t)e->lane) {
		if (in->stage >= 0)
			stage_cmd(w, 'E', in, (uint16_t)in->stage);
		stage_cmd(w, 'S', in, e->lane);
		in->stage = e->lane;
	}
	return true;
}

static bool on_end(tl_kanata *w, const sim_tl_event *e)
{
	kn_lane *l = &w->lane[e->lane];
	for (uint32_t i = 0; i < l->n; i++) {
		if (l->r[i].id != e->id)
			continue;
		uint32_t slot = l->r[i].slot;
		if (i + 1 < l->n)
			memmove(&l->r[i], &l->r[i + 1], (l->n - i - 1) * sizeof *l->r);
		l->n--;
		kn_instr *in = &w->pool[slot];
		if (in->held)
			in->held--;
		if (in->stage == (int32_t)e->lane) {
			stage_cmd(w, 'E', in, e->lane);
			in->stage = -1;
		}
		if (in->held)
			return true;
		if (!lane_retires(w, e->lane))
			return true;   /* between units: only a last lane retires */
		in->idle_since = w->now;
		return queue_retire(w, slot, w->o.last_lanes ? 0 : w->o.retire_after);
		return true;
	}
	return true;   /* an END without its BEGIN (recording window) */
}

static bool kanata_write(void *ctx, const sim_tl_event *ev, size_t n)
{
	tl_kanata *w = ctx;
	for (size_t i = 0; i < n && !w->file.failed; i++) {
		const sim_tl_event *e = &ev[i];
		if (e->lane >= SIM_TL_MAX_LANES || (e->kind != SIM_TL_BEGIN && e->kind != SIM_TL_END))
			continue;
		if (!w->started) {
			TL_PUT_LIT(&w->file, "C=\t");
			tl_put_u64(&w->file, e->cycle);
			tl_putc(&w->file, '\n');
			w->now = e->cycle;
			w->started = true;
		}
		if (e->cycle > w->now) {
			run_retirements(w, e->cycle);
			set_time(w, e->cycle);
		}
		if (e->kind == SIM_TL_BEGIN)
			on_begin(w, e);
		else
			on_end(w, e);
	}
	return tl_file_check(&w->file);
}

_Static_assert(offsetof(tl_kanata, file) == 0, "tl_file_new_writer: the file comes first");

tl_kanata *tl_kanata_open(const char *path, const tl_kanata_opts *opts, ulp_diag *d)
{
	tl_kanata *w = tl_file_new_writer(sizeof *w, path, d);
	if (!w)
		return NULL;
	if (opts)
		w->o = *opts;
	TL_PUT_LIT(&w->file, "Kanata\t0004\n");
	return w;
}

sim_tl_sink tl_kanata_sink(tl_kanata *w)
{
	return (sim_tl_sink){ .ctx = w, .write = kanata_write, .close = NULL };
}

uint64_t tl_kanata_dropped(const tl_kanata *w) { return w->dropped; }

static void free_writer(tl_kanata *w)
{
	for (unsigned i = 0; i < SIM_TL_MAX_LANES; i++)
		free(w->lane[i].r);
	free(w->pool);
	free(w->free_slots);
	free(w->tab);
	free(w->q);
	free(w);
}

bool tl_kanata_close(tl_kanata *w, ulp_diag *d)
{
	if (!w)
		return false;
	if (!w->file.failed) {
		run_retirements(w, UINT64_MAX);
		for (uint32_t s = 0; s < w->pool_n; s++)
			if (w->pool[s].live)
				retire(w, s, 1);
	}
	bool ok = tl_file_close(&w->file, d);
	free_writer(w);
	return ok;
}

void tl_kanata_abort(tl_kanata *w)
{
	if (!w)
		return;
	ulp_out_abort(&w->file.out);
	free_writer(w);
}
