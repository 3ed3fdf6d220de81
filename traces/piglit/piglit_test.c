/* piglit test folders: test.txt ([test] commands, [vertex data], ARB
 * program text), meta.json (nir_vars), vs.tgsi and fs.tgsi. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fileio.h"
#include "base/json.h"
#include "traces/piglit/piglit.h"

static const char TEST_MARK[] = "==== piglit [test] section (verbatim) ====";
static const char ORIG_MARK[] = "==== original piglit file";

/* ---- small text helpers ---- */

/* Splits s into tokens at blanks, commas, parentheses and semicolons (in
 * place; shader_runner reads numbers with strtod, so `uniform float i 2.0;`
 * and `(0.2, 0.2, 0.2, 1.0);` end where the number does). */
static unsigned tokenize(char *s, char **tok, unsigned max)
{
	unsigned n = 0;
	char *p = s;
	while (*p) {
		while (*p && (isspace((unsigned char)*p) || *p == ',' || *p == '(' || *p == ')' || *p == ';'))
			*p++ = '\0';
		if (!*p)
			break;
		if (n < max)
			tok[n++] = p;
		while (*p && !(isspace((unsigned char)*p) || *p == ',' || *p == '(' || *p == ')' || *p == ';'))
			p++;
	}
	return n;
}

static bool num(const char *s, float *out)
{
	char *end;
	double v = strtod(s, &end);
	if (end == s || *end)
		return false;
	*out = (float)v;
	return true;
}

/* Numbers tok[from..n) into c->v; false if any is not a number. */
static bool nums(pg_cmd *c, char **tok, unsigned from, unsigned n)
{
	c->nv = 0;
	for (unsigned i = from; i < n; i++) {
		if (c->nv >= PG_MAX_VALS || !num(tok[i], &c->v[c->nv]))
			return false;
		c->nv++;
	}
	return true;
}

static void copy(char *dst, size_t n, const char *src)
{
	size_t l = strlen(src);
	if (l >= n)
		l = n - 1;
	memcpy(dst, src, l);
	dst[l] = '\0';
}

static bool eq(const char *a, const char *b)
{
	return strcmp(a, b) == 0;
}

/* One [test] line (comment stripped, not blank) into c.  Unknown or
 * malformed commands become PG_UNSUPPORTED with c->text saying so. */
