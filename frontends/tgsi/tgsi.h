/* TGSI (Gallium shader IR, text form): the in-memory shader.
 *
 * One tgsi_shader holds what Mesa 22.3's tgsi_text would turn into tokens:
 * the processor, then properties, declarations, immediates and instructions,
 * each in its own array, plus `order`, the statement order as written (the
 * printer replays it).  Control-flow links (IF/ELSE/ENDIF, loops, switches,
 * subroutines) are filled by tgsi_cf_resolve() (tgsi_cf.c), rebuilt from
 * nesting: written branch labels are kept but not trusted.
 *
 * Files: tgsi_opcodes.def (opcode X-macro), tgsi_info.c (opcode and name
 * tables), tgsi_text.c (parser), tgsi_dump.c (printer), tgsi_cf.c (control
 * flow), tgsi_shader.c (allocation).  docs/tgsi-frontend.md describes them. */
#ifndef ULP_FRONTENDS_TGSI_H
#define ULP_FRONTENDS_TGSI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"

/* ---- opcodes (tgsi_opcodes.def) ---- */
enum tgsi_opcode {
#define TGSI_OP(name, ndst, nsrc, out, flags) TGSI_OPCODE_##name,
#include "frontends/tgsi/tgsi_opcodes.def"
#undef TGSI_OP
	TGSI_OPCODE_COUNT
};

enum tgsi_output_mode { TGSI_OUT_COMP, TGSI_OUT_REPL, TGSI_OUT_CHAN, TGSI_OUT_OTHR, TGSI_OUT_NONE };

enum tgsi_opcode_flag {
	TGSI_OPF_TEX = 1u << 0,         /* one texture-target operand after the sources */
	TGSI_OPF_SAMPLE = 1u << 1,      /* texture bit set, target UNKNOWN, not printed */
	TGSI_OPF_BRANCH = 1u << 2,      /* accepts " :label" */
	TGSI_OPF_PRE_DEDENT = 1u << 3,
	TGSI_OPF_POST_INDENT = 1u << 4,
	TGSI_OPF_STORE = 1u << 5,
	TGSI_OPF_MEM = 1u << 6,         /* memory qualifiers / target / format may follow */
	TGSI_OPF_LEGACY = 1u << 7,      /* removed before Mesa 22.3 */
};

typedef struct tgsi_opcode_info {
	const char *mnemonic;
	uint8_t num_dst, num_src;
	uint8_t output_mode;            /* enum tgsi_output_mode */
	uint16_t flags;                 /* enum tgsi_opcode_flag */
} tgsi_opcode_info;

const tgsi_opcode_info *tgsi_get_opcode_info(enum tgsi_opcode op);
/* Exact (case-insensitive) mnemonic lookup; TGSI_OPCODE_COUNT when unknown. */
enum tgsi_opcode tgsi_opcode_from_name(const char *name, size_t len);

/* ---- enumerations, in Mesa's order; names in tgsi_info.c ---- */
enum tgsi_processor {
	TGSI_PROCESSOR_VERTEX, TGSI_PROCESSOR_FRAGMENT, TGSI_PROCESSOR_GEOMETRY,
	TGSI_PROCESSOR_TESS_CTRL, TGSI_PROCESSOR_TESS_EVAL, TGSI_PROCESSOR_COMPUTE,
	TGSI_PROCESSOR_COUNT
};

enum tgsi_file {
	TGSI_FILE_NULL, TGSI_FILE_CONSTANT, TGSI_FILE_INPUT, TGSI_FILE_OUTPUT,
	TGSI_FILE_TEMPORARY, TGSI_FILE_SAMPLER, TGSI_FILE_ADDRESS, TGSI_FILE_IMMEDIATE,
	TGSI_FILE_SYSTEM_VALUE, TGSI_FILE_IMAGE, TGSI_FILE_SAMPLER_VIEW, TGSI_FILE_BUFFER,
	TGSI_FILE_MEMORY, TGSI_FILE_CONSTBUF, TGSI_FILE_HW_ATOMIC,
	TGSI_FILE_COUNT
};

