#!/usr/bin/env bash
# make fuzz: clang and its sanitizer/libFuzzer runtime, only if missing
# (kept out of scripts/deps.sh so that `make deps` stays fast).
set -euo pipefail
bash "$(dirname "$0")/deps.sh"
missing=()
command -v clang >/dev/null 2>&1 || missing+=(clang)
# libFuzzer and the sanitizer runtimes (Debian 12: libclang-rt-14-dev)
ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1 ||
	ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-*.a >/dev/null 2>&1 ||
	missing+=(libclang-rt-14-dev)
[ ${#missing[@]} -eq 0 ] && exit 0
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
echo "deps-fuzz: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq >/dev/null
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
