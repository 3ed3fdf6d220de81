/* tegra-fp-words v1 writer and reader (see fp_words.h). */
#include "isa/tegra/fp_words.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"

static const char *const uniform_kind_names[3] = { "fp20", "l", "h" };

char *tegra_fp_words_write(const tegra_fp_program *p, const char *source)
{
	ulp_strbuf sb = { NULL, 0, 0, false };
	ulp_strbuf_printf(&sb, "%s\n# source: %s\n# assembler: ulpsim isa/tegra (grate-compatible)\n",
	          TEGRA_FP_WORDS_TAG, source ? source : "-");
	ulp_strbuf_printf(&sb, ".alu_buffer_size %u\n.pseq_to_dw_exec_nb %u\n.exec_count %u\n"
	          ".mfu_count %u\n.alu_packet_count %u\n.discards_fragment %d\n",
	          p->alu_buffer_size, p->pseq_to_dw_exec_nb, p->exec_count, p->mfu_count,
	          p->alu_packet_count, p->discards_fragment ? 1 : 0);
	for (unsigned i = 0; i < TEGRA_FP_NUM_CONST; i++)
		if (p->constants[i])
			ulp_strbuf_printf(&sb, ".const %u %08X\n", i, p->constants[i]);
	for (unsigned i = 0; i < TEGRA_FP_NUM_CONST; i++) {
		const tegra_fp_uniform_half *lo = &p->uniforms[2 * i], *hi = &p->uniforms[2 * i + 1];
		if (lo->used && lo->kind == TEGRA_UNIFORM_FP20) {
			ulp_strbuf_printf(&sb, ".uniform %u fp20 \"%s\"\n", i, lo->name);
			continue;
		}
		if (lo->used)
			ulp_strbuf_printf(&sb, ".uniform %u l \"%s\"\n", i, lo->name);
		if (hi->used)
			ulp_strbuf_printf(&sb, ".uniform %u h \"%s\"\n", i, hi->name);
	}
	ulp_strbuf_printf(&sb, ".reg 0520 %08X\n.reg 0546 %08X\n", tegra_fp_reg_0520(p), tegra_fp_reg_0546(p));
	uint32_t e20;
	if (tegra_fp_reg_0e20(p, &e20))
		ulp_strbuf_printf(&sb, ".reg 0E20 %08X\n", e20);
	size_t n = tegra_fp_word_count(p);
	for (size_t i = 0; i < n; i++) {
		tegra_fp_upload_word w = tegra_fp_upload_at(p, i);
		ulp_strbuf_printf(&sb, "%-15s%08X  # %s %u\n", w.label, w.value, w.index_kind, w.index);
	}
	if (sb.oom) {
		free(sb.s);
		return NULL;
	}
	return sb.s;
}

/* ---- reader ---------------------------------------------------------------- */

typedef struct wline {
	const char *s;      /* line start */
	size_t len;         /* without the newline */
	int no;
} wline;

typedef struct wctx {
	const char *file;
	ulp_diag *d;
	wline ln;
	size_t pos;         /* cursor within the line */
} wctx;

static bool werr(wctx *c, const char *msg)
{
	return ulp_diag_at(c->d, c->file, c->ln.no, (int)c->pos + 1, "%s", msg);
}

static void skip_blank(wctx *c)
{
	while (c->pos < c->ln.len && (c->ln.s[c->pos] == ' ' || c->ln.s[c->pos] == '\t' ||
	                              c->ln.s[c->pos] == '\r'))
		c->pos++;
}

static bool at_end(wctx *c)
{
	skip_blank(c);
	return c->pos >= c->ln.len || c->ln.s[c->pos] == '#';
}

static size_t word_len(wctx *c)
{
	size_t n = 0;
	while (c->pos + n < c->ln.len && !isspace((unsigned char)c->ln.s[c->pos + n]))
		n++;
	return n;
}

static bool word_is(wctx *c, const char *w)
{
	skip_blank(c);
	size_t n = word_len(c);
	if (n != strlen(w) || memcmp(c->ln.s + c->pos, w, n) != 0)
		return false;
	c->pos += n;
	return true;
}

