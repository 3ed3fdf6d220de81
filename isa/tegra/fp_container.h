/* The .fp binary container for Tegra fragment programs (docs/fp-container.md).
 * All integers little-endian.
 *
 *   offset size
 *     0     8   magic "ULPTGFP\0"
 *     8     4   version (1)
 *    12     4   header size (64)
 *    16     4   alu_buffer_size          (0..4)
 *    20     4   pseq_to_dw_exec_nb
 *    24     4   exec_count N             (1..64)
 *    28     4   mfu_count M              (0..64)
 *    32     4   alu_packet_count P       (0..64)
 *    36     4   flags: bit 0 discards_fragment; others 0
 *    40     4   word_count = 6N + 2M + 8P
 *    44     4   uniform_count U          (named halves/slots, 0..64)
 *    48     4   file size in bytes
 *    52     4   CRC-32 (IEEE) of the whole file with this field zeroed
 *    56     8   reserved, 0
 *    64   4*W   upload words, in upload order (tegra-fp.md §2.5)
 *     .   4*32  FP_CONST initial values
 *     .   U x   uniform entries: u8 index, u8 kind (0 fp20, 1 l, 2 h),
 *               u16 name length L (0..253), L name bytes (no NUL, no newline)
 *     end
 */
#ifndef ULP_ISA_TEGRA_FP_CONTAINER_H
#define ULP_ISA_TEGRA_FP_CONTAINER_H

#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "isa/tegra/tegra_prog.h"

#define TEGRA_FP_MAGIC "ULPTGFP"   /* 8 bytes with the NUL */
enum { TEGRA_FP_VERSION = 1, TEGRA_FP_HEADER_SIZE = 64 };

/* malloc'd image of p; NULL on out of memory. */
uint8_t *tegra_fp_container_write(const tegra_fp_program *p, size_t *len);

/* Parses and validates an image; errors carry file and byte offset. */
bool tegra_fp_container_read(const uint8_t *buf, size_t len, const char *file,
                             tegra_fp_program *out, ulp_diag *d);

/* True when buf starts with the container magic. */
bool tegra_fp_is_container(const void *buf, size_t len);

/* Loads a program from a .fp container or a tegra-fp-words v1 text
 * (sniffed from the contents). */
bool tegra_fp_load_buffer(const void *buf, size_t len, const char *file,
                          tegra_fp_program *out, ulp_diag *d);

#endif
