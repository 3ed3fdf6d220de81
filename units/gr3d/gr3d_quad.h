/* Shared state of the Tegra GR3D fragment units (PSEQ, MFU, TEX, ALU, DW):
 * the quad of 2x2 pixels with its row registers, the token that travels
 * between the units, and the context every unit reads (program, uniforms,
 * TRAM's rows, samplers, render targets).  docs/tegra-units.md describes the model.
 *
 * Quads do not travel by value: they live in a slot table indexed by their
 * quad id (QID, as the hardware's PSEQ_QUAD_ID names them; tegra-fp.md §4)
 * and the ports carry a small token {qid, exec}.  A slot belongs to exactly
 * one unit at a time (the one holding the token), so there is no sharing.
 *
 *   raster --(gr3d_quad_in)--> PSEQ --tok--> MFU --tok--> TEX --tok--> ALU --tok--> DW
 *                               ^                                                  |
 *                               +------------------- tok (next EXEC / done) -------+ */
#ifndef ULP_UNITS_GR3D_QUAD_H
#define ULP_UNITS_GR3D_QUAD_H

#include <float.h>
#include <stddef.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "base/image.h"
#include "isa/fp20.h"
#include "isa/fx10.h"
#include "isa/tegra/tegra_prog.h"
#include "sim/core/config.h"
#include "sim/core/stage.h"
#include "sim/core/timeline.h"
#include "sim/core/unit.h"
#include "units/gr3d/tram.h"

enum {
	GR3D_PIXELS = 4,          /* a quad: pixel k at (x + (k & 1), y + (k >> 1)) */
	GR3D_ROW_REGS = 16,       /* r0..r15: up to 4 rows of 4 (tegra-fp.md §2.3) */
	GR3D_GLOBALS = 8,         /* g0..g7 */
	GR3D_COND_REGS = 8,       /* cr0..cr15 as 8 FX10 pairs */
	GR3D_SAMPLERS = 16,
	GR3D_RTS = 16,
};

/* One pixel's TEX state (its registers and flags are the quad's, below). */
typedef struct gr3d_pixel {
	/* tegra.tex.fp20_reads_see_coords: the FP20 values the TEX destination
	 * pair held before this EXEC's fetch (FX10 reads see the texel) */
	uint32_t tex_old[2];
	uint8_t tex_reg[2];
	uint8_t tex_shadow;       /* bit k: tex_old[k] is live for this EXEC */
} gr3d_pixel;

/* A quad's registers are a structure of arrays: register word w of pixel p
 * is [w][p], so one register of the four pixels is 16 contiguous bytes (one
 * vector load or store) and every unit reads and writes a register across the
 * quad.  The words hold raw 20-bit values: one FP20, or two FX10 halves
 * (.l = bits 0..9, .h = bits 10..19).  r, g, cr and view are one block of
 * GR3D_QUAD_REGS words (r0..r15, g0..g7, cr0..cr7, the view's r0..r15) from
 * the start of the quad: gr3d_quad_reg(q, i) is word i, as the ALU's batch
 * lanes number them (alu.h). */
enum { GR3D_QUAD_REGS = GR3D_ROW_REGS + GR3D_GLOBALS + GR3D_COND_REGS + GR3D_ROW_REGS,
       GR3D_QUAD_VIEW = GR3D_ROW_REGS + GR3D_GLOBALS + GR3D_COND_REGS };
