/* Tegra fragment backend: placing a texture fetch (TEX/TXB) and PSEQ's
 * destination fetch (tegra_sched.h).  The coordinates reach r0, r1 (r3:
 * the bias) of the TEX EXEC's row in place (an interpolation left them
 * there), written there by the operation computing them, or copied in by
 * the ALU of the EXEC before; the texel's FX10 halves in r2, r3 of the row
 * are read in place in that EXEC or copied out (tegra-fp.md §2.4 TEX word,
 * §3.3, §5 row-relative addressing). */
#include <stdlib.h>
#include <string.h>

#include "frontends/tegra/tegra_sched.h"

/* ALU copies, in the packets of EXEC e (trial copy b), of the four FX10
 * halves a TEX or the destination fetch left in d0 (R, G) and d1 (B, A)
 * into the op's values; out_t gets each copy's time, *last the latest.
 * False when the packets have no room. */
static bool tfp_copy_out(const tfp_sched *S, const tfp_op *o, tfp_exec *b, unsigned e, unsigned d0,
                         unsigned d1, int32_t out_t[4], int32_t *last)
{
	for (unsigned ch = 0; ch < 4; ch++) {
		if (o->dst[ch] < 0 || !o->live || S->val[o->dst[ch]].def_t == -2)   /* dead channel */
			continue;
		tfp_slot cout = tfp_copy_slot(tfp_fixed(ch < 2 ? d0 : d1, ch & 1 ? TO_HIGH : TO_LOW));
		cout.dkind = TD_VAL;
		cout.d = o->dst[ch];
		int p = -1;
		for (unsigned q = 0; q < 3 && p < 0; q++)
			if (tfp_packet_fits(S, &b->p[q], &cout))
				p = (int)q;
		if (p < 0)
			return false;
		tfp_packet_add(S, &b->p[p], &cout);
		out_t[ch] = tfp_t_alu(e, (unsigned)p);
		*last = out_t[ch] > *last ? out_t[ch] : *last;
	}
	return true;
}

/* Is o an in-place FP20 value in row register reg that the TEX of EXEC et
 * can read there (no copy in)? */
static bool in_row(const tfp_sched *S, const tfp_opnd *o, unsigned reg, unsigned et)
{
	if (o->kind != TO_VAL || !tfp_plain(o) || S->val[o->v].fix != (int8_t)reg || S->val[o->v].half != TO_FP20)
		return false;
	const tfp_value *v = &S->val[o->v];
	return v->def_t < tfp_t_tex(et) &&
	       tfp_fixed_free_but(S, reg, S->fixed[reg].v[v->hold].lo, tfp_hold_hi(tfp_t_tex(et)), v->hold);
}

/* The texel's channels held in place in d0 (R, G) and d1 (B, A) from the
 * fetch of EXEC et (or PSEQ's, before it: t) on, read in that EXEC only. */
static bool texel_inplace(tfp_sched *S, const tfp_op *o, unsigned d0, unsigned d1, int32_t lo0, int32_t lo1,
                          int32_t t, int32_t t_read)
{
	int32_t h[2] = { -1, -1 };
	for (unsigned ch = 0; ch < 4; ch++)
		if (o->dst[ch] >= 0 && o->live && S->val[o->dst[ch]].def_t != -2 &&
		    !tfp_set_inplace(S, o->dst[ch], ch < 2 ? d0 : d1, ch & 1 ? TO_HIGH : TO_LOW, true, t, ch < 2 ? lo0 : lo1,
		                 tfp_hold_hi(t_read), S->cur, &h[ch / 2]))
			return false;
	/* the fetch writes both registers, read or not */
	return (h[0] >= 0 || tfp_hold_add(S, d0, lo0, tfp_hold_hi(t), S->cur) >= 0) &&
	       (h[1] >= 0 || tfp_hold_add(S, d1, lo1, tfp_hold_hi(t), S->cur) >= 0);
}

