/* The parameter list of an ARB vertex/fragment program, as Mesa 22.3 lays
 * it out in CONST[0]: constants first (literal vectors in order of first
 * reference, scalar literals packed into shared slots, named PARAM arrays
 * kept whole), then state references (program.local/env, state.matrix
 * rows, state.light) in order of first reference, then the MVP rows that
 * OPTION ARB_position_invariant appends (docs/piglit.md).  The caller
 * checks the count against the vec4[N] of meta.json's nir_vars. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "traces/piglit/piglit_int.h"

static bool add(pg_arb_list *l, const pg_arb_param *p)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 32;
		pg_arb_param *np = realloc(l->v, cap * sizeof *np);
		if (!np)
			return false;
		l->v = np;
		l->cap = cap;
	}
	l->v[l->n++] = *p;
	return true;
}

static bool same_state(const pg_arb_param *a, const pg_arb_param *b)
{
	return a->kind == b->kind && a->index == b->index && a->row == b->row &&
	       strcmp(a->what, b->what) == 0;
}

static bool add_state(pg_arb_list *l, const pg_arb_param *p)
{
	for (size_t i = 0; i < l->n; i++)
		if (same_state(&l->v[i], p))
			return true;
	return add(l, p);
}

/* Reads "[N]" or "[A..B]" at *s; returns the count (0: none). */
static int index_range(const char **s, int *a, int *b)
{
	const char *p = *s;
	if (*p != '[')
		return 0;
	char *end;
	*a = (int)strtol(p + 1, &end, 10);
	*b = *a;
	if (end[0] == '.' && end[1] == '.')
		*b = (int)strtol(end + 2, &end, 10);
	if (*end != ']')
		return 0;
	*s = end + 1;
	return *b - *a + 1;
}

/* A state or program reference at p (after "program." / "state."). */
static bool state_ref(pg_arb_list *st, const char **pp, char *reason, size_t rn)
{
	const char *p = *pp;
	pg_arb_param q;
	memset(&q, 0, sizeof q);
	int a, b;
	if (!strncmp(p, "program.local", 13) || !strncmp(p, "program.env", 11)) {
		bool local = p[8] == 'l';
		p += local ? 13 : 11;
		if (!index_range(&p, &a, &b)) {
			snprintf(reason, rn, "ARB program.%s without an index", local ? "local" : "env");
			return false;
		}
		for (int k = a; k <= b; k++) {
			q.kind = local ? PG_ARB_LOCAL : PG_ARB_ENV;
			q.index = k;
			if (!add_state(st, &q))
				return false;
		}
	} else if (!strncmp(p, "state.matrix.", 13)) {
		p += 13;
		const char *w = p;
		while (*p && (isalnum((unsigned char)*p) || *p == '.' || *p == '_') &&
		       strncmp(p, ".row", 4) != 0)
			p++;
		snprintf(q.what, sizeof q.what, "%.*s", (int)(p - w), w);
		q.kind = PG_ARB_MATRIX;
		if (!strncmp(p, ".row", 4)) {
			p += 4;
			if (!index_range(&p, &a, &b)) {
				snprintf(reason, rn, "ARB state.matrix row without an index");
				return false;
			}
		} else {
			a = 0;
			b = 3;
		}
		for (int k = a; k <= b; k++) {
			q.row = k;
			if (!add_state(st, &q))
				return false;
		}
	} else {
		const char *e = p;
		while (*e && !isspace((unsigned char)*e) && *e != ',' && *e != ';')
			e++;
		snprintf(reason, rn, "ARB state reference '%.*s' is not computed by the harness",
		         (int)(e - p > 60 ? 60 : e - p), p);
		return false;
	}
	*pp = p;
	return true;
}

/* A literal "{a, b, c, d}" at *pp: values into q. */
static bool literal(const char **pp, pg_arb_param *q)
{
	const char *p = *pp + 1;
	q->kind = PG_ARB_CONST;
	q->ncomp = 0;
	while (*p && *p != '}') {
		char *end;
		float v = strtof(p, &end);
		if (end == p) {
			p++;
			continue;
		}
		if (q->ncomp < 4)
			q->v[q->ncomp] = v;
		q->ncomp++;
		p = end;
	}
	if (*p != '}' || q->ncomp < 1 || q->ncomp > 4)
		return false;
	*pp = p + 1;
	return true;
}

/* Every component of v appears among the first n of slot (Mesa reuses a
 * constant slot through a swizzle). */
static bool swizzle_of(const float v[4], const pg_arb_param *slot)
{
	for (int k = 0; k < 4; k++) {
		bool f = false;
		for (unsigned j = 0; j < slot->ncomp && !f; j++)
			f = slot->v[j] == v[k];
		if (!f)
			return false;
	}
	return true;
}

/* bare: a scalar operand ("MOV r, 0"), packed with other scalars; else a
 * {..} literal (missing components 0, 0, 0, 1) or a PARAM array element. */
