/* PICA200 shader execution core (see pica_exec.h).  Semantics: pica200.md
 * §1.3 (opcode table), §1.4 (stacks), §2.2 (float24 rules, via isa/f24.h). */
#include "units/pica/pica_exec.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/pica/pica_disasm.h"
#include "units/pica/pica_fast.h"
#include "units/pica/pica_batch.h"

#define NO_PC PICA_NO_PC

static const pica_vec4 ONES = { { 1.0f, 1.0f, 1.0f, 1.0f } };

/* ---- program preparation ---- */

static uint32_t src_scoreboard(const struct pica_src *s)
{
	uint32_t bits = 0;
	if (s->reg >= PICA_SRC_R && s->reg < PICA_SRC_C)
		bits |= 1u << (s->reg - PICA_SRC_R);
	if (s->reg >= PICA_SRC_C && s->idx)     /* the index matters only for c */
		bits |= s->idx == PICA_IDX_A0X ? PICA_SB_A0X
		      : s->idx == PICA_IDX_A0Y ? PICA_SB_A0Y : PICA_SB_AL;
	return bits;
}

/* Everything the shader unit needs besides the fields, from the op's row of
 * pica_ops.def (exec, timing and flags columns). */
static pica_inst_meta inst_meta(const struct pica_inst *in)
{
	pica_inst_meta m = { 0 };
	const struct pica_op_info *oi = &PICA_OPS[in->op];
	const struct pica_fmt_info *f = &PICA_FMTS[in->fmt];
	for (int k = 0; k < f->nsrc && k < 3; k++)
		m.reads |= src_scoreboard(&in->src[k]);
	/* two distinct v registers in one instruction (pica200.md §1.2) */
	int v0 = -1;
	for (int k = 0; k < f->nsrc && k < 3; k++) {
		if (in->src[k].reg >= PICA_SRC_R)
			continue;
		if (v0 >= 0 && v0 != in->src[k].reg)
			m.two_inputs = true;
		v0 = in->src[k].reg;
	}
	if ((oi->flags & PICA_F_DST) && in->dst >= PICA_DST_R && in->dst < PICA_DST_R + 16)
		m.writes |= 1u << (in->dst - PICA_DST_R);
	if (oi->flags & PICA_F_A0)
		m.writes |= (in->mask & 8 ? PICA_SB_A0X : 0) | (in->mask & 4 ? PICA_SB_A0Y : 0);
	if (oi->flags & PICA_F_AL)
		m.writes |= PICA_SB_AL;
	if (oi->flags & PICA_F_CMPW)
		m.writes |= PICA_SB_CMP;
	if (oi->flags & PICA_F_CMPR)
		m.reads |= PICA_SB_CMP;
	m.cls = oi->timing;
	m.exec = oi->exec;
	m.is_end = oi->flags & PICA_F_END;
	return m;
}

bool pica_program_from_code(pica_program *p, const uint32_t *code, size_t ncode,
                            const uint32_t *opdesc, size_t nopdesc,
                            const pica_program_desc *desc, const ulp_config *cfg, ulp_diag *d)
{
	memset(p, 0, sizeof *p);
	if (ncode > (size_t)cfg->pica_code_words)
		return ulp_diag_at(d, NULL, 0, 0,
		                   "%zu code words do not fit the %lld-word code memory (pica.code_words)",
		                   ncode, (long long)cfg->pica_code_words);
	if (nopdesc > (size_t)cfg->pica_opdesc_count)
		return ulp_diag_at(d, NULL, 0, 0,
		                   "%zu operand descriptors do not fit the %lld-entry table (pica.opdesc_count)",
		                   nopdesc, (long long)cfg->pica_opdesc_count);
	if (desc->entry >= ncode)
		return ulp_diag_at(d, NULL, 0, 0, "entry point 0x%x is outside the code (%zu words)",
		                   desc->entry, ncode);
	p->ncode = (uint32_t)ncode;
	p->inst = calloc(ncode, sizeof *p->inst);
	p->meta = calloc(ncode, sizeof *p->meta);
	if (!p->inst || !p->meta) {
		pica_program_free(p);
		return ulp_diag_at(d, NULL, 0, 0, "out of memory");
	}
	for (uint32_t i = 0; i < p->ncode; i++) {
		bool ok = pica_decode_prog(code[i], opdesc, nopdesc, &p->inst[i]);
		p->meta[i] = inst_meta(&p->inst[i]);
		p->meta[i].bad_desc = !ok;
	}
	if (!pica_fast_build(p)) {
		pica_program_free(p);
		return ulp_diag_at(d, NULL, 0, 0, "out of memory");
	}
	p->entry = desc->entry;
	p->end = desc->end;
	p->is_gs = desc->is_gs;
	p->gs_mode = desc->gs_mode;
	p->gs_variable_num = desc->gs_variable_num;
	p->gs_fixed_start = desc->gs_fixed_start;
	p->gs_fixed_num = desc->gs_fixed_num;
	for (unsigned r = 0; r < 16; r++) {
		p->out_need[r] = desc->out_need[r] & 0xF;
		if (p->out_need[r])
			p->out_regs |= (uint16_t)(1u << r);
	}
	pica_batch_build(p);        /* NULL when the program declines (pica_batch.h) */
	return true;
}

