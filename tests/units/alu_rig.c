/* An ALU unit on its own for the unit tests (alu_rig.h). */
#include "tests/units/alu_rig.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "isa/tegra/tegra_asm.h"

void alu_rig_setup(alu_rig *r, const char *prog, const char *name, alu_rig_modes m)
{
	memset(r, 0, sizeof *r);
	tegra_fp_program *fp = calloc(1, sizeof *fp);
	cr_assert(fp);
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert(tegra_asm_assemble(prog, strlen(prog), name, fp, &d), "%s", d.msg);
	cr_assert(tegra_fp_decode(fp, &r->dec, name, &d), "%s", d.msg);
	free(fp);
	ulp_config_defaults(&r->cfg);
	r->cfg.fp20_round = m.fp20;
	r->cfg.fx10_round = m.fx10;
	r->cfg.fx10_overflow = m.wrap ? FX10_OVERFLOW_WRAP : FX10_OVERFLOW_CLAMP;
	r->cfg.tegra_fp20_subnormals = m.subnormals;
	r->cfg.tegra_alu_batch_view = m.batch_view;
	r->ctx.prog = &r->dec;
	r->ctx.cfg = &r->cfg;
	r->ctx.rows = r->dec.alu_buffer_size;
	r->ctx.fp20_round = m.fp20;
	r->ctx.fx10_round = m.fx10;
	r->ctx.fx10_wrap = m.wrap;
}

alu_rig *alu_rig_new(const char *prog, const char *name, alu_rig_modes m)
{
	alu_rig *r = calloc(1, sizeof *r);
	cr_assert(r);
	alu_rig_setup(r, prog, name, m);
	r->ctx.uniforms[0] = 0x3E000u;             /* 1.0 */
	r->ctx.uniforms[1] = 0x7E000u;             /* FP20 inf: an odd uniform */
	alu_init(&r->unit, &r->ctx);
	return r;
}

uint32_t alu_rig_code(test_rng *g)
{
	const uint32_t v = test_rnd(g);
	switch (v & 7u) {
	case 0: return (v >> 8) & 0x80000u;              /* +-0 */
	case 1: return (v >> 8) & 0x81FFFu;              /* exponent 0: zero, subnormal reads */
	case 2: return ((v >> 8) & 0x81FFFu) | 0x7E000u; /* exponent 63: inf, NaN */
	case 3: return ((v >> 8) & 0x3FFu) | ((v >> 12) & 0x3FFu) << 10;   /* FX10 halves */
	case 4: return 0x30000u + ((v >> 8) % 0xE001u);  /* [2^-7, 1] */
	default: return (v >> 8) & FP20_MASK;
	}
}

void alu_rig_quad(test_rng *g, gr3d_quad *q, uint32_t id)
{
	memset(q, 0, sizeof *q);
	q->id = id;
	q->x = (uint16_t)(test_rnd(g) & 0x3Eu);
	q->y = (uint16_t)(test_rnd(g) & 0x3Eu);
	const uint32_t mask = test_rnd(g) & 7u ? 0xFu : test_rnd(g) & 0xFu;   /* partial quads too */
	const bool zeros = (test_rnd(g) & 3u) == 0;                           /* a quad of zeros and colours */
	for (unsigned p = 0; p < GR3D_PIXELS; p++) {
		gr3d_pixel *px = &q->px[p];
		q->covered[p] = (mask >> p) & 1u;
		q->killed[p] = !q->covered[p];
		q->front[p] = (test_rnd(g) & 1u) != 0;
		for (unsigned i = 0; i < GR3D_ROW_REGS; i++)
			q->r[i][p] = zeros ? (test_rnd(g) & 1u ? 0u : 0x3E000u - (test_rnd(g) & 0x1FFFu)) : alu_rig_code(g);
		for (unsigned i = 0; i < GR3D_GLOBALS; i++)
			q->g[i][p] = zeros ? (test_rnd(g) & 1u ? 0x80000u : 0x3C000u) : alu_rig_code(g);
		for (unsigned i = 0; i < GR3D_COND_REGS; i++)
			q->cr[i][p] = alu_rig_code(g);
		if ((test_rnd(g) & 31u) == 0) {            /* TEX's pre-fetch view of r0, r1 (or one) */
			px->tex_shadow = (uint8_t)(1u + test_rnd(g) % 3u);
			px->tex_reg[0] = 0;
			px->tex_reg[1] = 1;
			px->tex_old[0] = alu_rig_code(g);
			px->tex_old[1] = alu_rig_code(g);
		}
		for (unsigned i = 0; i < GR3D_ROW_REGS; i++)
			q->view[i][p] = alu_rig_code(g);
	}
}
