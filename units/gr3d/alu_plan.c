/* ALU: the plan of a draw's packets, made once (alu.h, alu_slot.h). */
#include "units/gr3d/alu_slot.h"

#include <math.h>
#include <stddef.h>

GR3D_HOT double fp20_operand(const gr3d_ctx *c, uint32_t raw)
{
	return fp20_read(c->cfg->tegra_fp20_subnormals, raw);
}

/* Builds an operand from a register number and its read flags (tegra-fp.md §2.3). */
static alu_operand operand(const gr3d_ctx *c, const tegra_alu_packet *p, unsigned cls,
                           unsigned index, bool fx10, bool high, bool abs_, bool x2, bool m1,
                           bool neg)
{
	alu_operand o = { .kind = OPD_CONST, .index = (uint8_t)index, .fx = (uint8_t)(fx10 ? (high ? 2 : 1) : 0),
	                  .abs = abs_, .x2 = x2, .m1 = m1, .neg = neg };
	o.mods = abs_ || x2 || m1 || neg;
	o.abs_mask = abs_ ? ~(UINT64_C(1) << 63) : ~UINT64_C(0);
	o.neg_mask = neg ? UINT64_C(1) << 63 : 0;
	o.mul = x2 ? 2.0 : 1.0;
	o.sub = m1 ? 1.0 : 0.0;
	switch (cls) {
	case TEGRA_REG_ROW:
		o.kind = OPD_REG;
		o.index &= GR3D_ROW_REGS - 1;
		o.off = (uint16_t)(offsetof(gr3d_quad, r) + o.index * sizeof(((gr3d_quad *)0)->r[0]));
		o.shadow = !fx10;
		o.row = true;
		break;
	case TEGRA_REG_GLOBAL:
		o.kind = OPD_REG;
		o.index &= 7u;
		o.off = (uint16_t)(offsetof(gr3d_quad, g) + o.index * sizeof(((gr3d_quad *)0)->g[0]));
		break;
	case TEGRA_REG_UNIFORM: o.kind = OPD_UNIFORM; o.index &= 31u; break;
	case TEGRA_REG_COND:
		o.kind = OPD_REG;
		o.index &= 7u;
		o.off = (uint16_t)(offsetof(gr3d_quad, cr) + o.index * sizeof(((gr3d_quad *)0)->cr[0]));
		break;
	case TEGRA_REG_ALU: o.kind = OPD_ALU; o.index &= 3u; break;
	case TEGRA_REG_POSX: o.kind = OPD_POSX; break;
	case TEGRA_REG_POSY: o.kind = OPD_POSY; break;
	case TEGRA_REG_PFACE: o.kind = OPD_PFACE; break;
	case TEGRA_REG_IMM: {
		uint32_t raw = p->imm[index < 3 ? index : 0];
		o.k = fx10 ? gr3d_fx10(raw, high) : fp20_operand(c, raw);
		break;
	}
	case TEGRA_REG_CONST01: o.k = high ? 1.0 : 0.0; break;            /* #1 / #0 */
	case TEGRA_REG_COVERAGE: o.k = c->cfg->tegra_reg74; break;        /* §9 q2 */
	default: o.k = 0.0; break;
	}
	return o;
}

/* Does the operand, as read, give only values that FP20 holds, or values
 * outside fp20_f64_fast's range?  FP20 reads do (a 13-bit mantissa), FX10
 * reads do (n / 256 with |n| <= 512), aluK values are rounded results, and
 * abs and negate keep that; x2 and -1 do not.  A constant does when
 * rounding gives it back.  Positions and pface are left to the rounding. */
static bool exact_source(const gr3d_ctx *c, const alu_operand *o)
{
	switch (o->kind) {
	case OPD_CONST: {
		const double r = gr3d_round20(c, o->k);
		return memcmp(&r, &o->k, sizeof r) == 0;
	}
	case OPD_REG:
	case OPD_UNIFORM:
	case OPD_ALU:
		return !o->x2 && !o->m1;
	default:
		return false;
	}
}

