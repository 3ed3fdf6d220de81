/* PICA200 assembler: directives (.proc .else .end .alias .fvec .ivec .bool
 * .constf .consti .constfa .setf .seti .setb .in .out .entry .nodvle .gsh). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "isa/pica/pica_asm_int.h"

struct asm_dvle *asm_dvle(struct pica_asm *a)
{
	if (a->cur)
		return a->cur;
	if (!ASM_PUSH(a, a->dvles, a->ndvles, a->capdvles))
		return NULL;
	struct asm_dvle *e = calloc(1, sizeof *e);
	if (!e) {
		asm_err_col(a, 0, "out of memory");
		return NULL;
	}
	e->file = a->file;
	e->entry = asm_strdup(a, "main");
	a->dvles[a->ndvles++] = e;
	a->cur = e;
	return e->entry ? e : NULL;
}

static struct asm_ubundle *asm_bundle(struct pica_asm *a, struct asm_dvle *e)
{
	return &a->bundle[e->is_gs && !e->compat_gs ? 1 : 0];
}

/* Uniform space: globals grow up from start, per-file constants grow down
 * from end; bound keeps globals below every constant ever placed. */
static int alloc_global(struct asm_ualloc *u, int size)
{
	if (u->start + size > u->bound)
		return -1;
	int r = u->start;
	u->start += size;
	return r;
}

static int alloc_local(struct asm_ualloc *u, int size)
{
	int pos = u->end - size;
	if (pos < u->start)
		return -1;
	if (pos < u->bound)
		u->bound = pos;
	u->end = pos;
	return pos;
}

static bool no_args(struct pica_asm *a, char *args)
{
	if (*asm_trim(args))
		return asm_err(a, args, "too many parameters: '%s'", args);
	return true;
}

static bool new_alias(struct pica_asm *a, const char *at, const char *name, char cls, int n, unsigned sw)
{
	if (asm_find_alias(a, name))
		return asm_err(a, at, "identifier already used: '%s'", name);
	if (!ASM_PUSH(a, a->aliases, a->naliases, a->capaliases))
		return false;
	char *nm = asm_strdup(a, name);
	if (!nm)
		return false;
	a->aliases[a->naliases++] = (struct asm_alias){ nm, cls, n, sw };
	return true;
}

static int last_op(const struct pica_asm *a)
{
	return a->ncode ? (int)pica_op_of_word(a->code[a->ncode - 1]) : -1;
}

static bool ends_in_jump(int op)
{
	return op == PICA_OP_JMPC || op == PICA_OP_JMPU || op == PICA_OP_CALL ||
	       op == PICA_OP_CALLC || op == PICA_OP_CALLU;
}

static bool patch_dst(struct pica_asm *a, size_t at, size_t target)
{
	if (target >= PICA_CODE_MAX)
		return asm_err_col(a, 0, "branch target %zu outside the code memory", target);
	a->code[at] = pica_word_set_target(a->code[at], (uint32_t)target);
	return true;
}

static bool dir_proc(struct pica_asm *a, char *args)
{
	char *name = asm_trim(args);
	if (!asm_is_ident(name))
		return asm_err(a, name, "invalid procedure name: '%s'", name);
	for (size_t i = 0; i < a->nprocs; i++)
		if (!strcmp(a->procs[i].name, name))
			return asm_err(a, name, "proc already exists: '%s'", name);
	if (a->nstack == ASM_MAX_STACK)
		return asm_err(a, name, "too many nested blocks");
	char *nm = asm_strdup(a, name);
	if (!nm)
		return false;
	a->stack[a->nstack++] = (struct asm_block){ .type = BLK_PROC, .pos = a->ncode, .name = nm, .line = a->line };
	return true;
}

/* Padding NOPs (picasso auto-NOP; pica200.md §1.4). */
static bool dir_else(struct pica_asm *a, char *args)
{
	if (!no_args(a, args))
		return false;
	if (!a->nstack || a->stack[a->nstack - 1].type != BLK_IF)
		return asm_err_col(a, 1, ".else with unmatched IF");
	struct asm_block *b = &a->stack[a->nstack - 1];
	if (b->else_pos)
		return asm_err_col(a, 1, "spurious .else");
	if (a->last_was_end) {
		asm_padding_nop(a);
		a->last_was_end = false;
	} else if (ends_in_jump(last_op(a)) || a->ncode - b->pos < 2) {
		asm_padding_nop(a);
	}
	b->else_pos = a->ncode;
	return patch_dst(a, b->pos, a->ncode);
}

