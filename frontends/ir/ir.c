/* Compiler IR: opcode table, shader editing helpers, control-flow links,
 * the listing.  (ir.h) */
#include "frontends/ir/ir.h"

#include "base/strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define F_BASE IR_F_BASE
#define F_COMMUTE IR_F_COMMUTE
static const ir_op_info OPS[] = {
#define IR_OP(name, nsrc, kind, flags) { #name, nsrc, IR_KIND_##kind, flags },
#include "frontends/ir/ir_ops.def"
#undef IR_OP
};
_Static_assert(sizeof OPS / sizeof OPS[0] == IR_OP_COUNT, "ir_ops.def and IR_OP_COUNT");

const ir_op_info *ir_op_get(unsigned op)
{
	return op < IR_OP_COUNT ? &OPS[op] : &OPS[IR_OP_NOP];
}

static const char *const REFUSALS[IR_REFUSAL_COUNT] = {
	"ok", "stage", "integer", "double", "opcode", "texture", "addressing",
	"registers", "constants", "io", "control-flow", "limits", "malformed",
};

const char *ir_refusal_name(unsigned why)
{
	return why < IR_REFUSAL_COUNT ? REFUSALS[why] : "unknown";
}

bool ir_refuse(ir_error *e, enum ir_refusal why, const char *file, int line, int col,
               const char *fmt, ...)
{
	if (e->d.set)
		return false;
	e->why = why;
	va_list ap;
	va_start(ap, fmt);
	ulp_diag_vat(&e->d, file, line, col, -1, fmt, ap);
	va_end(ap);
	return false;
}

ir_shader *ir_shader_new(uint8_t stage, const char *file)
{
	ir_shader *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	s->stage = stage;
	s->file = file ? file : "";
	return s;
}

void ir_shader_free(ir_shader *s)
{
	if (!s)
		return;
	free(s->inst);
	free(s->imm);
	free(s->out);
	free(s);
}

ir_inst *ir_insert(ir_shader *s, size_t pos, size_t count)
{
	if (pos > s->n)
		return NULL;
	if (s->n + count > s->cap) {
		size_t cap = s->cap ? s->cap : 64;
		while (cap < s->n + count)
			cap *= 2;
		ir_inst *p = realloc(s->inst, cap * sizeof *p);
		if (!p)
			return NULL;
		s->inst = p;
		s->cap = cap;
	}
	memmove(&s->inst[pos + count], &s->inst[pos], (s->n - pos) * sizeof *s->inst);
	memset(&s->inst[pos], 0, count * sizeof *s->inst);
	for (size_t i = pos; i < pos + count; i++)
		s->inst[i].open = s->inst[i].mid = s->inst[i].close = -1;
	s->n += count;
	return &s->inst[pos];
}

ir_inst *ir_append(ir_shader *s)
{
	return ir_insert(s, s->n, 1);
}

void ir_remove(ir_shader *s, size_t pos)
{
	if (pos >= s->n)
		return;
	memmove(&s->inst[pos], &s->inst[pos + 1], (s->n - pos - 1) * sizeof *s->inst);
	s->n--;
}

uint32_t ir_new_temp(ir_shader *s)
{
	return s->ntemps++;
}

ir_src ir_src_reg(uint8_t file, int32_t index)
{
	ir_src r = { .file = file, .index = index, .swz = { 0, 1, 2, 3 } };
	return r;
}

ir_src ir_src_swz(ir_src s, unsigned x, unsigned y, unsigned z, unsigned w)
{
	uint8_t o[4] = { s.swz[x & 3], s.swz[y & 3], s.swz[z & 3], s.swz[w & 3] };
	memcpy(s.swz, o, 4);
	return s;
}

ir_src ir_src_comp(ir_src s, unsigned c)
{
	return ir_src_swz(s, c, c, c, c);
}

ir_dst ir_dst_reg(uint8_t file, int32_t index, uint8_t mask)
{
	ir_dst d = { .file = file, .index = index, .mask = mask };
	return d;
}

static bool imm_grow(ir_shader *s)
{
	if (s->nimm < s->cap_imm)
		return true;
	size_t cap = s->cap_imm ? 2 * s->cap_imm : 8;
	uint32_t (*p)[4] = realloc(s->imm, cap * sizeof *p);
	if (!p)
		return false;
	s->imm = p;
	s->cap_imm = cap;
	return true;
}

