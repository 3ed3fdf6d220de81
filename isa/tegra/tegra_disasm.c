/* Tegra fragment disassembler (see tegra_disasm.h).  grate's text rules are
 * those of the corpus README, "Disassembly text". */
#include "isa/tegra/tegra_disasm.h"

#include "base/strbuf.h"
#include "isa/fx10.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- register names ------------------------------------------------------ */

/* grate's reg_name(): id = sub-register for #N/crN, -1 for destinations. */
static void grate_reg_name(char *buf, size_t n, unsigned reg, int id)
{
	uint8_t cls, idx;
	tegra_reg_classify(reg, &cls, &idx);
	switch (cls) {
	case TEGRA_REG_ROW: snprintf(buf, n, "r%u", idx); break;
	case TEGRA_REG_GLOBAL: snprintf(buf, n, "g%u", idx); break;
	case TEGRA_REG_ALU: snprintf(buf, n, "alu%u", idx); break;
	case TEGRA_REG_IMM: snprintf(buf, n, "imm%u", idx); break;
	case TEGRA_REG_CONST01:
		if (id < 0)
			snprintf(buf, n, "lp");
		else
			snprintf(buf, n, "#%d", id);
		break;
	case TEGRA_REG_UNIFORM: snprintf(buf, n, "u%u", idx); break;
	case TEGRA_REG_COND: snprintf(buf, n, "cr%d", idx * 2 + (id < 0 ? 0 : id)); break;
	case TEGRA_REG_POSX: snprintf(buf, n, "posx"); break;
	case TEGRA_REG_POSY: snprintf(buf, n, "posy"); break;
	case TEGRA_REG_PFACE: snprintf(buf, n, "pface"); break;
	case TEGRA_REG_KILL: snprintf(buf, n, "kill"); break;
	default: snprintf(buf, n, "invalid reg %u", reg); break;
	}
}

static const char *float_type(bool fx10, bool high)
{
	return fx10 ? (high ? ".h" : ".l") : "";
}

/* A source name that re-assembles to the same reg/fx10/high bits, or false. */
static bool rt_src_name(char *buf, size_t n, const tegra_alu_src *s)
{
	if (!s->fx10 && s->high)
		return false;                  /* no syntax for it */
	const char *ft = float_type(s->fx10, s->high);
	switch (s->cls) {
	case TEGRA_REG_ROW: case TEGRA_REG_GLOBAL: case TEGRA_REG_ALU: case TEGRA_REG_IMM:
	case TEGRA_REG_UNIFORM:
		grate_reg_name(buf, n, s->reg, 0);
		strncat(buf, ft, n - strlen(buf) - 1);
		return true;
	case TEGRA_REG_CONST01:
		if (!s->fx10)
			return false;
		snprintf(buf, n, "#%d", s->high);
		return true;
	case TEGRA_REG_COND:
		if (s->fx10) {
			snprintf(buf, n, "cr%d", s->index * 2 + s->high);
			return true;
		}
		break;
	case TEGRA_REG_POSX: case TEGRA_REG_POSY: case TEGRA_REG_PFACE:
		if (!s->fx10) {
			grate_reg_name(buf, n, s->reg, 0);
			return true;
		}
		break;
	default:
		break;
	}
	if (s->reg > 95)
		return false;
	/* uN with N = 32..63 aliases registers 64..95 (corpus README quirk 11) */
	snprintf(buf, n, "u%u%s", s->reg - 32u, ft);
	return true;
}

/* ---- ALU ----------------------------------------------------------------- */

typedef struct imm_use { bool fp20[3], lo[3], hi[3], any; } imm_use;

static void note_imm(imm_use *u, const tegra_alu_src *s)
{
	if (s->cls != TEGRA_REG_IMM)
		return;
	if (!s->fx10)
		u->fp20[s->index] = true;
	else if (s->high)
		u->hi[s->index] = true;
	else
		u->lo[s->index] = true;
	u->any = true;
}

