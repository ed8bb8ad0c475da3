#!/usr/bin/env bash
# Benchmarks `openai-generator diff` and `openai-generator check` (release build).
#
# Usage: Scripts/bench/bench-diff.sh
#   diff:  ../shared/spec/history/2026-08-13-855e5d4.yaml against the locked spec ../shared/spec/openapi.yaml
#          (two 2.9 MB specs), --format json.
#   check: `openai-generator check` on the locked spec (Spec/openapi.yaml, put there by Scripts/spec/fetch-spec.sh),
#          run from the repository root.
# Environment:
#   RUNS=N                 runs of each; the median wall time is reported (default 7).
#   OPENAI_GENERATOR=PATH  time this generator binary instead of building it.
#   SCRATCH_PATH=DIR       SwiftPM build folder for the release build (default .build).
#   BENCH_SMOKE=1          smoke mode (Scripts/bench/test-benchmarks.sh): one run of each by the debug generator (unless
#                          OPENAI_GENERATOR) on small inputs: diff of Tests/OpenAIGeneratorTests/DiffFixtures/
#                          response-union-variant-added (old.yaml, new.yaml), check of its new.yaml against a folder
#                          generated from it (and must find no drift); no Spec/overrides.json; the figures mean nothing.
#
# The output ends with exactly two lines (seconds, three decimals):
#   diff_seconds: <median wall time of one diff run>
#   check_seconds: <median wall time of one check run>
#
# Exit status: 0 on success; non-zero when the build, the spec fetch or a run fails (a `check` that reports
# drift, exit status 1, still counts as a run: it did the full work).
set -euo pipefail

# shellcheck source=lib.sh source-path=SCRIPTDIR/..
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$ROOT"

RUNS="${RUNS:-7}"
if [[ ! "$RUNS" =~ ^[1-9][0-9]*$ ]]; then
    echo "bench-diff: RUNS wants a positive integer, got '$RUNS'" >&2
    exit 2
fi
OLD_SPEC="$ROOT/../shared/spec/history/2026-08-13-855e5d4.yaml"
NEW_SPEC="$ROOT/../shared/spec/openapi.yaml"
GENERATOR_CONFIGURATION=release
if bench_smoke; then
    RUNS=1
    OLD_SPEC="$ROOT/Tests/OpenAIGeneratorTests/DiffFixtures/response-union-variant-added/old.yaml"
    NEW_SPEC="$ROOT/Tests/OpenAIGeneratorTests/DiffFixtures/response-union-variant-added/new.yaml"
    GENERATOR_CONFIGURATION=debug
fi
for spec in "$OLD_SPEC" "$NEW_SPEC"; do
    if [[ ! -f "$spec" ]]; then
        echo "bench-diff: $spec not found (the benchmark needs ../shared/spec beside the repository)" >&2
        exit 1
    fi
done

set_swift_flags

if ! bench_smoke; then
    printf '==> Locked spec\n'
    "$ROOT/Scripts/spec/fetch-spec.sh"
fi

if [[ -n "${OPENAI_GENERATOR:-}" ]]; then
    GENERATOR="$OPENAI_GENERATOR"
    printf '\n==> Using OPENAI_GENERATOR=%s\n' "$GENERATOR"
else
    printf '\n==> Building the generator (swift build -c %s --product openai-generator)\n' "$GENERATOR_CONFIGURATION"
    build_generator "$GENERATOR_CONFIGURATION"
fi

# What `check` is given and which exit statuses count as a run: the repository's own check (1, drift, did the full work
# too); in smoke mode a folder generated from the small spec and a lock naming its sha256, where only 0 will do.
DIFF_OPTIONS=()
CHECK_ARGUMENTS=()
CHECK_STATUSES=0,1
if bench_smoke; then
    WORK="$(temp_dir openai-bench-diff)"
    trap 'rm -rf "$WORK"' EXIT
    "$GENERATOR" generate --spec "$NEW_SPEC" --output "$WORK/generated" --overrides none >"$WORK/generate.log"
    # shellcheck source=lib/spec.sh source-path=SCRIPTDIR/..
    source "$ROOT/Scripts/lib/spec.sh"
    printf '{"sha256": "%s"}\n' "$(sha256_of "$NEW_SPEC")" >"$WORK/lock.json"
    DIFF_OPTIONS=(--overrides none)
    CHECK_ARGUMENTS=(--spec "$NEW_SPEC" --output "$WORK/generated" --lock "$WORK/lock.json" --overrides none)
    CHECK_STATUSES=0
fi

# Runs each command RUNS times, prints each wall time, and prints the two result lines last.
python3 "$ROOT/Scripts/bench/benchlib.py" diff-runs "$GENERATOR" "$OLD_SPEC" "$NEW_SPEC" "$RUNS" "$CHECK_STATUSES" \
    ${DIFF_OPTIONS[@]+"${DIFF_OPTIONS[@]}"} --check ${CHECK_ARGUMENTS[@]+"${CHECK_ARGUMENTS[@]}"}
