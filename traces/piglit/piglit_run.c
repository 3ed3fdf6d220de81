/* Runs one piglit test on both paths and scores it (docs/piglit.md). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "traces/piglit/piglit.h"
#include "sim/check/compare.h"

const char *pg_status_name(enum pg_status s)
{
	return s == PG_PASS ? "pass" : s == PG_FAIL ? "fail" : "refused";
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A test whose [test] section only says `link success` (and draws nothing):
 * shader_runner passes it when the program links, and a corpus folder
 * holds a program Mesa linked. */
static bool link_only(const pg_test *t)
{
	bool link = false;
	for (size_t i = 0; i < t->ncmds; i++) {
		if (t->cmds[i].kind == PG_DRAW_RECT || t->cmds[i].kind == PG_DRAW_ARRAYS)
			return false;
		link |= t->cmds[i].kind == PG_NOP && !strncmp(t->cmds[i].text, "link", 4);
	}
	return link;
}

static void refuse(pg_path_result *p, int line, const char *why)
{
	p->status = PG_REFUSED;
	p->line = line;
	if (line)
		snprintf(p->reason, sizeof p->reason, "line %d: %s", line, why);
	else
		snprintf(p->reason, sizeof p->reason, "%s", why);
}

/* One path: sim (true; with arith=exact when exact) or reference (false). */
static void run_path(const pg_test *t, bool sim, bool exact, pg_path_result *p)
{
	double t0 = now();
	memset(p, 0, sizeof *p);
	char reason[PG_REASON_MAX] = "";
	pg_state *st = malloc(sizeof *st);
	ulp_diag d;
	ulp_diag_clear(&d);
	pg_ref *ref = NULL;
	pg_trace *tr = NULL;
	ulp_image *simg = NULL;          /* sim: the last replayed image */
	bool dirty = true;
	if (!st) {
		refuse(p, 0, "out of memory");
		return;
	}
	pg_state_init(st, t, &d);
	if (!pg_state_prepare(st, t, reason, sizeof reason)) {
		refuse(p, 0, reason);
		goto out;
	}
	if (sim)
		tr = pg_trace_new(t, exact, &d);
	else
		ref = pg_ref_new(t, &d);
	if (!tr && !ref) {
		char msg[PG_REASON_MAX];
		ulp_diag_format(&d, msg, sizeof msg);
		refuse(p, 0, msg);
		goto out;
	}
	static const float zero[4] = { 0, 0, 0, 0 };
	if (!sim) {
		pg_ref_clear(ref, zero, true, 1.0f, true);
	} else if (!pg_trace_clear(tr, zero, 1.0f, reason, sizeof reason)) {
		refuse(p, 0, reason);
		goto out;
	}
	for (size_t i = 0; i < t->ncmds; i++) {
		const pg_cmd *c = &t->cmds[i];
		reason[0] = '\0';
		switch (c->kind) {
		case PG_UNSUPPORTED:
			snprintf(reason, sizeof reason, "command not interpreted: '%s'", c->text);
			refuse(p, c->line, reason);
			goto out;
		case PG_CLEAR:
			if (sim) {
				if (!pg_trace_clear(tr, st->clear_color, st->clear_depth, reason, sizeof reason)) {
					refuse(p, c->line, reason);
					goto out;
				}
				dirty = true;
			} else {
				pg_ref_clear(ref, st->clear_color, true, st->clear_depth, true);
			}
			break;
		case PG_DRAW_RECT:
		case PG_DRAW_ARRAYS: {
			pg_draw dr;
			if (!pg_state_draw(st, t, c, &dr, reason, sizeof reason)) {
				refuse(p, c->line, reason);
				goto out;
			}
			bool ok = sim ? pg_trace_draw(tr, &dr, reason, sizeof reason)
			              : pg_ref_draw(ref, &dr, reason, sizeof reason);
			pg_draw_free(&dr);
			if (!ok) {
				refuse(p, c->line, reason);
				goto out;
			}
			dirty = true;
			break;
		}
		case PG_PROBE: {
			if (sim && dirty) {
				ulp_image_free(simg);
				simg = pg_trace_render(tr, reason, sizeof reason);
				if (!simg) {
					refuse(p, c->line, reason);
					goto out;
				}
				dirty = false;
			}
			pg_probe_result pr;
			bool ok = pg_probe_check(c, sim ? simg : pg_ref_image(ref),
			                         sim ? pg_trace_depth(tr) : pg_ref_depth(ref), &pr);
			p->probes++;
			if (ok) {
				p->probes_passed++;
			} else if (p->status != PG_FAIL) {
				p->status = PG_FAIL;
				p->probe = pr;
			}
			break;
		}
		default:
			if (!pg_state_apply(st, t, c, reason, sizeof reason)) {
				refuse(p, c->line, reason);
				goto out;
			}
		}
	}
	if (p->status == PG_FAIL) {
		const pg_probe_result *r = &p->probe;
		char e[64], g[64];
		if (r->ncomp == 1) {
			snprintf(e, sizeof e, "%.4f", r->expected[0]);
			snprintf(g, sizeof g, "%.4f", r->got[0]);
		} else {
			snprintf(e, sizeof e, "(%.3f, %.3f, %.3f%s", r->expected[0], r->expected[1],
			         r->expected[2], r->ncomp == 4 ? "" : ")");
			snprintf(g, sizeof g, "(%.3f, %.3f, %.3f%s", r->got[0], r->got[1], r->got[2],
			         r->ncomp == 4 ? "" : ")");
			if (r->ncomp == 4) {
				snprintf(e + strlen(e), sizeof e - strlen(e), ", %.3f)", r->expected[3]);
				snprintf(g + strlen(g), sizeof g - strlen(g), ", %.3f)", r->got[3]);
			}
		}
		snprintf(p->reason, sizeof p->reason, "line %d: '%s' at (%d, %d): expected %s, got %s",
		         r->line, r->text, r->x, r->y, e, g);
	} else if (p->status == PG_PASS && p->probes == 0 && !link_only(t)) {
		refuse(p, 0, "no probe in the [test] section");
	}
	if (p->status != PG_REFUSED) {
		if (sim && dirty) {
			ulp_image_free(simg);
			simg = pg_trace_render(tr, reason, sizeof reason);
			dirty = false;
		}
		p->image = sim ? simg : ulp_image_clone(pg_ref_image(ref), &d);
		if (sim)
			simg = NULL;
	}
out:
	ulp_image_free(simg);
	pg_trace_free(tr);
	pg_ref_free(ref);
	pg_state_free(st);
	free(st);
	p->seconds = now() - t0;
}