static bool end_array(struct pica_asm *a, struct asm_block *b);

static bool dir_end(struct pica_asm *a, char *args)
{
	if (!no_args(a, args))
		return false;
	if (!a->nstack)
		return asm_err_col(a, 1, ".end with unmatched block");
	struct asm_block b = a->stack[--a->nstack];
	if (b.type != BLK_ARRAY && a->last_was_end) {
		asm_padding_nop(a);
		a->last_was_end = false;
	} else if (b.type != BLK_ARRAY) {
		int op = last_op(a);
		size_t body = a->ncode - b.pos;
		if (ends_in_jump(op) ||
		    (b.type == BLK_FOR && (op == PICA_OP_BREAKC || op == PICA_OP_BREAK)) ||
		    body < (b.type != BLK_PROC ? 2u : 1u))
			asm_padding_nop(a);
	}
	switch (b.type) {
	case BLK_PROC:
		if (!ASM_PUSH(a, a->procs, a->nprocs, a->capprocs))
			return false;
		a->procs[a->nprocs++] = (struct asm_proc){ b.name, b.pos, a->ncode - b.pos };
		return true;
	case BLK_FOR:
		a->last_was_end = true;
		return patch_dst(a, b.pos, a->ncode - 1);   /* LOOP DST = last body word */
	case BLK_IF:
		a->last_was_end = true;
		if (!b.else_pos)
			return patch_dst(a, b.pos, a->ncode);
		if (a->ncode - b.else_pos > 0xFF)
			return asm_err_col(a, 1, "ELSE part of %zu words exceeds the 8-bit NUM field", a->ncode - b.else_pos);
		a->code[b.pos] = pica_word_set_num(a->code[b.pos], (uint32_t)(a->ncode - b.else_pos));
		return true;
	default:
		return end_array(a, &b);
	}
}

static int split_ws(char *s, char **out, int max);

static bool dir_alias(struct pica_asm *a, char *args)
{
	char *av[2];
	int n = split_ws(args, av, 2);
	if (n != 2)
		return asm_err(a, args, n < 0 ? "too many parameters: .alias name register"
		                               : "missing parameter: .alias name register");
	char *name = av[0], *reg = av[1];
	if (!asm_is_ident(name))
		return asm_err(a, name, "invalid alias name: '%s'", name);
	if (strchr("ovrcib", name[0]) && isdigit((unsigned char)name[1]))
		return asm_err(a, name, "cannot redefine register '%s'", name);
	struct asm_opnd o;
	if (!asm_parse_opnd(a, reg, false, &o))
		return false;
	return new_alias(a, name, name, o.cls, o.n, o.sw);
}

static int unified(char cls, int n)
{
	switch (cls) {
	case 'c': return 0x10 + n;
	case 'i': return 0x70 + n;
	case 'b': return 0x78 + n;
	default:  return n;
	}
}

static bool dvle_uniform(struct pica_asm *a, struct asm_dvle *e, const char *at, const char *name,
                         int first, int last)
{
	if (e->nunif >= ASM_MAX_UNIFORM)
		return asm_err(a, at, "too many uniforms in this DVLE: '%s'", name);
	if (!ASM_PUSH(a, e->unif, e->nunif, e->capunif))
		return false;
	char *nm = asm_strdup(a, name);
	if (!nm)
		return false;
	for (char *p = nm; *p; p++)
		if (*p == '$')
			*p = '.';    /* picasso writes '$' as '.' in the symbol table */
	e->unif[e->nunif++] = (struct shbin_uniform){ nm, 0, (uint16_t)first, (uint16_t)last };
	return true;
}

