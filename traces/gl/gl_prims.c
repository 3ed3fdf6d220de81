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

bool ulp_gl_shader_inputs(const char *src, ulp_gl_io *in)
{
	memset(in, 0, sizeof *in);
	for (int k = 0; k < 16; k++)
		in->sem[k] = -1;
	ulp_diag d;
	ulp_diag_clear(&d);
	tgsi_shader *sh = src ? tgsi_parse(src, strlen(src), "fs", NULL, &d) : NULL;
	if (!sh)
		return false;
	for (size_t k = 0; k < sh->num_decls; k++) {
		const tgsi_declaration *de = &sh->decls[k];
		if (de->file != TGSI_FILE_INPUT)
			continue;
		for (uint32_t r = de->first; r <= de->last && r < 16; r++) {
			in->sem[r] = de->semantic ? de->semantic_name : -1;
			in->index[r] = de->semantic_index + (r - de->first);
			if (r + 1 > in->n)
				in->n = r + 1;
		}
	}
	tgsi_shader_free(sh);
	return true;
}

static bool fs_reads(const ulp_gl_io *fs, int sem, uint32_t index)
{
	for (unsigned k = 0; k < fs->n; k++)
		if (fs->sem[k] == sem && fs->index[k] == index)
			return true;
	return false;
}

/* Sprite coordinates the GS writes: bits of e->sprite the FS reads. */
static uint32_t sprites(const ulp_gl_expand *e)
{
	if (e->what != ULP_GL_POINTS)
		return 0;
	uint32_t m = 0;
	for (unsigned i = 0; i < 32; i++)
		if ((e->sprite >> i & 1) && (!e->fs || fs_reads(e->fs, TGSI_SEMANTIC_GENERIC, i)))
			m |= 1u << i;
	return m;
}

uint16_t ulp_gl_expand_keep(const ulp_gl_expand *e)
{
	const uint32_t spr = sprites(e);
	uint16_t keep = 0;
	for (unsigned r = 0; r < 16; r++) {
		if (!(e->mask & (1u << r)))
			continue;
		const int s = e->sem[r];
		const uint32_t i = e->index[r];
		bool k;
		if (s == TGSI_SEMANTIC_POSITION)
			k = true;
		else if (s == TGSI_SEMANTIC_PSIZE && e->what == ULP_GL_POINTS && e->psize)
			k = false;                                     /* read by the GS */
		else if (s == TGSI_SEMANTIC_GENERIC && i < 32 && (spr >> i & 1))
			k = false;                                     /* the sprite coordinate instead */
		else if (!e->fs)
			k = true;
		else if (s == TGSI_SEMANTIC_CLIPVERTEX || s == TGSI_SEMANTIC_CLIPDIST)
			k = e->clip;
		else if (s == TGSI_SEMANTIC_BCOLOR)
			k = e->two_side && fs_reads(e->fs, TGSI_SEMANTIC_COLOR, i);
		else
			k = s >= 0 && fs_reads(e->fs, s, i);
		if (k)
			keep |= (uint16_t)(1u << r);
	}
	return keep;
}

void ulp_gl_expand_key(const ulp_gl_expand *e, char *buf, size_t n)
{
	char spr[16] = "";
	if (sprites(e))
		snprintf(spr, sizeof spr, "t%x", (unsigned)sprites(e));
	snprintf(buf, n, "%c%04x%s%s", e->what == ULP_GL_POINTS ? 'p' : 'l', (unsigned)ulp_gl_expand_keep(e), spr,
	         e->what == ULP_GL_POINTS && e->psize ? "s" : "");
}

/* The kept outputs but the position from vertex v of the input (GS
 * inputs in[k] -> outputs out[k], -1: not kept), then the sprite
 * coordinates of corner c (outputs from sp on). */
static void copy_varyings(text *t, const int *out, unsigned n, unsigned p, unsigned v, unsigned nspr, unsigned sp,
                          int c)
{
	for (unsigned k = 0; k < n; k++)
		if (k != p && out[k] >= 0)
			INSN(t, "MOV OUT[%d], IN[%u][%u]", out[k], v, k);
	for (unsigned j = 0; j < nspr; j++) {
		/* CONST[0][4]: s at -x, s at +x, t at -y, t at +y; corner c: +x when c & 1, +y when c & 2 */
		INSN(t, "MOV OUT[%u].xy, CONST[0][4].%c%cxx", sp + j, c & 1 ? 'y' : 'x', c & 2 ? 'w' : 'z');
		INSN(t, "MOV OUT[%u].zw, IMM[0].zzzx", sp + j);
	}
}