enum tgsi_semantic {
	TGSI_SEMANTIC_POSITION, TGSI_SEMANTIC_COLOR, TGSI_SEMANTIC_BCOLOR, TGSI_SEMANTIC_FOG,
	TGSI_SEMANTIC_PSIZE, TGSI_SEMANTIC_GENERIC, TGSI_SEMANTIC_NORMAL, TGSI_SEMANTIC_FACE,
	TGSI_SEMANTIC_EDGEFLAG, TGSI_SEMANTIC_PRIMID, TGSI_SEMANTIC_INSTANCEID,
	TGSI_SEMANTIC_VERTEXID, TGSI_SEMANTIC_STENCIL, TGSI_SEMANTIC_CLIPDIST,
	TGSI_SEMANTIC_CLIPVERTEX, TGSI_SEMANTIC_GRID_SIZE, TGSI_SEMANTIC_BLOCK_ID,
	TGSI_SEMANTIC_BLOCK_SIZE, TGSI_SEMANTIC_THREAD_ID, TGSI_SEMANTIC_TEXCOORD,
	TGSI_SEMANTIC_PCOORD, TGSI_SEMANTIC_VIEWPORT_INDEX, TGSI_SEMANTIC_LAYER,
	TGSI_SEMANTIC_SAMPLEID, TGSI_SEMANTIC_SAMPLEPOS, TGSI_SEMANTIC_SAMPLEMASK,
	TGSI_SEMANTIC_INVOCATIONID, TGSI_SEMANTIC_VERTEXID_NOBASE, TGSI_SEMANTIC_BASEVERTEX,
	TGSI_SEMANTIC_PATCH, TGSI_SEMANTIC_TESSCOORD, TGSI_SEMANTIC_TESSOUTER,
	TGSI_SEMANTIC_TESSINNER, TGSI_SEMANTIC_VERTICESIN, TGSI_SEMANTIC_HELPER_INVOCATION,
	TGSI_SEMANTIC_BASEINSTANCE, TGSI_SEMANTIC_DRAWID, TGSI_SEMANTIC_WORK_DIM,
	TGSI_SEMANTIC_SUBGROUP_SIZE, TGSI_SEMANTIC_SUBGROUP_INVOCATION,
	TGSI_SEMANTIC_SUBGROUP_EQ_MASK, TGSI_SEMANTIC_SUBGROUP_GE_MASK,
	TGSI_SEMANTIC_SUBGROUP_GT_MASK, TGSI_SEMANTIC_SUBGROUP_LE_MASK,
	TGSI_SEMANTIC_SUBGROUP_LT_MASK, TGSI_SEMANTIC_CS_USER_DATA_AMD,
	TGSI_SEMANTIC_VIEWPORT_MASK,
	TGSI_SEMANTIC_COUNT
};

enum tgsi_texture_target {
	TGSI_TEXTURE_BUFFER, TGSI_TEXTURE_1D, TGSI_TEXTURE_2D, TGSI_TEXTURE_3D,
	TGSI_TEXTURE_CUBE, TGSI_TEXTURE_RECT, TGSI_TEXTURE_SHADOW1D, TGSI_TEXTURE_SHADOW2D,
	TGSI_TEXTURE_SHADOWRECT, TGSI_TEXTURE_1D_ARRAY, TGSI_TEXTURE_2D_ARRAY,
	TGSI_TEXTURE_SHADOW1D_ARRAY, TGSI_TEXTURE_SHADOW2D_ARRAY, TGSI_TEXTURE_SHADOWCUBE,
	TGSI_TEXTURE_2D_MSAA, TGSI_TEXTURE_2D_ARRAY_MSAA, TGSI_TEXTURE_CUBE_ARRAY,
	TGSI_TEXTURE_SHADOWCUBE_ARRAY, TGSI_TEXTURE_UNKNOWN,
	TGSI_TEXTURE_COUNT
};

enum tgsi_property_name {
	TGSI_PROPERTY_GS_INPUT_PRIM, TGSI_PROPERTY_GS_OUTPUT_PRIM,
	TGSI_PROPERTY_GS_MAX_OUTPUT_VERTICES, TGSI_PROPERTY_FS_COORD_ORIGIN,
	TGSI_PROPERTY_FS_COORD_PIXEL_CENTER, TGSI_PROPERTY_FS_COLOR0_WRITES_ALL_CBUFS,
	TGSI_PROPERTY_FS_DEPTH_LAYOUT, TGSI_PROPERTY_VS_PROHIBIT_UCPS,
	TGSI_PROPERTY_GS_INVOCATIONS, TGSI_PROPERTY_VS_WINDOW_SPACE_POSITION,
	TGSI_PROPERTY_TCS_VERTICES_OUT, TGSI_PROPERTY_TES_PRIM_MODE, TGSI_PROPERTY_TES_SPACING,
	TGSI_PROPERTY_TES_VERTEX_ORDER_CW, TGSI_PROPERTY_TES_POINT_MODE,
	TGSI_PROPERTY_NUM_CLIPDIST_ENABLED, TGSI_PROPERTY_NUM_CULLDIST_ENABLED,
	TGSI_PROPERTY_FS_EARLY_DEPTH_STENCIL, TGSI_PROPERTY_FS_POST_DEPTH_COVERAGE,
	TGSI_PROPERTY_NEXT_SHADER, TGSI_PROPERTY_CS_FIXED_BLOCK_WIDTH,
	TGSI_PROPERTY_CS_FIXED_BLOCK_HEIGHT, TGSI_PROPERTY_CS_FIXED_BLOCK_DEPTH,
	TGSI_PROPERTY_LEGACY_MATH_RULES, TGSI_PROPERTY_VS_BLIT_SGPRS_AMD,
	TGSI_PROPERTY_CS_USER_DATA_COMPONENTS_AMD, TGSI_PROPERTY_LAYER_VIEWPORT_RELATIVE,
	TGSI_PROPERTY_FS_BLEND_EQUATION_ADVANCED, TGSI_PROPERTY_SEPARABLE_PROGRAM,
	TGSI_PROPERTY_COUNT
};