typedef struct gr3d_quad {
	_Alignas(16) uint32_t r[GR3D_ROW_REGS][GR3D_PIXELS];
	uint32_t g[GR3D_GLOBALS][GR3D_PIXELS];
	uint32_t cr[GR3D_COND_REGS][GR3D_PIXELS];
	/* tegra.alu.batch_view (docs/tegra-units.md "Batches"): the row registers
	 * as the ALU sees them where that differs from r.  Only programs with
	 * more than one row use it; the ALU loads what its reads need before
	 * they happen (alu_plan.c), so admission leaves it as it is. */
	uint32_t view[GR3D_ROW_REGS][GR3D_PIXELS];
	/* rasterizer inputs: lambda_k / w_k for vertices 0 and 1, and the
	 * interpolated 1/w (sum of lambda_k / w_k); read by the MFU set-up */
	float bar0[GR3D_PIXELS], bar1[GR3D_PIXELS], q[GR3D_PIXELS];
	float b0[GR3D_PIXELS], b1[GR3D_PIXELS];       /* barycentric weights the MFU "bar" writes set */
	/* each pixel's flags, a byte a pixel (four side by side: gr3d_flags4) */
	bool covered[GR3D_PIXELS];     /* the rasterizer produced this pixel */
	bool killed[GR3D_PIXELS];      /* not covered, or a sticky kill (tegra.alu.kill_this_exec off) */
	bool exec_killed[GR3D_PIXELS]; /* a kill write in this EXEC: its DW store skips the pixel */
	bool front[GR3D_PIXELS];       /* pface: counter-clockwise in window space */
	uint32_t id;              /* sequence number of the quad in the draw */
	uint16_t x, y;            /* top-left pixel */
	uint8_t tri;              /* triangle (TRAM slot) */
	uint8_t tex_row;          /* row the last MFU interpolation wrote (tex.src_row_from_mfu) */
	gr3d_pixel px[GR3D_PIXELS];
} gr3d_quad;

_Static_assert(offsetof(gr3d_quad, r) == 0 &&
               offsetof(gr3d_quad, g) == GR3D_ROW_REGS * GR3D_PIXELS * sizeof(uint32_t) &&
               offsetof(gr3d_quad, cr) == (GR3D_ROW_REGS + GR3D_GLOBALS) * GR3D_PIXELS * sizeof(uint32_t) &&
               offsetof(gr3d_quad, view) == GR3D_QUAD_VIEW * GR3D_PIXELS * sizeof(uint32_t),
               "gr3d_quad: r, g, cr, view are one block of registers from the start");

/* Four flags (covered, killed, ...: bytes 0 or 1) as one word, pixel p's in
 * byte p, and such a word as a mask of four bits (bit p: pixel p's flag).
 * The multiply moves byte p's bit 0 to bit 28 + p, no two partial products
 * meeting. */
static inline uint32_t gr3d_flags4(const bool f[GR3D_PIXELS])
{
	uint32_t w;
	memcpy(&w, f, sizeof w);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap32(w);
#endif
	return w;
}
static inline unsigned gr3d_mask4(uint32_t flags) { return (flags & 0x01010101u) * 0x10204080u >> 28; }

/* Register word i (0..GR3D_QUAD_REGS-1) of the quad's four pixels: byte
 * offset i * 16 in the register block. */
static inline uint32_t *gr3d_quad_reg(gr3d_quad *q, unsigned i)
{
	return (uint32_t *)(void *)((uint8_t *)q + (size_t)i * GR3D_PIXELS * sizeof(uint32_t));
}
static inline const uint32_t *gr3d_quad_creg(const gr3d_quad *q, unsigned i)
{
	return (const uint32_t *)(const void *)((const uint8_t *)q + (size_t)i * GR3D_PIXELS * sizeof(uint32_t));
}

/* What the rasterizer hands to PSEQ. */
typedef struct gr3d_quad_in {
	uint32_t id;
	uint16_t x, y;
	uint8_t tri;
	uint8_t mask;             /* covered pixels, bit k = pixel k */
	bool front;
	float bar0[GR3D_PIXELS], bar1[GR3D_PIXELS], q[GR3D_PIXELS];
	double z[GR3D_PIXELS];    /* window depth, linear in screen space (units/gr3d/zs.h) */
} gr3d_quad_in;

/* What travels between the units. */
typedef struct gr3d_token {
	uint16_t qid;             /* slot index */
	uint8_t exec;             /* EXEC this pass runs */
	uint8_t done;             /* DW -> PSEQ: the program ended, free the slot */
} gr3d_token;

