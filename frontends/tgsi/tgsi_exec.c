/* TGSI reference interpreter (see tgsi_exec.h): Mesa 22.3 tgsi_exec
 * semantics in f32, one lane.  All sources are fetched (swizzle, then |x|,
 * then -x; integer negate/abs for integer-typed opcodes) before the
 * destination is written (write mask, then _SAT = fminf(fmaxf(x, 0), 1)). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/tgsi/tgsi_exec.h"
#include "frontends/tgsi/tgsi_exec_ops.h"

enum { REG_MAX = 65536, CALL_DEPTH_MAX = 64 };

uint32_t *tgsi_exec_reg(tgsi_exec_machine *m, unsigned file, size_t bank, size_t index)
{
	if (file >= TGSI_FILE_COUNT || bank >= REG_MAX || index >= REG_MAX)
		return NULL;
	tgsi_exec_file *f = &m->files[file];
	if (bank >= f->nbanks) {
		tgsi_exec_bank *nb = realloc(f->banks, (bank + 1) * sizeof *nb);
		if (!nb)
			return NULL;
		memset(nb + f->nbanks, 0, (bank + 1 - f->nbanks) * sizeof *nb);
		f->banks = nb;
		f->nbanks = bank + 1;
	}
	tgsi_exec_bank *b = &f->banks[bank];
	if (index >= b->n) {
		size_t n = b->n * 2 > index + 1 ? b->n * 2 : index + 1;
		if (n > REG_MAX)
			n = REG_MAX;
		uint32_t (*v)[4] = realloc(b->v, n * sizeof *v);
		if (!v)
			return NULL;
		b->v = v;
		uint8_t *w = realloc(b->flags, n * sizeof *w);
		if (!w)
			return NULL;
		b->flags = w;
		memset(b->v + b->n, 0, (n - b->n) * sizeof *v);
		memset(b->flags + b->n, 0, (n - b->n) * sizeof *w);
		b->n = n;
	}
	return b->v[index];
}

static const uint32_t *reg_peek(const tgsi_exec_machine *m, unsigned file, int64_t bank,
                                int64_t index)
{
	if (file >= TGSI_FILE_COUNT || bank < 0 || index < 0)
		return NULL;
	const tgsi_exec_file *f = &m->files[file];
	if ((size_t)bank >= f->nbanks || (size_t)index >= f->banks[bank].n)
		return NULL;
	return f->banks[bank].v[index];
}

void tgsi_exec_fini(tgsi_exec_machine *m)
{
	for (unsigned f = 0; f < TGSI_FILE_COUNT; f++) {
		for (size_t b = 0; b < m->files[f].nbanks; b++) {
			free(m->files[f].banks[b].v);
			free(m->files[f].banks[b].flags);
		}
		free(m->files[f].banks);
	}
	memset(m, 0, sizeof *m);
}

bool tgsi_exec_init(tgsi_exec_machine *m, tgsi_shader *sh, const char *file, ulp_diag *d)
{
	memset(m, 0, sizeof *m);
	m->sh = sh;
	m->file = file ? file : "";
	m->max_steps = 1000000;
	if (!tgsi_cf_resolve(sh, m->file, d))
		return false;
	for (size_t i = 0; i < sh->num_imms; i++) {
		uint32_t *r = tgsi_exec_reg(m, TGSI_FILE_IMMEDIATE, 0, i);
		if (!r)
			return ulp_diag_at(d, m->file, 0, 0, "out of memory");
		memcpy(r, sh->imms[i].u, sizeof sh->imms[i].u);
	}
	for (size_t i = 0; i < sh->num_decls; i++) {
		const tgsi_declaration *dc = &sh->decls[i];
		size_t bank = dc->dimension ? dc->index_2d : 0;
		if (dc->last >= REG_MAX || bank >= REG_MAX)
			return ulp_diag_at(d, m->file, dc->line, dc->col, "register range too large "
			                   "for the interpreter (at most %d)", REG_MAX - 1);
		if (dc->first > dc->last)
			continue;
		if (!tgsi_exec_reg(m, dc->file, bank, dc->last))
			return ulp_diag_at(d, m->file, dc->line, dc->col, "out of memory");
		for (uint32_t r = dc->first; r <= dc->last; r++)
			m->files[dc->file].banks[bank].flags[r] |= TGSI_EXEC_DECLARED;
	}
	return true;
}

/* ---- operands ---- */

