/* SHBIN shader containers: DVLB -> DVLP (code + operand descriptors) and one
 * DVLE per entry point.  In-memory model, validating reader, writer.
 * (pica200.md §3; corpus/pica/README.md "File layout")
 *
 *   DVLB  "DVLB" u32 N  u32 dvle_offset[N]           (file offsets)
 *   DVLP  "DVLP" u32 version  u32 code_off u32 code_words
 *         u32 opdesc_off u32 opdesc_count  u32 (dvlp size) u32 0  u32 sym_off u32 sym_size
 *         code words, then opdesc entries (u32 desc, u32 0)
 *   DVLE  0x40-byte header (offsets relative to the DVLE):
 *     +00 "DVLE" +04 u16 version +06 u8 type (0 VS, 1 GS) +07 u8 merge outmaps
 *     +08 u32 main +0C u32 endmain (word addresses)  +10 u16 input mask +12 u16 output mask
 *     +14 u8 gs mode +15 u8 fixed-mode start +16 u8 variable-mode count +17 u8 fixed-mode count
 *     +18/+1C constants off/count (20 B)  +20/+24 labels off/count (16 B)
 *     +28/+2C outputs off/count (8 B)     +30/+34 uniforms off/count (8 B)
 *     +38/+3C symbol table off/size (bytes) */
#ifndef ULP_ISA_PICA_SHBIN_H
#define ULP_ISA_PICA_SHBIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"

enum shbin_const_type { SHBIN_CONST_BOOL = 0, SHBIN_CONST_IVEC = 1, SHBIN_CONST_FVEC = 2 };
enum shbin_dvle_type { SHBIN_VS = 0, SHBIN_GS = 1 };
enum shbin_gs_mode { SHBIN_GS_POINT = 0, SHBIN_GS_VARIABLE = 1, SHBIN_GS_FIXED = 2 };

/* Output semantics (type halfword of an output entry). */
enum shbin_out_type {
	SHBIN_OUT_POSITION = 0, SHBIN_OUT_NORMALQUAT = 1, SHBIN_OUT_COLOR = 2,
	SHBIN_OUT_TEXCOORD0 = 3, SHBIN_OUT_TEXCOORD0W = 4, SHBIN_OUT_TEXCOORD1 = 5,
	SHBIN_OUT_TEXCOORD2 = 6, SHBIN_OUT_VIEW = 8, SHBIN_OUT_DUMMY = 9,
};

struct shbin_const {
	uint16_t type;          /* enum shbin_const_type */
	uint16_t reg;           /* index within its class (c0 = 0, i0 = 0, b0 = 0) */
	uint32_t data[4];       /* fvec: f24 bits x,y,z,w; ivec: bytes x..w in
	                         * data[0] (little-endian); bool: data[0] */
};

struct shbin_output {
	uint16_t type, reg, mask, pad;   /* mask: x = bit 0 .. w = bit 3 */
};

/* Unified register numbering: v0-v15 0x00-0x0F, c0-c95 0x10-0x6F,
 * i0-i3 0x70-0x73, b0-b15 0x78-0x87. */
struct shbin_uniform {
	char *name;
	uint32_t sym_off;       /* offset in the DVLE's symbol table */
	uint16_t first, last;
};

struct shbin_label { uint32_t raw[4]; };

struct shbin_dvle {
	uint16_t version;
	uint8_t type, merge;
	uint32_t main, endmain;
	uint16_t input_mask, output_mask;
	uint8_t gs_mode, gs_fixed_start, gs_variable_num, gs_fixed_num;
	struct shbin_const *consts;     size_t nconsts;
	struct shbin_label *labels;     size_t nlabels;
	struct shbin_output *outputs;   size_t noutputs;
	struct shbin_uniform *uniforms; size_t nuniforms;
};

struct shbin {
	uint32_t dvlp_version;
	uint32_t *code;   size_t ncode;
	uint32_t *opdesc; size_t nopdesc;
	struct shbin_dvle *dvle; size_t ndvle;
};

/* Parse and validate every offset, count and size; on failure fill d with
 * the byte offset of the problem (name = file name for the message). */
bool shbin_read(const uint8_t *buf, size_t len, const char *name,
                struct shbin *out, ulp_diag *d);
/* Read and validate a file (loader convenience over shbin_read). */
bool shbin_load(const char *path, struct shbin *out, ulp_diag *d);
/* Serialise in picasso's layout (malloc'd buffer). */
bool shbin_write(const struct shbin *s, uint8_t **buf, size_t *len, ulp_diag *d);
void shbin_free(struct shbin *s);

const char *shbin_out_type_name(unsigned type);   /* NULL when unknown */
const char *shbin_gs_mode_name(unsigned mode);    /* NULL when unknown */

#endif
