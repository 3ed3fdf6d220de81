/* PICA200 assembler driver: lines, labels, per-file state, linking, and the
 * SHBIN model it produces. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "isa/pica/pica_asm_int.h"

static const struct asm_ubundle BUNDLE_INIT = {
	{ AR_C, 0x80, 0x80, 0x80 }, { AR_I, 0x84, 0x84, 0x84 }, { AR_B, AR_END, AR_END, AR_END },
};

static void free_asm(struct pica_asm *a)
{
	for (size_t i = 0; i < a->nstrings; i++)
		free(a->strings[i]);
	for (size_t i = 0; i < a->ndvles; i++) {
		free(a->dvles[i]->unif);
		free(a->dvles[i]);
	}
	free(a->strings);
	free(a->dvles);
	free(a->code);
	free(a->procs);
	free(a->prelocs);
	free(a->gunif);
	free(a->labels);
	free(a->lrelocs);
	free(a->aliases);
	free(a);
}

static void begin_file(struct pica_asm *a, const char *path)
{
	a->file = path;
	a->line = 0;
	a->line_start = NULL;
	a->cur = NULL;
	a->nlabels = a->nlrelocs = a->naliases = 0;
	a->nstack = 0;
	a->arr_n = 0;
	a->arr_size = -1;
	a->arr_name = NULL;
	a->last_was_end = false;
	/* constants are per file: the shared space's top-down part restarts */
	a->bundle[0].f.end = a->bundle[0].f.tend;
	a->bundle[0].i.end = a->bundle[0].i.tend;
	a->bundle[0].b.end = a->bundle[0].b.tend;
}

static bool add_label(struct pica_asm *a, char *name)
{
	if (!asm_is_ident(name))
		return asm_err(a, name, "invalid label name: '%s'", name);
	for (size_t i = 0; i < a->nlabels; i++)
		if (!strcmp(a->labels[i].name, name))
			return asm_err(a, name, "duplicate label: '%s'", name);
	if (!ASM_PUSH(a, a->labels, a->nlabels, a->caplabels))
		return false;
	char *nm = asm_strdup(a, name);
	if (!nm)
		return false;
	a->labels[a->nlabels++] = (struct asm_label){ nm, a->ncode };
	return true;
}

/* "# 12 "file"" line markers from a C preprocessor. */
static bool line_marker(struct pica_asm *a, char *s)
{
	s = asm_trim(s + 1);
	char *end;
	long n = strtol(s, &end, 10);
	if (end == s || n < 1 || n > 100000000)
		return asm_err(a, s, "invalid line marker");
	a->line = (int)n - 1;
	s = asm_trim(end);
	if (*s == '"') {
		s++;
		char *q = strchr(s, '"');
		if (q)
			*q = 0;
	}
	if (*s) {
		const char *f = asm_strdup(a, s);
		if (!f)
			return false;
		a->file = f;
	}
	return true;
}

static bool do_line(struct pica_asm *a, char *s)
{
	char *semi = strchr(s, ';');
	if (semi)
		*semi = 0;
	s = asm_trim(s);
	for (char *colon; (colon = strchr(s, ':')) != NULL;) {
		*colon = 0;
		if (!add_label(a, asm_trim(s)))
			return false;
		s = asm_trim(colon + 1);
	}
	if (!*s)
		return true;
	a->stmt_col = asm_col(a, s);
	if (*s == '#')
		return line_marker(a, s);
	char *args = s;
	while (*args && !isspace((unsigned char)*args))
		args++;
	if (*args)
		*args++ = 0;
	if (*s == '.')
		return asm_directive(a, s, args);
	return asm_instruction(a, s, args);
}

static bool fix_labels(struct pica_asm *a)
{
	for (size_t i = 0; i < a->nlrelocs; i++) {
		struct asm_reloc *r = &a->lrelocs[i];
		size_t k = 0;
		while (k < a->nlabels && strcmp(a->labels[k].name, r->name))
			k++;
		if (k == a->nlabels)
			return ulp_diag_at(a->d, r->file, r->line, r->col, "label '%s' is undefined", r->name);
		if (a->labels[k].pos >= PICA_CODE_MAX)
			return ulp_diag_at(a->d, r->file, r->line, r->col, "label '%s' lies outside the code memory", r->name);
		a->code[r->pos] = pica_word_set_target(a->code[r->pos], (uint32_t)a->labels[k].pos);
	}
	return true;
}

static bool assemble_file(struct pica_asm *a, const struct pica_asm_file *f)
{
	begin_file(a, f->path);
	char *buf = malloc(f->len + 1);
	if (!buf)
		return ulp_diag_at(a->d, f->path, 0, 0, "out of memory");
	memcpy(buf, f->text, f->len);
	buf[f->len] = 0;
	bool ok = true;
	for (char *s = buf; ok && s;) {
		char *nl = strchr(s, '\n');
		if (nl)
			*nl = 0;
		a->line++;
		a->line_start = s;
		a->stmt_col = 1;
		ok = do_line(a, s);
		s = nl ? nl + 1 : NULL;
	}
	a->line_start = NULL;
	if (ok && a->nstack) {
		struct asm_block *b = &a->stack[a->nstack - 1];
		static const char *const kind[] = { ".proc", "for", "if", ".constfa" };
		ok = ulp_diag_at(a->d, a->file, b->line, 0, "unclosed block: %s opened here has no .end", kind[b->type]);
	}
	if (ok)
		ok = fix_labels(a);
	free(buf);
	return ok;
}

static const struct asm_proc *find_proc(const struct pica_asm *a, const char *name)
{
	for (size_t i = 0; i < a->nprocs; i++)
		if (!strcmp(a->procs[i].name, name))
			return &a->procs[i];
	return NULL;
}

