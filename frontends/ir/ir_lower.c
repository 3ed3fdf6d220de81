/* Lowering: every op a target does not run natively becomes a sequence of
 * base ops (ir_ops.def F_BASE); then |x| sources and _SAT where the target
 * lacks the modifiers; ARL gets an FLR where the address load truncates;
 * outputs are collected into temporaries where a target needs that.
 *
 * Rules every expansion keeps (so it is safe on OUT destinations and when
 * a source is also the destination): intermediate values go to fresh
 * temporaries; the original destination is written by one final instruction
 * (CHAN ops assemble their result in a temporary and MOV it), or, for CMP's
 * branches, once per component on every path; sources are read only before
 * that final write.  Formulas follow tgsi_exec (tgsi.md
 * §2); docs/compiler.md "Lowering" lists them with their accuracy. */
#include <math.h>
#include <string.h>

#include "frontends/ir/ir.h"

typedef struct lctx {
	ir_shader *s;
	size_t pos;             /* insertion point */
	ir_inst orig;           /* the instruction being expanded */
	const ir_caps *caps;
	ir_error *e;
	bool oom;
} lctx;

static ir_inst *emit(lctx *L, unsigned op, ir_dst d, const ir_src *a, const ir_src *b,
                     const ir_src *c)
{
	ir_inst *in = ir_insert(L->s, L->pos, 1);
	if (!in) {
		L->oom = true;
		return NULL;
	}
	L->pos++;
	in->op = (uint16_t)op;
	in->dst = d;
	in->nsrc = ir_op_get(op)->nsrc;
	if (a)
		in->src[0] = *a;
	if (b)
		in->src[1] = *b;
	if (c)
		in->src[2] = *c;
	in->line = L->orig.line;
	in->col = L->orig.col;
	return in;
}

/* The final write of an expansion: the original destination and _SAT. */
static void emit_final(lctx *L, unsigned op, const ir_src *a, const ir_src *b, const ir_src *c)
{
	ir_inst *in = emit(L, op, L->orig.dst, a, b, c);
	if (in)
		in->sat = L->orig.sat;
}

static ir_dst tmp_dst(lctx *L, uint8_t mask, ir_src *as_src)
{
	uint32_t t = ir_new_temp(L->s);
	*as_src = ir_src_reg(IR_TEMP, (int32_t)t);
	return ir_dst_reg(IR_TEMP, (int32_t)t, mask);
}

static ir_src imm(lctx *L, float v)
{
	ir_src r = ir_imm_scalar(L->s, v);
	if (r.file == IR_NULL)
		L->oom = true;
	return r;
}

static ir_src negate(ir_src s)
{
	s.neg = !s.neg;
	return s;
}

static ir_src scalar(ir_src s, unsigned c)
{
	return ir_src_comp(s, c);
}

/* sin(x), or cos(x) = sin(x + pi/2), into the x of a fresh temporary.
 * Quadrant k = floor(x * 2/pi + 1/2); r = x - k*pi/2 with pi/2 split in a
 * short head (exact products for |k| < 256) and a tail, so r stays exact
 * near multiples of pi/2 (Cody-Waite); then by k mod 4 (+1 for cos):
 * sin r, cos r, -sin r, -cos r, selected with 0/1 factors.  The series to
 * r^9 / r^8 are accurate to 2e-9 on [-pi/4, pi/4]. */
