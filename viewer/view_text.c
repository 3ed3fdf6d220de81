/* Text: SDL2_ttf with Debian's DejaVu fonts, and a small cache of rendered
 * strings (a frame redraws the same labels; rasterizing each anew would be
 * the slowest part of a frame). */
#include "view.h"

#include <stdio.h>
#include <string.h>

#define FONT_DIR "/usr/share/fonts/truetype/dejavu/"
static const char *const FONT_FILE[] = { FONT_DIR "DejaVuSansMono.ttf", FONT_DIR "DejaVuSans.ttf",
                                         FONT_DIR "DejaVuSans-Bold.ttf" };

bool view_text_init(view_text *t, int px, char *err, size_t errlen)
{
	memset(t, 0, sizeof *t);
	if (TTF_Init() != 0) {
		snprintf(err, errlen, "SDL_ttf: %s", TTF_GetError());
		return false;
	}
	TTF_Font **slot[] = { &t->mono, &t->sans, &t->bold };
	for (unsigned k = 0; k < 3; k++) {
		/* the bold face is optional: fall back to the regular one */
		*slot[k] = TTF_OpenFont(FONT_FILE[k], px);
		if (!*slot[k] && k == 2)
			*slot[k] = TTF_OpenFont(FONT_FILE[1], px);
		if (!*slot[k]) {
			snprintf(err, errlen,
			         "cannot open the font %s (%s); install Debian's fonts-dejavu-core",
			         FONT_FILE[k], TTF_GetError());
			view_text_fini(t);
			return false;
		}
	}
	t->line_h = TTF_FontLineSkip(t->mono);
	if (TTF_SizeUTF8(t->mono, "0", &t->char_w, NULL) != 0)
		t->char_w = px * 6 / 10;
	return true;
}

void view_text_fini(view_text *t)
{
	for (unsigned k = 0; k < VIEW_TEXT_CACHE; k++)
		if (t->cache[k].tex)
			SDL_DestroyTexture(t->cache[k].tex);
	TTF_Font *f[] = { t->mono, t->sans, t->bold };
	for (unsigned k = 0; k < 3; k++)
		if (f[k])
			TTF_CloseFont(f[k]);
	if (TTF_WasInit())
		TTF_Quit();
	memset(t, 0, sizeof *t);
}

static uint32_t pack(SDL_Color c) { return (uint32_t)c.r << 24 | (uint32_t)c.g << 16 | (uint32_t)c.b << 8 | c.a; }

int view_text_draw(view_text *t, SDL_Renderer *r, int font, int x, int y, SDL_Color c, const char *s)
{
	if (!s || !*s)
		return 0;
	const uint32_t rgba = pack(c);
	view_text_entry *hit = NULL, *victim = &t->cache[0];
	size_t len = strlen(s);
	for (unsigned k = 0; k < VIEW_TEXT_CACHE; k++) {
		view_text_entry *e = &t->cache[k];
		if (e->tex && e->rgba == rgba && e->font == font && len < sizeof e->s && !strcmp(e->s, s)) {
			hit = e;
			break;
		}
		if (!e->tex) {
			if (victim->tex)
				victim = e;            /* an empty slot first */
		} else if (victim->tex && e->used < victim->used) {
			victim = e;                /* then the least recently used */
		}
	}
	if (!hit) {
		TTF_Font *f = font == VIEW_FONT_SANS ? t->sans : font == VIEW_FONT_BOLD ? t->bold : t->mono;
		SDL_Surface *surf = TTF_RenderUTF8_Blended(f, s, c);
		if (!surf)
			return 0;
		SDL_Texture *tex = SDL_CreateTextureFromSurface(r, surf);
		int w = surf->w, h = surf->h;
		SDL_FreeSurface(surf);
		if (!tex)
			return 0;
		if (len >= sizeof victim->s) {          /* too long to cache: draw once */
			SDL_Rect dst = { x, y, w, h };
			SDL_RenderCopy(r, tex, NULL, &dst);
			SDL_DestroyTexture(tex);
			return w;
		}
		if (victim->tex)
			SDL_DestroyTexture(victim->tex);
		memcpy(victim->s, s, len + 1);
		victim->rgba = rgba;
		victim->font = font;
		victim->tex = tex;
		victim->w = w;
		victim->h = h;
		hit = victim;
	}
	hit->used = t->frame;
	SDL_Rect dst = { x, y, hit->w, hit->h };
	SDL_RenderCopy(r, hit->tex, NULL, &dst);
	return hit->w;
}
