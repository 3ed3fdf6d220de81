/* TGSI control flow: IF/ELSE/ENDIF, loops, switches and subroutines matched
 * from nesting (labels absolute, relative, ":0" or absent), BRK/CONT/CAL
 * links, and errors with the instruction's line:col. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "base/fileio.h"
#include "frontends/tgsi/tgsi.h"
#include "tests/test_util.h"

static tgsi_shader *resolved(const char *src)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	tgsi_shader *sh = tgsi_parse(src, strlen(src), "cf.tgsi", NULL, &d);
	cr_assert(sh, "%s", d.msg);
	cr_assert(tgsi_cf_resolve(sh, "cf.tgsi", &d), "%d:%d: %s", d.line, d.col, d.msg);
	cr_assert(sh->cf_resolved);
	return sh;
}

static void cf_bad(const char *src, int line, int col, const char *sub)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	tgsi_shader *sh = tgsi_parse(src, strlen(src), "cf.tgsi", NULL, &d);
	cr_assert(sh, "%s", d.msg);
	cr_assert_not(tgsi_cf_resolve(sh, "cf.tgsi", &d), "accepted: %s", src);
	cr_assert_not(sh->cf_resolved);
	cr_assert(strstr(d.msg, sub), "'%s' lacks '%s'", d.msg, sub);
	cr_assert_str_eq(d.file, "cf.tgsi");
	cr_assert_eq(d.line, line, "%s: line %d", d.msg, d.line);
	cr_assert_eq(d.col, col, "%s: col %d", d.msg, d.col);
	tgsi_shader_free(sh);
}

#define LINKS(sh, i, o, e, c) \
	do { \
		cr_assert_eq((sh)->insts[i].cf_open, (o), "inst %d open", i); \
		cr_assert_eq((sh)->insts[i].cf_else, (e), "inst %d else", i); \
		cr_assert_eq((sh)->insts[i].cf_close, (c), "inst %d close", i); \
	} while (0)

/* Mesa 22.3 noint style: absolute labels, IF -> its ELSE, ELSE -> its ENDIF. */
Test(tgsi_cf, nested_if_else_absolute_labels)
{
	tgsi_shader *sh = resolved(
		"FRAG\n"
		"  0: IF TEMP[0].xxxx :6\n"
		"  1:   IF TEMP[1].xxxx :3\n"
		"  2:     MOV TEMP[2], IN[0]\n"
		"  3:   ELSE :5\n"
		"  4:     MOV TEMP[2], IN[1]\n"
		"  5:   ENDIF\n"
		"  6: ELSE :8\n"
		"  7:   KILL\n"
		"  8: ENDIF\n"
		"  9: END\n");
	LINKS(sh, 0, 0, 6, 8);
	LINKS(sh, 1, 1, 3, 5);
	LINKS(sh, 3, 1, 3, 5);
	LINKS(sh, 5, 1, 3, 5);
	LINKS(sh, 6, 0, 6, 8);
	LINKS(sh, 8, 0, 6, 8);
	LINKS(sh, 2, -1, -1, -1);
	for (int i = 0; i < 7; i++)
		if (sh->insts[i].has_label)
			cr_assert_eq(sh->insts[i].label_kind, TGSI_LABEL_ABSOLUTE, "inst %d", i);
	cr_assert_eq(sh->insts[2].label_kind, TGSI_LABEL_NONE);
	tgsi_shader_free(sh);
}

/* etnaviv 2017 style: relative offsets and ":0"; glsl_to_tgsi: none. */
Test(tgsi_cf, relative_zero_and_missing_labels)
{
	tgsi_shader *sh = resolved(
		"FRAG\n"
		"  0: MOV TEMP[0], IN[0]\n"
		"  1: IF TEMP[0].xxxx :2\n"
		"  2:   KILL\n"
		"  3: ENDIF\n"
		"  4: IF TEMP[0].yyyy :0\n"
		"  5: ELSE :0\n"
		"  6: ENDIF\n"
		"  7: IF TEMP[0].zzzz\n"
		"  8: ENDIF\n"
		"  9: IF TEMP[0].wwww :42\n"
		" 10: ENDIF\n");
	cr_assert_eq(sh->insts[1].label_kind, TGSI_LABEL_RELATIVE);
	LINKS(sh, 1, 1, -1, 3);
	cr_assert_eq(sh->insts[4].label_kind, TGSI_LABEL_ZERO);
	cr_assert_eq(sh->insts[5].label_kind, TGSI_LABEL_ZERO);
	LINKS(sh, 4, 4, 5, 6);
	cr_assert_eq(sh->insts[7].label_kind, TGSI_LABEL_NONE);
	LINKS(sh, 7, 7, -1, 8);
	cr_assert_eq(sh->insts[9].label_kind, TGSI_LABEL_OTHER);
	LINKS(sh, 9, 9, -1, 10);
	tgsi_shader_free(sh);
}

