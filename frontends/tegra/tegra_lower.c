/* Tegra fragment backend, step 1: the lowered IR -> scalar operations on SSA
 * values (tegra_int.h).  Every TGSI register component becomes the operand
 * that last wrote it; writes happen under the current predicate, which
 * tegra_lower_cf.c keeps (IF/ELSE and loops as selects: the fragment unit has
 * no branches); KILL/KILL_IF accumulate a discard flag that the last EXEC
 * writes into the `kill` register. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/tegra/tegra_lower.h"
#include "isa/tegra/tegra_isa.h"

bool tfl_refuse(lctx *L, enum ir_refusal why, const char *fmt, const char *what)
{
	int line = L->in ? L->in->line : 1, col = L->in ? L->in->col : 1;
	const char *op = L->in ? ir_op_get(L->in->op)->name : "shader";
	return ir_refuse(L->e, why, L->s->file, line ? line : 1, col ? col : 1, "%s: %s%s", op, fmt,
	                 what ? what : "");
}

static tfp_op *new_op(lctx *L, uint8_t kind)
{
	tfp_prog *p = L->p;
	if (p->n == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 64;
		tfp_op *o = realloc(p->op, cap * sizeof *o);
		if (!o) {
			tfl_refuse(L, IR_REFUSE_LIMITS, "out of memory", NULL);
			return NULL;
		}
		p->op = o;
		p->cap = cap;
	}
	tfp_op *o = &p->op[p->n++];
	memset(o, 0, sizeof *o);
	o->kind = kind;
	for (unsigned k = 0; k < 4; k++)
		o->dst[k] = -1;
	o->irop = L->in ? L->in->op : IR_OP_NOP;
	o->line = L->in ? L->in->line : 0;
	o->col = L->in ? L->in->col : 0;
	return o;
}

/* One ALU slot; NULL operand = #0.  Returns the result (IR_NULL-like imm 0
 * and L->e set on failure). */
static float fp20v(float k) { return tfp_fp20(k); }

/* Appends one ALU op, never reusing an earlier one (see tfl_alu() for that). */
static tfp_opnd alu_new(lctx *L, uint8_t op, uint8_t cc, tfp_opnd a, tfp_opnd b, tfp_opnd c)
{
	if (L->p->n >= MAX_OPS) {
		tfl_refuse(L, IR_REFUSE_LIMITS, "more than the 64 EXECs of ALU work", NULL);
		return imm(0.0f);
	}
	tfp_op *o = new_op(L, TF_ALU);
	if (!o)
		return imm(0.0f);
	o->alu = op;
	o->cc = cc;
	o->s[0] = a;
	o->s[1] = b;
	o->s[2] = c;
	o->dst[0] = (int32_t)L->p->nval++;
	return val(o->dst[0]);
}

tfp_opnd tfl_alu(lctx *L, uint8_t op, uint8_t cc, tfp_opnd a, tfp_opnd b, tfp_opnd c)
{
	tfp_opnd folded;
	if (tfp_fold(op, cc, &a, &b, &c, &folded))
		return folded;
	/* the same pure operation on the same values: reuse it (SSA, no side effects) */
	for (size_t i = L->p->n; i-- > 0 && i + 16 >= L->p->n;) {
		const tfp_op *o = &L->p->op[i];
		if (o->kind == TF_ALU && o->alu == op && o->cc == cc && !o->sat &&
		    tfp_same_opnd(&o->s[0], &a) && tfp_same_opnd(&o->s[1], &b) && tfp_same_opnd(&o->s[2], &c))
			return val(o->dst[0]);
	}
	return alu_new(L, op, cc, a, b, c);
}

tfp_opnd tfl_mov(lctx *L, tfp_opnd x) { return tfl_alu(L, TA_MAD, TC_NONE, x, imm(1.0f), imm(0.0f)); }

/* tfl_sel(p, a, b) = p < 0 ? a : b */
tfp_opnd tfl_sel(lctx *L, tfp_opnd p, tfp_opnd a, tfp_opnd b)
{
	return tfl_alu(L, TA_CSEL, TC_NONE, p, a, b);
}


/* Applies TGSI |x| then -x to an operand (tgsi order: abs first). */
static tfp_opnd modify(lctx *L, tfp_opnd o, bool abs_, bool neg)
{
	if (o.kind == TO_IMM) {
		float k = o.k;
		if (abs_)
			k = fabsf(k);
		if (neg)
			k = -k;
		o.k = k;
		return o;
	}
	if (abs_) {
		if (o.m1 || o.x2)
			o = tfl_mov(L, o);
		o.abs = true;
		o.neg = false;
	}
	if (neg)
		o.neg = !o.neg;
	return o;
}

static tfp_opnd neg(tfp_opnd o)
{
	if (o.kind == TO_IMM)
		o.k = -o.k;
	else
		o.neg = !o.neg;
	return o;
}

