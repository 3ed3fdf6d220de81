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

/* Limits (docs/gl.md has the table with the reasons). */
enum {
	/* PICA200: v0-v15 inputs, o0-o15 outputs, c0-c95 float uniforms,
	 * r0-r15 temporaries, 512 instructions of code; IF stack 8 deep
	 * (../shared/reference/pica200.md §1.1, §1.4, "512 instructions"). */
	VS_INPUTS = 16, VS_OUTPUTS = 16, VS_CONSTS = 96, VS_TEMPS = 16, VS_INSTRUCTIONS = 512,
	VS_CF_DEPTH = 8,
	/* Tegra GR3D: an MFU varying names TRAM row 0..15 (4 bits), TEX a
	 * sampler 0..15, a program has at most 64 EXECs of one TEX and one ALU
	 * packet of 4 instructions each (tegra-fp.md §2.4, §2; the compiler's
	 * TFP_MAX_EXEC).  32 FP_CONST slots of 20 bits: 16 vec4 declared (the
	 * GLES 2.0 minimum) and the compiler refuses a program that reads more
	 * than 32 components (frontends/tegra/tegra_compile.h). */
	FS_INPUTS = 16, FS_SAMPLERS = 16, FS_EXECS = 64, FS_ALU = FS_EXECS * 4, FS_CONSTS = 16,
	FS_TEMPS = 16, FS_CF_DEPTH = 32,
	/* 4096 x 4096 down to 1 x 1 (traces/trace.h TRACE_TEX_LEVELS) */
	TEX_LEVELS = 13,
};

/* The formats ulpsim models (traces/trace.h texture formats; units/gr3d
 * render-target formats RGBA8888/BGRA8888/RGB565/A8; D16 and D24S8 depth).
 * tex: enum gr3d_texfmt {RGBA8888, BGRA8888, A8, L8, RGB565, D16};
 * rt: enum gr3d_rtfmt {RGBA8888, BGRA8888, RGB565, A8}; zs: enum zs_format
 * {D16, D24S8}.  RGB565 is little-endian with red in the top 5 bits,
 * Gallium's B5G6R5_UNORM.  A D24S8 surface is sampled as D16, its depth's
 * top 16 bits (the context converts it when it uploads the texture): the
 * TEX unit models no 24-bit texel, and its depth path keeps less than 16
 * bits anyway (D16 -> FX10, units/gr3d/gr3d_quad.h), so nothing a shader
 * can see is lost. */
static const struct ulpsim_format formats[] = {
	{ PIPE_FORMAT_R8G8B8A8_UNORM, 0, 0, -1, false },
	{ PIPE_FORMAT_R8G8B8X8_UNORM, 0, 0, -1, true },
	{ PIPE_FORMAT_B8G8R8A8_UNORM, 1, 1, -1, false },
	{ PIPE_FORMAT_B8G8R8X8_UNORM, 1, 1, -1, true },
	{ PIPE_FORMAT_B5G6R5_UNORM, 4, 2, -1, false },
	{ PIPE_FORMAT_A8_UNORM, 2, 3, -1, false },
	{ PIPE_FORMAT_L8_UNORM, 3, -1, -1, false },
	{ PIPE_FORMAT_Z16_UNORM, 5, -1, 0, false },
	{ PIPE_FORMAT_Z24_UNORM_S8_UINT, 5, -1, 1, false },
	{ PIPE_FORMAT_Z24X8_UNORM, 5, -1, 1, false },
};

const struct ulpsim_format *ulpsim_format_lookup(enum pipe_format f)
{
	for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
		if (formats[i].format == f)
			return &formats[i];
	return NULL;
}

/* Vertex fetch: Mesa converts every other vertex format to these (u_vbuf). */
static bool vertex_format_ok(enum pipe_format f)
{
	return f == PIPE_FORMAT_R32_FLOAT || f == PIPE_FORMAT_R32G32_FLOAT || f == PIPE_FORMAT_R32G32B32_FLOAT
	       || f == PIPE_FORMAT_R32G32B32A32_FLOAT;
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
	const struct ulpsim_format *f = ulpsim_format_lookup(format);
	if (!f)
		return false;
	if ((bind & PIPE_BIND_SAMPLER_VIEW) && f->tex < 0)
		return false;
	if ((bind & PIPE_BIND_RENDER_TARGET) && f->rt < 0)
		return false;
	if ((bind & PIPE_BIND_DEPTH_STENCIL) && f->zs < 0)
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
