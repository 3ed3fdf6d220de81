#include "sim/core/regstream.h"

#include <stdlib.h>
#include <string.h>


void reg_stream_init(reg_stream *s) { memset(s, 0, sizeof *s); }

void reg_stream_free(reg_stream *s)
{
	free(s->w);
	memset(s, 0, sizeof *s);
}

static void append(reg_stream *s, reg_write w)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 256;
		reg_write *nw = realloc(s->w, cap * sizeof *nw);
		if (!nw) {
			s->oom = true;
			return;
		}
		s->w = nw;
		s->cap = cap;
	}
	s->w[s->n++] = w;
}

void reg_stream_pica(reg_stream *s, uint16_t reg, uint8_t mask, uint32_t value)
{
	append(s, (reg_write){ .space = REG_PICA, .mask = mask, .reg = reg, .value = value });
}

void reg_stream_gr3d(reg_stream *s, uint16_t reg, uint32_t value)
{
	append(s, (reg_write){ .space = REG_GR3D, .mask = 0xF, .reg = reg, .value = value });
}
