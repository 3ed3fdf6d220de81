/* PICA200 assembler: instructions and operand-descriptor allocation. */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "isa/pica/pica_asm_int.h"

static bool asm_emit_word(struct pica_asm *a, uint32_t w)
{
	if (a->ncode >= PICA_CODE_MAX)
		return asm_err_col(a, 0, "program exceeds the %d-word code memory", PICA_CODE_MAX);
	if (!ASM_PUSH(a, a->code, a->ncode, a->capcode))
		return false;
	a->code[a->ncode++] = w;
	return true;
}

void asm_padding_nop(struct pica_asm *a)
{
	if (a->auto_nop)
		asm_emit_word(a, (uint32_t)PICA_OPS[PICA_OP_NOP].opcode << 26);
}

/* Reuse the lowest descriptor that agrees on every bit both care about and
 * merge this one's bits into it; else append.  (corpus README "Operand
 * descriptors"; picasso findOrAddOpdesc behaviour) */
static int find_or_add_desc(struct pica_asm *a, uint32_t desc, uint32_t care)
{
	for (int i = 0; i < a->ndesc; i++) {
		uint32_t both = care & a->care[i];
		if (((desc ^ a->desc[i]) & both) == 0) {
			a->desc[i] = (a->desc[i] & ~care) | (desc & care);
			a->care[i] |= care;
			return i;
		}
	}
	if (a->ndesc == PICA_OPDESC_MAX) {
		asm_err_col(a, 0, "too many operand descriptors (limit is %d)", PICA_OPDESC_MAX);
		return -1;
	}
	a->desc[a->ndesc] = desc;
	a->care[a->ndesc] = care;
	return a->ndesc++;
}

/* MAD/MADI reach only descriptors 0-31: swap a high one with the lowest entry
 * no MAD uses and renumber every instruction that referenced either. */
static int mad_desc(struct pica_asm *a, int id)
{
	if (id >= PICA_MAD_OPDESC_MAX) {
		int which = 0;
		while (which < PICA_MAD_OPDESC_MAX && (a->mad_used >> which) & 1)
			which++;
		if (which == PICA_MAD_OPDESC_MAX) {
			asm_err_col(a, 0, "operand descriptor allocation failed: all 32 MAD-reachable entries are in use");
			return -1;
		}
		uint32_t t = a->desc[which];
		a->desc[which] = a->desc[id];
		a->desc[id] = t;
		t = a->care[which];
		a->care[which] = a->care[id];
		a->care[id] = t;
		for (size_t i = 0; i < a->ncode; i++) {
			enum pica_op op = pica_op_of_word(a->code[i]);
			enum pica_fmt f = PICA_OPS[op].fmt;
			if (op == PICA_OP_UNKNOWN || f == PICA_FMT_5 || f == PICA_FMT_5I || pica_desc_index(a->code[i]) < 0)
				continue;
			int cur = (int)(a->code[i] & 0x7F);
			cur = cur == which ? id : cur == id ? which : cur;
			a->code[i] = (a->code[i] & ~0x7Fu) | (uint32_t)cur;
		}
		id = which;
	}
	a->mad_used |= 1u << id;
	return id;
}

static bool want_args(struct pica_asm *a, const char *at, int got, int want)
{
	if (got < 0 || got > want)
		return asm_err(a, at, "too many parameters (expected %d)", want);
	if (got < want)
		return asm_err(a, at, "missing parameter (expected %d)", want);
	return true;
}

static bool is_src(const struct asm_opnd *o) { return o->cls == 'v' || o->cls == 'r' || o->cls == 'c'; }
static bool is_narrow(const struct asm_opnd *o) { return o->cls == 'v' || o->cls == 'r'; }

static bool check_src(struct pica_asm *a, const struct asm_opnd *o, bool wide, int which)
{
	if (!is_src(o) || (!wide && !is_narrow(o)))
		return asm_err_col(a, o->col, "invalid source%d register: %s operand not allowed here%s", which,
		                   o->cls == 'c' ? "a uniform (c)" : "this", wide ? "" : " (narrow source: v or r only)");
	if (!wide && o->idx)
		return asm_err_col(a, o->col, "index register not allowed in source%d", which);
	return true;
}

static bool parse_dst(struct pica_asm *a, char *s, struct asm_opnd *o)
{
	if (!asm_parse_opnd(a, s, false, o))
		return false;
	if (o->cls != 'o' && o->cls != 'r')
		return asm_err_col(a, o->col, "invalid destination register: '%s' (expected o or r)", s);
	if (o->sw & 1)
		return asm_err_col(a, o->col, "a destination cannot be negated");
	return true;
}

/* Two different input registers in one instruction read wrong values
 * (pica200.md §1.2 read-port limit; picasso rejects them). */
