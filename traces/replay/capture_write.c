/* Capture: one frame's self-contained trace (capture_int.h, docs/capture.md). */
#include "traces/replay/capture_int.h"

#include <cjson/cJSON.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/fileio.h"
#include "traces/replay/replay_int.h"
#include "traces/trace_int.h"

/* FNV-1a, 64 bits: side files are named by their content. */
static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const uint8_t *b = p;
	for (size_t k = 0; k < n; k++)
		h = (h ^ b[k]) * 0x100000001b3ull;
	return h;
}

typedef struct writer {
	const char *dir;
	ulp_diag *d;
	bool ok;
} writer;

/* bytes as DIR/<hash>.bin (kept when a file of that name and size is there):
 * its name into name. */
static void side_raw(writer *w, const void *bytes, size_t len, char *name, size_t n)
{
	snprintf(name, n, "%016" PRIx64 ".bin", fnv(0xcbf29ce484222325ull, bytes, len));
	char path[2048];
	snprintf(path, sizeof path, "%s/%s", w->dir, name);
	struct stat sb;
	if (!w->ok || (stat(path, &sb) == 0 && S_ISREG(sb.st_mode) && (uint64_t)sb.st_size == len))
		return;
	w->ok = ulp_write_file(path, bytes, len, w->d);
}

/* An RGBA image (top row first) as DIR/<hash>.png. */
static void side_png(writer *w, const ulp_image *img, char *name, size_t n)
{
	uint64_t h = fnv(0xcbf29ce484222325ull, &img->width, sizeof img->width);
	h = fnv(h, &img->height, sizeof img->height);
	snprintf(name, n, "%016" PRIx64 ".png", fnv(h, img->rgba, ulp_image_bytes(img)));
	char path[2048];
	snprintf(path, sizeof path, "%s/%s", w->dir, name);
	struct stat sb;
	if (!w->ok || (stat(path, &sb) == 0 && S_ISREG(sb.st_mode)))
		return;
	w->ok = ulp_image_save_png(img, path, w->d);
}

/* One texture level's data field: RGBA8888 as PNG (lossless, viewable),
 * the other formats raw. */
static void level_data(writer *w, cJSON *o, const trace_resource *r, unsigned l)
{
	const uint32_t lw = r->width >> l ? r->width >> l : 1, lh = r->height >> l ? r->height >> l : 1;
	const size_t len = (size_t)lw * lh * trace_texfmt_bpp(r->format);
	char name[64];
	if (r->format == TRACE_RGBA8888) {
		ulp_image *img = ulp_image_create(lw, lh, w->d);
		if (!img) {
			w->ok = false;
			return;
		}
		memcpy(img->rgba, r->bytes + r->level_off[l], len);
		side_png(w, img, name, sizeof name);
		ulp_image_free(img);
		cJSON_AddStringToObject(o, "png", name);
		return;
	}
	side_raw(w, r->bytes + r->level_off[l], len, name, sizeof name);
	cJSON_AddStringToObject(o, "file", name);
}

static cJSON *resource_json(writer *w, const trace_resource *r)
{
	cJSON *o = cJSON_CreateObject();
	char name[64];
	if (r->type == TRACE_BUFFER) {
		cJSON_AddStringToObject(o, "type", "buffer");
		side_raw(w, r->bytes, r->len, name, sizeof name);
		cJSON_AddStringToObject(o, "file", name);
		cJSON_AddNumberToObject(o, "size", (double)r->len);
		return o;
	}
	cJSON_AddStringToObject(o, "type", "texture");
	cJSON_AddStringToObject(o, "format", TRACE_E_TEXFMT[r->format]);
	if (r->target == TRACE_TEX_1D)
		cJSON_AddStringToObject(o, "target", "1D");
	cJSON_AddNumberToObject(o, "width", r->width);
	cJSON_AddNumberToObject(o, "height", r->height);
	level_data(w, o, r, 0);
	if (r->nlevels > 1) {
		cJSON *lv = cJSON_AddArrayToObject(o, "levels");
		for (unsigned l = 1; l < r->nlevels; l++) {
			cJSON *x = cJSON_CreateObject();
			level_data(w, x, r, l);
			cJSON_AddItemToArray(lv, x);
		}
	}
	return o;
}

