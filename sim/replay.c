/* Trace replay: the first end-to-end slice (see replay.h, docs/replay.md). */
#include "sim/replay.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/fileio.h"
#include "base/image.h"
#include "frontends/pica/pica_compile.h"
#include "frontends/tegra/tegra_compile.h"
#include "frontends/tgsi/tgsi.h"
#include "isa/fp20.h"
#include "isa/tegra/fp_container.h"
#include "isa/tegra/tegra_asm.h"
#include "sim/compare.h"
#include "sim/driver_pica.h"
#include "sim/gpu.h"
#include "sim/gr3d_regs.h"
#include "sim/gr3d_state.h"
#include "sim/pica_regs.h"
#include "sim/replay_blend.h"
#include "sim/replay_gs.h"
#include "sim/pica_vtx.h"
#include "sim/replay_state.h"
#include "sim/replay_tex.h"
#include "units/gr3d_fp.h"
#include "units/pica_shader.h"

enum { MAX_CBUFS = 8 };

/* Colour buffer k's address in simulated memory (RT_PTR): 64 MB apart,
 * above the resources' 256 MB (sim/replay_state.h). */
static uint32_t cbuf_addr(unsigned k) { return 0x40000000u + ((uint32_t)k << 26); }

typedef struct replay {
	const trace *t;
	const replay_opts *o;
	replay_result *res;
	ulp_diag *d;
	reg_stream stream;
	pica_regs regs;
	/* the bound vertex shader (its SHBIN gives the output table) */
	struct shbin vs_shbin;
	bool have_vs;
	uint8_t pos_reg;                 /* o register of POSITION */
	uint8_t tram_reg[GR3D_TRAM_ROWS]; /* linker: TRAM row -> o register (0xFF: none) */
	unsigned ntram;
	/* semantic linking when both stages are TGSI (docs/replay.md) */
	bool vs_tgsi, fs_tgsi;
	int16_t vs_sem[16];              /* o register -> semantic name, -1: none */
	uint32_t vs_sem_index[16];
	int16_t fs_sem[GR3D_TRAM_ROWS];  /* IN[k] -> semantic name, -1: none */
	uint32_t fs_sem_index[GR3D_TRAM_ROWS];
	uint8_t fs_interp[GR3D_TRAM_ROWS];  /* IN[k] -> enum tgsi_interpolate */
	unsigned fs_nin;
	/* the fragment side: programmed through the GR3D registers */
	gr3d_regs gregs;
	tegra_fp_program fp;             /* scratch: loading, and rebuilt from the registers */
	tegra_fp_decoded fpd;
	bool have_fs;
	int16_t fs_usrc[TEGRA_FP_NUM_CONST];   /* FP_CONST u_k <- fragment constant float index (-1: 0) */
	/* state */
	uint32_t width, height;
	ulp_image *cbuf[MAX_CBUFS];
	uint8_t cbuf_fmt[MAX_CBUFS];      /* enum gr3d_rtfmt */
	unsigned ncbufs;
	/* memory, viewport, scissor, texture units, vertex elements, draws:
	 * programmed into the registers (sim/replay_state.c) */
	replay_state st;
	/* rasterizer and clip state (docs/trace-format.md) */
	uint8_t cull;                    /* enum setup_cull */
	bool front_ccw, two_side, flatshade;
	uint8_t clip_plane_enable;
	float ucp[CLIP_PLANES][4];
	/* a TGSI fragment shader is compiled for the samplers' compare functions and
	 * the views' swizzles (a variant, as a Gallium driver keys its shaders) */
	uint8_t shadow_cmp[GR3D_SAMPLERS];  /* enum tegra_compare */
	uint8_t view_swz[GR3D_SAMPLERS][4]; /* enum tegra_swizzle: the sampler views' swizzles */
	const trace_shader *fs_src;
	tegra_compile_opts fs_opts;
	/* blending, the Tegra way: written into the fragment program
	 * (frontends/tgsi/tgsi_blend.h); fs_blend is the state fs was built for */
	tgsi_blend_state blend, fs_blend;
	/* depth/stencil: the bound surface and the trace's state (programmed
	 * into the GR3D registers; the units read it back from there) */
	zs_surface *zs;
	zs_state zsa;
	replay_gs gs;                    /* the bound geometry shader (sim/replay_gs.c) */
	size_t dumped_cmd;               /* 1 + the command whose writes the dump last headed */
} replay;

static bool fail(replay *r, size_t i, const char *fmt, const char *detail)
{
	char path[48], msg[ULP_DIAG_MSG_MAX];
	snprintf(path, sizeof path, "$.commands[%zu]", i);
	snprintf(msg, sizeof msg, "%s", fmt);
	return ulp_diag_at(r->d, r->t->path, 0, 0, "%s: %s%s", path, msg, detail ? detail : "");
}

static const char *str(const cJSON *c, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(c, k);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static double num(const cJSON *c, const char *k, double def)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(c, k);
	return cJSON_IsNumber(v) ? v->valuedouble : def;
}

static bool draw_regs(replay *r, size_t i, bool indexed);

/* Applies the stream's new writes to the register model (and dumps them,
 * each command's under a "# $.commands[i] name" line); a write of
 * DRAWARRAYS or DRAWELEMENTS runs the draw the registers describe. */
static bool flush_stream(replay *r, size_t from, size_t i)
{
	if (r->stream.oom)
		return fail(r, i, "out of memory", NULL);
	if (r->o->dump_commands && r->stream.n > from) {
		reg_stream tail = { r->stream.w + from, r->stream.n - from, 0, false };
		if (r->dumped_cmd != i + 1)
			fprintf(r->o->dump_commands, "# $.commands[%zu] %s\n", i, str(r->t->cmd[i], "cmd"));
		r->dumped_cmd = i + 1;
		reg_stream_dump(&tail, r->o->dump_commands);
	}
	for (size_t k = from; k < r->stream.n; k++) {
		const reg_write *w = &r->stream.w[k];
		ulp_diag inner;
		ulp_diag_clear(&inner);
		bool ok = w->space == REG_GR3D ? gr3d_regs_write(&r->gregs, w->reg, w->value, &inner)
		                               : pica_regs_write(&r->regs, w->reg, w->mask, w->value, &inner);
		if (!ok)
			return fail(r, i, inner.msg, NULL);
		if (w->space == REG_PICA && pica_reg_is_draw(w->reg) &&
		    !draw_regs(r, i, w->reg == PICA_REG_DRAWELEMENTS))
			return false;
	}
	return true;
}

/* ---- shaders ---- */

