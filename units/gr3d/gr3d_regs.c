#include "units/gr3d/gr3d_regs.h"

#include <string.h>

#include "units/gr3d/gr3d_quad.h"

void gr3d_regs_init(gr3d_regs *r)
{
	memset(r, 0, sizeof *r);
	/* ulpsim's reset value: both blocks */
	r->raw[GR3D_REG_GSHIM_WRITE_MASK] = GR3D_PUT(GSHIM_WRITE_MASK, GPU_A, 1) | GR3D_PUT(GSHIM_WRITE_MASK, GPU_B, 1);
}

/* Data register -> (upload stream, capacity in words, destination). */
typedef struct upload_port {
	uint16_t data, offset;
	enum gr3d_upload up;
	uint32_t cap;
} upload_port;

static const upload_port PORTS[] = {
	{ GR3D_REG_FP_PSEQ_UPLOAD_INST, GR3D_REG_FP_PSEQ_UPLOAD_INST_ID, GR3D_UP_PSEQ, TEGRA_FP_MAX_EXEC },
	{ GR3D_REG_FP_UPLOAD_MFU_SCHED, GR3D_REG_FP_UPLOAD_MFU_SCHED_ID, GR3D_UP_MFU_SCHED, TEGRA_FP_MAX_EXEC },
	{ GR3D_REG_FP_UPLOAD_MFU_INST, GR3D_REG_FP_UPLOAD_MFU_INST_ID, GR3D_UP_MFU, 2 * TEGRA_FP_MAX_MFU },
	{ GR3D_REG_FP_UPLOAD_TEX_INST, GR3D_REG_FP_UPLOAD_TEX_INST_ID, GR3D_UP_TEX, TEGRA_FP_MAX_EXEC },
	{ GR3D_REG_FP_UPLOAD_ALU_SCHED, GR3D_REG_FP_UPLOAD_ALU_SCHED_ID, GR3D_UP_ALU_SCHED, TEGRA_FP_MAX_EXEC },
	{ GR3D_REG_FP_UPLOAD_ALU_INST, GR3D_REG_FP_UPLOAD_ALU_INST_ID, GR3D_UP_ALU, 8 * TEGRA_FP_MAX_ALU_PACKETS },
	{ GR3D_REG_FP_UPLOAD_ALU_INST_COMPLEMENT, GR3D_REG_ALU_P2CX_OFFSET, GR3D_UP_COMPLEMENT, TEGRA_FP_MAX_EXEC },
	{ GR3D_REG_FP_UPLOAD_DW_INST, GR3D_REG_FP_UPLOAD_DW_INST_ID, GR3D_UP_DW, TEGRA_FP_MAX_EXEC },
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
	const uint32_t both = GR3D_PUT(GSHIM_WRITE_MASK, GPU_A, 1) | GR3D_PUT(GSHIM_WRITE_MASK, GPU_B, 1);
	const uint32_t mask = r->raw[GR3D_REG_GSHIM_WRITE_MASK] & both;
	const bool gshim = reg >= GR3D_REG_GSHIM_WRITE_MASK && reg < GR3D_REG_GSHIM_OTHER + GR3D_N_GSHIM_OTHER;
	if (mask != both && !gshim && !r->one_block) {
		r->one_block = true;
		r->one_block_reg = (uint16_t)reg;
		r->one_block_mask = (uint8_t)mask;
	}
	r->raw[reg] = value;
	if (reg == GR3D_REG_FP_UPLOAD_INST_ID_COMMON) {   /* the common upload index (tegra-fp.md §2.5) */
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
	unsigned n = GR3D_GET(r->raw[GR3D_REG_FP_PSEQ_ENGINE_INST], FP_PSEQ_ENGINE_INST, EXEC_COUNT);
	if (!n)
		return ulp_diag_at(d, NULL, 0, 0, "no fragment program: FP_PSEQ_ENGINE_INST (0x%03x) counts 0 EXECs",
		                   GR3D_REG_FP_PSEQ_ENGINE_INST);
	const enum gr3d_upload per_exec[] = { GR3D_UP_PSEQ, GR3D_UP_MFU_SCHED, GR3D_UP_TEX,
		GR3D_UP_ALU_SCHED, GR3D_UP_COMPLEMENT, GR3D_UP_DW };
	for (size_t k = 0; k < sizeof per_exec / sizeof per_exec[0]; k++)
		if (r->words[per_exec[k]] < n)
			return ulp_diag_at(d, NULL, 0, 0, "0x%03x says %u EXECs but only %u were uploaded",
			                   GR3D_REG_FP_PSEQ_ENGINE_INST, n, r->words[per_exec[k]]);
	if (r->words[GR3D_UP_MFU] % 2 || r->words[GR3D_UP_ALU] % 8)
		return ulp_diag_at(d, NULL, 0, 0, "an MFU instruction or ALU packet was uploaded in part");
	out->exec_count = n;
	out->mfu_count = r->words[GR3D_UP_MFU] / 2;
	out->alu_packet_count = r->words[GR3D_UP_ALU] / 8;
	out->alu_buffer_size = GR3D_GET(r->raw[GR3D_REG_ALU_BUFFER_SIZE], ALU_BUFFER_SIZE, NUM_ROWS_M1) + 1;
	out->pseq_to_dw_exec_nb = GR3D_GET(r->raw[GR3D_REG_FP_PSEQ_DW_CFG], FP_PSEQ_DW_CFG, PSEQ_TO_DW_EXEC_NB);
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
		out->constants[k] = r->raw[GR3D_REG_AT(FP_CONST, k)];
	out->discards_fragment = r->raw[GR3D_REG_QR_OUTPUT_TO_SHADER] == GR3D_OUTPUT_TO_SHADER_KILL;
	return tegra_fp_validate(out, NULL, d);
}

bool gr3d_regs_swath(const gr3d_regs *r, unsigned blocks, bool *alternate, unsigned *swath_shift,
                     ulp_diag *d)
{
	const uint32_t v = r->raw[GR3D_SWATH_RENDERING];
	*alternate = blocks > 1 && GR3D_GET(v, GLOBAL_HORIZONTAL_SWATH_RENDERING, ALTERNATE);
	*swath_shift = GR3D_GET(v, GLOBAL_HORIZONTAL_SWATH_RENDERING, SWATH_ALIGN);
	if (blocks < 2)
		return true;
	if (r->one_block)
		return ulp_diag_at(d, NULL, 0, 0, "GR3D register 0x%03x was written with GSHIM_WRITE_MASK (0x%03x) = "
		                   "0x%x: ulpsim runs both blocks from one register file and takes broadcast "
		                   "writes (GPU_A | GPU_B) only", r->one_block_reg, GR3D_REG_GSHIM_WRITE_MASK,
		                   r->one_block_mask);
	if (*alternate && (*swath_shift < 1 || *swath_shift > 12))
		return ulp_diag_at(d, NULL, 0, 0, "GLOBAL_HORIZONTAL_SWATH_RENDERING (0x%03x) = 0x%x: SWATH_ALIGN %u "
		                   "gives swaths of 2^%u rows; a swath holds whole quads, 2..4096 rows",
		                   GR3D_REG_GLOBAL_HORIZONTAL_SWATH_RENDERING, v, *swath_shift, *swath_shift);
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
		return ulp_diag_at(d, NULL, 0, 0, "gr3d.swath_height %u: SWATH_ALIGN (0x%03x) holds a power of two, "
		                   "2..4096 rows", swath_height, GR3D_REG_GLOBAL_HORIZONTAL_SWATH_RENDERING);
	reg_stream_gr3d(s, GR3D_REG_GSHIM_WRITE_MASK,
	                GR3D_PUT(GSHIM_WRITE_MASK, GPU_A, 1) | GR3D_PUT(GSHIM_WRITE_MASK, GPU_B, 1));
	reg_stream_gr3d(s, GR3D_REG_GLOBAL_HORIZONTAL_SWATH_RENDERING,
	                GR3D_PUT(GLOBAL_HORIZONTAL_SWATH_RENDERING, ALTERNATE, 1) |
	                GR3D_PUT(GLOBAL_HORIZONTAL_SWATH_RENDERING, SWATH_ALIGN, shift));
	return true;
}

void drv_gr3d_load_program(reg_stream *s, const tegra_fp_program *p, const uint32_t fp_const[32])
{
	/* upload-index resets (grate-3d.c, tegra-fp.md §2.5) */
	reg_stream_gr3d(s, GR3D_REG_FP_UPLOAD_INST_ID_COMMON, 0);
	reg_stream_gr3d(s, GR3D_REG_FP_UPLOAD_MFU_INST_ID, 0);
	reg_stream_gr3d(s, GR3D_REG_FP_UPLOAD_ALU_INST_ID, 0);
	size_t n = tegra_fp_word_count(p);
	for (size_t i = 0; i < n; i++) {
		tegra_fp_upload_word w = tegra_fp_upload_at(p, i);
		reg_stream_gr3d(s, w.reg, w.value);
		if (w.reg == GR3D_REG_FP_PSEQ_UPLOAD_INST && w.index + 1 == p->exec_count)
			reg_stream_gr3d(s, GR3D_REG_FP_PSEQ_UPLOAD_INST_BUFFER_FLUSH, 0);   /* after the PSEQ words */
	}
	reg_stream_gr3d(s, GR3D_REG_FP_PSEQ_ENGINE_INST, GR3D_PSEQ_ENGINE_INST_GRATE | p->exec_count);
	reg_stream_gr3d(s, GR3D_REG_FP_PSEQ_DW_CFG, tegra_fp_reg_0546(p));
	uint32_t v;
	if (tegra_fp_reg_0e20(p, &v))
		reg_stream_gr3d(s, GR3D_REG_ALU_BUFFER_SIZE, v);
	reg_stream_gr3d(s, GR3D_REG_PSEQ_CTL, GR3D_PSEQ_CTL_GRATE);
	reg_stream_gr3d(s, GR3D_REG_QR_OUTPUT_TO_SHADER,
	                p->discards_fragment ? GR3D_OUTPUT_TO_SHADER_KILL : GR3D_OUTPUT_TO_SHADER_PLAIN);
	for (int k = 0; k < TEGRA_FP_NUM_CONST; k++)
		reg_stream_gr3d(s, (uint16_t)GR3D_REG_AT(FP_CONST, k), fp_const[k]);
}

bool gr3d_regs_rt_format(const gr3d_regs *r, unsigned rt, uint8_t *fmt, ulp_diag *d)
{
	const unsigned reg = GR3D_REG_AT(RT_PARAMS, rt % GR3D_N_RT_PARAMS);
	uint32_t v = r->raw[reg];
	unsigned code = GR3D_GET(v, RT_PARAMS, FORMAT);
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
	                   "(A8, RGB565, RGBA8888)", reg, code);
}

