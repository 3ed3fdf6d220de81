/* PICA200 backend: the driver (pica_compile) and picasso text emission.
 *
 * One allocated IR instruction becomes one PICA200 instruction (so the
 * register allocator's sharing rule holds), plus control flow:
 *   IF x          CMP cZERO, ne, ne, x  then IFC cmp.x ... .else ... .end
 *                 (gt, gt for IR_IF_LT0: CMP's select, ir_lower.c)
 *                 (an IF that a BRK/CONT leaves, or nested deeper than the
 *                 8-entry IF stack, uses JMPC !cmp.x / JMPU b0 instead:
 *                 leaving an IFC block by a jump would strand its IF-stack
 *                 entry, pica200.md §1.4)
 *   BGNLOOP       label; ENDLOOP: JMPU b0 back (b0 = constant true).  LOOP
 *                 is not used: it runs at most 256 iterations from an
 *                 integer uniform, TGSI loops are unbounded.
 *   BRK / CONT    JMPU b0 to the exit / the top; "IF x BRK ENDIF" is one
 *                 CMP + JMPC cmp.x
 *   ARL           MOVA (after FLR: MOVA truncates); a NOP between two MOVAs
 *   END           END (outputs were copied before it: ir_outputs_to_temps)
 * A jump target that would fall on a block's .else/.end gets a NOP so that
 * it stays inside the block.  picasso's own padding NOPs (blocks ending
 * together, a jump as a block's last instruction, empty bodies) come from
 * pica_assemble.  docs/compiler.md "PICA200 backend". */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/pica/pica_compile.h"
#include "base/strbuf.h"
#include "isa/pica/pica_asm.h"

typedef struct ectx {
	ir_shader *s;
	pica_compile_result *res;
	const uint16_t *rmap;       /* temp -> r */
	int16_t *imm_reg;           /* imm -> c, -1 unused */
	int8_t out_reg[16];         /* OUT[n] -> o, -1 none */
	uint8_t *jump_if;           /* per IF: uses jumps */
	ulp_strbuf t;
	bool pending_label;
	bool last_mova;
	ir_src zero;
	unsigned gs_vertex;         /* vertices emitted in the current strip */
	ir_error *e;
} ectx;

static const char XYZW[] = "xyzw";

static void put_src(ectx *E, const ir_src *x, char *buf, size_t n)
{
	char reg[24];
	switch (x->file) {
	case IR_TEMP: snprintf(reg, sizeof reg, "r%u", E->rmap[x->index]); break;
	case IR_INPUT: snprintf(reg, sizeof reg, "v%d", x->index); break;
	case IR_IMM: snprintf(reg, sizeof reg, "c%d", E->imm_reg[x->index]); break;
	case IR_CONST:
		if (x->indirect)
			snprintf(reg, sizeof reg, "c%d[a0.%c]", x->index, x->ind_comp ? 'y' : 'x');
		else
			snprintf(reg, sizeof reg, "c%d", x->index);
		break;
	default: snprintf(reg, sizeof reg, "?"); break;
	}
	snprintf(buf, n, "%s%s.%c%c%c%c", x->neg ? "-" : "", reg, XYZW[x->swz[0] & 3],
	         XYZW[x->swz[1] & 3], XYZW[x->swz[2] & 3], XYZW[x->swz[3] & 3]);
}

static void put_dst(ectx *E, const ir_dst *d, char *buf, size_t n)
{
	char m[5];
	int k = 0;
	for (unsigned c = 0; c < 4; c++)
		if (d->mask & (1u << c))
			m[k++] = XYZW[c];
	m[k] = 0;
	if (d->file == IR_OUTPUT)
		snprintf(buf, n, "o%d.%s", E->out_reg[d->index], m);
	else
		snprintf(buf, n, "r%u.%s", E->rmap[d->index], m);
}