bool pica_program_build(pica_program *p, const struct shbin *s, unsigned dvle,
                        const ulp_config *cfg, ulp_diag *d)
{
	memset(p, 0, sizeof *p);
	if (dvle >= s->ndvle)
		return ulp_diag_at(d, NULL, 0, 0, "the SHBIN has %zu DVLE(s); there is no DVLE %u",
		                   s->ndvle, dvle);
	const struct shbin_dvle *e = &s->dvle[dvle];
	pica_program_desc desc = {
		.entry = e->main, .end = e->endmain, .is_gs = e->type == SHBIN_GS,
		.gs_mode = e->gs_mode, .gs_variable_num = e->gs_variable_num,
		.gs_fixed_start = e->gs_fixed_start, .gs_fixed_num = e->gs_fixed_num,
	};
	for (size_t k = 0; k < e->noutputs; k++)
		if (e->outputs[k].reg < 16)
			desc.out_need[e->outputs[k].reg] |= (uint8_t)(e->outputs[k].mask & 0xF);
	if (!pica_program_from_code(p, s->code, s->ncode, s->opdesc, s->nopdesc, &desc, cfg, d))
		return false;
	p->dvle = e;
	return true;
}

void pica_program_free(pica_program *p)
{
	free(p->inst);
	free(p->meta);
	free(p->fast);
	pica_batch_free(p);
	p->inst = NULL;
	p->meta = NULL;
	p->fast = NULL;
}

void pica_uniforms_apply_dvle(pica_uniforms *u, const struct shbin_dvle *dvle)
{
	for (size_t k = 0; k < dvle->nconsts; k++) {
		const struct shbin_const *c = &dvle->consts[k];
		if (c->type == SHBIN_CONST_FVEC && c->reg < 96) {
			for (int j = 0; j < 4; j++)
				u->c[c->reg].c[j] = f24_decode(c->data[j]);
		} else if (c->type == SHBIN_CONST_IVEC && c->reg < 4) {
			for (int j = 0; j < 4; j++)
				u->i[c->reg][j] = (uint8_t)(c->data[0] >> (8 * j));
		} else if (c->type == SHBIN_CONST_BOOL && c->reg < 16) {
			u->b[c->reg] = c->data[0] & 1;
		}
	}
}

void pica_env_from_config(pica_env *e, const ulp_config *cfg)
{
	memset(e, 0, sizeof *e);
	e->f24 = ulp_config_f24_mode(cfg);
	e->undocumented = cfg->pica_undocumented;
	e->dsti_swapped = cfg->pica_dsti_operands == PICA_DSTI_SWAPPED;
	e->loop_restore_al = cfg->pica_loop_restore_al;
	e->al_signed = cfg->pica_al_signed;
	e->max_steps = (uint64_t)cfg->pica_max_steps;
}

void pica_thread_reset(pica_thread *t) { memset(t, 0, sizeof *t); }

void pica_thread_start(pica_thread *t, const pica_program *p)
{
	/* copied from zeros, not memset: GCC makes a memset of this size a
	 * rep stos, slow to start, and this runs once a vertex */
	static const pica_stacks ZERO_STACKS;
	t->pc = p->entry;
	memcpy(&t->st, &ZERO_STACKS, sizeof t->st);
	memset(t->o_written, 0, sizeof t->o_written);
	t->last_was_mova = false;
	t->steps = 0;
}

/* ---- diagnostics ---- */

