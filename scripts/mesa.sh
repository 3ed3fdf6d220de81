#!/usr/bin/env bash
# make mesa: Debian's Mesa 22.3.6 with ulpsim as one more software pipe
# driver (GALLIUM_DRIVER=ulpsim), built once per machine and cached
# (docs/gl.md "Building").
#
#   ULPSIM_CACHE  the cache folder (default ~/.cache/ulpsim):
#                   mesa-22.3.6/   Debian's source package, + scripts/mesa-ulpsim.patch
#                   mesa-build/    the meson/ninja build (swrast_dri.so only)
#                   ulpsim-src     a symlink to the checkout being built
#   $1            where to put the driver (default build/mesa/lib)
#
# Steps, each skipped when already done: install the build packages, fetch
# the source (apt-get source), apply the patch, meson setup, then always:
# point ulpsim-src at this checkout, copy frontends/gallium/meson.build into
# the Mesa tree, ninja swrast_dri.so (which recompiles only what changed:
# the driver's files and the simulator object build/pic/ulpsim.o), copy the
# megadriver next to this checkout.  Runs hold a lock, so two checkouts
# sharing the cache build one after the other.
set -euo pipefail
trap 'echo "mesa: failed at scripts/mesa.sh line $LINENO: $BASH_COMMAND" >&2' ERR
cd "$(dirname "$0")/.."
ROOT=$(pwd -P)
OUT=${1:-build/mesa/lib}
CACHE=${ULPSIM_CACHE:-$HOME/.cache/ulpsim}
VER=22.3.6
DEBVER=22.3.6-1+deb12u2
SRC=$CACHE/mesa-$VER
BLD=$CACHE/mesa-build
LINK=$CACHE/ulpsim-src
# Debian's python3 has mako; a pyenv python on PATH may not.
export PATH=/usr/bin:/bin:$PATH

mkdir -p "$CACHE"
exec 9>"$CACHE/.lock"
if ! flock -n 9; then
	echo "mesa: waiting for another make mesa on this machine ($CACHE/.lock)" >&2
	flock 9
fi

[ -f build/pic/ulpsim.o ] || { echo "mesa: build/pic/ulpsim.o missing (run it through make mesa)" >&2; exit 2; }

sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"

# 1. The build packages (mesa-driver.md §2), only those missing.
pkgs=(dpkg-dev meson ninja-build bison flex python3-mako pkg-config gcc g++ libdrm-dev libexpat1-dev
	zlib1g-dev libx11-dev libxext-dev libxfixes-dev libxcb-glx0-dev libxcb-shm0-dev libx11-xcb-dev
	libxcb-dri2-0-dev libxcb-dri3-dev libxcb-present-dev libxshmfence-dev libxxf86vm-dev libxrandr-dev
	libglvnd-dev libxcb-randr0-dev libxcb-sync-dev libxcb-xfixes0-dev libcjson-dev libpng-dev)
# (dpkg-query exits 1 when a package was never known to dpkg, as on a fresh
# machine: what it printed still lists the installed ones)
installed=$({ dpkg-query -W -f='${Package} ${db:Status-Abbrev}\n' "${pkgs[@]}" 2>/dev/null || true; } |
	awk '$2 ~ /^ii/ {print $1}')
missing=()
for p in "${pkgs[@]}"; do grep -qx "$p" <<<"$installed" || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
	echo "mesa: installing ${missing[*]}" >&2
	export DEBIAN_FRONTEND=noninteractive
	$sudo apt-get update -qq >/dev/null
	$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# 2. The source package, with Debian's patches applied by dpkg-source.
if [ ! -f "$SRC/meson.build" ]; then
	if ! apt-get source --print-uris "mesa=$DEBVER" >/dev/null 2>&1; then
		echo "mesa: adding deb-src lines for Debian's sources" >&2
		list=/etc/apt/sources.list.d/debian.sources
		[ -f "$list" ] || { echo "mesa: $list not found: add a deb-src line for bookworm by hand" >&2; exit 2; }
		sed 's/^Types: deb$/Types: deb-src/' "$list" | $sudo tee /etc/apt/sources.list.d/debian-src.sources >/dev/null
		$sudo apt-get update -qq >/dev/null
	fi
	echo "mesa: fetching mesa=$DEBVER into $CACHE" >&2
	(cd "$CACHE" && rm -rf "mesa-$VER" && apt-get source -qq "mesa=$DEBVER" >/dev/null)
fi

