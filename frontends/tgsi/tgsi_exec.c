/* TGSI reference interpreter (see tgsi_exec.h): Mesa 22.3 tgsi_exec
 * semantics in f32, one lane.  All sources are fetched (swizzle, then |x|,
 * then -x; integer negate/abs for integer-typed opcodes) before the
 * destination is written (write mask, then _SAT = fminf(fmaxf(x, 0), 1)).
 * Texture opcodes and GS EMIT/ENDPRIM are at the end of this file. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/tgsi/tgsi_exec.h"
#include "frontends/tgsi/tgsi_exec_ops.h"

enum { REG_MAX = 65536, CALL_DEPTH_MAX = 64 };

uint32_t *tgsi_exec_reg(tgsi_exec_machine *m, unsigned file, size_t bank, size_t index)
{
	if (file >= TGSI_FILE_COUNT || bank >= REG_MAX || index >= REG_MAX)
		return NULL;
	tgsi_exec_file *f = &m->files[file];
	if (bank >= f->nbanks) {
		tgsi_exec_bank *nb = realloc(f->banks, (bank + 1) * sizeof *nb);
		if (!nb)
			return NULL;
		memset(nb + f->nbanks, 0, (bank + 1 - f->nbanks) * sizeof *nb);
		f->banks = nb;
		f->nbanks = bank + 1;
	}
	tgsi_exec_bank *b = &f->banks[bank];
	if (index >= b->n) {
		size_t n = b->n * 2 > index + 1 ? b->n * 2 : index + 1;
		if (n > REG_MAX)
			n = REG_MAX;
		uint32_t (*v)[4] = realloc(b->v, n * sizeof *v);
		if (!v)
			return NULL;
		b->v = v;
		uint8_t *w = realloc(b->flags, n * sizeof *w);
		if (!w)
			return NULL;
		b->flags = w;
		memset(b->v + b->n, 0, (n - b->n) * sizeof *v);
		memset(b->flags + b->n, 0, (n - b->n) * sizeof *w);
		b->n = n;
	}
	return b->v[index];
}

static const uint32_t *reg_peek(const tgsi_exec_machine *m, unsigned file, int64_t bank,
                                int64_t index)
{
	if (file >= TGSI_FILE_COUNT || bank < 0 || index < 0)
		return NULL;
	const tgsi_exec_file *f = &m->files[file];
	if ((size_t)bank >= f->nbanks || (size_t)index >= f->banks[bank].n)
		return NULL;
	return f->banks[bank].v[index];
}

tgsi_exec_texture *tgsi_exec_texture_slot(tgsi_exec_machine *m, size_t index)
{
	if (index >= REG_MAX)
		return NULL;
	if (index >= m->num_textures) {
		tgsi_exec_texture *t = realloc(m->textures, (index + 1) * sizeof *t);
		if (!t)
			return NULL;
		memset(t + m->num_textures, 0, (index + 1 - m->num_textures) * sizeof *t);
		m->textures = t;
		m->num_textures = index + 1;
	}
	return &m->textures[index];
}

static void gs_clear(tgsi_exec_gs_out *g)
{
	for (size_t i = 0; i < g->num_verts; i++) {
		free(g->verts[i].v);
		free(g->verts[i].flags);
	}
	g->num_verts = 0;
	g->num_prims = 0;
	g->open = 0;
}

void tgsi_exec_fini(tgsi_exec_machine *m)
{
	gs_clear(&m->gs);
	free(m->gs.verts);
	free(m->gs.prims);
	for (size_t i = 0; i < m->num_textures; i++)
		free(m->textures[i].texels);
	free(m->textures);
	for (unsigned f = 0; f < TGSI_FILE_COUNT; f++) {
		for (size_t b = 0; b < m->files[f].nbanks; b++) {
			free(m->files[f].banks[b].v);
			free(m->files[f].banks[b].flags);
		}
		free(m->files[f].banks);
	}
	memset(m, 0, sizeof *m);
}

bool tgsi_exec_init(tgsi_exec_machine *m, tgsi_shader *sh, const char *file, ulp_diag *d)
{
	memset(m, 0, sizeof *m);
	m->sh = sh;
	m->file = file ? file : "";
	m->max_steps = 1000000;
	if (!tgsi_cf_resolve(sh, m->file, d))
		return false;
	for (size_t i = 0; i < sh->num_props; i++)
		if (sh->props[i].name == TGSI_PROPERTY_GS_MAX_OUTPUT_VERTICES)
			m->gs.max_vertices = sh->props[i].value;
	for (size_t i = 0; i < sh->num_imms; i++) {
		uint32_t *r = tgsi_exec_reg(m, TGSI_FILE_IMMEDIATE, 0, i);
		if (!r)
			return ulp_diag_at(d, m->file, 0, 0, "out of memory");
		memcpy(r, sh->imms[i].u, sizeof sh->imms[i].u);
	}
	for (size_t i = 0; i < sh->num_decls; i++) {
		const tgsi_declaration *dc = &sh->decls[i];
		size_t bank = dc->dimension ? dc->index_2d : 0;
		if (dc->last >= REG_MAX || bank >= REG_MAX)
			return ulp_diag_at(d, m->file, dc->line, dc->col, "register range too large "
			                   "for the interpreter (at most %d)", REG_MAX - 1);
		if (dc->first > dc->last)
			continue;
		if (!tgsi_exec_reg(m, dc->file, bank, dc->last))
			return ulp_diag_at(d, m->file, dc->line, dc->col, "out of memory");
		for (uint32_t r = dc->first; r <= dc->last; r++)
			m->files[dc->file].banks[bank].flags[r] |= TGSI_EXEC_DECLARED;
	}
	return true;
}

/* ---- operands ---- */