static void parse_line(pg_cmd *c, char *line)
{
	char *tok[40];
	char buf[1024];
	copy(buf, sizeof buf, line);
	unsigned n = tokenize(buf, tok, 40);
	c->kind = PG_UNSUPPORTED;
	if (n == 0)
		return;
	const char *t0 = tok[0], *t1 = n > 1 ? tok[1] : "", *t2 = n > 2 ? tok[2] : "";
	if (eq(t0, "clear") && n == 1) {
		c->kind = PG_CLEAR;
	} else if (eq(t0, "clear") && eq(t1, "color") && nums(c, tok, 2, n) && c->nv == 4) {
		c->kind = PG_CLEAR_COLOR;
	} else if (eq(t0, "clear") && eq(t1, "depth") && nums(c, tok, 2, n) && c->nv == 1) {
		c->kind = PG_CLEAR_DEPTH;
	} else if (eq(t0, "ortho") && nums(c, tok, 1, n) && (c->nv == 0 || c->nv == 4 || c->nv == 6)) {
		c->kind = PG_ORTHO;
	} else if (eq(t0, "frustum") && nums(c, tok, 1, n) && c->nv == 6) {
		c->kind = PG_FRUSTUM;
	} else if (eq(t0, "uniform") && n >= 4 && nums(c, tok, 3, n)) {
		c->kind = PG_UNIFORM;
		copy(c->arg, sizeof c->arg, t1);
		copy(c->name, sizeof c->name, t2);
	} else if (eq(t0, "parameter") && n == 7 && nums(c, tok, 3, n) &&
	           (eq(t1, "env_vp") || eq(t1, "local_vp") || eq(t1, "env_fp") || eq(t1, "local_fp"))) {
		float u;
		if (num(t2, &u) && u >= 0 && u < 96 && (float)(int)u == u) {
			c->kind = PG_PARAMETER;
			c->unit = (int)u;
			copy(c->name, sizeof c->name, t1);
		}
	} else if (eq(t0, "draw") && eq(t1, "rect")) {
		unsigned k = 2;
		for (; k < n; k++) {
			if (eq(tok[k], "ortho"))
				c->ortho = true;
			else if (eq(tok[k], "tex"))
				c->tex = true;
			else
				break;
		}
		if (nums(c, tok, k, n) && c->nv == (c->tex ? 8u : 4u))
			c->kind = PG_DRAW_RECT;
	} else if (eq(t0, "draw") && eq(t1, "arrays") && n == 5 && nums(c, tok, 3, n)) {
		c->prim = eq(t2, "GL_TRIANGLES") ? 0 : eq(t2, "GL_TRIANGLE_STRIP") ? 1
		        : eq(t2, "GL_TRIANGLE_FAN") ? 2 : eq(t2, "GL_POINTS") ? 3 : eq(t2, "GL_LINES") ? 4
		        : eq(t2, "GL_LINE_STRIP") ? 5 : eq(t2, "GL_LINE_LOOP") ? 6 : -1;
		if (c->prim >= 0 && c->v[0] >= 0 && c->v[1] >= 0)
			c->kind = PG_DRAW_ARRAYS;
	} else if (eq(t0, "texture") && n >= 3) {
		/* texture KIND [1D|2D|3D] UNIT (sizes) [colours] */
		unsigned k = 2;
		copy(c->name, sizeof c->name, t1);
		copy(c->arg, sizeof c->arg, "2D");
		if (eq(tok[k], "1D") || eq(tok[k], "2D") || eq(tok[k], "3D"))
			copy(c->arg, sizeof c->arg, tok[k++]);
		float u;
		if (k < n && num(tok[k], &u) && u >= 0 && u < PG_MAX_UNITS && (float)(int)u == u &&
		    nums(c, tok, k + 1, n)) {
			c->unit = (int)u;
			c->kind = PG_TEXTURE;
		}
	} else if (eq(t0, "texparameter") && n == 4) {
		c->kind = PG_TEXPARAM;
		copy(c->arg, sizeof c->arg, t1);
		copy(c->name, sizeof c->name, t2);
		copy(c->value, sizeof c->value, tok[3]);
	} else if ((eq(t0, "enable") || eq(t0, "disable")) && n == 2) {
		c->kind = eq(t0, "enable") ? PG_ENABLE : PG_DISABLE;
		copy(c->name, sizeof c->name, t1);
	} else if (eq(t0, "shade") && eq(t1, "model") && n == 3 &&
	           (eq(t2, "flat") || eq(t2, "smooth"))) {
		c->kind = PG_SHADE_MODEL;
		copy(c->name, sizeof c->name, t2);
	} else if (eq(t0, "clip") && eq(t1, "plane") && nums(c, tok, 2, n) && c->nv == 5 &&
	           c->v[0] >= 0 && c->v[0] < 8) {
		c->kind = PG_CLIP_PLANE;
		c->unit = (int)c->v[0];
		memmove(c->v, c->v + 1, 4 * sizeof c->v[0]);
		c->nv = 4;
	} else if (eq(t0, "texcoord") && nums(c, tok, 1, n) && c->nv == 5 && c->v[0] >= 0 &&
	           c->v[0] < 8) {
		c->kind = PG_TEXCOORD;
		c->unit = (int)c->v[0];
		memmove(c->v, c->v + 1, 4 * sizeof c->v[0]);
		c->nv = 4;
	} else if (eq(t0, "color") && nums(c, tok, 1, n) && c->nv == 4) {
		c->kind = PG_COLOR;
	} else if (eq(t0, "link") && n == 2 && (eq(t1, "success") || eq(t1, "error"))) {
		/* the corpus holds programs Mesa linked: success is what they are */
		c->kind = eq(t1, "success") ? PG_NOP : PG_LINK_ERROR;
	} else if (eq(t0, "hint") && n == 3) {
		c->kind = PG_NOP;   /* glHint: a hint, no required behaviour */
	} else if (eq(t0, "light") && n == 8 && eq(tok[3], "float") && nums(c, tok, 4, n) &&
	           num(t1, &c->v[4]) && c->v[4] >= 0 && c->v[4] < 8 && (float)(int)c->v[4] == c->v[4] &&
	           (eq(t2, "GL_AMBIENT") || eq(t2, "GL_DIFFUSE") || eq(t2, "GL_SPECULAR") ||
	            eq(t2, "GL_POSITION"))) {
		c->kind = PG_LIGHT;
		c->unit = (int)c->v[4];
		copy(c->name, sizeof c->name, t2);
	} else if (eq(t0, "probe") || (eq(t0, "relative") && eq(t1, "probe"))) {
		unsigned k = 1;
		if (eq(t0, "relative")) {
			c->relative = true;
			k = 2;
		}
		if (k < n && eq(tok[k], "warn")) {   /* probe warn ...: the same probe */
			c->warn = true;
			k++;
		}
		const char *w = k < n ? tok[k] : "";
		if (eq(w, "all") && k + 1 < n) {
			c->probe = PG_PROBE_ALL;
			c->rgba = eq(tok[k + 1], "rgba");
			/* shader_runner reads the first 3 (rgb) or 4 (rgba) numbers */
			if ((c->rgba || eq(tok[k + 1], "rgb")) && nums(c, tok, k + 2, n) &&
			    (c->rgba ? c->nv == 4 : (c->nv == 3 || c->nv == 4)))
				c->kind = PG_PROBE;
		} else if (eq(w, "rect") && k + 1 < n) {
			c->probe = PG_PROBE_RECT;
			c->rgba = eq(tok[k + 1], "rgba");
			if ((c->rgba || eq(tok[k + 1], "rgb")) && nums(c, tok, k + 2, n) &&
			    c->nv == (c->rgba ? 8u : 7u))
				c->kind = PG_PROBE;
		} else if (eq(w, "depth")) {
			c->probe = PG_PROBE_DEPTH;
			if (nums(c, tok, k + 1, n) && c->nv == 3)
				c->kind = PG_PROBE;
		} else if (eq(w, "rgb") || eq(w, "rgba")) {
			c->probe = PG_PROBE_PIXEL;
			c->rgba = eq(w, "rgba");
			/* shader_runner reads the numbers it needs; extra ones are ignored */
			if (nums(c, tok, k + 1, n) && (c->nv == (c->rgba ? 6u : 5u) ||
			                               (!c->rgba && c->nv == 6)))
				c->kind = PG_PROBE;
		}
	}
	copy(c->text, sizeof c->text, line);
}

