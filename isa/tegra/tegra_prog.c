/* Tegra fragment program: upload order, globals, validation, decoding. */
#include "isa/tegra/tegra_prog.h"

#include "isa/tegra/gr3d_regs_table.h"

#include <string.h>

size_t tegra_fp_word_count(const tegra_fp_program *p)
{
	return 6u * p->exec_count + 2u * p->mfu_count + 8u * p->alu_packet_count;
}

/* Upload order, tegra-fp.md §2.5: PSEQ xN, MFU_SCHED xN, MFU x2M, TEX xN,
 * ALU_SCHED xN, ALU x8P, ALU_COMPLEMENT xN, DW xN. */
enum seg { SEG_PSEQ, SEG_MFU_SCHED, SEG_MFU, SEG_TEX, SEG_ALU_SCHED, SEG_ALU,
           SEG_COMPLEMENT, SEG_DW, SEG_COUNT };

static size_t seg_len(const tegra_fp_program *p, int s)
{
	switch (s) {
	case SEG_MFU: return 2u * p->mfu_count;
	case SEG_ALU: return 8u * p->alu_packet_count;
	default: return p->exec_count;
	}
}

static const char *const alu_labels[8] = {
	"ALU0_HI", "ALU0_LO", "ALU1_HI", "ALU1_LO", "ALU2_HI", "ALU2_LO", "ALU3_HI", "ALU3_LO",
};

/* Locates word i: returns a pointer into p and fills the description. */
static uint32_t *locate(tegra_fp_program *p, size_t i, tegra_fp_upload_word *w)
{
	int s = 0;
	while (s < SEG_COUNT && i >= seg_len(p, s)) {
		i -= seg_len(p, s);
		s++;
	}
	w->index_kind = "exec";
	w->index = (unsigned)i;
	switch (s) {
	case SEG_PSEQ: w->reg = GR3D_REG_FP_PSEQ_UPLOAD_INST; w->label = "PSEQ"; return &p->pseq[i];
	case SEG_MFU_SCHED: w->reg = GR3D_REG_FP_UPLOAD_MFU_SCHED; w->label = "MFU_SCHED"; return &p->mfu_sched[i];
	case SEG_MFU:
		w->reg = GR3D_REG_FP_UPLOAD_MFU_INST;
		w->label = i & 1 ? "MFU_LO" : "MFU_HI";
		w->index_kind = "mfu";
		w->index = (unsigned)(i / 2);
		return &p->mfu[i / 2][i & 1];
	case SEG_TEX: w->reg = GR3D_REG_FP_UPLOAD_TEX_INST; w->label = "TEX"; return &p->tex[i];
	case SEG_ALU_SCHED: w->reg = GR3D_REG_FP_UPLOAD_ALU_SCHED; w->label = "ALU_SCHED"; return &p->alu_sched[i];
	case SEG_ALU:
		w->reg = GR3D_REG_FP_UPLOAD_ALU_INST;
		w->label = alu_labels[i % 8];
		w->index_kind = "packet";
		w->index = (unsigned)(i / 8);
		return &p->alu[i / 8][i % 8];
	case SEG_COMPLEMENT:
		w->reg = GR3D_REG_FP_UPLOAD_ALU_INST_COMPLEMENT; w->label = "ALU_COMPLEMENT"; return &p->alu_complement[i];
	case SEG_DW: w->reg = GR3D_REG_FP_UPLOAD_DW_INST; w->label = "DW"; return &p->dw[i];
	default: return NULL;
	}
}

tegra_fp_upload_word tegra_fp_upload_at(const tegra_fp_program *p, size_t i)
{
	tegra_fp_upload_word w = { 0, "?", "exec", 0, 0 };
	/* locate() only hands out a pointer; nothing is written through it here */
	uint32_t *v = locate((tegra_fp_program *)p, i, &w);
	if (v)
		w.value = *v;
	return w;
}

void tegra_fp_upload_set(tegra_fp_program *p, size_t i, uint32_t value)
{
	tegra_fp_upload_word w;
	uint32_t *v = locate(p, i, &w);
	if (v)
		*v = value;
}

uint32_t tegra_fp_reg_0520(const tegra_fp_program *p)
{
	/* unmasked, as grate writes it (64 EXECs reach past the 6-bit field) */
	return GR3D_PSEQ_ENGINE_INST_GRATE | p->exec_count << GR3D_F_FP_PSEQ_ENGINE_INST__EXEC_COUNT_LO;
}

uint32_t tegra_fp_reg_0546(const tegra_fp_program *p)
{
	return p->pseq_to_dw_exec_nb << GR3D_F_FP_PSEQ_DW_CFG__PSEQ_TO_DW_EXEC_NB_LO;   /* unmasked, as grate writes it */
}

bool tegra_fp_reg_0e20(const tegra_fp_program *p, uint32_t *value)
{
	uint32_t n = p->alu_buffer_size;
	if (n == 0)
		return false;
	/* GLOBAL_PIX_ATTR: NUM_ROWS = n-1, MAX_QID = (0x12C-1)/(4n) */
	*value = GR3D_PUT(ALU_BUFFER_SIZE, NUM_ROWS_M1, n - 1) |
	         GR3D_PUT(ALU_BUFFER_SIZE, MAX_QID, (uint32_t)(TEGRA_FP_PSEQ_OUT_WINDOW - 1) / (4 * n));
	return true;
}

