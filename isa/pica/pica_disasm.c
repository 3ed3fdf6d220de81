/* PICA200 disassembler (picasso syntax). */
#include "isa/pica/pica_disasm.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "isa/f24.h"

static const char COMP[] = "xyzw";
static const char *const IDX_NAME[] = { "", "a0.x", "a0.y", "aL" };
static const char *const CMP_NAME[] = { "eq", "ne", "lt", "le", "gt", "ge", "6", "7" };

struct sbuf { char *p; size_t n, len; };

static void put(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct sbuf *b, const char *fmt, ...)
{
	if (b->len >= b->n)
		return;
	va_list ap;
	va_start(ap, fmt);
	int k = vsnprintf(b->p + b->len, b->n - b->len, fmt, ap);
	va_end(ap);
	if (k > 0)
		b->len = b->len + (size_t)k < b->n ? b->len + (size_t)k : b->n - 1;
}

static bool put_src(struct sbuf *b, const struct pica_src *s)
{
	char r[8];
	bool ok = true;
	put(b, "%s%s", s->neg ? "-" : "", pica_src_name(s->reg, r));
	if (s->idx) {
		if (s->reg >= PICA_SRC_C)
			put(b, "[%s]", IDX_NAME[s->idx & 3]);
		else
			ok = false;    /* the hardware ignores IDX on v/r; not expressible */
	}
	if (pica_swz_pack(s->swz) != PICA_SWZ_IDENTITY)
		put(b, ".%c%c%c%c", COMP[s->swz[0]], COMP[s->swz[1]], COMP[s->swz[2]], COMP[s->swz[3]]);
	return ok;
}

static bool put_dst(struct sbuf *b, const struct pica_inst *in)
{
	char r[8];
	put(b, "%s", pica_dst_name(in->dst, r));
	if (in->mask == 0xF)
		return true;
	if (in->mask == 0)
		return false;
	put(b, ".");
	for (int c = 0; c < 4; c++)
		if (in->mask & (8u >> c))
			put(b, "%c", COMP[c]);
	return true;
}

static void put_cond(struct sbuf *b, const struct pica_inst *in)
{
	const char *nx = in->ref_x ? "" : "!", *ny = in->ref_y ? "" : "!";
	switch (in->cond) {
	case PICA_COND_OR:  put(b, "%scmp.x || %scmp.y", nx, ny); break;
	case PICA_COND_AND: put(b, "%scmp.x && %scmp.y", nx, ny); break;
	case PICA_COND_X:   put(b, "%scmp.x", nx); break;
	default:            put(b, "%scmp.y", ny); break;
	}
}

