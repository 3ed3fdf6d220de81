/* TGSI text the Gallium driver reads or rewrites (traces/gl/gl_shader_text.h). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "traces/gl/gl_shader_text.h"

Test(gl_shader_text, declared_constants)
{
	cr_assert_eq(ulp_gl_declared_consts("VERT\nDCL IN[0]\n  0: END\n"), 0);
	cr_assert_eq(ulp_gl_declared_consts("VERT\nDCL CONST[0][0..5]\n"), 6);
	cr_assert_eq(ulp_gl_declared_consts("FRAG\nDCL CONST[0][3]\nDCL CONST[0][0..1]\n"), 4, "the largest index");
	cr_assert_eq(ulp_gl_declared_consts("FRAG\nDCL CONST[2..7]\n"), 8, "no dimension: buffer 0");
	cr_assert_eq(ulp_gl_declared_consts("FRAG\nDCL CONST[1][0..40]\nDCL CONST[0][0]\n"), 1,
	             "other buffers do not count");
}

Test(gl_shader_text, colour_outputs_get_saturated_once)
{
	static const char VS[] = "VERT\nDCL IN[0]\nDCL OUT[0], POSITION\nDCL OUT[1], COLOR\nDCL OUT[2], BCOLOR\n"
	                         "DCL OUT[3], GENERIC[0]\n"
	                         "  0: MOV OUT[0], IN[0]\n  1: MUL OUT[1], IN[0], IN[0]\n  2: MOV_SAT OUT[2], IN[0]\n"
	                         "  3: MOV OUT[3], IN[0]\n  4: END\n";
	char *t = ulp_gl_clamped_colors(VS);
	cr_assert(t);
	cr_assert(strstr(t, "  0: MOV OUT[0], IN[0]\n"), "the position is left alone:\n%s", t);
	cr_assert(strstr(t, "  1: MUL_SAT OUT[1], IN[0], IN[0]\n"), "COLOR saturated:\n%s", t);
	cr_assert(strstr(t, "  2: MOV_SAT OUT[2], IN[0]\n") && !strstr(t, "_SAT_SAT"), "BCOLOR once:\n%s", t);
	cr_assert(strstr(t, "  3: MOV OUT[3], IN[0]\n"), "a GENERIC is left alone:\n%s", t);
	free(t);
	cr_assert_null(ulp_gl_clamped_colors("VERT\nDCL OUT[0], POSITION\n  0: MOV OUT[0], IN[0]\n  1: END\n"),
	               "no colour: no variant");
	static const char RANGE[] = "VERT\nDCL OUT[0], POSITION\nDCL OUT[1..2], COLOR\n  0: MOV OUT[2].x, IN[0]\n";
	t = ulp_gl_clamped_colors(RANGE);
	cr_assert(t && strstr(t, "MOV_SAT OUT[2].x"), "a declared range:\n%s", t ? t : "(null)");
	free(t);
}
