/* ulpsim pica run file.shbin --case case.json [--trace] [--batch N]
 * Runs one vertex (vertex DVLE) or one geometry-shader invocation through
 * the clocked PICA200 shader unit and prints the result as JSON. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fileio.h"
#include "base/json.h"
#include "base/hosttime.h"
#include "cli/cli.h"
#include "cli/json_out.h"
#include "isa/pica/pica_disasm.h"
#include "units/gpu.h"

static const char usage[] =
	"usage: ulpsim pica run file.shbin --case case.json [options]\n"
	"  runs one vertex (vertex DVLE) or one geometry-shader invocation through\n"
	"  the clocked PICA200 shader unit and prints JSON on stdout:\n"
	"    {\"outputs\": {\"o0\": [x,y,z,w], ...}, \"cycles\": N}            (vertex shader)\n"
	"    {\"primitives\": [{\"winding_inverted\": b, \"vertices\": [...]}], \"cycles\": N}  (GS)\n"
	"case.json: {\"dvle\": 0, \"inputs\": {\"v0\": [x,y,z,w], ...},\n"
	"            \"uniforms\": {\"c0\": [x,y,z,w], \"i0\": [x,y,z,w], \"b0\": true, ...}}\n"
	"  numbers may also be \"inf\", \"-inf\" or \"nan\"; the DVLE's constants load first\n"
	"options:\n"
	"  --trace          print each instruction: cycle, unit, pc, text, registers changed\n"
	"  --batch N        run N vertices (inputs varied deterministically) over\n"
	"                   pica.units units (one fewer when the SHBIN also holds a\n"
	"                   geometry shader: it runs on the 4th); print vertices/s and\n"
	"                   simulated cycles/s\n"
	"  --permissive     conditions that hang silicon warn instead of stopping\n"
	"  --config FILE    load knobs from a JSON config\n"
	"  --set KEY=VALUE  set one knob (see docs/ASSUMPTIONS.md)\n";

typedef struct run_ctx {
	const pica_program *prog;
	pica_vec4 inputs[16];
	cJSON *prims;            /* GS primitives, as JSON */
	FILE *trace;
	bool batch;
	uint64_t results;
	double checksum;
	pica_vec4 last_o[16];     /* the single run's output vertex */
} run_ctx;

/* ---- case.json ---- */

static bool json_float(const cJSON *it, float *out)
{
	if (cJSON_IsNumber(it)) {
		*out = (float)it->valuedouble;
		return true;
	}
	if (cJSON_IsString(it)) {
		const char *s = it->valuestring;
		if (strcmp(s, "inf") == 0 || strcmp(s, "+inf") == 0)
			*out = INFINITY;
		else if (strcmp(s, "-inf") == 0)
			*out = -INFINITY;
		else if (strcmp(s, "nan") == 0)
			*out = NAN;
		else
			return false;
		return true;
	}
	return false;
}

static bool json_vec4(const cJSON *arr, float out[4], const char *file, const char *path, ulp_diag *d)
{
	if (!cJSON_IsArray(arr) || cJSON_GetArraySize(arr) != 4)
		return ulp_diag_at(d, file, 0, 0, "%s: expected an array of 4 numbers", path);
	for (int k = 0; k < 4; k++)
		if (!json_float(cJSON_GetArrayItem(arr, k), &out[k]))
			return ulp_diag_at(d, file, 0, 0, "%s[%d]: expected a number, \"inf\", \"-inf\" or \"nan\"",
			                   path, k);
	return true;
}

/* "v12" -> 12 when the prefix matches and the number is below limit. */
static int reg_index(const char *name, char prefix, int limit)
{
	if (name[0] != prefix || !name[1])
		return -1;
	char *end;
	long n = strtol(name + 1, &end, 10);
	if (*end || n < 0 || n >= limit || (name[1] == '0' && name[2]))
		return -1;
	return (int)n;
}

/* f24 register values: the case's floats go through the uniform conversion. */
static float to_f24(float v, const ulp_config *cfg)
{
	return f24_of_f32(v, cfg->f24_uniform_round, cfg->arith == ULP_ARITH_EXACT);
}

