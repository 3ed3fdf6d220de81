/* The colour buffer's history (frame_log.h). */
#include "sim/out/frame_log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void frame_log_init(frame_log *l, size_t budget_bytes)
{
	memset(l, 0, sizeof *l);
	l->budget = budget_bytes;
}

static void drop_history(frame_log *l)
{
	for (size_t k = 0; k < l->nkey; k++)
		free(l->key[k].px);
	l->nkey = 0;
	l->n = 0;
	l->used = 0;
	l->since_key = 0;
}

void frame_log_free(frame_log *l)
{
	drop_history(l);
	free(l->key);
	free(l->wr);
	free(l->live);
	memset(l, 0, sizeof *l);
}

static void cut(frame_log *l, uint64_t cycle)
{
	if (!l->cut) {
		l->cut = true;
		l->cut_cycle = cycle;
	}
}

/* A key of the live buffer at the log's end. */
static void add_key(frame_log *l, uint64_t cycle)
{
	const size_t bytes = (size_t)l->w * l->h * 4;
	if (l->used + bytes > l->budget) {
		cut(l, cycle);
		return;
	}
	if (l->nkey == l->keycap) {
		size_t c = l->keycap ? 2 * l->keycap : 16;
		frame_log_key *k = realloc(l->key, c * sizeof *k);
		if (!k) {
			cut(l, cycle);
			return;
		}
		l->key = k;
		l->keycap = c;
	}
	uint8_t *px = malloc(bytes ? bytes : 1);
	if (!px) {
		cut(l, cycle);
		return;
	}
	memcpy(px, l->live, bytes);
	l->key[l->nkey++] = (frame_log_key){ .at = l->n, .cycle = cycle, .px = px };
	l->used += bytes;
	l->since_key = 0;
}

void frame_log_snapshot(frame_log *l, uint64_t cycle, const ulp_image *cbuf0)
{
	if (l->cut)
		return;
	if (!l->live || cbuf0->width != l->w || cbuf0->height != l->h) {
		/* a new buffer: the history of the old one no longer applies */
		drop_history(l);
		free(l->live);
		l->w = cbuf0->width;
		l->h = cbuf0->height;
		l->live = malloc((size_t)l->w * l->h * 4 + 1);
		l->from = cycle;
		l->key_every = (size_t)l->w * l->h > 4096 ? (size_t)l->w * l->h : 4096;
		if (!l->live) {
			cut(l, cycle);
			return;
		}
	}
	for (uint32_t y = 0; y < l->h; y++)
		memcpy(l->live + (size_t)(l->h - 1 - y) * l->w * 4, ulp_image_cpx(cbuf0, 0, y), (size_t)l->w * 4);
	add_key(l, cycle);
}

void frame_log_pixel(frame_log *l, uint64_t cycle, uint32_t x, uint32_t y, const uint8_t rgba[4])
{
	l->writes++;
	if (l->cut || !l->live || x >= l->w || y >= l->h) {
		l->dropped++;
		return;
	}
	if (l->used + sizeof *l->wr > l->budget) {
		cut(l, cycle);
		l->dropped++;
		return;
	}
	if (l->n == l->cap) {
		size_t c = l->cap ? 2 * l->cap : 4096;
		frame_log_write *w = realloc(l->wr, c * sizeof *w);
		if (!w) {
			cut(l, cycle);
			l->dropped++;
			return;
		}
		l->wr = w;
		l->cap = c;
	}
	const uint16_t row = (uint16_t)(l->h - 1 - y);
	frame_log_write *w = &l->wr[l->n++];
	*w = (frame_log_write){ .cycle = cycle, .x = (uint16_t)x, .row = row };
	memcpy(w->rgba, rgba, 4);
	memcpy(l->live + ((size_t)row * l->w + x) * 4, rgba, 4);
	l->used += sizeof *l->wr;
	if (++l->since_key >= l->key_every)
		add_key(l, cycle);
}

bool frame_log_image_at(const frame_log *l, uint64_t cycle, uint8_t *rgba, char *err, size_t errlen)
{
	if (!l->live || !l->nkey) {
		snprintf(err, errlen, "no colour buffer was recorded");
		return false;
	}
	if (cycle < l->from) {
		snprintf(err, errlen, "the colour buffer was recreated at cycle %llu", (unsigned long long)l->from);
		return false;
	}
	if (l->cut && cycle >= l->cut_cycle) {
		snprintf(err, errlen, "the pixel-write log stops at cycle %llu (its memory cap)",
		         (unsigned long long)l->cut_cycle);
		return false;
	}
	size_t lo = 0, hi = l->nkey;            /* the last key at or before the cycle */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (l->key[mid].cycle <= cycle)
			lo = mid;
		else
			hi = mid;
	}
	const frame_log_key *k = &l->key[lo];
	memcpy(rgba, k->px, (size_t)l->w * l->h * 4);
	for (size_t i = k->at; i < l->n && l->wr[i].cycle <= cycle; i++)
		memcpy(rgba + ((size_t)l->wr[i].row * l->w + l->wr[i].x) * 4, l->wr[i].rgba, 4);
	return true;
}
