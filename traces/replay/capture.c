/* Capture: a session's input mirrored and written per frame (capture.h). */
#include "traces/replay/capture.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/fileio.h"
#include "base/image.h"
#include "traces/replay/capture_int.h"
#include "traces/replay/replay_int.h"
#include "units/gr3d/zs.h"

struct replay_capture {
	char *dir;
	unsigned first, last;
	unsigned context;         /* 0: frame-NNNN, K: ctxK-frame-NNNN */
	char gpu[16];
	char name[128];
	cap_set now;              /* the mirror of the session */
	cap_set start;            /* the mirror at the frame's start (when the frame is captured) */
	bool capturing;           /* the current frame is in first..last */
	bool done;                /* past the last frame: nothing more is mirrored */
	bool tainted;             /* a command of this frame failed, or a shader was replaced */
	char taint[160];
	/* the render targets at the frame's start as write_target's RGBA, top row first (presented) */
	ulp_image *cb0[CAP_MAX_CBUFS];
	unsigned ncb0;
	ulp_image *zs0;
	uint64_t cycles0;
	cJSON *log;               /* the frame's commands (update and write_target included) */
	cap_set extra;            /* resources made during the frame: new ids, then versions and images */
	unsigned serial;          /* names of versions: cap.<id>.<serial> */
};

/* ---- sets ---- */

static void set_free(cap_set *s)
{
	for (size_t k = 0; k < s->nres; k++)
		free(s->res[k].bytes);
	for (size_t k = 0; k < s->nsh; k++) {
		free(s->sh[k].text);
		free(s->sh[k].path);
	}
	free(s->res);
	free(s->sh);
	cJSON_Delete(s->state);
	memset(s, 0, sizeof *s);
}

static long find_res(const cap_set *s, const char *id)
{
	for (size_t k = 0; k < s->nres; k++)
		if (!strcmp(s->res[k].id, id))
			return (long)k;
	return -1;
}

static long find_sh(const cap_set *s, const char *id)
{
	for (size_t k = 0; k < s->nsh; k++)
		if (!strcmp(s->sh[k].id, id))
			return (long)k;
	return -1;
}

/* r (bytes copied) added to s or replacing id's entry in place. */
static bool put_res(cap_set *s, const trace_resource *r)
{
	uint8_t *copy = malloc(r->len ? r->len : 1);
	if (!copy)
		return false;
	if (r->len)
		memcpy(copy, r->bytes, r->len);
	long k = find_res(s, r->id);
	if (k < 0) {
		trace_resource *g = realloc(s->res, (s->nres + 1) * sizeof *g);
		if (!g) {
			free(copy);
			return false;
		}
		s->res = g;
		k = (long)s->nres++;
		s->res[k].bytes = NULL;
	}
	free(s->res[k].bytes);
	s->res[k] = *r;
	s->res[k].bytes = copy;
	return true;
}

static bool put_sh(cap_set *s, const trace_shader *sh)
{
	char *text = sh->text ? strdup(sh->text) : NULL, *path = sh->path ? strdup(sh->path) : NULL;
	if ((sh->text && !text) || (sh->path && !path)) {
		free(text);
		free(path);
		return false;
	}
	long k = find_sh(s, sh->id);
	if (k < 0) {
		trace_shader *g = realloc(s->sh, (s->nsh + 1) * sizeof *g);
		if (!g) {
			free(text);
			free(path);
			return false;
		}
		s->sh = g;
		k = (long)s->nsh++;
		s->sh[k].text = s->sh[k].path = NULL;
	}
	free(s->sh[k].text);
	free(s->sh[k].path);
	s->sh[k] = *sh;
	s->sh[k].text = text;
	s->sh[k].path = path;
	return true;
}

static bool set_copy(cap_set *to, const cap_set *from)
{
	memset(to, 0, sizeof *to);
	bool ok = true;
	for (size_t k = 0; ok && k < from->nres; k++)
		ok = put_res(to, &from->res[k]);
	for (size_t k = 0; ok && k < from->nsh; k++)
		ok = put_sh(to, &from->sh[k]);
	to->state = from->state ? cJSON_Duplicate(from->state, true) : cJSON_CreateArray();
	return ok && to->state;
}

/* ---- open, close ---- */

static void fail(replay_capture *c, const char *why)
{
	if (!c->tainted)
		snprintf(c->taint, sizeof c->taint, "%s", why);
	c->tainted = true;
}