enum gr3d_wrap { GR3D_WRAP_REPEAT, GR3D_WRAP_CLAMP, GR3D_WRAP_MIRROR };
/* D16: a 16-bit depth (texel bytes 0..1, little-endian), sampled as (d, d, d, 1) */
enum gr3d_texfmt { GR3D_TEX_RGBA8888, GR3D_TEX_BGRA8888, GR3D_TEX_A8, GR3D_TEX_L8, GR3D_TEX_RGB565,
	GR3D_TEX_D16 };
/* minification filter: 0 follows `bilinear` (the magnification filter) */
enum gr3d_minfilter { GR3D_MIN_AS_MAG, GR3D_MIN_NEAREST, GR3D_MIN_LINEAR };

enum { GR3D_TEX_LEVELS = 15 };

/* Colour render-target formats (RT_PARAMS.FORMAT, tegra-fp.md §4).  A target
 * is kept as an RGBA8 view of what it stores: each channel the format holds,
 * expanded to 8 bits; channels it lacks read as 0 (A8: r, g, b) or 1
 * (RGB565: a).  BGRA8888 stores the same values in another byte order. */
enum gr3d_rtfmt { GR3D_RT_RGBA8888, GR3D_RT_BGRA8888, GR3D_RT_RGB565, GR3D_RT_A8 };

/* The sampler state and texture of one TEX slot: the fields of TEXTURE_DESC1
 * (format, min/mag/mip filters, wrap per axis; tegra-fp.md §4) and the mip
 * chain. */
typedef struct gr3d_sampler {
	const ulp_image *img;     /* NULL: unbound (samples as 0,0,0,0) */
	uint8_t format;           /* enum gr3d_texfmt */
	bool bilinear;            /* magnification filter (MAGFILTER_LINEAR) */
	uint8_t min_filter;       /* enum gr3d_minfilter (MINFILTER_LINEAR_WITHIN) */
	uint8_t wrap;             /* enum gr3d_wrap: s, and t unless wrap_t_own */
	bool wrap_t_own;
	uint8_t wrap_t;           /* enum gr3d_wrap for t when wrap_t_own */
	bool mipmap;              /* the pipeline builds level[1..] (2x2 box filter) */
	bool mip_linear;          /* blend the two nearest levels (MINFILTER_LINEAR_BETWEEN) */
	bool mip_none;            /* MIPFILTER off: level 0 only, whatever the chain */
	float lod_bias;           /* added to the quad's LOD (and to a TXB bias) */
	bool depth_truncate;      /* D16 -> FX10 truncates (tex_init sets it from tegra.tex.depth_round) */
	/* level[0] = img; the pipeline fills level[1..] when mipmap is set, else a
	 * caller may give them (nlevels > 1: level[k] is max(1, w >> k) x max(1, h >> k)) */
	const ulp_image *level[GR3D_TEX_LEVELS];
	uint8_t nlevels;
} gr3d_sampler;

/* An observer of the fragment units for the viewer's API (traces/replay/api.c): NULL
 * in every other run, so each use is one predictable branch.  Cycles are the
 * clock's; base (as sim_timeline.base) puts them on the run's axis. */
typedef struct gr3d_probe {
	void *ctx;
	uint64_t base;
	const ulp_image *target;     /* colour buffer 0: DW reports its writes into it */
	/* DW stored pixel (x, y) (window coordinates, y up) of target: RGBA8 as kept */
	void (*pixel)(void *ctx, uint64_t cycle, uint32_t x, uint32_t y, const uint8_t rgba[4]);
	/* DW took quad q in EXEC exec: its registers as the EXEC left them (unit: "dw", "dw_b") */
	void (*quad)(void *ctx, uint64_t cycle, const char *unit, unsigned rows, const gr3d_quad *q,
	             unsigned exec);
	/* cbuf 0 changed outside a draw (framebuffer, clear): the whole buffer (replay.c) */
	void (*snapshot)(void *ctx, uint64_t cycle, const ulp_image *cbuf0);
} gr3d_probe;

