/* Tegra GR3D fragment units: pixel-EXECs per second through the clocked
 * PSEQ/MFU/TEX/ALU/DW units for a full-screen 640x480 quad (issue 4's goal:
 * >= 10 M pixel-EXECs/s on one host core).  --size and --reps shrink the
 * draw for profiling; --check prints the cycles, the unit statistics and a
 * hash of the render target, which no speed-up may change. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fileio.h"
#include "bench/bench.h"
#include "isa/tegra/tegra_asm.h"
#include "units/gpu.h"

void bench_tegra(bench_table *t);   /* bench/bench.h gets the row from the lead */

/* FNV-1a over the render target's bytes. */
static uint64_t image_hash(const ulp_image *img)
{
	uint64_t h = UINT64_C(14695981039346656037);
	for (uint32_t y = 0; y < img->height; y++)
		for (uint32_t x = 0; x < img->width; x++) {
			const uint8_t *p = ulp_image_cpx(img, x, y);
			for (unsigned k = 0; k < 4; k++)
				h = (h ^ p[k]) * UINT64_C(1099511628211);
		}
	return h;
}

static void print_check(const char *label, int rep, const gr3d_stats *st, const ulp_image *rt)
{
	printf("check %s rep %d: cycles %llu quads %llu pixels %llu pixel_execs %llu rt %016llx\n", label,
	       rep, (unsigned long long)st->cycles, (unsigned long long)st->quads,
	       (unsigned long long)st->pixels, (unsigned long long)st->pixel_execs,
	       (unsigned long long)image_hash(rt));
	for (unsigned k = 0; k < GR3D_UNITS; k++) {
		printf("check   %-5s busy %llu idle %llu stalls", st->name[k],
		       (unsigned long long)st->unit[k].busy, (unsigned long long)st->idle[k]);
		for (unsigned s = 0; s < SIM_STALL_COUNT; s++)
			printf(" %llu", (unsigned long long)st->unit[k].stall[s]);
		printf(" counters");
		for (unsigned c = 0; c < st->ncounters[k]; c++)
			printf(" %llu", (unsigned long long)st->unit[k].counter[c]);
		printf("\n");
	}
}

static void one(bench_table *t, const char *corpus, const char *rel, const char *label,
                ulp_image *tex, ulp_image *rt)
{
	if (t->only && !strstr(label, t->only))
		return;
	char path[1024];
	snprintf(path, sizeof path, "%s/%s", corpus, rel);
	ulp_diag d;
	ulp_diag_clear(&d);
	size_t len;
	char *src = ulp_read_file(path, &len, &d);
	tegra_fp_program *fp = malloc(sizeof *fp);
	tegra_fp_decoded *dec = malloc(sizeof *dec);
	if (!src || !fp || !dec || !tegra_asm_assemble(src, len, path, fp, &d) ||
	    !tegra_fp_decode(fp, dec, path, &d)) {
		fprintf(stderr, "bench: %s: %s\n", path, d.msg);
		goto out;
	}
	ulp_config cfg;
	ulp_config_defaults(&cfg);
	cfg.watchdog_cycles = 0;
	gr3d_draw dr;
	memset(&dr, 0, sizeof dr);
	dr.prog = dec;
	dr.cfg = &cfg;
	for (int k = 0; k < 32; k++)
		dr.uniforms[k] = fp->constants[k] & FP20_MASK;
	dr.uniforms[5] = dr.uniforms[8] = FX10_ONE;
	dr.uniforms[6] = (uint32_t)FX10_ONE << 10;
	static const double ndc[4][2] = { { -1, 1 }, { -1, -1 }, { 1, 1 }, { 1, -1 } };
	gr3d_vertex v[4];
	memset(v, 0, sizeof v);
	for (int k = 0; k < 4; k++) {
		v[k].x = (ndc[k][0] + 1) * rt->width / 2;
		v[k].y = (ndc[k][1] + 1) * rt->height / 2;
		v[k].w = 1;
		for (int j = 0; j < 4; j++)
			v[k].tram[0][j] = fp20_encode((float)((ndc[k][j & 1] + 1) / 2), ULP_ROUND_NEAREST_EVEN);
	}
	static const uint16_t idx[6] = { 0, 1, 2, 1, 2, 3 };
	dr.vtx = v;
	dr.nvtx = 4;
	dr.idx = idx;
	dr.ntris = 2;
	dr.sampler[0] = (gr3d_sampler){ .img = tex, .wrap = GR3D_WRAP_REPEAT };
	dr.sampler[1] = (gr3d_sampler){ .img = tex, .wrap = GR3D_WRAP_CLAMP };
	dr.rt[1] = rt;
	gr3d_stats st;
	double dt = 0;
	for (int rep = 0; rep < t->reps; rep++) {     /* best of 3: the host is shared */
		double t0 = bench_now();
		bool ok = gr3d_fp_draw(&dr, &st, &d);
		double el = bench_now() - t0;
		if (!ok) {
			fprintf(stderr, "bench: %s: %s\n", path, d.msg);
			goto out;
		}
		if (rep == 0 || el < dt)
			dt = el;
		if (t->check)
			print_check(label, rep, &st, rt);
	}
	char name[128];
	snprintf(name, sizeof name, "tegra %s %ux%u: pixel-EXECs", label, rt->width, rt->height);
	bench_add(t, name, st.pixel_execs / dt, "pixel-EXECs/s", ">= 10 M");
	snprintf(name, sizeof name, "tegra %s %ux%u: simulated cycles", label, rt->width, rt->height);
	bench_add(t, name, st.cycles / dt, "cycles/s", "");
out:
	free(src);
	free(fp);
	free(dec);
}

void bench_tegra(bench_table *t)
{
	const char *corpus = getenv("ULPSIM_CORPUS");
	if (!corpus || !*corpus)
		corpus = "../shared/corpus";
	ulp_diag d;
	ulp_diag_clear(&d);
	ulp_image *tex = ulp_image_create(64, 64, &d);
	ulp_image *rt = ulp_image_create(t->width, t->height, &d);
	if (!tex || !rt) {
		fprintf(stderr, "bench: tegra: %s\n", d.msg);
		goto out;
	}
	for (uint32_t y = 0; y < 64; y++)
		for (uint32_t x = 0; x < 64; x++) {
			uint8_t *p = ulp_image_px(tex, x, y);
			p[0] = (uint8_t)(x * 4);
			p[1] = (uint8_t)(y * 4);
			p[2] = (uint8_t)(x ^ y);
			p[3] = 200;
		}
	ulp_image_fill(rt, 40, 80, 120, 160);
	one(t, corpus, "tegra/grate-tests/fs_vs_tests.txt", "1-EXEC fs_vs_tests", tex, rt);
	one(t, corpus, "tegra/xf86/blend_saturate/blend_saturate/fragment.asm", "30-EXEC blend_saturate",
	    tex, rt);
out:
	ulp_image_free(tex);
	ulp_image_free(rt);
}