/* How the slot forms its result, and whether its FP20 rounding can be
 * skipped (slot.exact).  That is so when the result can only be one of its
 * operands as read (a CSEL, or a copy rA * +-1 + +-0), saturated or not,
 * with no scale and no condition, and each operand gives values FP20 holds
 * (exact_source): rounding gives such a value back in every rounding mode.
 * When a word read has exponent 0 or 63 (zero, a subnormal read, inf, NaN)
 * or an aluK value is read, the values outside fp20_f64_fast's range are
 * still rounded (fetch's odd, round_outliers). */
static void plan_slot(const gr3d_ctx *c, alu_slot *s, bool shortcuts)
{
	s->xy = 0.0;
	if (s->opcode == TEGRA_ALU_CSEL)
		s->form = s->a.kind == OPD_CONST ? FORM_PICK : FORM_CSEL;
	else if (s->opcode == TEGRA_ALU_MIN || s->opcode == TEGRA_ALU_MAX)
		s->form = s->opcode == TEGRA_ALU_MIN ? FORM_MIN : FORM_MAX;
	else if (s->add_disable) {         /* MUL: x + -0 is x for every x, -0 included */
		s->form = FORM_MAD_K;
		s->xy = -0.0;
	} else if (s->c.kind == OPD_CONST && s->d.kind == OPD_CONST) {   /* rC*rD: one product */
		s->form = FORM_MAD_K;
		s->xy = s->c.k * s->d.k;
	} else
		s->form = FORM_MAD;
	/* rB = #1: every value the ALU reads is a number or a quiet NaN (FP20
	 * words pass through binary32 -> binary64, which quiets a NaN; the rest
	 * is arithmetic), and a * 1 gives each back bit for bit */
	if (shortcuts && s->form == FORM_MAD_K && s->b.kind == OPD_CONST && s->b.k == 1.0)
		s->form = FORM_ADD_K;
	s->exact = false;
	if (!shortcuts || s->cc != TEGRA_CC_NONE || s->scale != 0)
		return;
	if (s->form == FORM_PICK)
		s->exact = exact_source(c, s->a.k < 0.0 ? &s->b : &s->c);
	else if (s->form == FORM_CSEL)
		s->exact = exact_source(c, &s->b) && exact_source(c, &s->c);
	else if (s->form == FORM_ADD_K)
		s->exact = exact_source(c, &s->a) && s->xy == 0.0;
	else if (s->form == FORM_MAD_K)   /* rA * +-1 + +-0: rA with its sign, or a zero */
		s->exact = exact_source(c, &s->a) && s->b.kind == OPD_CONST && fabs(s->b.k) == 1.0 &&
		           s->xy == 0.0;
}

/* Does the slot's result depend only on constants?  A CSEL whose two sides
 * are the same constant (bit for bit) selects it whatever rA is. */
static bool const_result(const alu_slot *s)
{
	const bool a = s->a.kind == OPD_CONST, b = s->b.kind == OPD_CONST;
	const bool c = s->c.kind == OPD_CONST, d = s->d.kind == OPD_CONST;
	switch (s->form) {
	case FORM_PICK: return s->a.k < 0.0 ? b : c;
	case FORM_CSEL: return b && c && memcmp(&s->b.k, &s->c.k, sizeof s->b.k) == 0;
	case FORM_ADD_K: return a;
	case FORM_MAD_K: return a && b;
	default: return a && b && c && d;
	}
}

/* A slot that reads only constants gives the same result for every quad:
 * alu_slot_result forms it once, here, with every step it would take per quad
 * (the CSEL as the pick of its rC, which has rB's bits). */
static void plan_const(const gr3d_ctx *c, alu_slot *s)
{
	if (!const_result(s))
		return;
	alu_slot t = *s;
	t.reg_copy = false;
	if (t.form == FORM_CSEL) {
		t.form = FORM_PICK;
		t.a.k = 0.0;
	}
	const alu_pass ap = { .c = c, .subnormals = c->cfg->tegra_fp20_subnormals };
	double r[GR3D_PIXELS];
	alu_slot_result(&ap, &t, r);
	s->form = FORM_CONST;
	s->xy = r[0];
}

/* Does slot s write exactly one FX10 half of a row register? */
static bool row_half(const alu_slot *s)
{
	return s->dst_cls == TEGRA_REG_ROW && s->write_low != s->write_high;
}

/* Where a register operand's four words lie in gr3d_quad: the batch
 * view's (plan_views) or the register's. */