static int64_t address(const tgsi_exec_machine *m, bool indirect, const tgsi_ind_ref *ind,
                       int32_t index)
{
	if (!indirect)
		return (uint32_t)index;
	const uint32_t *a = reg_peek(m, ind->file, 0, (uint32_t)ind->index);
	return (int64_t)(a ? tx_u2i(a[ind->swizzle & 3]) : 0) + index;
}

void tgsi_exec_fetch(const tgsi_exec_machine *m, const tgsi_src *s, bool int_type, uint32_t v[4])
{
	const tgsi_reg_ref *r = &s->reg;
	int64_t bank = r->dimension ? address(m, r->dim_indirect, &r->dim_ind, r->dim_index) : 0;
	const uint32_t *p = reg_peek(m, r->file, bank, address(m, r->indirect, &r->ind, r->index));
	for (int c = 0; c < 4; c++) {
		uint32_t x = p ? p[s->swizzle[c] & 3] : 0;
		if (int_type) {
			if (s->absolute && tx_u2i(x) < 0)
				x = 0u - x;
			if (s->negate)
				x = 0u - x;
		} else {
			float f = tx_u2f(x);
			if (s->absolute)
				f = fabsf(f);
			if (s->negate)
				f = -f;
			x = tx_f2u(f);
		}
		v[c] = x;
	}
}

static bool fail(tgsi_exec_machine *m, const tgsi_instruction *in, ulp_diag *d,
                 const char *what)
{
	return ulp_diag_at(d, m->file, in->line, in->col, "%s: %s",
	                   tgsi_get_opcode_info(in->opcode)->mnemonic, what);
}

bool tgsi_exec_store(tgsi_exec_machine *m, const tgsi_instruction *in, const tgsi_dst *dst,
                     const uint32_t v[4], ulp_diag *d)
{
	const tgsi_reg_ref *r = &dst->reg;
	switch (r->file) {
	case TGSI_FILE_NULL:
		return true;
	case TGSI_FILE_OUTPUT:
	case TGSI_FILE_TEMPORARY:
	case TGSI_FILE_ADDRESS:
		break;
	default:
		return fail(m, in, d, "the interpreter writes only OUT, TEMP and ADDR");
	}
	int64_t bank = r->dimension ? address(m, r->dim_indirect, &r->dim_ind, r->dim_index) : 0;
	int64_t idx = address(m, r->indirect, &r->ind, r->index);
	if (bank < 0 || idx < 0)
		return true;            /* out-of-range indirect write: dropped */
	uint32_t *p = tgsi_exec_reg(m, r->file, (size_t)bank, (size_t)idx);
	if (!p)
		return fail(m, in, d, "register index too large for the interpreter");
	m->files[r->file].banks[bank].flags[idx] |= TGSI_EXEC_WRITTEN;
	for (int c = 0; c < 4; c++) {
		if (!(dst->writemask & (1u << c)))
			continue;
		uint32_t x = v[c];
		if (in->saturate)
			x = tx_f2u(fminf(fmaxf(tx_u2f(x), 0.0f), 1.0f));
		p[c] = x;
	}
	return true;
}

/* The constant texel of the instruction's sampler (its last SAMP/SVIEW source). */
static bool texel(tgsi_exec_machine *m, const tgsi_instruction *in, uint32_t r[4], ulp_diag *d)
{
	for (int k = in->num_src - 1; k >= 0; k--) {
		const tgsi_reg_ref *s = &in->src[k].reg;
		if (s->file != TGSI_FILE_SAMPLER && s->file != TGSI_FILE_SAMPLER_VIEW)
			continue;
		int64_t idx = address(m, s->indirect, &s->ind, s->index);
		const uint32_t *p = reg_peek(m, TGSI_FILE_SAMPLER, 0, idx);
		if (!p || !(m->files[TGSI_FILE_SAMPLER].banks[0].flags[idx] & TGSI_EXEC_WRITTEN))
			return fail(m, in, d, "no texel for this sampler: give \"SAMP[n]\": "
			            "[r, g, b, a] in the case");
		memcpy(r, p, 4 * sizeof *r);
		return true;
	}
	return fail(m, in, d, "no SAMP or SVIEW operand");
}