bool pica_disasm_inst(const struct pica_inst *in, const char *target, char *buf, size_t n)
{
	struct sbuf b = { buf, n, 0 };
	char tbuf[16];
	bool ok = in->stray == 0;
	buf[0] = 0;
	if (!target) {
		snprintf(tbuf, sizeof tbuf, "0x%03x", (unsigned)in->target);
		target = tbuf;
	}
	const struct pica_op_info *oi = &PICA_OPS[in->op];
	const char *mn = PICA_OPS[oi->base].name;
	switch (oi->fmt) {
	case PICA_FMT_0:
		if (in->op == PICA_OP_UNKNOWN) {
			put(&b, "; unknown opcode 0x%02x (word 0x%08x)", (unsigned)in->opcode, (unsigned)in->word);
			return false;
		}
		put(&b, "%s", mn);
		break;
	case PICA_FMT_1:
	case PICA_FMT_1I:
	case PICA_FMT_1U:
	case PICA_FMT_5:
	case PICA_FMT_5I:
		if (in->op == PICA_OP_MOVA) {
			unsigned m = in->mask & 0xC;
			put(&b, "mova %s, ", m == 0xC ? "a0.xy" : m == 8 ? "a0.x" : "a0.y");
			ok &= m != 0 && (in->mask & 3) == 0;
		} else {
			put(&b, "%s ", mn);
			ok &= put_dst(&b, in);
			put(&b, ", ");
		}
		for (int s = 0; s < in->nsrc; s++) {
			if (s)
				put(&b, ", ");
			ok &= put_src(&b, &in->src[s]);
		}
		/* the assembler picks the I-form from the operands */
		if (oi->fmt == PICA_FMT_1I)
			ok &= in->src[0].reg < PICA_SRC_C && in->src[1].reg >= PICA_SRC_C;
		if (oi->fmt == PICA_FMT_5I)
			ok &= in->src[2].reg >= PICA_SRC_C;
		break;
	case PICA_FMT_1C:
		put(&b, "cmp ");
		ok &= put_src(&b, &in->src[0]);
		put(&b, ", %s, %s, ", CMP_NAME[in->cmp_op[0] & 7], CMP_NAME[in->cmp_op[1] & 7]);
		ok &= put_src(&b, &in->src[1]) && in->cmp_op[0] < 6 && in->cmp_op[1] < 6;
		break;
	case PICA_FMT_2:
		put(&b, "%s ", mn);
		put_cond(&b, in);
		if (in->op == PICA_OP_CALLC || in->op == PICA_OP_JMPC)
			put(&b, ", %s", target);
		if (in->cond >= PICA_COND_X && (in->cond == PICA_COND_X ? !in->ref_y : !in->ref_x))
			ok = false;     /* the unused ref bit is always 1 in picasso output */
		if (in->op == PICA_OP_BREAKC)
			ok &= in->num == 0 && in->target == 0;
		if (in->op == PICA_OP_JMPC)
			ok &= in->num == 0;
		if (in->op == PICA_OP_CALL) {
			b.len = 0;
			put(&b, "call %s", target);
			ok &= in->cond == 0 && !in->ref_x && !in->ref_y;
		}
		break;
	case PICA_FMT_3:
	case PICA_FMT_3I:
		if (in->op == PICA_OP_LOOP) {
			put(&b, "for i%u", (unsigned)in->uniform_id);
			ok &= in->num == 0;
		} else if (in->op == PICA_OP_IFU) {
			put(&b, "ifu b%u", (unsigned)in->uniform_id);
		} else if (in->op == PICA_OP_JMPU) {
			put(&b, "jmpu %sb%u, %s", (in->num & 1) ? "!" : "", (unsigned)in->uniform_id, target);
			ok &= in->num <= 1;
		} else {
			put(&b, "callu b%u, %s", (unsigned)in->uniform_id, target);
		}
		break;
	case PICA_FMT_4:
		put(&b, "setemit %u", (unsigned)in->vtx_id);
		if (in->prim || in->inv)
			put(&b, ",%s%s", in->prim ? " prim" : "", in->inv ? " inv" : "");
		ok &= in->vtx_id < 3;
		break;
	default:
		break;
	}
	return ok;
}

/* ---- program structure ---- */

struct range { uint32_t start, end; bool synthetic; };

enum { ST_PROC, ST_IF, ST_FOR };
struct open_block { int type; uint32_t end, else_at; bool in_else; };

struct dis {
	const struct shbin *s;
	struct pica_inst *inst;
	struct range *procs; size_t nprocs;
	bool *label;
	FILE *f;
	bool exact;
};

static int cmp_range(const void *x, const void *y)
{
	const struct range *a = x, *b = y;
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return a->end > b->end ? -1 : a->end < b->end;
}

static void proc_name(const struct dis *ds, uint32_t start, uint32_t end, char *buf, size_t n)
{
	int same = 0;
	for (size_t i = 0; i < ds->nprocs; i++)
		same += ds->procs[i].start == start;
	if (same > 1)
		snprintf(buf, n, "p_%03x_%u", (unsigned)start, (unsigned)(end - start));
	else
		snprintf(buf, n, "p_%03x", (unsigned)start);
}

static bool add_range(struct dis *ds, uint32_t start, uint32_t end, bool synthetic)
{
	if (start >= end || end > ds->s->ncode) {
		ds->exact = false;
		return true;
	}
	for (size_t i = 0; i < ds->nprocs; i++)
		if (ds->procs[i].start == start && ds->procs[i].end == end)
			return true;
	ds->procs[ds->nprocs++] = (struct range){ start, end, synthetic };
	return true;
}