static uint16_t copy_words(const alu_operand *o)
{
	return o->view ? (uint16_t)(offsetof(gr3d_quad, view) + o->index * sizeof(((gr3d_quad *)0)->view[0])) : o->off;
}

/* A slot that copies a register operand, with abs or negate at most
 * (alu.c copy_reg): exact (so no scale and no condition), saturated or not,
 * either rA + +-0 or the side a known CSEL picks. */
static void plan_reg_copy(alu_slot *s, bool shortcuts)
{
	s->reg_copy = false;
	s->copy_src = 0;
	if (!shortcuts || !s->exact)
		return;
	if (s->form == FORM_ADD_K && s->xy == 0.0)
		s->copy_src = 0;
	else if (s->form == FORM_PICK)
		s->copy_src = s->a.k < 0.0 ? 1 : 2;
	else
		return;
	const alu_operand *o = s->copy_src == 0 ? &s->a : s->copy_src == 1 ? &s->b : &s->c;
	s->reg_copy = o->kind == OPD_REG;
	s->cp_fx = o->fx;
	s->cp_index = o->index;
	s->cp_shadow = o->shadow;
	for (unsigned p = 0; p < 4; p++) {
		s->cp_and[p] = o->mods && o->abs ? 0x7FFFFFFFu : ~0u;
		s->cp_xor[p] = o->mods && o->neg ? 0x80000000u : 0u;
		s->cp_add[p] = s->form == FORM_ADD_K ? (float)s->xy : -0.0f;
		s->cp_lo[p] = s->saturate ? 0.0f : -INFINITY;
		s->cp_hi[p] = s->saturate ? 1.0f : INFINITY;
	}
	s->copy_opd = (uint8_t)(s->copy_src == 0 ? offsetof(alu_slot, a)
	                      : s->copy_src == 1 ? offsetof(alu_slot, b) : offsetof(alu_slot, c));
	s->copy_off = copy_words(o);
}

static void plan_packet(const gr3d_ctx *c, alu_packet *p, bool shortcuts)
{
	p->reads_prev = false;
	for (unsigned k = 0; k < 4; k++)
		p->slot[k].pair_next = false;
	for (unsigned k = 0; k + 1 < p->nslots && shortcuts; k++) {   /* both halves of one register */
		alu_slot *s = &p->slot[k];
		if (row_half(s) && row_half(&s[1]) && s[1].dst_index == s->dst_index &&
		    s[1].write_high != s->write_high) {
			s->pair_next = true;
			k++;                                      /* the next slot is taken */
		}
	}
	for (unsigned k = 0; k < 4; k++) {
		alu_slot *s = &p->slot[k];
		plan_slot(c, s, shortcuts);
		if (shortcuts)
			plan_const(c, s);
		plan_reg_copy(s, shortcuts && !c->exact);   /* copy_reg reads FP20 words */
		const alu_operand *o[4] = { &s->a, &s->b, &s->c, &s->d };
		for (unsigned j = 0; j < 4 && k < p->nslots; j++)
			p->reads_prev |= o[j]->kind == OPD_ALU && !o[j]->cur;
	}
}

