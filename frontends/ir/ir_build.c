/* TGSI -> IR: declarations, immediates and one IR instruction per TGSI
 * instruction (CLAMP gives two).  Registers keep their TGSI numbers; the
 * legacy opcodes become their definitions (SUB = ADD with -b, ABS = MOV |x|,
 * KIL = KILL_IF).  What no float-only target can run is refused here with
 * the instruction's line:col.  (ir.h, docs/compiler.md "Front end") */
#include <stdlib.h>
#include <string.h>

#include "frontends/ir/ir.h"

/* TGSI opcode -> IR op for the one-to-one cases. */
static int direct_op(unsigned op)
{
	switch (op) {
#define M(t, i) case TGSI_OPCODE_##t: return IR_OP_##i;
	M(ARL, ARL) M(MOV, MOV) M(LIT, LIT) M(RCP, RCP) M(RSQ, RSQ) M(EXP, EXP) M(LOG, LOG)
	M(MUL, MUL) M(ADD, ADD) M(DP3, DP3) M(DP4, DP4) M(DST, DST) M(MIN, MIN) M(MAX, MAX)
	M(SLT, SLT) M(SGE, SGE) M(MAD, MAD) M(FMA, MAD) M(LRP, LRP) M(SQRT, SQRT) M(FRC, FRC)
	M(FLR, FLR) M(ROUND, ROUND) M(EX2, EX2) M(LG2, LG2) M(POW, POW) M(COS, COS) M(SIN, SIN)
	M(SEQ, SEQ) M(SGT, SGT) M(SLE, SLE) M(SNE, SNE) M(TEX, TEX) M(TXP, TXP) M(TXB, TXB)
	M(TXL, TXL) M(SSG, SSG) M(CMP, CMP) M(DIV, DIV) M(DP2, DP2) M(CEIL, CEIL)
	M(TRUNC, TRUNC) M(IF, IF) M(ELSE, ELSE) M(ENDIF, ENDIF) M(BGNLOOP, BGNLOOP)
	M(ENDLOOP, ENDLOOP) M(BRK, BRK) M(CONT, CONT) M(KILL, KILL) M(KILL_IF, KILL_IF)
	M(KIL, KILL_IF) M(END, END) M(NOP, NOP) M(EMIT, EMIT) M(ENDPRIM, ENDPRIM)
	M(XPD, XPD) M(DPH, DPH) M(SCS, SCS) M(ABS, MOV) M(SUB, ADD) M(FBFETCH, FBFETCH)
#undef M
	default:
		return -1;
	}
}

static bool is_integer_op(unsigned op)
{
	switch (op) {
	case TGSI_OPCODE_UARL: case TGSI_OPCODE_UIF: case TGSI_OPCODE_I2F: case TGSI_OPCODE_U2F:
	case TGSI_OPCODE_F2I: case TGSI_OPCODE_F2U: case TGSI_OPCODE_NOT: case TGSI_OPCODE_AND:
	case TGSI_OPCODE_OR: case TGSI_OPCODE_XOR: case TGSI_OPCODE_SHL: case TGSI_OPCODE_ISHR:
	case TGSI_OPCODE_USHR: case TGSI_OPCODE_MOD: case TGSI_OPCODE_IDIV: case TGSI_OPCODE_UDIV:
	case TGSI_OPCODE_UMOD: case TGSI_OPCODE_IMAX: case TGSI_OPCODE_IMIN: case TGSI_OPCODE_UMAX:
	case TGSI_OPCODE_UMIN: case TGSI_OPCODE_INEG: case TGSI_OPCODE_IABS: case TGSI_OPCODE_ISSG:
	case TGSI_OPCODE_ISGE: case TGSI_OPCODE_ISLT: case TGSI_OPCODE_USEQ: case TGSI_OPCODE_USGE:
	case TGSI_OPCODE_USLT: case TGSI_OPCODE_USNE: case TGSI_OPCODE_UADD: case TGSI_OPCODE_UMUL:
	case TGSI_OPCODE_UMAD: case TGSI_OPCODE_UCMP: case TGSI_OPCODE_FSEQ: case TGSI_OPCODE_FSGE:
	case TGSI_OPCODE_FSLT: case TGSI_OPCODE_FSNE: case TGSI_OPCODE_IMUL_HI:
		return true;
	default:
		return false;
	}
}

