/* SHBIN reader (validating) and writer.  (pica200.md §3) */
#include "isa/pica/shbin.h"

#include <stdlib.h>
#include <string.h>

#include "base/fileio.h"
#include "isa/pica/pica_isa.h"

enum {
	DVLB_MAGIC = 0x424C5644, DVLP_MAGIC = 0x504C5644, DVLE_MAGIC = 0x454C5644,
	DVLP_HEADER = 0x28, DVLE_HEADER = 0x40,
	CONST_SIZE = 20, LABEL_SIZE = 16, OUTPUT_SIZE = 8, UNIFORM_SIZE = 8,
	MAX_DVLE = 64,
};

static uint32_t rd32(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }
static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }

const char *shbin_out_type_name(unsigned type)
{
	static const char *const names[] = {
		"position", "normalquat", "color", "texcoord0", "texcoord0w",
		"texcoord1", "texcoord2", NULL, "view", "dummy",
	};
	return type < sizeof names / sizeof names[0] ? names[type] : NULL;
}

const char *shbin_gs_mode_name(unsigned mode)
{
	static const char *const names[] = { "point", "variable", "fixed" };
	return mode < 3 ? names[mode] : NULL;
}

static void free_dvle(struct shbin_dvle *e)
{
	for (size_t i = 0; i < e->nuniforms; i++)
		free(e->uniforms[i].name);
	free(e->consts);
	free(e->labels);
	free(e->outputs);
	free(e->uniforms);
}

void shbin_free(struct shbin *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->ndvle; i++)
		free_dvle(&s->dvle[i]);
	free(s->dvle);
	free(s->code);
	free(s->opdesc);
	memset(s, 0, sizeof *s);
}

struct reader {
	const uint8_t *buf;
	size_t len;
	const char *name;
	ulp_diag *d;
};

/* Is [off, off + count * size) inside the file?  (64-bit arithmetic) */
static bool span_ok(const struct reader *r, uint64_t off, uint64_t count, uint64_t size)
{
	return off <= r->len && count <= (r->len - off) / (size ? size : 1);
}

static void *alloc_array(size_t n, size_t size)
{
	return calloc(n ? n : 1, size);
}

static bool read_table(struct reader *r, uint64_t base, uint64_t dvle_end, const uint8_t *h,
                       int field, uint64_t esize, const char *what, uint64_t *off, uint32_t *count)
{
	uint32_t o = rd32(h + field), n = rd32(h + field + 4);
	*off = base + o;
	*count = n;
	if ((uint64_t)o > dvle_end - base || n > (dvle_end - *off) / esize)
		return ulp_diag_byte(r->d, r->name, (long)(base + field),
		                     "%s table (offset 0x%X, %u entries) runs past the end of the file",
		                     what, o, n);
	return true;
}

