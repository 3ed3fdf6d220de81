/* units/pica/pica_regs: the shader units programmed by register writes only,
 * and the register table (pica_regs.def) behind the names and accessors. */
#include <criterion/criterion.h>
#include <string.h>

#include "base/fileio.h"
#include "isa/pica/pica_asm.h"
#include "units/pica/pica_regs.h"

static void wr(pica_regs *r, uint32_t reg, uint32_t v)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert(pica_regs_write(r, reg, 0xF, v, &d), "0x%03x: %s", reg, d.msg);
}

static uint32_t f32_bits(float f)
{
	uint32_t b;
	memcpy(&b, &f, sizeof b);
	return b;
}

/* Pack x, y, z, w float24 codes into the three upload words. */
static void pack_f24x4(const uint32_t v[4], uint32_t w[3])
{
	w[0] = v[3] << 8 | v[2] >> 16;
	w[1] = (v[2] & 0xFFFF) << 16 | v[1] >> 8;
	w[2] = (v[1] & 0xFF) << 24 | v[0];
}

Test(pica_regs, packed_f24_words_round_trip)
{
	uint32_t v[4] = { 0x3F0000, 0x123456, 0xABCDEF, 0x7F8001 }, w[3], back[4];
	pack_f24x4(v, w);
	pica_unpack_f24x4(w, back);
	cr_assert_eq(memcmp(v, back, sizeof v), 0);
}

Test(pica_regs, program_uploaded_by_registers_matches_the_shbin)
{
	ulp_diag d;
	ulp_diag_clear(&d);
	size_t len;
	char *src = ulp_read_file("traces/samples/lit_vertex.v.pica", &len, &d);
	cr_assert(src, "%s", d.msg);
	struct pica_asm_file f = { "lit_vertex.v.pica", src, len };
	struct pica_asm_opts o = { 0 };
	struct shbin s;
	cr_assert(pica_assemble(&f, 1, &o, &s, &d), "%s", d.msg);
	ulp_config cfg;
	ulp_config_defaults(&cfg);

	static pica_regs r;
	pica_regs_init(&r, &cfg);
	wr(&r, PICA_REG_VSH_COM_MODE, 1);                   /* no broadcast */
	wr(&r, PICA_REG_VSH_CODETRANSFER_INDEX, 0);
	for (size_t i = 0; i < s.ncode; i++)                /* any of the FIFO's 8 addresses */
		wr(&r, PICA_REG_VSH_CODETRANSFER_DATA + (i & 7), s.code[i]);
	wr(&r, PICA_REG_VSH_CODETRANSFER_END, 1);
	wr(&r, PICA_REG_VSH_OPDESCS_INDEX, 0);
	for (size_t i = 0; i < s.nopdesc; i++)
		wr(&r, PICA_REG_VSH_OPDESCS_DATA, s.opdesc[i]);
	/* DVLE constants in the packed float24 mode */
	const struct shbin_dvle *e = &s.dvle[0];
	for (size_t k = 0; k < e->nconsts; k++) {
		if (e->consts[k].type != SHBIN_CONST_FVEC)
			continue;
		uint32_t w[3];
		pack_f24x4(e->consts[k].data, w);
		wr(&r, PICA_REG_VSH_FLOATUNIFORM_INDEX, e->consts[k].reg);
		for (int j = 0; j < 3; j++)
			wr(&r, PICA_REG_VSH_FLOATUNIFORM_DATA + j, w[j]);
	}
	/* the case's uniforms c0-c10 in f32 mode (w, z, y, x), index auto-increments */
	static const float unif[11][4] = {
		{ 1.5f, 0, 0, 0 }, { 0, 2, 0, 0 }, { 0, 0, -1, -0.2f }, { 0, 0, -1, 0 },
		{ 1, 0, 0, 0 }, { 0, 1, 0, 0 }, { 0, 0, 1, -3 }, { 0, 0, 0, 1 },
		{ 0, 0.6f, 0.8f, 0 }, { 0.9f, 0.5f, 0.2f, 1 }, { 0.05f, 0.05f, 0.1f, 0 },
	};
	wr(&r, PICA_REG_VSH_FLOATUNIFORM_INDEX, 0x80000000u | 0);  /* F32 (bit 31), index 0 */
	for (int i = 0; i < 11; i++)
		for (int k = 3; k >= 0; k--)
			wr(&r, PICA_REG_VSH_FLOATUNIFORM_DATA, f32_bits(unif[i][k]));
	wr(&r, PICA_REG_VSH_ENTRYPOINT, 0x7FFF0000u | e->main);
	wr(&r, PICA_REG_VSH_OUTMAP_MASK, 0x3);                     /* o0, o1 */
	wr(&r, PICA_REG_AT(SH_OUTMAP_O, 0), 0x03020100);           /* position xyzw */
	wr(&r, PICA_REG_AT(SH_OUTMAP_O, 1), 0x0B0A0908);           /* colour rgba */

	pica_program prog;
	cr_assert(pica_regs_program(&r, false, &cfg, &prog, &d), "%s", d.msg);
	cr_assert_eq(prog.out_need[0], 0xF);
	cr_assert_eq(prog.out_need[1], 0xF);
	pica_env env;
	pica_env_from_config(&env, &cfg);
	static pica_thread t;
	pica_thread_reset(&t);
	t.v[0] = (pica_vec4){ { 0.5f, -0.25f, 1, 1 } };
	t.v[1] = (pica_vec4){ { 0, 0, 2, 0 } };
	cr_assert_eq(pica_run(&t, &prog, &r.vs.unif, &env, &d), PICA_STEP_END, "%s", d.msg);

	/* the same vertex through the SHBIN path */
	pica_program ref;
	static pica_uniforms u;
	memset(&u, 0, sizeof u);
	cr_assert(pica_program_build(&ref, &s, 0, &cfg, &d));
	pica_uniforms_apply_dvle(&u, ref.dvle);
	for (int i = 0; i < 11; i++)
		for (int k = 0; k < 4; k++)
			u.c[i].c[k] = f24_decode(f24_encode(unif[i][k], cfg.f24_uniform_round));
	static pica_thread t2;
	pica_thread_reset(&t2);
	t2.v[0] = t.v[0];
	t2.v[1] = t.v[1];
	cr_assert_eq(pica_run(&t2, &ref, &u, &env, &d), PICA_STEP_END, "%s", d.msg);
	cr_assert_eq(memcmp(t.o[0], t2.o[0], 2 * sizeof(pica_vec4)), 0, "register path == SHBIN path");
	cr_assert_float_eq(t.o[0][1].c[0], 0.77f, 1e-3, "lit colour");
	cr_assert_eq(r.gs.code_words, 0, "no broadcast with VSH_COM_MODE = 1");
	pica_program_free(&prog);
	pica_program_free(&ref);
	shbin_free(&s);
	free(src);
}