static bool load_case(const char *file, const ulp_config *cfg, unsigned *dvle, pica_vec4 in[16],
                      pica_uniforms *u, const struct shbin *s, ulp_diag *d)
{
	char *text = ulp_read_file(file, NULL, d);
	if (!text)
		return false;
	cJSON *root = ulp_json_parse(text, file, d);
	free(text);
	if (!root)
		return false;
	bool ok = true;
	char path[64];
	if (!cJSON_IsObject(root))
		ok = ulp_diag_at(d, file, 0, 0, "$: expected an object");
	for (const cJSON *it = ok ? root->child : NULL; it && ok; it = it->next)
		if (strcmp(it->string, "dvle") && strcmp(it->string, "inputs") && strcmp(it->string, "uniforms"))
			ok = ulp_diag_at(d, file, 0, 0, "$.%s: unknown field (dvle, inputs, uniforms)", it->string);
	const cJSON *jd = ok ? cJSON_GetObjectItemCaseSensitive(root, "dvle") : NULL;
	*dvle = 0;
	if (jd) {
		if (!cJSON_IsNumber(jd) || jd->valuedouble < 0 || jd->valuedouble >= (double)s->ndvle ||
		    jd->valuedouble != (double)(unsigned)jd->valuedouble)
			ok = ulp_diag_at(d, file, 0, 0, "$.dvle: expected a DVLE index below %zu", s->ndvle);
		else
			*dvle = (unsigned)jd->valuedouble;
	}
	if (ok)
		pica_uniforms_apply_dvle(u, &s->dvle[*dvle]);
	const cJSON *ins = ok ? cJSON_GetObjectItemCaseSensitive(root, "inputs") : NULL;
	if (ins && !cJSON_IsObject(ins))
		ok = ulp_diag_at(d, file, 0, 0, "$.inputs: expected an object");
	for (const cJSON *it = ok && ins ? ins->child : NULL; it && ok; it = it->next) {
		snprintf(path, sizeof path, "$.inputs.%s", it->string);
		int r = reg_index(it->string, 'v', 16);
		if (r < 0)
			ok = ulp_diag_at(d, file, 0, 0, "%s: inputs are v0..v15", path);
		else if ((ok = json_vec4(it, in[r].c, file, path, d)))
			for (int k = 0; k < 4; k++)
				in[r].c[k] = to_f24(in[r].c[k], cfg);
	}
	const cJSON *uni = ok ? cJSON_GetObjectItemCaseSensitive(root, "uniforms") : NULL;
	if (uni && !cJSON_IsObject(uni))
		ok = ulp_diag_at(d, file, 0, 0, "$.uniforms: expected an object");
	for (const cJSON *it = ok && uni ? uni->child : NULL; it && ok; it = it->next) {
		snprintf(path, sizeof path, "$.uniforms.%s", it->string);
		int r;
		if ((r = reg_index(it->string, 'c', 96)) >= 0) {
			if ((ok = json_vec4(it, u->c[r].c, file, path, d)))
				for (int k = 0; k < 4; k++)
					u->c[r].c[k] = to_f24(u->c[r].c[k], cfg);
		} else if ((r = reg_index(it->string, 'i', 4)) >= 0) {
			if (!cJSON_IsArray(it) || cJSON_GetArraySize(it) != 4) {
				ok = ulp_diag_at(d, file, 0, 0, "%s: expected 4 integers 0..255", path);
				break;
			}
			for (int k = 0; k < 4 && ok; k++) {
				const cJSON *x = cJSON_GetArrayItem(it, k);
				if (!cJSON_IsNumber(x) || x->valuedouble < 0 || x->valuedouble > 255 ||
				    x->valuedouble != (double)(int)x->valuedouble)
					ok = ulp_diag_at(d, file, 0, 0, "%s[%d]: expected an integer 0..255", path, k);
				else
					u->i[r][k] = (uint8_t)x->valuedouble;
			}
		} else if ((r = reg_index(it->string, 'b', 16)) >= 0) {
			if (!cJSON_IsBool(it))
				ok = ulp_diag_at(d, file, 0, 0, "%s: expected true or false", path);
			else
				u->b[r] = cJSON_IsTrue(it);
		} else {
			ok = ulp_diag_at(d, file, 0, 0, "%s: uniforms are c0..c95, i0..i3 and b0..b15", path);
		}
	}
	cJSON_Delete(root);
	return ok;
}

/* ---- callbacks ---- */