static bool bind_vs(replay *r, const trace_shader *s, size_t i)
{
	if (r->have_vs)
		shbin_free(&r->vs_shbin);
	r->have_vs = false;
	ulp_diag inner;
	ulp_diag_clear(&inner);
	if (s->code == TRACE_TGSI) {
		tgsi_shader *sh = tgsi_parse(s->text, strlen(s->text), s->path ? s->path : s->id, NULL, &inner);
		if (!sh)
			return fail(r, i, inner.msg, NULL);
		pica_compile_result *cr = calloc(1, sizeof *cr);
		bool ok = cr && pica_compile(sh, s->path ? s->path : s->id, NULL, cr);
		for (int k = 0; k < 16; k++)
			r->vs_sem[k] = -1;
		for (unsigned k = 0; ok && k < cr->noutputs; k++) {
			const pica_compile_output *out = &cr->outputs[k];
			for (size_t dcl = 0; dcl < sh->num_decls; dcl++) {
				const tgsi_declaration *de = &sh->decls[dcl];
				if (de->file != TGSI_FILE_OUTPUT || !de->semantic || out->o_reg >= 16 ||
				    out->tgsi_index < (int32_t)de->first || out->tgsi_index > (int32_t)de->last)
					continue;
				r->vs_sem[out->o_reg] = de->semantic_name;
				r->vs_sem_index[out->o_reg] = de->semantic_index + (uint32_t)(out->tgsi_index - (int32_t)de->first);
			}
		}
		r->vs_tgsi = ok;
		tgsi_shader_free(sh);
		if (!ok) {
			fail(r, i, "the vertex shader cannot be compiled for the PICA200: ", cr ? cr->d.msg : "out of memory");
			if (cr)
				pica_compile_result_free(cr);
			free(cr);
			return false;
		}
		r->vs_shbin = cr->shbin;          /* take the SHBIN */
		memset(&cr->shbin, 0, sizeof cr->shbin);
		cr->have_shbin = false;
		pica_compile_result_free(cr);
		free(cr);
	} else if (s->code == TRACE_SHBIN) {
		r->vs_tgsi = false;
		if (!shbin_load(s->path, &r->vs_shbin, &inner))
			return fail(r, i, inner.msg, NULL);
	} else {
		return fail(r, i, "a vertex shader is TGSI or an SHBIN", NULL);
	}
	r->have_vs = true;
	if (s->dvle >= r->vs_shbin.ndvle || r->vs_shbin.dvle[s->dvle].type != SHBIN_VS)
		return fail(r, i, "the shader's DVLE is not a vertex shader", NULL);
	/* linker convention (docs/replay.md): POSITION is the window position,
	 * every other output register feeds the next TRAM row, x y z w as FP20 */
	const struct shbin_dvle *e = &r->vs_shbin.dvle[s->dvle];
	uint16_t regs = 0;
	bool have_pos = false;
	for (size_t k = 0; k < e->noutputs; k++) {
		if (e->outputs[k].reg >= 16)
			continue;
		if (e->outputs[k].type == SHBIN_OUT_POSITION) {
			r->pos_reg = (uint8_t)e->outputs[k].reg;
			have_pos = true;
		} else {
			regs |= (uint16_t)(1u << e->outputs[k].reg);
		}
	}
	if (!have_pos)
		return fail(r, i, "the vertex shader writes no position", NULL);
	r->ntram = 0;
	for (unsigned reg = 0; reg < 16; reg++)
		if ((regs & (1u << reg)) && reg != r->pos_reg && r->ntram < GR3D_TRAM_ROWS)
			r->tram_reg[r->ntram++] = (uint8_t)reg;
	size_t from = r->stream.n;
	if (!drv_pica_load_shader(&r->stream, &r->vs_shbin, s->dvle, &inner))
		return fail(r, i, inner.msg, NULL);
	return flush_stream(r, from, i);
}

static bool bind_fs(replay *r, const trace_shader *s, size_t i)
{
	r->have_fs = false;
	for (unsigned k = 0; k < TEGRA_FP_NUM_CONST; k++)
		r->fs_usrc[k] = (int16_t)k;
	ulp_diag inner;
	ulp_diag_clear(&inner);
	bool ok;
	r->fs_tgsi = false;
	if (s->code == TRACE_TGSI) {
		const char *name = s->path ? s->path : s->id;
		tgsi_shader *sh = tgsi_parse(s->text, strlen(s->text), name, NULL, &inner);
		if (!sh)
			return fail(r, i, inner.msg, NULL);
		tegra_compile_result *tr = calloc(1, sizeof *tr);
		memcpy(r->fs_opts.shadow_compare, r->shadow_cmp, sizeof r->fs_opts.shadow_compare);
		memcpy(r->fs_opts.swizzle, r->view_swz, sizeof r->fs_opts.swizzle);
		r->fs_src = s;
		r->fs_blend = r->blend;
		tgsi_shader *bl = tgsi_blend_is_noop(&r->blend) ? NULL : tgsi_blend_lower(sh, &r->blend, name, &inner);
		if (!tgsi_blend_is_noop(&r->blend) && !bl) {
			tgsi_shader_free(sh);
			free(tr);
			return fail(r, i, "blending: ", inner.msg);
		}
		ok = tr && tegra_compile_with(bl ? bl : sh, name, &r->fs_opts, tr);
		tgsi_shader_free(bl);
		r->fs_nin = 0;
		for (int k = 0; k < GR3D_TRAM_ROWS; k++)
			r->fs_sem[k] = -1;
		for (size_t dcl = 0; ok && dcl < sh->num_decls; dcl++) {
			const tgsi_declaration *de = &sh->decls[dcl];
			if (de->file != TGSI_FILE_INPUT || !de->semantic)
				continue;
			for (uint32_t k = de->first; k <= de->last && k < GR3D_TRAM_ROWS; k++) {
				r->fs_sem[k] = de->semantic_name;
				r->fs_sem_index[k] = de->semantic_index + (k - de->first);
				r->fs_interp[k] = de->interpolate ? de->interp : TGSI_INTERPOLATE_PERSPECTIVE;
				if (k + 1 > r->fs_nin)
					r->fs_nin = k + 1;
			}
		}
		tgsi_shader_free(sh);
		if (!ok) {
			fail(r, i, "the fragment shader cannot be compiled for the Tegra: ", tr ? tr->d.msg : "out of memory");
			if (tr)
				tegra_compile_result_free(tr);
			free(tr);
			return false;
		}
		r->fp = tr->prog;
		memcpy(r->fs_usrc, tr->uniform_src, sizeof r->fs_usrc);   /* the compiler's uniform layout */
		tegra_compile_result_free(tr);
		free(tr);
		r->fs_tgsi = true;
	} else if (s->code == TRACE_GRATE) {
		ok = tegra_asm_assemble(s->text, strlen(s->text), s->path ? s->path : s->id, &r->fp, &inner);
	} else {
		size_t len;
		char *buf = ulp_read_file(s->path, &len, &inner);
		ok = buf && tegra_fp_load_buffer(buf, len, s->path, &r->fp, &inner);
		free(buf);
	}
	if (!ok || !tegra_fp_decode(&r->fp, &r->fpd, s->path, &inner))
		return fail(r, i, inner.msg, NULL);
	r->have_fs = true;
	size_t from = r->stream.n;
	drv_gr3d_load_program(&r->stream, &r->fp, r->fp.constants);
	return flush_stream(r, from, i);
}

