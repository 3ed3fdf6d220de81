/* TGSI -> Tegra GR3D fragment compiler: differential tests against the
 * reference interpreter over the corpora and hand-written lowerings
 * (tests/frontends/test_compile_tegra_limits.c: slot packing / EXEC scheduling,
 * refusals and the CLI).
 *
 * Differential test: every fs.tgsi of ../shared/corpus/tgsi-noint (and
 * ../shared/corpus/tgsi) the backend accepts is drawn by gr3d_fp_draw
 * (units/gr3d/gr3d_fp.h, default knobs) on a 4x4 render target covered by two
 * triangles whose vertices all carry the same TRAM words, so every
 * interpolated input is constant; the interpreter (tgsi_exec, f32) runs
 * once on the same values: IN[k] in [0, 1] for COLOR inputs and [-2, 2]
 * otherwise, CONST[0][n] in [-2, 2], all FP20-rounded first; each sampler
 * is a 1x1 texture of random bytes, whose FX10 texel (b + (b >> 7)) / 256
 * is the interpreter's SAMP[n].  CASES cases per shader, fixed seeds.
 *
 * Each pixel byte is compared with the interpreter's OUT[0] clamped to
 * [0, 1] (a UNORM target), encoded to FX10 rounding to nearest (ties away)
 * and converted by the DW path (fx10 * 255 + 127) >> 8, within TOL = 2:
 * FP20 keeps 13 mantissa bits and rounds each result (relative error
 * 2^-14), FX10 has 8 fraction bits (steps of 2^-8).  A value that lands
 * within a few FP20 roundings of an FX10 rounding boundary may round to
 * the neighbouring FX10 code (one byte), and the FX10 -> UNORM8 mapping
 * can turn one FX10 step into 0 or 1 byte: TOL = 1 for the boundary + 1
 * for ~16 accumulated FP20 roundings on values up to ~4 (16 * 4 * 2^-14 =
 * 2^-8, one more FX10 step); a wrong operand, swizzle, register, branch or
 * half is off by far more.  Killed fragments must keep the clear colour on
 * both sides. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fileio.h"
#include "base/image.h"
#include "frontends/tegra/tegra_compile.h"
#include "frontends/tgsi/tgsi_exec.h"
#include "isa/fp20.h"
#include "isa/fx10.h"
#include "isa/tegra/fp_container.h"
#include "isa/tegra/tegra_prog.h"
#include "sim/core/config.h"
#include "tests/frontends/compile_tally.h"
#include "tests/test_util.h"
#include "units/gpu.h"

enum { CASES = 4, W = 4, H = 4, TOL = 2 };
static const uint8_t CLEAR[4] = { 0x11, 0x22, 0x33, 0x44 };

static float fp20_val(float v) { return fp20_decode(fp20_encode(v, ULP_ROUND_NEAREST_EVEN)); }

static float rnd_range(test_rng *r, float lo, float hi)
{
	return fp20_val((float)(lo + (hi - lo) * ((test_rnd(r) >> 8) / 16777216.0)));
}

enum outcome { OUT_REFUSED, OUT_MATCH, OUT_MISMATCH, OUT_SIM_ERROR, OUT_REF_ERROR, OUT_N };
static const char *const OUTCOME[OUT_N] = { "refused", "match", "mismatch", "simulator error",
                                            "reference error" };

typedef struct one_result {
	enum outcome o;
	int maxdiff;            /* largest byte difference seen */
	enum ir_refusal why;
	char msg[2048];
} one_result;

/* The reference byte of one channel. */
static uint8_t ref_byte(float v)
{
	double c = isnan(v) ? 0.0 : v < 0.0f ? 0.0 : v > 1.0f ? 1.0 : (double)v;
	return fx10_to_unorm8(fx10_encode(c, ULP_ROUND_NEAREST_AWAY));
}

enum { NCST = 128 };   /* CONST[0] elements given values (the corpus declares up to 68) */

typedef struct case_io {
	float in[16][4];
	float cst[NCST][4];
	int pos_in;             /* IN index of the fragment position, -1 none */
	uint8_t tex[GR3D_SAMPLERS][4];
} case_io;

/* An indirect CONST read of the last run outside [its base index, the last
 * declared element] (final ADDR values: the corpus sets each address once):
 * out of bounds in GL, where the packed uniform layout reads 0. */
static bool indirect_out_of_array(tgsi_exec_machine *m, const tgsi_shader *sh)
{
	int64_t last = -1;
	for (size_t i = 0; i < sh->num_decls; i++)
		if (sh->decls[i].file == TGSI_FILE_CONSTANT && (int64_t)sh->decls[i].last > last)
			last = sh->decls[i].last;
	for (size_t i = 0; i < sh->num_insts; i++)
		for (unsigned k = 0; k < sh->insts[i].num_src; k++) {
			const tgsi_reg_ref *r = &sh->insts[i].src[k].reg;
			if (r->file != TGSI_FILE_CONSTANT || !r->indirect)
				continue;
			uint32_t *a = tgsi_exec_reg(m, TGSI_FILE_ADDRESS, 0, (size_t)r->ind.index);
			int64_t addr = (int64_t)(int32_t)(a ? a[r->ind.swizzle & 3] : 0);
			if (addr < 0 || addr + r->index > last)
				return true;
		}
	return false;
}

/* Runs the interpreter; *killed or expect[4] bytes; *oob (when not NULL):
 * indirect_out_of_array.  False: reference error. */
static bool run_reference(tgsi_shader *sh, const char *path, const case_io *io, uint8_t expect[4],
                          bool *killed, bool *oob, char *msg, size_t n)
{
	tgsi_exec_machine m;
	ulp_diag d;
	ulp_diag_clear(&d);
	if (!tgsi_exec_init(&m, sh, path, &d)) {
		snprintf(msg, n, "init: %s", d.msg);
		return false;
	}
	m.max_steps = 100000;
	bool ok = true;
	int32_t color = -1;
	for (size_t i = 0; i < sh->num_decls && ok; i++) {
		const tgsi_declaration *dc = &sh->decls[i];
		for (uint32_t k = dc->first; k <= dc->last && k < 64; k++) {
			if (dc->file == TGSI_FILE_OUTPUT && dc->semantic && dc->semantic_name == TGSI_SEMANTIC_COLOR &&
			    dc->semantic_index == 0)
				color = (int32_t)k;
			if (dc->file == TGSI_FILE_INPUT && k < 16) {
				uint32_t *r = tgsi_exec_reg(&m, TGSI_FILE_INPUT, 0, k);
				ok &= r != NULL;
				for (unsigned c = 0; r && c < 4; c++)
					r[c] = test_f_bits(io->in[k][c]);
			}
			/* declared uniforms only: reads outside the file give 0 */
			if (dc->file == TGSI_FILE_CONSTANT && k < NCST &&
			    (!dc->dimension || dc->index_2d == 0)) {
				uint32_t *r = tgsi_exec_reg(&m, TGSI_FILE_CONSTANT, 0, k);
				ok &= r != NULL;
				for (unsigned c = 0; r && c < 4; c++)
					r[c] = test_f_bits(io->cst[k][c]);
			}
		}
	}
	for (unsigned k = 0; k < GR3D_SAMPLERS && ok; k++) {
		uint32_t *r = tgsi_exec_reg(&m, TGSI_FILE_SAMPLER, 0, k);
		ok &= r != NULL;
		if (!r)
			break;
		m.files[TGSI_FILE_SAMPLER].banks[0].flags[k] |= TGSI_EXEC_WRITTEN;
		for (unsigned c = 0; c < 4; c++)
			r[c] = test_f_bits(fx10_decode(unorm8_to_fx10(io->tex[k][c])));
	}
	if (!ok || !tgsi_exec_run(&m, &d)) {
		snprintf(msg, n, "run: %s", ok ? d.msg : "out of memory");
		tgsi_exec_fini(&m);
		return false;
	}
	*killed = m.killed;
	if (oob)
		*oob = indirect_out_of_array(&m, sh);
	if (color < 0) {
		memcpy(expect, CLEAR, 4);
	} else {
		const uint32_t *o = tgsi_exec_reg(&m, TGSI_FILE_OUTPUT, 0, (size_t)color);
		for (unsigned c = 0; c < 4; c++)
			expect[c] = o ? ref_byte(test_bits_f(o[c])) : 0;
	}
	tgsi_exec_fini(&m);
	return true;
}

