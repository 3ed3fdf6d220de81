/* The Gallium driver's translation tables (gl_tables.h). */
#include "traces/gl/gl_tables.h"

#include <string.h>

/* The formats ulpsim models (traces/trace.h texture formats; units/gr3d
 * render-target formats RGBA8888/BGRA8888/RGB565/A8; D16 and D24S8 depth).
 * RGB565 is little-endian with red in the top 5 bits, Gallium's
 * B5G6R5_UNORM.  A D24S8 surface is sampled as D16, its depth's top 16
 * bits (the context converts it when it uploads the texture): the TEX unit
 * models no 24-bit texel, and its depth path keeps less than 16 bits
 * anyway (D16 -> FX10, units/gr3d/gr3d_quad.h), so nothing a shader can
 * see is lost. */
static const ulp_gl_format FORMATS[] = {
	{ "R8G8B8A8_UNORM", TRACE_RGBA8888, "RGBA8888", NULL, false, false },
	{ "R8G8B8X8_UNORM", TRACE_RGBA8888, "RGBA8888", NULL, true, false },
	{ "B8G8R8A8_UNORM", TRACE_BGRA8888, "BGRA8888", NULL, false, false },
	{ "B8G8R8X8_UNORM", TRACE_BGRA8888, "BGRA8888", NULL, true, false },
	{ "B5G6R5_UNORM", TRACE_RGB565, "RGB565", NULL, false, false },
	{ "A8_UNORM", TRACE_A8, "A8", NULL, false, false },
	{ "L8_UNORM", TRACE_L8, NULL, NULL, false, false },
	{ "Z16_UNORM", TRACE_D16, NULL, "D16", false, false },
	{ "Z24_UNORM_S8_UINT", TRACE_D16, NULL, "D24S8", false, true },
	{ "Z24X8_UNORM", TRACE_D16, NULL, "D24S8", false, true },
};

const ulp_gl_format *ulp_gl_format_named(const char *name)
{
	for (size_t k = 0; name && k < sizeof FORMATS / sizeof FORMATS[0]; k++)
		if (!strcmp(FORMATS[k].name, name))
			return &FORMATS[k];
	return NULL;
}

const ulp_gl_format *ulp_gl_format_at(size_t k)
{
	return k < sizeof FORMATS / sizeof FORMATS[0] ? &FORMATS[k] : NULL;
}

bool ulp_gl_format_binds(const ulp_gl_format *f, unsigned bind)
{
	if ((bind & ULP_GL_BIND_SAMPLER_VIEW) && f->tex < 0)
		return false;
	if ((bind & ULP_GL_BIND_RENDER_TARGET) && !f->rt)
		return false;
	return !(bind & ULP_GL_BIND_DEPTH_STENCIL) || f->zs;
}

const char *ulp_gl_vertex_format(const char *name)
{
	/* 32-bit float, 1 to 4 components (traces/replay vertex fetch) */
	static const char *const V[] = { "R32_FLOAT", "R32G32_FLOAT", "R32G32B32_FLOAT", "R32G32B32A32_FLOAT" };
	for (size_t k = 0; name && k < sizeof V / sizeof V[0]; k++)
		if (!strcmp(V[k], name))
			return V[k];
	return NULL;
}

const char *ulp_gl_blend_factor(unsigned f)
{
	switch (f) {
	case ULP_GL_BLENDFACTOR_ONE: return "one";
	case ULP_GL_BLENDFACTOR_SRC_COLOR: return "src_color";
	case ULP_GL_BLENDFACTOR_SRC_ALPHA: return "src_alpha";
	case ULP_GL_BLENDFACTOR_DST_ALPHA: return "dst_alpha";
	case ULP_GL_BLENDFACTOR_DST_COLOR: return "dst_color";
	case ULP_GL_BLENDFACTOR_SRC_ALPHA_SATURATE: return "src_alpha_saturate";
	case ULP_GL_BLENDFACTOR_CONST_COLOR: return "const_color";
	case ULP_GL_BLENDFACTOR_CONST_ALPHA: return "const_alpha";
	case ULP_GL_BLENDFACTOR_INV_SRC_COLOR: return "inv_src_color";
	case ULP_GL_BLENDFACTOR_INV_SRC_ALPHA: return "inv_src_alpha";
	case ULP_GL_BLENDFACTOR_INV_DST_ALPHA: return "inv_dst_alpha";
	case ULP_GL_BLENDFACTOR_INV_DST_COLOR: return "inv_dst_color";
	case ULP_GL_BLENDFACTOR_INV_CONST_COLOR: return "inv_const_color";
	case ULP_GL_BLENDFACTOR_INV_CONST_ALPHA: return "inv_const_alpha";
	default: return "zero";
	}
}

const char *ulp_gl_blend_func(unsigned f)
{
	static const char *const FUNC[] = { "add", "subtract", "reverse_subtract", "min", "max" };  /* ORDER: ULP_GL_BLEND_* */
	return f < 5 ? FUNC[f] : "add";
}

const char *ulp_gl_compare_func(unsigned f)
{
	static const char *const FUNCS[] = { "never", "less", "equal", "lequal", "greater", "notequal", "gequal",
		"always" };   /* ORDER: ULP_GL_FUNC_* */
	return FUNCS[f & 7];
}

const char *ulp_gl_stencil_op(unsigned op)
{
	static const char *const OPS[] = { "keep", "zero", "replace", "incr", "decr", "incr", "decr", "invert" };
	return OPS[op & 7];
}

const char *ulp_gl_cull(unsigned face, bool wide)
{
	static const char *const CULL[] = { "none", "front", "back", "none" };   /* ORDER: ULP_GL_FACE_*; both: drawn none */
	return wide ? "none" : CULL[face & 3];
}

const char *ulp_gl_wrap(unsigned wrap)
{
	return wrap == ULP_GL_TEX_WRAP_REPEAT ? "repeat" : wrap == ULP_GL_TEX_WRAP_MIRROR_REPEAT ? "mirror" : "clamp";
}

const char *ulp_gl_mip_filter(unsigned f)
{
	static const char *const MIP[] = { "nearest", "linear", "none" };   /* ORDER: ULP_GL_TEX_MIPFILTER_* */
	return f < 3 ? MIP[f] : "none";
}

const char *ulp_gl_filter(unsigned f)
{
	return f == ULP_GL_TEX_FILTER_LINEAR ? "linear" : "nearest";
}
