/* Trace replay: bind_shaders (replay_int.h). */
#include "traces/replay/replay_int.h"

#include <stdlib.h>

#include "isa/tegra/tegra_disasm.h"

/* Fails command i with "prefix" and inner's whole text: a shader's
 * file:line:col stays in the message after the JSON path. */
static bool fail_at(replay *r, size_t i, const char *prefix, const ulp_diag *inner)
{
	char m[ULP_DIAG_MSG_MAX];
	ulp_diag_format(inner, m, sizeof m);
	return replay_fail(r, i, prefix, m);
}

/* The one way a TGSI fragment shader becomes a Tegra program (the replay's
 * binding, its variants, trace check): blend (NULL or a no-op: none) lowered
 * into it, then compiled with opts.  False with d (its file:line:col). */
static bool replay_compile_fs_tgsi(tgsi_shader *sh, const char *name, const tegra_compile_opts *opts,
                            const tgsi_blend_state *blend, tegra_compile_result *tr, ulp_diag *d)
{
	tgsi_shader *bl = !blend || tgsi_blend_is_noop(blend) ? NULL : tgsi_blend_lower(sh, blend, name, d);
	if (blend && !tgsi_blend_is_noop(blend) && !bl) {
		char why[ULP_DIAG_MSG_MAX];
		ulp_diag_format(d, why, sizeof why);
		ulp_diag_clear(d);
		return ulp_diag_at(d, NULL, 0, 0, "blending: %s", why);
	}
	bool ok = tegra_compile_with(bl ? bl : sh, name, opts, tr);
	tgsi_shader_free(bl);
	if (!ok)
		*d = tr->d;
	return ok;
}

/* The grate text of the fragment program just bound, for opts.fs_hook. */
static void keep_grate(replay *r, const trace_shader *s, const char *compiled)
{
	free(r->fs_grate);
	r->fs_grate = NULL;
	if (!r->o->fs_hook)
		return;
	ulp_diag d;
	ulp_diag_clear(&d);
	if (compiled)
		r->fs_grate = strdup(compiled);
	else if (s->code == TRACE_GRATE)
		r->fs_grate = strdup(s->text);
	else
		r->fs_grate = tegra_disasm(&r->fp, 0, s->path, &d);
}

bool replay_bind_vs(replay *r, const trace_shader *s, size_t i)
{
	if (r->have_vs)
		shbin_free(&r->vs_shbin);
	r->have_vs = false;
	memset(&r->vs_ximm, 0, sizeof r->vs_ximm);
	ulp_diag inner;
	ulp_diag_clear(&inner);
	if (s->code == TRACE_TGSI) {
		tgsi_shader *sh = tgsi_parse(s->text, strlen(s->text), s->path ? s->path : s->id, NULL, &inner);
		if (!sh)
			return fail_at(r, i, "", &inner);
		for (int k = 0; k < 16; k++)
			r->vs_sem[k] = -1;
		char why[ULP_DIAG_MSG_MAX];
		const bool ok = replay_compile_pica_x(sh, s->path ? s->path : s->id, &r->vs_shbin, r->vs_sem,
		                                      r->vs_sem_index, &r->vs_ximm, why, sizeof why);
		r->vs_tgsi = ok;
		tgsi_shader_free(sh);
		if (!ok)
			return replay_fail(r, i, "the vertex shader cannot be compiled for the PICA200: ", why);
	} else if (s->code == TRACE_SHBIN) {
		r->vs_tgsi = false;
		if (!shbin_load(s->path, &r->vs_shbin, &inner))
			return fail_at(r, i, "", &inner);
	} else {
		return replay_fail(r, i, "a vertex shader is TGSI or an SHBIN", NULL);
	}
	r->have_vs = true;
	if (s->dvle >= r->vs_shbin.ndvle || r->vs_shbin.dvle[s->dvle].type != SHBIN_VS)
		return replay_fail(r, i, "the shader's DVLE is not a vertex shader", NULL);
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
		return replay_fail(r, i, "the vertex shader writes no position", NULL);
	r->ntram = 0;
	for (unsigned reg = 0; reg < 16; reg++)
		if ((regs & (1u << reg)) && reg != r->pos_reg && r->ntram < GR3D_TRAM_ROWS)
			r->tram_reg[r->ntram++] = (uint8_t)reg;
	size_t from = r->stream.n;
	if (!drv_pica_load_shader(&r->stream, &r->vs_shbin, s->dvle, &inner))
		return fail_at(r, i, "", &inner);
	for (unsigned k = 0; k < PICA_NUM_C && r->o->cfg->arith == ULP_ARITH_EXACT; k++)
		if (r->vs_ximm.has[k])   /* arith=exact: the immediates as binary32 (32-bit uploads) */
			drv_pica_float_uniforms(&r->stream, false, k, (const float (*)[4])&r->vs_ximm.v[k], 1);
	return replay_flush(r, from, i);
}

