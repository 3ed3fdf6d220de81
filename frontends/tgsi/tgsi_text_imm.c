/* TGSI text parser, immediates and properties (after "IMM" / "PROPERTY"). */
#include <stdlib.h>
#include <string.h>

#include "frontends/tgsi/tgsi_text_ctx.h"

/* "inf", "-inf", "nan", "-nan": what Mesa 22.3.6's tgsi_dump prints for
 * non-finite FLT32 immediates ("%10.4f" through glibc's printf; reference
 * tgsi.md §1.6), which Mesa's own parser refuses.  Exactly these lower-case
 * words, not followed by an identifier character; a NaN's payload is not in
 * the text, so it reads as the quiet NaN of its sign (0x7fc00000 /
 * 0xffc00000), which prints back the same.  False when not one of them. */
static bool parse_nonfinite(tt_ctx *ctx, uint32_t *bits)
{
	const char *c = ctx->cur;
	bool neg = *c == '-';
	c += neg;
	uint32_t v;
	if (strncmp(c, "inf", 3) == 0)
		v = 0x7f800000u;
	else if (strncmp(c, "nan", 3) == 0)
		v = 0x7fc00000u;
	else
		return false;
	char after = c[3];
	if (tt_is_digit(after) || after == '_' || (tt_upper(after) >= 'A' && tt_upper(after) <= 'Z'))
		return false;
	*bits = v | (neg ? 0x80000000u : 0u);
	ctx->cur = c + 3;
	return true;
}

/* FLT32 value ::= "0x" hex{8}          -- raw IEEE-754 bits (Mesa 22.3)
 *               | "-"? ( "inf" | "nan" )  -- tgsi_dump's non-finite values
 *               | [+-]? digits? ( "." digits? )? ( [eE] [+-]? digits )?  -- >= 1 digit */
static bool parse_flt32(tt_ctx *ctx, uint32_t *bits, uint8_t *notation)
{
	const char *c = ctx->cur;
	if (parse_nonfinite(ctx, bits)) {
		*notation = TGSI_FLOAT_DECIMAL;
		return true;
	}
	if (c[0] == '0' && c[1] == 'x') {
		uint32_t v = 0;
		for (int i = 0; i < 8; i++) {
			char h = c[2 + i];
			int d = tt_is_digit(h) ? h - '0'
			        : (tt_upper(h) >= 'A' && tt_upper(h) <= 'F') ? tt_upper(h) - 'A' + 10 : -1;
			if (d < 0)
				return tt_fail_at(ctx, c + 2 + i, "expected 8 hex digits after `0x' "
				                  "(a FLT32 bit pattern)");
			v = v << 4 | (uint32_t)d;
		}
		*bits = v;
		*notation = TGSI_FLOAT_HEX;
		ctx->cur = c + 10;
		return true;
	}
	bool digits = false;
	if (*c == '+' || *c == '-')
		c++;
	while (tt_is_digit(*c)) {
		c++;
		digits = true;
	}
	if (*c == '.') {
		c++;
		while (tt_is_digit(*c)) {
			c++;
			digits = true;
		}
	}
	if (!digits)
		return tt_fail_at(ctx, ctx->cur, "expected immediate constant (a FLT32 number)");
	if (tt_upper(*c) == 'E') {
		c++;
		if (*c == '+' || *c == '-')
			c++;
		if (!tt_is_digit(*c))
			return tt_fail_at(ctx, c, "expected exponent digits");
		while (tt_is_digit(*c))
			c++;
	}
	char buf[128];
	size_t n = (size_t)(c - ctx->cur);
	if (n >= sizeof buf)
		return tt_fail_at(ctx, ctx->cur, "immediate constant too long");
	memcpy(buf, ctx->cur, n);
	buf[n] = '\0';
	float f = (float)strtod(buf, NULL);
	memcpy(bits, &f, sizeof f);
	*notation = TGSI_FLOAT_DECIMAL;
	ctx->cur = c;
	return true;
}

/* 64-bit values through the C library, as Mesa does (strtod / strtoll /
 * strtoull with base 0); each fills two 32-bit slots, low word first. */
static bool parse_64(tt_ctx *ctx, uint8_t type, uint32_t *lo, uint32_t *hi)
{
	char *end = NULL;
	uint64_t v;
	if (type == TGSI_IMM_FLOAT64) {
		double x = strtod(ctx->cur, &end);
		memcpy(&v, &x, sizeof v);
	} else if (type == TGSI_IMM_INT64) {
		long long x = strtoll(ctx->cur, &end, 0);
		v = (uint64_t)x;
	} else {
		v = (uint64_t)strtoull(ctx->cur, &end, 0);
	}
	if (!end || end == ctx->cur)
		return tt_fail_at(ctx, ctx->cur, "expected immediate constant (a %s number)",
		                  tgsi_imm_type_name(type));
	*lo = (uint32_t)v;
	*hi = (uint32_t)(v >> 32);
	ctx->cur = end;
	return true;
}

/* immediate ::= ( "[" ws* uint ws* "]" )? ws+ imm_type ws* "{" v ( ws* "," ws* v ){3} ws* "}"
 * (64-bit types: two values) */
