#!/usr/bin/env bash
# make piglit-gl: Debian's piglit shader_runner on the simulated GPU
# (ulpsim gl), over the list behind the corpora (mesa-driver.md §4), with a
# time limit per test.  Prints piglit's own verdicts, summed:
#   piglit-gl: N pass, N fail, N skip, N crash of N
# and writes a JSON report per test under $OUT (default build/piglit-gl):
#   {"test": "...", "result": "pass|fail|skip|crash", "reason": "...", "seconds": S}
# A test whose shader the GPU refused keeps that line as "refused" (and a
# failing one is classed "refused", not run again); so does a program Mesa's
# linker or ARB parser refused over the uniform limits the driver advertises
# (the hardware's constant storage), and one that fails in both modes after
# the driver said a loop with a run-time exit was unrolled to fewer
# iterations than the compiler's cap (no more fit the fragment program).
# Each other failing test (fail or warn) then runs again with arith=exact
# (ulpsim gl --set arith=exact, docs/exact.md: the same compiled programs
# in binary32):
# "precision" when it passes there, "bug" otherwise; its report gains
#   "exact": {"result": ..., "reason": ...}, "class": "precision|bug"
# and the summary a second line:
#   piglit-gl: fails: N precision (pass with arith=exact), N bug, N refused
# The driver reports OpenGL 2.0: 2.1 adds sRGB textures, which ulpsim does
# not model, and the GL 2.1 entry points piglit's GLSL 1.20 tests call
# (glUniformMatrix2x3fv...).  So that those tests run rather than skip, the
# runs ask Mesa for 2.1 (MESA_GL_VERSION_OVERRIDE=2.1, PIGLIT_GL_VERSION);
# a test that needs sRGB then fails instead of skipping.
# Environment: ULPSIM_BIN (build/ulpsim), PIGLIT_GL_TIMEOUT (20 s),
# PIGLIT_GL_JOBS (2), PIGLIT_GL_FILTER (a grep -E pattern on the test path),
# PIGLIT_GL_SAMPLE (N: every Nth test of the list, a quick deterministic subset),
# PIGLIT_GL_EXACT (1; 0 skips the arith=exact reruns; "only" reruns the fails
# of an earlier run's $OUT/results.txt with arith=exact, without running the list),
# PIGLIT_GL_DRIVER (ulpsim; another Gallium driver name, e.g. softpipe, runs
# the same list on the system's Mesa for comparison).
set -uo pipefail
cd "$(dirname "$0")/.."
export BIN=${ULPSIM_BIN:-build/ulpsim}
export OUT=${PIGLIT_GL_OUT:-build/piglit-gl}
export TMO=${PIGLIT_GL_TIMEOUT:-20}
export DRV=${PIGLIT_GL_DRIVER:-ulpsim}
export MESA_GL_VERSION_OVERRIDE=${PIGLIT_GL_VERSION:-2.1}
JOBS=${PIGLIT_GL_JOBS:-2}
export PIGLIT=/usr/lib/x86_64-linux-gnu/piglit
RUNNER=$PIGLIT/bin/shader_runner
[ -x "$RUNNER" ] || { echo "piglit-gl: $RUNNER missing (make deps installs piglit)" >&2; exit 2; }

list=$(cd "$PIGLIT" && find tests/shaders tests/spec/glsl-1.10 tests/spec/glsl-1.20 tests/spec/arb_fragment_program \
	tests/spec/arb_vertex_program generated_tests/spec/glsl-1.10 generated_tests/spec/glsl-1.20 \
	-name '*.shader_test' | LC_ALL=C sort)
[ -n "${PIGLIT_GL_FILTER:-}" ] && list=$(grep -E "$PIGLIT_GL_FILTER" <<<"$list")
[ -n "${PIGLIT_GL_SAMPLE:-}" ] && list=$(awk -v n="$PIGLIT_GL_SAMPLE" '(NR - 1) % n == 0' <<<"$list")
mkdir -p "$OUT"

