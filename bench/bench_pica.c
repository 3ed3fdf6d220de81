/* PICA200: the three corpus vertex shaders of issue 18 (simple_tri,
 * fragment_light, normal_mapping) over 10^6 vertices on four clocked units,
 * best of --reps, with timeline recording off and on.  Rows: vertices/s,
 * simulated cycles per vertex, the ratio against the ctremu -O3 interpreter
 * figures quoted from issue 18's measurement on this machine class (not
 * re-measured here: the emulator is not part of the project), unit-cycles/s
 * (issue 3), and the recording ratio (goal >= 50%).
 * --vertices N runs N vertices and --record off|on one mode (profiling); --case S keeps the shaders
 * whose name holds S; --check prints what the runs computed (cycles, every
 * unit's figures, a hash of every output vertex in completion order). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "units/gpu.h"

/* A run's context: the inputs' table, the outputs' hash. */
typedef struct bench_ctx {
	float in[32];           /* (i & 15) / 8 */
	uint64_t hash;
} bench_ctx;

/* Vertex id's inputs: v[r].c[k] = ((id + 4r + k) & 15) / 8, that is the
 * 16 floats from entry id & 15 of the table. */
static void bench_job(void *ctx, uint32_t id, pica_job *job)
{
	const bench_ctx *b = ctx;
	memcpy(job->v, b->in + (id & 15), 4 * sizeof job->v[0]);
}

/* FNV-1a over each result's id, unit and output bits. */
static void hash_result(void *ctx, const pica_result *r)
{
	uint64_t *h = &((bench_ctx *)ctx)->hash;
	const unsigned char *b = (const unsigned char *)r;
	for (size_t i = 0; i < sizeof *r; i++)
		*h = (*h ^ b[i]) * 0x100000001b3ull;
}

static bool count_write(void *ctx, const sim_tl_event *ev, size_t n)
{
	(void)ev;
	*(uint64_t *)ctx += n;
	return true;
}

static void print_check(const char *label, const char *mode, const pica_batch_stats *st,
                        uint64_t hash)
{
	printf("check pica %s %s: cycles %llu instructions %llu invocations %llu outputs %016llx\n",
	       label, mode, (unsigned long long)st->cycles, (unsigned long long)st->instructions,
	       (unsigned long long)st->invocations, (unsigned long long)hash);
	for (unsigned k = 0; k < 4; k++) {
		const sim_unit_stats *u = &st->unit[k];
		printf("check   vsh%u busy %llu idle %llu stalls", k, (unsigned long long)u->busy,
		       (unsigned long long)st->unit_idle[k]);
		for (int c = 0; c < SIM_STALL_COUNT; c++)
			printf(" %llu", (unsigned long long)u->stall[c]);
		printf(" counters");
		for (int c = 0; c < PICA_CTR_COUNT; c++)
			printf(" %llu", (unsigned long long)u->counter[c]);
		printf("\n");
	}
}

/* Best of reps; seconds, < 0 on failure. */
static double measure(const bench_table *t, const char *label, const pica_program *p,
                      const pica_uniforms *u, bool record, uint32_t n, pica_batch_stats *st)
{
	ulp_config cfg;
	ulp_config_defaults(&cfg);
	pica_env env;
	pica_env_from_config(&env, &cfg);
	double best = -1;
	for (int rep = 0; rep < t->reps; rep++) {
		sim_timeline tl;
		uint64_t events = 0;
		bench_ctx ctx = { .hash = 0xcbf29ce484222325ull };
		for (unsigned i = 0; i < 32; i++)
			ctx.in[i] = (float)(i & 15) * 0.125f;
		if (record) {
			if (!sim_tl_init(&tl))
				return -1;
			sim_tl_add_sink(&tl, (sim_tl_sink){ .ctx = &events, .write = count_write });
			tl.enabled = true;
		}
		ulp_diag d;
		ulp_diag_clear(&d);
		double t0 = bench_now();
		bool ok = pica_batch_run(p, u, &cfg, &env, 4, n, bench_job, t->check ? hash_result : NULL,
		                         &ctx, record ? &tl : NULL, st, &d);
		double dt = bench_now() - t0;
		if (record)
			sim_tl_fini(&tl);
		if (!ok) {
			fprintf(stderr, "bench: pica %s: %s\n", label, d.msg);
			return -1;
		}
		if (t->check && rep == 0)
			print_check(label, record ? "recording" : "off", st, ctx.hash);
		if (best < 0 || dt < best)
			best = dt;
	}
	return best;
}

static void one(bench_table *t, const char *corpus, const char *label, double quoted)
{
	if (t->only && !strstr(label, t->only))
		return;
	char path[1024];
	snprintf(path, sizeof path, "%s/pica/%s/vshader.shbin", corpus, label);
	struct shbin s;
	ulp_diag d;
	ulp_diag_clear(&d);
	if (!shbin_load(path, &s, &d)) {
		fprintf(stderr, "bench: %s\n", d.msg);
		return;
	}
	ulp_config cfg;
	ulp_config_defaults(&cfg);
	pica_program p;
	static pica_uniforms u;
	memset(&u, 0, sizeof u);
	if (!pica_program_build(&p, &s, 0, &cfg, &d)) {
		fprintf(stderr, "bench: %s: %s\n", path, d.msg);
		shbin_free(&s);
		return;
	}
	pica_uniforms_apply_dvle(&u, p.dvle);
	for (int i = 0; i < 4; i++)
		u.c[i].c[i] = 1.0f;
	const uint32_t n = t->vertices ? t->vertices : 1000 * 1000;
	pica_batch_stats st;
	if (t->record >= 0) {        /* one mode (profiling) */
		double dt = measure(t, label, &p, &u, t->record, n, &st);
		char name[128];
		snprintf(name, sizeof name, "pica %s%s: vertices", label, t->record ? ", recording" : "");
		if (dt > 0)
			bench_add(t, name, n / dt, "vertices/s", "");
		pica_program_free(&p);
		shbin_free(&s);
		return;
	}
	double off = measure(t, label, &p, &u, false, n, &st);
	double on = off > 0 ? measure(t, label, &p, &u, true, n, &st) : -1;
	if (off > 0 && on > 0) {
		char name[128];
		snprintf(name, sizeof name, "pica %s: vertices", label);
		bench_add(t, name, n / off, "vertices/s", "");
		snprintf(name, sizeof name, "pica %s: cycles per vertex (4 units)", label);
		bench_add(t, name, (double)st.cycles / n, "cycles", "");
		snprintf(name, sizeof name, "pica %s: / ctremu -O3 (%.1f M, quoted)", label, quoted / 1e6);
		bench_add(t, name, n / off / quoted, "ratio", ">= 1.0");
		snprintf(name, sizeof name, "pica %s: unit-cycles (4 units)", label);
		bench_add(t, name, st.cycles * 4.0 / off, "unit-cycles/s", ">= 20 M");
		snprintf(name, sizeof name, "pica %s: speed recording / off", label);
		bench_add(t, name, off / on, "ratio", ">= 0.5");
	}
	pica_program_free(&p);
	shbin_free(&s);
}

void bench_pica(bench_table *t)
{
	const char *corpus = getenv("ULPSIM_CORPUS");
	if (!corpus || !*corpus)
		corpus = "../shared/corpus";
	/* ctremu's shader interpreter built -O3, vertices/s: issue 18's figures
	 * for this machine class, quoted, not measured here */
	one(t, corpus, "simple_tri", 20e6);
	one(t, corpus, "fragment_light", 5.5e6);
	one(t, corpus, "normal_mapping", 3.5e6);
}
