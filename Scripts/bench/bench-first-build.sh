#!/usr/bin/env bash
# What an app pays the first time it builds the SDK: a clean build of the `OpenAI` target (the generated code, the
# runtime and its C target: what `.product(name: "OpenAI", ...)` brings into an app), in debug and in release, each
# on a fresh scratch folder. The figures README.md quotes come from this script, or from the same two builds run by
# Scripts/bench/bench-generate.sh (BUILDS="module-debug module-release").
#
# Usage: Scripts/bench/bench-first-build.sh [RUNS]     (RUNS builds per configuration, default 1; the median is printed)
# Environment:
#   CONFIGURATIONS  which to build, default "debug release".
#   TARGET          the target to build, default OpenAI.
#   BENCH_SMOKE=1   smoke mode (Scripts/bench/test-benchmarks.sh): one debug build of the smallest target,
#                   OpenAIRuntimeLibcurl (a C file: what is timed is mostly SwiftPM's own start on a fresh folder);
#                   the figure means nothing
# Prints one line per build and a summary line per configuration: `first-build CONFIG: median N s over RUNS`.
# Run it on a quiet machine: the figures are wall-clock seconds, and another build on the same cores changes them.
set -euo pipefail

# shellcheck source=lib.sh source-path=SCRIPTDIR/..
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$ROOT"

RUNS="${1:-1}"
if ! [[ "$RUNS" =~ ^[1-9][0-9]*$ ]]; then
    echo "bench-first-build: RUNS wants a positive whole number, got '$RUNS'" >&2
    exit 2
fi
read -r -a CONFIGURATIONS <<<"${CONFIGURATIONS:-debug release}"
TARGET="${TARGET:-OpenAI}"
if bench_smoke; then
    RUNS=1
    CONFIGURATIONS=(debug)
    TARGET=OpenAIRuntimeLibcurl
fi

WORK="$(temp_dir openai-first-build)"
trap 'rm -rf "$WORK"; remove_swiftpm_locks "$WORK"' EXIT
echo "# bench-first-build: swift build --target $TARGET, fresh scratch folder ($(uname -m), $(getconf _NPROCESSORS_ONLN) cores," \
    "$(swift --version 2>&1 | sed -n 1p), $(date -u +%Y-%m-%d), commit $(git rev-parse --short HEAD 2>/dev/null || echo '?'))"
for configuration in "${CONFIGURATIONS[@]}"; do
    times=()
    for run in $(seq 1 "$RUNS"); do
        rm -rf "$WORK/scratch"
        start="$(now)"
        swift build --target "$TARGET" -c "$configuration" --scratch-path "$WORK/scratch" >"$WORK/build.log" 2>&1 || {
            tail -n 30 "$WORK/build.log" >&2
            echo "bench-first-build: the $configuration build failed" >&2
            exit 1
        }
        seconds="$(elapsed_since "$start")"
        times+=("$seconds")
        echo "first-build $configuration run $run: $seconds s"
    done
    echo "first-build $configuration: median $(median "${times[@]}") s over $RUNS"
done
