#!/usr/bin/env bash
# make bench, second half (docs/speed-history.md "Measuring against softpipe" and
# "Two host threads"): ulpsim against Mesa's softpipe on the same work, and
# Tegra 3's two blocks on two host threads.  Prints tables; not a test (it
# fails only when a run fails or two threads change a result).
#
#  1. The three shaders of ../shared/perf (fs_color, fs_tex, fs_lit), full-
#     screen quads at 640x480 with a 256x256 bilinear texture, drawn by
#     bench/gl_side.c through surfaceless EGL + GLES 2 on Mesa 22.3.6
#     (build/mesa/lib, make mesa): GALLIUM_DRIVER=softpipe with
#     SOFTPIPE_DEBUG=use_tgsi (softpipe interprets the TGSI), and ulpsim
#     under `ulpsim gl` (the whole stack: Mesa, the driver, the PICA200 and
#     GR3D units; the preset tegra2).  Per-frame cost: the CPU seconds of a
#     FRAMES-frame run minus a 1-frame run, best of REPS, the runs interleaved.
#  2. glmark2-es2's build, texture and shading scenes on both drivers under
#     Xvfb (off-screen), frames per second of host CPU time, measured the same
#     way (nframes=GLMARK_FRAMES minus nframes=1), best of REPS.
#  3. Timeline recording off and on (`ulpsim replay` of gen_traces.py's
#     traces, a VCD timeline), CPU seconds in the draw (--host-stats),
#     best of REPS.
#  4. Trace loading: the load seconds and the share of load + compile in
#     those replays (--host-stats), gen_traces.py's number arrays and the
#     same traces packed (`ulpsim trace pack`, base64), whose image must be
#     the same.
#  5. --set preset=tegra3 --threads 1 vs 2 on the same traces: wall seconds
#     in the draw, the speed-up, the speed-up idle cores would give (the
#     1-thread draw's CPU seconds over the 2-thread draw's critical path:
#     per lock-step window only the slower thread counts; a loaded shared
#     host hides the wall-clock one), the lock-step windows the blocks ran
#     in (one barrier each), and whether image, stats and timeline are
#     byte-identical.  Sections 3 to 5 need only $BUILD/ulpsim:
#     REPS=5 SIDE_SKIP="1 2 3" bash bench/side_by_side.sh
# Every row prints the peak RSS of its runs (getrusage / /usr/bin/time).
#
# The frame counts are large enough that the timed frames outweigh the
# noise of the start-up they cancel (softpipe's is about 0.27 s, its
# fs_color frame 6 ms: with 10 frames the best-of figures moved 2x between
# runs on a quiet host, docs/speed-history.md "Session 9").
# Environment: BUILD (build), REPS (2), FRAMES (40), GLMARK_FRAMES (61),
# W, H (640, 480), SIDE_SKIP (a list of section numbers to skip).
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
REPS=${REPS:-2}
FRAMES=${FRAMES:-40}
GLMARK_FRAMES=${GLMARK_FRAMES:-61}
W=${W:-640}
H=${H:-480}
SKIP=${SIDE_SKIP:-}
BIN=$BUILD/ulpsim
SIDE=$BUILD/gl-side
MESA=$PWD/$BUILD/mesa/lib
PERF=../shared/perf
TMP=$BUILD/bench-side
rm -rf "$TMP" && mkdir -p "$TMP"
SHADERS="fs_color fs_tex fs_lit"
failed=0

die() { echo "side_by_side: $*" >&2; exit 1; }
skip() { case " $SKIP " in *" $1 "*) return 0 ;; esac; return 1; }
[ -x "$BIN" ] || die "$BIN is needed (make bench builds it)"
if ! skip 1 || ! skip 2; then   # sections 3 to 5 need only $BIN
	[ -x "$SIDE" ] || die "$SIDE is needed (make bench builds it)"
	[ -f "$MESA/swrast_dri.so" ] || die "no $MESA/swrast_dri.so (make mesa)"
fi
min() { awk 'NR == 1 || $1 < m { m = $1 } END { print m }'; }

softpipe() {   # softpipe interpreting TGSI, from the same Mesa build
	env -u DISPLAY LIBGL_DRIVERS_PATH="$MESA" LIBGL_ALWAYS_SOFTWARE=1 GALLIUM_DRIVER=softpipe \
		SOFTPIPE_DEBUG=use_tgsi "$@"
}
ulpsim() { env -u DISPLAY "$BIN" gl -- "$@"; }

