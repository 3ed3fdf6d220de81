/* Blending written into the fragment shader (tgsi_blend.h). */
#include "frontends/tgsi/tgsi_blend.h"

#include <stdlib.h>
#include <string.h>

static const char *const FUNC_NAME[TGSI_BLEND_FUNC_COUNT] = {
	"add", "subtract", "reverse_subtract", "min", "max",
};

static const char *const FACTOR_NAME[TGSI_BLEND_FACTOR_COUNT] = {
	"zero", "one", "src_color", "inv_src_color", "src_alpha", "inv_src_alpha", "dst_color",
	"inv_dst_color", "dst_alpha", "inv_dst_alpha", "src_alpha_saturate", "const_color",
	"inv_const_color", "const_alpha", "inv_const_alpha",
};

const char *tgsi_blend_func_name(unsigned f) { return f < TGSI_BLEND_FUNC_COUNT ? FUNC_NAME[f] : NULL; }
const char *tgsi_blend_factor_name(unsigned f) { return f < TGSI_BLEND_FACTOR_COUNT ? FACTOR_NAME[f] : NULL; }

enum tgsi_blend_func tgsi_blend_func_from_name(const char *name)
{
	unsigned f = 0;
	while (f < TGSI_BLEND_FUNC_COUNT && strcmp(FUNC_NAME[f], name))
		f++;
	return (enum tgsi_blend_func)f;
}

enum tgsi_blend_factor tgsi_blend_factor_from_name(const char *name)
{
	unsigned f = 0;
	while (f < TGSI_BLEND_FACTOR_COUNT && strcmp(FACTOR_NAME[f], name))
		f++;
	return (enum tgsi_blend_factor)f;
}

bool tgsi_blend_is_noop(const tgsi_blend_state *b)
{
	return !b->enable && (b->colormask & 15) == 15;
}

/* ---- building the epilogue ---- */

typedef struct blend_pass {
	tgsi_shader *out;
	const tgsi_blend_state *b;
	uint32_t color;                 /* OUT index of COLOR[0] */
	uint32_t s, d, f[2];            /* TEMP: src colour, dst colour, two terms */
	uint32_t imm_01, imm_const;     /* IMM: (0, 1, 0, 0) and the blend colour */
	bool oom;
} blend_pass;

static tgsi_src reg_src(uint8_t file, uint32_t index, const char *swz, bool neg)
{
	tgsi_src s;
	memset(&s, 0, sizeof s);
	s.reg.file = file;
	s.reg.index = (int32_t)index;
	for (int c = 0; c < 4; c++)
		s.swizzle[c] = (uint8_t)(swz ? (swz[c] == 'w' ? 3 : swz[c] - 'x') : c);
	s.negate = neg;
	return s;
}

static tgsi_src temp(uint32_t index) { return reg_src(TGSI_FILE_TEMPORARY, index, NULL, false); }

static tgsi_src negated(tgsi_src s)
{
	s.negate = !s.negate;
	return s;
}

/* Appends "OP[_SAT] FILE[index].mask, srcs...". */
static void emit(blend_pass *p, enum tgsi_opcode op, bool sat, uint8_t file, uint32_t index,
                 uint8_t mask, unsigned nsrc, const tgsi_src *src)
{
	tgsi_instruction *in = tgsi_shader_add_instruction(p->out);
	if (!in) {
		p->oom = true;
		return;
	}
	in->opcode = (uint16_t)op;
	in->saturate = sat;
	in->num_dst = 1;
	in->dst[0].reg.file = file;
	in->dst[0].reg.index = (int32_t)index;
	in->dst[0].writemask = mask;
	in->num_src = (uint8_t)nsrc;
	for (unsigned k = 0; k < nsrc; k++)
		in->src[k] = src[k];
	in->cf_open = in->cf_else = in->cf_close = in->cf_target = -1;
}

static void emit_to_temp(blend_pass *p, enum tgsi_opcode op, uint32_t t, uint8_t mask,
                         tgsi_src a, tgsi_src b, tgsi_src c)
{
	tgsi_src s[3] = { a, b, c };
	unsigned n = tgsi_get_opcode_info(op)->num_src;
	emit(p, op, false, TGSI_FILE_TEMPORARY, t, mask, n, s);
}

