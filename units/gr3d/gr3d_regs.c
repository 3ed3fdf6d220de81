#include "units/gr3d/gr3d_regs.h"

#include <string.h>

#include "units/gr3d/gr3d_quad.h"

void gr3d_regs_init(gr3d_regs *r)
{
	memset(r, 0, sizeof *r);
	r->raw[GR3D_GSHIM_WRITE_MASK] = GR3D_GSHIM_GPU_A | GR3D_GSHIM_GPU_B;   /* ulpsim's reset value */
}

/* Data register -> (upload stream, capacity in words, destination). */
typedef struct upload_port {
	uint16_t data, offset;
	enum gr3d_upload up;
	uint32_t cap;
} upload_port;

static const upload_port PORTS[] = {
	{ 0x541, 0x540, GR3D_UP_PSEQ, TEGRA_FP_MAX_EXEC },
	{ 0x601, 0x600, GR3D_UP_MFU_SCHED, TEGRA_FP_MAX_EXEC },
	{ 0x604, 0x603, GR3D_UP_MFU, 2 * TEGRA_FP_MAX_MFU },
	{ 0x701, 0x700, GR3D_UP_TEX, TEGRA_FP_MAX_EXEC },
	{ 0x801, 0x800, GR3D_UP_ALU_SCHED, TEGRA_FP_MAX_EXEC },
	{ 0x804, 0x803, GR3D_UP_ALU, 8 * TEGRA_FP_MAX_ALU_PACKETS },
	{ 0x806, 0x805, GR3D_UP_COMPLEMENT, TEGRA_FP_MAX_EXEC },
	{ 0x901, 0x900, GR3D_UP_DW, TEGRA_FP_MAX_EXEC },
};

static uint32_t *slot(gr3d_regs *r, enum gr3d_upload up, uint32_t i)
{
	switch (up) {
	case GR3D_UP_PSEQ: return &r->pseq[i];
	case GR3D_UP_MFU_SCHED: return &r->mfu_sched[i];
	case GR3D_UP_MFU: return &r->mfu[i];
	case GR3D_UP_TEX: return &r->tex[i];
	case GR3D_UP_ALU_SCHED: return &r->alu_sched[i];
	case GR3D_UP_ALU: return &r->alu[i];
	case GR3D_UP_COMPLEMENT: return &r->complement[i];
	default: return &r->dw[i];
	}
}

bool gr3d_regs_write(gr3d_regs *r, uint32_t reg, uint32_t value, ulp_diag *d)
{
	if (reg >= GR3D_REG_COUNT)
		return ulp_diag_at(d, NULL, 0, 0, "GR3D register 0x%x is outside 0x000-0xfff", reg);
	/* Tegra 3: writes go to the blocks GSHIM_WRITE_MASK selects (tegra-fp.md
	 * §5: "writes to 0xb00 select GPU A/B"); the GSHIM's own registers are
	 * not per block */
	const uint32_t both = GR3D_GSHIM_GPU_A | GR3D_GSHIM_GPU_B, mask = r->raw[GR3D_GSHIM_WRITE_MASK] & both;
	if (mask != both && (reg < GR3D_GSHIM_WRITE_MASK || reg > GR3D_GSHIM_LAST) && !r->one_block) {
		r->one_block = true;
		r->one_block_reg = (uint16_t)reg;
		r->one_block_mask = (uint8_t)mask;
	}
	r->raw[reg] = value;
	if (reg == 0xe22) {               /* the common upload index (tegra-fp.md §2.5) */
		for (int u = 0; u < GR3D_UP_COUNT; u++)
			if (u != GR3D_UP_MFU && u != GR3D_UP_ALU)
				r->index[u] = value;
		return true;
	}
	for (size_t k = 0; k < sizeof PORTS / sizeof PORTS[0]; k++) {
		const upload_port *p = &PORTS[k];
		if (reg == p->offset) {
			r->index[p->up] = value;
			return true;
		}
		if (reg != p->data)
			continue;
		uint32_t i = r->index[p->up];
		if (i >= p->cap)
			return ulp_diag_at(d, NULL, 0, 0, "GR3D register 0x%03x: upload past word %u", reg, p->cap - 1);
		*slot(r, p->up, i) = value;
		r->index[p->up] = i + 1;
		if (i + 1 > r->words[p->up])
			r->words[p->up] = i + 1;
		return true;
	}
	return true;
}

