/* Liveness (per component, over the structured control-flow graph) and a
 * linear-scan register allocator on the resulting live intervals.
 *
 * The CFG comes from the block structure: IF -> then-body and else-body
 * (or past ENDIF); ELSE (reached at the end of the then-body) -> ENDIF;
 * ENDLOOP -> the loop's first instruction (loops end only through BRK);
 * BRK -> past ENDLOOP; CONT -> ENDLOOP; END -> nothing.  Liveness is the
 * usual backward dataflow on bit sets of (temporary, component).
 *
 * Intervals are counted in points: point p lies just before instruction p.
 * A temporary occupies every point where some component is live, plus the
 * point after each instruction that writes it (a dead write still clobbers
 * its register).  Two temporaries may share a register when their hulls do
 * not overlap; a value last read by instruction i and one first written by
 * i can share (sources are read before the destination is written). */
#include <stdlib.h>
#include <string.h>

#include "frontends/ir/ir.h"

typedef struct live {
	size_t words;           /* 64-bit words per set */
	uint64_t *in, *out;     /* n sets each */
} live;

static inline bool bit_get(const uint64_t *set, size_t b)
{
	return set[b >> 6] >> (b & 63) & 1;
}

static inline void bit_set(uint64_t *set, size_t b)
{
	set[b >> 6] |= 1ull << (b & 63);
}

static inline void bit_clr(uint64_t *set, size_t b)
{
	set[b >> 6] &= ~(1ull << (b & 63));
}

static size_t succs(const ir_shader *s, size_t i, size_t out[2])
{
	const ir_inst *in = &s->inst[i];
	size_t n = 0;
	switch (in->op) {
	case IR_OP_IF:
		out[n++] = i + 1;
		out[n++] = in->mid >= 0 ? (size_t)in->mid + 1 : (size_t)in->close;
		break;
	case IR_OP_ELSE:
		out[n++] = (size_t)in->close;
		break;
	case IR_OP_ENDLOOP:
		out[n++] = (size_t)in->open + 1;
		break;
	case IR_OP_BRK:
		out[n++] = (size_t)in->close + 1;
		break;
	case IR_OP_CONT:
		out[n++] = (size_t)in->close;
		break;
	case IR_OP_END:
		break;
	default:
		out[n++] = i + 1;
		break;
	}
	size_t k = 0;
	for (size_t j = 0; j < n; j++)
		if (out[j] < s->n)
			out[k++] = out[j];
	return k;
}

static void live_free(live *L)
{
	free(L->in);
	free(L->out);
}

static bool compute(const ir_shader *s, live *L, ir_error *e)
{
	L->words = ((size_t)s->ntemps * 4 + 63) / 64;
	if (!L->words)
		L->words = 1;
	size_t n = s->n ? s->n : 1;
	L->in = calloc(n * L->words, sizeof *L->in);
	L->out = calloc(n * L->words, sizeof *L->out);
	uint64_t *tmp = calloc(L->words, sizeof *tmp);
	if (!L->in || !L->out || !tmp) {
		free(tmp);
		live_free(L);
		return ir_refuse(e, IR_REFUSE_LIMITS, s->file, 0, 0, "out of memory");
	}
	bool changed = true;
	while (changed) {
		changed = false;
		for (size_t i = s->n; i-- > 0;) {
			const ir_inst *in = &s->inst[i];
			uint64_t *lo = &L->out[i * L->words], *li = &L->in[i * L->words];
			size_t sc[2];
			size_t ns = succs(s, i, sc);
			memset(tmp, 0, L->words * sizeof *tmp);
			for (size_t k = 0; k < ns; k++)
				for (size_t w = 0; w < L->words; w++)
					tmp[w] |= L->in[sc[k] * L->words + w];
			memcpy(lo, tmp, L->words * sizeof *tmp);
			if (in->dst.file == IR_TEMP)
				for (unsigned c = 0; c < 4; c++)
					if (in->dst.mask & (1u << c))
						bit_clr(tmp, (size_t)in->dst.index * 4 + c);
			for (unsigned k = 0; k < in->nsrc; k++) {
				if (in->src[k].file != IR_TEMP)
					continue;
				uint8_t rd = ir_src_reads(in, k);
				for (unsigned c = 0; c < 4; c++)
					if (rd & (1u << c))
						bit_set(tmp, (size_t)in->src[k].index * 4 + c);
			}
			if (memcmp(tmp, li, L->words * sizeof *tmp)) {
				memcpy(li, tmp, L->words * sizeof *tmp);
				changed = true;
			}
		}
	}
	free(tmp);
	return true;
}

