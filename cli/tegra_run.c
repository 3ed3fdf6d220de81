/* ulpsim tegra run PROG --size WxH ... -o out.png
 * Draws a full-screen quad (grate's asm_tests set-up, hw-expected.md) through
 * the clocked Tegra GR3D fragment units and writes a render target. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fileio.h"
#include "base/image.h"
#include "cli/cli.h"
#include "isa/fx10.h"
#include "isa/tegra/fp_container.h"
#include "isa/tegra/fp_words.h"
#include "isa/tegra/tegra_asm.h"
#include "units/gpu.h"

static const char usage[] =
	"usage: ulpsim tegra run PROG.asm|PROG.fp|PROG.words --size WxH -o OUT.png [options]\n"
	"  Draws a full-screen quad (vertices v0 (-1,+1), v1 (-1,-1), v2 (+1,+1), v3 (+1,-1),\n"
	"  triangles {0,1,2} {1,2,3}, pixel centres sampled; grate's asm_tests set-up)\n"
	"  through the clocked PSEQ/MFU/TEX/ALU/DW units, writes render target --out-rt\n"
	"  (default 1) as PNG atomically and prints cycles and per-unit busy/stall/idle.\n"
	"options:\n"
	"  --size WxH                 render-target size (default: the first --rt PNG's)\n"
	"  --varying tN=V0/V1/V2/V3   TRAM row N per vertex; each Vi is up to 4 comma-\n"
	"                             separated components, a float (FP20) or 0xHEX raw\n"
	"                             20-bit word (e.g. an FX10 pair); one V = all vertices\n"
	"  --uniform uN=F | uN.l=F | uN.h=F | NAME=F\n"
	"                             uniform slot as FP20 or an FX10 half, converted as\n"
	"                             grate's host does (truncating); NAME from .uniforms\n"
	"  --const N=0xHEX            raw FP_CONST word N (0..31)\n"
	"  --tex N=IMG.png[,nearest|bilinear][,repeat|clamp|mirror][,mip]\n"
	"                 [,rgba8888|bgra8888|a8|l8|rgb565]   bind sampler N (0..15);\n"
	"                             mip: build 2x2-box mip levels, chosen per quad\n"
	"                             from the coordinate footprint plus TXB's bias\n"
	"  --rt N=INIT.png|0xAABBGGRR render target N (0..15): initial image or colour\n"
	"                             (RT 1 is bound, cleared to 0, when not given)\n"
	"  --out-rt N                 which target -o writes (default 1)\n"
	"  --stats                    also print every unit's counters\n"
	"  --config FILE | --set KEY=VALUE   knobs (docs/ASSUMPTIONS.md)\n"
	"exit: 0 ok, 2 bad usage or input\n";

#define CMD "tegra run"

typedef struct run_opts {
	const char *prog, *out;
	uint32_t w, h;
	bool stats;
	unsigned out_rt;
} run_opts;

static bool parse_uint(const char *s, unsigned long max, unsigned long *out)
{
	char *end;
	errno = 0;
	unsigned long v = strtoul(s, &end, 0);
	if (end == s || *end || errno || v > max || s[0] == '-')
		return false;
	*out = v;
	return true;
}

static bool parse_size(const char *s, uint32_t *w, uint32_t *h)
{
	char *end;
	errno = 0;
	long a = strtol(s, &end, 10);
	if (end == s || (*end != 'x' && *end != 'X'))
		return false;
	const char *p = end + 1;
	long b = strtol(p, &end, 10);
	if (end == p || *end || errno || a < 1 || b < 1 || a > 8192 || b > 8192)
		return false;
	*w = (uint32_t)a;
	*h = (uint32_t)b;
	return true;
}

/* One component: a float (FP20, nearest) or 0xHEX (raw, masked to 20 bits). */
static bool parse_word(const char *s, size_t n, uint32_t *out)
{
	char buf[64];
	if (n == 0 || n >= sizeof buf)
		return false;
	memcpy(buf, s, n);
	buf[n] = '\0';
	char *end;
	errno = 0;
	if (buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X')) {
		unsigned long v = strtoul(buf, &end, 16);
		if (*end || errno || v > FP20_MASK)
			return false;
		*out = (uint32_t)v;
		return true;
	}
	double v = strtod(buf, &end);
	if (end == buf || *end || !isfinite(v))
		return false;
	*out = fp20_encode((float)v, ULP_ROUND_NEAREST_EVEN);
	return true;
}