enum tgsi_imm_type {
	TGSI_IMM_FLOAT32, TGSI_IMM_UINT32, TGSI_IMM_INT32,
	TGSI_IMM_FLOAT64, TGSI_IMM_UINT64, TGSI_IMM_INT64,
	TGSI_IMM_TYPE_COUNT
};

enum tgsi_interpolate { TGSI_INTERPOLATE_CONSTANT, TGSI_INTERPOLATE_LINEAR,
	TGSI_INTERPOLATE_PERSPECTIVE, TGSI_INTERPOLATE_COLOR, TGSI_INTERPOLATE_COUNT };
enum tgsi_interpolate_loc { TGSI_INTERPOLATE_LOC_CENTER, TGSI_INTERPOLATE_LOC_CENTROID,
	TGSI_INTERPOLATE_LOC_SAMPLE, TGSI_INTERPOLATE_LOC_COUNT };
enum tgsi_return_type { TGSI_RETURN_TYPE_UNORM, TGSI_RETURN_TYPE_SNORM,
	TGSI_RETURN_TYPE_SINT, TGSI_RETURN_TYPE_UINT, TGSI_RETURN_TYPE_FLOAT,
	TGSI_RETURN_TYPE_COUNT };
enum tgsi_memory_type { TGSI_MEMORY_TYPE_GLOBAL, TGSI_MEMORY_TYPE_SHARED,
	TGSI_MEMORY_TYPE_PRIVATE, TGSI_MEMORY_TYPE_INPUT, TGSI_MEMORY_TYPE_COUNT };
enum { TGSI_PRIM_COUNT = 15, TGSI_MEMORY_QUALIFIER_COUNT = 4 };

enum { TGSI_SWIZZLE_X, TGSI_SWIZZLE_Y, TGSI_SWIZZLE_Z, TGSI_SWIZZLE_W };
enum { TGSI_WRITEMASK_X = 1, TGSI_WRITEMASK_Y = 2, TGSI_WRITEMASK_Z = 4,
	TGSI_WRITEMASK_W = 8, TGSI_WRITEMASK_XYZW = 15 };

enum { TGSI_MAX_DST = 2, TGSI_MAX_SRC = 5, TGSI_MAX_TEX_OFFSETS = 4,
	TGSI_FORMAT_NAME_MAX = 64 };
/* Limits on a parsed shader (docs/robustness.md): control-flow nesting (the
 * parser, tgsi_cf_resolve and so run, compile and fmt refuse deeper, "IF
 * nested too deeply") and instructions per shader. */
enum { TGSI_MAX_NESTING = 1024, TGSI_MAX_INSTRUCTIONS = 65536 };

/* Name tables (NULL for out-of-range values). */
const char *tgsi_processor_name(unsigned p);
const char *tgsi_file_name(unsigned f);
const char *tgsi_semantic_name(unsigned s);
const char *tgsi_texture_name(unsigned t);
const char *tgsi_property_name(unsigned p);
const char *tgsi_imm_type_name(unsigned t);
const char *tgsi_interpolate_name(unsigned i);
const char *tgsi_interpolate_loc_name(unsigned l);
const char *tgsi_return_type_name(unsigned r);
const char *tgsi_memory_type_name(unsigned m);
const char *tgsi_primitive_name(unsigned p);
const char *tgsi_memory_qualifier_name(unsigned bit);
const char *tgsi_fs_coord_origin_name(unsigned v);
const char *tgsi_fs_coord_pixel_center_name(unsigned v);
/* Vertices per primitive as Mesa's u_vertices_per_prim (0 = none implied). */
unsigned tgsi_primitive_vertices(unsigned prim);