/* Draws the program; rt receives the pixels.  False: simulator error. */
static bool run_sim(const tegra_fp_decoded *dec, const int16_t usrc[TEGRA_FP_NUM_CONST],
                    const case_io *io, double vw, unsigned tram_rows, ulp_image *rt, ulp_image *tex[GR3D_SAMPLERS], const char *const *knobs,
                    char *msg, size_t n)
{
	ulp_config cfg;
	ulp_config_defaults(&cfg);
	for (unsigned k = 0; knobs && knobs[k]; k++) {
		ulp_diag kd;
		ulp_diag_clear(&kd);
		cr_assert(ulp_config_set(&cfg, knobs[k], &kd), "%s: %s", knobs[k], kd.msg);
	}
	gr3d_draw dr;
	memset(&dr, 0, sizeof dr);
	dr.prog = dec;
	dr.cfg = &cfg;
	for (unsigned k = 0; k < TEGRA_FP_NUM_CONST; k++)   /* the program's own constants, as loaded */
		dr.uniforms[k] = dec->constants[k] & FP20_MASK;
	for (unsigned k = 0; k < TEGRA_FP_NUM_CONST; k++)   /* the program's uniform layout */
		if (usrc[k] >= 0 && usrc[k] < 4 * NCST)
			dr.uniforms[k] = fp20_encode(io->cst[usrc[k] / 4][usrc[k] % 4], ULP_ROUND_NEAREST_EVEN) &
			                 FP20_MASK;
	static const double P[4][2] = { { 0, 0 }, { W, 0 }, { 0, H }, { W, H } };
	gr3d_vertex v[4];
	memset(v, 0, sizeof v);
	for (unsigned i = 0; i < 4; i++) {
		v[i].x = P[i][0];
		v[i].y = P[i][1];
		v[i].w = vw;   /* clip w of every vertex (1/w interpolates to 1/vw) */
		for (unsigned r = 0; r < tram_rows && r < GR3D_TRAM_ROWS; r++)
			for (unsigned c = 0; c < 4; c++)
				v[i].tram[r][c] = fp20_encode(io->in[r][c], ULP_ROUND_NEAREST_EVEN) & FP20_MASK;
	}
	static const uint16_t idx[6] = { 0, 1, 2, 1, 3, 2 };
	dr.vtx = v;
	dr.nvtx = 4;
	dr.idx = idx;
	dr.ntris = 2;
	for (unsigned k = 0; k < GR3D_SAMPLERS; k++) {
		uint8_t *px = ulp_image_px(tex[k], 0, 0);
		memcpy(px, io->tex[k], 4);
		dr.sampler[k] = (gr3d_sampler){ .img = tex[k], .format = GR3D_TEX_RGBA8888 };
	}
	ulp_image_fill(rt, CLEAR[0], CLEAR[1], CLEAR[2], CLEAR[3]);
	dr.rt[1] = rt;
	gr3d_stats st;
	ulp_diag d;
	ulp_diag_clear(&d);
	if (!gr3d_fp_draw(&dr, &st, &d)) {
		snprintf(msg, n, "draw: %s", d.msg);
		return false;
	}
	return true;
}

/* The interpreter's texture opcodes return the sampler's constant texel,
 * whatever the target.  For SHADOW1D/SHADOW2D the reference is built in
 * TGSI: each shadow TEX/TXB/TXP becomes the fetch of the depth texel D (its
 * .x) and the compare of the shadow reference (src.z, divided by src.w for
 * TXP; tgsi.md §2) with the sampler's compare function (cmp, as compiled;
 * GL's) on the reference clamped to [0, 1], depth mode LUMINANCE:
 * (r, r, r, 1), r = (clamp(ref, 0, 1) OP D) ? 1 : 0.  NULL: no shadow
 * sampling in the text (or out of memory: then the text stays as it is and
 * any compiled shadow sampling mismatches). */