char *ulp_gl_expand_gs(const ulp_gl_expand *e, ulp_diag *d)
{
	/* the GS input buffer takes the VS's output registers in register order */
	int16_t s[16];
	uint32_t ix[16];
	int out[16];
	const uint16_t keep = ulp_gl_expand_keep(e);
	unsigned n = 0, p = 16, psz = 16, nout = 0;
	for (unsigned r = 0; r < 16; r++) {
		if (!(e->mask & (1u << r)))
			continue;
		if (e->sem[r] == TGSI_SEMANTIC_POSITION && p == 16)
			p = n;
		if (e->sem[r] == TGSI_SEMANTIC_PSIZE && psz == 16)
			psz = n;
		s[n] = e->sem[r];
		out[n] = keep & (1u << r) ? (int)nout++ : -1;
		ix[n++] = e->index[r];
	}
	if (p == 16) {
		ulp_diag_at(d, NULL, 0, 0, "the vertex shader writes no position");
		return NULL;
	}
	const bool psize = e->what == ULP_GL_POINTS && e->psize && psz < 16;
	const uint32_t spr = sprites(e);
	const unsigned nspr = (unsigned)__builtin_popcount(spr);
	const unsigned per = e->what == ULP_GL_POINTS ? 1 : 3;
	if (per * n > 16) {
		ulp_diag_at(d, NULL, 0, 0, "%u output registers of 3 vertices do not fit the 16 geometry shader inputs "
		            "(a line takes 3: at most 5 outputs)", n);
		return NULL;
	}
	if (nout + nspr > 7) {
		ulp_diag_at(d, NULL, 0, 0, "the position and %u outputs to pass on do not fit the geometry shader's 7 "
		            "output registers (o0-o6)", nout + nspr - 1);
		return NULL;
	}
	text t = { .cap = 4096 };
	t.buf = malloc(t.cap);
	if (!t.buf) {
		ulp_diag_at(d, NULL, 0, 0, "out of memory");
		return NULL;
	}
	put(&t, "GEOM\nPROPERTY GS_INPUT_PRIMITIVE %s\nPROPERTY GS_OUTPUT_PRIMITIVE TRIANGLE_STRIP\n"
	        "PROPERTY GS_MAX_OUTPUT_VERTICES 4\n", e->what == ULP_GL_POINTS ? "POINTS" : "TRIANGLES");
	for (unsigned k = 0; k < n; k++) {
		put(&t, "DCL IN[][%u]", k);
		semantic(&t, s[k], ix[k]);
		put(&t, "\n");
	}
	for (unsigned k = 0; k < n; k++) {
		if (out[k] < 0)
			continue;
		put(&t, "DCL OUT[%d]", out[k]);
		semantic(&t, s[k], ix[k]);
		put(&t, "\n");
	}
	for (unsigned i = 0, j = 0; i < 32; i++)
		if (spr >> i & 1)
			put(&t, "DCL OUT[%u], GENERIC[%u]\n", nout + j++, i);
	const int po = out[p];
	put(&t, "DCL CONST[0][0..%d]\nDCL TEMP[0..5]\n"
	        "IMM[0] FLT32 {    1.0000,    -1.0000,     0.0000,     0.0000}\nIMM[1] UINT32 {0, 0, 0, 0}\n",
	    ULP_GL_EXPAND_CONSTS - 1);
	if (e->what == ULP_GL_POINTS) {
		/* the half size in clip units; corners (-,-) (+,-) (-,+) (+,+): a strip */
		if (psize) {
			INSN(&t, "MAX TEMP[1].x, IN[0][%u].xxxx, CONST[0][3].xxxx", psz);
			INSN(&t, "MIN TEMP[1].x, TEMP[1].xxxx, CONST[0][3].yyyy");
			INSN(&t, "MUL TEMP[0], CONST[0][2], TEMP[1].xxxx");
			INSN(&t, "MUL TEMP[0], TEMP[0], IN[0][%u].wwww", p);
		} else {
			INSN(&t, "MUL TEMP[0], CONST[0][0], IN[0][%u].wwww", p);
		}
		static const char *const CORNER[4] = { "yyzz", "xyzz", "yxzz", "xxzz" };
		for (int c = 0; c < 4; c++) {
			INSN(&t, "MAD OUT[%d], TEMP[0], IMM[0].%s, IN[0][%u]", po, CORNER[c], p);
			copy_varyings(&t, out, n, p, 0, nspr, nout, c);
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
			INSN(&t, "ADD OUT[%d], IN[%u][%u], %sTEMP[%u]", po, v, p, c & 1 ? "" : "-", 4 + v);
			copy_varyings(&t, out, n, p, v, 0, nout, c);
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

void ulp_gl_expand_consts(const ulp_gl_expand_state *st, float out[4 * ULP_GL_EXPAND_CONSTS])
{
	const float sx = fabsf(st->vp_scale[0]) > 0 ? fabsf(st->vp_scale[0]) : 1;
	const float sy = fabsf(st->vp_scale[1]) > 0 ? fabsf(st->vp_scale[1]) : 1;
	const float h = st->size > 0 ? st->size / 2 : 0.5f;
	/* the sprite's s grows with window x, t with window y from the top row
	 * (upper left) or from the bottom one; an NDC step of +1 is a window
	 * step of the scale's sign */
	const float s_neg = st->vp_scale[0] < 0 ? 1.0f : 0.0f;
	const bool down = st->vp_scale[1] > 0;                 /* +y in NDC goes down the window's rows */
	const float t_neg = (down == st->sprite_upper_left) ? 0.0f : 1.0f;
	const float v[4 * ULP_GL_EXPAND_CONSTS] = {
		h / sx, h / sy, 0, 0,
		sx, sy, sx, sy,
		0.5f / sx, 0.5f / sy, 0, 0,
		st->size_min, st->size_max, 0, 0,
		s_neg, 1 - s_neg, t_neg, 1 - t_neg,
	};
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
