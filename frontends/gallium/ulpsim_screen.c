/* pipe_screen of the ulpsim driver (docs/gl.md "Caps and why"): what the
 * simulated PICA200 vertex units and Tegra 2/3 GR3D fragment pipeline can
 * run, told to Mesa as caps, so that st/mesa hands the driver the
 * float-only TGSI the corpus was made with (mesa-driver.md §3), and only
 * the formats ulpsim models.  Draws complete synchronously, so fences are
 * trivial. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/gallium/ulpsim_gallium.h"
#include "traces/gl/gl_prims.h"
#include "traces/gl/gl_run.h"

#include "frontend/sw_winsys.h"
#include "pipe/p_defines.h"
#include "util/format/u_format.h"
#include "util/u_memory.h"
#include "util/u_screen.h"

/* Limits: traces/gl/gl_tables.h (docs/gl.md has the table with the reasons). */
enum {
	VS_INPUTS = ULP_GL_VS_INPUTS, VS_OUTPUTS = ULP_GL_VS_OUTPUTS, VS_CONSTS = ULP_GL_VS_CONSTS,
	VS_TEMPS = ULP_GL_VS_TEMPS, VS_INSTRUCTIONS = ULP_GL_VS_INSTRUCTIONS, VS_CF_DEPTH = ULP_GL_VS_CF_DEPTH,
	FS_INPUTS = ULP_GL_FS_INPUTS, FS_SAMPLERS = ULP_GL_FS_SAMPLERS, FS_EXECS = ULP_GL_FS_EXECS,
	FS_ALU = ULP_GL_FS_ALU, FS_CONSTS = ULP_GL_FS_CONSTS, FS_TEMPS = ULP_GL_FS_TEMPS,
	FS_CF_DEPTH = ULP_GL_FS_CF_DEPTH, TEX_LEVELS = TRACE_TEX_LEVELS,
};

/* gl_tables.h mirrors Gallium's enum values: a Mesa that renumbers them
 * does not build. */
