/* The geometry units copy only the o registers read downstream
 * (prim_init's live set, clip_set_live; units/gpu.c sets clip_live_regs |
 * setup_live_regs): the clipper with a live set against the clipper with all
 * 16 on random triangles kept, cut and culled by the near, far and w planes,
 * user planes and CLIPDIST, with flat registers; and the clipper's plane
 * distances against their definition (every vertex it hands on is inside
 * every plane that can cut, up to the cut's rounding). */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "units/geom/clip.h"
#include "units/geom/setup.h"

static uint32_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return (uint32_t)(*s >> 11);
}

static float rf(uint64_t *s, float lo, float hi) { return lo + (hi - lo) * (float)(rnd(s) & 0xFFFFFF) / 16777216.0f; }

/* The vertices triangle t reads in mode m (per: a geometry primitive's
 * vertex count), written out independently of prim.c's prim_indices. */
static void expected_indices(enum prim_mode m, uint32_t per, uint32_t t, uint32_t idx[3])
{
	if (m == PRIM_TRIANGLES)
		idx[0] = 3 * t, idx[1] = 3 * t + 1, idx[2] = 3 * t + 2;
	else if (m == PRIM_TRIANGLE_STRIP)
		idx[0] = t & 1 ? t + 1 : t, idx[1] = t & 1 ? t : t + 1, idx[2] = t + 2;
	else if (m == PRIM_TRIANGLE_FAN)
		idx[0] = 0, idx[1] = t + 1, idx[2] = t + 2;
	else
		idx[0] = per * t, idx[1] = idx[0] + 1, idx[2] = idx[0] + 2;
}

/* Vertices 0..n-1 whose every output component tells its vertex, register
 * and component, and the order they finish in (as numbered, for now). */
static void numbered_vertices(pica_result *vin, uint32_t *order, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		vin[i].id = i;
		for (unsigned r = 0; r < 16; r++)
			for (unsigned c = 0; c < 4; c++)
				vin[i].o[r].c[c] = (float)(i * 100 + r * 4 + c);
		order[i] = i;
	}
}

typedef struct rig {
	sim_port in, out;
	clip_unit c;
	uint64_t now;
} rig;

static void rig_init(rig *r, const clip_state *st, uint16_t live)
{
	memset(r, 0, sizeof *r);
	cr_assert(sim_port_init(&r->in, "in", sizeof(prim_tri), 2, 1, NULL));
	cr_assert(sim_port_init(&r->out, "out", sizeof(prim_tri), 16, 1, NULL));
	clip_init(&r->c, st, &r->in, &r->out);
	clip_set_live(&r->c, live);
	/* the slots' unused registers hold a pattern the live set must not pass on */
	memset(r->out.slots, 0xA5, (size_t)(r->out.mask + 1) * r->out.item_size);
}

static void rig_fini(rig *r)
{
	sim_port_fini(&r->in);
	sim_port_fini(&r->out);
}

/* Triangle t through the clipper: the triangles it hands on, in o[]. */
static unsigned rig_run(rig *r, const prim_tri *t, prim_tri o[CLIP_MAX_POLY])
{
	unsigned n = 0;
	sim_port_push(&r->in, t, r->now);
	for (unsigned k = 0; k < 64; k++, r->now++) {
		r->c.u.tick(&r->c.u, r->now);
		const prim_tri *x;
		while ((x = sim_port_peek(&r->out, r->now + 1))) {
			cr_assert_lt(n, CLIP_MAX_POLY);
			o[n++] = *x;
			sim_port_pop(&r->out, r->now + 1);
		}
	}
	cr_assert(sim_port_empty(&r->in));
	return n;
}

/* A random vertex: mostly inside, some behind the eye, past near or far,
 * huge, or NaN. */
