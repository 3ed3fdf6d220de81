/* The combined summary of a folder replay, its report and the reading and
 * merging of shard reports (traces/replay/replay_report.h). */
#include "traces/replay/replay_report.h"

#include <cjson/cJSON.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/fileio.h"
#include "base/json.h"

#define REPORT_FORMAT "ulpsim-replay-report"
enum { REPORT_VERSION = 1 };

static const char *const RESULT[] = { [RDIR_OK] = "ok", [RDIR_CHECK_FAILED] = "check_failed",
	[RDIR_ERROR] = "error" };

/* ---- summary ---------------------------------------------------------- */

void rdir_summary_print(const rdir_run *r, FILE *f)
{
	if (r->shard_n > 1)
		fprintf(f, "replay of %s: shard %u/%u, %zu of %u frames\n", r->dir, r->shard_k, r->shard_n,
		        r->nframes, r->total);
	else
		fprintf(f, "replay of %s: %zu frames\n", r->dir, r->nframes);
	int w = 5;
	for (size_t k = 0; k < r->nframes; k++) {
		int n = (int)strlen(r->frames[k].name);
		w = n > w ? n : w;
	}
	fprintf(f, "%-*s  %-6s  %6s  %11s  %12s  %11s  %s\n", w, "frame", "gpu", "draws", "fragments", "cycles",
	        "checkpoints", "result");
	uint64_t tot[8] = { 0 };
	size_t nres[RDIR_ERROR + 1] = { 0 };
	for (size_t k = 0; k < r->nframes; k++) {
		const rdir_frame *x = &r->frames[k];
		char res[64];
		if (x->status == RDIR_CHECK_FAILED)
			snprintf(res, sizeof res, "%" PRIu64 " check(s) failed", x->checks_failed);
		else
			snprintf(res, sizeof res, "%s", x->status == RDIR_OK ? "ok" : "ERROR");
		fprintf(f, "%-*s  %-6s  %6" PRIu64 "  %11" PRIu64 "  %12" PRIu64 "  %11" PRIu64 "  %s\n", w, x->name,
		        x->gpu[0] ? x->gpu : "-", x->draws, x->fragments, x->cycles, x->checkpoints, res);
		const uint64_t v[8] = { x->draws, x->vertices, x->triangles, x->fragments, x->cycles,
			x->checkpoints, x->checks_failed, 0 };
		for (int j = 0; j < 7; j++)
			tot[j] += v[j];
		nres[x->status <= RDIR_ERROR ? x->status : RDIR_ERROR]++;
	}
	/* the slowest: most simulated cycles first, then by index */
	size_t top[RDIR_SLOWEST], ntop = 0;
	for (size_t k = 0; k < r->nframes; k++) {
		size_t pos = ntop;
		while (pos > 0 && r->frames[top[pos - 1]].cycles < r->frames[k].cycles)
			pos--;
		if (pos >= RDIR_SLOWEST)
			continue;
		if (ntop < RDIR_SLOWEST)
			ntop++;
		memmove(&top[pos + 1], &top[pos], (ntop - 1 - pos) * sizeof *top);
		top[pos] = k;
	}
	if (ntop > 1) {
		fprintf(f, "slowest frames (simulated cycles):\n");
		for (size_t k = 0; k < ntop; k++) {
			const rdir_frame *x = &r->frames[top[k]];
			fprintf(f, "  %-*s  %12" PRIu64 "  %5.1f%% of the total\n", w, x->name, x->cycles,
			        tot[4] ? 100.0 * (double)x->cycles / (double)tot[4] : 0.0);
		}
	}
	if (nres[RDIR_CHECK_FAILED] + nres[RDIR_ERROR]) {
		fprintf(f, "failed frames:\n");
		for (size_t k = 0; k < r->nframes; k++)
			if (r->frames[k].status != RDIR_OK)
				fprintf(f, "  %s: %s\n", r->frames[k].name, r->frames[k].message);
	}
	fprintf(f, "total: %zu frames: %zu ok, %zu with failed checks, %zu errors; %" PRIu64 " draws, %" PRIu64
	        " vertices, %" PRIu64 " triangles, %" PRIu64 " fragments; %" PRIu64 " cycles (mean %" PRIu64
	        " per frame); %" PRIu64 " checkpoints, %" PRIu64 " failed checks\n",
	        r->nframes, nres[RDIR_OK], nres[RDIR_CHECK_FAILED], nres[RDIR_ERROR], tot[0], tot[1], tot[2], tot[3],
	        tot[4], r->nframes ? tot[4] / r->nframes : 0, tot[5], tot[6]);
}

