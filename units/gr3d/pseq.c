/* PSEQ: admission window, EXEC issue, recirculation, destination fetch. */
#include "units/gr3d/pseq.h"

#include <stddef.h>

#include "sim/core/timeline.h"
#include "units/gr3d/chain.h"

const sim_counter_def PSEQ_COUNTERS[PSEQ_CTR_COUNT] = {
	[PSEQ_CTR_QUADS] = { "quads", "quads admitted from the rasterizer" },
	[PSEQ_CTR_ISSUES] = { "quad_execs", "quad passes issued (one EXEC each)" },
	[PSEQ_CTR_FETCHES] = { "dst_fetches", "destination pixels fetched (PSEQ LD)" },
	[PSEQ_CTR_REMOVED] = { "quads_removed", "quads removed because every pixel was killed" },
	[PSEQ_CTR_FINISHED] = { "quads_finished", "quads that ran the whole program" },
};

static void pseq_tick(sim_unit *u, uint64_t now);

unsigned pseq_max_qid(const ulp_config *cfg, unsigned rows)
{
	if (rows < 1)
		rows = 1;
	unsigned q = (unsigned)(cfg->tegra_pseq_max_out - 1) / (4u * rows);  /* tegra-fp.md §5 */
	return q ? q : 1;
}

/* Does the program name a global (g0..g7) or condition register (cr0..cr15)?
 * Only ALU operands and destinations can (the register map, tegra-fp.md
 * §2.3); every slot of every packet slot of every EXEC is looked at, used or
 * not (slot 3 holding immediates included), so the answer errs on "yes". */
static bool names_globals_or_cond(const tegra_fp_decoded *prog)
{
	for (unsigned e = 0; e < prog->exec_count && e < TEGRA_FP_MAX_EXEC; e++)
		for (unsigned i = 0; i < TEGRA_FP_MAX_PER_EXEC; i++)
			for (unsigned k = 0; k < 4; k++) {
				const tegra_alu_inst *in = &prog->exec[e].alu[i].slot[k];
				const unsigned cls[4] = { in->a.cls, in->b.cls, in->c.cls, in->dst_cls };
				for (unsigned j = 0; j < 4; j++)
					if (cls[j] == TEGRA_REG_GLOBAL || cls[j] == TEGRA_REG_COND)
						return true;
			}
	return false;
}

/* Every QID free, nothing in flight or held. */
static void pseq_reset(sim_unit *u)
{
	pseq_unit *p = (pseq_unit *)u;
	for (unsigned k = 0; k < p->max_qid; k++)
		p->free_slots[k] = (uint16_t)(p->max_qid - 1 - k);
	p->nfree = p->max_qid;
	p->inflight = 0;
	p->draining = false;
	p->hold = (sim_hold){ 0 };
	p->cur = (gr3d_token){ 0 };
	p->quads_total = p->quads_finished = 0;
}

void pseq_init(pseq_unit *p, gr3d_ctx *ctx, unsigned max_qid, uint16_t *free_slots, gr3d_tram *tram,
               sim_port *in, sim_port *recirc, sim_port *out)
{
	memset(p, 0, sizeof *p);
	sim_unit_init(&p->u, "pseq", pseq_tick, PSEQ_COUNTERS, PSEQ_CTR_COUNT);
	p->ctx = ctx;
	p->tram = tram;
	p->in = in;
	p->recirc = recirc;
	p->out = out;
	in->consumer = &p->u;
	recirc->consumer = &p->u;
	p->free_slots = free_slots;
	p->max_qid = max_qid;
	p->u.reset = pseq_reset;
	pseq_reset(&p->u);
	p->max_out = (unsigned)ctx->cfg->tegra_pseq_max_out;
	p->min_out = (unsigned)ctx->cfg->tegra_pseq_min_out;
	p->quad_clocks = (uint16_t)ctx->cfg->tegra_quad_clocks;
	p->clear_gcr = ctx->probe || names_globals_or_cond(ctx->prog);
	p->remove_killed = ctx->cfg->tegra_pseq_remove_killed;
	p->hysteresis = ctx->cfg->tegra_pseq_hysteresis;
	for (unsigned e = 0; e < ctx->prog->exec_count && e < TEGRA_FP_MAX_EXEC; e++) {
		const tegra_pseq_inst *w = &ctx->prog->exec[e].pseq;
		p->fetch[e] = (pseq_fetch){ .on = w->op != 0, .rt = ctx->rt[w->surf & (GR3D_RTS - 1)],
		                            .lo = (uint8_t)gr3d_row_reg(ctx, e, w->dst_r2 ? 2 : 0),
		                            .hi = (uint8_t)gr3d_row_reg(ctx, e, w->dst_r2 ? 3 : 1) };
	}
}