static ir_src lower_sincos(lctx *L, ir_src x, bool want_cos)
{
	static const double HALF_PI = 1.5707963267948966, HEAD = 201.0 / 128.0;
	ir_src t, k, r1, r, k4, f4, q, q2, h, odd, sg, s2, p, sr, cr, om, sel, v, res;
	ir_src c2op = imm(L, (float)(2.0 / 3.141592653589793)), half = imm(L, 0.5f);
	ir_src nhead = imm(L, (float)-HEAD), ntail = imm(L, (float)-(HALF_PI - HEAD));
	ir_src quarter = imm(L, 0.25f), m4 = imm(L, -4.0f), m2 = imm(L, -2.0f), one = imm(L, 1.0f);
	emit(L, IR_OP_MAD, tmp_dst(L, 1, &t), &x, &c2op, &half);
	emit(L, IR_OP_FLR, tmp_dst(L, 1, &k), &t, NULL, NULL);
	emit(L, IR_OP_MAD, tmp_dst(L, 1, &r1), &k, &nhead, &x);
	emit(L, IR_OP_MAD, tmp_dst(L, 1, &r), &k, &ntail, &r1);
	if (want_cos) {
		ir_src k1;
		emit(L, IR_OP_ADD, tmp_dst(L, 1, &k1), &k, &one, NULL);
		k = k1;
	}
	emit(L, IR_OP_MUL, tmp_dst(L, 1, &k4), &k, &quarter, NULL);
	emit(L, IR_OP_FLR, tmp_dst(L, 1, &f4), &k4, NULL, NULL);
	emit(L, IR_OP_MAD, tmp_dst(L, 1, &q), &f4, &m4, &k);            /* k mod 4 */
	emit(L, IR_OP_MUL, tmp_dst(L, 1, &q2), &q, &half, NULL);
	emit(L, IR_OP_FLR, tmp_dst(L, 1, &h), &q2, NULL, NULL);         /* q >= 2 */
	emit(L, IR_OP_MAD, tmp_dst(L, 1, &odd), &h, &m2, &q);           /* q odd */
	emit(L, IR_OP_MAD, tmp_dst(L, 1, &sg), &h, &m2, &one);          /* +1 / -1 */
	emit(L, IR_OP_MUL, tmp_dst(L, 1, &s2), &r, &r, NULL);
	static const double S[] = { 1.0 / 362880, -1.0 / 5040, 1.0 / 120, -1.0 / 6, 1.0 };
	static const double C[] = { 1.0 / 40320, -1.0 / 720, 1.0 / 24, -0.5, 1.0 };
	p = imm(L, (float)S[0]);
	for (size_t j = 1; j < sizeof S / sizeof S[0]; j++) {
		ir_src c = imm(L, (float)S[j]), n;
		emit(L, IR_OP_MAD, tmp_dst(L, 1, &n), &s2, &p, &c);
		p = n;
	}
	emit(L, IR_OP_MUL, tmp_dst(L, 1, &sr), &r, &p, NULL);
	p = imm(L, (float)C[0]);
	for (size_t j = 1; j < sizeof C / sizeof C[0]; j++) {
		ir_src c = imm(L, (float)C[j]), n;
		emit(L, IR_OP_MAD, tmp_dst(L, 1, &n), &s2, &p, &c);
		p = n;
	}
	cr = p;
	ir_src nodd = negate(odd);
	emit(L, IR_OP_ADD, tmp_dst(L, 1, &om), &one, &nodd, NULL);
	emit(L, IR_OP_MUL, tmp_dst(L, 1, &sel), &cr, &odd, NULL);
	emit(L, IR_OP_MAD, tmp_dst(L, 1, &v), &sr, &om, &sel);
	emit(L, IR_OP_MUL, tmp_dst(L, 1, &res), &v, &sg, NULL);
	return res;
}

/* No component of x that the mask's components read can be NaN.  Only
 * immediates are known at compile time: inputs, constants and temporaries
 * can hold anything. */
static bool never_nan(const ir_shader *s, const ir_src *x, uint8_t mask)
{
	if (x->file != IR_IMM || x->indirect || x->index < 0 || (size_t)x->index >= s->nimm)
		return false;
	for (unsigned k = 0; k < 4; k++) {
		float v;
		memcpy(&v, &s->imm[x->index][x->swz[k] & 3], sizeof v);
		if ((mask >> k & 1) && isnan(v))
			return false;
	}
	return true;
}

static bool same_reg(ir_dst d, ir_src x)
{
	return d.file == x.file && d.index == x.index;
}

/* CMP as a real select: per distinct component of a that the destination
 * reads, IF a.c < 0; MOV d, b; ELSE; MOV d, c; ENDIF.  The masked-arithmetic
 * form turns an unselected NaN into a NaN result (NaN * 0 = NaN,
 * pica200.md §2.2); a branch gives the selected operand's value exactly.
 * Components are written straight into the destination when one IF covers
 * them all or when the destination is none of the sources; otherwise into a
 * temporary copied by one final MOV. */