/* ---- the report ------------------------------------------------------- */

static void add_u64(cJSON *o, const char *key, uint64_t v)
{
	char buf[24];
	snprintf(buf, sizeof buf, "%" PRIu64, v);
	cJSON_AddItemToObject(o, key, cJSON_CreateRaw(buf));
}

char *rdir_report_text(const rdir_run *r)
{
	cJSON *root = cJSON_CreateObject();
	if (!root)
		return NULL;
	cJSON_AddStringToObject(root, "format", REPORT_FORMAT);
	cJSON_AddNumberToObject(root, "version", REPORT_VERSION);
	cJSON_AddStringToObject(root, "dir", r->dir);
	cJSON *cap = cJSON_AddObjectToObject(root, "capture");
	add_u64(cap, "frames", r->total);
	cJSON_AddStringToObject(cap, "digest", r->digest);
	cJSON *set = cJSON_AddArrayToObject(root, "settings");
	for (size_t k = 0; set && k < r->nsettings; k++)
		cJSON_AddItemToArray(set, cJSON_CreateString(r->settings[k]));
	cJSON *sh = cJSON_AddObjectToObject(root, "shard");
	add_u64(sh, "k", r->shard_k);
	add_u64(sh, "n", r->shard_n);
	cJSON *fr = cJSON_AddArrayToObject(root, "frames");
	for (size_t k = 0; fr && k < r->nframes; k++) {
		const rdir_frame *x = &r->frames[k];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddItemToArray(fr, o);
		add_u64(o, "index", x->index);
		cJSON_AddStringToObject(o, "name", x->name);
		cJSON_AddStringToObject(o, "gpu", x->gpu);
		cJSON_AddStringToObject(o, "result", RESULT[x->status]);
		const uint64_t v[] = { x->draws, x->vertices, x->triangles, x->fragments, x->cycles, x->vertex_cycles,
			x->fragment_cycles, x->checkpoints, x->checks_failed };
		static const char *const K[] = { "draws", "vertices", "triangles", "fragments", "cycles",
			"vertex_cycles", "fragment_cycles", "checkpoints", "checks_failed" };
		for (size_t j = 0; j < sizeof v / sizeof *v; j++)
			add_u64(o, K[j], v[j]);
		cJSON_AddStringToObject(o, "message", x->message);
	}
	char *text = cJSON_Print(root);
	cJSON_Delete(root);
	if (!text)
		return NULL;
	size_t n = strlen(text);
	char *out = malloc(n + 2);
	if (out) {
		memcpy(out, text, n);
		out[n] = '\n';
		out[n + 1] = '\0';
	}
	cJSON_free(text);
	return out;
}

bool rdir_report_write(const rdir_run *r, const char *path, ulp_diag *d)
{
	char *text = rdir_report_text(r);
	if (!text)
		return ulp_diag_at(d, path, 0, 0, "out of memory");
	bool ok = ulp_write_file(path, text, strlen(text), d);
	free(text);
	return ok;
}

/* ---- reading a report ------------------------------------------------- */

static bool bad(ulp_diag *d, const char *file, const char *jpath, const char *msg)
{
	return ulp_diag_at(d, file, 0, 0, "%s: %s", jpath, msg);
}

