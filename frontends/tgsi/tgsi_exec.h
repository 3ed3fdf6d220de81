/* TGSI reference interpreter: one invocation (one vertex or one fragment) of
 * a parsed shader with Mesa 22.3 tgsi_exec semantics in f32 (reference
 * tgsi.md §2).  Registers are 4 x 32-bit untyped words; every file is a set
 * of banks (the dimension: CONST[buf][i], GS IN[vtx][i]; 1-D files use bank
 * 0).  Case loading and JSON output live in tgsi_exec_case.c.
 *
 * Single-lane model: IF/UIF/ELSE/loops/BRK/CONT/CAL/RET act as plain jumps
 * (tgsi_cf_resolve links); DDX/DDY give 0; KILL/KILL_IF end the run with
 * `killed`; FBFETCH reads fb_color (the destination pixel).  Texture opcodes sample the sampler's image (one 2-D level,
 * nearest or bilinear, repeat / clamp-to-edge / mirrored-repeat, optional
 * depth compare; tgsi_exec_ops.h) or, without one, return the constant texel
 * in SAMP[n].  A GEOM shader's EMIT snapshots the OUT registers as a vertex
 * of the open primitive (stream 0) and ENDPRIM closes it, as tgsi_exec
 * does.  Assumptions: docs/tgsi-frontend.md "Decisions". */
#ifndef ULP_FRONTENDS_TGSI_EXEC_H
#define ULP_FRONTENDS_TGSI_EXEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "frontends/tgsi/tgsi.h"

enum { TGSI_EXEC_WRITTEN = 1, TGSI_EXEC_DECLARED = 2 };

typedef struct tgsi_exec_bank {
	uint32_t (*v)[4];
	uint8_t *flags;                 /* TGSI_EXEC_WRITTEN | TGSI_EXEC_DECLARED */
	size_t n;
} tgsi_exec_bank;

typedef struct tgsi_exec_file {
	tgsi_exec_bank *banks;
	size_t nbanks;
} tgsi_exec_file;

enum tgsi_exec_filter { TGSI_EXEC_NEAREST, TGSI_EXEC_LINEAR };
enum tgsi_exec_wrap { TGSI_EXEC_REPEAT, TGSI_EXEC_CLAMP_TO_EDGE, TGSI_EXEC_MIRRORED_REPEAT };
/* Depth compare `ref OP texel.r` (GL order); NONE = no compare. */
enum tgsi_exec_compare { TGSI_EXEC_COMPARE_NONE, TGSI_EXEC_NEVER, TGSI_EXEC_LESS,
	TGSI_EXEC_EQUAL, TGSI_EXEC_LEQUAL, TGSI_EXEC_GREATER, TGSI_EXEC_NOTEQUAL,
	TGSI_EXEC_GEQUAL, TGSI_EXEC_ALWAYS };

/* A sampler's image: one mip level, width x height texels of 4 floats,
 * row-major, row 0 at t = 0.  texels == NULL: none given (the constant texel
 * SAMP[n] applies). */
typedef struct tgsi_exec_texture {
	uint32_t width, height;
	float (*texels)[4];
	uint8_t filter;                 /* enum tgsi_exec_filter */
	uint8_t wrap[2];                /* enum tgsi_exec_wrap, s and t */
	uint8_t compare;                /* enum tgsi_exec_compare */
} tgsi_exec_texture;

/* Geometry-shader output (stream 0): vertices are snapshots of OUT bank 0
 * (flags say which registers were declared or written); prims[i] counts the
 * vertices of closed primitive i, in order.  `open` counts the vertices of
 * the primitive still open.  max_vertices per primitive comes from
 * GS_MAX_OUTPUT_VERTICES (0 = no limit). */
typedef struct tgsi_exec_gs_out {
	tgsi_exec_bank *verts;
	size_t num_verts, cap_verts;
	size_t *prims;
	size_t num_prims, cap_prims;
	size_t open;
	uint32_t max_vertices;
} tgsi_exec_gs_out;

