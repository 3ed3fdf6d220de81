/* Tegra fragment backend: where CONST[0] lives in the 32 FP20 FP_CONST
 * words (u0..u31, tegra-fp.md §2.3/§4).
 *
 * Identity layout (CONST[0][n].c -> u(4n+c)) whenever every read component
 * has n < 8 and, with indirect reads, every declared element does: a driver
 * then uploads by index.  Otherwise the packed layout: an indirect read
 * CONST[0][ADDR + k] makes the components it reads of every declared
 * element k..last resident (GLSL arrays are indexed from their base: an
 * index below it is out of bounds, undefined in GL); the lowering uses
 * virtual slots (the float index 4n+c), and after dead-code removal the
 * components that live operations still read get u0, u1, ... in (n, c)
 * order (tfp_uniform_pack).  The map goes to the driver
 * (tegra_compile_result.uniform_src) and into the program's `.uniforms`
 * names. */
#include <stdlib.h>
#include <string.h>

#include "frontends/tegra/tegra_int.h"

static bool declared(const tfp_ulayout *u, int32_t n) { return n >= 0 && n < u->nconst && u->decl[n]; }

static void need(tfp_ulayout *u, int32_t n, uint8_t comps, bool indirect)
{
	if (!declared(u, n))
		return;   /* reads outside the declared file give 0 (tgsi_exec) */
	for (unsigned c = 0; c < 4; c++)
		if (comps & (1u << c)) {
			u->slot[4 * n + (int32_t)c] = -3;   /* read */
			u->held[4 * n + (int32_t)c] |= indirect;
		}
}

void tfp_ulayout_free(tfp_ulayout *u)
{
	free(u->slot);
	free(u->decl);
	free(u->held);
	u->slot = NULL;
	u->decl = NULL;
	u->held = NULL;
}

bool tegra_uniform_layout(const ir_shader *s, const tgsi_shader *sh, tfp_ulayout *u, ir_error *e)
{
	memset(u, 0, sizeof *u);
	for (unsigned k = 0; k < TEGRA_FP_NUM_CONST; k++)
		u->src[k] = -1;
	int32_t last = -1;
	for (size_t i = 0; i < sh->num_decls; i++) {
		const tgsi_declaration *d = &sh->decls[i];
		if (d->file == TGSI_FILE_CONSTANT && (!d->dimension || d->index_2d == 0) && (int32_t)d->last > last)
			last = (int32_t)d->last;
	}
	if (last >= TEGRA_COMPILE_MAX_CONST_DECL)
		return ir_refuse(e, IR_REFUSE_CONSTANTS, s->file, 1, 1, "CONST[0] declared up to element %d "
		                 "(the backend lays out at most %d)", (int)last, TEGRA_COMPILE_MAX_CONST_DECL);
	u->nconst = last + 1;
	u->slot = malloc(((size_t)u->nconst * 4 + 4) * sizeof *u->slot);
	u->decl = calloc((size_t)u->nconst + 1, 1);
	u->held = calloc((size_t)u->nconst * 4 + 4, 1);
	if (!u->slot || !u->decl || !u->held)
		return ir_refuse(e, IR_REFUSE_LIMITS, s->file, 1, 1, "out of memory");
	for (int32_t k = 0; k < u->nconst * 4; k++)
		u->slot[k] = -2;   /* not read */
	bool big_decl = false;
	for (size_t i = 0; i < sh->num_decls; i++) {
		const tgsi_declaration *d = &sh->decls[i];
		if (d->file != TGSI_FILE_CONSTANT || (d->dimension && d->index_2d != 0))
			continue;
		for (uint32_t n = d->first; n <= d->last; n++) {
			u->decl[n] = 1;
			big_decl |= n >= TEGRA_COMPILE_MAX_CONST;
		}
	}
	/* what the IR reads (conservatively: whole source masks) */
	bool identity = true, indirect = false;
	for (size_t i = 0; i < s->n; i++) {
		const ir_inst *in = &s->inst[i];
		const ir_op_info *oi = ir_op_get(in->op);
		for (unsigned k = 0; k < oi->nsrc && k < IR_MAX_SRC; k++) {
			const ir_src *x = &in->src[k];
			if (x->file != IR_CONST)
				continue;
			uint8_t comps = ir_src_reads(in, k);
			if (x->indirect) {
				indirect = true;
				for (int32_t n = x->index < 0 ? 0 : x->index; n < u->nconst; n++)
					need(u, n, comps, true);
			} else {
				need(u, x->index, comps, false);
				identity &= x->index < TEGRA_COMPILE_MAX_CONST || !declared(u, x->index);
			}
		}
	}
	if (indirect && big_decl)
		identity = false;
	if (identity) {   /* u(4n+c); an indirect chain covers every declared element */
		for (int32_t k = 0; k < u->nconst * 4; k++)
			u->slot[k] = k < TEGRA_FP_NUM_CONST ? (int16_t)k : -1;
		for (unsigned k = 0; k < TEGRA_FP_NUM_CONST; k++)
			u->src[k] = (int16_t)k;
		return true;
	}
	/* packed: virtual slots (the float index 4n+c) while lowering; what the
	 * live operations still read gets u0..u31 in tfp_uniform_pack */
	u->packed = true;
	for (int32_t k = 0; k < u->nconst * 4; k++)
		u->slot[k] = u->slot[k] == -3 ? (int16_t)k : -1;
	return true;
}