static int parse_varying(const char *arg, gr3d_vertex v[4])
{
	unsigned long row;
	const char *eq = strchr(arg, '=');
	if (arg[0] != 't' || !eq)
		return cli_usage(CMD, "--varying expects tN=V0/V1/V2/V3, not '%s'", arg);
	char num[8];
	size_t nl = (size_t)(eq - arg - 1);
	if (nl == 0 || nl >= sizeof num)
		return cli_usage(CMD, "--varying: bad TRAM row in '%s'", arg);
	memcpy(num, arg + 1, nl);
	num[nl] = '\0';
	if (!parse_uint(num, GR3D_TRAM_ROWS - 1, &row))
		return cli_usage(CMD, "--varying: TRAM row must be 0..15 in '%s'", arg);
	uint32_t val[4][4] = { { 0 } };
	unsigned nv = 0;
	const char *p = eq + 1;
	for (;;) {
		if (nv == 4)
			return cli_usage(CMD, "--varying: more than 4 vertices in '%s'", arg);
		const char *slash = strchr(p, '/');
		const char *gend = slash ? slash : p + strlen(p);
		unsigned nc = 0;
		const char *c = p;
		while (c < gend) {
			const char *comma = memchr(c, ',', (size_t)(gend - c));
			const char *cend = comma ? comma : gend;
			if (nc == 4 || !parse_word(c, (size_t)(cend - c), &val[nv][nc]))
				return cli_usage(CMD, "--varying: bad component list in '%s'", arg);
			nc++;
			c = comma ? comma + 1 : gend;
			if (comma && c == gend)
				return cli_usage(CMD, "--varying: bad component list in '%s'", arg);
		}
		if (nc == 0)
			return cli_usage(CMD, "--varying: empty vertex in '%s'", arg);
		nv++;
		if (!slash)
			break;
		p = slash + 1;
	}
	if (nv != 1 && nv != 4)
		return cli_usage(CMD, "--varying: give 1 or 4 vertices, not %u, in '%s'", nv, arg);
	for (unsigned k = 0; k < 4; k++)
		memcpy(v[k].tram[row], val[nv == 1 ? 0 : k], sizeof val[0]);
	return EXIT_OK;
}

static int parse_uniform(const char *arg, const tegra_fp_program *fp, uint32_t u[32])
{
	const char *eq = strchr(arg, '=');
	if (!eq || eq == arg)
		return cli_usage(CMD, "--uniform expects NAME=VALUE, not '%s'", arg);
	char name[64];
	size_t nl = (size_t)(eq - arg);
	if (nl >= sizeof name)
		return cli_usage(CMD, "--uniform: name too long in '%s'", arg);
	memcpy(name, arg, nl);
	name[nl] = '\0';
	char *end;
	double v = strtod(eq + 1, &end);
	if (end == eq + 1 || *end || !isfinite(v))
		return cli_usage(CMD, "--uniform: '%s' is not a number", eq + 1);
	int slot = -1, half = -1;        /* half: -1 FP20, 0 low, 1 high */
	unsigned long n;
	char *dot = strchr(name, '.');
	if (name[0] == 'u' && name[1]) {
		if (dot && (strcmp(dot, ".l") == 0 || strcmp(dot, ".h") == 0)) {
			half = dot[1] == 'h';
			*dot = '\0';
		}
		if (parse_uint(name + 1, 31, &n))
			slot = (int)n;
		else if (dot)
			*dot = '.';
	}
	if (slot < 0) {
		half = -1;
		for (unsigned k = 0; k < 2 * TEGRA_FP_NUM_CONST; k++) {
			const tegra_fp_uniform_half *h = &fp->uniforms[k];
			if (h->used && strcmp(h->name, name) == 0) {
				slot = (int)(k / 2);
				half = h->kind == TEGRA_UNIFORM_FP20 ? -1 : h->kind == TEGRA_UNIFORM_FX10_HIGH;
				break;
			}
		}
		if (slot < 0)
			return cli_usage(CMD, "--uniform: no uniform named '%s' (use uN, uN.l or uN.h)", name);
	}
	if (half < 0) {
		u[slot] = tegra_grate_fp20((float)v);
	} else {
		uint32_t x = tegra_grate_fx10((float)v);
		u[slot] = half ? (u[slot] & FX10_MASK) | x << FX10_HIGH_SHIFT : (u[slot] & ~FX10_MASK) | x;
	}
	return EXIT_OK;
}