static bool dir_uniform(struct pica_asm *a, char *args, char cls)
{
	struct asm_dvle *e = asm_dvle(a);
	if (!e)
		return false;
	struct asm_ubundle *ub = asm_bundle(a, e);
	struct asm_ualloc *al = cls == 'c' ? &ub->f : cls == 'i' ? &ub->i : &ub->b;
	int base = cls == 'c' ? AR_C : cls == 'i' ? AR_I : AR_B;
	bool shared = !(e->is_gs && !e->compat_gs);
	char *av[64];
	int n = asm_split(args, ',', av, 64);
	if (n <= 0)
		return asm_err(a, args, n < 0 ? "too many uniforms in one directive" : "missing parameter");
	for (int k = 0; k < n; k++) {
		char *name = av[k];
		long size = 1;
		char *br = strchr(name, '[');
		if (br) {
			char *close = strchr(br, ']');
			if (!close || *asm_trim(close + 1))
				return asm_err(a, br, "missing closing bracket: '%s'", name);
			*close = 0;
			*br = 0;
			if (!asm_parse_int(a, asm_trim(br + 1), 1, 96, &size))
				return false;
			name = asm_trim(name);
		}
		if (!asm_is_ident(name))
			return asm_err(a, name, "invalid uniform name: '%s'", name);
		if (asm_find_alias(a, name))
			return asm_err(a, name, "identifier already used: '%s'", name);
		int pos = -1;
		for (size_t i = 0; shared && i < a->ngunif; i++) {
			struct asm_guniform *g = &a->gunif[i];
			if (strcmp(g->name, name))
				continue;
			if (g->type != cls)
				return asm_err(a, name, "mismatched uniform type: '%s'", name);
			if (g->size != size)
				return asm_err(a, name, "uniform '%s' previously declared as having size %d", name, g->size);
			pos = g->pos;
			break;
		}
		if (pos < 0) {
			pos = alloc_global(al, (int)size);
			if (pos < 0)
				return asm_err(a, name, "not enough uniform space: %s[%ld]", name, size);
			if (shared) {
				if (a->ngunif >= ASM_MAX_UNIFORM)
					return asm_err(a, name, "too many global uniforms: '%s'", name);
				if (!ASM_PUSH(a, a->gunif, a->ngunif, a->capgunif))
					return false;
				char *nm = asm_strdup(a, name);
				if (!nm)
					return false;
				a->gunif[a->ngunif++] = (struct asm_guniform){ nm, cls, pos, (int)size };
			}
		}
		int idx = pos - base;
		if (name[0] != '_' &&    /* private uniforms stay out of the table */
		    !dvle_uniform(a, e, name, name, unified(cls, idx), unified(cls, idx + (int)size - 1)))
			return false;
		if (!new_alias(a, name, name, cls, idx, ASM_SW_DEFAULT))
			return false;
	}
	return true;
}

/* "name(x, y, z, w)" -> name and four trimmed fields. */
static bool split_paren(struct pica_asm *a, char *args, char **name, char **v)
{
	char *open = strchr(args, '(');
	char *close = open ? strchr(open, ')') : NULL;
	if (!open || !close)
		return asm_err(a, args, "invalid syntax: expected name(x, y, z, w)");
	if (*asm_trim(close + 1))
		return asm_err(a, close + 1, "unexpected text after ')'");
	*open = 0;
	*close = 0;
	*name = asm_trim(args);
	int n = asm_split(open + 1, ',', v, 4);
	if (n != 4)
		return asm_err(a, open + 1, "expected 4 values in parentheses");
	return true;
}

static bool const_values(struct pica_asm *a, char cls, char **v, struct shbin_const *c)
{
	memset(c->data, 0, sizeof c->data);
	for (int k = 0; k < 4; k++) {
		if (cls == 'c') {
			float f;
			if (!asm_parse_float(a, v[k], &f))
				return false;
			c->data[k] = pica_f24_from_f32(f);
		} else {
			long x;
			if (!asm_parse_int(a, v[k], -128, 255, &x))
				return false;
			c->data[0] |= (uint32_t)(x & 0xFF) << (8 * k);
		}
	}
	return true;
}

static bool add_const(struct pica_asm *a, struct asm_dvle *e, const char *at, const struct shbin_const *c)
{
	if (e->nconsts >= ASM_MAX_CONST)
		return asm_err(a, at, "too many local constants");
	e->consts[e->nconsts++] = *c;
	return true;
}

