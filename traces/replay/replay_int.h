/* Trace replay, inside (replay.h is the interface): the state one replay
 * keeps and the helpers its files share.
 *
 *   replay.c          commands, framebuffer and state, checkpoints, replay_run
 *   replay_shaders.c  bind_shaders: the vertex, geometry and fragment shaders
 *                     and the fragment-shader variants (compare, swizzle, blend)
 *   replay_draw.c     draw: the linker, the draw registers, and the draw the
 *                     registers describe on the one-clock GPU (units/gpu.h)
 *   replay_state.c, replay_tex.c, replay_gs.c, replay_blend.c: state helpers */
#ifndef ULP_SIM_REPLAY_INT_H
#define ULP_SIM_REPLAY_INT_H

#include "traces/replay/replay.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <string.h>

#include "base/fileio.h"
#include "base/image.h"
#include "frontends/pica/pica_compile.h"
#include "frontends/tegra/tegra_compile.h"
#include "frontends/tgsi/tgsi.h"
#include "isa/fp20.h"
#include "isa/tegra/fp_container.h"
#include "isa/tegra/tegra_asm.h"
#include "sim/check/compare.h"
#include "traces/replay/driver_pica.h"
#include "units/gpu.h"
#include "units/gr3d/gr3d_regs.h"
#include "units/geom/gr3d_state.h"
#include "units/pica/pica_regs.h"
#include "units/geom/pica_vtx.h"
#include "traces/replay/replay_blend.h"
#include "traces/replay/replay_gs.h"
#include "traces/replay/replay_state.h"
#include "traces/replay/replay_tex.h"
#include "units/gr3d/gr3d_fp.h"
#include "units/pica/pica_shader.h"

enum { MAX_CBUFS = 8 };

/* Colour buffer k's address in simulated memory (RT_PTR): 64 MB apart,
 * above the resources' 256 MB (traces/replay/replay_state.h). */
static inline uint32_t cbuf_addr(unsigned k) { return 0x40000000u + ((uint32_t)k << 26); }