static bool read_uint(wctx *c, int base, unsigned digits_max, uint32_t *v, const char *what)
{
	skip_blank(c);
	size_t n = word_len(c);
	uint64_t x = 0;
	if (n == 0 || n > digits_max) {
		char m[96];
		snprintf(m, sizeof m, "expected %s", what);
		return werr(c, m);
	}
	for (size_t i = 0; i < n; i++) {
		int ch = tolower((unsigned char)c->ln.s[c->pos + i]);
		int dv = ch >= '0' && ch <= '9' ? ch - '0' : base == 16 && ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : -1;
		if (dv < 0) {
			char m[96];
			snprintf(m, sizeof m, "expected %s", what);
			return werr(c, m);
		}
		x = x * (unsigned)base + (unsigned)dv;
	}
	if (x > 0xFFFFFFFFu)
		return werr(c, "number out of range");
	c->pos += n;
	*v = (uint32_t)x;
	return true;
}

static bool end_of_line(wctx *c)
{
	return at_end(c) || werr(c, "unexpected text at the end of the line");
}

enum { H_SIZE, H_NB, H_EXEC, H_MFU, H_ALU, H_DISCARD, H_COUNT };
static const char *const header_names[H_COUNT] = {
	".alu_buffer_size", ".pseq_to_dw_exec_nb", ".exec_count", ".mfu_count",
	".alu_packet_count", ".discards_fragment",
};

static bool read_uniform(wctx *c, tegra_fp_program *p)
{
	uint32_t i;
	if (!read_uint(c, 10, 2, &i, "a uniform index 0..31"))
		return false;
	if (i >= TEGRA_FP_NUM_CONST)
		return werr(c, "uniform index is over 31");
	int kind = -1;
	for (int k = 0; k < 3; k++)
		if (word_is(c, uniform_kind_names[k]))
			kind = k;
	if (kind < 0)
		return werr(c, "expected fp20, l or h");
	skip_blank(c);
	const char *q0 = c->ln.s + c->pos;
	const char *q1 = c->ln.len > c->pos ? memchr(q0, '"', c->ln.len - c->pos) : NULL;
	const char *q2 = NULL;
	for (const char *q = c->ln.s + c->ln.len; q1 && q-- > q1 + 1;)
		if (*q == '"') {
			q2 = q;
			break;
		}
	if (q1 != q0 || !q2)
		return werr(c, "expected a quoted uniform name");
	size_t n = (size_t)(q2 - q1 - 1);
	if (n > TEGRA_FP_UNIFORM_NAME_MAX)
		return werr(c, "uniform name is too long");
	if (memchr(q1 + 1, '\0', n))
		return werr(c, "uniform name contains a NUL byte");
	c->pos = (size_t)(q2 - c->ln.s) + 1;
	for (unsigned h = 2 * i; h <= 2 * i + 1; h++) {
		if ((kind == TEGRA_UNIFORM_FX10_LOW && h & 1) || (kind == TEGRA_UNIFORM_FX10_HIGH && !(h & 1)))
			continue;
		tegra_fp_uniform_half *u = &p->uniforms[h];
		if (u->used)
			return werr(c, "uniform half named twice");
		u->used = true;
		u->kind = (uint8_t)kind;
		memcpy(u->name, q1 + 1, n);
		u->name[n] = '\0';
	}
	return end_of_line(c);
}

static bool read_header(wctx *c, tegra_fp_program *p, bool seen[H_COUNT])
{
	for (int h = 0; h < H_COUNT; h++) {
		if (!word_is(c, header_names[h]))
			continue;
		if (seen[h])
			return werr(c, "header line repeated");
		uint32_t v;
		if (!read_uint(c, 10, 10, &v, "a decimal number"))
			return false;
		seen[h] = true;
		switch (h) {
		case H_SIZE: p->alu_buffer_size = v; break;
		case H_NB: p->pseq_to_dw_exec_nb = v; break;
		case H_EXEC: p->exec_count = v; break;
		case H_MFU: p->mfu_count = v; break;
		case H_ALU: p->alu_packet_count = v; break;
		default:
			if (v > 1)
				return werr(c, ".discards_fragment is 0 or 1");
			p->discards_fragment = v;
			break;
		}
		return end_of_line(c);
	}
	if (word_is(c, ".const")) {
		uint32_t i, v;
		if (!read_uint(c, 10, 2, &i, "a constant index 0..31"))
			return false;
		if (i >= TEGRA_FP_NUM_CONST)
			return werr(c, "constant index is over 31");
		if (!read_uint(c, 16, 8, &v, "8 hex digits"))
			return false;
		p->constants[i] = v;
		return end_of_line(c);
	}
	if (word_is(c, ".uniform"))
		return read_uniform(c, p);
	if (word_is(c, ".reg")) {
		uint32_t reg, v, want = 0;
		if (!read_uint(c, 16, 4, &reg, "a register offset") || !read_uint(c, 16, 8, &v, "8 hex digits"))
			return false;
		/* derived values: must agree with the header lines above them */
		bool known = reg == 0x520 || reg == 0x546 || reg == 0xE20;
		if (!known)
			return werr(c, "unknown .reg (0520, 0546 or 0E20)");
		if (reg == 0x520)
			want = tegra_fp_reg_0520(p);
		else if (reg == 0x546)
			want = tegra_fp_reg_0546(p);
		else if (!tegra_fp_reg_0e20(p, &want))
			return werr(c, ".reg 0E20 given but alu_buffer_size is 0");
		if (v != want)
			return werr(c, ".reg value does not match the header");
		return end_of_line(c);
	}
	return werr(c, "unknown header line");
}