static bool pg_parse_commands(pg_test *t, const char *text, const char *file, ulp_diag *d)
{
	(void)d;
	(void)file;
	const char *p = text;
	int line = 1;
	bool in_test = false;
	while (*p) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		char buf[1024];
		if (len >= sizeof buf)
			len = sizeof buf - 1;
		memcpy(buf, p, len);
		buf[len] = '\0';
		char *hash = strchr(buf, '#');
		if (hash)
			*hash = '\0';
		char *s = buf;
		while (isspace((unsigned char)*s))
			s++;
		size_t sl = strlen(s);
		while (sl && isspace((unsigned char)s[sl - 1]))
			s[--sl] = '\0';
		if (*s == '[') {
			in_test = strcmp(s, "[test]") == 0;
		} else if (*s && in_test) {
			if (t->ncmds % 64 == 0) {
				pg_cmd *nc = realloc(t->cmds, (t->ncmds + 64) * sizeof *nc);
				if (!nc)
					return ulp_diag_at(d, file, line, 0, "out of memory");
				t->cmds = nc;
			}
			pg_cmd *c = &t->cmds[t->ncmds++];
			memset(c, 0, sizeof *c);
			c->line = line;
			parse_line(c, s);
		}
		if (!e)
			break;
		p = e + 1;
		line++;
	}
	return true;
}

/* ---- the original file: [vertex data] and ARB programs ---- */

