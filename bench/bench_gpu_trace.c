/* The whole-pipeline bench's traces (bench_gpu.h). */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fileio.h"
#include "bench/bench_gpu.h"

static bool parsed(trace *t, const char *json, const char *path, const char *dir)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	if (!json || !trace_parse(t, json, path, dir, &d)) {
		fprintf(stderr, "bench: gpu: %s: %s\n", path, json ? d.msg : "out of memory");
		if (json)
			trace_free(t);
		return false;
	}
	return true;
}

static void set_num(cJSON *o, int k, double v)
{
	cJSON *x = cJSON_GetArrayItem(o, k);
	if (x)
		cJSON_SetNumberValue(x, v);
}

bool bench_gpu_cube(trace *t, unsigned w, unsigned h)
{
	static const char path[] = "traces/samples/textured_cube.json";
	ulp_diag d;
	ulp_diag_clear(&d);
	size_t len;
	char *text = ulp_read_file(path, &len, &d);
	cJSON *root = text ? cJSON_Parse(text) : NULL;
	free(text);
	if (!root) {
		fprintf(stderr, "bench: gpu: %s: cannot read\n", path);
		return false;
	}
	const cJSON *cmds = cJSON_GetObjectItemCaseSensitive(root, "commands");
	for (cJSON *c = cmds ? cmds->child : NULL; c; c = c->next) {
		const char *cmd = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "cmd"));
		if (cmd && !strcmp(cmd, "framebuffer")) {
			cJSON_SetNumberValue(cJSON_GetObjectItemCaseSensitive(c, "width"), w);
			cJSON_SetNumberValue(cJSON_GetObjectItemCaseSensitive(c, "height"), h);
		} else if (cmd && !strcmp(cmd, "viewport")) {
			for (int k = 0; k < 2; k++) {
				set_num(cJSON_GetObjectItemCaseSensitive(c, "scale"), k, (k ? h : w) / 2.0);
				set_num(cJSON_GetObjectItemCaseSensitive(c, "translate"), k, (k ? h : w) / 2.0);
			}
		}
	}
	char *json = cJSON_PrintUnformatted(root);
	cJSON_Delete(root);
	bool ok = parsed(t, json, path, "traces/samples");
	free(json);
	return ok;
}

/* An 8x8 RGBA8888 texture resource: a pattern seeded by s. */
static char *texture_json(char *p, const char *id, unsigned s)
{
	p += sprintf(p, "\"%s\": {\"type\": \"texture\", \"format\": \"RGBA8888\", \"width\": 8, "
	                "\"height\": 8, \"u8\": [", id);
	for (unsigned k = 0; k < 64; k++)
		p += sprintf(p, "%s%u, %u, %u, %u", k ? ", " : "", (k * 4 * s) & 255, (k * 7 + s) & 255,
		             (k ^ s) & 255, 100 + (k & 63));
	return p + sprintf(p, "]}");
}

bool bench_gpu_fill30(trace *t, unsigned w, unsigned h)
{
	const char *corpus = getenv("ULPSIM_CORPUS");
	if (!corpus || !*corpus)
		corpus = "../shared/corpus";
	char dir[1024];
	snprintf(dir, sizeof dir, "%s/tegra/xf86/blend_saturate/blend_saturate", corpus);
	char *s = malloc(16384), *p = s;
	if (!s)
		return false;
	/* position, texture coordinate (0..1 over the screen) */
	p += sprintf(p, "{\"format\": \"ulpsim-trace\", \"version\": 1, \"name\": \"fill30\", \"resources\": {"
	                "\"vb\": {\"type\": \"buffer\", \"f32\": ["
	                "-1, -1, 0, 1, 0, 0, 0, 1,  1, -1, 0, 1, 1, 0, 0, 1,  1, 1, 0, 1, 1, 1, 0, 1,"
	                "-1, -1, 0, 1, 0, 0, 0, 1,  1, 1, 0, 1, 1, 1, 0, 1,  -1, 1, 0, 1, 0, 1, 0, 1]}, ");
	p = texture_json(p, "src", 3);
	p += sprintf(p, ", ");
	p = texture_json(p, "mask", 11);
	p += sprintf(p, "}, \"shaders\": {"
	                "\"vs\": {\"stage\": \"vertex\", \"tgsi\": \"VERT\\nDCL IN[0]\\nDCL IN[1]\\n"
	                "DCL OUT[0], POSITION\\nDCL OUT[1], GENERIC[0]\\n"
	                "  0: MOV OUT[0], IN[0]\\n  1: MOV OUT[1], IN[1]\\n  2: END\\n\"},"
	                "\"fs\": {\"stage\": \"fragment\", \"grate_file\": \"fragment.asm\"}}, "
	                "\"commands\": ["
	                "{\"cmd\": \"framebuffer\", \"width\": %u, \"height\": %u, "
	                "\"cbufs\": [{\"format\": \"RGBA8888\"}]},"
	                "{\"cmd\": \"bind_shaders\", \"vs\": \"vs\", \"fs\": \"fs\"},"
	                "{\"cmd\": \"vertex_elements\", \"elements\": ["
	                "{\"buffer\": \"vb\", \"offset\": 0, \"stride\": 32, \"format\": \"R32G32B32A32_FLOAT\"},"
	                "{\"buffer\": \"vb\", \"offset\": 16, \"stride\": 32, \"format\": \"R32G32B32A32_FLOAT\"}]},"
	                "{\"cmd\": \"sampler_view\", \"index\": 0, \"resource\": \"src\"},"
	                "{\"cmd\": \"sampler\", \"index\": 0, \"filter\": \"nearest\", \"wrap\": \"repeat\"},"
	                "{\"cmd\": \"sampler_view\", \"index\": 1, \"resource\": \"mask\"},"
	                "{\"cmd\": \"sampler\", \"index\": 1, \"filter\": \"nearest\", \"wrap\": \"clamp\"},"
	                "{\"cmd\": \"clear\", \"color\": [0.2, 0.3, 0.4, 0.6]},"
	                /* FP_CONST u5.l = u8.l = u6.h = FX10 1.0 (bench_tegra's flags) */
	                "{\"cmd\": \"registers\", \"gr3d\": [[2085, 256], [2086, 262144], [2088, 256]]},"
	                "{\"cmd\": \"draw\", \"mode\": \"triangles\", \"start\": 0, \"count\": 6},"
	                "{\"cmd\": \"checkpoint\", \"name\": \"f\"}]}",
	             w, h);
	char path[1100];
	snprintf(path, sizeof path, "%s/fill30.trace.json", dir);
	bool ok = parsed(t, s, path, dir);
	free(s);
	return ok;
}