static void lower_cmp_branch(lctx *L, ir_src a, ir_src b, ir_src c, ir_src zero)
{
	const ir_inst *o = &L->orig;
	uint8_t group[4] = { 0 };
	unsigned ngroups = 0;
	for (unsigned k = 0; k < 4; k++)
		if (o->dst.mask >> k & 1) {
			ngroups += !group[a.swz[k] & 3];
			group[a.swz[k] & 3] |= (uint8_t)(1u << k);
		}
	bool direct = ngroups <= 1 ||
	              (!same_reg(o->dst, a) && !same_reg(o->dst, b) && !same_reg(o->dst, c));
	ir_src T = a, lt = a;
	ir_dst D = direct ? o->dst : tmp_dst(L, o->dst.mask, &T);
	if (!L->caps->if_lt0)   /* IF tests != 0 only: a < 0 as 1 / 0 first */
		emit(L, IR_OP_SLT, tmp_dst(L, o->dst.mask, &lt), &a, &zero, NULL);
	for (unsigned ch = 0; ch < 4; ch++) {
		if (!group[ch])
			continue;
		unsigned k0 = 0;
		while (!(group[ch] >> k0 & 1))
			k0++;
		ir_src x = scalar(L->caps->if_lt0 ? a : lt, k0);
		ir_inst *f = emit(L, IR_OP_IF, ir_dst_reg(IR_NULL, 0, 0), &x, NULL, NULL);
		if (f)
			f->cond = L->caps->if_lt0 ? IR_IF_LT0 : IR_IF_NE0;
		ir_dst dg = D;
		dg.mask = group[ch];
		ir_inst *mv = emit(L, IR_OP_MOV, dg, &b, NULL, NULL);
		if (mv)
			mv->sat = direct && o->sat;
		emit(L, IR_OP_ELSE, ir_dst_reg(IR_NULL, 0, 0), NULL, NULL, NULL);
		mv = emit(L, IR_OP_MOV, dg, &c, NULL, NULL);
		if (mv)
			mv->sat = direct && o->sat;
		emit(L, IR_OP_ENDIF, ir_dst_reg(IR_NULL, 0, 0), NULL, NULL, NULL);
	}
	if (!direct)
		emit_final(L, IR_OP_MOV, &T, NULL, NULL);
}