static bool collect(struct dis *ds)
{
	const struct shbin *s = ds->s;
	for (size_t i = 0; i < s->ndvle; i++)
		add_range(ds, s->dvle[i].main, s->dvle[i].endmain, false);
	for (size_t i = 0; i < s->ncode; i++) {
		const struct pica_inst *in = &ds->inst[i];
		if (in->op == PICA_OP_CALL || in->op == PICA_OP_CALLC || in->op == PICA_OP_CALLU)
			add_range(ds, in->target, (uint32_t)in->target + in->num, false);
		if ((in->op == PICA_OP_JMPC || in->op == PICA_OP_JMPU) && in->target <= s->ncode)
			ds->label[in->target] = true;
	}
	qsort(ds->procs, ds->nprocs, sizeof *ds->procs, cmp_range);
	/* cover the code outside every procedure with synthetic ones */
	size_t n = ds->nprocs;
	uint32_t covered = 0;
	for (size_t i = 0; i <= n; i++) {
		uint32_t next = i < n ? ds->procs[i].start : (uint32_t)s->ncode;
		if (next > covered)
			add_range(ds, covered, next, true);
		if (i < n && ds->procs[i].end > covered)
			covered = ds->procs[i].end;
	}
	qsort(ds->procs, ds->nprocs, sizeof *ds->procs, cmp_range);
	return true;
}

static void print_dvle(struct dis *ds, size_t k)
{
	const struct shbin_dvle *e = &ds->s->dvle[k];
	FILE *f = ds->f;
	char name[32];
	proc_name(ds, e->main, e->endmain, name, sizeof name);
	fprintf(f, "; DVLE %zu: %s shader, entry %s [0x%03x, 0x%03x), version 0x%04x\n", k,
	        e->type == SHBIN_GS ? "geometry" : "vertex", name, (unsigned)e->main,
	        (unsigned)e->endmain, (unsigned)e->version);
	if (e->type == SHBIN_GS) {
		const char *m = shbin_gs_mode_name(e->gs_mode);
		fprintf(f, ";   gs mode %s", m ? m : "?");
		if (e->gs_mode == SHBIN_GS_VARIABLE)
			fprintf(f, ", %u full vertices", e->gs_variable_num);
		if (e->gs_mode == SHBIN_GS_FIXED)
			fprintf(f, ", array at c%u, %u vertices", e->gs_fixed_start, e->gs_fixed_num);
		fprintf(f, ", merge outmaps %u\n", e->merge);
	}
	fprintf(f, ";   input mask 0x%04x, output mask 0x%04x\n", e->input_mask, e->output_mask);
	for (size_t i = 0; i < e->noutputs; i++) {
		const struct shbin_output *o = &e->outputs[i];
		const char *t = shbin_out_type_name(o->type);
		fprintf(f, ";   .out - %s o%u.", t ? t : "?", o->reg);
		for (int c = 0; c < 4; c++)
			if (o->mask >> c & 1)
				fputc(COMP[c], f);
		fputc('\n', f);
	}
	for (size_t i = 0; i < e->nuniforms; i++) {
		const struct shbin_uniform *u = &e->uniforms[i];
		unsigned a = u->first, z = u->last;
		char cls = a < 0x10 ? 'v' : a < 0x70 ? 'c' : a < 0x78 ? 'i' : 'b';
		unsigned base = a < 0x10 ? 0 : a < 0x70 ? 0x10 : a < 0x78 ? 0x70 : 0x78;
		fprintf(f, ";   uniform %c%u", cls, a - base);
		if (z != a)
			fprintf(f, "-%c%u", cls, z - base);
		fprintf(f, " %s\n", u->name);
	}
	for (size_t i = 0; i < e->nconsts; i++) {
		const struct shbin_const *c = &e->consts[i];
		if (c->type == SHBIN_CONST_FVEC) {
			fprintf(f, ";   .setf c%u(", c->reg);
			for (int j = 0; j < 4; j++)
				fprintf(f, "%s%.9g", j ? ", " : "", (double)f24_decode(c->data[j]));
			fprintf(f, ")  ; f24 %06x %06x %06x %06x\n", (unsigned)c->data[0], (unsigned)c->data[1],
			        (unsigned)c->data[2], (unsigned)c->data[3]);
		} else if (c->type == SHBIN_CONST_IVEC) {
			uint32_t v = c->data[0];
			fprintf(f, ";   .seti i%u(%u, %u, %u, %u)\n", c->reg, v & 0xFF, v >> 8 & 0xFF, v >> 16 & 0xFF, v >> 24);
		} else {
			fprintf(f, ";   .setb b%u %s\n", c->reg, c->data[0] ? "true" : "false");
		}
	}
}