static const char *inst_text(const pica_program *p, uint32_t pc, char *buf, size_t n)
{
	pica_disasm_inst(&p->inst[pc], NULL, buf, n);
	return buf;
}

/* A condition that hangs silicon: an error, or a warning when permissive.
 * Returns true when execution may go on. */
static bool hang(const pica_program *p, const pica_env *env, uint32_t pc, ulp_diag *d,
                 const char *what)
{
	char text[96], msg[320];
	snprintf(msg, sizeof msg, "pc 0x%03x '%s': %s", pc, inst_text(p, pc, text, sizeof text), what);
	if (env->permissive) {
		if (env->warn)
			env->warn(env->ctx, msg);
		return true;
	}
	ulp_diag_at(d, NULL, 0, 0, "%s (hangs the PICA200; --permissive to continue)", msg);
	return false;
}

static enum pica_step_result fail(const pica_program *p, uint32_t pc, ulp_diag *d, const char *what)
{
	char text[96];
	if (pc < p->ncode)
		ulp_diag_at(d, NULL, 0, 0, "pc 0x%03x '%s': %s", pc, inst_text(p, pc, text, sizeof text), what);
	else
		ulp_diag_at(d, NULL, 0, 0, "pc 0x%03x: %s", pc, what);
	return PICA_STEP_ERROR;
}

/* ---- operands ---- */

static int32_t addr_offset(const pica_thread *t, uint8_t idx)
{
	return idx == PICA_IDX_A0X ? t->a0[0] : idx == PICA_IDX_A0Y ? t->a0[1] : t->al;
}

/* Relative addressing applies to c registers only: an offset outside
 * [-128, 127] is ignored; index = (c + offset) & 0x7F; >= 96 reads 1.0
 * (pica200.md §1.2). */
static void read_src(const pica_thread *t, const pica_uniforms *u, const struct pica_src *s,
                     float out[4])
{
	const pica_vec4 *r;
	if (s->reg < PICA_SRC_R) {
		r = &t->v[s->reg];
	} else if (s->reg < PICA_SRC_C) {
		r = &t->r[s->reg - PICA_SRC_R];
	} else {
		int32_t idx = s->reg - PICA_SRC_C;
		if (s->idx) {
			int32_t off = addr_offset(t, s->idx);
			if (off >= -128 && off <= 127)
				idx = (idx + off) & 0x7F;
		}
		r = idx < 96 ? &u->c[idx] : &ONES;
	}
	for (int k = 0; k < 4; k++)
		out[k] = r->c[s->swz[k]];
	/* Registers never hold -0 (f24 results are +0, loads convert), so only
	 * negation can make one; -x + 0 turns it into +0 and keeps x otherwise. */
	if (s->neg)
		for (int k = 0; k < 4; k++)
			out[k] = -out[k] + 0.0f;
}

/* Descriptor mask bit3 = x .. bit0 = w. */
static inline bool comp_on(uint8_t mask, int k) { return mask & (8 >> k); }

static bool write_dst(pica_thread *t, const pica_program *p, const pica_env *env, uint32_t pc,
                      uint8_t dst, uint8_t mask, const float res[4], ulp_diag *d)
{
	if (dst >= PICA_DST_R) {
		pica_vec4 *r = &t->r[(dst - PICA_DST_R) & 15];
		for (int k = 0; k < 4; k++)
			if (comp_on(mask, k))
				r->c[k] = res[k];
		return true;
	}
	pica_vec4 *o = &t->o[t->bank][dst & 15];
	for (int k = 0; k < 4; k++) {
		if (!comp_on(mask, k))
			continue;
		if (t->o_written[dst & 15] & (1u << k)) {
			char what[64];
			snprintf(what, sizeof what, "output o%u.%c written twice", dst & 15, "xyzw"[k]);
			if (!hang(p, env, pc, d, what))
				return false;
		}
		t->o_written[dst & 15] |= (uint8_t)(1u << k);
		o->c[k] = res[k];
	}
	return true;
}

/* ---- flow control ---- */

bool pica_condition(bool cmpx, bool cmpy, const struct pica_inst *in)
{
	bool x = cmpx == in->ref_x, y = cmpy == in->ref_y;
	switch (in->cond) {
	case PICA_COND_OR: return x || y;
	case PICA_COND_AND: return x && y;
	case PICA_COND_X: return x;
	default: return y;
	}
}

