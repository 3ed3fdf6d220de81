/* The timing of the GR3D stage chain as a recurrence (docs/speed-history.md
 * "Fragments, session 9"): the rules a draw's time could be computed by
 * instead of ticked, checked against the clocked units.
 *
 * MFU, TEX, ALU and DW each hold one token (a quad's EXEC) at a time.  With
 * token k (in the order PSEQ pushed them), stage s, its input port's
 * latency lat[s] and its output port's capacity cap:
 *
 *   take[s][k] = max(push[s-1][k] + lat[s], push[s][k-1])     (push[PSEQ]: given)
 *   done[s][k] = take[s][k] + hold[s][k]                      (the clocks, at least 1)
 *   push[s][k] = max(done[s][k], take[s+1][k-cap])            (DW's output never fills)
 *
 * A stage pushes and takes in one tick, and the step order puts consumers
 * before producers, so a pop frees a slot its producer fills in the same
 * cycle (units/gpu.c GPU_STEP_ORDER).  busy = sum of holds, output_full =
 * sum of push - done.  From PSEQ's END events and each token's hold (where
 * the unit's activity leaves busy), the recurrence must give every BEGIN
 * and END the four units emit and their busy and stall cycles, for every
 * corpus program under several port settings; and a hold depends only on
 * the unit and the EXEC (the clocks each unit's plan gives it). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/tegra/tegra_asm.h"
#include "sim/core/timeline.h"
#include "tests/test_replay_pair.h"
#include "tests/units/gr3d_rig.h"
#include "traces/replay/replay.h"
#include "ulpsim/ulpsim.h"
#include "units/gpu.h"
#include "units/gr3d/pseq.h"

enum { CH_PSEQ, CH_MFU, CH_TEX, CH_ALU, CH_DW, CH_UNITS };
static const char *const CH_NAME[CH_UNITS] = { "pseq", "mfu", "tex", "alu", "dw" };

/* One token's passage through one unit, as its timeline shows it. */
typedef struct ch_tok {
	uint64_t begin, done, end;   /* taken, hold over (activity left busy, or END), pushed */
	uint32_t id, exec;
} ch_tok;

typedef struct ch_lane {
	ch_tok *t;
	size_t n, cap;
	bool held;                   /* the last token is between BEGIN and END */
} ch_lane;

static void lanes_read(const test_ev_log *log, const sim_timeline *tl, ch_lane lane[CH_UNITS])
{
	int unit_of[SIM_TL_MAX_LANES];
	for (unsigned l = 0; l < SIM_TL_MAX_LANES; l++) {
		unit_of[l] = -1;
		for (unsigned u = 0; u < CH_UNITS && l < tl->nlanes; u++)
			if (tl->lane_name[l] && !strcmp(tl->lane_name[l], CH_NAME[u]))
				unit_of[l] = (int)u;
	}
	for (size_t i = 0; i < log->n; i++) {
		const sim_tl_event *ev = &log->ev[i];
		const int u = ev->lane < SIM_TL_MAX_LANES ? unit_of[ev->lane] : -1;
		if (u < 0)
			continue;
		ch_lane *L = &lane[u];
		ch_tok *last = L->n ? &L->t[L->n - 1] : NULL;
		switch (ev->kind) {
		case SIM_TL_BEGIN:
			cr_assert(!L->held, "%s: BEGIN at %llu while holding a token", CH_NAME[u],
			          (unsigned long long)ev->cycle);
			if (L->n == L->cap) {
				L->cap = L->cap ? 2 * L->cap : 256;
				L->t = realloc(L->t, L->cap * sizeof *L->t);
				cr_assert(L->t);
			}
			L->t[L->n++] = (ch_tok){ .begin = ev->cycle, .id = ev->id, .exec = (uint32_t)ev->arg };
			L->held = true;
			break;
		case SIM_TL_ACTIVITY:
			if (L->held && !last->done && ev->cycle > last->begin && ev->arg != SIM_ACT_BUSY)
				last->done = ev->cycle;
			break;
		case SIM_TL_END:
			cr_assert(L->held && last->id == ev->id && last->exec == (uint32_t)ev->arg,
			          "%s: END of %u/%u at %llu is not the token held", CH_NAME[u], ev->id,
			          (unsigned)ev->arg, (unsigned long long)ev->cycle);
			last->end = ev->cycle;
			if (!last->done)
				last->done = ev->cycle;
			L->held = false;
			break;
		default:
			break;
		}
	}
}

static uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* The recurrence over lane[] against what the units emitted and counted. */
static void check_chain(const ch_lane lane[CH_UNITS], const ulp_config *c, const gr3d_stats *st, const char *what)
{
	const uint64_t lat[CH_UNITS] = { 0, (uint64_t)c->tegra_lat_pseq, (uint64_t)c->tegra_lat_mfu,
	                                 (uint64_t)c->tegra_lat_tex, (uint64_t)c->tegra_lat_alu };
	const size_t cap = (size_t)c->tegra_fifo_quads, n = lane[CH_PSEQ].n;
	for (unsigned s = CH_MFU; s < CH_UNITS; s++)
		cr_assert_eq(lane[s].n, n, "%s: %s took %zu tokens, PSEQ pushed %zu", what, CH_NAME[s], lane[s].n, n);
	uint64_t *take = calloc(CH_UNITS * (n ? n : 1), sizeof *take);
	uint64_t *push = calloc(CH_UNITS * (n ? n : 1), sizeof *push);
	cr_assert(take && push);
#define AT(a, s, k) (a)[(size_t)(s) * n + (k)]
	uint64_t busy[CH_UNITS] = { 0 }, stall[CH_UNITS] = { 0 };
	uint64_t hold_of[CH_UNITS][TEGRA_FP_MAX_EXEC] = { { 0 } };   /* the first token's, per EXEC */
	for (size_t k = 0; k < n; k++) {
		AT(push, CH_PSEQ, k) = lane[CH_PSEQ].t[k].end;
		for (unsigned s = CH_MFU; s < CH_UNITS; s++) {
			const ch_tok *t = &lane[s].t[k];
			cr_assert(t->id == lane[CH_PSEQ].t[k].id && t->exec == lane[CH_PSEQ].t[k].exec,
			          "%s: %s's token %zu is %u/%u, PSEQ's %u/%u", what, CH_NAME[s], k, t->id, t->exec,
			          lane[CH_PSEQ].t[k].id, lane[CH_PSEQ].t[k].exec);
			const uint64_t hold = t->done - t->begin;
			cr_assert_geq(hold, 1, "%s: %s holds token %zu for 0 cycles", what, CH_NAME[s], k);
			cr_assert_lt(t->exec, TEGRA_FP_MAX_EXEC, "%s", what);
			if (!hold_of[s][t->exec])
				hold_of[s][t->exec] = hold;
			cr_assert_eq(hold, hold_of[s][t->exec], "%s: %s holds token %zu (EXEC %u) %llu cycles, another %llu",
			             what, CH_NAME[s], k, t->exec, (unsigned long long)hold,
			             (unsigned long long)hold_of[s][t->exec]);
			AT(take, s, k) = max64(AT(push, s - 1, k) + lat[s], k ? AT(push, s, k - 1) : 0);
			const uint64_t done = AT(take, s, k) + hold;
			const uint64_t room = s < CH_DW && k >= cap ? AT(take, s + 1, k - cap) : 0;
			AT(push, s, k) = max64(done, room);
			cr_assert_eq(AT(take, s, k), t->begin, "%s: %s takes token %zu (%u/%u) at %llu, the recurrence %llu",
			             what, CH_NAME[s], k, t->id, t->exec, (unsigned long long)t->begin,
			             (unsigned long long)AT(take, s, k));
			cr_assert_eq(AT(push, s, k), t->end, "%s: %s pushes token %zu (%u/%u) at %llu, the recurrence %llu",
			             what, CH_NAME[s], k, t->id, t->exec, (unsigned long long)t->end,
			             (unsigned long long)AT(push, s, k));
			busy[s] += hold;
			stall[s] += AT(push, s, k) - done;
		}
	}
#undef AT
	for (unsigned s = CH_MFU; s < CH_UNITS; s++) {
		int u = -1;
		for (unsigned j = 0; j < GR3D_UNITS; j++)
			if (st->name[j] && !strcmp(st->name[j], CH_NAME[s]))
				u = (int)j;
		cr_assert_geq(u, 0, "%s: no unit %s in the draw's stats", what, CH_NAME[s]);
		const sim_unit_stats *us = &st->unit[u];
		cr_assert_eq(us->busy, busy[s], "%s: %s busy %llu, the recurrence %llu", what, CH_NAME[s],
		             (unsigned long long)us->busy, (unsigned long long)busy[s]);
		uint64_t other = 0;
		for (unsigned k = 0; k < SIM_STALL_COUNT; k++)
			other += k == SIM_STALL_OUTPUT_FULL ? 0 : us->stall[k];
		cr_assert_eq(us->stall[SIM_STALL_OUTPUT_FULL], stall[s], "%s: %s output_full %llu, the recurrence %llu",
		             what, CH_NAME[s], (unsigned long long)us->stall[SIM_STALL_OUTPUT_FULL],
		             (unsigned long long)stall[s]);
		cr_assert_eq(other, 0, "%s: %s stalled for another cause", what, CH_NAME[s]);
	}
	free(take);
	free(push);
}