static int64_t address(const tgsi_exec_machine *m, bool indirect, const tgsi_ind_ref *ind,
                       int32_t index)
{
	if (!indirect)
		return (uint32_t)index;
	const uint32_t *a = reg_peek(m, ind->file, 0, (uint32_t)ind->index);
	return (int64_t)(a ? tx_u2i(a[ind->swizzle & 3]) : 0) + index;
}

void tgsi_exec_fetch(const tgsi_exec_machine *m, const tgsi_src *s, bool int_type, uint32_t v[4])
{
	const tgsi_reg_ref *r = &s->reg;
	int64_t bank = r->dimension ? address(m, r->dim_indirect, &r->dim_ind, r->dim_index) : 0;
	const uint32_t *p = reg_peek(m, r->file, bank, address(m, r->indirect, &r->ind, r->index));
	for (int c = 0; c < 4; c++) {
		uint32_t x = p ? p[s->swizzle[c] & 3] : 0;
		if (int_type) {
			if (s->absolute && tx_u2i(x) < 0)
				x = 0u - x;
			if (s->negate)
				x = 0u - x;
		} else {
			float f = tx_u2f(x);
			if (s->absolute)
				f = fabsf(f);
			if (s->negate)
				f = -f;
			x = tx_f2u(f);
		}
		v[c] = x;
	}
}

static bool fail(tgsi_exec_machine *m, const tgsi_instruction *in, ulp_diag *d,
                 const char *what)
{
	return ulp_diag_at(d, m->file, in->line, in->col, "%s: %s",
	                   tgsi_get_opcode_info(in->opcode)->mnemonic, what);
}