/* Ring stacks: push over a full stack drops the oldest entry (§1.4). */
#define RING_PUSH(arr, n, top, depth, entry)                 \
	do {                                                 \
		(top) = (uint8_t)(((top) + 1) % (depth));    \
		(arr)[(top)] = (entry);                      \
		if ((n) < (depth))                           \
			(n)++;                               \
	} while (0)
#define RING_POP(n, top, depth)                              \
	do {                                                 \
		(top) = (uint8_t)(((top) + (depth) - 1) % (depth)); \
		(n)--;                                       \
	} while (0)

bool pica_cmp_op(uint8_t op, float a, float b)
{
	switch (op) {            /* no flush in CMP (§2.2) */
	case PICA_CMP_EQ: return a == b;
	case PICA_CMP_NE: return a != b;
	case PICA_CMP_LT: return a < b;
	case PICA_CMP_LE: return a <= b;
	case PICA_CMP_GT: return a > b;
	case PICA_CMP_GE: return a >= b;
	default: return true;    /* 6, 7 "seem to always return true" (3dbrew) */
	}
}

static int32_t mova_value(float v)
{
	if (isnan(v))
		return 0;
	double tv = trunc((double)v);     /* toward zero (hardware-verified, §1.3) */
	if (tv > 2147483647.0)
		return INT32_MAX;
	if (tv < -2147483648.0)
		return INT32_MIN;
	return (int32_t)tv;
}

static void do_emit(pica_thread *t, const pica_program *p, const pica_env *env)
{
	unsigned slot = t->emit_vtx < 3 ? t->emit_vtx : 2;
	for (unsigned r = 0; r < 16; r++)
		if (p->out_regs & (1u << r))
			t->emit_buf[slot][r] = t->o[t->bank][r];
	if (t->emit_prim) {
		t->primitives++;
		if (env->emit)
			env->emit(env->ctx, (const pica_vec4(*)[16])t->emit_buf, t->emit_inv);
	}
	t->bank ^= 1;            /* output banks swap on each EMIT (§1.1) */
	memset(t->o_written, 0, sizeof t->o_written);
}

/* ---- one instruction: a handler per exec class (pica_ops.def) ---- */

/* What a handler works on.  jump is a JMP-class transfer (lowest priority,
 * §1.4), NO_PC when none. */
typedef struct pica_step_ctx {
	pica_thread *t;
	const pica_program *p;
	const pica_uniforms *u;
	const pica_env *env;
	const struct pica_inst *in;
	ulp_diag *d;
	uint32_t pc, jump;
} pica_step_ctx;

typedef enum pica_step_result (*pica_exec_fn)(pica_step_ctx *s);

static inline enum pica_step_result put_result(pica_step_ctx *s, const float res[4])
{
	return write_dst(s->t, s->p, s->env, s->pc, s->in->dst, s->in->mask, res, s->d)
	       ? PICA_STEP_OK : PICA_STEP_ERROR;
}

static enum pica_step_result ex_bin(pica_step_ctx *s)
{
	const f24_mode *fm = &s->env->f24;
	float a[4], b[4], res[4];
	read_src(s->t, s->u, &s->in->src[0], a);
	read_src(s->t, s->u, &s->in->src[1], b);
	switch (PICA_OPS[s->in->op].base) {
	case PICA_OP_ADD: for (int k = 0; k < 4; k++) res[k] = f24_add(a[k], b[k], fm); break;
	case PICA_OP_MUL: for (int k = 0; k < 4; k++) res[k] = f24_mul(a[k], b[k], fm); break;
	case PICA_OP_SGE: for (int k = 0; k < 4; k++) res[k] = f24_sge(a[k], b[k]); break;
	case PICA_OP_SLT: for (int k = 0; k < 4; k++) res[k] = f24_slt(a[k], b[k]); break;
	case PICA_OP_MAX: for (int k = 0; k < 4; k++) res[k] = f24_max(a[k], b[k], fm); break;
	default: for (int k = 0; k < 4; k++) res[k] = f24_min(a[k], b[k], fm); break;
	}
	return put_result(s, res);
}

static enum pica_step_result ex_dot(pica_step_ctx *s)
{
	const enum pica_op base = PICA_OPS[s->in->op].base;
	float a[4], b[4], res[4];
	read_src(s->t, s->u, &s->in->src[0], a);
	read_src(s->t, s->u, &s->in->src[1], b);
	if (base == PICA_OP_DPH)
		a[3] = 1.0f;
	float dot = f24_dot(a, b, base == PICA_OP_DP3 ? 3 : 4, &s->env->f24);
	res[0] = res[1] = res[2] = res[3] = dot;
	return put_result(s, res);
}

