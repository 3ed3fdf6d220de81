#include "sim/regstream.h"

#include <stdlib.h>
#include <string.h>

#include "sim/pica_regs.h"

void reg_stream_init(reg_stream *s) { memset(s, 0, sizeof *s); }

void reg_stream_free(reg_stream *s)
{
	free(s->w);
	memset(s, 0, sizeof *s);
}

static void append(reg_stream *s, reg_write w)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 256;
		reg_write *nw = realloc(s->w, cap * sizeof *nw);
		if (!nw) {
			s->oom = true;
			return;
		}
		s->w = nw;
		s->cap = cap;
	}
	s->w[s->n++] = w;
}

void reg_stream_pica(reg_stream *s, uint16_t reg, uint8_t mask, uint32_t value)
{
	append(s, (reg_write){ .space = REG_PICA, .mask = mask, .reg = reg, .value = value });
}

void reg_stream_gr3d(reg_stream *s, uint16_t reg, uint32_t value)
{
	append(s, (reg_write){ .space = REG_GR3D, .mask = 0xF, .reg = reg, .value = value });
}

/* Shader block offsets (pica_regs.h); ORDER: offset. */
static const struct { uint8_t off, span; const char *name; } BLOCK[] = {
	{ 0x00, 1, "BOOLUNIFORM" }, { 0x01, 4, "INTUNIFORM_I" }, { 0x09, 1, "INPUTBUFFER_CONFIG" },
	{ 0x0A, 1, "ENTRYPOINT" }, { 0x0B, 1, "ATTRIBUTES_PERMUTATION_LOW" },
	{ 0x0C, 1, "ATTRIBUTES_PERMUTATION_HIGH" }, { 0x0D, 1, "OUTMAP_MASK" },
	{ 0x0F, 1, "CODETRANSFER_END" }, { 0x10, 1, "FLOATUNIFORM_INDEX" },
	{ 0x11, 8, "FLOATUNIFORM_DATA" }, { 0x1B, 1, "CODETRANSFER_INDEX" },
	{ 0x1C, 8, "CODETRANSFER_DATA" }, { 0x25, 1, "OPDESCS_INDEX" }, { 0x26, 8, "OPDESCS_DATA" },
};

const char *pica_reg_name(uint16_t reg, char *buf, size_t n)
{
	if (reg >= PICA_REG_OUTMAP_O0 && reg < PICA_REG_OUTMAP_O0 + 7) {
		snprintf(buf, n, "SH_OUTMAP_O%u", reg - PICA_REG_OUTMAP_O0);
		return buf;
	}
	if (reg == PICA_REG_VSH_COM_MODE)
		return "VSH_COM_MODE";
	if (reg == PICA_REG_GEOSTAGE_CONFIG || reg == PICA_REG_GSH_MISC0)
		return reg == PICA_REG_GSH_MISC0 ? "GSH_MISC0" : "GEOSTAGE_CONFIG";
	if (reg == PICA_REG_VSH_OUTMAP_TOTAL1 || reg == PICA_REG_VSH_OUTMAP_TOTAL2)
		return reg == PICA_REG_VSH_OUTMAP_TOTAL1 ? "VSH_OUTMAP_TOTAL1" : "VSH_OUTMAP_TOTAL2";
	/* attribute buffers and draws (sim/pica_vtx.h) */
	static const struct { uint16_t reg; const char *name; } DRAW[] = {
		{ 0x200, "ATTRIBBUFFERS_LOC" }, { 0x201, "ATTRIBBUFFERS_FORMAT_LOW" },
		{ 0x202, "ATTRIBBUFFERS_FORMAT_HIGH" }, { 0x227, "INDEXBUFFER_CONFIG" }, { 0x228, "NUMVERTICES" },
		{ 0x22A, "VERTEX_OFFSET" }, { 0x22E, "DRAWARRAYS" }, { 0x22F, "DRAWELEMENTS" },
		{ 0x242, "VSH_NUM_ATTR" }, { 0x25E, "PRIMITIVE_CONFIG" }, { 0x2F0, "ULP_ATTRIB_UNORM" },
	};
	for (size_t i = 0; i < sizeof DRAW / sizeof DRAW[0]; i++)
		if (reg == DRAW[i].reg)
			return DRAW[i].name;
	if (reg >= 0x203 && reg < 0x203 + 3 * 12) {
		static const char *const PART[3] = { "OFFSET", "CONFIG1", "CONFIG2" };
		snprintf(buf, n, "ATTRIBBUFFER%u_%s", (reg - 0x203) / 3, PART[(reg - 0x203) % 3]);
		return buf;
	}
	const char *unit = NULL;
	unsigned off = 0;
	if (reg >= PICA_REG_GSH_BASE && reg < PICA_REG_GSH_BASE + PICA_REG_BLOCK_SIZE)
		unit = "GSH", off = reg - PICA_REG_GSH_BASE;
	else if (reg >= PICA_REG_VSH_BASE && reg < PICA_REG_VSH_BASE + PICA_REG_BLOCK_SIZE)
		unit = "VSH", off = reg - PICA_REG_VSH_BASE;
	if (!unit)
		return NULL;
	for (size_t i = 0; i < sizeof BLOCK / sizeof BLOCK[0]; i++) {
		if (off < BLOCK[i].off || off >= (unsigned)BLOCK[i].off + BLOCK[i].span)
			continue;
		if (BLOCK[i].span == 4)
			snprintf(buf, n, "%s_%s%u", unit, BLOCK[i].name, off - BLOCK[i].off);
		else
			snprintf(buf, n, "%s_%s", unit, BLOCK[i].name);
		return buf;
	}
	return NULL;
}