/* Everything the units share.  Owned by the pipeline (gr3d_fp.h). */
typedef struct gr3d_ctx {
	const tegra_fp_decoded *prog;
	const ulp_config *cfg;
	uint32_t uniforms[TEGRA_FP_NUM_CONST];       /* FP_CONST (20 bits each) */
	float xuniform[TEGRA_FP_NUM_CONST];          /* arith=exact: gr3d_draw.xuniform */
	uint32_t xuniform_mask;                      /* 0 unless exact */
	const gr3d_tram_tri *tram;                   /* TRAM's slots (tram.h), ntris of them: read only */
	unsigned ntris;
	gr3d_sampler sampler[GR3D_SAMPLERS];
	ulp_image *rt[GR3D_RTS];                     /* NULL: not bound */
	uint8_t rt_format[GR3D_RTS];                 /* enum gr3d_rtfmt */
	uint8_t *stencil;                            /* width*height of rt[1]'s size, or NULL */
	uint32_t width, height;                      /* surface size */
	gr3d_quad *slot;                             /* max_qid slots */
	unsigned rows;                               /* alu_buffer_size, 1..4 */
	/* rounding, from the config */
	enum ulp_round fp20_round, fx10_round;
	bool fx10_wrap;
	bool exact;                                  /* arith=exact: the register words below */
	gr3d_probe *probe;                           /* the viewer's observer, or NULL */
	struct gr3d_ahead *ahead;                    /* the quads work ahead (ahead.h), or NULL */
} gr3d_ctx;

/* ---- number helpers (hot: inline) ------------------------------------ */

/* The per-pixel register writes are small enough that a call costs as much
 * as the work; GCC and Clang otherwise keep one copy out of line. */
#define GR3D_HOT static inline __attribute__((always_inline))

/* ---- arith=exact (docs/exact.md) ------------------------------------
 * With ctx.exact a register word holds a binary32 where the hardware holds
 * an FP20 (the whole 32 bits), and an FX10 half is 16 bits of fixed point
 * with 14 fraction bits (.l bits 0..15, .h bits 16..31): FX10's range
 * [-2, 2), 64 times its precision (two binary32 would not fit the word).
 * The helpers below that take a ctx choose by it; the ones that take a
 * rounding mode are the hardware's (hw mode and its fast paths). */
#define GR3D_XFX_SHIFT 16u
#define GR3D_XFX_MASK 0xFFFFu
#define GR3D_XFX_ONE 16384.0

static inline float gr3d_xf32(uint32_t w)
{
	float f;
	memcpy(&f, &w, sizeof f);
	return f;
}

/* arith=exact's rounding: binary32, nearest, a subnormal result flushed to
 * a zero of its sign, as FP20 (which has none: isa/fp20.h) flushes
 * (docs/exact.md "Subnormals"). */
static inline float gr3d_xround(double v)
{
	const float f = (float)v;
	return fabsf(f) < FLT_MIN ? copysignf(0.0f, f) : f;
}

static inline uint32_t gr3d_xbits(double v)
{
	const float f = gr3d_xround(v);
	uint32_t w;
	memcpy(&w, &f, sizeof w);
	return w;
}

/* An exact-mode FX10 half as a value. */
static inline double gr3d_xfx(uint32_t w, bool high)
{
	const uint32_t h = (high ? w >> GR3D_XFX_SHIFT : w) & GR3D_XFX_MASK;
	return (double)((int32_t)(h ^ 0x8000u) - 0x8000) / GR3D_XFX_ONE;
}

/* A value written to an exact-mode FX10 half: nearest, clamped to the range
 * (or wrapped, fx10.overflow = wrap); NaN is 0. */