static bool bad_inputs(const struct asm_opnd *x, const struct asm_opnd *y)
{
	return x->cls == 'v' && y->cls == 'v' && x->n != y->n;
}

static uint32_t src_desc(const struct asm_opnd *o, int slot)
{
	return (uint32_t)(o->sw & 0x1FF) << (4 + 9 * slot);
}

static bool finish_alu(struct pica_asm *a, struct pica_inst *in, uint32_t desc)
{
	int id = find_or_add_desc(a, desc, pica_desc_care(in->op, desc));
	if (id < 0)
		return false;
	if (in->op == PICA_OP_MAD || in->op == PICA_OP_MADI)
		id = mad_desc(a, id);
	if (id < 0)
		return false;
	in->desc_id = (uint8_t)id;
	uint32_t w;
	if (!pica_encode(in, &w))
		return asm_err_col(a, 0, "internal error: %s does not encode", PICA_OPS[in->op].name);
	return asm_emit_word(a, w);
}

static bool inst_fmt1(struct pica_asm *a, enum pica_op op, char **av)
{
	struct asm_opnd d, s1, s2;
	if (!parse_dst(a, av[0], &d) || !asm_parse_opnd(a, av[1], true, &s1) || !asm_parse_opnd(a, av[2], true, &s2))
		return false;
	static const enum pica_op inv_of[PICA_OP_COUNT] = {
		[PICA_OP_DPH] = PICA_OP_DPHI, [PICA_OP_DST] = PICA_OP_DSTI,
		[PICA_OP_SGE] = PICA_OP_SGEI, [PICA_OP_SLT] = PICA_OP_SLTI,
	};
	/* The I-form is chosen from the operands alone (narrow src1, wide src2). */
	bool inv = inv_of[op] && is_narrow(&s1) && s2.cls == 'c';
	if (!check_src(a, &s1, !inv, 1) || !check_src(a, &s2, inv, 2))
		return false;
	if (bad_inputs(&s1, &s2))
		return asm_err(a, av[1], "source operands must not be different input registers (v0..v15)");
	struct pica_inst in = { .op = inv ? inv_of[op] : op };
	in.dst = (uint8_t)asm_flat(&d);
	in.src[0].reg = (uint8_t)asm_flat(&s1);
	in.src[1].reg = (uint8_t)asm_flat(&s2);
	in.src[inv ? 1 : 0].idx = (uint8_t)(inv ? s2.idx : s1.idx);
	uint32_t desc = asm_mask_from_sw(d.sw, true) | src_desc(&s1, 0) | src_desc(&s2, 1);
	return finish_alu(a, &in, desc);
}

static bool inst_fmt1u(struct pica_asm *a, enum pica_op op, char **av)
{
	struct asm_opnd d, s1;
	if (!parse_dst(a, av[0], &d) || !asm_parse_opnd(a, av[1], true, &s1) || !check_src(a, &s1, true, 1))
		return false;
	struct pica_inst in = { .op = op };
	in.dst = (uint8_t)asm_flat(&d);
	in.src[0].reg = (uint8_t)asm_flat(&s1);
	in.src[0].idx = (uint8_t)s1.idx;
	return finish_alu(a, &in, asm_mask_from_sw(d.sw, true) | src_desc(&s1, 0));
}

static bool inst_mova(struct pica_asm *a, char **av)
{
	static const struct { const char *name; uint8_t mask; } targets[] = {
		{ "a0.x", 8 }, { "a0.y", 4 }, { "a0.xy", 12 }, { "a0.yx", 12 },
		{ "a0", 8 }, { "a1", 4 }, { "a01", 12 },    /* picasso < 2.7 names */
	};
	uint8_t mask = 0;
	for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++)
		if (!strcasecmp(av[0], targets[i].name))
			mask = targets[i].mask;
	if (!mask)
		return asm_err(a, av[0], "invalid destination register for mova: '%s' (expected a0.x, a0.y or a0.xy)", av[0]);
	struct asm_opnd s1;
	if (!asm_parse_opnd(a, av[1], true, &s1) || !check_src(a, &s1, true, 1))
		return false;
	struct pica_inst in = { .op = PICA_OP_MOVA };
	in.src[0].reg = (uint8_t)asm_flat(&s1);
	in.src[0].idx = (uint8_t)s1.idx;
	return finish_alu(a, &in, mask | src_desc(&s1, 0));
}

static int cmp_op(const char *s)
{
	static const char *const names[] = { "eq", "ne", "lt", "le", "gt", "ge" };
	for (int i = 0; i < 6; i++)
		if (!strcasecmp(s, names[i]))
			return i;
	return -1;
}

