/* TGSI text parser, declarations (everything after "DCL"):
 *
 * declaration ::= ws+ file ws* "[" dclrange "]" ( ws* "[" dclrange "]" )? wmask?
 *                 ( "," "ARRAY" "(" int ")" )?
 *                 ( "," kind_specific )?
 *                 ( "," "STREAM" "(" uint "," uint "," uint "," uint ")" )?   -- GS OUT
 *                 ( "," interp )? ( "," location )? ( "," "INVARIANT" )?
 * For VERT inputs nothing but ARRAY may follow the range (Mesa 22.3). */
#include <string.h>

#include "frontends/tgsi/tgsi_text_ctx.h"

/* dclrange ::= ws* uint ( ws* ".." ws* uint )? ws*
 *            | (empty)   -- only where a size is implied (GS inputs, TESS_*) */
static bool parse_dcl_bracket(tt_ctx *ctx, uint32_t *first, uint32_t *last)
{
	tt_eat_opt_white(&ctx->cur);
	if (!tt_is_digit(*ctx->cur) && *ctx->cur == ']' && ctx->implied_array_size) {
		*first = 0;
		*last = ctx->implied_array_size - 1;
	} else {
		if (*ctx->cur == ']' && !tt_is_digit(*ctx->cur))
			return tt_fail_at(ctx, ctx->cur, "expected literal unsigned integer (`[]' needs "
			                  "an implied size: GEOM inputs after PROPERTY "
			                  "GS_INPUT_PRIMITIVE, or TESS_*)");
		if (!tt_uint_or_fail(ctx, first, "literal unsigned integer"))
			return false;
		tt_eat_opt_white(&ctx->cur);
		*last = *first;
		if (ctx->cur[0] == '.' && ctx->cur[1] == '.') {
			ctx->cur += 2;
			tt_eat_opt_white(&ctx->cur);
			if (!tt_uint_or_fail(ctx, last, "literal integer after `..'"))
				return false;
			tt_eat_opt_white(&ctx->cur);
		}
	}
	if (*ctx->cur != ']')
		return tt_fail_at(ctx, ctx->cur, "expected `]' or `..'");
	ctx->cur++;
	return true;
}

/* file "[" dclrange "]" ( "[" dclrange "]" )?  -- GEOM IN, TESS_EVAL IN and
 * TESS_CTRL IN/OUT keep only the second bracket (the first is the vertex). */
static bool parse_dcl_register(tt_ctx *ctx, tgsi_declaration *dcl)
{
	int f = tt_match_table(&ctx->cur, tgsi_file_name, TGSI_FILE_COUNT);
	if (f < 0)
		return tt_fail_at(ctx, ctx->cur, "expected a register file (IN, OUT, TEMP, CONST, "
		                  "SAMP, SVIEW, ADDR, SV, ...)");
	dcl->file = (uint8_t)f;
	tt_eat_opt_white(&ctx->cur);
	if (*ctx->cur != '[')
		return tt_fail_at(ctx, ctx->cur, "expected `['");
	ctx->cur++;
	if (!parse_dcl_bracket(ctx, &dcl->first, &dcl->last))
		return false;
	const char *c = ctx->cur;
	tt_eat_opt_white(&c);
	if (*c != '[')
		return true;
	ctx->cur = c + 1;
	uint32_t first2, last2;
	if (!parse_dcl_bracket(ctx, &first2, &last2))
		return false;
	unsigned proc = ctx->sh->processor;
	bool in = f == TGSI_FILE_INPUT, out = f == TGSI_FILE_OUTPUT;
	if ((proc == TGSI_PROCESSOR_GEOMETRY && in) || (proc == TGSI_PROCESSOR_TESS_EVAL && in) ||
	    (proc == TGSI_PROCESSOR_TESS_CTRL && (in || out))) {
		dcl->first = first2;
		dcl->last = last2;
	} else {
		dcl->dimension = true;
		dcl->index_2d = dcl->first;
		dcl->first = first2;
		dcl->last = last2;
	}
	return true;
}

/* "," ws* "ARRAY" "(" ws* int ws* ")" */
static bool parse_dcl_array(tt_ctx *ctx, tgsi_declaration *dcl)
{
	const char *c = ctx->cur;
	tt_eat_opt_white(&c);
	if (*c != ',')
		return true;
	c++;
	tt_eat_opt_white(&c);
	if (!tt_match_whole(&c, "ARRAY"))
		return true;
	if (*c != '(')
		return tt_fail_at(ctx, c, "expected `(' right after ARRAY");
	c++;
	tt_eat_opt_white(&c);
	int r = tt_parse_int(&c, &dcl->array_id);
	if (r != TT_OK)
		return tt_fail_at(ctx, c, r == TT_OVERFLOW ? "integer too large (more than 32 bits)"
		                  : "expected an array id");
	tt_eat_opt_white(&c);
	if (*c != ')')
		return tt_fail_at(ctx, c, "expected `)'");
	dcl->array = true;
	ctx->cur = c + 1;
	return true;
}

