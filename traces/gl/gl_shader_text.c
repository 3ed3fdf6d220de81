/* TGSI text the Gallium driver rewrites or reads (gl_shader_text.h). */
#include "traces/gl/gl_shader_text.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

unsigned ulp_gl_declared_consts(const char *text)
{
	unsigned n = 0;
	for (const char *p = strstr(text, "DCL CONST["); p; p = strstr(p + 1, "DCL CONST[")) {
		const char *q = p + strlen("DCL CONST");
		unsigned a = 0, b = 0, dim = 0;
		int used = 0;
		/* "[dim]" first when a second bracket follows it */
		if (sscanf(q, "[%u]%n", &dim, &used) == 1 && used > 0 && q[used] == '[')
			q += used;
		else
			dim = 0;
		if (sscanf(q, "[%u..%u]", &a, &b) == 2 || (sscanf(q, "[%u]", &a) == 1 && (b = a, true))) {
			if (!dim && b + 1 > n)
				n = b + 1;
		}
	}
	return n;
}

char *ulp_gl_clamped_colors(const char *text)
{
	bool color[64] = { false };
	bool any = false;
	for (const char *p = strstr(text, "DCL OUT["); p; p = strstr(p + 1, "DCL OUT[")) {
		unsigned a, b;
		const char *eol = strchr(p, '\n');
		const char *sem = strchr(p, ',');
		if (!sem || (eol && sem > eol) || (strncmp(sem, ", COLOR", 7) && strncmp(sem, ", BCOLOR", 8)))
			continue;
		if (sscanf(p, "DCL OUT[%u..%u]", &a, &b) != 2) {
			if (sscanf(p, "DCL OUT[%u]", &a) != 1)
				continue;
			b = a;
		}
		for (unsigned k = a; k <= b && k < 64; k++)
			color[k] = any = true;
	}
	if (!any)
		return NULL;
	size_t n = strlen(text);
	char *out = malloc(2 * n + 1), *o = out;
	if (!out)
		return NULL;
	for (const char *line = text; *line;) {
		const char *eol = strchr(line, '\n');
		size_t len = eol ? (size_t)(eol - line + 1) : strlen(line);
		const char *colon = memchr(line, ':', len);
		unsigned k;
		const char *dst = colon ? strstr(colon, " OUT[") : NULL;
		bool sat = dst && dst < line + len && sscanf(dst, " OUT[%u]", &k) == 1 && k < 64 && color[k];
		if (sat) {                      /* "  N: OPC OUT[k]..." -> "  N: OPC_SAT OUT[k]..." */
			const char *op = colon + 1;
			while (*op == ' ')
				op++;
			const char *op_end = op;
			while (op_end < line + len && *op_end != ' ')
				op_end++;
			sat = op_end - op < 4 || strncmp(op_end - 4, "_SAT", 4);
			if (sat) {
				memcpy(o, line, (size_t)(op_end - line));
				o += op_end - line;
				memcpy(o, "_SAT", 4);
				o += 4;
				memcpy(o, op_end, len - (size_t)(op_end - line));
				o += len - (size_t)(op_end - line);
			}
		}
		if (!sat) {
			memcpy(o, line, len);
			o += len;
		}
		line += len;
	}
	*o = '\0';
	return out;
}