/* ---- DVLE tables as directives (single-DVLE files) ---- */

/* A float24 constant as text that converts back to the same bits. */
static bool const_text(uint32_t bits, char *buf, size_t n)
{
	float v = f24_decode(bits);
	if (bits == 0x800000u)
		snprintf(buf, n, "-0");
	else if (isnan(v))
		return false;
	else if (isinf(v))
		snprintf(buf, n, "%sinf", v < 0 ? "-" : "");
	else
		snprintf(buf, n, "%.9g", (double)v);
	return pica_f24_from_f32((float)strtod(buf, NULL)) == bits;
}

/* Symbol name back to an identifier ('.' was '$'); false if impossible. */
static bool sym_ident(const char *name, char *out, size_t n)
{
	size_t len = strlen(name);
	if (!len || len >= n)
		return false;
	for (size_t i = 0; i <= len; i++)
		out[i] = name[i] == '.' ? '$' : name[i];
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)out[i];
		if (!(isalpha(c) || c == '_' || c == '$' || (i && isdigit(c))))
			return false;
	}
	/* a name like r3 would shadow the register the code uses */
	return !(strchr("ovrcib", out[0]) && isdigit((unsigned char)out[1]));
}

static bool emit_gsh(const struct shbin_dvle *e, FILE *f, int *cbase)
{
	bool dummy = false;
	int first_c = -1;
	for (size_t i = 0; i < e->noutputs; i++)
		dummy |= e->outputs[i].type == SHBIN_OUT_DUMMY;
	for (size_t i = 0; i < e->nuniforms && first_c < 0; i++)
		if (e->uniforms[i].first >= 0x10 && e->uniforms[i].first < 0x70)
			first_c = e->uniforms[i].first - 0x10;
	*cbase = 0;
	if (e->type != SHBIN_GS)
		return !e->merge && !e->gs_mode && !e->gs_fixed_start && !e->gs_variable_num && !e->gs_fixed_num;
	if (e->merge != dummy) {            /* legacy GS in the shared space */
		fprintf(f, ".gsh\n");
		return !e->gs_mode && !e->gs_fixed_start && !e->gs_variable_num && !e->gs_fixed_num;
	}
	int first = first_c >= 0 ? first_c : e->gs_mode == SHBIN_GS_FIXED ? e->gs_fixed_start + 1 : 0;
	*cbase = first;
	if (first >= PICA_NUM_C)
		return false;
	switch (e->gs_mode) {
	case SHBIN_GS_POINT:
		fprintf(f, ".gsh point c%d\n", first);
		return !e->gs_fixed_start && !e->gs_variable_num && !e->gs_fixed_num;
	case SHBIN_GS_VARIABLE:
		fprintf(f, ".gsh variable c%d %u\n", first, e->gs_variable_num);
		return !e->gs_fixed_start && !e->gs_fixed_num;
	default:
		fprintf(f, ".gsh fixed c%d c%u %u\n", first, e->gs_fixed_start, e->gs_fixed_num);
		return e->gs_fixed_start < first && !e->gs_variable_num;
	}
}

static bool emit_uniforms(const struct shbin_dvle *e, FILE *f, int cbase)
{
	static const struct { unsigned lo, hi; const char *dir; char cls; } classes[] = {
		{ 0x10, 0x70, ".fvec", 'c' }, { 0x70, 0x74, ".ivec", 'i' }, { 0x78, 0x88, ".bool", 'b' },
	};
	int next[3] = { cbase, 0, 0 }, pad = 0;
	uint16_t inputs = 0;
	for (size_t i = 0; i < e->nuniforms; i++) {
		const struct shbin_uniform *u = &e->uniforms[i];
		char name[128];
		if (!sym_ident(u->name, name, sizeof name))
			return false;
		for (size_t k = 0; k < i; k++)
			if (!strcmp(e->uniforms[k].name, u->name))
				return false;
		if (u->first < 0x10) {
			if (u->last != u->first)
				return false;
			fprintf(f, ".in %s v%u\n", name, u->first);
			inputs |= (uint16_t)(1u << u->first);
			continue;
		}
		int c = 0;
		while (c < 3 && !(u->first >= classes[c].lo && u->first < classes[c].hi))
			c++;
		if (c == 3 || u->last >= classes[c].hi || name[0] == '_')
			return false;
		int idx = (int)(u->first - classes[c].lo), size = (int)(u->last - u->first) + 1;
		if (idx < next[c])
			return false;
		if (idx > next[c])     /* private uniforms stay out of the table */
			fprintf(f, "%s _pad%d[%d]\n", classes[c].dir, pad++, idx - next[c]);
		fprintf(f, "%s %s[%d]\n", classes[c].dir, name, size);
		next[c] = idx + size;
	}
	return inputs == e->input_mask;
}

