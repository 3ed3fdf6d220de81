/* TGSI text parser: Mesa 22.3's tgsi_text grammar (docs/tgsi-frontend.md,
 * ../shared/reference/tgsi.md §1), plus the legacy opcodes of older dumps.
 *
 * Recursive descent over a NUL-terminated copy of the input: every parse_x()
 * takes the context, advances ctx->cur on success and, on failure, records
 * "expected ..." at line:col in the diagnostic and returns false.  The NUL
 * sentinel means a look-ahead never runs past the end.  Declarations are in
 * tgsi_text_decl.c, immediates and properties in tgsi_text_imm.c. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/tgsi/tgsi_text_ctx.h"

/* ---------------------------------------------------------------- lexing */

bool tt_is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool tt_is_ident(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || tt_is_digit(c);
}

char tt_upper(char c)
{
	return c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A') : c;
}

/* ws ::= ' ' | '\t' | '\n'   (not '\r') */
void tt_eat_opt_white(const char **p)
{
	while (**p == ' ' || **p == '\t' || **p == '\n')
		(*p)++;
}

bool tt_eat_white(const char **p)
{
	const char *s = *p;
	tt_eat_opt_white(p);
	return *p > s;
}

size_t tt_word_len(const char *p)
{
	size_t n = 0;
	while (tt_is_ident(p[n]))
		n++;
	return n;
}

/* Case-insensitive prefix match of the upper-case word w. */
static bool tt_match_prefix(const char **p, const char *w)
{
	const char *c = *p;
	while (*w && tt_upper(*c) == *w) {
		c++;
		w++;
	}
	if (*w)
		return false;
	*p = c;
	return true;
}

/* The word at *p (a maximal [A-Za-z0-9_] run) equals w, ignoring case. */
bool tt_match_whole(const char **p, const char *w)
{
	const char *c = *p;
	if (!tt_match_prefix(&c, w) || tt_is_ident(*c))
		return false;
	*p = c;
	return true;
}

/* Index of the table name equal to the word at *p, or -1. */
int tt_match_table(const char **p, const char *(*name)(unsigned), unsigned count)
{
	for (unsigned i = 0; i < count; i++) {
		const char *n = name(i);
		if (n && tt_match_whole(p, n))
			return (int)i;
	}
	return -1;
}

/* uint ::= [0-9]+   (values above 2^32-1 are rejected: see the assumptions) */
static int tt_parse_uint(const char **p, uint32_t *v)
{
	const char *c = *p;
	uint64_t x = 0;
	if (!tt_is_digit(*c))
		return TT_NONE;
	while (tt_is_digit(*c)) {
		x = x * 10 + (uint64_t)(*c - '0');
		if (x > UINT32_MAX)
			return TT_OVERFLOW;
		c++;
	}
	*v = (uint32_t)x;
	*p = c;
	return TT_OK;
}

/* int ::= [+-]? uint   (stored as two's-complement bits, as Mesa wraps) */
int tt_parse_int(const char **p, int32_t *v)
{
	const char *c = *p;
	bool neg = *c == '-';
	if (*c == '+' || *c == '-')
		c++;
	uint32_t m;
	int r = tt_parse_uint(&c, &m);
	if (r != TT_OK)
		return r;
	uint32_t bits = neg ? 0u - m : m;
	memcpy(v, &bits, sizeof bits);
	*p = c;
	return TT_OK;
}

/* --------------------------------------------------------- diagnostics */

static void line_col(tt_ctx *ctx, const char *at, int *line, int *col)
{
	if (at < ctx->lc_pos) {
		ctx->lc_pos = ctx->text;
		ctx->lc_line = 1;
		ctx->lc_line_start = ctx->text;
	}
	for (const char *c = ctx->lc_pos; c < at; c++)
		if (*c == '\n') {
			ctx->lc_line++;
			ctx->lc_line_start = c + 1;
		}
	ctx->lc_pos = at;
	*line = ctx->lc_line;
	*col = (int)(at - ctx->lc_line_start) + 1;
}