static void inst_line(ectx *E, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void inst_line(ectx *E, const char *fmt, ...)
{
	char line[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	bool mova = strncmp(line, "mova", 4) == 0;
	if (mova && E->last_mova)
		ulp_strbuf_printf(&E->t, "\tnop\t\t; two adjacent MOVAs hang the unit (pica200.md §1.3)\n");
	E->last_mova = mova;
	E->pending_label = false;
	ulp_strbuf_printf(&E->t, "\t%s\n", line);
}

static void label(ectx *E, const char *kind, size_t at)
{
	ulp_strbuf_printf(&E->t, "%s%zu:\n", kind, at);
	E->pending_label = true;
	E->last_mova = false;
}

/* A block directive: a label just before it would point past the block. */
static void block_dir(ectx *E, const char *dir)
{
	if (E->pending_label)
		inst_line(E, "nop");
	ulp_strbuf_printf(&E->t, "%s\n", dir);
	E->last_mova = false;
}

static bool is_c(const ir_src *x)
{
	return x->file == IR_CONST || x->file == IR_IMM;
}

static const char *mnemonic(unsigned op)
{
	switch (op) {
	case IR_OP_MOV: return "mov";
	case IR_OP_ADD: return "add";
	case IR_OP_MUL: return "mul";
	case IR_OP_MAD: return "mad";
	case IR_OP_DP3: return "dp3";
	case IR_OP_DP4: return "dp4";
	case IR_OP_DPH: return "dph";
	case IR_OP_MIN: return "min";
	case IR_OP_MAX: return "max";
	case IR_OP_SLT: return "slt";
	case IR_OP_SGE: return "sge";
	case IR_OP_FLR: return "flr";
	case IR_OP_RCP: return "rcp";
	case IR_OP_RSQ: return "rsq";
	case IR_OP_EX2: return "ex2";
	case IR_OP_LG2: return "lg2";
	default: return NULL;
	}
}

/* cmp.x = the IF's condition: 0 != x, or 0 > x for IR_IF_LT0 (false for a
 * NaN x, as CMP compares without flushing: pica200.md §2.2). */
static void emit_cmp(ectx *E, const ir_inst *in)
{
	char a[48], b[48];
	const char *op = in->cond == IR_IF_LT0 ? "gt" : "ne";
	put_src(E, &E->zero, a, sizeof a);
	put_src(E, &in->src[0], b, sizeof b);
	inst_line(E, "cmp %s, %s, %s, %s", a, op, op, b);
}

static bool emit_alu(ectx *E, const ir_inst *in)
{
	char d[32], a[48], b[48], c[48];
	const char *mn = mnemonic(in->op);
	if (in->op == IR_OP_ARL) {
		put_src(E, &in->src[0], a, sizeof a);
		const char *m = in->dst.mask == 1 ? "a0.x" : in->dst.mask == 2 ? "a0.y" : "a0.xy";
		inst_line(E, "mova %s, %s", m, a);
		return true;
	}
	if (!mn)
		return ir_refuse(E->e, IR_REFUSE_OPCODE, E->s->file, in->line, in->col,
		                 "%s: no PICA200 instruction", ir_op_get(in->op)->name);
	if (in->dst.file == IR_NULL || !in->dst.mask)
		return true;            /* writes nothing */
	put_dst(E, &in->dst, d, sizeof d);
	ir_src s0 = in->src[0], s1 = in->src[1], s2 = in->src[2];
	switch (in->nsrc) {
	case 1:
		put_src(E, &s0, a, sizeof a);
		inst_line(E, "%s %s, %s", mn, d, a);
		break;
	case 2:
		/* the narrow second field cannot hold c: swap commutative operands;
		 * SGE/SLT/DPH become SGEI/SLTI/DPHI in the assembler (§1.3) */
		if (is_c(&s1) && (ir_op_get(in->op)->flags & IR_F_COMMUTE) &&
		    in->op != IR_OP_MIN && in->op != IR_OP_MAX) {
			ir_src t = s0;
			s0 = s1;
			s1 = t;
		}
		put_src(E, &s0, a, sizeof a);
		put_src(E, &s1, b, sizeof b);
		inst_line(E, "%s %s, %s, %s", mn, d, a, b);
		break;
	case 3:
		/* MAD: src1 narrow; c goes to src2 (MAD) or src3 (MADI) */
		if (is_c(&s0)) {
			ir_src t = s0;
			s0 = s1;
			s1 = t;
		}
		put_src(E, &s0, a, sizeof a);
		put_src(E, &s1, b, sizeof b);
		put_src(E, &s2, c, sizeof c);
		inst_line(E, "%s %s, %s, %s, %s", mn, d, a, b, c);
		break;
	default:
		break;
	}
	return true;
}

/* The IF at i is just "IF x; BRK|CONT; ENDIF". */
static bool if_jump_only(const ir_shader *s, size_t i)
{
	const ir_inst *in = &s->inst[i];
	return in->mid < 0 && in->close == (int32_t)i + 2 &&
	       (s->inst[i + 1].op == IR_OP_BRK || s->inst[i + 1].op == IR_OP_CONT);
}

/* Marks IFs that must use jumps: left by a BRK/CONT, or nested too deep. */
static bool plan_ifs(ectx *E)
{
	ir_shader *s = E->s;
	E->jump_if = calloc(s->n ? s->n : 1, 1);
	if (!E->jump_if)
		return ir_refuse(E->e, IR_REFUSE_LIMITS, s->file, 0, 0, "out of memory");
	for (size_t i = 0; i < s->n; i++) {
		const ir_inst *in = &s->inst[i];
		if (in->op != IR_OP_BRK && in->op != IR_OP_CONT)
			continue;
		/* every IF enclosing i inside the loop */
		for (size_t j = (size_t)in->open + 1; j < i; j++)
			if (s->inst[j].op == IR_OP_IF && s->inst[j].close > (int32_t)i)
				E->jump_if[j] = 1;
	}
	int depth = 0;
	int32_t stack[64];
	int sp = 0;
	for (size_t i = 0; i < s->n; i++) {
		const ir_inst *in = &s->inst[i];
		if (in->op == IR_OP_IF) {
			if (!E->jump_if[i] && depth >= 8)     /* IF stack: 8 entries (§1.4) */
				E->jump_if[i] = 1;
			if (!E->jump_if[i])
				depth++;
			if (sp < 64)
				stack[sp++] = (int32_t)i;
		} else if (in->op == IR_OP_ENDIF && sp) {
			if (!E->jump_if[stack[--sp]])
				depth--;
		}
	}
	return true;
}

static bool emit_body(ectx *E)
{
	ir_shader *s = E->s;
	for (size_t i = 0; i < s->n; i++) {
		const ir_inst *in = &s->inst[i];
		switch (in->op) {
		case IR_OP_NOP:
			break;
		case IR_OP_IF:
			emit_cmp(E, in);
			if (if_jump_only(s, i)) {
				const ir_inst *j = &s->inst[i + 1];
				if (j->op == IR_OP_BRK)
					inst_line(E, "jmpc cmp.x, l%d_exit", j->open);
				else
					inst_line(E, "jmpc cmp.x, l%d_top", j->open);
				i += 2;         /* BRK/CONT and ENDIF done */
			} else if (E->jump_if[i]) {
				inst_line(E, "jmpc !cmp.x, %s%zu", in->mid >= 0 ? "i_else" : "i_end", i);
			} else {
				inst_line(E, "ifc cmp.x");
			}
			break;
		case IR_OP_ELSE:
			if (E->jump_if[in->open]) {
				inst_line(E, "jmpu b0, i_end%d", in->open);
				label(E, "i_else", (size_t)in->open);
			} else {
				block_dir(E, ".else");
			}
			break;
		case IR_OP_ENDIF:
			if (E->jump_if[in->open])
				label(E, "i_end", (size_t)in->open);
			else
				block_dir(E, ".end");
			break;
		case IR_OP_BGNLOOP:
			ulp_strbuf_printf(&E->t, "l%zu_top:\n", i);
			E->pending_label = true;
			E->last_mova = false;
			break;
		case IR_OP_ENDLOOP:
			inst_line(E, "jmpu b0, l%d_top", in->open);
			ulp_strbuf_printf(&E->t, "l%d_exit:\n", in->open);
			E->pending_label = true;
			E->last_mova = false;
			break;
		case IR_OP_BRK:
			inst_line(E, "jmpu b0, l%d_exit", in->open);
			break;
		case IR_OP_CONT:
			inst_line(E, "jmpu b0, l%d_top", in->open);
			break;
		case IR_OP_END:
			inst_line(E, "end");
			return true;
		case IR_OP_EMIT: {
			/* strip vertex k -> slot k % 3; from the third on it completes a
			 * triangle, every other one with the winding inverted (§1.3 SETEMIT) */
			unsigned k = E->gs_vertex++;
			inst_line(E, "setemit %u%s%s", k % 3, k >= 2 ? ", prim" : "",
			          k >= 2 && (k & 1) ? " inv" : "");
			inst_line(E, "emit");
			break;
		}
		case IR_OP_ENDPRIM:
			E->gs_vertex = 0;
			break;
		default:
			if (!emit_alu(E, in))
				return false;
			break;
		}
	}
	inst_line(E, "end");
	return true;
}

/* ---- tables: outputs, constants ---- */

static uint8_t out_type(const ir_output *o, unsigned *next_tc)
{
	switch (o->semantic) {
	case TGSI_SEMANTIC_POSITION: return SHBIN_OUT_POSITION;
	case TGSI_SEMANTIC_COLOR: return o->semantic_index == 0 ? SHBIN_OUT_COLOR : SHBIN_OUT_DUMMY;
	case TGSI_SEMANTIC_TEXCOORD:
	case TGSI_SEMANTIC_GENERIC:
		if (*next_tc < 3) {
			static const uint8_t tc[3] = { SHBIN_OUT_TEXCOORD0, SHBIN_OUT_TEXCOORD1,
			                               SHBIN_OUT_TEXCOORD2 };
			return tc[(*next_tc)++];
		}
		return SHBIN_OUT_DUMMY;
	default:
		return SHBIN_OUT_DUMMY;
	}
}

static const char *out_type_text(uint8_t t)
{
	const char *n = shbin_out_type_name(t);
	return n ? n : "dummy";
}

static bool plan_outputs(ectx *E)
{
	ir_shader *s = E->s;
	pica_compile_result *r = E->res;
	memset(E->out_reg, -1, sizeof E->out_reg);
	unsigned next_tc = 0, next_o = 0;
	/* non-dummy outputs first: only o0-o6 carry a semantic (pica200.md §1.1) */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t k = 0; k < s->nout; k++) {
			const ir_output *o = &s->out[k];
			uint8_t mask = (uint8_t)((o->mask | o->written) & 0xF);
			if (!mask || o->index > 15)
				continue;
			if (E->out_reg[o->index] >= 0)
				continue;
			unsigned nt = next_tc;
			uint8_t type = out_type(o, &nt);
			bool dummy = type == SHBIN_OUT_DUMMY || next_o >= 7;
			if ((pass == 0) == dummy)
				continue;
			next_tc = nt;
			if (next_o >= PICA_COMPILE_MAX_OUT || r->noutputs >= PICA_COMPILE_MAX_OUT)
				return ir_refuse(E->e, IR_REFUSE_IO, s->file, 0, 0,
				                 "more than 16 outputs (the PICA200 has o0-o15)");
			pica_compile_output *po = &r->outputs[r->noutputs++];
			po->tgsi_index = o->index;
			po->o_reg = (uint8_t)next_o;
			po->mask = mask;
			po->type = dummy ? SHBIN_OUT_DUMMY : type;
			E->out_reg[o->index] = (int8_t)next_o++;
		}
	}
	for (size_t k = 0; k < s->nout; k++)
		if (s->out[k].index > 15 && ((s->out[k].mask | s->out[k].written) & 0xF))
			return ir_refuse(E->e, IR_REFUSE_IO, s->file, 0, 0,
			                 "OUT[%d]: the PICA200 has 16 output registers", s->out[k].index);
	return true;
}