static bool sched_ok(const char *file, ulp_diag *d, const char *unit, unsigned exec,
                     uint32_t word, unsigned total)
{
	tegra_sched s = tegra_sched_decode(word);
	if (word >> 8)
		return ulp_diag_at(d, file, 0, 0, "%s schedule word of EXEC %u (0x%08X) has bits above 7 set",
		                   unit, exec, word);
	if (s.count && (unsigned)s.address + s.count > total)
		return ulp_diag_at(d, file, 0, 0,
		                   "%s schedule of EXEC %u addresses %u..%u but only %u %s uploaded",
		                   unit, exec, s.address, s.address + s.count - 1, total,
		                   total == 1 ? "is" : "are");
	return true;
}

bool tegra_fp_validate(const tegra_fp_program *p, const char *file, ulp_diag *d)
{
	if (p->exec_count < 1 || p->exec_count > TEGRA_FP_MAX_EXEC)
		return ulp_diag_at(d, file, 0, 0, "EXEC count %u is outside 1..64", p->exec_count);
	if (p->mfu_count > TEGRA_FP_MAX_MFU)
		return ulp_diag_at(d, file, 0, 0, "MFU instruction count %u is over 64", p->mfu_count);
	if (p->alu_packet_count > TEGRA_FP_MAX_ALU_PACKETS)
		return ulp_diag_at(d, file, 0, 0, "ALU packet count %u is over 64", p->alu_packet_count);
	if (p->alu_buffer_size > 4)
		return ulp_diag_at(d, file, 0, 0, "alu_buffer_size %u is outside 0..4", p->alu_buffer_size);
	for (unsigned e = 0; e < p->exec_count; e++) {
		if (!sched_ok(file, d, "MFU", e, p->mfu_sched[e], p->mfu_count) ||
		    !sched_ok(file, d, "ALU", e, p->alu_sched[e], p->alu_packet_count))
			return false;
	}
	for (unsigned h = 0; h < 2 * TEGRA_FP_NUM_CONST; h++) {
		const tegra_fp_uniform_half *u = &p->uniforms[h];
		if (!u->used)
			continue;
		if (u->kind > TEGRA_UNIFORM_FX10_HIGH)
			return ulp_diag_at(d, file, 0, 0, "uniform %u has an unknown kind %u", h / 2, u->kind);
		if (memchr(u->name, '\0', sizeof u->name) == NULL)
			return ulp_diag_at(d, file, 0, 0, "uniform %u name is not terminated", h / 2);
		if (strchr(u->name, '\n') || strchr(u->name, '\r'))
			return ulp_diag_at(d, file, 0, 0, "uniform %u name contains a line break", h / 2);
	}
	return true;
}

static bool sched_canonical(const uint32_t *sched, unsigned execs, unsigned total)
{
	unsigned next = 0;
	for (unsigned e = 0; e < execs; e++) {
		tegra_sched s = tegra_sched_decode(sched[e]);
		if (sched[e] >> 8)
			return false;
		if (s.count == 0) {
			if (sched[e] != 0)
				return false;
			continue;
		}
		if (s.address != next)
			return false;
		next += s.count;
	}
	return next == total;
}

bool tegra_fp_is_canonical(const tegra_fp_program *p)
{
	return p->exec_count <= TEGRA_FP_MAX_EXEC &&
	       sched_canonical(p->mfu_sched, p->exec_count, p->mfu_count) &&
	       sched_canonical(p->alu_sched, p->exec_count, p->alu_packet_count);
}

bool tegra_fp_decode(const tegra_fp_program *p, tegra_fp_decoded *out,
                     const char *file, ulp_diag *d)
{
	memset(out, 0, sizeof *out);
	if (!tegra_fp_validate(p, file, d))
		return false;
	out->alu_buffer_size = p->alu_buffer_size;
	out->pseq_to_dw_exec_nb = p->pseq_to_dw_exec_nb;
	out->discards_fragment = p->discards_fragment;
	out->exec_count = p->exec_count;
	memcpy(out->constants, p->constants, sizeof out->constants);
	for (unsigned e = 0; e < p->exec_count; e++) {
		tegra_exec *x = &out->exec[e];
		tegra_pseq_decode(p->pseq[e], &x->pseq);
		x->mfu_sched = tegra_sched_decode(p->mfu_sched[e]);
		for (unsigned k = 0; k < x->mfu_sched.count; k++) {
			const uint32_t *w = p->mfu[x->mfu_sched.address + k];
			tegra_mfu_decode(w[0], w[1], &x->mfu[k]);
		}
		tegra_tex_decode(p->tex[e], &x->tex);
		x->alu_sched = tegra_sched_decode(p->alu_sched[e]);
		for (unsigned k = 0; k < x->alu_sched.count; k++)
			tegra_alu_packet_decode(p->alu[x->alu_sched.address + k], &x->alu[k]);
		x->alu_complement = p->alu_complement[e];
		tegra_dw_decode(p->dw[e], &x->dw);
	}
	return true;
}

void tegra_fp_apply_ximm(tegra_fp_decoded *d, const tegra_fp_ximm *x)
{
	for (unsigned e = 0; e < d->exec_count && e < TEGRA_FP_MAX_EXEC; e++) {
		tegra_exec *ex = &d->exec[e];
		for (unsigned k = 0; k < ex->alu_sched.count && k < TEGRA_FP_MAX_PER_EXEC; k++) {
			tegra_alu_packet *pk = &ex->alu[k];
			const unsigned p = ex->alu_sched.address + k;
			pk->xmask = 0;
			if (p >= x->count || p >= TEGRA_FP_MAX_ALU_PACKETS || !x->mask[p] ||
			    memcmp(pk->words, x->words[p], sizeof pk->words) != 0)
				continue;
			memcpy(pk->xk, x->k[p], sizeof pk->xk);
			pk->xmask = x->mask[p];
		}
	}
}
