/* ALU: packets of four scalar slots (alu.h). */
#include "units/alu.h"

#include <math.h>

const sim_counter_def ALU_COUNTERS[ALU_CTR_COUNT] = {
	[ALU_CTR_PACKETS] = { "packets", "ALU packets run (per quad)" },
	[ALU_CTR_INSTRUCTIONS] = { "instructions", "slot operations (per pixel)" },
	[ALU_CTR_KILLS] = { "kills", "pixels killed by a kill write" },
};

typedef struct slot_view {
	const double *alu_prev;       /* aluK of the previous packet */
	const double *alu_cur;        /* aluK of this packet */
	const bool *visible;          /* slot K of this packet is visible */
} slot_view;

/* A source operand's value before modifiers (tegra-fp.md §2.3). */
static double reg_value(const gr3d_ctx *c, const tegra_alu_packet *p, const gr3d_pixel *px,
                        unsigned x, unsigned y, const slot_view *sv,
                        unsigned cls, unsigned index, bool fx10, bool high)
{
	uint32_t raw;
	switch (cls) {
	case TEGRA_REG_ROW: raw = px->r[index & (GR3D_ROW_REGS - 1)]; break;
	case TEGRA_REG_GLOBAL: raw = px->g[index & 7u]; break;
	case TEGRA_REG_ALU:
		index &= 3u;
		return sv->visible[index] ? sv->alu_cur[index] : sv->alu_prev[index];
	case TEGRA_REG_IMM: raw = p->imm[index < 3 ? index : 0]; break;
	case TEGRA_REG_CONST01: return high ? 1.0 : 0.0;     /* #1 / #0 */
	case TEGRA_REG_UNIFORM: raw = c->uniforms[index & 31u]; break;
	case TEGRA_REG_COND: raw = px->cr[index & 7u]; break;
	case TEGRA_REG_POSX: return x + c->cfg->tegra_pos_offset;
	case TEGRA_REG_POSY: return y + c->cfg->tegra_pos_offset;
	case TEGRA_REG_COVERAGE: return c->cfg->tegra_reg74;           /* §9 q2 */
	case TEGRA_REG_PFACE: return px->front ? 1.0 : -1.0;
	default: return 0.0;
	}
	return fx10 ? gr3d_fx10(raw, high) : gr3d_fp20(raw);
}

/* Modifiers in the order abs, x2, minus one, negate (docs/tegra-units.md). */
static double modify(double v, bool abs_, bool x2, bool m1, bool neg)
{
	if (abs_)
		v = fabs(v);
	if (x2)
		v *= 2.0;
	if (m1)
		v -= 1.0;
	return neg ? -v : v;
}

static double src_value(const gr3d_ctx *c, const tegra_alu_packet *p, const gr3d_pixel *px,
                        unsigned x, unsigned y, const slot_view *sv, const tegra_alu_src *s)
{
	double v = reg_value(c, p, px, x, y, sv, s->cls, s->index, s->fx10, s->high);
	return modify(v, s->abs, s->x2, s->minus_one, s->neg);
}

/* rD: rB's or rC's register with rD's own half/fx10/abs/-1 bits; 1.0 when disabled. */
static double rd_value(const gr3d_ctx *c, const tegra_alu_packet *p, const gr3d_pixel *px,
                       unsigned x, unsigned y, const slot_view *sv, const tegra_alu_inst *in)
{
	if (!in->d.enable)
		return 1.0;
	const tegra_alu_src *r = in->d.sel_c ? &in->c : &in->b;
	double v = reg_value(c, p, px, x, y, sv, r->cls, r->index, in->d.fx10, in->d.high);
	return modify(v, in->d.abs, false, in->d.minus_one, false);
}

static bool cond(const gr3d_ctx *c, unsigned cc, double r)
{
	if (c->cfg->tegra_cc_mesa && (cc == TEGRA_CC_GT || cc == TEGRA_CC_GE))
		cc = cc == TEGRA_CC_GT ? TEGRA_CC_GE : TEGRA_CC_GT;   /* fpir.h order (§9 q1) */
	switch (cc) {
	case TEGRA_CC_EQ: return r == 0.0;
	case TEGRA_CC_GT: return r > 0.0;
	default: return r >= 0.0;
	}
}

static double slot_result(const gr3d_ctx *c, const tegra_alu_packet *p, const gr3d_pixel *px,
                          unsigned x, unsigned y, const slot_view *sv, const tegra_alu_inst *in)
{
	double a = src_value(c, p, px, x, y, sv, &in->a);
	double b = src_value(c, p, px, x, y, sv, &in->b);
	double cv = src_value(c, p, px, x, y, sv, &in->c);
	double r;
	switch (in->opcode) {
	case TEGRA_ALU_CSEL:                                  /* (rA < 0) ? rB : rC */
		r = a < 0.0 ? b : cv;
		break;
	case TEGRA_ALU_MIN:
	case TEGRA_ALU_MAX: {
		double l = a * b, rr = cv * rd_value(c, p, px, x, y, sv, in);
		r = in->opcode == TEGRA_ALU_MIN ? (l < rr ? l : rr) : (l > rr ? l : rr);
		break;
	}
	default:                                              /* MAD; MUL = no addition */
		r = a * b;
		if (!in->add_disable)
			r += cv * rd_value(c, p, px, x, y, sv, in);
		break;
	}
	static const double scale[4] = { 1.0, 2.0, 4.0, 0.5 };
	r *= scale[in->scale & 3u];
	if (in->cc != TEGRA_CC_NONE)
		r = cond(c, in->cc, r) ? 1.0 : 0.0;
	if (in->saturate)
		r = r < 0.0 ? 0.0 : r > 1.0 ? 1.0 : r;
	return fp20_round(r, c->fp20_round);
}