# 3. The patch: the meson option and subdir, the name in sw_helper.h.
if ! grep -q "ulpsim-root" "$SRC/meson_options.txt"; then
	echo "mesa: applying scripts/mesa-ulpsim.patch" >&2
	patch -d "$SRC" -p1 -s --forward < scripts/mesa-ulpsim.patch
fi

# 4. This checkout, through a fixed path, so the build never reconfigures
#    for a new checkout path.  A switch from another checkout makes this
#    one's driver sources and simulator object newer than the objects built
#    from the other, so ninja recompiles them.
prev=$(readlink "$LINK" 2>/dev/null || true)
ln -sfn "$ROOT" "$LINK"
if [ -n "$prev" ] && [ "$prev" != "$ROOT" ]; then
	touch frontends/gallium/*.c frontends/gallium/*.h frontends/gallium/meson.build build/pic/ulpsim.o
fi
mkdir -p "$SRC/src/gallium/drivers/ulpsim"
# the file list of frontends/gallium is read at configure time: a new or
# removed file reconfigures (meson regenerates when its meson.build changes)
list=$(cd frontends/gallium && ls *.c | tr '\n' ' ')
stub=$SRC/src/gallium/drivers/ulpsim/meson.build
{ cat frontends/gallium/meson.build; echo "# files: $list"; } > "$stub.new"
if cmp -s "$stub.new" "$stub"; then rm -f "$stub.new"; else mv "$stub.new" "$stub"; fi

# 5. Configure once (the options the lead's build used, mesa-driver.md §2,
#    with the X11 platform for windows under Xvfb).
opts=(-Dbuildtype=release -Db_ndebug=true -Dplatforms=x11 -Dgallium-drivers=swrast -Dvulkan-drivers=
	-Dllvm=disabled -Dglx=dri -Degl=enabled -Dgbm=disabled -Dgles1=disabled -Dgles2=enabled -Dglvnd=true
	-Dshared-glapi=enabled -Dgallium-va=disabled -Dgallium-vdpau=disabled -Dgallium-xa=disabled
	-Dgallium-nine=false -Dgallium-opencl=disabled -Dosmesa=false -Dvalgrind=disabled -Dlibunwind=disabled
	-Dbuild-tests=false -Dzstd=disabled -Dlmsensors=disabled)
if [ ! -f "$BLD/build.ninja" ]; then
	echo "mesa: configuring $BLD" >&2
	(cd "$SRC" && meson setup "$BLD" "${opts[@]}" "-Dulpsim-root=$LINK" >"$CACHE/meson-setup.log" 2>&1) \
		|| { tail -30 "$CACHE/meson-setup.log" >&2; echo "mesa: meson setup failed ($CACHE/meson-setup.log)" >&2; exit 2; }
else
	cur=$(python3 -c 'import json, sys
print(next((o["value"] for o in json.load(open(sys.argv[1])) if o["name"] == "ulpsim-root"), ""))' \
		"$BLD/meson-info/intro-buildoptions.json" 2>/dev/null || true)
	if [ "$cur" != "$LINK" ]; then
		echo "mesa: adding the ulpsim driver to $BLD" >&2
		(cd "$SRC" && meson setup --reconfigure "$BLD" "-Dulpsim-root=$LINK" >"$CACHE/meson-setup.log" 2>&1) \
			|| { tail -30 "$CACHE/meson-setup.log" >&2; echo "mesa: meson reconfigure failed" >&2; exit 2; }
	fi
fi

# 6. Build the megadriver only.
t0=$(date +%s)
if ! ninja -C "$BLD" src/gallium/targets/dri/swrast_dri.so >"$CACHE/ninja.log" 2>&1; then
	grep -E "error|Error|FAILED" -A3 "$CACHE/ninja.log" | head -60 >&2
	echo "mesa: the build failed (whole log: $CACHE/ninja.log)" >&2
	exit 2
fi
steps=$(grep -c '^\[' "$CACHE/ninja.log" || true)

# 7. Next to this checkout, where ulpsim gl looks (a copy: another checkout
#    may rebuild the cache's one).
mkdir -p "$OUT"
if ! cmp -s "$BLD/src/gallium/targets/dri/swrast_dri.so" "$OUT/swrast_dri.so"; then
	cp "$BLD/src/gallium/targets/dri/swrast_dri.so" "$OUT/swrast_dri.so.tmp"
	mv "$OUT/swrast_dri.so.tmp" "$OUT/swrast_dri.so"
fi
echo "mesa: $OUT/swrast_dri.so ($steps build steps, $(( $(date +%s) - t0 )) s)"
