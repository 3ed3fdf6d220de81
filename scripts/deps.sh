#!/usr/bin/env bash
# make deps: install what ulpsim needs from Debian's packages, only if missing.
# Idempotent and silent when nothing is missing.
set -euo pipefail

missing=()
need_pc() { pkg-config --exists "$1" 2>/dev/null || missing+=("$2"); }
need_deb() { dpkg -s "$1" >/dev/null 2>&1 || missing+=("$1"); }

command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
command -v cc >/dev/null 2>&1 || missing+=(gcc)
need_pc sdl2       libsdl2-dev
need_pc SDL2_ttf   libsdl2-ttf-dev
need_pc libcjson   libcjson-dev
need_pc libpng     libpng-dev
need_pc criterion  libcriterion-dev
command -v Xvfb >/dev/null 2>&1 || missing+=(xvfb)
command -v xvfb-run >/dev/null 2>&1 || missing+=(xvfb)
command -v xauth >/dev/null 2>&1 || missing+=(xauth)      # xvfb-run needs it; xvfb only recommends it
fc-list 2>/dev/null | grep -qi 'DejaVuSans' || need_deb fonts-dejavu-core
command -v fc-list >/dev/null 2>&1 || missing+=(fontconfig)
# the GL tests (docs/gl.md): piglit's shader_runner, es2gears, glmark2, apitrace
[ -x /usr/lib/x86_64-linux-gnu/piglit/bin/shader_runner ] || missing+=(piglit)
command -v es2gears_x11 >/dev/null 2>&1 || missing+=(mesa-utils)
command -v glmark2-es2 >/dev/null 2>&1 || missing+=(glmark2-es2-x11)
command -v eglretrace >/dev/null 2>&1 || missing+=(apitrace)
# ulpsim replay DIR --shard: the sharding test runs the shards with GNU parallel (docs/replay.md)
command -v parallel >/dev/null 2>&1 || missing+=(parallel)
# make memcheck (scripts/memcheck.sh)
command -v valgrind >/dev/null 2>&1 || missing+=(valgrind)
# make bench's GL program (bench/gl_side.c): EGL and GLES 2 headers
need_deb libegl-dev
need_deb libgles-dev

[ ${#missing[@]} -eq 0 ] && exit 0

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
echo "deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq >/dev/null
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