/* Expands L->orig (already removed from the shader) at L->pos. */
static bool expand(lctx *L)
{
	const ir_inst *o = &L->orig;
	uint8_t m = o->dst.mask;
	ir_src a = o->src[0], b = o->src[1], c = o->src[2];
	ir_src t1, t2, t3, t4, R;
	ir_src zero = imm(L, 0.0f), one = imm(L, 1.0f);
	switch (o->op) {
	case IR_OP_SGT:
		emit_final(L, IR_OP_SLT, &b, &a, NULL);
		break;
	case IR_OP_SLE:
		emit_final(L, IR_OP_SGE, &b, &a, NULL);
		break;
	case IR_OP_SEQ:         /* (a >= b) * (b >= a) */
		emit(L, IR_OP_SGE, tmp_dst(L, m, &t1), &a, &b, NULL);
		emit(L, IR_OP_SGE, tmp_dst(L, m, &t2), &b, &a, NULL);
		emit_final(L, IR_OP_MUL, &t1, &t2, NULL);
		break;
	case IR_OP_SNE:         /* (a < b) + (b < a) */
		emit(L, IR_OP_SLT, tmp_dst(L, m, &t1), &a, &b, NULL);
		emit(L, IR_OP_SLT, tmp_dst(L, m, &t2), &b, &a, NULL);
		emit_final(L, IR_OP_ADD, &t1, &t2, NULL);
		break;
	case IR_OP_CMP:
		if (!never_nan(L->s, &b, m) || !never_nan(L->s, &c, m)) {
			lower_cmp_branch(L, a, b, c, zero);
			break;
		}
		/* b * (a < 0) + c * (1 - (a < 0)): exact when neither b nor c is
		 * NaN (inf * 0 = 0 on the targets without CMP: pica200.md §2.2);
		 * a NaN a selects c */
		emit(L, IR_OP_SLT, tmp_dst(L, m, &t1), &a, &zero, NULL);
		t4 = negate(t1);
		emit(L, IR_OP_ADD, tmp_dst(L, m, &t2), &one, &t4, NULL);
		emit(L, IR_OP_MUL, tmp_dst(L, m, &t3), &c, &t2, NULL);
		emit_final(L, IR_OP_MAD, &b, &t1, &t3);
		break;
	case IR_OP_LRP:         /* a * (b - c) + c */
		t2 = negate(c);
		emit(L, IR_OP_ADD, tmp_dst(L, m, &t1), &b, &t2, NULL);
		emit_final(L, IR_OP_MAD, &a, &t1, &c);
		break;
	case IR_OP_DIV: {       /* a * rcp(b), one RCP per component */
		ir_dst d = tmp_dst(L, m, &t1);
		for (unsigned k = 0; k < 4; k++) {
			if (!(m & (1u << k)))
				continue;
			ir_src bk = scalar(b, k);
			emit(L, IR_OP_RCP, ir_dst_reg(IR_TEMP, d.index, (uint8_t)(1u << k)), &bk, NULL, NULL);
		}
		emit_final(L, IR_OP_MUL, &a, &t1, NULL);
		break;
	}
	case IR_OP_POW:         /* ex2(b.x * lg2(a.x)) */
		t3 = scalar(a, 0);
		emit(L, IR_OP_LG2, tmp_dst(L, 1, &t1), &t3, NULL, NULL);
		t3 = scalar(b, 0);
		emit(L, IR_OP_MUL, tmp_dst(L, 1, &t2), &t1, &t3, NULL);
		t2 = scalar(t2, 0);
		emit_final(L, IR_OP_EX2, &t2, NULL, NULL);
		break;
	case IR_OP_SQRT:        /* rcp(rsq(x)): 0 -> 0, inf -> inf */
		t2 = scalar(a, 0);
		emit(L, IR_OP_RSQ, tmp_dst(L, 1, &t1), &t2, NULL, NULL);
		t1 = scalar(t1, 0);
		emit_final(L, IR_OP_RCP, &t1, NULL, NULL);
		break;
	case IR_OP_DP2:         /* a.x*b.x + a.y*b.y */
		emit(L, IR_OP_MUL, tmp_dst(L, 3, &t1), &a, &b, NULL);
		t2 = scalar(t1, 0);
		t3 = scalar(t1, 1);
		emit_final(L, IR_OP_ADD, &t2, &t3, NULL);
		break;
	case IR_OP_DPH:         /* dp3(a, b) + b.w */
		emit(L, IR_OP_DP3, tmp_dst(L, 1, &t1), &a, &b, NULL);
		t1 = scalar(t1, 0);
		t2 = scalar(b, 3);
		emit_final(L, IR_OP_ADD, &t1, &t2, NULL);
		break;
	case IR_OP_SSG:         /* (x > 0) - (x < 0) */
		emit(L, IR_OP_SLT, tmp_dst(L, m, &t1), &zero, &a, NULL);
		emit(L, IR_OP_SLT, tmp_dst(L, m, &t2), &a, &zero, NULL);
		t2 = negate(t2);
		emit_final(L, IR_OP_ADD, &t1, &t2, NULL);
		break;
	case IR_OP_FRC:         /* x - floor(x) */
		emit(L, IR_OP_FLR, tmp_dst(L, m, &t1), &a, NULL, NULL);
		t1 = negate(t1);
		emit_final(L, IR_OP_ADD, &a, &t1, NULL);
		break;
	case IR_OP_CEIL:        /* -floor(-x) */
		t2 = negate(a);
		emit(L, IR_OP_FLR, tmp_dst(L, m, &t1), &t2, NULL, NULL);
		t1 = negate(t1);
		emit_final(L, IR_OP_MOV, &t1, NULL, NULL);
		break;
	case IR_OP_TRUNC: {     /* floor(|x|) * (x >= 0 ? 1 : -1) */
		ir_src ax = a, two = imm(L, 2.0f), mone = imm(L, -1.0f);
		ax.abs = true;
		ax.neg = false;
		emit(L, IR_OP_FLR, tmp_dst(L, m, &t1), &ax, NULL, NULL);
		emit(L, IR_OP_SGE, tmp_dst(L, m, &t2), &a, &zero, NULL);
		emit(L, IR_OP_MAD, tmp_dst(L, m, &t3), &t2, &two, &mone);
		emit_final(L, IR_OP_MUL, &t1, &t3, NULL);
		break;
	}
	case IR_OP_ROUND: {     /* half to even: r = floor(x + .5); r -= (r - x == .5) * odd(r) */
		ir_src half = imm(L, 0.5f), two = imm(L, 2.0f), na = negate(a), tie, odd;
		emit(L, IR_OP_ADD, tmp_dst(L, m, &t1), &a, &half, NULL);
		emit(L, IR_OP_FLR, tmp_dst(L, m, &t2), &t1, NULL, NULL);
		emit(L, IR_OP_ADD, tmp_dst(L, m, &t3), &t2, &na, NULL);
		emit(L, IR_OP_SEQ, tmp_dst(L, m, &tie), &t3, &half, NULL);
		emit(L, IR_OP_MUL, tmp_dst(L, m, &t4), &t2, &half, NULL);
		emit(L, IR_OP_FRC, tmp_dst(L, m, &odd), &t4, NULL, NULL);     /* 0 or .5 */
		emit(L, IR_OP_MUL, tmp_dst(L, m, &t1), &odd, &two, NULL);     /* 0 or 1 */
		tie = negate(tie);
		emit_final(L, IR_OP_MAD, &tie, &t1, &t2);
		break;
	}
	case IR_OP_SIN:
	case IR_OP_COS:
		t1 = lower_sincos(L, scalar(a, 0), o->op == IR_OP_COS);
		t1 = scalar(t1, 0);
		emit_final(L, IR_OP_MOV, &t1, NULL, NULL);
		break;
	case IR_OP_SCS: {
		ir_dst d = tmp_dst(L, 0xF, &R);
		t1 = lower_sincos(L, scalar(a, 0), true);
		t2 = lower_sincos(L, scalar(a, 0), false);
		t1 = scalar(t1, 0);
		t2 = scalar(t2, 0);
		emit(L, IR_OP_MOV, ir_dst_reg(IR_TEMP, d.index, 1), &t1, NULL, NULL);
		emit(L, IR_OP_MOV, ir_dst_reg(IR_TEMP, d.index, 2), &t2, NULL, NULL);
		emit(L, IR_OP_MOV, ir_dst_reg(IR_TEMP, d.index, 4), &zero, NULL, NULL);
		emit(L, IR_OP_MOV, ir_dst_reg(IR_TEMP, d.index, 8), &one, NULL, NULL);
		emit_final(L, IR_OP_MOV, &R, NULL, NULL);
		break;
	}
	case IR_OP_LIT: {       /* (1, max(x,0), x > 0 ? pow(max(y,0), clamp(w)) : 0, 1) */
		ir_dst d = tmp_dst(L, 0xF, &R);
		ir_src x = scalar(a, 0), y = scalar(a, 1), w = scalar(a, 3), lo = imm(L, -128.0f),
		       hi = imm(L, 128.0f), p, q;
		emit(L, IR_OP_MOV, ir_dst_reg(IR_TEMP, d.index, 9), &one, NULL, NULL);
		emit(L, IR_OP_MAX, ir_dst_reg(IR_TEMP, d.index, 2), &x, &zero, NULL);
		emit(L, IR_OP_MAX, tmp_dst(L, 1, &t1), &y, &zero, NULL);
		emit(L, IR_OP_MAX, tmp_dst(L, 1, &t2), &w, &lo, NULL);
		emit(L, IR_OP_MIN, tmp_dst(L, 1, &t3), &t2, &hi, NULL);
		emit(L, IR_OP_LG2, tmp_dst(L, 1, &t4), &t1, NULL, NULL);
		emit(L, IR_OP_MUL, tmp_dst(L, 1, &p), &t4, &t3, NULL);   /* 0 * -inf = 0: pica200.md §2.2 */
		emit(L, IR_OP_EX2, tmp_dst(L, 1, &q), &p, NULL, NULL);
		emit(L, IR_OP_SLT, tmp_dst(L, 1, &t1), &zero, &x, NULL);
		q = scalar(q, 0);
		t1 = scalar(t1, 0);
		emit(L, IR_OP_MUL, ir_dst_reg(IR_TEMP, d.index, 4), &q, &t1, NULL);
		emit_final(L, IR_OP_MOV, &R, NULL, NULL);
		break;
	}
	case IR_OP_LOG: {       /* (floor(lg2|x|), |x| / 2^that, lg2|x|, 1) */
		ir_dst d = tmp_dst(L, 0xF, &R);
		ir_src ax = scalar(a, 0), l, f, e, r;
		ax.abs = true;
		ax.neg = false;
		emit(L, IR_OP_LG2, tmp_dst(L, 1, &l), &ax, NULL, NULL);
		emit(L, IR_OP_FLR, tmp_dst(L, 1, &f), &l, NULL, NULL);
		emit(L, IR_OP_EX2, tmp_dst(L, 1, &e), &f, NULL, NULL);
		emit(L, IR_OP_RCP, tmp_dst(L, 1, &r), &e, NULL, NULL);
		emit(L, IR_OP_MOV, ir_dst_reg(IR_TEMP, d.index, 1), &f, NULL, NULL);
		r = scalar(r, 0);
		emit(L, IR_OP_MUL, ir_dst_reg(IR_TEMP, d.index, 2), &ax, &r, NULL);
		l = scalar(l, 0);
		emit(L, IR_OP_MOV, ir_dst_reg(IR_TEMP, d.index, 4), &l, NULL, NULL);
		emit(L, IR_OP_MOV, ir_dst_reg(IR_TEMP, d.index, 8), &one, NULL, NULL);
		emit_final(L, IR_OP_MOV, &R, NULL, NULL);
		break;
	}
	case IR_OP_EXP: {       /* (2^floor(x), x - floor(x), 2^x, 1) */
		ir_dst d = tmp_dst(L, 0xF, &R);
		ir_src x = scalar(a, 0), f, nf;
		emit(L, IR_OP_FLR, tmp_dst(L, 1, &f), &x, NULL, NULL);
		f = scalar(f, 0);
		emit(L, IR_OP_EX2, ir_dst_reg(IR_TEMP, d.index, 1), &f, NULL, NULL);
		nf = negate(f);
		emit(L, IR_OP_ADD, ir_dst_reg(IR_TEMP, d.index, 2), &x, &nf, NULL);
		emit(L, IR_OP_EX2, ir_dst_reg(IR_TEMP, d.index, 4), &x, NULL, NULL);
		emit(L, IR_OP_MOV, ir_dst_reg(IR_TEMP, d.index, 8), &one, NULL, NULL);
		emit_final(L, IR_OP_MOV, &R, NULL, NULL);
		break;
	}
	case IR_OP_DST: {       /* (1, a.y * b.y, a.z, b.w) */
		ir_dst d = tmp_dst(L, 0xF, &R);
		ir_src ay = scalar(a, 1), by = scalar(b, 1), az = scalar(a, 2), bw = scalar(b, 3);
		emit(L, IR_OP_MOV, ir_dst_reg(IR_TEMP, d.index, 1), &one, NULL, NULL);
		emit(L, IR_OP_MUL, ir_dst_reg(IR_TEMP, d.index, 2), &ay, &by, NULL);
		emit(L, IR_OP_MOV, ir_dst_reg(IR_TEMP, d.index, 4), &az, NULL, NULL);
		emit(L, IR_OP_MOV, ir_dst_reg(IR_TEMP, d.index, 8), &bw, NULL, NULL);
		emit_final(L, IR_OP_MOV, &R, NULL, NULL);
		break;
	}
	case IR_OP_XPD: {       /* a.yzx * b.zxy - a.zxy * b.yzx, w = 1 */
		ir_dst d = tmp_dst(L, 0xF, &R);
		ir_src azxy = ir_src_swz(a, 2, 0, 1, 3), byzx = ir_src_swz(b, 1, 2, 0, 3),
		       ayzx = ir_src_swz(a, 1, 2, 0, 3), bzxy = ir_src_swz(b, 2, 0, 1, 3);
		emit(L, IR_OP_MUL, tmp_dst(L, 7, &t1), &azxy, &byzx, NULL);
		t1 = negate(t1);
		emit(L, IR_OP_MAD, ir_dst_reg(IR_TEMP, d.index, 7), &ayzx, &bzxy, &t1);
		emit(L, IR_OP_MOV, ir_dst_reg(IR_TEMP, d.index, 8), &one, NULL, NULL);
		emit_final(L, IR_OP_MOV, &R, NULL, NULL);
		break;
	}
	case IR_OP_TXP: {       /* coordinates (and shadow reference) / w, then TEX */
		ir_src w = scalar(a, 3);
		emit(L, IR_OP_RCP, tmp_dst(L, 1, &t1), &w, NULL, NULL);
		t1 = scalar(t1, 0);
		emit(L, IR_OP_MUL, tmp_dst(L, 0xF, &t2), &a, &t1, NULL);
		ir_inst *in = emit(L, IR_OP_TEX, o->dst, &t2, NULL, NULL);
		if (in) {
			in->sat = o->sat;
			in->tex_target = o->tex_target;
			in->sampler = o->sampler;
		}
		break;
	}
	default:
		return ir_refuse(L->e, IR_REFUSE_OPCODE, L->s->file, o->line, o->col,
		                 "%s: no lowering for this opcode on this target", ir_op_get(o->op)->name);
	}
	if (L->oom)
		return ir_refuse(L->e, IR_REFUSE_LIMITS, L->s->file, o->line, o->col, "out of memory");
	return true;
}