/* Settings 1 to 4 of the ports: FIFOs of 1, 2 (one clock a quad) and 3,
 * latencies of 1 and mixed (0: the defaults). */
static void port_setting(ulp_config *c, unsigned setting)
{
	switch (setting) {
	case 1:
		c->tegra_fifo_quads = 1;
		break;
	case 2:
		c->tegra_fifo_quads = 2;
		c->tegra_quad_clocks = 1;
		break;
	case 3:
		c->tegra_lat_pseq = c->tegra_lat_mfu = c->tegra_lat_tex = c->tegra_lat_alu = c->tegra_lat_dw = 1;
		break;
	case 4:
		c->tegra_fifo_quads = 3;
		c->tegra_lat_pseq = 5;
		c->tegra_lat_mfu = 2;
		c->tegra_lat_tex = 7;
		c->tegra_lat_alu = 1;
		c->tegra_lat_dw = 3;
		break;
	default:
		break;
	}
}

typedef struct chain_ctx {
	ulp_image *tex;
	unsigned draws;
	size_t tokens;
	uint64_t stalled;             /* output_full cycles the recurrence gave */
} chain_ctx;

static void program_chain(void *ctx, const char *path, const tegra_fp_program *fp, const tegra_fp_decoded *dec)
{
	chain_ctx *x = ctx;
	for (unsigned setting = 0; setting < 5; setting++) {
		ulp_config c;
		ulp_config_defaults(&c);
		port_setting(&c, setting);
		test_ev_log log = { 0 };
		sim_timeline tl;
		cr_assert(sim_tl_init(&tl));
		cr_assert(sim_tl_add_sink(&tl, test_ev_sink(&log)));
		tl.enabled = true;
		gr3d_rig_out o;
		gr3d_rig_draw(dec, fp->constants, &c, x->tex, &tl, &o);
		ch_lane lane[CH_UNITS];
		memset(lane, 0, sizeof lane);
		lanes_read(&log, &tl, lane);
		char what[1200];
		snprintf(what, sizeof what, "%s, setting %u", path, setting);
		check_chain(lane, &c, &o.st, what);
		x->draws++;
		x->tokens += lane[CH_PSEQ].n;
		x->stalled += o.st.unit[1].stall[SIM_STALL_OUTPUT_FULL];
		for (unsigned u = 0; u < CH_UNITS; u++)
			free(lane[u].t);
		free(log.ev);
		sim_tl_fini(&tl);
		ulp_image_free(o.rt);
	}
}