bool gr3d_regs_program(const gr3d_regs *r, tegra_fp_program *out, ulp_diag *d)
{
	memset(out, 0, sizeof *out);
	unsigned n = r->raw[0x520] & 0x3F;   /* FP_PSEQ_ENGINE_INST: EXEC count */
	if (!n)
		return ulp_diag_at(d, NULL, 0, 0, "no fragment program: FP_PSEQ_ENGINE_INST (0x520) counts 0 EXECs");
	const enum gr3d_upload per_exec[] = { GR3D_UP_PSEQ, GR3D_UP_MFU_SCHED, GR3D_UP_TEX,
		GR3D_UP_ALU_SCHED, GR3D_UP_COMPLEMENT, GR3D_UP_DW };
	for (size_t k = 0; k < sizeof per_exec / sizeof per_exec[0]; k++)
		if (r->words[per_exec[k]] < n)
			return ulp_diag_at(d, NULL, 0, 0, "0x520 says %u EXECs but only %u were uploaded", n,
			                   r->words[per_exec[k]]);
	if (r->words[GR3D_UP_MFU] % 2 || r->words[GR3D_UP_ALU] % 8)
		return ulp_diag_at(d, NULL, 0, 0, "an MFU instruction or ALU packet was uploaded in part");
	out->exec_count = n;
	out->mfu_count = r->words[GR3D_UP_MFU] / 2;
	out->alu_packet_count = r->words[GR3D_UP_ALU] / 8;
	out->alu_buffer_size = (r->raw[0xe20] & 3) + 1;
	out->pseq_to_dw_exec_nb = (r->raw[0x546] >> 6) & 0x7F;
	for (unsigned e = 0; e < n; e++) {
		out->pseq[e] = r->pseq[e];
		out->mfu_sched[e] = r->mfu_sched[e];
		out->tex[e] = r->tex[e];
		out->alu_sched[e] = r->alu_sched[e];
		out->alu_complement[e] = r->complement[e];
		out->dw[e] = r->dw[e];
	}
	for (unsigned m = 0; m < out->mfu_count; m++) {
		out->mfu[m][0] = r->mfu[2 * m];
		out->mfu[m][1] = r->mfu[2 * m + 1];
	}
	for (unsigned p = 0; p < out->alu_packet_count; p++)
		memcpy(out->alu[p], &r->alu[8 * p], sizeof out->alu[p]);
	for (int k = 0; k < TEGRA_FP_NUM_CONST; k++)
		out->constants[k] = r->raw[0x820 + k];
	out->discards_fragment = r->raw[0x40f] == 0x60;
	return tegra_fp_validate(out, NULL, d);
}

bool gr3d_regs_swath(const gr3d_regs *r, unsigned blocks, bool *alternate, unsigned *swath_shift,
                     ulp_diag *d)
{
	const uint32_t v = r->raw[GR3D_SWATH_RENDERING];
	*alternate = blocks > 1 && (v & GR3D_SWATH_ALTERNATE);
	*swath_shift = (v >> GR3D_SWATH_ALIGN_SHIFT) & 0xFu;
	if (blocks < 2)
		return true;
	if (r->one_block)
		return ulp_diag_at(d, NULL, 0, 0, "GR3D register 0x%03x was written with GSHIM_WRITE_MASK (0xb00) = "
		                   "0x%x: ulpsim runs both blocks from one register file and takes broadcast "
		                   "writes (GPU_A | GPU_B) only", r->one_block_reg, r->one_block_mask);
	if (*alternate && (*swath_shift < 1 || *swath_shift > 12))
		return ulp_diag_at(d, NULL, 0, 0, "GLOBAL_HORIZONTAL_SWATH_RENDERING (0xe41) = 0x%x: SWATH_ALIGN %u "
		                   "gives swaths of 2^%u rows; a swath holds whole quads, 2..4096 rows", v,
		                   *swath_shift, *swath_shift);
	return true;
}

