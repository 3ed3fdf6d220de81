/* Parser, ALU part: packets, slot lines, operands, modifiers, slot-3
 * immediates (grate-driver/grate src/libgrate/fragment_asm.y ALU rules;
 * quirks: corpus README). */
#include <string.h>

#include "isa/tegra/tegra_asm_int.h"
#include "isa/tegra/tegra_prog.h"

/* ---- ALU ------------------------------------------------------------------ */

typedef struct alu_reg {
	unsigned index;
	bool fx10, high, abs, minus_one, x2, neg;
	bool rd;        /* rB/rC token, or #1 as the fourth operand */
	bool disable;   /* fourth operand: #1 (rD off) */
} alu_reg;

static bool parse_float_type(tegra_asm_ctx *c, alu_reg *r)
{
	if (!tg_accept(c, TK_DOT))
		return true;
	if (tg_accept(c, TK_LOW)) {
		r->fx10 = true;
		r->high = false;
	} else if (tg_accept(c, TK_HIGH)) {
		r->fx10 = true;
		r->high = true;
	} else {
		return tg_syntax_error(c);
	}
	return true;
}

static bool parse_alu_reg(tegra_asm_ctx *c, alu_reg *r)
{
	tegra_token t = c->cur;
	memset(r, 0, sizeof *r);
	tg_next(c);
	switch (t.kind) {
	case TK_ROW:
		if (!parse_float_type(c, r))
			return false;
		if (t.u > 15)
			return tg_err_at(c, &t, "Invalid row reg, should be 0..15");
		r->index = TEGRA_REG_NUM_ROW0 + (unsigned)t.u;
		return true;
	case TK_GLOBAL:
		r->index = TEGRA_REG_NUM_GLOBAL0 + (unsigned)t.u;
		return parse_float_type(c, r);
	case TK_ALU_RESULT:
		r->index = TEGRA_REG_NUM_ALU0 + (unsigned)t.u;
		return parse_float_type(c, r);
	case TK_IMM:
		r->index = TEGRA_REG_NUM_IMM0 + (unsigned)t.u;
		return parse_float_type(c, r);
	case TK_UNIFORM:
		if (!parse_float_type(c, r))
			return false;
		if (t.u > 63)
			return tg_err_at(c, &t, "Invalid uniform reg, should be 0..63");
		/* u32..u63 alias registers 64..95 (quirk 11) */
		r->index = TEGRA_REG_NUM_U0 + (unsigned)t.u;
		return true;
	case TK_CR:
		if (t.u > 15)
			return tg_err_at(c, &t, "Invalid CR reg, should be 0..15");
		r->index = TEGRA_REG_NUM_CR0 + (unsigned)(t.u >> 1);
		r->fx10 = true;
		r->high = t.u & 1;
		return true;
	case TK_CONST01:
		r->index = TEGRA_REG_NUM_LP;
		r->fx10 = true;
		r->high = t.u != 0;
		return true;
	case TK_POSX: r->index = TEGRA_REG_NUM_POSX; return true;
	case TK_POSY: r->index = TEGRA_REG_NUM_POSY; return true;
	case TK_PFACE: r->index = TEGRA_REG_NUM_PFACE; return true;
	case TK_RB:
	case TK_RC:
		r->index = t.kind == TK_RC;
		r->rd = true;
		return parse_float_type(c, r);
	default:
		c->cur = t;   /* report the offending token */
		return tg_syntax_error(c);
	}
}

/* ['-'] ( abs '(' REG ')' | REG ) ['*' N] ['-' N] */
static bool parse_alu_src(tegra_asm_ctx *c, alu_reg *r)
{
	bool neg = tg_accept(c, TK_MINUS);
	if (tg_accept(c, TK_ABS)) {
		if (!tg_expect(c, TK_LPAREN) || !parse_alu_reg(c, r) || !tg_expect(c, TK_RPAREN))
			return false;
		r->abs = true;
	} else if (!parse_alu_reg(c, r)) {
		return false;
	}
	tegra_token n;
	if (tg_accept(c, TK_STAR)) {
		if (!tg_take(c, TK_NUMBER, &n))
			return false;
		if (n.u != 1) {
			if (n.u != 2)
				return tg_err_at(c, &n, "Only register scale by x2 is possible");
			r->x2 = true;
		}
	}
	if (tg_accept(c, TK_MINUS)) {
		if (!tg_take(c, TK_NUMBER, &n))
			return false;
		if (n.u != 0) {
			if (n.u != 1)
				return tg_err_at(c, &n, "Only decrement by 1 is possible");
			r->minus_one = true;
		}
	}
	r->neg = neg;
	return true;
}

