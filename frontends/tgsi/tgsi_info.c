/* TGSI opcode info (from tgsi_opcodes.def) and the name tables of Mesa 22.3's
 * tgsi_strings.c (names only; facts, in Mesa's enumeration order). */
#include <assert.h>
#include <string.h>

#include "frontends/tgsi/tgsi.h"

#define F_TEX TGSI_OPF_TEX
#define F_SAMPLE TGSI_OPF_SAMPLE
#define F_BRANCH TGSI_OPF_BRANCH
#define F_PRE_DEDENT TGSI_OPF_PRE_DEDENT
#define F_POST_INDENT TGSI_OPF_POST_INDENT
#define F_STORE TGSI_OPF_STORE
#define F_MEM TGSI_OPF_MEM
#define F_LEGACY TGSI_OPF_LEGACY

static const tgsi_opcode_info opcode_info[] = {
#define TGSI_OP(name, ndst, nsrc, out, flags) \
	{ #name, ndst, nsrc, TGSI_OUT_##out, flags },
#include "frontends/tgsi/tgsi_opcodes.def"
#undef TGSI_OP
};
static_assert(sizeof opcode_info / sizeof opcode_info[0] == TGSI_OPCODE_COUNT,
              "opcode table and enum out of step");

const tgsi_opcode_info *tgsi_get_opcode_info(enum tgsi_opcode op)
{
	if ((unsigned)op >= TGSI_OPCODE_COUNT)
		return NULL;
	return &opcode_info[op];
}

static char upper(char c)
{
	return c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A') : c;
}

/* name[0..len) equals the upper-case word w, ignoring case. */
static bool word_eq(const char *name, size_t len, const char *w)
{
	size_t i = 0;
	for (; i < len && w[i]; i++)
		if (upper(name[i]) != w[i])
			return false;
	return i == len && w[i] == '\0';
}

enum tgsi_opcode tgsi_opcode_from_name(const char *name, size_t len)
{
	for (unsigned i = 0; i < TGSI_OPCODE_COUNT; i++)
		if (word_eq(name, len, opcode_info[i].mnemonic))
			return (enum tgsi_opcode)i;
	return TGSI_OPCODE_COUNT;
}

#define NAME_FN(fn, table) \
	const char *fn(unsigned v) \
	{ \
		return v < sizeof table / sizeof table[0] ? table[v] : NULL; \
	}

static const char *const processor_names[] = {
	"VERT", "FRAG", "GEOM", "TESS_CTRL", "TESS_EVAL", "COMP",
};
static const char *const file_names[] = {
	"NULL", "CONST", "IN", "OUT", "TEMP", "SAMP", "ADDR", "IMM", "SV", "IMAGE",
	"SVIEW", "BUFFER", "MEMORY", "CONSTBUF", "HWATOMIC",
};
static const char *const semantic_names[] = {
	"POSITION", "COLOR", "BCOLOR", "FOG", "PSIZE", "GENERIC", "NORMAL", "FACE",
	"EDGEFLAG", "PRIM_ID", "INSTANCEID", "VERTEXID", "STENCIL", "CLIPDIST",
	"CLIPVERTEX", "GRID_SIZE", "BLOCK_ID", "BLOCK_SIZE", "THREAD_ID", "TEXCOORD",
	"PCOORD", "VIEWPORT_INDEX", "LAYER", "SAMPLEID", "SAMPLEPOS", "SAMPLEMASK",
	"INVOCATIONID", "VERTEXID_NOBASE", "BASEVERTEX", "PATCH", "TESSCOORD",
	"TESSOUTER", "TESSINNER", "VERTICESIN", "HELPER_INVOCATION", "BASEINSTANCE",
	"DRAWID", "WORK_DIM", "SUBGROUP_SIZE", "SUBGROUP_INVOCATION",
	"SUBGROUP_EQ_MASK", "SUBGROUP_GE_MASK", "SUBGROUP_GT_MASK", "SUBGROUP_LE_MASK",
	"SUBGROUP_LT_MASK", "CS_USER_DATA_AMD", "VIEWPORT_MASK",
};
static const char *const texture_names[] = {
	"BUFFER", "1D", "2D", "3D", "CUBE", "RECT", "SHADOW1D", "SHADOW2D", "SHADOWRECT",
	"1D_ARRAY", "2D_ARRAY", "SHADOW1D_ARRAY", "SHADOW2D_ARRAY", "SHADOWCUBE",
	"2D_MSAA", "2D_ARRAY_MSAA", "CUBEARRAY", "SHADOWCUBEARRAY", "UNKNOWN",
};
static const char *const property_names[] = {
	"GS_INPUT_PRIMITIVE", "GS_OUTPUT_PRIMITIVE", "GS_MAX_OUTPUT_VERTICES",
	"FS_COORD_ORIGIN", "FS_COORD_PIXEL_CENTER", "FS_COLOR0_WRITES_ALL_CBUFS",
	"FS_DEPTH_LAYOUT", "VS_PROHIBIT_UCPS", "GS_INVOCATIONS",
	"VS_WINDOW_SPACE_POSITION", "TCS_VERTICES_OUT", "TES_PRIM_MODE", "TES_SPACING",
	"TES_VERTEX_ORDER_CW", "TES_POINT_MODE", "NUM_CLIPDIST_ENABLED",
	"NUM_CULLDIST_ENABLED", "FS_EARLY_DEPTH_STENCIL", "FS_POST_DEPTH_COVERAGE",
	"NEXT_SHADER", "CS_FIXED_BLOCK_WIDTH", "CS_FIXED_BLOCK_HEIGHT",
	"CS_FIXED_BLOCK_DEPTH", "LEGACY_MATH_RULES", "VS_BLIT_SGPRS_AMD",
	"CS_USER_DATA_COMPONENTS_AMD", "LAYER_VIEWPORT_RELATIVE",
	"FS_BLEND_EQUATION_ADVANCED", "SEPARABLE_PROGRAM",
};
static const char *const imm_type_names[] = {
	"FLT32", "UINT32", "INT32", "FLT64", "UINT64", "INT64",
};
static const char *const interpolate_names[] = {
	"CONSTANT", "LINEAR", "PERSPECTIVE", "COLOR",
};
static const char *const interpolate_loc_names[] = { "CENTER", "CENTROID", "SAMPLE" };
static const char *const return_type_names[] = { "UNORM", "SNORM", "SINT", "UINT", "FLOAT" };
static const char *const memory_type_names[] = { "GLOBAL", "SHARED", "PRIVATE", "INPUT" };
static const char *const primitive_names[] = {
	"POINTS", "LINES", "LINE_LOOP", "LINE_STRIP", "TRIANGLES", "TRIANGLE_STRIP",
	"TRIANGLE_FAN", "QUADS", "QUAD_STRIP", "POLYGON", "LINES_ADJACENCY",
	"LINE_STRIP_ADJACENCY", "TRIANGLES_ADJACENCY", "TRIANGLE_STRIP_ADJACENCY",
	"PATCHES",
};
static const unsigned char primitive_vertices[] = { 1, 2, 2, 2, 3, 3, 3, 4, 4, 0, 4, 4, 6, 6, 0 };
static const char *const memory_qualifier_names[] = {
	"COHERENT", "RESTRICT", "VOLATILE", "STREAM_CACHE_POLICY",
};
static const char *const fs_coord_origin_names[] = { "UPPER_LEFT", "LOWER_LEFT" };
static const char *const fs_coord_pixel_center_names[] = { "HALF_INTEGER", "INTEGER" };

static_assert(sizeof processor_names / sizeof *processor_names == TGSI_PROCESSOR_COUNT, "processors");
static_assert(sizeof file_names / sizeof *file_names == TGSI_FILE_COUNT, "files");
static_assert(sizeof semantic_names / sizeof *semantic_names == TGSI_SEMANTIC_COUNT, "semantics");
static_assert(sizeof texture_names / sizeof *texture_names == TGSI_TEXTURE_COUNT, "targets");
static_assert(sizeof property_names / sizeof *property_names == TGSI_PROPERTY_COUNT, "properties");
static_assert(sizeof imm_type_names / sizeof *imm_type_names == TGSI_IMM_TYPE_COUNT, "imm types");
static_assert(sizeof primitive_names / sizeof *primitive_names == TGSI_PRIM_COUNT, "prims");
static_assert(sizeof primitive_vertices == TGSI_PRIM_COUNT, "prim vertices");
static_assert(sizeof memory_qualifier_names / sizeof *memory_qualifier_names ==
              TGSI_MEMORY_QUALIFIER_COUNT, "memory qualifiers");

NAME_FN(tgsi_processor_name, processor_names)
NAME_FN(tgsi_file_name, file_names)
NAME_FN(tgsi_semantic_name, semantic_names)
NAME_FN(tgsi_texture_name, texture_names)
NAME_FN(tgsi_property_name, property_names)
NAME_FN(tgsi_imm_type_name, imm_type_names)
NAME_FN(tgsi_interpolate_name, interpolate_names)
NAME_FN(tgsi_interpolate_loc_name, interpolate_loc_names)
NAME_FN(tgsi_return_type_name, return_type_names)
NAME_FN(tgsi_memory_type_name, memory_type_names)
NAME_FN(tgsi_primitive_name, primitive_names)
NAME_FN(tgsi_memory_qualifier_name, memory_qualifier_names)
NAME_FN(tgsi_fs_coord_origin_name, fs_coord_origin_names)
NAME_FN(tgsi_fs_coord_pixel_center_name, fs_coord_pixel_center_names)

unsigned tgsi_primitive_vertices(unsigned prim)
{
	return prim < TGSI_PRIM_COUNT ? primitive_vertices[prim] : 0;
}
