/* Resources of the ulpsim driver (docs/gl.md "Resources"): buffers and
 * textures in host memory, all levels and layers in one allocation; maps
 * that point straight into it (draws are synchronous, so a map never
 * waits); display targets that keep their pixels in host memory too, level
 * 0 copied into the winsys's target when the frame is presented
 * (flush_frontbuffer), which also writes ULPSIM_GL_FRAMES/frame-NNNN.png
 * and a frame line to ULPSIM_GL_SUMMARY. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontends/gallium/ulpsim_context.h"
#include "frontends/gallium/ulpsim_gallium.h"
#include "traces/gl/gl_run.h"

#include "base/diag.h"
#include "base/image.h"

#include "frontend/sw_winsys.h"
#include "pipe/p_defines.h"
#include "util/format/u_format.h"
#include "util/u_inlines.h"
#include "util/u_math.h"
#include "util/u_memory.h"
#include "util/u_transfer.h"

/* Bytes per row padded to 4 like the simulator's render targets; layers of
 * a level one after another, levels one after another, 64-byte aligned. */
static bool layout(struct ulpsim_resource *r)
{
	const struct pipe_resource *t = &r->base;
	if (t->target == PIPE_BUFFER) {
		r->size = t->width0;
		r->stride[0] = t->width0;
		r->layer_size[0] = t->width0;
		return true;
	}
	if (t->last_level >= ULPSIM_MAX_LEVELS)
		return false;
	size_t off = 0;
	for (unsigned l = 0; l <= t->last_level; l++) {
		unsigned w = u_minify(t->width0, l), h = u_minify(t->height0, l), d = u_minify(t->depth0, l);
		unsigned layers = t->target == PIPE_TEXTURE_3D ? d : t->array_size;
		r->stride[l] = align(util_format_get_stride(t->format, w), 4);
		r->layer_size[l] = (size_t)r->stride[l] * util_format_get_nblocksy(t->format, h);
		r->level_offset[l] = off;
		off += align64(r->layer_size[l] * layers, 64);
	}
	r->size = off;
	return true;
}

static struct pipe_resource *resource_create(struct pipe_screen *screen, const struct pipe_resource *templ,
                                             const void *front_private)
{
	struct ulpsim_screen *s = ulpsim_screen(screen);
	struct ulpsim_resource *r = CALLOC_STRUCT(ulpsim_resource);
	if (!r)
		return NULL;
	r->base = *templ;
	r->base.screen = screen;
	pipe_reference_init(&r->base.reference, 1);
	if (!layout(r)) {
		FREE(r);
		return NULL;
	}
	r->data = calloc(1, r->size ? r->size : 1);
	if (!r->data) {
		FREE(r);
		return NULL;
	}
	if ((templ->bind & (PIPE_BIND_DISPLAY_TARGET | PIPE_BIND_SCANOUT | PIPE_BIND_SHARED)) && s->winsys
	    && s->winsys->displaytarget_create) {
		r->dt = s->winsys->displaytarget_create(s->winsys, templ->bind, templ->format, templ->width0,
		                                        templ->height0, 64, front_private, &r->dt_stride);
		/* no target (the null winsys of surfaceless EGL): host memory only */
	}
	return &r->base;
}

static struct pipe_resource *ulpsim_resource_create(struct pipe_screen *screen, const struct pipe_resource *templ)
{
	return resource_create(screen, templ, NULL);
}

static struct pipe_resource *ulpsim_resource_create_front(struct pipe_screen *screen,
                                                          const struct pipe_resource *templ,
                                                          const void *front_private)
{
	return resource_create(screen, templ, front_private);
}

static void ulpsim_resource_destroy(struct pipe_screen *screen, struct pipe_resource *pt)
{
	struct ulpsim_screen *s = ulpsim_screen(screen);
	struct ulpsim_resource *r = ulpsim_resource(pt);
	if (r->dt && s->winsys)
		s->winsys->displaytarget_destroy(s->winsys, r->dt);
	if (!r->user_ptr)
		free(r->data);
	FREE(r);
}

static struct pipe_resource *ulpsim_resource_from_user_memory(struct pipe_screen *screen,
                                                              const struct pipe_resource *templ,
                                                              void *user_memory)
{
	struct ulpsim_resource *r = CALLOC_STRUCT(ulpsim_resource);
	if (!r)
		return NULL;
	r->base = *templ;
	r->base.screen = screen;
	pipe_reference_init(&r->base.reference, 1);
	if (templ->target != PIPE_BUFFER || !layout(r)) {
		FREE(r);
		return NULL;
	}
	r->data = user_memory;
	r->user_ptr = true;
	return &r->base;
}

/* ---- transfers ---- */

static void *ulpsim_map(struct pipe_context *pipe, struct pipe_resource *resource, unsigned level, unsigned usage,
                        const struct pipe_box *box, struct pipe_transfer **out)
{
	(void)pipe;
	struct ulpsim_resource *r = ulpsim_resource(resource);
	struct pipe_transfer *t = CALLOC_STRUCT(pipe_transfer);
	if (!t)
		return NULL;
	pipe_resource_reference(&t->resource, resource);
	t->level = level;
	t->usage = usage;
	t->box = *box;
	t->stride = r->stride[level];
	t->layer_stride = r->layer_size[level];
	if (usage & PIPE_MAP_WRITE)
		r->generation++;
	*out = t;
	if (resource->target == PIPE_BUFFER)
		return r->data + box->x;
	const struct util_format_description *d = util_format_description(resource->format);
	size_t off = r->level_offset[level] + (size_t)box->z * r->layer_size[level]
	             + (size_t)(box->y / d->block.height) * r->stride[level]
	             + (size_t)(box->x / d->block.width) * (d->block.bits / 8);
	return r->data + off;
}

