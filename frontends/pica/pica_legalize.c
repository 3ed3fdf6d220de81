/* PICA200 operand rules on the lowered IR (before register allocation).
 *
 *  - One distinct input register (v) per instruction: the unit has one
 *    input read port (pica200.md §1.2); extra ones are copied to temps.
 *  - At most one constant-file source (c: CONST or IMM) per instruction:
 *    format 1 has one 7-bit source, MAD/MADI one wide source (§1.2); the
 *    emitter swaps commutative operands or lets the assembler pick the
 *    I-form so that the c operand lands in the wide field.
 *  - IF becomes CMP cZERO, ne, ne, x: x is the narrow source, so it must not
 *    be a c register.
 *  - Relative addressing only through ADDR[0].x / .y (a0.x, a0.y), with an
 *    offset 0..95.
 *  - What the unit has no way to do is refused: KILL (no fragment stage),
 *    system values, texture sampling (already refused by the lowering). */
#include <string.h>

#include "frontends/pica/pica_compile.h"

void pica_ir_caps(ir_caps *caps)
{
	memset(caps, 0, sizeof *caps);
	caps->native = 1ull << IR_OP_DPH;          /* DPH/DPHI (pica200.md §1.3) */
	caps->src_abs = false;                      /* negation only (§1.2 descriptor) */
	caps->sat = false;
	caps->arl_truncates = true;                 /* MOVA truncates toward zero (§1.3) */
	caps->texture = false;
	caps->if_lt0 = true;                        /* CMP cZERO, gt, gt, x (§1.3) */
}

static bool is_c(const ir_src *s)
{
	return s->file == IR_CONST || s->file == IR_IMM;
}

/* MOV t, src (identity swizzle, no modifiers) before position i; the
 * source becomes t with its own swizzle and negation. */
static bool copy_src(ir_shader *s, size_t *i, unsigned k, ir_error *e)
{
	ir_src orig = s->inst[*i].src[k];
	ir_inst *mv = ir_insert(s, *i, 1);
	if (!mv)
		return ir_refuse(e, IR_REFUSE_LIMITS, s->file, 0, 0, "out of memory");
	ir_inst *in = &s->inst[*i + 1];
	uint32_t t = ir_new_temp(s);
	mv->op = IR_OP_MOV;
	mv->nsrc = 1;
	mv->line = in->line;
	mv->col = in->col;
	mv->dst = ir_dst_reg(IR_TEMP, (int32_t)t, 0xF);
	mv->src[0] = orig;
	for (unsigned c = 0; c < 4; c++)
		mv->src[0].swz[c] = (uint8_t)c;
	mv->src[0].neg = false;
	mv->src[0].abs = false;
	ir_src r = ir_src_reg(IR_TEMP, (int32_t)t);
	memcpy(r.swz, orig.swz, 4);
	r.neg = orig.neg;
	(*i)++;
	/* every other source reading the same register shares the copy */
	for (unsigned j = 0; j < in->nsrc; j++) {
		ir_src *o = &in->src[j];
		if (j == k || o->file != orig.file || o->index != orig.index ||
		    o->indirect != orig.indirect || o->dim != orig.dim)
			continue;
		ir_src rj = r;
		memcpy(rj.swz, o->swz, 4);
		rj.neg = o->neg;
		*o = rj;
	}
	in->src[k] = r;
	return true;
}

static bool check_src(const ir_shader *s, const ir_inst *in, const ir_src *x, ir_error *e)
{
	const char *name = ir_op_get(in->op)->name;
	switch (x->file) {
	case IR_SYSVAL:
		return ir_refuse(e, IR_REFUSE_IO, s->file, in->line, in->col,
		                 "%s: system values are not available on the PICA200", name);
	case IR_INPUT:
		if (x->index > 15)
			return ir_refuse(e, IR_REFUSE_IO, s->file, in->line, in->col,
			                 "%s: IN[%d]: the PICA200 has 16 input registers", name, x->index);
		break;
	case IR_CONST:
		if (x->indirect) {
			if (x->ind_reg != 0 || x->ind_comp > 1)
				return ir_refuse(e, IR_REFUSE_ADDRESSING, s->file, in->line, in->col,
				                 "%s: only ADDR[0].x and ADDR[0].y can index (a0.x, a0.y)", name);
			if (x->index < 0 || x->index > 95)
				return ir_refuse(e, IR_REFUSE_ADDRESSING, s->file, in->line, in->col,
				                 "%s: indirect offset %d outside c0..c95 (the PICA200 adds "
				                 "non-negative offsets only)", name, x->index);
		} else if (x->index > 95) {
			return ir_refuse(e, IR_REFUSE_CONSTANTS, s->file, in->line, in->col,
			                 "%s: CONST[0][%d]: the PICA200 has 96 constant registers", name,
			                 x->index);
		}
		break;
	case IR_ADDR:
		return ir_refuse(e, IR_REFUSE_ADDRESSING, s->file, in->line, in->col,
		                 "%s: ADDR is not readable as a value on the PICA200", name);
	default:
		break;
	}
	return true;
}