static bool is_native(const ir_caps *caps, unsigned op)
{
	const ir_op_info *oi = ir_op_get(op);
	if (oi->flags & IR_F_BASE || (caps->native >> op & 1))
		return true;
	if (oi->kind == IR_KIND_FLOW)
		return true;
	return oi->kind == IR_KIND_TEX && op != IR_OP_TXP && caps->texture;
}

static bool lower_ops(ir_shader *s, const ir_caps *caps, ir_error *e)
{
	for (size_t i = 0; i < s->n; i++) {
		unsigned op = s->inst[i].op;
		if (is_native(caps, op))
			continue;
		if (ir_op_get(op)->kind == IR_KIND_TEX && !caps->texture)
			return ir_refuse(e, IR_REFUSE_TEXTURE, s->file, s->inst[i].line, s->inst[i].col,
			                 "%s: texture sampling is not available in this stage",
			                 ir_op_get(op)->name);
		lctx L = { .s = s, .pos = i, .orig = s->inst[i], .caps = caps, .e = e };
		ir_remove(s, i);
		if (!expand(&L))
			return false;
		i--;    /* rescan the expansion: it may use ops lowered in turn */
	}
	return true;
}

/* |x| -> MAX(x, -x) into a temporary. */
static bool lower_abs(ir_shader *s, ir_error *e)
{
	for (size_t i = 0; i < s->n; i++) {
		for (unsigned k = 0; k < s->inst[i].nsrc; k++) {
			ir_src x = s->inst[i].src[k];
			if (!x.abs)
				continue;
			lctx L = { .s = s, .pos = i, .orig = s->inst[i], .e = e };
			x.abs = false;
			x.neg = false;
			ir_src nx = negate(x), t;
			emit(&L, IR_OP_MAX, tmp_dst(&L, 0xF, &t), &x, &nx, NULL);
			if (L.oom)
				return ir_refuse(e, IR_REFUSE_LIMITS, s->file, 0, 0, "out of memory");
			i = L.pos;
			t.neg = s->inst[i].src[k].neg;
			s->inst[i].src[k] = t;
		}
	}
	return true;
}