void drv_gr3d_rt_params(reg_stream *s, unsigned rt, unsigned fmt, uint32_t pitch)
{
	unsigned code = fmt == GR3D_RT_RGB565 ? GR3D_PF_RGB565 : fmt == GR3D_RT_A8 ? GR3D_PF_A8 : GR3D_PF_RGBA8888;
	reg_stream_gr3d(s, (uint16_t)GR3D_REG_AT(RT_PARAMS, rt % GR3D_N_RT_PARAMS),
	                GR3D_PUT(RT_PARAMS, FORMAT, code) | GR3D_PUT(RT_PARAMS, PITCH, pitch));
}

/* ---- depth/stencil (docs/registers.md "Depth and stencil") ----
 * The register names and their order are grate's (tegra-fp.md §4: one INCR
 * from QR_S_TEST_FRONT writes S_TEST_FRONT, S_TEST_BACK, S_CTRL, Z_TEST, Z_MIN,
 * Z_MAX); the bit positions inside them are ulpsim's (not public; docs/
 * ASSUMPTIONS.md), chosen to fit the values grate writes at init:
 * S_TEST = MASK 0xff | FUNC 7 (always), Z_TEST = 0x310 (off, func less),
 * Z_MIN/MAX = 0 / 0xfffff. */

static void face_from(uint32_t test, uint32_t op, zs_face *f)
{
	f->func = (uint8_t)GR3D_GET(test, S_TEST, FUNC);
	f->valuemask = (uint8_t)GR3D_GET(test, S_TEST, MASK);
	f->ref = (uint8_t)GR3D_GET(test, S_TEST, REF);
	f->fail_op = (uint8_t)GR3D_GET(op, S_OPERATION, FAIL);
	f->zfail_op = (uint8_t)GR3D_GET(op, S_OPERATION, ZFAIL);
	f->zpass_op = (uint8_t)GR3D_GET(op, S_OPERATION, ZPASS);
	f->writemask = (uint8_t)GR3D_GET(op, S_OPERATION, WRITE_MASK);
}