#define SAME(a, b) _Static_assert((int)(a) == (int)(b), #a " is " #b)
SAME(ULP_GL_BLENDFACTOR_ONE, PIPE_BLENDFACTOR_ONE);
SAME(ULP_GL_BLENDFACTOR_SRC_COLOR, PIPE_BLENDFACTOR_SRC_COLOR);
SAME(ULP_GL_BLENDFACTOR_SRC_ALPHA, PIPE_BLENDFACTOR_SRC_ALPHA);
SAME(ULP_GL_BLENDFACTOR_DST_ALPHA, PIPE_BLENDFACTOR_DST_ALPHA);
SAME(ULP_GL_BLENDFACTOR_DST_COLOR, PIPE_BLENDFACTOR_DST_COLOR);
SAME(ULP_GL_BLENDFACTOR_SRC_ALPHA_SATURATE, PIPE_BLENDFACTOR_SRC_ALPHA_SATURATE);
SAME(ULP_GL_BLENDFACTOR_CONST_COLOR, PIPE_BLENDFACTOR_CONST_COLOR);
SAME(ULP_GL_BLENDFACTOR_CONST_ALPHA, PIPE_BLENDFACTOR_CONST_ALPHA);
SAME(ULP_GL_BLENDFACTOR_SRC1_COLOR, PIPE_BLENDFACTOR_SRC1_COLOR);
SAME(ULP_GL_BLENDFACTOR_SRC1_ALPHA, PIPE_BLENDFACTOR_SRC1_ALPHA);
SAME(ULP_GL_BLENDFACTOR_ZERO, PIPE_BLENDFACTOR_ZERO);
SAME(ULP_GL_BLENDFACTOR_INV_SRC_COLOR, PIPE_BLENDFACTOR_INV_SRC_COLOR);
SAME(ULP_GL_BLENDFACTOR_INV_SRC_ALPHA, PIPE_BLENDFACTOR_INV_SRC_ALPHA);
SAME(ULP_GL_BLENDFACTOR_INV_DST_ALPHA, PIPE_BLENDFACTOR_INV_DST_ALPHA);
SAME(ULP_GL_BLENDFACTOR_INV_DST_COLOR, PIPE_BLENDFACTOR_INV_DST_COLOR);
SAME(ULP_GL_BLENDFACTOR_INV_CONST_COLOR, PIPE_BLENDFACTOR_INV_CONST_COLOR);
SAME(ULP_GL_BLENDFACTOR_INV_CONST_ALPHA, PIPE_BLENDFACTOR_INV_CONST_ALPHA);
SAME(ULP_GL_BLENDFACTOR_INV_SRC1_COLOR, PIPE_BLENDFACTOR_INV_SRC1_COLOR);
SAME(ULP_GL_BLENDFACTOR_INV_SRC1_ALPHA, PIPE_BLENDFACTOR_INV_SRC1_ALPHA);
SAME(ULP_GL_BLEND_ADD, PIPE_BLEND_ADD);
SAME(ULP_GL_BLEND_SUBTRACT, PIPE_BLEND_SUBTRACT);
SAME(ULP_GL_BLEND_REVERSE_SUBTRACT, PIPE_BLEND_REVERSE_SUBTRACT);
SAME(ULP_GL_BLEND_MIN, PIPE_BLEND_MIN);
SAME(ULP_GL_BLEND_MAX, PIPE_BLEND_MAX);
SAME(ULP_GL_FUNC_NEVER, PIPE_FUNC_NEVER);
SAME(ULP_GL_FUNC_LESS, PIPE_FUNC_LESS);
SAME(ULP_GL_FUNC_EQUAL, PIPE_FUNC_EQUAL);
SAME(ULP_GL_FUNC_LEQUAL, PIPE_FUNC_LEQUAL);
SAME(ULP_GL_FUNC_GREATER, PIPE_FUNC_GREATER);
SAME(ULP_GL_FUNC_NOTEQUAL, PIPE_FUNC_NOTEQUAL);
SAME(ULP_GL_FUNC_GEQUAL, PIPE_FUNC_GEQUAL);
SAME(ULP_GL_FUNC_ALWAYS, PIPE_FUNC_ALWAYS);
SAME(ULP_GL_STENCIL_OP_KEEP, PIPE_STENCIL_OP_KEEP);
SAME(ULP_GL_STENCIL_OP_ZERO, PIPE_STENCIL_OP_ZERO);
SAME(ULP_GL_STENCIL_OP_REPLACE, PIPE_STENCIL_OP_REPLACE);
SAME(ULP_GL_STENCIL_OP_INCR, PIPE_STENCIL_OP_INCR);
SAME(ULP_GL_STENCIL_OP_DECR, PIPE_STENCIL_OP_DECR);
SAME(ULP_GL_STENCIL_OP_INCR_WRAP, PIPE_STENCIL_OP_INCR_WRAP);
SAME(ULP_GL_STENCIL_OP_DECR_WRAP, PIPE_STENCIL_OP_DECR_WRAP);
SAME(ULP_GL_STENCIL_OP_INVERT, PIPE_STENCIL_OP_INVERT);
SAME(ULP_GL_FACE_NONE, PIPE_FACE_NONE);
SAME(ULP_GL_FACE_FRONT, PIPE_FACE_FRONT);
SAME(ULP_GL_FACE_BACK, PIPE_FACE_BACK);
SAME(ULP_GL_FACE_FRONT_AND_BACK, PIPE_FACE_FRONT_AND_BACK);
SAME(ULP_GL_TEX_WRAP_REPEAT, PIPE_TEX_WRAP_REPEAT);
SAME(ULP_GL_TEX_WRAP_CLAMP, PIPE_TEX_WRAP_CLAMP);
SAME(ULP_GL_TEX_WRAP_CLAMP_TO_EDGE, PIPE_TEX_WRAP_CLAMP_TO_EDGE);
SAME(ULP_GL_TEX_WRAP_CLAMP_TO_BORDER, PIPE_TEX_WRAP_CLAMP_TO_BORDER);
SAME(ULP_GL_TEX_WRAP_MIRROR_REPEAT, PIPE_TEX_WRAP_MIRROR_REPEAT);
SAME(ULP_GL_TEX_WRAP_MIRROR_CLAMP, PIPE_TEX_WRAP_MIRROR_CLAMP);
SAME(ULP_GL_TEX_WRAP_MIRROR_CLAMP_TO_EDGE, PIPE_TEX_WRAP_MIRROR_CLAMP_TO_EDGE);
SAME(ULP_GL_TEX_WRAP_MIRROR_CLAMP_TO_BORDER, PIPE_TEX_WRAP_MIRROR_CLAMP_TO_BORDER);
SAME(ULP_GL_TEX_MIPFILTER_NEAREST, PIPE_TEX_MIPFILTER_NEAREST);
SAME(ULP_GL_TEX_MIPFILTER_LINEAR, PIPE_TEX_MIPFILTER_LINEAR);
SAME(ULP_GL_TEX_MIPFILTER_NONE, PIPE_TEX_MIPFILTER_NONE);
SAME(ULP_GL_TEX_FILTER_NEAREST, PIPE_TEX_FILTER_NEAREST);
SAME(ULP_GL_TEX_FILTER_LINEAR, PIPE_TEX_FILTER_LINEAR);
SAME(ULP_GL_BIND_DEPTH_STENCIL, PIPE_BIND_DEPTH_STENCIL);
SAME(ULP_GL_BIND_RENDER_TARGET, PIPE_BIND_RENDER_TARGET);
SAME(ULP_GL_BIND_SAMPLER_VIEW, PIPE_BIND_SAMPLER_VIEW);
#undef SAME