static bool add_const(pg_arb_list *c, pg_arb_param *q, bool named, bool bare)
{
	if (q->ncomp == 1 && bare) {
		for (size_t i = 0; i < c->n; i++)
			for (unsigned k = 0; k < c->v[i].ncomp; k++)
				if (c->v[i].v[k] == q->v[0])
					return true;
		for (size_t i = 0; i < c->n; i++)
			if (c->v[i].scalars && c->v[i].ncomp < 4) {
				c->v[i].v[c->v[i].ncomp++] = q->v[0];
				return true;
			}
		q->scalars = true;
		return add(c, q);
	}
	for (unsigned k = q->ncomp; k < 4; k++)
		q->v[k] = k == 3 ? 1.0f : 0.0f;
	if (!named)
		for (size_t i = 0; i < c->n; i++)
			if (swizzle_of(q->v, &c->v[i]))
				return true;
	q->ncomp = 4;
	return add(c, q);
}

bool pg_arb_params(const char *text, pg_arb_list *out, char *reason, size_t rn)
{
	memset(out, 0, sizeof *out);
	pg_arb_list consts = { 0 }, states = { 0 };
	bool ok = true, invariant = false;
	/* copy without comments */
	size_t len = strlen(text);
	char *s = malloc(len + 1);
	if (!s) {
		snprintf(reason, rn, "out of memory");
		return false;
	}
	size_t o = 0;
	for (size_t i = 0; i < len; i++) {
		if (text[i] == '#') {
			while (i < len && text[i] != '\n')
				i++;
		}
		if (i < len)
			s[o++] = text[i];
	}
	s[o] = '\0';
	if (strstr(s, "ARB_position_invariant"))
		invariant = true;
	const char *p = strchr(s, '\n');       /* skip the !!ARBvp1.0 line */
	p = p ? p + 1 : s;
	bool in_param = false, named_array = false, swz = false;
	while (ok && *p) {
		if (!strncmp(p, "OPTION", 6)) {
			while (*p && *p != ';')
				p++;
			continue;
		}
		if (!strncmp(p, "PARAM", 5) && (p == s || !isalnum((unsigned char)p[-1]))) {
			in_param = true;
			p += 5;
			const char *q = p;
			while (*q && *q != '=' && *q != ';')
				q++;
			named_array = false;
			for (const char *r = p; r < q; r++)
				if (*r == '[')
					named_array = true;
			p = *q == '=' ? q + 1 : q;
			continue;
		}
		if (*p == ';') {
			in_param = false;
			swz = false;
			p++;
			while (isspace((unsigned char)*p))
				p++;
			swz = !strncmp(p, "SWZ", 3);    /* SWZ's 0/1 selectors are not constants */
			continue;
		}
		if (*p == '{') {
			const char *r = p + 1;
			while (isspace((unsigned char)*r))
				r++;
			if (*r == '{' || !strncmp(r, "program.", 8) || !strncmp(r, "state.", 6)) {
				p = r;          /* the outer brace of a PARAM array */
				continue;
			}
			pg_arb_param q;
			memset(&q, 0, sizeof q);
			if (!literal(&p, &q)) {
				snprintf(reason, rn, "ARB literal not understood");
				ok = false;
				break;
			}
			ok = add_const(&consts, &q, in_param && named_array, false);
			continue;
		}
		if (!strncmp(p, "program.local", 13) || !strncmp(p, "program.env", 11) ||
		    !strncmp(p, "state.", 6)) {
			ok = state_ref(&states, &p, reason, rn);
			if (!ok)
				goto done;
			continue;
		}
		if (!in_param && !swz && (isdigit((unsigned char)*p) || *p == '-' || *p == '.')) {
			/* a bare scalar operand, e.g. "MOV r, 0;" */
			char *end;
			float v = strtof(p, &end);
			if (end != p && (*end == ';' || *end == ',' || isspace((unsigned char)*end))) {
				pg_arb_param q;
				memset(&q, 0, sizeof q);
				q.kind = PG_ARB_CONST;
				q.ncomp = 1;
				q.v[0] = v;
				ok = add_const(&consts, &q, false, true);
				p = end;
				continue;
			}
		}
		if (isalnum((unsigned char)*p) || *p == '_' || *p == '.') {
			while (*p && (isalnum((unsigned char)*p) || *p == '_' || *p == '.' || *p == '['
			              || *p == ']'))
				p++;
			continue;
		}
		p++;
	}
	if (ok && invariant) {
		pg_arb_param q;
		memset(&q, 0, sizeof q);
		q.kind = PG_ARB_MATRIX;
		snprintf(q.what, sizeof q.what, "mvp.transpose");
		for (int k = 0; k < 4 && ok; k++) {
			q.row = k;
			ok = add_state(&states, &q);
		}
	}
	for (size_t i = 0; ok && i < consts.n; i++)
		ok = add(out, &consts.v[i]);
	for (size_t i = 0; ok && i < states.n; i++)
		ok = add(out, &states.v[i]);
	if (!ok && !reason[0])
		snprintf(reason, rn, "out of memory");
done:
	free(consts.v);
	free(states.v);
	free(s);
	if (!ok) {
		free(out->v);
		memset(out, 0, sizeof *out);
	}
	return ok;
}