static void drop_frame(replay_capture *c)
{
	set_free(&c->start);
	set_free(&c->extra);
	for (unsigned k = 0; k < c->ncb0; k++)
		ulp_image_free(c->cb0[k]);
	c->ncb0 = 0;
	ulp_image_free(c->zs0);
	c->zs0 = NULL;
	cJSON_Delete(c->log);
	c->log = NULL;
	c->capturing = c->tainted = false;
	c->taint[0] = 0;
}

/* The zs surface as write_target's RGBA (memory row 0 first, as the colour
 * buffers): depth code in r, g, b (low byte first), stencil in a. */
static ulp_image *zs_rgba(const zs_surface *zs)
{
	ulp_diag d;
	ulp_image *img = ulp_image_create(zs->width, zs->height, &d);
	for (size_t k = 0; img && k < (size_t)zs->width * zs->height; k++) {
		uint8_t *p = img->rgba + 4 * k;
		p[0] = (uint8_t)zs->depth[k], p[1] = (uint8_t)(zs->depth[k] >> 8), p[2] = (uint8_t)(zs->depth[k] >> 16);
		p[3] = zs->stencil ? zs->stencil[k] : 0;
	}
	return img;
}

/* A render target of s (memory row 0 first) as the image the program saw,
 * top row first (write_target's and the checkpoint's rows). */
static ulp_image *presented(replay_session *s, const ulp_image *rt)
{
	ulp_diag d;
	return replay_presented(rt, replay_session_upper_left(s), &d);
}

/* A captured frame starts: the mirror and the render targets as they are. */
static void begin_frame(replay_capture *c, replay_session *s, uint64_t cycles)
{
	drop_frame(c);
	c->capturing = true;
	c->cycles0 = cycles;
	c->log = cJSON_CreateArray();
	c->extra.state = cJSON_CreateArray();
	if (!c->log || !c->extra.state || !set_copy(&c->start, &c->now))
		fail(c, "out of memory");
	for (unsigned k = 0; s && k < replay_session_ncbufs(s) && k < CAP_MAX_CBUFS; k++) {
		const ulp_image *img = replay_session_cbuf(s, k, NULL);
		if (!(c->cb0[c->ncb0++] = presented(s, img)))
			fail(c, "out of memory");
	}
	const zs_surface *zs = s ? replay_session_zs(s) : NULL;
	ulp_image *zimg = zs ? zs_rgba(zs) : NULL;
	if (zs && !(zimg && (c->zs0 = presented(s, zimg))))
		fail(c, "out of memory");
	ulp_image_free(zimg);
}

replay_capture *replay_capture_open(const replay_capture_opts *o, ulp_diag *d)
{
	if (mkdir(o->dir, 0777) != 0 && errno != EEXIST) {
		ulp_diag_at(d, o->dir, 0, 0, "cannot make the capture folder: %s", strerror(errno));
		return NULL;
	}
	replay_capture *c = calloc(1, sizeof *c);
	if (c)
		c->dir = strdup(o->dir);
	if (!c || !c->dir || !(c->now.state = cJSON_CreateArray())) {
		replay_capture_close(c);
		ulp_diag_at(d, o->dir, 0, 0, "out of memory");
		return NULL;
	}
	c->first = o->first;
	c->last = o->last;
	c->context = o->context;
	snprintf(c->gpu, sizeof c->gpu, "%s", o->gpu ? o->gpu : "tegra2");
	snprintf(c->name, sizeof c->name, "%s", o->name ? o->name : "capture");
	if (c->first == 0)
		begin_frame(c, NULL, 0);
	return c;
}

void replay_capture_set_context(replay_capture *c, unsigned context) { c->context = context; }

void replay_capture_close(replay_capture *c)
{
	if (!c)
		return;
	drop_frame(c);
	set_free(&c->now);
	free(c->dir);
	free(c);
}

/* ---- what the session is given ---- */