/* Errors at the end of the text point just after the last token instead. */
bool tt_fail_at(tt_ctx *ctx, const char *at, const char *fmt, ...)
{
	int line, col;
	if (*at == '\0')
		while (at > ctx->text && (at[-1] == ' ' || at[-1] == '\t' || at[-1] == '\n'))
			at--;
	line_col(ctx, at, &line, &col);
	va_list ap;
	va_start(ap, fmt);
	ulp_diag_vat(ctx->d, ctx->file, line, col, -1, fmt, ap);
	va_end(ap);
	return false;
}

bool tt_uint_or_fail(tt_ctx *ctx, uint32_t *v, const char *what)
{
	int r = tt_parse_uint(&ctx->cur, v);
	if (r == TT_OVERFLOW)
		return tt_fail_at(ctx, ctx->cur, "integer too large (more than 32 bits)");
	if (r != TT_OK)
		return tt_fail_at(ctx, ctx->cur, "expected %s", what);
	return true;
}

void tt_position(tt_ctx *ctx, const char *at, int *line, int *col)
{
	line_col(ctx, at, line, col);
}

static bool oom(tt_ctx *ctx)
{
	return tt_fail_at(ctx, ctx->cur, "out of memory");
}

/* ------------------------------------------------------------ operands */

/* wmask ::= "." ws* [xX]? [yY]? [zZ]? [wW]?   -- at least one, in xyzw order */
bool tt_parse_opt_writemask(tt_ctx *ctx, uint8_t *mask)
{
	const char *c = ctx->cur;
	tt_eat_opt_white(&c);
	*mask = TGSI_WRITEMASK_XYZW;
	if (*c != '.')
		return true;
	c++;
	tt_eat_opt_white(&c);
	static const char comps[] = "XYZW";
	uint8_t m = 0;
	for (int i = 0; i < 4; i++)
		if (tt_upper(*c) == comps[i]) {
			m |= (uint8_t)(1u << i);
			c++;
		}
	if (!m)
		return tt_fail_at(ctx, c, "expected a write mask (x, y, z, w in that order)");
	*mask = m;
	ctx->cur = c;
	return true;
}

static int comp_index(char c)
{
	switch (tt_upper(c)) {
	case 'X': return TGSI_SWIZZLE_X;
	case 'Y': return TGSI_SWIZZLE_Y;
	case 'Z': return TGSI_SWIZZLE_Z;
	case 'W': return TGSI_SWIZZLE_W;
	default: return -1;
	}
}

/* file ::= NULL | CONST | IN | OUT | TEMP | SAMP | ADDR | IMM | SV | IMAGE
 *        | SVIEW | BUFFER | MEMORY | CONSTBUF | HWATOMIC */
static bool parse_file(tt_ctx *ctx, uint8_t *file)
{
	int f = tt_match_table(&ctx->cur, tgsi_file_name, TGSI_FILE_COUNT);
	if (f < 0) {
		size_t n = tt_word_len(ctx->cur);
		if (n)
			return tt_fail_at(ctx, ctx->cur, "unknown register file `%.*s' (expected "
			                  "CONST, IN, OUT, TEMP, SAMP, ADDR, IMM, SV, SVIEW, ...)",
			                  (int)(n > 40 ? 40 : n), ctx->cur);
		return tt_fail_at(ctx, ctx->cur, "expected a register file (TEMP, IN, OUT, CONST, ...)");
	}
	*file = (uint8_t)f;
	return true;
}

bool tt_expect_char(tt_ctx *ctx, char ch)
{
	if (*ctx->cur != ch)
		return tt_fail_at(ctx, ctx->cur, "expected `%c'", ch);
	ctx->cur++;
	return true;
}

/* One bracket's contents, after its "[":
 *   bracket ::= ws* ( uint
 *                   | file ws* "[" ws* uint ws* "]" ws* ( "." ws* comp ws* )? ( sign uint )? )
 *               ws* "]" ( "(" ws* uint ws* ")" )?
 * sign and digits must touch: "ADDR[0].x+1" is fine, "ADDR[0].x + 1" is not. */