typedef struct tgsi_exec_machine {
	tgsi_shader *sh;                /* resolved by tgsi_exec_init */
	tgsi_exec_file files[TGSI_FILE_COUNT];
	bool killed;
	uint64_t steps, max_steps;
	const char *file;               /* for diagnostics */
	tgsi_exec_texture *textures;    /* by sampler index; see tgsi_exec_texture_slot */
	size_t num_textures;
	tgsi_exec_gs_out gs;            /* GEOM only */
	float fb_color[4];              /* FBFETCH: the destination pixel (RGBA, 0..1) */
} tgsi_exec_machine;

/* Resolves control flow and sizes every register file from the shader.
 * Immediates are loaded; everything else starts at 0. */
bool tgsi_exec_init(tgsi_exec_machine *m, tgsi_shader *sh, const char *file, ulp_diag *d);
void tgsi_exec_fini(tgsi_exec_machine *m);

/* Pointer to FILE[bank][index] (grown on demand), or NULL when out of memory
 * or too large (index or bank above 65535). */
uint32_t *tgsi_exec_reg(tgsi_exec_machine *m, unsigned file, size_t bank, size_t index);

/* The image slot of sampler `index` (grown on demand, zeroed), or NULL when
 * out of memory or index > 65535.  Fill width/height/texels (malloc'd; the
 * machine frees them) and the sampler state. */
tgsi_exec_texture *tgsi_exec_texture_slot(tgsi_exec_machine *m, size_t index);

/* Runs from instruction 0 to END (or the end of the main body).  A GEOM
 * shader starts with no emitted vertices; at the end an open primitive with
 * vertices is closed (tgsi_exec's END). */
bool tgsi_exec_run(tgsi_exec_machine *m, ulp_diag *d);

/* The structured jumps (tgsi_cf_resolve's links) of IF, UIF, ELSE, ENDLOOP,
 * BRK and CONT at instruction pc, x the bits of the first source's .x:
 * *next = the instruction that runs next.  False (next untouched) for any
 * other opcode.  Shared by the interpreter and other executors over its
 * machines (the piglit reference quad). */
bool tgsi_exec_cf_next(const tgsi_instruction *in, int32_t pc, uint32_t x, int32_t *next);

/* Operand access, also used by other executors over these machines (the
 * piglit reference quad): read a source with its swizzle, abs and negate
 * (indirect and 2-D addressing resolved; out of range reads 0); write a
 * destination with its mask and saturate (an out-of-range indirect write is
 * dropped; false with d on a file the interpreter does not write). */
void tgsi_exec_fetch(const tgsi_exec_machine *m, const tgsi_src *s, bool int_type, uint32_t v[4]);
bool tgsi_exec_store(tgsi_exec_machine *m, const tgsi_instruction *in, const tgsi_dst *dst,
                     const uint32_t v[4], ulp_diag *d);

/* tgsi_exec_case.c: sets registers from a case JSON object
 *   { "IN[0]": [x, y, z, w], "CONST[0][2]": [...], "CONST[3]": [...],
 *     "IN[1][0]": [...] (GS: vertex 1, attribute 0),
 *     "SV[0]": [...], "INSTANCEID": [...], "SAMP[0]": [r, g, b, a],
 *     "SAMP[1]": {"width": W, "height": H, "texels": [[r, g, b, a], ...],
 *                 "filter": "nearest"|"linear",
 *                 "wrap": "repeat"|"clamp"|"mirror" or [s, t],
 *                 "compare": "less"|...} or {"png": "file.png", ...} }
 * values are numbers (f32) or "0x%08x" bit strings; 1 to 4 of them.  A PNG
 * path is relative to the directory of case_file (docs/tgsi-frontend.md). */
bool tgsi_exec_load_case(tgsi_exec_machine *m, const char *json, size_t len,
                         const char *case_file, ulp_diag *d);
/* {"outputs": {"OUT[0]": [x, y, z, w], ...}, "killed": false}\n, malloc'd;
 * for a GEOM shader {"output_primitive": "...", "primitives": [{"vertices":
 * [{"OUT[0]": [...], ...}, ...]}, ...]}\n.  Values print as %.9g (exact for
 * f32) or, with bits, as "0x%08x". */
char *tgsi_exec_outputs_json(const tgsi_exec_machine *m, bool bits);

#endif