/* One operand as grate prints it, or (roundtrip) as it re-assembles. */
static bool fmt_src(char *buf, size_t n, const tegra_alu_src *s, bool roundtrip)
{
	char name[40];
	if (roundtrip) {
		if (!rt_src_name(name, sizeof name, s))
			return false;
	} else {
		grate_reg_name(name, sizeof name, s->reg, s->high);
		bool precision = !(s->cls == TEGRA_REG_COND || s->cls == TEGRA_REG_CONST01 ||
		                   s->cls == TEGRA_REG_POSX || s->cls == TEGRA_REG_POSY ||
		                   s->cls == TEGRA_REG_PFACE);
		if (precision)
			strncat(name, float_type(s->fx10, s->high), sizeof name - strlen(name) - 1);
	}
	snprintf(buf, n, "%s%s%s%s%s%s,", s->neg ? "-" : "", s->abs ? "abs(" : "", name,
	         s->abs ? ")" : "", s->x2 ? "*2" : "", s->minus_one ? "-1" : "");
	return true;
}

static bool fmt_rd(char *buf, size_t n, const tegra_alu_rd *d, bool roundtrip)
{
	if (!d->enable) {
		if (roundtrip && (d->sel_c || d->high || d->minus_one || d->abs || d->fx10))
			return false;
		snprintf(buf, n, "#1");
		return true;
	}
	if (roundtrip && !d->fx10 && d->high)
		return false;
	snprintf(buf, n, "%s%s%s%s%s", d->abs ? "abs(" : "", d->sel_c ? "rC" : "rB",
	         float_type(d->fx10, d->high), d->abs ? ")" : "", d->minus_one ? "-1" : "");
	return true;
}

static bool fmt_dst(char *buf, size_t n, const tegra_alu_inst *in, bool roundtrip)
{
	char name[40];
	switch (in->dst_cls) {
	case TEGRA_REG_COND:
		if (roundtrip && in->write_low != in->write_high)
			return false;
		snprintf(buf, n, "cr%d,", in->dst_index * 2 + in->write_low);
		return true;
	case TEGRA_REG_KILL:
		if (roundtrip && !(in->write_low && in->write_high))
			return false;
		snprintf(buf, n, "kill,");
		return true;
	case TEGRA_REG_ROW: case TEGRA_REG_GLOBAL: case TEGRA_REG_CONST01:
		break;
	case TEGRA_REG_UNIFORM:
		if (roundtrip && in->dst_index > 7)
			return false;
		break;
	default:
		if (roundtrip)
			return false;
		break;
	}
	grate_reg_name(name, sizeof name, in->dst, -1);
	snprintf(buf, n, "%s.%c%c,", name, in->write_low ? 'l' : '*', in->write_high ? 'h' : '*');
	return true;
}

/* An ALU slot in grate's column layout; false when roundtrip is asked for
 * and the text would not re-assemble to the same bits. */
static bool fmt_alu(char *out, size_t n, const tegra_alu_inst *in, bool roundtrip)
{
	char dst[48], a[64], b[64], c[64], d[32];
	const char *op = in->opcode == TEGRA_ALU_MAD && in->add_disable ? "MUL"
	               : tegra_alu_opcode_names[in->opcode];
	if (roundtrip && in->add_disable && in->opcode != TEGRA_ALU_MAD)
		return false;   /* grate drops the bit on MIN/MAX/CSEL */
	if (!fmt_dst(dst, sizeof dst, in, roundtrip) || !fmt_src(a, sizeof a, &in->a, roundtrip) ||
	    !fmt_src(b, sizeof b, &in->b, roundtrip) || !fmt_src(c, sizeof c, &in->c, roundtrip) ||
	    !fmt_rd(d, sizeof d, &in->d, roundtrip))
		return false;
	static const char *const scale[4] = { "", "(x2)", "(x4)", "(/2)" };
	static const char *const cc[4] = { "", "(eq)", "(gt)", "(ge)" };
	snprintf(out, n, "%-5s%-8s%-12s%-12s%-12s%-5s%s%s%s%s%s", op, dst, a, b, c, d,
	         scale[in->scale], in->saturate ? "(sat)" : "", in->acc_this ? "(this)" : "",
	         in->acc_other ? "(other)" : "", cc[in->cc]);
	return true;
}

static bool uses_reg74(const tegra_alu_inst *in)
{
	return in->dst == TEGRA_REG_NUM_COVERAGE || in->a.reg == TEGRA_REG_NUM_COVERAGE ||
	       in->b.reg == TEGRA_REG_NUM_COVERAGE || in->c.reg == TEGRA_REG_NUM_COVERAGE;
}