static bool plan_constants(ectx *E, int32_t *nconst)
{
	ir_shader *s = E->s;
	E->imm_reg = malloc((s->nimm ? s->nimm : 1) * sizeof *E->imm_reg);
	if (!E->imm_reg)
		return ir_refuse(E->e, IR_REFUSE_LIMITS, s->file, 0, 0, "out of memory");
	for (size_t k = 0; k < s->nimm; k++)
		E->imm_reg[k] = -1;
	int32_t top = 0;
	bool indirect = false;
	int used = 0;
	for (size_t i = 0; i < s->n; i++) {
		const ir_inst *in = &s->inst[i];
		for (unsigned k = 0; k < in->nsrc; k++) {
			const ir_src *x = &in->src[k];
			if (x->file == IR_CONST) {
				if (x->indirect)
					indirect = true;
				else if (x->index + 1 > top)
					top = x->index + 1;
			} else if (x->file == IR_IMM && E->imm_reg[x->index] < 0) {
				E->imm_reg[x->index] = (int16_t)(95 - used++);
			}
		}
		if (in->op == IR_OP_IF && E->imm_reg[E->zero.index] < 0)
			E->imm_reg[E->zero.index] = (int16_t)(95 - used++);
	}
	if (indirect && s->const_count > top)
		top = s->const_count;
	*nconst = top;
	E->res->imm_regs = (unsigned)used;
	if (top + used > 96)
		return ir_refuse(E->e, IR_REFUSE_CONSTANTS, s->file, 0, 0,
		                 "needs %d constant registers (CONST[0][0..%d] and %d immediates), "
		                 "the PICA200 has 96", top + used, top - 1, used);
	return true;
}