/* SVIEW: target "," rtype ( "," rtype ( "," rtype "," rtype )? )?
 * Mesa 22.3 quirk kept: unless a fourth type is followed by another ",",
 * all four channels take the first type. */
static bool parse_dcl_sview(tt_ctx *ctx, const char **pc, tgsi_declaration *dcl)
{
	const char *c = *pc;
	tt_eat_opt_white(&c);
	if (*c != ',')
		return tt_fail_at(ctx, c, "expected `,' and a return type (FLOAT, UINT, SINT, "
		                  "UNORM, SNORM)");
	c++;
	tt_eat_opt_white(&c);
	int j;
	for (j = 0; j < 4; j++) {
		int t = tt_match_table(&c, tgsi_return_type_name, TGSI_RETURN_TYPE_COUNT);
		if (t < 0) {
			if (j == 0 || j > 2)
				return tt_fail_at(ctx, c, "expected type name (FLOAT, UINT, SINT, UNORM, "
				                  "SNORM)");
			break;
		}
		dcl->return_type[j] = (uint8_t)t;
		const char *c2 = c;
		tt_eat_opt_white(&c2);
		if (*c2 != ',')
			break;
		c2++;
		tt_eat_opt_white(&c2);
		c = c2;
	}
	if (j < 4)
		dcl->return_type[1] = dcl->return_type[2] = dcl->return_type[3] = dcl->return_type[0];
	*pc = c;
	return true;
}

/* IMAGE: target ( "," ( "RAW" | "WR" | FORMAT ) )* */
static bool parse_dcl_image(tt_ctx *ctx, const char **pc, tgsi_declaration *dcl)
{
	const char *c = *pc;
	const char *c2 = c;
	tt_eat_opt_white(&c2);
	while (*c2 == ',') {
		c2++;
		tt_eat_opt_white(&c2);
		if (tt_match_whole(&c2, "RAW")) {
			dcl->image_raw = true;
		} else if (tt_match_whole(&c2, "WR")) {
			dcl->image_writable = true;
		} else {
			int r = tt_parse_format(ctx, &c2, dcl->image_format);
			if (r == TT_OVERFLOW)
				return false;
			if (r == TT_NONE)
				break;
		}
		c = c2;
		tt_eat_opt_white(&c2);
	}
	*pc = c;
	return true;
}

/* other files: ( "LOCAL" )? ( "," SEMANTIC ( ws* "[" ws* uint ws* "]" )? )? */
static bool parse_dcl_semantic(tt_ctx *ctx, const char *c, tgsi_declaration *dcl)
{
	if (tt_match_whole(&c, "LOCAL")) {
		dcl->local = true;
		ctx->cur = c;
	}
	c = ctx->cur;
	tt_eat_opt_white(&c);
	if (*c != ',')
		return true;
	c++;
	tt_eat_opt_white(&c);
	int s = tt_match_table(&c, tgsi_semantic_name, TGSI_SEMANTIC_COUNT);
	if (s < 0)
		return true;           /* may still be an interpolation mode */
	dcl->semantic = true;
	dcl->semantic_name = (uint8_t)s;
	const char *c2 = c;
	tt_eat_opt_white(&c2);
	if (*c2 == '[') {
		c2++;
		tt_eat_opt_white(&c2);
		ctx->cur = c2;
		if (!tt_uint_or_fail(ctx, &dcl->semantic_index, "literal integer (semantic index)"))
			return false;
		c2 = ctx->cur;
		tt_eat_opt_white(&c2);
		if (*c2 != ']')
			return tt_fail_at(ctx, c2, "expected `]'");
		c = c2 + 1;
	}
	ctx->cur = c;
	return true;
}

/* "," ( IMAGE | SVIEW | BUFFER | MEMORY | semantic part ) */
static bool parse_dcl_kind(tt_ctx *ctx, tgsi_declaration *dcl)
{
	const char *c = ctx->cur;
	tt_eat_opt_white(&c);
	if (*c != ',')
		return true;
	c++;
	tt_eat_opt_white(&c);
	int t;
	switch (dcl->file) {
	case TGSI_FILE_IMAGE:
	case TGSI_FILE_SAMPLER_VIEW:
		t = tt_match_table(&c, tgsi_texture_name, TGSI_TEXTURE_COUNT);
		if (t < 0)
			return tt_fail_at(ctx, c, "expected texture target (1D, 2D, 3D, CUBE, RECT, "
			                  "SHADOW2D, ...)");
		dcl->resource = (uint8_t)t;
		if (dcl->file == TGSI_FILE_IMAGE ? !parse_dcl_image(ctx, &c, dcl)
		                                 : !parse_dcl_sview(ctx, &c, dcl))
			return false;
		ctx->cur = c;
		return true;
	case TGSI_FILE_BUFFER:
		if (tt_match_whole(&c, "ATOMIC")) {
			dcl->atomic = true;
			ctx->cur = c;
		}
		return true;
	case TGSI_FILE_MEMORY:
		t = tt_match_table(&c, tgsi_memory_type_name, TGSI_MEMORY_TYPE_COUNT);
		if (t >= 0) {
			dcl->mem_type = (uint8_t)t;
			ctx->cur = c;
		}
		return true;
	default:
		return parse_dcl_semantic(ctx, c, dcl);
	}
}