static bool emit_tables(const struct shbin_dvle *e, FILE *f)
{
	int cbase;
	if (e->version != 0x1002 || e->nlabels || !emit_gsh(e, f, &cbase))
		return false;
	uint16_t outs = 0;
	for (size_t i = 0; i < e->noutputs; i++) {
		const struct shbin_output *o = &e->outputs[i];
		const char *t = shbin_out_type_name(o->type);
		if (!t || !o->mask || o->pad || o->reg >= (e->type == SHBIN_GS ? 7 : 16))
			return false;
		fprintf(f, ".out - %s o%u.", t, o->reg);
		for (int c = 0; c < 4; c++)
			if (o->mask >> c & 1)
				fputc(COMP[c], f);
		fputc('\n', f);
		outs |= (uint16_t)(1u << o->reg);
	}
	if (outs != e->output_mask || !emit_uniforms(e, f, cbase))
		return false;
	for (size_t i = 0; i < e->nconsts; i++) {
		const struct shbin_const *c = &e->consts[i];
		if (c->type == SHBIN_CONST_FVEC) {
			char v[4][40];
			for (int j = 0; j < 4; j++)
				if (!const_text(c->data[j], v[j], sizeof v[j]))
					return false;
			fprintf(f, ".setf c%u(%s, %s, %s, %s)\n", c->reg, v[0], v[1], v[2], v[3]);
		} else if (c->type == SHBIN_CONST_IVEC) {
			uint32_t v = c->data[0];
			if (c->data[1] || c->data[2] || c->data[3])
				return false;
			fprintf(f, ".seti i%u(%u, %u, %u, %u)\n", c->reg, v & 0xFF, v >> 8 & 0xFF, v >> 16 & 0xFF, v >> 24);
		} else {
			if (c->data[0] > 1 || c->data[1] || c->data[2] || c->data[3])
				return false;
			fprintf(f, ".setb b%u %s\n", c->reg, c->data[0] ? "true" : "false");
		}
	}
	return true;
}

/* Try the directives in a scratch buffer; copy them out only if complete. */
static bool print_tables(const struct shbin_dvle *e, FILE *f)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	if (!m)
		return false;
	bool ok = emit_tables(e, m);
	fclose(m);
	if (ok && text)
		fputs(text, f);
	free(text);
	return ok;
}

static bool push(struct open_block *st, int *n, struct open_block b)
{
	if (*n == 64)
		return false;
	if (*n) {
		const struct open_block *t = &st[*n - 1];
		uint32_t lim = (t->type == ST_IF && !t->in_else && t->else_at) ? t->else_at : t->end;
		if (b.end > lim)
			return false;
	}
	st[(*n)++] = b;
	return true;
}

