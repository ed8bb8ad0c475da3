#!/usr/bin/env bash
# A larger fuzz run of the generator than the test suite's (GeneratorFuzzTests): mutants of the
# snapshot specs and of the locked spec (truncation, deleted and duplicated lines, broken
# indentation, tabs, wrong node kinds, non-UTF-8, deep nesting, alias bombs, $ref cycles) through
# a release build of `openai-generator generate` and `diff`, each run limited to 30 s.
#
# Usage: Scripts/check/fuzz-generator.sh [mutants] [real-spec-mutants] [seed]   (defaults 1000, 60, 2026)
# Environment: SCRATCH_PATH=DIR builds in DIR (default .build).
# Prints the figures as one line: mutants, crashes, hangs, messages without a location, slowest
# run and the peak memory of a run. Exit status: 0 when there are no crashes, hangs or unlocated
# messages.
set -euo pipefail
# shellcheck source=lib.sh source-path=SCRIPTDIR/..
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$ROOT"
set_swift_flags
build_generator release >&2
swift build --build-tests ${SWIFT_FLAGS[@]+"${SWIFT_FLAGS[@]}"} >&2
FUZZ_MUTANTS="${1:-1000}" FUZZ_REAL_SPEC_MUTANTS="${2:-60}" FUZZ_SEED="${3:-2026}" OPENAI_GENERATOR="$GENERATOR" \
    swift test --skip-build ${SWIFT_FLAGS[@]+"${SWIFT_FLAGS[@]}"} --filter GeneratorFuzzTests 2>&1 \
    | grep -E '^GeneratorFuzz:|error:|failed|passed after|Executed 1 test'