static void rand_vertex(uint64_t *s, pica_vec4 v[16])
{
	for (unsigned r = 0; r < 16; r++)
		for (unsigned c = 0; c < 4; c++)
			v[r].c[c] = rf(s, -4.0f, 4.0f);
	const uint32_t pick = rnd(s) % 16;
	v[0].c[3] = rf(s, 0.5f, 2.0f);
	v[0].c[2] = rf(s, -0.9f, 0.9f) * v[0].c[3];
	if (pick == 0)
		v[0].c[3] = -v[0].c[3];                  /* behind the eye */
	else if (pick == 1)
		v[0].c[2] = 3.0f * v[0].c[3];            /* past far */
	else if (pick == 2)
		v[0].c[2] = -3.0f * v[0].c[3];           /* past near */
	else if (pick == 3)
		v[0].c[0] = 1e30f;
	else if (pick == 4 && rnd(s) % 4 == 0)
		v[0].c[1] = NAN;
}

static void rand_state(uint64_t *s, clip_state *st)
{
	memset(st, 0, sizeof *st);
	st->pos_reg = 0;
	st->clipvert_reg = rnd(s) % 3 ? CLIP_NONE : (uint8_t)(1 + rnd(s) % 15);
	st->clipdist_reg[0] = rnd(s) % 3 ? CLIP_NONE : (uint8_t)(1 + rnd(s) % 15);
	st->clipdist_reg[1] = rnd(s) % 4 ? CLIP_NONE : (uint8_t)(1 + rnd(s) % 15);
	st->plane_enable = rnd(s) % 2 ? 0 : (uint8_t)rnd(s);
	for (unsigned k = 0; k < CLIP_PLANES; k++)
		for (unsigned c = 0; c < 4; c++)
			st->plane[k][c] = c == 3 ? rf(s, 0.0f, 8.0f) : rf(s, -1.0f, 1.0f);
	st->flat_regs = (uint16_t)(rnd(s) & 0xFFFEu);
	st->w_epsilon = 1e-7f;
	st->clip_cycles = (uint16_t)(rnd(s) % 4);
}

/* The distance of plane p (clip.c's planes: near, far, w, user 0..7) at v,
 * from the definition. */
static float plane_dist(const clip_state *st, const pica_vec4 *v, unsigned p)
{
	const float *pos = v[st->pos_reg].c;
	if (p == 0)
		return pos[3] + pos[2];
	if (p == 1)
		return pos[3] - pos[2];
	if (p == 2)
		return pos[3] - st->w_epsilon;
	const unsigned k = p - 3;
	const float *cv = st->clipvert_reg < 16 ? v[st->clipvert_reg].c : pos;
	float d = 1.0f;
	if (st->plane_enable >> k & 1u)
		d = st->plane[k][0] * cv[0] + st->plane[k][1] * cv[1] + st->plane[k][2] * cv[2] + st->plane[k][3] * cv[3];
	const uint8_t cd = st->clipdist_reg[k / 4];
	if (cd < 16 && v[cd].c[k % 4] < d)
		d = v[cd].c[k % 4];
	return d;
}