bool drv_gr3d_swath(reg_stream *s, unsigned blocks, unsigned swath_height, ulp_diag *d)
{
	if (blocks < 2)
		return true;             /* Tegra 2: no GSHIM */
	unsigned shift = 1;
	while (shift < 12 && (1u << shift) < swath_height)
		shift++;
	if ((1u << shift) != swath_height)
		return ulp_diag_at(d, NULL, 0, 0, "gr3d.swath_height %u: SWATH_ALIGN (0xe41) holds a power of two, "
		                   "2..4096 rows", swath_height);
	reg_stream_gr3d(s, GR3D_GSHIM_WRITE_MASK, GR3D_GSHIM_GPU_A | GR3D_GSHIM_GPU_B);
	reg_stream_gr3d(s, GR3D_SWATH_RENDERING, GR3D_SWATH_ALTERNATE | shift << GR3D_SWATH_ALIGN_SHIFT);
	return true;
}

void drv_gr3d_load_program(reg_stream *s, const tegra_fp_program *p, const uint32_t fp_const[32])
{
	/* upload-index resets (grate-3d.c, tegra-fp.md §2.5) */
	reg_stream_gr3d(s, 0xe22, 0);
	reg_stream_gr3d(s, 0x603, 0);
	reg_stream_gr3d(s, 0x803, 0);
	size_t n = tegra_fp_word_count(p);
	for (size_t i = 0; i < n; i++) {
		tegra_fp_upload_word w = tegra_fp_upload_at(p, i);
		reg_stream_gr3d(s, w.reg, w.value);
		if (w.reg == 0x541 && w.index + 1 == p->exec_count)
			reg_stream_gr3d(s, 0x500, 0);      /* PSEQ buffer flush after the PSEQ words */
	}
	reg_stream_gr3d(s, 0x520, 0x20006000u | p->exec_count);
	reg_stream_gr3d(s, 0x546, tegra_fp_reg_0546(p));
	uint32_t v;
	if (tegra_fp_reg_0e20(p, &v))
		reg_stream_gr3d(s, 0xe20, v);
	reg_stream_gr3d(s, 0x501, 0x223212CFu);
	reg_stream_gr3d(s, 0x40f, p->discards_fragment ? 0x60 : 0x48);
	for (int k = 0; k < TEGRA_FP_NUM_CONST; k++)
		reg_stream_gr3d(s, (uint16_t)(0x820 + k), fp_const[k]);
}

bool gr3d_regs_rt_format(const gr3d_regs *r, unsigned rt, uint8_t *fmt, ulp_diag *d)
{
	uint32_t v = r->raw[0xe10 + (rt & 15u)];
	unsigned code = (v >> 2) & 0x1F;
	*fmt = GR3D_RT_RGBA8888;
	if (!v || code == GR3D_PF_RGBA8888)
		return true;
	if (code == GR3D_PF_RGB565) {
		*fmt = GR3D_RT_RGB565;
		return true;
	}
	if (code == GR3D_PF_A8) {
		*fmt = GR3D_RT_A8;
		return true;
	}
	return ulp_diag_at(d, NULL, 0, 0, "RT_PARAMS (0x%03x): FORMAT %u is not a colour format the DW writes "
	                   "(A8, RGB565, RGBA8888)", 0xe10 + (rt & 15u), code);
}

void drv_gr3d_rt_params(reg_stream *s, unsigned rt, unsigned fmt, uint32_t pitch)
{
	unsigned code = fmt == GR3D_RT_RGB565 ? GR3D_PF_RGB565 : fmt == GR3D_RT_A8 ? GR3D_PF_A8 : GR3D_PF_RGBA8888;
	reg_stream_gr3d(s, (uint16_t)(0xe10 + (rt & 15u)), (uint32_t)code << 2 | (pitch & 0x1FFFFu) << 8);
}

