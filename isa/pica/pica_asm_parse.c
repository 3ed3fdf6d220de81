/* PICA200 assembler: text helpers, register operands, aliases, conditions. */
#include <ctype.h>
#include <limits.h>
#include <errno.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "isa/pica/pica_asm_int.h"

bool asm_grow(struct pica_asm *a, void **p, size_t *cap, size_t n, size_t sz)
{
	if (n < *cap)
		return true;
	size_t nc = *cap ? *cap * 2 : 16;
	void *q = realloc(*p, nc * sz);
	if (!q)
		return ulp_diag_at(a->d, a->file, a->line, 0, "out of memory");
	*p = q;
	*cap = nc;
	return true;
}

char *asm_strdup(struct pica_asm *a, const char *s)
{
	if (!ASM_PUSH(a, a->strings, a->nstrings, a->capstrings))
		return NULL;
	char *c = strdup(s);
	if (!c) {
		ulp_diag_at(a->d, a->file, a->line, 0, "out of memory");
		return NULL;
	}
	a->strings[a->nstrings++] = c;
	return c;
}

int asm_col(const struct pica_asm *a, const char *at)
{
	if (!at || !a->line_start)
		return 0;
	/* integer comparison: at may point outside the line */
	uintptr_t p = (uintptr_t)at, base = (uintptr_t)a->line_start;
	if (p < base || p - base > 100000)
		return 0;
	return (int)(p - base) + 1;
}

bool asm_err_col(struct pica_asm *a, int col, const char *fmt, ...)
{
	va_list ap;
	if (col == 0 && a->line_start)
		col = a->stmt_col;
	va_start(ap, fmt);
	ulp_diag_vat(a->d, a->file, a->line, col, -1, fmt, ap);
	va_end(ap);
	return false;
}

bool asm_err(struct pica_asm *a, const char *at, const char *fmt, ...)
{
	va_list ap;
	int col = asm_col(a, at);
	if (col == 0 && a->line_start)
		col = a->stmt_col;
	va_start(ap, fmt);
	ulp_diag_vat(a->d, a->file, a->line, col, -1, fmt, ap);
	va_end(ap);
	return false;
}

char *asm_trim(char *s)
{
	if (!s)
		return NULL;
	while (*s && isspace((unsigned char)*s))
		s++;
	size_t n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = 0;
	return s;
}

/* Identifiers: C identifiers, '$' allowed (picasso Manual "Basic concepts"). */
bool asm_is_ident(const char *s)
{
	if (!*s)
		return false;
	for (int i = 0; s[i]; i++) {
		unsigned char c = (unsigned char)s[i];
		if (!(isalpha(c) || c == '_' || c == '$' || (i > 0 && isdigit(c))))
			return false;
	}
	return true;
}

int asm_split(char *s, char sep, char **out, int max)
{
	int n = 0;
	if (!*asm_trim(s))
		return 0;
	for (;;) {
		char *e = strchr(s, sep);
		if (n == max)
			return -1;
		if (e)
			*e = 0;
		out[n++] = asm_trim(s);
		if (!e)
			return n;
		s = e + 1;
	}
}

bool asm_parse_int(struct pica_asm *a, char *s, long lo, long hi, long *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 0);
	if (end == s || *asm_trim(end) || errno)
		return asm_err(a, s, "invalid integer: '%s'", s);
	if (v < lo || v > hi)
		return asm_err(a, s, "value %ld out of range (%ld..%ld)", v, lo, hi);
	*out = v;
	return true;
}

/* Decimal text -> double -> float32, as picasso (atof into a float). */
bool asm_parse_float(struct pica_asm *a, char *s, float *out)
{
	char *end;
	double v = strtod(s, &end);
	if (end == s || *asm_trim(end))
		return asm_err(a, s, "invalid number: '%s'", s);
	*out = (float)v;
	return true;
}

int asm_parse_swizzle(const char *s)
{
	uint8_t swz[4];
	int i;
	for (i = 0; s[i]; i++) {
		if (i == 4)
			return -1;
		switch (tolower((unsigned char)s[i])) {
		case 'x': case 'r': case 's': swz[i] = 0; break;
		case 'y': case 'g': case 't': swz[i] = 1; break;
		case 'z': case 'b': case 'p': swz[i] = 2; break;
		case 'w': case 'a': case 'q': swz[i] = 3; break;
		default: return -1;
		}
	}
	if (i == 0)
		return -1;
	for (int j = i; j < 4; j++)   /* short forms repeat the last component */
		swz[j] = swz[i - 1];
	return pica_swz_pack(swz);
}