bool tt_parse_immediate(tt_ctx *ctx, const char *start)
{
	if (*ctx->cur == '[') {
		ctx->cur++;
		tt_eat_opt_white(&ctx->cur);
		const char *at = ctx->cur;
		uint32_t idx;
		if (!tt_uint_or_fail(ctx, &idx, "a literal unsigned integer"))
			return false;
		if (idx != ctx->sh->num_imms)
			return tt_fail_at(ctx, at, "immediates must be sorted: expected IMM[%zu]",
			                  ctx->sh->num_imms);
		tt_eat_opt_white(&ctx->cur);
		if (!tt_expect_char(ctx, ']'))
			return false;
	}
	if (!tt_eat_white(&ctx->cur))
		return tt_fail_at(ctx, ctx->cur, "expected whitespace and an immediate type");
	int type = tt_match_table(&ctx->cur, tgsi_imm_type_name, TGSI_IMM_TYPE_COUNT);
	if (type < 0)
		return tt_fail_at(ctx, ctx->cur, "expected immediate type (FLT32, UINT32, INT32, "
		                  "FLT64, UINT64, INT64)");
	tgsi_immediate *im = tgsi_shader_add_immediate(ctx->sh);
	if (!im)
		return tt_fail_at(ctx, ctx->cur, "out of memory");
	tt_position(ctx, start, &im->line, &im->col);
	im->type = (uint8_t)type;
	tt_eat_opt_white(&ctx->cur);
	if (!tt_expect_char(ctx, '{'))
		return false;
	bool wide = type == TGSI_IMM_FLOAT64 || type == TGSI_IMM_UINT64 || type == TGSI_IMM_INT64;
	for (unsigned i = 0; i < 4; i += wide ? 2 : 1) {
		tt_eat_opt_white(&ctx->cur);
		if (i > 0) {
			if (*ctx->cur != ',')
				return tt_fail_at(ctx, ctx->cur, "expected `,' (an immediate has %s values)",
				                  wide ? "2" : "4");
			ctx->cur++;
			tt_eat_opt_white(&ctx->cur);
		}
		bool ok;
		int32_t iv;
		switch (type) {
		case TGSI_IMM_FLOAT32:
			ok = parse_flt32(ctx, &im->u[i], &im->notation[i]);
			break;
		case TGSI_IMM_UINT32:
			ok = tt_uint_or_fail(ctx, &im->u[i], "immediate constant (an unsigned integer)");
			break;
		case TGSI_IMM_INT32:
			switch (tt_parse_int(&ctx->cur, &iv)) {
			case TT_OK:
				memcpy(&im->u[i], &iv, sizeof iv);
				ok = true;
				break;
			case TT_OVERFLOW:
				ok = tt_fail_at(ctx, ctx->cur, "integer too large (more than 32 bits)");
				break;
			default:
				ok = tt_fail_at(ctx, ctx->cur, "expected immediate constant (an integer)");
			}
			break;
		default:
			ok = parse_64(ctx, (uint8_t)type, &im->u[i], &im->u[i + 1]);
		}
		if (!ok)
			return false;
	}
	tt_eat_opt_white(&ctx->cur);
	if (*ctx->cur != '}')
		return tt_fail_at(ctx, ctx->cur, "expected `}' (an immediate has %s values)",
		                  wide ? "2" : "4");
	ctx->cur++;
	return true;
}

/* ------------------------------------------------------- properties */

/* property ::= ws+ PROPERTY_NAME ws* value */
bool tt_parse_property(tt_ctx *ctx, const char *start)
{
	if (!tt_eat_white(&ctx->cur))
		return tt_fail_at(ctx, ctx->cur, "expected whitespace and a property name");
	const char *at = ctx->cur;
	size_t n = tt_word_len(at);
	if (!n || tt_is_digit(*at))
		return tt_fail_at(ctx, at, "expected a property name");
	int name = tt_match_table(&ctx->cur, tgsi_property_name, TGSI_PROPERTY_COUNT);
	if (name < 0)
		return tt_fail_at(ctx, at, "unknown property `%.*s'", (int)(n > 40 ? 40 : n), at);
	tt_eat_opt_white(&ctx->cur);
	tgsi_property *p = tgsi_shader_add_property(ctx->sh);
	if (!p)
		return tt_fail_at(ctx, ctx->cur, "out of memory");
	tt_position(ctx, start, &p->line, &p->col);
	p->name = (uint8_t)name;
	int v = -2;
	switch (name) {
	case TGSI_PROPERTY_GS_INPUT_PRIM:
	case TGSI_PROPERTY_GS_OUTPUT_PRIM:
		v = tt_match_table(&ctx->cur, tgsi_primitive_name, TGSI_PRIM_COUNT);
		if (v < 0)
			return tt_fail_at(ctx, ctx->cur, "expected a primitive name (POINTS, LINES, "
			                  "TRIANGLES, TRIANGLE_STRIP, ...)");
		if (name == TGSI_PROPERTY_GS_INPUT_PRIM && ctx->sh->processor == TGSI_PROCESSOR_GEOMETRY)
			ctx->implied_array_size = tgsi_primitive_vertices((unsigned)v);
		break;
	case TGSI_PROPERTY_FS_COORD_ORIGIN:
		v = tt_match_table(&ctx->cur, tgsi_fs_coord_origin_name, 2);
		if (v < 0)
			return tt_fail_at(ctx, ctx->cur, "expected UPPER_LEFT or LOWER_LEFT");
		break;
	case TGSI_PROPERTY_FS_COORD_PIXEL_CENTER:
		v = tt_match_table(&ctx->cur, tgsi_fs_coord_pixel_center_name, 2);
		if (v < 0)
			return tt_fail_at(ctx, ctx->cur, "expected HALF_INTEGER or INTEGER");
		break;
	case TGSI_PROPERTY_NEXT_SHADER:
		v = tt_match_table(&ctx->cur, tgsi_processor_name, TGSI_PROCESSOR_COUNT);
		if (v < 0)
			return tt_fail_at(ctx, ctx->cur, "expected a shader stage (VERT, FRAG, GEOM, "
			                  "TESS_CTRL, TESS_EVAL, COMP)");
		break;
	default:
		return tt_uint_or_fail(ctx, &p->value, "an unsigned integer property value");
	}
	p->value = (uint32_t)v;
	return true;
}