static enum pica_step_result ex_dst(pica_step_ctx *s)
{
	const f24_mode *fm = &s->env->f24;
	float a[4], b[4], res[4];
	read_src(s->t, s->u, &s->in->src[0], a);
	read_src(s->t, s->u, &s->in->src[1], b);
	if (s->in->op == PICA_OP_DSTI && s->env->dsti_swapped) {
		float tmp[4];
		memcpy(tmp, a, sizeof tmp);
		memcpy(a, b, sizeof tmp);
		memcpy(b, tmp, sizeof tmp);
	}
	res[0] = 1.0f;
	res[1] = f24_mul(a[1], b[1], fm);
	res[2] = f24_result(a[2], fm);
	res[3] = f24_result(b[3], fm);
	return put_result(s, res);
}

static enum pica_step_result ex_sfu(pica_step_ctx *s)
{
	const f24_mode *fm = &s->env->f24;
	const enum pica_op base = PICA_OPS[s->in->op].base;
	float a[4], res[4];
	read_src(s->t, s->u, &s->in->src[0], a);
	float r = base == PICA_OP_EX2 ? f24_ex2(a[0], fm)
	        : base == PICA_OP_LG2 ? f24_lg2(a[0], fm)
	        : base == PICA_OP_RCP ? f24_rcp(a[0], fm) : f24_rsq(a[0], fm);
	res[0] = res[1] = res[2] = res[3] = r;
	return put_result(s, res);
}

/* {max(a.x,0), clamp(a.y, ±127.9961), 0, max(a.w,0)}; cmp = (a.x >= 0, a.w >= 0) */
static enum pica_step_result ex_litp(pica_step_ctx *s)
{
	const f24_mode *fm = &s->env->f24;
	float a[4], res[4];
	read_src(s->t, s->u, &s->in->src[0], a);
	const float lim = (float)0x7FFF / 0x100;
	res[0] = f24_max(a[0], 0.0f, fm);
	res[1] = a[1] < -lim ? -lim : a[1] > lim ? lim : a[1];
	res[2] = 0.0f;
	res[3] = f24_max(a[3], 0.0f, fm);
	s->t->cmp[0] = a[0] >= 0.0f;
	s->t->cmp[1] = a[3] >= 0.0f;
	return put_result(s, res);
}

static enum pica_step_result ex_unary(pica_step_ctx *s)
{
	float a[4], res[4];
	read_src(s->t, s->u, &s->in->src[0], a);
	if (PICA_OPS[s->in->op].base == PICA_OP_FLR)
		for (int k = 0; k < 4; k++)
			res[k] = f24_flr(a[k], &s->env->f24);
	else
		memcpy(res, a, sizeof res);
	return put_result(s, res);
}

static enum pica_step_result ex_mad(pica_step_ctx *s)
{
	float a[4], b[4], c[4], res[4];
	read_src(s->t, s->u, &s->in->src[0], a);
	read_src(s->t, s->u, &s->in->src[1], b);
	read_src(s->t, s->u, &s->in->src[2], c);
	for (int k = 0; k < 4; k++)
		res[k] = f24_mad(a[k], b[k], c[k], &s->env->f24);
	return put_result(s, res);
}

static enum pica_step_result ex_mova(pica_step_ctx *s)
{
	float a[4];
	read_src(s->t, s->u, &s->in->src[0], a);
	if (comp_on(s->in->mask, 0))
		s->t->a0[0] = mova_value(a[0]);
	if (comp_on(s->in->mask, 1))
		s->t->a0[1] = mova_value(a[1]);
	return PICA_STEP_OK;
}

static enum pica_step_result ex_cmp(pica_step_ctx *s)
{
	float a[4], b[4];
	read_src(s->t, s->u, &s->in->src[0], a);
	read_src(s->t, s->u, &s->in->src[1], b);
	s->t->cmp[0] = pica_cmp_op(s->in->cmp_op[0], a[0], b[0]);
	s->t->cmp[1] = pica_cmp_op(s->in->cmp_op[1], a[1], b[1]);
	return PICA_STEP_OK;
}