static bool all_killed(const gr3d_quad *q)
{
	return gr3d_flags4(q->killed) == 0x01010101u;
}

static inline __attribute__((always_inline)) void free_slot(pseq_unit *p, uint16_t qid)
{
	p->free_slots[p->nfree++] = qid;
	p->inflight--;
	if (p->tram)                           /* the quad's hold on its TRAM slot */
		gr3d_tram_release(p->tram, p->ctx->slot[qid].tri);
	unsigned rows = p->ctx->rows;
	if (p->draining && p->inflight * 4u * rows <= p->min_out)
		p->draining = false;
}

/* The PSEQ instruction of EXEC e: the destination fetch (tegra-fp.md §2.4:
 * 0x0081000A = fetch RT1 into r2,r3; t30 OP 1..3 = LD, SURF = target). */
static unsigned pseq_exec(pseq_unit *p, gr3d_quad *q, unsigned e)
{
	const pseq_fetch *f = &p->fetch[e];
	if (!f->on)
		return 0;
	const ulp_image *rt = f->rt;
	const bool exact = p->ctx->exact;
	unsigned n = 0;
	for (unsigned k = 0; k < GR3D_PIXELS; k++) {
		if (q->killed[k])
			continue;
		uint32_t x = q->x + (k & 1u), y = q->y + (k >> 1);
		uint8_t b[4] = { 0, 0, 0, 0 };
		if (rt && x < rt->width && y < rt->height)
			memcpy(b, ulp_image_cpx(rt, x, y), 4);
		if (exact) {   /* arith=exact: the bytes as values b / 255 */
			q->r[f->lo][k] = gr3d_xfx_bits(false, b[0] / 255.0) | gr3d_xfx_bits(false, b[1] / 255.0) << GR3D_XFX_SHIFT;
			q->r[f->hi][k] = gr3d_xfx_bits(false, b[2] / 255.0) | gr3d_xfx_bits(false, b[3] / 255.0) << GR3D_XFX_SHIFT;
		} else {
			q->r[f->lo][k] = unorm8_to_fx10(b[0]) | (uint32_t)unorm8_to_fx10(b[1]) << FX10_HIGH_SHIFT;
			q->r[f->hi][k] = unorm8_to_fx10(b[2]) | (uint32_t)unorm8_to_fx10(b[3]) << FX10_HIGH_SHIFT;
		}
		n++;
	}
	return n;
}

/* Four flags from a word as gr3d_flags4 reads them (byte p: pixel p's, 0 or 1). */
static inline void flags4_set(bool f[GR3D_PIXELS], uint32_t w)
{
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap32(w);
#endif
	memcpy(f, &w, sizeof w);
}

/* A new quad in slot q: every register starts at 0 (a program may read one
 * before it writes it) and so does every field admit does not set.  The
 * ranges are cleared with stores of known size, not a whole-slot memset
 * (which compilers turn into a string instruction).  g0..g7 and cr0..cr15
 * are left as they are when nothing can read them (clear_gcr), the batch
 * view always (gr3d_quad.view). */