/* Resource r was set: into the mirror and, in a captured frame, the log. */
static void resource_set(replay_capture *c, const trace_resource *r)
{
	if (c->done)
		return;
	if (!put_res(&c->now, r)) {
		fail(c, "out of memory");
		return;
	}
	if (!c->capturing)
		return;
	if (find_res(&c->start, r->id) < 0 && find_res(&c->extra, r->id) < 0) {
		if (!put_res(&c->extra, r))       /* new in this frame: declared with these bytes */
			fail(c, "out of memory");
		return;
	}
	trace_resource v = *r;                /* a new version: update from it */
	snprintf(v.id, sizeof v.id, "cap.%.40s.%u", r->id, ++c->serial);
	cJSON *u = cJSON_CreateObject();
	if (!u || !put_res(&c->extra, &v)) {
		cJSON_Delete(u);
		fail(c, "out of memory");
		return;
	}
	cJSON_AddStringToObject(u, "cmd", "update");
	cJSON_AddStringToObject(u, "resource", r->id);
	cJSON_AddStringToObject(u, "from", v.id);
	cJSON_AddItemToArray(c->log, u);
}

void replay_capture_buffer(replay_capture *c, const char *id, const void *bytes, size_t len)
{
	trace_resource r;
	memset(&r, 0, sizeof r);
	snprintf(r.id, sizeof r.id, "%s", id);
	r.type = TRACE_BUFFER;
	r.bytes = (uint8_t *)(uintptr_t)bytes;    /* copied by put_res, never written */
	r.len = len;
	r.nlevels = 1;
	resource_set(c, &r);
}

void replay_capture_texture(replay_capture *c, const char *id, enum trace_texfmt f, enum trace_textarget target,
                            uint32_t width, uint32_t height, unsigned nlevels, const void *bytes, size_t len)
{
	trace_resource r;
	memset(&r, 0, sizeof r);
	snprintf(r.id, sizeof r.id, "%s", id);
	r.type = TRACE_TEXTURE;
	r.format = f;
	r.target = target;
	r.width = width;
	r.height = height;
	r.nlevels = nlevels;
	size_t off = 0;
	for (unsigned l = 0; l < nlevels && l < TRACE_TEX_LEVELS; l++) {
		const uint32_t w = width >> l ? width >> l : 1, h = height >> l ? height >> l : 1;
		r.level_off[l] = off;
		off += (size_t)w * h * trace_texfmt_bpp(f);
	}
	r.bytes = (uint8_t *)(uintptr_t)bytes;
	r.len = len;
	resource_set(c, &r);
}

void replay_capture_shader(replay_capture *c, const trace_shader *sh)
{
	if (c->done)
		return;
	const long k = find_sh(&c->now, sh->id);
	if (c->capturing && k >= 0 && (sh->text && c->now.sh[k].text ? strcmp(sh->text, c->now.sh[k].text) != 0
	                                                              : true))
		fail(c, "a shader was replaced during the frame");
	if (!put_sh(&c->now, sh) || (c->capturing && find_sh(&c->start, sh->id) < 0 && !put_sh(&c->extra, sh)))
		fail(c, "out of memory");
}

void replay_capture_remove_resource(replay_capture *c, const char *id)
{
	long k = find_res(&c->now, id);
	if (k < 0)
		return;
	free(c->now.res[k].bytes);
	memmove(&c->now.res[k], &c->now.res[k + 1], (c->now.nres - (size_t)k - 1) * sizeof *c->now.res);
	c->now.nres--;
}

void replay_capture_remove_shader(replay_capture *c, const char *id)
{
	long k = find_sh(&c->now, id);
	if (k < 0)
		return;
	free(c->now.sh[k].text);
	free(c->now.sh[k].path);
	memmove(&c->now.sh[k], &c->now.sh[k + 1], (c->now.nsh - (size_t)k - 1) * sizeof *c->now.sh);
	c->now.nsh--;
}

/* The key of a state command (the kind it replaces), or NULL: not state. */
static bool state_key(const cJSON *cmd, char *key, size_t n)
{
	static const char *const STATE[] = { "framebuffer", "bind_shaders", "vertex_elements", "constant_buffer",
		"blend", "depth_stencil_alpha", "rasterizer", "clip", "viewport", "scissor", "sampler", "sampler_view",
		NULL };
	const char *name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(cmd, "cmd"));
	int k = 0;
	while (name && STATE[k] && strcmp(STATE[k], name))
		k++;
	if (!name || !STATE[k])
		return false;
	const cJSON *idx = cJSON_GetObjectItemCaseSensitive(cmd, "index");
	const char *stage = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(cmd, "stage"));
	snprintf(key, n, "%s/%s/%d", name, stage ? stage : "", cJSON_IsNumber(idx) ? idx->valueint : -1);
	return true;
}

