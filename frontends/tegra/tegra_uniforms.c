/* Tegra fragment backend: where CONST[0] lives in the 32 FP20 FP_CONST
 * words (u0..u31, tegra-fp.md §2.3/§4).
 *
 * Identity layout (CONST[0][n].c -> u(4n+c)) whenever every read component
 * has n < 8 and, with indirect reads, every declared element does: a driver
 * then uploads by index.  Otherwise the packed layout: only the components
 * the program reads get a slot, in (n, c) order; an indirect read
 * CONST[0][ADDR + k] makes the components it reads of every declared
 * element k..last resident (GLSL arrays are indexed from their base: an
 * index below it is out of bounds, undefined in GL).  The map goes to the
 * driver (tegra_compile_result.uniform_src) and into the program's
 * `.uniforms` names. */
#include <stdlib.h>
#include <string.h>

#include "frontends/tegra/tegra_int.h"

static bool declared(const tfp_ulayout *u, int32_t n) { return n >= 0 && n < u->nconst && u->decl[n]; }

static void need(tfp_ulayout *u, int32_t n, uint8_t comps, unsigned *count)
{
	if (!declared(u, n))
		return;   /* reads outside the declared file give 0 (tgsi_exec) */
	for (unsigned c = 0; c < 4; c++)
		if ((comps & (1u << c)) && u->slot[4 * n + (int32_t)c] == -2) {
			u->slot[4 * n + (int32_t)c] = -3;   /* needed, not placed yet */
			(*count)++;
		}
}

void tfp_ulayout_free(tfp_ulayout *u)
{
	free(u->slot);
	free(u->decl);
	u->slot = NULL;
	u->decl = NULL;
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
	if (!u->slot || !u->decl)
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
	/* what the program reads; the instruction where the packed count first
	 * passes 32 names a refusal */
	unsigned count = 0;
	bool identity = true, indirect = false;
	const ir_inst *over = NULL;
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
					need(u, n, comps, &count);
			} else {
				need(u, x->index, comps, &count);
				identity &= x->index < TEGRA_COMPILE_MAX_CONST || !declared(u, x->index);
			}
			if (count > TEGRA_FP_NUM_CONST && !over)
				over = in;
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
	if (over)
		return ir_refuse(e, IR_REFUSE_CONSTANTS, s->file, over->line ? over->line : 1,
		                 over->col ? over->col : 1, "%s: the CONST[0] components read need %u FP_CONST "
		                 "slots (an indirect read holds its array from the base index to the last "
		                 "declared element); the fragment unit has 32 (u0..u31)",
		                 ir_op_get(over->op)->name, count);
	u->packed = true;
	int16_t next = 0;
	for (int32_t k = 0; k < u->nconst * 4; k++) {
		if (u->slot[k] == -3) {
			u->src[next] = (int16_t)k;
			u->slot[k] = next++;
		} else {
			u->slot[k] = -1;
		}
	}
	return true;
}