static inline uint32_t gr3d_xfx_bits(bool wrap, double v)
{
	if (isnan(v))
		return 0;
	double s = v * GR3D_XFX_ONE;
	s = s > 1e9 ? 1e9 : s < -1e9 ? -1e9 : s;
	long n = (long)floor(s + 0.5);
	if (!wrap)
		n = n < -32768 ? -32768 : n > 32767 ? 32767 : n;
	return (uint32_t)n & GR3D_XFX_MASK;
}

/* FP20 -> float, exact.  Exponent 63 is inf/NaN (isa/fp20.h).  Exponent 0
 * with a non-zero mantissa reads as a subnormal (tegra.fp20.read_subnormals;
 * the ALU applies the knob, results never produce them). */
static inline float gr3d_fp20(uint32_t bits) { return fp20_read_f32(bits); }

/* Four raw FP20 words as operands (exponent 0 with a non-zero mantissa reads
 * as a subnormal only with tegra.fp20.read_subnormals, else as 0).  Exponents
 * 1..62 for all four with no branch, gr3d_fp20's normal case (a binary32 with
 * the exponent rebiased 31 -> 127); a word with exponent 0 or 63 then takes
 * gr3d_fp20's own path. */
GR3D_HOT void gr3d_fp20_quad(bool subnormals, const uint32_t raw[GR3D_PIXELS],
                             double out[GR3D_PIXELS])
{
	uint32_t f[GR3D_PIXELS], special = 0;
	for (unsigned p = 0; p < GR3D_PIXELS; p++) {
		special |= fp20_is_special(raw[p]);
		f[p] = fp20_f32_bits_normal(raw[p]);
	}
	float fv[GR3D_PIXELS];
	memcpy(fv, f, sizeof fv);
	for (unsigned p = 0; p < GR3D_PIXELS; p++)
		out[p] = fv[p];
	if (special)
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			if (fp20_is_special(raw[p]))
				out[p] = !(raw[p] & FP20_EXP_MASK) && !subnormals ? 0.0 : gr3d_fp20(raw[p]);
}

static inline float gr3d_fx10(uint32_t bits, bool high)
{
	return (float)fx10_sext(fx10_half(bits, high)) * (1.0f / 256.0f);
}

/* An arithmetic result rounded to FP20 and encoded (fp20.round knob):
 * isa/fp20.h's fp20_encode_f64. */
static inline uint32_t gr3d_fp20_bits(enum ulp_round r, double v) { return fp20_encode_f64(v, r); }

static inline uint32_t gr3d_to_fp20(const gr3d_ctx *c, double v)
{
	return c->exact ? gr3d_xbits(v) : gr3d_fp20_bits(c->fp20_round, v);
}

/* A register word read as an FP20 operand, or as one FX10 half (ctx's mode). */
static inline double gr3d_rd20(const gr3d_ctx *c, uint32_t w) { return c->exact ? gr3d_xf32(w) : gr3d_fp20(w); }
static inline double gr3d_rdfx(const gr3d_ctx *c, uint32_t w, bool high)
{
	return c->exact ? gr3d_xfx(w, high) : gr3d_fx10(w, high);
}

/* Uniform k's FP20 word u as an operand: the driver's binary32 with
 * arith=exact where it is known, else the word (fp20: its reading). */
static inline double gr3d_uniform20(const gr3d_ctx *c, unsigned k, double fp20)
{
	return (c->xuniform_mask >> (k & 31u)) & 1u ? (double)gr3d_xround(c->xuniform[k & 31u]) : fp20;
}

/* gr3d_fp20_quad in ctx's mode (the exact mode reads every word as binary32). */
GR3D_HOT void gr3d_rd20_quad(const gr3d_ctx *c, bool subnormals, const uint32_t raw[GR3D_PIXELS],
                             double out[GR3D_PIXELS])
{
	if (c->exact)
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			out[p] = gr3d_xf32(raw[p]);
	else
		gr3d_fp20_quad(subnormals, raw, out);
}