/* Gallium's name of f without "PIPE_FORMAT_" (the tables' key). */
static const char *format_key(enum pipe_format f)
{
	const char *n = util_format_name(f);
	return n && !strncmp(n, "PIPE_FORMAT_", 12) ? n + 12 : n;
}

const ulp_gl_format *ulpsim_format_lookup(enum pipe_format f)
{
	return ulp_gl_format_named(format_key(f));
}

/* Vertex fetch: Mesa converts every other vertex format to these (u_vbuf). */
static bool vertex_format_ok(enum pipe_format f)
{
	return ulp_gl_vertex_format(format_key(f)) != NULL;
}

static const char *ulpsim_get_name(struct pipe_screen *screen)
{
	(void)screen;
	return "ulpsim (simulated PICA200 + Tegra GR3D)";
}

static const char *ulpsim_get_vendor(struct pipe_screen *screen)
{
	(void)screen;
	return "ulpsim";
}

static int ulpsim_get_param(struct pipe_screen *screen, enum pipe_cap param)
{
	switch (param) {
	/* mesa-driver.md §3: GLSL 1.20, no integers (the shader caps) */
	case PIPE_CAP_GLSL_FEATURE_LEVEL:
	case PIPE_CAP_GLSL_FEATURE_LEVEL_COMPATIBILITY:
		return 120;
	case PIPE_CAP_ESSL_FEATURE_LEVEL:
		return 100;
	case PIPE_CAP_NPOT_TEXTURES:
	case PIPE_CAP_TEXTURE_SHADOW_MAP:      /* the Tegra compiler compares in the ALU */
	case PIPE_CAP_TEXTURE_SWIZZLE:         /* tegra_compile_opts.swizzle */
	case PIPE_CAP_BLEND_EQUATION_SEPARATE: /* blending is compiled into the program */
	case PIPE_CAP_FS_COORD_ORIGIN_UPPER_LEFT:
	case PIPE_CAP_FS_COORD_PIXEL_CENTER_HALF_INTEGER:
	case PIPE_CAP_UMA:                     /* Tegra and PICA200 share system memory */
	case PIPE_CAP_MAX_RENDER_TARGETS:      /* the compiler writes OUT[0] to one target */
	case PIPE_CAP_MAX_VIEWPORTS:
	/* ARB_framebuffer_object (piglit's -fbo needs it): each GR3D surface
	 * has its own pointer and pitch, the render area is the smallest */
	case PIPE_CAP_MIXED_FRAMEBUFFER_SIZES:
		return 1;
	case PIPE_CAP_MAX_TEXTURE_2D_SIZE:
		return 1 << (TEX_LEVELS - 1);
	case PIPE_CAP_MAX_TEXTURE_CUBE_LEVELS:
		return TEX_LEVELS;                 /* storage only: the compiler refuses cube sampling */
	case PIPE_CAP_MAX_TEXTURE_3D_LEVELS:
	case PIPE_CAP_MAX_TEXTURE_ARRAY_LAYERS:
	case PIPE_CAP_ACCELERATED:             /* it runs on the host CPU */
	case PIPE_CAP_OCCLUSION_QUERY:
	case PIPE_CAP_QUERY_TIME_ELAPSED:
	case PIPE_CAP_PRIMITIVE_RESTART:
	case PIPE_CAP_PRIMITIVE_RESTART_FIXED_INDEX:
	case PIPE_CAP_USER_VERTEX_BUFFERS:     /* Mesa uploads user arrays into buffers */
	case PIPE_CAP_TGSI_TEXCOORD:
	case PIPE_CAP_DEPTH_CLIP_DISABLE:
	case PIPE_CAP_VERTEX_ELEMENT_INSTANCE_DIVISOR:
	case PIPE_CAP_START_INSTANCE:
	case PIPE_CAP_TEXTURE_MIRROR_CLAMP:
	case PIPE_CAP_TEXTURE_MIRROR_CLAMP_TO_EDGE:
	case PIPE_CAP_FRAGMENT_SHADER_TEXTURE_LOD:
	case PIPE_CAP_MAX_DUAL_SOURCE_RENDER_TARGETS:
	case PIPE_CAP_ANISOTROPIC_FILTER:
	case PIPE_CAP_TEXTURE_TRANSFER_MODES:  /* texture uploads by map + memcpy, not blits */
	case PIPE_CAP_MAX_TEXTURE_GATHER_COMPONENTS:
	case PIPE_CAP_SEAMLESS_CUBE_MAP:
	case PIPE_CAP_CONDITIONAL_RENDER:
	case PIPE_CAP_DITHERING:
	/* every write goes through a map, so the context sees it (generation) */
	case PIPE_CAP_BUFFER_MAP_PERSISTENT_COHERENT:
		return 0;
	case PIPE_CAP_MAX_VARYINGS:
		return VS_OUTPUTS - 1;             /* o0-o15, one of them the position */
	case PIPE_CAP_VIDEO_MEMORY:
		return 256;                        /* MiB; host memory, a Tegra 2 board's figure */
	case PIPE_CAP_CONSTANT_BUFFER_OFFSET_ALIGNMENT:
		return 16;
	case PIPE_CAP_MIN_MAP_BUFFER_ALIGNMENT:
		return 64;
	case PIPE_CAP_MAX_TEXTURE_UPLOAD_MEMORY_BUDGET:
		return 64 << 20;
	default:
		return u_pipe_screen_get_param_defaults(screen, param);
	}
}

