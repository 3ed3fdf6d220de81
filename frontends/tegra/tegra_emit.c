/* Tegra fragment backend, step 3: grate assembly text from the schedule,
 * assembled with tegra_asm_assemble (isa/tegra/); and the driver
 * tegra_compile (tegra_compile.h).  Syntax: tegra-fp.md §2.2,
 * docs/tegra-isa.md. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "frontends/tegra/tegra_int.h"
#include "isa/fp20.h"
#include "isa/tegra/tegra_asm.h"
#include "isa/tegra/tegra_isa.h"

/* Register name of register number r (0..15 rN, 16..23 gN). */
static const char *tfp_reg_name(unsigned r, char buf[8])
{
	if (r < 16)
		snprintf(buf, 8, "r%u", r);
	else
		snprintf(buf, 8, "g%u", (r - 16) & 7u);
	return buf;
}

/* Shortest decimal that grate's literal reading (atof, float, truncate to
 * FP20: tegra-isa.md quirk 13) turns back into exactly these FP20 bits. */
static bool fp20_literal(uint32_t bits, char *out, size_t n)
{
	double v = fp20_decode(bits);
	if (!isfinite(v))
		return false;
	for (int prec = 1; prec <= 60; prec++) {
		snprintf(out, n, "%.*f", prec, v);
		if (tegra_grate_fp20((float)tegra_grate_atof(out)) == bits)
			return true;
	}
	return false;
}

static void put_operand(ulp_strbuf *b, const tfp_sched *S, const tfp_packet *pk, const tfp_opnd *o)
{
	char name[24], reg[8];
	bool neg = o->neg, x2 = o->x2;
	switch (o->kind) {
	case TO_VAL:
		snprintf(name, sizeof name, "%s", tfp_reg_name((unsigned)S->val[o->v].reg, reg));
		break;
	case TO_FIX:
		snprintf(name, sizeof name, "r%d%s", o->v, o->half == TO_LOW ? ".l" : o->half == TO_HIGH ? ".h" : "");
		break;
	case TO_UNIF:
		snprintf(name, sizeof name, "u%d", o->v);
		break;
	case TO_POS:
		snprintf(name, sizeof name, "%s", o->v == 2 ? "pface" : o->v ? "posy" : "posx");
		break;
	default: {
		float k = o->k;
		uint32_t bits = tfp_imm_bits(k);
		if (k == 0.0f || (bits & 0x7FFFFu) == 0) {
			snprintf(name, sizeof name, "#0");
		} else if (k == 1.0f || k == -1.0f || k == 2.0f || k == -2.0f) {
			snprintf(name, sizeof name, "#1");
			neg ^= k < 0.0f;
			x2 = k == 2.0f || k == -2.0f;
		} else {
			unsigned i = 0;
			while (i < pk->nimm && pk->imm[i] != bits)
				i++;
			snprintf(name, sizeof name, "imm%u", i);
		}
		break;
	}
	}
	ulp_strbuf_printf(b, "%s%s%s%s%s%s", neg ? "-" : "", o->abs ? "abs(" : "", name, o->abs ? ")" : "",
	          x2 ? "*2" : "", o->m1 ? "-1" : "");
}

static const char *const ALU_NAMES[] = { "MAD", "MUL", "MIN", "MAX", "CSEL" };
static const char *const CC_NAMES[] = { "", " (eq)", " (gt)", " (ge)" };