ir_src ir_imm_scalar(ir_shader *s, float v)
{
	uint32_t bits;
	memcpy(&bits, &v, 4);
	/* TGSI entries: all four slots; internal entries are packed with up to
	 * four scalars, the last one holding imm_fill of them. */
	for (size_t i = 0; i < s->nimm; i++) {
		unsigned valid = i + 1 == s->nimm && i >= s->nimm_tgsi ? s->imm_fill : 4;
		for (unsigned c = 0; c < valid; c++)
			if (s->imm[i][c] == bits)
				return ir_src_comp(ir_src_reg(IR_IMM, (int32_t)i), c);
	}
	if (s->nimm > s->nimm_tgsi && s->imm_fill < 4) {
		unsigned c = s->imm_fill++;
		s->imm[s->nimm - 1][c] = bits;
		return ir_src_comp(ir_src_reg(IR_IMM, (int32_t)(s->nimm - 1)), c);
	}
	if (!imm_grow(s))
		return (ir_src){ .file = IR_NULL };
	memset(s->imm[s->nimm], 0, sizeof s->imm[0]);
	s->imm[s->nimm][0] = bits;
	s->imm_fill = 1;
	s->nimm++;
	return ir_src_comp(ir_src_reg(IR_IMM, (int32_t)(s->nimm - 1)), 0);
}

uint8_t ir_src_reads(const ir_inst *in, unsigned k)
{
	const ir_src *s = &in->src[k];
	unsigned mask = 0;
	const ir_op_info *oi = ir_op_get(in->op);
	switch (oi->kind) {
	case IR_KIND_COMP:
		for (unsigned c = 0; c < 4; c++)
			if (in->dst.mask & (1u << c))
				mask |= 1u << s->swz[c];
		return (uint8_t)mask;
	case IR_KIND_REPL:
		switch (in->op) {
		case IR_OP_DP2: return (uint8_t)(1u << s->swz[0] | 1u << s->swz[1]);
		case IR_OP_DP3: return (uint8_t)(1u << s->swz[0] | 1u << s->swz[1] | 1u << s->swz[2]);
		case IR_OP_DPH:
			if (k == 0)
				return (uint8_t)(1u << s->swz[0] | 1u << s->swz[1] | 1u << s->swz[2]);
			break;
		case IR_OP_DP4: break;
		default: return (uint8_t)(1u << s->swz[0]);
		}
		break;
	default:
		break;
	}
	for (unsigned c = 0; c < 4; c++)
		mask |= 1u << s->swz[c];
	return (uint8_t)mask;
}

bool ir_resolve_cf(ir_shader *s, ir_error *e)
{
	enum { DEPTH = 64 };
	int32_t stack[DEPTH];
	int sp = 0;
	for (size_t i = 0; i < s->n; i++) {
		ir_inst *in = &s->inst[i];
		in->open = in->mid = in->close = -1;
		switch (in->op) {
		case IR_OP_IF:
		case IR_OP_BGNLOOP:
			if (sp == DEPTH)
				return ir_refuse(e, IR_REFUSE_CONTROL_FLOW, s->file, in->line, in->col,
				                 "control flow nested deeper than %d", DEPTH);
			in->open = (int32_t)i;
			stack[sp++] = (int32_t)i;
			break;
		case IR_OP_ELSE:
			if (!sp || s->inst[stack[sp - 1]].op != IR_OP_IF || s->inst[stack[sp - 1]].mid >= 0)
				return ir_refuse(e, IR_REFUSE_MALFORMED, s->file, in->line, in->col,
				                 "ELSE without IF");
			in->open = stack[sp - 1];
			s->inst[stack[sp - 1]].mid = (int32_t)i;
			break;
		case IR_OP_ENDIF:
		case IR_OP_ENDLOOP: {
			unsigned want = in->op == IR_OP_ENDIF ? IR_OP_IF : IR_OP_BGNLOOP;
			if (!sp || s->inst[stack[sp - 1]].op != want)
				return ir_refuse(e, IR_REFUSE_MALFORMED, s->file, in->line, in->col,
				                 "%s without its opening instruction", ir_op_get(in->op)->name);
			int32_t o = stack[--sp];
			ir_inst *op = &s->inst[o];
			op->close = (int32_t)i;
			in->open = o;
			in->mid = op->mid;
			in->close = (int32_t)i;
			op->open = o;
			if (op->mid >= 0) {
				s->inst[op->mid].close = (int32_t)i;
				s->inst[op->mid].mid = op->mid;
			}
			break;
		}
		case IR_OP_BRK:
		case IR_OP_CONT: {
			int k = sp - 1;
			while (k >= 0 && s->inst[stack[k]].op != IR_OP_BGNLOOP)
				k--;
			if (k < 0)
				return ir_refuse(e, IR_REFUSE_MALFORMED, s->file, in->line, in->col,
				                 "%s outside a loop", ir_op_get(in->op)->name);
			in->open = stack[k];
			break;
		}
		default:
			break;
		}
	}
	if (sp)
		return ir_refuse(e, IR_REFUSE_MALFORMED, s->file, s->inst[stack[sp - 1]].line,
		                 s->inst[stack[sp - 1]].col, "%s is never closed",
		                 ir_op_get(s->inst[stack[sp - 1]].op)->name);
	/* BRK/CONT: close = the loop's ENDLOOP */
	for (size_t i = 0; i < s->n; i++)
		if ((s->inst[i].op == IR_OP_BRK || s->inst[i].op == IR_OP_CONT) && s->inst[i].open >= 0)
			s->inst[i].close = s->inst[s->inst[i].open].close;
	return true;
}

