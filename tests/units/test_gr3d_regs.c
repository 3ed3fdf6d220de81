/* units/gr3d/gr3d_regs: every corpus fragment program, uploaded by the
 * driver as register writes, is rebuilt word for word by the register
 * model; and the register table (gr3d_regs.def) behind the names and
 * accessors. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fileio.h"
#include "isa/tegra/fp_words.h"
#include "units/gr3d/gr3d_regs.h"
#include "tests/test_util.h"

static bool round_trip(const char *path, char *why, size_t n)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	size_t len;
	char *text = ulp_read_file(path, &len, &d);
	static tegra_fp_program a, b;
	if (!text || !tegra_fp_words_read(text, len, path, &a, &d)) {
		snprintf(why, n, "%s", d.msg);
		free(text);
		return false;
	}
	free(text);
	reg_stream s;
	reg_stream_init(&s);
	drv_gr3d_load_program(&s, &a, a.constants);
	static gr3d_regs r;
	gr3d_regs_init(&r);
	bool ok = !s.oom;
	for (size_t i = 0; ok && i < s.n; i++)
		ok = s.w[i].space == REG_GR3D && gr3d_regs_write(&r, s.w[i].reg, s.w[i].value, &d);
	reg_stream_free(&s);
	if (!ok || !gr3d_regs_program(&r, &b, &d)) {
		snprintf(why, n, "%s", d.msg);
		return false;
	}
	size_t words = tegra_fp_word_count(&a);
	if (tegra_fp_word_count(&b) != words || a.alu_buffer_size != b.alu_buffer_size ||
	    a.pseq_to_dw_exec_nb != b.pseq_to_dw_exec_nb ||
	    memcmp(a.constants, b.constants, sizeof a.constants)) {
		snprintf(why, n, "counts, globals or constants differ");
		return false;
	}
	for (size_t i = 0; i < words; i++) {
		if (tegra_fp_upload_at(&a, i).value != tegra_fp_upload_at(&b, i).value) {
			snprintf(why, n, "upload word %zu differs", i);
			return false;
		}
	}
	return true;
}

static unsigned walk(const char *dir, unsigned *ok, unsigned depth)
{
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "find %s -name '*.words' | sort", dir);
	FILE *p = popen(cmd, "r");
	cr_assert(p);
	char line[1024];
	unsigned total = 0;
	(void)depth;
	while (fgets(line, sizeof line, p)) {
		line[strcspn(line, "\n")] = '\0';
		char why[600];
		total++;
		if (round_trip(line, why, sizeof why))
			(*ok)++;
		else
			cr_log_error("%s: %s", line, why);
	}
	pclose(p);
	return total;
}

Test(gr3d_regs, corpus_programs_survive_register_upload)
{
	char *dir = test_corpus_path("tegra");
	unsigned ok = 0, total = walk(dir, &ok, 0);
	free(dir);
	fprintf(stderr, "gr3d registers: %u/%u corpus programs rebuilt word for word\n", ok, total);
	cr_assert_geq(total, 76);
	cr_assert_eq(ok, total);
}

Test(gr3d_regs, errors)
{
	static gr3d_regs r;
	gr3d_regs_init(&r);
	ulp_diag d;
	ulp_diag_clear(&d);
	tegra_fp_program p;
	cr_assert_not(gr3d_regs_program(&r, &p, &d));
	cr_assert(strstr(d.msg, "counts 0 EXECs"), "%s", d.msg);
	ulp_diag_clear(&d);
	cr_assert(gr3d_regs_write(&r, GR3D_REG_FP_PSEQ_ENGINE_INST, GR3D_PSEQ_ENGINE_INST_GRATE | 2, &d));
	cr_assert(gr3d_regs_write(&r, GR3D_REG_FP_PSEQ_UPLOAD_INST, 0, &d));
	cr_assert_not(gr3d_regs_program(&r, &p, &d));
	cr_assert(strstr(d.msg, "0x520 says 2 EXECs but only"), "%s", d.msg);
	ulp_diag_clear(&d);
	cr_assert(gr3d_regs_write(&r, GR3D_REG_FP_PSEQ_UPLOAD_INST_ID, 64, &d));
	cr_assert_not(gr3d_regs_write(&r, GR3D_REG_FP_PSEQ_UPLOAD_INST, 0, &d));
	cr_assert(strstr(d.msg, "upload past word 63"), "%s", d.msg);
	ulp_diag_clear(&d);
	cr_assert_not(gr3d_regs_write(&r, GR3D_REG_COUNT, 0, &d));
}

/* ---- the table (gr3d_regs.def) ---- */