/* _SAT: op t; MAX t2, t, 0; MIN dst, t2, 1 (NaN -> 0 as tgsi_exec). */
static bool lower_sat(ir_shader *s, ir_error *e)
{
	for (size_t i = 0; i < s->n; i++) {
		if (!s->inst[i].sat)
			continue;
		ir_inst *in = &s->inst[i];
		in->sat = false;
		lctx L = { .s = s, .pos = i + 1, .orig = *in, .e = e };
		ir_src t, t2, zero = imm(&L, 0.0f), one = imm(&L, 1.0f);
		uint8_t m = L.orig.dst.mask;
		s->inst[i].dst = tmp_dst(&L, m, &t);
		emit(&L, IR_OP_MAX, tmp_dst(&L, m, &t2), &t, &zero, NULL);
		emit(&L, IR_OP_MIN, L.orig.dst, &t2, &one, NULL);
		if (L.oom)
			return ir_refuse(e, IR_REFUSE_LIMITS, s->file, 0, 0, "out of memory");
		i = L.pos - 1;
	}
	return true;
}

static bool lower_arl(ir_shader *s, ir_error *e)
{
	for (size_t i = 0; i < s->n; i++) {
		if (s->inst[i].op != IR_OP_ARL)
			continue;
		lctx L = { .s = s, .pos = i, .orig = s->inst[i], .e = e };
		ir_src t;
		emit(&L, IR_OP_FLR, tmp_dst(&L, L.orig.dst.mask, &t), &L.orig.src[0], NULL, NULL);
		if (L.oom)
			return ir_refuse(e, IR_REFUSE_LIMITS, s->file, 0, 0, "out of memory");
		i = L.pos;
		s->inst[i].src[0] = t;
	}
	return true;
}

bool ir_lower(ir_shader *s, const ir_caps *caps, ir_error *e)
{
	if (!lower_ops(s, caps, e))
		return false;
	if (caps->arl_truncates && !lower_arl(s, e))
		return false;
	if (!caps->src_abs && !lower_abs(s, e))
		return false;
	if (!caps->sat && !lower_sat(s, e))
		return false;
	return ir_resolve_cf(s, e);
}
