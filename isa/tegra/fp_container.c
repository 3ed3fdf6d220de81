/* .fp container writer and reader (see fp_container.h, docs/fp-container.md). */
#include "isa/tegra/fp_container.h"

#include <stdlib.h>
#include <string.h>

#include "isa/tegra/fp_words.h"

enum {
	OFF_MAGIC = 0, OFF_VERSION = 8, OFF_HSIZE = 12, OFF_ALU_BUF = 16, OFF_DW_NB = 20,
	OFF_EXEC = 24, OFF_MFU = 28, OFF_ALU = 32, OFF_FLAGS = 36, OFF_WORDS = 40,
	OFF_UNIFORMS = 44, OFF_FILE_SIZE = 48, OFF_CRC = 52, OFF_RESERVED = 56,
};
_Static_assert(OFF_RESERVED + 8 == TEGRA_FP_HEADER_SIZE, "header layout");

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320) of the image with
 * the CRC field read as zero. */
static uint32_t image_crc(const uint8_t *buf, size_t len)
{
	uint32_t c = 0xFFFFFFFFu;
	for (size_t i = 0; i < len; i++) {
		c ^= i >= OFF_CRC && i < OFF_CRC + 4 ? 0u : buf[i];
		for (int k = 0; k < 8; k++)
			c = c & 1 ? (c >> 1) ^ 0xEDB88320u : c >> 1;
	}
	return ~c;
}

bool tegra_fp_is_container(const void *buf, size_t len)
{
	return len >= 8 && memcmp(buf, TEGRA_FP_MAGIC, 8) == 0;
}

uint8_t *tegra_fp_container_write(const tegra_fp_program *p, size_t *len)
{
	size_t words = tegra_fp_word_count(p);
	size_t size = TEGRA_FP_HEADER_SIZE + 4 * words + 4 * TEGRA_FP_NUM_CONST;
	uint32_t nuni = 0;
	for (unsigned h = 0; h < 2 * TEGRA_FP_NUM_CONST; h++) {
		const tegra_fp_uniform_half *u = &p->uniforms[h];
		if (!u->used || (u->kind == TEGRA_UNIFORM_FP20 && (h & 1)))
			continue;   /* an FP20 name is one entry for both halves */
		size += 4 + strlen(u->name);
		nuni++;
	}
	uint8_t *b = calloc(1, size);
	if (!b)
		return NULL;
	memcpy(b + OFF_MAGIC, TEGRA_FP_MAGIC, 8);
	put32(b + OFF_VERSION, TEGRA_FP_VERSION);
	put32(b + OFF_HSIZE, TEGRA_FP_HEADER_SIZE);
	put32(b + OFF_ALU_BUF, p->alu_buffer_size);
	put32(b + OFF_DW_NB, p->pseq_to_dw_exec_nb);
	put32(b + OFF_EXEC, p->exec_count);
	put32(b + OFF_MFU, p->mfu_count);
	put32(b + OFF_ALU, p->alu_packet_count);
	put32(b + OFF_FLAGS, p->discards_fragment ? 1u : 0u);
	put32(b + OFF_WORDS, (uint32_t)words);
	put32(b + OFF_UNIFORMS, nuni);
	put32(b + OFF_FILE_SIZE, (uint32_t)size);
	uint8_t *q = b + TEGRA_FP_HEADER_SIZE;
	for (size_t i = 0; i < words; i++, q += 4)
		put32(q, tegra_fp_upload_at(p, i).value);
	for (unsigned i = 0; i < TEGRA_FP_NUM_CONST; i++, q += 4)
		put32(q, p->constants[i]);
	for (unsigned h = 0; h < 2 * TEGRA_FP_NUM_CONST; h++) {
		const tegra_fp_uniform_half *u = &p->uniforms[h];
		if (!u->used || (u->kind == TEGRA_UNIFORM_FP20 && (h & 1)))
			continue;
		size_t n = strlen(u->name);
		q[0] = (uint8_t)(h / 2);
		q[1] = u->kind;
		q[2] = (uint8_t)n;
		q[3] = (uint8_t)(n >> 8);
		memcpy(q + 4, u->name, n);
		q += 4 + n;
	}
	put32(b + OFF_CRC, image_crc(b, size));
	*len = size;
	return b;
}

static bool berr(ulp_diag *d, const char *file, size_t off, const char *msg)
{
	return ulp_diag_byte(d, file, (long)off, "%s", msg);
}