static void ulpsim_unmap(struct pipe_context *pipe, struct pipe_transfer *t)
{
	(void)pipe;
	pipe_resource_reference(&t->resource, NULL);
	FREE(t);
}

/* ---- presenting a frame ---- */

void ulpsim_summary_line(struct ulpsim_screen *s, const char *json)
{
	if (!s->summary_path)
		return;
	FILE *f = fopen(s->summary_path, "a");
	if (!f)
		return;
	fprintf(f, "%s\n", json);
	fclose(f);
}

/* Level 0 of r as RGBA8, top row first (GL's window system buffers are
 * drawn with y down in Gallium, so memory row 0 is the top). */
static void write_frame_png(struct ulpsim_screen *s, struct ulpsim_resource *r, unsigned layer)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	ulp_image *img = ulp_image_create(r->base.width0, r->base.height0, &d);
	if (!img)
		return;
	const uint8_t *src = r->data + r->level_offset[0] + (size_t)layer * r->layer_size[0];
	util_format_unpack_rgba_8unorm_rect(r->base.format, img->rgba, img->width * 4, src, r->stride[0],
	                                    img->width, img->height);
	const ulp_gl_format *f = ulpsim_format_lookup(r->base.format);
	if (f && f->no_alpha)
		for (size_t i = 0; i < ulp_image_bytes(img); i += 4)
			img->rgba[i + 3] = 255;
	char path[4096];
	snprintf(path, sizeof path, "%s/frame-%04u.png", s->frames_dir, s->frames);
	if (!ulp_image_save_png(img, path, &d))
		fprintf(stderr, "ulpsim: %s: %s\n", path, d.msg);
	ulp_image_free(img);
}

static void ulpsim_flush_frontbuffer(struct pipe_screen *screen, struct pipe_context *ctx,
                                     struct pipe_resource *resource, unsigned level, unsigned layer,
                                     void *winsys_drawable_handle, struct pipe_box *subbox)
{
	struct ulpsim_screen *s = ulpsim_screen(screen);
	struct ulpsim_resource *r = ulpsim_resource(resource);
	if (r->dt && s->winsys) {
		uint8_t *dst = s->winsys->displaytarget_map(s->winsys, r->dt, PIPE_MAP_WRITE);
		if (dst) {
			const uint8_t *src = r->data + r->level_offset[level] + (size_t)layer * r->layer_size[level];
			size_t row = util_format_get_stride(resource->format, resource->width0);
			unsigned rows = util_format_get_nblocksy(resource->format, resource->height0);
			for (unsigned y = 0; y < rows; y++)
				memcpy(dst + (size_t)y * r->dt_stride, src + (size_t)y * r->stride[level], row);
			s->winsys->displaytarget_unmap(s->winsys, r->dt);
		}
		s->winsys->displaytarget_display(s->winsys, r->dt, winsys_drawable_handle, subbox);
	}
	if (s->frames_dir && level == 0)
		write_frame_png(s, r, layer);
	char line[256];
	snprintf(line, sizeof line, "{\"frame\":%u,\"draws\":%" PRIu64 ",\"cycles\":%" PRIu64 ",\"fragments\":%" PRIu64 "}",
	         s->frames, s->run.draws - s->at_frame.draws, s->run.cycles - s->at_frame.cycles,
	         s->run.fragments - s->at_frame.fragments);
	ulpsim_summary_line(s, line);
	if (ctx)                          /* --capture: the frame as a trace (ulpsim_context.c) */
		ulpsim_capture_frame(ulpsim_context(ctx), s->frames);
	ulp_diag d;                  /* stats.txt and timeline of the run so far: whole even if the program is killed */
	ulp_diag_clear(&d);
	if (s->outputs && !ulp_gl_run_write(s->outputs, &d))
		fprintf(stderr, "ulpsim: %s\n", d.msg);
	s->at_frame = s->run;
	s->frames++;
}

void ulpsim_init_screen_resource_functions(struct pipe_screen *screen)
{
	screen->resource_create = ulpsim_resource_create;
	screen->resource_create_front = ulpsim_resource_create_front;
	screen->resource_destroy = ulpsim_resource_destroy;
	screen->resource_from_user_memory = ulpsim_resource_from_user_memory;
	screen->flush_frontbuffer = ulpsim_flush_frontbuffer;
}

void ulpsim_init_context_resource_functions(struct pipe_context *pipe)
{
	pipe->buffer_map = ulpsim_map;
	pipe->buffer_unmap = ulpsim_unmap;
	pipe->texture_map = ulpsim_map;
	pipe->texture_unmap = ulpsim_unmap;
	pipe->transfer_flush_region = u_default_transfer_flush_region;
	pipe->buffer_subdata = u_default_buffer_subdata;
	pipe->texture_subdata = u_default_texture_subdata;
}