/* ---- operands ---- */

/* An indirect address: FILE[index].swizzle, with an optional (ArrayID). */
typedef struct tgsi_ind_ref {
	uint8_t file;                   /* enum tgsi_file, usually ADDRESS */
	uint8_t swizzle;                /* component, TGSI_SWIZZLE_* */
	int32_t index;
	uint32_t array_id;              /* 0 = none */
} tgsi_ind_ref;

/* FILE[dim][index], either index possibly indirect.  With `indirect`, the
 * address is ind + index (index is the signed literal offset, "+N"). */
typedef struct tgsi_reg_ref {
	uint8_t file;                   /* enum tgsi_file */
	bool indirect;
	bool dimension;                 /* two brackets: CONST[buf][i], GS IN[vtx][i] */
	bool dim_indirect;
	int32_t index;
	int32_t dim_index;
	tgsi_ind_ref ind;
	tgsi_ind_ref dim_ind;
} tgsi_reg_ref;

typedef struct tgsi_dst {
	tgsi_reg_ref reg;
	uint8_t writemask;              /* TGSI_WRITEMASK_* bits */
} tgsi_dst;

typedef struct tgsi_src {
	tgsi_reg_ref reg;
	uint8_t swizzle[4];             /* TGSI_SWIZZLE_* per channel */
	bool negate, absolute;          /* fetch applies |x| first, then - */
} tgsi_src;

typedef struct tgsi_tex_offset {
	uint8_t file;
	int32_t index;
	uint8_t swizzle[3];
} tgsi_tex_offset;

/* How a written branch label relates to the structure rebuilt from nesting. */
enum tgsi_label_kind {
	TGSI_LABEL_NONE,                /* no " :N" */
	TGSI_LABEL_ABSOLUTE,            /* N = index of the matching instruction */
	TGSI_LABEL_RELATIVE,            /* N = that index minus this one */
	TGSI_LABEL_ZERO,                /* ":0", unset */
	TGSI_LABEL_OTHER
};

typedef struct tgsi_instruction {
	uint16_t opcode;                /* enum tgsi_opcode */
	uint8_t num_dst, num_src;
	bool saturate, precise;
	tgsi_dst dst[TGSI_MAX_DST];
	tgsi_src src[TGSI_MAX_SRC];

	bool texture;                   /* texture target and offsets present */
	uint8_t target;                 /* enum tgsi_texture_target */
	uint8_t num_tex_offsets;
	tgsi_tex_offset tex_offsets[TGSI_MAX_TEX_OFFSETS];

	bool memory;                    /* LOAD/STORE/ATOM*.../RESQ */
	uint8_t mem_qualifier;          /* bit i = tgsi_memory_qualifier_name(i) */
	uint8_t mem_target;             /* 0 = none printed */
	char mem_format[TGSI_FORMAT_NAME_MAX];  /* "" = none */

	bool has_label;
	uint32_t label;                 /* as written; see cf_* for the real links */

	/* Filled by tgsi_cf_resolve(); -1 where not applicable.
	 *  IF/UIF:     cf_open = self, cf_else = ELSE or -1, cf_close = ENDIF
	 *  ELSE/ENDIF: cf_open = the IF, cf_else, cf_close as for the IF
	 *  BGNLOOP/ENDLOOP, SWITCH/ENDSWITCH, BGNSUB/ENDSUB: cf_open/cf_close pair
	 *  CASE/DEFAULT: cf_open/cf_close of the SWITCH
	 *  BRK: innermost loop or switch; CONT: innermost loop
	 *  CAL: cf_target = the BGNSUB its label names */
	int32_t cf_open, cf_else, cf_close, cf_target;
	uint8_t label_kind;             /* enum tgsi_label_kind */
	int line, col;                  /* where the mnemonic (or its "N:") starts */
} tgsi_instruction;