bool tegra_fp_container_read(const uint8_t *b, size_t len, const char *file,
                             tegra_fp_program *out, ulp_diag *d)
{
	memset(out, 0, sizeof *out);
	if (len < TEGRA_FP_HEADER_SIZE)
		return berr(d, file, len, "truncated .fp header (64 bytes expected)");
	if (!tegra_fp_is_container(b, len))
		return berr(d, file, 0, "not a .fp container (bad magic)");
	if (get32(b + OFF_VERSION) != TEGRA_FP_VERSION)
		return ulp_diag_byte(d, file, OFF_VERSION, "unsupported .fp version %u (this build reads 1)",
		                     get32(b + OFF_VERSION));
	if (get32(b + OFF_HSIZE) != TEGRA_FP_HEADER_SIZE)
		return berr(d, file, OFF_HSIZE, "unexpected header size");
	if (get32(b + OFF_FILE_SIZE) != len)
		return ulp_diag_byte(d, file, OFF_FILE_SIZE, "file is %zu bytes but the header says %u (truncated?)",
		                     len, get32(b + OFF_FILE_SIZE));
	if (get32(b + OFF_CRC) != image_crc(b, len))
		return berr(d, file, OFF_CRC, "CRC mismatch: the file is corrupt");
	for (size_t i = OFF_RESERVED; i < TEGRA_FP_HEADER_SIZE; i++)
		if (b[i])
			return berr(d, file, i, "reserved header bytes are not zero");
	uint32_t exec = get32(b + OFF_EXEC), mfu = get32(b + OFF_MFU), alu = get32(b + OFF_ALU);
	if (exec < 1 || exec > TEGRA_FP_MAX_EXEC)
		return berr(d, file, OFF_EXEC, "EXEC count outside 1..64");
	if (mfu > TEGRA_FP_MAX_MFU)
		return berr(d, file, OFF_MFU, "MFU instruction count over 64");
	if (alu > TEGRA_FP_MAX_ALU_PACKETS)
		return berr(d, file, OFF_ALU, "ALU packet count over 64");
	uint32_t flags = get32(b + OFF_FLAGS);
	if (flags & ~1u)
		return berr(d, file, OFF_FLAGS, "unknown flag bits");
	out->alu_buffer_size = get32(b + OFF_ALU_BUF);
	out->pseq_to_dw_exec_nb = get32(b + OFF_DW_NB);
	out->exec_count = exec;
	out->mfu_count = mfu;
	out->alu_packet_count = alu;
	out->discards_fragment = flags & 1;
	size_t words = tegra_fp_word_count(out);
	if (get32(b + OFF_WORDS) != words)
		return berr(d, file, OFF_WORDS, "word count does not match 6N + 2M + 8P");
	size_t off = TEGRA_FP_HEADER_SIZE;
	if (len - off < 4 * words + 4 * TEGRA_FP_NUM_CONST)
		return berr(d, file, len, "truncated word or constant table");
	for (size_t i = 0; i < words; i++, off += 4)
		tegra_fp_upload_set(out, i, get32(b + off));
	for (unsigned i = 0; i < TEGRA_FP_NUM_CONST; i++, off += 4)
		out->constants[i] = get32(b + off);
	uint32_t nuni = get32(b + OFF_UNIFORMS);
	if (nuni > 2 * TEGRA_FP_NUM_CONST)
		return berr(d, file, OFF_UNIFORMS, "uniform count over 64");
	for (uint32_t k = 0; k < nuni; k++) {
		if (len - off < 4)
			return berr(d, file, off, "truncated uniform entry");
		unsigned idx = b[off], kind = b[off + 1];
		size_t n = (size_t)b[off + 2] | (size_t)b[off + 3] << 8;
		if (idx >= TEGRA_FP_NUM_CONST)
			return berr(d, file, off, "uniform index over 31");
		if (kind > TEGRA_UNIFORM_FX10_HIGH)
			return berr(d, file, off + 1, "unknown uniform kind");
		if (n > TEGRA_FP_UNIFORM_NAME_MAX)
			return berr(d, file, off + 2, "uniform name longer than 253 bytes");
		if (len - off - 4 < n)
			return berr(d, file, off + 4, "truncated uniform name");
		const uint8_t *name = b + off + 4;
		for (size_t i = 0; i < n; i++)
			if (name[i] == '\0' || name[i] == '\n' || name[i] == '\r')
				return berr(d, file, off + 4 + i, "uniform name holds a NUL or line break");
		for (unsigned h = 2 * idx; h <= 2 * idx + 1; h++) {
			if ((kind == TEGRA_UNIFORM_FX10_LOW && (h & 1)) ||
			    (kind == TEGRA_UNIFORM_FX10_HIGH && !(h & 1)))
				continue;
			tegra_fp_uniform_half *u = &out->uniforms[h];
			if (u->used)
				return berr(d, file, off, "uniform half named twice");
			u->used = true;
			u->kind = (uint8_t)kind;
			memcpy(u->name, name, n);
			u->name[n] = '\0';
		}
		off += 4 + n;
	}
	if (off != len)
		return berr(d, file, off, "trailing bytes after the uniform table");
	return tegra_fp_validate(out, file, d);
}

bool tegra_fp_load_buffer(const void *buf, size_t len, const char *file,
                          tegra_fp_program *out, ulp_diag *d)
{
	if (tegra_fp_is_container(buf, len))
		return tegra_fp_container_read(buf, len, file, out, d);
	size_t tl = strlen(TEGRA_FP_WORDS_TAG);
	if (len >= tl && memcmp(buf, TEGRA_FP_WORDS_TAG, tl) == 0)
		return tegra_fp_words_read(buf, len, file, out, d);
	memset(out, 0, sizeof *out);
	return ulp_diag_byte(d, file, 0, "neither a .fp container (magic ULPTGFP) nor a tegra-fp-words v1 file");
}