static enum pica_step_result ex_nop(pica_step_ctx *s)
{
	(void)s;
	return PICA_STEP_OK;
}

static enum pica_step_result ex_end(pica_step_ctx *s)
{
	const pica_program *p = s->p;
	if (p->is_gs)
		return PICA_STEP_END;
	for (unsigned r = 0; r < 16; r++) {
		uint8_t miss = p->out_need[r] & (uint8_t)~s->t->o_written[r];
		if (!miss)
			continue;
		char what[80];
		snprintf(what, sizeof what, "output o%u.%s%s%s%s left unwritten at END", r,
		         miss & 1 ? "x" : "", miss & 2 ? "y" : "", miss & 4 ? "z" : "",
		         miss & 8 ? "w" : "");
		if (!hang(p, s->env, s->pc, s->d, what))
			return PICA_STEP_ERROR;
	}
	return PICA_STEP_END;
}

bool pica_flow_go(const struct pica_inst *in, const pica_uniforms *u, bool cmpx, bool cmpy)
{
	if (PICA_OPS[in->op].flags & PICA_F_CMPR)
		return pica_condition(cmpx, cmpy, in);
	if (in->fmt == PICA_FMT_3)
		return u->b[in->uniform_id & 15];
	return true;
}

bool pica_jump_go(const struct pica_inst *in, const pica_uniforms *u, bool cmpx, bool cmpy)
{
	return in->fmt == PICA_FMT_3 ? u->b[in->uniform_id & 15] == !(in->num & 1)
	                             : pica_flow_go(in, u, cmpx, cmpy);
}

static bool flow_go(const pica_step_ctx *s)
{
	return pica_flow_go(s->in, s->u, s->t->cmp[0], s->t->cmp[1]);
}

static enum pica_step_result ex_break(pica_step_ctx *s)
{
	pica_thread *t = s->t;
	if (!flow_go(s))
		return PICA_STEP_OK;
	if (!t->st.nloop)
		return hang(s->p, s->env, s->pc, s->d, "BREAK with an empty loop stack")
		       ? PICA_STEP_OK : PICA_STEP_ERROR;
	s->jump = t->st.loop[t->st.loop_top].trigger;
	RING_POP(t->st.nloop, t->st.loop_top, PICA_LOOP_DEPTH);
	return PICA_STEP_OK;
}

static enum pica_step_result ex_call(pica_step_ctx *s)
{
	const struct pica_inst *in = s->in;
	pica_thread *t = s->t;
	if (flow_go(s)) {
		pica_call_entry e = { (uint16_t)(in->target + in->num), (uint16_t)(s->pc + 1) };
		RING_PUSH(t->st.call, t->st.ncall, t->st.call_top, PICA_CALL_DEPTH, e);
		s->jump = in->target;
	}
	return PICA_STEP_OK;
}

static enum pica_step_result ex_if(pica_step_ctx *s)
{
	const struct pica_inst *in = s->in;
	pica_thread *t = s->t;
	if (flow_go(s)) {
		pica_if_entry e = { in->target, (uint16_t)(in->target + in->num) };
		RING_PUSH(t->st.ifs, t->st.nif, t->st.if_top, PICA_IF_DEPTH, e);
	} else {
		s->jump = in->target;
	}
	return PICA_STEP_OK;
}

static enum pica_step_result ex_loop(pica_step_ctx *s)
{
	const struct pica_inst *in = s->in;
	pica_thread *t = s->t;
	const uint8_t *ip = s->u->i[in->uniform_id & 3];
	pica_loop_entry e = { (uint16_t)(in->target + 1), (uint16_t)(s->pc + 1), ip[0], ip[2], t->al };
	RING_PUSH(t->st.loop, t->st.nloop, t->st.loop_top, PICA_LOOP_DEPTH, e);
	t->al = s->env->al_signed ? (int32_t)(int8_t)ip[1] : (int32_t)ip[1];
	return PICA_STEP_OK;
}

/* JMPC: the condition; JMPU: b[id] == !(NUM & 1) (NUM bit 0 inverts, §1.3). */
static enum pica_step_result ex_jmp(pica_step_ctx *s)
{
	const struct pica_inst *in = s->in;
	bool go = pica_jump_go(in, s->u, s->t->cmp[0], s->t->cmp[1]);
	if (go)
		s->jump = in->target;
	return PICA_STEP_OK;
}