static bool dir_const(struct pica_asm *a, char *args, char cls)
{
	struct asm_dvle *e = asm_dvle(a);
	char *name, *v[4];
	if (!e || !split_paren(a, args, &name, v))
		return false;
	if (!asm_is_ident(name))
		return asm_err(a, name, "invalid constant name: '%s'", name);
	if (asm_find_alias(a, name))
		return asm_err(a, name, "identifier already used: '%s'", name);
	struct asm_ubundle *ub = asm_bundle(a, e);
	int pos = alloc_local(cls == 'c' ? &ub->f : &ub->i, 1);
	if (pos < 0)
		return asm_err(a, name, "not enough space for local constant '%s'", name);
	int idx = pos - (cls == 'c' ? AR_C : AR_I);
	struct shbin_const c = { .type = cls == 'c' ? SHBIN_CONST_FVEC : SHBIN_CONST_IVEC, .reg = (uint16_t)idx };
	return const_values(a, cls, v, &c) && add_const(a, e, name, &c) &&
	       new_alias(a, name, name, cls, idx, ASM_SW_DEFAULT);
}

static bool dir_setfi(struct pica_asm *a, char *args, char cls)
{
	struct asm_dvle *e = asm_dvle(a);
	char *name, *v[4];
	struct asm_opnd o;
	if (!e || !split_paren(a, args, &name, v) || !asm_parse_opnd(a, name, false, &o))
		return false;
	if (o.cls != cls)
		return asm_err(a, name, "invalid %s: '%s'", cls == 'c' ? "floating point vector uniform" : "integer vector uniform", name);
	struct shbin_const c = { .type = cls == 'c' ? SHBIN_CONST_FVEC : SHBIN_CONST_IVEC, .reg = (uint16_t)o.n };
	return const_values(a, cls, v, &c) && add_const(a, e, name, &c);
}

static bool dir_setb(struct pica_asm *a, char *args)
{
	struct asm_dvle *e = asm_dvle(a);
	char *av[3];
	if (!e)
		return false;
	char *s = asm_trim(args), *reg = s;
	while (*s && !isspace((unsigned char)*s))
		s++;
	if (*s)
		*s++ = 0;
	av[0] = reg;
	av[1] = asm_trim(s);
	if (!*av[0] || !*av[1])
		return asm_err(a, args, "missing parameter: .setb register value");
	struct asm_opnd o;
	if (!asm_parse_opnd(a, av[0], false, &o))
		return false;
	if (o.cls != 'b')
		return asm_err(a, av[0], "invalid boolean uniform: '%s'", av[0]);
	bool val;
	if (!strcasecmp(av[1], "true") || !strcasecmp(av[1], "on") || !strcmp(av[1], "1"))
		val = true;
	else if (!strcasecmp(av[1], "false") || !strcasecmp(av[1], "off") || !strcmp(av[1], "0"))
		val = false;
	else
		return asm_err(a, av[1], "invalid bool value: '%s'", av[1]);
	struct shbin_const c = { .type = SHBIN_CONST_BOOL, .reg = (uint16_t)o.n, .data = { val } };
	return add_const(a, e, av[0], &c);
}

static bool dir_constfa(struct pica_asm *a, char *args)
{
	struct asm_dvle *e = asm_dvle(a);
	if (!e)
		return false;
	bool in_array = a->nstack && a->stack[a->nstack - 1].type == BLK_ARRAY;
	char *s = asm_trim(args);
	if (!in_array) {
		char *br = strchr(s, '[');
		char *close = br ? strchr(br, ']') : NULL;
		if (!br)
			return asm_err(a, s, "missing opening bracket: '%s'", s);
		if (!close)
			return asm_err(a, br, "missing closing bracket: '%s'", s);
		if (*asm_trim(close + 1))
			return asm_err(a, close + 1, "garbage found: '%s'", close + 1);
		*br = 0;
		*close = 0;
		char *size = asm_trim(br + 1);
		long n = -1;
		if (*size && !asm_parse_int(a, size, 1, PICA_NUM_C, &n))
			return false;
		char *name = asm_trim(s);
		if (!asm_is_ident(name))
			return asm_err(a, name, "invalid array name: '%s'", name);
		if (a->nstack == ASM_MAX_STACK)
			return asm_err(a, name, "too many nested blocks");
		a->arr_name = asm_strdup(a, name);
		if (!a->arr_name)
			return false;
		a->arr_size = (int)n;
		a->arr_n = 0;
		a->stack[a->nstack++] = (struct asm_block){ .type = BLK_ARRAY, .pos = a->ncode, .line = a->line };
		return true;
	}
	if ((a->arr_size >= 0 && a->arr_n == a->arr_size) || a->arr_n == PICA_NUM_C)
		return asm_err(a, s, "too many elements in the array, expected %d", a->arr_size);
	if (*s != '(')
		return asm_err(a, s, "invalid syntax: expected (x, y, z, w)");
	char *name, *v[4];
	if (!split_paren(a, s, &name, v))
		return false;
	struct shbin_const *c = &a->arr[a->arr_n];
	*c = (struct shbin_const){ .type = SHBIN_CONST_FVEC };
	if (!const_values(a, 'c', v, c))
		return false;
	a->arr_n++;
	return true;
}

