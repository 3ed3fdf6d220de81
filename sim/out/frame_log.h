/* The colour buffer's history for the viewer (ulpsim_image_at, traces/replay/api.c):
 * every DW write into colour buffer 0 in run order (cycle, pixel, RGBA as
 * stored), full copies (keys) where the buffer changed outside a draw
 * (framebuffer, clear), and a key every max(4096, width * height) writes, so
 * rebuilding the frame at any cycle is one copy and at most that many writes.
 * Memory is bounded by a budget in bytes; when it is spent the log stops
 * (cut) and the cycles from there on cannot be rebuilt. */
#ifndef ULP_SIM_FRAME_LOG_H
#define ULP_SIM_FRAME_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/image.h"

typedef struct frame_log_write {
	uint64_t cycle;
	uint16_t x, row;              /* row: image row, top row first */
	uint8_t rgba[4];
} frame_log_write;

typedef struct frame_log_key {
	size_t at;                    /* the buffer after writes [0, at) (and any earlier key) */
	uint64_t cycle;               /* no write in [0, at) is later than this */
	uint8_t *px;                  /* RGBA8, top row first */
} frame_log_key;

typedef struct frame_log {
	uint32_t w, h;
	uint8_t *live;                /* the buffer as the log stands, top row first */
	frame_log_write *wr;
	size_t n, cap;
	frame_log_key *key;
	size_t nkey, keycap;
	size_t since_key, key_every;
	size_t budget, used;          /* bytes */
	uint64_t from;                /* the buffer was (re)created at this cycle */
	bool cut;                     /* the budget ran out (or memory did) */
	uint64_t cut_cycle;           /* the first cycle the log lacks */
	uint64_t writes, dropped;
} frame_log;

void frame_log_init(frame_log *l, size_t budget_bytes);
void frame_log_free(frame_log *l);
/* DW wrote pixel (x, y) of colour buffer 0 (window coordinates, y up). */
void frame_log_pixel(frame_log *l, uint64_t cycle, uint32_t x, uint32_t y, const uint8_t rgba[4]);
/* Colour buffer 0 as a whole (bottom row first, as render targets are kept). */
void frame_log_snapshot(frame_log *l, uint64_t cycle, const ulp_image *cbuf0);
/* The buffer after every write and key at or before cycle, top row first,
 * into rgba (w * h * 4 bytes).  False with err when the log cannot say. */
bool frame_log_image_at(const frame_log *l, uint64_t cycle, uint8_t *rgba, char *err, size_t errlen);

#endif