tfp_opnd tfl_sfu(lctx *L, uint8_t op, uint8_t pre, tfp_opnd x)
{
	tfp_op *o = new_op(L, TF_SFU);
	if (!o)
		return imm(0.0f);
	o->sfu = op;
	o->pre = pre;
	o->s[0] = x;
	o->dst[0] = (int32_t)L->p->nval++;
	return val(o->dst[0]);
}

/* x < 0 ? NaN : r (CSEL; an embedded FP20 NaN); r when x cannot be below 0 */
static tfp_opnd nan_below_zero(lctx *L, tfp_opnd x, tfp_opnd r)
{
	if (x.kind == TO_IMM)
		return x.k < 0.0f ? imm(NAN) : r;
	if (tfp_nonneg(L->p, &x, 0))
		return r;
	return tfl_alu(L, TA_CSEL, TC_NONE, x, imm(NAN), r);
}

static bool input_ok(lctx *L, int32_t n)
{
	if (n < 0 || n >= 16)
		return tfl_refuse(L, IR_REFUSE_IO, "input beyond TRAM row 15", NULL);
	return true;
}

/* (a == delta) as a 0/1 value, shared by the reads of one address value. */
static tfp_opnd addr_sel(lctx *L, tfp_opnd a, float delta)
{
	if (a.kind == TO_VAL && plain(&a))
		for (unsigned i = 0; i < L->nselc; i++)
			if (L->selc[i].a == a.v && L->selc[i].delta == delta)
				return val(L->selc[i].sel);
	tfp_opnd s = tfl_alu(L, TA_MAD, TC_EQ, a, imm(1.0f), imm(-delta));
	if (a.kind == TO_VAL && plain(&a) && L->nselc < sizeof L->selc / sizeof L->selc[0]) {
		L->selc[L->nselc].a = a.v;
		L->selc[L->nselc].delta = delta;
		L->selc[L->nselc++].sel = s.v;
	}
	return s;
}

/* CONST[0][n].comp as an operand: its FP_CONST slot, or 0 when it is not
 * resident (outside the declared file, or below an indirect array's base
 * in the packed layout). */
static tfp_opnd unif(const lctx *L, int32_t n, unsigned comp)
{
	if (n < 0 || n >= L->ul.nconst || !L->ul.decl[n] || L->ul.slot[4 * n + (int32_t)comp] < 0)
		return imm(0.0f);
	return (tfp_opnd){ .kind = TO_UNIF, .v = L->ul.slot[4 * n + (int32_t)comp] };
}

/* CONST[0][ADDR + index].comp: a CSEL chain over the resident elements (the
 * fragment unit has no address register): every declared one in the
 * identity layout, index..last in the packed one; out of range reads 0, as
 * tgsi_exec reads outside the file. */
static bool read_indirect_const(lctx *L, const ir_src *x, unsigned comp, tfp_opnd *res)
{
	if (x->ind_reg >= 4)
		return tfl_refuse(L, IR_REFUSE_ADDRESSING, "address register out of range", NULL);
	tfp_opnd a = L->addr[x->ind_reg][x->ind_comp & 3u];
	tfp_opnd v = imm(0.0f);
	for (int32_t n = 0; n < L->ul.nconst; n++) {
		tfp_opnd u = unif(L, n, comp);
		if (u.kind == TO_IMM)
			continue;
		if (a.kind == TO_IMM) {
			if (a.k + (float)x->index == (float)n)
				v = u;
			continue;
		}
		tfp_opnd s = addr_sel(L, a, (float)(n - x->index));
		v = tfl_alu(L, TA_CSEL, TC_NONE, neg(s), u, v);
	}
	*res = modify(L, v, x->abs, x->neg);
	return !L->e->d.set;
}

/* Component comp of TRAM row `row`, interpolated by the MFU (ipl, FP20). */
static bool varying(lctx *L, int32_t row, unsigned comp, tfp_opnd *res)
{
	int32_t *slot = &L->ipl[row][comp];
	if (*slot < 0) {
		tfp_op *op = new_op(L, TF_IPL);
		if (!op)
			return false;
		op->tram_row = (uint8_t)row;
		op->comp = (uint8_t)comp;
		op->dst[0] = *slot = (int32_t)L->p->nval++;
		L->p->any_ipl = true;
		if ((unsigned)row + 1 > L->p->tram_rows)
			L->p->tram_rows = (unsigned)row + 1;
	}
	*res = val(*slot);
	return true;
}

/* The fragment's 1/w: what the perspective set-up's rcp r4 reads (tegra-fp.md §2.4). */
static bool frag_winv(lctx *L, tfp_opnd *res)
{
	if (L->wpos < 0) {
		tfp_op *op = new_op(L, TF_IPL);
		if (!op)
			return false;
		op->wpos = true;
		op->dst[0] = L->wpos = (int32_t)L->p->nval++;
	}
	*res = val(L->wpos);
	return true;
}