/* ---- listing ---- */

static const char *const FILE_NAMES[IR_FILE_COUNT] = {
	"null", "t", "in", "out", "c", "imm", "addr", "samp", "sv",
};

static void dump_src(ulp_strbuf *b, const ir_src *s)
{
	ulp_strbuf_printf(b, "%s%s%s", s->neg ? "-" : "", s->abs ? "|" : "", FILE_NAMES[s->file]);
	if (s->indirect)
		ulp_strbuf_printf(b, "[addr%u.%c%+d]", s->ind_reg, "xyzw"[s->ind_comp & 3], s->index);
	else if (s->file == IR_INPUT && s->dim)
		ulp_strbuf_printf(b, "%u[%d]", s->dim, s->index);
	else
		ulp_strbuf_printf(b, "%d", s->index);
	ulp_strbuf_printf(b, ".%c%c%c%c%s", "xyzw"[s->swz[0] & 3], "xyzw"[s->swz[1] & 3],
	          "xyzw"[s->swz[2] & 3], "xyzw"[s->swz[3] & 3], s->abs ? "|" : "");
}

char *ir_dump(const ir_shader *s)
{
	ulp_strbuf b = { 0 };
	int depth = 0;
	for (size_t i = 0; i < s->n; i++) {
		const ir_inst *in = &s->inst[i];
		const ir_op_info *oi = ir_op_get(in->op);
		if (in->op == IR_OP_ELSE || in->op == IR_OP_ENDIF || in->op == IR_OP_ENDLOOP)
			depth--;
		ulp_strbuf_printf(&b, "%3zu: %*s%s%s%s", i, 2 * (depth > 0 ? depth : 0), "", oi->name,
		          in->sat ? "_SAT" : "", in->op == IR_OP_IF && in->cond == IR_IF_LT0 ? "_LT0" : "");
		const char *sep = " ";
		if (in->dst.file != IR_NULL) {
			ulp_strbuf_printf(&b, " %s%d.", FILE_NAMES[in->dst.file], in->dst.index);
			for (unsigned c = 0; c < 4; c++)
				if (in->dst.mask & (1u << c))
					ulp_strbuf_printf(&b, "%c", "xyzw"[c]);
			sep = ", ";
		}
		for (unsigned k = 0; k < in->nsrc; k++) {
			ulp_strbuf_printf(&b, "%s", sep);
			dump_src(&b, &in->src[k]);
			sep = ", ";
		}
		ulp_strbuf_printf(&b, "\n");
		if (in->op == IR_OP_IF || in->op == IR_OP_ELSE || in->op == IR_OP_BGNLOOP)
			depth++;
	}
	ulp_strbuf_printf(&b, "%s", "");
	if (b.oom) {
		free(b.s);
		return NULL;
	}
	if (!b.s)
		b.s = calloc(1, 1);
	return b.s;
}