static char *shadow_reference(const char *text, size_t len, const uint8_t cmp[16])
{
	/* ref OP D: the opcode and its operands (d = D in TEMP[x+1].x, r = ref in TEMP[x].z) */
	static const struct { const char *op, *ab; } OPS[TEGRA_CMP_COUNT] = {
		[TEGRA_CMP_LEQUAL] = { "SGE", "dr" }, [TEGRA_CMP_GEQUAL] = { "SGE", "rd" },
		[TEGRA_CMP_LESS] = { "SLT", "rd" }, [TEGRA_CMP_GREATER] = { "SLT", "dr" },
		[TEGRA_CMP_EQUAL] = { "SEQ", "dr" }, [TEGRA_CMP_NOTEQUAL] = { "SNE", "dr" },
		[TEGRA_CMP_ALWAYS] = { "SGE", "dd" }, [TEGRA_CMP_NEVER] = { "SLT", "dd" },
	};
	if (!strstr(text, "SHADOW1D") && !strstr(text, "SHADOW2D"))
		return NULL;
	long x = 0;     /* first free TEMP index */
	for (const char *q = text; (q = strstr(q, "DCL TEMP[")) != NULL; q += 9) {
		char *e;
		long a = strtol(q + 9, &e, 10);
		if (e[0] == '.' && e[1] == '.')
			a = strtol(e + 2, NULL, 10);
		x = a + 1 > x ? a + 1 : x;
	}
	size_t cap = len * 2 + 4096, n = 0;
	char *out = malloc(cap);
	if (!out)
		return NULL;
	bool declared = false;
	const char *line = text, *end = text + len;
	while (line < end && n + 1024 < cap) {
		const char *nl = memchr(line, '\n', (size_t)(end - line));
		size_t ll = nl ? (size_t)(nl - line) : (size_t)(end - line);
		char buf[512];
		snprintf(buf, sizeof buf, "%.*s", (int)(ll < sizeof buf ? ll : sizeof buf - 1), line);
		line += ll + (nl ? 1 : 0);
		const char *b = buf;
		while (*b == ' ' || (*b >= '0' && *b <= '9') || *b == ':')
			b++;
		bool is_decl = !strncmp(b, "DCL", 3) || !strncmp(b, "IMM", 3) || !strncmp(b, "PROPERTY", 8) ||
		               !strncmp(b, "FRAG", 4) || !*b;
		if (!is_decl && !declared) {
			n += (size_t)snprintf(out + n, cap - n, "DCL TEMP[%ld..%ld]\n", x, x + 1);
			declared = true;
		}
		char op[16], dst[128], src[128];
		unsigned samp;
		char tgt[16];
		if (!is_decl && sscanf(b, "%15s %127[^,], %127[^,], SAMP[%u], %15s", op, dst, src, &samp, tgt) == 5 &&
		    (!strcmp(tgt, "SHADOW1D") || !strcmp(tgt, "SHADOW2D")) &&
		    (!strncmp(op, "TEX", 3) || !strncmp(op, "TXB", 3) || !strncmp(op, "TXP", 3))) {
			n += (size_t)snprintf(out + n, cap - n, "MOV TEMP[%ld], %s\n", x, src);
			if (!strncmp(op, "TXP", 3))
				n += (size_t)snprintf(out + n, cap - n, "DIV TEMP[%ld].z, TEMP[%ld].zzzz, TEMP[%ld].wwww\n",
				                      x, x, x);
			n += (size_t)snprintf(out + n, cap - n,
			                      "TEX TEMP[%ld], TEMP[%ld], SAMP[%u], 2D\n"
			                      "SGE TEMP[%ld].w, TEMP[%ld].xxxx, TEMP[%ld].xxxx\n"
			                      "SLT TEMP[%ld].y, TEMP[%ld].xxxx, TEMP[%ld].xxxx\n"
			                      "MAX TEMP[%ld].z, TEMP[%ld].zzzz, TEMP[%ld].yyyy\n"
			                      "MIN TEMP[%ld].z, TEMP[%ld].zzzz, TEMP[%ld].wwww\n",
			                      x + 1, x, samp, x + 1, x + 1, x + 1, x + 1, x + 1, x + 1, x, x, x + 1,
			                      x, x, x + 1);
			uint8_t f = samp < 16 && cmp[samp] < TEGRA_CMP_COUNT ? cmp[samp] : TEGRA_CMP_LEQUAL;
			long ia = OPS[f].ab[0] == 'd' ? x + 1 : x, ib = OPS[f].ab[1] == 'd' ? x + 1 : x;
			n += (size_t)snprintf(out + n, cap - n, "%s TEMP[%ld].x, TEMP[%ld].%s, TEMP[%ld].%s\n", OPS[f].op,
			                      x + 1, ia, ia == x ? "zzzz" : "xxxx", ib, ib == x ? "zzzz" : "xxxx");
			n += (size_t)snprintf(out + n, cap - n, "MOV%s %s, TEMP[%ld].xxxw\n",
			                      strstr(op, "_SAT") ? "_SAT" : "", dst, x + 1);
		} else {
			n += (size_t)snprintf(out + n, cap - n, "%s\n", buf);
		}
	}
	return out;
}

/* Compiles and compares one shader text (CASES cases); res_out, when not
 * NULL, receives the compile statistics. */
