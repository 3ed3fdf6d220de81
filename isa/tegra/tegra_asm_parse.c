/* Parser for grate's fragment assembly: recursive descent over the grammar
 * of grate-driver/grate src/libgrate/fragment_asm.y, with the same
 * accept/refuse decisions and the same words (quirks: corpus README). */
#include "isa/tegra/tegra_asm.h"

#include <stdint.h>
#include <string.h>

#include "isa/fx10.h"

#include "isa/tegra/tegra_asm_int.h"

/* ---- cursor and diagnostics, shared with tegra_asm_alu.c ------------------ */

void tg_next(tegra_asm_ctx *c)
{
	c->cur = tegra_lex_next(&c->lx);
}

bool tg_err_at(tegra_asm_ctx *c, const tegra_token *t, const char *msg)
{
	return ulp_diag_at(c->d, c->file, t->line, t->col, "%s", msg);
}

bool tg_syntax_error(tegra_asm_ctx *c)
{
	char buf[80];
	return ulp_diag_at(c->d, c->file, c->cur.line, c->cur.col, "syntax error at %s",
	                   tegra_tok_describe(&c->cur, buf, sizeof buf));
}

bool tg_accept(tegra_asm_ctx *c, int kind)
{
	if (c->cur.kind != kind)
		return false;
	tg_next(c);
	return true;
}

bool tg_expect(tegra_asm_ctx *c, int kind)
{
	return tg_accept(c, kind) || tg_syntax_error(c);
}

/* Takes a token of the given kind into *t. */
bool tg_take(tegra_asm_ctx *c, int kind, tegra_token *t)
{
	*t = c->cur;
	if (c->cur.kind != kind)
		return tg_syntax_error(c);
	if (kind == TK_NUMBER) {
		/* grate's atoi() keeps a number's low 32 bits: past them it wraps
		 * (4294967297 reads as 1), so refuse it instead of assembling
		 * another index or count; up to 2^32 - 1 the 32-bit fields
		 * (pseq_to_dw_exec_nb) keep what was written, as the disassembler
		 * prints them */
		uint64_t v = 0;
		for (size_t i = 0; i < t->len && v <= UINT32_MAX; i++)
			v = v * 10 + (uint64_t)(t->text[i] - '0');
		if (v > UINT32_MAX)
			return tg_err_at(c, t, "number out of range (at most 4294967295)");
	}
	tg_next(c);
	return true;
}

/* ---- .constants / .uniforms ----------------------------------------------- */

static bool parse_constant(tegra_asm_ctx *c)
{
	tegra_token idx, val;
	int half = -1;   /* -1 whole word, 0 .l, 1 .h */
	if (!tg_expect(c, TK_LBRACKET) || !tg_take(c, TK_NUMBER, &idx) || !tg_expect(c, TK_RBRACKET))
		return false;
	if (tg_accept(c, TK_DOT)) {
		if (tg_accept(c, TK_LOW))
			half = 0;
		else if (tg_accept(c, TK_HIGH))
			half = 1;
		else
			return tg_syntax_error(c);
	}
	if (!tg_expect(c, TK_EQUALS))
		return false;
	if (c->cur.kind != TK_FLOAT && c->cur.kind != TK_HEX)
		return tg_syntax_error(c);
	val = c->cur;
	tg_next(c);
	if (!tg_expect(c, TK_SEMI))
		return false;
	if (idx.u > 31)
		return tg_err_at(c, &idx, "Invalid constant index, max 31");
	uint32_t *k = &c->p->constants[idx.u];
	if (half < 0) {
		*k = val.kind == TK_FLOAT ? tegra_grate_fp20(val.f) : (uint32_t)val.u;  /* hex unmasked */
	} else {
		uint32_t v = val.kind == TK_FLOAT ? tegra_grate_fx10(val.f) : (uint32_t)(val.u & FX10_MASK);
		if (half == 0)
			*k = (*k & ~FX10_MASK) | v;
		else
			*k = (*k & FX10_MASK) | v << FX10_HIGH_SHIFT;
	}
	return true;
}