/* The fragment's window z (gl_FragCoord.z).  No register of the fragment
 * units holds the depth (tegra-fp.md §2.3: posx, posy, pface), but the
 * linker can export any vertex output to a TRAM row (§3.4, the linker's
 * export select), the vertex position too: the driver's linker fills the
 * POSITION input's row from it (docs/replay.md), clip-space x, y, z, w.
 * The MFU interpolates the row's z perspective-correctly, giving
 * (sum b_i z_i / w_i) / (sum b_i / w_i); times r4's interpolated 1/w,
 * sum b_i / w_i, that is the screen-linear z/w the depth test uses; the
 * viewport's depth mapping for GL's default depth range [0, 1] (the one
 * the harnesses and the driver use; docs/compiler.md) makes it
 * z/w * 0.5 + 0.5.  Two ALU ops after the ipl. */
static bool frag_z(lctx *L, int32_t row, tfp_opnd *res)
{
	tfp_opnd z, winv;
	if (!varying(L, row, 2, &z) || !frag_winv(L, &winv))
		return false;
	tfp_opnd zn = tfl_alu(L, TA_MUL, TC_NONE, z, winv, imm(0.0f));
	*res = tfl_alu(L, TA_MAD, TC_NONE, zn, imm(0.5f), imm(0.5f));
	return !L->e->d.set;
}

/* Component c (0..3, after the swizzle) of source k. */
bool tfl_read_src(lctx *L, const ir_src *x, unsigned c, tfp_opnd *res)
{
	unsigned comp = x->swz[c] & 3u;
	tfp_opnd o;
	if (x->indirect && x->file == IR_CONST)
		return read_indirect_const(L, x, comp, res);
	if (x->indirect)
		return tfl_refuse(L, IR_REFUSE_ADDRESSING, "indirect addressing needs an address "
		              "register; the fragment unit has none", NULL);
	switch (x->file) {
	case IR_TEMP:
		if (x->index < 0 || (uint32_t)x->index >= L->s->ntemps)
			return tfl_refuse(L, IR_REFUSE_MALFORMED, "temporary out of range", NULL);
		o = L->temp[(size_t)x->index * 4 + comp];
		break;
	case IR_OUTPUT:
		if (x->index != L->color_out)
			return tfl_refuse(L, IR_REFUSE_IO, "only OUT COLOR[0] is supported", NULL);
		o = L->out[comp];
		break;
	case IR_INPUT: {
		if (!input_ok(L, x->index))
			return false;
		if (L->face_input & (1u << x->index)) {
			/* gl_FrontFacing: the ALU reads the polygon face as register 75,
			 * pface (tegra-fp.md §2.3), +1 front / -1 back; TGSI FACE is
			 * (+-1, 0, 0, 1) as the reference's */
			o = comp == 0 ? (tfp_opnd){ .kind = TO_POS, .v = 2 } : imm(comp == 3 ? 1.0f : 0.0f);
			break;
		}
		if (L->pos_input & (1u << x->index)) {   /* window position: posx, posy (pixel centre) */
			if (comp == 2) {
				if (!frag_z(L, x->index, &o))
					return false;
				break;
			}
			if (comp == 3) {
				if (!frag_winv(L, &o))
					return false;
				break;
			}
			if (L->integer_center || (comp == 1 && !L->lower_left))
				return tfl_refuse(L, IR_REFUSE_IO, "fragment position: posx/posy are pixel centres "
				              "counted from the lower left (FS_COORD_ORIGIN LOWER_LEFT, "
				              "FS_COORD_PIXEL_CENTER HALF_INTEGER)", NULL);
			o = (tfp_opnd){ .kind = TO_POS, .v = (int32_t)comp };
			break;
		}
		if (!varying(L, x->index, comp, &o))
			return false;
		break;
	}
	case IR_CONST:
		o = unif(L, x->index, comp);
		break;
	case IR_IMM: {
		if (x->index < 0 || (size_t)x->index >= L->s->nimm)
			return tfl_refuse(L, IR_REFUSE_MALFORMED, "immediate out of range", NULL);
		float f;
		memcpy(&f, &L->s->imm[x->index][comp], sizeof f);
		o = imm(f);
		break;
	}
	default:
		return tfl_refuse(L, IR_REFUSE_IO, "system values are not available", NULL);
	}
	*res = modify(L, o, x->abs, x->neg);
	return !L->e->d.set;
}

/* Writes component c of the destination (under the IF predicate). */
bool tfl_write(lctx *L, const ir_dst *d, unsigned c, tfp_opnd v)
{
	tfp_opnd *slot;
	if (d->file == IR_TEMP && d->index >= 0 && (uint32_t)d->index < L->s->ntemps)
		slot = &L->temp[(size_t)d->index * 4 + c];
	else if (d->file == IR_OUTPUT && d->index == L->color_out)
		slot = &L->out[c];
	else if (d->file == IR_OUTPUT)
		return tfl_refuse(L, IR_REFUSE_IO, "only OUT COLOR[0] is supported (render target 1)", NULL);
	else if (d->file == IR_NULL)
		return true;
	else
		return tfl_refuse(L, IR_REFUSE_MALFORMED, "unsupported destination", NULL);
	if (L->depth > 0)
		v = tfl_sel(L, L->stack[L->depth - 1].p, v, *slot);
	*slot = v;
	return !L->e->d.set;
}

