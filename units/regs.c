/* The GPU's two register spaces side by side: a stream of writes printed
 * with the names each block gives its registers (--dump-commands). */
#include "units/regs.h"

#include "units/gr3d/gr3d_regs.h"
#include "units/pica/pica_regs.h"

void reg_stream_dump(const reg_stream *s, FILE *f)
{
	char name[48];
	for (size_t i = 0; i < s->n; i++) {
		const reg_write *w = &s->w[i];
		if (w->space == REG_PICA) {
			const char *nm = pica_reg_name(w->reg, name, sizeof name);
			fprintf(f, "pica 0x%03x %x %08x  %s\n", w->reg, w->mask, w->value, nm ? nm : "");
		} else {
			const char *nm = gr3d_reg_name(w->reg, name, sizeof name);
			fprintf(f, "gr3d 0x%03x %08x  %s\n", w->reg, w->value, nm ? nm : "");
		}
	}
}
