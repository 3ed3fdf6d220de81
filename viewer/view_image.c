/* The render-target pane: colour buffer 0 (top row first) as it stood at
 * the cycle cursor (ulpsim_image_at), zoomed with the wheel and panned by
 * dragging; a pixel grid from 8x; the selected pixel outlined; a readout of
 * the pixel under the mouse. */
#include "view.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const SDL_Color GRID = { 60, 60, 70, 255 }, SEL = { 255, 220, 0, 255 },
                       QUAD = { 0, 200, 255, 255 }, LABEL = { 220, 220, 220, 255 },
                       PANEL = { 24, 24, 30, 255 }, BORDER = { 70, 70, 80, 255 };

bool view_image_upload(viewer *v)
{
	if (v->img_tex)
		SDL_DestroyTexture(v->img_tex);
	v->img_tex = SDL_CreateTexture(v->r, SDL_PIXELFORMAT_RGBA32, SDL_TEXTUREACCESS_STATIC,
	                               (int)v->m.img_w, (int)v->m.img_h);
	if (!v->img_tex) {
		snprintf(v->msg, sizeof v->msg, "texture: %s", SDL_GetError());
		return false;
	}
	if (SDL_UpdateTexture(v->img_tex, NULL, v->m.img, (int)v->m.img_w * 4) != 0 ||
	    SDL_SetTextureBlendMode(v->img_tex, SDL_BLENDMODE_NONE) != 0) {
		snprintf(v->msg, sizeof v->msg, "texture: %s", SDL_GetError());
		return false;
	}
	free(v->frame);
	v->frame = malloc((size_t)v->m.img_w * v->m.img_h * 4);
	v->frame_valid = false;
	if (!v->frame) {
		snprintf(v->msg, sizeof v->msg, "out of memory for the frame at the cursor");
		return false;
	}
	return true;
}

/* The frame at the cursor into the texture (when the cursor moved). */
static void view_image_sync(viewer *v)
{
	if (!v->ready || !v->img_tex || !v->frame || (v->frame_valid && v->frame_cycle == v->cursor))
		return;
	char why[200];
	const bool ok = ulpsim_image_at(v->sim, v->cursor, v->frame, why, sizeof why);
	if (!ok)                                   /* show the final frame and say why */
		snprintf(v->frame_why, sizeof v->frame_why, "%s", why);
	v->frame_final = !ok;
	v->frame_cycle = v->cursor;
	v->frame_valid = true;
	SDL_UpdateTexture(v->img_tex, NULL, ok ? v->frame : v->m.img, (int)v->m.img_w * 4);
}

/* The RGBA the render-target pane shows for pixel (x, y). */
static const uint8_t *view_image_rgba(const viewer *v, uint32_t x, uint32_t y)
{
	const uint8_t *img = v->frame_valid && !v->frame_final ? v->frame : v->m.img;
	return img + 4 * ((size_t)y * v->m.img_w + x);
}

void view_image_fit(viewer *v)
{
	const view_rect *p = &v->pane_img;
	if (!v->m.img_w || !v->m.img_h)
		return;
	double avail_h = p->h - 2 * v->text.line_h - 8;
	double z = fmin((p->w - 16) / (double)v->m.img_w, avail_h / (double)v->m.img_h);
	if (z >= 1)
		z = floor(z);
	if (z <= 0)
		z = 1;
	v->img_zoom = z;
	v->img_ox = (p->w - z * v->m.img_w) / 2;
	v->img_oy = v->text.line_h + 4 + (avail_h - z * v->m.img_h) / 2;
	v->img_fitted = true;
}

bool view_image_pixel_at(const viewer *v, int sx, int sy, uint32_t *x, uint32_t *y)
{
	const view_rect *p = &v->pane_img;
	if (!v->ready || sx < p->x || sy < p->y || sx >= p->x + p->w || sy >= p->y + p->h)
		return false;
	double fx = (sx - p->x - v->img_ox) / v->img_zoom, fy = (sy - p->y - v->img_oy) / v->img_zoom;
	if (fx < 0 || fy < 0 || fx >= v->m.img_w || fy >= v->m.img_h)
		return false;
	*x = (uint32_t)fx;
	*y = (uint32_t)fy;
	return true;
}

void view_image_zoom(viewer *v, int sx, int sy, double factor)
{
	const view_rect *p = &v->pane_img;
	double z = v->img_zoom * factor;
	if (z < 0.25)
		z = 0.25;
	if (z > 64)
		z = 64;
	double fx = (sx - p->x - v->img_ox) / v->img_zoom, fy = (sy - p->y - v->img_oy) / v->img_zoom;
	v->img_zoom = z;
	v->img_ox = sx - p->x - fx * z;
	v->img_oy = sy - p->y - fy * z;
	v->img_fitted = false;
}

static void outline(viewer *v, uint32_t x, uint32_t y, uint32_t w, uint32_t h, SDL_Color c)
{
	const view_rect *p = &v->pane_img;
	int sx = p->x + (int)lround(v->img_ox + x * v->img_zoom);
	int sy = p->y + (int)lround(v->img_oy + y * v->img_zoom);
	int sw = (int)lround(w * v->img_zoom), sh = (int)lround(h * v->img_zoom);
	if (sw < 3)
		sw = 3;
	if (sh < 3)
		sh = 3;
	view_frame(v->r, sx - 1, sy - 1, sw + 2, sh + 2, c);
	view_frame(v->r, sx - 2, sy - 2, sw + 4, sh + 4, (SDL_Color){ 0, 0, 0, 255 });
}