static void write_dst(const gr3d_ctx *c, gr3d_ctx *wc, gr3d_pixel *px, const tegra_alu_inst *in,
                      double v, uint64_t *kills)
{
	switch (in->dst_cls) {
	case TEGRA_REG_ROW:
		gr3d_write_reg(c, &px->r[in->dst_index & (GR3D_ROW_REGS - 1)], v, in->write_low, in->write_high);
		break;
	case TEGRA_REG_GLOBAL:
		gr3d_write_reg(c, &px->g[in->dst_index & 7u], v, in->write_low, in->write_high);
		break;
	case TEGRA_REG_UNIFORM:    /* u0..u7 as a destination (tegra-fp.md §2.3): the shared file */
		if (wc)
			gr3d_write_reg(c, &wc->uniforms[in->dst_index & 31u], v, in->write_low, in->write_high);
		break;
	case TEGRA_REG_COND: {     /* the two write bits select the half (tegra-fp.md §2.3) */
		bool high = in->write_high;
		gr3d_write_reg(c, &px->cr[in->dst_index & 7u], v, !high, high);
		break;
	}
	case TEGRA_REG_KILL:
		if (v != 0.0 && !px->killed) {
			px->killed = true;
			(*kills)++;
		}
		break;
	default:                   /* lp, read-only registers: discarded */
		break;
	}
}

static unsigned run_packet(const gr3d_ctx *c, gr3d_ctx *wc, const tegra_alu_packet *p,
                           gr3d_pixel *px, unsigned x, unsigned y, double alu[4], uint64_t *kills)
{
	const bool imm3 = c->cfg->tegra_slot3_by_reads ? p->slot3_is_imm : false;
	const unsigned nslots = imm3 ? 3 : 4;
	/* (this)/(other) groups (tegra.alu.acc_group, §9 q4) */
	int group_head[4] = { -1, -1, -1, -1 };
	bool accumulates[4] = { false, false, false, false };
	if (c->cfg->tegra_acc_group) {
		for (unsigned k = 0; k < nslots; k++) {
			if (!p->slot[k].acc_this)
				continue;
			group_head[k] = (int)k;
			accumulates[k] = true;
			unsigned j = k + 1;
			while (j < nslots && p->slot[j].acc_other && !p->slot[j].acc_this) {
				group_head[j] = (int)k;
				accumulates[j++] = true;
			}
			if (j < nslots && !p->slot[j].acc_this) {
				group_head[j] = (int)k;
				accumulates[j] = true;
			}
			k = j;
		}
	}
	double prev[4], cur[4] = { 0, 0, 0, 0 };
	bool visible[4] = { false, false, false, false };
	memcpy(prev, alu, sizeof prev);
	slot_view sv = { prev, cur, visible };
	for (unsigned k = 0; k < nslots; k++) {
		cur[k] = slot_result(c, p, px, x, y, &sv, &p->slot[k]);
		if (c->cfg->tegra_alu_same_packet && !accumulates[k])
			visible[k] = true;
	}
	for (unsigned k = 0; k < nslots; k++) {
		if (group_head[k] != (int)k)
			continue;
		double sum = 0.0;
		for (unsigned j = k; j < nslots; j++)
			if (group_head[j] == (int)k)
				sum += cur[j];
		cur[k] = fp20_round(sum, c->fp20_round);
	}
	/* register writes land at the end of the packet (xf86 swaps r2.l/r3.l in one packet) */
	for (unsigned k = 0; k < nslots; k++)
		write_dst(c, wc, px, &p->slot[k], cur[k], kills);
	for (unsigned k = 0; k < nslots; k++)
		alu[k] = cur[k];
	return nslots;
}

unsigned alu_run_packet(const gr3d_ctx *c, const tegra_alu_packet *p, gr3d_pixel *px,
                        unsigned x, unsigned y, double alu[4], uint64_t *kills)
{
	return run_packet(c, NULL, p, px, x, y, alu, kills);
}

static unsigned alu_exec(gr3d_stage *s, gr3d_quad *q, unsigned e)
{
	gr3d_ctx *c = s->ctx;
	const tegra_exec *ex = &c->prog->exec[e];
	unsigned count = ex->alu_sched.count;
	uint64_t kills = 0, insts = 0;
	for (unsigned p = 0; p < GR3D_PIXELS && count; p++) {
		gr3d_pixel *px = &q->px[p];
		if (px->killed)
			continue;
		double alu[4] = { 0, 0, 0, 0 };
		for (unsigned i = 0; i < count; i++)
			insts += run_packet(c, c, &ex->alu[i], px, q->x + (p & 1u), q->y + (p >> 1), alu, &kills);
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
}