static bool name_half(tegra_asm_ctx *c, const tegra_token *at, unsigned h, uint8_t kind,
                      const tegra_token *str)
{
	tegra_fp_uniform_half *u = &c->p->uniforms[h];
	if (u->used)
		return tg_err_at(c, at, "Overriding uniform name");
	size_t n = str->len - 2;   /* without the quotes; the lexer bounds it */
	memcpy(u->name, str->text + 1, n);
	u->name[n] = '\0';
	u->kind = kind;
	u->used = true;
	return true;
}

static bool parse_uniform(tegra_asm_ctx *c)
{
	tegra_token idx, str;
	uint8_t kind = TEGRA_UNIFORM_FP20;
	if (!tg_expect(c, TK_LBRACKET) || !tg_take(c, TK_NUMBER, &idx) || !tg_expect(c, TK_RBRACKET))
		return false;
	if (tg_accept(c, TK_DOT)) {
		if (tg_accept(c, TK_LOW))
			kind = TEGRA_UNIFORM_FX10_LOW;
		else if (tg_accept(c, TK_HIGH))
			kind = TEGRA_UNIFORM_FX10_HIGH;
		else
			return tg_syntax_error(c);
	}
	if (!tg_expect(c, TK_EQUALS) || !tg_take(c, TK_STRING, &str) || !tg_expect(c, TK_SEMI))
		return false;
	if (idx.u > 31)
		return tg_err_at(c, &idx, "Invalid uniform index");
	unsigned h = (unsigned)idx.u * 2;
	if (kind != TEGRA_UNIFORM_FX10_HIGH && !name_half(c, &idx, h, kind, &str))
		return false;
	if (kind != TEGRA_UNIFORM_FX10_LOW && !name_half(c, &idx, h + 1, kind, &str))
		return false;
	return true;
}

/* ---- MFU ------------------------------------------------------------------ */

static bool parse_mul_dst(tegra_asm_ctx *c, unsigned *v)
{
	tegra_token t = c->cur;
	switch (t.kind) {
	case TK_MUL_DST: *v = (unsigned)(t.u & 7); break;      /* stored mod 8 (quirk 9) */
	case TK_BAR: *v = TEGRA_MUL_DST_BAR; break;
	case TK_ROW:
		if (t.u > 3)
			return tg_err_at(c, &t, "Invalid row register number, r3 max");
		*v = TEGRA_MUL_DST_R0 + (unsigned)t.u;
		break;
	default: return tg_syntax_error(c);
	}
	tg_next(c);
	return true;
}

static bool parse_mul_src(tegra_asm_ctx *c, unsigned *v)
{
	tegra_token t = c->cur;
	switch (t.kind) {
	case TK_ROW:
		if (t.u > 3)
			return tg_err_at(c, &t, "Invalid row register number, r3 max");
		*v = TEGRA_MUL_SRC_R0 + (unsigned)t.u;
		break;
	case TK_SFU_SRC: case TK_BAR0: case TK_BAR1: *v = (unsigned)t.u; break;
	case TK_CONST01:
		if (t.u != 1)
			return tg_err_at(c, &t, "Invalid constant, should be #1");
		*v = TEGRA_MUL_SRC_ONE;
		break;
	case TK_MUL_SRC: *v = (unsigned)(t.u & 15); break;     /* stored mod 16 */
	default: return tg_syntax_error(c);
	}
	tg_next(c);
	return true;
}

static bool parse_var_body(tegra_asm_ctx *c, tegra_mfu_inst *m, int k)
{
	if (tg_accept(c, TK_NOP)) {
		m->var[k].op = TEGRA_VAR_NOP;
		m->var[k].tram_row = 0;
		return true;
	}
	tegra_token row;
	if (!tg_take(c, TK_TRAM_ROW, &row) || !tg_expect(c, TK_DOT))
		return false;
	if (tg_accept(c, TK_FP20))
		m->var[k].op = TEGRA_VAR_FP20;
	else if (tg_accept(c, TK_FX10))
		m->var[k].op = TEGRA_VAR_FX10;
	else
		return tg_syntax_error(c);
	if (row.u > 15)
		return tg_err_at(c, &row, "Invalid TRAM row number, should be 0..15");
	m->var[k].tram_row = (uint8_t)row.u;
	return true;
}