static bool parse_bracket(tt_ctx *ctx, int32_t *index, bool *indirect, tgsi_ind_ref *ind)
{
	memset(ind, 0, sizeof *ind);
	*indirect = false;
	*index = 0;
	tt_eat_opt_white(&ctx->cur);
	if (tt_word_len(ctx->cur) && !tt_is_digit(*ctx->cur)) {
		uint8_t f = 0;   /* parse_file sets it; some -O levels cannot see that */
		if (!parse_file(ctx, &f))
			return false;
		tt_eat_opt_white(&ctx->cur);
		if (!tt_expect_char(ctx, '['))
			return false;
		tt_eat_opt_white(&ctx->cur);
		uint32_t ui;
		if (!tt_uint_or_fail(ctx, &ui, "a literal unsigned integer"))
			return false;
		tt_eat_opt_white(&ctx->cur);
		if (!tt_expect_char(ctx, ']'))
			return false;
		tt_eat_opt_white(&ctx->cur);
		*indirect = true;
		ind->file = f;
		ind->index = (int32_t)ui;
		if (*ctx->cur == '.') {
			ctx->cur++;
			tt_eat_opt_white(&ctx->cur);
			int c = comp_index(*ctx->cur);
			if (c < 0)
				return tt_fail_at(ctx, ctx->cur, "expected indirect register swizzle "
				                  "component `x', `y', `z' or `w'");
			ind->swizzle = (uint8_t)c;
			ctx->cur++;
			tt_eat_opt_white(&ctx->cur);
		}
		if (*ctx->cur == '+' || *ctx->cur == '-') {
			int r = tt_parse_int(&ctx->cur, index);
			if (r == TT_OVERFLOW)
				return tt_fail_at(ctx, ctx->cur, "integer too large (more than 32 bits)");
			if (r != TT_OK)
				return tt_fail_at(ctx, ctx->cur + 1, "expected digits right after `%c' "
				                  "(no space allowed)", *ctx->cur);
		}
	} else {
		uint32_t ui;
		if (!tt_uint_or_fail(ctx, &ui, "a literal unsigned integer or an indirect address"))
			return false;
		*index = (int32_t)ui;
	}
	tt_eat_opt_white(&ctx->cur);
	if (!tt_expect_char(ctx, ']'))
		return false;
	if (*ctx->cur == '(') {
		ctx->cur++;
		tt_eat_opt_white(&ctx->cur);
		uint32_t id;
		if (!tt_uint_or_fail(ctx, &id, "an array id"))
			return false;
		tt_eat_opt_white(&ctx->cur);
		if (!tt_expect_char(ctx, ')'))
			return false;
		if (*indirect)
			ind->array_id = id;    /* Mesa keeps the id only on indirect access */
	}
	return true;
}

/* reg ::= file ws* "[" bracket ( ws* "[" bracket )?
 * With two brackets the first is the dimension (CONST[buf][i], IN[vtx][i]). */
static bool parse_register(tt_ctx *ctx, tgsi_reg_ref *r)
{
	memset(r, 0, sizeof *r);
	if (!parse_file(ctx, &r->file))
		return false;
	tt_eat_opt_white(&ctx->cur);
	if (!tt_expect_char(ctx, '['))
		return false;
	if (!parse_bracket(ctx, &r->index, &r->indirect, &r->ind))
		return false;
	const char *c = ctx->cur;
	tt_eat_opt_white(&c);
	if (*c == '[') {
		ctx->cur = c + 1;
		r->dimension = true;
		r->dim_index = r->index;
		r->dim_indirect = r->indirect;
		r->dim_ind = r->ind;
		if (!parse_bracket(ctx, &r->index, &r->indirect, &r->ind))
			return false;
	}
	return true;
}

/* dst ::= reg ( ws* "." ws* wmask )? */
static bool parse_dst_operand(tt_ctx *ctx, tgsi_dst *dst)
{
	if (!parse_register(ctx, &dst->reg))
		return false;
	return tt_parse_opt_writemask(ctx, &dst->writemask);
}