Test(chain, recurrence_gives_the_clocked_times, .timeout = 300)
{
	chain_ctx x = { .tex = gr3d_rig_texture() };
	const unsigned programs = gr3d_rig_each_program(program_chain, &x);
	ulp_image_free(x.tex);
	fprintf(stderr, "chain: %u corpus programs, %u draws, %zu quad-EXECs through MFU, TEX, ALU, DW; MFU stalled "
	        "%llu cycles on a full output\n", programs, x.draws, x.tokens, (unsigned long long)x.stalled);
	cr_assert_gt(programs, 50);
	cr_assert_gt(x.tokens, 10000);
	cr_assert_gt(x.stalled, 1000, "the draws fill the ports (the recurrence's room term matters)");
}

/* ---- the chain unit (units/gr3d/chain.h) against the four units ---- */

typedef struct alike_ctx {
	ulp_image *tex;
	unsigned draws, chained;
} alike_ctx;

static void program_alike(void *ctx, const char *path, const tegra_fp_program *fp, const tegra_fp_decoded *dec)
{
	alike_ctx *x = ctx;
	for (unsigned setting = 0; setting < 7; setting++) {
		ulp_config c;
		ulp_config_defaults(&c);
		port_setting(&c, setting);
		switch (setting) {
		case 5:
			c.host_gr3d_ahead = 1;     /* the ahead path's booking inside the chain */
			c.tegra_pseq_hysteresis = !c.tegra_pseq_hysteresis;
			break;
		case 6:
			c.arith = ULP_ARITH_EXACT;
			c.tegra_fifo_quads = 64;
			break;
		default:
			break;
		}
		c.host_gr3d_chain = true;
		if (setting % 2)     /* PSEQ ticks every few cycles: a hold ends in its tick, full or not */
			c.host_gr3d_chain_ahead = setting;
		ulp_config off = c;
		off.host_gr3d_chain = false;
		char what[1200];
		snprintf(what, sizeof what, "%s, setting %u", path, setting);
		gr3d_rig_out a, b;
		gr3d_rig_alike(dec, fp->constants, &off, &c, x->tex, what, &a, &b);
		cr_assert(!a.chain);
		x->chained += b.chain;
		x->draws++;
	}
}

Test(chain, unit_matches_the_four_units, .timeout = 300)
{
	alike_ctx x = { .tex = gr3d_rig_texture() };
	const unsigned programs = gr3d_rig_each_program(program_alike, &x);
	ulp_image_free(x.tex);
	fprintf(stderr, "chain: %u corpus programs, %u of %u draws ran the chain unit\n", programs, x.chained, x.draws);
	cr_assert_gt(programs, 50);
	cr_assert_eq(x.chained, x.draws, "the chain ran in %u of %u draws", x.chained, x.draws);
}

/* The sample traces (vertex and fragment units on one clock; Tegra 2 and 3,
 * one and two host threads): the chain against the four units, every
 * unit's stats, port marks, cycles and image; with a timeline, every event
 * too (the chain_tl tests below). */
static void samples_chain_vs_units(bool timeline)
{
	for (size_t s = 0; s < TEST_NSAMPLES; s++) {
		char path[128];
		trace t;
		test_sample_load(&t, TEST_SAMPLES[s], path, sizeof path);
		for (unsigned setting = 0; setting < 3; setting++) {
			ulp_config on;
			test_gpu_setting(&on, setting);
			on.host_gr3d_chain = true;
			on.host_gr3d_chain_ahead = setting ? 2 : on.host_gr3d_chain_ahead;
			ulp_config off = on;
			off.host_gr3d_chain = false;
			test_run a, b;
			test_replay_run(&t, &off, timeline, 0, &a);
			test_replay_run(&t, &on, timeline, 0, &b);
			char what[192];
			snprintf(what, sizeof what, "%s, setting %u", path, setting);
			cr_assert(a.ok && b.ok, "%s: %s | %s", what, a.msg, b.msg);
			if (timeline) {
				cr_assert_gt(a.log.n, 0, "%s: no events", what);
				test_runs_same(&a, &b, what);
			} else {
				test_results_same(&a.res, &b.res, what);
			}
			test_run_free(&a);
			test_run_free(&b);
		}
		trace_free(&t);
	}
}

Test(chain, samples_alike_on_both_gpus_and_threads, .timeout = 300) { samples_chain_vs_units(false); }

/* Two EXECs, the second reading the first's result (a recirculation each
 * quad), assembled into new fp and dec (the caller frees them). */