static bool read_dvle(struct reader *r, size_t idx, uint32_t off, size_t ncode, struct shbin_dvle *e)
{
	if (!span_ok(r, off, 1, DVLE_HEADER))
		return ulp_diag_byte(r->d, r->name, 8 + 4 * (long)idx,
		                     "DVLE %zu offset 0x%X: header runs past the end of the file", idx, off);
	const uint8_t *h = r->buf + off;
	if (rd32(h) != DVLE_MAGIC)
		return ulp_diag_byte(r->d, r->name, off, "DVLE %zu: bad magic (expected \"DVLE\")", idx);
	e->version = rd16(h + 4);
	e->type = h[6];
	e->merge = h[7];
	e->main = rd32(h + 8);
	e->endmain = rd32(h + 12);
	e->input_mask = rd16(h + 0x10);
	e->output_mask = rd16(h + 0x12);
	e->gs_mode = h[0x14];
	e->gs_fixed_start = h[0x15];
	e->gs_variable_num = h[0x16];
	e->gs_fixed_num = h[0x17];
	if (e->type > SHBIN_GS)
		return ulp_diag_byte(r->d, r->name, off + 6, "DVLE %zu: shader type %u is neither 0 (VS) nor 1 (GS)", idx, e->type);
	if (e->main > e->endmain || e->endmain > ncode)
		return ulp_diag_byte(r->d, r->name, off + 8,
		                     "DVLE %zu: entry range [%u, %u) lies outside the %zu code words",
		                     idx, e->main, e->endmain, ncode);
	if (e->type == SHBIN_GS && e->gs_mode > SHBIN_GS_FIXED)
		return ulp_diag_byte(r->d, r->name, off + 0x14, "DVLE %zu: unknown geometry shader mode %u", idx, e->gs_mode);
	if (e->gs_fixed_start >= PICA_NUM_C)
		return ulp_diag_byte(r->d, r->name, off + 0x15, "DVLE %zu: fixed-mode start c%u is out of range", idx, e->gs_fixed_start);

	uint64_t end = r->len, coff, loff, ooff, uoff, soff;
	uint32_t cn, ln, on, un, sn;
	if (!read_table(r, off, end, h, 0x18, CONST_SIZE, "constant", &coff, &cn) ||
	    !read_table(r, off, end, h, 0x20, LABEL_SIZE, "label", &loff, &ln) ||
	    !read_table(r, off, end, h, 0x28, OUTPUT_SIZE, "output", &ooff, &on) ||
	    !read_table(r, off, end, h, 0x30, UNIFORM_SIZE, "uniform", &uoff, &un) ||
	    !read_table(r, off, end, h, 0x38, 1, "symbol", &soff, &sn))
		return false;

	e->consts = alloc_array(cn, sizeof *e->consts);
	e->labels = alloc_array(ln, sizeof *e->labels);
	e->outputs = alloc_array(on, sizeof *e->outputs);
	e->uniforms = alloc_array(un, sizeof *e->uniforms);
	if (!e->consts || !e->labels || !e->outputs || !e->uniforms)
		return ulp_diag_byte(r->d, r->name, off, "out of memory");

	for (uint32_t i = 0; i < cn; i++, e->nconsts++) {
		const uint8_t *p = r->buf + coff + (uint64_t)i * CONST_SIZE;
		struct shbin_const *c = &e->consts[i];
		c->type = rd16(p);
		c->reg = rd16(p + 2);
		static const unsigned limit[] = { 16, 4, PICA_NUM_C };
		if (c->type > SHBIN_CONST_FVEC)
			return ulp_diag_byte(r->d, r->name, (long)(p - r->buf), "constant %u: unknown type %u", i, c->type);
		if (c->reg >= limit[c->type])
			return ulp_diag_byte(r->d, r->name, (long)(p - r->buf) + 2, "constant %u: register %u out of range", i, c->reg);
		for (int k = 0; k < 4; k++)
			c->data[k] = rd32(p + 4 + 4 * k);
		if (c->type == SHBIN_CONST_FVEC)
			for (int k = 0; k < 4; k++)
				if (c->data[k] >> 24)
					return ulp_diag_byte(r->d, r->name, (long)(p - r->buf) + 4 + 4 * k,
					                     "constant %u: float24 value 0x%08X has bits above bit 23", i, c->data[k]);
	}
	for (uint32_t i = 0; i < ln; i++, e->nlabels++)
		for (int k = 0; k < 4; k++)
			e->labels[i].raw[k] = rd32(r->buf + loff + (uint64_t)i * LABEL_SIZE + 4 * k);
	for (uint32_t i = 0; i < on; i++, e->noutputs++) {
		const uint8_t *p = r->buf + ooff + (uint64_t)i * OUTPUT_SIZE;
		struct shbin_output *o = &e->outputs[i];
		o->type = rd16(p);
		o->reg = rd16(p + 2);
		o->mask = rd16(p + 4);
		o->pad = rd16(p + 6);
		if (o->reg >= 16)
			return ulp_diag_byte(r->d, r->name, (long)(p - r->buf) + 2, "output %u: register o%u out of range", i, o->reg);
		if (o->mask > 0xF)
			return ulp_diag_byte(r->d, r->name, (long)(p - r->buf) + 4, "output %u: component mask 0x%X out of range", i, o->mask);
	}
	const char *sym = (const char *)r->buf + soff;
	for (uint32_t i = 0; i < un; i++) {
		const uint8_t *p = r->buf + uoff + (uint64_t)i * UNIFORM_SIZE;
		struct shbin_uniform *u = &e->uniforms[i];
		u->sym_off = rd32(p);
		u->first = rd16(p + 4);
		u->last = rd16(p + 6);
		if (u->first > u->last || u->last > 0x87)
			return ulp_diag_byte(r->d, r->name, (long)(p - r->buf) + 4,
			                     "uniform %u: register range 0x%X..0x%X is invalid", i, u->first, u->last);
		if (u->sym_off >= sn || !memchr(sym + u->sym_off, 0, sn - u->sym_off))
			return ulp_diag_byte(r->d, r->name, (long)(p - r->buf),
			                     "uniform %u: symbol offset 0x%X is not a NUL-terminated string inside the %u-byte symbol table",
			                     i, u->sym_off, sn);
		u->name = strdup(sym + u->sym_off);
		if (!u->name)
			return ulp_diag_byte(r->d, r->name, (long)(p - r->buf), "out of memory");
		e->nuniforms++;
	}
	return true;
}