/* swz ::= ws* "." ws* comp{n}   -- exactly n letters, no rgba */
static bool parse_opt_swizzle(tt_ctx *ctx, uint8_t *swz, int n)
{
	const char *c = ctx->cur;
	tt_eat_opt_white(&c);
	if (*c != '.')
		return true;
	c++;
	tt_eat_opt_white(&c);
	for (int i = 0; i < n; i++) {
		int k = comp_index(*c);
		if (k < 0)
			return tt_fail_at(ctx, c, "expected register swizzle component `x', `y', `z' "
			                  "or `w' (a source swizzle has exactly %d letters)", n);
		swz[i] = (uint8_t)k;
		c++;
	}
	ctx->cur = c;
	return true;
}

/* src ::= ( "-" ws* )? ( "|" ws* )? reg swz? ( ws* "|" )   -- "|" closes iff opened */
static bool parse_src_operand(tt_ctx *ctx, tgsi_src *src)
{
	memset(src, 0, sizeof *src);
	for (int i = 0; i < 4; i++)
		src->swizzle[i] = (uint8_t)i;
	if (*ctx->cur == '-') {
		ctx->cur++;
		tt_eat_opt_white(&ctx->cur);
		src->negate = true;
	}
	if (*ctx->cur == '|') {
		ctx->cur++;
		tt_eat_opt_white(&ctx->cur);
		src->absolute = true;
	}
	if (*ctx->cur == '-' && src->absolute)
		return tt_fail_at(ctx, ctx->cur, "expected a register file: write -|x|, not |-x|");
	if (!parse_register(ctx, &src->reg))
		return false;
	if (!parse_opt_swizzle(ctx, src->swizzle, 4))
		return false;
	if (src->absolute) {
		tt_eat_opt_white(&ctx->cur);
		if (*ctx->cur != '|')
			return tt_fail_at(ctx, ctx->cur, "expected `|' closing the absolute value");
		ctx->cur++;
	}
	return true;
}

/* texoffset ::= file ws* "[" bracket ( ws* "." ws* comp comp comp )? */
static bool parse_texoffset(tt_ctx *ctx, tgsi_tex_offset *o)
{
	o->swizzle[0] = TGSI_SWIZZLE_X;
	o->swizzle[1] = TGSI_SWIZZLE_Y;
	o->swizzle[2] = TGSI_SWIZZLE_Z;
	if (!parse_file(ctx, &o->file))
		return false;
	tt_eat_opt_white(&ctx->cur);
	if (!tt_expect_char(ctx, '['))
		return false;
	bool indirect;
	tgsi_ind_ref ind;
	if (!parse_bracket(ctx, &o->index, &indirect, &ind))
		return false;
	return parse_opt_swizzle(ctx, o->swizzle, 3);
}

/* ----------------------------------------------------------- instructions */

/* mnemonic ::= NAME ( "_SAT" )? ( "_PRECISE" )?   -- whole word, this order */
static enum tgsi_opcode match_mnemonic(tt_ctx *ctx, const char *w, size_t n,
                                       bool *sat, bool *precise)
{
	static const struct { const char *suffix; bool sat, precise; } forms[] = {
		{ "", false, false }, { "_SAT_PRECISE", true, true },
		{ "_PRECISE", false, true }, { "_SAT", true, false },
	};
	for (size_t k = 0; k < sizeof forms / sizeof forms[0]; k++) {
		size_t sl = strlen(forms[k].suffix);
		if (n <= sl)
			continue;
		const char *tail = w + n - sl;
		bool ok = true;
		for (size_t i = 0; i < sl && ok; i++)
			ok = tt_upper(tail[i]) == forms[k].suffix[i];
		if (!ok)
			continue;
		enum tgsi_opcode op = tgsi_opcode_from_name(w, n - sl);
		if (op == TGSI_OPCODE_COUNT)
			continue;
		if ((tgsi_get_opcode_info(op)->flags & TGSI_OPF_LEGACY) && ctx->opts.reject_legacy)
			continue;
		*sat = forms[k].sat;
		*precise = forms[k].precise;
		return op;
	}
	return TGSI_OPCODE_COUNT;
}

/* A PIPE_FORMAT_* name (the format table itself is not modelled): TT_OK,
 * TT_NONE when the word is not one, TT_OVERFLOW (error set) when too long. */
