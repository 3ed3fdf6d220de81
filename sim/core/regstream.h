/* A stream of register writes: what the driver layer emits and the command
 * processor consumes.  PICA writes carry a byte-enable mask; GR3D writes are
 * whole words (host1x). */
#ifndef ULP_SIM_REGSTREAM_H
#define ULP_SIM_REGSTREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum reg_space { REG_PICA, REG_GR3D };

typedef struct reg_write {
	uint8_t space;     /* enum reg_space */
	uint8_t mask;      /* PICA byte enables (GR3D: 0xF) */
	uint16_t reg;
	uint32_t value;
} reg_write;

typedef struct reg_stream {
	reg_write *w;
	size_t n, cap;
	bool oom;          /* an append failed; the stream is incomplete */
} reg_stream;

void reg_stream_init(reg_stream *s);
void reg_stream_free(reg_stream *s);
void reg_stream_pica(reg_stream *s, uint16_t reg, uint8_t mask, uint32_t value);
void reg_stream_gr3d(reg_stream *s, uint16_t reg, uint32_t value);


#endif