static bool is_double_op(unsigned op)
{
	const char *n = tgsi_get_opcode_info(op)->mnemonic;
	if (strstr(n, "64"))
		return true;
	static const char *const d[] = {
		"F2D", "D2F", "DABS", "DNEG", "DADD", "DMUL", "DMAX", "DMIN", "DSLT", "DSGE", "DSEQ",
		"DSNE", "DRCP", "DSQRT", "DMAD", "DFRAC", "DLDEXP", "DFRACEXP", "D2I", "I2D", "D2U",
		"U2D", "DRSQ", "DTRUNC", "DCEIL", "DFLR", "DROUND", "DSSG", "DDIV", "DFMA",
	};
	for (size_t i = 0; i < sizeof d / sizeof d[0]; i++)
		if (!strcmp(n, d[i]))
			return true;
	return false;
}

typedef struct bctx {
	ir_shader *s;
	const tgsi_shader *sh;
	const tgsi_instruction *ti;
	ir_error *e;
} bctx;

static bool refuse(bctx *b, enum ir_refusal why, const char *what)
{
	return ir_refuse(b->e, why, b->s->file, b->ti->line, b->ti->col, "%s: %s",
	                 tgsi_get_opcode_info(b->ti->opcode)->mnemonic, what);
}

static bool map_src(bctx *b, const tgsi_src *ts, ir_src *o)
{
	const tgsi_reg_ref *r = &ts->reg;
	memset(o, 0, sizeof *o);
	memcpy(o->swz, ts->swizzle, 4);
	o->neg = ts->negate;
	o->abs = ts->absolute;
	o->index = r->index;
	switch (r->file) {
	case TGSI_FILE_TEMPORARY: o->file = IR_TEMP; break;
	case TGSI_FILE_INPUT: o->file = IR_INPUT; break;
	case TGSI_FILE_OUTPUT: o->file = IR_OUTPUT; break;
	case TGSI_FILE_CONSTANT: o->file = IR_CONST; break;
	case TGSI_FILE_IMMEDIATE: o->file = IR_IMM; break;
	case TGSI_FILE_ADDRESS: o->file = IR_ADDR; break;
	case TGSI_FILE_SAMPLER: case TGSI_FILE_SAMPLER_VIEW: o->file = IR_SAMPLER; break;
	case TGSI_FILE_SYSTEM_VALUE: o->file = IR_SYSVAL; break;
	default:
		return refuse(b, IR_REFUSE_OPCODE, "this register file is not supported");
	}
	if (r->dimension) {
		if (r->dim_indirect)
			return refuse(b, IR_REFUSE_ADDRESSING, "indirect dimension index");
		if (o->file == IR_CONST && r->dim_index != 0)
			return refuse(b, IR_REFUSE_CONSTANTS, "only constant buffer 0 is supported");
		if (o->file == IR_INPUT) {
			if (r->dim_index < 0 || r->dim_index > 255)
				return refuse(b, IR_REFUSE_IO, "input vertex index out of range");
			o->dim = (uint16_t)r->dim_index;
		}
	}
	if (r->indirect) {
		if (o->file != IR_CONST)
			return refuse(b, IR_REFUSE_ADDRESSING, "indirect addressing of this file "
			              "(only CONST can be indexed)");
		if (r->ind.file != TGSI_FILE_ADDRESS || r->ind.index < 0 || r->ind.index > 3)
			return refuse(b, IR_REFUSE_ADDRESSING, "the index must be an ADDR register");
		o->indirect = true;
		o->ind_reg = (uint8_t)r->ind.index;
		o->ind_comp = r->ind.swizzle & 3;
	} else if (r->index < 0) {
		return refuse(b, IR_REFUSE_MALFORMED, "negative register index");
	}
	ir_shader *s = b->s;
	if (!o->indirect && o->index > IR_MAX_REG_INDEX)
		return refuse(b, IR_REFUSE_LIMITS, "register index too large");
	if (o->file == IR_TEMP && (uint32_t)o->index >= s->ntemps)
		s->ntemps = (uint32_t)o->index + 1;
	if (o->file == IR_INPUT) {
		if ((uint32_t)o->index + 1 > s->ninputs)
			s->ninputs = (uint32_t)o->index + 1;
		if (o->index < 16)
			s->inputs_used |= (uint16_t)(1u << o->index);
	}
	if (o->file == IR_CONST && !o->indirect && o->index + 1 > s->const_count)
		s->const_count = o->index + 1;
	if (o->file == IR_IMM && (size_t)o->index >= s->nimm_tgsi)
		return refuse(b, IR_REFUSE_MALFORMED, "IMM index past the last immediate");
	return true;
}