uint8_t asm_mask_from_sw(unsigned sw, bool x_is_bit3)
{
	uint8_t swz[4], m = 0;
	pica_swz_unpack((uint8_t)(sw >> 1), swz);
	for (int i = 0; i < 4; i++)
		m |= x_is_bit3 ? (uint8_t)(8u >> swz[i]) : (uint8_t)(1u << swz[i]);
	return m;
}

struct asm_alias *asm_find_alias(struct pica_asm *a, const char *name)
{
	for (size_t i = 0; i < a->naliases; i++)
		if (strcmp(a->aliases[i].name, name) == 0)
			return &a->aliases[i];
	return NULL;
}

int asm_flat(const struct asm_opnd *o)
{
	switch (o->cls) {
	case 'r': return AR_R + o->n;
	case 'c': return AR_C + o->n;
	case 'i': return AR_I + o->n;
	case 'b': return AR_B + o->n;
	default:  return o->n;   /* o, v */
	}
}

static int class_size(struct pica_asm *a, char cls)
{
	switch (cls) {
	case 'o': return a->cur && a->cur->is_gs ? 7 : 16;   /* o7-o15: VS only */
	case 'v': return 15;          /* picasso rejects v15 */
	case 'r': return 16;
	case 'c': return PICA_NUM_C;
	case 'i': return 4;
	case 'b': return 16;
	default:  return 0;
	}
}

static const char *class_name(char cls)
{
	switch (cls) {
	case 'o': return "output";
	case 'v': return "input";
	case 'r': return "temporary";
	case 'c': return "floating-point vector uniform";
	case 'i': return "integer vector uniform";
	default:  return "boolean uniform";
	}
}

static int idx_reg(const char *s)
{
	if (!strcasecmp(s, "a0.x") || !strcasecmp(s, "a0"))
		return PICA_IDX_A0X;
	if (!strcasecmp(s, "a0.y") || !strcasecmp(s, "a1"))
		return PICA_IDX_A0Y;
	if (!strcasecmp(s, "aL") || !strcasecmp(s, "a2") || !strcasecmp(s, "lcnt"))
		return PICA_IDX_AL;
	return 0;
}

static bool parse_index(struct pica_asm *a, char *in, int *idx, long *off)
{
	*idx = idx_reg(in);
	*off = 0;
	if (*idx)
		return true;
	char *plus = strchr(in, '+');
	char *num = in;
	if (plus) {
		*plus = 0;
		char *r = asm_trim(in);
		*idx = idx_reg(r);
		if (!*idx)
			return asm_err(a, r, "invalid index register: '%s' (expected a0.x, a0.y or aL)", r);
		num = asm_trim(plus + 1);
	} else if (strchr(in, '-') && strchr(in, '.')) {
		return asm_err(a, in, "negative offsets from an index register are not supported: '%s'", in);
	}
	char *end;
	errno = 0;
	*off = strtol(num, &end, 10);
	if (end == num || *asm_trim(end) || errno)
		return asm_err(a, num, "invalid register offset: '%s'", num);
	if (*off < 0)
		return asm_err(a, num, "invalid register offset: '%s' (must not be negative)", num);
	if (*off > 255)
		return asm_err(a, num, "register offset out of range: '%s'", num);
	return true;
}