/* Does any op after op[i] read value id v? */
static bool value_read_after(const tfp_prog *p, size_t i, int32_t v)
{
	for (size_t j = i + 1; j < p->n; j++)
		for (unsigned k = 0; k < 3; k++)
			if (p->op[j].s[k].kind == TO_VAL && p->op[j].s[k].v == v)
				return true;
	return false;
}

static tfp_opnd saturate(lctx *L, tfp_opnd v, size_t first_op)
{
	if (v.kind == TO_IMM) {
		float k = fp20v(v.k);
		return imm(k > 0.0f ? (k < 1.0f ? k : 1.0f) : 0.0f);   /* NaN -> 0 */
	}
	/* the value's own ALU op, when this instruction just made it and nothing
	 * has read the unsaturated value yet */
	if (v.kind == TO_VAL && plain(&v)) {
		for (size_t i = L->p->n; i-- > first_op;) {
			tfp_op *o = &L->p->op[i];
			if (o->dst[0] == v.v && o->kind == TF_ALU && o->cc == TC_NONE) {
				if (value_read_after(L->p, i, v.v))
					break;
				o->sat = true;
				return v;
			}
		}
	}
	/* otherwise a fresh saturating MOV: a reused one would be shared */
	size_t n = L->p->n;
	tfp_opnd r = alu_new(L, TA_MAD, TC_NONE, v, imm(1.0f), imm(0.0f));
	if (L->p->n > n)
		L->p->op[n].sat = true;
	return r;
}

static tfp_opnd dot(lctx *L, const tfp_opnd *a, const tfp_opnd *b, unsigned n, bool dph)
{
	if (n == 4) {   /* two chains of two, then their sum (3 packets deep) */
		tfp_opnd m1 = tfl_alu(L, TA_MUL, TC_NONE, a[0], b[0], imm(0.0f));
		tfp_opnd m2 = tfl_alu(L, TA_MUL, TC_NONE, a[2], b[2], imm(0.0f));
		tfp_opnd n1 = tfl_alu(L, TA_MAD, TC_NONE, a[1], b[1], m1);
		tfp_opnd n2 = tfl_alu(L, TA_MAD, TC_NONE, a[3], b[3], m2);
		return tfl_alu(L, TA_MAD, TC_NONE, n1, imm(1.0f), n2);
	}
	tfp_opnd acc = dph ? tfl_alu(L, TA_MAD, TC_NONE, a[0], b[0], b[3])
	                   : tfl_alu(L, TA_MUL, TC_NONE, a[0], b[0], imm(0.0f));
	for (unsigned k = 1; k < n; k++)
		acc = tfl_alu(L, TA_MAD, TC_NONE, a[k], b[k], acc);
	return acc;
}

static bool tex_target_ok(lctx *L, unsigned target, bool *two_d)
{
	switch (target) {
	case TGSI_TEXTURE_1D: case TGSI_TEXTURE_SHADOW1D: *two_d = false; return true;
	case TGSI_TEXTURE_2D: case TGSI_TEXTURE_SHADOW2D: *two_d = true; return true;
	default:
		return tfl_refuse(L, IR_REFUSE_TEXTURE, "only 1D and 2D textures, plain or shadow (no 3D, "
		              "cube, rectangle or array sampling in the TEX unit)", NULL);
	}
}

/* (clamp(ref, 0, 1) OP d) ? 1 : 0 with the condition codes (as SGE etc.) */
static tfp_opnd shadow_compare(lctx *L, uint8_t op, tfp_opnd ref, tfp_opnd d)
{
	ref = tfl_alu(L, TA_MAX, TC_NONE, ref, imm(1.0f), imm(0.0f));
	ref = tfl_alu(L, TA_MIN, TC_NONE, ref, imm(1.0f), imm(1.0f));
	tfp_opnd v;
	switch (op) {
	case TEGRA_CMP_GEQUAL: return tfl_alu(L, TA_MAD, TC_GE, ref, imm(1.0f), neg(d));
	case TEGRA_CMP_LESS: return tfl_alu(L, TA_MAD, TC_GT, d, imm(1.0f), neg(ref));
	case TEGRA_CMP_GREATER: return tfl_alu(L, TA_MAD, TC_GT, ref, imm(1.0f), neg(d));
	case TEGRA_CMP_EQUAL: return tfl_alu(L, TA_MAD, TC_EQ, ref, imm(1.0f), neg(d));
	case TEGRA_CMP_NOTEQUAL:
		v = tfl_alu(L, TA_MAD, TC_EQ, ref, imm(1.0f), neg(d));
		v.m1 = v.neg = true;    /* 1 - (ref == d) */
		return v;
	case TEGRA_CMP_ALWAYS: return imm(1.0f);
	case TEGRA_CMP_NEVER: return imm(0.0f);
	default: return tfl_alu(L, TA_MAD, TC_GE, d, imm(1.0f), neg(ref));   /* LEQUAL */
	}
}