static bool link_procs(struct pica_asm *a)
{
	for (size_t i = 0; i < a->nprelocs; i++) {
		struct asm_reloc *r = &a->prelocs[i];
		const struct asm_proc *p = find_proc(a, r->name);
		if (!p)
			return ulp_diag_at(a->d, r->file, r->line, r->col, "procedure '%s' is undefined", r->name);
		if (p->size > 0xFF)
			return ulp_diag_at(a->d, r->file, r->line, r->col,
			                   "procedure '%s' is %zu words long; CALL's NUM field holds at most 255", r->name, p->size);
		a->code[r->pos] = pica_word_set_num(pica_word_set_target(a->code[r->pos], (uint32_t)p->pos),
		                                    (uint32_t)p->size);
	}
	size_t live = 0;
	for (size_t i = 0; i < a->ndvles; i++) {
		struct asm_dvle *e = a->dvles[i];
		if (e->nodvle)
			continue;
		live++;
		const struct asm_proc *p = find_proc(a, e->entry);
		if (!p)
			return ulp_diag_at(a->d, e->file, 1, 0, "entrypoint '%s' is undefined", e->entry);
		e->main = (uint32_t)p->pos;
		e->endmain = (uint32_t)(p->pos + p->size);
	}
	if (!live)
		return ulp_diag_at(a->d, a->file, 0, 0, "no DVLEs can be generated from the given input file(s)");
	return true;
}

static int cmp_uniform(const void *x, const void *y)
{
	const struct shbin_uniform *u = x, *v = y;
	if (u->first != v->first)
		return u->first < v->first ? -1 : 1;
	return u->sym_off < v->sym_off ? -1 : u->sym_off > v->sym_off;
}

static bool build(struct pica_asm *a, struct shbin *out)
{
	memset(out, 0, sizeof *out);
	out->code = malloc((a->ncode ? a->ncode : 1) * sizeof *out->code);
	out->opdesc = malloc(((size_t)a->ndesc + 1) * sizeof *out->opdesc);
	out->dvle = calloc(a->ndvles, sizeof *out->dvle);
	if (!out->code || !out->opdesc || !out->dvle)
		goto oom;
	if (a->ncode)           /* a program of no code has no array (memcpy from NULL is UB) */
		memcpy(out->code, a->code, a->ncode * sizeof *out->code);
	if (a->ndesc)
		memcpy(out->opdesc, a->desc, (size_t)a->ndesc * sizeof *out->opdesc);
	out->ncode = a->ncode;
	out->nopdesc = (size_t)a->ndesc;
	for (size_t i = 0; i < a->ndvles; i++) {
		const struct asm_dvle *e = a->dvles[i];
		if (e->nodvle)
			continue;
		struct shbin_dvle *o = &out->dvle[out->ndvle++];
		o->version = 0x1002;
		o->type = e->is_gs ? SHBIN_GS : SHBIN_VS;
		o->merge = e->merge;
		o->main = e->main;
		o->endmain = e->endmain;
		o->input_mask = e->in_mask;
		o->output_mask = e->out_mask;
		o->gs_mode = e->gs_mode;
		o->gs_fixed_start = e->fixed_start;
		o->gs_variable_num = e->var_num;
		o->gs_fixed_num = e->fixed_num;
		o->consts = calloc(e->nconsts + 1, sizeof *o->consts);
		o->outputs = calloc(e->nouts + 1, sizeof *o->outputs);
		o->uniforms = calloc(e->nunif + 1, sizeof *o->uniforms);
		o->labels = calloc(1, sizeof *o->labels);
		if (!o->consts || !o->outputs || !o->uniforms || !o->labels)
			goto oom;
		memcpy(o->consts, e->consts, e->nconsts * sizeof *o->consts);
		o->nconsts = e->nconsts;
		memcpy(o->outputs, e->outs, e->nouts * sizeof *o->outputs);
		o->noutputs = e->nouts;
		for (size_t k = 0; k < e->nunif; k++) {
			o->uniforms[k] = e->unif[k];
			o->uniforms[k].sym_off = (uint32_t)k;     /* declaration order breaks ties */
			o->uniforms[k].name = strdup(e->unif[k].name);
			if (!o->uniforms[k].name)
				goto oom;
			o->nuniforms++;
		}
		/* the table is sorted by register (corpus README "Uniforms") */
		qsort(o->uniforms, o->nuniforms, sizeof *o->uniforms, cmp_uniform);
		uint32_t so = 0;
		for (size_t k = 0; k < o->nuniforms; k++) {
			o->uniforms[k].sym_off = so;
			so += (uint32_t)strlen(o->uniforms[k].name) + 1;
		}
	}
	return true;
oom:
	shbin_free(out);
	return ulp_diag_at(a->d, "", 0, 0, "out of memory");
}

bool pica_assemble(const struct pica_asm_file *files, size_t n,
                   const struct pica_asm_opts *opts, struct shbin *out, ulp_diag *d)
{
	memset(out, 0, sizeof *out);
	if (n == 0)
		return ulp_diag_at(d, "", 0, 0, "no input files");
	struct pica_asm *a = calloc(1, sizeof *a);
	if (!a)
		return ulp_diag_at(d, "", 0, 0, "out of memory");
	a->d = d;
	a->auto_nop = !(opts && opts->no_nop);
	a->bundle[0] = a->bundle[1] = BUNDLE_INIT;
	bool ok = true;
	for (size_t i = 0; ok && i < n; i++)
		ok = assemble_file(a, &files[i]);
	ok = ok && link_procs(a) && build(a, out);
	free_asm(a);
	return ok;
}