void alu_compile(const gr3d_ctx *c, const tegra_alu_packet *in, alu_packet *out, bool shortcuts)
{
	memset(out, 0, sizeof *out);
	const bool imm3 = c->cfg->tegra_slot3_by_reads ? in->slot3_is_imm : false;
	out->nslots = imm3 ? 3 : 4;
	for (unsigned k = 0; k < 4; k++) {
		const tegra_alu_inst *s = &in->slot[k];
		alu_slot *o = &out->slot[k];
		o->a = operand(c, in, s->a.cls, s->a.index, s->a.fx10, s->a.high, s->a.abs, s->a.x2,
		               s->a.minus_one, s->a.neg);
		o->b = operand(c, in, s->b.cls, s->b.index, s->b.fx10, s->b.high, s->b.abs, s->b.x2,
		               s->b.minus_one, s->b.neg);
		o->c = operand(c, in, s->c.cls, s->c.index, s->c.fx10, s->c.high, s->c.abs, s->c.x2,
		               s->c.minus_one, s->c.neg);
		if (s->d.enable) {        /* rD: rB's or rC's register with its own bits */
			const tegra_alu_src *r = s->d.sel_c ? &s->c : &s->b;
			o->d = operand(c, in, r->cls, r->index, s->d.fx10, s->d.high, s->d.abs, false,
			               s->d.minus_one, false);
		} else {
			o->d = (alu_operand){ .kind = OPD_CONST, .k = 1.0, .abs_mask = ~UINT64_C(0), .mul = 1.0 };
		}
		o->opcode = s->opcode;
		o->cc = s->cc;
		if (c->cfg->tegra_cc_mesa && (o->cc == TEGRA_CC_GT || o->cc == TEGRA_CC_GE))
			o->cc = o->cc == TEGRA_CC_GT ? TEGRA_CC_GE : TEGRA_CC_GT;  /* fpir.h (§9 q1) */
		o->scale = s->scale & 3u;
		o->add_disable = s->add_disable;
		o->saturate = s->saturate;
		o->dst_cls = s->dst_cls;
		o->dst_index = s->dst_index;
		o->write_low = s->write_low;
		o->write_high = s->write_high;
		o->fx10_shift = (uint8_t)(s->write_high ? gr3d_fx_shift(c) : 0u);
		o->wr = WR_OTHER;              /* a row or a global, not arith=exact (binary32 words) */
		if (!c->exact && (s->write_low || s->write_high) &&
		    (s->dst_cls == TEGRA_REG_ROW || s->dst_cls == TEGRA_REG_GLOBAL)) {
			o->wr = s->write_low && s->write_high ? WR_FP20 : WR_FX10;
			o->wr_off = (uint16_t)(s->dst_cls == TEGRA_REG_ROW
			                       ? offsetof(gr3d_quad, r) + (s->dst_index & (GR3D_ROW_REGS - 1)) * sizeof(((gr3d_quad *)0)->r[0])
			                       : offsetof(gr3d_quad, g) + (s->dst_index & 7u) * sizeof(((gr3d_quad *)0)->g[0]));
		}
	}
	/* arith=exact: a constant source (imm0..imm2 read as FP20, #0/#1) reads
	 * as the binary32 the compiler encoded it from, where it kept one
	 * (tegra_alu_packet.xk, docs/exact.md) */
	for (unsigned k = 0; k < 4 && c->exact && in->xmask; k++) {
		const tegra_alu_src *src[3] = { &in->slot[k].a, &in->slot[k].b, &in->slot[k].c };
		alu_operand *o[3] = { &out->slot[k].a, &out->slot[k].b, &out->slot[k].c };
		for (unsigned j = 0; j < 3; j++)
			if ((in->xmask >> (3 * k + j) & 1u) &&
			    ((src[j]->cls == TEGRA_REG_IMM && !src[j]->fx10) || src[j]->cls == TEGRA_REG_CONST01))
				o[j]->k = gr3d_xround(in->xk[k][j]);
	}
	/* constants take their modifiers now: fetch copies them as they are */
	for (unsigned k = 0; k < 4; k++) {
		alu_operand *o[4] = { &out->slot[k].a, &out->slot[k].b, &out->slot[k].c, &out->slot[k].d };
		for (unsigned j = 0; j < 4; j++)
			if (o[j]->kind == OPD_CONST && o[j]->mods) {
				o[j]->k = modify(o[j], o[j]->k);
				o[j]->mods = false;
			}
	}
	/* (this)/(other) groups (tegra.alu.acc_group, §9 q4) */
	for (unsigned k = 0; k < 4; k++)
		out->group_head[k] = -1;
	for (unsigned k = 0; k < out->nslots && c->cfg->tegra_acc_group; k++) {
		if (!in->slot[k].acc_this)
			continue;
		out->groups = true;
		out->group_head[k] = (int8_t)k;
		unsigned j = k + 1;
		while (j < out->nslots && in->slot[j].acc_other && !in->slot[j].acc_this)
			out->group_head[j++] = (int8_t)k;
		if (j < out->nslots && !in->slot[j].acc_this)
			out->group_head[j] = (int8_t)k;
		k = j;
	}
	for (unsigned k = 0; k < 4; k++) {   /* a group's head takes the sum, which is neither */
		alu_slot *s = &out->slot[k];
		s->unit01 = (s->saturate || s->cc != TEGRA_CC_NONE) && out->group_head[k] < 0;
	}
	/* with alu_reg_same_packet, slot k sees the results of the earlier,
	 * non-accumulating slots of the same packet */
	const bool same = c->cfg->tegra_alu_same_packet;
	for (unsigned k = 0; k < 4; k++) {
		alu_operand *o[4] = { &out->slot[k].a, &out->slot[k].b, &out->slot[k].c, &out->slot[k].d };
		for (unsigned j = 0; j < 4; j++)
			o[j]->cur = o[j]->kind == OPD_ALU && same && o[j]->index < k &&
			            out->group_head[o[j]->index] < 0;
	}
	plan_packet(c, out, shortcuts);
}
/* Does any packet the program runs write the uniform file? */
static bool writes_uniforms(const alu_unit *a, const tegra_fp_decoded *prog)
{
	for (unsigned e = 0; e < prog->exec_count && e < TEGRA_FP_MAX_EXEC; e++)
		for (unsigned i = 0; i < prog->exec[e].alu_sched.count && i < TEGRA_FP_MAX_PER_EXEC; i++) {
			const alu_packet *p = &a->pk[e][i];
			for (unsigned k = 0; k < p->nslots; k++)
				if (p->slot[k].dst_cls == TEGRA_REG_UNIFORM)
					return true;
		}
	return false;
}

