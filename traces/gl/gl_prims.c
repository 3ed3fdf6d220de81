/* Points and lines as quads from the PICA200's geometry shader (gl_prims.h). */
#include "traces/gl/gl_prims.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/tgsi/tgsi.h"

typedef struct text {
	char *buf;
	size_t len, cap;
	bool oom;
	unsigned insn;            /* the next instruction's number */
} text;

static void put(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(text *t, const char *fmt, ...)
{
	for (;;) {
		va_list ap;
		va_start(ap, fmt);
		const int n = vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
		va_end(ap);
		if (n < 0) {
			t->oom = true;
			return;
		}
		if ((size_t)n < t->cap - t->len) {
			t->len += (size_t)n;
			return;
		}
		char *grown = realloc(t->buf, 2 * t->cap + (size_t)n);
		if (!grown) {
			t->oom = true;
			return;
		}
		t->buf = grown;
		t->cap = 2 * t->cap + (size_t)n;
	}
}

/* "  N: " and the instruction */
#define INSN(t, ...) (put((t), "%3u: ", (t)->insn++), put((t), __VA_ARGS__), put((t), "\n"))

static void semantic(text *t, int16_t sem, uint32_t index)
{
	const char *name = sem >= 0 ? tgsi_semantic_name((unsigned)sem) : NULL;
	if (!name)
		return;
	if (index)
		put(t, ", %s[%u]", name, index);
	else
		put(t, ", %s", name);
}

/* Every output but the position from vertex v of the input. */
static void copy_varyings(text *t, unsigned n, unsigned p, unsigned v)
{
	for (unsigned k = 0; k < n; k++)
		if (k != p)
			INSN(t, "MOV OUT[%u], IN[%u][%u]", k, v, k);
}

char *ulp_gl_expand_gs(enum ulp_gl_wide what, uint16_t mask, const int16_t sem[16], const uint32_t index[16],
                       ulp_diag *d)
{
	/* the GS input buffer takes the VS's output registers in register order */
	int16_t s[16];
	uint32_t ix[16];
	unsigned n = 0, p = 16;
	for (unsigned r = 0; r < 16; r++) {
		if (!(mask & (1u << r)))
			continue;
		if (sem[r] == TGSI_SEMANTIC_POSITION && p == 16)
			p = n;
		s[n] = sem[r];
		ix[n++] = index[r];
	}
	if (p == 16) {
		ulp_diag_at(d, NULL, 0, 0, "the vertex shader writes no position");
		return NULL;
	}
	const unsigned per = what == ULP_GL_POINTS ? 1 : 3;
	if (per * n > 16) {
		ulp_diag_at(d, NULL, 0, 0, "%u output registers of 3 vertices do not fit the 16 geometry shader inputs "
		            "(a line takes 3: at most 5 outputs)", n);
		return NULL;
	}
	text t = { .cap = 4096 };
	t.buf = malloc(t.cap);
	if (!t.buf) {
		ulp_diag_at(d, NULL, 0, 0, "out of memory");
		return NULL;
	}
	put(&t, "GEOM\nPROPERTY GS_INPUT_PRIMITIVE %s\nPROPERTY GS_OUTPUT_PRIMITIVE TRIANGLE_STRIP\n"
	        "PROPERTY GS_MAX_OUTPUT_VERTICES 4\n", what == ULP_GL_POINTS ? "POINTS" : "TRIANGLES");
	for (unsigned k = 0; k < n; k++) {
		put(&t, "DCL IN[][%u]", k);
		semantic(&t, s[k], ix[k]);
		put(&t, "\n");
	}
	for (unsigned k = 0; k < n; k++) {
		put(&t, "DCL OUT[%u]", k);
		semantic(&t, s[k], ix[k]);
		put(&t, "\n");
	}
	put(&t, "DCL CONST[0][0..1]\nDCL TEMP[0..5]\n"
	        "IMM[0] FLT32 {    1.0000,    -1.0000,     0.0000,     0.0000}\nIMM[1] UINT32 {0, 0, 0, 0}\n");
	if (what == ULP_GL_POINTS) {
		/* the half size in clip units; corners (-,-) (+,-) (-,+) (+,+): a strip */
		INSN(&t, "MUL TEMP[0], CONST[0][0], IN[0][%u].wwww", p);
		static const char *const CORNER[4] = { "yyzz", "xyzz", "yxzz", "xxzz" };
		for (int c = 0; c < 4; c++) {
			INSN(&t, "MAD OUT[%u], TEMP[0], IMM[0].%s, IN[0][%u]", p, CORNER[c], p);
			copy_varyings(&t, n, p, 0);
			INSN(&t, "EMIT IMM[1].xxxx");
		}
	} else {
		/* the segment IN[0] -> IN[1] in pixels; x-major (dx^2 >= dy^2) is widened in y */
		INSN(&t, "RCP TEMP[0].x, IN[0][%u].wwww", p);
		INSN(&t, "RCP TEMP[0].y, IN[1][%u].wwww", p);
		INSN(&t, "MUL TEMP[1], IN[0][%u].xyxy, TEMP[0].xxxx", p);
		INSN(&t, "MUL TEMP[2], IN[1][%u].xyxy, TEMP[0].yyyy", p);
		INSN(&t, "ADD TEMP[1], TEMP[2], -TEMP[1]");
		INSN(&t, "MUL TEMP[1], TEMP[1], CONST[0][1]");
		INSN(&t, "MUL TEMP[1], TEMP[1], TEMP[1]");
		INSN(&t, "SGE TEMP[2].x, TEMP[1].xxxx, TEMP[1].yyyy");
		INSN(&t, "ADD TEMP[2].y, IMM[0].xxxx, -TEMP[2].xxxx");
		INSN(&t, "MUL TEMP[3], CONST[0][0].xyzz, TEMP[2].yxzz");
		INSN(&t, "MUL TEMP[4], TEMP[3], IN[0][%u].wwww", p);
		INSN(&t, "MUL TEMP[5], TEMP[3], IN[1][%u].wwww", p);
		for (int c = 0; c < 4; c++) {
			const unsigned v = c < 2 ? 0 : 1;
			INSN(&t, "ADD OUT[%u], IN[%u][%u], %sTEMP[%u]", p, v, p, c & 1 ? "" : "-", 4 + v);
			copy_varyings(&t, n, p, v);
			INSN(&t, "EMIT IMM[1].xxxx");
		}
	}
	INSN(&t, "ENDPRIM IMM[1].xxxx");
	INSN(&t, "END");
	if (t.oom) {
		free(t.buf);
		ulp_diag_at(d, NULL, 0, 0, "out of memory");
		return NULL;
	}
	return t.buf;
}

void ulp_gl_expand_consts(float size, const float vp_scale[2], float out[8])
{
	const float sx = fabsf(vp_scale[0]) > 0 ? fabsf(vp_scale[0]) : 1, sy = fabsf(vp_scale[1]) > 0 ? fabsf(vp_scale[1]) : 1;
	const float h = size > 0 ? size / 2 : 0.5f;
	const float v[8] = { h / sx, h / sy, 0, 0, sx, sy, sx, sy };
	memcpy(out, v, sizeof v);
}

bool ulp_gl_line_segment(enum ulp_gl_line_mode m, unsigned count, unsigned k, unsigned *a, unsigned *b)
{
	switch (m) {
	case ULP_GL_LINE_LIST:
		if (count < 2 || k >= count / 2)
			return false;
		*a = 2 * k, *b = 2 * k + 1;
		return true;
	case ULP_GL_LINE_STRIP:
		if (count < 2 || k >= count - 1)
			return false;
		*a = k, *b = k + 1;
		return true;
	case ULP_GL_LINE_LOOP:
		if (count < 2 || k >= count)
			return false;
		*a = k, *b = k + 1 < count ? k + 1 : 0;
		return true;
	}
	return false;
}