static bool parse_lh(tegra_asm_ctx *c, bool *low, bool *high)
{
	if (tg_accept(c, TK_LOW))
		*low = true;
	else if (tg_accept(c, TK_HIGH))
		*high = true;
	else if (!tg_accept(c, TK_STAR))
		return false;
	return true;
}

static bool parse_alu_dst(tegra_asm_ctx *c, tegra_alu_inst *in)
{
	tegra_token t = c->cur;
	tg_next(c);
	unsigned index;
	switch (t.kind) {
	case TK_CR:
		if (t.u > 15)
			return tg_err_at(c, &t, "Invalid dst reg, CR should be 0..15");
		/* the write bits select the half (tegra-fp.md §2.3) */
		in->dst = (uint8_t)(TEGRA_REG_NUM_CR0 + (t.u >> 1));
		in->write_low = in->write_high = t.u & 1;
		return true;
	case TK_KILL:
		in->dst = TEGRA_REG_NUM_KILL;
		in->write_low = in->write_high = true;
		c->p->discards_fragment = true;
		return true;
	case TK_LP:
		if (c->cur.kind != TK_DOT) {
			in->dst = TEGRA_REG_NUM_LP;   /* bare lp: no write bits (quirk 2) */
			return true;
		}
		index = TEGRA_REG_NUM_LP;
		break;
	case TK_ROW:
		if (t.u > 15)
			return tg_err_at(c, &t, "Invalid dst reg, row should be 0..15");
		index = TEGRA_REG_NUM_ROW0 + (unsigned)t.u;
		break;
	case TK_GLOBAL: index = TEGRA_REG_NUM_GLOBAL0 + (unsigned)t.u; break;
	case TK_UNIFORM:
		if (t.u > 7)
			return tg_err_at(c, &t, "Invalid dst reg, uniform should be 0..7");
		index = TEGRA_REG_NUM_U0 + (unsigned)t.u;
		break;
	default:
		c->cur = t;
		return tg_syntax_error(c);
	}
	bool low = false, high = false;
	if (!tg_expect(c, TK_DOT))
		return false;
	if (!parse_lh(c, &low, &high))
		return tg_syntax_error(c);
	(void)parse_lh(c, &low, &high);   /* optional second character */
	in->dst = (uint8_t)index;
	in->write_low = low;
	in->write_high = high;
	return true;
}

static void reg_to_src(const alu_reg *r, tegra_alu_src *s)
{
	s->reg = (uint8_t)r->index;
	s->high = r->high;
	s->fx10 = r->fx10;
	s->abs = r->abs;
	s->minus_one = r->minus_one;
	s->x2 = r->x2;
	s->neg = r->neg;
}

static bool parse_alu_operation(tegra_asm_ctx *c, tegra_alu_inst *in)
{
	tegra_token op = c->cur;
	tg_next(c);
	memset(in, 0, sizeof *in);
	alu_reg a, b, cc, dd;
	tegra_token at[3];   /* where rA, rB, rC start, for "Invalid src register" */
	if (!parse_alu_dst(c, in) || !tg_expect(c, TK_COMMA))
		return false;
	at[0] = c->cur;
	if (!parse_alu_src(c, &a) || !tg_expect(c, TK_COMMA))
		return false;
	at[1] = c->cur;
	if (!parse_alu_src(c, &b) || !tg_expect(c, TK_COMMA))
		return false;
	at[2] = c->cur;
	if (!parse_alu_src(c, &cc))
		return false;
	tegra_token dtok = c->cur;
	if (tg_accept(c, TK_COMMA)) {
		dtok = c->cur;
		if (!parse_alu_src(c, &dd))
			return false;
		if (dd.index == TEGRA_REG_NUM_LP) {   /* #1 = disabled; #0 refused */
			dd.rd = dd.high;
			dd.disable = dd.rd;
		}
	} else {
		memset(&dd, 0, sizeof dd);
		dd.rd = dd.disable = true;
	}
	/* suffix modifiers are OR-ed (quirk 4) */
	while (c->cur.kind == TK_LPAREN) {
		tg_next(c);
		tegra_token m = c->cur;
		switch (m.kind) {
		case TK_THIS: in->acc_this = true; break;
		case TK_OTHER: in->acc_other = true; break;
		case TK_EQ: case TK_GT: case TK_GE: in->cc |= (uint8_t)m.u; break;
		case TK_X2: case TK_X4: case TK_DIV2: in->scale |= (uint8_t)m.u; break;
		case TK_SAT: in->saturate = true; break;
		default: return tg_syntax_error(c);
		}
		tg_next(c);
		if (!tg_expect(c, TK_RPAREN))
			return false;
	}
	if (a.rd || b.rd || cc.rd || !dd.rd)
		return tg_err_at(c, a.rd ? &at[0] : b.rd ? &at[1] : cc.rd ? &at[2] : &dtok,
		                 "Invalid src register");
	reg_to_src(&a, &in->a);
	reg_to_src(&b, &in->b);
	reg_to_src(&cc, &in->c);
	if (!dd.disable) {   /* rD: negation and *2 are dropped (quirk 10) */
		in->d.enable = true;
		in->d.abs = dd.abs;
		in->d.fx10 = dd.fx10;
		in->d.minus_one = dd.minus_one;
		in->d.high = dd.high;
		in->d.sel_c = dd.index == 1;
	}
	in->add_disable = (op.u & TK_ALU_OP_MUL) != 0;
	in->opcode = (uint8_t)(op.u & 3);
	return true;
}