/* v rounded to FP20, as a value (the same rounding, done on the binary64 bits). */
static inline double gr3d_round20(const gr3d_ctx *c, double v)
{
	if (c->exact)
		return gr3d_xround(v);
	uint64_t b;
	memcpy(&b, &v, sizeof b);
	if (!fp20_f64_fast(b & ~(UINT64_C(1) << 63)))
		return !(b << 1) ? v : gr3d_fp20(gr3d_to_fp20(c, v));
	if (c->fp20_round == ULP_ROUND_NEAREST_EVEN)
		b += (UINT64_C(1) << (FP20_F64_SHIFT - 1)) - 1 + ((b >> FP20_F64_SHIFT) & 1u);
	else if (c->fp20_round == ULP_ROUND_NEAREST_AWAY)
		b += UINT64_C(1) << (FP20_F64_SHIFT - 1);
	b &= ~((UINT64_C(1) << FP20_F64_SHIFT) - 1);   /* a carry lands in the exponent */
	double r;
	memcpy(&r, &b, sizeof r);
	return r;
}

/* gr3d_round20 on the four pixels of a quad, in place.  The fast path runs
 * on all four with no branch; its range test (fp20_f64_fast) reads the
 * exponent from the high 32 bits.  A pixel outside the range (zero, the ends
 * of the range, inf, NaN) then takes gr3d_round20 from its own value. */
GR3D_HOT void gr3d_round20_quad(const gr3d_ctx *c, double r[GR3D_PIXELS])
{
	if (c->exact) {
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			r[p] = gr3d_xround(r[p]);
		return;
	}
	uint64_t b[GR3D_PIXELS];
	memcpy(b, r, sizeof b);
	const enum ulp_round rm = c->fp20_round;
	const uint64_t add = rm == ULP_ROUND_NEAREST_EVEN ? (UINT64_C(1) << (FP20_F64_SHIFT - 1)) - 1
	                   : rm == ULP_ROUND_NEAREST_AWAY ? UINT64_C(1) << (FP20_F64_SHIFT - 1) : 0;
	const uint64_t odd = rm == ULP_ROUND_NEAREST_EVEN;
	uint32_t slow = 0;
	for (unsigned p = 0; p < GR3D_PIXELS; p++) {
		const uint32_t hi = (uint32_t)(b[p] >> 32) & 0x7FFFFFFFu;
		slow |= hi - ((1023u - 29u) << 20) >= (60u << 20);
		b[p] = (b[p] + add + ((b[p] >> FP20_F64_SHIFT) & odd)) & ~((UINT64_C(1) << FP20_F64_SHIFT) - 1);
	}
	if (slow) {
		for (unsigned p = 0; p < GR3D_PIXELS; p++) {
			uint64_t o;
			memcpy(&o, &r[p], sizeof o);
			if (!fp20_f64_fast(o & ~(UINT64_C(1) << 63))) {
				const double v = gr3d_round20(c, r[p]);
				memcpy(&b[p], &v, sizeof v);
			}
		}
	}
	memcpy(r, b, sizeof b);
}

/* gr3d_fp20_bits on the four pixels of a quad (rounding rm): the fast path
 * on all four with no branch, then gr3d_fp20_bits for a value outside its
 * range (zero, the ends of the range, inf, NaN). */
GR3D_HOT void gr3d_fp20_bits_quad(enum ulp_round rm, const double v[GR3D_PIXELS],
                                  uint32_t out[GR3D_PIXELS])
{
	uint64_t b[GR3D_PIXELS];
	memcpy(b, v, sizeof b);
	const uint64_t add = rm == ULP_ROUND_NEAREST_EVEN ? (UINT64_C(1) << (FP20_F64_SHIFT - 1)) - 1
	                   : rm == ULP_ROUND_NEAREST_AWAY ? UINT64_C(1) << (FP20_F64_SHIFT - 1) : 0;
	const uint64_t odd = rm == ULP_ROUND_NEAREST_EVEN;
	uint32_t slow = 0;
	for (unsigned p = 0; p < GR3D_PIXELS; p++) {
		const uint64_t a = b[p] & ~(UINT64_C(1) << 63);
		slow |= ((uint32_t)(a >> 32)) - ((1023u - 29u) << 20) >= (60u << 20);
		out[p] = fp20_from_f64_normal(b[p] >> 63, a + add + ((a >> FP20_F64_SHIFT) & odd));
	}
	if (slow)
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			if (!fp20_f64_fast(b[p] & ~(UINT64_C(1) << 63)))
				out[p] = gr3d_fp20_bits(rm, v[p]);
}