static bool parse_var(tegra_asm_ctx *c, tegra_mfu_inst *m, int k)
{
	if (tg_accept(c, TK_SAT)) {
		if (!tg_expect(c, TK_LPAREN) || !parse_var_body(c, m, k) || !tg_expect(c, TK_RPAREN))
			return false;
		m->var[k].saturate = true;
		return true;
	}
	m->var[k].saturate = false;
	return parse_var_body(c, m, k);
}

static bool parse_mfu_func(tegra_asm_ctx *c, tegra_mfu_inst *m)
{
	int kind = c->cur.kind;
	tg_next(c);
	if (kind == TK_SFU_CLAUSE) {
		unsigned op;
		if (c->cur.kind == TK_NOP)
			op = TEGRA_SFU_NOP;
		else if (c->cur.kind == TK_SFU_OP)
			op = (unsigned)c->cur.u;
		else
			return tg_syntax_error(c);
		tg_next(c);
		tegra_token r;
		if (!tg_take(c, TK_ROW, &r))
			return false;
		m->sfu_op = (uint8_t)op;
		m->sfu_reg = (uint8_t)(r.u & 63);    /* 6-bit field, r70 -> 6 (quirk 9) */
		return true;
	}
	if (kind == TK_MUL0 || kind == TK_MUL1) {
		unsigned dst = 0, s0 = 0, s1 = 0;
		if (!parse_mul_dst(c, &dst) || !tg_expect(c, TK_COMMA) || !parse_mul_src(c, &s0) ||
		    !tg_expect(c, TK_COMMA) || !parse_mul_src(c, &s1))
			return false;
		int i = kind == TK_MUL1;
		m->mul[i].dst = (uint8_t)dst;
		m->mul[i].src0 = (uint8_t)s0;
		m->mul[i].src1 = (uint8_t)s1;
		return true;
	}
	/* ipl: four interpolations, var k -> rk */
	tegra_mfu_inst tmp = *m;
	for (int k = 0; k < 4; k++) {
		if (k && !tg_expect(c, TK_COMMA))
			return false;
		if (!parse_var(c, &tmp, k))
			return false;
	}
	*m = tmp;
	return true;
}

static bool is_mfu_func(int kind)
{
	return kind == TK_SFU_CLAUSE || kind == TK_MUL0 || kind == TK_MUL1 || kind == TK_IPL;
}

static bool parse_mfu(tegra_asm_ctx *c, unsigned *count, unsigned *first)
{
	tegra_token at = c->cur;
	tegra_fp_program *p = c->p;
	tg_next(c);   /* MFU: */
	if (p->mfu_count >= TEGRA_FP_MAX_MFU)
		return tg_err_at(c, &at, "Over 64 MFU instructions in total");
	uint32_t *w = p->mfu[p->mfu_count];
	if (c->cur.kind == TK_HEX) {
		uint32_t hi = (uint32_t)c->cur.u;
		tg_next(c);
		if (!tg_expect(c, TK_COMMA) || c->cur.kind != TK_HEX)
			return c->d->set ? false : tg_syntax_error(c);
		w[0] = hi;
		w[1] = (uint32_t)c->cur.u;
		tg_next(c);
	} else if (tg_accept(c, TK_NOP)) {
		/* an all-zero, counted instruction (quirk 8) */
	} else if (is_mfu_func(c->cur.kind)) {
		tegra_mfu_inst m;
		tegra_mfu_decode(w[0], w[1], &m);
		for (int i = 0; i < 4 && is_mfu_func(c->cur.kind); i++)
			if (!parse_mfu_func(c, &m))
				return false;
		uint64_t x = tegra_mfu_encode(&m);
		w[0] = (uint32_t)(x >> 32);
		w[1] = (uint32_t)x;
	} else {
		return tg_syntax_error(c);
	}
	if (*count + 1 > TEGRA_FP_MAX_PER_EXEC)
		return tg_err_at(c, &at, "Over 3 MFU instructions per exec batch");
	if (*count == 0)
		*first = p->mfu_count;
	(*count)++;
	p->mfu_count++;
	return true;
}