static ir_output *find_output(ir_shader *s, int32_t index)
{
	for (size_t i = 0; i < s->nout; i++)
		if (s->out[i].index == index)
			return &s->out[i];
	return NULL;
}

static ir_output *add_output(ir_shader *s, int32_t index)
{
	ir_output *o = find_output(s, index);
	if (o)
		return o;
	ir_output *p = realloc(s->out, (s->nout + 1) * sizeof *p);
	if (!p)
		return NULL;
	s->out = p;
	o = &s->out[s->nout++];
	memset(o, 0, sizeof *o);
	o->index = index;
	o->semantic = TGSI_SEMANTIC_GENERIC;
	o->semantic_index = (uint32_t)index;
	return o;
}

static bool map_dst(bctx *b, const tgsi_dst *td, ir_dst *o)
{
	const tgsi_reg_ref *r = &td->reg;
	memset(o, 0, sizeof *o);
	o->mask = td->writemask;
	o->index = r->index;
	if (r->indirect || r->dimension)
		return refuse(b, IR_REFUSE_ADDRESSING, "indirect or 2-D destination");
	if (r->index < 0)
		return refuse(b, IR_REFUSE_MALFORMED, "negative register index");
	if (r->index > IR_MAX_REG_INDEX)
		return refuse(b, IR_REFUSE_LIMITS, "register index too large");
	switch (r->file) {
	case TGSI_FILE_NULL: o->file = IR_NULL; break;
	case TGSI_FILE_TEMPORARY:
		o->file = IR_TEMP;
		if ((uint32_t)r->index >= b->s->ntemps)
			b->s->ntemps = (uint32_t)r->index + 1;
		break;
	case TGSI_FILE_OUTPUT: {
		o->file = IR_OUTPUT;
		ir_output *out = add_output(b->s, r->index);
		if (!out)
			return refuse(b, IR_REFUSE_LIMITS, "out of memory");
		out->written |= td->writemask;
		break;
	}
	case TGSI_FILE_ADDRESS:
		o->file = IR_ADDR;
		if (r->index > 3)
			return refuse(b, IR_REFUSE_ADDRESSING, "ADDR index above 3");
		b->s->addr_used |= (uint8_t)(1u << r->index);
		break;
	default:
		return refuse(b, IR_REFUSE_OPCODE, "cannot write this register file");
	}
	return true;
}

static bool build_decls(ir_shader *s, const tgsi_shader *sh, ir_error *e)
{
	for (size_t i = 0; i < sh->num_decls; i++) {
		const tgsi_declaration *dc = &sh->decls[i];
		if (dc->last > IR_MAX_REG_INDEX)
			return ir_refuse(e, IR_REFUSE_LIMITS, s->file, dc->line, dc->col,
			                 "DCL: register range too large");
		switch (dc->file) {
		case TGSI_FILE_OUTPUT:
			for (uint32_t r = dc->first; r <= dc->last; r++) {
				ir_output *o = add_output(s, (int32_t)r);
				if (!o)
					return ir_refuse(e, IR_REFUSE_LIMITS, s->file, dc->line, dc->col, "out of memory");
				o->mask = dc->usage_mask ? dc->usage_mask : 0xF;
				if (dc->semantic) {
					o->semantic = dc->semantic_name;
					o->semantic_index = dc->semantic_index + (r - dc->first);
				}
			}
			break;
		case TGSI_FILE_TEMPORARY:
			if (dc->last + 1 > s->ntemps)
				s->ntemps = dc->last + 1;
			break;
		case TGSI_FILE_CONSTANT:
			if (dc->dimension && dc->index_2d != 0)
				break;                  /* refused only where it is read */
			if ((int32_t)dc->last + 1 > s->const_count)
				s->const_count = (int32_t)dc->last + 1;
			break;
		case TGSI_FILE_INPUT:
			if (dc->last + 1 > s->ninputs)
				s->ninputs = dc->last + 1;
			break;
		default:
			break;
		}
	}
	for (size_t i = 0; i < sh->num_imms; i++) {
		const tgsi_immediate *im = &sh->imms[i];
		if (im->type != TGSI_IMM_FLOAT32 && im->type != TGSI_IMM_UINT32 && im->type != TGSI_IMM_INT32)
			return ir_refuse(e, IR_REFUSE_DOUBLE, s->file, im->line, im->col,
			                 "IMM: 64-bit immediates are not supported");
		uint32_t (*p)[4] = realloc(s->imm, (s->nimm + 1) * sizeof *p);
		if (!p)
			return ir_refuse(e, IR_REFUSE_LIMITS, s->file, im->line, im->col, "out of memory");
		s->imm = p;
		s->cap_imm = s->nimm + 1;
		memcpy(s->imm[s->nimm++], im->u, sizeof im->u);   /* raw bits, read as f32 */
	}
	s->nimm_tgsi = s->nimm;
	for (size_t i = 0; i < sh->num_props; i++) {
		const tgsi_property *p = &sh->props[i];
		if (p->name == TGSI_PROPERTY_GS_INPUT_PRIM)
			s->gs_in_prim = (uint8_t)p->value;
		else if (p->name == TGSI_PROPERTY_GS_OUTPUT_PRIM)
			s->gs_out_prim = (uint8_t)p->value;
		else if (p->name == TGSI_PROPERTY_GS_MAX_OUTPUT_VERTICES)
			s->gs_max_vertices = p->value;
	}
	return true;
}