int tt_parse_format(tt_ctx *ctx, const char **p, char *out)
{
	const char *c = *p;
	size_t n = tt_word_len(c);
	if (!tt_match_prefix(&c, "PIPE_FORMAT_") || n <= 12)
		return TT_NONE;
	if (n >= TGSI_FORMAT_NAME_MAX) {
		tt_fail_at(ctx, *p, "format name too long");
		return TT_OVERFLOW;
	}
	for (size_t i = 0; i < n; i++)
		out[i] = tt_upper((*p)[i]);
	out[n] = '\0';
	*p += n;
	return TT_OK;
}

/* Memory operands: ( "," ( memqual | target | FORMAT ) )* */
static bool parse_memory_operands(tt_ctx *ctx, tgsi_instruction *in)
{
	const char *c = ctx->cur;
	tt_eat_opt_white(&c);
	while (*c == ',') {
		c++;
		tt_eat_opt_white(&c);
		int j = tt_match_table(&c, tgsi_memory_qualifier_name, TGSI_MEMORY_QUALIFIER_COUNT);
		if (j >= 0) {
			in->mem_qualifier |= (uint8_t)(1u << j);
		} else if ((j = tt_match_table(&c, tgsi_texture_name, TGSI_TEXTURE_COUNT)) >= 0) {
			in->mem_target = (uint8_t)j;
		} else {
			int r = tt_parse_format(ctx, &c, in->mem_format);
			if (r == TT_OVERFLOW)
				return false;
			if (r == TT_NONE)
				return tt_fail_at(ctx, c, "expected memory qualifier, texture target, "
				                  "or format");
		}
		ctx->cur = c;
		tt_eat_opt_white(&c);
	}
	return true;
}

/* instruction ::= mnemonic ( ws+ operands )? branch_label?
 * operands     ::= dst{num_dst} src{num_src} target? texoffset* memory*, comma-separated
 * branch_label ::= ws* ":" ws* uint     -- IF UIF ELSE BGNLOOP ENDLOOP CAL only */