static void two_exec_program(tegra_fp_program **fp, tegra_fp_decoded **dec)
{
	static const char text[] = "alu_buffer_size = 1\n.asm\nEXEC\n ALU:\n ALU0: MAD r0.lh, #1, #1, #0\n"
	                           " DW: store rt1, r0, r1\n;\nEXEC\n ALU:\n ALU0: MAD r0.lh, r0, #1, #0\n"
	                           " ALU1: MAD r1.lh, r0, #1, #0\n DW: store rt1, r0, r1\n;\n";
	*fp = malloc(sizeof **fp);
	*dec = malloc(sizeof **dec);
	cr_assert(*fp && *dec);
	gr3d_rig_assemble(text, *fp, *dec);
}

/* gr3d_fp_reset with the chain on: the draw run twice on new clocks gives
 * the first run's figures again (the take ring's rows read as "never
 * written" before token cap, chain.h gr3d_chain_work, and nothing stays due). */
Test(chain, reset_runs_the_same_again)
{
	tegra_fp_program *fp;
	tegra_fp_decoded *dec;
	two_exec_program(&fp, &dec);
	for (unsigned ahead = 0; ahead < 2; ahead++) {
		ulp_config cfg;
		ulp_config_defaults(&cfg);
		cfg.tegra_fifo_quads = 2;            /* a small ring: 72 quads wrap it */
		cfg.host_gr3d_chain = true;
		cfg.host_gr3d_ahead = ahead;         /* the records booked, or the stages' work */
		gr3d_draw dr;
		gr3d_fp *f = gr3d_rig_fp_new(dec, &cfg, &dr);
		gr3d_fp_chain(f, false, false);
		cr_assert(f->chain_on);
		cr_assert_eq(f->ahead != NULL, ahead != 0);
		gr3d_stats a, b;
		gr3d_rig_fp_run(f, &a);
		const gr3d_fp_units fu = gr3d_fp_units_of(f);
		cr_assert(!fu.mfu && !fu.dw, "the chain drives the four stages");
		cr_assert_eq(a.quads, 72u);
		cr_assert_gt(f->chain.ntok, (uint64_t)f->chain.mask + 1, "the tokens wrap the take ring");
		gr3d_fp_reset(f);
		gr3d_rig_fp_run(f, &b);
		gr3d_rig_stats_same(&a, &b);
		gr3d_fp_free(f);
		ulp_image_free(dr.rt[1]);
	}
	free(fp);
	free(dec);
}

/* PSEQ's admission sets a quad's flags a word at a time (pseq.c admit): for
 * every coverage mask and facing, pixel by pixel what the rasterizer gave. */
Test(chain, admit_sets_each_pixels_flags)
{
	gr3d_quad *q = malloc(sizeof *q);
	cr_assert(q);
	for (unsigned mask = 0; mask < 16; mask++)
		for (unsigned front = 0; front < 2; front++) {
			gr3d_quad_in in;
			memset(&in, 0, sizeof in);
			memset(q, 0xA5, sizeof *q);
			in.mask = (uint8_t)mask;
			in.front = front;
			pseq_admit(&in, q, true);
			for (unsigned k = 0; k < GR3D_PIXELS; k++) {
				const bool cov = (mask >> k) & 1u;
				cr_assert_eq(q->covered[k], cov, "mask %x pixel %u covered", mask, k);
				cr_assert_eq(q->killed[k], !cov, "mask %x pixel %u killed", mask, k);
				cr_assert_eq(q->front[k], front != 0, "mask %x pixel %u front", mask, k);
				cr_assert_eq(q->exec_killed[k], false);
			}
			cr_assert_eq(gr3d_mask4(gr3d_flags4(q->covered)), mask);
		}
	free(q);
}

/* The draw run on f: its figures in *st, its target's bytes in px (the
 * caller frees f's target after). */
static void form_run(gr3d_fp *f, const gr3d_draw *dr, gr3d_stats *st, uint8_t **px)
{
	gr3d_rig_fp_run(f, st);
	const size_t n = (size_t)dr->rt[1]->width * dr->rt[1]->height * 4u;
	*px = malloc(n);
	cr_assert(*px);
	memcpy(*px, dr->rt[1]->rgba, n);
}