/* ---- vertices ---- */

static sim_unit *unit_named(replay_result *res, const char *name)
{
	for (unsigned k = 0; k < res->nunits; k++)
		if (strcmp(res->unit[k].name, name) == 0)
			return &res->unit[k];
	return NULL;
}

static bool draw(replay *r, const cJSON *c, size_t i);

static bool bind_fs(replay *r, const trace_shader *s, size_t i);

/* Recompiles a TGSI fragment shader whose samplers' compare functions or
 * views' swizzles changed since it was compiled, keeping the FP_CONST words the trace wrote
 * (those that differ from the old program's own constants). */
static bool fs_variant(replay *r, size_t i)
{
	if (!r->fs_tgsi || !r->fs_src) {
		if (!tgsi_blend_is_noop(&r->blend))
			return fail(r, i, "blending needs a TGSI fragment shader (the driver compiles the blend "
			                  "into the program; a grate, words or .fp program blends itself)", NULL);
		for (unsigned k = 0; k < GR3D_SAMPLERS; k++)
			for (unsigned ch = 0; ch < 4; ch++)
				if (r->view_swz[k][ch] && r->view_swz[k][ch] != TEGRA_SWZ_R + ch)
					return fail(r, i, "a sampler_view swizzle needs a TGSI fragment shader (the driver "
					                  "compiles it into the program; the TEX unit has none)", NULL);
		return true;
	}
	if (!memcmp(r->fs_opts.shadow_compare, r->shadow_cmp, sizeof r->shadow_cmp) &&
	    !memcmp(r->fs_opts.swizzle, r->view_swz, sizeof r->view_swz) &&
	    !memcmp(&r->fs_blend, &r->blend, sizeof r->blend))
		return true;
	uint32_t user[TEGRA_FP_NUM_CONST];
	bool written[TEGRA_FP_NUM_CONST];
	for (int k = 0; k < TEGRA_FP_NUM_CONST; k++) {
		user[k] = r->gregs.raw[0x820 + k];
		written[k] = user[k] != r->fp.constants[k];
	}
	if (!bind_fs(r, r->fs_src, i))
		return false;
	size_t from = r->stream.n;
	for (int k = 0; k < TEGRA_FP_NUM_CONST; k++)
		if (written[k])
			reg_stream_gr3d(&r->stream, (uint16_t)(0x820 + k), user[k]);
	return flush_stream(r, from, i);
}

/* The "zs" unit of the run's stats ("zs_b": GR3D block B's), registered up
 * front when the trace uses depth/stencil, else added at its first use. */
static sim_unit *zs_unit_stats(replay_result *res, const char *name)
{
	sim_unit *u = unit_named(res, name);
	if (!u && res->nunits < REPLAY_MAX_UNITS) {
		u = &res->unit[res->nunits++];
		sim_unit_init(u, !strcmp(name, "zs") ? "zs" : "zs_b", NULL, ZS_COUNTERS, ZS_CTR_COUNT);
	}
	return u;
}

/* The o register with a semantic (TGSI vertex shaders), or 0xFF. */
static uint8_t vs_reg(const replay *r, int sem, uint32_t index)
{
	for (unsigned o = 0; r->vs_tgsi && o < 16; o++)
		if (r->vs_sem[o] == sem && r->vs_sem_index[o] == index)
			return (uint8_t)o;
	return 0xFF;
}

/* The linker (docs/replay.md) into LINKER_INSTRUCTION, 0x343 and
 * TRAM_SETUP (sim/gr3d_state.h): TRAM rows by semantic when both stages are
 * TGSI, else every non-position output in register order; the back colours
 * for two-sided colour; the rows flat shading holds constant. */
static void program_linker(replay *r)
{
	gr3d_link_row row[GR3D_TRAM_ROWS];
	unsigned n = r->ntram;
	for (unsigned k = 0; k < n; k++)
		row[k] = (gr3d_link_row){ r->tram_reg[k], 0xFF, false };
	if (r->vs_tgsi && r->fs_tgsi) {
		n = r->fs_nin;
		for (unsigned k = 0; k < n; k++) {
			gr3d_link_row *w = &row[k];
			w->reg = r->fs_sem[k] >= 0 ? vs_reg(r, r->fs_sem[k], r->fs_sem_index[k]) : 0xFF;
			w->reg_back = r->fs_sem[k] == TGSI_SEMANTIC_COLOR ? vs_reg(r, TGSI_SEMANTIC_BCOLOR, r->fs_sem_index[k])
			                                                : 0xFF;
			bool flat = r->fs_interp[k] == TGSI_INTERPOLATE_CONSTANT ||
			            (r->fs_interp[k] == TGSI_INTERPOLATE_COLOR && r->flatshade);
			w->flat = flat && r->fs_sem[k] != TGSI_SEMANTIC_POSITION && r->fs_sem[k] != TGSI_SEMANTIC_FACE;
		}
	}
	drv_gr3d_linker(&r->stream, row, n, r->cull, r->front_ccw, r->two_side);
}

static void add_units(replay_result *res, const gpu_stats *st)
{
	for (unsigned k = 0; k < st->nunits; k++) {
		sim_unit *u = unit_named(res, st->unit[k].name);
		if (!u && (!strcmp(st->unit[k].name, "zs") || !strcmp(st->unit[k].name, "zs_b")))
			u = zs_unit_stats(res, st->unit[k].name);   /* depth/stencil from raw register blocks */
		if (u)
			sim_unit_stats_add(&u->stats, &st->unit[k].stats);
	}
}

/* The draw command: the linker, the draw registers and the trigger (the
 * draw runs when flush_stream applies the trigger). */