static bool put_packet(ulp_strbuf *b, const tfp_sched *S, const tfp_packet *pk)
{
	ulp_strbuf_printf(b, "\tALU:\n");
	for (unsigned k = 0; k < pk->n; k++) {
		const tfp_slot *s = &pk->slot[k];
		char reg[8];
		ulp_strbuf_printf(b, "\t\tALU%u: %s ", k, ALU_NAMES[s->alu]);
		switch (s->dkind) {
		case TD_VAL:
			ulp_strbuf_printf(b, "%s.lh", tfp_reg_name((unsigned)S->val[s->d].reg, reg));
			break;
		case TD_FIX:
			ulp_strbuf_printf(b, "r%d.%s", s->d, s->dhalf == TO_LOW ? "l*" : s->dhalf == TO_HIGH ? "*h" : "lh");
			break;
		default:
			ulp_strbuf_printf(b, "kill");
			break;
		}
		for (unsigned j = 0; j < 3; j++) {
			ulp_strbuf_printf(b, ", ");
			put_operand(b, S, pk, &s->s[j]);
		}
		ulp_strbuf_printf(b, "%s%s\n", s->sat ? " (sat)" : "", CC_NAMES[s->cc & 3u]);
	}
	if (pk->nimm) {
		char lit[3][96];
		bool decimal = true;
		for (unsigned i = 0; i < pk->nimm; i++)
			decimal &= fp20_literal(pk->imm[i], lit[i], sizeof lit[i]);
		if (decimal) {
			ulp_strbuf_printf(b, "\t\tALU3:");
			for (unsigned i = 0; i < pk->nimm; i++)
				ulp_strbuf_printf(b, "%s imm%u = %s", i ? "," : "", i, lit[i]);
			ulp_strbuf_printf(b, "\n");
		} else {
			/* no decimal literal (NaN): the raw words, not swapped by the
			 * assembler; first word A, second B, Y = B:A with imm0 at
			 * Y[4..23], imm1 at Y[24..43], imm2 at Y[44..63] (tegra-fp.md §2.4) */
			uint64_t y = 0;
			for (unsigned i = 0; i < pk->nimm; i++)
				y |= (uint64_t)(pk->imm[i] & FP20_MASK) << (4 + 20 * i);
			ulp_strbuf_printf(b, "\t\tALU3: 0x%08x, 0x%08x   // embedded constants", (unsigned)(uint32_t)y,
			          (unsigned)(uint32_t)(y >> 32));
			for (unsigned i = 0; i < pk->nimm; i++)
				ulp_strbuf_printf(b, " imm%u=0x%05x", i, (unsigned)pk->imm[i]);
			ulp_strbuf_printf(b, "\n");
		}
	}
	return true;
}

static const char *sfu_name(unsigned op)
{
	static const char *const n[] = { "nop", "rcp", "rsq", "lg2", "ex2", "sqrt", "sin", "cos",
	                                 "frc", "preex2", "presin", "precos" };
	return op < sizeof n / sizeof n[0] ? n[op] : "nop";
}

/* FP_CONST slots holding a constant some packet reads (tfp_upool). */
static uint32_t const_slots(const tfp_sched *S)
{
	uint32_t m = 0;
	for (unsigned e = 0; e < S->nexec; e++)
		for (unsigned q = 0; q < 3; q++)
			for (unsigned k = 0; k < S->ex[e].p[q].n; k++)
				for (unsigned j = 0; j < 3; j++) {
					const tfp_opnd *o = &S->ex[e].p[q].slot[k].s[j];
					if (o->kind == TO_UNIF && (S->up->used >> o->v & 1u))
						m |= 1u << o->v;
				}
	return m;
}