bool tegra_fp_words_read(const char *text, size_t len, const char *file,
                         tegra_fp_program *out, ulp_diag *d)
{
	memset(out, 0, sizeof *out);
	out->alu_buffer_size = 1;
	out->pseq_to_dw_exec_nb = 1;
	wctx c = { file, d, { NULL, 0, 0 }, 0 };
	bool seen[H_COUNT] = { false };
	bool tagged = false, counts_ok = false;
	size_t nwords = 0, expect = 0, pos = 0;
	int no = 0;
	while (pos < len) {
		const char *s = text + pos;
		const char *nl = memchr(s, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - s) : len - pos;
		pos += n + (nl ? 1 : 0);
		c.ln = (wline){ s, n, ++no };
		c.pos = 0;
		if (memchr(s, '\0', n)) {
			c.pos = (size_t)((const char *)memchr(s, '\0', n) - s);
			return werr(&c, "NUL byte in a words file");
		}
		if (no == 1) {
			size_t tl = strlen(TEGRA_FP_WORDS_TAG);
			if (n < tl || memcmp(s, TEGRA_FP_WORDS_TAG, tl) != 0)
				return werr(&c, "not a tegra-fp-words v1 file (first line must be '" TEGRA_FP_WORDS_TAG "')");
			tagged = true;
			continue;
		}
		if (at_end(&c))
			continue;
		if (c.ln.s[c.pos] == '.') {
			if (counts_ok)
				return werr(&c, "header line after the first word");
			if (!read_header(&c, out, seen))
				return false;
			continue;
		}
		if (!counts_ok) {
			for (int h = H_EXEC; h <= H_ALU; h++)
				if (!seen[h]) {
					char m[80];
					snprintf(m, sizeof m, "word before the %s header line", header_names[h]);
					return werr(&c, m);
				}
			if (out->exec_count < 1 || out->exec_count > TEGRA_FP_MAX_EXEC ||
			    out->mfu_count > TEGRA_FP_MAX_MFU || out->alu_packet_count > TEGRA_FP_MAX_ALU_PACKETS)
				return werr(&c, "header counts are outside the limits (1..64 EXECs, 0..64 MFU, 0..64 ALU packets)");
			counts_ok = true;
			expect = tegra_fp_word_count(out);
		}
		if (nwords >= expect)
			return werr(&c, "more words than the header counts give");
		tegra_fp_upload_word w = tegra_fp_upload_at(out, nwords);
		if (!word_is(&c, w.label)) {
			char m[96];
			snprintf(m, sizeof m, "expected a %s word (word %zu of %zu)", w.label, nwords + 1, expect);
			return werr(&c, m);
		}
		uint32_t v;
		if (!read_uint(&c, 16, 8, &v, "8 hex digits") || !end_of_line(&c))
			return false;
		tegra_fp_upload_set(out, nwords++, v);
	}
	c.pos = 0;
	if (!tagged)
		return ulp_diag_at(d, file, 1, 1, "empty file: not a tegra-fp-words v1 file");
	if (!counts_ok || nwords != expect) {
		char m[96];
		snprintf(m, sizeof m, "truncated: %zu of %zu words", nwords, counts_ok ? expect : (size_t)0);
		return ulp_diag_at(d, file, no, 1, "%s", counts_ok ? m : "no words (truncated file?)");
	}
	return tegra_fp_validate(out, file, d);
}