/* The closing .end of a .constfa: zero-fill, place top-down, emit in order. */
static bool end_array(struct pica_asm *a, struct asm_block *b)
{
	(void)b;
	struct asm_dvle *e = asm_dvle(a);
	if (!e)
		return false;
	if (asm_find_alias(a, a->arr_name))
		return asm_err_col(a, 1, "identifier already used: '%s'", a->arr_name);
	int size = a->arr_n;
	for (; a->arr_size >= 0 && size < a->arr_size; size++)
		a->arr[size] = (struct shbin_const){ .type = SHBIN_CONST_FVEC };
	if (size == 0)
		return asm_err_col(a, 1, "no elements have been specified in array '%s'", a->arr_name);
	int pos = alloc_local(&asm_bundle(a, e)->f, size);
	if (pos < 0)
		return asm_err_col(a, 1, "not enough space for local constant array '%s'", a->arr_name);
	if (e->nconsts + (size_t)size > ASM_MAX_CONST)
		return asm_err_col(a, 1, "too many local constants");
	for (int i = 0; i < size; i++) {
		a->arr[i].reg = (uint16_t)(pos - AR_C + i);
		e->consts[e->nconsts++] = a->arr[i];
	}
	bool ok = new_alias(a, a->arr_name, a->arr_name, 'c', pos - AR_C, ASM_SW_DEFAULT);
	a->arr_n = 0;
	a->arr_size = -1;
	a->arr_name = NULL;
	return ok;
}

/* Whitespace-separated words (at most max). */
static int split_ws(char *s, char **out, int max)
{
	int n = 0;
	s = asm_trim(s);
	while (*s) {
		if (n == max)
			return -1;
		out[n++] = s;
		while (*s && !isspace((unsigned char)*s))
			s++;
		if (*s)
			*s++ = 0;
		while (isspace((unsigned char)*s))
			s++;
	}
	return n;
}

static bool dir_in(struct pica_asm *a, char *args)
{
	struct asm_dvle *e = asm_dvle(a);
	char *av[2];
	int n = split_ws(args, av, 2);
	if (!e)
		return false;
	if (n < 1 || n > 2)
		return asm_err(a, args, n == 0 ? "missing parameter" : "too many parameters");
	if (!asm_is_ident(av[0]))
		return asm_err(a, av[0], "invalid identifier: '%s'", av[0]);
	if (asm_find_alias(a, av[0]))
		return asm_err(a, av[0], "identifier already used: '%s'", av[0]);
	int v = -1;
	if (n == 2) {
		struct asm_opnd o;
		if (!asm_parse_opnd(a, av[1], false, &o))
			return false;
		if (o.cls != 'v' || o.n < 0 || o.n > 15)
			return asm_err(a, av[1], "invalid input register: '%s'", av[1]);
		v = o.n;
	} else {
		for (int i = 0; i < 16 && v < 0; i++)
			if (!(e->in_mask >> i & 1))
				v = i;
		if (v < 0)
			return asm_err(a, av[0], "too many inputs");
	}
	e->in_mask |= (uint16_t)(1u << v);
	return dvle_uniform(a, e, av[0], av[0], v, v) && new_alias(a, av[0], av[0], 'v', v, ASM_SW_DEFAULT);
}