static inline __attribute__((always_inline)) void admit(const gr3d_quad_in *in, gr3d_quad *q, bool clear_gcr)
{
	/* one 16-byte store a register, unrolled (a loop costs three more) */
#pragma GCC unroll 16
	for (unsigned i = 0; i < GR3D_ROW_REGS; i++)
		memset(q->r[i], 0, sizeof q->r[i]);
	if (clear_gcr) {
#pragma GCC unroll 8
		for (unsigned i = 0; i < GR3D_GLOBALS; i++)
			memset(q->g[i], 0, sizeof q->g[i]);
#pragma GCC unroll 8
		for (unsigned i = 0; i < GR3D_COND_REGS; i++)
			memset(q->cr[i], 0, sizeof q->cr[i]);
	}
	memcpy(q->bar0, in->bar0, sizeof q->bar0);
	memcpy(q->b0, in->bar0, sizeof q->b0);
	memcpy(q->bar1, in->bar1, sizeof q->bar1);
	memcpy(q->b1, in->bar1, sizeof q->b1);
	memcpy(q->q, in->q, sizeof q->q);
	q->id = in->id;
	q->x = in->x;
	q->y = in->y;
	q->tri = in->tri;
	q->tex_row = 0;
	memset(q->px, 0, sizeof q->px);
	memset(q->exec_killed, 0, sizeof q->exec_killed);
	/* the four pixels' flags, a word each (gr3d_flags4's bytes): mask bit
	 * p times 2^(7p) lands at bit 8p, no two partial products meeting */
	const uint32_t covered = ((uint32_t)(in->mask & 0xFu) * 0x00204081u) & 0x01010101u;
	flags4_set(q->covered, covered);
	flags4_set(q->killed, covered ^ 0x01010101u);
	flags4_set(q->front, (uint32_t)in->front * 0x01010101u);
}

void pseq_admit(const gr3d_quad_in *in, gr3d_quad *q, bool clear_gcr) { admit(in, q, clear_gcr); }

bool pseq_fetches(const pseq_unit *p)
{
	for (unsigned e = 0; e < p->ctx->prog->exec_count && e < TEGRA_FP_MAX_EXEC; e++)
		if (p->fetch[e].on)
			return true;
	return false;
}

/* What the head of recirculation gave PSEQ at a cycle. */
enum pseq_back { BACK_NONE, BACK_LIVE, BACK_HELD };

/* Recirculating quads first (they hold window slots): the tokens visible in
 * recirc at now, in order; finished and removed quads free their slots, the
 * first live one is *next.  free_ok false: a quad that would free its slot
 * stays (BACK_HELD), since its TRAM hold must be released in the cycle's own
 * tick (setup sees it).  chain (a constant): recirculation is p->chain's
 * (gr3d_chain_back). */
static inline __attribute__((always_inline)) enum pseq_back take_back(pseq_unit *p, uint64_t now, bool free_ok,
                                                                      gr3d_token *next, bool chain)
{
	gr3d_ctx *c = p->ctx;
	const gr3d_token *t;
	while ((t = chain ? gr3d_chain_back(p->chain, now) : sim_port_peek_sized(p->recirc, sizeof *t, now))) {
		const bool removed = !t->done && p->remove_killed && all_killed(&c->slot[t->qid]);
		if ((t->done || removed) && !free_ok)
			return BACK_HELD;
		*next = *t;
		if (chain)
			gr3d_chain_back_pop(p->chain);
		else
			sim_port_pop(p->recirc, now);
		if (next->done) {
			free_slot(p, next->qid);
			p->quads_finished++;
			sim_unit_count(&p->u, PSEQ_CTR_FINISHED, 1);
			continue;
		}
		if (removed) {
			sim_tl_emit(p->u.tl, now, p->u.lane, SIM_TL_INSTANT, c->slot[next->qid].id, next->exec);
			free_slot(p, next->qid);                 /* PSEQ_CTL REMOVE_KILLED_PIXELS */
			p->quads_finished++;
			sim_unit_count(&p->u, PSEQ_CTR_REMOVED, 1);
			continue;
		}
		return BACK_LIVE;
	}
	return BACK_NONE;
}

/* What the input port gave PSEQ at a cycle. */
enum pseq_in { IN_NONE, IN_TAKEN, IN_WINDOW };