bool asm_parse_opnd(struct pica_asm *a, char *s, bool allow_idx, struct asm_opnd *o)
{
	char *start = s;
	memset(o, 0, sizeof *o);
	o->col = asm_col(a, s);
	o->sw = ASM_SW_DEFAULT;
	if (*s == '-') {
		o->sw |= 1;
		s++;
		while (isspace((unsigned char)*s))
			s++;
	}
	char *name = s;
	while (isalnum((unsigned char)*s) || *s == '_' || *s == '$')
		s++;
	if (s == name)
		return asm_err(a, start, "expected a register or alias, found '%s'", start);
	char save = *s;
	*s = 0;
	char nbuf[128];
	snprintf(nbuf, sizeof nbuf, "%s", name);
	*s = save;
	while (isspace((unsigned char)*s))
		s++;
	long off = 0;
	if (*s == '[') {
		char *close = strchr(s, ']');
		if (!close)
			return asm_err(a, s, "missing closing bracket");
		*close = 0;
		char *in = asm_trim(s + 1);
		if (!parse_index(a, in, &o->idx, &off))
			return false;
		if (o->idx && !allow_idx)
			return asm_err(a, in, "index register not allowed here");
		s = close + 1;
		while (isspace((unsigned char)*s))
			s++;
	}
	if (*s == '.') {
		char *sw = asm_trim(s + 1);
		int b = asm_parse_swizzle(sw);
		if (b < 0)
			return asm_err(a, sw, "invalid swizzling mask: '%s'", sw);
		o->sw = (o->sw & 1) | (unsigned)b << 1;
		s += strlen(s);
	}
	if (*s)
		return asm_err(a, s, "unexpected text after operand: '%s'", s);

	struct asm_alias *al = asm_find_alias(a, nbuf);
	if (al) {
		uint8_t user[4], base[4], comb[4];
		pica_swz_unpack((uint8_t)(o->sw >> 1), user);
		pica_swz_unpack((uint8_t)(al->sw >> 1), base);
		for (int j = 0; j < 4; j++)
			comb[j] = base[user[j]];
		o->sw = ((o->sw ^ al->sw) & 1) | (unsigned)pica_swz_pack(comb) << 1;
		o->cls = al->cls;
		o->n = al->n;
	} else {
		char c = nbuf[0];
		bool digits = nbuf[1] != 0;
		for (int i = 1; nbuf[i]; i++)
			digits &= isdigit((unsigned char)nbuf[i]) != 0;
		if (!strchr("ovrcib", c) || !digits)
			return asm_err(a, name, "unknown register or alias: '%s'", nbuf);
		o->cls = c;
		/* digits only (checked above); saturate instead of wrapping, so that
		 * r4294967295 is refused rather than read as r15 */
		long num = 0;
		for (const char *d = nbuf + 1; *d && num <= INT_MAX / 10; d++)
			num = num * 10 + (*d - '0');
		if (num >= class_size(a, c))
			return asm_err(a, name, "invalid %s register: %s", class_name(c), nbuf);
		o->n = (int)num;
		if (o->n >= class_size(a, c))
			return asm_err(a, name, "invalid %s register: %s", class_name(c), nbuf);
	}
	if (o->n + off >= class_size(a, o->cls))
		return asm_err(a, name, "register offset out of range: %s[%ld] is past the last %s register",
		               nbuf, off, class_name(o->cls));
	o->n += (int)off;
	if (o->idx && o->cls != 'c')
		return asm_err(a, name, "index registers can only be used with floating-point uniforms (c registers)");
	return true;
}

static bool parse_flag(struct pica_asm *a, char *s, int *which, bool *neg)
{
	*neg = false;
	for (; *s == '!' || isspace((unsigned char)*s); s++)
		if (*s == '!')
			*neg = !*neg;
	if (!strcasecmp(s, "cmp.x"))
		*which = 0;
	else if (!strcasecmp(s, "cmp.y"))
		*which = 1;
	else
		return asm_err(a, s, "invalid condition register: '%s' (expected cmp.x or cmp.y)", s);
	return true;
}

/* condExp: flag | flag && flag | flag || flag (single & / | accepted). */
bool asm_parse_cond(struct pica_asm *a, char *s, struct pica_inst *in)
{
	char *op = strpbrk(s, "&|");
	int w1, w2 = -1;
	bool n1, n2 = false;
	char type = 0;
	if (op) {
		type = *op;
		*op++ = 0;
		if (*op == type)
			op++;
		if (!parse_flag(a, asm_trim(op), &w2, &n2))
			return false;
	}
	if (!parse_flag(a, asm_trim(s), &w1, &n1))
		return false;
	if (w1 == w2)
		return asm_err(a, s, "condition register checked twice");
	bool negx = (w1 == 0 && n1) || (w2 == 0 && n2);
	bool negy = (w1 == 1 && n1) || (w2 == 1 && n2);
	in->ref_x = !negx;
	in->ref_y = !negy;
	if (op)
		in->cond = type == '&' ? PICA_COND_AND : PICA_COND_OR;
	else
		in->cond = w1 == 0 ? PICA_COND_X : PICA_COND_Y;
	return true;
}