/* A malloc'd copy of section `name` of the original file (NULL: none). */
static char *section(const char *orig, const char *name)
{
	size_t nl = strlen(name);
	const char *p = orig;
	while (p && *p) {
		if (strncmp(p, name, nl) == 0) {
			const char *b = strchr(p, '\n');
			if (!b)
				return NULL;
			b++;
			const char *e = b;
			while (*e && !(*e == '[' && (e == b || e[-1] == '\n')))
				e++;
			char *s = malloc((size_t)(e - b) + 1);
			if (!s)
				return NULL;
			memcpy(s, b, (size_t)(e - b));
			s[e - b] = '\0';
			return s;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return NULL;
}

static bool parse_vdata(pg_vdata *v, char *text, const char *file, int line0, ulp_diag *d)
{
	char *save = NULL;
	bool header = true;
	int line = line0;
	for (char *ln = strtok_r(text, "\n", &save); ln; ln = strtok_r(NULL, "\n", &save), line++) {
		char *hash = strchr(ln, '#');
		if (hash)
			*hash = '\0';
		char *tok[64];
		unsigned n = tokenize(ln, tok, 64);
		if (!n)
			continue;
		if (header) {
			if (n > 16)
				return ulp_diag_at(d, file, line, 0, "[vertex data]: more than 16 columns");
			for (unsigned i = 0; i < n; i++) {
				char *s1 = strchr(tok[i], '/');
				char *s2 = s1 ? strchr(s1 + 1, '/') : NULL;
				if (!s1 || !s2)
					return ulp_diag_at(d, file, line, 0,
					                   "[vertex data]: column '%s' is not name/type/count", tok[i]);
				*s1 = '\0';
				long cnt = strtol(s2 + 1, NULL, 10);
				/* int/uint columns (glVertexAttribIPointer, GL 3.0) hold their
				 * values as numbers too */
				if ((strncmp(s1 + 1, "float", 5) != 0 && strncmp(s1 + 1, "int", 3) != 0 &&
				     strncmp(s1 + 1, "uint", 4) != 0) || cnt < 1 || cnt > 4)
					return ulp_diag_at(d, file, line, 0,
					                   "[vertex data]: column '%s': only float, int or uint/1..4 is "
					                   "supported", tok[i]);
				copy(v->names[i], sizeof v->names[i], tok[i]);
				v->comps[i] = (unsigned)cnt;
				v->first[i] = v->stride;
				v->stride += (unsigned)cnt;
			}
			v->ncols = n;
			header = false;
			continue;
		}
		if (n != v->stride)
			return ulp_diag_at(d, file, line, 0, "[vertex data]: %u values, expected %u", n, v->stride);
		float *r = realloc(v->rows, (size_t)(v->nrows + 1) * v->stride * sizeof *r);
		if (!r)
			return ulp_diag_at(d, file, line, 0, "out of memory");
		v->rows = r;
		for (unsigned i = 0; i < n; i++)
			if (!num(tok[i], &r[(size_t)v->nrows * v->stride + i]))
				return ulp_diag_at(d, file, line, 0, "[vertex data]: '%s' is not a number", tok[i]);
		v->nrows++;
	}
	return true;
}

/* ---- meta.json nir_vars ---- */

static bool parse_var(pg_var *v, const char *line)
{
	/* decl_var KIND [qualifiers] TYPE NAME (LOC, DRIVER_LOC, BINDING)[ = {init}] */
	memset(v, 0, sizeof *v);
	char buf[4096];
	copy(buf, sizeof buf, line);
	char *init = strstr(buf, " = ");
	if (init)
		*init = '\0';
	char *paren = strrchr(buf, '(');
	if (!paren || paren == buf || strncmp(buf, "decl_var ", 9) != 0)
		return false;
	*paren = '\0';
	char *kind = buf + 9;
	if (!strncmp(kind, "uniform ", 8))
		v->kind = PG_VAR_UNIFORM;
	else if (!strncmp(kind, "shader_in ", 10))
		v->kind = PG_VAR_IN;
	else if (!strncmp(kind, "shader_out ", 11))
		v->kind = PG_VAR_OUT;
	else
		return false;
	/* location fields */
	char locs[256];
	copy(locs, sizeof locs, paren + 1);
	char *f[3] = { locs, NULL, NULL };
	for (int k = 1; k < 3; k++) {
		f[k] = f[k - 1] ? strchr(f[k - 1], ',') : NULL;
		if (f[k])
			*f[k]++ = '\0';
	}
	if (!f[1])
		return false;
	char *dot = strchr(f[0], '.');
	if (dot)
		*dot = '\0';
	copy(v->location, sizeof v->location, f[0]);
	v->driver_location = (int)strtol(f[1], NULL, 10);
	/* name: after the last space before '(' (the text ends with one space) */
	size_t l = strlen(buf);
	if (l < 2 || buf[l - 1] != ' ')
		return false;
	buf[--l] = '\0';
	char *sp = strrchr(buf, ' ');
	if (!sp)
		return false;
	char *name = sp + 1;
	char *at = strchr(name, '@');
	if (at)
		*at = '\0';
	copy(v->name, sizeof v->name, name);
	*sp = '\0';
	char *tsp = strrchr(buf, ' ');
	char *type = tsp ? tsp + 1 : buf;
	char *br = strchr(type, '[');
	if (br) {
		v->array = (unsigned)strtoul(br + 1, NULL, 10);
		*br = '\0';
	}
	copy(v->type, sizeof v->type, type);
	if (init) {
		const char *p = strstr(line, " = ") + 3;
		unsigned cap = 0;
		while (*p) {
			if (isdigit((unsigned char)*p) || *p == '-' || *p == '.') {
				char *end;
				float x = strtof(p, &end);
				if (end == p) {
					p++;
					continue;
				}
				if (v->ninit == cap) {
					cap = cap ? cap * 2 : 16;
					float *ni = realloc(v->init, cap * sizeof *ni);
					if (!ni)
						return false;
					v->init = ni;
				}
				v->init[v->ninit++] = x;
				p = end;
			} else {
				p++;
			}
		}
	}
	return true;
}

static bool load_stage(pg_stage *s, const cJSON *st, const char *file, ulp_diag *d)
{
	const cJSON *src = cJSON_GetObjectItemCaseSensitive(st, "source");
	if (cJSON_IsString(src))
		copy(s->source, sizeof s->source, src->valuestring);
	const cJSON *vars = cJSON_GetObjectItemCaseSensitive(st, "nir_vars");
	if (!cJSON_IsArray(vars))
		return ulp_diag_at(d, file, 0, 0, "stage without a nir_vars array");
	int n = cJSON_GetArraySize(vars);
	s->vars = calloc((size_t)n + 1, sizeof *s->vars);
	if (!s->vars)
		return ulp_diag_at(d, file, 0, 0, "out of memory");
	for (const cJSON *x = vars->child; x; x = x->next) {
		if (!cJSON_IsString(x))
			return ulp_diag_at(d, file, 0, 0, "nir_vars: not a string");
		if (parse_var(&s->vars[s->nvars], x->valuestring))
			s->nvars++;
	}
	return true;
}

const pg_var *pg_find_var(const pg_stage *s, enum pg_var_kind k, const char *name)
{
	for (size_t i = 0; i < s->nvars; i++)
		if (s->vars[i].kind == k && strcmp(s->vars[i].name, name) == 0)
			return &s->vars[i];
	return NULL;
}

static char *dup(const char *s)
{
	if (!s)
		return NULL;
	size_t n = strlen(s) + 1;
	char *r = malloc(n);
	if (r)
		memcpy(r, s, n);
	return r;
}

bool pg_test_parse(pg_test *t, const char *test_txt, const char *meta_json, const char *vs,
                   const char *fs, const char *name, ulp_diag *d)
{
	memset(t, 0, sizeof *t);
	copy(t->name, sizeof t->name, name);
	t->int_uniform_as_float = true;
	char file[300];
	snprintf(file, sizeof file, "%s/test.txt", name);
	const char *mark = strstr(test_txt, TEST_MARK);
	const char *orig = strstr(test_txt, ORIG_MARK);
	if (!mark || !orig || orig < mark)
		return ulp_diag_at(d, file, 1, 1, "not a corpus test.txt: expected the lines '%s' "
		                   "and '%s ...'", TEST_MARK, ORIG_MARK);
	/* Commands are read from the verbatim [test] section (line numbers of test.txt). */
	size_t hl = (size_t)(orig - test_txt);
	char *head = malloc(hl + 1);
	if (!head)
		return ulp_diag_at(d, file, 0, 0, "out of memory");
	memcpy(head, test_txt, hl);
	head[hl] = '\0';
	bool ok = pg_parse_commands(t, head, file, d);
	free(head);
	if (!ok)
		return false;
	int orig_line = 1;
	for (const char *p = test_txt; p < orig; p++)
		orig_line += *p == '\n';
	char *vd = section(orig, "[vertex data]");
	if (vd) {
		int vline = orig_line;
		const char *q = strstr(orig, "[vertex data]");
		for (const char *p = orig; p < q; p++)
			vline += *p == '\n';
		ok = parse_vdata(&t->vdata, vd, file, vline + 1, d);
		free(vd);
		if (!ok)
			return false;
	}
	t->orig = dup(orig);
	if (!t->orig)
		return ulp_diag_at(d, file, 0, 0, "out of memory");
	t->vs.arb = section(orig, "[vertex program]");
	t->fs.arb = section(orig, "[fragment program]");
	t->vs.tgsi = dup(vs);
	t->fs.tgsi = dup(fs);
	if ((vs && !t->vs.tgsi) || (fs && !t->fs.tgsi))
		return ulp_diag_at(d, file, 0, 0, "out of memory");
	if (meta_json) {
		char mfile[300];
		snprintf(mfile, sizeof mfile, "%s/meta.json", name);
		cJSON *root = ulp_json_parse(meta_json, mfile, d);
		if (!root)
			return false;
		/* "... with native integers ...": int uniforms are integers in CONST */
		const cJSON *dl = cJSON_GetObjectItemCaseSensitive(root, "dialect");
		if (cJSON_IsString(dl) && strstr(dl->valuestring, "with native integers"))
			t->int_uniform_as_float = false;
		const cJSON *st = cJSON_GetObjectItemCaseSensitive(root, "stages");
		const cJSON *jvs = cJSON_GetObjectItemCaseSensitive(st, "vs");
		const cJSON *jfs = cJSON_GetObjectItemCaseSensitive(st, "fs");
		ok = jvs && jfs;
		if (!ok)
			ulp_diag_at(d, mfile, 0, 0, "no stages.vs / stages.fs");
		ok = ok && load_stage(&t->vs, jvs, mfile, d) && load_stage(&t->fs, jfs, mfile, d);
		cJSON_Delete(root);
		if (!ok)
			return false;
	}
	return true;
}

bool pg_test_load(pg_test *t, const char *dir, ulp_diag *d)
{
	char p[1200];
	size_t l = strlen(dir);
	while (l > 1 && dir[l - 1] == '/')
		l--;
	const char *base = dir;
	for (size_t i = 0; i < l; i++)
		if (dir[i] == '/' && i + 1 < l)
			base = dir + i + 1;
	char name[256];
	snprintf(name, sizeof name, "%.*s", (int)(l - (size_t)(base - dir)), base);
	char *txt = NULL, *meta = NULL, *vs = NULL, *fs = NULL;
	size_t n;
	snprintf(p, sizeof p, "%.*s/test.txt", (int)l, dir);
	txt = ulp_read_file(p, &n, d);
	snprintf(p, sizeof p, "%.*s/meta.json", (int)l, dir);
	if (txt)
		meta = ulp_read_file(p, &n, d);
	snprintf(p, sizeof p, "%.*s/vs.tgsi", (int)l, dir);
	if (meta)
		vs = ulp_read_file(p, &n, d);
	snprintf(p, sizeof p, "%.*s/fs.tgsi", (int)l, dir);
	if (vs)
		fs = ulp_read_file(p, &n, d);
	bool ok = false;
	if (fs)
		ok = pg_test_parse(t, txt, meta, vs, fs, name, d);
	else
		memset(t, 0, sizeof *t);
	snprintf(t->dir, sizeof t->dir, "%.*s", (int)l, dir);
	free(txt);
	free(meta);
	free(vs);
	free(fs);
	return ok;
}

static void free_stage(pg_stage *s)
{
	for (size_t i = 0; i < s->nvars; i++)
		free(s->vars[i].init);
	free(s->vars);
	free(s->tgsi);
	free(s->arb);
}

void pg_test_free(pg_test *t)
{
	free(t->cmds);
	free(t->orig);
	free(t->vdata.rows);
	free_stage(&t->vs);
	free_stage(&t->fs);
	memset(t, 0, sizeof *t);
}
