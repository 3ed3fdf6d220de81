/* Lexer for grate's fragment assembly language (see tegra_asm_int.h). */
#include "isa/tegra/tegra_asm_int.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "isa/tegra/tegra_isa.h"

/* Word-like rules in grate's order: a caseless prefix, then optionally
 * min..max digits no greater than maxd, then a caseless suffix. */
typedef struct lex_rule {
	const char *prefix;
	uint8_t min_digits, max_digits;
	char maxd;
	const char *suffix;
	int tok;
	uint64_t val;          /* value when the rule has no digits */
} lex_rule;

#define LIT(s, t, v) { s, 0, 0, '9', "", t, v }
#define DIG(p, lo, hi, mx, sfx, t) { p, lo, hi, mx, sfx, t, 0 }

/* Order of grate-driver/grate src/libgrate/fragment_asm.l after the
 * blank/comment/number/string rules, which tegra_lex_next handles. */
static const lex_rule word_rules[] = {
	LIT("PSEQ:", TK_PSEQ, 0), LIT("MFU:", TK_MFU, 0), LIT("TEX:", TK_TEX, 0),
	LIT("ALU:", TK_ALU, 0), DIG("ALU", 1, 1, '3', ":", TK_ALUX),
	LIT("ALU_COMPLEMENT:", TK_ALU_COMPLEMENT, 0), LIT("DW:", TK_DW, 0),
	LIT("NOP", TK_NOP, 0),
	LIT("RCP", TK_SFU_OP, TEGRA_SFU_RCP), LIT("RSQ", TK_SFU_OP, TEGRA_SFU_RSQ),
	LIT("LG2", TK_SFU_OP, TEGRA_SFU_LG2), LIT("EX2", TK_SFU_OP, TEGRA_SFU_EX2),
	LIT("SQRT", TK_SFU_OP, TEGRA_SFU_SQRT), LIT("SIN", TK_SFU_OP, TEGRA_SFU_SIN),
	LIT("COS", TK_SFU_OP, TEGRA_SFU_COS), LIT("FRC", TK_SFU_OP, TEGRA_SFU_FRC),
	LIT("PREEX2", TK_SFU_OP, TEGRA_SFU_PREEX2), LIT("PRESIN", TK_SFU_OP, TEGRA_SFU_PRESIN),
	LIT("PRECOS", TK_SFU_OP, TEGRA_SFU_PRECOS),
	LIT("unk", TK_UNK, 0),
	DIG("t", 1, 2, '9', "", TK_TRAM_ROW), DIG("r", 1, 2, '9', "", TK_ROW),
	DIG("g", 1, 1, '7', "", TK_GLOBAL), DIG("alu", 1, 1, '3', "", TK_ALU_RESULT),
	DIG("imm", 1, 1, '2', "", TK_IMM), DIG("#", 1, 1, '1', "", TK_CONST01),
	DIG("u", 1, 2, '9', "", TK_UNIFORM), DIG("cr", 1, 2, '9', "", TK_CR),
	LIT("lp", TK_LP, 0), LIT("posx", TK_POSX, 0), LIT("posy", TK_POSY, 0),
	LIT("pface", TK_PFACE, 0), LIT("kill", TK_KILL, 0),
	LIT("rB", TK_RB, 0), LIT("rC", TK_RC, 0),
	LIT("MAD", TK_ALU_OP, TEGRA_ALU_MAD), LIT("MUL", TK_ALU_OP, TEGRA_ALU_MAD | TK_ALU_OP_MUL),
	LIT("MIN", TK_ALU_OP, TEGRA_ALU_MIN), LIT("MAX", TK_ALU_OP, TEGRA_ALU_MAX),
	LIT("CSEL", TK_ALU_OP, TEGRA_ALU_CSEL),
	LIT("FX10", TK_FX10, 0), LIT("FP20", TK_FP20, 0),
	LIT("l", TK_LOW, 0), LIT("h", TK_HIGH, 0),
	LIT("this", TK_THIS, 0), LIT("other", TK_OTHER, 0),
	LIT("eq", TK_EQ, TEGRA_CC_EQ), LIT("gt", TK_GT, TEGRA_CC_GT), LIT("ge", TK_GE, TEGRA_CC_GE),
	LIT("x2", TK_X2, TEGRA_SCALE_X2), LIT("x4", TK_X4, TEGRA_SCALE_X4),
	LIT("/2", TK_DIV2, TEGRA_SCALE_DIV2),
	LIT("alu_buffer_size", TK_ALU_BUFFER_SIZE, 0),
	LIT("pseq_to_dw_exec_nb", TK_PSEQ_DW_EXEC_NB, 0),
	LIT("ipl:", TK_IPL, 0), LIT("sfu:", TK_SFU_CLAUSE, 0),
	LIT("mul0:", TK_MUL0, 0), LIT("mul1:", TK_MUL1, 0),
	DIG("dst", 1, 2, '9', "", TK_MUL_DST), LIT("bar", TK_BAR, TEGRA_MUL_DST_BAR),
	DIG("src", 1, 2, '9', "", TK_MUL_SRC), LIT("sfu", TK_SFU_SRC, TEGRA_MUL_SRC_SFU),
	LIT("bar0", TK_BAR0, TEGRA_MUL_SRC_BAR0), LIT("bar1", TK_BAR1, TEGRA_MUL_SRC_BAR1),
	DIG("tex", 1, 2, '9', "", TK_SAMPLER),
	LIT("TEX", TK_TEX_OP, 0), LIT("TXB", TK_TXB_OP, 0),
	LIT("store", TK_STORE, 0), DIG("rt", 1, 2, '9', "", TK_RT),
	LIT("stencil", TK_STENCIL, 0),
};