bool shbin_read(const uint8_t *buf, size_t len, const char *name, struct shbin *out, ulp_diag *d)
{
	struct reader r = { buf, len, name, d };
	memset(out, 0, sizeof *out);
	if (len < 8)
		return ulp_diag_byte(d, name, 0, "file too short for a DVLB header (%zu bytes)", len);
	if (rd32(buf) != DVLB_MAGIC)
		return ulp_diag_byte(d, name, 0, "bad magic (expected \"DVLB\")");
	uint32_t n = rd32(buf + 4);
	if (n == 0 || n > MAX_DVLE)
		return ulp_diag_byte(d, name, 4, "DVLE count %u is outside 1..%d", n, MAX_DVLE);
	if (!span_ok(&r, 8, n, 4))
		return ulp_diag_byte(d, name, 8, "DVLE offset table (%u entries) runs past the end of the file", n);
	uint64_t p = 8 + 4 * (uint64_t)n;
	if (!span_ok(&r, p, 1, DVLP_HEADER))
		return ulp_diag_byte(d, name, (long)p, "DVLP header runs past the end of the file");
	const uint8_t *h = buf + p;
	if (rd32(h) != DVLP_MAGIC)
		return ulp_diag_byte(d, name, (long)p, "bad magic (expected \"DVLP\")");
	out->dvlp_version = rd32(h + 4);
	uint32_t code_off = rd32(h + 8), code_n = rd32(h + 12);
	uint32_t desc_off = rd32(h + 16), desc_n = rd32(h + 20);
	if (code_n > PICA_CODE_MAX)
		return ulp_diag_byte(d, name, (long)p + 12, "code size %u words exceeds the %d-word code memory", code_n, PICA_CODE_MAX);
	if (!span_ok(&r, p + code_off, code_n, 4))
		return ulp_diag_byte(d, name, (long)p + 8, "code (offset 0x%X, %u words) runs past the end of the file", code_off, code_n);
	if (desc_n > PICA_OPDESC_MAX)
		return ulp_diag_byte(d, name, (long)p + 20, "operand descriptor count %u exceeds %d", desc_n, PICA_OPDESC_MAX);
	if (!span_ok(&r, p + desc_off, desc_n, 8))
		return ulp_diag_byte(d, name, (long)p + 16,
		                     "operand descriptors (offset 0x%X, %u entries) run past the end of the file", desc_off, desc_n);
	out->code = alloc_array(code_n, 4);
	out->opdesc = alloc_array(desc_n, 4);
	out->dvle = alloc_array(n, sizeof *out->dvle);
	if (!out->code || !out->opdesc || !out->dvle) {
		shbin_free(out);
		return ulp_diag_byte(d, name, 0, "out of memory");
	}
	out->ncode = code_n;
	out->nopdesc = desc_n;
	for (uint32_t i = 0; i < code_n; i++)
		out->code[i] = rd32(h + code_off + 4 * (uint64_t)i);
	for (uint32_t i = 0; i < desc_n; i++)
		out->opdesc[i] = rd32(h + desc_off + 8 * (uint64_t)i);
	for (uint32_t i = 0; i < code_n; i++) {
		int di = pica_desc_index(out->code[i]);
		if (di >= 0 && (uint32_t)di >= desc_n) {
			shbin_free(out);
			return ulp_diag_byte(d, name, (long)(p + code_off + 4 * (uint64_t)i),
			                     "instruction %u uses operand descriptor %d of %u", i, di, desc_n);
		}
	}
	for (uint32_t i = 0; i < n; i++) {
		out->ndvle = i + 1;
		if (!read_dvle(&r, i, rd32(buf + 8 + 4 * i), code_n, &out->dvle[i])) {
			shbin_free(out);
			return false;
		}
	}
	return true;
}