/* A program that never writes u0..u7 reads the same uniforms for the whole
 * draw: they become constants with their modifiers applied, exactly as
 * fetch would compute them for every quad. */
static void fold_uniforms(const gr3d_ctx *c, alu_packet *p)
{
	for (unsigned k = 0; k < 4; k++) {
		alu_operand *o[4] = { &p->slot[k].a, &p->slot[k].b, &p->slot[k].c, &p->slot[k].d };
		for (unsigned j = 0; j < 4; j++) {
			if (o[j]->kind != OPD_UNIFORM)
				continue;
			const uint32_t u = c->uniforms[o[j]->index];
			double v = o[j]->fx ? gr3d_fx10(u >> (o[j]->fx == 2 ? FX10_HIGH_SHIFT : 0u), false)
			                    : gr3d_uniform20(c, o[j]->index, fp20_operand(c, u));
			o[j]->k = o[j]->mods ? modify(o[j], v) : v;
			o[j]->kind = OPD_CONST;
			o[j]->mods = false;
		}
	}
}

/* Does EXEC e load row register i into the view (load_view)?  A batch
 * start loads every row, another EXEC the row it carries. */
static bool loads_view(const gr3d_ctx *c, unsigned e, unsigned i)
{
	const unsigned row = e % c->rows;
	return row == 0 || i / 4 == row;
}

/* tegra.alu.batch_view, decided per operand once per draw.  EXECs run in
 * order, each through the ALU, so which EXEC last loaded a register into the
 * view, and which registers the earlier packets of an EXEC wrote, are known
 * now (a packet's row writes all land unless no pixel is live, and then
 * nothing it or a later packet reads can be seen).  A row read sees the
 * register as it is when this EXEC wrote it earlier or loaded it itself
 * (nothing else writes it during the ALU's turn), and otherwise the view as
 * the EXEC that last loaded it left it: only those reads go through the
 * view, and only their registers are copied, by the EXEC that loads them. */
static void plan_views(alu_unit *a, const gr3d_ctx *c)
{
	memset(a->view_load, 0, sizeof a->view_load);
	for (unsigned e = 0; e < c->prog->exec_count && e < TEGRA_FP_MAX_EXEC; e++) {
		uint16_t written = 0;
		for (unsigned n = 0; n < c->prog->exec[e].alu_sched.count && n < TEGRA_FP_MAX_PER_EXEC; n++) {
			alu_packet *p = &a->pk[e][n];
			for (unsigned k = 0; k < 4; k++) {
				alu_operand *o[4] = { &p->slot[k].a, &p->slot[k].b, &p->slot[k].c, &p->slot[k].d };
				for (unsigned j = 0; j < 4; j++) {
					const unsigned i = o[j]->index;
					o[j]->view = false;
					if (!a->batch_view || !o[j]->row || ((written >> i) & 1u) || loads_view(c, e, i))
						continue;
					unsigned from = e;
					while (!loads_view(c, from, i))
						from--;
					o[j]->view = true;
					o[j]->off = copy_words(o[j]);      /* its words: the view's */
					a->view_load[from] |= (uint16_t)(1u << i);
				}
			}
			for (unsigned k = 0; k < p->nslots; k++)
				if (p->slot[k].dst_cls == TEGRA_REG_ROW)
					written |= (uint16_t)(1u << (p->slot[k].dst_index & (GR3D_ROW_REGS - 1)));
			for (unsigned k = 0; k < 4; k++) {   /* a copy reads where its operand now does */
				alu_slot *s = &p->slot[k];
				if (s->reg_copy)
					s->copy_off = copy_words((const alu_operand *)(const void *)((const uint8_t *)s + s->copy_opd));
			}
		}
	}
}
/* Does some operand of packet p read aluK slot k: as the previous packet's
 * (prev) or, from slot `from` on, as this packet's earlier slot (cur)? */