static one_result check_text_opts(const char *text, size_t len, const char *path, uint32_t seed,
                                  const char *const *knobs, tegra_compile_result *res_out,
                                  const tegra_compile_opts *opts)
{
	one_result R = { .o = OUT_REFUSED };
	ulp_diag d;
	ulp_diag_clear(&d);
	tgsi_shader *sh = tgsi_parse(text, len, path, NULL, &d);
	cr_assert(sh, "%s: %s", path, d.msg);
	char *ref_text = shadow_reference(text, len, opts->shadow_compare);
	tgsi_shader *ref_sh = ref_text ? tgsi_parse(ref_text, strlen(ref_text), path, NULL, &d) : NULL;
	cr_assert(!ref_text || ref_sh, "%s: shadow reference: %s", path, d.msg);
	free(ref_text);
	tegra_compile_result res;
	if (!tegra_compile_with(sh, path, opts, &res)) {
		R.why = res.why;
		ulp_diag_format(&res.d, R.msg, sizeof R.msg);
		if (res_out)
			*res_out = res;
		else
			tegra_compile_result_free(&res);
		tgsi_shader_free(sh);
		if (ref_sh)
			tgsi_shader_free(ref_sh);
		return R;
	}
	tegra_fp_decoded *dec = malloc(sizeof *dec);
	cr_assert(dec);
	cr_assert(tegra_fp_decode(&res.prog, dec, path, &d), "%s: %s", path, d.msg);
	ulp_image *rt = ulp_image_create(W, H, &d), *tex[GR3D_SAMPLERS];
	cr_assert(rt);
	for (unsigned k = 0; k < GR3D_SAMPLERS; k++)
		cr_assert((tex[k] = ulp_image_create(1, 1, &d)));
	bool color_in[16] = { false };
	int pos_in = -1;
	for (size_t i = 0; i < sh->num_decls; i++) {
		const tgsi_declaration *dc = &sh->decls[i];
		if (dc->file == TGSI_FILE_INPUT && dc->semantic && dc->semantic_name == TGSI_SEMANTIC_COLOR)
			for (uint32_t k = dc->first; k <= dc->last && k < 16; k++)
				color_in[k] = true;
		if (dc->file == TGSI_FILE_INPUT && dc->semantic && dc->semantic_name == TGSI_SEMANTIC_POSITION &&
		    dc->first < 16)
			pos_in = (int)dc->first;
	}
	/* the packed uniform layout reads 0 below an indirect array's base (out
	 * of bounds in GL): non-negative constants keep ARL addresses mostly in
	 * the array, and cases whose reads leave it are redrawn */
	bool oob_redraw = false;
	for (size_t i = 0; res.uniforms_packed && i < sh->num_insts; i++)
		for (unsigned k = 0; k < sh->insts[i].num_src; k++)
			oob_redraw |= sh->insts[i].src[k].reg.file == TGSI_FILE_CONSTANT && sh->insts[i].src[k].reg.indirect;
	test_rng r = { seed ? seed : 1u };
	R.o = OUT_MATCH;
	unsigned tries = 0;
	for (unsigned cs = 0; cs < CASES && R.o == OUT_MATCH; cs++) {
		case_io io;
		memset(&io, 0, sizeof io);
		for (unsigned k = 0; k < 16; k++)
			for (unsigned c = 0; c < 4; c++)
				io.in[k][c] = color_in[k] ? rnd_range(&r, 0.0f, 1.0f) : rnd_range(&r, -2.0f, 2.0f);
		for (unsigned k = 0; k < TEGRA_COMPILE_MAX_CONST; k++)
			for (unsigned c = 0; c < 4; c++)
				io.cst[k][c] = rnd_range(&r, -2.0f, 2.0f);
		for (unsigned k = 0; k < GR3D_SAMPLERS; k++)
			for (unsigned c = 0; c < 4; c++)
				io.tex[k][c] = (uint8_t)(test_rnd(&r) >> 24);
		for (unsigned k = TEGRA_COMPILE_MAX_CONST; k < NCST; k++)
			for (unsigned c = 0; c < 4; c++)
				io.cst[k][c] = rnd_range(&r, -2.0f, 2.0f);
		for (unsigned k = 0; oob_redraw && k < NCST; k++)
			for (unsigned c = 0; c < 4; c++)
				io.cst[k][c] = fabsf(io.cst[k][c]);
		/* loops with a run-time exit: every other case draws integer uniforms
		 * (-2..2, as piglit's int/bool uniforms: exact trip counts, 0 = false) */
		for (unsigned k = 0; res.loop_bound && ((cs + tries) & 1u) && k < NCST; k++)
			for (unsigned c = 0; c < 4; c++)
				io.cst[k][c] = (float)((int)(test_rnd(&r) % 5u) - 2);
		io.pos_in = pos_in;
		bool oob = false;
		uint8_t expect[H][W][4];
		bool killed[H][W];
		char msg[600];
		/* one run, or one per pixel when the shader reads its window position
		 * (pixel centres x + 0.5, y + 0.5; z = 0, w = 1) */
		for (unsigned y = 0; y < H && R.o == OUT_MATCH; y++)
			for (unsigned x = 0; x < W && R.o == OUT_MATCH; x++) {
				if (pos_in < 0 && (x || y)) {
					memcpy(expect[y][x], expect[0][0], 4);
					killed[y][x] = killed[0][0];
					continue;
				}
				if (pos_in >= 0) {
					io.in[pos_in][0] = (float)x + 0.5f;
					io.in[pos_in][1] = (float)y + 0.5f;
					io.in[pos_in][2] = 0.0f;
					io.in[pos_in][3] = 1.0f;
				}
				killed[y][x] = false;
				bool o1 = false;
				if (!run_reference(ref_sh ? ref_sh : sh, path, &io, expect[y][x], &killed[y][x], &o1, msg,
				                   sizeof msg)) {
					R.o = OUT_REF_ERROR;
					snprintf(R.msg, sizeof R.msg, "%s: %s", path, msg);
				}
				oob |= o1;
				/* an endless loop for these uniforms (the reference stops at its
				 * step limit): no defined result, redrawn */
				if (R.o == OUT_REF_ERROR && res.loop_bound && strstr(R.msg, "step limit")) {
					R.o = OUT_MATCH;
					oob = true;
				}
				if (killed[y][x])
					memcpy(expect[y][x], CLEAR, 4);
			}
		if (R.o != OUT_MATCH)
			break;
		if (oob) {
			if (++tries > 16 * CASES) {
				R.o = OUT_REF_ERROR;
				snprintf(R.msg, sizeof R.msg, "%s: no case with in-array indirect reads and a finite loop",
				         path);
				break;
			}
			cs--;
			continue;
		}
		if (!run_sim(dec, res.uniform_src, &io, 1.0, res.tram_rows, rt, tex, knobs, msg, sizeof msg)) {
			R.o = OUT_SIM_ERROR;
			snprintf(R.msg, sizeof R.msg, "%s: %s", path, msg);
			break;
		}
		for (unsigned y = 0; y < H && R.o == OUT_MATCH; y++)
			for (unsigned x = 0; x < W && R.o == OUT_MATCH; x++) {
				const uint8_t *px = ulp_image_cpx(rt, x, y);
				for (unsigned c = 0; c < 4; c++) {
					const uint8_t *ex = expect[y][x];
					int diff = abs((int)px[c] - (int)ex[c]);
					R.maxdiff = diff > R.maxdiff ? diff : R.maxdiff;
					if (diff > TOL || (killed[y][x] && diff)) {
						R.o = OUT_MISMATCH;
						snprintf(R.msg, sizeof R.msg, "%s: case %u pixel (%u,%u): sim %02x%02x%02x%02x, "
						         "ref %02x%02x%02x%02x%s", path, cs, x, y, px[0], px[1], px[2], px[3],
						         ex[0], ex[1], ex[2], ex[3], killed[y][x] ? " (killed)" : "");
						break;
					}
				}
			}
	}
	for (unsigned k = 0; k < GR3D_SAMPLERS; k++)
		ulp_image_free(tex[k]);
	ulp_image_free(rt);
	free(dec);
	if (res_out) {
		*res_out = res;
		res_out->asm_text = NULL;
		res_out->asm_len = 0;
	}
	tegra_compile_result_free(&res);
	tgsi_shader_free(sh);
	if (ref_sh)
		tgsi_shader_free(ref_sh);
	return R;
}

static one_result check_text(const char *text, size_t len, const char *path, uint32_t seed,
                             const char *const *knobs, tegra_compile_result *res_out)
{
	static const tegra_compile_opts dflt = { 0 };
	return check_text_opts(text, len, path, seed, knobs, res_out, &dflt);
}

static one_result check_shader(const char *path, uint32_t seed)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	size_t len;
	char *text = ulp_read_file(path, &len, &d);
	cr_assert(text, "%s", d.msg);
	one_result R = check_text(text, len, path, seed, NULL, NULL);
	free(text);
	return R;
}

typedef struct corpus_run {
	compile_tally T;
	unsigned by_diff[TOL + 2];   /* matching shaders by their largest byte difference */
} corpus_run;

static void corpus_shader(void *ctx, const char *path, uint32_t seed)
{
	corpus_run *c = ctx;
	one_result R = check_shader(path, seed);
	compile_tally_add(&c->T, R.o, R.why, R.msg);
	if (R.o == OUT_MATCH)
		c->by_diff[R.maxdiff <= TOL ? R.maxdiff : TOL + 1]++;
}

static compile_tally run_corpus(const char *set)
{
	corpus_run c = { .T = { .outcome = OUTCOME, .nout = OUT_N, .match = OUT_MATCH, .refused = OUT_REFUSED } };
	compile_corpus_each(set, "fs.tgsi", corpus_shader, &c);
	char label[64];
	snprintf(label, sizeof label, "tegra (%s)", set);
	compile_tally_print(&c.T, label);
	fprintf(stderr, "  largest byte difference per matching shader:");
	for (unsigned k = 0; k <= TOL; k++)
		fprintf(stderr, " %u: %u%s", k, c.by_diff[k], k < TOL ? "," : "\n");
	return c.T;
}

Test(compile_tegra, corpus_noint_fragment_shaders, .timeout = 120)
{
	compile_tally S = run_corpus("tgsi-noint");
	cr_assert_gt(S.total, 100, "expected the tgsi-noint corpus (%u fragment shaders)", S.total);
	cr_assert_eq(S.by_out[OUT_MISMATCH] + S.by_out[OUT_SIM_ERROR], 0, "every compiled shader must match");
	cr_assert_geq(S.matching * 100, S.total * 80, "matching %u/%u is below 80%%", S.matching, S.total);
}