/* The head of the input port at now into a free slot, as token *next; when
 * the window is full PSEQ stalls until the next token coming back wakes it
 * (IN_WINDOW).  chain (a constant): recirculation is p->chain's; the cycle
 * that token is visible is looked up only then. */
static inline __attribute__((always_inline)) enum pseq_in take_in(pseq_unit *p, uint64_t now, gr3d_token *next,
                                                                  bool chain)
{
	gr3d_ctx *c = p->ctx;
	const gr3d_quad_in *in = sim_port_peek_sized(p->in, sizeof *in, now);
	if (!in)
		return IN_NONE;
	unsigned rows = c->rows;
	bool window_full = p->nfree == 0 || (p->inflight + 1u) * 4u * rows > p->max_out - 1u;
	if (window_full && p->hysteresis)
		p->draining = true;
	if (window_full || p->draining) {
		sim_unit_stall_wait(&p->u, now, SIM_STALL_WINDOW);
		const uint64_t back = chain ? gr3d_chain_next_back(p->chain) : sim_port_next_ready(p->recirc);
		if (back != UINT64_MAX)
			sim_unit_wake(&p->u, back);
		return IN_WINDOW;
	}
	uint16_t qid = p->free_slots[--p->nfree];
	p->inflight++;
	admit(in, &c->slot[qid], p->clear_gcr);
	if (c->ahead)                      /* its EXECs' work, booked later (ahead.h) */
		gr3d_ahead_admit(c->ahead, p->in, qid, p->clear_gcr);
	sim_port_pop(p->in, now);          /* wakes the rasterizer (or ZS) */
	sim_unit_count(&p->u, PSEQ_CTR_QUADS, 1);
	*next = (gr3d_token){ .qid = qid, .exec = 0, .done = 0 };
	return IN_TAKEN;
}

/* Token next's pass starts at now: its PSEQ instruction (the fetch). */
static inline __attribute__((always_inline)) void issue(pseq_unit *p, gr3d_token next, uint64_t now)
{
	gr3d_quad *q = &p->ctx->slot[next.qid];
	memset(q->exec_killed, 0, sizeof q->exec_killed);   /* tegra.alu.kill_this_exec */
	if (sim_unit_recording(&p->u))
		sim_tl_emit(p->u.tl, now, p->u.lane, SIM_TL_BEGIN, q->id, next.exec);
	sim_unit_count(&p->u, PSEQ_CTR_FETCHES, pseq_exec(p, q, next.exec));
	sim_unit_count(&p->u, PSEQ_CTR_ISSUES, 1);
	p->cur = next;
	p->u.debug_pc = next.exec;
	p->u.has_pc = true;
}

static void pseq_tick(sim_unit *u, uint64_t now)
{
	pseq_unit *p = (pseq_unit *)u;
	gr3d_ctx *c = p->ctx;
	sim_unit_wait_settle(u, now);
	if (p->hold.on) {                      /* now == done_at: sim_hold_begin slept through */
		if (!sim_hold_room(u, p->out, now))   /* MFU's pop wakes us */
			return;
		if (sim_unit_recording(u))
			sim_tl_emit(u->tl, now, u->lane, SIM_TL_END, c->slot[p->cur.qid].id, p->cur.exec);
		sim_port_push_sized(p->out, &p->cur, sizeof p->cur, now);
		sim_hold_end(&p->hold);
	}
	gr3d_token next;
	if (take_back(p, now, true, &next, false) == BACK_NONE) {
		const enum pseq_in r = take_in(p, now, &next, false);
		if (r == IN_WINDOW)                /* a token coming back wakes us */
			return;
		if (r == IN_NONE) {
			const uint64_t r1 = sim_port_next_ready(p->recirc), r2 = sim_port_next_ready(p->in);
			if ((r1 < r2 ? r1 : r2) != UINT64_MAX)
				sim_unit_wake(u, r1 < r2 ? r1 : r2);
			return;
		}
	}
	issue(p, next, now);
	sim_hold_begin(u, &p->hold, now, p->quad_clocks);
}