/* immN [.l|.h] = FLOAT, merged into slot 3's current bits (quirk 6) */
static bool parse_immediate(tegra_asm_ctx *c, uint32_t *slot3)
{
	tegra_token imm, val;
	int half = -1;
	if (!tg_take(c, TK_IMM, &imm))
		return false;
	if (tg_accept(c, TK_DOT)) {
		if (tg_accept(c, TK_LOW))
			half = 0;
		else if (tg_accept(c, TK_HIGH))
			half = 1;
		else
			return tg_syntax_error(c);
	}
	if (!tg_expect(c, TK_EQUALS) || !tg_take(c, TK_FLOAT, &val))
		return false;
	/* grate's union: Y = part6 | part7 << 32, i.e. LO | HI << 32 before the swap */
	uint64_t y = (uint64_t)slot3[0] << 32 | slot3[1];
	unsigned lo = 4 + 20 * (unsigned)imm.u;
	unsigned width = 20;
	uint64_t v;
	if (half < 0) {
		v = tegra_grate_fp20(val.f);
	} else {
		v = tegra_grate_fx10(val.f);
		width = 10;
		lo += 10 * (unsigned)half;
	}
	uint64_t mask = ((UINT64_C(1) << width) - 1) << lo;
	y = (y & ~mask) | (v << lo & mask);
	slot3[0] = (uint32_t)(y >> 32);
	slot3[1] = (uint32_t)y;
	return true;
}

static bool parse_alux(tegra_asm_ctx *c, uint32_t packet[8])
{
	tegra_token slot = c->cur;
	tg_next(c);
	unsigned k = (unsigned)slot.u;
	uint32_t *w = &packet[2 * k];
	if (c->cur.kind == TK_IMM) {
		uint32_t *s3 = &packet[6];
		for (int i = 0; i < 6; i++) {
			if (i && !tg_accept(c, TK_COMMA))
				break;
			if (!parse_immediate(c, s3))
				return false;
		}
		if (k != 3)
			return tg_err_at(c, &slot, "ALU immediates can override ALU3 only");
		uint32_t t = s3[0];   /* grate swaps the slot's words */
		s3[0] = s3[1];
		s3[1] = t;
		return true;
	}
	if (c->cur.kind == TK_HEX) {   /* raw, first word uploaded first; no swap */
		uint32_t hi = (uint32_t)c->cur.u;
		tg_next(c);
		if (!tg_expect(c, TK_COMMA))
			return false;
		if (c->cur.kind != TK_HEX)
			return tg_syntax_error(c);
		w[0] = hi;
		w[1] = (uint32_t)c->cur.u;
		tg_next(c);
		return true;
	}
	if (tg_accept(c, TK_NOP)) {   /* MAD lp.**, #0, #0, #0 (quirk 1) */
		w[0] = TEGRA_ALU_XNOP_HI;
		w[1] = TEGRA_ALU_XNOP_LO;
		return true;
	}
	if (c->cur.kind != TK_ALU_OP)
		return tg_syntax_error(c);
	tegra_alu_inst in;
	if (!parse_alu_operation(c, &in))
		return false;
	uint64_t x = tegra_alu_encode(&in);
	w[0] = (uint32_t)(x >> 32);
	w[1] = (uint32_t)x;
	return true;
}

bool tg_parse_alu_packet(tegra_asm_ctx *c, unsigned *count, unsigned *first)
{
	tegra_token at = c->cur;
	tegra_fp_program *p = c->p;
	tg_next(c);   /* ALU: */
	if (p->alu_packet_count >= TEGRA_FP_MAX_ALU_PACKETS)
		return tg_err_at(c, &at, "Over 64 ALU instructions in total");
	uint32_t *packet = p->alu[p->alu_packet_count];
	for (int i = 0; i < 4 && c->cur.kind == TK_ALUX; i++)
		if (!parse_alux(c, packet))
			return false;
	if (*count + 1 > TEGRA_FP_MAX_PER_EXEC)
		return tg_err_at(c, &at, "Over 3 ALU instructions per exec batch");
	if (*count == 0)
		*first = p->alu_packet_count;
	(*count)++;
	p->alu_packet_count++;
	return true;
}