void tegra_lex_init(tegra_lexer *lx, const char *src, size_t len)
{
	lx->src = src;
	lx->len = len;
	lx->pos = 0;
	lx->line = 1;
	lx->line_start = 0;
}

static size_t match_caseless(const char *s, size_t avail, const char *lit)
{
	size_t n = strlen(lit);
	if (n > avail)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (tolower((unsigned char)s[i]) != tolower((unsigned char)lit[i]))
			return 0;
	return n;
}

static size_t match_rule(const lex_rule *r, const char *s, size_t avail, uint64_t *val)
{
	size_t n = match_caseless(s, avail, r->prefix);
	if (!n && r->prefix[0])
		return 0;
	uint64_t v = r->val;
	if (r->max_digits) {
		size_t k = 0;
		v = 0;
		while (k < r->max_digits && n + k < avail && s[n + k] >= '0' && s[n + k] <= r->maxd) {
			v = v * 10 + (uint64_t)(s[n + k] - '0');
			k++;
		}
		if (k < r->min_digits)
			return 0;
		n += k;
	}
	size_t m = match_caseless(s + n, avail - n, r->suffix);
	if (!m && r->suffix[0])
		return 0;
	*val = v;
	return n + m;
}

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* grate reads numbers with atoi(): strtol saturating at LONG_MAX, then the
 * low 32 bits as int, widened (sign-extended) into a 64-bit value. */
static uint64_t grate_atoi(const char *s, size_t n)
{
	uint64_t v = 0;
	bool sat = false;
	for (size_t i = 0; i < n; i++) {
		unsigned dgt = (unsigned)(s[i] - '0');
		if (!sat && v > (UINT64_C(0x7FFFFFFFFFFFFFFF) - dgt) / 10)
			sat = true;
		if (!sat)
			v = v * 10 + dgt;
	}
	if (sat)
		v = UINT64_C(0x7FFFFFFFFFFFFFFF);
	uint64_t low = v & 0xFFFFFFFFu;   /* as int32, then sign-extended */
	return low & 0x80000000u ? low | UINT64_C(0xFFFFFFFF00000000) : low;
}

static size_t match_float(const char *s, size_t avail)
{
	size_t i = 0;
	if (i < avail && s[i] == '-')
		i++;
	size_t d0 = i;
	while (i < avail && is_digit(s[i]))
		i++;
	if (i == d0 || i >= avail || s[i] != '.')
		return 0;
	size_t d1 = ++i;
	while (i < avail && is_digit(s[i]))
		i++;
	return i == d1 ? 0 : i;
}

static size_t match_hex(const char *s, size_t avail, uint64_t *v)
{
	if (avail < 3 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X') || !isxdigit((unsigned char)s[2]))
		return 0;
	size_t i = 2;
	uint64_t x = 0;
	while (i < avail && i < 18 && isxdigit((unsigned char)s[i])) {
		int c = tolower((unsigned char)s[i]);
		x = x << 4 | (uint64_t)(c <= '9' ? c - '0' : c - 'a' + 10);
		i++;
	}
	*v = x;
	return i;
}

/* \"(.+?)\" in flex is '"', an optional greedy run of non-newlines, '"':
 * it ends at the last quote of the line. */
static size_t match_string(const char *s, size_t avail)
{
	if (!avail || s[0] != '"')
		return 0;
	size_t last = 0;
	for (size_t i = 1; i < avail && s[i] != '\n'; i++)
		if (s[i] == '"')
			last = i;
	return last ? last + 1 : 0;
}

static void advance(tegra_lexer *lx, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (lx->src[lx->pos + i] == '\n') {
			lx->line++;
			lx->line_start = lx->pos + i + 1;
		}
	}
	lx->pos += n;
}