Test(pica_regs, uniforms_permutation_broadcast_and_errors)
{
	ulp_config cfg;
	ulp_config_defaults(&cfg);
	static pica_regs r;
	pica_regs_init(&r, &cfg);
	wr(&r, PICA_REG_VSH_BOOLUNIFORM, 0x7FFF0005u);          /* b0, b2 */
	cr_assert(r.vs.unif.b[0] && !r.vs.unif.b[1] && r.vs.unif.b[2]);
	wr(&r, PICA_REG_VSH_INTUNIFORM_I + 1, 0x04030201u);     /* i1 = (1, 2, 3, 4) */
	cr_assert_eq(r.vs.unif.i[1][0], 1);
	cr_assert_eq(r.vs.unif.i[1][3], 4);
	cr_assert(r.gs.unif.i[1][3] == 4, "VSH_COM_MODE = 0 broadcasts to the GS unit");
	wr(&r, PICA_REG_VSH_ATTRIBUTES_PERMUTATION_LOW, 0x76543210u ^ 0x1u);   /* attr 0 -> v1 */
	cr_assert_eq(pica_regs_attr_reg(&r.vs, 0), 1);
	cr_assert_eq(pica_regs_attr_reg(&r.vs, 7), 7);
	/* a float uniform at index 96 is ignored; the index still advances */
	wr(&r, PICA_REG_VSH_FLOATUNIFORM_INDEX, 0x80000000u | 95);
	for (int k = 0; k < 8; k++)
		wr(&r, PICA_REG_VSH_FLOATUNIFORM_DATA, f32_bits(2.0f));
	cr_assert_eq(r.vs.unif.c[95].c[0], 2.0f);
	cr_assert_eq(r.vs.float_index, 97);
	/* byte masks: a plain register merges, a FIFO refuses partial masks */
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert(pica_regs_write(&r, PICA_REG_VSH_ENTRYPOINT, 0x3, 0xFFFF0012u, &d));
	cr_assert_eq(r.vs.raw[PICA_SH_ENTRYPOINT], 0x0012u);
	cr_assert_not(pica_regs_write(&r, PICA_REG_VSH_CODETRANSFER_DATA, 0x3, 1, &d));
	cr_assert(strstr(d.msg, "byte mask 0x3 on an upload FIFO"), "%s", d.msg);
	ulp_diag_clear(&d);
	cr_assert_not(pica_regs_write(&r, PICA_REG_COUNT, 0xF, 0, &d));
	cr_assert(strstr(d.msg, "outside the PICA register space"), "%s", d.msg);
	pica_program p;
	ulp_diag_clear(&d);
	static pica_regs empty;
	pica_regs_init(&empty, &cfg);
	cr_assert_not(pica_regs_program(&empty, false, &cfg, &p, &d));
	cr_assert(strstr(d.msg, "no vertex code"), "%s", d.msg);
}

/* ---- the table (pica_regs.def) ---- */

typedef struct table_elem { unsigned addr; char name[64]; } table_elem;