Test(clip_live, a_live_set_hands_on_the_same_registers_as_all_16)
{
	uint64_t seed = 0x9E3779B97F4A7C15ull;
	uint8_t pattern[sizeof(pica_vec4)];
	memset(pattern, 0xA5, sizeof pattern);
	uint64_t cut = 0, culled = 0, kept = 0;
	unsigned basic_tris = 0, two_rounds = 0;
	for (unsigned round = 0; round < 40; round++) {
		clip_state st;
		rand_state(&seed, &st);
		/* what setup reads too: a few linked registers */
		setup_state su;
		memset(&su, 0, sizeof su);
		su.pos_reg = st.pos_reg;
		su.ntram = 1 + rnd(&seed) % 4;
		su.two_side = rnd(&seed) % 2;
		for (unsigned k = 0; k < GR3D_TRAM_ROWS; k++) {
			su.tram_reg[k] = rnd(&seed) % 5 ? (uint8_t)(rnd(&seed) % 16) : 0xFF;
			su.tram_reg_back[k] = rnd(&seed) % 2 ? (uint8_t)(rnd(&seed) % 16) : 0xFF;
		}
		if (round % 4 == 0) {                 /* the position and one row, not flat (clip.c's two) */
			st.clipvert_reg = st.clipdist_reg[0] = st.clipdist_reg[1] = CLIP_NONE;
			su.ntram = 1;
			su.two_side = false;
			su.tram_reg[0] = (uint8_t)(1 + rnd(&seed) % 15);
			st.flat_regs &= (uint16_t)~(1u << su.tram_reg[0]);
		}
		const uint16_t live = clip_live_regs(&st) | setup_live_regs(&su);
		two_rounds += __builtin_popcount(live) == 2 && !(st.flat_regs & live);
		cr_assert(live & 1u << st.pos_reg);
		if (st.clipvert_reg < 16)
			cr_assert(live & 1u << st.clipvert_reg);
		for (unsigned k = 0; k < su.ntram; k++) {
			if (su.tram_reg[k] < 16)
				cr_assert(live & 1u << su.tram_reg[k]);
			if (su.two_side && su.tram_reg_back[k] < 16)
				cr_assert(live & 1u << su.tram_reg_back[k]);
		}
		static rig all, part, gen;
		rig_init(&all, &st, 0xFFFFu);
		rig_init(&part, &st, live);
		rig_init(&gen, &st, live);
		gen.c.general = true;                 /* the distances always, not near/far/w's lanes */
		const bool basic = !st.plane_enable && st.clipdist_reg[0] >= 16 && st.clipdist_reg[1] >= 16;
		for (unsigned n = 0; n < 50; n++) {
			static prim_tri t, oa[CLIP_MAX_POLY], op[CLIP_MAX_POLY], og[CLIP_MAX_POLY];
			t.id = n;
			bool wild = false;
			for (unsigned k = 0; k < 3; k++) {
				rand_vertex(&seed, t.v[k]);
				for (unsigned c = 0; c < 4; c++)
					wild |= !(fabsf(t.v[k][0].c[c]) < 1e6f);
			}
			const uint64_t cuts = all.c.u.stats.counter[CLIP_CTR_CLIPPED];
			const unsigned na = rig_run(&all, &t, oa), np = rig_run(&part, &t, op), ng = rig_run(&gen, &t, og);
			basic_tris += basic;
			cr_assert_eq(ng, np, "round %u triangle %u: the general path", round, n);
			for (unsigned i = 0; i < ng; i++)
				cr_assert(og[i].id == op[i].id && memcmp(og[i].v, op[i].v, sizeof og[i].v) == 0,
				          "round %u triangle %u out %u: the general path", round, n, i);
			if (na == 1 && all.c.u.stats.counter[CLIP_CTR_CLIPPED] == cuts)   /* kept whole */
				for (unsigned k = 0; k < 3; k++)
					for (unsigned r = 0; r < 16; r++) {
						const pica_vec4 *want = &t.v[st.flat_regs >> r & 1u ? 2 : k][r];
						cr_assert(!(live >> r & 1u) || memcmp(&op[0].v[k][r], want, sizeof *want) == 0,
						          "a kept triangle's vertex %u o%u", k, r);
					}
			cr_assert_eq(na, np, "round %u triangle %u", round, n);
			for (unsigned i = 0; i < na; i++) {
				cr_assert_eq(oa[i].id, op[i].id);
				for (unsigned k = 0; k < 3; k++)
					for (unsigned r = 0; r < 16; r++) {
						if (live >> r & 1u)
							cr_assert(memcmp(&oa[i].v[k][r], &op[i].v[k][r], sizeof(pica_vec4)) == 0,
							          "round %u triangle %u out %u vertex %u o%u", round, n, i, k, r);
						else     /* not written: the slot's pattern */
							cr_assert(memcmp(&op[i].v[k][r], pattern, sizeof(pica_vec4)) == 0,
							          "o%u of a live set %04x written", r, live);
					}
				/* every vertex handed on is inside each plane that can cut (a
				 * cut vertex sits on its plane up to rounding; not after a cut
				 * across a huge or NaN coordinate) */
				for (unsigned k = 0; k < 3 && !wild; k++)
					for (unsigned p = 0; p < 3 + CLIP_PLANES; p++) {
						const float d = plane_dist(&st, oa[i].v[k], p);
						const float *pos = oa[i].v[k][st.pos_reg].c;
						const float tol = 1e-4f * (1.0f + fabsf(pos[0]) + fabsf(pos[1]) + fabsf(pos[2]) +
						                           fabsf(pos[3]));
						cr_assert(!(d < -tol), "round %u triangle %u: plane %u at %g", round, n, p, (double)d);
					}
			}
			cr_assert_eq(all.c.u.stats.counter[CLIP_CTR_CLIPPED], part.c.u.stats.counter[CLIP_CTR_CLIPPED]);
			cr_assert_eq(all.c.u.stats.counter[CLIP_CTR_CULLED], part.c.u.stats.counter[CLIP_CTR_CULLED]);
			cr_assert(!memcmp(&gen.c.u.stats, &part.c.u.stats, sizeof gen.c.u.stats), "the general path's stats");
		}
		cut += all.c.u.stats.counter[CLIP_CTR_CLIPPED];
		culled += all.c.u.stats.counter[CLIP_CTR_CULLED];
		kept += all.c.u.stats.counter[CLIP_CTR_IN] - all.c.u.stats.counter[CLIP_CTR_CLIPPED] -
		        all.c.u.stats.counter[CLIP_CTR_CULLED];
		rig_fini(&all);
		rig_fini(&part);
		rig_fini(&gen);
	}
	cr_assert_gt(basic_tris, 300, "triangles on near/far/w's lanes: %u", basic_tris);
	cr_assert_geq(two_rounds, 10u, "rounds with two live registers, none flat: %u", two_rounds);
	cr_assert_gt(cut, 100, "cut: %lu", (unsigned long)cut);
	cr_assert_gt(culled, 100, "culled: %lu", (unsigned long)culled);
	cr_assert_gt(kept, 100, "kept: %lu", (unsigned long)kept);
}