static bool do_tex(lctx *L, const ir_inst *in)
{
	bool two_d = false;
	if (in->op == IR_OP_TXL)
		return tfl_refuse(L, IR_REFUSE_TEXTURE, "explicit LOD: the TEX unit takes a bias only", NULL);
	if (!tex_target_ok(L, in->tex_target, &two_d))
		return false;
	if (in->sampler >= 16)
		return tfl_refuse(L, IR_REFUSE_TEXTURE, "sampler beyond tex15", NULL);
	bool shadow = in->tex_target == TGSI_TEXTURE_SHADOW1D || in->tex_target == TGSI_TEXTURE_SHADOW2D;
	tfp_opnd s, t = imm(0.0f), b = imm(0.0f), ref = imm(0.0f);
	if (!tfl_read_src(L, &in->src[0], 0, &s) || (two_d && !tfl_read_src(L, &in->src[0], 1, &t)) ||
	    (in->op == IR_OP_TXB && !tfl_read_src(L, &in->src[0], 3, &b)) ||
	    (shadow && !tfl_read_src(L, &in->src[0], 2, &ref)))
		return false;
	tfp_op *o = new_op(L, TF_TEX);
	if (!o)
		return false;
	o->sampler = (uint8_t)in->sampler;
	o->bias = in->op == IR_OP_TXB;
	o->s[0] = s;
	o->s[1] = t;
	o->s[2] = b;
	tfp_opnd r[4];
	for (unsigned c = 0; c < 4; c++) {
		o = &L->p->op[L->p->n - 1];
		o->dst[c] = (int32_t)L->p->nval++;
		r[c] = val(o->dst[c]);
	}
	if (shadow) {   /* the compare in the ALU: (ref OP texel.r) ? 1 : 0, as (r, r, r, 1) */
		r[0] = r[1] = r[2] = shadow_compare(L, L->o->shadow_compare[in->sampler], ref, r[0]);
		r[3] = imm(1.0f);
	}
	const uint8_t *sw = L->o->swizzle[in->sampler];   /* the sampler view's swizzle */
	if (sw[0] | sw[1] | sw[2] | sw[3]) {
		tfp_opnd t4[4] = { r[0], r[1], r[2], r[3] };
		for (unsigned c = 0; c < 4; c++)
			if (sw[c] >= TEGRA_SWZ_R && sw[c] <= TEGRA_SWZ_A)
				r[c] = t4[sw[c] - TEGRA_SWZ_R];
			else if (sw[c] == TEGRA_SWZ_ZERO || sw[c] == TEGRA_SWZ_ONE)
				r[c] = imm(sw[c] == TEGRA_SWZ_ONE ? 1.0f : 0.0f);
	}
	size_t first = L->p->n;
	for (unsigned c = 0; c < 4; c++) {
		if (!(in->dst.mask & (1u << c)))
			continue;
		tfp_opnd v = in->sat ? saturate(L, r[c], first) : r[c];
		if (!tfl_write(L, &in->dst, c, v))
			return false;
	}
	return true;
}

/* FBFETCH: the destination pixel as PSEQ fetches it into the row's r2, r3
 * (render target 1's RGBA as four FX10 halves; tegra-fp.md §2.4 PSEQ
 * 0x0081000A, the word every xf86 blend program uses). */
static bool do_fetch(lctx *L, const ir_inst *in)
{
	tfp_op *o = new_op(L, TF_FETCH);
	if (!o)
		return false;
	tfp_opnd r[4];
	for (unsigned c = 0; c < 4; c++) {
		o = &L->p->op[L->p->n - 1];
		o->dst[c] = (int32_t)L->p->nval++;
		r[c] = val(o->dst[c]);
	}
	size_t first = L->p->n;
	for (unsigned c = 0; c < 4; c++)
		if ((in->dst.mask & (1u << c)) && !tfl_write(L, &in->dst, c, in->sat ? saturate(L, r[c], first) : r[c]))
			return false;
	return true;
}

/* LIT with selects (the generic lowering multiplies by 0/1 and relies on
 * 0 * inf = 0, which the ALU's double arithmetic does not give):
 * (1, max(x, 0), x > 0 ? (w' == 0 ? 1 : EX2(w' * LG2(max(y, 0)))) : 0, 1),
 * w' = clamp(w, -128, 128) (tgsi.md §2). */