static bool pack_opnd(tfp_opnd *o, const int16_t *map)
{
	if (o->kind != TO_UNIF)
		return true;
	o->v = map[o->v];
	return o->v >= 0;
}

bool tfp_uniform_pack(tfp_prog *p, const tfp_ulayout *u, ir_error *e)
{
	size_t nf = (size_t)u->nconst * 4;
	int16_t *map = malloc((nf + 1) * sizeof *map);
	if (!map)
		return ir_refuse(e, IR_REFUSE_LIMITS, p->file, 1, 1, "out of memory");
	for (size_t k = 0; k < nf; k++)
		map[k] = -1;
	/* mark what live operations and the outputs read; count in (n, c) order */
	tfp_opnd *roots[5] = { &p->out[0], &p->out[1], &p->out[2], &p->out[3], p->has_kill ? &p->kill : NULL };
	for (unsigned r = 0; r < 5; r++)
		if (roots[r] && roots[r]->kind == TO_UNIF && (size_t)roots[r]->v < nf)
			map[roots[r]->v] = 0;
	for (size_t i = 0; i < p->n; i++)
		for (unsigned k = 0; k < 3 && p->op[i].live; k++)
			if (p->op[i].s[k].kind == TO_UNIF && (size_t)p->op[i].s[k].v < nf)
				map[p->op[i].s[k].v] = 0;
	unsigned count = 0, held = 0;
	for (size_t k = 0; k < nf; k++)
		if (map[k] == 0) {
			map[k] = (int16_t)count;
			if (count < TEGRA_FP_NUM_CONST)
				p->usrc[count] = (int16_t)k;
			count++;
			held += u->held[k] != 0;
		}
	if (count > TEGRA_FP_NUM_CONST) {
		/* name the first operation reading a component past the 32nd */
		int line = 1, col = 1;
		const char *op = "shader";
		for (size_t i = 0; i < p->n && line == 1; i++)
			for (unsigned k = 0; k < 3 && p->op[i].live; k++)
				if (p->op[i].s[k].kind == TO_UNIF && map[p->op[i].s[k].v] >= TEGRA_FP_NUM_CONST) {
					line = p->op[i].line ? p->op[i].line : 1;
					col = p->op[i].col ? p->op[i].col : 1;
					op = ir_op_get(p->op[i].irop)->name;
					break;
				}
		free(map);
		return ir_refuse(e, IR_REFUSE_CONSTANTS, p->file, line, col, "%s: the CONST[0] components the "
		                 "program reads need %u FP_CONST slots (%u read directly, %u held for indirect "
		                 "reads: an indirect read holds its array from the base index to the last "
		                 "declared element); the fragment unit has 32 (u0..u31)", op, count, count - held,
		                 held);
	}
	bool ok = true;
	for (unsigned r = 0; r < 5; r++)
		if (roots[r])
			ok &= pack_opnd(roots[r], map);
	for (size_t i = 0; i < p->n; i++)
		for (unsigned k = 0; k < 3; k++)
			if (p->op[i].live)
				ok &= pack_opnd(&p->op[i].s[k], map);
	free(map);
	if (!ok)
		return ir_refuse(e, IR_REFUSE_LIMITS, p->file, 1, 1, "internal error: a uniform without a slot");
	return true;
}