/* PSEQ's chain tick in its forms (pseq.c: the push inlined, booking the
 * records or calling the stages, each built for AVX2 where the host has it
 * and plain otherwise): both builds and the four units doing their own work
 * (no records) give the same cycles, stats, counters, middle marks and
 * image, with a shallow ring (fifo 2) and the default. */
Test(chain, tick_forms_alike)
{
	tegra_fp_program *fp;
	tegra_fp_decoded *dec;
	two_exec_program(&fp, &dec);
	for (unsigned run = 0; run < 4; run++) {
		const bool book = run & 1u;
		ulp_config cfg;
		ulp_config_defaults(&cfg);
		if (run < 2)
			cfg.tegra_fifo_quads = 2;
		cfg.host_gr3d_chain = true;
		cfg.host_gr3d_ahead = book;          /* the records booked, or the stages called */
		ulp_config units = cfg;              /* the four units doing their own work */
		units.host_gr3d_chain = false;
		units.host_gr3d_ahead = 0;
		gr3d_stats st[3];
		uint8_t *px[3];
		void (*tick[2])(sim_unit *, uint64_t) = { NULL, NULL };
		for (unsigned form = 0; form < 3; form++) {   /* as chosen, plain, the four units */
			gr3d_draw dr;
			gr3d_fp *f = gr3d_rig_fp_new(dec, form < 2 ? &cfg : &units, &dr);
			cr_assert_eq(f->ahead != NULL, form < 2 && book);
			if (form < 2) {
				gr3d_fp_chain(f, false, false);
				cr_assert(f->chain_on);
				cr_assert_eq(f->chain.book, book);
				if (form == 1) {             /* the plain build */
					f->chain.avx2 = false;
					pseq_attach_chain(&f->pseq, &f->chain);
				}
				tick[form] = f->pseq.u.tick;
			}
			form_run(f, &dr, &st[form], &px[form]);
			gr3d_fp_free(f);
			ulp_image_free(dr.rt[1]);
		}
#if defined(__x86_64__)
		if (__builtin_cpu_supports("avx2"))
			cr_assert(tick[0] != tick[1], "run %u: the AVX2 build is chosen where the host has it", run);
#endif
		for (unsigned form = 1; form < 3; form++) {
			gr3d_rig_stats_same(&st[0], &st[form]);
			cr_assert(memcmp(px[0], px[form], 16u * 16u * 4u) == 0, "run %u, form %u: the image", run, form);
		}
		for (unsigned form = 0; form < 3; form++)
			free(px[form]);
	}
	free(fp);
	free(dec);
}

/* ---- recording a timeline: the chain allowed and forced off -------------
 *
 * Every event, in order, and every result the same (issue 18's recording
 * goal; docs/speed-history.md "Session 15: recording a timeline with the
 * GR3D stage chain").  The oracle is the path where MFU, TEX, ALU and DW
 * tick as clocked units.  Today a draw with a timeline keeps them
 * (gr3d_chain_ok); these tests hold any change that lets the chain run
 * under a timeline to the same event stream: every corpus program (1 EXEC,
 * several EXECs with recirculation, textures, kills), three port settings,
 * the whole draw and a cycle window (--timeline-from/to), and the sample
 * traces on Tegra 2, Tegra 3's two blocks on one host thread and on two.
 * Mutant: gr3d_chain_ok without its timeline test fails both. */

/* The first event where a and b differ, as text into buf (n bytes); false
 * when they are the same. */