bool replay_bind_fs(replay *r, const trace_shader *s, size_t i)
{
	r->have_fs = false;
	for (unsigned k = 0; k < TEGRA_FP_NUM_CONST; k++)
		r->fs_usrc[k] = (int16_t)k;
	ulp_diag inner;
	ulp_diag_clear(&inner);
	bool ok;
	r->fs_tgsi = false;
	memset(&r->fs_ximm, 0, sizeof r->fs_ximm);
	if (s->code == TRACE_TGSI) {
		const char *name = s->path ? s->path : s->id;
		tgsi_shader *sh = tgsi_parse(s->text, strlen(s->text), name, NULL, &inner);
		if (!sh)
			return fail_at(r, i, "", &inner);
		tegra_compile_result *tr = calloc(1, sizeof *tr);
		memcpy(r->fs_opts.shadow_compare, r->shadow_cmp, sizeof r->fs_opts.shadow_compare);
		memcpy(r->fs_opts.swizzle, r->view_swz, sizeof r->fs_opts.swizzle);
		r->fs_src = s;
		r->fs_blend = r->blend;
		if (!tr)
			ulp_diag_at(&inner, NULL, 0, 0, "out of memory");
		ok = tr && replay_compile_fs_tgsi(sh, name, &r->fs_opts, &r->blend, tr, &inner);
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
			fail_at(r, i, "the fragment shader cannot be compiled for the Tegra: ", &inner);
			if (tr)
				tegra_compile_result_free(tr);
			free(tr);
			return false;
		}
		r->fp = tr->prog;
		keep_grate(r, s, tr->asm_text);
		memcpy(r->fs_usrc, tr->uniform_src, sizeof r->fs_usrc);   /* the compiler's uniform layout */
		r->fs_ximm = tr->ximm;                                      /* arith=exact's immediates */
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
		return fail_at(r, i, "", &inner);
	if (s->code != TRACE_TGSI)
		keep_grate(r, s, NULL);
	r->have_fs = true;
	size_t from = r->stream.n;
	drv_gr3d_load_program(&r->stream, &r->fp, r->fp.constants);
	for (unsigned k = 0; k < TEGRA_FP_NUM_CONST; k++)
		if (r->fs_ximm.umask >> k & 1u) {   /* arith=exact: the program's constants' binary32 */
			r->fs_f32[k] = r->fs_ximm.uk[k];
			r->fs_f32_word[k] = r->fp.constants[k];
			r->fs_f32_mask |= 1u << k;
		}
	return replay_flush(r, from, i);
}

/* bind_shaders.gs (traces/replay/replay_gs.c): with a GS its outputs are what the
 * clipper and the linker see; without one the geometry stage is turned off. */
bool replay_bind_gs(replay *r, const cJSON *c, size_t i)
{
	const char *id = rp_str(c, "gs");
	size_t from = r->stream.n;
	if (!id) {
		replay_gs_unbind(&r->gs, &r->stream);
		return replay_flush(r, from, i);
	}
	replay_stage_io vs = { .tgsi = r->vs_tgsi, .pos_reg = r->pos_reg, .ntram = r->ntram };
	memcpy(vs.sem, r->vs_sem, sizeof vs.sem);
	memcpy(vs.sem_index, r->vs_sem_index, sizeof vs.sem_index);
	if (!replay_gs_bind(&r->gs, trace_find_shader(r->t, id), &vs,
	                    (uint16_t)r->regs.vs.raw[PICA_SH_OUTMAP_MASK], &r->stream,
	                    r->t->path, i, r->d))
		return false;
	const replay_stage_io *o = &r->gs.out;
	r->vs_tgsi = o->tgsi;
	memcpy(r->vs_sem, o->sem, sizeof r->vs_sem);
	memcpy(r->vs_sem_index, o->sem_index, sizeof r->vs_sem_index);
	r->pos_reg = o->pos_reg;
	memcpy(r->tram_reg, o->tram_reg, sizeof r->tram_reg);
	r->ntram = o->ntram;
	return replay_flush(r, from, i);
}