static bool parse_instruction(tt_ctx *ctx, bool has_label, const char *start)
{
	tt_eat_opt_white(&ctx->cur);
	const char *w = ctx->cur;
	size_t n = tt_word_len(w);
	bool sat = false, precise = false;
	enum tgsi_opcode op = n ? match_mnemonic(ctx, w, n, &sat, &precise) : TGSI_OPCODE_COUNT;
	if (op == TGSI_OPCODE_COUNT) {
		if (*w == '#' || *w == ';' || (w[0] == '/' && w[1] == '/'))
			return tt_fail_at(ctx, w, "TGSI text has no comments (expected an instruction, "
			                  "DCL, IMM or PROPERTY)");
		if (*w == ':')
			return tt_fail_at(ctx, w, "a branch label ` :N' may only follow IF, UIF, ELSE, "
			                  "BGNLOOP, ENDLOOP or CAL");
		if (*w == '\r')
			return tt_fail_at(ctx, w, "carriage return: `\\r' is not whitespace in TGSI "
			                  "text (CRLF files are rejected)");
		if (!n)
			return tt_fail_at(ctx, w, has_label ? "expected an opcode after the label"
			                  : "expected an instruction, DCL, IMM, PROPERTY or a label");
		return tt_fail_at(ctx, w, has_label ? "unknown opcode `%.*s'"
		                  : "unknown opcode `%.*s' (expected an instruction, DCL, IMM, "
		                    "PROPERTY or a label)", (int)(n > 40 ? 40 : n), w);
	}
	const tgsi_opcode_info *info = tgsi_get_opcode_info(op);
	bool has_tex = info->flags & TGSI_OPF_TEX;
	unsigned nops = info->num_dst + info->num_src + (has_tex ? 1u : 0u);
	ctx->cur = w + n;
	if (nops && *ctx->cur != '\0' && !tt_eat_white(&ctx->cur))
		return tt_fail_at(ctx, ctx->cur, "expected whitespace and the operands of %s",
		                  info->mnemonic);
	if (nops && *ctx->cur == '\0')
		return tt_fail_at(ctx, w + n, "expected the operands of %s (%u destination(s), "
		                  "%u source(s)%s)", info->mnemonic, info->num_dst, info->num_src,
		                  has_tex ? " and a texture target" : "");

	switch (op) {                   /* the nesting limit, as tgsi_cf_resolve counts it */
	case TGSI_OPCODE_IF: case TGSI_OPCODE_UIF: case TGSI_OPCODE_BGNLOOP:
	case TGSI_OPCODE_SWITCH: case TGSI_OPCODE_BGNSUB:
		if (ctx->nest == TGSI_MAX_NESTING)
			return tt_fail_at(ctx, w, "%s nested too deeply (at most %d levels)", info->mnemonic,
			                  TGSI_MAX_NESTING);
		ctx->nest++;
		break;
	case TGSI_OPCODE_ENDIF: case TGSI_OPCODE_ENDLOOP: case TGSI_OPCODE_ENDSWITCH:
	case TGSI_OPCODE_ENDSUB:
		ctx->nest -= ctx->nest > 0;
		break;
	default:
		break;
	}
	if (ctx->sh->num_insts == TGSI_MAX_INSTRUCTIONS)
		return tt_fail_at(ctx, w, "too many instructions (at most %d)", TGSI_MAX_INSTRUCTIONS);
	tgsi_instruction *in = tgsi_shader_add_instruction(ctx->sh);
	if (!in)
		return oom(ctx);
	tt_position(ctx, start, &in->line, &in->col);
	in->opcode = (uint16_t)op;
	in->saturate = sat;
	in->precise = precise;
	in->num_dst = info->num_dst;
	in->num_src = info->num_src;
	in->cf_open = in->cf_else = in->cf_close = in->cf_target = -1;
	if (info->flags & TGSI_OPF_SAMPLE) {
		in->texture = true;
		in->target = TGSI_TEXTURE_UNKNOWN;
	}
	in->memory = info->flags & TGSI_OPF_MEM;

	for (unsigned i = 0; i < nops; i++) {
		if (i > 0) {
			tt_eat_opt_white(&ctx->cur);
			if (*ctx->cur != ',')
				return tt_fail_at(ctx, ctx->cur, "expected `,' and operand %u of %s "
				                  "(it takes %u destination(s), %u source(s)%s)", i + 1,
				                  info->mnemonic, info->num_dst, info->num_src,
				                  has_tex ? " and a texture target" : "");
			ctx->cur++;
			tt_eat_opt_white(&ctx->cur);
		}
		if (i < info->num_dst) {
			if (!parse_dst_operand(ctx, &in->dst[i]))
				return false;
		} else if (i < (unsigned)info->num_dst + info->num_src) {
			if (!parse_src_operand(ctx, &in->src[i - info->num_dst]))
				return false;
		} else {
			int t = tt_match_table(&ctx->cur, tgsi_texture_name, TGSI_TEXTURE_COUNT);
			if (t < 0)
				return tt_fail_at(ctx, ctx->cur, "expected texture target (1D, 2D, 3D, "
				                  "CUBE, RECT, SHADOW2D, ...)");
			in->texture = true;
			in->target = (uint8_t)t;
		}
	}

	const char *c = ctx->cur;
	tt_eat_opt_white(&c);
	while (in->texture && *c == ',' && in->num_tex_offsets < TGSI_MAX_TEX_OFFSETS) {
		c++;
		tt_eat_opt_white(&c);
		ctx->cur = c;
		if (!parse_texoffset(ctx, &in->tex_offsets[in->num_tex_offsets]))
			return false;
		in->num_tex_offsets++;
		c = ctx->cur;
		tt_eat_opt_white(&c);
	}
	if (in->memory && !parse_memory_operands(ctx, in))
		return false;

	c = ctx->cur;
	tt_eat_opt_white(&c);
	if ((info->flags & TGSI_OPF_BRANCH) && *c == ':') {
		c++;
		tt_eat_opt_white(&c);
		ctx->cur = c;
		if (!tt_uint_or_fail(ctx, &in->label, "a label (instruction number)"))
			return false;
		in->has_label = true;
	}
	return true;
}