static enum pica_step_result ex_setemit(pica_step_ctx *s)
{
	if (!s->p->is_gs)
		return fail(s->p, s->pc, s->d, "SETEMIT in a vertex shader (geometry shaders only)");
	s->t->emit_vtx = s->in->vtx_id;
	s->t->emit_prim = s->in->prim;
	s->t->emit_inv = s->in->inv;
	return PICA_STEP_OK;
}

static enum pica_step_result ex_emit(pica_step_ctx *s)
{
	if (!s->p->is_gs)
		return fail(s->p, s->pc, s->d, "EMIT in a vertex shader (geometry shaders only)");
	do_emit(s->t, s->p, s->env);
	return PICA_STEP_OK;
}

static enum pica_step_result ex_undoc(pica_step_ctx *s)
{
	if (s->env->undocumented == PICA_UNDOC_ERROR) {
		char what[96];
		snprintf(what, sizeof what, "undocumented opcode 0x%02x (pica.undocumented=error)",
		         s->in->opcode);
		return fail(s->p, s->pc, s->d, what);
	}
	return PICA_STEP_OK;
}

static const pica_exec_fn HANDLERS[PICA_EX_COUNT] = {
	[PICA_EX_BIN] = ex_bin, [PICA_EX_DOT] = ex_dot, [PICA_EX_DST] = ex_dst,
	[PICA_EX_SFU] = ex_sfu, [PICA_EX_LITP] = ex_litp, [PICA_EX_UNARY] = ex_unary,
	[PICA_EX_MAD] = ex_mad, [PICA_EX_MOVA] = ex_mova, [PICA_EX_CMP] = ex_cmp,
	[PICA_EX_NOP] = ex_nop, [PICA_EX_END] = ex_end, [PICA_EX_BREAK] = ex_break,
	[PICA_EX_CALL] = ex_call, [PICA_EX_IF] = ex_if, [PICA_EX_LOOP] = ex_loop,
	[PICA_EX_JMP] = ex_jmp, [PICA_EX_SETEMIT] = ex_setemit, [PICA_EX_EMIT] = ex_emit,
	[PICA_EX_UNDOC] = ex_undoc,
};

/* After the instruction: pc + 1 is offered to each stack; priority LOOP >
 * IF > CALL > JMP (§1.4). */
enum pica_step_result pica_next_pc(pica_thread *t, const pica_program *p, const pica_env *env,
                                   uint32_t pc, uint32_t jump, pica_step_info *info, ulp_diag *d)
{
	const uint32_t offered = pc + 1;
	uint32_t loop_pc = NO_PC, if_pc = NO_PC, call_pc = NO_PC;
	pica_stacks *st = &t->st;
	if (st->nloop && st->loop[st->loop_top].trigger == offered) {
		pica_loop_entry *e = &st->loop[st->loop_top];
		uint8_t step = e->step;
		t->al += env->al_signed ? (int32_t)(int8_t)step : (int32_t)step;
		if (e->remaining) {
			e->remaining--;
			loop_pc = e->start;
		} else {
			if (env->loop_restore_al && st->nloop > 1)
				t->al = e->saved_al;
			RING_POP(st->nloop, st->loop_top, PICA_LOOP_DEPTH);
			loop_pc = offered;
		}
	}
	if (st->nif && st->ifs[st->if_top].trigger == offered) {
		if_pc = st->ifs[st->if_top].target;
		RING_POP(st->nif, st->if_top, PICA_IF_DEPTH);
	}
	for (unsigned pops = 1; st->ncall && st->call[st->call_top].trigger == offered; pops++) {
		if (pops < 4)             /* the 4th return in one step is lost (§1.4) */
			call_pc = st->call[st->call_top].ret;
		RING_POP(st->ncall, st->call_top, PICA_CALL_DEPTH);
	}
	uint32_t next = loop_pc != NO_PC ? loop_pc : if_pc != NO_PC ? if_pc
	              : call_pc != NO_PC ? call_pc : jump != NO_PC ? jump : offered;
	bool popped = loop_pc != NO_PC || if_pc != NO_PC || call_pc != NO_PC;
	if (jump != NO_PC && popped &&
	    !hang(p, env, pc, d, "a jump, call or break as the last instruction of a block is never taken"))
		return PICA_STEP_ERROR;
	t->pc = next;
	info->pc = pc;
	info->taken = next != offered;
	return PICA_STEP_OK;
}