static void emit_header(ectx *E, int32_t nconst, bool jumps)
{
	ir_shader *s = E->s;
	ulp_strbuf_printf(&E->t, "; generated by ulpsim tgsi compile --target pica from %s\n", s->file);
	if (s->stage == TGSI_PROCESSOR_GEOMETRY)
		ulp_strbuf_printf(&E->t, ".gsh point c0\t; IN[vtx][n] -> v(vtx * %u + n)\n",
		          s->ninputs ? s->ninputs : 1);
	ulp_strbuf_printf(&E->t, "; CONST[0][n] -> cn, IN[n] -> vn, immediates from c95 down\n");
	if (nconst > 0)
		ulp_strbuf_printf(&E->t, ".fvec const0[%d]\n", nconst);
	for (size_t k = 0; k < s->nimm; k++) {
		if (E->imm_reg[k] < 0)
			continue;
		ulp_strbuf_printf(&E->t, ".setf c%d(", E->imm_reg[k]);
		const int reg = E->imm_reg[k];
		if (reg >= 0 && reg < PICA_NUM_C)
			E->res->ximm_has[reg] = true;
		for (unsigned c = 0; c < 4; c++) {
			float f;
			memcpy(&f, &s->imm[k][c], 4);
			if (reg >= 0 && reg < PICA_NUM_C)
				E->res->ximm[reg][c] = f;   /* arith=exact reads this */
			if (isinf(f))
				ulp_strbuf_printf(&E->t, "%s%s", f < 0 ? "-1e39" : "1e39", c < 3 ? ", " : "");
			else
				ulp_strbuf_printf(&E->t, "%.9g%s", (double)f, c < 3 ? ", " : "");
		}
		ulp_strbuf_printf(&E->t, ")\t; %s\n", k < s->nimm_tgsi ? "IMM" : "internal");
	}
	if (jumps)
		ulp_strbuf_printf(&E->t, ".setb b0 true\t; unconditional JMPU\n");
	for (unsigned v = 0; v < 16 && s->stage == TGSI_PROCESSOR_VERTEX; v++)
		if (s->inputs_used & (1u << v))
			ulp_strbuf_printf(&E->t, ".in in%u v%u\n", v, v);
	for (unsigned k = 0; k < E->res->noutputs; k++) {
		const pica_compile_output *o = &E->res->outputs[k];
		char m[5];
		int n = 0;
		for (unsigned c = 0; c < 4; c++)
			if (o->mask & (1u << c))
				m[n++] = XYZW[c];
		m[n] = 0;
		ulp_strbuf_printf(&E->t, ".out - %s o%u.%s\t; OUT[%d]\n", out_type_text(o->type), o->o_reg, m,
		          o->tgsi_index);
	}
	ulp_strbuf_printf(&E->t, "\n.proc main\n");
}