static float ulpsim_get_paramf(struct pipe_screen *screen, enum pipe_capf param)
{
	(void)screen;
	switch (param) {
	/* points and lines are quads the PICA200's geometry shader makes
	 * (traces/gl/gl_prims.h): any size the clipper takes; ULP_GL_WIDE_MAX is
	 * the driver's choice, not a hardware limit.  No smoothing: the AA sizes are 1. */
	case PIPE_CAPF_MAX_LINE_WIDTH:
	case PIPE_CAPF_MAX_POINT_SIZE:
		return ULP_GL_WIDE_MAX;
	case PIPE_CAPF_LINE_WIDTH_GRANULARITY:
	case PIPE_CAPF_POINT_SIZE_GRANULARITY:
		return 0.125f;
	case PIPE_CAPF_MIN_LINE_WIDTH:
	case PIPE_CAPF_MIN_LINE_WIDTH_AA:
	case PIPE_CAPF_MAX_LINE_WIDTH_AA:
	case PIPE_CAPF_MIN_POINT_SIZE:
	case PIPE_CAPF_MIN_POINT_SIZE_AA:
	case PIPE_CAPF_MAX_POINT_SIZE_AA:
	case PIPE_CAPF_MAX_TEXTURE_ANISOTROPY:
		return 1.0f;
	case PIPE_CAPF_MAX_TEXTURE_LOD_BIAS:
		return 16.0f;
	default:
		return 0.0f;
	}
}

