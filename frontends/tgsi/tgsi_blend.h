/* Blending written into the fragment shader, the Tegra way.
 *
 * The GR3D has no fixed-function blender: "ROP folded into the pixel shader
 * (programmable blend unit)" (tegra-fp.md §5, AnandTech); the destination
 * pixel is fetched into row registers by PSEQ (word 0x0081000A) and the ALU
 * combines it, as every xf86 Xrender program does.  A driver therefore
 * compiles each fragment shader together with the blend state.  This pass
 * does that at the TGSI level: the colour output is renamed to a temporary
 * and, before END (and every RET of the main body), an epilogue reads the
 * destination with FBFETCH and writes
 *
 *   OUT.rgb = func_rgb(src.rgb * Fs_rgb, dst.rgb * Fd_rgb)
 *   OUT.a   = func_a  (src.a   * Fs_a,   dst.a   * Fd_a)
 *
 * with Gallium's factors and functions (MIN/MAX ignore the factors, as GL
 * does), src clamped to [0, 1] first and the result saturated (UNORM
 * targets), channels outside the colour mask kept from dst.  The blend
 * colour is baked in as an immediate. */
#ifndef ULP_FRONTENDS_TGSI_BLEND_H
#define ULP_FRONTENDS_TGSI_BLEND_H

#include <stdbool.h>
#include <stdint.h>

#include "base/diag.h"
#include "frontends/tgsi/tgsi.h"

enum tgsi_blend_func { TGSI_BLEND_ADD, TGSI_BLEND_SUBTRACT, TGSI_BLEND_REVERSE_SUBTRACT,
	TGSI_BLEND_MIN, TGSI_BLEND_MAX, TGSI_BLEND_FUNC_COUNT };

enum tgsi_blend_factor {
	TGSI_BLEND_ZERO, TGSI_BLEND_ONE, TGSI_BLEND_SRC_COLOR, TGSI_BLEND_INV_SRC_COLOR,
	TGSI_BLEND_SRC_ALPHA, TGSI_BLEND_INV_SRC_ALPHA, TGSI_BLEND_DST_COLOR,
	TGSI_BLEND_INV_DST_COLOR, TGSI_BLEND_DST_ALPHA, TGSI_BLEND_INV_DST_ALPHA,
	TGSI_BLEND_SRC_ALPHA_SATURATE, TGSI_BLEND_CONST_COLOR, TGSI_BLEND_INV_CONST_COLOR,
	TGSI_BLEND_CONST_ALPHA, TGSI_BLEND_INV_CONST_ALPHA, TGSI_BLEND_FACTOR_COUNT
};

typedef struct tgsi_blend_state {
	bool enable;
	uint8_t rgb_func, alpha_func;               /* enum tgsi_blend_func */
	uint8_t rgb_src, rgb_dst, alpha_src, alpha_dst;   /* enum tgsi_blend_factor */
	uint8_t colormask;                          /* TGSI_WRITEMASK_* bits; 15 = all */
	float color[4];                             /* the blend colour */
} tgsi_blend_state;

/* Names as traces spell them ("add", "src_alpha", "inv_src_alpha", ...);
 * the _from_name functions return the COUNT value when unknown. */
const char *tgsi_blend_func_name(unsigned f);
const char *tgsi_blend_factor_name(unsigned f);
enum tgsi_blend_func tgsi_blend_func_from_name(const char *name);
enum tgsi_blend_factor tgsi_blend_factor_from_name(const char *name);

/* True when the state changes nothing (blending off and every channel
 * written): the shader needs no epilogue. */
bool tgsi_blend_is_noop(const tgsi_blend_state *b);

/* A new shader: sh (FRAG) with the blend epilogue for its COLOR[0] output
 * (all colour outputs with FS_COLOR0_WRITES_ALL_CBUFS are the same).  A
 * shader without a colour output is copied unchanged.  NULL with d set when
 * sh is not a fragment shader, writes its colour indirectly, or memory runs
 * out.  sh is not modified. */
tgsi_shader *tgsi_blend_lower(const tgsi_shader *sh, const tgsi_blend_state *b, const char *file,
                              ulp_diag *d);

#endif