/* The factor's value as an operand (for the channels being blended). */
static tgsi_src factor_operand(const blend_pass *p, unsigned f, bool *inverse)
{
	*inverse = false;
	switch (f) {
	case TGSI_BLEND_INV_SRC_COLOR: *inverse = true; /* fall through */
	case TGSI_BLEND_SRC_COLOR: return temp(p->s);
	case TGSI_BLEND_INV_SRC_ALPHA: *inverse = true; /* fall through */
	case TGSI_BLEND_SRC_ALPHA: return reg_src(TGSI_FILE_TEMPORARY, p->s, "wwww", false);
	case TGSI_BLEND_INV_DST_COLOR: *inverse = true; /* fall through */
	case TGSI_BLEND_DST_COLOR: return temp(p->d);
	case TGSI_BLEND_INV_DST_ALPHA: *inverse = true; /* fall through */
	case TGSI_BLEND_DST_ALPHA: return reg_src(TGSI_FILE_TEMPORARY, p->d, "wwww", false);
	case TGSI_BLEND_INV_CONST_COLOR: *inverse = true; /* fall through */
	case TGSI_BLEND_CONST_COLOR: return reg_src(TGSI_FILE_IMMEDIATE, p->imm_const, NULL, false);
	case TGSI_BLEND_INV_CONST_ALPHA: *inverse = true; /* fall through */
	default: return reg_src(TGSI_FILE_IMMEDIATE, p->imm_const, "wwww", false);
	}
}

/* term = v * factor into TEMP f for the mask; returns false when the term
 * is 0 (ZERO), *o = the operand that holds it. */
static bool term(blend_pass *p, unsigned f, tgsi_src v, uint32_t t, uint8_t mask, bool alpha,
                 tgsi_src *o)
{
	if (f == TGSI_BLEND_ZERO)
		return false;
	if (f == TGSI_BLEND_ONE || (f == TGSI_BLEND_SRC_ALPHA_SATURATE && alpha)) {
		*o = v;
		return true;
	}
	tgsi_src none = temp(t);
	if (f == TGSI_BLEND_SRC_ALPHA_SATURATE) {          /* min(As, 1 - Ad) */
		emit_to_temp(p, TGSI_OPCODE_ADD, t, mask, reg_src(TGSI_FILE_IMMEDIATE, p->imm_01, "yyyy", false),
		             reg_src(TGSI_FILE_TEMPORARY, p->d, "wwww", true), none);
		emit_to_temp(p, TGSI_OPCODE_MIN, t, mask, temp(t), reg_src(TGSI_FILE_TEMPORARY, p->s, "wwww", false),
		             none);
		emit_to_temp(p, TGSI_OPCODE_MUL, t, mask, v, temp(t), none);
	} else {
		bool inverse;
		tgsi_src fo = factor_operand(p, f, &inverse);
		if (inverse)        /* v * (1 - F) = v - v * F */
			emit_to_temp(p, TGSI_OPCODE_MAD, t, mask, negated(v), fo, v);
		else
			emit_to_temp(p, TGSI_OPCODE_MUL, t, mask, v, fo, none);
	}
	*o = temp(t);
	return true;
}

/* OUT.mask = func(src * Fs, dst * Fd), saturated. */
static void blend_channels(blend_pass *p, uint8_t mask, unsigned func, unsigned fs, unsigned fd,
                           bool alpha)
{
	if (!mask)
		return;
	tgsi_src src[2];
	if (func == TGSI_BLEND_MIN || func == TGSI_BLEND_MAX) {
		src[0] = temp(p->s);
		src[1] = temp(p->d);
		emit(p, func == TGSI_BLEND_MIN ? TGSI_OPCODE_MIN : TGSI_OPCODE_MAX, true, TGSI_FILE_OUTPUT,
		     p->color, mask, 2, src);
		return;
	}
	tgsi_src a = temp(p->s), b = temp(p->d);
	bool has_a = term(p, fs, temp(p->s), p->f[0], mask, alpha, &a);
	bool has_b = term(p, fd, temp(p->d), p->f[1], mask, alpha, &b);
	if (func == TGSI_BLEND_SUBTRACT)
		b = negated(b);
	else if (func == TGSI_BLEND_REVERSE_SUBTRACT)
		a = negated(a);
	unsigned n = 0;
	if (has_a)
		src[n++] = a;
	if (has_b)
		src[n++] = b;
	if (n == 0)
		src[n++] = reg_src(TGSI_FILE_IMMEDIATE, p->imm_01, "xxxx", false);
	emit(p, n == 2 ? TGSI_OPCODE_ADD : TGSI_OPCODE_MOV, true, TGSI_FILE_OUTPUT, p->color, mask, n, src);
}