bool tgsi_exec_store(tgsi_exec_machine *m, const tgsi_instruction *in, const tgsi_dst *dst,
                     const uint32_t v[4], ulp_diag *d)
{
	const tgsi_reg_ref *r = &dst->reg;
	switch (r->file) {
	case TGSI_FILE_NULL:
		return true;
	case TGSI_FILE_OUTPUT:
	case TGSI_FILE_TEMPORARY:
	case TGSI_FILE_ADDRESS:
		break;
	default:
		return fail(m, in, d, "the interpreter writes only OUT, TEMP and ADDR");
	}
	int64_t bank = r->dimension ? address(m, r->dim_indirect, &r->dim_ind, r->dim_index) : 0;
	int64_t idx = address(m, r->indirect, &r->ind, r->index);
	if (bank < 0 || idx < 0)
		return true;            /* out-of-range indirect write: dropped */
	uint32_t *p = tgsi_exec_reg(m, r->file, (size_t)bank, (size_t)idx);
	if (!p)
		return fail(m, in, d, "register index too large for the interpreter");
	m->files[r->file].banks[bank].flags[idx] |= TGSI_EXEC_WRITTEN;
	for (int c = 0; c < 4; c++) {
		if (!(dst->writemask & (1u << c)))
			continue;
		uint32_t x = v[c];
		if (in->saturate)
			x = tx_f2u(fminf(fmaxf(tx_u2f(x), 0.0f), 1.0f));
		p[c] = x;
	}
	return true;
}

static bool tex_op(tgsi_exec_machine *m, const tgsi_instruction *in, const uint32_t s[][4],
                   uint32_t r[4], ulp_diag *d);
static bool gs_op(tgsi_exec_machine *m, const tgsi_instruction *in, const uint32_t s[][4],
                  ulp_diag *d);
static bool gs_end(tgsi_exec_machine *m, ulp_diag *d);

/* pc of the matching CASE/DEFAULT of the SWITCH at sw, or past ENDSWITCH. */
static int32_t switch_target(const tgsi_exec_machine *m, int32_t sw, uint32_t value)
{
	const tgsi_shader *sh = m->sh;
	int32_t dflt = -1;
	for (int32_t i = sw + 1; i < sh->insts[sw].cf_close; i++) {
		const tgsi_instruction *c = &sh->insts[i];
		if (c->cf_open != sw)
			continue;
		if (c->opcode == TGSI_OPCODE_DEFAULT) {
			dflt = i;
		} else if (c->opcode == TGSI_OPCODE_CASE) {
			uint32_t v[4];
			tgsi_exec_fetch(m, &c->src[0], true, v);
			if (v[0] == value)
				return i + 1;
		}
	}
	return dflt >= 0 ? dflt + 1 : sh->insts[sw].cf_close + 1;
}