static bool draw(replay *r, const cJSON *c, size_t i)
{
	if (!r->have_vs || !r->have_fs)
		return fail(r, i, "draw before bind_shaders", NULL);
	if (!r->ncbufs)
		return fail(r, i, "draw before framebuffer", NULL);
	if (!fs_variant(r, i))
		return false;
	const char *mode = str(c, "mode");
	const bool gs_on = pica_regs_gs_on(&r->regs);      /* GEOSTAGE_CONFIG: a GS is in use */
	size_t from = r->stream.n;
	if (gs_on) {                                       /* the GS input buffer for this draw */
		if (!replay_gs_draw_regs(&r->gs, mode, &r->regs, &r->stream, r->t->path, i, r->d))
			return false;
	} else if (strcmp(mode, "triangles") && strcmp(mode, "triangle_strip") && strcmp(mode, "triangle_fan")) {
		return fail(r, i, "points and lines are not in this build yet (points: with a geometry shader): ",
		            mode);
	}
	program_linker(r);
	ulp_diag inner;
	ulp_diag_clear(&inner);
	if (!replay_state_draw(&r->st, &r->stream, c, gs_on, &inner))
		return fail(r, i, inner.msg, NULL);
	return flush_stream(r, from, i);
}

/* A draw as the registers describe it (the PICA200 shader, attribute and
 * draw registers; the GR3D program, linker, viewport, scissor, textures,
 * render targets and depth/stencil), with the stats hook around it. */
static bool run_draw(replay *r, size_t i, bool indexed)
{
	if (!r->ncbufs)
		return fail(r, i, "draw before framebuffer", NULL);
	ulp_diag inner;
	ulp_diag_clear(&inner);
	const ulp_config *cfg = r->o->cfg;
	gpu_draw *g = calloc(1, sizeof *g);
	vfetch_setup *f = calloc(1, sizeof *f);
	if (!g || !f) {
		free(g);
		free(f);
		return fail(r, i, "out of memory", NULL);
	}
	pica_program prog, gprog;
	memset(&gprog, 0, sizeof gprog);
	bool have_prog = false;
	const bool gs_on = pica_regs_gs_on(&r->regs);
	bool ok = replay_state_draw_setup(&r->st, &r->regs, &r->gregs, indexed, g, f, &inner) &&
	          (have_prog = pica_regs_program(&r->regs, false, cfg, &prog, &inner));
	if (ok && gs_on) {        /* the fourth unit runs the GS (units/gsh.h) */
		ok = replay_gs_config(&r->regs, cfg, &g->gs, &gprog, &inner);
		if (!ok) {
			char why[ULP_DIAG_MSG_MAX];
			snprintf(why, sizeof why, "%s", inner.msg);
			ulp_diag_at(&inner, NULL, 0, 0, "geometry shader: %.400s", why);
		}
		g->gs_prog = &gprog;
		g->gs_unif = &r->regs.gs.unif;
		g->setup.pos_reg = g->clip.pos_reg = r->pos_reg;   /* the GS's position output */
	}
	/* the fragment program and its constants, as the GR3D registers hold them */
	ok = ok && gr3d_regs_program(&r->gregs, &r->fp, &inner) && tegra_fp_decode(&r->fp, &r->fpd, NULL, &inner);
	g->cfg = cfg;
	g->tl = r->o->tl;
	g->prog = &prog;
	g->unif = &r->regs.vs.unif;
	pica_env_from_config(&g->env, cfg);
	g->vunits = pica_vertex_units(cfg, gs_on);
	g->clip.clipvert_reg = vs_reg(r, TGSI_SEMANTIC_CLIPVERTEX, 0);
	g->clip.clipdist_reg[0] = vs_reg(r, TGSI_SEMANTIC_CLIPDIST, 0);
	g->clip.clipdist_reg[1] = vs_reg(r, TGSI_SEMANTIC_CLIPDIST, 1);
	g->clip.plane_enable = r->clip_plane_enable;
	memcpy(g->clip.plane, r->ucp, sizeof g->clip.plane);
	g->clip.w_epsilon = (float)cfg->clip_w_epsilon;
	g->clip.clip_cycles = (uint16_t)cfg->clip_cycles;
	g->setup.tri_cycles = (uint16_t)cfg->setup_tri_cycles;
	gr3d_draw *dr = &g->frag;
	dr->prog = &r->fpd;
	dr->cfg = cfg;
	for (int k = 0; k < TEGRA_FP_NUM_CONST; k++)
		dr->uniforms[k] = r->gregs.raw[0x820 + k] & FP20_MASK;
	for (unsigned rt = 0; ok && rt < GR3D_RTS; rt++) {
		/* RT_PTR: a colour buffer's address (the driver binds colour buffer k to RT k + 1) */
		uint32_t ptr = r->gregs.raw[GR3D_REG_RT_PTR + rt];
		unsigned k = 0;
		while (ptr && k < r->ncbufs && cbuf_addr(k) != ptr)
			k++;
		if (!ptr)
			continue;
		if (k == r->ncbufs)
			ok = ulp_diag_at(&inner, NULL, 0, 0, "RT_PTR (0x%03x) = 0x%x is no colour buffer's address",
			                 GR3D_REG_RT_PTR + rt, ptr);
		else if (rt)                          /* RT 0 is not a colour target here (RT_ENABLE bit 0) */
			dr->rt[rt] = r->cbuf[k];
		ok = ok && gr3d_regs_rt_format(&r->gregs, rt, &dr->rt_format[rt], &inner);
	}
	gr3d_regs_zs(&r->gregs, cfg->zs_late_when_kill, &dr->zs_state);
	dr->zs = r->zs;
	g->blocks = (unsigned)cfg->gr3d_instances;
	ok = ok && gr3d_regs_swath(&r->gregs, g->blocks, &g->swath_alternate, &g->swath_shift, &inner);
	if (r->o->tl)
		r->o->tl->base = r->res->cycles;      /* the draw's clock starts here */
	if (r->o->probe) {
		r->o->probe->base = r->res->cycles;
		r->o->probe->target = r->ncbufs ? r->cbuf[0] : NULL;
		dr->probe = r->o->probe;
	}
	gpu_stats *st = ok ? calloc(1, sizeof *st) : NULL;
	if (ok && !st)
		ok = ulp_diag_at(&inner, NULL, 0, 0, "out of memory");
	ok = ok && gpu_draw_run(g, st, &inner);
	if (have_prog)
		pica_program_free(&prog);
	pica_program_free(&gprog);
	const uint32_t count = g->count;
	free(g);
	free(f);
	if (ok) {
		r->res->cycles += st->cycles;
		r->res->vertex_cycles += st->vertex_cycles;
		r->res->fragment_cycles += st->fragment_cycles;
		r->res->vertices += count;
		r->res->triangles += st->triangles;
		r->res->clipped += st->clipped;
		r->res->culled += st->culled;
		r->res->fragments += st->fragments;
		add_units(r->res, st);
	}
	free(st);
	r->res->draws++;
	return ok || fail(r, i, "", inner.msg);
}

