/* Outputs: collect OUT writes into temporaries and copy them to the outputs
 * once, before END (and before each GS EMIT), for targets whose outputs may
 * be written only once per invocation (PICA200: pica200.md §4, "each
 * configured output component must be written exactly once").  In a GS
 * (a shader with EMIT) the copies go before each EMIT only.  (ir.h) */
#include <stdlib.h>
#include <string.h>

#include "frontends/ir/ir.h"

/* May OUT[index] keep its direct writes?  Every write outside any block,
 * each component at most once, never read, no EMIT in the shader. */
static bool direct_ok(const ir_shader *s, int32_t index, bool has_emit)
{
	if (has_emit)
		return false;
	int depth = 0;
	uint8_t seen = 0;
	for (size_t i = 0; i < s->n; i++) {
		const ir_inst *in = &s->inst[i];
		for (unsigned k = 0; k < in->nsrc; k++)
			if (in->src[k].file == IR_OUTPUT && in->src[k].index == index)
				return false;
		if (in->dst.file == IR_OUTPUT && in->dst.index == index) {
			if (depth > 0 || (seen & in->dst.mask))
				return false;
			seen |= in->dst.mask;
		}
		if (in->op == IR_OP_IF || in->op == IR_OP_BGNLOOP)
			depth++;
		else if (in->op == IR_OP_ENDIF || in->op == IR_OP_ENDLOOP)
			depth--;
	}
	return true;
}

static bool insert_mov(ir_shader *s, size_t pos, int32_t out, uint8_t mask, ir_src src)
{
	ir_inst *in = ir_insert(s, pos, 1);
	if (!in)
		return false;
	in->op = IR_OP_MOV;
	in->nsrc = 1;
	in->dst = ir_dst_reg(IR_OUTPUT, out, mask);
	in->src[0] = src;
	return true;
}

bool ir_outputs_to_temps(ir_shader *s, bool only_needed, ir_error *e)
{
	bool has_emit = false;
	for (size_t i = 0; i < s->n; i++)
		has_emit |= s->inst[i].op == IR_OP_EMIT;
	for (size_t oi = 0; oi < s->nout; oi++) {
		ir_output *o = &s->out[oi];
		uint8_t mask = (uint8_t)((o->mask | o->written) & 0xF);
		if (!mask)
			continue;
		if (only_needed && direct_ok(s, o->index, has_emit)) {
			uint8_t missing = mask & (uint8_t)~o->written;
			if (!missing)
				continue;
			ir_src zero = ir_imm_scalar(s, 0.0f);
			size_t end = s->n;
			while (end > 0 && s->inst[end - 1].op != IR_OP_END)
				end--;
			if (zero.file == IR_NULL || !insert_mov(s, end ? end - 1 : 0, o->index, missing, zero))
				return ir_refuse(e, IR_REFUSE_LIMITS, s->file, 0, 0, "out of memory");
			continue;
		}
		int32_t t = (int32_t)ir_new_temp(s);
		for (size_t i = 0; i < s->n; i++) {
			ir_inst *in = &s->inst[i];
			if (in->dst.file == IR_OUTPUT && in->dst.index == o->index) {
				in->dst.file = IR_TEMP;
				in->dst.index = t;
			}
			for (unsigned k = 0; k < in->nsrc; k++)
				if (in->src[k].file == IR_OUTPUT && in->src[k].index == o->index) {
					in->src[k].file = IR_TEMP;
					in->src[k].index = t;
				}
		}
		for (size_t i = 0; i < s->n; i++) {
			/* a GS hands vertices over at EMIT only; a VS at END */
			if (s->inst[i].op != (has_emit ? IR_OP_EMIT : IR_OP_END))
				continue;
			if (!insert_mov(s, i, o->index, mask, ir_src_reg(IR_TEMP, t)))
				return ir_refuse(e, IR_REFUSE_LIMITS, s->file, 0, 0, "out of memory");
			i++;
		}
	}
	return ir_resolve_cf(s, e);
}