static int out_type(const char *s)
{
	static const struct { const char *a, *b; int t; } names[] = {
		{ "pos", "position", 0 }, { "nquat", "normalquat", 1 }, { "clr", "color", 2 },
		{ "tcoord0", "texcoord0", 3 }, { "tcoord0w", "texcoord0w", 4 },
		{ "tcoord1", "texcoord1", 5 }, { "tcoord2", "texcoord2", 6 },
		{ "view", "view", 8 }, { "dummy", "dummy", 9 },
	};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (!strcasecmp(s, names[i].a) || !strcasecmp(s, names[i].b))
			return names[i].t;
	return -1;
}

static bool dir_out(struct pica_asm *a, char *args)
{
	struct asm_dvle *e = asm_dvle(a);
	char *av[3];
	int n = split_ws(args, av, 3);
	if (!e)
		return false;
	if (n < 0)
		return asm_err(a, args, "too many parameters");
	if (n < 2)
		return asm_err(a, args, "missing parameter: .out name property [register]");
	char *name = strcmp(av[0], "-") ? av[0] : NULL;
	if (name && !asm_is_ident(name))
		return asm_err(a, name, "invalid identifier: '%s'", name);
	int oid = -1, max = e->is_gs ? 7 : 16;
	unsigned sw = ASM_SW_DEFAULT;
	if (n == 3) {
		struct asm_opnd o;
		if (!asm_parse_opnd(a, av[2], false, &o))
			return false;
		if (o.cls != 'o' || o.n >= max)
			return asm_err(a, av[2], "invalid output register: '%s'", av[2]);
		oid = o.n;
		sw = o.sw;
	} else {
		char *dot = strchr(av[1], '.');
		if (dot) {
			*dot = 0;
			int b = asm_parse_swizzle(dot + 1);
			if (b < 0)
				return asm_err(a, dot + 1, "invalid output mask: '%s'", dot + 1);
			sw = (unsigned)b << 1;
		}
	}
	uint8_t mask = asm_mask_from_sw(sw, false);   /* output table: x = bit 0 */
	int type = out_type(av[1]);
	if (type < 0)
		return asm_err(a, av[1], "invalid output type: '%s'", av[1]);
	if (oid < 0) {
		for (int i = 0; i < max && oid < 0; i++)
			if (!(e->out_mask >> i & 1))
				oid = i;
	} else if (e->out_used & ((uint64_t)mask << (4 * oid))) {
		return asm_err(a, av[2], "this output collides with another one previously defined");
	}
	if (oid < 0 || e->nouts == ASM_MAX_OUTPUT)
		return asm_err(a, av[1], "too many outputs");
	if (name && asm_find_alias(a, name))
		return asm_err(a, name, "identifier already used: '%s'", name);
	if (oid >= 7 && type != SHBIN_OUT_DUMMY)
		return asm_err(a, av[1], "this register (o%d) can only be a dummy output", oid);
	e->outs[e->nouts++] = (struct shbin_output){ (uint16_t)type, (uint16_t)oid, mask, 0 };
	e->out_mask |= (uint16_t)(1u << oid);
	e->out_used |= (uint64_t)mask << (4 * oid);
	if (type == SHBIN_OUT_DUMMY && e->is_gs && !e->compat_gs)
		e->merge = true;
	return !name || new_alias(a, name, name, 'o', oid, ASM_SW_DEFAULT);
}

static bool dir_entry(struct pica_asm *a, char *args)
{
	struct asm_dvle *e = asm_dvle(a);
	char *name = asm_trim(args);
	if (!e)
		return false;
	if (!asm_is_ident(name))
		return asm_err(a, name, "invalid identifier: '%s'", name);
	e->entry = asm_strdup(a, name);
	return e->entry != NULL;
}

static bool dir_nodvle(struct pica_asm *a, char *args)
{
	struct asm_dvle *e = asm_dvle(a);
	if (!e || !no_args(a, args))
		return false;
	e->nodvle = true;
	return true;
}

static bool gsh_creg(struct pica_asm *a, char *s, int *flat)
{
	struct asm_opnd o;
	if (!asm_parse_opnd(a, s, false, &o))
		return false;
	if (o.cls != 'c')
		return asm_err(a, s, "invalid float uniform register: '%s'", s);
	*flat = AR_C + o.n;
	return true;
}