static bool emit_text(const tfp_sched *S, const tfp_prog *p, ulp_strbuf *b)
{
	ulp_strbuf_printf(b, "// ulpsim tgsi compile --target tegra: %s\n", p->file);
	if (p->runtime_loops)
		ulp_strbuf_printf(b, "// loops with a run-time exit unrolled %u times (exact up to that trip count)\n",
		                  p->loop_bound);
	ulp_strbuf_printf(b, "alu_buffer_size = %u\n", S->rows);
	ulp_strbuf_printf(b, "pseq_to_dw_exec_nb = %u\n\n", S->dw_exec + 1);
	uint32_t consts = const_slots(S);
	if (consts) {   /* constants the scheduler moved out of full packets */
		ulp_strbuf_printf(b, ".constants\n");
		for (unsigned k = 0; k < TEGRA_FP_NUM_CONST; k++)
			if (consts >> k & 1u)
				ulp_strbuf_printf(b, "\t[%u] = 0x%05X;\n", k, (unsigned)S->up->bits[k]);
		ulp_strbuf_printf(b, "\n");
	}
	if (p->upacked) {   /* the packed uniform layout, named for the driver */
		ulp_strbuf_printf(b, ".uniforms\n");
		for (unsigned k = 0; k < TEGRA_FP_NUM_CONST; k++)
			if (p->usrc[k] >= 0)
				ulp_strbuf_printf(b, "\t[%u] = \"CONST[0][%d].%c\";\n", k, p->usrc[k] / 4,
				                  "xyzw"[p->usrc[k] % 4]);
		ulp_strbuf_printf(b, "\n");
	}
	ulp_strbuf_printf(b, ".asm\n");
	for (unsigned e = 0; e < S->nexec; e++) {
		const tfp_exec *x = &S->ex[e];
		ulp_strbuf_printf(b, "EXEC\n");
		if (x->fetch)   /* the destination pixel (render target 1) into r2, r3 of the row */
			ulp_strbuf_printf(b, "\tPSEQ:\t0x0081000A\n");
		for (unsigned m = 0; m < x->nm; m++) {
			const tfp_minst *mi = &x->m[m];
			ulp_strbuf_printf(b, "\tMFU:");
			if (mi->setup)   /* perspective set-up (tegra-fp.md §2.4, §3.4) */
				ulp_strbuf_printf(b, " sfu: rcp r4\n\t\tmul0: bar, sfu, bar0\n\t\tmul1: bar, sfu, bar1\n\t\t");
			else if (mi->wread)   /* 1/w: the SFU operand r4 (tegra.mfu.w_reg), copied by mul0 */
				ulp_strbuf_printf(b, " sfu: nop r4\n\t\tmul0: r%u, sfu, #1%s", mi->wdst,
				          mi->var_mask ? "\n\t\t" : "");
			else if (mi->sfu_used)
				ulp_strbuf_printf(b, " sfu: %s r%u%s", sfu_name(mi->sfu_op), mi->sfu_reg,
				          mi->var_mask ? "\n\t\t" : "");
			else
				ulp_strbuf_printf(b, " ");
			if (mi->var_mask) {
				ulp_strbuf_printf(b, "ipl:");
				for (unsigned c = 0; c < 4; c++) {
					if (mi->var_mask & (1u << c))
						ulp_strbuf_printf(b, "%s t%u.fp20", c ? "," : "", mi->var_row[c]);
					else
						ulp_strbuf_printf(b, "%s NOP", c ? "," : "");
				}
			}
			ulp_strbuf_printf(b, "\n");
		}
		if (x->tex) {   /* coordinates r0, r1 (bias r3), texel r2, r3 of the row */
			if (x->tex_bias)
				ulp_strbuf_printf(b, "\tTEX: txb r2, r3, tex%u, r0, r1, r2, r3\n", x->tex_sampler);
			else
				ulp_strbuf_printf(b, "\tTEX: tex r2, r3, tex%u, r0, r1, r2\n", x->tex_sampler);
		}
		unsigned np = 0;
		for (unsigned q = 0; q < 3; q++)
			if (x->p[q].n)
				np = q + 1;
		for (unsigned q = 0; q < np; q++)
			if (!put_packet(b, S, &x->p[q]))
				return false;
		if (x->dw)
			ulp_strbuf_printf(b, "\tDW: store rt1, r2, r3\n");
		ulp_strbuf_printf(b, ";\n");
	}
	return true;
}

/* arith=exact (docs/exact.md): the binary32 each constant source of the
 * assembled program was encoded from, in emission order (put_packet's):
 * an embedded immediate, or #0 for a value FP20 cannot hold (a tiny
 * epsilon).  A constant folded at compile time carries the fold in
 * binary32 (tfp_xval: what exact mode's ALU would compute, beside the FP20
 * result the words hold), also where its FP20 is #0/#1; #1 and exact zeros
 * otherwise need none.  Constants moved to FP_CONST words (the scheduler's upool) are kept
 * per word.  Each entry is checked against the assembled packet: a source
 * that is not a constant there keeps none. */
static void fill_ximm(const tfp_sched *S, tegra_compile_result *res)
{
	tegra_fp_ximm *x = &res->ximm;
	unsigned pi = 0;
	for (unsigned e = 0; e < S->nexec; e++) {
		const tfp_exec *ex = &S->ex[e];
		unsigned np = 0;
		for (unsigned q = 0; q < 3; q++)
			if (ex->p[q].n)
				np = q + 1;
		for (unsigned q = 0; q < np && pi < TEGRA_FP_MAX_ALU_PACKETS; q++, pi++) {
			const tfp_packet *pk = &ex->p[q];
			for (unsigned k = 0; k < pk->n && k < 4; k++)
				for (unsigned j = 0; j < 3; j++) {
					const tfp_opnd *o = &pk->slot[k].s[j];
					if (o->kind != TO_IMM)
						continue;
					float xk = tfp_xval(o);
					if (xk != xk || (xk == o->k && (o->k == 0.0f || o->k == 1.0f ||
					                                o->k == -1.0f || o->k == 2.0f || o->k == -2.0f)))
						continue;   /* #0 / #1 exactly; NaN stays raw */
					x->k[pi][k][j] = xk;
					x->mask[pi] |= (uint16_t)(1u << (3 * k + j));
				}
		}
	}
	x->count = pi;
	if (x->count != res->prog.alu_packet_count) {
		memset(x, 0, sizeof *x);
		return;
	}
	for (unsigned p = 0; p < x->count; p++) {
		memcpy(x->words[p], res->prog.alu[p], sizeof x->words[p]);
		tegra_alu_packet dec;
		tegra_alu_packet_decode(res->prog.alu[p], &dec);
		for (unsigned k = 0; k < 4; k++) {
			const tegra_alu_src *src[3] = { &dec.slot[k].a, &dec.slot[k].b, &dec.slot[k].c };
			for (unsigned j = 0; j < 3; j++)
				if (src[j]->cls != TEGRA_REG_IMM && src[j]->cls != TEGRA_REG_CONST01)
					x->mask[p] &= (uint16_t)~(1u << (3 * k + j));
		}
	}
	for (unsigned u = 0; u < TEGRA_FP_NUM_CONST; u++)
		if ((S->up->used & ~S->up->kconflict) >> u & 1u) {
			x->uk[u] = S->up->k[u];
			x->umask |= 1u << u;
		}
}