static void make_job(void *vctx, uint32_t id, pica_job *job)
{
	run_ctx *ctx = vctx;
	memcpy(job->v, ctx->inputs, sizeof job->v);
	if (!ctx->batch)
		return;
	/* Deterministic variation: each vertex shifts every input component. */
	for (int r = 0; r < 16; r++)
		for (int k = 0; k < 4; k++)
			job->v[r].c[k] += (float)((id * 7u + (unsigned)(r * 4 + k)) % 64) * (1.0f / 64);
}

static void on_result(void *vctx, const pica_result *r)
{
	run_ctx *ctx = vctx;
	ctx->results++;
	if (ctx->batch)
		ctx->checksum += r->o[0].c[0];
	else
		memcpy(ctx->last_o, r->o, sizeof ctx->last_o);
}

static cJSON *vertex_json(const pica_program *p, const pica_vec4 o[16])
{
	cJSON *v = cJSON_CreateObject();
	for (unsigned r = 0; v && r < 16; r++) {
		if (!(p->out_regs & (1u << r)))
			continue;
		char name[8];
		snprintf(name, sizeof name, "o%u", r);
		cJSON_AddItemToObject(v, name, json_out_vec4(o[r].c));
	}
	return v;
}

static void on_emit(void *vctx, const pica_vec4 vtx[3][16], bool inverted)
{
	run_ctx *ctx = vctx;
	if (!ctx->prims)
		return;
	cJSON *prim = cJSON_CreateObject();
	cJSON_AddBoolToObject(prim, "winding_inverted", inverted);
	cJSON *vs = cJSON_AddArrayToObject(prim, "vertices");
	for (int k = 0; k < 3; k++)
		cJSON_AddItemToArray(vs, vertex_json(ctx->prog, vtx[k]));
	cJSON_AddItemToArray(ctx->prims, prim);
}

static void on_warn(void *vctx, const char *msg)
{
	(void)vctx;
	fprintf(stderr, "ulpsim: warning: %s\n", msg);
}

static void trace_vec(FILE *f, const char *name, unsigned i, const pica_vec4 *a, const pica_vec4 *b)
{
	if (memcmp(a, b, sizeof *a) == 0)
		return;
	char buf[4][24];
	for (int k = 0; k < 4; k++)
		json_out_float(buf[k], sizeof buf[k], b->c[k]);
	fprintf(f, " %s%u=(%s, %s, %s, %s)", name, i, buf[0], buf[1], buf[2], buf[3]);
}

static void on_trace(void *vctx, unsigned unit, uint64_t cycle, uint32_t pc,
                     const pica_thread *b, const pica_thread *a)
{
	run_ctx *ctx = vctx;
	char text[96];
	pica_disasm_inst(&ctx->prog->inst[pc], NULL, text, sizeof text);
	fprintf(ctx->trace, "%8llu vsh%u %03x  %-32s", (unsigned long long)cycle, unit, pc, text);
	for (unsigned r = 0; r < 16; r++)
		trace_vec(ctx->trace, "r", r, &b->r[r], &a->r[r]);
	for (unsigned r = 0; r < 16; r++)
		trace_vec(ctx->trace, "o", r, &b->o[b->bank][r], &a->o[b->bank][r]);
	if (a->a0[0] != b->a0[0] || a->a0[1] != b->a0[1])
		fprintf(ctx->trace, " a0=(%d, %d)", a->a0[0], a->a0[1]);
	if (a->al != b->al)
		fprintf(ctx->trace, " aL=%d", a->al);
	if (a->cmp[0] != b->cmp[0] || a->cmp[1] != b->cmp[1])
		fprintf(ctx->trace, " cmp=(%d, %d)", a->cmp[0], a->cmp[1]);
	if (a->pc != pc + 1 && ctx->prog->inst[pc].op != PICA_OP_END)
		fprintf(ctx->trace, " -> %03x", a->pc);
	fputc('\n', ctx->trace);
}

/* ---- the command ---- */

