/* The replay's draw-state driver (replay_state.h; docs/replay.md). */
#include "traces/replay/replay_state.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "traces/replay/driver_pica.h"
#include "units/geom/gr3d_state.h"
#include "units/geom/pica_vtx.h"
#include "traces/replay/replay_tex.h"

enum { MEM_FIRST = 0x10000, MEM_ALIGN = 0x1000, MEM_LIMIT = 0x0FFFFFFF };

static const char *str(const struct cJSON *c, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(c, k);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static double num(const struct cJSON *c, const char *k, double def)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(c, k);
	return cJSON_IsNumber(v) ? v->valuedouble : def;
}

void replay_state_init(replay_state *st, const trace *t)
{
	memset(st, 0, sizeof *st);
	st->t = t;
	st->next = MEM_FIRST;
}

void replay_state_free(replay_state *st)
{
	for (unsigned k = 0; k < GR3D_SAMPLERS; k++)
		for (unsigned l = 0; l < GR3D_TEX_LEVELS; l++)
			ulp_image_free(st->tex_img[k][l]);
	free(st->base);
	free(st->cap);
	free(st->order);
	free(st->free_base);
	free(st->free_cap);
	memset(st, 0, sizeof *st);
}

/* Room for len bytes: whole 4 KB pages (a place of cap bytes is followed
 * by a 4 KB gap). */
static uint64_t room(size_t len)
{
	return ((uint64_t)len + MEM_ALIGN - 1) / MEM_ALIGN * MEM_ALIGN;
}

/* order: the placed resources sorted by address (insertion sort: the
 * table is short and nearly sorted). */
static void sort_order(replay_state *st)
{
	for (size_t k = 0; k < st->nplaced; k++)
		st->order[k] = k;
	for (size_t k = 1; k < st->nplaced; k++) {
		size_t v = st->order[k], j = k;
		for (; j && st->base[st->order[j - 1]] > st->base[v]; j--)
			st->order[j] = st->order[j - 1];
		st->order[j] = v;
	}
}

/* Forgets the decoded textures read from base (their bytes changed). */
static void touch(replay_state *st, uint32_t base)
{
	for (unsigned i = 0; i < GR3D_SAMPLERS; i++)
		if (st->tex_key[i][0] == base)
			memset(st->tex_key[i], 0, sizeof st->tex_key[i]);
}

static bool add_free(replay_state *st, uint32_t base, uint32_t cap)
{
	if (st->nfree == st->free_alloc) {
		size_t n = st->free_alloc ? 2 * st->free_alloc : 16;
		uint32_t *b = realloc(st->free_base, n * sizeof *b);
		if (b)
			st->free_base = b;
		uint32_t *c = realloc(st->free_cap, n * sizeof *c);
		if (c)
			st->free_cap = c;
		if (!b || !c)
			return false;
		st->free_alloc = n;
	}
	st->free_base[st->nfree] = base;
	st->free_cap[st->nfree++] = cap;
	return true;
}

bool replay_state_place(replay_state *st, size_t k, size_t len, const char *path, ulp_diag *d)
{
	if (k >= st->nalloc) {
		size_t n = st->nalloc ? 2 * st->nalloc : 16;
		while (n <= k)
			n *= 2;
		uint32_t *b = realloc(st->base, n * sizeof *b);
		if (b)
			st->base = b;
		uint32_t *c = realloc(st->cap, n * sizeof *c);
		if (c)
			st->cap = c;
		size_t *o = realloc(st->order, n * sizeof *o);
		if (o)
			st->order = o;
		if (!b || !c || !o)
			return ulp_diag_at(d, path, 0, 0, "out of memory");
		st->nalloc = n;
	}
	const bool fresh = k >= st->nplaced;
	const uint64_t need = room(len);
	if (!fresh && need <= st->cap[k]) {
		touch(st, st->base[k]);
		return true;
	}
	if (!fresh) {                               /* moves: its place becomes free */
		touch(st, st->base[k]);
		if (!add_free(st, st->base[k], st->cap[k]))
			return ulp_diag_at(d, path, 0, 0, "out of memory");
	}
	size_t best = SIZE_MAX;                     /* first fit among the free places */
	for (size_t j = 0; j < st->nfree && best == SIZE_MAX; j++)
		if (st->free_cap[j] >= need)
			best = j;
	if (best != SIZE_MAX) {
		st->base[k] = st->free_base[best];
		st->cap[k] = st->free_cap[best];
		touch(st, st->base[k]);
		st->free_base[best] = st->free_base[--st->nfree];
		st->free_cap[best] = st->free_cap[st->nfree];
	} else {
		if (st->next + need + MEM_ALIGN > (uint64_t)MEM_LIMIT)
			return ulp_diag_at(d, path, 0, 0, "the trace's resources do not fit the 256 MB the "
			                   "PICA200's 28-bit buffer offsets address");
		st->base[k] = st->next;
		st->cap[k] = (uint32_t)need;
		st->next += (uint32_t)(need + MEM_ALIGN);   /* + a gap */
	}
	if (fresh)
		st->nplaced = k + 1;
	sort_order(st);
	return true;
}