static bool dir_gsh(struct pica_asm *a, char *args)
{
	struct asm_dvle *e = asm_dvle(a);
	char *av[5];
	int n = split_ws(args, av, 5);
	if (!e)
		return false;
	if (n == 0) {          /* legacy form: GS sharing the VS uniform space */
		e->is_gs = true;
		e->compat_gs = true;
		return true;
	}
	if (e->is_gs)
		return asm_err(a, args, ".gsh had already been used");
	if (e->nconsts || e->nunif || e->out_mask)
		return asm_err(a, args, ".gsh must be used before any constant, uniform or output is declared");
	int mode = -1, want = 0;
	if (!strcasecmp(av[0], "point"))
		mode = SHBIN_GS_POINT, want = 2;
	else if (!strcasecmp(av[0], "variable") || !strcasecmp(av[0], "subdivision"))
		mode = SHBIN_GS_VARIABLE, want = 3;
	else if (!strcasecmp(av[0], "fixed") || !strcasecmp(av[0], "particle"))
		mode = SHBIN_GS_FIXED, want = 4;
	if (mode < 0)
		return asm_err(a, av[0], "invalid geometry shader mode: '%s'", av[0]);
	if (n != want)
		return asm_err(a, av[0], n < 0 || n > want ? "too many parameters" : "missing parameter");
	int first;
	if (!gsh_creg(a, av[1], &first))
		return false;
	e->is_gs = true;
	e->gs_mode = (uint8_t)mode;
	a->bundle[1] = (struct asm_ubundle){ { first, 0x80, 0x80, 0x80 }, { AR_I, 0x84, 0x84, 0x84 },
	                                     { AR_B, 0x97, 0x97, 0x97 } };   /* b15 is reserved in a GS */
	long num;
	if (mode == SHBIN_GS_VARIABLE) {
		if (!asm_parse_int(a, av[2], 0, 255, &num))
			return false;
		e->var_num = (uint8_t)num;
	} else if (mode == SHBIN_GS_FIXED) {
		int start;
		if (!gsh_creg(a, av[2], &start) || !asm_parse_int(a, av[3], 0, 255, &num))
			return false;
		if (start >= first)
			return asm_err(a, av[2], "specified location overlaps uniform allocation pool: '%s'", av[2]);
		e->fixed_start = (uint8_t)(start - AR_C);
		e->fixed_num = (uint8_t)num;
	}
	return true;
}

bool asm_directive(struct pica_asm *a, char *name, char *args)
{
	const char *d = name + 1;
	if (!strcasecmp(d, "proc"))     return dir_proc(a, args);
	if (!strcasecmp(d, "else"))     return dir_else(a, args);
	if (!strcasecmp(d, "end"))      return dir_end(a, args);
	if (!strcasecmp(d, "alias"))    return dir_alias(a, args);
	if (!strcasecmp(d, "fvec"))     return dir_uniform(a, args, 'c');
	if (!strcasecmp(d, "ivec"))     return dir_uniform(a, args, 'i');
	if (!strcasecmp(d, "bool"))     return dir_uniform(a, args, 'b');
	if (!strcasecmp(d, "constf"))   return dir_const(a, args, 'c');
	if (!strcasecmp(d, "consti"))   return dir_const(a, args, 'i');
	if (!strcasecmp(d, "constfa"))  return dir_constfa(a, args);
	if (!strcasecmp(d, "in"))       return dir_in(a, args);
	if (!strcasecmp(d, "out"))      return dir_out(a, args);
	if (!strcasecmp(d, "entry"))    return dir_entry(a, args);
	if (!strcasecmp(d, "nodvle"))   return dir_nodvle(a, args);
	if (!strcasecmp(d, "gsh"))      return dir_gsh(a, args);
	if (!strcasecmp(d, "setf"))     return dir_setfi(a, args, 'c');
	if (!strcasecmp(d, "seti"))     return dir_setfi(a, args, 'i');
	if (!strcasecmp(d, "setb"))     return dir_setb(a, args);
	return asm_err(a, name, "invalid directive: '%s'", name);
}