/* A live set of two registers (prim.c's nlive == 2 path: the position and
 * one row, as glmark2's draws have), any two. */
static uint16_t two_regs(uint64_t *seed)
{
	const unsigned a = rnd(seed) % 16, b = (a + 1 + rnd(seed) % 15) % 16;
	return (uint16_t)(1u << a | 1u << b);
}

/* Primitive assembly keeping only a live set (prim_init's live set: the vertices
 * side by side, nlive registers each) hands on the triangles of lists,
 * strips and fans with the live registers of the right vertices, the
 * vertices arriving in a shuffled order. */
Test(clip_live, prim_keeps_the_live_registers_of_each_vertex)
{
	uint64_t seed = 0x51edc0deu;
	enum { N = 40 };
	static const enum prim_mode MODES[3] = { PRIM_TRIANGLES, PRIM_TRIANGLE_STRIP, PRIM_TRIANGLE_FAN };
	uint8_t pattern[sizeof(pica_vec4)];
	memset(pattern, 0xA5, sizeof pattern);
	for (unsigned round = 0; round < 30; round++) {
		const enum prim_mode m = MODES[round % 3];
		const uint16_t live = round % 2 ? two_regs(&seed) : (uint16_t)(1u | rnd(&seed));
		static pica_result vin[N];
		uint32_t order[N];
		numbered_vertices(vin, order, N);
		for (uint32_t i = N - 1; i > 0; i--) {      /* the units finish out of order */
			const uint32_t j = rnd(&seed) % (i + 1), t = order[i];
			order[i] = order[j];
			order[j] = t;
		}
		sim_port in, out;
		cr_assert(sim_port_init(&in, "in", sizeof(pica_result), 4, 1, NULL));
		cr_assert(sim_port_init(&out, "out", sizeof(prim_tri), 64, 1, NULL));
		memset(out.slots, 0xA5, (size_t)(out.mask + 1) * out.item_size);
		static prim_unit p;
		cr_assert(prim_init(&p, m, N, live, &in, &out));
		cr_assert_eq(p.nlive, (unsigned)__builtin_popcount(live));
		unsigned sent = 0, got = 0;
		const unsigned ntris = m == PRIM_TRIANGLES ? N / 3 : N - 2;
		for (uint64_t now = 0; now < 10 * N && got < ntris; now++) {
			if (sent < N && !sim_port_full(&in))
				sim_port_push(&in, &vin[order[sent++]], now);
			p.u.tick(&p.u, now);
			const prim_tri *t;
			while ((t = sim_port_peek(&out, now + 1))) {
				cr_assert_eq(t->id, got);
				uint32_t idx[3];
				expected_indices(m, 1, got, idx);
				for (unsigned k = 0; k < 3; k++)
					for (unsigned r = 0; r < 16; r++)
						cr_assert(memcmp(&t->v[k][r], live >> r & 1u ? (const void *)&vin[idx[k]].o[r] : pattern,
						                 sizeof(pica_vec4)) == 0,
						          "round %u triangle %u vertex %u o%u (live %04x)", round, got, k, r, live);
				got++;
				sim_port_pop(&out, now + 1);
			}
		}
		cr_assert_eq(got, ntris, "round %u: %u of %u triangles", round, got, ntris);
		sim_unit_fini(&p.u);
		sim_port_fini(&in);
		sim_port_fini(&out);
	}
}