static int parse_tex(const char *arg, gr3d_sampler sm[GR3D_SAMPLERS], ulp_image *img[GR3D_SAMPLERS],
                     ulp_diag *d)
{
	unsigned long n;
	const char *eq = strchr(arg, '=');
	char num[8];
	size_t nl = eq ? (size_t)(eq - arg) : 0;
	if (!eq || nl == 0 || nl >= sizeof num)
		return cli_usage(CMD, "--tex expects N=IMG.png[,options], not '%s'", arg);
	memcpy(num, arg, nl);
	num[nl] = '\0';
	if (!parse_uint(num, GR3D_SAMPLERS - 1, &n))
		return cli_usage(CMD, "--tex: sampler must be 0..15 in '%s'", arg);
	char *spec = strdup(eq + 1);
	if (!spec)
		return cli_usage(CMD, "out of memory");
	gr3d_sampler s = { .format = GR3D_TEX_RGBA8888, .wrap = GR3D_WRAP_REPEAT };
	char *save = NULL;
	char *file = strtok_r(spec, ",", &save);
	int rc = EXIT_OK;
	for (char *t; rc == EXIT_OK && (t = strtok_r(NULL, ",", &save));) {
		if (strcmp(t, "nearest") == 0) s.bilinear = false;
		else if (strcmp(t, "bilinear") == 0) s.bilinear = true;
		else if (strcmp(t, "repeat") == 0) s.wrap = GR3D_WRAP_REPEAT;
		else if (strcmp(t, "clamp") == 0) s.wrap = GR3D_WRAP_CLAMP;
		else if (strcmp(t, "mirror") == 0) s.wrap = GR3D_WRAP_MIRROR;
		else if (strcmp(t, "mip") == 0) s.mipmap = true;
		else if (strcmp(t, "rgba8888") == 0) s.format = GR3D_TEX_RGBA8888;
		else if (strcmp(t, "bgra8888") == 0) s.format = GR3D_TEX_BGRA8888;
		else if (strcmp(t, "a8") == 0) s.format = GR3D_TEX_A8;
		else if (strcmp(t, "l8") == 0) s.format = GR3D_TEX_L8;
		else if (strcmp(t, "rgb565") == 0) s.format = GR3D_TEX_RGB565;
		else rc = cli_usage(CMD, "--tex: unknown option '%s'", t);
	}
	if (rc == EXIT_OK && !file)
		rc = cli_usage(CMD, "--tex: no image in '%s'", arg);
	if (rc == EXIT_OK) {
		ulp_image_free(img[n]);
		img[n] = ulp_image_load_png(file, d);
		if (!img[n])
			rc = cli_fail(d);
		s.img = img[n];
		sm[n] = s;
	}
	free(spec);
	return rc;
}

