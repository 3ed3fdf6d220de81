/* A test rig for the GR3D fragment units (gr3d_rig.h). */
#include "tests/units/gr3d_rig.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fileio.h"
#include "isa/tegra/tegra_asm.h"
#include "tests/test_util.h"
#include "units/gpu.h"

/* The rig's geometry: two triangles whose edges cut quads (partial quads),
 * one of them clockwise; or (stacked) six small triangles over the same
 * 6x6 pixels, so that a quad's destination fetch may meet the quad before
 * it still in the pipeline. */
static const double RIG_XY[5][2] = { { 0.5, 0.3 }, { 37.2, 2.9 }, { 3.1, 29.6 }, { 40.0, 30.7 }, { 21.4, 15.5 } };
static const uint16_t RIG_IDX[6] = { 0, 1, 2, 1, 4, 3 };
static const double STACK_XY[5][2] = { { 4.0, 4.0 }, { 10.5, 4.2 }, { 4.3, 10.6 }, { 10.2, 10.1 }, { 7.1, 3.6 } };
static const uint16_t STACK_IDX[18] = { 0, 1, 2, 1, 3, 2, 0, 1, 3, 0, 3, 2, 4, 3, 2, 0, 4, 3 };

static void rig_draw(const tegra_fp_decoded *dec, const uint32_t consts[32], const ulp_config *cfg,
                     const ulp_image *tex, sim_timeline *tl, bool stacked, gr3d_rig_out *o)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	gr3d_draw dr;
	memset(&dr, 0, sizeof dr);
	dr.prog = dec;
	dr.cfg = cfg;
	dr.tl = tl;
	for (unsigned k = 0; k < 32; k++)
		dr.uniforms[k] = consts[k] & FP20_MASK;
	dr.uniforms[0] = 0x3C000u;           /* 0.5 */
	dr.uniforms[1] = 0x3A000u;           /* 0.25 */
	/* TRAM values spread over [-1, 2] */
	const double(*xy)[2] = stacked ? STACK_XY : RIG_XY;
	gr3d_vertex v[5];
	memset(v, 0, sizeof v);
	test_rng g = { 12345u };
	for (unsigned k = 0; k < 5; k++) {
		v[k].x = xy[k][0];
		v[k].y = xy[k][1];
		v[k].w = 1.0 + k * 0.25;
		v[k].z = 0.5;
		for (unsigned r = 0; r < GR3D_TRAM_ROWS; r++)
			for (unsigned c = 0; c < 4; c++)
				v[k].tram[r][c] = test_f_bits((float)(test_rnd(&g) % 3001) / 1000.0f - 1.0f);
	}
	dr.vtx = v;
	dr.nvtx = 5;
	dr.idx = stacked ? STACK_IDX : RIG_IDX;
	dr.ntris = stacked ? 6 : 2;
	for (unsigned s = 0; s < 4; s++)
		dr.sampler[s] = (gr3d_sampler){ .img = tex, .bilinear = s & 1, .wrap = (uint8_t)(s % 3),
		                                .mipmap = s >= 2 };
	o->rt = ulp_image_create(42, 32, &d);
	cr_assert(o->rt);
	ulp_image_fill(o->rt, 10, 20, 30, 40);
	for (unsigned k = 0; k < GR3D_RTS; k++)
		dr.rt[k] = o->rt;
	gr3d_fp *f = gr3d_fp_new(&dr, dr.ntris, false, dr.ntris, 0, &d);
	cr_assert(f, "%s", d.msg);
	o->ahead = f->ahead != NULL;
	gr3d_fp_chain(f, tl != NULL, false);   /* as gr3d_fp_draw decides */
	o->chain = f->chain_on;
	gr3d_fp_free(f);
	cr_assert(gr3d_fp_draw(&dr, &o->st, &d), "%s", d.msg);
}

void gr3d_rig_draw(const tegra_fp_decoded *dec, const uint32_t consts[32], const ulp_config *cfg,
                   const ulp_image *tex, sim_timeline *tl, gr3d_rig_out *o)
{
	rig_draw(dec, consts, cfg, tex, tl, false, o);
}

void gr3d_rig_same(const gr3d_rig_out *a, const gr3d_rig_out *b, const char *what)
{
	cr_assert(!memcmp(a->rt->rgba, b->rt->rgba, (size_t)a->rt->width * a->rt->height * 4), "%s: images differ",
	          what);
	cr_assert_eq(a->st.cycles, b->st.cycles, "%s: cycles", what);
	cr_assert_eq(a->st.pixels, b->st.pixels, "%s", what);
	cr_assert_eq(a->st.pixel_execs, b->st.pixel_execs, "%s", what);
	for (unsigned k = 0; k < GR3D_UNITS; k++) {
		cr_assert(!memcmp(&a->st.unit[k], &b->st.unit[k], sizeof a->st.unit[k]), "%s: %s's stats", what,
		          a->st.name[k]);
		cr_assert_eq(a->st.idle[k], b->st.idle[k], "%s: %s idle", what, a->st.name[k]);
	}
	for (unsigned k = 0; k < 3; k++)
		cr_assert_eq(a->st.mid_marks[k], b->st.mid_marks[k], "%s: middle port %u's mark %u vs %u", what, k,
		             a->st.mid_marks[k], b->st.mid_marks[k]);
}

