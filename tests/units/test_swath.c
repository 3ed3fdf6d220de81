/* Tegra 3's two GR3D blocks (docs/tegra-units.md "Tegra 3: two blocks"):
 * the tegra3 preset splits the screen in horizontal swaths alternating
 * between blocks A and B, programmed through GSHIM_WRITE_MASK (0xb00) and
 * GLOBAL_HORIZONTAL_SWATH_RENDERING (0xe41).  Same images as tegra2, about
 * half the fragment cycles on fill-bound draws, both blocks in the stats. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fileio.h"
#include "base/image.h"
#include "tests/test_util.h"
#include "units/gr3d/gr3d_regs.h"
#include "ulpsim/ulpsim.h"
#include "traces/replay/replay.h"
#include "sim/core/timeline.h"
#include "units/gr3d/raster.h"

static void preset(ulp_config *cfg, const char *name)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	ulp_config_defaults(cfg);
	cr_assert(ulp_config_preset(cfg, name, &d), "%s", d.msg);
}

static bool replay_trace(const trace *t, const ulp_config *cfg, replay_result *res, ulp_diag *d)
{
	replay_opts o = { .cfg = cfg, .keep_image = true };
	return replay_run(t, &o, res, d);
}

static const sim_unit *unit(const replay_result *res, const char *name)
{
	for (unsigned k = 0; k < res->nunits; k++)
		if (!strcmp(res->unit[k].name, name))
			return &res->unit[k];
	return NULL;
}

static uint64_t counter(const replay_result *res, const char *name, const char *ctr)
{
	const sim_unit *u = unit(res, name);
	cr_assert(u, "no unit %s", name);
	for (unsigned c = 0; c < u->ncounters; c++)
		if (!strcmp(u->counter_defs[c].name, ctr))
			return u->stats.counter[c];
	cr_assert_fail("no counter %s.%s", name, ctr);
	return 0;
}

Test(swath, presets_set_the_blocks)
{
	ulp_config c;
	preset(&c, "tegra2");
	cr_assert_eq(c.gr3d_instances, 1);
	preset(&c, "tegra3");
	cr_assert_eq(c.gr3d_instances, 2);
	cr_assert_eq(c.gr3d_swath_height, 16);
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert_not(ulp_config_set(&c, "gr3d.swath_height=1", &d), "a swath holds whole quads");
}

/* The swath geometry: which block walks a row, which blocks a box touches. */
Test(swath, rows_and_boxes)
{
	cr_assert_eq(raster_swath_block(0, 4, 2), 0);
	cr_assert_eq(raster_swath_block(15, 4, 2), 0);
	cr_assert_eq(raster_swath_block(16, 4, 2), 1);
	cr_assert_eq(raster_swath_block(32, 4, 2), 0);
	cr_assert_eq(raster_swath_block(47, 4, 1), 0, "one block takes every row");
	raster_tri t;
	const double x[3] = { 1, 10, 1 }, z[3] = { 0, 0, 0 }, w[3] = { 1, 1, 1 };
	const double in_a[3] = { 1, 1, 12 }, in_b[3] = { 17, 17, 30 }, both[3] = { 10, 10, 20 };
	raster_tri_setup(&t, x, in_a, z, w, 64, 64);
	cr_assert_eq(raster_tri_blocks(&t, 4, 2), 1u);
	raster_tri_setup(&t, x, in_b, z, w, 64, 64);
	cr_assert_eq(raster_tri_blocks(&t, 4, 2), 2u);
	raster_tri_setup(&t, x, both, z, w, 64, 64);
	cr_assert_eq(raster_tri_blocks(&t, 4, 2), 3u);
	cr_assert_eq(raster_tri_blocks(&t, 4, 1), 1u);
}

/* Every sample trace: tegra3 writes the same bytes as tegra2, the two
 * blocks' quads add up to tegra2's, and block B did work where the target
 * is taller than one swath. */