/* Places p with the fewest rows first (more quads in flight: MAX_QID = 299
 * / (4 rows), tegra-fp.md §5); when registers run out, less hoisting. */
static bool schedule(const tfp_prog *p, tfp_sched *S, ir_error *e)
{
	static const int32_t windows[] = { -1, 8, 0 };
	for (unsigned w = 0; w < 3; w++) {
		for (unsigned rows = 1; rows <= 4; rows++) {
			ir_error e2;
			memset(&e2, 0, sizeof e2);
			ulp_diag_clear(&e2.d);
			if (tegra_schedule_best(p, rows, windows[w], S, &e2))
				return true;
			tfp_sched_free(S);
			if (e2.why != IR_REFUSE_REGISTERS || (rows == 4 && w == 2)) {
				*e = e2;
				return false;
			}
		}
	}
	return false;
}

/* Lowers with a loop bound and schedules; on failure p and S are freed and
 * *retry says whether a smaller bound may fit (a loop with a run-time exit,
 * out of room or registers). */
static bool attempt(const ir_shader *s, const tgsi_shader *sh, const tegra_compile_opts *o, unsigned bound,
                    tfp_prog *p, tfp_sched *S, ir_error *e, bool *retry)
{
	memset(e, 0, sizeof *e);
	ulp_diag_clear(&e->d);
	bool ok = tegra_lower(s, sh, o, bound, p, e) && schedule(p, S, e);
	*retry = !ok && p->runtime_loops && (e->why == IR_REFUSE_LIMITS || e->why == IR_REFUSE_REGISTERS);
	if (!ok)
		tfp_prog_free(p);
	return ok;
}