static bool inst_cmp(struct pica_asm *a, char **av)
{
	struct asm_opnd s1, s2;
	int x = cmp_op(av[1]), y = cmp_op(av[2]);
	if (x < 0)
		return asm_err(a, av[1], "invalid conditional operator: '%s'", av[1]);
	if (y < 0)
		return asm_err(a, av[2], "invalid conditional operator: '%s'", av[2]);
	if (!asm_parse_opnd(a, av[0], true, &s1) || !check_src(a, &s1, true, 1) ||
	    !asm_parse_opnd(a, av[3], false, &s2) || !check_src(a, &s2, false, 2))
		return false;
	struct pica_inst in = { .op = PICA_OP_CMP };
	in.src[0].reg = (uint8_t)asm_flat(&s1);
	in.src[0].idx = (uint8_t)s1.idx;
	in.src[1].reg = (uint8_t)asm_flat(&s2);
	in.cmp_op[0] = (uint8_t)x;
	in.cmp_op[1] = (uint8_t)y;
	return finish_alu(a, &in, src_desc(&s1, 0) | src_desc(&s2, 1));
}

static bool inst_mad(struct pica_asm *a, char **av)
{
	struct asm_opnd d, s1, s2, s3;
	if (!parse_dst(a, av[0], &d) || !asm_parse_opnd(a, av[1], false, &s1) ||
	    !asm_parse_opnd(a, av[2], true, &s2) || !asm_parse_opnd(a, av[3], true, &s3))
		return false;
	/* MADI when src2 is narrow and src3 wide (picasso format5). */
	bool inv = is_narrow(&s2) && (s3.cls == 'c' || (s3.idx && !s2.idx));
	if (!check_src(a, &s1, false, 1) || !check_src(a, &s2, !inv, 2) || !check_src(a, &s3, inv, 3))
		return false;
	if (bad_inputs(&s1, &s2) || bad_inputs(&s2, &s3) || bad_inputs(&s3, &s1))
		return asm_err(a, av[1], "source registers must not be different input registers (v0..v15)");
	struct pica_inst in = { .op = inv ? PICA_OP_MADI : PICA_OP_MAD };
	in.dst = (uint8_t)asm_flat(&d);
	in.src[0].reg = (uint8_t)asm_flat(&s1);
	in.src[1].reg = (uint8_t)asm_flat(&s2);
	in.src[2].reg = (uint8_t)asm_flat(&s3);
	if (inv)
		in.src[2].idx = (uint8_t)s3.idx;
	else
		in.src[1].idx = (uint8_t)s2.idx;
	uint32_t desc = asm_mask_from_sw(d.sw, true) | src_desc(&s1, 0) | src_desc(&s2, 1) | src_desc(&s3, 2);
	return finish_alu(a, &in, desc);
}

static bool add_reloc(struct pica_asm *a, bool proc, char *name)
{
	if (!asm_is_ident(name))
		return asm_err(a, name, "invalid target: '%s'", name);
	struct asm_reloc r = { a->ncode, asm_strdup(a, name), a->line, asm_col(a, name), a->file };
	if (!r.name)
		return false;
	if (proc) {
		if (!ASM_PUSH(a, a->prelocs, a->nprelocs, a->capprelocs))
			return false;
		a->prelocs[a->nprelocs++] = r;
	} else {
		if (!ASM_PUSH(a, a->lrelocs, a->nlrelocs, a->caplrelocs))
			return false;
		a->lrelocs[a->nlrelocs++] = r;
	}
	return true;
}

static bool push_block(struct pica_asm *a, int type)
{
	if (a->nstack == ASM_MAX_STACK)
		return asm_err_col(a, 0, "too many nested blocks");
	a->stack[a->nstack++] = (struct asm_block){ .type = type, .pos = a->ncode, .line = a->line };
	return true;
}

static bool parse_ureg(struct pica_asm *a, char *s, char cls, struct asm_opnd *o)
{
	if (!asm_parse_opnd(a, s, false, o))
		return false;
	if (o->cls != cls)
		return asm_err_col(a, o->col, "invalid %s: '%s'", cls == 'i' ? "integer vector uniform" : "boolean uniform", s);
	return true;
}