/* ---- EXEC ----------------------------------------------------------------- */

static bool parse_tex(tegra_asm_ctx *c, uint32_t *word)
{
	tg_next(c);   /* TEX: */
	if (c->cur.kind == TK_HEX) {
		*word = (uint32_t)c->cur.u;
		tg_next(c);
		return true;
	}
	if (tg_accept(c, TK_NOP))
		return true;
	bool bias = c->cur.kind == TK_TXB_OP;
	if (c->cur.kind != TK_TEX_OP && !bias)
		return tg_syntax_error(c);
	tegra_token at = c->cur, r[6], smp;
	tg_next(c);
	int nsrc = bias ? 4 : 3;
	if (!tg_take(c, TK_ROW, &r[0]) || !tg_expect(c, TK_COMMA) || !tg_take(c, TK_ROW, &r[1]) ||
	    !tg_expect(c, TK_COMMA) || !tg_take(c, TK_SAMPLER, &smp))
		return false;
	for (int i = 0; i < nsrc; i++)
		if (!tg_expect(c, TK_COMMA) || !tg_take(c, TK_ROW, &r[2 + i]))
			return false;
	tegra_tex_inst t;
	memset(&t, 0, sizeof t);
	t.enable = true;
	t.bias = bias;
	if (r[0].u == 0 && r[1].u == 1)
		t.dst_r2 = false;
	else if (r[0].u == 2 && r[1].u == 3)
		t.dst_r2 = true;
	else
		return tg_err_at(c, &at, "TEX destination registers should be either \"r0,r1\" or \"r2,r3\"");
	if (smp.u > 15)
		return tg_err_at(c, &smp, "Invalid TEX sampler id, 15 is maximum");
	t.sampler = (uint8_t)smp.u;
	bool lo = r[2].u == 0 && r[3].u == 1 && r[4].u == 2 && (!bias || r[5].u == 3);
	bool hi = r[2].u == 2 && r[3].u == 3 && r[4].u == 0 && (!bias || r[5].u == 1);
	if (!lo && !hi)
		return tg_err_at(c, &at, bias ? "TXB source registers should be either \"r0,r1,r2,r3\" or \"r2,r3,r0,r1\""
		                           : "TEX source registers should be either \"r0,r1,r2\" or \"r2,r3,r0\"");
	t.src_r2 = hi;
	*word = tegra_tex_encode(&t);
	return true;
}

static bool parse_dw(tegra_asm_ctx *c, uint32_t *word)
{
	tg_next(c);   /* DW: */
	if (c->cur.kind == TK_HEX) {
		*word = (uint32_t)c->cur.u;
		tg_next(c);
		return true;
	}
	if (tg_accept(c, TK_NOP))
		return true;
	if (!tg_expect(c, TK_STORE))
		return false;
	if (tg_accept(c, TK_STENCIL)) {
		*word = TEGRA_DW_STORE_STENCIL;
		return true;
	}
	tegra_token rt, a, b;
	if (!tg_take(c, TK_RT, &rt) || !tg_expect(c, TK_COMMA) || !tg_take(c, TK_ROW, &a) ||
	    !tg_expect(c, TK_COMMA) || !tg_take(c, TK_ROW, &b))
		return false;
	tegra_dw_inst dw;
	tegra_dw_decode(TEGRA_DW_STORE_BASE, &dw);
	if (a.u == 0 && b.u == 1)
		dw.src_r2 = false;
	else if (a.u == 2 && b.u == 3)
		dw.src_r2 = true;
	else
		return tg_err_at(c, &a, "DW source registers should be either \"r0,r1\" or \"r2,r3\"");
	if (rt.u > 15)
		return tg_err_at(c, &rt, "Invalid DW render target, 15 is maximum");
	dw.rt = (uint8_t)rt.u;
	*word = tegra_dw_encode(&dw);
	return true;
}