bool shbin_load(const char *path, struct shbin *out, ulp_diag *d)
{
	size_t len;
	memset(out, 0, sizeof *out);
	char *buf = ulp_read_file(path, &len, d);
	if (!buf)
		return false;
	bool ok = shbin_read((const uint8_t *)buf, len, path, out, d);
	free(buf);
	return ok;
}

/* ---- writer ---- */

struct wbuf {
	uint8_t *p;
	size_t len, cap;
	bool oom;
};

static void wbytes(struct wbuf *w, const void *src, size_t n)
{
	if (w->oom)
		return;
	if (w->len + n > w->cap) {
		size_t cap = w->cap ? w->cap * 2 : 1024;
		while (cap < w->len + n)
			cap *= 2;
		uint8_t *q = realloc(w->p, cap);
		if (!q) {
			w->oom = true;
			return;
		}
		w->p = q;
		w->cap = cap;
	}
	memcpy(w->p + w->len, src, n);
	w->len += n;
}

static void w32(struct wbuf *w, uint32_t v)
{
	uint8_t b[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };
	wbytes(w, b, 4);
}

static void w16(struct wbuf *w, uint16_t v)
{
	uint8_t b[2] = { (uint8_t)v, (uint8_t)(v >> 8) };
	wbytes(w, b, 2);
}

static void wpad4(struct wbuf *w)
{
	static const uint8_t zero[4] = { 0 };
	wbytes(w, zero, (4 - w->len % 4) % 4);
}

static void patch32(struct wbuf *w, size_t at, uint32_t v)
{
	if (w->oom)
		return;
	for (int i = 0; i < 4; i++)
		w->p[at + (size_t)i] = (uint8_t)(v >> (8 * i));
}

static size_t sym_size(const struct shbin_dvle *e)
{
	size_t n = 0;
	for (size_t i = 0; i < e->nuniforms; i++)
		n += strlen(e->uniforms[i].name) + 1;
	return n;
}