Test(gr3d_regs, table_addresses_unique_and_names_round_trip)
{
	static const struct { unsigned addr, count, stride; const char *dump; } ROWS[] = {
#define GR3D_REG(NAME, addr, count, stride, dump, source) { (addr), (count), (stride), (dump) },
#include "isa/tegra/gr3d_regs.def"
	};
	static struct { unsigned addr; char name[64]; bool named; } e[512];
	size_t n = 0;
	char buf[64];
	for (size_t i = 0; i < sizeof ROWS / sizeof ROWS[0]; i++) {
		cr_assert(ROWS[i].count >= 1 && ROWS[i].stride >= 1);
		if (i)
			cr_assert_gt(ROWS[i].addr, ROWS[i - 1].addr, "ORDER: addresses ascending (0x%03x)", ROWS[i].addr);
		for (unsigned k = 0; k < ROWS[i].count; k++, n++) {
			cr_assert_lt(n, 512u);
			e[n].addr = ROWS[i].addr + k * ROWS[i].stride;
			e[n].named = ROWS[i].dump != NULL;
			if (e[n].named)
				snprintf(e[n].name, sizeof e[n].name, "%s",
				         ulp_reg_elem_name(NULL, ROWS[i].dump, k, buf, sizeof buf));
		}
	}
	cr_assert_gt(n, 150);
	for (size_t i = 0; i < n; i++) {
		cr_assert_lt(e[i].addr, (unsigned)GR3D_REG_COUNT);
		for (size_t j = i + 1; j < n; j++) {
			cr_assert_neq(e[i].addr, e[j].addr, "0x%03x listed twice", e[i].addr);
			cr_assert(!e[i].named || !e[j].named || strcmp(e[i].name, e[j].name), "%s twice", e[i].name);
		}
		const char *nm = gr3d_reg_name((uint16_t)e[i].addr, buf, sizeof buf);
		if (!e[i].named) {
			cr_assert_null(nm, "0x%03x", e[i].addr);
			continue;
		}
		cr_assert(nm && !strcmp(nm, e[i].name), "0x%03x: %s, table %s", e[i].addr, nm ? nm : "NULL", e[i].name);
		cr_assert_eq(gr3d_reg_find(e[i].name), (int)e[i].addr, "%s", e[i].name);
	}
	cr_assert_null(gr3d_reg_name(0x000, buf, sizeof buf));
	cr_assert_eq(gr3d_reg_find("NO_SUCH_REGISTER"), -1);
}

Test(gr3d_regs, generated_names_and_fields)
{
	/* the offsets of tegra-fp.md §4, and the names --dump-commands prints */
	cr_assert_eq(GR3D_REG_AT(FP_CONST, 5), 0x825);
	cr_assert_eq(GR3D_REG_AT(LINKER_INSTRUCTION_FMT, 2), 0x305);
	cr_assert_eq(GR3D_REG_AT(TEXTURE_DESC2, 3), 0x727);
	cr_assert_eq(GR3D_REG_AT(RT_PARAMS, 1), 0xe11);
	cr_assert_eq(gr3d_reg_find("FP_CONST5"), 0x825);
	cr_assert_eq(gr3d_reg_find("LINKER_INSTRUCTION_2.1"), 0x305);
	cr_assert_eq(gr3d_reg_find("TEXTURE_DESC0.1"), 0x721);
	cr_assert_eq(gr3d_reg_find("FP_PSEQ_ENGINE_INST"), 0x520);
	cr_assert_eq(GR3D_GSHIM_LAST, 0xb14, "the GSHIM block 0xb00-0xb14");
	/* fields */
	cr_assert_eq(GR3D_GET(0x20006005u, FP_PSEQ_ENGINE_INST, EXEC_COUNT), 5u);
	cr_assert_eq(GR3D_PUT(RT_PARAMS, PITCH, 0x3FFFFu), 0x1FFFFu << 8, "masked to 17 bits");
	cr_assert_eq(GR3D_GET(0xFFFFFFFFu, TEXTURE_DESC1, LOD_BIAS), 0x3FFFFu);
	cr_assert_eq(GR3D_PUTI(RT_ENABLE, RT, 3, 1u), 8u);
	cr_assert_eq(GR3D_PUT(QR_Z_TEST, CLAMP, GR3D_Z_CLAMP_GRATE), 0x300u);
	cr_assert_eq(GR3D_GET(GR3D_PSEQ_CTL_GRATE, PSEQ_CTL, MAX_OUT), 300u, "tegra-fp.md §4");
	cr_assert_eq(GR3D_GET(GR3D_PSEQ_CTL_GRATE, PSEQ_CTL, MIN_OUT), 200u, "tegra-fp.md §4");
	/* every field lies inside its 32-bit word */
#define GR3D_FIELD(L, F, lo, width, count, stride) \
	cr_assert_leq((lo) + ((count) - 1) * (stride) + (width), 32, #L "." #F); \
	cr_assert(width >= 1 && (count == 1 || stride >= width), #L "." #F);
#include "isa/tegra/gr3d_regs.def"
}