static bool first_diff(const test_ev_log *a, const test_ev_log *b, char *buf, size_t n)
{
	const size_t m = a->n < b->n ? a->n : b->n;
	for (size_t i = 0; i < m; i++) {
		const sim_tl_event *x = &a->ev[i], *y = &b->ev[i];
		if (x->cycle != y->cycle || x->id != y->id || x->arg != y->arg || x->lane != y->lane ||
		    x->kind != y->kind) {
			snprintf(buf, n,
			         "event %zu of %zu/%zu: off (cycle %llu lane %u kind %u id %u arg %u) "
			         "on (cycle %llu lane %u kind %u id %u arg %u)",
			         i, a->n, b->n, (unsigned long long)x->cycle, x->lane, x->kind, x->id, x->arg,
			         (unsigned long long)y->cycle, y->lane, y->kind, y->id, y->arg);
			return true;
		}
	}
	if (a->n != b->n) {
		snprintf(buf, n, "%zu events off, %zu on", a->n, b->n);
		return true;
	}
	return false;
}

/* The lane names registered (their order gives the lane ids). */
static void lanes_same(const sim_timeline *a, const sim_timeline *b, const char *what)
{
	cr_assert_eq(a->nlanes, b->nlanes, "%s: %u lanes off, %u on", what, a->nlanes, b->nlanes);
	for (unsigned l = 0; l < a->nlanes; l++)
		cr_assert_str_eq(a->lane_name[l], b->lane_name[l], "%s: lane %u", what, l);
}

typedef struct tl_ctx {
	ulp_image *tex;
	unsigned draws;
	size_t events;
} tl_ctx;

static void draw_logged(const tegra_fp_decoded *dec, const tegra_fp_program *fp, const ulp_config *c,
                        const ulp_image *tex, uint64_t from, uint64_t to, test_ev_log *log, sim_timeline *tl,
                        gr3d_rig_out *o)
{
	cr_assert(sim_tl_init(tl));
	cr_assert(sim_tl_add_sink(tl, test_ev_sink(log)));
	tl->enabled = true;
	tl->from = from;
	tl->to = to;
	gr3d_rig_draw(dec, fp->constants, c, tex, tl, o);
	sim_tl_flush(tl);
}

static void program_tl(void *ctx, const char *path, const tegra_fp_program *fp, const tegra_fp_decoded *dec)
{
	tl_ctx *x = ctx;
	static const unsigned settings[] = { 0, 1, 4 };    /* the defaults, a FIFO of 1, mixed latencies */
	for (unsigned k = 0; k < sizeof settings / sizeof settings[0]; k++) {
		const unsigned setting = settings[k];
		for (unsigned window = 0; window < 2; window++) {
			ulp_config on;
			ulp_config_defaults(&on);
			port_setting(&on, setting);
			on.host_gr3d_chain = true;
			ulp_config off = on;
			off.host_gr3d_chain = false;
			const uint64_t from = window ? 40 : 0, to = window ? 400 : UINT64_MAX;
			test_ev_log la = { 0 }, lb = { 0 };
			sim_timeline ta, tb;
			gr3d_rig_out a, b;
			draw_logged(dec, fp, &off, x->tex, from, to, &la, &ta, &a);
			draw_logged(dec, fp, &on, x->tex, from, to, &lb, &tb, &b);
			char what[1200], diff[400];
			snprintf(what, sizeof what, "%s, setting %u, window %u", path, setting, window);
			lanes_same(&ta, &tb, what);
			cr_assert(!first_diff(&la, &lb, diff, sizeof diff), "%s: %s", what, diff);
			gr3d_rig_same(&a, &b, what);
			x->draws++;
			x->events += la.n;
			free(la.ev);
			free(lb.ev);
			sim_tl_fini(&ta);
			sim_tl_fini(&tb);
			ulp_image_free(a.rt);
			ulp_image_free(b.rt);
		}
	}
}

Test(chain_tl, corpus_programs_same_events, .timeout = 600)
{
	tl_ctx x = { .tex = gr3d_rig_texture() };
	const unsigned programs = gr3d_rig_each_program(program_tl, &x);
	ulp_image_free(x.tex);
	fprintf(stderr, "chain_tl: %u corpus programs, %u draws, %zu events each way\n", programs, x.draws, x.events);
	cr_assert_gt(programs, 50);
	cr_assert_gt(x.events, 0);
}

/* The sample traces: Tegra 2, and Tegra 3's two blocks on one host thread
 * and on two. */
Test(chain_tl, samples_same_events_on_both_gpus_and_threads, .timeout = 600) { samples_chain_vs_units(true); }
