/* ALU: packets of four scalar slots (alu.h). */
#include "units/alu.h"

#include <math.h>

const sim_counter_def ALU_COUNTERS[ALU_CTR_COUNT] = {
	[ALU_CTR_PACKETS] = { "packets", "ALU packets run (per quad)" },
	[ALU_CTR_INSTRUCTIONS] = { "instructions", "slot operations (per pixel)" },
	[ALU_CTR_KILLS] = { "kills", "kill writes that discarded a pixel" },
};

enum alu_operand_kind {
	OPD_CONST,                    /* #0, #1, imm0..2, register 74, unknown registers */
	OPD_ROW, OPD_GLOBAL, OPD_UNIFORM, OPD_COND,   /* raw 20-bit word, FP20 or FX10 */
	OPD_ALU, OPD_POSX, OPD_POSY, OPD_PFACE,
};

/* FP20 operand value of a raw word (tegra.fp20.read_subnormals). */
static double fp20_operand(const gr3d_ctx *c, uint32_t raw)
{
	if (!(raw & 0x7E000u) && !c->cfg->tegra_fp20_subnormals)
		return 0.0;
	return gr3d_fp20(raw);
}

/* Builds an operand from a register number and its read flags (tegra-fp.md §2.3). */
static alu_operand operand(const gr3d_ctx *c, const tegra_alu_packet *p, unsigned cls,
                           unsigned index, bool fx10, bool high, bool abs_, bool x2, bool m1,
                           bool neg)
{
	alu_operand o = { .kind = OPD_CONST, .index = (uint8_t)index, .fx = (uint8_t)(fx10 ? (high ? 2 : 1) : 0),
	                  .abs = abs_, .x2 = x2, .m1 = m1, .neg = neg };
	o.mods = abs_ || x2 || m1 || neg;
	switch (cls) {
	case TEGRA_REG_ROW: o.kind = OPD_ROW; o.index &= GR3D_ROW_REGS - 1; break;
	case TEGRA_REG_GLOBAL: o.kind = OPD_GLOBAL; o.index &= 7u; break;
	case TEGRA_REG_UNIFORM: o.kind = OPD_UNIFORM; o.index &= 31u; break;
	case TEGRA_REG_COND: o.kind = OPD_COND; o.index &= 7u; break;
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

/* Modifiers in the order abs, x2, minus one, negate (docs/tegra-units.md). */
static inline double modify(const alu_operand *o, double v)
{
	if (o->abs)
		v = fabs(v);
	if (o->x2)
		v *= 2.0;
	if (o->m1)
		v -= 1.0;
	return o->neg ? -v : v;
}

void alu_compile(const gr3d_ctx *c, const tegra_alu_packet *in, alu_packet *out)
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
			o->d = (alu_operand){ .kind = OPD_CONST, .k = 1.0 };
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
	}
	/* (this)/(other) groups (tegra.alu.acc_group, §9 q4) */
	for (unsigned k = 0; k < 4; k++)
		out->group_head[k] = -1;
	if (!c->cfg->tegra_acc_group)
		return;
	for (unsigned k = 0; k < out->nslots; k++) {
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
}

/* One operand for the four pixels of a quad. */
static void fetch(const gr3d_ctx *c, const gr3d_quad *q, const alu_operand *o,
                  const double alu[4][GR3D_PIXELS], double out[GR3D_PIXELS])
{
	uint32_t raw[GR3D_PIXELS];
	switch (o->kind) {
	case OPD_CONST: {
		double k = o->mods ? modify(o, o->k) : o->k;
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			out[p] = k;
		return;
	}
	case OPD_ROW:
		for (unsigned p = 0; p < GR3D_PIXELS; p++) {
			const gr3d_pixel *px = &q->px[p];
			raw[p] = px->r[o->index];
			if (px->tex_shadow && !o->fx) {   /* tegra.tex.fp20_reads_see_coords */
				if ((px->tex_shadow & 1u) && px->tex_reg[0] == o->index)
					raw[p] = px->tex_old[0];
				else if ((px->tex_shadow & 2u) && px->tex_reg[1] == o->index)
					raw[p] = px->tex_old[1];
			}
		}
		break;
	case OPD_GLOBAL:
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			raw[p] = q->px[p].g[o->index];
		break;
	case OPD_UNIFORM:
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			raw[p] = c->uniforms[o->index];
		break;
	case OPD_COND:
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			raw[p] = q->px[p].cr[o->index];
		break;
	case OPD_ALU:
		memcpy(out, alu[o->index], sizeof(double) * GR3D_PIXELS);
		goto mods;
	case OPD_POSX:
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			out[p] = q->x + (p & 1u) + c->cfg->tegra_pos_offset;
		goto mods;
	case OPD_POSY:
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			out[p] = q->y + (p >> 1) + c->cfg->tegra_pos_offset;
		goto mods;
	default:
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			out[p] = q->px[p].front ? 1.0 : -1.0;
		goto mods;
	}
	if (o->fx) {
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			out[p] = gr3d_fx10(raw[p], o->fx == 2);
	} else {
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			out[p] = fp20_operand(c, raw[p]);
	}
mods:
	if (o->mods)
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			out[p] = modify(o, out[p]);
}

static void slot_result(const gr3d_ctx *c, const gr3d_quad *q, const double alu[4][GR3D_PIXELS],
                        const alu_slot *s, double r[GR3D_PIXELS])
{
	double a[GR3D_PIXELS], b[GR3D_PIXELS], x[GR3D_PIXELS], y[GR3D_PIXELS];
	fetch(c, q, &s->a, alu, a);
	fetch(c, q, &s->b, alu, b);
	switch (s->opcode) {
	case TEGRA_ALU_CSEL:                                  /* (rA < 0) ? rB : rC */
		fetch(c, q, &s->c, alu, x);
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			r[p] = a[p] < 0.0 ? b[p] : x[p];
		break;
	case TEGRA_ALU_MIN:
	case TEGRA_ALU_MAX:
		fetch(c, q, &s->c, alu, x);
		fetch(c, q, &s->d, alu, y);
		for (unsigned p = 0; p < GR3D_PIXELS; p++) {
			double l = a[p] * b[p], rr = x[p] * y[p];
			r[p] = s->opcode == TEGRA_ALU_MIN ? (l < rr ? l : rr) : (l > rr ? l : rr);
		}
		break;
	default:                                              /* MAD; MUL = no addition */
		if (s->add_disable) {
			for (unsigned p = 0; p < GR3D_PIXELS; p++)
				r[p] = a[p] * b[p];
			break;
		}
		fetch(c, q, &s->c, alu, x);
		fetch(c, q, &s->d, alu, y);
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			r[p] = a[p] * b[p] + x[p] * y[p];
		break;
	}
	static const double scale[4] = { 1.0, 2.0, 4.0, 0.5 };
	for (unsigned p = 0; p < GR3D_PIXELS; p++) {
		double v = r[p] * scale[s->scale];
		if (s->cc != TEGRA_CC_NONE)
			v = (s->cc == TEGRA_CC_EQ ? v == 0.0 : s->cc == TEGRA_CC_GT ? v > 0.0 : v >= 0.0) ? 1.0 : 0.0;
		if (s->saturate)
			v = v < 0.0 ? 0.0 : v > 1.0 ? 1.0 : v;
		r[p] = gr3d_round20(c, v);
	}
}

static void write_dst(const gr3d_ctx *c, gr3d_ctx *wc, gr3d_pixel *px, const alu_slot *s,
                      double v, uint64_t *kills)
{
	switch (s->dst_cls) {
	case TEGRA_REG_ROW:
		if (px->tex_shadow && (s->write_low || s->write_high))
			for (unsigned k = 0; k < 2; k++)  /* a write ends the pre-fetch view */
				if (px->tex_reg[k] == s->dst_index)
					px->tex_shadow &= (uint8_t)~(1u << k);
		gr3d_write_reg(c, &px->r[s->dst_index & (GR3D_ROW_REGS - 1)], v, s->write_low, s->write_high);
		break;
	case TEGRA_REG_GLOBAL:
		gr3d_write_reg(c, &px->g[s->dst_index & 7u], v, s->write_low, s->write_high);
		break;
	case TEGRA_REG_UNIFORM:    /* u0..u7 as a destination (tegra-fp.md §2.3): the shared file */
		if (wc)
			gr3d_write_reg(c, &wc->uniforms[s->dst_index & 31u], v, s->write_low, s->write_high);
		break;
	case TEGRA_REG_COND:       /* the two write bits select the half (tegra-fp.md §2.3) */
		gr3d_write_reg(c, &px->cr[s->dst_index & 7u], v, !s->write_high, s->write_high);
		break;
	case TEGRA_REG_KILL:
		if (v != 0.0 && !px->killed && !px->exec_killed) {
			if (c->cfg->tegra_kill_this_exec)
				px->exec_killed = true;
			else
				px->killed = true;
			(*kills)++;
		}
		break;
	default:                   /* lp, read-only registers: discarded */
		break;
	}
}

unsigned alu_run_packet(const gr3d_ctx *c, gr3d_ctx *wc, const alu_packet *p, gr3d_quad *q,
                        double alu[4][GR3D_PIXELS], uint64_t *kills)
{
	const unsigned n = p->nslots;
	double prev[4][GR3D_PIXELS], cur[4][GR3D_PIXELS];
	memcpy(prev, alu, sizeof prev);
	memset(cur, 0, sizeof cur);
	const bool same = c->cfg->tegra_alu_same_packet;
	for (unsigned k = 0; k < n; k++) {
		slot_result(c, q, prev, &p->slot[k], cur[k]);
		if (same && p->group_head[k] < 0)    /* earlier, non-accumulating slots visible */
			memcpy(prev[k], cur[k], sizeof cur[k]);
	}
	if (p->groups) {
		for (unsigned k = 0; k < n; k++) {
			if (p->group_head[k] != (int)k)
				continue;
			for (unsigned px = 0; px < GR3D_PIXELS; px++) {
				double sum = 0.0;
				for (unsigned j = k; j < n; j++)
					if (p->group_head[j] == (int)k)
						sum += cur[j][px];
				cur[k][px] = gr3d_round20(c, sum);
			}
		}
	}
	/* register writes land at the end of the packet (xf86 swaps r2.l/r3.l in one packet) */
	for (unsigned px = 0; px < GR3D_PIXELS; px++) {
		gr3d_pixel *pix = &q->px[px];
		if (pix->killed)
			continue;
		for (unsigned k = 0; k < n; k++)
			write_dst(c, wc, pix, &p->slot[k], cur[k][px], kills);
	}
	memcpy(alu, cur, sizeof cur);
	return n;
}

static unsigned alu_exec(gr3d_stage *s, gr3d_quad *q, unsigned e)
{
	gr3d_ctx *c = s->ctx;
	const alu_unit *a = (const alu_unit *)s;
	unsigned count = c->prog->exec[e].alu_sched.count;
	uint64_t kills = 0, insts = 0;
	unsigned alive = 0;
	for (unsigned p = 0; p < GR3D_PIXELS; p++)
		alive += !q->px[p].killed;
	if (alive && count) {
		double alu[4][GR3D_PIXELS];
		memset(alu, 0, sizeof alu);
		for (unsigned i = 0; i < count; i++)
			insts += alu_run_packet(c, c, &a->pk[e][i], q, alu, &kills) * alive;
	}
	sim_unit_count(&s->u, ALU_CTR_PACKETS, count);
	sim_unit_count(&s->u, ALU_CTR_INSTRUCTIONS, insts);
	sim_unit_count(&s->u, ALU_CTR_KILLS, kills);
	return s->quad_clocks * (count ? count : 1);
}

void alu_init(alu_unit *a, gr3d_ctx *ctx)
{
	gr3d_stage_init(&a->s, "alu", ctx, ALU_COUNTERS, ALU_CTR_COUNT);
	a->s.exec = alu_exec;
	for (unsigned e = 0; e < ctx->prog->exec_count && e < TEGRA_FP_MAX_EXEC; e++)
		for (unsigned i = 0; i < TEGRA_FP_MAX_PER_EXEC; i++)
			alu_compile(ctx, &ctx->prog->exec[e].alu[i], &a->pk[e][i]);
}