bool tgsi_exec_run(tgsi_exec_machine *m, ulp_diag *d)
{
	const tgsi_shader *sh = m->sh;
	int32_t calls[CALL_DEPTH_MAX];
	int ncalls = 0;
	int32_t pc = 0;
	m->killed = false;
	m->steps = 0;
	gs_clear(&m->gs);
	while (pc >= 0 && (size_t)pc < sh->num_insts) {
		const tgsi_instruction *in = &sh->insts[pc];
		if (++m->steps > m->max_steps)
			return fail(m, in, d, "step limit exceeded (an endless loop?)");
		uint32_t s[TGSI_MAX_SRC][4] = { { 0 } }, r[4] = { 0, 0, 0, 0 };
		bool int_type = tx_int_sources(in->opcode);
		for (unsigned k = 0; k < in->num_src; k++)
			tgsi_exec_fetch(m, &in->src[k], int_type, s[k]);
		int32_t next = pc + 1;
		if (tgsi_exec_cf_next(in, pc, s[0][0], &next)) {
			pc = next;
			continue;
		}
		switch (in->opcode) {
		case TGSI_OPCODE_SWITCH:
			next = switch_target(m, pc, s[0][0]);
			break;
		case TGSI_OPCODE_CAL:
			if (ncalls == CALL_DEPTH_MAX)
				return fail(m, in, d, "call stack overflow");
			calls[ncalls++] = pc + 1;
			next = in->cf_target + 1;
			break;
		case TGSI_OPCODE_RET:
		case TGSI_OPCODE_ENDSUB:
			if (!ncalls)
				return gs_end(m, d);
			next = calls[--ncalls];
			break;
		case TGSI_OPCODE_END:
			return gs_end(m, d);
		case TGSI_OPCODE_EMIT:
		case TGSI_OPCODE_ENDPRIM:
			if (!gs_op(m, in, (const uint32_t(*)[4])s, d))
				return false;
			break;
		case TGSI_OPCODE_KILL:
			m->killed = true;
			return true;
		case TGSI_OPCODE_FBFETCH: {
			uint32_t v[4];
			memcpy(v, m->fb_color, sizeof v);
			for (unsigned k = 0; k < in->num_dst; k++)
				if (!tgsi_exec_store(m, in, &in->dst[k], v, d))
					return false;
			break;
		}
		case TGSI_OPCODE_KILL_IF:
		case TGSI_OPCODE_KIL:
			for (int c = 0; c < 4; c++)
				if (tx_u2f(s[0][c]) < 0.0f)
					m->killed = true;
			if (m->killed)
				return true;
			break;
		case TGSI_OPCODE_ENDIF:
		case TGSI_OPCODE_BGNLOOP:
		case TGSI_OPCODE_BGNSUB:
		case TGSI_OPCODE_CASE:
		case TGSI_OPCODE_DEFAULT:
		case TGSI_OPCODE_ENDSWITCH:
		case TGSI_OPCODE_NOP:
			break;
		default:
			if (tgsi_get_opcode_info(in->opcode)->flags & TGSI_OPF_TEX) {
				if (!tex_op(m, in, (const uint32_t(*)[4])s, r, d))
					return false;
			} else if (!tx_alu(in->opcode, (const uint32_t(*)[4])s, r)) {
				return fail(m, in, d, "not supported by the interpreter");
			}
			for (unsigned k = 0; k < in->num_dst; k++)
				if (!tgsi_exec_store(m, in, &in->dst[k], r, d))
					return false;
		}
		pc = next;
	}
	return gs_end(m, d);
}

bool tgsi_exec_cf_next(const tgsi_instruction *in, int32_t pc, uint32_t x, int32_t *next)
{
	switch (in->opcode) {
	case TGSI_OPCODE_IF:                /* x != 0.0 (NaN runs the block) */
		*next = !(tx_u2f(x) != 0.0f) ? (in->cf_else >= 0 ? in->cf_else : in->cf_close) + 1 : pc + 1;
		return true;
	case TGSI_OPCODE_UIF:
		*next = x == 0 ? (in->cf_else >= 0 ? in->cf_else : in->cf_close) + 1 : pc + 1;
		return true;
	case TGSI_OPCODE_ELSE:
	case TGSI_OPCODE_BRK:
		*next = in->cf_close + 1;
		return true;
	case TGSI_OPCODE_ENDLOOP:
		*next = in->cf_open + 1;
		return true;
	case TGSI_OPCODE_CONT:
		*next = in->cf_close;
		return true;
	default:
		return false;
	}
}

/* ---- textures ---- */

static bool tex_fail(tgsi_exec_machine *m, const tgsi_instruction *in, ulp_diag *d,
                     int64_t samp, const char *what)
{
	return ulp_diag_at(d, m->file, in->line, in->col, "%s: SAMP[%lld]: %s",
	                   tgsi_get_opcode_info(in->opcode)->mnemonic, (long long)samp, what);
}

/* Integer texel offsets of the instruction (the first offset operand). */
static void tex_offsets(const tgsi_exec_machine *m, const tgsi_instruction *in, int32_t off[2])
{
	off[0] = off[1] = 0;
	if (!in->num_tex_offsets)
		return;
	const tgsi_tex_offset *o = &in->tex_offsets[0];
	const uint32_t *p = reg_peek(m, o->file, 0, o->index);
	for (int c = 0; p && c < 2; c++)
		off[c] = tx_u2i(p[o->swizzle[c] & 3]);
}