/* An integer 0..max (at most 2^53: a JSON number keeps it exactly). */
static bool get_u64(const cJSON *o, const char *key, const char *file, const char *at, uint64_t max,
                    uint64_t *v, ulp_diag *d)
{
	char jp[128];
	snprintf(jp, sizeof jp, "%s.%s", at, key);
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, key);
	double m = max > (1ull << 53) ? 9007199254740992.0 : (double)max;
	if (!cJSON_IsNumber(x) || x->valuedouble < 0 || x->valuedouble > m ||
	    x->valuedouble != (double)(uint64_t)x->valuedouble)
		return bad(d, file, jp, max < (1ull << 53) ? "expected an integer in range" : "expected an integer >= 0");
	*v = (uint64_t)x->valuedouble;
	return true;
}

static bool get_str(const cJSON *o, const char *key, const char *file, const char *at, size_t max,
                    const char **v, ulp_diag *d)
{
	char jp[128];
	snprintf(jp, sizeof jp, "%s.%s", at, key);
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, key);
	if (!cJSON_IsString(x))
		return bad(d, file, jp, "expected a string");
	if (strlen(x->valuestring) >= max)
		return bad(d, file, jp, "too long");
	*v = x->valuestring;
	return true;
}

static bool read_frame(rdir_report *rp, const cJSON *o, size_t k, ulp_diag *d)
{
	char at[48];
	snprintf(at, sizeof at, "$.frames[%zu]", k);
	if (!cJSON_IsObject(o))
		return bad(d, rp->path, at, "expected an object");
	rdir_frame *x = &rp->frames[k];
	const char *name, *gpu, *result, *msg;
	uint64_t idx;
	if (!get_u64(o, "index", rp->path, at, RDIR_MAX_FRAMES - 1, &idx, d) ||
	    !get_str(o, "name", rp->path, at, sizeof x->name, &name, d) ||
	    !get_str(o, "gpu", rp->path, at, sizeof x->gpu, &gpu, d) ||
	    !get_str(o, "result", rp->path, at, 16, &result, d) ||
	    !get_str(o, "message", rp->path, at, sizeof x->message, &msg, d))
		return false;
	x->index = (unsigned)idx;
	snprintf(x->name, sizeof x->name, "%s", name);
	snprintf(x->gpu, sizeof x->gpu, "%s", gpu);
	snprintf(x->message, sizeof x->message, "%s", msg);
	x->status = -1;
	for (int s = RDIR_OK; s <= RDIR_ERROR; s++)
		if (!strcmp(result, RESULT[s]))
			x->status = s;
	if (x->status < 0) {
		char jp[64];
		snprintf(jp, sizeof jp, "%s.result", at);
		return bad(d, rp->path, jp, "expected \"ok\", \"check_failed\" or \"error\"");
	}
	uint64_t *v[] = { &x->draws, &x->vertices, &x->triangles, &x->fragments, &x->cycles, &x->vertex_cycles,
		&x->fragment_cycles, &x->checkpoints, &x->checks_failed };
	static const char *const K[] = { "draws", "vertices", "triangles", "fragments", "cycles",
		"vertex_cycles", "fragment_cycles", "checkpoints", "checks_failed" };
	for (size_t j = 0; j < sizeof v / sizeof *v; j++)
		if (!get_u64(o, K[j], rp->path, at, UINT64_MAX, v[j], d))
			return false;
	return true;
}