Test(compile_tegra, corpus_tgsi_fragment_shaders, .timeout = 120)
{
	compile_tally S = run_corpus("tgsi");
	cr_assert_gt(S.total, 100);
	cr_assert_eq(S.by_out[OUT_MISMATCH] + S.by_out[OUT_SIM_ERROR], 0, "every compiled shader must match");
}

/* ---- hand-written shaders: every lowering, differentially ---- */

#define HDR "FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL IN[1], GENERIC[1], PERSPECTIVE\n" \
	"DCL OUT[0], COLOR\nDCL CONST[0][0..1]\nDCL TEMP[0..7]\n" \
	"IMM[0] FLT32 {0.5, 0.25, 2.0, 0.125}\n"
/* out = 0.5 * TEMP[0] + 0.5 keeps [-1, 1] visible through the clamp */
#define OUT05 "MAD OUT[0], TEMP[0], IMM[0].xxxx, IMM[0].xxxx\nEND\n"

/* TEMP[0].c += CONST[0][n].x / 8 */
#define PK(n, c) "MAD TEMP[0]." c ", CONST[0][" #n "].xxxx, IMM[0].wwww, TEMP[0]." c c c c "\n"

static const char *const LOWERINGS[] = {
	/* 0 SFU: SIN/COS (PRE steps), EX2 (PREEX2), LG2 */
	HDR "SIN TEMP[0].x, IN[0].xxxx\nCOS TEMP[0].y, IN[0].yyyy\nEX2 TEMP[1].x, IN[0].zzzz\n"
	"MUL TEMP[0].z, TEMP[1].xxxx, IMM[0].yyyy\nLG2 TEMP[0].w, |IN[0].wwww|\n" OUT05,
	/* 1 RCP, RSQ, SQRT, POW, DIV */
	HDR "ADD TEMP[1], |IN[0]|, IMM[0].xxxx\nRCP TEMP[0].x, TEMP[1].xxxx\nRSQ TEMP[0].y, TEMP[1].yyyy\n"
	"SQRT TEMP[0].z, TEMP[1].zzzz\nPOW TEMP[0].w, TEMP[1].wwww, IN[1].xxxx\n"
	"DIV TEMP[2].x, IN[1].yyyy, TEMP[1].xxxx\nMUL TEMP[0].w, TEMP[0].wwww, TEMP[2].xxxx\n" OUT05,
	/* 2 FRC, FLR, CEIL, TRUNC, ROUND, SSG */
	HDR "MUL TEMP[1], IN[0], IMM[0].zzzz\nFRC TEMP[0].x, TEMP[1].xxxx\nFLR TEMP[2].x, TEMP[1].yyyy\n"
	"CEIL TEMP[2].y, TEMP[1].zzzz\nTRUNC TEMP[2].z, TEMP[1].wwww\nROUND TEMP[2].w, TEMP[1].xxxx\n"
	"SSG TEMP[3], IN[1]\nDP4 TEMP[0].y, TEMP[2], IMM[0].wwww\nMUL TEMP[0].zw, TEMP[3], IMM[0].xxxx\n" OUT05,
	/* 3 DP2/DP3/DP4/DPH, LRP, CMP, MIN/MAX, modifiers, CONST */
	HDR "DP2 TEMP[0].x, IN[0], CONST[0][0]\nDP3 TEMP[1].x, IN[0], IN[1]\nDP4 TEMP[1].y, IN[1], CONST[0][1]\n"
	"DPH TEMP[1].z, IN[0], CONST[0][0]\nMUL TEMP[0].yzw, TEMP[1].xxyz, IMM[0].wwww\n"
	"LRP TEMP[2], IN[0], IN[1], -CONST[0][1]\nCMP TEMP[3], IN[1], TEMP[2], |CONST[0][0]|\n"
	"MIN TEMP[4], TEMP[3], IN[0].wzyx\nMAX TEMP[4], TEMP[4], -IN[1]\nADD TEMP[0], TEMP[0], TEMP[4]\n" OUT05,
	/* 4 comparisons */
	HDR "SLT TEMP[1], IN[0], IN[1]\nSGE TEMP[2], IN[0], CONST[0][0]\nADD TEMP[0], TEMP[1], TEMP[2]\n"
	"SEQ TEMP[3], IN[0], IN[0].xyxy\nADD TEMP[0], TEMP[0], TEMP[3]\nSNE TEMP[4], IN[0], IN[0].xxzz\n"
	"ADD TEMP[0], TEMP[0], -TEMP[4]\nSGT TEMP[5], IN[1], CONST[0][1]\nADD TEMP[0], TEMP[0], -TEMP[5]\n"
	"SLE TEMP[6], IN[1], IN[0]\nMAD TEMP[0], TEMP[6], IMM[0].yyyy, TEMP[0]\n"
	"MUL TEMP[0], TEMP[0], IMM[0].yyyy\n" OUT05,
	/* 5 nested IF/ELSE, KILL_IF inside, _SAT */
	HDR "SLT TEMP[1], IN[0], IMM[0].yyyy\nMOV TEMP[0], IN[1]\nIF TEMP[1].xxxx\n"
	"  IF TEMP[1].yyyy\n    ADD_SAT TEMP[0], IN[0], IN[1]\n  ELSE\n    MUL TEMP[0].xy, IN[0], IMM[0].zzzz\n"
	"    KILL_IF IN[1].zwzw\n  ENDIF\nELSE\n  MOV TEMP[0].zw, -IN[0]\n  IF TEMP[1].zzzz\n    KILL\n  ENDIF\nENDIF\n" OUT05,
	/* 6 a loop with a constant trip count (unrolled), CONT, a run-time IF inside */
	HDR "MOV TEMP[0], IMM[0].yyyy\nMOV TEMP[1].x, IMM[0].xxxx\nBGNLOOP\n  SGE TEMP[2].x, TEMP[1].xxxx, IMM[0].zzzz\n"
	"  IF TEMP[2].xxxx\n    BRK\n  ENDIF\n  ADD TEMP[1].x, TEMP[1].xxxx, IMM[0].xxxx\n"
	"  MAD TEMP[0], IN[0], IMM[0].wwww, TEMP[0]\n"
	"  SLT TEMP[3].x, CONST[0][0].xxxx, TEMP[0].xxxx\n  IF TEMP[3].xxxx\n    MUL TEMP[0], TEMP[0], IN[1]\n  ENDIF\n"
	"  SEQ TEMP[3].y, TEMP[1].xxxx, IMM[0].xxxx\n  IF TEMP[3].yyyy\n    CONT\n  ENDIF\n"
	"  ADD TEMP[0].w, TEMP[0].wwww, IMM[0].yyyy\nENDLOOP\n" OUT05,
	/* 7 textures: TEX with computed coordinates, TXB, TXP, 1D */
	"FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL SAMP[0]\nDCL SAMP[3]\n"
	"DCL SVIEW[0], 2D, FLOAT\nDCL SVIEW[3], 1D, FLOAT\nDCL TEMP[0..3]\nIMM[0] FLT32 {0.5, 0.25, 2.0, 0.125}\n"
	"ADD TEMP[0], IN[0], IMM[0].xxxx\nTEX TEMP[1], TEMP[0], SAMP[0], 2D\nTXB TEMP[2], IN[0], SAMP[3], 1D\n"
	"MOV TEMP[3].w, IMM[0].zzzz\nMOV TEMP[3].xyz, IN[0]\nTXP TEMP[3], TEMP[3], SAMP[0], 2D\n"
	"MAD TEMP[1], TEMP[2], TEMP[1], TEMP[3].wzyx\nMUL OUT[0], TEMP[1], IMM[0].xxxx\nEND\n",
	/* 8 many distinct immediates (embedded constants, slot 3) */
	HDR "IMM[1] FLT32 {0.3, 0.7, -0.6, 1.7}\nIMM[2] FLT32 {0.11, -0.13, 0.17, 0.19}\n"
	"MAD TEMP[0], IN[0], IMM[1], IMM[2]\nMAD TEMP[0], TEMP[0], IMM[1].wzyx, IMM[2].yxwz\n"
	"MAD TEMP[0], TEMP[0], IMM[2].wzyx, IMM[1].yxwz\n" OUT05,
	/* 9 register pressure: several rows, SFU (PRE) and TEX on rows > 0 */
	"FRAG\nDCL IN[0..3], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL SAMP[0]\nDCL SVIEW[0], 2D, FLOAT\n"
	"DCL TEMP[0..7]\nIMM[0] FLT32 {0.5, 0.25, 2.0, 0.125}\n"
	"MUL TEMP[1], IN[0], IN[1]\nMUL TEMP[2], IN[1], IN[2]\nMUL TEMP[3], IN[2], IN[3]\nMUL TEMP[4], IN[3], IN[0]\n"
	"SIN TEMP[5].x, TEMP[1].xxxx\nCOS TEMP[5].y, TEMP[2].yyyy\nEX2 TEMP[5].z, TEMP[3].zzzz\n"
	"TEX TEMP[6], TEMP[4], SAMP[0], 2D\nADD TEMP[0], TEMP[1], TEMP[2]\nADD TEMP[0], TEMP[0], TEMP[3]\n"
	"ADD TEMP[0], TEMP[0], TEMP[4]\nMAD TEMP[0], TEMP[0], IMM[0].wwww, TEMP[5]\nADD TEMP[0], TEMP[0], TEMP[6]\n"
	"MUL TEMP[0], TEMP[0], IMM[0].yyyy\n" OUT05,
	/* 10 LIT, EXP, LOG, XPD, indirect uniforms */
	HDR "DCL ADDR[0]\nLIT TEMP[1], IN[0]\nEXP TEMP[2], IN[1].xxxx\nLOG TEMP[3], |IN[1].yyyy|\n"
	"XPD TEMP[4].xyz, IN[0], IN[1]\nARL ADDR[0].x, IN[0].xxxx\nMOV TEMP[5], CONST[0][ADDR[0].x+1]\n"
	"ADD TEMP[0], TEMP[1], TEMP[2]\nMAD TEMP[0], TEMP[3], IMM[0].wwww, TEMP[0]\n"
	"MAD TEMP[0], TEMP[4], IMM[0].wwww, TEMP[0]\nMAD TEMP[0], TEMP[0], IMM[0].wwww, TEMP[5]\n" OUT05,
	/* 11 shadow samplers: TEX (_SAT, partial mask), TXB 1D, TXP (reference / w) */
	"FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL SAMP[0]\nDCL SAMP[2]\n"
	"DCL SVIEW[0], SHADOW2D, FLOAT\nDCL SVIEW[2], SHADOW1D, FLOAT\nDCL TEMP[0..3]\n"
	"IMM[0] FLT32 {0.5, 0.25, 2.0, 0.125}\n"
	"TEX_SAT TEMP[1].xw, IN[0], SAMP[0], SHADOW2D\nTXB TEMP[2], IN[0].yxzw, SAMP[2], SHADOW1D\n"
	"MOV TEMP[3].w, IMM[0].zzzz\nMOV TEMP[3].xyz, IN[0].zyxw\nTXP TEMP[3], TEMP[3], SAMP[0], SHADOW2D\n"
	"MUL TEMP[0], TEMP[1], IMM[0].xxxx\nMAD TEMP[0], TEMP[2], IMM[0].yyyy, TEMP[0]\n"
	"MAD OUT[0], TEMP[3], IMM[0].wwww, TEMP[0]\nEND\n",
	/* 12 shadow compare ties: the reference is the depth texel itself (x, y, z) or D +- 2^-8 */
	"FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL SAMP[0]\n"
	"DCL SVIEW[0], SHADOW2D, FLOAT\nDCL TEMP[0..3]\nIMM[0] FLT32 {0.00390625, -0.00390625, 0.5, 0.0}\n"
	"TEX TEMP[0], IN[0], SAMP[0], 2D\nMOV TEMP[0].z, TEMP[0].xxxx\n"
	"TEX TEMP[1].x, TEMP[0], SAMP[0], SHADOW2D\n"
	"ADD TEMP[0].z, TEMP[0].xxxx, IMM[0].xxxx\nTEX TEMP[1].y, TEMP[0], SAMP[0], SHADOW2D\n"
	"ADD TEMP[0].z, TEMP[0].xxxx, IMM[0].yyyy\nTEX TEMP[1].z, TEMP[0], SAMP[0], SHADOW2D\n"
	"MOV TEMP[1].w, IMM[0].zzzz\nMOV OUT[0], TEMP[1]\nEND\n",
	/* 13 _SAT of a value whose plain MOV already exists (ADD x, 0 is MAD x, 1, 0): the
	 * saturating MOV must be its own op, not the earlier one, which TEMP[1] still reads */
	HDR "IMM[1] FLT32 {0.0, 0.0, 0.0, 0.0}\nADD TEMP[1], IN[0], IMM[1].xxxx\nMOV_SAT TEMP[2], IN[0]\n"
	"MAD TEMP[0], TEMP[1], IMM[0].yyyy, TEMP[2]\nMUL TEMP[0], TEMP[0], IMM[0].xxxx\n" OUT05,
	/* 14 a loop whose trip count is a uniform (4 c, c in [-2, 2]: up to 8; exact in FP20),
	 * unrolled to its bound with every iteration under its flag */
	HDR "IMM[1] FLT32 {4.0, 1.0, 0.0, 0.0}\nMOV TEMP[0], IN[1]\nMUL TEMP[2].x, CONST[0][0].xxxx, IMM[1].xxxx\n"
	"BGNLOOP\n  SGE TEMP[3].x, TEMP[1].xxxx, TEMP[2].xxxx\n  IF TEMP[3].xxxx\n    BRK\n  ENDIF\n"
	"  MAD TEMP[0], TEMP[0].yzwx, IMM[0].xxxx, IN[0]\n  ADD TEMP[1].x, TEMP[1].xxxx, IMM[1].yyyy\nENDLOOP\n" OUT05,
	/* 15 a counted loop with a uniform bound (16 |c|: up to 32 iterations) that only
	 * accumulates invariants: closed form, the counter and the exit flag read after it */
	HDR "IMM[1] FLT32 {16.0, 1.0, 0.01, 2.0}\nMUL TEMP[2].x, |CONST[0][0].xxxx|, IMM[1].xxxx\n"
	"MOV TEMP[0], IN[0]\nMOV TEMP[1].x, IMM[1].wwww\nMUL TEMP[4], CONST[0][1], IMM[1].zzzz\n"
	"BGNLOOP\n  SGE TEMP[3].x, TEMP[1].xxxx, TEMP[2].xxxx\n  IF TEMP[3].xxxx\n    BRK\n  ENDIF\n"
	"  ADD TEMP[0], TEMP[0], TEMP[4]\n  ADD TEMP[1].x, TEMP[1].xxxx, IMM[1].yyyy\nENDLOOP\n"
	"MAD TEMP[0].x, TEMP[1].xxxx, IMM[1].zzzz, TEMP[0].xxxx\nADD TEMP[0].y, TEMP[0].yyyy, -TEMP[3].xxxx\n" OUT05,
	/* 16 an indirect uniform array past u31 in the identity layout: packed, 32 slots
	 * ([0].x, [1].y, [2..11].xyz) */
	"FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL CONST[0][0..11]\nDCL TEMP[0..3]\n"
	"DCL ADDR[0]\nIMM[0] FLT32 {0.5, 0.25, 3.0, 0.125}\nMUL TEMP[0].x, CONST[0][0].xxxx, IMM[0].zzzz\n"
	"ARL ADDR[0].x, TEMP[0].xxxx\nMOV TEMP[1].xyz, CONST[0][ADDR[0].x+2].xyzz\n"
	"MAD TEMP[1].xyz, TEMP[1], CONST[0][1].yyyy, IN[0]\nMOV TEMP[1].w, IMM[0].xxxx\n"
	"MUL OUT[0], TEMP[1], IMM[0].yyyy\nEND\n",
	/* 17 whole vec4 reads of CONST[0][0..9] (40 components) of which only .x and .w
	 * reach the output: packed after dead-code removal into 20 slots */
	"FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL CONST[0][0..9]\nDCL TEMP[0..1]\n"
	"IMM[0] FLT32 {0.5, 0.0625, 0.0, 0.125}\nADD TEMP[1], CONST[0][0], CONST[0][1]\n"
	"ADD TEMP[1], TEMP[1], CONST[0][2]\nADD TEMP[1], TEMP[1], CONST[0][3]\nADD TEMP[1], TEMP[1], CONST[0][4]\n"
	"ADD TEMP[1], TEMP[1], CONST[0][5]\nADD TEMP[1], TEMP[1], CONST[0][6]\nADD TEMP[1], TEMP[1], CONST[0][7]\n"
	"SLT TEMP[0].x, IN[0].xxxx, IMM[0].zzzz\nIF TEMP[0].xxxx\n  ADD TEMP[1], TEMP[1], CONST[0][8]\nELSE\n"
	"  ADD TEMP[1], TEMP[1], -CONST[0][9]\nENDIF\nMAD OUT[0], TEMP[1].xwxw, IMM[0].yyyy, IMM[0].xxxx\nEND\n",
	/* 18 SNE on constants, negated into a CMP (piglit's glsl-fs-loop-two-counter-02 as
	 * Debian's Mesa gives it: a loop folded to i = 3, then SNE i, 3 and CMP -t):
	 * the folded 1 - (a == b) is a plain constant, not one with modifiers */
	"FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL TEMP[0..2]\n"
	"IMM[0] FLT32 {1.0, 0.2, 2.0, 3.0}\nIMM[1] FLT32 {0.0, 1.0, 0.0, 0.0}\n"
	"MOV TEMP[0].x, IMM[0].xxxx\nMOV TEMP[1].x, IMM[0].yyyy\nBGNLOOP\n  SLT TEMP[2].x, IMM[0].zzzz, TEMP[0].xxxx\n"
	"  IF TEMP[2].xxxx\n    BRK\n  ENDIF\n  ADD TEMP[1].x, TEMP[1].xxxx, IMM[0].yyyy\n"
	"  ADD TEMP[0].x, TEMP[0].xxxx, IMM[0].xxxx\nENDLOOP\nSNE TEMP[0].x, TEMP[0].xxxx, IMM[0].wwww\n"
	"SNE TEMP[0].y, TEMP[0].xxxx, IMM[1].yyyy\nMOV TEMP[2].x, IMM[1].xxxx\nMOV TEMP[2].y, TEMP[1].xxzw\n"
	"CMP TEMP[2].zw, -TEMP[0].yyyy, IMM[1].xxxy, IN[0]\nCMP OUT[0], -TEMP[0].xxxx, IMM[1].yxxx, TEMP[2]\nEND\n",
	/* 19 40 scalar uniforms (one vec4 slot each, as Mesa lays out floats), 32 of them read
	 * (every element but 4, 9, ..., 39): 160 declared components packed into u0..u31 */
	"FRAG\nDCL IN[0], GENERIC[0], PERSPECTIVE\nDCL OUT[0], COLOR\nDCL CONST[0][0..39]\nDCL TEMP[0]\n"
	"IMM[0] FLT32 {0.5, 0.25, 2.0, 0.125}\nMOV TEMP[0], IN[0]\nMUL TEMP[0].x, CONST[0][0].xxxx, IMM[0].wwww\n"
	PK(1, "x") PK(2, "x") PK(3, "x") PK(5, "x") PK(6, "x") PK(7, "x")
	PK(8, "x") PK(10, "x") PK(11, "x") PK(12, "x") PK(13, "x") PK(15, "x")
	PK(16, "x") PK(17, "x") PK(18, "x")
	"MUL TEMP[0].y, CONST[0][20].xxxx, IMM[0].wwww\n"
	PK(21, "y") PK(22, "y") PK(23, "y") PK(25, "y") PK(26, "y") PK(27, "y")
	PK(28, "y") PK(30, "y") PK(31, "y") PK(32, "y") PK(33, "y") PK(35, "y")
	PK(36, "y") PK(37, "y") PK(38, "y")
	OUT05,
};

