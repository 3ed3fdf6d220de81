/* sim/gr3d_regs: every corpus fragment program, uploaded by the driver as
 * register writes, is rebuilt word for word by the register model. */
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
	cr_assert(gr3d_regs_write(&r, 0x520, 0x20006002, &d));
	cr_assert(gr3d_regs_write(&r, 0x541, 0, &d));
	cr_assert_not(gr3d_regs_program(&r, &p, &d));
	cr_assert(strstr(d.msg, "0x520 says 2 EXECs but only"), "%s", d.msg);
	ulp_diag_clear(&d);
	cr_assert(gr3d_regs_write(&r, 0x540, 64, &d));
	cr_assert_not(gr3d_regs_write(&r, 0x541, 0, &d));
	cr_assert(strstr(d.msg, "upload past word 63"), "%s", d.msg);
	ulp_diag_clear(&d);
	cr_assert_not(gr3d_regs_write(&r, 0x1000, 0, &d));
}