static bool inst_flow(struct pica_asm *a, enum pica_op op, char **av, int n, const char *at)
{
	struct pica_inst in = { .op = op };
	struct asm_opnd u;
	uint32_t w;
	switch (op) {
	case PICA_OP_CALL:
		if (!want_args(a, at, n, 1) || !add_reloc(a, true, av[0]))
			return false;
		break;
	case PICA_OP_LOOP:
		if (!want_args(a, at, n, 1) || !parse_ureg(a, av[0], 'i', &u) || !push_block(a, BLK_FOR))
			return false;
		in.uniform_id = (uint8_t)u.n;
		break;
	case PICA_OP_BREAKC:
	case PICA_OP_IFC:
		if (!want_args(a, at, n, 1) || !asm_parse_cond(a, av[0], &in))
			return false;
		if (op == PICA_OP_IFC && !push_block(a, BLK_IF))
			return false;
		break;
	case PICA_OP_CALLC:
	case PICA_OP_JMPC:
		if (!want_args(a, at, n, 2) || !asm_parse_cond(a, av[0], &in) ||
		    !add_reloc(a, op == PICA_OP_CALLC, av[1]))
			return false;
		break;
	case PICA_OP_CALLU:
	case PICA_OP_IFU:
	case PICA_OP_JMPU: {
		if (!want_args(a, at, n, op == PICA_OP_IFU ? 1 : 2))
			return false;
		char *r = av[0];
		if (*r == '!') {
			if (op != PICA_OP_JMPU)
				return asm_err(a, r, "inverting the condition is not supported by %s", PICA_OPS[op].name);
			in.num = 1;    /* JMPU: NUM bit 0 inverts the test (pica200.md §1.3) */
			r = asm_trim(r + 1);
		}
		if (!parse_ureg(a, r, 'b', &u))
			return false;
		in.uniform_id = (uint8_t)u.n;
		if (op == PICA_OP_IFU ? !push_block(a, BLK_IF) : !add_reloc(a, op == PICA_OP_CALLU, av[1]))
			return false;
		break;
	}
	default:
		return false;
	}
	if (!pica_encode(&in, &w))
		return asm_err(a, at, "internal error: %s does not encode", PICA_OPS[op].name);
	return asm_emit_word(a, w);
}

static bool inst_setemit(struct pica_asm *a, char **av, int n, const char *at)
{
	if (n < 1 || n > 2)
		return asm_err(a, at, n < 1 ? "missing parameter" : "too many parameters");
	long vtx;
	if (!asm_parse_int(a, av[0], 0, 2, &vtx))
		return false;
	struct pica_inst in = { .op = PICA_OP_SETEMIT, .vtx_id = (uint8_t)vtx };
	if (n == 2) {
		char *s = av[1];
		while (*s) {
			char *e = s;
			while (*e && !isspace((unsigned char)*e))
				e++;
			char save = *e;
			*e = 0;
			if (!strcasecmp(s, "prim") || !strcasecmp(s, "primitive"))
				in.prim = true;
			else if (!strcasecmp(s, "inv") || !strcasecmp(s, "invert"))
				in.inv = true;
			else
				return asm_err(a, s, "unknown setemit flag: '%s'", s);
			*e = save;
			s = e;
			while (isspace((unsigned char)*s))
				s++;
		}
	}
	struct asm_dvle *e = asm_dvle(a);
	if (!e)
		return false;
	if (!e->is_gs) {         /* legacy: setemit marks the DVLE as a GS */
		e->is_gs = true;
		e->compat_gs = true;
	}
	uint32_t w;
	pica_encode(&in, &w);
	return asm_emit_word(a, w);
}

bool asm_instruction(struct pica_asm *a, char *name, char *args)
{
	if (a->nstack == 0)
		return asm_err(a, name, "instruction outside block");
	a->last_was_end = false;
	struct asm_dvle *e = asm_dvle(a);
	if (!e)
		return false;
	if (!e->is_gs && a->ncode >= PICA_VS_CODE_MAX)
		return asm_err(a, name, "instruction outside vertex shader code memory (max %d instructions)", PICA_VS_CODE_MAX);

	enum pica_op op = PICA_OP_UNKNOWN;
	for (int i = 0; i < PICA_OP_UNKNOWN; i++)
		if (!strcasecmp(name, PICA_OPS[i].name))
			op = PICA_OPS[i].base;   /* sgei/dphi/madi: the form follows the operands */
	if (op == PICA_OP_UNKNOWN)
		return asm_err(a, name, "invalid instruction: '%s'", name);

	char *av[8];
	int n = asm_split(args, ',', av, 8);
	const char *at = name;
	switch (PICA_OPS[op].fmt) {
	case PICA_FMT_0: {
		if (!want_args(a, at, n, 0))
			return false;
		return asm_emit_word(a, (uint32_t)PICA_OPS[op].opcode << 26);
	}
	case PICA_FMT_1:
		return want_args(a, at, n, 3) && inst_fmt1(a, op, av);
	case PICA_FMT_1U:
		if (op == PICA_OP_MOVA)
			return want_args(a, at, n, 2) && inst_mova(a, av);
		return want_args(a, at, n, 2) && inst_fmt1u(a, op, av);
	case PICA_FMT_1C:
		return want_args(a, at, n, 4) && inst_cmp(a, av);
	case PICA_FMT_5:
		return want_args(a, at, n, 4) && inst_mad(a, av);
	case PICA_FMT_4:
		return inst_setemit(a, av, n, at);
	case PICA_FMT_2:
	case PICA_FMT_3:
	case PICA_FMT_3I:
		return inst_flow(a, op, av, n, at);
	default:
		return asm_err(a, name, "invalid instruction: '%s'", name);
	}
}
