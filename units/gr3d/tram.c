/* TRAM, the triangle RAM the GR3D units share (tram.h). */
#include "units/gr3d/tram.h"

#include <stdlib.h>
#include <string.h>

#include "isa/fp20.h"
#include "units/gr3d/gr3d_quad.h"

bool gr3d_tram_init(gr3d_tram *t, unsigned nslots)
{
	memset(t, 0, sizeof *t);
	t->nslots = nslots;
	t->fill_rows = GR3D_TRAM_ROWS;
	t->tri = calloc(nslots ? nslots : 1, sizeof *t->tri);
	return t->tri != NULL;
}

void gr3d_tram_reset(gr3d_tram *t)
{
	t->next = 0;
	memset(t->refs, 0, sizeof t->refs);
}

void gr3d_tram_fini(gr3d_tram *t)
{
	free(t->tri);
	t->tri = NULL;
}

/* Row r of slot s from FP20 words: the twelve words gathered in the slot's
 * order (component, then vertex), decoded side by side (the loops
 * vectorise), FP20's normal case with no branch and the words of exponent
 * 0 or 63 then by gr3d_fp20; the same values as load_rows' word-by-word
 * rule (gr3d_tram_load_rule; tests/units/test_tram.c). */
static void load_row_fp20(gr3d_tram_tri *s, unsigned r, const uint32_t (*const v[3])[4])
{
	enum { N = 4 * 3 };
	uint32_t w[N], fb[N];
	float f[N], lo[N], hi[N];
	for (unsigned k = 0; k < 4; k++)
		for (unsigned i = 0; i < 3; i++)
			w[3 * k + i] = v[i][r][k] & FP20_MASK;
	uint32_t special = 0;
	for (unsigned j = 0; j < N; j++) {
		special |= fp20_is_special(w[j]);
		fb[j] = fp20_f32_bits_normal(w[j]);
		lo[j] = gr3d_fx10(w[j], false);
		hi[j] = gr3d_fx10(w[j], true);
	}
	memcpy(f, fb, sizeof f);
	if (special)
		for (unsigned j = 0; j < N; j++)
			if (fp20_is_special(w[j]))
				f[j] = gr3d_fp20(w[j]);
	memcpy(s->v[r], w, sizeof s->v[r]);
	memcpy(s->f[r], f, sizeof s->f[r]);
	for (unsigned k = 0; k < 4; k++) {
		memcpy(s->fx[r][k][0], &lo[3 * k], sizeof s->fx[r][k][0]);
		memcpy(s->fx[r][k][1], &hi[3 * k], sizeof s->fx[r][k][1]);
	}
}

/* The rule, word by word. */
static void load_rows_rule(gr3d_tram *t, unsigned slot, const uint32_t (*const v[3])[4], unsigned nrows)
{
	gr3d_tram_tri *s = &t->tri[slot];
	for (unsigned r = 0; r < nrows; r++)
		for (unsigned k = 0; k < 4; k++)
			for (unsigned i = 0; i < 3; i++) {
				if (t->f32_words) {           /* a binary32 value, whole: read as FX10 too */
					const uint32_t w = v[i][r][k];
					s->v[r][k][i] = w;
					s->f[r][k][i] = s->fx[r][k][0][i] = s->fx[r][k][1][i] = gr3d_xf32(w);
					continue;
				}
				uint32_t w = v[i][r][k] & FP20_MASK;
				s->v[r][k][i] = w;
				s->f[r][k][i] = gr3d_fp20(w);
				s->fx[r][k][0][i] = gr3d_fx10(w, false);
				s->fx[r][k][1][i] = gr3d_fx10(w, true);
			}
}

static void load_rows(gr3d_tram *t, unsigned slot, const uint32_t (*const v[3])[4], unsigned nrows)
{
	if (t->f32_words) {
		load_rows_rule(t, slot, v, nrows);
		return;
	}
	for (unsigned r = 0; r < nrows; r++)
		load_row_fp20(&t->tri[slot], r, v);
}

void gr3d_tram_load_rule(gr3d_tram *t, unsigned slot, const uint32_t (*const v[3])[4])
{
	load_rows_rule(t, slot, v, GR3D_TRAM_ROWS);
}

void gr3d_tram_load(gr3d_tram *t, unsigned slot, const uint32_t (*const v[3])[4])
{
	load_rows(t, slot, v, GR3D_TRAM_ROWS);
}

unsigned gr3d_tram_fill(gr3d_tram *t, const uint32_t (*const v[3])[4])
{
	const unsigned slot = t->next;
	load_rows(t, slot, v, t->fill_rows < GR3D_TRAM_ROWS ? t->fill_rows : GR3D_TRAM_ROWS);
	t->refs[slot] = 1;                    /* the walk's hold (raster releases it) */
	t->next = (slot + 1) % t->nslots;
	return slot;
}
