/* TGSI control flow: match IF/UIF-ELSE-ENDIF, BGNLOOP-ENDLOOP,
 * SWITCH-CASE/DEFAULT-ENDSWITCH and BGNSUB-ENDSUB by nesting, attach
 * BRK/CONT to their construct and CAL to its BGNSUB, and classify each
 * written branch label (absolute, relative, ":0", other).  Real dumps carry
 * all three label styles, so only CAL trusts its label. */
#include <stdarg.h>
#include <string.h>

#include "frontends/tgsi/tgsi.h"

enum { CF_MAX_DEPTH = TGSI_MAX_NESTING };

typedef struct cf_ctx {
	tgsi_shader *sh;
	const char *file;
	ulp_diag *d;
	int32_t stack[CF_MAX_DEPTH];
	int depth;
} cf_ctx;

static bool cf_fail(cf_ctx *c, const tgsi_instruction *in, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static bool cf_fail(cf_ctx *c, const tgsi_instruction *in, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ulp_diag_vat(c->d, c->file, in->line, in->col, -1, fmt, ap);
	va_end(ap);
	return false;
}

static const char *mnem(const tgsi_instruction *in)
{
	return tgsi_get_opcode_info(in->opcode)->mnemonic;
}

static bool is_if(unsigned op)
{
	return op == TGSI_OPCODE_IF || op == TGSI_OPCODE_UIF;
}

static int32_t top(const cf_ctx *c)
{
	return c->depth ? c->stack[c->depth - 1] : -1;
}

static unsigned top_op(const cf_ctx *c)
{
	int32_t t = top(c);
	return t < 0 ? TGSI_OPCODE_COUNT : c->sh->insts[t].opcode;
}

/* Innermost enclosing construct that BRK (switches too) or CONT can leave,
 * not looking past a subroutine body. */
static int32_t innermost_loop(const cf_ctx *c, bool or_switch)
{
	for (int k = c->depth - 1; k >= 0; k--) {
		unsigned op = c->sh->insts[c->stack[k]].opcode;
		if (op == TGSI_OPCODE_BGNLOOP || (or_switch && op == TGSI_OPCODE_SWITCH))
			return c->stack[k];
		if (op == TGSI_OPCODE_BGNSUB)
			break;
	}
	return -1;
}

static bool close_construct(cf_ctx *c, tgsi_instruction *in, int32_t i, unsigned want,
                            const char *opener)
{
	unsigned op = top_op(c);
	if (op != want && !(want == TGSI_OPCODE_IF && is_if(op)))
		return cf_fail(c, in, "%s without a matching %s", mnem(in), opener);
	int32_t o = c->stack[--c->depth];
	tgsi_instruction *open = &c->sh->insts[o];
	open->cf_close = i;
	in->cf_open = o;
	in->cf_else = open->cf_else;
	in->cf_close = i;
	return true;
}

static bool cf_instruction(cf_ctx *c, int32_t i)
{
	tgsi_instruction *in = &c->sh->insts[i];
	unsigned op = in->opcode;
	switch (op) {
	case TGSI_OPCODE_IF:
	case TGSI_OPCODE_UIF:
	case TGSI_OPCODE_BGNLOOP:
	case TGSI_OPCODE_SWITCH:
	case TGSI_OPCODE_BGNSUB:
		if (c->depth == CF_MAX_DEPTH)
			return cf_fail(c, in, "%s nested too deeply", mnem(in));
		c->stack[c->depth++] = i;
		in->cf_open = i;
		return true;
	case TGSI_OPCODE_ELSE:
		if (!is_if(top_op(c)) || c->sh->insts[top(c)].cf_else >= 0)
			return cf_fail(c, in, "ELSE without a matching IF or UIF");
		c->sh->insts[top(c)].cf_else = i;
		in->cf_open = top(c);
		in->cf_else = i;
		return true;
	case TGSI_OPCODE_ENDIF:
		return close_construct(c, in, i, TGSI_OPCODE_IF, "IF or UIF");
	case TGSI_OPCODE_ENDLOOP:
		return close_construct(c, in, i, TGSI_OPCODE_BGNLOOP, "BGNLOOP");
	case TGSI_OPCODE_ENDSWITCH:
		return close_construct(c, in, i, TGSI_OPCODE_SWITCH, "SWITCH");
	case TGSI_OPCODE_ENDSUB:
		return close_construct(c, in, i, TGSI_OPCODE_BGNSUB, "BGNSUB");
	case TGSI_OPCODE_CASE:
	case TGSI_OPCODE_DEFAULT:
		if (top_op(c) != TGSI_OPCODE_SWITCH)
			return cf_fail(c, in, "%s outside a SWITCH", mnem(in));
		in->cf_open = top(c);
		return true;
	case TGSI_OPCODE_BRK:
	case TGSI_OPCODE_CONT:
		in->cf_open = innermost_loop(c, op == TGSI_OPCODE_BRK);
		if (in->cf_open < 0)
			return cf_fail(c, in, "%s outside a loop%s", mnem(in),
			               op == TGSI_OPCODE_BRK ? " or SWITCH" : "");
		return true;
	default:
		return true;
	}
}

/* The instruction a well-formed absolute label would name. */
static int32_t label_goal(const tgsi_instruction *in)
{
	switch (in->opcode) {
	case TGSI_OPCODE_IF:
	case TGSI_OPCODE_UIF:
		return in->cf_else >= 0 ? in->cf_else : in->cf_close;
	case TGSI_OPCODE_ELSE:
	case TGSI_OPCODE_BGNLOOP:
		return in->cf_close;
	case TGSI_OPCODE_ENDLOOP:
		return in->cf_open;
	case TGSI_OPCODE_CAL:
		return in->cf_target;
	default:
		return -1;
	}
}

bool tgsi_cf_resolve(tgsi_shader *sh, const char *file, ulp_diag *d)
{
	cf_ctx c;
	memset(&c, 0, sizeof c);
	c.sh = sh;
	c.file = file ? file : "";
	c.d = d;
	sh->cf_resolved = false;
	for (size_t i = 0; i < sh->num_insts; i++) {
		tgsi_instruction *in = &sh->insts[i];
		in->cf_open = in->cf_else = in->cf_close = in->cf_target = -1;
		in->label_kind = TGSI_LABEL_NONE;
	}
	for (size_t i = 0; i < sh->num_insts; i++)
		if (!cf_instruction(&c, (int32_t)i))
			return false;
	if (c.depth) {
		tgsi_instruction *in = &sh->insts[top(&c)];
		return cf_fail(&c, in, "%s is never closed (expected %s)", mnem(in),
		               is_if(in->opcode) ? "ENDIF" :
		               in->opcode == TGSI_OPCODE_BGNLOOP ? "ENDLOOP" :
		               in->opcode == TGSI_OPCODE_SWITCH ? "ENDSWITCH" : "ENDSUB");
	}
	/* Second pass: members (ELSE, CASE, BRK, CONT) take their construct's ends. */
	for (size_t i = 0; i < sh->num_insts; i++) {
		tgsi_instruction *in = &sh->insts[i];
		if (in->cf_open >= 0 && (size_t)in->cf_open != i) {
			const tgsi_instruction *o = &sh->insts[in->cf_open];
			in->cf_close = o->cf_close;
			in->cf_else = o->cf_else;
		}
		if (in->opcode == TGSI_OPCODE_CAL) {
			if (!in->has_label || in->label >= sh->num_insts ||
			    sh->insts[in->label].opcode != TGSI_OPCODE_BGNSUB)
				return cf_fail(&c, in, "CAL needs a label naming a BGNSUB instruction");
			in->cf_target = (int32_t)in->label;
		}
	}
	for (size_t i = 0; i < sh->num_insts; i++) {
		tgsi_instruction *in = &sh->insts[i];
		if (!in->has_label)
			continue;
		int64_t goal = label_goal(in);
		if (goal >= 0 && in->label == goal)
			in->label_kind = TGSI_LABEL_ABSOLUTE;
		else if (in->label == 0)
			in->label_kind = TGSI_LABEL_ZERO;
		else if (goal >= 0 && (int64_t)in->label == goal - (int64_t)i)
			in->label_kind = TGSI_LABEL_RELATIVE;
		else
			in->label_kind = TGSI_LABEL_OTHER;
	}
	sh->cf_resolved = true;
	return true;
}
