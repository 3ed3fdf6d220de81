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

static void load_rows(gr3d_tram *t, unsigned slot, const uint32_t (*const v[3])[4], unsigned nrows)
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