static bool compile_ir(tgsi_shader *sh, ir_shader *s, const tegra_compile_opts *o, tegra_compile_result *res,
                       ir_error *e)
{
	ir_caps caps;
	tegra_ir_caps(&caps);
	if (!ir_lower(s, &caps, e))
		return false;
	/* a loop with a run-time exit is unrolled as often as fits: the bounds
	 * are tried from the largest down while the program does not fit, then
	 * refined between the last that fits and the one above it */
	static const unsigned bounds[] = { TEGRA_LOOP_BOUND_MAX, 24, 16, 12, 8, 6, 4, 3, 2, 1 };
	const unsigned nbounds = sizeof bounds / sizeof bounds[0];
	tfp_prog p;
	tfp_sched S;
	bool ok = false;
	unsigned bound = 0, bi = 0;
	for (; bi < nbounds && !ok; bi++) {
		ir_error e1;
		bound = bounds[bi];
		bool retry = false;
		ok = attempt(s, sh, o, bound, &p, &S, &e1, &retry);
		if (!ok && !(retry && bi + 1 < nbounds)) {
			*e = e1;
			return false;
		}
	}
	for (unsigned lo = bound, hi = bi >= 2 ? bounds[bi - 2] : bound; ok && p.runtime_loops && hi > lo + 1;) {
		unsigned mid = lo + (hi - lo) / 2;
		tfp_prog p2;
		tfp_sched S2;
		ir_error e2;
		bool retry;
		if (attempt(s, sh, o, mid, &p2, &S2, &e2, &retry)) {
			tfp_sched_free(&S);
			tfp_prog_free(&p);
			p = p2;
			S = S2;
			bound = lo = mid;
		} else {
			hi = mid;
		}
	}
	if (ok) {
		p.loop_bound = bound;
		ulp_strbuf b = { 0 };
		if (!emit_text(&S, &p, &b) || b.oom) {
			ok = ir_refuse(e, IR_REFUSE_CONSTANTS, s->file, 1, 1, "an immediate has no FP20 literal");
			free(b.s);
		} else {
			res->asm_text = b.s;
			res->asm_len = b.len;
			res->rows = S.rows;
			res->execs = S.nexec;
			res->mfu_insts = S.minsts;
			res->alu_packets = S.packets;
			res->alu_slots = S.slots;
			res->tram_rows = p.tram_rows;
			res->kills = p.has_kill;
			res->loop_bound = p.runtime_loops ? bound : 0;
			res->uniforms_packed = p.upacked;
			memcpy(res->uniform_src, p.usrc, sizeof res->uniform_src);
			for (unsigned k = 0; k < TEGRA_FP_NUM_CONST; k++)
				if (S.up->used >> k & 1u)   /* the program's own constant */
					res->uniform_src[k] = -1;
			ulp_diag d;
			ulp_diag_clear(&d);
			if (!tegra_asm_assemble(b.s, b.len, "<tegra backend>", &res->prog, &d))
				ok = ir_refuse(e, IR_REFUSE_LIMITS, s->file, 1, 1,
				               "internal error: the generated assembly is refused: %s:%d:%d: %s",
				               d.file, d.line, d.col, d.msg);
			else
				fill_ximm(&S, res);
		}
		tfp_sched_free(&S);
	}
	tfp_prog_free(&p);
	return ok;
}

/* DDX/DDY need a pixel's quad neighbours; no public source shows a way for
 * the fragment units to read them (registers 72-75 are posx, posy, an
 * unknown 74 and pface, tegra-fp.md §2.3; the MFU interpolates at its own
 * pixel only), so they are refused with that reason rather than guessed. */
static bool derivatives_ok(const tgsi_shader *sh, const char *file, ir_error *e)
{
	for (size_t i = 0; i < sh->num_insts; i++) {
		unsigned op = sh->insts[i].opcode;
		if (op == TGSI_OPCODE_DDX || op == TGSI_OPCODE_DDY || op == TGSI_OPCODE_DDX_FINE ||
		    op == TGSI_OPCODE_DDY_FINE)
			return ir_refuse(e, IR_REFUSE_OPCODE, file, sh->insts[i].line ? sh->insts[i].line : 1,
			                 sh->insts[i].col ? sh->insts[i].col : 1, "%s: derivatives need the pixel's "
			                 "quad neighbours; no known register or unit of the Tegra fragment pipeline "
			                 "reads them (tegra-fp.md §2.3)", tgsi_get_opcode_info(op)->mnemonic);
	}
	return true;
}

bool tegra_compile(tgsi_shader *sh, const char *file, tegra_compile_result *res)
{
	static const tegra_compile_opts dflt = { 0 };
	return tegra_compile_with(sh, file, &dflt, res);
}

bool tegra_compile_with(tgsi_shader *sh, const char *file, const tegra_compile_opts *opts,
                        tegra_compile_result *res)
{
	memset(res, 0, sizeof *res);
	ir_error e;
	memset(&e, 0, sizeof e);
	ulp_diag_clear(&e.d);
	file = file ? file : "";
	if (sh->processor != TGSI_PROCESSOR_FRAGMENT) {
		ir_refuse(&e, IR_REFUSE_STAGE, file, 1, 1, "%s shader: the Tegra GR3D fragment unit "
		          "runs fragment shaders only", tgsi_processor_name(sh->processor));
	} else if (!derivatives_ok(sh, file, &e)) {
		/* refused with the reason */
	} else {
		ir_shader *s = ir_from_tgsi(sh, file, &e);
		if (s) {
			compile_ir(sh, s, opts, res, &e);
			ir_shader_free(s);
		}
	}
	res->why = e.d.set ? (e.why ? e.why : IR_REFUSE_MALFORMED) : IR_OK;
	res->d = e.d;
	if (res->why != IR_OK) {
		free(res->asm_text);
		res->asm_text = NULL;
		res->asm_len = 0;
	}
	return res->why == IR_OK;
}

void tegra_compile_result_free(tegra_compile_result *res)
{
	free(res->asm_text);
	res->asm_text = NULL;
	res->asm_len = 0;
}
