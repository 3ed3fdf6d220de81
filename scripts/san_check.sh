#!/usr/bin/env bash
# make san: the verdict on the suite's sanitizer log (docs/robustness.md).
#   scripts/san_check.sh build/san/test.log
# Fails on any AddressSanitizer error, UBSan runtime error, or leak, with
# one exception: a leak whose every frame (after the allocator's own) lies
# inside libcriterion, the test runner.  Criterion 2.4's runner leaks 48
# bytes now and then on its own (seen with the suite's long tests, stack:
# calloc <- libcriterion.so.3 and nothing else); none of our code is on
# such a stack.  The test binary's LeakSanitizer exit code is 0
# (tests/test_util.c), so this script is the one judge of leaks in it.
set -euo pipefail
log=${1:?usage: scripts/san_check.sh LOG}
awk '
function flush() {
	if (in_group && !only_criterion) { bad++; print group }
	in_group = 0; group = ""
}
/runtime error:/ { print; bad++ }
/ERROR: AddressSanitizer/ { print; bad++ }
/^(Direct|Indirect) leak of/ { flush(); in_group = 1; only_criterion = 1; group = $0; next }
in_group && /^ *#[0-9]+ / {
	group = group "\n" $0
	if ($0 ~ /in __interceptor_|asan_malloc_linux|in malloc|in calloc|in realloc/) next
	if ($0 !~ /libcriterion\.so/) only_criterion = 0
	next
}
in_group { flush() }
END { flush(); if (bad) { print "san: " bad " sanitizer report(s) above"; exit 1 } }
' "$log"