static bool draw_regs(replay *r, size_t i, bool indexed)
{
	if (r->o->draw_hook)
		r->o->draw_hook(r->o->hook_ctx, false, r->res);
	bool ok = run_draw(r, i, indexed);
	if (ok && r->o->draw_hook)
		r->o->draw_hook(r->o->hook_ctx, true, r->res);
	return ok;
}

/* ---- checkpoints ---- */

/* Render targets are stored bottom row first (window y up, hw-expected.md);
 * images are written top row first, as GL reads them back. */
static ulp_image *flipped(const ulp_image *rt, ulp_diag *d)
{
	ulp_image *img = ulp_image_create(rt->width, rt->height, d);
	if (img)
		for (uint32_t y = 0; y < rt->height; y++)
			memcpy(ulp_image_px(img, 0, rt->height - 1 - y), ulp_image_cpx(rt, 0, y),
			       (size_t)rt->width * 4);
	return img;
}

/* <dir>/<name>.depth.png: depth 0..1 as grey 0..255 (rounded), top row first. */
static bool save_depth_png(const zs_surface *zs, const char *dir, const char *name, ulp_diag *d)
{
	ulp_image *img = ulp_image_create(zs->width, zs->height, d);
	if (!img)
		return false;
	for (uint32_t y = 0; y < zs->height; y++)
		for (uint32_t x = 0; x < zs->width; x++) {
			uint8_t v = (uint8_t)lround(zs_surface_depth(zs, x, y) * 255.0);
			uint8_t *p = ulp_image_px(img, x, zs->height - 1 - y);
			p[0] = p[1] = p[2] = v;
			p[3] = 255;
		}
	char path[1024];
	snprintf(path, sizeof path, "%s/%s.depth.png", dir, name);
	bool ok = ulp_image_save_png(img, path, d);
	ulp_image_free(img);
	return ok;
}

static void check_failed(replay *r, const char *what)
{
	if (!r->res->checks_failed++)
		snprintf(r->res->first_failure, sizeof r->res->first_failure, "%s", what);
}

static bool checkpoint(replay *r, const cJSON *c, size_t i, bool last)
{
	r->res->checkpoints++;
	if (!r->ncbufs)
		return fail(r, i, "checkpoint before framebuffer", NULL);
	ulp_diag inner;
	ulp_diag_clear(&inner);
	ulp_image *img = flipped(r->cbuf[0], &inner);
	if (!img)
		return fail(r, i, inner.msg, NULL);
	const char *name = str(c, "name");
	bool ok = true;
	if (r->o->out_dir) {
		char path[1024];
		snprintf(path, sizeof path, "%s/%s.png", r->o->out_dir, name);
		ok = ulp_image_save_png(img, path, &inner);
	}
	if (ok && last && r->o->out_png)
		ok = ulp_image_save_png(img, r->o->out_png, &inner);
	if (ok && r->o->out_dir && r->zs)            /* the depth surface as grey, 0 = near, top row first */
		ok = save_depth_png(r->zs, r->o->out_dir, str(c, "name"), &inner);
	const char *expect = str(c, "expect_image");
	if (ok && expect) {
		size_t n = strlen(r->t->dir) + strlen(expect) + 2;
		char *path = malloc(n);
		ulp_image *ref = NULL;
		if (path) {
			snprintf(path, n, "%s%s%s", expect[0] == '/' ? "" : r->t->dir,
			         expect[0] == '/' || !r->t->dir[0] ? "" : "/", expect);
			ref = ulp_image_load_png(path, &inner);
		}
		free(path);
		ulp_compare_result cmp;
		ok = ref && ulp_compare_images(img, ref, (unsigned)num(c, "tolerance", 0), &cmp, NULL, &inner);
		if (ok && cmp.over_tolerance) {
			char what[256];
			snprintf(what, sizeof what, "checkpoint '%s': %llu pixels differ by more than %u (max %u)",
			         name, (unsigned long long)cmp.over_tolerance, cmp.tolerance, cmp.max_diff);
			check_failed(r, what);
		}
		ulp_image_free(ref);
	}
	const cJSON *ec = cJSON_GetObjectItemCaseSensitive(c, "expect_cycles");
	if (ok && ec) {
		double want = 0, pct = 0;
		if (cJSON_IsNumber(ec))
			want = ec->valuedouble;
		else if (sscanf(ec->valuestring, "%lf\xC2\xB1%lf", &want, &pct) != 2)
			sscanf(ec->valuestring, "%lf+-%lf", &want, &pct);
		double got = (double)r->res->cycles;
		if (fabs(got - want) > want * pct / 100.0) {
			char what[256];
			snprintf(what, sizeof what, "checkpoint '%s': %.0f cycles, expected %.0f \xC2\xB1%g%%",
			         name, got, want, pct);
			check_failed(r, what);
		}
	}
	ulp_image_free(img);
	return ok || fail(r, i, inner.msg, NULL);
}

/* ---- commands ---- */

/* ---- depth/stencil ---- */

/* The trace's depth/stencil state and the viewport's depth range into the
 * GR3D registers (sim/gr3d_regs.h); the caller flushes the stream. */
static bool program_zs(replay *r)
{
	double a = r->st.vp_translate[2] - r->st.vp_scale[2], b = r->st.vp_translate[2] + r->st.vp_scale[2];
	double lo = fmin(a, b), hi = fmax(a, b);
	lo = lo < 0 ? 0 : lo > 1 ? 1 : lo;
	hi = hi < 0 ? 0 : hi > 1 ? 1 : hi;
	r->zsa.z_min = (uint32_t)lround(lo * 0xFFFFF);      /* QR_Z_MIN/MAX: 20-bit unorm */
	r->zsa.z_max = (uint32_t)lround(hi * 0xFFFFF);
	drv_gr3d_zs(&r->stream, &r->zsa);
	return true;
}

static uint8_t enum_index(const char *v, const char *const *names, uint8_t def)
{
	for (uint8_t k = 0; v && names[k]; k++)
		if (!strcmp(v, names[k]))
			return k;
	return def;
}

static const char *const ZS_FUNCS[] = { "never", "less", "equal", "lequal", "greater", "notequal",
	"gequal", "always", NULL };
static const char *const ZS_OPS[] = { "keep", "zero", "replace", "incr", "decr", "invert", NULL };