Test(tgsi_cf, loops_switches_and_subroutines)
{
	tgsi_shader *sh = resolved(
		"FRAG\n"
		"  0: BGNLOOP :0\n"
		"  1:   SEQ TEMP[1].x, CONST[0][0].xxxx, IMM[0].yyyy\n"
		"  2:   IF TEMP[1].xxxx :4\n"
		"  3:     BRK\n"
		"  4:   ENDIF\n"
		"  5:   BGNLOOP\n"
		"  6:     CONT\n"
		"  7:   ENDLOOP\n"
		"  8:   SWITCH TEMP[0].xxxx\n"
		"  9:   CASE IMM[0].xxxx\n"
		" 10:   BRK\n"
		" 11:   DEFAULT\n"
		" 12:   ENDSWITCH\n"
		" 13:   CAL :16\n"
		" 14: ENDLOOP :0\n"
		" 15: END\n"
		" 16: BGNSUB\n"
		" 17:   RET\n"
		" 18: ENDSUB\n");
	LINKS(sh, 0, 0, -1, 14);
	LINKS(sh, 14, 0, -1, 14);
	LINKS(sh, 3, 0, -1, 14);       /* BRK leaves the outer loop, not the IF */
	LINKS(sh, 6, 5, -1, 7);        /* CONT in the inner loop */
	LINKS(sh, 9, 8, -1, 12);
	LINKS(sh, 10, 8, -1, 12);      /* BRK in a SWITCH leaves the switch */
	LINKS(sh, 11, 8, -1, 12);
	LINKS(sh, 16, 16, -1, 18);
	cr_assert_eq(sh->insts[13].cf_target, 16);
	cr_assert_eq(sh->insts[13].label_kind, TGSI_LABEL_ABSOLUTE);
	cr_assert_eq(sh->insts[0].label_kind, TGSI_LABEL_ZERO);
	cr_assert_eq(sh->insts[14].label_kind, TGSI_LABEL_ABSOLUTE);  /* :0 names BGNLOOP 0 */
	tgsi_shader_free(sh);
}

Test(tgsi_cf, errors_point_at_the_instruction)
{
	cf_bad("FRAG\nMOV TEMP[0], IN[0]\n  ELSE\n", 3, 3, "ELSE without a matching IF");
	cf_bad("FRAG\nENDIF\n", 2, 1, "ENDIF without a matching IF or UIF");
	cf_bad("FRAG\nIF IN[0].xxxx\n 7: ENDLOOP\n", 3, 2, "ENDLOOP without a matching BGNLOOP");
	cf_bad("FRAG\nBGNLOOP\nIF IN[0].xxxx\nENDLOOP\nENDIF\n", 4, 1, "without a matching BGNLOOP");
	cf_bad("FRAG\nMOV TEMP[0], IN[0]\nUIF IN[0].xxxx\nELSE\n", 3, 1, "UIF is never closed (expected ENDIF)");
	cf_bad("FRAG\nBGNLOOP\n", 2, 1, "expected ENDLOOP");
	cf_bad("FRAG\nIF IN[0].xxxx\nELSE\nELSE\nENDIF\n", 4, 1, "ELSE without");
	cf_bad("FRAG\nBRK\n", 2, 1, "BRK outside a loop or SWITCH");
	cf_bad("FRAG\nSWITCH IN[0].xxxx\nCONT\nENDSWITCH\n", 3, 1, "CONT outside a loop");
	cf_bad("FRAG\nCASE IN[0].xxxx\n", 2, 1, "CASE outside a SWITCH");
	cf_bad("FRAG\nCAL :0\nEND\n", 2, 1, "CAL needs a label naming a BGNSUB");
	cf_bad("FRAG\nCAL\nEND\nBGNSUB\nENDSUB\n", 2, 1, "CAL needs a label");
	cf_bad("FRAG\nBGNLOOP\nBGNSUB\nBRK\nENDSUB\nENDLOOP\n", 4, 1, "BRK outside");
}

/* Every corpus shader resolves; the noint dialect's IF/ELSE labels are all
 * absolute and its loop labels all ":0". */
Test(tgsi_cf, corpus_shaders_resolve, .timeout = 60)
{
	static const char *const corpora[] = { "tgsi-noint", "tgsi" };
	static const char *const stages[] = { "vs.tgsi", "fs.tgsi", "gs.tgsi" };
	unsigned files = 0, ifs = 0, loops = 0;
	for (int c = 0; c < 2; c++) {
		char *root = test_corpus_path(corpora[c]);
		DIR *dir = opendir(root);
		cr_assert(dir, "%s", root);
		struct dirent *e;
		while ((e = readdir(dir))) {
			if (e->d_name[0] == '.' || e->d_type != DT_DIR)
				continue;
			for (int s = 0; s < 3; s++) {
				char path[2048];
				snprintf(path, sizeof path, "%s/%s/%s", root, e->d_name, stages[s]);
				ulp_diag d;
				ulp_diag_clear(&d);
				size_t len;
				char *text = ulp_read_file(path, &len, &d);
				if (!text)
					continue;
				tgsi_shader *sh = tgsi_parse(text, len, path, NULL, &d);
				cr_assert(sh, "%s", d.msg);
				cr_assert(tgsi_cf_resolve(sh, path, &d), "%s:%d:%d: %s", path, d.line, d.col, d.msg);
				for (size_t i = 0; i < sh->num_insts; i++) {
					const tgsi_instruction *in = &sh->insts[i];
					if (in->opcode == TGSI_OPCODE_IF || in->opcode == TGSI_OPCODE_ELSE) {
						cr_assert_eq(in->label_kind, TGSI_LABEL_ABSOLUTE, "%s: inst %zu", path, i);
						ifs++;
					}
					if (in->opcode == TGSI_OPCODE_BGNLOOP) {
						cr_assert_eq(in->label_kind, TGSI_LABEL_ZERO, "%s: inst %zu", path, i);
						cr_assert_eq(sh->insts[in->cf_close].opcode, TGSI_OPCODE_ENDLOOP);
						loops++;
					}
				}
				files++;
				tgsi_shader_free(sh);
				free(text);
			}
		}
		closedir(dir);
		free(root);
	}
	cr_assert_geq(files, 700);
	cr_assert_gt(ifs, 100);
	cr_assert_gt(loops, 10);
}
