/* Two replays of one trace compared in full (test_replay_pair.h). */
#include "tests/test_replay_pair.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/image.h"

static bool log_write(void *ctx, const sim_tl_event *ev, size_t n)
{
	test_ev_log *l = ctx;
	if (l->n + n > l->cap) {
		size_t cap = l->cap ? l->cap : 4096;
		while (cap < l->n + n)
			cap *= 2;
		sim_tl_event *p = realloc(l->ev, cap * sizeof *p);
		cr_assert(p);
		l->ev = p;
		l->cap = cap;
	}
	memcpy(l->ev + l->n, ev, n * sizeof *ev);
	l->n += n;
	return true;
}

sim_tl_sink test_ev_sink(test_ev_log *l) { return (sim_tl_sink){ l, log_write, NULL }; }

const char *const TEST_SAMPLES[TEST_NSAMPLES] = { "triangle", "textured_cube", "lit_sphere", "teaching_8x8",
	                                               "alpha_blend", "discard", "gs_particles" };

void test_gpu_setting(ulp_config *c, unsigned setting)
{
	ulp_config_defaults(c);
	if (!setting)
		return;
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert(ulp_config_preset(c, "tegra3", &d), "%s", d.msg);
	c->host_threads = setting >= 2 ? 2 : 1;
}

void test_sample_load(trace *t, const char *name, char *path, size_t n)
{
	snprintf(path, n, "traces/samples/%s.json", name);
	ulp_diag d;
	ulp_diag_clear(&d);
	cr_assert(trace_load(t, path, &d), "%s", d.msg);
}

void test_replay_run(const trace *t, const ulp_config *c, bool record, uint64_t max_cycles, test_run *r)
{
	memset(r, 0, sizeof *r);
	sim_timeline tl;
	cr_assert(sim_tl_init(&tl));
	cr_assert(sim_tl_add_sink(&tl, test_ev_sink(&r->log)));
	tl.enabled = true;
	replay_opts o = { .cfg = c, .keep_image = true, .tl = record ? &tl : NULL, .max_cycles = max_cycles };
	ulp_diag d;
	ulp_diag_clear(&d);
	r->ok = replay_run(t, &o, &r->res, &d);
	snprintf(r->msg, sizeof r->msg, "%s", d.msg);
	sim_tl_fini(&tl);
}

void test_run_free(test_run *r)
{
	ulp_image_free(r->res.image);
	free(r->log.ev);
}

void test_results_same(const replay_result *x, const replay_result *y, const char *what)
{
	cr_assert_eq(x->cycles, y->cycles, "%s: %llu vs %llu cycles", what, (unsigned long long)x->cycles,
	             (unsigned long long)y->cycles);
	cr_assert_eq(x->vertex_cycles, y->vertex_cycles, "%s: vertex cycles", what);
	cr_assert_eq(x->fragment_cycles, y->fragment_cycles, "%s: fragment cycles", what);
	cr_assert_eq(x->draws, y->draws, "%s", what);
	cr_assert_eq(x->vertices, y->vertices, "%s", what);
	cr_assert_eq(x->triangles, y->triangles, "%s", what);
	cr_assert_eq(x->fragments, y->fragments, "%s", what);
	cr_assert_eq(x->nunits, y->nunits, "%s", what);
	for (unsigned k = 0; k < x->nunits; k++) {
		cr_assert_str_eq(x->unit[k].name, y->unit[k].name, "%s", what);
		cr_assert(!memcmp(&x->unit[k].stats, &y->unit[k].stats, sizeof x->unit[k].stats), "%s: %s's stats",
		          what, x->unit[k].name);
	}
	cr_assert_eq(x->nports, y->nports, "%s", what);
	cr_assert(!memcmp(x->port, y->port, x->nports * sizeof x->port[0]), "%s: port marks", what);
	cr_assert_eq(!x->image, !y->image, "%s", what);
	if (x->image) {
		cr_assert(x->image->width == y->image->width && x->image->height == y->image->height, "%s", what);
		cr_assert(!memcmp(x->image->rgba, y->image->rgba, (size_t)x->image->width * x->image->height * 4),
		          "%s: images differ", what);
	}
}

void test_runs_same(const test_run *a, const test_run *b, const char *what)
{
	cr_assert_eq(a->ok, b->ok, "%s: ok %d vs %d (%s | %s)", what, a->ok, b->ok, a->msg, b->msg);
	cr_assert_str_eq(a->msg, b->msg, "%s", what);
	test_results_same(&a->res, &b->res, what);
	cr_assert_eq(a->log.n, b->log.n, "%s: %zu vs %zu timeline events", what, a->log.n, b->log.n);
	for (size_t e = 0; e < a->log.n; e++) {
		const sim_tl_event *p = &a->log.ev[e], *q = &b->log.ev[e];
		cr_assert(p->cycle == q->cycle && p->id == q->id && p->arg == q->arg && p->lane == q->lane &&
		          p->kind == q->kind,
		          "%s: event %zu: cycle %llu lane %u kind %u id %u arg %u vs cycle %llu lane %u kind %u id %u arg %u",
		          what, e, (unsigned long long)p->cycle, p->lane, p->kind, p->id, p->arg,
		          (unsigned long long)q->cycle, q->lane, q->kind, q->id, q->arg);
	}
}