/* A triangle kept whole is handed on from the input port's slot in the tick
 * that takes it, or copied into the polygon when the output port is full
 * (clip.c take/clip_tick): a stream of triangles into a clipper whose
 * output is taken one in three cycles, with room for one, hands on the
 * same triangles as the drained rig's one at a time, flat registers (the
 * clip registers among them, which take the copy path) and all. */
Test(clip_live, a_full_output_port_hands_on_the_same_triangles)
{
	uint64_t seed = 0xC11Bf00du;
	unsigned waits = 0;
	for (unsigned round = 0; round < 30; round++) {
		clip_state st;
		rand_state(&seed, &st);
		const uint16_t live = (uint16_t)(clip_live_regs(&st) | (rnd(&seed) & 0xFFFFu));
		enum { N = 40 };
		static prim_tri tris[N], want[N * CLIP_MAX_POLY], got[N * CLIP_MAX_POLY];
		static rig ref;
		rig_init(&ref, &st, live);
		unsigned nwant = 0;
		for (unsigned n = 0; n < N; n++) {
			tris[n].id = n;
			for (unsigned k = 0; k < 3; k++)
				rand_vertex(&seed, tris[n].v[k]);
			nwant += rig_run(&ref, &tris[n], &want[nwant]);
		}
		static sim_port in, out;
		static clip_unit c;
		cr_assert(sim_port_init(&in, "in", sizeof(prim_tri), 2, 1, NULL));
		cr_assert(sim_port_init(&out, "out", sizeof(prim_tri), 1, 1, NULL));
		clip_init(&c, &st, &in, &out);
		clip_set_live(&c, live);
		memset(out.slots, 0xA5, (size_t)(out.mask + 1) * out.item_size);
		unsigned sent = 0, ngot = 0;
		for (uint64_t now = 0; now < 64u * N && ngot < nwant; now++) {
			if (sent < N && !sim_port_full(&in))
				sim_port_push(&in, &tris[sent++], now);
			c.u.tick(&c.u, now);         /* every cycle, as rig_run */
			waits += c.u.waiting;
			const prim_tri *x;
			if (now % 3 == 2 && (x = sim_port_peek(&out, now + 1))) {
				cr_assert_lt(ngot, nwant);
				got[ngot++] = *x;
				sim_port_pop(&out, now + 1);
			}
		}
		cr_assert_eq(ngot, nwant, "round %u: %u of %u triangles", round, ngot, nwant);
		for (unsigned i = 0; i < nwant; i++) {
			cr_assert_eq(got[i].id, want[i].id);
			for (unsigned k = 0; k < 3; k++)
				for (unsigned r = 0; r < 16; r++)
					cr_assert(!(live >> r & 1u) || memcmp(&got[i].v[k][r], &want[i].v[k][r], sizeof(pica_vec4)) == 0,
					          "round %u out %u vertex %u o%u", round, i, k, r);
		}
		sim_port_fini(&in);
		sim_port_fini(&out);
		rig_fini(&ref);
	}
	cr_assert_gt(waits, 100u, "ticks that found the output full: %u", waits);
}

