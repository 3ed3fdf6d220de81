/* The interpreter's inputs and outputs as JSON: a case object setting IN,
 * CONST, SV and SAMP registers and sampler images (tgsi_exec.h), and the
 * outputs object
 *   {"outputs": {"OUT[0]": [x, y, z, w], ...}, "killed": false}
 * or, for a GEOM shader, the emitted primitives. */
#include <cjson/cJSON.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/image.h"
#include "base/json.h"
#include "frontends/tgsi/tgsi_exec.h"
#include "frontends/tgsi/tgsi_exec_ops.h"

/* "FILE[a]" or "FILE[a][b]" (b = index, a = bank); false if not that shape. */
static bool parse_key(const char *k, unsigned *file, size_t *bank, size_t *index)
{
	size_t n = 0;
	while (k[n] && k[n] != '[')
		n++;
	if (!k[n] || !n)
		return false;
	int f = -1;
	for (unsigned i = 0; i < TGSI_FILE_COUNT; i++)
		if (strlen(tgsi_file_name(i)) == n && strncmp(k, tgsi_file_name(i), n) == 0)
			f = (int)i;
	if (f < 0)
		return false;
	unsigned long v[2];
	int nv = 0;
	const char *p = k + n;
	while (*p == '[' && nv < 2) {
		char *end;
		if (p[1] < '0' || p[1] > '9')
			return false;
		v[nv++] = strtoul(p + 1, &end, 10);
		if (*end != ']' || v[nv - 1] > 65535)
			return false;
		p = end + 1;
	}
	if (*p || nv == 0)
		return false;
	*file = (unsigned)f;
	*bank = nv == 2 ? v[0] : 0;
	*index = nv == 2 ? v[1] : v[0];
	return true;
}

/* A semantic name ("INSTANCEID", "FACE", "GENERIC[1]") names the SV or IN
 * register declared with it. */
static bool semantic_key(const tgsi_shader *sh, const char *k, unsigned *file, size_t *index)
{
	for (size_t i = 0; i < sh->num_decls; i++) {
		const tgsi_declaration *dc = &sh->decls[i];
		if (!dc->semantic || (dc->file != TGSI_FILE_SYSTEM_VALUE && dc->file != TGSI_FILE_INPUT))
			continue;
		char name[64];
		snprintf(name, sizeof name, "%s", tgsi_semantic_name(dc->semantic_name));
		size_t n = strlen(name);
		bool match = strcmp(k, name) == 0 && dc->semantic_index == 0;
		if (!match && strncmp(k, name, n) == 0 && k[n] == '[') {
			char *end;
			unsigned long si = strtoul(k + n + 1, &end, 10);
			match = end[0] == ']' && end[1] == '\0' && si == dc->semantic_index;
		}
		if (match) {
			*file = dc->file;
			*index = dc->first;
			return true;
		}
	}
	return false;
}