static void fmt_imm(char *out, size_t n, const imm_use *u, const uint32_t imm[3])
{
	size_t len = 0;
	out[0] = '\0';
	for (int i = 0; i < 3; i++) {
		const struct { bool on; const char *sfx; float v; } f[3] = {
			{ u->fp20[i], "", tegra_grate_fp20_value(imm[i]) },
			{ u->lo[i], ".l", tegra_grate_fx10_value(fx10_half(imm[i], false)) },
			{ u->hi[i], ".h", tegra_grate_fx10_value(imm[i] >> FX10_HIGH_SHIFT) },
		};
		for (int k = 0; k < 3; k++) {
			if (!f[k].on || len >= n)
				continue;
			int w = snprintf(out + len, n - len, "%simm%d%s = %f", len ? ", " : "", i,
			                 f[k].sfx, (double)f[k].v);
			if (w > 0)
				len += (size_t)w;
		}
	}
}

/* Would grate's immediates line re-assemble to slot 3's words? (The
 * assembler merges the values into the NOP pattern and swaps the words.) */
static bool imm_roundtrips(const imm_use *u, const uint32_t imm[3], uint32_t a, uint32_t b)
{
	uint64_t y = (uint64_t)TEGRA_ALU_NOP_HI << 32 | TEGRA_ALU_NOP_LO;
	char txt[64];
	for (int i = 0; i < 3; i++) {
		const struct { bool on; unsigned lo, width; bool fx; float v; } f[3] = {
			{ u->fp20[i], TEGRA_IMM_LO(i), TEGRA_IMM_BITS, false, tegra_grate_fp20_value(imm[i]) },
			{ u->lo[i], TEGRA_IMM_LO(i), FX10_BITS, true, tegra_grate_fx10_value(fx10_half(imm[i], false)) },
			{ u->hi[i], TEGRA_IMM_LO(i) + FX10_HIGH_SHIFT, FX10_BITS, true,
			  tegra_grate_fx10_value(imm[i] >> FX10_HIGH_SHIFT) },
		};
		for (int k = 0; k < 3; k++) {
			if (!f[k].on)
				continue;
			snprintf(txt, sizeof txt, "%f", (double)f[k].v);
			/* the lexer wants digits '.' digits: inf/nan never re-assemble */
			if (!strchr(txt, '.'))
				return false;
			float v = tegra_grate_atof(txt);
			uint64_t bits = f[k].fx ? tegra_grate_fx10(v) : tegra_grate_fp20(v);
			uint64_t mask = ((UINT64_C(1) << f[k].width) - 1) << f[k].lo;
			y = (y & ~mask) | (bits << f[k].lo & mask);
		}
	}
	/* after the swap the low half of Y is uploaded first */
	return (uint32_t)y == a && (uint32_t)(y >> 32) == b;
}

static void disasm_packet(ulp_strbuf *sb, const tegra_alu_packet *pk, bool grate)
{
	imm_use u;
	memset(&u, 0, sizeof u);
	for (int k = 0; k < 3; k++) {
		note_imm(&u, &pk->slot[k].a);
		note_imm(&u, &pk->slot[k].b);
		note_imm(&u, &pk->slot[k].c);
	}
	ulp_strbuf_printf(sb, "\tALU:\n");
	char text[320], rt[320];
	for (int k = 0; k < 4; k++) {
		const tegra_alu_inst *in = &pk->slot[k];
		const uint32_t *w = &pk->words[2 * k];
		if (k == 3 && u.any) {
			fmt_imm(text, sizeof text, &u, pk->imm);
			if (grate || imm_roundtrips(&u, pk->imm, w[0], w[1]))
				ulp_strbuf_printf(sb, "\t\tALU3:\t%s\n", text);
			else
				ulp_strbuf_printf(sb, "\t\tALU3:\t0x%08X, 0x%08X\t// %s (imm0 0x%05X, imm1 0x%05X, imm2 0x%05X)\n",
				          w[0], w[1], text, pk->imm[0], pk->imm[1], pk->imm[2]);
			continue;
		}
		fmt_alu(text, sizeof text, in, false);
		if (grate) {
			ulp_strbuf_printf(sb, "\t\tALU%d:\t%s\n", k, text);
		} else if (fmt_alu(rt, sizeof rt, in, true)) {
			ulp_strbuf_printf(sb, "\t\tALU%d:\t%s%s\n", k, rt,
			          uses_reg74(in) ? "\t// u42 = register 74, coverage per the grate wiki (not grate syntax)" : "");
		} else {
			ulp_strbuf_printf(sb, "\t\tALU%d:\t0x%08X, 0x%08X\t// %s%s\n", k, w[0], w[1], text,
			          uses_reg74(in) ? " (register 74: coverage per the grate wiki)" : "");
		}
	}
}

