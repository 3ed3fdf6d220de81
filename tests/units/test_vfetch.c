/* units/pica/vfetch.c vfetch_setup_job: the components of every attribute
 * type and count, read from the caller's bytes or through read(), equal the
 * per-component rule it is written against (pica200.md §6.1): each value
 * as f32 (byte, ubyte (normalized or not), short, float), rounded to
 * float24 by f24_of_f32, and the missing components 0, 0, 0, 1; an
 * attribute read() cannot give reads 0, 0, 0, 1. */
#include <criterion/criterion.h>
#include <string.h>

#include "isa/f24.h"
#include "tests/test_util.h"
#include "units/pica/vfetch.h"

enum { STRIDE = 16, VERTS = 64 };

typedef struct mem { uint8_t b[STRIDE * VERTS]; } mem;

static const uint8_t *mem_read(const void *m, uint32_t addr, uint32_t len)
{
	const mem *x = m;
	return addr + (uint64_t)len <= sizeof x->b ? x->b + addr : NULL;
}

/* The rule, one component at a time. */
static float want_component(const uint8_t *p, unsigned type, bool normalize, enum ulp_round r, bool exact)
{
	float f;
	switch (type) {
	case VFETCH_S8: f = (float)(int8_t)p[0]; break;
	case VFETCH_U8: f = normalize ? p[0] / 255.0f : (float)p[0]; break;
	case VFETCH_S16: f = (float)(int16_t)(uint16_t)(p[0] | p[1] << 8); break;
	default: {
		const uint32_t b = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
		memcpy(&f, &b, sizeof f);
	}
	}
	return f24_of_f32(f, r, exact);
}

static uint32_t bits(float f)
{
	uint32_t b;
	memcpy(&b, &f, sizeof b);
	return b;
}

Test(vfetch, setup_job_components_follow_the_rule)
{
	static const uint8_t SIZE[4] = { 1, 1, 2, 4 };
	static const enum ulp_round MODES[3] = { ULP_ROUND_NEAREST_EVEN, ULP_ROUND_TRUNCATE,
	                                         ULP_ROUND_NEAREST_AWAY };
	static mem m;
	test_rng rng = { 1234 };
	for (size_t k = 0; k < sizeof m.b; k++)
		m.b[k] = (uint8_t)test_rnd(&rng);
	/* some floats that round, carry, underflow to float24's subnormals,
	 * overflow, or are zeros, infinities and NaNs */
	static const uint32_t F[] = { 0x3F800040u, 0x3F8000C0u, 0x3F7FFFFFu, 0x5F7FFFC0u, 0x1F000001u,
	                              0x80000000u, 0x00000000u, 0x7F800000u, 0xFFC00001u, 0x00000001u };
	for (unsigned k = 0; k < sizeof F / sizeof F[0]; k++)
		memcpy(&m.b[STRIDE * 3 + 4 * (k % 4) + (k / 4) * STRIDE], &F[k], 4);
	unsigned checked = 0;
	for (unsigned mode = 0; mode < 4; mode++) {          /* the three roundings, then exact */
		for (unsigned type = 0; type < 4; type++) {
			for (unsigned n = 1; n <= 4; n++) {
				for (unsigned via_read = 0; via_read < 2; via_read++) {
					vfetch_setup s;
					memset(&s, 0, sizeof s);
					s.round = MODES[mode % 3];
					s.exact = mode == 3;
					s.read = mem_read;
					s.mem = &m;
					s.nattr = 2;
					s.attr[0] = (vfetch_attr){ .addr = 0, .stride = STRIDE, .type = (uint8_t)type,
					                           .ncomp = (uint8_t)n, .reg = 3, .normalize = type == 1 };
					if (!via_read) {
						s.attr[0].bytes = m.b;
						s.attr[0].first = 0;
					}
					/* the second attribute lies past the memory: read() refuses it */
					s.attr[1] = (vfetch_attr){ .addr = sizeof m.b - 2, .stride = 0, .type = VFETCH_F32,
					                           .ncomp = 4, .reg = 7 };
					for (uint32_t v = 0; v < VERTS; v++) {
						pica_job job;
						memset(&job, 0, sizeof job);
						vfetch_setup_job(&s, v, &job);
						const uint8_t *p = m.b + (size_t)STRIDE * v;
						for (unsigned j = 0; j < 4; j++) {
							const float want = j < n ? want_component(p + j * SIZE[type], type, type == 1,
							                                          s.round, s.exact)
							                         : j == 3 ? 1.0f : 0.0f;
							cr_assert_eq(bits(job.v[3].c[j]), bits(want),
							             "type %u, %u components, vertex %u, component %u, mode %u: %a, want %a",
							             type, n, v, j, mode, (double)job.v[3].c[j], (double)want);
							cr_assert_eq(bits(job.v[7].c[j]), bits(j == 3 ? 1.0f : 0.0f));
						}
						checked++;
					}
				}
			}
		}
	}
	cr_assert_eq(checked, 4u * 4 * 4 * 2 * VERTS);
}