/* Every register element the table lists, with the name the dump prints. */
static size_t table_elems(table_elem *out, size_t cap)
{
	static const struct { unsigned addr, count, stride; const char *dump; } REGS[] = {
#define PICA_REG(NAME, addr, count, stride, dump, source) { (addr), (count), (stride), (dump) },
#include "isa/pica/pica_regs.def"
	};
	static const struct { unsigned base; const char *prefix; } BLOCKS[] = {
#define PICA_SH_BLOCK(NAME, base, size, source) { (base), #NAME "_" },
#include "isa/pica/pica_regs.def"
	};
	static const struct { unsigned off, count; const char *dump; } SH[] = {
#define PICA_SH_REG(NAME, offset, count, dump, source) { (offset), (count), (dump) },
#include "isa/pica/pica_regs.def"
	};
	size_t n = 0;
	char buf[64];
	for (size_t i = 0; i < sizeof REGS / sizeof REGS[0]; i++)
		for (unsigned k = 0; k < REGS[i].count && n < cap; k++, n++) {
			out[n].addr = REGS[i].addr + k * REGS[i].stride;
			snprintf(out[n].name, sizeof out[n].name, "%s", ulp_reg_elem_name(NULL, REGS[i].dump, k, buf, sizeof buf));
		}
	for (size_t b = 0; b < sizeof BLOCKS / sizeof BLOCKS[0]; b++)
		for (size_t i = 0; i < sizeof SH / sizeof SH[0]; i++)
			for (unsigned k = 0; k < SH[i].count && n < cap; k++, n++) {
				out[n].addr = BLOCKS[b].base + SH[i].off + k;
				snprintf(out[n].name, sizeof out[n].name, "%s",
				         ulp_reg_elem_name(BLOCKS[b].prefix, SH[i].dump, k, buf, sizeof buf));
			}
	cr_assert_lt(n, cap);
	return n;
}

Test(pica_regs, table_addresses_unique_and_names_round_trip)
{
	static table_elem e[1024];
	size_t n = table_elems(e, 1024);
	cr_assert_gt(n, 100);
	for (size_t i = 0; i < n; i++) {
		cr_assert_lt(e[i].addr, (unsigned)PICA_REG_COUNT, "%s", e[i].name);
		for (size_t j = i + 1; j < n; j++)
			cr_assert_neq(e[i].addr, e[j].addr, "%s and %s share 0x%03x", e[i].name, e[j].name, e[i].addr);
		char buf[64];
		const char *nm = pica_reg_name((uint16_t)e[i].addr, buf, sizeof buf);
		cr_assert(nm && !strcmp(nm, e[i].name), "0x%03x: %s, table %s", e[i].addr, nm ? nm : "NULL", e[i].name);
		/* FIFO aliases share a name: the lookup gives the first address */
		int back = pica_reg_find(e[i].name);
		cr_assert(back >= 0 && back <= (int)e[i].addr, "%s -> %d", e[i].name, back);
		cr_assert_str_eq(pica_reg_name((uint16_t)back, buf, sizeof buf), e[i].name);
	}
	/* names the table does not list */
	char buf[64];
	cr_assert_null(pica_reg_name(0x000, buf, sizeof buf));
	cr_assert_null(pica_reg_name(PICA_REG_VSH_BASE + 0x05, buf, sizeof buf));
	cr_assert_eq(pica_reg_find("NO_SUCH_REGISTER"), -1);
}

Test(pica_regs, generated_names_and_fields)
{
	/* the addresses of pica200.md §6.1 */
	cr_assert_eq(PICA_REG_VSH_CODETRANSFER_INDEX, 0x2CB);
	cr_assert_eq(PICA_REG_GSH_FLOATUNIFORM_INDEX, 0x290);
	cr_assert_eq(PICA_REG_AT(SH_OUTMAP_O, 6), 0x056);
	cr_assert_eq(PICA_REG_AT(ATTRIBBUFFER_CONFIG2, 11), 0x226);
	cr_assert_eq(pica_reg_find("VSH_CODETRANSFER_INDEX"), 0x2CB);
	cr_assert_eq(pica_reg_find("ATTRIBBUFFER3_CONFIG1"), 0x20D);
	cr_assert_eq(pica_reg_find("SH_OUTMAP_O2"), 0x052);
	/* fields: get, put, repeated */
	cr_assert_eq(PICA_GET(0x80000123u, SH_FLOATUNIFORM_INDEX, INDEX), 0x23u);
	cr_assert_eq(PICA_GET(0x80000123u, SH_FLOATUNIFORM_INDEX, F32), 1u);
	cr_assert_eq(PICA_PUT(PRIMITIVE_CONFIG, MODE, 7u), 0x300u, "masked to 2 bits at 8");
	cr_assert_eq(PICA_GETI(0x1F0B0A09u, SH_OUTMAP_O, COMP, 3), 0x1Fu);
	cr_assert_eq(PICA_PUTI(ATTRIBUTES_PERMUTATION, REG, 7, 0xAu), 0xA0000000u);
	/* every field lies inside its 32-bit word */
#define PICA_FIELD(L, F, lo, width, count, stride) \
	cr_assert_leq((lo) + ((count) - 1) * (stride) + (width), 32, #L "." #F); \
	cr_assert(width >= 1 && (count == 1 || stride >= width), #L "." #F);
#include "isa/pica/pica_regs.def"
}