/* An arithmetic result written into an FX10 half (rounding r = fx10.round,
 * wrap = fx10.overflow): the same rule as isa/fx10.h fx10_encode, inline. */
GR3D_HOT uint32_t gr3d_fx10_bits(enum ulp_round r, bool wrap, double v)
{
	if (isnan(v))
		return 0;
	double s = fabs(v) * 256.0;
	if (s > 1e9)
		s = 1e9;
	long n;                                      /* s >= 0: truncation is floor */
	if (r == ULP_ROUND_NEAREST_AWAY)
		n = (long)(s + 0.5);
	else if (r == ULP_ROUND_TRUNCATE)
		n = (long)s;
	else
		n = (long)ulp_round_int(s, r);
	if (v < 0)
		n = -n;
	if (!wrap)                                /* fx10.overflow = clamp */
		n = n < -512 ? -512 : n > 511 ? 511 : n;
	return (uint32_t)n & FX10_MASK;
}

GR3D_HOT uint32_t gr3d_to_fx10(const gr3d_ctx *c, double v)
{
	return c->exact ? gr3d_xfx_bits(c->fx10_wrap, v) : gr3d_fx10_bits(c->fx10_round, c->fx10_wrap, v);
}

/* The shift of an FX10 .h half in a register word, and a half's mask. */
static inline unsigned gr3d_fx_shift(const gr3d_ctx *c) { return c->exact ? GR3D_XFX_SHIFT : FX10_HIGH_SHIFT; }
static inline uint32_t gr3d_fx_mask(const gr3d_ctx *c) { return c->exact ? GR3D_XFX_MASK : FX10_MASK; }

/* gr3d_fx10_bits on the four pixels of a quad.  With rounding to nearest
 * (ties away) or truncation, with no branch: |v| * 256 is at most 1e9 + 0.5
 * after the clamp, so a conversion to int32 is the same as to long, and a NaN
 * becomes 0 before it (the code for NaN is 0).  The other rounding goes
 * through gr3d_fx10_bits. */
GR3D_HOT void gr3d_fx10_bits_quad(enum ulp_round rm, bool wrap, const double v[GR3D_PIXELS],
                                  uint32_t out[GR3D_PIXELS])
{
	if (rm != ULP_ROUND_NEAREST_AWAY && rm != ULP_ROUND_TRUNCATE) {
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			out[p] = gr3d_fx10_bits(rm, wrap, v[p]);
		return;
	}
	const double half = rm == ULP_ROUND_NEAREST_AWAY ? 0.5 : 0.0;
	const int32_t lo = wrap ? INT32_MIN : -512, hi = wrap ? INT32_MAX : 511;
	for (unsigned p = 0; p < GR3D_PIXELS; p++) {
		double s = fabs(v[p]) * 256.0;
		s = s > 1e9 ? 1e9 : s;
		s = s == s ? s : 0.0;                    /* NaN */
		int32_t n = (int32_t)(s + half);
		n = v[p] < 0 ? -n : n;
		n = n < lo ? lo : n > hi ? hi : n;
		out[p] = (uint32_t)n & FX10_MASK;
	}
}

/* gr3d_fp20_bits_quad and gr3d_fx10_bits_quad in ctx's mode. */
GR3D_HOT void gr3d_enc20_quad(const gr3d_ctx *c, const double v[GR3D_PIXELS], uint32_t out[GR3D_PIXELS])
{
	if (c->exact)
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			out[p] = gr3d_xbits(v[p]);
	else
		gr3d_fp20_bits_quad(c->fp20_round, v, out);
}