# one TEST [exact]: runs it, writes its report (exact: the rerun with
# arith=exact, written beside it as .exact.json) and prints "RESULT TEST".
one() {
	local t=$1 rep=$OUT/${1%.shader_test}.json log
	local set=()                 # ulpsim gl sets ULPSIM_GL_SET from its --set options only
	if [ "${2:-}" = exact ]; then
		rep=$OUT/${1%.shader_test}.exact.json
		set=(--set arith=exact)
	fi
	mkdir -p "$(dirname "$rep")"
	log=$(mktemp)
	local t0 t1 st
	t0=$(date +%s.%N)
	if [ "$DRV" = ulpsim ]; then
		env -u DISPLAY PIGLIT_PLATFORM=surfaceless_egl timeout -k 5 "$TMO" \
			"$BIN" gl "${set[@]}" -- "$PIGLIT/bin/shader_runner" "$PIGLIT/$t" -auto -fbo >"$log" 2>&1
	else
		env -u DISPLAY PIGLIT_PLATFORM=surfaceless_egl LIBGL_ALWAYS_SOFTWARE=1 GALLIUM_DRIVER="$DRV" \
			timeout -k 5 "$TMO" "$PIGLIT/bin/shader_runner" "$PIGLIT/$t" -auto -fbo >"$log" 2>&1
	fi
	st=$?
	t1=$(date +%s.%N)
	python3 - "$t" "$log" "$st" "$t0" "$t1" "$rep" <<'PY'
import json, os, re, sys
t, log, st, t0, t1, rep = sys.argv[1:]
st = int(st)
text = open(log, errors="replace").read()
m = re.findall(r'PIGLIT: \{"result": "(\w+)"', text)
result = m[-1] if m else None
if st == 124 or st == 137:
    result, why = "crash", "timeout after %s s" % os.environ["TMO"]
elif result is None or st >= 128:
    why = "no verdict, exit status %d%s" % (st, " (signal %d)" % (st - 128) if st >= 128 else "")
    result = "crash"
else:
    why = ""
lines = [l for l in text.splitlines() if l.strip() and not l.startswith("PIGLIT:")
         and not l.startswith("ulpsim gl:")]
reason = why or ("" if result == "pass" else " | ".join(lines[-6:])[:800])
out = {"test": t, "result": result, "reason": reason, "seconds": round(float(t1) - float(t0), 2)}
# the driver's first "cannot run on the simulated GPU" line: a shader the
# backends refused (the draw is skipped), kept whatever the verdict
refused = [l for l in lines if "cannot run on the simulated GPU" in l]
# Mesa's linker or ARB parser refusing the program over the uniform limits
# the driver advertises from the hardware's constant storage (docs/gl.md
# "Caps and why": PICA200's 96 constant registers, the Tegra's 32 FP_CONST
# words behind 16 vec4): the same refusal, made before the driver sees it
limit = [l for l in lines if re.search(r"Too many (fragment|vertex) shader uniform components"
                                       r"|invalid parameter array size", l)]
# the driver's note that a loop with a run-time exit was unrolled to fewer
# iterations than the compiler's cap, because no more fit the program
loop = [l for l in lines if "a loop whose exit is a run-time value is unrolled" in l]
if loop:
    out["loop_bound"] = loop[0][:400]
if refused:
    out["refused"] = refused[0][:400]
elif limit:
    out["refused"] = ("over the driver's uniform limit (the hardware's constant storage): "
                      + limit[0].strip())[:400]
json.dump(out, open(rep, "w"))
os.write(1, ("%s %s\n" % (result, t)).encode())
PY
	rm -f "$log"
}
export -f one

n=$(grep -c . <<<"$list")
[ "${PIGLIT_GL_EXACT:-1}" = only ] || echo "piglit-gl: $n tests on GALLIUM_DRIVER=$DRV (GL $MESA_GL_VERSION_OVERRIDE), ${TMO} s each at most, $JOBS at a time (reports: $OUT)" >&2
if [ "${PIGLIT_GL_EXACT:-1}" = only ]; then
	res=$(cat "$OUT/results.txt") || exit 2
	n=$(grep -c . <<<"$res")
else
	res=$(xargs -a <(printf '%s\n' "$list") -P "$JOBS" -I{} bash -c 'one "$1"' _ {} | tee "$OUT/results.txt")
fi
count() { grep -cE "^($1) " <<<"$res" || true; }
# a warn (piglit's "passed with a warning") is counted with the fails
echo "piglit-gl: $(count pass) pass, $(count 'fail|warn') fail, $(count skip) skip, $(count crash) crash of $n"
[ "${PIGLIT_GL_EXACT:-1}" = 0 ] || [ "$DRV" != ulpsim ] && exit 0
# every fail again with arith=exact: precision when it passes there, else
# bug; a fail whose shader the GPU refused (its report's "refused") is
# "refused", not run again: exact mode compiles the same programs
allfails=$(grep -E '^(fail|warn) ' <<<"$res" | cut -d' ' -f2- | LC_ALL=C sort)
nref=0
fails=
while IFS= read -r t; do
	[ -n "$t" ] || continue
	if grep -q '"refused"' "$OUT/${t%.shader_test}.json"; then
		nref=$((nref + 1))
		python3 - "$OUT/${t%.shader_test}.json" <<'PY'
import json, sys
rep = json.load(open(sys.argv[1]))
rep["class"] = "refused"
json.dump(rep, open(sys.argv[1], "w"))
PY
	else
		fails+="$t"$'\n'
	fi
done <<<"$allfails"
fails=${fails%$'\n'}
[ -n "$fails" ] || { echo "piglit-gl: fails: 0 precision (pass with arith=exact), 0 bug, $nref refused"; exit 0; }
export NREF=$nref
echo "piglit-gl: $(grep -c . <<<"$fails") fails again with arith=exact" >&2
xres=$(xargs -a <(printf '%s\n' "$fails") -P "$JOBS" -I{} bash -c 'one "$1" exact' _ {} | tee "$OUT/results.exact.txt")
python3 - "$OUT" <<'PY'
import json, os, sys
out = sys.argv[1]
prec = bug = loopref = 0
for line in open(os.path.join(out, "results.exact.txt")):
    result, t = line.split(" ", 1)
    t = t.strip()
    base = os.path.join(out, t[:-len(".shader_test")])
    rep = json.load(open(base + ".json"))
    x = json.load(open(base + ".exact.json"))
    os.remove(base + ".exact.json")
    rep["exact"] = {"result": x["result"], "reason": x["reason"]}
    rep["class"] = "precision" if x["result"] == "pass" else "bug"
    # failing in both modes after the driver said the loop was cut short
    # (its trip count may pass the bound): the program's size, not a bug
    if rep["class"] == "bug" and "loop_bound" in rep:
        rep["class"] = "refused"
        rep["refused"] = rep["loop_bound"]
        loopref += 1
    prec += rep["class"] == "precision"
    bug += rep["class"] == "bug"
    json.dump(rep, open(base + ".json", "w"))
    print("%s %s (exact %s)" % (rep["class"], t, x["result"]), file=sys.stderr)
print("piglit-gl: fails: %d precision (pass with arith=exact), %d bug, %d refused" % (prec, bug, int(os.environ["NREF"]) + loopref))
PY