static int parse_rt(const char *arg, ulp_image *rt[GR3D_RTS], uint32_t color[GR3D_RTS],
                    bool has_color[GR3D_RTS], ulp_diag *d)
{
	unsigned long n;
	const char *eq = strchr(arg, '=');
	char num[8];
	size_t nl = eq ? (size_t)(eq - arg) : 0;
	if (!eq || nl == 0 || nl >= sizeof num || !eq[1])
		return cli_usage(CMD, "--rt expects N=INIT.png or N=0xAABBGGRR, not '%s'", arg);
	memcpy(num, arg, nl);
	num[nl] = '\0';
	if (!parse_uint(num, GR3D_RTS - 1, &n))
		return cli_usage(CMD, "--rt: target must be 0..15 in '%s'", arg);
	ulp_image_free(rt[n]);
	rt[n] = NULL;
	has_color[n] = false;
	const char *v = eq + 1;
	if (v[0] == '0' && (v[1] == 'x' || v[1] == 'X')) {
		unsigned long c;
		if (!parse_uint(v, 0xFFFFFFFFul, &c))
			return cli_usage(CMD, "--rt: bad colour '%s'", v);
		color[n] = (uint32_t)c;
		has_color[n] = true;
		return EXIT_OK;
	}
	rt[n] = ulp_image_load_png(v, d);
	return rt[n] ? EXIT_OK : cli_fail(d);
}

static bool load_program(const char *path, tegra_fp_program *fp, ulp_diag *d)
{
	size_t len;
	char *buf = ulp_read_file(path, &len, d);
	if (!buf)
		return false;
	size_t tl = strlen(TEGRA_FP_WORDS_TAG);
	bool ok;
	if (tegra_fp_is_container(buf, len) || (len >= tl && memcmp(buf, TEGRA_FP_WORDS_TAG, tl) == 0))
		ok = tegra_fp_load_buffer(buf, len, path, fp, d);
	else
		ok = tegra_asm_assemble(buf, len, path, fp, d);
	free(buf);
	return ok;
}

static void print_stats(const gr3d_stats *st, bool counters)
{
	printf("cycles %llu\nquads %llu\npixels_written %llu\npixel_execs %llu\nmax_qid %u\n",
	       (unsigned long long)st->cycles, (unsigned long long)st->quads,
	       (unsigned long long)st->pixels, (unsigned long long)st->pixel_execs, st->max_qid);
	for (unsigned k = 0; k < GR3D_UNITS; k++) {
		printf("%s busy %llu", st->name[k], (unsigned long long)st->unit[k].busy);
		for (int s = 0; s < SIM_STALL_COUNT; s++)
			if (st->unit[k].stall[s])
				printf(" stall:%s %llu", sim_stall_name((enum sim_stall)s),
				       (unsigned long long)st->unit[k].stall[s]);
		printf(" idle %llu\n", (unsigned long long)st->idle[k]);
		if (!counters)
			continue;
		for (unsigned c = 0; c < st->ncounters[k]; c++)
			printf("  %s.%s %llu\n", st->name[k], st->counter_defs[k][c].name,
			       (unsigned long long)st->unit[k].counter[c]);
	}
}

typedef struct run_state {
	tegra_fp_program fp;
	tegra_fp_decoded dec;
	gr3d_vertex vtx[4];
	uint32_t uniforms[32];
	gr3d_sampler sampler[GR3D_SAMPLERS];
	ulp_image *teximg[GR3D_SAMPLERS];
	ulp_image *rt[GR3D_RTS];
	uint32_t color[GR3D_RTS];
	bool has_color[GR3D_RTS];
	ulp_config cfg;
} run_state;