static void write_dvle(struct wbuf *w, const struct shbin_dvle *e)
{
	uint32_t coff = DVLE_HEADER;
	uint32_t ooff = coff + (uint32_t)e->nconsts * CONST_SIZE;
	uint32_t loff = ooff;     /* picasso: empty label table at the output table */
	ooff += (uint32_t)e->nlabels * LABEL_SIZE;
	uint32_t uoff = ooff + (uint32_t)e->noutputs * OUTPUT_SIZE;
	uint32_t soff = uoff + (uint32_t)e->nuniforms * UNIFORM_SIZE;
	w32(w, DVLE_MAGIC);
	w16(w, e->version);
	uint8_t tm[2] = { e->type, e->merge };
	wbytes(w, tm, 2);
	w32(w, e->main);
	w32(w, e->endmain);
	w16(w, e->input_mask);
	w16(w, e->output_mask);
	uint8_t gs[4] = { e->gs_mode, e->gs_fixed_start, e->gs_variable_num, e->gs_fixed_num };
	wbytes(w, gs, 4);
	w32(w, coff); w32(w, (uint32_t)e->nconsts);
	w32(w, loff); w32(w, (uint32_t)e->nlabels);
	w32(w, ooff); w32(w, (uint32_t)e->noutputs);
	w32(w, uoff); w32(w, (uint32_t)e->nuniforms);
	w32(w, soff); w32(w, (uint32_t)sym_size(e));
	for (size_t i = 0; i < e->nconsts; i++) {
		const struct shbin_const *c = &e->consts[i];
		w16(w, c->type);
		w16(w, c->reg);
		for (int k = 0; k < 4; k++)
			w32(w, c->data[k]);
	}
	for (size_t i = 0; i < e->nlabels; i++)
		for (int k = 0; k < 4; k++)
			w32(w, e->labels[i].raw[k]);
	for (size_t i = 0; i < e->noutputs; i++) {
		w16(w, e->outputs[i].type);
		w16(w, e->outputs[i].reg);
		w16(w, e->outputs[i].mask);
		w16(w, e->outputs[i].pad);
	}
	uint32_t so = 0;
	for (size_t i = 0; i < e->nuniforms; i++) {
		w32(w, so);
		w16(w, e->uniforms[i].first);
		w16(w, e->uniforms[i].last);
		so += (uint32_t)strlen(e->uniforms[i].name) + 1;
	}
	for (size_t i = 0; i < e->nuniforms; i++)
		wbytes(w, e->uniforms[i].name, strlen(e->uniforms[i].name) + 1);
	wpad4(w);
}

bool shbin_write(const struct shbin *s, uint8_t **buf, size_t *len, ulp_diag *d)
{
	struct wbuf w = { 0 };
	if (s->ndvle == 0 || s->ndvle > MAX_DVLE)
		return ulp_diag_at(d, "", 0, 0, "an SHBIN needs 1..%d DVLEs (have %zu)", MAX_DVLE, s->ndvle);
	if (s->ncode > PICA_CODE_MAX || s->nopdesc > PICA_OPDESC_MAX)
		return ulp_diag_at(d, "", 0, 0, "code (%zu words) or descriptors (%zu) exceed the hardware limits",
		                   s->ncode, s->nopdesc);
	w32(&w, DVLB_MAGIC);
	w32(&w, (uint32_t)s->ndvle);
	size_t offs = w.len;
	for (size_t i = 0; i < s->ndvle; i++)
		w32(&w, 0);
	uint32_t code_off = DVLP_HEADER, desc_off = code_off + 4 * (uint32_t)s->ncode;
	w32(&w, DVLP_MAGIC);
	w32(&w, s->dvlp_version);
	w32(&w, code_off);
	w32(&w, (uint32_t)s->ncode);
	w32(&w, desc_off);
	w32(&w, (uint32_t)s->nopdesc);
	w32(&w, desc_off + 8 * (uint32_t)s->nopdesc);
	w32(&w, 0); w32(&w, 0); w32(&w, 0);
	for (size_t i = 0; i < s->ncode; i++)
		w32(&w, s->code[i]);
	for (size_t i = 0; i < s->nopdesc; i++) {
		w32(&w, s->opdesc[i]);
		w32(&w, 0);
	}
	for (size_t i = 0; i < s->ndvle; i++) {
		patch32(&w, offs + 4 * i, (uint32_t)w.len);
		write_dvle(&w, &s->dvle[i]);
	}
	if (w.oom) {
		free(w.p);
		return ulp_diag_at(d, "", 0, 0, "out of memory");
	}
	*buf = w.p;
	*len = w.len;
	return true;
}