static void compare(const pg_test *t, pg_result *res, const ulp_image *sp)
{
	ulp_diag d;
	ulp_compare_result cr;
	(void)t;
	ulp_diag_clear(&d);
	if (res->sim.image && ulp_compare_images(res->sim.image, sp, 3, &cr, NULL, &d)) {
		res->sim_compared = true;
		res->psnr_sim = cr.psnr_db;
		res->maxdiff_sim = cr.max_diff;
	}
	ulp_diag_clear(&d);
	if (res->ref.image && ulp_compare_images(res->ref.image, sp, 3, &cr, NULL, &d)) {
		res->ref_compared = true;
		res->psnr_ref = cr.psnr_db;
		res->maxdiff_ref = cr.max_diff;
	}
}

void pg_run_test(const char *dir, const pg_run_opts *o, pg_result *res)
{
	memset(res, 0, sizeof *res);
	pg_test t;
	ulp_diag d;
	ulp_diag_clear(&d);
	bool ok = pg_test_load(&t, dir, &d);
	snprintf(res->name, sizeof res->name, "%s", t.name[0] ? t.name : dir);
	if (!ok) {
		char msg[PG_REASON_MAX];
		ulp_diag_format(&d, msg, sizeof msg);
		refuse(&res->sim, 0, msg);
		refuse(&res->ref, 0, msg);
		pg_test_free(&t);
		return;
	}
	if (o->run_sim)
		run_path(&t, true, false, &res->sim);
	else
		refuse(&res->sim, 0, "not run");
	if (o->run_ref)
		run_path(&t, false, false, &res->ref);
	else
		refuse(&res->ref, 0, "not run");
	/* the oracle: the same compiled program, units and timing in binary32
	 * (docs/exact.md); a failure is precision only when it passes there */
	if (o->run_exact && res->sim.status != PG_REFUSED)
		run_path(&t, true, true, &res->exact);
	else
		refuse(&res->exact, 0, "not run");
	res->precision = res->sim.status == PG_FAIL && res->exact.status == PG_PASS;
	if (o->compare_softpipe) {
		char p[1200];
		snprintf(p, sizeof p, "%s/softpipe.png", t.dir);
		ulp_diag_clear(&d);
		ulp_image *sp = ulp_image_load_png(p, &d);
		if (sp) {
			res->have_softpipe = true;
			compare(&t, res, sp);
			ulp_image_free(sp);
		}
	}
	pg_test_free(&t);
}

void pg_result_free(pg_result *res)
{
	ulp_image_free(res->sim.image);
	ulp_image_free(res->ref.image);
	ulp_image_free(res->exact.image);
	res->sim.image = res->ref.image = res->exact.image = NULL;
}