tegra_token tegra_lex_next(tegra_lexer *lx)
{
	for (;;) {
		tegra_token t;
		memset(&t, 0, sizeof t);
		const char *s = lx->src + lx->pos;
		size_t avail = lx->len - lx->pos;
		t.text = s;
		t.line = lx->line;
		t.col = (int)(lx->pos - lx->line_start) + 1;
		if (!avail) {
			t.kind = TK_EOF;
			return t;
		}
		/* blanks, newlines and comments */
		if (s[0] == ' ' || s[0] == '\t' || s[0] == '\n') {
			advance(lx, 1);
			continue;
		}
		if (avail >= 2 && s[0] == '/' && s[1] == '/') {
			size_t n = 2;
			while (n < avail && s[n] != '\n')
				n++;
			advance(lx, n);
			continue;
		}
		if (avail >= 2 && s[0] == '/' && s[1] == '*') {
			const char *end = NULL;
			for (size_t i = 2; i + 1 < avail; i++)
				if (s[i] == '*' && s[i + 1] == '/') {
					end = s + i + 2;
					break;
				}
			if (end) {
				advance(lx, (size_t)(end - s));
				continue;
			}
			/* unterminated: '/' falls to the catch-all rule */
		}

		/* longest match; earlier rule wins ties */
		size_t best = 0;
		uint64_t v = 0;
		static const struct { const char *lit; int tok; } dots[] = {
			{ ".asm", TK_ASM }, { ".constants", TK_CONSTANTS }, { ".uniforms", TK_UNIFORMS },
		};
		for (size_t i = 0; i < 3; i++) {
			size_t n = match_caseless(s, avail, dots[i].lit);
			if (n > best) {
				best = n;
				t.kind = dots[i].tok;
			}
		}
		size_t n = match_float(s, avail);
		if (n > best) {
			best = n;
			t.kind = TK_FLOAT;
		}
		uint64_t hx;
		n = match_hex(s, avail, &hx);
		if (n > best) {
			best = n;
			t.kind = TK_HEX;
			v = hx;
		}
		static const struct { const char *lit; int tok; } kw[] = {
			{ "EXEC", TK_EXEC }, { "neg", TK_NEG }, { "abs", TK_ABS }, { "sat", TK_SAT },
		};
		for (size_t i = 0; i < 4; i++) {
			n = match_caseless(s, avail, kw[i].lit);
			if (n > best) {
				best = n;
				t.kind = kw[i].tok;
			}
		}
		n = 0;
		while (n < avail && is_digit(s[n]))
			n++;
		if (n > best) {
			best = n;
			t.kind = TK_NUMBER;
			v = grate_atoi(s, n);
		}
		n = match_string(s, avail);
		if (n > best) {
			best = n;
			t.kind = TK_STRING;
		}
		static const char punct[] = ",;.()[]=-*";
		static const int punct_tok[] = { TK_COMMA, TK_SEMI, TK_DOT, TK_LPAREN, TK_RPAREN,
		                                 TK_LBRACKET, TK_RBRACKET, TK_EQUALS, TK_MINUS, TK_STAR };
		const char *pc = strchr(punct, s[0]);
		if (s[0] && pc && best < 1) {
			best = 1;
			t.kind = punct_tok[pc - punct];
		}
		for (size_t i = 0; i < sizeof word_rules / sizeof word_rules[0]; i++) {
			uint64_t rv;
			n = match_rule(&word_rules[i], s, avail, &rv);
			if (n > best) {
				best = n;
				t.kind = word_rules[i].tok;
				v = rv;
			}
		}
		if (!best) {
			best = 1;
			t.kind = TK_ERROR;
		}
		/* grate: a string token longer than its 256-byte buffer is an error */
		if (t.kind == TK_STRING && best > TEGRA_LEX_STRING_MAX)
			t.kind = TK_ERROR;
		t.u = v;
		t.len = best;
		if (t.kind == TK_FLOAT) {
			char buf[512];
			size_t k = best < sizeof buf - 1 ? best : sizeof buf - 1;
			memcpy(buf, s, k);
			buf[k] = '\0';
			t.f = tegra_grate_atof(buf);
		}
		advance(lx, best);
		return t;
	}
}

const char *tegra_tok_describe(const tegra_token *t, char *buf, size_t n)
{
	if (t->kind == TK_EOF) {
		snprintf(buf, n, "end of file");
		return buf;
	}
	size_t k = t->len < 40 ? t->len : 40;
	char tmp[4 * 40 + 1];
	size_t j = 0;
	for (size_t i = 0; i < k; i++) {
		unsigned char c = (unsigned char)t->text[i];
		if (isprint(c))
			tmp[j++] = (char)c;
		else
			j += (size_t)snprintf(tmp + j, sizeof tmp - j, "\\x%02X", c);
	}
	tmp[j] = '\0';
	snprintf(buf, n, "'%.60s%s'", tmp, t->len > k ? "..." : "");
	return buf;
}