/* ---- depth/stencil (docs/registers.md "Depth and stencil") ----
 * The register names and their order are grate's (tegra-fp.md §4: one INCR
 * from 0x400 writes S_TEST_FRONT, S_TEST_BACK, S_CTRL, Z_TEST, Z_MIN,
 * Z_MAX); the bit positions inside them are ulpsim's (not public; docs/
 * ASSUMPTIONS.md), chosen to fit the values grate writes at init:
 * S_TEST = MASK 0xff | FUNC 7 (always), Z_TEST = 0x310 (off, func less),
 * Z_MIN/MAX = 0 / 0xfffff. */

static void face_from(uint32_t test, uint32_t op, zs_face *f)
{
	f->func = (uint8_t)(test & 7u);                 /* S_FUNC 0..2 */
	f->valuemask = (uint8_t)(test >> 8);            /* S_MASK 8..15 */
	f->ref = (uint8_t)(test >> 16);                 /* S_REF 16..23 */
	f->fail_op = (uint8_t)(op & 7u);                /* FAIL 0..2 */
	f->zfail_op = (uint8_t)((op >> 3) & 7u);        /* ZFAIL 3..5 */
	f->zpass_op = (uint8_t)((op >> 6) & 7u);        /* ZPASS 6..8 */
	f->writemask = (uint8_t)(op >> 16);             /* WRITE_MASK 16..23 */
}

void gr3d_regs_zs(const gr3d_regs *r, bool late_when_kill, zs_state *st)
{
	memset(st, 0, sizeof *st);
	face_from(r->raw[0x400], r->raw[0xe28], &st->face[0]);
	face_from(r->raw[0x401], r->raw[0xe29], &st->face[1]);
	st->s_enable = r->raw[0x402] & 1u;              /* S_CTRL bit 0 */
	uint32_t zt = r->raw[0x403];
	st->z_enable = zt & 1u;                         /* Z_ENABLE 0 */
	st->z_write = (zt >> 1) & 1u;                   /* QRAST_FB_WRITE 1 */
	st->z_func = (uint8_t)((zt >> 4) & 7u);         /* Z_FUNC 4..6 */
	st->z_min = r->raw[0x404] & 0xFFFFFu;
	st->z_max = r->raw[0x405] & 0xFFFFFu;
	st->depth_surface = (r->raw[0x903] >> 16) & 1u;  /* RT_ENABLE bit 16 = depth (§4) */
	st->late = late_when_kill && r->raw[0x40f] == 0x60;
}

static uint32_t face_test(const zs_face *f)
{
	return (uint32_t)(f->func & 7u) | (uint32_t)f->valuemask << 8 | (uint32_t)f->ref << 16;
}

static uint32_t face_op(const zs_face *f)
{
	return (uint32_t)(f->fail_op & 7u) | (uint32_t)(f->zfail_op & 7u) << 3 |
	       (uint32_t)(f->zpass_op & 7u) << 6 | (uint32_t)f->writemask << 16;
}

void drv_gr3d_zs(reg_stream *s, const zs_state *st)
{
	reg_stream_gr3d(s, 0x400, face_test(&st->face[0]));
	reg_stream_gr3d(s, 0x401, face_test(&st->face[1]));
	reg_stream_gr3d(s, 0x402, 0x40u | (st->s_enable ? 1u : 0u));   /* grate's 0x40 kept */
	reg_stream_gr3d(s, 0x403, (st->z_enable ? 1u : 0u) | (st->z_write ? 2u : 0u) |
	                          (uint32_t)(st->z_func & 7u) << 4 | 0x300u);  /* Z_CLAMP 8..9 as grate's */
	reg_stream_gr3d(s, 0x404, st->z_min & 0xFFFFFu);
	reg_stream_gr3d(s, 0x405, st->z_max & 0xFFFFFu);
	reg_stream_gr3d(s, 0xe28, face_op(&st->face[0]));
	reg_stream_gr3d(s, 0xe29, face_op(&st->face[1]));
}

void drv_gr3d_rt_enable(reg_stream *s, unsigned ncolor, bool depth)
{
	uint32_t v = 0;
	for (unsigned k = 0; k < ncolor && k + 1 < 16; k++)
		v |= 1u << (k + 1);                 /* colour buffer k = RT k + 1 (docs/replay.md) */
	reg_stream_gr3d(s, 0x903, v | (depth ? 1u << 16 : 0u));
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