static bool depth_stencil_alpha(replay *r, const cJSON *c, size_t i)
{
	const cJSON *dep = cJSON_GetObjectItemCaseSensitive(c, "depth");
	const cJSON *sten = cJSON_GetObjectItemCaseSensitive(c, "stencil");
	zs_state *st = &r->zsa;
	st->z_enable = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(dep, "enabled"));
	const cJSON *wm = cJSON_GetObjectItemCaseSensitive(dep, "writemask");
	st->z_write = st->z_enable && (!wm || cJSON_IsTrue(wm));     /* Gallium: writes only when enabled */
	st->z_func = enum_index(str(dep, "func"), ZS_FUNCS, ZS_LESS);
	st->s_enable = sten && cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(sten, "enabled"));
	/* stencil: both faces; stencil_back (two-sided stencil) for the back faces */
	const cJSON *back = cJSON_GetObjectItemCaseSensitive(c, "stencil_back");
	for (int k = 0; k < 2; k++) {
		const cJSON *sf = k && back ? back : sten;
		zs_face *f = &st->face[k];
		f->func = enum_index(str(sf, "func"), ZS_FUNCS, ZS_ALWAYS);
		f->ref = (uint8_t)num(sf, "ref", 0);
		f->valuemask = (uint8_t)num(sf, "valuemask", 255);
		f->writemask = (uint8_t)num(sf, "writemask", 255);
		f->fail_op = enum_index(str(sf, "fail_op"), ZS_OPS, ZS_KEEP);
		f->zfail_op = enum_index(str(sf, "zfail_op"), ZS_OPS, ZS_KEEP);
		f->zpass_op = enum_index(str(sf, "zpass_op"), ZS_OPS, ZS_KEEP);
	}
	size_t from = r->stream.n;
	return program_zs(r) && flush_stream(r, from, i);
}

static bool framebuffer(replay *r, const cJSON *c, size_t i)
{
	for (unsigned k = 0; k < r->ncbufs; k++)
		ulp_image_free(r->cbuf[k]);
	r->ncbufs = 0;
	r->width = (uint32_t)num(c, "width", 1);
	r->height = (uint32_t)num(c, "height", 1);
	const cJSON *cb = cJSON_GetObjectItemCaseSensitive(c, "cbufs");
	size_t from = r->stream.n;
	for (const cJSON *it = cb ? cb->child : NULL; it && r->ncbufs < MAX_CBUFS; it = it->next) {
		uint8_t fmt;
		unsigned bpp;
		if (!replay_cbuf_format(str(it, "format"), &fmt, &bpp))
			return fail(r, i, "not a colour-buffer format: ", str(it, "format"));
		ulp_diag inner;
		ulp_diag_clear(&inner);
		if (!(r->cbuf[r->ncbufs] = ulp_image_create(r->width, r->height, &inner)))
			return fail(r, i, inner.msg, NULL);
		r->cbuf_fmt[r->ncbufs] = fmt;
		uint8_t b[4] = { 0, 0, 0, 0 };
		replay_cbuf_view(r->o->cfg, fmt, b);
		ulp_image_fill(r->cbuf[r->ncbufs], b[0], b[1], b[2], b[3]);
		drv_gr3d_rt_params(&r->stream, r->ncbufs + 1, fmt, r->width * bpp);
		reg_stream_gr3d(&r->stream, (uint16_t)(GR3D_REG_RT_PTR + r->ncbufs + 1), cbuf_addr(r->ncbufs));
		r->ncbufs++;
	}
	ulp_diag sw;                              /* Tegra 3: broadcast writes, the swath split */
	ulp_diag_clear(&sw);
	if (!drv_gr3d_swath(&r->stream, (unsigned)r->o->cfg->gr3d_instances,
	                    (unsigned)r->o->cfg->gr3d_swath_height, &sw))
		return fail(r, i, sw.msg, NULL);
	for (unsigned k = r->ncbufs; k < MAX_CBUFS; k++)
		reg_stream_gr3d(&r->stream, (uint16_t)(GR3D_REG_RT_PTR + k + 1), 0);   /* unbound */
	const double vp[3] = { r->width / 2.0, r->height / 2.0, 0.5 };   /* the default viewport */
	replay_state_viewport(&r->st, &r->stream, vp, vp);
	if (!flush_stream(r, from, i))
		return false;
	const cJSON *zb = cJSON_GetObjectItemCaseSensitive(c, "zsbuf");
	bool had = r->zs != NULL;
	zs_surface_free(r->zs);
	r->zs = NULL;
	if (zb) {
		ulp_diag inner;
		ulp_diag_clear(&inner);
		r->zs = zs_surface_create(r->width, r->height, strcmp(str(zb, "format"), "D16") ? ZS_D24S8 : ZS_D16,
		                          &inner);
		if (!r->zs)
			return fail(r, i, inner.msg, NULL);
	}
	if (!zb && !had)
		return true;
	from = r->stream.n;
	drv_gr3d_rt_enable(&r->stream, r->ncbufs, zb != NULL);
	return program_zs(r) && flush_stream(r, from, i);
}

static bool vertex_elements(replay *r, const cJSON *c, size_t i)
{
	size_t from = r->stream.n;
	ulp_diag inner;
	ulp_diag_clear(&inner);
	if (!replay_state_vertex_elements(&r->st, &r->stream, c, &inner))
		return fail(r, i, inner.msg, NULL);
	return flush_stream(r, from, i);
}

static bool sampler_view(replay *r, const cJSON *c, size_t i)
{
	unsigned idx = (unsigned)num(c, "index", 0) % GR3D_SAMPLERS;
	size_t from = r->stream.n;
	replay_state_sampler_view(&r->st, &r->stream, c);
	replay_view_swizzle(str(c, "swizzle"), r->view_swz[idx]);
	return flush_stream(r, from, i);
}

static bool sampler(replay *r, const cJSON *c, size_t i)
{
	unsigned idx = (unsigned)num(c, "index", 0) % GR3D_SAMPLERS;
	size_t from = r->stream.n;
	replay_state_sampler(&r->st, &r->stream, c, &r->shadow_cmp[idx]);
	return flush_stream(r, from, i);
}

static bool rasterizer(replay *r, const cJSON *c, size_t i)
{
	const char *cull = str(c, "cull");
	r->cull = !cull || !strcmp(cull, "none") ? SETUP_CULL_NONE
	        : !strcmp(cull, "front") ? SETUP_CULL_FRONT : SETUP_CULL_BACK;
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(c, "front_ccw");
	r->front_ccw = !v || cJSON_IsTrue(v);
	r->two_side = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c, "two_side"));
	r->flatshade = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c, "flatshade"));
	r->clip_plane_enable = (uint8_t)num(c, "clip_plane_enable", 0);
	size_t from = r->stream.n;
	replay_state_scissor_enable(&r->st, &r->stream, cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c, "scissor")));
	return flush_stream(r, from, i);
}