static const char *cmd_name(const cJSON *c)
{
	const char *s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "cmd"));
	return s ? s : "";
}

/* Whether render target t (colour buffer t >= 0, the zs surface t < 0) as
 * it is before log command `from` is read: by a draw, or (colour buffer
 * 0) by the checkpoint at the end, before a framebuffer command, a clear
 * that covers it or another write_target of it replaces it. */
static bool target_read(const cJSON *log, const cJSON *from, int t)
{
	for (const cJSON *c = from; c; c = c->next) {
		const char *n = cmd_name(c);
		if (!strcmp(n, "draw"))
			return true;
		if (!strcmp(n, "framebuffer"))
			return false;
		if (!strcmp(n, "clear") && (t >= 0 ? cJSON_GetObjectItemCaseSensitive(c, "color") != NULL
		                                   : cJSON_GetObjectItemCaseSensitive(c, "depth") &&
		                                     cJSON_GetObjectItemCaseSensitive(c, "stencil")))
			return false;
		if (!strcmp(n, "write_target")) {
			const cJSON *cb = cJSON_GetObjectItemCaseSensitive(c, "cbuf");
			if (t >= 0 ? cb && cb->valueint == t : !cb)
				return false;
		}
	}
	(void)log;
	return t == 0;
}

/* A write_target resource (cap.rt...) that no kept command names is left out. */
static bool target_unused(const cJSON *cmds, const char *id)
{
	if (strncmp(id, "cap.rt", 6))
		return false;
	for (const cJSON *c = cmds->child; c; c = c->next)
		if (!strcmp(cmd_name(c), "write_target") &&
		    !strcmp(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(c, "resource")), id))
			return false;
	return true;
}

static void add_set(writer *w, cJSON *res, cJSON *shs, const cap_set *s, const cJSON *cmds)
{
	for (size_t k = 0; w->ok && k < s->nres; k++)
		if (!target_unused(cmds, s->res[k].id))
			cJSON_AddItemToObject(res, s->res[k].id, resource_json(w, &s->res[k]));
	for (size_t k = 0; w->ok && k < s->nsh; k++) {
		const trace_shader *sh = &s->sh[k];
		if (sh->code != TRACE_TGSI || !sh->text) {
			w->ok = ulp_diag_at(w->d, w->dir, 0, 0, "shader '%s': only TGSI shaders are captured", sh->id);
			return;
		}
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "stage", TRACE_E_STAGE[sh->stage]);
		cJSON_AddStringToObject(o, "tgsi", sh->text);
		cJSON_AddItemToObject(shs, sh->id, o);
	}
}

/* img: top row first, as write_target takes it. */
static void add_target(writer *w, cJSON *res, cJSON *cmds, const ulp_image *img, int t, unsigned n)
{
	char id[64], name[64];
	snprintf(id, sizeof id, "cap.start.rt%s%d", t < 0 ? "zs" : "", t < 0 ? 0 : t);
	side_png(w, img, name, sizeof name);
	cJSON *r = cJSON_CreateObject();
	cJSON_AddStringToObject(r, "type", "texture");
	cJSON_AddStringToObject(r, "format", "RGBA8888");
	cJSON_AddNumberToObject(r, "width", img->width);
	cJSON_AddNumberToObject(r, "height", img->height);
	cJSON_AddStringToObject(r, "png", name);
	cJSON_AddItemToObject(res, id, r);
	cJSON *c = cJSON_CreateObject();
	cJSON_AddStringToObject(c, "cmd", "write_target");
	if (t < 0)
		cJSON_AddBoolToObject(c, "zs", true);
	else
		cJSON_AddNumberToObject(c, "cbuf", t);
	cJSON_AddStringToObject(c, "resource", id);
	cJSON_AddItemToArray(cmds, c);
	(void)n;
}