/* ---- MFU, TEX, DW, PSEQ ---------------------------------------------------- */

static void mul_dst_name(char *buf, size_t n, unsigned v)
{
	if (v == TEGRA_MUL_DST_BAR)
		snprintf(buf, n, "bar");
	else if (v >= TEGRA_MUL_DST_R0)
		snprintf(buf, n, "r%u", v - TEGRA_MUL_DST_R0);
	else
		snprintf(buf, n, "dst%u", v);
}

static void mul_src_name(char *buf, size_t n, unsigned v)
{
	static const char *const named[] = { [10] = "sfu", [11] = "bar0", [12] = "bar1", [13] = "#1" };
	if (v <= 3)
		snprintf(buf, n, "r%u", v);
	else if (v >= 10 && v <= 13)
		snprintf(buf, n, "%s", named[v]);
	else
		snprintf(buf, n, "src%u", v);
}

static void fmt_mfu(char *out, size_t n, const tegra_mfu_inst *m)
{
	char op[16], md[2][3][16], var[4][32];
	if (m->sfu_op < TEGRA_SFU_NUM_NAMED)
		snprintf(op, sizeof op, "%s", tegra_sfu_names[m->sfu_op]);
	else
		snprintf(op, sizeof op, "op%u", m->sfu_op);
	for (int i = 0; i < 2; i++) {
		mul_dst_name(md[i][0], sizeof md[i][0], m->mul[i].dst);
		mul_src_name(md[i][1], sizeof md[i][1], m->mul[i].src0);
		mul_src_name(md[i][2], sizeof md[i][2], m->mul[i].src1);
	}
	for (int k = 0; k < 4; k++) {
		char v[24];
		if (m->var[k].op == TEGRA_VAR_NOP)
			snprintf(v, sizeof v, "NOP");
		else if (m->var[k].op == TEGRA_VAR_FP20 || m->var[k].op == TEGRA_VAR_FX10)
			snprintf(v, sizeof v, "t%u.%s", m->var[k].tram_row,
			         m->var[k].op == TEGRA_VAR_FP20 ? "fp20" : "fx10");
		else
			snprintf(v, sizeof v, "invalid opcode");
		snprintf(var[k], sizeof var[k], m->var[k].saturate ? "sat(%s)" : "%s", v);
	}
	snprintf(out, n, "sfu: %s r%u\n\t\tmul0: %s, %s, %s\n\t\tmul1: %s, %s, %s\n\t\tipl: %s, %s, %s, %s",
	         op, m->sfu_reg, md[0][0], md[0][1], md[0][2], md[1][0], md[1][1], md[1][2],
	         var[0], var[1], var[2], var[3]);
}

static bool mfu_roundtrips(const tegra_mfu_inst *m)
{
	if (m->pad || m->sfu_op >= TEGRA_SFU_NUM_NAMED)
		return false;
	for (int k = 0; k < 4; k++) {
		if (m->var[k].op > TEGRA_VAR_FX10)
			return false;
		if (m->var[k].op == TEGRA_VAR_NOP && m->var[k].tram_row)
			return false;   /* "NOP" re-assembles with row 0 */
	}
	return true;
}

static void fmt_tex(char *out, size_t n, const tegra_tex_inst *t)
{
	int len = snprintf(out, n, "%s %s, tex%u, %s%s", t->bias ? "txb" : "tex",
	                   t->dst_r2 ? "r2, r3" : "r0, r1", t->sampler,
	                   t->src_r2 ? "r2, r3, r0" : "r0, r1, r2",
	                   t->bias ? (t->src_r2 ? ", r1" : ", r3") : "");
	if (t->unknown && len > 0 && (size_t)len < n)     /* bits outside grate's fields */
		snprintf(out + len, n - (size_t)len, " // 0x%08X", t->word);
}