Test(compile_tegra, every_lowering_matches_the_interpreter)
{
	for (size_t k = 0; k < sizeof LOWERINGS / sizeof LOWERINGS[0]; k++) {
		char name[32];
		snprintf(name, sizeof name, "lowering%zu.tgsi", k);
		for (uint32_t seed = 1; seed <= 8; seed++) {
			tegra_compile_result st;
			one_result R = check_text(LOWERINGS[k], strlen(LOWERINGS[k]), name, seed * 7919u, NULL, &st);
			cr_assert_eq(R.o, OUT_MATCH, "shader %zu seed %u: %s: %s", k, seed, OUTCOME[R.o], R.msg);
			if (k == 9 && seed == 1)
				cr_assert_gt(st.rows, 1, "expected more than one row, got %u", st.rows);
			if (k == 14)   /* every drawn trip count (<= 8) within the bound */
				cr_assert_geq(st.loop_bound, 8, "loop unrolled %u times", st.loop_bound);
			if (k == 15)   /* closed form: no unrolling, a few EXECs */
				cr_assert(st.loop_bound == 0 && st.execs <= 8, "bound %u, %u EXECs", st.loop_bound, st.execs);
			if (k == 16) {
				cr_assert(st.uniforms_packed);
				cr_assert(st.uniform_src[0] == 0 && st.uniform_src[1] == 5 && st.uniform_src[2] == 8 &&
				          st.uniform_src[31] == 46, "u0..u2, u31 <- %d %d %d %d", st.uniform_src[0],
				          st.uniform_src[1], st.uniform_src[2], st.uniform_src[31]);
			}
			if (k == 17)   /* [n].x, [n].w of 10 elements */
				cr_assert(st.uniforms_packed && st.uniform_src[0] == 0 && st.uniform_src[1] == 3 &&
				          st.uniform_src[19] == 39, "u0 u1 u19 <- %d %d %d",
				          st.uniform_src[0], st.uniform_src[1], st.uniform_src[19]);
			if (k == 19) {   /* u_j <- CONST[0][n].x of the j-th element read */
				cr_assert(st.uniforms_packed, "not packed");
				for (int j = 0, n = 0; j < 32; j++, n += n % 5 == 3 ? 2 : 1)
					cr_assert_eq(st.uniform_src[j], 4 * n, "u%d <- %d, expected CONST[0][%d].x",
					             j, st.uniform_src[j], n);
			}
			if (k < 14)
				cr_assert(st.loop_bound == 0 && !st.uniforms_packed);
		}
	}
}