static bool parse_exec(tegra_asm_ctx *c)
{
	tegra_fp_program *p = c->p;
	tegra_token at = c->cur;
	tg_next(c);   /* EXEC */
	if (p->exec_count >= TEGRA_FP_MAX_EXEC)
		return tg_err_at(c, &at, "Over 64 exec batches");
	unsigned e = p->exec_count;
	if (tg_accept(c, TK_PSEQ)) {
		if (c->cur.kind == TK_HEX)
			p->pseq[e] = (uint32_t)c->cur.u;
		else if (c->cur.kind != TK_NOP)
			return tg_syntax_error(c);
		tg_next(c);
	}
	unsigned n = 0, first = 0;
	while (c->cur.kind == TK_MFU)
		if (!parse_mfu(c, &n, &first))
			return false;
	/* an EXEC without MFU gets schedule word 0 (quirk 8) */
	p->mfu_sched[e] = n ? tegra_sched_encode((tegra_sched){ (uint8_t)n, (uint8_t)first }) : 0;
	if (c->cur.kind == TK_TEX && !parse_tex(c, &p->tex[e]))
		return false;
	n = first = 0;
	while (c->cur.kind == TK_ALU)
		if (!tg_parse_alu_packet(c, &n, &first))
			return false;
	p->alu_sched[e] = n ? tegra_sched_encode((tegra_sched){ (uint8_t)n, (uint8_t)first }) : 0;
	if (tg_accept(c, TK_ALU_COMPLEMENT)) {
		if (c->cur.kind != TK_HEX)
			return tg_syntax_error(c);
		p->alu_complement[e] = (uint32_t)c->cur.u;
		tg_next(c);
	}
	if (c->cur.kind == TK_DW && !parse_dw(c, &p->dw[e]))
		return false;
	if (!tg_expect(c, TK_SEMI))
		return false;
	p->exec_count++;
	return true;
}

static bool parse_global(tegra_asm_ctx *c, bool size)
{
	tg_next(c);
	tegra_token n;
	if (!tg_expect(c, TK_EQUALS) || !tg_take(c, TK_NUMBER, &n))
		return false;
	if (size) {
		if (n.u != 0 && n.u > 4)
			return tg_err_at(c, &n, "Invalid ALU buffer size, should be 1-4");
		c->p->alu_buffer_size = (uint32_t)n.u;
	} else {
		c->p->pseq_to_dw_exec_nb = (uint32_t)n.u;
	}
	return true;
}

bool tegra_asm_assemble(const char *src, size_t len, const char *file,
                        tegra_fp_program *out, ulp_diag *d)
{
	tegra_asm_ctx c;
	memset(&c, 0, sizeof c);
	memset(out, 0, sizeof *out);
	out->alu_buffer_size = 1;
	out->pseq_to_dw_exec_nb = 1;
	for (unsigned i = 0; i < TEGRA_FP_MAX_ALU_PACKETS; i++)
		for (unsigned k = 0; k < 4; k++) {
			out->alu[i][2 * k] = TEGRA_ALU_NOP_HI;
			out->alu[i][2 * k + 1] = TEGRA_ALU_NOP_LO;
		}
	c.file = file;
	c.d = d;
	c.p = out;
	tegra_lex_init(&c.lx, src, len);
	tg_next(&c);
	while (c.cur.kind != TK_EOF) {
		bool ok = true;
		switch (c.cur.kind) {
		case TK_ASM:
			tg_next(&c);
			while (ok && c.cur.kind == TK_EXEC)
				ok = parse_exec(&c);
			break;
		case TK_CONSTANTS:
			tg_next(&c);
			while (ok && c.cur.kind == TK_LBRACKET)
				ok = parse_constant(&c);
			break;
		case TK_UNIFORMS:
			tg_next(&c);
			while (ok && c.cur.kind == TK_LBRACKET)
				ok = parse_uniform(&c);
			break;
		case TK_ALU_BUFFER_SIZE: ok = parse_global(&c, true); break;
		case TK_PSEQ_DW_EXEC_NB: ok = parse_global(&c, false); break;
		default: ok = tg_syntax_error(&c); break;
		}
		if (!ok)
			return false;
	}
	if (out->exec_count == 0)
		return tg_err_at(&c, &c.cur, "No fragment instructions generated");
	return true;
}