/* GS point mode: the primitive's vertices arrive one after another in
 * v0..v15, each with the VS's output registers in order (corpus
 * geoshader/program.g.pica; pica200.md §1.1): IN[vtx][n] -> v(vtx * N + n),
 * N = the number of declared GS inputs. */
static bool map_gs_inputs(ir_shader *s, ir_error *e)
{
	uint32_t per = s->ninputs ? s->ninputs : 1;
	for (size_t i = 0; i < s->n; i++) {
		ir_inst *in = &s->inst[i];
		for (unsigned k = 0; k < in->nsrc; k++) {
			ir_src *x = &in->src[k];
			if (x->file != IR_INPUT)
				continue;
			uint32_t v = x->dim * per + (uint32_t)x->index;
			if (v > 15)
				return ir_refuse(e, IR_REFUSE_IO, s->file, in->line, in->col,
				                 "%s: IN[%u][%d] would be v%u: %u vertices of %u inputs do not "
				                 "fit the 16 input registers", ir_op_get(in->op)->name, x->dim,
				                 x->index, v, x->dim + 1, per);
			x->index = (int32_t)v;
			x->dim = 0;
		}
	}
	return true;
}

bool pica_legalize(ir_shader *s, ir_error *e)
{
	if (s->stage == TGSI_PROCESSOR_GEOMETRY && !map_gs_inputs(s, e))
		return false;
	for (size_t i = 0; i < s->n; i++) {
		ir_inst *in = &s->inst[i];
		const ir_op_info *oi = ir_op_get(in->op);
		switch (in->op) {
		case IR_OP_KILL:
		case IR_OP_KILL_IF:
			return ir_refuse(e, IR_REFUSE_OPCODE, s->file, in->line, in->col,
			                 "%s: the PICA200 runs vertex and geometry shaders only", oi->name);
		case IR_OP_EMIT:
		case IR_OP_ENDPRIM:
			if (s->stage != TGSI_PROCESSOR_GEOMETRY)
				return ir_refuse(e, IR_REFUSE_MALFORMED, s->file, in->line, in->col,
				                 "%s outside a geometry shader", oi->name);
			break;
		case IR_OP_ARL:
			if (in->dst.index != 0 || (in->dst.mask & 0xC))
				return ir_refuse(e, IR_REFUSE_ADDRESSING, s->file, in->line, in->col,
				                 "ARL: only ADDR[0].x and ADDR[0].y exist (a0.x, a0.y)");
			break;
		default:
			break;
		}
		if (oi->kind == IR_KIND_TEX)
			return ir_refuse(e, IR_REFUSE_TEXTURE, s->file, in->line, in->col,
			                 "%s: no texture units in the PICA200 shader stages", oi->name);
		if (in->dst.file == IR_OUTPUT && in->dst.index > 15)
			return ir_refuse(e, IR_REFUSE_IO, s->file, in->line, in->col,
			                 "%s: OUT[%d]: the PICA200 has 16 output registers", oi->name,
			                 in->dst.index);
		for (unsigned k = 0; k < in->nsrc; k++)
			if (!check_src(s, in, &in->src[k], e))
				return false;
		if (in->nsrc == 0)
			continue;
		/* one distinct v */
		int32_t first_v = -1;
		for (unsigned k = 0; k < in->nsrc; k++) {
			if (in->src[k].file != IR_INPUT)
				continue;
			if (first_v < 0)
				first_v = in->src[k].index;
			else if (in->src[k].index != first_v && !copy_src(s, &i, k, e))
				return false;
			in = &s->inst[i];
		}
		/* MIN/MAX keep their operand order: the unit's max is (a > b) ? a : b,
		 * so only max(x, c) gives tgsi's fmaxf(NaN, c) = c (pica200.md §2.2);
		 * a c second operand is copied instead of swapped */
		if ((in->op == IR_OP_MIN || in->op == IR_OP_MAX) && is_c(&in->src[1])) {
			if (!copy_src(s, &i, 1, e))
				return false;
			in = &s->inst[i];
		}
		/* at most one c; none as the IF value */
		unsigned nc = 0;
		for (unsigned k = 0; k < in->nsrc; k++) {
			if (!is_c(&in->src[k]))
				continue;
			bool keep = nc == 0 && in->op != IR_OP_IF && in->nsrc > 0;
			if (in->nsrc == 1 && in->op != IR_OP_IF)
				keep = true;            /* unary: the one source is wide */
			if (!keep && !copy_src(s, &i, k, e))
				return false;
			in = &s->inst[i];
			nc++;
		}
	}
	return ir_resolve_cf(s, e);
}