/* label ::= uint ws* ":"   -- the "N:" before an instruction; value ignored */
static bool parse_label(tt_ctx *ctx)
{
	const char *c = ctx->cur;
	uint32_t v;
	if (tt_parse_uint(&c, &v) == TT_NONE)
		return false;
	while (tt_is_digit(*c))        /* an over-long number is still a label */
		c++;
	tt_eat_opt_white(&c);
	if (*c != ':')
		return false;
	ctx->cur = c + 1;
	return true;
}

/* ------------------------------------------------------- shader */

/* header ::= "VERT" | "FRAG" | "GEOM" | "TESS_CTRL" | "TESS_EVAL" | "COMP" */
static bool parse_header(tt_ctx *ctx)
{
	int p = tt_match_table(&ctx->cur, tgsi_processor_name, TGSI_PROCESSOR_COUNT);
	if (p < 0)
		return tt_fail_at(ctx, ctx->cur, "expected a header: VERT, FRAG, GEOM, TESS_CTRL, "
		                  "TESS_EVAL or COMP");
	ctx->sh->processor = (uint8_t)p;
	if (p == TGSI_PROCESSOR_TESS_CTRL || p == TGSI_PROCESSOR_TESS_EVAL)
		ctx->implied_array_size = 32;
	return true;
}

/* shader    ::= ws* header ( ws+ statement )* ws*
 * statement ::= label instruction | "DCL" declaration | "IMM" immediate
 *             | "PROPERTY" property | instruction */
static bool parse_shader(tt_ctx *ctx)
{
	tt_eat_opt_white(&ctx->cur);
	if (!parse_header(ctx))
		return false;
	while (*ctx->cur) {
		if (!tt_eat_white(&ctx->cur)) {
			if (*ctx->cur == '\r')
				return tt_fail_at(ctx, ctx->cur, "carriage return: `\\r' is not whitespace "
				                  "in TGSI text (CRLF files are rejected)");
			return tt_fail_at(ctx, ctx->cur, "expected whitespace or end of text after "
			                  "the statement, found `%c'", *ctx->cur);
		}
		if (!*ctx->cur)
			break;
		const char *start = ctx->cur;
		bool ok;
		if (parse_label(ctx))
			ok = parse_instruction(ctx, true, start);
		else if (tt_match_whole(&ctx->cur, "DCL"))
			ok = tt_parse_declaration(ctx, start);
		else if (tt_match_whole(&ctx->cur, "IMM"))
			ok = tt_parse_immediate(ctx, start);
		else if (tt_match_whole(&ctx->cur, "PROPERTY"))
			ok = tt_parse_property(ctx, start);
		else
			ok = parse_instruction(ctx, false, start);
		if (!ok)
			return false;
	}
	return true;
}

tgsi_shader *tgsi_parse(const char *text, size_t len, const char *file,
                        const tgsi_parse_options *opts, ulp_diag *d)
{
	tt_ctx ctx;
	memset(&ctx, 0, sizeof ctx);
	ulp_diag local;
	if (!d) {
		ulp_diag_clear(&local);
		d = &local;
	}
	ctx.file = file ? file : "";
	ctx.d = d;
	if (opts)
		ctx.opts = *opts;
	char *copy = malloc(len + 1);
	if (!copy) {
		ulp_diag_at(d, ctx.file, 0, 0, "out of memory");
		return NULL;
	}
	if (len)
		memcpy(copy, text, len);
	copy[len] = '\0';
	ctx.text = ctx.cur = ctx.lc_pos = ctx.lc_line_start = copy;
	ctx.lc_line = 1;
	ctx.sh = tgsi_shader_new();
	bool ok = ctx.sh != NULL;
	if (!ok) {
		ulp_diag_at(d, ctx.file, 0, 0, "out of memory");
	} else {
		const char *nul = memchr(copy, '\0', len);
		if (nul)
			ok = tt_fail_at(&ctx, nul, "NUL byte in the text");
		else
			ok = parse_shader(&ctx);
	}
	free(copy);
	if (!ok) {
		tgsi_shader_free(ctx.sh);
		return NULL;
	}
	return ctx.sh;
}