static void print_code(struct dis *ds)
{
	const struct shbin *s = ds->s;
	FILE *f = ds->f;
	struct open_block st[64];
	int n = 0;
	size_t next_proc = 0;
	int depth = 0;
	for (uint32_t j = 0; j <= s->ncode; j++) {
		for (;;) {
			if (!n)
				break;
			struct open_block *t = &st[n - 1];
			if (t->type == ST_IF && t->else_at == j && !t->in_else && t->else_at != t->end) {
				fprintf(f, "%*s.else\n", 4 * (depth - 1), "");
				t->in_else = true;
				continue;
			}
			if (t->end != j)
				break;
			depth--;
			fprintf(f, "%*s.end\n", 4 * depth, "");
			if (t->type == ST_PROC)
				fputc('\n', f);
			n--;
		}
		for (int k = 0; k < n; k++)
			if (st[k].end <= j)
				ds->exact = false;   /* crossing structure */
		if (j == s->ncode)
			break;
		while (next_proc < ds->nprocs && ds->procs[next_proc].start == j) {
			const struct range *r = &ds->procs[next_proc++];
			char name[32];
			proc_name(ds, r->start, r->end, name, sizeof name);
			if (!push(st, &n, (struct open_block){ ST_PROC, r->end, 0, false }))
				ds->exact = false;
			fprintf(f, "%*s.proc %s%s\n", 4 * depth, "", name, r->synthetic ? "    ; not called" : "");
			depth++;
		}
		if (ds->label[j])
			fprintf(f, "l_%03x:\n", (unsigned)j);
		const struct pica_inst *in = &ds->inst[j];
		char target[32] = "", text[160];
		const char *tp = NULL;
		if (in->op == PICA_OP_CALL || in->op == PICA_OP_CALLC || in->op == PICA_OP_CALLU) {
			proc_name(ds, in->target, (uint32_t)in->target + in->num, target, sizeof target);
			tp = target;
		} else if (in->op == PICA_OP_JMPC || in->op == PICA_OP_JMPU) {
			snprintf(target, sizeof target, "l_%03x", (unsigned)in->target);
			tp = target;
		}
		if (!pica_disasm_inst(in, tp, text, sizeof text))
			ds->exact = false;
		int w = 44 - 4 * depth;
		fprintf(f, "%*s%-*s ; %03x: %08x\n", 4 * depth, "", w > 0 ? w : 0, text, (unsigned)j, (unsigned)in->word);
		if (in->op == PICA_OP_IFC || in->op == PICA_OP_IFU) {
			uint32_t end = (uint32_t)in->target + in->num;
			struct open_block b = { ST_IF, end, in->num ? in->target : 0, false };
			if (in->target <= j || !push(st, &n, b))
				ds->exact = false;
			else
				depth++;
		} else if (in->op == PICA_OP_LOOP) {
			struct open_block b = { ST_FOR, (uint32_t)in->target + 1, 0, false };
			if (in->target < j || !push(st, &n, b))
				ds->exact = false;
			else
				depth++;
		}
	}
	while (n--) {
		depth--;
		fprintf(f, "%*s.end\n", 4 * (depth > 0 ? depth : 0), "");
	}
}

bool pica_disasm(const struct shbin *s, FILE *f, bool *exact, ulp_diag *d)
{
	struct dis ds = { .s = s, .f = f, .exact = true };
	size_t nranges = s->ndvle + 2 * s->ncode + 2;
	ds.inst = calloc(s->ncode + 1, sizeof *ds.inst);
	ds.procs = calloc(nranges, sizeof *ds.procs);
	ds.label = calloc(s->ncode + 1, sizeof *ds.label);
	bool ok = ds.inst && ds.procs && ds.label;
	if (!ok) {
		ulp_diag_at(d, "", 0, 0, "out of memory");
	} else {
		for (size_t i = 0; i < s->ncode; i++)
			if (!pica_decode_prog(s->code[i], s->opdesc, s->nopdesc, &ds.inst[i]))
				ds.exact = false;
		collect(&ds);
		fprintf(f, "; %zu code words, %zu operand descriptors, %zu DVLE%s\n", s->ncode, s->nopdesc,
		        s->ndvle, s->ndvle == 1 ? "" : "s");
		for (size_t i = 0; i < s->ndvle; i++)
			print_dvle(&ds, i);
		/* one DVLE: its tables as directives, so the whole file round-trips */
		bool tables = s->ndvle == 1 && (fputc('\n', f), print_tables(&s->dvle[0], f));
		if (s->ndvle == 1 && !tables)
			fprintf(f, "; (the DVLE tables above have no exact directive spelling)\n");
		if (s->ncode > PICA_VS_CODE_MAX && !(tables && s->dvle[0].type == SHBIN_GS))
			fprintf(f, ".gsh    ; lifts the 512-word vertex shader limit\n");
		if (s->ndvle) {
			char name[32];
			proc_name(&ds, s->dvle[0].main, s->dvle[0].endmain, name, sizeof name);
			fprintf(f, "\n.entry %s\n\n", name);
		}
		print_code(&ds);
		if (!ds.exact)
			fprintf(f, "; note: some constructs above have no exact picasso spelling\n");
		if (ferror(f))
			ok = ulp_diag_at(d, "", 0, 0, "write error");
	}
	if (exact)
		*exact = ds.exact;
	free(ds.inst);
	free(ds.procs);
	free(ds.label);
	return ok;
}