static void fmt_dw(char *out, size_t n, const tegra_dw_inst *w)
{
	int len;
	if (!w->enable)
		len = snprintf(out, n, "NOP");
	else if (w->rt == 2 && w->stencil)
		len = snprintf(out, n, "store stencil");
	else
		len = snprintf(out, n, "store rt%u, %s", w->rt, w->src_r2 ? "r2, r3" : "r0, r1");
	if ((w->unknown || w->upper != 2) && len > 0 && (size_t)len < n)
		snprintf(out + len, n - (size_t)len, " // 0x%08X", w->word);
}

static const char *const t30_ld_op[4] = { "NOP", "LD", "LD_R20", "LD_R80" };
static const char *const t30_st_op[4] = { "NOP", "ST", "ST_R20", "ST_R80" };

static void disasm_exec(ulp_strbuf *sb, const tegra_exec *x, bool grate)
{
	char text[640];
	ulp_strbuf_printf(sb, "EXEC\n");
	if (x->pseq.word) {
		const tegra_pseq_inst *q = &x->pseq;
		if (grate)
			ulp_strbuf_printf(sb, "\tPSEQ:\t0x%08X\n", q->word);
		else
			ulp_strbuf_printf(sb, "\tPSEQ:\t0x%08X\t// t30 PSEQ_INST: OP=%s SURF=%u ARGS=0x%04X%s%s%s"
			          " (grate PR #63: dst %s, enable0 %u)\n", q->word, t30_ld_op[q->op], q->surf,
			          q->args, q->read_non_center ? " READ_NON_CENTER" : "",
			          q->read_killed ? " READ_KILLED" : "",
			          q->cache_persistent ? " CACHE_PERSISTENT" : "",
			          q->dst_r2 ? "r2,r3" : "r0,r1", q->enable0);
	}
	for (unsigned k = 0; k < x->mfu_sched.count; k++) {
		const tegra_mfu_inst *m = &x->mfu[k];
		fmt_mfu(text, sizeof text, m);
		if (grate || mfu_roundtrips(m)) {
			ulp_strbuf_printf(sb, "\tMFU:\t%s\n", text);
		} else {
			for (char *nl = strchr(text, '\n'); nl; nl = strchr(nl, '\n'))
				*nl = ' ';
			for (char *tab = strchr(text, '\t'); tab; tab = strchr(tab, '\t'))
				*tab = ' ';
			ulp_strbuf_printf(sb, "\tMFU:\t0x%08X, 0x%08X\t// %s (pad %u)\n", m->hi, m->lo, text, m->pad);
		}
	}
	const tegra_tex_inst *t = &x->tex;
	if (t->word) {
		fmt_tex(text, sizeof text, t);
		if (grate || (t->enable && !t->unknown))          /* grate's TEX syntax says it all */
			ulp_strbuf_printf(sb, "\tTEX:\t%s\n", text);
		else
			ulp_strbuf_printf(sb, "\tTEX:\t0x%08X\t// %s; t30 TEX_INST: SURF_PTR=%u REG_SRC=%u REG_DST=%u"
			          " FETCH=%u COLOR_KEY=%u COMP_SEL=%u FETCH_KILLED=%u USER_LOD_BIAS=%u USER_LOD=%u\n",
			          t->word, text, t->sampler, t->src_r2, t->dst_r2, t->enable, t->color_key,
			          t->comp_sel, t->fetch_killed, t->bias, t->user_lod);
	}
	for (unsigned k = 0; k < x->alu_sched.count; k++)
		disasm_packet(sb, &x->alu[k], grate);
	if (!grate && x->alu_complement)
		ulp_strbuf_printf(sb, "\tALU_COMPLEMENT:\t0x%08X\t// t30 ALU_P2CX_DATA: REFERENCE=0x%04X MASK=0x%04X\n",
		          x->alu_complement, x->alu_complement & 0xFFFF, x->alu_complement >> 16);
	const tegra_dw_inst *w = &x->dw;
	if (w->word) {
		fmt_dw(text, sizeof text, w);
		/* grate's "store rtN, rX, rY" varies the target and the source pair only */
		const uint32_t store_vars = (uint32_t)(tegra_field_mask(&tegra_dw_fields[TEGRA_DW_RT]) |
		                                       tegra_field_mask(&tegra_dw_fields[TEGRA_DW_SRC_SEL]));
		bool plain = w->word == TEGRA_DW_STORE_STENCIL ||
		             (w->word & ~store_vars) == TEGRA_DW_STORE_BASE;
		if (grate || plain)
			ulp_strbuf_printf(sb, "\tDW:\t%s\n", text);
		else
			ulp_strbuf_printf(sb, "\tDW:\t0x%08X\t// %s; t30 DW_INST: OP=%s SURF=%u ARGS=0x%04X%s%s%s%s\n",
			          w->word, text, t30_st_op[w->op], w->rt, w->args,
			          w->write_killed ? " WRITE_KILLED" : "",
			          w->write_non_center ? " WRITE_NON_CENTER" : "",
			          w->cache_persistent ? " CACHE_PERSISTENT" : "",
			          w->cache_read_clean ? " CACHE_READ_CLEAN" : "");
	}
	ulp_strbuf_printf(sb, ";");
}