static int ulpsim_get_shader_param(struct pipe_screen *screen, enum pipe_shader_type shader,
                                   enum pipe_shader_cap param)
{
	(void)screen;
	bool vs = shader == PIPE_SHADER_VERTEX;
	if (shader != PIPE_SHADER_VERTEX && shader != PIPE_SHADER_FRAGMENT)
		return 0;                          /* no geometry (GLSL 1.50), tessellation, compute */
	switch (param) {
	case PIPE_SHADER_CAP_MAX_INSTRUCTIONS:
	case PIPE_SHADER_CAP_MAX_ALU_INSTRUCTIONS:
		return vs ? VS_INSTRUCTIONS : FS_ALU;
	case PIPE_SHADER_CAP_MAX_TEX_INSTRUCTIONS:
	case PIPE_SHADER_CAP_MAX_TEX_INDIRECTIONS:
		return vs ? 0 : FS_EXECS;
	case PIPE_SHADER_CAP_MAX_CONTROL_FLOW_DEPTH:
		return vs ? VS_CF_DEPTH : FS_CF_DEPTH;
	case PIPE_SHADER_CAP_MAX_INPUTS:
		return vs ? VS_INPUTS : FS_INPUTS;
	case PIPE_SHADER_CAP_MAX_OUTPUTS:
		return vs ? VS_OUTPUTS : 1;
	case PIPE_SHADER_CAP_MAX_CONST_BUFFER0_SIZE:
		return (vs ? VS_CONSTS : FS_CONSTS) * 16;
	case PIPE_SHADER_CAP_MAX_CONST_BUFFERS:
		return 1;
	case PIPE_SHADER_CAP_MAX_TEMPS:
		return vs ? VS_TEMPS : FS_TEMPS;
	case PIPE_SHADER_CAP_INDIRECT_CONST_ADDR:
		return 1;                          /* PICA200 a0; Tegra: the packed uniform layout */
	case PIPE_SHADER_CAP_MAX_TEXTURE_SAMPLERS:
	case PIPE_SHADER_CAP_MAX_SAMPLER_VIEWS:
		return vs ? 0 : FS_SAMPLERS;       /* the PICA200 vertex unit has no texture fetch */
	case PIPE_SHADER_CAP_PREFERRED_IR:
		return PIPE_SHADER_IR_TGSI;
	case PIPE_SHADER_CAP_SUPPORTED_IRS:
		return 1 << PIPE_SHADER_IR_TGSI;
	case PIPE_SHADER_CAP_INTEGERS:         /* mesa-driver.md §3: the no-integer TGSI */
	case PIPE_SHADER_CAP_CONT_SUPPORTED:
	case PIPE_SHADER_CAP_INDIRECT_INPUT_ADDR:
	case PIPE_SHADER_CAP_INDIRECT_OUTPUT_ADDR:
	case PIPE_SHADER_CAP_INDIRECT_TEMP_ADDR:
	case PIPE_SHADER_CAP_SUBROUTINES:
	case PIPE_SHADER_CAP_TGSI_SQRT_SUPPORTED:
	case PIPE_SHADER_CAP_TGSI_ANY_INOUT_DECL_RANGE:
	default:
		return 0;
	}
}