void gr3d_regs_zs(const gr3d_regs *r, bool late_when_kill, zs_state *st)
{
	memset(st, 0, sizeof *st);
	face_from(r->raw[GR3D_REG_QR_S_TEST_FRONT], r->raw[GR3D_REG_STENCIL_FRONT2], &st->face[0]);
	face_from(r->raw[GR3D_REG_QR_S_TEST_BACK], r->raw[GR3D_REG_STENCIL_BACK2], &st->face[1]);
	st->s_enable = GR3D_GET(r->raw[GR3D_REG_QR_S_CTRL], QR_S_CTRL, ENABLE);
	uint32_t zt = r->raw[GR3D_REG_QR_Z_TEST];
	st->z_enable = GR3D_GET(zt, QR_Z_TEST, ENABLE);
	st->z_write = GR3D_GET(zt, QR_Z_TEST, WRITE);
	st->z_func = (uint8_t)GR3D_GET(zt, QR_Z_TEST, FUNC);
	st->z_min = GR3D_GET(r->raw[GR3D_REG_QR_Z_MIN], Z_RANGE, VALUE);
	st->z_max = GR3D_GET(r->raw[GR3D_REG_QR_Z_MAX], Z_RANGE, VALUE);
	st->depth_surface = GR3D_GET(r->raw[GR3D_REG_RT_ENABLE], RT_ENABLE, DEPTH);
	st->late = late_when_kill && r->raw[GR3D_REG_QR_OUTPUT_TO_SHADER] == GR3D_OUTPUT_TO_SHADER_KILL;
}