/* For the alpha channel a colour factor is its alpha factor. */
static unsigned alpha_form(unsigned f)
{
	switch (f) {
	case TGSI_BLEND_SRC_COLOR: return TGSI_BLEND_SRC_ALPHA;
	case TGSI_BLEND_INV_SRC_COLOR: return TGSI_BLEND_INV_SRC_ALPHA;
	case TGSI_BLEND_DST_COLOR: return TGSI_BLEND_DST_ALPHA;
	case TGSI_BLEND_INV_DST_COLOR: return TGSI_BLEND_INV_DST_ALPHA;
	case TGSI_BLEND_CONST_COLOR: return TGSI_BLEND_CONST_ALPHA;
	case TGSI_BLEND_INV_CONST_COLOR: return TGSI_BLEND_INV_CONST_ALPHA;
	default: return f;
	}
}

static void epilogue(blend_pass *p)
{
	const tgsi_blend_state *b = p->b;
	uint8_t cm = b->colormask & 15;
	tgsi_src s[2];
	if (b->enable) {                 /* UNORM targets: the source is clamped first */
		s[0] = temp(p->s);
		emit(p, TGSI_OPCODE_MOV, true, TGSI_FILE_TEMPORARY, p->s, 15, 1, s);
	}
	if (b->enable || cm != 15) {
		s[0] = reg_src(TGSI_FILE_OUTPUT, p->color, NULL, false);
		emit(p, TGSI_OPCODE_FBFETCH, false, TGSI_FILE_TEMPORARY, p->d, 15, 1, s);
	}
	if (!b->enable) {
		s[0] = temp(p->s);
		if (cm)
			emit(p, TGSI_OPCODE_MOV, false, TGSI_FILE_OUTPUT, p->color, cm, 1, s);
	} else {
		bool same = b->rgb_func == b->alpha_func && b->rgb_src != TGSI_BLEND_SRC_ALPHA_SATURATE &&
		            b->rgb_dst != TGSI_BLEND_SRC_ALPHA_SATURATE &&
		            alpha_form(b->rgb_src) == alpha_form(b->alpha_src) &&
		            alpha_form(b->rgb_dst) == alpha_form(b->alpha_dst);
		if (same) {
			blend_channels(p, cm, b->rgb_func, b->rgb_src, b->rgb_dst, false);
		} else {
			blend_channels(p, cm & 7, b->rgb_func, b->rgb_src, b->rgb_dst, false);
			blend_channels(p, cm & 8, b->alpha_func, b->alpha_src, b->alpha_dst, true);
		}
	}
	if (cm != 15) {                  /* masked channels keep the destination */
		s[0] = temp(p->d);
		emit(p, TGSI_OPCODE_MOV, false, TGSI_FILE_OUTPUT, p->color, (uint8_t)(~cm & 15), 1, s);
	}
}

/* ---- the pass ---- */

static bool is_color_out(const tgsi_reg_ref *r, uint32_t color)
{
	return r->file == TGSI_FILE_OUTPUT && !r->dimension && (uint32_t)r->index == color;
}

static void add_decls(blend_pass *p, const tgsi_shader *sh, uint32_t ntemps)
{
	tgsi_declaration *dcl = tgsi_shader_add_declaration(p->out);
	if (!dcl) {
		p->oom = true;
		return;
	}
	dcl->file = TGSI_FILE_TEMPORARY;
	dcl->first = ntemps;
	dcl->last = ntemps + 3;
	dcl->usage_mask = TGSI_WRITEMASK_XYZW;
	p->s = ntemps;
	p->d = ntemps + 1;
	p->f[0] = ntemps + 2;
	p->f[1] = ntemps + 3;
	const float imm[2][4] = { { 0, 1, 0, 0 },
	                          { p->b->color[0], p->b->color[1], p->b->color[2], p->b->color[3] } };
	for (unsigned k = 0; k < 2; k++) {
		tgsi_immediate *im = tgsi_shader_add_immediate(p->out);
		if (!im) {
			p->oom = true;
			return;
		}
		im->type = TGSI_IMM_FLOAT32;
		memcpy(im->u, imm[k], sizeof im->u);
		im->notation[0] = im->notation[1] = im->notation[2] = im->notation[3] = TGSI_FLOAT_HEX;
	}
	p->imm_01 = (uint32_t)sh->num_imms;
	p->imm_const = (uint32_t)sh->num_imms + 1;
}