Test(swath, samples_same_images_both_blocks_work)
{
	static const char *const samples[] = { "triangle", "textured_cube", "lit_sphere", "teaching_8x8" };
	for (size_t s = 0; s < sizeof samples / sizeof samples[0]; s++) {
		char path[128];
		snprintf(path, sizeof path, "traces/samples/%s.json", samples[s]);
		trace t;
		ulp_diag d;
		ulp_diag_clear(&d);
		cr_assert(trace_load(&t, path, &d), "%s", d.msg);
		ulp_config c2, c3;
		preset(&c2, "tegra2");
		preset(&c3, "tegra3");
		replay_result r2, r3;
		cr_assert(replay_trace(&t, &c2, &r2, &d), "%s: %s", path, d.msg);
		cr_assert(replay_trace(&t, &c3, &r3, &d), "%s: %s", path, d.msg);
		cr_assert(r2.image && r3.image);
		cr_assert_eq(r2.image->width, r3.image->width);
		cr_assert_eq(r2.image->height, r3.image->height);
		cr_assert(!memcmp(r2.image->rgba, r3.image->rgba, (size_t)r2.image->width * r2.image->height * 4),
		          "%s: tegra3 image differs from tegra2", path);
		cr_assert_eq(r2.fragments, r3.fragments, "%s", path);
		cr_assert_null(unit(&r2, "pseq_b"), "tegra2 has one block");
		const uint64_t q2 = counter(&r2, "raster", "quads");
		const uint64_t qa = counter(&r3, "raster", "quads"), qb = counter(&r3, "raster_b", "quads");
		cr_assert_eq(qa + qb, q2, "%s: %llu + %llu quads, tegra2 %llu", path, (unsigned long long)qa,
		             (unsigned long long)qb, (unsigned long long)q2);
		cr_assert_eq(counter(&r3, "dw", "pixels_written") + counter(&r3, "dw_b", "pixels_written"),
		             counter(&r2, "dw", "pixels_written"), "%s", path);
		if (!unit(&r3, "zs"))         /* no early depth test: every quad runs */
			cr_assert_eq(counter(&r3, "pseq_b", "quads_finished"), qb, "%s", path);
		if (r3.image->height > 16) {
			cr_assert_gt(qb, 0, "%s: block B walked its swaths", path);
			cr_assert_lt(r3.cycles, r2.cycles, "%s: two blocks are faster", path);
		} else {
			cr_assert_eq(qb, 0, "%s: one swath: block A only", path);
		}
		if (unit(&r3, "zs"))
			cr_assert(unit(&r3, "zs_b"), "%s: depth/stencil on both blocks", path);
		ulp_image_free(r2.image);
		ulp_image_free(r3.image);
		trace_free(&t);
	}
}

Test(swath, fill_bound_draw_takes_half_the_fragment_cycles)
{
	char *j = test_fill_trace(1);
	trace t;
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert(trace_parse(&t, j, "fill.trace.json", ".", &d), "%s", d.msg);
	ulp_config c2, c3;
	preset(&c2, "tegra2");
	preset(&c3, "tegra3");
	replay_result r2, r3, again;
	cr_assert(replay_trace(&t, &c2, &r2, &d), "%s", d.msg);
	cr_assert(replay_trace(&t, &c3, &r3, &d), "%s", d.msg);
	cr_assert_eq(r2.fragments, 128 * 128);
	cr_assert_eq(r3.fragments, 128 * 128);
	cr_assert(!memcmp(r2.image->rgba, r3.image->rgba, 128 * 128 * 4));
	for (size_t p = 0; p < 128 * 128; p++)
		cr_assert_eq(r3.image->rgba[4 * p], 255, "every pixel written");
	/* 4 swaths each: the blocks share the quads evenly (the diagonal's
	 * quads are walked by both triangles) */
	const uint64_t qa = counter(&r3, "raster", "quads"), qb = counter(&r3, "raster_b", "quads");
	cr_assert_eq(qa + qb, counter(&r2, "raster", "quads"));
	cr_assert_eq(qa, qb, "%llu vs %llu quads", (unsigned long long)qa, (unsigned long long)qb);
	cr_assert_geq(qa, 64 * 32);
	const double ratio = (double)r3.fragment_cycles / (double)r2.fragment_cycles;
	cr_assert(ratio > 0.45 && ratio < 0.6, "fragment cycles tegra3 %llu / tegra2 %llu = %.3f",
	          (unsigned long long)r3.fragment_cycles, (unsigned long long)r2.fragment_cycles, ratio);
	/* both PSEQs busy most of the draw */
	cr_assert_gt(unit(&r3, "pseq_b")->stats.busy, unit(&r2, "pseq")->stats.busy * 4 / 10);
	/* determinism */
	cr_assert(replay_trace(&t, &c3, &again, &d), "%s", d.msg);
	cr_assert_eq(again.cycles, r3.cycles);
	cr_assert(!memcmp(again.image->rgba, r3.image->rgba, 128 * 128 * 4));
	/* taller swaths: still an even split of 128 rows, same image */
	ulp_config c64 = c3;
	c64.gr3d_swath_height = 64;
	replay_result r64;
	cr_assert(replay_trace(&t, &c64, &r64, &d), "%s", d.msg);
	cr_assert_eq(counter(&r64, "raster_b", "quads"), qb);
	cr_assert(!memcmp(r64.image->rgba, r3.image->rgba, 128 * 128 * 4));
	/* not a power of two: the driver cannot program SWATH_ALIGN */
	c64.gr3d_swath_height = 24;
	replay_result bad;
	cr_assert_not(replay_trace(&t, &c64, &bad, &d));
	cr_assert(strstr(d.msg, "SWATH_ALIGN"), "%s", d.msg);
	ulp_image_free(bad.image);
	ulp_image_free(r2.image);
	ulp_image_free(r3.image);
	ulp_image_free(again.image);
	ulp_image_free(r64.image);
	trace_free(&t);
	free(j);
}