/* PSEQ driving the computed stages (chain.h): the tick goes on through the
 * cycles where only PSEQ and the stages act, which it works out itself: a
 * hold's end, the push (after a wait for room in out, MFU's next pop), and
 * the issue of a live token coming back.  It ticks again where the rest of
 * the GPU must see it at its cycle: the input port (the rasterizer sees its
 * pops and pushes), a finished quad's TRAM release (setup), and every
 * sim.gr3d_chain_ahead cycles (the watchdog).  Each cycle's bookings are what
 * pseq_tick's would be: busy from the issue through the hold, output_full
 * from the hold's end to the pop that frees room. */
static inline __attribute__((always_inline)) void chain_tick(sim_unit *u, uint64_t now, bool book)
{
	pseq_unit *p = (pseq_unit *)u;
	gr3d_chain *ch = p->chain;
	sim_unit_wait_settle(u, now);
	sim_unit_progress(u, ch->progress);   /* what the last tick worked out, up to now */
	const uint64_t qc = p->quad_clocks ? p->quad_clocks : 1u;
	uint64_t t = now;
	for (;;) {
		if (p->hold.on) {                  /* t is the hold's end: the push, once in has room */
			const uint64_t at = gr3d_chain_push(ch, p->cur, t, book);
			if (at > t) {                  /* output_full until MFU's pop */
				if (t == now)
					sim_unit_stall(u, SIM_STALL_OUTPUT_FULL);
				u->stats.stall[SIM_STALL_OUTPUT_FULL] += at - t - (t == now);
				t = at;
			}
			sim_hold_end(&p->hold);
		} else {
			gr3d_chain_sync(ch, t);
		}
		gr3d_token next;
		const enum pseq_back b = take_back(p, t, t == now || !p->tram, &next, true);
		if (b != BACK_LIVE) {
			if (t > now) {                 /* the input port, or a release, at its cycle */
				sim_unit_sleep_through(u, t);
				break;
			}
			const enum pseq_in r = take_in(p, now, &next, true);
			if (r == IN_WINDOW)
				break;
			if (r == IN_NONE) {
				const uint64_t back = gr3d_chain_next_back(ch), r2 = sim_port_next_ready(p->in);
				sim_unit_sleep_until(u, back < r2 ? back : r2);
				break;
			}
		}
		issue(p, next, t);
		p->hold = (sim_hold){ .on = true, .done_at = t + qc };
		if (t == now)
			sim_unit_busy(u);
		u->stats.busy += qc - (t == now);
		if (t > ch->progress)
			ch->progress = t;
		t += qc;
		if (t - now > p->chain_ahead) {   /* tell the watchdog */
			sim_unit_sleep_through(u, t);
			break;
		}
	}
	if (ch->progress <= now)
		sim_unit_progress(u, ch->progress);
}

/* the two forms of the chain (gr3d_chain.book), the push inlined in each;
 * each also built for AVX2 (gr3d_chain.avx2), where a stage's four counter
 * increments from its record widen and add in one instruction each */
static void pseq_chain_tick_book(sim_unit *u, uint64_t now) { chain_tick(u, now, true); }
static void pseq_chain_tick(sim_unit *u, uint64_t now) { chain_tick(u, now, false); }
#if defined(__x86_64__)
__attribute__((target("avx2"))) static void pseq_chain_tick_book_avx2(sim_unit *u, uint64_t now)
{
	chain_tick(u, now, true);
}
__attribute__((target("avx2"))) static void pseq_chain_tick_avx2(sim_unit *u, uint64_t now)
{
	chain_tick(u, now, false);
}
#endif

void pseq_attach_chain(pseq_unit *p, gr3d_chain *ch)
{
	p->chain = ch;
	p->chain_ahead = (uint64_t)p->ctx->cfg->host_gr3d_chain_ahead;
	p->u.tick = ch->book ? pseq_chain_tick_book : pseq_chain_tick;
#if defined(__x86_64__)
	if (ch->avx2)
		p->u.tick = ch->book ? pseq_chain_tick_book_avx2 : pseq_chain_tick_avx2;
#endif
	p->out->producer = NULL;
	p->recirc->consumer = NULL;
}