enum pica_step_result pica_step(pica_thread *t, const pica_program *p, const pica_uniforms *u,
                                const pica_env *env, pica_step_info *info, ulp_diag *d)
{
	const uint32_t pc = t->pc;
	if (pc >= p->ncode)
		return fail(p, pc, d, "the program counter ran past the end of the code without END");
	if (++t->steps > env->max_steps) {
		char what[96];
		snprintf(what, sizeof what, "watchdog: no END after %llu instructions (pica.max_steps)",
		         (unsigned long long)env->max_steps);
		return fail(p, pc, d, what);
	}
	const pica_inst_meta *m = &p->meta[pc];
	if (m->bad_desc)
		return fail(p, pc, d, "operand descriptor index past the descriptor table");
	if (m->two_inputs && !hang(p, env, pc, d, "reads two distinct input registers"))
		return PICA_STEP_ERROR;
	bool is_mova = m->exec == PICA_EX_MOVA;
	if (is_mova && t->last_was_mova && !hang(p, env, pc, d, "two adjacent MOVA instructions"))
		return PICA_STEP_ERROR;
	t->last_was_mova = is_mova;

	pica_step_ctx s = { t, p, u, env, &p->inst[pc], d, pc, NO_PC };
	enum pica_step_result r = HANDLERS[m->exec](&s);
	if (r == PICA_STEP_END) {
		info->pc = pc;
		info->taken = false;
	}
	if (r != PICA_STEP_OK)
		return r;
	return pica_next_pc(t, p, env, pc, s.jump, info, d);
}

bool pica_gs_load(const pica_program *p, const pica_gs_prim *prim, pica_thread *t,
                  pica_uniforms *u, ulp_diag *d)
{
	if (!p->is_gs)
		return ulp_diag_at(d, NULL, 0, 0, "not a geometry shader");
	const unsigned n = prim->nvtx, S = prim->stride;
	if (!S || S > 16 || prim->pos_reg >= S)
		return ulp_diag_at(d, NULL, 0, 0, "bad vertex stride %u", S);
	switch (p->gs_mode) {
	case SHBIN_GS_POINT:
		if (n * S > 16)
			return ulp_diag_at(d, NULL, 0, 0, "point mode: %u vertices of %u registers do not fit v0-v15",
			                   n, S);
		memcpy(t->v, prim->vtx, (size_t)n * S * sizeof *t->v);
		return true;
	case SHBIN_GS_VARIABLE: {
		unsigned full = p->gs_variable_num;
		if (n <= full)
			return ulp_diag_at(d, NULL, 0, 0, "variable mode: %u vertices, needs more than %u", n, full);
		unsigned regs = 1 + full * S + (n - full);
		if (regs > 96)
			return ulp_diag_at(d, NULL, 0, 0, "variable mode: %u vertices need %u registers", n, regs);
		for (int k = 0; k < 4; k++)
			u->c[0].c[k] = (float)n;
		unsigned r = 1;
		for (unsigned v = 0; v < n; v++) {
			if (v < full) {
				memcpy(&u->c[r], &prim->vtx[v * S], S * sizeof *u->c);
				r += S;
			} else {
				u->c[r++] = prim->vtx[v * S + prim->pos_reg];
			}
		}
		return true;
	}
	case SHBIN_GS_FIXED: {
		unsigned start = p->gs_fixed_start, want = p->gs_fixed_num;
		if (n != want)
			return ulp_diag_at(d, NULL, 0, 0, "fixed mode: %u vertices, the shader takes %u", n, want);
		if (start + n * S > 96)
			return ulp_diag_at(d, NULL, 0, 0, "fixed mode: vertices past c95");
		memcpy(&u->c[start], prim->vtx, (size_t)n * S * sizeof *u->c);
		return true;
	}
	default:
		return ulp_diag_at(d, NULL, 0, 0, "unknown geometry shader mode %u", p->gs_mode);
	}
}

void pica_gs_invocation_done(pica_uniforms *u) { u->b[15] = true; }

enum pica_step_result pica_run(pica_thread *t, const pica_program *p, const pica_uniforms *u,
                               const pica_env *env, ulp_diag *d)
{
	pica_step_info info;
	pica_thread_start(t, p);
	for (;;) {
		enum pica_step_result r = pica_step(t, p, u, env, &info, d);
		if (r != PICA_STEP_OK)
			return r;
	}
}