bool rdir_report_parse(rdir_report *rp, const char *text, const char *path, ulp_diag *d)
{
	memset(rp, 0, sizeof *rp);
	rp->path = path;
	rp->root = ulp_json_parse(text, path, d);
	const cJSON *root = rp->root;
	if (!root)
		return false;
	const cJSON *fmt = cJSON_GetObjectItemCaseSensitive(root, "format");
	if (!cJSON_IsObject(root) || !cJSON_IsString(fmt) || strcmp(fmt->valuestring, REPORT_FORMAT))
		return bad(d, path, "$.format", "expected \"" REPORT_FORMAT "\" (a report of ulpsim replay DIR --report)");
	uint64_t ver, total, k, n;
	if (!get_u64(root, "version", path, "$", UINT64_MAX, &ver, d))
		return false;
	if (ver != REPORT_VERSION)
		return ulp_diag_at(d, path, 0, 0, "$.version: a version %" PRIu64 " report; this ulpsim reads "
		                   "version %d", ver, REPORT_VERSION);
	const cJSON *cap = cJSON_GetObjectItemCaseSensitive(root, "capture");
	const cJSON *sh = cJSON_GetObjectItemCaseSensitive(root, "shard");
	const cJSON *set = cJSON_GetObjectItemCaseSensitive(root, "settings");
	const cJSON *fr = cJSON_GetObjectItemCaseSensitive(root, "frames");
	const char *digest;
	if (!get_str(root, "dir", path, "$", 4096, &rp->run.dir, d))
		return false;
	if (!cJSON_IsObject(cap))
		return bad(d, path, "$.capture", "expected an object");
	if (!get_u64(cap, "frames", path, "$.capture", RDIR_MAX_FRAMES, &total, d) ||
	    !get_str(cap, "digest", path, "$.capture", sizeof rp->run.digest, &digest, d))
		return false;
	if (!cJSON_IsObject(sh))
		return bad(d, path, "$.shard", "expected an object");
	if (!get_u64(sh, "n", path, "$.shard", RDIR_MAX_SHARDS, &n, d) ||
	    !get_u64(sh, "k", path, "$.shard", n, &k, d))
		return false;
	if (k < 1)
		return bad(d, path, "$.shard.k", "expected 1..n");
	if (!cJSON_IsArray(set))
		return bad(d, path, "$.settings", "expected an array of strings");
	if (!cJSON_IsArray(fr))
		return bad(d, path, "$.frames", "expected an array");
	rp->run.total = (unsigned)total;
	rp->run.shard_k = (unsigned)k;
	rp->run.shard_n = (unsigned)n;
	snprintf(rp->run.digest, sizeof rp->run.digest, "%s", digest);
	size_t ns = (size_t)cJSON_GetArraySize(set), nf = (size_t)cJSON_GetArraySize(fr);
	rp->settings = calloc(ns + 1, sizeof *rp->settings);
	rp->frames = calloc(nf + 1, sizeof *rp->frames);
	if (!rp->settings || !rp->frames)
		return ulp_diag_at(d, path, 0, 0, "out of memory");
	size_t j = 0;
	for (const cJSON *s = set->child; s; s = s->next, j++) {
		if (!cJSON_IsString(s)) {
			char jp[48];
			snprintf(jp, sizeof jp, "$.settings[%zu]", j);
			return bad(d, path, jp, "expected a string");
		}
		rp->settings[j] = s->valuestring;
	}
	rp->run.settings = rp->settings;
	rp->run.nsettings = ns;
	/* exactly the shard's frames, by index: i with i mod n = k - 1 */
	size_t want = total >= k ? (size_t)((total - k) / n + 1) : 0;
	j = 0;
	for (const cJSON *o = fr->child; o; o = o->next, j++) {
		if (!read_frame(rp, o, j, d))
			return false;
		uint64_t expect = (k - 1) + j * n;
		if (rp->frames[j].index != expect) {
			char jp[64];
			snprintf(jp, sizeof jp, "$.frames[%zu].index", j);
			return ulp_diag_at(d, path, 0, 0, "%s: frame %u where shard %u/%u's frame %" PRIu64 " was "
			                   "expected", jp, rp->frames[j].index, rp->run.shard_k, rp->run.shard_n,
			                   expect);
		}
	}
	if (j != want)
		return ulp_diag_at(d, path, 0, 0, "$.frames: %zu frames; shard %u/%u of %u frames has %zu", j,
		                   rp->run.shard_k, rp->run.shard_n, rp->run.total, want);
	rp->run.frames = rp->frames;
	rp->run.nframes = j;
	return true;
}