tgsi_shader *tgsi_blend_lower(const tgsi_shader *sh, const tgsi_blend_state *b, const char *file,
                              ulp_diag *d)
{
	if (sh->processor != TGSI_PROCESSOR_FRAGMENT) {
		ulp_diag_at(d, file, 0, 0, "blending applies to a fragment shader");
		return NULL;
	}
	blend_pass p;
	memset(&p, 0, sizeof p);
	p.b = b;
	bool have_color = false;
	uint32_t ntemps = 0;
	for (size_t i = 0; i < sh->num_decls; i++) {
		const tgsi_declaration *dc = &sh->decls[i];
		if (dc->file == TGSI_FILE_TEMPORARY && dc->last + 1 > ntemps)
			ntemps = dc->last + 1;
		if (dc->file == TGSI_FILE_OUTPUT && dc->semantic && dc->semantic_name == TGSI_SEMANTIC_COLOR &&
		    dc->semantic_index == 0 && !have_color) {
			p.color = dc->first;
			have_color = true;
		}
	}
	for (size_t i = 0; have_color && i < sh->num_insts; i++)
		for (unsigned k = 0; k < sh->insts[i].num_dst; k++) {
			const tgsi_reg_ref *r = &sh->insts[i].dst[k].reg;
			if (r->file == TGSI_FILE_OUTPUT && r->indirect) {
				ulp_diag_at(d, file, sh->insts[i].line, sh->insts[i].col,
				            "blending: the colour output is written indirectly");
				return NULL;
			}
		}
	p.out = tgsi_shader_new();
	int32_t *newpos = calloc(sh->num_insts + 1, sizeof *newpos);
	if (!p.out || !newpos) {
		tgsi_shader_free(p.out);
		free(newpos);
		ulp_diag_at(d, file, 0, 0, "out of memory");
		return NULL;
	}
	p.out->processor = sh->processor;
	bool lower = have_color && !tgsi_blend_is_noop(b), added = false;
	int sub_depth = 0;
	for (size_t k = 0; k < sh->num_order && !p.oom; k++) {
		const tgsi_token_ref *t = &sh->order[k];
		if (t->kind == TGSI_TOKEN_INSTRUCTION && lower && !added) {
			add_decls(&p, sh, ntemps);              /* after the shader's own */
			added = true;
		}
		switch (t->kind) {
		case TGSI_TOKEN_PROPERTY: {
			tgsi_property *e = tgsi_shader_add_property(p.out);
			if (e)
				*e = sh->props[t->index];
			p.oom = !e;
			break;
		}
		case TGSI_TOKEN_DECLARATION: {
			tgsi_declaration *e = tgsi_shader_add_declaration(p.out);
			if (e)
				*e = sh->decls[t->index];
			p.oom = !e;
			break;
		}
		case TGSI_TOKEN_IMMEDIATE: {
			tgsi_immediate *e = tgsi_shader_add_immediate(p.out);
			if (e)
				*e = sh->imms[t->index];
			p.oom = !e;
			break;
		}
		default: {
			const tgsi_instruction *in = &sh->insts[t->index];
			if (in->opcode == TGSI_OPCODE_BGNSUB)
				sub_depth++;
			bool ends_main = in->opcode == TGSI_OPCODE_END ||
			                 (in->opcode == TGSI_OPCODE_RET && sub_depth == 0);
			if (lower && ends_main)
				epilogue(&p);
			newpos[t->index] = (int32_t)p.out->num_insts;
			tgsi_instruction *e = tgsi_shader_add_instruction(p.out);
			if (!e) {
				p.oom = true;
				break;
			}
			*e = *in;
			for (unsigned j = 0; lower && j < e->num_dst; j++)
				if (is_color_out(&e->dst[j].reg, p.color))
					e->dst[j].reg = temp(p.s).reg;
			if (in->opcode == TGSI_OPCODE_ENDSUB)
				sub_depth--;
			break;
		}
		}
	}
	/* written labels follow their instructions (CAL's names its BGNSUB) */
	newpos[sh->num_insts] = (int32_t)p.out->num_insts;
	for (size_t i = 0; !p.oom && i < sh->num_insts; i++) {
		tgsi_instruction *e = &p.out->insts[newpos[i]];
		bool absolute = e->label_kind == TGSI_LABEL_ABSOLUTE || e->opcode == TGSI_OPCODE_CAL;
		if (e->has_label && absolute && e->label <= sh->num_insts)
			e->label = (uint32_t)newpos[e->label];
	}
	free(newpos);
	if (p.oom || !tgsi_cf_resolve(p.out, file, d)) {
		if (p.oom)
			ulp_diag_at(d, file, 0, 0, "out of memory");
		tgsi_shader_free(p.out);
		return NULL;
	}
	return p.out;
}