static bool check_immediates(ectx *E)
{
	ir_shader *s = E->s;
	for (size_t k = 0; k < s->nimm; k++) {
		if (E->imm_reg[k] < 0)
			continue;
		for (unsigned c = 0; c < 4; c++) {
			float f;
			memcpy(&f, &s->imm[k][c], 4);
			if (isnan(f))
				return ir_refuse(E->e, IR_REFUSE_CONSTANTS, s->file, 0, 0,
				                 "IMM[%zu] holds a NaN, which a float24 constant cannot", k);
		}
	}
	return true;
}

/* SETEMIT takes the vertex slot as an immediate, so the strip position of
 * each EMIT must be known at compile time; the unit emits triangles only. */
static bool check_gs(const ir_shader *s, ir_error *e)
{
	enum { PRIM_TRIANGLE_STRIP = 5 };       /* Mesa's PIPE_PRIM order (tgsi.md §1.3) */
	int depth = 0;
	for (size_t i = 0; i < s->n; i++) {
		const ir_inst *in = &s->inst[i];
		if (in->op == IR_OP_IF || in->op == IR_OP_BGNLOOP)
			depth++;
		else if (in->op == IR_OP_ENDIF || in->op == IR_OP_ENDLOOP)
			depth--;
		else if ((in->op == IR_OP_EMIT || in->op == IR_OP_ENDPRIM) && depth > 0)
			return ir_refuse(e, IR_REFUSE_CONTROL_FLOW, s->file, in->line, in->col,
			                 "%s inside IF or a loop: SETEMIT needs the vertex's strip "
			                 "position at compile time", ir_op_get(in->op)->name);
		if (in->op == IR_OP_EMIT && s->gs_out_prim != PRIM_TRIANGLE_STRIP)
			return ir_refuse(e, IR_REFUSE_OPCODE, s->file, in->line, in->col,
			                 "EMIT: the PICA200 geometry shader emits triangles only "
			                 "(GS_OUTPUT_PRIMITIVE %s)", tgsi_primitive_name(s->gs_out_prim));
	}
	return true;
}