bool rdir_report_read(rdir_report *rp, const char *path, ulp_diag *d)
{
	memset(rp, 0, sizeof *rp);
	rp->path = path;
	size_t len;
	char *text = ulp_read_file(path, &len, d);
	if (!text)
		return false;
	bool ok = rdir_report_parse(rp, text, path, d);
	free(text);
	return ok;
}

void rdir_report_free(rdir_report *rp)
{
	cJSON_Delete(rp->root);
	free(rp->frames);
	free(rp->settings);
	memset(rp, 0, sizeof *rp);
}

static bool same_settings(const rdir_run *a, const rdir_run *b)
{
	if (a->nsettings != b->nsettings)
		return false;
	for (size_t k = 0; k < a->nsettings; k++)
		if (strcmp(a->settings[k], b->settings[k]))
			return false;
	return true;
}

/* The reports agree on one capture, one split and one set of options, and
 * hold every shard once: false with d naming the report at fault. */
static bool check_shards(const rdir_report *rp, size_t n, const rdir_report **by_k, ulp_diag *d)
{
	const rdir_run *a = &rp[0].run;
	for (size_t j = 0; j < n; j++) {
		const rdir_run *b = &rp[j].run;
		if (strcmp(a->digest, b->digest) || a->total != b->total)
			return ulp_diag_at(d, rp[j].path, 0, 0, "$.capture: a report of another folder (%s, %u frames) "
			                   "than %s's (%s, %u frames): merge the shards of one capture", b->digest,
			                   b->total, rp[0].path, a->digest, a->total);
		if (!same_settings(a, b))
			return ulp_diag_at(d, rp[j].path, 0, 0, "$.settings: replayed with other options than %s",
			                   rp[0].path);
		if (a->shard_n != b->shard_n)
			return ulp_diag_at(d, rp[j].path, 0, 0, "$.shard: shard %u/%u, but %s is shard %u/%u: merge "
			                   "the shards of one split", b->shard_k, b->shard_n, rp[0].path, a->shard_k,
			                   a->shard_n);
		const rdir_report **slot = &by_k[b->shard_k - 1];
		if (*slot)
			return ulp_diag_at(d, rp[j].path, 0, 0, "$.shard: shard %u/%u again (also %s): overlapping "
			                   "shards", b->shard_k, b->shard_n, (*slot)->path);
		*slot = &rp[j];
	}
	for (unsigned k = 0; k < a->shard_n; k++)
		if (!by_k[k])
			return ulp_diag_at(d, rp[0].path, 0, 0, "shard %u/%u's report is missing: merge every shard "
			                   "of the split", k + 1, a->shard_n);
	return true;
}


bool rdir_report_merge(const rdir_report *rp, size_t n, rdir_run *out, rdir_frame **all, ulp_diag *d)
{
	*all = NULL;
	if (!n)
		return ulp_diag_at(d, "--merge", 0, 0, "no reports to merge");
	const rdir_report **by_k = calloc(rp[0].run.shard_n ? rp[0].run.shard_n : 1, sizeof *by_k);
	rdir_frame *fr = calloc(rp[0].run.total + 1, sizeof *fr);
	bool ok = by_k && fr;
	if (!ok)
		ulp_diag_at(d, rp[0].path, 0, 0, "out of memory");
	else
		ok = check_shards(rp, n, by_k, d);
	if (ok) {
		/* frame i is shard (i mod n) + 1's frame i / n */
		const unsigned sn = rp[0].run.shard_n;
		for (unsigned i = 0; i < rp[0].run.total; i++)
			fr[i] = by_k[i % sn]->frames[i / sn];
		*out = by_k[0]->run;
		out->shard_k = out->shard_n = 1;
		out->frames = fr;
		out->nframes = out->total;
		*all = fr;
	} else
		free(fr);
	free(by_k);
	return ok;
}