/* pc of the matching CASE/DEFAULT of the SWITCH at sw, or past ENDSWITCH. */
static int32_t switch_target(const tgsi_exec_machine *m, int32_t sw, uint32_t value)
{
	const tgsi_shader *sh = m->sh;
	int32_t dflt = -1;
	for (int32_t i = sw + 1; i < sh->insts[sw].cf_close; i++) {
		const tgsi_instruction *c = &sh->insts[i];
		if (c->cf_open != sw)
			continue;
		if (c->opcode == TGSI_OPCODE_DEFAULT) {
			dflt = i;
		} else if (c->opcode == TGSI_OPCODE_CASE) {
			uint32_t v[4];
			tgsi_exec_fetch(m, &c->src[0], true, v);
			if (v[0] == value)
				return i + 1;
		}
	}
	return dflt >= 0 ? dflt + 1 : sh->insts[sw].cf_close + 1;
}

bool tgsi_exec_run(tgsi_exec_machine *m, ulp_diag *d)
{
	const tgsi_shader *sh = m->sh;
	int32_t calls[CALL_DEPTH_MAX];
	int ncalls = 0;
	int32_t pc = 0;
	m->killed = false;
	m->steps = 0;
	while (pc >= 0 && (size_t)pc < sh->num_insts) {
		const tgsi_instruction *in = &sh->insts[pc];
		if (++m->steps > m->max_steps)
			return fail(m, in, d, "step limit exceeded (an endless loop?)");
		uint32_t s[TGSI_MAX_SRC][4] = { { 0 } }, r[4] = { 0, 0, 0, 0 };
		bool int_type = tx_int_sources(in->opcode);
		for (unsigned k = 0; k < in->num_src; k++)
			tgsi_exec_fetch(m, &in->src[k], int_type, s[k]);
		int32_t next = pc + 1;
		switch (in->opcode) {
		case TGSI_OPCODE_IF:
			if (!(tx_u2f(s[0][0]) != 0.0f))
				next = (in->cf_else >= 0 ? in->cf_else : in->cf_close) + 1;
			break;
		case TGSI_OPCODE_UIF:
			if (s[0][0] == 0)
				next = (in->cf_else >= 0 ? in->cf_else : in->cf_close) + 1;
			break;
		case TGSI_OPCODE_ELSE:
			next = in->cf_close + 1;
			break;
		case TGSI_OPCODE_ENDLOOP:
			next = in->cf_open + 1;
			break;
		case TGSI_OPCODE_BRK:
			next = in->cf_close + 1;
			break;
		case TGSI_OPCODE_CONT:
			next = in->cf_close;
			break;
		case TGSI_OPCODE_SWITCH:
			next = switch_target(m, pc, s[0][0]);
			break;
		case TGSI_OPCODE_CAL:
			if (ncalls == CALL_DEPTH_MAX)
				return fail(m, in, d, "call stack overflow");
			calls[ncalls++] = pc + 1;
			next = in->cf_target + 1;
			break;
		case TGSI_OPCODE_RET:
		case TGSI_OPCODE_ENDSUB:
			if (!ncalls)
				return true;
			next = calls[--ncalls];
			break;
		case TGSI_OPCODE_END:
			return true;
		case TGSI_OPCODE_KILL:
			m->killed = true;
			return true;
		case TGSI_OPCODE_KILL_IF:
		case TGSI_OPCODE_KIL:
			for (int c = 0; c < 4; c++)
				if (tx_u2f(s[0][c]) < 0.0f)
					m->killed = true;
			if (m->killed)
				return true;
			break;
		case TGSI_OPCODE_ENDIF:
		case TGSI_OPCODE_BGNLOOP:
		case TGSI_OPCODE_BGNSUB:
		case TGSI_OPCODE_CASE:
		case TGSI_OPCODE_DEFAULT:
		case TGSI_OPCODE_ENDSWITCH:
		case TGSI_OPCODE_NOP:
			break;
		default:
			if (tgsi_get_opcode_info(in->opcode)->flags & TGSI_OPF_TEX) {
				if (!texel(m, in, r, d))
					return false;
			} else if (!tx_alu(in->opcode, (const uint32_t(*)[4])s, r)) {
				return fail(m, in, d, "not supported by the interpreter");
			}
			for (unsigned k = 0; k < in->num_dst; k++)
				if (!tgsi_exec_store(m, in, &in->dst[k], r, d))
					return false;
		}
		pc = next;
	}
	return true;
}