static uint32_t face_test(const zs_face *f)
{
	return GR3D_PUT(S_TEST, FUNC, f->func) | GR3D_PUT(S_TEST, MASK, f->valuemask) | GR3D_PUT(S_TEST, REF, f->ref);
}

static uint32_t face_op(const zs_face *f)
{
	return GR3D_PUT(S_OPERATION, FAIL, f->fail_op) | GR3D_PUT(S_OPERATION, ZFAIL, f->zfail_op) |
	       GR3D_PUT(S_OPERATION, ZPASS, f->zpass_op) | GR3D_PUT(S_OPERATION, WRITE_MASK, f->writemask);
}

void drv_gr3d_zs(reg_stream *s, const zs_state *st)
{
	reg_stream_gr3d(s, GR3D_REG_QR_S_TEST_FRONT, face_test(&st->face[0]));
	reg_stream_gr3d(s, GR3D_REG_QR_S_TEST_BACK, face_test(&st->face[1]));
	reg_stream_gr3d(s, GR3D_REG_QR_S_CTRL, GR3D_S_CTRL_GRATE | GR3D_PUT(QR_S_CTRL, ENABLE, st->s_enable ? 1u : 0u));
	reg_stream_gr3d(s, GR3D_REG_QR_Z_TEST, GR3D_PUT(QR_Z_TEST, ENABLE, st->z_enable ? 1u : 0u) |
	                                       GR3D_PUT(QR_Z_TEST, WRITE, st->z_write ? 1u : 0u) |
	                                       GR3D_PUT(QR_Z_TEST, FUNC, st->z_func) |
	                                       GR3D_PUT(QR_Z_TEST, CLAMP, GR3D_Z_CLAMP_GRATE));
	reg_stream_gr3d(s, GR3D_REG_QR_Z_MIN, GR3D_PUT(Z_RANGE, VALUE, st->z_min));
	reg_stream_gr3d(s, GR3D_REG_QR_Z_MAX, GR3D_PUT(Z_RANGE, VALUE, st->z_max));
	reg_stream_gr3d(s, GR3D_REG_STENCIL_FRONT2, face_op(&st->face[0]));
	reg_stream_gr3d(s, GR3D_REG_STENCIL_BACK2, face_op(&st->face[1]));
}

void drv_gr3d_rt_enable(reg_stream *s, unsigned ncolor, bool depth)
{
	uint32_t v = 0;
	for (unsigned k = 0; k < ncolor && k + 1 < GR3D_F_RT_ENABLE__RT_N; k++)
		v |= GR3D_PUTI(RT_ENABLE, RT, k + 1, 1);   /* colour buffer k = RT k + 1 (docs/replay.md) */
	reg_stream_gr3d(s, GR3D_REG_RT_ENABLE, v | GR3D_PUT(RT_ENABLE, DEPTH, depth ? 1u : 0u));
}

/* ---- names (gr3d_regs.def) ---- */

static const struct { uint16_t addr, count, stride; const char *dump; } ROWS[] = {
#define GR3D_REG(NAME, addr, count, stride, dump, source) { (addr), (count), (stride), (dump) },
#include "isa/tegra/gr3d_regs.def"
};

const char *gr3d_reg_name(uint16_t reg, char *buf, size_t n)
{
	for (size_t i = 0; i < sizeof ROWS / sizeof ROWS[0]; i++) {
		if (reg < ROWS[i].addr)
			continue;
		unsigned off = (unsigned)reg - ROWS[i].addr;
		if (off % ROWS[i].stride || off / ROWS[i].stride >= ROWS[i].count)
			continue;
		return ROWS[i].dump ? ulp_reg_elem_name(NULL, ROWS[i].dump, off / ROWS[i].stride, buf, n) : NULL;
	}
	return NULL;
}

int gr3d_reg_find(const char *name)
{
	char buf[64];
	for (unsigned reg = 0; reg < GR3D_REG_COUNT; reg++) {
		const char *nm = gr3d_reg_name((uint16_t)reg, buf, sizeof buf);
		if (nm && !strcmp(nm, name))
			return (int)reg;
	}
	return -1;
}