void gr3d_rig_alike(const tegra_fp_decoded *dec, const uint32_t consts[32], const ulp_config *off,
                    const ulp_config *on, const ulp_image *tex, const char *what, gr3d_rig_out *a,
                    gr3d_rig_out *b)
{
	for (int stacked = 1; stacked >= 0; stacked--) {   /* the plain triangles last: their flags stay */
		rig_draw(dec, consts, off, tex, NULL, stacked, a);
		rig_draw(dec, consts, on, tex, NULL, stacked, b);
		gr3d_rig_same(a, b, what);
		ulp_image_free(a->rt);
		ulp_image_free(b->rt);
		a->rt = b->rt = NULL;
	}
}

unsigned gr3d_rig_each_program(gr3d_rig_program_fn *fn, void *ctx)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	char cmd[1024];
	char *dir = test_corpus_path("tegra");
	snprintf(cmd, sizeof cmd, "find %s -name '*.words' | sort", dir);
	free(dir);
	FILE *p = popen(cmd, "r");
	cr_assert(p);
	char line[1024];
	unsigned programs = 0;
	tegra_fp_program *fp = malloc(sizeof *fp);
	tegra_fp_decoded *dec = malloc(sizeof *dec);
	cr_assert(fp && dec);
	while (fgets(line, sizeof line, p)) {
		line[strcspn(line, "\n")] = '\0';
		size_t len;
		char *text = ulp_read_file(line, &len, &d);
		cr_assert(text && tegra_fp_words_read(text, len, line, fp, &d), "%s", d.msg);
		free(text);
		if (!tegra_fp_decode(fp, dec, line, &d))
			continue;
		programs++;
		fn(ctx, line, fp, dec);
	}
	pclose(p);
	free(fp);
	free(dec);
	return programs;
}

void gr3d_rig_fp_run(gr3d_fp *f, gr3d_stats *st)
{
	static const double x[2][3] = { { 0, 0, 16 }, { 0, 16, 16 } }, y[2][3] = { { 16, 0, 16 }, { 0, 0, 16 } };
	static const double z[3] = { 0.5, 0.5, 0.5 }, w[3] = { 1, 1, 1 };
	for (unsigned t = 0; t < 2; t++) {
		raster_tri rt;
		raster_tri_setup(&rt, x[t], y[t], z, w, 16, 16);
		rt.slot = (uint8_t)t;
		sim_port_push(&f->tri_in, &rt, 0);
	}
	sim_clock c;
	sim_clock_init(&c, 100000, NULL);
	const gr3d_fp_units fu = gr3d_fp_units_of(f);
	gpu_step_units su = { 0 };
	su.u[GPU_STEP_DW][0] = fu.dw;
	su.u[GPU_STEP_ALU][0] = fu.alu;
	su.u[GPU_STEP_TEX][0] = fu.tex;
	su.u[GPU_STEP_MFU][0] = fu.mfu;
	su.u[GPU_STEP_PSEQ][0] = fu.pseq;
	su.u[GPU_STEP_ZS][0] = fu.zs;
	su.u[GPU_STEP_RASTER][0] = fu.raster;
	cr_assert(gpu_clock_add_units(&c, &su));
	cr_assert(gr3d_fp_add_ports(f, &c));
	sim_unit_wake(fu.raster, 0);
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert_eq(sim_clock_run(&c, UINT64_MAX, &d), SIM_RUN_DRAINED, "%s", d.msg);
	cr_assert(gr3d_fp_finish(f, &c, st, &d), "%s", d.msg);
}

gr3d_fp *gr3d_rig_fp_new(const tegra_fp_decoded *dec, const ulp_config *cfg, gr3d_draw *dr)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	memset(dr, 0, sizeof *dr);
	dr->prog = dec;
	dr->cfg = cfg;
	dr->rt[1] = ulp_image_create(16, 16, &d);
	cr_assert(dr->rt[1], "%s", d.msg);
	gr3d_fp *f = gr3d_fp_new(dr, 2, false, 2, 0, &d);
	cr_assert(f, "%s", d.msg);
	return f;
}

void gr3d_rig_stats_same(const gr3d_stats *a, const gr3d_stats *b)
{
	cr_assert_eq(b->cycles, a->cycles);
	cr_assert_eq(b->quads, a->quads);
	for (unsigned k = 0; k < GR3D_UNITS; k++)
		cr_assert(memcmp(&b->unit[k], &a->unit[k], sizeof a->unit[k]) == 0, "%s", a->name[k]);
	for (unsigned k = 0; k < 3; k++)
		cr_assert_eq(b->mid_marks[k], a->mid_marks[k], "middle port %u", k);
}

void gr3d_rig_assemble(const char *text, tegra_fp_program *fp, tegra_fp_decoded *dec)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert(tegra_asm_assemble(text, strlen(text), "t.asm", fp, &d), "%s", d.msg);
	cr_assert(tegra_fp_decode(fp, dec, "t.asm", &d), "%s", d.msg);
}

ulp_image *gr3d_rig_texture(void)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	ulp_image *tex = ulp_image_create(16, 8, &d);
	cr_assert(tex);
	test_rng g = { 777u };
	for (size_t i = 0; i < (size_t)16 * 8 * 4; i++)
		tex->rgba[i] = (uint8_t)test_rnd(&g);
	return tex;
}