typedef struct tgsi_declaration {
	uint8_t file;                   /* enum tgsi_file */
	uint32_t first, last;           /* register range */
	uint8_t usage_mask;             /* TGSI_WRITEMASK_* bits */
	bool dimension;                 /* DCL CONST[index_2d][first..last] */
	uint32_t index_2d;
	bool array;
	int32_t array_id;
	bool local;
	bool semantic;
	uint8_t semantic_name;          /* enum tgsi_semantic */
	uint32_t semantic_index;
	uint32_t stream[4];             /* GS outputs: STREAM(x, y, z, w) */
	bool interpolate;
	uint8_t interp;                 /* enum tgsi_interpolate */
	uint8_t location;               /* enum tgsi_interpolate_loc */
	bool invariant;
	uint8_t resource;               /* SVIEW / IMAGE texture target */
	uint8_t return_type[4];         /* SVIEW, enum tgsi_return_type */
	bool image_raw, image_writable;
	char image_format[TGSI_FORMAT_NAME_MAX];    /* IMAGE: "PIPE_FORMAT_..." */
	bool atomic;                    /* BUFFER */
	uint8_t mem_type;               /* MEMORY, enum tgsi_memory_type */
	int line, col;
} tgsi_declaration;

enum tgsi_float_notation { TGSI_FLOAT_DECIMAL, TGSI_FLOAT_HEX };

typedef struct tgsi_immediate {
	uint8_t type;                   /* enum tgsi_imm_type */
	uint32_t u[4];                  /* raw 32-bit slots; 64-bit types use u[0..1], u[2..3] */
	uint8_t notation[4];            /* FLT32: enum tgsi_float_notation as written */
	int line, col;
} tgsi_immediate;

typedef struct tgsi_property {
	uint8_t name;                   /* enum tgsi_property_name */
	uint32_t value;
	int line, col;
} tgsi_property;

enum tgsi_token_kind { TGSI_TOKEN_PROPERTY, TGSI_TOKEN_DECLARATION,
	TGSI_TOKEN_IMMEDIATE, TGSI_TOKEN_INSTRUCTION };

typedef struct tgsi_token_ref {
	uint8_t kind;                   /* enum tgsi_token_kind */
	uint32_t index;                 /* into the array of that kind */
} tgsi_token_ref;

typedef struct tgsi_shader {
	uint8_t processor;              /* enum tgsi_processor */
	tgsi_property *props;
	size_t num_props;
	tgsi_declaration *decls;
	size_t num_decls;
	tgsi_immediate *imms;
	size_t num_imms;
	tgsi_instruction *insts;
	size_t num_insts;
	tgsi_token_ref *order;          /* every statement, as written */
	size_t num_order;
	bool cf_resolved;
	size_t cap_props, cap_decls, cap_imms, cap_insts, cap_order;
} tgsi_shader;

/* ---- parser (tgsi_text.c) ---- */
typedef struct tgsi_parse_options {
	bool reject_legacy;             /* Mesa 22.3 exactly: ABS/SUB/... are unknown */
} tgsi_parse_options;

/* Parses text[0..len) (the NUL at text[len] is not needed).  `file` names
 * the input in diagnostics.  Returns a malloc'd shader, or NULL with d set
 * (file:line:col and what was expected).  opts may be NULL. */
tgsi_shader *tgsi_parse(const char *text, size_t len, const char *file,
                        const tgsi_parse_options *opts, ulp_diag *d);
void tgsi_shader_free(tgsi_shader *sh);

/* ---- printer (tgsi_dump.c) ---- */
enum tgsi_dump_floats {
	TGSI_DUMP_FLOATS_AS_WRITTEN,    /* each FLT32 in the notation it was read in */
	TGSI_DUMP_FLOATS_DECIMAL,       /* tgsi_dump default, "%10.4f" */
	TGSI_DUMP_FLOATS_HEX            /* TGSI_DUMP_FLOAT_AS_HEX, "0x%08x" */
};
/* The whole shader as tgsi_dump prints it: a malloc'd NUL-terminated string
 * (length in *len if len != NULL), or NULL when out of memory. */
char *tgsi_dump_str(const tgsi_shader *sh, enum tgsi_dump_floats floats, size_t *len);

/* ---- control flow (tgsi_cf.c) ---- */
/* Rebuilds the cf_* links from nesting and classifies written labels.  Fails
 * (d set, with the instruction's line:col) on unbalanced nesting, ELSE outside
 * an IF, BRK/CONT outside a loop, or a CAL whose label is not a BGNSUB. */
bool tgsi_cf_resolve(tgsi_shader *sh, const char *file, ulp_diag *d);

/* ---- shader building (tgsi_shader.c), used by the parser ---- */
tgsi_shader *tgsi_shader_new(void);
tgsi_property *tgsi_shader_add_property(tgsi_shader *sh);
tgsi_declaration *tgsi_shader_add_declaration(tgsi_shader *sh);
tgsi_immediate *tgsi_shader_add_immediate(tgsi_shader *sh);
tgsi_instruction *tgsi_shader_add_instruction(tgsi_shader *sh);

#endif