void replay_capture_command(replay_capture *c, const cJSON *cmd, bool ok)
{
	if (c->done)
		return;
	if (!ok) {
		if (c->capturing)
			fail(c, "a command of the frame failed in the session");
		return;
	}
	if (c->capturing) {
		cJSON *dup = cJSON_Duplicate(cmd, true);
		if (!dup)
			fail(c, "out of memory");
		else
			cJSON_AddItemToArray(c->log, dup);
	}
	char key[96], other[96];
	if (!state_key(cmd, key, sizeof key))
		return;
	for (cJSON *it = c->now.state->child; it; it = it->next)
		if (state_key(it, other, sizeof other) && !strcmp(key, other)) {
			cJSON_Delete(cJSON_DetachItemViaPointer(c->now.state, it));
			break;
		}
	cJSON *dup = cJSON_Duplicate(cmd, true);
	if (!dup)
		fail(c, "out of memory");
	else
		cJSON_AddItemToArray(c->now.state, dup);
}

/* img (top row first) as an RGBA8888 texture resource. */
static bool image_resource(replay_capture *c, const ulp_image *img, const char *id)
{
	trace_resource r;
	memset(&r, 0, sizeof r);
	snprintf(r.id, sizeof r.id, "%s", id);
	r.type = TRACE_TEXTURE;
	r.format = TRACE_RGBA8888;
	r.target = TRACE_TEX_2D;
	r.width = img->width;
	r.height = img->height;
	r.nlevels = 1;
	r.len = ulp_image_bytes(img);
	r.bytes = malloc(r.len ? r.len : 1);
	if (!r.bytes)
		return false;
	memcpy(r.bytes, img->rgba, r.len);
	bool ok = put_res(&c->extra, &r);
	free(r.bytes);
	return ok;
}

/* A CPU write of render target cbuf (< 0: zs) whose memory is img. */
static void log_target(replay_capture *c, replay_session *s, const ulp_image *mem, int cbuf)
{
	char id[64];
	snprintf(id, sizeof id, "cap.rt%s%d.%u", cbuf < 0 ? "zs" : "", cbuf < 0 ? 0 : cbuf, ++c->serial);
	cJSON *w = cJSON_CreateObject();
	ulp_image *img = w ? presented(s, mem) : NULL;
	const bool ok = img && image_resource(c, img, id);
	ulp_image_free(img);
	if (!ok) {
		cJSON_Delete(w);
		fail(c, "out of memory");
		return;
	}
	cJSON_AddStringToObject(w, "cmd", "write_target");
	if (cbuf < 0)
		cJSON_AddBoolToObject(w, "zs", true);
	else
		cJSON_AddNumberToObject(w, "cbuf", cbuf);
	cJSON_AddStringToObject(w, "resource", id);
	cJSON_AddItemToArray(c->log, w);
}

void replay_capture_targets(replay_capture *c, replay_session *s)
{
	if (!c->capturing)
		return;
	for (unsigned k = 0; k < replay_session_ncbufs(s); k++)
		log_target(c, s, replay_session_cbuf(s, k, NULL), (int)k);
	const zs_surface *zs = replay_session_zs(s);
	if (zs) {
		ulp_image *img = zs_rgba(zs);
		if (img)
			log_target(c, s, img, -1);
		else
			fail(c, "out of memory");
		ulp_image_free(img);
	}
}

bool replay_capture_frame(replay_capture *c, replay_session *s, unsigned n, uint64_t cycles, bool *written,
                          ulp_diag *d)
{
	*written = false;
	bool ok = true;
	if (c->capturing) {
		ulp_image *last = replay_session_ncbufs(s) ? presented(s, replay_session_cbuf(s, 0, NULL)) : NULL;
		if (c->tainted)
			ok = ulp_diag_at(d, c->dir, 0, 0, "frame %u not captured: %s", n, c->taint);
		else if (!last)
			ok = ulp_diag_at(d, c->dir, 0, 0, "frame %u not captured: no framebuffer was bound", n);
		else
			ok = *written = capture_write_frame(c->dir, c->name, c->gpu, c->context, n, &c->start, &c->extra,
			                                    c->log, c->cb0, c->ncb0, c->zs0, last, cycles - c->cycles0, d);
		ulp_image_free(last);
	}
	drop_frame(c);
	if (n + 1 >= c->first && n + 1 <= c->last)
		begin_frame(c, s, cycles);
	if (n >= c->last) {               /* the mirror is no longer needed */
		c->done = true;
		set_free(&c->now);
	}
	return ok;
}