static bool do_lit(lctx *L, const ir_inst *in)
{
	tfp_opnd x, y, w, r[4];
	if (!tfl_read_src(L, &in->src[0], 0, &x) || !tfl_read_src(L, &in->src[0], 1, &y) ||
	    !tfl_read_src(L, &in->src[0], 3, &w))
		return false;
	size_t first = L->p->n;
	r[0] = r[3] = imm(1.0f);
	r[1] = tfl_alu(L, TA_MAX, TC_NONE, x, imm(1.0f), imm(0.0f));
	if (in->dst.mask & 4u) {
		tfp_opnd y0 = tfl_alu(L, TA_MAX, TC_NONE, y, imm(1.0f), imm(0.0f));
		tfp_opnd wc = tfl_alu(L, TA_MIN, TC_NONE, tfl_alu(L, TA_MAX, TC_NONE, w, imm(1.0f), imm(-128.0f)),
		                  imm(1.0f), imm(128.0f));
		tfp_opnd lg = tfl_sfu(L, TEGRA_SFU_LG2, 0, y0);
		tfp_opnd pw = tfl_sfu(L, TEGRA_SFU_EX2, TEGRA_SFU_PREEX2, tfl_alu(L, TA_MUL, TC_NONE, wc, lg, imm(0.0f)));
		tfp_opnd w0 = tfl_alu(L, TA_MAD, TC_EQ, wc, imm(1.0f), imm(0.0f));
		pw = tfl_sel(L, neg(w0), imm(1.0f), pw);
		r[2] = tfl_sel(L, neg(x), pw, imm(0.0f));
	}
	for (unsigned k = 0; k < 4; k++) {
		if (!(in->dst.mask & (1u << k)))
			continue;
		tfp_opnd v = in->sat ? saturate(L, r[k], first) : r[k];
		if (!tfl_write(L, &in->dst, k, v))
			return false;
	}
	return !L->e->d.set;
}