/* Recompiles a TGSI fragment shader whose samplers' compare functions or
 * views' swizzles changed since it was compiled, keeping the FP_CONST words the trace wrote
 * (those that differ from the old program's own constants). */
bool replay_fs_variant(replay *r, size_t i)
{
	if (!r->fs_tgsi || !r->fs_src) {
		if (!tgsi_blend_is_noop(&r->blend))
			return replay_fail(r, i, "blending needs a TGSI fragment shader (the driver compiles the blend "
			                  "into the program; a grate, words or .fp program blends itself)", NULL);
		for (unsigned k = 0; k < GR3D_SAMPLERS; k++)
			for (unsigned ch = 0; ch < 4; ch++)
				if (r->view_swz[k][ch] && r->view_swz[k][ch] != TEGRA_SWZ_R + ch)
					return replay_fail(r, i, "a sampler_view swizzle needs a TGSI fragment shader (the driver "
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
		user[k] = r->gregs.raw[GR3D_REG_AT(FP_CONST, k)];
		written[k] = user[k] != r->fp.constants[k];
	}
	if (!replay_bind_fs(r, r->fs_src, i))
		return false;
	size_t from = r->stream.n;
	for (int k = 0; k < TEGRA_FP_NUM_CONST; k++)
		if (written[k])
			reg_stream_gr3d(&r->stream, (uint16_t)GR3D_REG_AT(FP_CONST, k), user[k]);
	return replay_flush(r, from, i);
}

/* ---- trace check: every shader the trace names, compiled ---- */

static bool check_one(const trace_shader *s, ulp_diag *d)
{
	const char *name = s->path ? s->path : s->id;
	switch (s->code) {
	case TRACE_TGSI: {
		tgsi_shader *sh = tgsi_parse(s->text, strlen(s->text), name, NULL, d);
		if (!sh)
			return false;
		bool ok;
		if (s->stage == TRACE_FRAGMENT) {
			tegra_compile_result *tr = calloc(1, sizeof *tr);
			tegra_compile_opts opts;
			memset(&opts, 0, sizeof opts);
			ok = tr ? replay_compile_fs_tgsi(sh, name, &opts, NULL, tr, d) : ulp_diag_at(d, NULL, 0, 0, "out of memory");
			if (tr)
				tegra_compile_result_free(tr);
			free(tr);
		} else {
			struct shbin bin;
			int16_t sem[16];
			uint32_t sem_index[16];
			char why[ULP_DIAG_MSG_MAX];
			ok = replay_compile_pica(sh, name, &bin, sem, sem_index, why, sizeof why);
			if (ok)
				shbin_free(&bin);
			else
				ulp_diag_at(d, NULL, 0, 0, "%s", why);
		}
		tgsi_shader_free(sh);
		return ok;
	}
	case TRACE_SHBIN: {
		struct shbin bin;
		if (!shbin_load(s->path, &bin, d))
			return false;
		bool ok = s->dvle < bin.ndvle ||
		          ulp_diag_at(d, NULL, 0, 0, "dvle %u: the SHBIN has %zu", s->dvle, (size_t)bin.ndvle);
		shbin_free(&bin);
		return ok;
	}
	case TRACE_GRATE: {
		tegra_fp_program fp;
		return tegra_asm_assemble(s->text, strlen(s->text), name, &fp, d);
	}
	default: {
		size_t len;
		tegra_fp_program fp;
		char *buf = ulp_read_file(s->path, &len, d);
		bool ok = buf && tegra_fp_load_buffer(buf, len, s->path, &fp, d);
		free(buf);
		return ok;
	}
	}
}

bool replay_check_shaders(const trace *t, ulp_diag *d)
{
	for (size_t k = 0; k < t->nsh; k++) {
		ulp_diag inner;
		ulp_diag_clear(&inner);
		if (!check_one(&t->sh[k], &inner)) {
			char m[ULP_DIAG_MSG_MAX];
			ulp_diag_format(&inner, m, sizeof m);
			return ulp_diag_at(d, t->path, 0, 0, "$.shaders.%s: %s", t->sh[k].id, m);
		}
	}
	return true;
}