/* Gallium's clip_state: user planes k = 0.. as a, b, c, d in a flat list. */
static bool clip_planes(replay *r, const cJSON *c)
{
	memset(r->ucp, 0, sizeof r->ucp);
	const cJSON *pl = cJSON_GetObjectItemCaseSensitive(c, "planes");
	unsigned k = 0;
	for (const cJSON *x = pl ? pl->child : NULL; x && k < 4 * CLIP_PLANES; x = x->next, k++)
		r->ucp[k / 4][k % 4] = (float)x->valuedouble;
	return true;
}

/* bind_shaders.gs (sim/replay_gs.c): with a GS its outputs are what the
 * clipper and the linker see; without one the geometry stage is turned off. */
static bool bind_gs(replay *r, const cJSON *c, size_t i)
{
	const char *id = str(c, "gs");
	size_t from = r->stream.n;
	if (!id) {
		replay_gs_unbind(&r->gs, &r->stream);
		return flush_stream(r, from, i);
	}
	replay_stage_io vs = { .tgsi = r->vs_tgsi, .pos_reg = r->pos_reg, .ntram = r->ntram };
	memcpy(vs.sem, r->vs_sem, sizeof vs.sem);
	memcpy(vs.sem_index, r->vs_sem_index, sizeof vs.sem_index);
	if (!replay_gs_bind(&r->gs, trace_find_shader(r->t, id), &vs, (uint16_t)r->regs.vs.raw[0x0D], &r->stream,
	                    r->t->path, i, r->d))
		return false;
	const replay_stage_io *o = &r->gs.out;
	r->vs_tgsi = o->tgsi;
	memcpy(r->vs_sem, o->sem, sizeof r->vs_sem);
	memcpy(r->vs_sem_index, o->sem_index, sizeof r->vs_sem_index);
	r->pos_reg = o->pos_reg;
	memcpy(r->tram_reg, o->tram_reg, sizeof r->tram_reg);
	r->ntram = o->ntram;
	return flush_stream(r, from, i);
}

/* Colour buffer 0 changed outside a draw: the probe's snapshot. */
static void probe_snapshot(const replay *r)
{
	if (r->o->probe && r->o->probe->snapshot && r->ncbufs)
		r->o->probe->snapshot(r->o->probe->ctx, r->res->cycles, r->cbuf[0]);
}

static bool command(replay *r, const cJSON *c, size_t i, bool last_checkpoint)
{
	const char *cmd = str(c, "cmd");
	if (!strcmp(cmd, "framebuffer")) {
		bool ok = framebuffer(r, c, i);
		probe_snapshot(r);
		return ok;
	}
	if (!strcmp(cmd, "bind_shaders"))
		return bind_vs(r, trace_find_shader(r->t, str(c, "vs")), i) && bind_gs(r, c, i) &&
		       bind_fs(r, trace_find_shader(r->t, str(c, "fs")), i);
	if (!strcmp(cmd, "vertex_elements"))
		return vertex_elements(r, c, i);
	if (!strcmp(cmd, "viewport")) {
		double sc[3], tr[3];
		for (int k = 0; k < 3; k++) {
			sc[k] = cJSON_GetArrayItem(cJSON_GetObjectItem(c, "scale"), k)->valuedouble;
			tr[k] = cJSON_GetArrayItem(cJSON_GetObjectItem(c, "translate"), k)->valuedouble;
		}
		size_t from = r->stream.n;
		replay_state_viewport(&r->st, &r->stream, sc, tr);
		if (r->zs || zs_active(&r->zsa))
			program_zs(r);                                /* the depth range: QR_Z_MIN/MAX */
		return flush_stream(r, from, i);
	}
	if (!strcmp(cmd, "constant_buffer")) {
		const char *stage = str(c, "stage");
		const cJSON *f = cJSON_GetObjectItemCaseSensitive(c, "f32");
		if (!f)
			return fail(r, i, "constant buffers from a buffer resource are not in this build yet", NULL);
		unsigned n = (unsigned)cJSON_GetArraySize(f) / 4;
		const bool gs = strcmp(stage, "geometry") == 0;      /* the GS register block */
		if (strcmp(stage, "vertex") == 0 || gs) {
			if (n > 96)
				return fail(r, i, "more than 96 vec4 constants", NULL);
			float (*v)[4] = calloc(n ? n : 1, sizeof *v);
			if (!v)
				return fail(r, i, "out of memory", NULL);
			unsigned k = 0;
			for (const cJSON *x = f->child; x && k < 4 * n; x = x->next, k++)
				v[k / 4][k % 4] = (float)x->valuedouble;
			size_t from = r->stream.n;
			drv_pica_float_uniforms(&r->stream, gs, 0, (const float (*)[4])v, n);
			free(v);
			return flush_stream(r, from, i);
		}
		if (strcmp(stage, "fragment") == 0) {
			/* FP_CONST u0..u31: one FP20 word each (grate's host truncates), u_k
			 * = float fs_usrc[k] of the buffer (the bound program's layout) */
			size_t from = r->stream.n;
			int nf = cJSON_GetArraySize(f);
			for (unsigned k = 0; k < TEGRA_FP_NUM_CONST; k++) {
				int src = r->fs_usrc[k];
				if (src < 0 || src >= nf)
					continue;
				const cJSON *x = cJSON_GetArrayItem(f, src);
				reg_stream_gr3d(&r->stream, (uint16_t)(0x820 + k),
				                fp20_encode((float)x->valuedouble, ULP_ROUND_TRUNCATE));
			}
			return flush_stream(r, from, i);
		}
		return fail(r, i, "unknown constant_buffer stage ", stage);
	}
	if (!strcmp(cmd, "clear")) {
		const cJSON *col = cJSON_GetObjectItemCaseSensitive(c, "color");
		if (col) {
			uint8_t b[4];
			for (int k = 0; k < 4; k++)
				b[k] = (uint8_t)lround(cJSON_GetArrayItem(col, k)->valuedouble * 255.0);
			for (unsigned k = 0; k < r->ncbufs; k++) {
				uint8_t v[4] = { b[0], b[1], b[2], b[3] };
				replay_cbuf_view(r->o->cfg, r->cbuf_fmt[k], v);
				ulp_image_fill(r->cbuf[k], v[0], v[1], v[2], v[3]);
			}
			probe_snapshot(r);
		}
		const cJSON *cd = cJSON_GetObjectItemCaseSensitive(c, "depth");
		const cJSON *cs = cJSON_GetObjectItemCaseSensitive(c, "stencil");
		if (r->zs && (cd || cs))
			zs_surface_clear(r->zs, cd != NULL, cd ? cd->valuedouble : 1.0, cs != NULL,
			                 cs ? (uint8_t)cs->valueint : 0);
		return true;
	}
	if (!strcmp(cmd, "draw"))
		return draw(r, c, i);
	if (!strcmp(cmd, "checkpoint"))
		return checkpoint(r, c, i, last_checkpoint);
	if (!strcmp(cmd, "sampler"))
		return sampler(r, c, i);
	if (!strcmp(cmd, "rasterizer"))
		return rasterizer(r, c, i);
	if (!strcmp(cmd, "clip"))
		return clip_planes(r, c);
	if (!strcmp(cmd, "scissor")) {
		size_t from = r->stream.n;
		replay_state_scissor(&r->st, &r->stream, c);
		return flush_stream(r, from, i);
	}
	if (!strcmp(cmd, "sampler_view"))
		return sampler_view(r, c, i);
	if (!strcmp(cmd, "blend")) {   /* compiled into the fragment program at the next draw */
		replay_blend_state(c, &r->blend);
		return true;
	}
	if (!strcmp(cmd, "depth_stencil_alpha"))
		return depth_stencil_alpha(r, c, i);
	if (!strcmp(cmd, "registers")) {
		const cJSON *pica = cJSON_GetObjectItemCaseSensitive(c, "pica");
		const cJSON *gr3d = cJSON_GetObjectItemCaseSensitive(c, "gr3d");
		size_t from = r->stream.n;
		for (const cJSON *w = pica ? pica->child : NULL; w; w = w->next)
			reg_stream_pica(&r->stream, (uint16_t)cJSON_GetArrayItem(w, 0)->valuedouble,
			                (uint8_t)cJSON_GetArrayItem(w, 1)->valuedouble,
			                (uint32_t)cJSON_GetArrayItem(w, 2)->valuedouble);
		for (const cJSON *w = gr3d ? gr3d->child : NULL; w; w = w->next)
			reg_stream_gr3d(&r->stream, (uint16_t)cJSON_GetArrayItem(w, 0)->valuedouble,
			                (uint32_t)cJSON_GetArrayItem(w, 1)->valuedouble);
		r->have_fs |= gr3d != NULL;       /* a captured stream may load the program itself */
		return flush_stream(r, from, i);
	}
	return fail(r, i, "unknown command ", cmd);
}

