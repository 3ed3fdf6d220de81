/* The geometry-shader unit (gsh.h). */
#include "units/geom/gsh.h"

#include <string.h>

/* The next input primitive into the input registers (point mode). */
static bool gsh_start(pica_shader_unit *s, uint64_t now)
{
	gsh_unit *g = (gsh_unit *)s;
	const prim_tri *in = sim_port_peek(s->in, now);
	if (!in)
		return false;
	pica_vec4 buf[16];
	for (unsigned i = 0; i < g->nattr; i++)
		buf[g->cfg.perm[i] & 15] = in->v[i / g->stride][g->src[i % g->stride]];
	memcpy(s->t.v, buf, sizeof buf);
	s->job_id = in->id;
	sim_port_pop(s->in, now);
	g->in_prims++;
	return true;
}

/* EMIT with PRIMEMIT: the triangle, the newest vertex last. */
static void gsh_emit(void *ctx, const pica_vec4 vtx[3][16], bool inverted)
{
	gsh_unit *g = ctx;
	const unsigned last = g->sh.t.emit_vtx < 3 ? g->sh.t.emit_vtx : 2;
	static const unsigned ORDER[2][3][3] = {
		{ { 1, 2, 0 }, { 2, 0, 1 }, { 0, 1, 2 } },   /* kept: the rotation ending at `last` */
		{ { 2, 1, 0 }, { 0, 2, 1 }, { 1, 0, 2 } },   /* inverted: reversed, ending at `last` */
	};
	prim_tri t;
	t.id = g->out_tris++;
	for (unsigned k = 0; k < 3; k++)
		memcpy(t.v[k], vtx[ORDER[inverted][last][k]], sizeof t.v[k]);
	sim_port_push(g->sh.out, &t, g->sh.now);
	sim_unit_count(&g->sh.u, PICA_CTR_PRIMITIVES, 1);
}

static void gsh_reset(sim_unit *u)
{
	gsh_unit *g = (gsh_unit *)u;
	pica_shader_reset(&g->sh);
	g->unif = *g->unif0;
	g->in_prims = g->out_tris = 0;
}

bool gsh_init(gsh_unit *g, const pica_program *prog, const pica_uniforms *unif, const gsh_config *c,
              const ulp_config *cfg, sim_port *in, sim_port *out, ulp_diag *d)
{
	memset(g, 0, sizeof *g);
	if (!prog->is_gs || prog->gs_mode != SHBIN_GS_POINT)
		return ulp_diag_at(d, NULL, 0, 0, "the geometry unit runs point-mode geometry shaders only");
	g->unif = *unif;
	g->unif0 = unif;
	g->cfg = *c;
	for (unsigned r = 0; r < 16; r++)
		if (c->vs_out_mask & (1u << r))
			g->src[g->stride++] = (uint8_t)r;
	g->nattr = g->stride * c->per;
	if (!g->stride || c->per < 1 || c->per > 3 || g->nattr > 16)
		return ulp_diag_at(d, NULL, 0, 0,
		                   "%u vertices of %u output registers do not fit the 16 GS input registers",
		                   c->per, g->stride);
	/* the fourth unit (index 3): its instruction ids follow vsh0..2's */
	pica_shader_init(&g->sh, "gsh", 3, prog, &g->unif, cfg, in, out);
	g->sh.start = gsh_start;
	g->sh.gs_unif = &g->unif;
	g->sh.env.emit = gsh_emit;
	g->sh.env.ctx = g;
	g->sh.u.reset = gsh_reset;
	in->consumer = &g->sh.u;
	return true;
}
