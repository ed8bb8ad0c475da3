#!/usr/bin/env bash
# Counts the XCTest cases of a `swift test` log and prints `swift test: N passed, N failed, N skipped`, with the
# skipped ones named. Exit status: 1 when a case failed, or when one was skipped and CI=true (a test that skips in
# CI has not passed); 2 when the log names no test case at all (the run did not get to the tests); else 0.
#
# Usage: Scripts/lib/count-tests.sh LOG
set -euo pipefail

log="${1:?usage: count-tests.sh LOG}"
# XCTest prints one line per case: `Test Case 'Suite.test' passed (0.001 seconds)` on Linux,
# `Test Case '-[Module.Suite test]' passed (...)` on macOS.
count() { grep -cE "^Test Case '[^']+' $1 \\(" "$log" || true; }
passed="$(count passed)"
failed="$(count failed)"
skipped="$(count skipped)"
echo "swift test: $passed passed, $failed failed, $skipped skipped"
if [[ "$skipped" -gt 0 ]]; then
    grep -E "^Test Case '[^']+' skipped \\(" "$log" | sed -E "s/^Test Case '([^']+)' skipped.*/  skipped: \\1/"
fi
if [[ $((passed + failed + skipped)) -eq 0 ]]; then
    echo "count-tests: no test case in $log" >&2
    exit 2
fi
if [[ "$failed" -gt 0 ]]; then
    exit 1
fi
if [[ "$skipped" -gt 0 && "${CI:-}" == "true" ]]; then
    echo "count-tests: CI=true: $skipped skipped tests have not passed" >&2
    exit 1
fi