GR3D_HOT void gr3d_encfx_quad(const gr3d_ctx *c, const double v[GR3D_PIXELS], uint32_t out[GR3D_PIXELS])
{
	if (c->exact)
		for (unsigned p = 0; p < GR3D_PIXELS; p++)
			out[p] = gr3d_xfx_bits(c->fx10_wrap, v[p]);
	else
		gr3d_fx10_bits_quad(c->fx10_round, c->fx10_wrap, v, out);
}

/* Write v into register *reg as the hardware does: both halves = FP20, one
 * half = FX10 (also in exact mode for the uniform file, which keeps the
 * driver's words: docs/exact.md). */
GR3D_HOT void gr3d_write_reg_hw(const gr3d_ctx *c, uint32_t *reg, double v, bool lo, bool hi)
{
	if (lo && hi) {
		*reg = gr3d_fp20_bits(c->fp20_round, v);
	} else if (lo) {
		*reg = (*reg & ~FX10_MASK) | gr3d_fx10_bits(c->fx10_round, c->fx10_wrap, v);
	} else if (hi) {
		*reg = (*reg & FX10_MASK) | (gr3d_fx10_bits(c->fx10_round, c->fx10_wrap, v) << FX10_HIGH_SHIFT);
	}
}

/* Write v into register *reg in ctx's mode (exact: a binary32, or a 16-bit
 * half). */
GR3D_HOT void gr3d_write_reg(const gr3d_ctx *c, uint32_t *reg, double v, bool lo, bool hi)
{
	if (!c->exact) {
		gr3d_write_reg_hw(c, reg, v, lo, hi);
		return;
	}
	if (lo && hi)
		*reg = gr3d_xbits(v);
	else if (lo)
		*reg = (*reg & ~GR3D_XFX_MASK) | gr3d_xfx_bits(c->fx10_wrap, v);
	else if (hi)
		*reg = (*reg & GR3D_XFX_MASK) | gr3d_xfx_bits(c->fx10_wrap, v) << GR3D_XFX_SHIFT;
}

/* Row register k (0..3) of the current row of EXEC e (tegra-fp.md §5,
 * knob tegra.row_relative). */
static inline unsigned gr3d_row_reg(const gr3d_ctx *c, unsigned exec, unsigned k)
{
	unsigned base = c->cfg->tegra_row_relative ? (exec % c->rows) * 4u : 0u;
	return (base + k) & (GR3D_ROW_REGS - 1);
}

/* ---- the common shape of a one-quad-at-a-time stage (MFU, TEX, ALU, DW):
 * sim/core/stage.h's skeleton with gr3d_tokens */

typedef struct gr3d_stage gr3d_stage;
struct sim_port;
struct gr3d_stage {
	sim_unit u;                   /* first: the clock's view */
	gr3d_ctx *ctx;
	struct sim_port *in, *out;    /* ports of gr3d_tokens (the tick copies them as such) */
	/* per-quad work: returns the cycles the quad occupies the unit (>= 1) */
	unsigned (*exec)(gr3d_stage *s, gr3d_quad *q, unsigned exec);
	/* where the token goes after the unit (DW: recirculation or done) */
	void (*route)(gr3d_stage *s, gr3d_token *t);
	sim_hold hold;                /* cur, until hold.done_at */
	gr3d_token cur;
	uint64_t now;                 /* the cycle the unit took cur (exec runs in it) */
	uint16_t quad_clocks;         /* tegra.quad_clocks */
	uint8_t ahead_unit;           /* booking from ahead.h's records: which unit */
};

void gr3d_stage_init(gr3d_stage *s, const char *name, gr3d_ctx *ctx,
                     const sim_counter_def *counters, uint8_t ncounters);
/* in: the tokens it takes (it becomes their consumer); out: where it hands
 * them on. */
void gr3d_stage_connect(gr3d_stage *s, struct sim_port *in, struct sim_port *out);

#endif
