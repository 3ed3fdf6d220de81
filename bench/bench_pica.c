/* PICA200: corpus vertex shaders over 10^6 vertices in the clocked unit
 * (issue 3's goal: >= 20 M simulated unit-cycles/s on one host core). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "units/gpu.h"

static void bench_job(void *ctx, uint32_t id, pica_job *job)
{
	(void)ctx;
	for (int r = 0; r < 4; r++)
		for (int k = 0; k < 4; k++)
			job->v[r].c[k] = (float)((id + (unsigned)(r * 4 + k)) & 15) * 0.125f;
}

static void one(bench_table *t, const char *corpus, const char *rel, const char *label, uint32_t n)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/%s", corpus, rel);
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
	if (pica_program_build(&p, &s, 0, &cfg, &d)) {
		pica_uniforms_apply_dvle(&u, p.dvle);
		for (int i = 0; i < 4; i++)
			u.c[i].c[i] = 1.0f;
		pica_env env;
		pica_env_from_config(&env, &cfg);
		pica_batch_stats st;
		double t0 = bench_now();
		bool ok = pica_batch_run(&p, &u, &cfg, &env, 4, n, bench_job, NULL, NULL, NULL, &st, &d);
		double dt = bench_now() - t0;
		if (ok) {
			char name[128];
			snprintf(name, sizeof name, "pica %s: vertices", label);
			bench_add(t, name, n / dt, "vertices/s", "");
			snprintf(name, sizeof name, "pica %s: unit-cycles (4 units)", label);
			bench_add(t, name, st.cycles * 4.0 / dt, "unit-cycles/s", ">= 20 M");
		} else {
			fprintf(stderr, "bench: %s: %s\n", path, d.msg);
		}
		pica_program_free(&p);
	}
	shbin_free(&s);
}

void bench_pica(bench_table *t)
{
	const char *corpus = getenv("ULPSIM_CORPUS");
	if (!corpus || !*corpus)
		corpus = "../shared/corpus";
	const uint32_t n = 1000 * 1000;
	one(t, corpus, "pica/simple_tri/vshader.shbin", "simple_tri", n);
	one(t, corpus, "pica/fragment_light/vshader.shbin", "fragment_light", n);
	one(t, corpus, "pica/normal_mapping/vshader.shbin", "normal_mapping", n);
}