static void disasm_sections(ulp_strbuf *sb, const tegra_fp_program *p)
{
	bool any = false;
	for (unsigned i = 0; i < TEGRA_FP_NUM_CONST; i++) {
		if (!p->constants[i])
			continue;
		if (!any)
			ulp_strbuf_printf(sb, ".constants\n");
		any = true;
		ulp_strbuf_printf(sb, "\t[%u] = 0x%08X;\n", i, p->constants[i]);
	}
	any = false;
	for (unsigned i = 0; i < TEGRA_FP_NUM_CONST; i++) {
		const tegra_fp_uniform_half *lo = &p->uniforms[2 * i], *hi = &p->uniforms[2 * i + 1];
		if (!lo->used && !hi->used)
			continue;
		if (!any)
			ulp_strbuf_printf(sb, ".uniforms\n");
		any = true;
		if (lo->used && lo->kind == TEGRA_UNIFORM_FP20) {
			ulp_strbuf_printf(sb, "\t[%u] = \"%s\";\n", i, lo->name);
			continue;
		}
		if (lo->used)
			ulp_strbuf_printf(sb, "\t[%u].l = \"%s\";\n", i, lo->name);
		if (hi->used)
			ulp_strbuf_printf(sb, "\t[%u].h = \"%s\";\n", i, hi->name);
	}
	ulp_strbuf_printf(sb, ".asm\n");
}

char *tegra_disasm(const tegra_fp_program *p, unsigned flags, const char *file, ulp_diag *d)
{
	tegra_fp_decoded *dec = malloc(sizeof *dec);
	if (!dec) {
		ulp_diag_at(d, file, 0, 0, "out of memory");
		return NULL;
	}
	if (!tegra_fp_decode(p, dec, file, d)) {
		free(dec);
		return NULL;
	}
	bool grate = flags & TEGRA_DISASM_GRATE;
	ulp_strbuf sb = { NULL, 0, 0, false };
	ulp_strbuf_printf(&sb, "alu_buffer_size = %u\npseq_to_dw_exec_nb = %u\n", p->alu_buffer_size,
	          p->pseq_to_dw_exec_nb);
	if (!grate && !tegra_fp_is_canonical(p))
		ulp_strbuf_printf(&sb, "// note: the MFU/ALU schedules are not laid out as grate's assembler lays\n"
		          "// them out (shared, skipped or unreferenced instructions); this text\n"
		          "// re-assembles to a different word order.\n");
	if (!grate)
		disasm_sections(&sb, p);
	for (unsigned e = 0; e < dec->exec_count; e++) {
		ulp_strbuf_printf(&sb, "\n");
		disasm_exec(&sb, &dec->exec[e], grate);
		ulp_strbuf_printf(&sb, "\n");
	}
	free(dec);
	if (sb.oom) {
		free(sb.s);
		ulp_diag_at(d, file, 0, 0, "out of memory");
		return NULL;
	}
	return sb.s;
}
