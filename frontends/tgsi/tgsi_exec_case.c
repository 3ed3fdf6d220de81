/* The interpreter's inputs and outputs as JSON: a case object setting IN,
 * CONST, SV and SAMP registers (tgsi_exec.h), and the outputs object
 *   {"outputs": {"OUT[0]": [x, y, z, w], ...}, "killed": false} */
#include <cjson/cJSON.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static bool parse_value(const cJSON *e, uint32_t *out)
{
	if (cJSON_IsNumber(e)) {
		*out = tx_f2u((float)e->valuedouble);
		return true;
	}
	if (!cJSON_IsString(e))
		return false;
	const char *s = e->valuestring;
	if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X') || !s[2])
		return false;
	char *end;
	unsigned long long v = strtoull(s + 2, &end, 16);
	if (*end || v > UINT32_MAX)
		return false;
	*out = (uint32_t)v;
	return true;
}

bool tgsi_exec_load_case(tgsi_exec_machine *m, const char *json, size_t len,
                         const char *case_file, ulp_diag *d)
{
	cJSON *root = cJSON_ParseWithLength(json, len);
	if (!root)
		return case_fail(d, case_file, "not valid JSON");
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
		int n = cJSON_GetArraySize(it);
		if (!cJSON_IsArray(it) || n < 1 || n > 4) {
			ok = case_fail(d, case_file, "key \"%s\": expected an array of 1 to 4 values", k);
			break;
		}
		uint32_t v[4] = { 0, 0, 0, 0 };
		for (int c = 0; c < n && ok; c++)
			if (!parse_value(cJSON_GetArrayItem(it, c), &v[c]))
				ok = case_fail(d, case_file, "key \"%s\": value %d is neither a number nor "
				               "a \"0x\" bit pattern", k, c);
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

char *tgsi_exec_outputs_json(const tgsi_exec_machine *m, bool bits)
{
	jbuf b = { NULL, 0, 0, false };
	jput(&b, "{\"outputs\": {");
	const tgsi_exec_file *f = &m->files[TGSI_FILE_OUTPUT];
	bool first = true;
	if (f->nbanks) {
		const tgsi_exec_bank *bk = &f->banks[0];
		for (size_t i = 0; i < bk->n; i++) {
			if (!bk->flags[i])
				continue;
			jput(&b, "%s\"OUT[%zu]\": [", first ? "" : ", ", i);
			for (int c = 0; c < 4; c++) {
				if (c)
					jput(&b, ", ");
				put_value(&b, bk->v[i][c], bits);
			}
			jput(&b, "]");
			first = false;
		}
	}
	jput(&b, "}, \"killed\": %s}\n", m->killed ? "true" : "false");
	if (b.failed) {
		free(b.s);
		return NULL;
	}
	return b.s;
}