static int run(run_state *S, int argc, char **argv)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	run_opts o = { .out_rt = 1 };
	ulp_config_defaults(&S->cfg);
	/* pass 1: the program (uniform names need it) and knobs */
	for (int i = 2; i < argc; i++) {
		const char *a = argv[i];
		bool takes = strcmp(a, "--size") == 0 || strcmp(a, "--varying") == 0 ||
		             strcmp(a, "--uniform") == 0 || strcmp(a, "--const") == 0 ||
		             strcmp(a, "--tex") == 0 || strcmp(a, "--rt") == 0 || strcmp(a, "-o") == 0 ||
		             strcmp(a, "--out-rt") == 0 || strcmp(a, "--config") == 0 ||
		             strcmp(a, "--set") == 0;
		if (takes) {
			if (i + 1 >= argc)
				return cli_usage(CMD, "%s needs a value", a);
			const char *v = argv[++i];
			if (strcmp(a, "--config") == 0 && !ulp_config_load(&S->cfg, v, &d))
				return cli_fail(&d);
			if (strcmp(a, "--set") == 0 && !ulp_config_set(&S->cfg, v, &d))
				return cli_fail(&d);
		} else if (strcmp(a, "--stats") == 0) {
			o.stats = true;
		} else if (a[0] == '-' && a[1]) {
			return cli_usage(CMD, "unknown option '%s'", a);
		} else if (!o.prog) {
			o.prog = a;
		} else {
			return cli_usage(CMD, "unexpected argument '%s'", a);
		}
	}
	if (!o.prog)
		return cli_usage(CMD, "expected a program file");
	if (!load_program(o.prog, &S->fp, &d) || !tegra_fp_decode(&S->fp, &S->dec, o.prog, &d))
		return cli_fail(&d);
	if (S->dec.alu_buffer_size < 1 || S->dec.alu_buffer_size > 4) {
		ulp_diag_at(&d, o.prog, 0, 0, "alu_buffer_size %u: the hardware takes 1..4",
		            S->dec.alu_buffer_size);
		return cli_fail(&d);
	}
	for (unsigned k = 0; k < 32; k++)
		S->uniforms[k] = S->fp.constants[k] & FP20_MASK;
	/* pass 2: everything else, in order */
	int rc = EXIT_OK;
	unsigned long n;
	for (int i = 2; i < argc && rc == EXIT_OK; i++) {
		const char *a = argv[i];
		if (a[0] != '-' || !a[1] || strcmp(a, "--stats") == 0)
			continue;
		const char *v = argv[++i];
		if (strcmp(a, "--size") == 0) {
			if (!parse_size(v, &o.w, &o.h))
				rc = cli_usage(CMD, "--size expects WxH (1..8192), not '%s'", v);
		} else if (strcmp(a, "--varying") == 0) {
			rc = parse_varying(v, S->vtx);
		} else if (strcmp(a, "--uniform") == 0) {
			rc = parse_uniform(v, &S->fp, S->uniforms);
		} else if (strcmp(a, "--const") == 0) {
			const char *eq = strchr(v, '=');
			char num[8];
			size_t nl = eq ? (size_t)(eq - v) : 0;
			unsigned long w;
			if (!eq || nl == 0 || nl >= sizeof num)
				rc = cli_usage(CMD, "--const expects N=0xHEX, not '%s'", v);
			else {
				memcpy(num, v, nl);
				num[nl] = '\0';
				if (!parse_uint(num, 31, &n) || !parse_uint(eq + 1, FP20_MASK, &w))
					rc = cli_usage(CMD, "--const expects N=0xHEX (N 0..31, 20 bits), not '%s'", v);
				else
					S->uniforms[n] = (uint32_t)w;
			}
		} else if (strcmp(a, "--tex") == 0) {
			rc = parse_tex(v, S->sampler, S->teximg, &d);
		} else if (strcmp(a, "--rt") == 0) {
			rc = parse_rt(v, S->rt, S->color, S->has_color, &d);
		} else if (strcmp(a, "-o") == 0) {
			o.out = v;
		} else if (strcmp(a, "--out-rt") == 0) {
			if (!parse_uint(v, GR3D_RTS - 1, &n))
				rc = cli_usage(CMD, "--out-rt expects 0..15, not '%s'", v);
			o.out_rt = (unsigned)n;
		}
	}
	if (rc != EXIT_OK)
		return rc;
	if (!o.out)
		return cli_usage(CMD, "give -o OUT.png");
	if (!o.w) {
		for (unsigned k = 0; k < GR3D_RTS && !o.w; k++)
			if (S->rt[k]) {
				o.w = S->rt[k]->width;
				o.h = S->rt[k]->height;
			}
		if (!o.w)
			return cli_usage(CMD, "give --size WxH (or an --rt PNG)");
	}
	/* -o of a target nothing binds would be an image of nothing: the program
	 * stores to it (a DW store's SURF), or --rt gives it */
	bool stored = false;
	for (unsigned e = 0; e < S->dec.exec_count && e < TEGRA_FP_MAX_EXEC; e++)
		stored |= S->dec.exec[e].dw.enable && (S->dec.exec[e].dw.rt & (GR3D_RTS - 1)) == o.out_rt;
	if (!stored && !S->rt[o.out_rt] && !S->has_color[o.out_rt]) {
		char to[96] = "";
		for (unsigned e = 0; e < S->dec.exec_count && e < TEGRA_FP_MAX_EXEC; e++) {
			const tegra_dw_inst *w = &S->dec.exec[e].dw;
			char one[8];
			snprintf(one, sizeof one, "rt%u", w->rt & (GR3D_RTS - 1));
			if (w->enable && !strstr(to, one) && strlen(to) + 8 < sizeof to) {
				strcat(to, to[0] ? ", " : "");
				strcat(to, one);
			}
		}
		return cli_usage(CMD, "--out-rt %u: render target %u is not bound: the program stores to %s, and no "
		                 "--rt %u gives it", o.out_rt, o.out_rt, to[0] ? to : "no render target", o.out_rt);
	}
	bool any = false;
	for (unsigned k = 0; k < GR3D_RTS; k++) {
		if (S->rt[k] && (S->rt[k]->width != o.w || S->rt[k]->height != o.h))
			return cli_usage(CMD, "--rt %u: image is %ux%u, the draw is %ux%u", k, S->rt[k]->width,
			                 S->rt[k]->height, o.w, o.h);
		if (S->has_color[k] || (k == o.out_rt && !S->rt[k])) {
			S->rt[k] = ulp_image_create(o.w, o.h, &d);
			if (!S->rt[k])
				return cli_fail(&d);
			uint32_t c = S->has_color[k] ? S->color[k] : 0;
			ulp_image_fill(S->rt[k], (uint8_t)c, (uint8_t)(c >> 8), (uint8_t)(c >> 16),
			               (uint8_t)(c >> 24));
		}
		any |= S->rt[k] != NULL;
	}
	(void)any;
	/* hw-expected.md: NDC (x, y) -> window (W/2 (x+1), H/2 (y+1)), no flip */
	static const double ndc[4][2] = { { -1, 1 }, { -1, -1 }, { 1, 1 }, { 1, -1 } };
	for (unsigned k = 0; k < 4; k++) {
		S->vtx[k].x = (ndc[k][0] + 1.0) * o.w / 2.0;
		S->vtx[k].y = (ndc[k][1] + 1.0) * o.h / 2.0;
		S->vtx[k].w = 1.0;
	}
	static const uint16_t idx[6] = { 0, 1, 2, 1, 2, 3 };
	gr3d_draw dr;
	memset(&dr, 0, sizeof dr);
	dr.prog = &S->dec;
	dr.cfg = &S->cfg;
	memcpy(dr.uniforms, S->uniforms, sizeof dr.uniforms);
	dr.vtx = S->vtx;
	dr.nvtx = 4;
	dr.idx = idx;
	dr.ntris = 2;
	memcpy(dr.sampler, S->sampler, sizeof dr.sampler);
	memcpy(dr.rt, S->rt, sizeof dr.rt);
	gr3d_stats st;
	if (!gr3d_fp_draw(&dr, &st, &d))
		return cli_fail(&d);
	if (!ulp_image_save_png(S->rt[o.out_rt], o.out, &d))
		return cli_fail(&d);
	print_stats(&st, o.stats);
	return EXIT_OK;
}

int cmd_tegra_run(int argc, char **argv)
{
	if (cli_wants_help(argc, argv)) {
		fputs(usage, stdout);
		return EXIT_OK;
	}
	run_state *S = calloc(1, sizeof *S);
	if (!S) {
		fprintf(stderr, "ulpsim: out of memory\n");
		return EXIT_BAD;
	}
	int rc = run(S, argc, argv);
	for (unsigned k = 0; k < GR3D_SAMPLERS; k++)
		ulp_image_free(S->teximg[k]);
	for (unsigned k = 0; k < GR3D_RTS; k++)
		ulp_image_free(S->rt[k]);
	free(S);
	return rc;
}