/* GR3D registers ulpsim gives a meaning (docs/registers.md); ORDER: reg. */
static const struct { uint16_t reg, span; const char *name; } GR3D[] = {
	{ 0x300, 32, "LINKER_INSTRUCTION" }, { 0x343, 1, "CULL_FACE_LINKER_SETUP" },
	{ 0x350, 1, "SCISSOR_HORIZ" }, { 0x351, 1, "SCISSOR_VERT" }, { 0x352, 1, "VIEWPORT_X_TRANSLATE" },
	{ 0x353, 1, "VIEWPORT_Y_TRANSLATE" }, { 0x354, 1, "VIEWPORT_X_SCALE" }, { 0x355, 1, "VIEWPORT_Y_SCALE" },
	{ 0x356, 1, "VIEWPORT_Z_TRANSLATE" }, { 0x357, 1, "VIEWPORT_Z_SCALE" }, { 0x400, 1, "QR_S_TEST_FRONT" },
	{ 0x401, 1, "QR_S_TEST_BACK" }, { 0x402, 1, "QR_S_CTRL" }, { 0x403, 1, "QR_Z_TEST" },
	{ 0x404, 1, "QR_Z_MIN" }, { 0x405, 1, "QR_Z_MAX" }, { 0x40f, 1, "QR_OUTPUT_TO_SHADER" },
	{ 0x500, 1, "FP_PSEQ_UPLOAD_INST_BUFFER_FLUSH" }, { 0x501, 1, "PSEQ_CTL" },
	{ 0x520, 1, "FP_PSEQ_ENGINE_INST" }, { 0x540, 1, "FP_PSEQ_UPLOAD_INST_ID" },
	{ 0x541, 1, "FP_PSEQ_UPLOAD_INST" }, { 0x546, 1, "FP_PSEQ_DW_CFG" },
	{ 0x600, 1, "FP_UPLOAD_MFU_SCHED_ID" }, { 0x601, 1, "FP_UPLOAD_MFU_SCHED" },
	{ 0x603, 1, "FP_UPLOAD_MFU_INST_ID" }, { 0x604, 1, "FP_UPLOAD_MFU_INST" },
	{ 0x700, 1, "FP_UPLOAD_TEX_INST_ID" }, { 0x701, 1, "FP_UPLOAD_TEX_INST" },
	{ 0x710, 16, "TEXTURE_POINTER" }, { 0x720, 32, "TEXTURE_DESC" },
	{ 0x800, 1, "FP_UPLOAD_ALU_SCHED_ID" }, { 0x801, 1, "FP_UPLOAD_ALU_SCHED" },
	{ 0x803, 1, "FP_UPLOAD_ALU_INST_ID" }, { 0x804, 1, "FP_UPLOAD_ALU_INST" },
	{ 0x805, 1, "ALU_P2CX_OFFSET" }, { 0x806, 1, "FP_UPLOAD_ALU_INST_COMPLEMENT" },
	{ 0x820, 32, "FP_CONST" }, { 0x900, 1, "FP_UPLOAD_DW_INST_ID" }, { 0x901, 1, "FP_UPLOAD_DW_INST" },
	{ 0x903, 1, "RT_ENABLE" }, { 0xe00, 16, "RT_PTR" }, { 0xe10, 16, "RT_PARAMS" },
	{ 0xe20, 1, "ALU_BUFFER_SIZE" }, { 0xe21, 1, "TRAM_SETUP" }, { 0xe22, 1, "FP_UPLOAD_INST_ID_COMMON" },
	{ 0xe28, 1, "STENCIL_FRONT2" }, { 0xe29, 1, "STENCIL_BACK2" },
};

const char *gr3d_reg_name(uint16_t reg, char *buf, size_t n)
{
	for (size_t i = 0; i < sizeof GR3D / sizeof GR3D[0]; i++) {
		unsigned off = (unsigned)reg - GR3D[i].reg;
		if (reg < GR3D[i].reg || off >= GR3D[i].span)
			continue;
		if (GR3D[i].span == 1)
			return GR3D[i].name;
		if (GR3D[i].reg == 0x300 || GR3D[i].reg == 0x720)    /* pairs: i, word 0 / 1 */
			snprintf(buf, n, "%s%s%u.%u", GR3D[i].name, GR3D[i].reg == 0x720 ? "" : "_", off / 2, off % 2);
		else
			snprintf(buf, n, "%s%u", GR3D[i].name, off);
		return buf;
	}
	return NULL;
}

void reg_stream_dump(const reg_stream *s, FILE *f)
{
	char name[48];
	for (size_t i = 0; i < s->n; i++) {
		const reg_write *w = &s->w[i];
		if (w->space == REG_PICA) {
			const char *nm = pica_reg_name(w->reg, name, sizeof name);
			fprintf(f, "pica 0x%03x %x %08x  %s\n", w->reg, w->mask, w->value, nm ? nm : "");
		} else {
			const char *nm = gr3d_reg_name(w->reg, name, sizeof name);
			fprintf(f, "gr3d 0x%03x %08x  %s\n", w->reg, w->value, nm ? nm : "");
		}
	}
}