void view_image_draw(viewer *v)
{
	const view_rect *p = &v->pane_img;
	view_fill(v->r, p->x, p->y, p->w, p->h, PANEL);
	view_frame(v->r, p->x, p->y, p->w, p->h, BORDER);
	char buf[160];
	if (!v->ready || !v->img_tex) {
		view_text_draw(&v->text, v->r, VIEW_FONT_BOLD, p->x + 8, p->y + 4, LABEL, "render target");
		return;
	}
	view_image_sync(v);
	if (v->frame_final)
		snprintf(buf, sizeof buf, "render target %ux%u: final frame (cycle %llu not logged) %.3gx",
		         v->m.img_w, v->m.img_h, (unsigned long long)v->cursor, v->img_zoom);
	else
		snprintf(buf, sizeof buf, "render target %ux%u at cycle %llu%s %.3gx", v->m.img_w, v->m.img_h,
		         (unsigned long long)v->cursor, v->cursor + 1 >= v->m.end ? " (final frame)" : "",
		         v->img_zoom);
	SDL_Rect clip = { p->x + 1, p->y + 1, p->w - 2, p->h - 2 };
	SDL_RenderSetClipRect(v->r, &clip);
	SDL_Rect dst = { p->x + (int)lround(v->img_ox), p->y + (int)lround(v->img_oy),
	                 (int)lround(v->m.img_w * v->img_zoom), (int)lround(v->m.img_h * v->img_zoom) };
	SDL_RenderCopy(v->r, v->img_tex, NULL, &dst);
	if (v->img_zoom >= 8) {
		/* the grid, only over the visible pixels */
		int x0 = (int)fmax(0, floor(-v->img_ox / v->img_zoom));
		int x1 = (int)fmin(v->m.img_w, ceil((p->w - v->img_ox) / v->img_zoom));
		int y0 = (int)fmax(0, floor(-v->img_oy / v->img_zoom));
		int y1 = (int)fmin(v->m.img_h, ceil((p->h - v->img_oy) / v->img_zoom));
		SDL_SetRenderDrawColor(v->r, GRID.r, GRID.g, GRID.b, GRID.a);
		for (int x = x0; x <= x1; x++) {
			int sx = dst.x + (int)lround(x * v->img_zoom);
			SDL_RenderDrawLine(v->r, sx, dst.y + (int)lround(y0 * v->img_zoom), sx,
			                   dst.y + (int)lround(y1 * v->img_zoom));
		}
		for (int y = y0; y <= y1; y++) {
			int sy = dst.y + (int)lround(y * v->img_zoom);
			SDL_RenderDrawLine(v->r, dst.x + (int)lround(x0 * v->img_zoom), sy,
			                   dst.x + (int)lround(x1 * v->img_zoom), sy);
		}
	}
	if (v->have_sel) {
		const view_journey *j = &v->journey;
		if (j->valid) {                       /* the quad: window y up, image rows down */
			const uint32_t a = ulpsim_window_y(v->sim, j->q.qy, v->m.img_h),
			               b = ulpsim_window_y(v->sim, j->q.qy + 1, v->m.img_h), top = a < b ? a : b;
			outline(v, j->q.qx, top, 2, 2, QUAD);
		}
		outline(v, j->x, j->y, 1, 1, SEL);
	}
	SDL_RenderSetClipRect(v->r, NULL);
	view_fill(v->r, p->x + 1, p->y + 1, p->w - 2, v->text.line_h + 2, PANEL);
	view_text_draw(&v->text, v->r, VIEW_FONT_BOLD, p->x + 8, p->y + 2, LABEL, buf);
	/* the readout: the pixel under the mouse, else the selected one */
	uint32_t x, y;
	bool have = view_image_pixel_at(v, v->mouse_x, v->mouse_y, &x, &y);
	if (!have && v->have_sel) {
		x = v->journey.x;
		y = v->journey.y;
		have = x < v->m.img_w && y < v->m.img_h;
	}
	int ry = p->y + p->h - v->text.line_h - 4;
	view_fill(v->r, p->x + 1, ry - 2, p->w - 2, v->text.line_h + 5, PANEL);
	if (have) {
		const uint8_t *px = view_image_rgba(v, x, y);
		snprintf(buf, sizeof buf, "x %u  y %u  (window y %u)  RGBA %3u %3u %3u %3u", x, y,
		         ulpsim_window_y(v->sim, y, v->m.img_h), px[0], px[1], px[2], px[3]);
		view_fill(v->r, p->x + 8, ry + 2, v->text.line_h - 4, v->text.line_h - 4,
		          (SDL_Color){ px[0], px[1], px[2], 255 });
		view_text_draw(&v->text, v->r, VIEW_FONT_MONO, p->x + 12 + v->text.line_h, ry, LABEL, buf);
	} else {
		view_text_draw(&v->text, v->r, VIEW_FONT_MONO, p->x + 8, ry, LABEL,
		               "wheel: zoom  drag: pan  click: a pixel's journey");
	}
}