typedef struct replay {
	const trace *t;
	const replay_opts *o;
	replay_result *res;
	ulp_diag *d;
	reg_stream stream;
	pica_regs regs;
	/* the bound vertex shader (its SHBIN gives the output table) */
	struct shbin vs_shbin;
	bool have_vs;
	uint8_t pos_reg;                 /* o register of POSITION */
	uint8_t tram_reg[GR3D_TRAM_ROWS]; /* linker: TRAM row -> o register (0xFF: none) */
	unsigned ntram;
	/* semantic linking when both stages are TGSI (docs/replay.md) */
	bool vs_tgsi, fs_tgsi;
	int16_t vs_sem[16];              /* o register -> semantic name, -1: none */
	uint32_t vs_sem_index[16];
	int16_t fs_sem[GR3D_TRAM_ROWS];  /* IN[k] -> semantic name, -1: none */
	uint32_t fs_sem_index[GR3D_TRAM_ROWS];
	uint8_t fs_interp[GR3D_TRAM_ROWS];  /* IN[k] -> enum tgsi_interpolate */
	unsigned fs_nin;
	/* the fragment side: programmed through the GR3D registers */
	gr3d_regs gregs;
	tegra_fp_program fp;             /* scratch: loading, and rebuilt from the registers */
	tegra_fp_decoded fpd;
	bool have_fs;
	int16_t fs_usrc[TEGRA_FP_NUM_CONST];   /* FP_CONST u_k <- fragment constant float index (-1: 0) */
	/* arith=exact (docs/exact.md): the binary32 each FP_CONST word of a
	 * constant_buffer was encoded from, and that word (bit k of fs_f32_mask) */
	float fs_f32[TEGRA_FP_NUM_CONST];
	uint32_t fs_f32_word[TEGRA_FP_NUM_CONST];
	uint32_t fs_f32_mask;
	/* arith=exact: the bound TGSI program's binary32 immediates (zero otherwise) */
	tegra_fp_ximm fs_ximm;
	replay_pica_ximm vs_ximm;        /* and the vertex shader's */
	/* state */
	uint32_t width, height;
	ulp_image *cbuf[MAX_CBUFS];
	uint8_t cbuf_fmt[MAX_CBUFS];      /* enum gr3d_rtfmt */
	unsigned ncbufs;
	bool upper_left;                 /* the framebuffer's origin (version 2): memory row 0 is the image's top */
	/* memory, viewport, scissor, texture units, vertex elements, draws:
	 * programmed into the registers (traces/replay/replay_state.c) */
	replay_state st;
	/* rasterizer and clip state (docs/trace-format.md) */
	uint8_t cull;                    /* enum setup_cull */
	bool front_ccw, two_side, flatshade;
	uint8_t clip_plane_enable;
	float ucp[CLIP_PLANES][4];
	/* a TGSI fragment shader is compiled for the samplers' compare functions and
	 * the views' swizzles (a variant, as a Gallium driver keys its shaders) */
	uint8_t shadow_cmp[GR3D_SAMPLERS];  /* enum tegra_compare */
	uint8_t view_swz[GR3D_SAMPLERS][4]; /* enum tegra_swizzle: the sampler views' swizzles */
	const trace_shader *fs_src;
	tegra_compile_opts fs_opts;
	char *fs_grate;                  /* the bound program's grate text, for o->fs_hook (NULL: none) */
	/* blending, the Tegra way: written into the fragment program
	 * (frontends/tgsi/tgsi_blend.h); fs_blend is the state fs was built for */
	tgsi_blend_state blend, fs_blend;
	/* depth/stencil: the bound surface and the trace's state (programmed
	 * into the GR3D registers; the units read it back from there) */
	zs_surface *zs;
	zs_state zsa;
	replay_gs gs;                    /* the bound geometry shader (traces/replay/replay_gs.c) */
	size_t dumped_cmd;               /* 1 + the command whose writes the dump last headed */
	const cJSON *cur;                /* the command being run */
	bool lazy_units;                 /* a unit the stats lack is added at its first draw */
} replay;

static inline const char *rp_str(const cJSON *c, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(c, k);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static inline double rp_num(const cJSON *c, const char *k, double def)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(c, k);
	return cJSON_IsNumber(v) ? v->valuedouble : def;
}

/* Fails command i with "$.commands[i]: fmt detail" (always false). */
bool replay_fail(replay *r, size_t i, const char *fmt, const char *detail);
/* Applies the stream's writes from `from` to the register models (and the
 * dump); a draw trigger runs the draw (replay_draw_regs). */
bool replay_flush(replay *r, size_t from, size_t i);

/* replay.c: runs command c, the i-th (validated); last_checkpoint: a
 * checkpoint's image also goes to o->out_png. */
bool replay_command(replay *r, const cJSON *c, size_t i, bool last_checkpoint);
/* A render target (memory row 0 first) as the image the program saw, top
 * row first: flipped (row 0 is the bottom, y up) unless upper_left (row 0
 * is the top: a window-system framebuffer, drawn y-down by Gallium). */
ulp_image *replay_presented(const ulp_image *rt, bool upper_left, ulp_diag *d);

/* replay_shaders.c */
bool replay_bind_vs(replay *r, const trace_shader *s, size_t i);
bool replay_bind_fs(replay *r, const trace_shader *s, size_t i);
bool replay_bind_gs(replay *r, const cJSON *c, size_t i);
/* Recompiles a TGSI fragment shader whose compare functions, swizzles or
 * blend state changed since it was compiled. */
bool replay_fs_variant(replay *r, size_t i);

/* replay_draw.c */
sim_unit *replay_zs_unit_stats(replay_result *res, const char *name);
bool replay_draw(replay *r, const cJSON *c, size_t i);
bool replay_draw_regs(replay *r, size_t i, bool indexed);

#endif