void replay_state_remove(replay_state *st, size_t k)
{
	if (k >= st->nplaced)
		return;
	touch(st, st->base[k]);
	add_free(st, st->base[k], st->cap[k]);       /* out of memory: the place is lost, not reused */
	memmove(st->base + k, st->base + k + 1, (st->nplaced - k - 1) * sizeof *st->base);
	memmove(st->cap + k, st->cap + k + 1, (st->nplaced - k - 1) * sizeof *st->cap);
	st->nplaced--;
	sort_order(st);
}

/* The resource whose place [base, base + cap) holds addr, or -1. */
static long resource_at(const replay_state *st, uint32_t addr)
{
	size_t lo = 0, hi = st->nplaced;
	while (lo < hi) {                  /* the last base <= addr */
		size_t mid = (lo + hi) / 2;
		if (st->base[st->order[mid]] <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return -1;
	size_t k = st->order[lo - 1];
	return addr - st->base[k] < (uint64_t)st->cap[k] + MEM_ALIGN ? (long)k : -1;
}

static uint32_t addr_of(const replay_state *st, const trace_resource *res)
{
	return res ? st->base[res - st->t->res] : 0;
}

/* vfetch_read_fn over the layout (mem: the replay_state). */
static const uint8_t *replay_mem_read(const void *mem, uint32_t addr, uint32_t len)
{
	const replay_state *st = mem;
	long k = resource_at(st, addr);
	if (k < 0)
		return NULL;
	const trace_resource *res = &st->t->res[k];
	uint64_t off = addr - st->base[k];
	return off + len <= res->len ? res->bytes + off : NULL;
}

/* ---- viewport, scissor ---- */

void replay_state_viewport(replay_state *st, reg_stream *s, const double scale[3], const double translate[3])
{
	memcpy(st->vp_scale, scale, sizeof st->vp_scale);
	memcpy(st->vp_translate, translate, sizeof st->vp_translate);
	drv_gr3d_viewport(s, scale, translate);
}

void replay_state_scissor(replay_state *st, reg_stream *s, const struct cJSON *c)
{
	static const char *const k[4] = { "minx", "miny", "maxx", "maxy" };
	for (int j = 0; c && j < 4; j++)
		st->scissor_rect[j] = (int)num(c, k[j], 0);
	drv_gr3d_scissor(s, st->scissor, st->scissor_rect);
}

void replay_state_scissor_enable(replay_state *st, reg_stream *s, bool on)
{
	st->scissor = on;
	drv_gr3d_scissor(s, on, st->scissor_rect);
}

/* ---- texture units ---- */

void replay_state_sampler(replay_state *st, reg_stream *s, const struct cJSON *c, uint8_t *shadow_cmp)
{
	unsigned idx = (unsigned)num(c, "index", 0) % GR3D_SAMPLERS;
	replay_sampler_state(&st->sampler[idx], shadow_cmp, c);
	drv_gr3d_texture(s, idx, st->tex_ptr[idx], &st->sampler[idx], st->tex_w[idx], st->tex_h[idx]);
}

void replay_state_sampler_view(replay_state *st, reg_stream *s, const struct cJSON *c)
{
	unsigned idx = (unsigned)num(c, "index", 0) % GR3D_SAMPLERS;
	const trace_resource *res = trace_find_resource(st->t, str(c, "resource"));
	gr3d_sampler *sm = &st->sampler[idx];
	st->tex_ptr[idx] = addr_of(st, res);
	st->tex_w[idx] = res ? res->width : 0;
	st->tex_h[idx] = res ? res->height : 0;
	sm->format = res ? replay_tex_format(res->format) : 0;
	sm->nlevels = (uint8_t)(res ? res->nlevels : 1);
	drv_gr3d_texture(s, idx, st->tex_ptr[idx], sm, st->tex_w[idx], st->tex_h[idx]);
}

/* Texture unit i for a draw: the descriptor's sampler with its images,
 * decoded from the resource TEXTURE_POINTER names (kept while the pointer
 * and descriptor stay the same). */
static bool texture_unit(replay_state *st, const gr3d_regs *gr, unsigned i, gr3d_sampler *sm, ulp_diag *d)
{
	uint32_t ptr, w, h;
	gr3d_regs_texture(gr, i, sm, &ptr, &w, &h);
	if (!ptr)
		return true;                              /* unbound: samples 0, 0, 0, 0 */
	long k = resource_at(st, ptr);
	const trace_resource *res = k >= 0 && st->base[k] == ptr ? &st->t->res[k] : NULL;
	if (!res || res->type != TRACE_TEXTURE)
		return ulp_diag_at(d, NULL, 0, 0, "TEXTURE_POINTER (0x%03x) = 0x%x is no texture's address",
		                   GR3D_REG_AT(TEXTURE_POINTER, i), ptr);
	if (w != res->width || h != res->height || sm->nlevels > res->nlevels ||
	    sm->format != replay_tex_format(res->format))
		return ulp_diag_at(d, NULL, 0, 0, "TEXTURE_DESC of unit %u (%ux%u, %u levels, format %u) does not "
		                   "describe texture '%s' at 0x%x", i, w, h, sm->nlevels, sm->format, res->id, ptr);
	const uint32_t key[3] = { ptr, w | h << 16, sm->nlevels };
	if (memcmp(key, st->tex_key[i], sizeof key) || !st->tex_img[i][0]) {
		gr3d_sampler scratch;
		memset(&scratch, 0, sizeof scratch);
		memset(st->tex_key[i], 0, sizeof st->tex_key[i]);
		if (!replay_texture(res, &scratch, st->tex_img[i], d))
			return false;
		memcpy(st->tex_key[i], key, sizeof key);
	}
	sm->img = st->tex_img[i][0];
	for (unsigned l = 0; l < sm->nlevels; l++)
		sm->level[l] = st->tex_img[i][l];
	return true;
}

/* ---- vertex elements and draws ---- */

bool replay_state_vertex_elements(replay_state *st, reg_stream *s, const struct cJSON *c, ulp_diag *d)
{
	drv_pica_attr a[16];
	uint8_t perm[16];
	unsigned n = 0;
	const cJSON *els = cJSON_GetObjectItemCaseSensitive(c, "elements");
	for (const cJSON *it = els ? els->child : NULL; it && n < 16; it = it->next, n++) {
		const char *f = str(it, "format");
		const bool unorm8 = f && !strcmp(f, "R8G8B8A8_UNORM");
		a[n].addr = addr_of(st, trace_find_resource(st->t, str(it, "buffer"))) + (uint32_t)num(it, "offset", 0);
		a[n].stride = (uint32_t)num(it, "stride", 0);
		a[n].type = unorm8 ? VFETCH_U8 : VFETCH_F32;
		a[n].ncomp = unorm8 ? 4 : !strcmp(f, "R32_FLOAT") ? 1 : !strcmp(f, "R32G32_FLOAT") ? 2
		           : !strcmp(f, "R32G32B32_FLOAT") ? 3 : 4;
		a[n].normalize = unorm8;
		perm[n] = (uint8_t)n;                      /* element k -> IN[k] -> v k */
	}
	if (!drv_pica_vertex_buffers(s, a, n, d))
		return false;
	drv_pica_attributes(s, false, n, perm);
	return true;
}

bool replay_state_draw(replay_state *st, reg_stream *s, const struct cJSON *c, bool gs, ulp_diag *d)
{
	const char *mode = str(c, "mode");
	unsigned m = gs ? PRIM_GEOMETRY     /* PRIMITIVE_CONFIG mode 3: the GS's input primitives */
	           : !strcmp(mode, "triangles") ? PRIM_TRIANGLES : !strcmp(mode, "triangle_strip")
	           ? PRIM_TRIANGLE_STRIP : !strcmp(mode, "triangle_fan") ? PRIM_TRIANGLE_FAN : 99;
	if (m == 99)
		return ulp_diag_at(d, NULL, 0, 0, "points and lines are not in this build yet: %s", mode);
	uint32_t count = (uint32_t)num(c, "count", 0), start = (uint32_t)num(c, "start", 0);
	const char *ib = str(c, "index_buffer");
	if (!ib) {
		drv_pica_draw(s, m, count, start, 0, 0);
		return true;
	}
	const trace_resource *b = trace_find_resource(st->t, ib);
	unsigned size = (unsigned)num(c, "index_size", 2);
	if (size == 3 || (size_t)(start + (uint64_t)count) * size > b->len)
		return ulp_diag_at(d, NULL, 0, 0, "the index buffer is too short, or index_size is not 1, 2 or 4");
	drv_pica_draw(s, m, count, 0, addr_of(st, b) + start * size, size);
	return true;
}

/* Every vertex the draw fetches lies inside the buffer its attribute
 * starts in: a count past the end would read (0, 0, 0, 1) vertices
 * silently (docs/replay.md).  Then vertex fetch reads the indices and each
 * attribute's vertices where they are (vfetch_attr.bytes): the first and the
 * last vertex's bytes lie in one resource, so every vertex between does. */
static bool vertices_in_buffers(const replay_state *st, vfetch_setup *f, uint32_t count, ulp_diag *d)
{
	static const uint8_t SIZE[4] = { 1, 1, 2, 4 };   /* enum vfetch_type */
	if (!count)
		return true;
	uint64_t lo = f->first, hi = (uint64_t)f->first + count - 1;
	if (f->index_size) {
		const uint8_t *p = replay_mem_read(st, f->index_addr, count * f->index_size);
		f->index_bytes = p;
		lo = UINT32_MAX;
		hi = 0;
		for (uint32_t k = 0; p && k < count; k++) {
			uint32_t v = 0;
			for (unsigned b = 0; b < f->index_size; b++)
				v |= (uint32_t)p[(size_t)k * f->index_size + b] << (8 * b);
			lo = v < lo ? v : lo;
			hi = v > hi ? v : hi;
		}
	}
	for (unsigned k = 0; k < f->nattr; k++) {
		vfetch_attr *a = &f->attr[k];
		const uint32_t len = a->ncomp * SIZE[a->type & 3];
		const uint64_t first = (uint64_t)a->addr + a->stride * lo, last = (uint64_t)a->addr + a->stride * hi;
		long res = resource_at(st, a->addr);
		const uint8_t *bytes = res >= 0 && last + len <= UINT32_MAX ? replay_mem_read(st, (uint32_t)first, len)
		                                                              : NULL;
		bool ok = bytes && replay_mem_read(st, (uint32_t)last, len) && resource_at(st, (uint32_t)last) == res;
		a->bytes = ok ? bytes : NULL;
		a->first = (uint32_t)lo;
		if (!ok) {
			const trace_resource *r = res >= 0 ? &st->t->res[res] : NULL;
			return ulp_diag_at(d, NULL, 0, 0, "vertex %llu of the draw is past the end of vertex element %u's "
			                   "buffer%s%s%s (%zu bytes; offset %llu, stride %u): check start and count",
			                   (unsigned long long)hi, k, r ? " '" : "", r ? r->id : "", r ? "'" : "",
			                   r ? r->len : (size_t)0, r ? (unsigned long long)(a->addr - st->base[res]) : 0ULL,
			                   a->stride);
		}
	}
	return true;
}

bool replay_state_draw_setup(replay_state *st, const pica_regs *pr, const gr3d_regs *gr, bool indexed,
                             gpu_draw *g, vfetch_setup *f, ulp_diag *d)
{
	if (!pica_regs_draw(pr, indexed, f, &g->mode, &g->count, d))
		return false;
	if (g->count > 65535)
		return ulp_diag_at(d, NULL, 0, 0, "more than 65535 vertices in one draw");
	f->read = replay_mem_read;
	f->mem = st;
	f->round = pr->uniform_round;
	f->exact = pr->uniform_exact;
	if (f->index_size && g->count && !replay_mem_read(st, f->index_addr, g->count * f->index_size))
		return ulp_diag_at(d, NULL, 0, 0, "the index buffer at 0x%x is outside the trace's buffers",
		                   f->index_addr);
	if (!vertices_in_buffers(st, f, g->count, d))
		return false;
	g->make_job = vfetch_setup_job;
	g->ctx = f;
	if (!pica_regs_pos_reg(pr, &g->setup.pos_reg))
		return ulp_diag_at(d, NULL, 0, 0, "the vertex shader's output map (SH_OUTMAP) has no position");
	g->clip.pos_reg = g->setup.pos_reg;
	if (!gr3d_regs_setup(gr, &g->setup, &g->clip.flat_regs, d))
		return false;
	for (unsigned i = 0; i < GR3D_SAMPLERS; i++)
		if (!texture_unit(st, gr, i, &g->frag.sampler[i], d))
			return false;
	return true;
}