/* The registers: the driver's broadcast mask and swath split, a write to one
 * block refused at the draw, 0xe41 without ALTERNATE giving block A all. */
Test(swath, gshim_and_swath_registers)
{
	gr3d_regs r;
	gr3d_regs_init(&r);
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert_eq(r.raw[GR3D_GSHIM_WRITE_MASK], 3u, "reset: broadcast to GPU_A and GPU_B");
	reg_stream s;
	reg_stream_init(&s);
	cr_assert(drv_gr3d_swath(&s, 1, 16, &d));
	cr_assert_eq(s.n, 0, "Tegra 2: no GSHIM writes");
	cr_assert(drv_gr3d_swath(&s, 2, 32, &d), "%s", d.msg);
	cr_assert_eq(s.n, 2);
	for (size_t k = 0; k < s.n; k++)
		cr_assert(gr3d_regs_write(&r, s.w[k].reg, s.w[k].value, &d), "%s", d.msg);
	cr_assert_eq(r.raw[GR3D_SWATH_RENDERING], 0x51u, "ALTERNATE | SWATH_ALIGN 5 (32 rows)");
	bool alt;
	unsigned shift;
	cr_assert(gr3d_regs_swath(&r, 2, &alt, &shift, &d), "%s", d.msg);
	cr_assert(alt);
	cr_assert_eq(shift, 5);
	cr_assert(gr3d_regs_swath(&r, 1, &alt, &shift, &d));
	cr_assert_not(alt, "one block: no alternation");
	cr_assert_not(drv_gr3d_swath(&s, 2, 48, &d), "48 rows is not a power of two");
	ulp_diag_clear(&d);
	/* ALTERNATE off: block A takes every triangle */
	cr_assert(gr3d_regs_write(&r, GR3D_SWATH_RENDERING, 0x50, &d));
	cr_assert(gr3d_regs_swath(&r, 2, &alt, &shift, &d));
	cr_assert_not(alt);
	/* SWATH_ALIGN 0 with ALTERNATE: swaths of one row split quads */
	cr_assert(gr3d_regs_write(&r, GR3D_SWATH_RENDERING, 0x01, &d));
	cr_assert_not(gr3d_regs_swath(&r, 2, &alt, &shift, &d));
	cr_assert(strstr(d.msg, "SWATH_ALIGN"), "%s", d.msg);
	ulp_diag_clear(&d);
	cr_assert(gr3d_regs_write(&r, GR3D_SWATH_RENDERING, 0x41, &d));
	/* GPU_A only, then a program register: the blocks would differ */
	cr_assert(gr3d_regs_write(&r, GR3D_GSHIM_WRITE_MASK, GR3D_GSHIM_GPU_A, &d));
	cr_assert(gr3d_regs_write(&r, 0x820, 0x12345, &d));
	cr_assert(gr3d_regs_write(&r, GR3D_GSHIM_WRITE_MASK, 3, &d));
	cr_assert(gr3d_regs_swath(&r, 1, &alt, &shift, &d), "Tegra 2 has no GSHIM: the mask does not matter");
	cr_assert_not(gr3d_regs_swath(&r, 2, &alt, &shift, &d));
	cr_assert(strstr(d.msg, "0x820") && strstr(d.msg, "GSHIM_WRITE_MASK"), "%s", d.msg);
	reg_stream_free(&s);
}

/* The watchdog names both blocks' units: with a texture latency longer
 * than the watchdog allows, both blocks' pipelines fill up and stall, and
 * no unit makes progress.  The same report with a timeline recording and
 * without (stalled units sleep either way). */