static bool run_pipeline(ectx *E, const pica_compile_opts *opts)
{
	ir_shader *s = E->s;
	pica_compile_result *r = E->res;
	ir_caps caps;
	pica_ir_caps(&caps);
	if (!ir_outputs_to_temps(s, true, E->e) || !ir_lower(s, &caps, E->e) ||
	    !pica_legalize(s, E->e) || !ir_zero_undefined(s, E->e))
		return false;
	if (s->stage == TGSI_PROCESSOR_GEOMETRY && !check_gs(s, E->e))
		return false;
	bool has_if = false, jumps = false;
	for (size_t i = 0; i < s->n; i++) {
		has_if |= s->inst[i].op == IR_OP_IF;
		jumps |= s->inst[i].op == IR_OP_BGNLOOP;
	}
	if (has_if) {
		E->zero = ir_imm_scalar(s, 0.0f);
		if (E->zero.file == IR_NULL)
			return ir_refuse(E->e, IR_REFUSE_LIMITS, s->file, 0, 0, "out of memory");
	}
	uint16_t *map = NULL;
	if (!ir_regalloc(s, 16, &map, &r->temps_used, E->e))
		return false;
	E->rmap = map;
	int32_t nconst = 0;
	bool ok = plan_ifs(E) && plan_outputs(E) && plan_constants(E, &nconst) && check_immediates(E);
	if (ok) {
		for (size_t i = 0; i < s->n; i++)
			jumps |= s->inst[i].op == IR_OP_IF && E->jump_if[i] && s->inst[i].mid >= 0;
		emit_header(E, nconst, jumps);
		ok = emit_body(E);
		ulp_strbuf_printf(&E->t, ".end\n");
	}
	free(map);
	E->rmap = NULL;
	if (!ok)
		return false;
	if (E->t.oom)
		return ir_refuse(E->e, IR_REFUSE_LIMITS, s->file, 0, 0, "out of memory");
	r->asm_text = E->t.s;
	r->asm_len = E->t.len;
	E->t.s = NULL;
	if (opts && opts->no_shbin)
		return true;
	struct pica_asm_file f = { "<generated>", r->asm_text, r->asm_len };
	struct pica_asm_opts ao = { .no_nop = false };
	ulp_diag ad;
	ulp_diag_clear(&ad);
	if (!pica_assemble(&f, 1, &ao, &r->shbin, &ad))
		return ir_refuse(E->e, IR_REFUSE_LIMITS, s->file, 0, 0,
		                 "the PICA200 assembler rejects the generated code: line %d: %s",
		                 ad.line, ad.msg);
	r->have_shbin = true;
	r->code_words = (unsigned)r->shbin.ncode;
	return true;
}