/* gl_FragCoord.w = 1/w: the SFU operand r4 (tegra.mfu.w_reg), copied out
 * by an MFU multiply; vertices at w = 2 and 4 give 0.5 and 0.25. */
Test(compile_tegra, fragment_position_w_is_one_over_w)
{
	static const char text[] = "FRAG\nPROPERTY FS_COORD_ORIGIN LOWER_LEFT\nDCL IN[0], POSITION, LINEAR\n"
	                           "DCL OUT[0], COLOR\nIMM[0] FLT32 {0.5, 1.0, 0.0, 0.0}\n"
	                           "MUL OUT[0].xy, IN[0].wwww, IMM[0].yxxx\nMOV OUT[0].zw, IMM[0].zzzy\nEND\n";
	ulp_diag d;
	ulp_diag_clear(&d);
	tgsi_shader *sh = tgsi_parse(text, strlen(text), "w.tgsi", NULL, &d);
	cr_assert(sh, "%s", d.msg);
	tegra_compile_result res;
	cr_assert(tegra_compile(sh, "w.tgsi", &res), "%s", res.d.msg);
	cr_assert(strstr(res.asm_text, "sfu: nop r4") && strstr(res.asm_text, "mul0: r0, sfu, #1"), "%s",
	          res.asm_text);
	tegra_fp_decoded *dec = malloc(sizeof *dec);
	cr_assert(dec && tegra_fp_decode(&res.prog, dec, "w.tgsi", &d), "%s", d.msg);
	ulp_image *rt = ulp_image_create(W, H, &d), *tex[GR3D_SAMPLERS];
	cr_assert(rt);
	for (unsigned k = 0; k < GR3D_SAMPLERS; k++)
		cr_assert((tex[k] = ulp_image_create(1, 1, &d)));
	static const double vw[2] = { 2.0, 4.0 };
	static const uint8_t want[2][2] = { { 128, 64 }, { 64, 32 } };   /* (1/w, 1/(2w)) in bytes */
	for (unsigned k = 0; k < 2; k++) {
		case_io io;
		memset(&io, 0, sizeof io);
		char msg[600];
		cr_assert(run_sim(dec, res.uniform_src, &io, vw[k], res.tram_rows, rt, tex, NULL, msg, sizeof msg),
		          "%s", msg);
		const uint8_t *px = ulp_image_cpx(rt, 1, 2);
		cr_assert(abs(px[0] - want[k][0]) <= 1 && abs(px[1] - want[k][1]) <= 1 && px[2] == 0 && px[3] == 255,
		          "w %g: got %u %u %u %u", vw[k], px[0], px[1], px[2], px[3]);
	}
	for (unsigned k = 0; k < GR3D_SAMPLERS; k++)
		ulp_image_free(tex[k]);
	ulp_image_free(rt);
	free(dec);
	tegra_compile_result_free(&res);
	tgsi_shader_free(sh);
}