bool capture_write_frame(const char *dir, const char *name, const char *gpu, unsigned ctx, unsigned n,
                          const cap_set *start,
                          const cap_set *extra, const cJSON *log, ulp_image *const *cb0, unsigned ncb0,
                          const ulp_image *zs0, const ulp_image *last, uint64_t cycles, ulp_diag *d)
{
	writer w = { .dir = dir, .d = d, .ok = true };
	char frame[48], title[208];
	if (ctx)                              /* a second context into the same folder: its own names */
		snprintf(frame, sizeof frame, "ctx%u-frame-%04u", ctx, n);
	else
		snprintf(frame, sizeof frame, "frame-%04u", n);
	snprintf(title, sizeof title, "%.150s %s", name, frame);
	cJSON *root = cJSON_CreateObject();
	cJSON_AddStringToObject(root, "format", "ulpsim-trace");
	cJSON_AddNumberToObject(root, "version", TRACE_VERSION);
	cJSON_AddStringToObject(root, "name", title);
	cJSON_AddStringToObject(root, "gpu", gpu);
	cJSON *res = cJSON_AddObjectToObject(root, "resources");
	cJSON *shs = cJSON_AddObjectToObject(root, "shaders");
	cJSON *cmds = cJSON_AddArrayToObject(root, "commands");
	for (const cJSON *c = start->state ? start->state->child : NULL; c; c = c->next)
		cJSON_AddItemToArray(cmds, cJSON_Duplicate(c, true));
	/* the render targets as the frame found them, where it reads them
	 * (declared after the session's resources: those keep their places in
	 * simulated memory) */
	cJSON *tres = cJSON_CreateObject();
	for (unsigned k = 0; w.ok && k < ncb0; k++)
		if (target_read(log, log->child, (int)k))
			add_target(&w, tres, cmds, cb0[k], (int)k, n);
	if (w.ok && zs0 && target_read(log, log->child, -1))
		add_target(&w, tres, cmds, zs0, -1, n);
	for (const cJSON *c = log->child; c; c = c->next) {
		if (!strcmp(cmd_name(c), "write_target")) {          /* dead writes dropped */
			const cJSON *cb = cJSON_GetObjectItemCaseSensitive(c, "cbuf");
			if (!target_read(log, c->next, cb ? cb->valueint : -1))
				continue;
		}
		cJSON_AddItemToArray(cmds, cJSON_Duplicate(c, true));
	}
	add_set(&w, res, shs, start, cmds);
	add_set(&w, res, shs, extra, cmds);
	while (tres && tres->child) {
		cJSON *it = cJSON_DetachItemViaPointer(tres, tres->child);
		cJSON_AddItemToObject(res, it->string, it);
	}
	cJSON_Delete(tres);
	/* the checkpoint: the image the program got, the frame's cycles */
	char png[64], path[2048];
	snprintf(png, sizeof png, "%s.png", frame);
	snprintf(path, sizeof path, "%s/%s", dir, png);
	w.ok = w.ok && ulp_image_save_png(last, path, d);
	cJSON *cp = cJSON_CreateObject();
	cJSON_AddStringToObject(cp, "cmd", "checkpoint");
	cJSON_AddStringToObject(cp, "name", frame);
	cJSON_AddStringToObject(cp, "expect_image", png);
	cJSON_AddNumberToObject(cp, "expect_cycles", (double)cycles);
	cJSON_AddItemToArray(cmds, cp);
	char *text = w.ok ? cJSON_Print(root) : NULL;
	cJSON_Delete(root);
	if (w.ok && !text)
		w.ok = ulp_diag_at(d, dir, 0, 0, "out of memory");
	if (w.ok) {
		snprintf(path, sizeof path, "%s/%s.json", dir, frame);
		w.ok = ulp_write_file(path, text, strlen(text), d);
	}
	free(text);
	return w.ok;
}