/* A texture opcode: the sampler's image, or its constant texel. */
static bool tex_op(tgsi_exec_machine *m, const tgsi_instruction *in, const uint32_t s[][4],
                   uint32_t r[4], ulp_diag *d)
{
	int64_t idx = -1;
	for (int k = in->num_src - 1; k >= 0 && idx == -1; k--) {
		const tgsi_reg_ref *sr = &in->src[k].reg;
		if (sr->file == TGSI_FILE_SAMPLER || sr->file == TGSI_FILE_SAMPLER_VIEW)
			idx = address(m, sr->indirect, &sr->ind, sr->index);
	}
	if (idx == -1)
		return fail(m, in, d, "no SAMP or SVIEW operand");
	if (idx < 0 || (size_t)idx >= m->num_textures || !m->textures[idx].texels) {
		const uint32_t *p = reg_peek(m, TGSI_FILE_SAMPLER, 0, idx);
		if (!p || !(m->files[TGSI_FILE_SAMPLER].banks[0].flags[idx] & TGSI_EXEC_WRITTEN))
			return fail(m, in, d, "no texel for this sampler: give \"SAMP[n]\": "
			            "[r, g, b, a] or an image in the case");
		memcpy(r, p, 4 * sizeof *r);
		return true;
	}
	tgsi_exec_texture tex = m->textures[idx];
	unsigned t = in->target;
	bool one_d = t == TGSI_TEXTURE_1D || t == TGSI_TEXTURE_SHADOW1D;
	bool rect = t == TGSI_TEXTURE_RECT || t == TGSI_TEXTURE_SHADOWRECT;
	bool shadow = t == TGSI_TEXTURE_SHADOW1D || t == TGSI_TEXTURE_SHADOW2D ||
	              t == TGSI_TEXTURE_SHADOWRECT;
	if (!one_d && !rect && t != TGSI_TEXTURE_2D && t != TGSI_TEXTURE_SHADOW2D) {
		char what[128];
		snprintf(what, sizeof what, "target %s: an image samples only 1D, 2D, RECT and "
		         "their SHADOW forms", tgsi_texture_name(t) ? tgsi_texture_name(t) : "?");
		return tex_fail(m, in, d, idx, what);
	}
	if (shadow && tex.compare == TGSI_EXEC_COMPARE_NONE)
		return tex_fail(m, in, d, idx, "a SHADOW target needs \"compare\" in the case's image");
	if (!shadow)
		tex.compare = TGSI_EXEC_COMPARE_NONE;
	int32_t off[2];
	tex_offsets(m, in, off);
	float f[4];
	switch (in->opcode) {
	case TGSI_OPCODE_TEX:
	case TGSI_OPCODE_TEX_LZ:
	case TGSI_OPCODE_TXP:
	case TGSI_OPCODE_TXB:
	case TGSI_OPCODE_TXL:
	case TGSI_OPCODE_TXD: {
		/* one level: TXB's bias, TXL's LOD and TXD's derivatives are unused */
		float st[2] = { tx_u2f(s[0][0]), tx_u2f(s[0][1]) }, ref = tx_u2f(s[0][2]);
		if (in->opcode == TGSI_OPCODE_TXP) {
			float w = tx_u2f(s[0][3]);
			st[0] /= w;
			st[1] /= w;
			ref /= w;
		}
		tx_sample(&tex, st, one_d, rect, off, ref, f);
		break;
	}
	case TGSI_OPCODE_TXF:
	case TGSI_OPCODE_TXF_LZ:
		tx_fetch(&tex, (int64_t)tx_u2i(s[0][0]) + off[0],
		         one_d ? 0 : (int64_t)tx_u2i(s[0][1]) + off[1], f);
		break;
	case TGSI_OPCODE_TXQ:
		r[0] = tex.width;
		r[1] = one_d ? 0 : tex.height;
		r[2] = 0;
		r[3] = 1;
		return true;
	default:
		return tex_fail(m, in, d, idx, "not supported with an image (TEX, TXP, TXB, TXL, "
		                "TXD, TXF, TXQ are)");
	}
	for (int c = 0; c < 4; c++)
		r[c] = tx_f2u(f[c]);
	return true;
}