/* One lowered IR instruction. */
static bool lower_inst(lctx *L, const ir_inst *in)
{
	const ir_op_info *oi = ir_op_get(in->op);
	size_t first = L->p->n;
	tfp_opnd a[4], b[4], c[4], r[4];
	switch (in->op) {
	case IR_OP_NOP:
		return true;
	case IR_OP_END:
		L->ended = true;
		return true;
	case IR_OP_IF:
		return tfl_if(L, in);
	case IR_OP_ELSE:
		return tfl_else(L);
	case IR_OP_ENDIF:
		if (L->depth == 0 || L->stack[L->depth - 1].loop)
			return tfl_refuse(L, IR_REFUSE_MALFORMED, "ENDIF outside IF", NULL);
		L->depth--;
		return true;
	case IR_OP_BGNLOOP: case IR_OP_ENDLOOP: case IR_OP_BRK: case IR_OP_CONT:
		return tfl_loop(L, in, (size_t)(in - L->s->inst));
	case IR_OP_KILL:
		return tfl_kill_if(L, imm(-1.0f));
	case IR_OP_KILL_IF:
		for (unsigned k = 0; k < 4; k++) {
			if (!tfl_read_src(L, &in->src[0], k, &a[k]))
				return false;
			bool again = false;   /* a component read before (.xxxx): its test adds nothing */
			for (unsigned j = 0; j < k; j++)
				again |= tfp_same_opnd(&a[j], &a[k]);
			if (!again && !tfl_kill_if(L, a[k]))
				return false;
		}
		return true;
	case IR_OP_ARL:   /* ADDR = floor(x): kept as a value for the CONST select chains */
		if (in->dst.file != IR_ADDR || in->dst.index < 0 || in->dst.index >= 4)
			return tfl_refuse(L, IR_REFUSE_ADDRESSING, "address register out of range", NULL);
		for (unsigned k = 0; k < 4; k++) {
			if (!(in->dst.mask & (1u << k)))
				continue;
			if (!tfl_read_src(L, &in->src[0], k, &a[k]))
				return false;
			if (a[k].kind == TO_IMM) {
				r[k] = imm(floorf(a[k].k));
			} else {
				tfp_opnd f = tfl_sfu(L, TEGRA_SFU_FRC, 0, a[k]);
				r[k] = tfl_alu(L, TA_MAD, TC_NONE, a[k], imm(1.0f), neg(f));
			}
			if (L->depth > 0)
				r[k] = tfl_sel(L, L->stack[L->depth - 1].p, r[k], L->addr[in->dst.index][k]);
			L->addr[in->dst.index][k] = r[k];
		}
		return !L->e->d.set;
	case IR_OP_TEX: case IR_OP_TXB: case IR_OP_TXL:
		return do_tex(L, in);
	case IR_OP_FBFETCH:
		return do_fetch(L, in);
	case IR_OP_LIT:
		return do_lit(L, in);
	default:
		break;
	}
	if (oi->kind == IR_KIND_FLOW || oi->kind == IR_KIND_TEX || oi->kind == IR_KIND_CHAN)
		return tfl_refuse(L, IR_REFUSE_OPCODE, "not supported by the Tegra fragment unit", NULL);
	const unsigned ns = oi->nsrc;
	uint8_t mask = in->dst.mask;
	if (oi->kind == IR_KIND_REPL) {
		unsigned n = in->op == IR_OP_DP2 ? 2 : in->op == IR_OP_DP3 ? 3 : in->op == IR_OP_DPH ? 4
		           : in->op == IR_OP_DP4 ? 4 : 1;
		for (unsigned k = 0; k < n; k++) {
			if (!tfl_read_src(L, &in->src[0], k, &a[k]) || (ns > 1 && !tfl_read_src(L, &in->src[1], k, &b[k])))
				return false;
		}
		tfp_opnd v;
		switch (in->op) {
		case IR_OP_DP2: case IR_OP_DP3: case IR_OP_DP4: v = dot(L, a, b, n, false); break;
		case IR_OP_DPH: v = dot(L, a, b, 3, true); break;
		case IR_OP_RCP: v = tfl_sfu(L, TEGRA_SFU_RCP, 0, a[0]); break;
		/* the SFU takes |x| (tegra-units.md); tgsi_exec gives NaN below 0 */
		case IR_OP_RSQ: v = nan_below_zero(L, a[0], tfl_sfu(L, TEGRA_SFU_RSQ, 0, a[0])); break;
		case IR_OP_LG2: v = nan_below_zero(L, a[0], tfl_sfu(L, TEGRA_SFU_LG2, 0, a[0])); break;
		case IR_OP_EX2: v = tfl_sfu(L, TEGRA_SFU_EX2, TEGRA_SFU_PREEX2, a[0]); break;
		case IR_OP_SQRT: v = nan_below_zero(L, a[0], tfl_sfu(L, TEGRA_SFU_SQRT, 0, a[0])); break;
		case IR_OP_SIN: v = tfl_sfu(L, TEGRA_SFU_SIN, TEGRA_SFU_PRESIN, a[0]); break;
		case IR_OP_COS: v = tfl_sfu(L, TEGRA_SFU_COS, TEGRA_SFU_PRECOS, a[0]); break;
		default:
			return tfl_refuse(L, IR_REFUSE_OPCODE, "not supported by the Tegra fragment unit", NULL);
		}
		if (in->sat)
			v = saturate(L, v, first);
		for (unsigned k = 0; k < 4; k++)
			if ((mask & (1u << k)) && !tfl_write(L, &in->dst, k, v))
				return false;
		return !L->e->d.set;
	}
	/* component-wise */
	for (unsigned k = 0; k < 4; k++) {
		if (!(mask & (1u << k)))
			continue;
		if ((ns > 0 && !tfl_read_src(L, &in->src[0], k, &a[k])) ||
		    (ns > 1 && !tfl_read_src(L, &in->src[1], k, &b[k])) ||
		    (ns > 2 && !tfl_read_src(L, &in->src[2], k, &c[k])))
			return false;
	}
	for (unsigned k = 0; k < 4; k++) {
		if (!(mask & (1u << k)))
			continue;
		tfp_opnd v;
		switch (in->op) {
		case IR_OP_MOV: v = a[k]; break;
		case IR_OP_ADD: v = tfl_alu(L, TA_MAD, TC_NONE, a[k], imm(1.0f), b[k]); break;
		case IR_OP_MUL: v = tfl_alu(L, TA_MUL, TC_NONE, a[k], b[k], imm(0.0f)); break;
		case IR_OP_MAD: v = tfl_alu(L, TA_MAD, TC_NONE, a[k], b[k], c[k]); break;
		case IR_OP_MIN: v = tfl_alu(L, TA_MIN, TC_NONE, a[k], imm(1.0f), b[k]); break;
		case IR_OP_MAX: v = tfl_alu(L, TA_MAX, TC_NONE, a[k], imm(1.0f), b[k]); break;
		/* comparisons through the condition codes: b - a > 0 etc. (grate's gt/ge) */
		case IR_OP_SLT: v = tfl_alu(L, TA_MAD, TC_GT, b[k], imm(1.0f), neg(a[k])); break;
		case IR_OP_SGE: v = tfl_alu(L, TA_MAD, TC_GE, a[k], imm(1.0f), neg(b[k])); break;
		case IR_OP_SGT: v = tfl_alu(L, TA_MAD, TC_GT, a[k], imm(1.0f), neg(b[k])); break;
		case IR_OP_SLE: v = tfl_alu(L, TA_MAD, TC_GE, b[k], imm(1.0f), neg(a[k])); break;
		case IR_OP_SEQ: v = tfl_alu(L, TA_MAD, TC_EQ, a[k], imm(1.0f), neg(b[k])); break;
		case IR_OP_SNE:
			v = tfl_alu(L, TA_MAD, TC_EQ, a[k], imm(1.0f), neg(b[k]));
			if (v.kind == TO_IMM) {   /* folded: the value itself (constants carry no modifiers) */
				v.k = 1.0f - v.k;
				break;
			}
			v.m1 = true;     /* 1 - (a == b) */
			v.neg = true;
			break;
		case IR_OP_CMP: v = tfl_alu(L, TA_CSEL, TC_NONE, a[k], b[k], c[k]); break;
		case IR_OP_FRC: v = tfl_sfu(L, TEGRA_SFU_FRC, 0, a[k]); break;
		case IR_OP_FLR: {
			tfp_opnd f = tfl_sfu(L, TEGRA_SFU_FRC, 0, a[k]);
			v = tfl_alu(L, TA_MAD, TC_NONE, a[k], imm(1.0f), neg(f));
			break;
		}
		default:
			return tfl_refuse(L, IR_REFUSE_OPCODE, "not supported by the Tegra fragment unit", NULL);
		}
		r[k] = in->sat ? saturate(L, v, first) : v;
	}
	for (unsigned k = 0; k < 4; k++)
		if ((mask & (1u << k)) && !tfl_write(L, &in->dst, k, r[k]))
			return false;
	return !L->e->d.set;
}