bool replay_run(const trace *t, const replay_opts *o, replay_result *res, ulp_diag *d)
{
	replay *r = calloc(1, sizeof *r);
	if (!r)
		return ulp_diag_at(d, t->path, 0, 0, "out of memory");
	memset(res, 0, sizeof *res);
	r->t = t;
	r->o = o;
	r->res = res;
	r->d = d;
	for (unsigned k = 0; k < TEGRA_FP_NUM_CONST; k++)
		r->fs_usrc[k] = (int16_t)k;   /* identity until a compiled program says otherwise */
	reg_stream_init(&r->stream);
	if (!replay_state_init(&r->st, t, d)) {
		free(r);
		return false;
	}
	pica_regs_init(&r->regs, o->cfg);
	gr3d_regs_init(&r->gregs);
	r->zsa.face[0].func = r->zsa.face[1].func = ZS_ALWAYS;
	r->zsa.face[0].valuemask = r->zsa.face[1].valuemask = 0xFF;
	r->zsa.face[0].writemask = r->zsa.face[1].writemask = 0xFF;
	r->zsa.z_func = ZS_LESS;
	r->front_ccw = true;
	replay_blend_default(&r->blend);
	r->fs_blend = r->blend;
	bool uses_zs = false, uses_gs;                  /* a trace with depth/stencil has a "zs" unit */
	const unsigned vunits = replay_gs_vertex_units(t, o->cfg, &uses_gs);   /* "gsh" takes vsh3 */
	for (size_t k = 0; k < t->ncmd && !uses_zs; k++)
		uses_zs = cJSON_GetObjectItemCaseSensitive(t->cmd[k], "zsbuf") ||
		          !strcmp(str(t->cmd[k], "cmd"), "depth_stencil_alpha");
	/* every unit of the pipeline (sim/gpu.h), producers first */
	for (unsigned k = 0; k < GPU_NUNIT_NAMES && res->nunits < REPLAY_MAX_UNITS; k++) {
		if ((k < 1 || k > 4 || k - 1 < vunits) && (uses_gs || strcmp(GPU_UNITS[k].name, "gsh")))
			sim_unit_init(&res->unit[res->nunits++], GPU_UNITS[k].name, NULL, GPU_UNITS[k].counters,
			              GPU_UNITS[k].ncounters);
		if (uses_zs && !strcmp(GPU_UNITS[k].name, "raster"))
			zs_unit_stats(res, "zs");
	}
	for (unsigned k = 0; o->cfg->gr3d_instances > 1 && k < GPU_NUNIT_NAMES_B; k++) {   /* GR3D block B */
		if (res->nunits < REPLAY_MAX_UNITS)
			sim_unit_init(&res->unit[res->nunits++], GPU_UNITS_B[k].name, NULL, GPU_UNITS_B[k].counters,
			              GPU_UNITS_B[k].ncounters);
		if (uses_zs && k == 0)
			zs_unit_stats(res, "zs_b");
	}
	size_t last = SIZE_MAX;
	for (size_t i = 0; i < t->ncmd; i++)
		if (!strcmp(str(t->cmd[i], "cmd"), "checkpoint"))
			last = i;
	bool ok = true;
	for (size_t i = 0; ok && i < t->ncmd; i++) {
		ok = command(r, t->cmd[i], i, i == last);
		if (o->progress)
			o->progress(o->progress_ctx, i + 1, t->ncmd, res->cycles);
	}
	if (ok && o->keep_image && r->ncbufs)
		res->image = flipped(r->cbuf[0], d);
	if (ok && o->keep_depth && r->zs) {
		res->depth = malloc(sizeof *res->depth * r->zs->width * r->zs->height);
		for (uint32_t y = 0; res->depth && y < r->zs->height; y++)
			for (uint32_t x = 0; x < r->zs->width; x++)
				res->depth[(size_t)y * r->zs->width + x] = (float)zs_surface_depth(r->zs, x, y);
	}
	zs_surface_free(r->zs);
	if (r->have_vs)
		shbin_free(&r->vs_shbin);
	replay_gs_free(&r->gs);
	for (unsigned k = 0; k < r->ncbufs; k++)
		ulp_image_free(r->cbuf[k]);
	replay_state_free(&r->st);
	reg_stream_free(&r->stream);
	free(r);
	return ok;
}