Test(swath, watchdog_names_block_b)
{
	char *j = test_fill_trace(1);
	trace t;
	ulp_diag d;
	char first[sizeof d.msg] = "";
	cr_assert(trace_parse(&t, j, "fill.trace.json", ".", &d), "%s", d.msg);
	for (int recording = 1; recording >= 0; recording--) {
		ulp_diag_clear(&d);
		ulp_config c;
		preset(&c, "tegra3");
		c.watchdog_cycles = 50;
		c.tegra_lat_tex = 300;
		sim_timeline tl;
		cr_assert(sim_tl_init(&tl));
		tl.enabled = recording;       /* no sink: the events are dropped */
		replay_opts o = { .cfg = &c, .tl = &tl };
		replay_result r;
		cr_assert_not(replay_run(&t, &o, &r, &d));
		sim_tl_fini(&tl);
		cr_assert(strstr(d.msg, "watchdog"), "%s", d.msg);
		cr_assert(strstr(d.msg, "pseq stall") && strstr(d.msg, "pseq_b stall"), "both blocks named: %s", d.msg);
		cr_assert(strstr(d.msg, "port raster->pseq_b 8/8"), "block B's ports named: %s", d.msg);
		if (recording)
			snprintf(first, sizeof first, "%s", d.msg);
		else
			cr_expect_str_eq(d.msg, first, "the same report without a timeline");
	}
	trace_free(&t);
	free(j);
}

/* The public API: block B's lanes, and a pixel's quad found on the lanes of
 * the block whose swath holds it (triangle sample, 64x64, 16-row swaths:
 * image row 10 is window row 53, swath 3, block B; image row 40 is window
 * row 23, swath 1, block B; image row 50 is window row 13, block A). */
Test(swath, api_lanes_and_quads_per_block)
{
	char err[512] = "";
	const char *sets[] = { "preset=tegra3" };
	ulpsim *s = ulpsim_open("traces/samples/triangle.json", sets, 1, err, sizeof err);
	cr_assert(s, "%s", err);
	cr_assert(ulpsim_run(s, 0, err, sizeof err), "%s", err);
	bool pseq = false, pseq_b = false, raster_b = false;
	for (unsigned l = 0; l < ulpsim_lane_count(s); l++) {
		pseq |= !strcmp(ulpsim_lane_name(s, l), "pseq");
		pseq_b |= !strcmp(ulpsim_lane_name(s, l), "pseq_b");
		raster_b |= !strcmp(ulpsim_lane_name(s, l), "raster_b");
	}
	cr_assert(pseq && pseq_b && raster_b, "both blocks' lanes");
	ulpsim_quad_ref q;
	cr_assert(ulpsim_quad_at(s, 32, 10, &q, err, sizeof err), "%s", err);
	cr_assert(q.exact);
	cr_assert_eq(q.block, 1);
	cr_assert_eq(q.qy, 52);
	cr_assert(ulpsim_quad_at(s, 32, 40, &q, err, sizeof err), "%s", err);
	cr_assert_eq(q.block, 1);
	cr_assert(ulpsim_quad_at(s, 32, 50, &q, err, sizeof err), "%s", err);
	cr_assert_eq(q.block, 0);
	cr_assert_eq(q.qy, 12);
	cr_assert_lt(q.pass_from, q.pass_to);
	ulpsim_close(s);
}

/* The Kanata log keeps block A's and block B's quads apart (and both apart
 * from the shader units' items): the same number of entries as with one
 * block, some of them in block B's lanes. */
static unsigned kanata_items(const char *preset, unsigned *in_b)
{
	char *dir = test_tmpdir();
	char args[1024], path[600], *out, *err;
	snprintf(path, sizeof path, "%s/k.log", dir);
	snprintf(args, sizeof args, "replay traces/samples/triangle.json --set preset=%s --kanata %s", preset, path);
	cr_assert_eq(test_run_cli(args, &out, &err), 0, "%s", err);
	free(out);
	free(err);
	ulp_diag d;
	ulp_diag_clear(&d);
	char *k = ulp_read_file(path, NULL, &d);
	cr_assert(k, "%s", d.msg);
	unsigned n = 0;
	*in_b = 0;
	for (const char *p = k; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		n += p[0] == 'I' && p[1] == '\t';
		*in_b += !strncmp(p, "L\t", 2) && strstr(p, "_b") && strstr(p, "_b") < strchr(p, '\n');
	}
	free(k);
	remove(path);
	remove(dir);
	free(dir);
	return n;
}

Test(swath, kanata_keeps_the_blocks_apart)
{
	unsigned b2, b3;
	unsigned n2 = kanata_items("tegra2", &b2), n3 = kanata_items("tegra3", &b3);
	cr_assert_eq(b2, 0u);
	cr_assert_gt(b3, 0u, "block B's quads are labelled with its lanes");
	cr_assert_eq(n3, n2, "every quad-EXEC is an entry whichever block shades it (%u vs %u)", n3, n2);
}