echo
echo "== ulpsim against Mesa softpipe (SOFTPIPE_DEBUG=use_tgsi), the same GLES 2 program"
echo "   (bench/gl_side.c, surfaceless EGL) on Mesa 22.3.6 ($MESA); ulpsim's figure is"
echo "   the whole stack (Mesa, the Gallium driver, the PICA200 and GR3D units, tegra2),"
echo "   cycle-accurate, timeline off.  ${W}x$H, 256x256 bilinear texture; per frame: CPU"
echo "   seconds of $FRAMES frames minus 1 frame, best of $REPS interleaved runs.  load: $(cut -d' ' -f1-3 /proc/loadavg)"
if ! skip 1; then
	for r in $(seq "$REPS"); do
		for s in $SHADERS; do
			for f in 1 "$FRAMES"; do
				softpipe "$SIDE" "$s" "$W" "$H" "$f" >> "$TMP/softpipe.$s.$f" 2>> "$TMP/log" || failed=1
				ulpsim "$SIDE" "$s" "$W" "$H" "$f" >> "$TMP/ulpsim.$s.$f" 2>> "$TMP/log" || failed=1
			done
		done
	done
	printf '%-9s %18s %18s %7s %22s  %s\n' shader "softpipe M frag/s" "ulpsim M frag/s" ratio \
		"peak RSS sp / ul (MB)" "pixel (w/3, h/3) sp | ul"
	for s in $SHADERS; do
		row=()
		for drv in softpipe ulpsim; do
			c1=$(awk '{ print $7 }' "$TMP/$drv.$s.1" | min)
			cn=$(awk '{ print $7 }' "$TMP/$drv.$s.$FRAMES" | min)
			row+=("$(awk -v a="$c1" -v b="$cn" -v n=$((FRAMES - 1)) -v px=$((W * H)) \
				'BEGIN { d = b - a; if (d <= 0) print "n/a"; else printf "%.2f", px * n / d / 1e6 }')")
			row+=("$(awk '{ print $9 }' "$TMP/$drv.$s.$FRAMES" | sort -n | tail -1)")
			row+=("$(tail -1 "$TMP/$drv.$s.$FRAMES" | awk '{ print $11 }')")
		done
		ratio=$(awk -v a="${row[0]}" -v b="${row[3]}" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.2f", b / a; else print "n/a" }')
		printf '%-9s %18s %18s %7s %22s  %s | %s\n' "$s" "${row[0]}" "${row[3]}" "$ratio" \
			"$(awk -v a="${row[1]}" -v b="${row[4]}" 'BEGIN { printf "%.0f / %.0f", a / 1024, b / 1024 }')" \
			"${row[2]}" "${row[5]}"
	done
fi

echo
echo "== glmark2-es2 (${W}x$H, off-screen under Xvfb): frames per second of host CPU time,"
echo "   nframes=$GLMARK_FRAMES minus nframes=1, best of $REPS; both drivers from $MESA"
if ! skip 2; then
	if ! command -v glmark2-es2 >/dev/null || ! command -v xvfb-run >/dev/null; then
		echo "   (glmark2-es2 and xvfb-run are needed: make deps)"
	else
		glmark() {   # driver scene frames -> "cpu_seconds peak_rss_kb" on one line
			local drv=$1 sc=$2 n=$3 pre=()
			if [ "$drv" = softpipe ]; then
				pre=(env LIBGL_DRIVERS_PATH="$MESA" LIBGL_ALWAYS_SOFTWARE=1 GALLIUM_DRIVER=softpipe SOFTPIPE_DEBUG=use_tgsi)
			else
				pre=("$BIN" gl --)
			fi
			xvfb-run -a -s "-screen 0 ${W}x${H}x24" /usr/bin/time -f "TIME %U %S %M" "${pre[@]}" \
				glmark2-es2 -b "$sc:nframes=$n" -s "${W}x$H" --off-screen > "$TMP/glmark.out" 2>&1 || failed=1
			cat "$TMP/glmark.out" >> "$TMP/log"
			grep '^TIME' "$TMP/glmark.out" | tail -1 | awk '{ print $2 + $3, $4 }'
		}
		for r in $(seq "$REPS"); do
			for sc in build texture shading; do
				for drv in softpipe ulpsim; do
					for n in 1 "$GLMARK_FRAMES"; do
						glmark "$drv" "$sc" "$n" >> "$TMP/glmark.$drv.$sc.$n"
					done
				done
			done
		done
		printf '%-9s %14s %14s %7s %22s\n' scene "softpipe fps" "ulpsim fps" ratio "peak RSS sp / ul (MB)"
		for sc in build texture shading; do
			fps=() rss=()
			for drv in softpipe ulpsim; do
				c1=$(awk '{ print $1 }' "$TMP/glmark.$drv.$sc.1" | min)
				cn=$(awk '{ print $1 }' "$TMP/glmark.$drv.$sc.$GLMARK_FRAMES" | min)
				fps+=("$(awk -v a="$c1" -v b="$cn" -v n=$((GLMARK_FRAMES - 1)) \
					'BEGIN { d = b - a; if (d <= 0) print "n/a"; else printf "%.1f", n / d }')")
				rss+=("$(awk '{ print $2 }' "$TMP/glmark.$drv.$sc.$GLMARK_FRAMES" | sort -n | tail -1)")
			done
			ratio=$(awk -v a="${fps[0]}" -v b="${fps[1]}" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.2f", b / a; else print "n/a" }')
			printf '%-9s %14s %14s %7s %22s\n' "$sc" "${fps[0]}" "${fps[1]}" "$ratio" \
				"$(awk -v a="${rss[0]}" -v b="${rss[1]}" 'BEGIN { printf "%.0f / %.0f", a / 1024, b / 1024 }')"
		done
	fi
fi

# the replays of sections 3 to 5: gen_traces.py's traces of one frame
python3 "$PERF/gen_traces.py" "$TMP" "$W" "$H" 1 > /dev/null || die "gen_traces.py failed"
hs() { awk -v k="$2" '$1 == k { print $2 }' "$1"; }   # a figure of a --host-stats file

echo
echo "== timeline recording (ulpsim replay of one frame, a VCD timeline; tegra2): CPU seconds"
echo "   in the draw (--host-stats), best of $REPS interleaved; and the share of trace load + compile (wall)"
if ! skip 3; then
	printf '%-9s %12s %12s %8s %14s %16s %14s\n' shader "off (cpu s)" "on (cpu s)" kept "VCD (MB)" "load+compile" "peak RSS (MB)"
	for s in $SHADERS; do
		for r in $(seq "$REPS"); do
			"$BIN" replay "$TMP/$s.${W}x$H.f1.json" --allow-paths --host-stats "$TMP/off.$r" 2>> "$TMP/log" || failed=1
			"$BIN" replay "$TMP/$s.${W}x$H.f1.json" --allow-paths --host-stats "$TMP/on.$r" \
				--timeline "$TMP/t.vcd" 2>> "$TMP/log" || failed=1
			mb=$(du -m "$TMP/t.vcd" | cut -f1)
			rm -f "$TMP/t.vcd"
		done
		off=$(for r in $(seq "$REPS"); do hs "$TMP/off.$r" host.draw_cpu_seconds; done | min)
		on=$(for r in $(seq "$REPS"); do hs "$TMP/on.$r" host.draw_cpu_seconds; done | min)
		share=$(hs "$TMP/off.1" host.load_compile_share)
		rss=$(hs "$TMP/on.1" host.peak_rss_kb)
		printf '%-9s %12.3f %12.3f %7.0f%% %14s %15.1f%% %14.0f\n' "$s" "$off" "$on" \
			"$(awk -v a="$off" -v b="$on" 'BEGIN { print 100 * a / b }')" "$mb" \
			"$(awk -v a="$share" 'BEGIN { print 100 * a }')" "$(awk -v a="$rss" 'BEGIN { print a / 1024 }')"
	done
fi

echo
echo "== trace loading (ulpsim replay of one frame, tegra2, -o a PNG): wall seconds of the load,"
echo "   the share of load + compile in the replay (--host-stats; the PNG's output not counted),"
echo "   gen_traces.py's number arrays against the same trace after \`ulpsim trace pack\` (base64)"
if ! skip 4; then
	printf '%-9s %14s %14s %14s %14s %12s\n' shader "load arrays" "load packed" "share arrays" "share packed" "output (s)"
	for s in $SHADERS; do
		t="$TMP/$s.${W}x$H.f1.json" p="$TMP/$s.${W}x$H.f1.packed.json"
		"$BIN" trace pack --allow-paths "$t" "$p" 2>> "$TMP/log" || failed=1
		"$BIN" replay "$t" --allow-paths -o "$TMP/l.png" --host-stats "$TMP/la" 2>> "$TMP/log" || failed=1
		"$BIN" replay "$p" --allow-paths -o "$TMP/lp.png" --host-stats "$TMP/lp" 2>> "$TMP/log" || failed=1
		cmp -s "$TMP/l.png" "$TMP/lp.png" || { echo "side_by_side: $s: the packed trace's image differs" >&2; failed=1; }
		printf '%-9s %14.4f %14.4f %13.1f%% %13.1f%% %12.3f\n' "$s" "$(hs "$TMP/la" host.trace_load_seconds)" \
			"$(hs "$TMP/lp" host.trace_load_seconds)" \
			"$(awk -v a="$(hs "$TMP/la" host.load_compile_share)" 'BEGIN { print 100 * a }')" \
			"$(awk -v a="$(hs "$TMP/lp" host.load_compile_share)" 'BEGIN { print 100 * a }')" \
			"$(hs "$TMP/lp" host.output_seconds)"
	done
fi

echo
echo "== Tegra 3's two GR3D blocks on two host threads (ulpsim replay --set preset=tegra3,"
echo "   one frame): wall seconds in the draw (--host-stats), best of $REPS interleaved; this"
echo "   host has $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
if ! skip 5; then
	printf '%-9s %13s %14s %9s %15s %8s %10s %14s\n' shader "1 thread (s)" "2 threads (s)" speed-up "on idle cores" \
		windows identical "peak RSS (MB)"
	for s in $SHADERS; do
		t="$TMP/$s.${W}x$H.f1.json"
		for r in $(seq "$REPS"); do
			for n in 1 2; do
				"$BIN" replay "$t" --allow-paths --set preset=tegra3 --threads $n --host-stats "$TMP/th$n.$r" \
					-o "$TMP/th$n.png" --stats "$TMP/th$n.stats" 2>> "$TMP/log" || failed=1
			done
		done
		same=yes
		cmp -s "$TMP/th1.png" "$TMP/th2.png" && cmp -s "$TMP/th1.stats" "$TMP/th2.stats" || same=NO
		[ "$s" = fs_color ] && for n in 1 2; do    # the timeline too, on the shortest
			"$BIN" replay "$t" --allow-paths --set preset=tegra3 --threads $n --timeline "$TMP/th$n.vcd" \
				2>> "$TMP/log" || failed=1
		done && { cmp -s "$TMP/th1.vcd" "$TMP/th2.vcd" || same=NO; rm -f "$TMP"/th?.vcd; }
		[ "$same" = yes ] || failed=1
		t1=$(for r in $(seq "$REPS"); do hs "$TMP/th1.$r" host.draw_seconds; done | min)
		t2=$(for r in $(seq "$REPS"); do hs "$TMP/th2.$r" host.draw_seconds; done | min)
		rss=$(for r in $(seq "$REPS"); do hs "$TMP/th2.$r" host.peak_rss_kb; done | sort -n | tail -1)
		# CPU seconds: the 1-thread draws against the 2-thread draws' critical
		# path (per window the slower thread), what idle cores would give
		c1=$(for r in $(seq "$REPS"); do hs "$TMP/th1.$r" host.draw_cpu_seconds; done | min)
		c2=$(for r in $(seq "$REPS"); do
			awk '$1 == "host.draw_cpu_seconds" { d = $2 } $1 == "host.parallel_cpu_seconds" { p = $2 }
			     $1 == "host.parallel_critical_seconds" { c = $2 } END { print d - p + c }' "$TMP/th2.$r"
		done | min)
		win=$(hs "$TMP/th2.1" host.parallel_windows)
		printf '%-9s %13.3f %14.3f %8.2fx %14.2fx %8s %10s %14.0f\n' "$s" "$t1" "$t2" \
			"$(awk -v a="$t1" -v b="$t2" 'BEGIN { print a / b }')" "$(awk -v a="$c1" -v b="$c2" 'BEGIN { print a / b }')" \
			"${win:-?}" "$same" "$(awk -v a="$rss" 'BEGIN { print a / 1024 }')"
	done
fi
echo
[ "$failed" -eq 0 ] || echo "side_by_side: a run failed or two threads changed a result (logs: $TMP/log)"
exit "$failed"