bool tfp_place_tex(tfp_sched *S, const tfp_op *o)
{
	int32_t t = 0;
	for (unsigned k = 0; k < 3; k++) {
		int32_t r = tfp_ready(S, &o->s[k]);
		t = r > t ? r : t;
	}
	const unsigned ncoord = o->bias ? 3 : 2;
	const bool inp = tfp_inplace(S, S->cur);
	for (unsigned et = 0; et < TFP_MAX_EXEC; et++) {
		tfp_exec *x = &S->ex[et];
		unsigned creg[3] = { tfp_row_reg(S, et, 0), tfp_row_reg(S, et, 1), tfp_row_reg(S, et, 3) };
		unsigned d0 = tfp_row_reg(S, et, 2), d1 = tfp_row_reg(S, et, 3);
		/* a coordinate an interpolation left in its row register is read
		 * there; the others are copied in by the ALU of the EXEC before */
		bool here[3] = { false, false, false }, copies = false;
		tfp_slot *rt[3] = { NULL, NULL, NULL };
		for (unsigned k = 0; k < ncoord; k++) {
			unsigned ed = 0;
			here[k] = in_row(S, &o->s[k], creg[k], et);
			if (!here[k] && (rt[k] = tfp_retarget(S, &o->s[k], &ed)) &&
			    (ed >= et || !tfp_fixed_free(S, creg[k], tfp_hold_lo(S->val[o->s[k].v].def_t), tfp_hold_hi(tfp_t_tex(et)))))
				rt[k] = NULL;
			copies |= !here[k] && !rt[k];
		}
		if (x->tex || (copies ? et == 0 || tfp_t_alu(et - 1, 2) < t : tfp_t_tex(et) < t))
			continue;
		unsigned ein = copies ? et - 1 : et;
		/* rows > 1: an interpolation in this EXEC makes the TEX read this row
		 * (tegra.tex.src_row_from_mfu); a dummy ipl into r2, the R coordinate
		 * a 2D fetch ignores and the destination overwrites */
		int mdummy = -1;
		if (S->rows > 1 && (mdummy = tfp_find_minst(S, et, 2)) < 0)
			continue;
		/* try the copies on a scratch copy of the two EXECs */
		tfp_exec a = S->ex[ein], b = *x;
		bool ok = true;
		int32_t cin_t[3] = { 0, 0, 0 };
		tfp_slot cin[3];
		for (unsigned k = 0; k < ncoord && ok; k++) {
			if (here[k] || rt[k])
				continue;
			cin[k] = tfp_copy_slot(o->s[k]);
			cin[k].dkind = TD_FIX;
			cin[k].d = (int32_t)creg[k];
			int p = -1;
			for (unsigned q = 0; q < 3 && p < 0; q++)
				if (tfp_t_alu(ein, q) >= t && tfp_alu_sees_slot(S, &cin[k], ein) && tfp_packet_fits(S, &a.p[q], &cin[k]))
					p = (int)q;
			if (p < 0) {
				ok = false;
				break;
			}
			tfp_packet_add(S, &a.p[p], &cin[k]);
			cin_t[k] = tfp_t_alu(ein, (unsigned)p);
			ok = tfp_fixed_free(S, creg[k], tfp_hold_lo(cin_t[k]), tfp_hold_hi(tfp_t_tex(et)));
		}
		int32_t out_t[4] = { -1, -1, -1, -1 }, last = tfp_t_tex(et);
		if (inp)
			last = tfp_t_alu(et, 0);   /* read in place, by the ALU of this EXEC */
		ok = ok && (inp || tfp_copy_out(S, o, &b, et, d0, d1, out_t, &last));
		int32_t dlo = tfp_hold_lo(S->rows > 1 ? tfp_t_mfu(et, 0) : tfp_t_tex(et));
		if (ok)
			ok = tfp_fixed_free(S, d0, dlo, tfp_hold_hi(last)) && tfp_fixed_free(S, d1, tfp_hold_lo(tfp_t_tex(et)), tfp_hold_hi(last));
		if (!ok)
			continue;
		for (unsigned k = 0; k < ncoord; k++)
			if (!here[k] && !rt[k] && !tfp_reach(S, &cin[k].s[0], ein, cin_t[k], true))
				return false;
		for (unsigned k = 0; k < ncoord; k++)
			if (!rt[k])
				tfp_extend(S, here[k] ? &o->s[k] : &cin[k].s[0], here[k] ? tfp_t_tex(et) : cin_t[k]);
		if (mdummy >= 0) {
			if ((unsigned)mdummy == b.nm)
				b.nm++;
			b.m[mdummy].var_mask |= 1u << 2;
			b.m[mdummy].var_row[2] = 0;
		}
		b.tex = true;
		b.tex_bias = o->bias;
		b.tex_sampler = o->sampler;
		if (copies)
			S->ex[ein] = a;
		*x = b;
		for (unsigned k = 0; k < ncoord; k++) {
			if (rt[k])
				cin_t[k] = S->val[o->s[k].v].def_t;
			if (rt[k])
				tfp_retarget_to(S, rt[k], creg[k]);
			if (!here[k] && !tfp_ilist_add(&S->fixed[creg[k]], tfp_hold_lo(cin_t[k]), tfp_hold_hi(tfp_t_tex(et))))
				return false;
		}
		if (inp)
			return texel_inplace(S, o, d0, d1, dlo, tfp_hold_lo(tfp_t_tex(et)), tfp_t_tex(et), tfp_t_alu(et, 0));
		for (unsigned ch = 0; ch < 4; ch++)
			if (out_t[ch] >= 0)
				S->val[o->dst[ch]].def_t = out_t[ch];
		return tfp_ilist_add(&S->fixed[d0], dlo, tfp_hold_hi(last)) &&
		       tfp_ilist_add(&S->fixed[d1], tfp_hold_lo(tfp_t_tex(et)), tfp_hold_hi(last));
	}
	return false;
}