/* Primitive assembly keeps the vertices still needed in a ring that
 * doubles in place when a vertex arrives a ring's length or more past the
 * oldest one needed (prim.c prim_grow): lists, strips, fans and GS input
 * primitives of 700 vertices arriving in a shuffled order within windows of
 * 1 to 700 (the ring grows up to 1 024 slots), the triangles taken slowly
 * or at once, a vertex sent twice now and then: each triangle has its
 * vertices' live registers, every vertex is counted once, the ring never
 * passes the draw's size. */
Test(clip_live, prim_ring_grows_and_keeps_the_needed_vertices)
{
	uint64_t seed = 0x9217e5u;
	enum { N = 700 };
	static const enum prim_mode MODES[4] = { PRIM_TRIANGLES, PRIM_TRIANGLE_STRIP, PRIM_TRIANGLE_FAN, PRIM_GEOMETRY };
	unsigned grown = 0;
	for (unsigned round = 0; round < 24; round++) {
		const enum prim_mode m = MODES[round % 4];
		const uint32_t per = 1 + round / 4 % 3;
		const uint16_t live = m == PRIM_GEOMETRY ? 0xFFFFu : round % 8 < 4 ? two_regs(&seed) : (uint16_t)(1u | rnd(&seed));
		static pica_result vin[N];
		static uint32_t order[N + N / 8];
		numbered_vertices(vin, order, N);
		/* shuffled within windows of w vertices */
		const uint32_t w = 1 + rnd(&seed) % N;
		for (uint32_t b = 0; b < N; b += w)
			for (uint32_t i = (b + w < N ? b + w : N) - 1; i > b; i--) {
				const uint32_t j = b + rnd(&seed) % (i - b + 1), t = order[i];
				order[i] = order[j];
				order[j] = t;
			}
		uint32_t nsend = N;
		for (unsigned d = 0; d < N / 8; d++)         /* a vertex sent again, later */
			if (rnd(&seed) % 4 == 0) {
				const uint32_t again = order[rnd(&seed) % nsend];
				order[nsend++] = again;
			}
		sim_port in, out;
		cr_assert(sim_port_init(&in, "in", sizeof(pica_result), 4, 1, NULL));
		cr_assert(sim_port_init(&out, "out", sizeof(prim_tri), 2, 1, NULL));
		static prim_unit p;
		if (m == PRIM_GEOMETRY)
			cr_assert(prim_init_geometry(&p, per, N, &in, &out));
		else
			cr_assert(prim_init(&p, m, N, live, &in, &out));
		const unsigned ntris = m == PRIM_TRIANGLES ? N / 3 : m == PRIM_GEOMETRY ? N / per : N - 2;
		const unsigned nv = m == PRIM_GEOMETRY ? per : 3;
		const unsigned slow = rnd(&seed) % 3;         /* 0: at once, else one in slow + 1 cycles */
		unsigned sent = 0, got = 0;
		for (uint64_t now = 0; now < 40u * N && got < ntris; now++) {
			if (sent < nsend && !sim_port_full(&in))
				sim_port_push(&in, &vin[order[sent++]], now);
			p.u.tick(&p.u, now);
			cr_assert_leq(p.cap, p.max_cap);
			const prim_tri *t;
			while ((slow == 0 || now % (slow + 1) == 0) && (t = sim_port_peek(&out, now + 1))) {
				cr_assert_eq(t->id, got);
				uint32_t idx[3];
				expected_indices(m, per, got, idx);
				for (unsigned k = 0; k < nv; k++)
					for (unsigned r = 0; r < 16; r++)
						cr_assert(!(live >> r & 1u) ||
						          memcmp(&t->v[k][r], &vin[idx[k]].o[r], sizeof(pica_vec4)) == 0,
						          "round %u (mode %d) triangle %u vertex %u o%u", round, (int)m, got, k, r);
				got++;
				sim_port_pop(&out, now + 1);
			}
		}
		cr_assert_eq(got, ntris, "round %u (mode %d): %u of %u triangles", round, (int)m, got, ntris);
		cr_assert_eq(p.u.stats.counter[PRIM_CTR_VERTICES], N, "round %u: vertices counted", round);
		grown += p.cap > 64;
		sim_unit_fini(&p.u);
		sim_port_fini(&in);
		sim_port_fini(&out);
	}
	cr_assert_gt(grown, 6u, "rounds whose ring grew: %u", grown);
}