static bool reads_alu(const alu_packet *p, unsigned k, bool prev, unsigned from)
{
	for (unsigned j = from; j < 4; j++) {
		const alu_operand *o[4] = { &p->slot[j].a, &p->slot[j].b, &p->slot[j].c, &p->slot[j].d };
		for (unsigned i = 0; i < 4; i++)
			if (o[i]->kind == OPD_ALU && o[i]->index == k && o[i]->cur == !prev)
				return true;
	}
	return false;
}

/* alu_slot.unread: a rounded slot (not exact, no condition) whose value no
 * operand reads (a later slot of its packet, the next packet of its EXEC;
 * aluK starts at 0 in each EXEC), in no group, written whole as FP20 into a
 * row or global register.  The write's encoder rounds with fp20.round as
 * gr3d_round20 does, and encoding a value rounded first gives the same code
 * (tests/units/test_gr3d_numfmt.c), so the slot's own rounding is left out. */
static void plan_unread(alu_unit *a, const gr3d_ctx *c)
{
	for (unsigned e = 0; e < c->prog->exec_count && e < TEGRA_FP_MAX_EXEC; e++) {
		const unsigned count = c->prog->exec[e].alu_sched.count;
		for (unsigned n = 0; n < count && n < TEGRA_FP_MAX_PER_EXEC; n++) {
			alu_packet *p = &a->pk[e][n];
			const alu_packet *next = n + 1 < count && n + 1 < TEGRA_FP_MAX_PER_EXEC ? &a->pk[e][n + 1] : NULL;
			for (unsigned k = 0; k < p->nslots; k++) {
				alu_slot *s = &p->slot[k];
				s->unread = !s->exact && s->cc == TEGRA_CC_NONE && p->group_head[k] < 0 &&
				            (s->dst_cls == TEGRA_REG_ROW || s->dst_cls == TEGRA_REG_GLOBAL) &&
				            s->write_low && s->write_high && !s->pair_next &&
				            !reads_alu(p, k, false, k + 1) && !(next && reads_alu(next, k, true, 0));
			}
		}
	}
}

void alu_plan_draw(alu_unit *a, const gr3d_ctx *ctx)
{
	for (unsigned e = 0; e < ctx->prog->exec_count && e < TEGRA_FP_MAX_EXEC; e++)
		for (unsigned i = 0; i < TEGRA_FP_MAX_PER_EXEC; i++)
			alu_compile(ctx, &ctx->prog->exec[e].alu[i], &a->pk[e][i], true);
	if (!writes_uniforms(a, ctx->prog))
		for (unsigned e = 0; e < ctx->prog->exec_count && e < TEGRA_FP_MAX_EXEC; e++)
			for (unsigned i = 0; i < TEGRA_FP_MAX_PER_EXEC; i++) {
				fold_uniforms(ctx, &a->pk[e][i]);
				plan_packet(ctx, &a->pk[e][i], true);   /* folded operands may plan better */
			}
	plan_views(a, ctx);
	plan_unread(a, ctx);
	for (unsigned e = 0; e < ctx->prog->exec_count && e < TEGRA_FP_MAX_EXEC; e++) {
		const unsigned count = ctx->prog->exec[e].alu_sched.count;
		a->packets[e] = (uint8_t)count;
		a->slots[e] = 0;
		for (unsigned i = 0; i < count && i < TEGRA_FP_MAX_PER_EXEC; i++)
			a->slots[e] = (uint8_t)(a->slots[e] + a->pk[e][i].nslots);
	}
}