/* "," "STREAM" ws* "(" ws* uint ws* ( "," ws* uint ws* ){3} ")"  -- GEOM outputs */
static bool parse_dcl_stream(tt_ctx *ctx, tgsi_declaration *dcl)
{
	const char *c = ctx->cur;
	tt_eat_opt_white(&c);
	if (*c != ',')
		return true;
	c++;
	tt_eat_opt_white(&c);
	if (!tt_match_whole(&c, "STREAM"))
		return true;
	tt_eat_opt_white(&c);
	if (*c != '(')
		return tt_fail_at(ctx, c, "expected `(' after STREAM");
	c++;
	for (int i = 0; i < 4; i++) {
		tt_eat_opt_white(&c);
		ctx->cur = c;
		if (!tt_uint_or_fail(ctx, &dcl->stream[i], "literal integer (stream)"))
			return false;
		c = ctx->cur;
		tt_eat_opt_white(&c);
		if (i < 3) {
			if (*c != ',')
				return tt_fail_at(ctx, c, "expected `,' (STREAM takes 4 values)");
			c++;
		}
	}
	if (*c != ')')
		return tt_fail_at(ctx, c, "expected `)'");
	ctx->cur = c + 1;
	return true;
}

/* ( "," name )? for a name table; true when matched */
static bool opt_named(tt_ctx *ctx, const char *(*name)(unsigned), unsigned count, uint8_t *v)
{
	const char *c = ctx->cur;
	tt_eat_opt_white(&c);
	if (*c != ',')
		return false;
	c++;
	tt_eat_opt_white(&c);
	int i = tt_match_table(&c, name, count);
	if (i < 0)
		return false;
	*v = (uint8_t)i;
	ctx->cur = c;
	return true;
}

bool tt_parse_declaration(tt_ctx *ctx, const char *start)
{
	if (!tt_eat_white(&ctx->cur))
		return tt_fail_at(ctx, ctx->cur, "expected whitespace and a register after DCL");
	tgsi_declaration tmp;
	memset(&tmp, 0, sizeof tmp);
	tgsi_declaration *dcl = &tmp;
	if (!parse_dcl_register(ctx, dcl))
		return false;
	if (!tt_parse_opt_writemask(ctx, &dcl->usage_mask))
		return false;
	if (!parse_dcl_array(ctx, dcl))
		return false;
	bool vs_input = dcl->file == TGSI_FILE_INPUT &&
	                ctx->sh->processor == TGSI_PROCESSOR_VERTEX;
	const char *c = ctx->cur;
	tt_eat_opt_white(&c);
	if (vs_input) {
		if (*c == ',')
			return tt_fail_at(ctx, c, "a VERT input declaration takes nothing after its "
			                  "range (Mesa 22.3 rejects `DCL IN[0], POSITION' in VERT)");
	} else {
		if (!parse_dcl_kind(ctx, dcl))
			return false;
		if (dcl->file == TGSI_FILE_OUTPUT && ctx->sh->processor == TGSI_PROCESSOR_GEOMETRY &&
		    !parse_dcl_stream(ctx, dcl))
			return false;
		if (opt_named(ctx, tgsi_interpolate_name, TGSI_INTERPOLATE_COUNT, &dcl->interp))
			dcl->interpolate = true;
		opt_named(ctx, tgsi_interpolate_loc_name, TGSI_INTERPOLATE_LOC_COUNT, &dcl->location);
		c = ctx->cur;
		tt_eat_opt_white(&c);
		if (*c == ',') {
			c++;
			tt_eat_opt_white(&c);
			if (!tt_match_whole(&c, "INVARIANT"))
				return tt_fail_at(ctx, c, "expected semantic, interpolate attribute, "
				                  "location or INVARIANT (in that order)");
			dcl->invariant = true;
			ctx->cur = c;
		}
	}
	tgsi_declaration *out = tgsi_shader_add_declaration(ctx->sh);
	if (!out)
		return tt_fail_at(ctx, ctx->cur, "out of memory");
	*out = tmp;
	tt_position(ctx, start, &out->line, &out->col);
	if (out->file == TGSI_FILE_IMAGE && !out->image_format[0])
		memcpy(out->image_format, "PIPE_FORMAT_NONE", sizeof "PIPE_FORMAT_NONE");
	return true;
}