bool ir_zero_undefined(ir_shader *s, ir_error *e)
{
	if (!s->n || !s->ntemps)
		return true;
	live L;
	if (!compute(s, &L, e))
		return false;
	bool ok = true;
	size_t at = 0;
	uint32_t nt = s->ntemps;
	uint8_t *need = calloc(nt, 1);
	if (!need) {
		live_free(&L);
		return ir_refuse(e, IR_REFUSE_LIMITS, s->file, 0, 0, "out of memory");
	}
	for (uint32_t t = 0; t < nt; t++)
		for (unsigned c = 0; c < 4; c++)
			if (bit_get(L.in, (size_t)t * 4 + c))
				need[t] |= (uint8_t)(1u << c);
	live_free(&L);
	for (uint32_t t = 0; t < nt && ok; t++) {
		if (!need[t])
			continue;
		ir_src zero = ir_imm_scalar(s, 0.0f);
		ir_inst *in = zero.file == IR_NULL ? NULL : ir_insert(s, at++, 1);
		if (!in) {
			ok = ir_refuse(e, IR_REFUSE_LIMITS, s->file, 0, 0, "out of memory");
			break;
		}
		in->op = IR_OP_MOV;
		in->nsrc = 1;
		in->dst = ir_dst_reg(IR_TEMP, (int32_t)t, need[t]);
		in->src[0] = zero;
	}
	free(need);
	return ok && ir_resolve_cf(s, e);
}

bool ir_live_intervals(const ir_shader *s, ir_interval **out, ir_error *e)
{
	*out = NULL;
	ir_interval *iv = malloc((s->ntemps ? s->ntemps : 1) * sizeof *iv);
	if (!iv)
		return ir_refuse(e, IR_REFUSE_LIMITS, s->file, 0, 0, "out of memory");
	for (uint32_t t = 0; t < s->ntemps; t++)
		iv[t].start = iv[t].end = -1;
	live L;
	if (!compute(s, &L, e)) {
		free(iv);
		return false;
	}
	for (size_t i = 0; i < s->n; i++) {
		const uint64_t *li = &L.in[i * L.words];
		for (uint32_t t = 0; t < s->ntemps; t++) {
			uint64_t nib = li[((size_t)t * 4) >> 6] >> (((size_t)t * 4) & 63) & 0xF;
			if (!nib)
				continue;
			if (iv[t].start < 0 || iv[t].start > (int32_t)i)
				iv[t].start = (int32_t)i;
			if (iv[t].end < (int32_t)i)
				iv[t].end = (int32_t)i;
		}
		const ir_inst *in = &s->inst[i];
		if (in->dst.file == IR_TEMP) {
			ir_interval *v = &iv[in->dst.index];
			int32_t p = (int32_t)i + 1;
			if (v->start < 0 || v->start > p)
				v->start = p;
			if (v->end < p)
				v->end = p;
		}
	}
	live_free(&L);
	*out = iv;
	return true;
}

bool ir_regalloc(const ir_shader *s, unsigned nregs, uint16_t **map, unsigned *used, ir_error *e)
{
	*map = NULL;
	*used = 0;
	ir_interval *iv;
	if (!ir_live_intervals(s, &iv, e))
		return false;
	uint32_t nt = s->ntemps;
	uint16_t *m = malloc((nt ? nt : 1) * sizeof *m);
	uint32_t *order = malloc((nt ? nt : 1) * sizeof *order);
	int32_t busy_until[64];
	if (!m || !order || nregs > 64) {
		free(m);
		free(order);
		free(iv);
		return ir_refuse(e, IR_REFUSE_LIMITS, s->file, 0, 0, "out of memory");
	}
	size_t no = 0;
	for (uint32_t t = 0; t < nt; t++) {
		m[t] = 0xFFFF;
		if (iv[t].start >= 0)
			order[no++] = t;
	}
	/* insertion sort by start (stable; shaders are small) */
	for (size_t i = 1; i < no; i++) {
		uint32_t x = order[i];
		size_t j = i;
		while (j > 0 && iv[order[j - 1]].start > iv[x].start) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = x;
	}
	for (unsigned r = 0; r < nregs; r++)
		busy_until[r] = -1;
	unsigned peak = 0;
	bool ok = true;
	for (size_t k = 0; k < no; k++) {
		uint32_t t = order[k];
		unsigned r = 0;
		while (r < nregs && busy_until[r] >= iv[t].start)
			r++;
		if (r == nregs) {
			/* how many are live at this point, for the message */
			unsigned live_here = 1;
			for (size_t j = 0; j < k; j++)
				live_here += iv[order[j]].end >= iv[t].start;
			int line = 0, col = 0;
			if ((size_t)iv[t].start < s->n) {
				line = s->inst[iv[t].start].line;
				col = s->inst[iv[t].start].col;
			}
			ok = ir_refuse(e, IR_REFUSE_REGISTERS, s->file, line, col,
			               "needs %u live temporaries here, the target has %u",
			               live_here, nregs);
			break;
		}
		busy_until[r] = iv[t].end;
		m[t] = (uint16_t)r;
		if (r + 1 > peak)
			peak = r + 1;
	}
	free(order);
	free(iv);
	if (!ok) {
		free(m);
		return false;
	}
	*map = m;
	*used = peak;
	return true;
}