static bool ulpsim_is_format_supported(struct pipe_screen *screen, enum pipe_format format,
                                       enum pipe_texture_target target, unsigned sample_count,
                                       unsigned storage_sample_count, unsigned bind)
{
	struct ulpsim_screen *s = ulpsim_screen(screen);
	if (sample_count > 1 || storage_sample_count > 1)
		return false;
	if (target == PIPE_BUFFER) {
		if (bind & PIPE_BIND_VERTEX_BUFFER)
			return vertex_format_ok(format);
		return (bind & (PIPE_BIND_SAMPLER_VIEW | PIPE_BIND_SHADER_IMAGE | PIPE_BIND_SHADER_BUFFER
		                | PIPE_BIND_STREAM_OUTPUT)) == 0;
	}
	if (target == PIPE_TEXTURE_3D || target == PIPE_TEXTURE_1D_ARRAY || target == PIPE_TEXTURE_2D_ARRAY
	    || target == PIPE_TEXTURE_CUBE_ARRAY)
		return false;
	const ulp_gl_format *f = ulpsim_format_lookup(format);
	if (!f || !ulp_gl_format_binds(f, bind))
		return false;
	if ((bind & (PIPE_BIND_DISPLAY_TARGET | PIPE_BIND_SCANOUT | PIPE_BIND_SHARED)) && s->winsys
	    && s->winsys->is_displaytarget_format_supported
	    && !s->winsys->is_displaytarget_format_supported(s->winsys, bind, format))
		return false;
	return (bind & (PIPE_BIND_SHADER_IMAGE | PIPE_BIND_SHADER_BUFFER | PIPE_BIND_STREAM_OUTPUT)) == 0;
}

struct pipe_fence_handle *ulpsim_fence(struct pipe_screen *screen)
{
	return &ulpsim_screen(screen)->fence;
}

static void ulpsim_fence_reference(struct pipe_screen *screen, struct pipe_fence_handle **ptr,
                                   struct pipe_fence_handle *fence)
{
	(void)screen;
	*ptr = fence;
}

static bool ulpsim_fence_finish(struct pipe_screen *screen, struct pipe_context *ctx,
                                struct pipe_fence_handle *fence, uint64_t timeout)
{
	(void)screen, (void)ctx, (void)fence, (void)timeout;
	return true;                           /* every draw finished before its call returned */
}

static void ulpsim_screen_destroy(struct pipe_screen *screen)
{
	struct ulpsim_screen *s = ulpsim_screen(screen);
	ulp_diag d;
	ulp_diag_clear(&d);
	if (s->outputs && !ulp_gl_run_close(s->outputs, &d))
		fprintf(stderr, "ulpsim: %s\n", d.msg);
	if (s->winsys && s->winsys->destroy)
		s->winsys->destroy(s->winsys);
	free(s->frames_dir);
	free(s->summary_path);
	FREE(s);
}

static char *env_copy(const char *name)
{
	const char *v = getenv(name);
	return v && *v ? strdup(v) : NULL;
}

struct pipe_screen *ulpsim_create_screen(struct sw_winsys *winsys)
{
	struct ulpsim_screen *s = CALLOC_STRUCT(ulpsim_screen);
	if (!s)
		return NULL;
	s->winsys = winsys;
	s->frames_dir = env_copy(ULPSIM_ENV_FRAMES);
	s->summary_path = env_copy(ULPSIM_ENV_SUMMARY);
	const char *stats = getenv(ULPSIM_ENV_STATS), *timeline = getenv(ULPSIM_ENV_TIMELINE);
	if ((stats && *stats) || (timeline && *timeline)) {
		ulp_diag d;
		ulp_diag_clear(&d);
		if (!(s->outputs = ulp_gl_run_open(stats, timeline, &d)))
			fprintf(stderr, "ulpsim: %s (no stats or timeline are written)\n", d.msg);
	}
	struct pipe_screen *p = &s->base;
	p->destroy = ulpsim_screen_destroy;
	p->get_name = ulpsim_get_name;
	p->get_vendor = ulpsim_get_vendor;
	p->get_device_vendor = ulpsim_get_vendor;
	p->get_param = ulpsim_get_param;
	p->get_paramf = ulpsim_get_paramf;
	p->get_shader_param = ulpsim_get_shader_param;
	p->get_timestamp = u_default_get_timestamp;
	p->is_format_supported = ulpsim_is_format_supported;
	p->context_create = ulpsim_context_create;
	p->fence_reference = ulpsim_fence_reference;
	p->fence_finish = ulpsim_fence_finish;
	ulpsim_init_screen_resource_functions(p);
	return p;
}