/* PSEQ's destination fetch (TF_FETCH): at the start of EXEC e, before its
 * MFU, PSEQ writes the pixel of render target 1 into r2, r3 of the row as
 * FX10 halves (R G, B A); ALU copies in EXEC e take the channels out. */
bool tfp_place_fetch(tfp_sched *S, const tfp_op *o)
{
	int32_t floor_t = S->window < 0 ? 0 : S->frontier - S->window;
	unsigned e0 = floor_t > 0 ? (unsigned)(floor_t / 8) : 0;
	for (unsigned e = e0; e < TFP_MAX_EXEC; e++) {
		tfp_exec *x = &S->ex[e];
		if (x->fetch)
			continue;
		unsigned d0 = tfp_row_reg(S, e, 2), d1 = tfp_row_reg(S, e, 3);
		const int32_t tw = 8 * (int32_t)e - 1;   /* before MFU 0 of EXEC e */
		tfp_exec b = *x;
		int32_t out_t[4] = { -1, -1, -1, -1 }, last = tfp_t_mfu(e, 0);
		const bool inp = tfp_inplace(S, S->cur);
		if (inp)
			last = tfp_t_alu(e, 0);
		bool ok = inp || tfp_copy_out(S, o, &b, e, d0, d1, out_t, &last);
		if (!ok || !tfp_fixed_free(S, d0, tfp_hold_lo(tw), tfp_hold_hi(last)) || !tfp_fixed_free(S, d1, tfp_hold_lo(tw), tfp_hold_hi(last)))
			continue;
		b.fetch = true;
		*x = b;
		if (inp)
			return texel_inplace(S, o, d0, d1, tfp_hold_lo(tw), tfp_hold_lo(tw), tw, tfp_t_alu(e, 0));
		for (unsigned ch = 0; ch < 4; ch++)
			if (out_t[ch] >= 0)
				S->val[o->dst[ch]].def_t = out_t[ch];
		return tfp_ilist_add(&S->fixed[d0], tfp_hold_lo(tw), tfp_hold_hi(last)) &&
		       tfp_ilist_add(&S->fixed[d1], tfp_hold_lo(tw), tfp_hold_hi(last));
	}
	return false;
}