bool tegra_lower(const ir_shader *s, const tgsi_shader *sh, const tegra_compile_opts *o, unsigned loop_bound,
                 tfp_prog *p, ir_error *e)
{
	memset(p, 0, sizeof *p);
	p->file = s->file;
	lctx L = { .s = s, .sh = sh, .o = o, .p = p, .e = e, .color_out = -1, .loop_bound = loop_bound,
	           .wpos = -1 };
	memset(L.ipl, 0xFF, sizeof L.ipl);
	for (size_t i = 0; i < s->nout; i++)
		if (s->out[i].semantic == TGSI_SEMANTIC_COLOR && s->out[i].semantic_index == 0)
			L.color_out = s->out[i].index;
	for (size_t i = 0; i < sh->num_decls; i++) {
		const tgsi_declaration *d = &sh->decls[i];
		if (d->file != TGSI_FILE_INPUT || !d->semantic)
			continue;
		for (uint32_t n = d->first; n <= d->last && n < 16; n++) {
			if (d->semantic_name == TGSI_SEMANTIC_FACE)
				L.face_input |= (uint16_t)(1u << n);
			if (d->semantic_name == TGSI_SEMANTIC_POSITION)
				L.pos_input |= (uint16_t)(1u << n);
		}
	}
	if (!tegra_uniform_layout(s, sh, &L.ul, e)) {
		tfp_ulayout_free(&L.ul);
		return false;
	}
	p->upacked = L.ul.packed;
	memcpy(p->usrc, L.ul.src, sizeof p->usrc);
	const int32_t nconst = L.ul.nconst;
	for (size_t i = 0; i < sh->num_props; i++) {   /* tgsi_info.c value names */
		const tgsi_property *pr = &sh->props[i];
		if (pr->name == TGSI_PROPERTY_FS_COORD_ORIGIN)
			L.lower_left = pr->value == 1;
		if (pr->name == TGSI_PROPERTY_FS_COORD_PIXEL_CENTER)
			L.integer_center = pr->value == 1;
	}
	L.temp = calloc((size_t)s->ntemps * 4 + 4, sizeof *L.temp);
	if (!L.temp) {
		tfp_ulayout_free(&L.ul);
		return ir_refuse(e, IR_REFUSE_LIMITS, s->file, 1, 1, "out of memory");
	}
	for (size_t i = 0; i < (size_t)s->ntemps * 4; i++)
		L.temp[i] = imm(0.0f);      /* tgsi_exec starts every register at 0 */
	for (unsigned i = 0; i < 16; i++)
		L.addr[i / 4][i % 4] = imm(0.0f);
	for (unsigned c = 0; c < 4; c++)
		L.out[c] = imm(0.0f);
	for (size_t i = 0; i < s->n && !L.ended; i = L.next) {
		L.in = &s->inst[i];
		L.next = i + 1;
		if (!lower_inst(&L, L.in))
			break;
	}
	L.in = NULL;
	bool ok = !e->d.set;
	if (ok && L.color_out < 0 && !p->has_kill)
		ok = ir_refuse(e, IR_REFUSE_IO, s->file, 1, 1, "no COLOR[0] output");
	memcpy(p->out, L.out, sizeof p->out);
	p->has_color = L.color_out >= 0;
	free(L.temp);
	if (ok && !tfp_eliminate_dead(p))
		ok = ir_refuse(e, IR_REFUSE_LIMITS, s->file, 1, 1, "out of memory");
	if (ok && p->upacked)
		ok = tfp_uniform_pack(p, &L.ul, e);
	tfp_ulayout_free(&L.ul);
	/* FP_CONST words free for constants: past the identity layout's
	 * declared span, or every slot the packed layout left unused */
	for (unsigned k = 0; k < TEGRA_FP_NUM_CONST; k++)
		if (p->upacked ? p->usrc[k] < 0 : (int32_t)k >= 4 * nconst)
			p->ufree |= 1u << k;
	return ok;
}
