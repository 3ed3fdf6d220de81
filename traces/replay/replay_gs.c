/* Geometry shaders in a trace replay (replay_gs.h). */
#include "traces/replay/replay_gs.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "frontends/pica/pica_compile.h"
#include "frontends/tgsi/tgsi.h"
#include "traces/replay/driver_pica.h"

static bool gs_fail(ulp_diag *d, const char *trace_path, size_t cmd, const char *fmt, ...)
{
	char msg[ULP_DIAG_MSG_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return ulp_diag_at(d, trace_path, 0, 0, "$.commands[%zu].gs: %s", cmd, msg);
}

void replay_gs_free(replay_gs *g)
{
	if (g->bound)
		shbin_free(&g->shbin);
	g->bound = false;
}

bool replay_compile_pica(struct tgsi_shader *sh, const char *name, struct shbin *out, int16_t sem[16],
                         uint32_t sem_index[16], char *why, size_t whylen)
{
	return replay_compile_pica_x(sh, name, out, sem, sem_index, NULL, why, whylen);
}

bool replay_compile_pica_x(struct tgsi_shader *sh, const char *name, struct shbin *out, int16_t sem[16],
                           uint32_t sem_index[16], replay_pica_ximm *x, char *why, size_t whylen)
{
	pica_compile_result *cr = calloc(1, sizeof *cr);
	if (!cr || !pica_compile(sh, name, NULL, cr)) {
		if (cr)
			ulp_diag_format(&cr->d, why, whylen);      /* the shader's file:line:col too */
		else
			snprintf(why, whylen, "out of memory");
		if (cr)
			pica_compile_result_free(cr);
		free(cr);
		return false;
	}
	pica_compile_output_semantics(cr, sh, sem, sem_index);
	if (x) {
		memcpy(x->has, cr->ximm_has, sizeof x->has);
		memcpy(x->v, cr->ximm, sizeof x->v);
	}
	*out = cr->shbin;                     /* take the SHBIN */
	memset(&cr->shbin, 0, sizeof cr->shbin);
	cr->have_shbin = false;
	pica_compile_result_free(cr);
	free(cr);
	return true;
}

static const char *const STAGE[] = { "vertex", "geometry", "fragment" };

typedef struct gs_inputs {
	int16_t sem[16];
	uint32_t index[16];
	unsigned n;
} gs_inputs;

/* Compiles a TGSI GEOM shader; its output semantics into io, its declared
 * inputs (per vertex) into in. */
static bool compile_tgsi(replay_gs *g, const trace_shader *s, gs_inputs *in, const char *tp, size_t cmd,
                         ulp_diag *d)
{
	const char *name = s->path ? s->path : s->id;
	ulp_diag inner;
	ulp_diag_clear(&inner);
	tgsi_shader *sh = tgsi_parse(s->text, strlen(s->text), name, NULL, &inner);
	char where[ULP_DIAG_MSG_MAX];
	ulp_diag_format(&inner, where, sizeof where);
	if (!sh)
		return gs_fail(d, tp, cmd, "%s", where);
	if (sh->processor != TGSI_PROCESSOR_GEOMETRY) {
		gs_fail(d, tp, cmd, "shader '%s' is a %s shader in TGSI, not GEOM", s->id,
		        tgsi_processor_name(sh->processor));
		tgsi_shader_free(sh);
		return false;
	}
	for (size_t k = 0; k < sh->num_props; k++)
		if (sh->props[k].name == TGSI_PROPERTY_GS_INPUT_PRIM)
			g->in_prim = (int)sh->props[k].value;
	memset(in, 0, sizeof *in);
	for (int k = 0; k < 16; k++)
		in->sem[k] = -1;
	for (size_t dcl = 0; dcl < sh->num_decls; dcl++) {
		const tgsi_declaration *de = &sh->decls[dcl];
		if (de->file != TGSI_FILE_INPUT)
			continue;
		for (uint32_t k = de->first; k <= de->last && k < 16; k++) {
			in->sem[k] = de->semantic ? de->semantic_name : -1;
			in->index[k] = de->semantic_index + (k - de->first);
			if (k + 1 > in->n)
				in->n = k + 1;
		}
	}
	char why[ULP_DIAG_MSG_MAX];
	const bool ok = replay_compile_pica(sh, name, &g->shbin, g->out.sem, g->out.sem_index, why, sizeof why);
	tgsi_shader_free(sh);
	if (!ok)
		return gs_fail(d, tp, cmd, "the geometry shader cannot be compiled for the PICA200: %s", why);
	g->bound = true;
	g->out.tgsi = true;
	return true;
}

/* The GS input buffer takes the VS's enabled output registers in register
 * order: a compiled GS must declare exactly those, with the same semantics. */
static bool check_inputs(const gs_inputs *in, const replay_stage_io *vs, uint16_t vs_mask, const char *tp,
                         size_t cmd, ulp_diag *d)
{
	unsigned stride = (unsigned)__builtin_popcount(vs_mask);
	if (in->n != stride)
		return gs_fail(d, tp, cmd, "the geometry shader declares %u inputs per vertex, the vertex shader "
		               "writes %u output registers (the GS input buffer takes them in register order)",
		               in->n, stride);
	unsigned k = 0;
	for (unsigned r = 0; r < 16 && vs->tgsi; r++) {
		if (!(vs_mask & (1u << r)))
			continue;
		if (in->sem[k] >= 0 && (vs->sem[r] != in->sem[k] || vs->sem_index[r] != in->index[k]))
			return gs_fail(d, tp, cmd, "geometry input IN[][%u] is %s[%u], but the vertex shader's "
			               "output register %u (attribute %u of the GS input buffer) is %s[%u]", k,
			               tgsi_semantic_name((unsigned)in->sem[k]), in->index[k], r, k,
			               vs->sem[r] >= 0 ? tgsi_semantic_name((unsigned)vs->sem[r]) : "none",
			               vs->sem_index[r]);
		k++;
	}
	return true;
}

bool replay_gs_bind(replay_gs *g, const trace_shader *s, const replay_stage_io *vs, uint16_t vs_mask,
                    reg_stream *st, const char *tp, size_t cmd, ulp_diag *d)
{
	replay_gs_free(g);
	memset(&g->out, 0, sizeof g->out);
	for (int k = 0; k < 16; k++)
		g->out.sem[k] = -1;
	g->in_prim = -1;
	if (s->stage != TRACE_GEOMETRY)
		return gs_fail(d, tp, cmd, "shader '%s' is a %s shader, not a geometry shader", s->id,
		               STAGE[s->stage]);
	unsigned dvle = 0;
	ulp_diag inner;
	ulp_diag_clear(&inner);
	if (s->code == TRACE_TGSI) {
		gs_inputs in;
		if (!compile_tgsi(g, s, &in, tp, cmd, d) || !check_inputs(&in, vs, vs_mask, tp, cmd, d))
			return false;
	} else if (s->code == TRACE_SHBIN) {
		if (!shbin_load(s->path, &g->shbin, &inner))
			return gs_fail(d, tp, cmd, "%s", inner.msg);
		g->bound = true;
		dvle = s->dvle;
	} else {
		return gs_fail(d, tp, cmd, "a geometry shader is TGSI or an SHBIN");
	}
	if (dvle >= g->shbin.ndvle || g->shbin.dvle[dvle].type != SHBIN_GS)
		return gs_fail(d, tp, cmd, "DVLE %u of shader '%s' is not a geometry shader", dvle, s->id);
	const struct shbin_dvle *e = &g->shbin.dvle[dvle];
	if (e->gs_mode != SHBIN_GS_POINT) {
		const char *m = shbin_gs_mode_name(e->gs_mode);
		return gs_fail(d, tp, cmd, "DVLE %u is a %s-mode geometry shader; the replay runs point mode only",
		               dvle, m ? m : "unknown");
	}
	/* the linker's view of the GS outputs (as bind_vs does for a VS) */
	uint16_t regs = 0;
	bool have_pos = false;
	for (size_t k = 0; k < e->noutputs; k++) {
		if (e->outputs[k].reg >= 16)
			continue;
		if (e->outputs[k].type == SHBIN_OUT_POSITION) {
			g->out.pos_reg = (uint8_t)e->outputs[k].reg;
			have_pos = true;
		} else {
			regs |= (uint16_t)(1u << e->outputs[k].reg);
		}
	}
	if (!have_pos)
		return gs_fail(d, tp, cmd, "the geometry shader writes no position");
	for (unsigned r = 0; r < 16; r++)
		if ((regs & (1u << r)) && r != g->out.pos_reg && g->out.ntram < GR3D_TRAM_ROWS)
			g->out.tram_reg[g->out.ntram++] = (uint8_t)r;
	if (!drv_pica_load_shader(st, &g->shbin, dvle, &inner))
		return gs_fail(d, tp, cmd, "%s", inner.msg);
	drv_pica_geostage(st, true, (unsigned)__builtin_popcount(vs_mask));
	return true;
}

void replay_gs_unbind(replay_gs *g, reg_stream *st)
{
	if (g->bound)
		drv_pica_geostage(st, false, 0);
	replay_gs_free(g);
}

bool replay_gs_draw_regs(const replay_gs *g, const char *mode, const pica_regs *regs, reg_stream *st,
                         const char *tp, size_t cmd, ulp_diag *d)
{
	unsigned per = !strcmp(mode, "points") ? 1 : !strcmp(mode, "triangles") ? 3 : 0;
	if (!per)
		return ulp_diag_at(d, tp, 0, 0, "$.commands[%zu].mode: with a geometry shader a draw is points or "
		                   "triangles (the GS input buffer takes 1 or 3 vertices in draw order), not %s",
		                   cmd, mode);
	if (g->bound && g->in_prim >= 0 && tgsi_primitive_vertices((unsigned)g->in_prim) != per)
		return ulp_diag_at(d, tp, 0, 0, "$.commands[%zu].mode: %s, but the geometry shader's "
		                   "GS_INPUT_PRIMITIVE is %s", cmd, mode, tgsi_primitive_name((unsigned)g->in_prim));
	const unsigned stride = PICA_GET(regs->raw[PICA_REG_VSH_OUTMAP_TOTAL1], OUTMAP_TOTAL, COUNT_M1) + 1;
	uint8_t perm[16];
	for (unsigned k = 0; k < 16; k++)
		perm[k] = (uint8_t)k;
	if (per * stride > 16)
		return ulp_diag_at(d, tp, 0, 0, "$.commands[%zu].mode: %u vertices of %u output registers do not "
		                   "fit the 16 geometry shader inputs", cmd, per, stride);
	drv_pica_attributes(st, true, per * stride, perm);
	return true;
}

bool replay_gs_config(const pica_regs *regs, const ulp_config *cfg, gsh_config *c, pica_program *prog,
                      ulp_diag *d)
{
	memset(c, 0, sizeof *c);
	if (cfg->pica_units < 2)
		return ulp_diag_at(d, NULL, 0, 0, "a geometry shader runs on a unit of its own: pica.units is %d, "
		                   "needs 2 or more", (int)cfg->pica_units);
	c->vs_out_mask = (uint16_t)PICA_GET(regs->vs.raw[PICA_SH_OUTMAP_MASK], SH_OUTMAP_MASK, O);
	const unsigned stride = PICA_GET(regs->raw[PICA_REG_VSH_OUTMAP_TOTAL1], OUTMAP_TOTAL, COUNT_M1) + 1;
	const unsigned nattr = pica_regs_attr_count(&regs->gs);
	if ((unsigned)__builtin_popcount(c->vs_out_mask) != stride)
		return ulp_diag_at(d, NULL, 0, 0, "VSH_OUTMAP_TOTAL1 gives %u output registers per vertex, the "
		                   "vertex shader's OUTMAP_MASK enables %u", stride,
		                   (unsigned)__builtin_popcount(c->vs_out_mask));
	if (nattr % stride || nattr / stride < 1 || nattr / stride > 3)
		return ulp_diag_at(d, NULL, 0, 0, "the GS input buffer holds %u attributes: not 1 to 3 vertices "
		                   "of %u", nattr, stride);
	c->per = nattr / stride;
	for (unsigned k = 0; k < 16; k++)
		c->perm[k] = (uint8_t)pica_regs_attr_reg(&regs->gs, k);
	return pica_regs_program(regs, true, cfg, prog, d);
}