/* SHL a, IMM[n] in the float-only dialect: Mesa's nir_lower_int_to_float
 * leaves ishl as SHL on integer-valued floats, with a FLT32 shift count
 * (the variable-indexing tests: SHL col, 1.0 for col * 2; tgsi_exec would
 * shift the float's bits).  With the same count k (an integer 0..23) in
 * every channel it reads, it is a * 2^k; the power of two is returned. */
static bool shl_float_scale(const bctx *b, const tgsi_instruction *ti, float *scale)
{
	const tgsi_src *c = &ti->src[1];
	if (ti->num_src != 2 || ti->num_dst != 1 || c->reg.file != TGSI_FILE_IMMEDIATE || c->reg.indirect ||
	    c->negate || c->absolute || c->reg.index < 0 || (size_t)c->reg.index >= b->sh->num_imms)
		return false;
	const tgsi_immediate *im = &b->sh->imms[c->reg.index];
	if (im->type != TGSI_IMM_FLOAT32)
		return false;
	float k = -1.0f;
	for (unsigned ch = 0; ch < 4; ch++) {
		if (!(ti->dst[0].writemask & (1u << ch)))
			continue;
		float v;
		memcpy(&v, &im->u[c->swizzle[ch] & 3u], sizeof v);
		if (!(v >= 0.0f && v <= 23.0f && v == (float)(int)v) || (k >= 0.0f && v != k))
			return false;
		k = v;
	}
	if (k < 0.0f)
		return false;
	*scale = (float)(1u << (unsigned)k);
	return true;
}