static bool case_fail(ulp_diag *d, const char *file, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static bool case_fail(ulp_diag *d, const char *file, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ulp_diag_vat(d, file, 0, 0, -1, fmt, ap);
	va_end(ap);
	return false;
}

/* A number, "inf", "-inf", "nan" (as `pica run` takes them) or "0x..." bits. */
static bool parse_value(const cJSON *e, uint32_t *out)
{
	if (cJSON_IsNumber(e)) {
		*out = tx_f2u((float)e->valuedouble);
		return true;
	}
	if (!cJSON_IsString(e))
		return false;
	const char *s = e->valuestring;
	if (!strcmp(s, "inf") || !strcmp(s, "+inf") || !strcmp(s, "-inf") || !strcmp(s, "nan")) {
		*out = tx_f2u(s[0] == 'n' ? NAN : s[0] == '-' ? -INFINITY : INFINITY);
		return true;
	}
	if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X') || !s[2])
		return false;
	char *end;
	unsigned long long v = strtoull(s + 2, &end, 16);
	if (*end || v > UINT32_MAX)
		return false;
	*out = (uint32_t)v;
	return true;
}

/* ---- sampler images ---- */

enum { TEXELS_MAX = 1 << 22 };

/* A whole number in 1..ULP_IMAGE_MAX_DIM. */
static bool parse_dim(const cJSON *e, uint32_t *out)
{
	if (!cJSON_IsNumber(e))
		return false;
	double v = e->valuedouble;
	if (!(v >= 1 && v <= ULP_IMAGE_MAX_DIM) || v != floor(v))
		return false;
	*out = (uint32_t)v;
	return true;
}

/* index of s in names[0..n), or -1 */
static int lookup(const char *s, const char *const *names, int n)
{
	for (int i = 0; i < n; i++)
		if (strcmp(s, names[i]) == 0)
			return i;
	return -1;
}

static const char *const wrap_names[] = { "repeat", "clamp", "mirror" };
static const char *const compare_names[] = { "never", "less", "equal", "lequal", "greater",
	"notequal", "gequal", "always" };

static bool parse_wrap(const cJSON *e, const char *key, const char *case_file, uint8_t w[2],
                       ulp_diag *d)
{
	const cJSON *v[2] = { e, e };
	if (cJSON_IsArray(e)) {
		if (cJSON_GetArraySize(e) != 2)
			return case_fail(d, case_file, "%s.wrap: expected \"repeat\", \"clamp\", "
			                 "\"mirror\" or an array of two of them (s, t)", key);
		v[0] = cJSON_GetArrayItem(e, 0);
		v[1] = cJSON_GetArrayItem(e, 1);
	}
	for (int i = 0; i < 2; i++) {
		int k = cJSON_IsString(v[i]) ? lookup(v[i]->valuestring, wrap_names, 3) : -1;
		if (k < 0)
			return case_fail(d, case_file, "%s.wrap%s: expected \"repeat\", \"clamp\" or "
			                 "\"mirror\"", key, v[0] == v[1] ? "" : i ? "[1]" : "[0]");
		w[i] = (uint8_t)k;      /* the same order as enum tgsi_exec_wrap */
	}
	return true;
}

/* One texel: a number v (= [v, 0, 0, 1]) or 1 to 4 values, g and b
 * defaulting to 0 and a to 1. */
static bool parse_texel(const cJSON *e, float t[4])
{
	uint32_t u;
	t[0] = t[1] = t[2] = 0.0f;
	t[3] = 1.0f;
	if (!cJSON_IsArray(e)) {
		if (!parse_value(e, &u))
			return false;
		t[0] = tx_u2f(u);
		return true;
	}
	int n = cJSON_GetArraySize(e);
	if (n < 1 || n > 4)
		return false;
	for (int c = 0; c < n; c++) {
		if (!parse_value(cJSON_GetArrayItem(e, c), &u))
			return false;
		t[c] = tx_u2f(u);
	}
	return true;
}

/* path relative to the directory of case_file (absolute paths as given). */
static char *case_relative(const char *case_file, const char *path)
{
	const char *slash = strrchr(case_file, '/');
	size_t dl = path[0] == '/' || !slash ? 0 : (size_t)(slash - case_file) + 1;
	size_t pl = strlen(path);
	char *s = malloc(dl + pl + 1);
	if (!s)
		return NULL;
	memcpy(s, case_file, dl);
	memcpy(s + dl, path, pl + 1);
	return s;
}

static bool load_png(tgsi_exec_texture *t, const cJSON *e, const char *key,
                     const char *case_file, ulp_diag *d)
{
	if (!cJSON_IsString(e) || !e->valuestring[0])
		return case_fail(d, case_file, "%s.png: expected a file name", key);
	char *path = case_relative(case_file, e->valuestring);
	if (!path)
		return case_fail(d, case_file, "%s.png: out of memory", key);
	ulp_diag pd;
	ulp_diag_clear(&pd);
	ulp_image *img = ulp_image_load_png(path, &pd);
	free(path);
	if (!img) {
		char buf[ULP_DIAG_MSG_MAX];
		ulp_diag_format(&pd, buf, sizeof buf);
		return case_fail(d, case_file, "%s.png: %s", key, buf);
	}
	size_t n = (size_t)img->width * img->height;
	if (n > TEXELS_MAX) {
		ulp_image_free(img);
		return case_fail(d, case_file, "%s.png: more than %d texels", key, TEXELS_MAX);
	}
	t->texels = malloc(n * sizeof *t->texels);
	if (!t->texels) {
		ulp_image_free(img);
		return case_fail(d, case_file, "%s.png: out of memory", key);
	}
	t->width = img->width;
	t->height = img->height;
	for (size_t i = 0; i < n; i++)
		for (int c = 0; c < 4; c++)
			t->texels[i][c] = (float)img->rgba[i * 4 + (size_t)c] / 255.0f;
	ulp_image_free(img);
	return true;
}

static bool load_texels(tgsi_exec_texture *t, const cJSON *obj, const char *key,
                        const char *case_file, ulp_diag *d)
{
	const cJSON *w = cJSON_GetObjectItemCaseSensitive(obj, "width");
	const cJSON *h = cJSON_GetObjectItemCaseSensitive(obj, "height");
	const cJSON *tx = cJSON_GetObjectItemCaseSensitive(obj, "texels");
	uint32_t width, height = 1;
	if (!w || !parse_dim(w, &width))
		return case_fail(d, case_file, "%s.width: expected a whole number from 1 to %d "
		                 "(or give \"png\")", key, ULP_IMAGE_MAX_DIM);
	if (h && !parse_dim(h, &height))
		return case_fail(d, case_file, "%s.height: expected a whole number from 1 to %d",
		                 key, ULP_IMAGE_MAX_DIM);
	size_t n = (size_t)width * height;
	if (n > TEXELS_MAX)
		return case_fail(d, case_file, "%s: more than %d texels", key, TEXELS_MAX);
	if (!cJSON_IsArray(tx) || (size_t)cJSON_GetArraySize(tx) != n)
		return case_fail(d, case_file, "%s.texels: expected an array of width * height = %zu "
		                 "texels", key, n);
	t->texels = malloc(n * sizeof *t->texels);
	if (!t->texels)
		return case_fail(d, case_file, "%s.texels: out of memory", key);
	t->width = width;
	t->height = height;
	size_t i = 0;
	const cJSON *e;
	cJSON_ArrayForEach(e, tx) {
		if (!parse_texel(e, t->texels[i]))
			return case_fail(d, case_file, "%s.texels[%zu]: expected a number or an array of "
			                 "1 to 4 numbers or \"0x\" bit patterns", key, i);
		i++;
	}
	return true;
}

/* "SAMP[n]": {"width", "height", "texels" | "png", "filter", "wrap", "compare"} */
static bool load_image(tgsi_exec_machine *m, const cJSON *obj, const char *key, size_t index,
                       const char *case_file, ulp_diag *d)
{
	static const char *const keys[] = { "width", "height", "texels", "png", "filter", "wrap",
		"compare" };
	const cJSON *e;
	cJSON_ArrayForEach(e, obj)
		if (lookup(e->string, keys, 7) < 0)
			return case_fail(d, case_file, "%s.%s: unknown key (width, height, texels, png, "
			                 "filter, wrap, compare)", key, e->string);
	tgsi_exec_texture *t = tgsi_exec_texture_slot(m, index);
	if (!t)
		return case_fail(d, case_file, "%s: out of memory", key);
	free(t->texels);
	memset(t, 0, sizeof *t);
	const cJSON *png = cJSON_GetObjectItemCaseSensitive(obj, "png");
	if (png && (cJSON_GetObjectItemCaseSensitive(obj, "width") ||
	            cJSON_GetObjectItemCaseSensitive(obj, "height") ||
	            cJSON_GetObjectItemCaseSensitive(obj, "texels")))
		return case_fail(d, case_file, "%s: give either \"png\" or width, height and texels",
		                 key);
	if (png ? !load_png(t, png, key, case_file, d) : !load_texels(t, obj, key, case_file, d))
		return false;
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(obj, "filter");
	if (f) {
		static const char *const filters[] = { "nearest", "linear" };
		int k = cJSON_IsString(f) ? lookup(f->valuestring, filters, 2) : -1;
		if (k < 0)
			return case_fail(d, case_file, "%s.filter: expected \"nearest\" or \"linear\"", key);
		t->filter = (uint8_t)k;
	}
	const cJSON *w = cJSON_GetObjectItemCaseSensitive(obj, "wrap");
	if (w && !parse_wrap(w, key, case_file, t->wrap, d))
		return false;
	const cJSON *c = cJSON_GetObjectItemCaseSensitive(obj, "compare");
	if (c) {
		int k = cJSON_IsString(c) ? lookup(c->valuestring, compare_names, 8) : -1;
		if (k < 0)
			return case_fail(d, case_file, "%s.compare: expected never, less, equal, lequal, "
			                 "greater, notequal, gequal or always", key);
		t->compare = (uint8_t)(TGSI_EXEC_NEVER + k);
	}
	return true;
}

/* Does the shader declare FILE[bank][index]?  (IN[v][n] of a GEOM shader:
 * v is the vertex, n the declared input; CONST banks as DCL CONST[b][..].) */
static bool declared(const tgsi_shader *sh, unsigned file, size_t bank, size_t index)
{
	for (size_t i = 0; i < sh->num_decls; i++) {
		const tgsi_declaration *dc = &sh->decls[i];
		if (dc->file != file || index < dc->first || index > dc->last)
			continue;
		if (file == TGSI_FILE_CONSTANT && (dc->dimension ? dc->index_2d : 0) != bank)
			continue;
		return true;
	}
	return false;
}

bool tgsi_exec_load_case(tgsi_exec_machine *m, const char *json, size_t len,
                         const char *case_file, ulp_diag *d)
{
	char *text = malloc(len + 1);            /* NUL-terminated for the line:col parser */
	if (!text)
		return case_fail(d, case_file, "out of memory");
	memcpy(text, json, len);
	text[len] = 0;
	cJSON *root = ulp_json_parse(text, case_file, d);
	free(text);
	if (!root)
		return false;
	bool ok = cJSON_IsObject(root);
	if (!ok)
		case_fail(d, case_file, "expected a JSON object of registers");
	const cJSON *it;
	cJSON_ArrayForEach(it, root) {
		if (!ok)
			break;
		unsigned file;
		size_t bank = 0, index;
		const char *k = it->string;
		if (!parse_key(k, &file, &bank, &index) && !semantic_key(m->sh, k, &file, &index)) {
			ok = case_fail(d, case_file, "key \"%s\": expected IN[n], CONST[b][n], CONST[n], "
			               "SV[n], SAMP[n] or a declared IN/SV semantic name", k);
			break;
		}
		if (file != TGSI_FILE_INPUT && file != TGSI_FILE_CONSTANT &&
		    file != TGSI_FILE_SYSTEM_VALUE && file != TGSI_FILE_SAMPLER) {
			ok = case_fail(d, case_file, "key \"%s\": a case sets only IN, CONST, SV and "
			               "SAMP registers", k);
			break;
		}
		if (!declared(m->sh, file, bank, index)) {
			ok = case_fail(d, case_file, "key \"%s\": the shader declares no %s[%zu]%s", k,
			               tgsi_file_name(file), index,
			               file == TGSI_FILE_CONSTANT && bank ? " in that constant buffer" : "");
			break;
		}
		if (file == TGSI_FILE_SAMPLER && cJSON_IsObject(it)) {
			ok = bank == 0 ? load_image(m, it, k, index, case_file, d)
			               : case_fail(d, case_file, "key \"%s\": expected SAMP[n]", k);
			continue;
		}
		int n = cJSON_GetArraySize(it);
		if (!cJSON_IsArray(it) || n < 1 || n > 4) {
			ok = case_fail(d, case_file, "key \"%s\": expected an array of 1 to 4 values%s", k,
			               file == TGSI_FILE_SAMPLER ? " or an image object" : "");
			break;
		}
		uint32_t v[4] = { 0, 0, 0, 0 };
		for (int c = 0; c < n && ok; c++)
			if (!parse_value(cJSON_GetArrayItem(it, c), &v[c]))
				ok = case_fail(d, case_file, "key \"%s\": value %d is neither a number, "
				               "\"inf\", \"-inf\", \"nan\" nor a \"0x\" bit pattern", k, c);
		if (!ok)
			break;
		uint32_t *r = tgsi_exec_reg(m, file, bank, index);
		if (!r) {
			ok = case_fail(d, case_file, "key \"%s\": out of memory", k);
			break;
		}
		memcpy(r, v, sizeof v);
		m->files[file].banks[bank].flags[index] |= TGSI_EXEC_WRITTEN;
	}
	cJSON_Delete(root);
	return ok;
}

typedef struct jbuf {
	char *s;
	size_t len, cap;
	bool failed;
} jbuf;

static void jput(jbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void jput(jbuf *b, const char *fmt, ...)
{
	char tmp[128];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	if (b->failed || n < 0 || (size_t)n >= sizeof tmp) {
		b->failed = true;
		return;
	}
	if (b->len + (size_t)n + 1 > b->cap) {
		size_t cap = (b->cap + (size_t)n + 1) * 2;
		char *p = realloc(b->s, cap);
		if (!p) {
			b->failed = true;
			return;
		}
		b->s = p;
		b->cap = cap;
	}
	memcpy(b->s + b->len, tmp, (size_t)n + 1);
	b->len += (size_t)n;
}

static void put_value(jbuf *b, uint32_t u, bool bits)
{
	float f = tx_u2f(u);
	if (bits)
		jput(b, "\"0x%08" PRIx32 "\"", u);
	else if (isnan(f))
		jput(b, "\"nan\"");
	else if (isinf(f))
		jput(b, f < 0 ? "\"-inf\"" : "\"inf\"");
	else
		jput(b, "%.9g", (double)f);
}

/* "OUT[i]": [x, y, z, w] for every declared or written register of b. */
static void put_regs(jbuf *b, const tgsi_exec_bank *bk, bool bits)
{
	bool first = true;
	for (size_t i = 0; i < bk->n; i++) {
		if (!bk->flags[i])
			continue;
		jput(b, "%s\"OUT[%zu]\": [", first ? "" : ", ", i);
		for (int c = 0; c < 4; c++) {
			if (c)
				jput(b, ", ");
			put_value(b, bk->v[i][c], bits);
		}
		jput(b, "]");
		first = false;
	}
}

static void put_gs(jbuf *b, const tgsi_exec_machine *m, bool bits)
{
	const tgsi_shader *sh = m->sh;
	jput(b, "{");
	for (size_t i = 0; i < sh->num_props; i++)
		if (sh->props[i].name == TGSI_PROPERTY_GS_OUTPUT_PRIM &&
		    tgsi_primitive_name(sh->props[i].value))
			jput(b, "\"output_primitive\": \"%s\", ", tgsi_primitive_name(sh->props[i].value));
	jput(b, "\"primitives\": [");
	size_t v = 0;
	for (size_t p = 0; p < m->gs.num_prims; p++) {
		jput(b, "%s{\"vertices\": [", p ? ", " : "");
		for (size_t k = 0; k < m->gs.prims[p]; k++, v++) {
			jput(b, "%s{", k ? ", " : "");
			put_regs(b, &m->gs.verts[v], bits);
			jput(b, "}");
		}
		jput(b, "]}");
	}
	jput(b, "]}\n");
}

char *tgsi_exec_outputs_json(const tgsi_exec_machine *m, bool bits)
{
	jbuf b = { NULL, 0, 0, false };
	if (m->sh->processor == TGSI_PROCESSOR_GEOMETRY) {
		put_gs(&b, m, bits);
	} else {
		jput(&b, "{\"outputs\": {");
		const tgsi_exec_file *f = &m->files[TGSI_FILE_OUTPUT];
		if (f->nbanks)
			put_regs(&b, &f->banks[0], bits);
		jput(&b, "}, \"killed\": %s}\n", m->killed ? "true" : "false");
	}
	if (b.failed) {
		free(b.s);
		return NULL;
	}
	return b.s;
}