/* ---- geometry shaders ---- */

enum { GS_VERTS_MAX = 65536 };

static bool gs_close(tgsi_exec_machine *m, ulp_diag *d)
{
	tgsi_exec_gs_out *g = &m->gs;
	if (g->num_prims == g->cap_prims) {
		size_t cap = g->cap_prims ? g->cap_prims * 2 : 16;
		size_t *p = realloc(g->prims, cap * sizeof *p);
		if (!p)
			return ulp_diag_at(d, m->file, 0, 0, "out of memory");
		g->prims = p;
		g->cap_prims = cap;
	}
	g->prims[g->num_prims++] = g->open;
	g->open = 0;
	return true;
}

/* tgsi_exec's END for a GEOM shader: close a primitive that has vertices. */
static bool gs_end(tgsi_exec_machine *m, ulp_diag *d)
{
	if (m->sh->processor != TGSI_PROCESSOR_GEOMETRY || !m->gs.open)
		return true;
	return gs_close(m, d);
}

/* Appends a copy of OUT bank 0, then starts the next vertex at 0 (tgsi_exec
 * moves on to a fresh output slot; declared registers stay listed). */
static bool gs_emit(tgsi_exec_machine *m, const tgsi_instruction *in, ulp_diag *d)
{
	tgsi_exec_gs_out *g = &m->gs;
	if (g->max_vertices && g->open >= g->max_vertices)
		return true;            /* over GS_MAX_OUTPUT_VERTICES: dropped */
	if (g->num_verts >= GS_VERTS_MAX)
		return fail(m, in, d, "more than 65536 vertices emitted");
	if (g->num_verts == g->cap_verts) {
		size_t cap = g->cap_verts ? g->cap_verts * 2 : 16;
		tgsi_exec_bank *v = realloc(g->verts, cap * sizeof *v);
		if (!v)
			return fail(m, in, d, "out of memory");
		g->verts = v;
		g->cap_verts = cap;
	}
	tgsi_exec_file *f = &m->files[TGSI_FILE_OUTPUT];
	tgsi_exec_bank nv = { NULL, NULL, 0 };
	if (f->nbanks && f->banks[0].n) {
		tgsi_exec_bank *b = &f->banks[0];
		nv.v = malloc(b->n * sizeof *nv.v);
		nv.flags = malloc(b->n * sizeof *nv.flags);
		if (!nv.v || !nv.flags) {
			free(nv.v);
			free(nv.flags);
			return fail(m, in, d, "out of memory");
		}
		nv.n = b->n;
		memcpy(nv.v, b->v, b->n * sizeof *nv.v);
		memcpy(nv.flags, b->flags, b->n * sizeof *nv.flags);
		memset(b->v, 0, b->n * sizeof *b->v);
		for (size_t i = 0; i < b->n; i++)
			b->flags[i] &= (uint8_t)~TGSI_EXEC_WRITTEN;
	}
	g->verts[g->num_verts++] = nv;
	g->open++;
	return true;
}

static bool gs_op(tgsi_exec_machine *m, const tgsi_instruction *in, const uint32_t s[][4],
                  ulp_diag *d)
{
	if (m->sh->processor != TGSI_PROCESSOR_GEOMETRY)
		return fail(m, in, d, "only a GEOM shader emits vertices");
	uint32_t stream = in->num_src ? s[0][0] : 0;
	if (stream != 0)
		return ulp_diag_at(d, m->file, in->line, in->col, "%s: stream %u: the interpreter "
		                   "models stream 0 only", tgsi_get_opcode_info(in->opcode)->mnemonic,
		                   (unsigned)stream);
	if (in->opcode == TGSI_OPCODE_EMIT)
		return gs_emit(m, in, d);
	return gs_close(m, d);
}