int cmd_pica_run(int argc, char **argv)
{
	if (cli_wants_help(argc, argv)) {
		fputs(usage, stdout);
		return EXIT_OK;
	}
	const char *shbin_path = NULL, *case_path = NULL;
	bool trace = false, permissive = false;
	long batch = 0;
	ulp_config cfg;
	ulp_diag d;
	ulp_diag_clear(&d);
	ulp_config_defaults(&cfg);
	for (int i = 1, k; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--case") == 0 && i + 1 < argc) {
			case_path = argv[++i];
		} else if (strcmp(a, "--trace") == 0) {
			trace = true;
		} else if (strcmp(a, "--permissive") == 0) {
			permissive = true;
		} else if (strcmp(a, "--batch") == 0 && i + 1 < argc) {
			char *end;
			batch = strtol(argv[++i], &end, 10);
			if (*end || batch < 1 || batch > 100000000)
				return cli_usage("pica run", "--batch takes a count from 1 to 10^8");
		} else if ((k = cli_config_option(argc, argv, &i, &cfg)) != 0) {
			if (k < 0)
				return EXIT_BAD;
		} else if (a[0] == '-' && a[1]) {
			return cli_usage("pica run", "unknown option '%s'", a);
		} else if (!shbin_path) {
			shbin_path = a;
		} else {
			return cli_usage("pica run", "unexpected argument '%s'", a);
		}
	}
	if (!shbin_path || !case_path)
		return cli_usage("pica run", "expected a SHBIN file and --case case.json");

	struct shbin s;
	if (!shbin_load(shbin_path, &s, &d))
		return cli_fail(&d);
	static pica_uniforms unif;
	memset(&unif, 0, sizeof unif);
	run_ctx ctx;
	memset(&ctx, 0, sizeof ctx);
	unsigned dvle = 0;
	pica_program prog;
	int rc = EXIT_OK;
	if (!load_case(case_path, &cfg, &dvle, ctx.inputs, &unif, &s, &d)) {
		shbin_free(&s);
		return cli_fail(&d);
	}
	if (!pica_program_build(&prog, &s, dvle, &cfg, &d)) {
		char buf[ULP_DIAG_MSG_MAX];
		snprintf(buf, sizeof buf, "%s", d.msg);
		ulp_diag_clear(&d);
		ulp_diag_at(&d, shbin_path, 0, 0, "%s", buf);
		shbin_free(&s);
		return cli_fail(&d);
	}
	ctx.prog = &prog;
	ctx.batch = batch > 0;
	ctx.trace = trace ? stderr : NULL;
	pica_env env;
	pica_env_from_config(&env, &cfg);
	env.permissive = permissive;
	env.warn = on_warn;
	env.emit = on_emit;
	env.trace = trace && !ctx.batch ? on_trace : NULL;
	env.ctx = &ctx;
	if (prog.is_gs && !ctx.batch)
		ctx.prims = cJSON_CreateArray();

	/* a geometry shader in the same SHBIN runs on one unit of its own */
	bool gs_bound = false;
	for (size_t k = 0; k < s.ndvle; k++)
		gs_bound |= s.dvle[k].type == SHBIN_GS;
	unsigned units = ctx.batch ? pica_vertex_units(&cfg, gs_bound && !prog.is_gs) : 1;
	uint32_t njobs = ctx.batch ? (uint32_t)batch : 1;
	pica_batch_stats st;
	double t0 = ulp_host_seconds();
	bool ok = pica_batch_run(&prog, &unif, &cfg, &env, units, njobs, make_job, on_result, &ctx,
	                         NULL, &st, &d);
	double dt = ulp_host_seconds() - t0;
	if (!ok) {
		char buf[ULP_DIAG_MSG_MAX];
		snprintf(buf, sizeof buf, "%s", d.msg);
		ulp_diag_clear(&d);
		ulp_diag_at(&d, shbin_path, 0, 0, "%s", buf);
		rc = cli_fail(&d);
	} else if (ctx.batch) {
		printf("{\"vertices\": %llu, \"units\": %u, \"cycles\": %llu, \"instructions\": %llu,"
		       " \"vertices_per_s\": %.0f, \"sim_cycles_per_s\": %.0f, \"unit_cycles_per_s\": %.0f}\n",
		       (unsigned long long)ctx.results, units, (unsigned long long)st.cycles,
		       (unsigned long long)st.instructions, ctx.results / dt, st.cycles / dt,
		       st.cycles * (double)units / dt);
	} else {
		cJSON *root = cJSON_CreateObject();
		if (prog.is_gs) {
			cJSON_AddItemToObject(root, "primitives", ctx.prims);
			ctx.prims = NULL;
		} else {
			cJSON_AddItemToObject(root, "outputs", vertex_json(&prog, ctx.last_o));
		}
		cJSON_AddNumberToObject(root, "cycles", (double)st.cycles);
		json_out_print(root, stdout);
		cJSON_Delete(root);
	}
	cJSON_Delete(ctx.prims);
	pica_program_free(&prog);
	shbin_free(&s);
	return rc;
}