static bool build_inst(bctx *b, const tgsi_instruction *ti)
{
	ir_shader *s = b->s;
	unsigned op = ti->opcode;
	float shl_scale = 1.0f;
	if (op == TGSI_OPCODE_SHL && shl_float_scale(b, ti, &shl_scale)) {
		ir_inst in;
		memset(&in, 0, sizeof in);
		in.op = IR_OP_MUL;
		in.sat = ti->saturate;
		in.line = ti->line;
		in.col = ti->col;
		in.open = in.mid = in.close = -1;
		if (!map_dst(b, &ti->dst[0], &in.dst) || !map_src(b, &ti->src[0], &in.src[0]))
			return false;
		in.src[1] = ir_imm_scalar(s, shl_scale);
		in.nsrc = 2;
		ir_inst *p = ir_append(s);
		if (!p)
			return refuse(b, IR_REFUSE_LIMITS, "out of memory");
		*p = in;
		return true;
	}
	if (is_integer_op(op))
		return refuse(b, IR_REFUSE_INTEGER, "integer opcodes are not supported by a float-only target");
	if (is_double_op(op))
		return refuse(b, IR_REFUSE_DOUBLE, "64-bit opcodes are not supported");
	if (op == TGSI_OPCODE_CAL || op == TGSI_OPCODE_RET || op == TGSI_OPCODE_BGNSUB ||
	    op == TGSI_OPCODE_ENDSUB || op == TGSI_OPCODE_SWITCH || op == TGSI_OPCODE_CASE ||
	    op == TGSI_OPCODE_DEFAULT || op == TGSI_OPCODE_ENDSWITCH)
		return refuse(b, IR_REFUSE_CONTROL_FLOW, "subroutines and SWITCH are not supported");
	int irop = direct_op(op);
	bool clamp = op == TGSI_OPCODE_CLAMP;
	if (irop < 0 && !clamp)
		return refuse(b, IR_REFUSE_OPCODE, "opcode not supported");
	ir_inst in;
	memset(&in, 0, sizeof in);
	in.op = (uint16_t)(clamp ? IR_OP_MAX : irop);
	in.sat = ti->saturate;
	in.line = ti->line;
	in.col = ti->col;
	in.open = in.mid = in.close = -1;
	if (ti->num_dst && !map_dst(b, &ti->dst[0], &in.dst))
		return false;
	unsigned nsrc = 0;
	for (unsigned k = 0; k < ti->num_src; k++) {
		ir_src sr;
		if (!map_src(b, &ti->src[k], &sr))
			return false;
		if (sr.file == IR_SAMPLER) {
			in.sampler = (uint16_t)sr.index;
			continue;
		}
		if (sr.file == IR_OUTPUT && s->stage != TGSI_PROCESSOR_VERTEX &&
		    s->stage != TGSI_PROCESSOR_GEOMETRY && s->stage != TGSI_PROCESSOR_FRAGMENT)
			return refuse(b, IR_REFUSE_IO, "reads an output");
		if (nsrc == IR_MAX_SRC)
			return refuse(b, IR_REFUSE_OPCODE, "too many sources");
		in.src[nsrc++] = sr;
	}
	in.nsrc = (uint8_t)nsrc;
	if (ti->texture)
		in.tex_target = ti->target;
	switch (op) {
	case TGSI_OPCODE_ABS:
		in.src[0].abs = true;
		in.src[0].neg = false;
		break;
	case TGSI_OPCODE_SUB:
		in.src[1].neg = !in.src[1].neg;
		break;
	case TGSI_OPCODE_EMIT:
	case TGSI_OPCODE_ENDPRIM:
		in.nsrc = 0;            /* the stream operand: only stream 0 exists */
		break;
	case TGSI_OPCODE_FBFETCH:   /* FBFETCH d, OUT[colour]: the destination of COLOR[0] */
		if (s->stage != TGSI_PROCESSOR_FRAGMENT)
			return refuse(b, IR_REFUSE_OPCODE, "FBFETCH outside a fragment shader");
		in.nsrc = 0;
		break;
	default:
		break;
	}
	if (in.nsrc != ir_op_get(in.op)->nsrc && !clamp)
		return refuse(b, IR_REFUSE_MALFORMED, "wrong number of sources");
	if (clamp) {
		/* CLAMP d, x, lo, hi = MIN(MAX(x, lo), hi) */
		uint32_t t = ir_new_temp(s);
		ir_inst mx = in, mn = in;
		mx.sat = false;
		mx.nsrc = 2;
		mx.dst = ir_dst_reg(IR_TEMP, (int32_t)t, in.dst.mask);
		mn.op = IR_OP_MIN;
		mn.nsrc = 2;
		mn.src[0] = ir_src_reg(IR_TEMP, (int32_t)t);
		mn.src[1] = in.src[2];
		ir_inst *p = ir_append(s);
		if (!p)
			return refuse(b, IR_REFUSE_LIMITS, "out of memory");
		*p = mx;
		in = mn;
	}
	ir_inst *p = ir_append(s);
	if (!p)
		return refuse(b, IR_REFUSE_LIMITS, "out of memory");
	*p = in;
	return true;
}

ir_shader *ir_from_tgsi(tgsi_shader *sh, const char *file, ir_error *e)
{
	ulp_diag_clear(&e->d);
	e->why = IR_OK;
	if (!tgsi_cf_resolve(sh, file, &e->d)) {
		e->why = IR_REFUSE_MALFORMED;
		return NULL;
	}
	ir_shader *s = ir_shader_new(sh->processor, file);
	if (!s) {
		ir_refuse(e, IR_REFUSE_LIMITS, file, 0, 0, "out of memory");
		return NULL;
	}
	bool ok = build_decls(s, sh, e);
	bctx b = { .s = s, .sh = sh, .e = e };
	for (size_t i = 0; ok && i < sh->num_insts; i++) {
		b.ti = &sh->insts[i];
		if (b.ti->opcode == TGSI_OPCODE_END) {
			/* the main body ends here; anything after is subroutines */
			ok = build_inst(&b, b.ti);
			break;
		}
		ok = build_inst(&b, b.ti);
	}
	if (ok && (s->n == 0 || s->inst[s->n - 1].op != IR_OP_END)) {
		ir_inst *p = ir_append(s);
		if (p)
			p->op = IR_OP_END;
		else
			ok = ir_refuse(e, IR_REFUSE_LIMITS, file, 0, 0, "out of memory");
	}
	if (ok)
		ok = ir_resolve_cf(s, e);
	if (!ok) {
		ir_shader_free(s);
		return NULL;
	}
	return s;
}