/* The code must not depend on the open hardware questions it can avoid
 * (tegra-fp.md §9): the same shaders under the other readings of the TEX
 * coordinate row, sticky kills, PRE-step range reduction, same-packet aluK
 * visibility and (this)/(other) grouping. */
/* Shadow sampling with every compare function (sampler state given at
 * compile time): shaders 11 (samplers 0 and 2 with different functions)
 * and 12 (ties: the reference equal to the texel, and one FX10 step off). */
Test(compile_tegra, shadow_compare_functions_match_the_interpreter)
{
	for (unsigned k = 11; k <= 12; k++)
	for (unsigned f = 0; f < TEGRA_CMP_COUNT; f++)
		for (uint32_t seed = 1; seed <= 8; seed++) {
			tegra_compile_opts o = { 0 };
			o.shadow_compare[0] = (uint8_t)f;
			o.shadow_compare[2] = (uint8_t)((f + 3) % TEGRA_CMP_COUNT);
			one_result R = check_text_opts(LOWERINGS[k], strlen(LOWERINGS[k]), "shadow.tgsi", seed * 31u + f,
			                               NULL, NULL, &o);
			cr_assert_eq(R.o, OUT_MATCH, "shader %u compare %u seed %u: %s: %s", k, f, seed, OUTCOME[R.o],
			             R.msg);
		}
}

Test(compile_tegra, lowerings_hold_under_other_knob_readings)
{
	static const char *const knobs[] = {
		"tegra.tex.src_row_from_mfu=false", "tegra.alu.kill_this_exec=false",
		"tegra.sfu.pre_range_reduce=true", "tegra.alu.alu_reg_same_packet=true",
		"tegra.alu.acc_group=false", "tegra.tex.fp20_reads_see_coords=false", NULL,
	};
	for (size_t k = 0; k < sizeof LOWERINGS / sizeof LOWERINGS[0]; k++) {
		char name[32];
		snprintf(name, sizeof name, "lowering%zu.tgsi", k);
		for (uint32_t seed = 1; seed <= 3; seed++) {
			one_result R = check_text(LOWERINGS[k], strlen(LOWERINGS[k]), name, seed * 104729u, knobs, NULL);
			cr_assert_eq(R.o, OUT_MATCH, "shader %zu seed %u: %s: %s", k, seed, OUTCOME[R.o], R.msg);
		}
	}
}

/* ---- slot packing and EXEC scheduling ---- */