bool pica_compile(tgsi_shader *sh, const char *file, const pica_compile_opts *opts,
                  pica_compile_result *res)
{
	memset(res, 0, sizeof *res);
	ir_error e;
	memset(&e, 0, sizeof e);
	ulp_diag_clear(&e.d);
	file = file ? file : "";
	if (sh->processor != TGSI_PROCESSOR_VERTEX && sh->processor != TGSI_PROCESSOR_GEOMETRY) {
		ir_refuse(&e, IR_REFUSE_STAGE, file, 1, 1, "%s shader: the PICA200 runs vertex and "
		          "geometry shaders only", tgsi_processor_name(sh->processor));
	} else {
		ir_shader *s = ir_from_tgsi(sh, file, &e);
		if (s) {
			ectx E = { .s = s, .res = res, .e = &e };
			run_pipeline(&E, opts);
			free(E.imm_reg);
			free(E.jump_if);
			free(E.t.s);
			ir_shader_free(s);
		}
	}
	res->why = e.d.set ? (e.why ? e.why : IR_REFUSE_MALFORMED) : IR_OK;
	res->d = e.d;
	return res->why == IR_OK;
}

void pica_compile_output_semantics(const pica_compile_result *res, const tgsi_shader *sh, int16_t name[16],
                                   uint32_t index[16])
{
	for (int k = 0; k < 16; k++) {
		name[k] = -1;
		index[k] = 0;
	}
	for (unsigned k = 0; k < res->noutputs; k++) {
		const pica_compile_output *out = &res->outputs[k];
		for (size_t dcl = 0; dcl < sh->num_decls && out->o_reg < 16; dcl++) {
			const tgsi_declaration *de = &sh->decls[dcl];
			if (de->file != TGSI_FILE_OUTPUT || !de->semantic || out->tgsi_index < (int32_t)de->first ||
			    out->tgsi_index > (int32_t)de->last)
				continue;
			name[out->o_reg] = (int16_t)de->semantic_name;
			index[out->o_reg] = de->semantic_index + (uint32_t)(out->tgsi_index - (int32_t)de->first);
		}
	}
}

void pica_compile_result_free(pica_compile_result *res)
{
	free(res->asm_text);
	res->asm_text = NULL;
	if (res->have_shbin)
		shbin_free(&res->shbin);
	res->have_shbin = false;
}
