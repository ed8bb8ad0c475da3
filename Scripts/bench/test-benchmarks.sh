#!/usr/bin/env bash
# Runs every benchmark in its smoke mode (`BENCH_SMOKE=1 Scripts/bench/bench-NAME.sh`: tiny inputs, one run, debug builds, a
# few seconds each), so that a benchmark that no longer builds, traps, hangs or stops printing its summary lines fails
# CI. The figures mean nothing and are not shown.
#
# Usage: Scripts/bench/test-benchmarks.sh [NAME...]    (NAME as in Scripts/bench/bench-NAME.sh; default every Scripts/bench/bench-*.sh)
# Prints one line per benchmark (ok or FAILED, seconds, name); for a failure, why (the exit status, or the summary
# line that is missing) and the end of the benchmark's output.
# Expects Scripts/test.sh's build step (`swift build --build-tests`, in SCRATCH_PATH or .build): the smoke modes run
# its debug benchmark executables and generator (SwiftPM rebuilds them when stale, in debug, never in release).
# Environment:
#   SCRATCH_PATH=DIR      the SwiftPM build folder (default .build), passed on to the benchmarks.
#   OPENAI_TEST_PYTHON    the test servers' Python (default Scripts/.venv/bin/python), passed on.
#   BENCH_SMOKE_TIMEOUT=S  seconds one benchmark may take before it is stopped and fails (default 600: a cold debug
#                         build of a missing executable fits).
#   BENCH_SMOKE_JOBS=N    benchmarks run at once (default 2).
#   BENCH_SMOKE_LOGS=DIR  keep each benchmark's whole output in DIR/NAME.log (relative to the repository; default a
#                         temporary folder, removed).
#
# A benchmark whose inputs beside the repository (../shared) are missing is skipped, or fails when CI=true.
#
# Exit status: 0 when every benchmark passed (or was skipped); 1 when one failed, or when a Scripts/bench/bench-*.sh has no
# summary lines listed below (a new benchmark needs a smoke mode and its entry here); 2 on an unknown NAME or a bad
# BENCH_SMOKE_JOBS.
set -euo pipefail

# shellcheck source=lib.sh source-path=SCRIPTDIR/..
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$ROOT"

# A figure: a number (inf and nan included: the smoke inputs are small enough for a time to round to zero).
NUMBER='-?([0-9]+([.][0-9]*)?|inf|nan)'

# Prints the summary lines (extended regular expressions, one a line) a benchmark's smoke run must print: the same
# lines its full run ends with. Returns 1 for a benchmark it does not know.
summary_lines() {
    case "$1" in
        accumulators) printf '%s\n' "^accumulate_1mb_seconds: $NUMBER\$" "^parse_stream_peak_rss_mib: $NUMBER\$" ;;
        # The smoke run times the debug binary and builds nothing clean.
        cli)
            printf '%s\n' "^cli --help: median $NUMBER ms over 3\$" \
                "^mcp tools/list all: [0-9]+ tools, [0-9]+ bytes\$" \
                "^cli mcp start to the initialize reply: median $NUMBER ms over 3\$"
            ;;
        cli-memory)
            printf '%s\n' "^cli_memory_reply_json_peak_mib: $NUMBER\$" "^cli_memory_mcp_reply_peak_mib: $NUMBER\$" \
                "^cli_memory_mcp_line_peak_mib: $NUMBER\$" "^cli_memory_paging_items: $NUMBER\$"
            ;;
        diff) printf '%s\n' "^diff_seconds: $NUMBER\$" "^check_seconds: $NUMBER\$" ;;
        embeddings)
            printf '%s\n' "^bytes_ratio_base64_vs_float: $NUMBER\$" "^decode_speedup_base64_vs_float: $NUMBER\$"
            ;;
        first-build) printf '%s\n' "^first-build debug: median $NUMBER s over 1\$" ;;
        # The smoke run generates from a small spec and builds nothing: the build figures read `skipped`.
        generate)
            printf '%s\n' "^generate_seconds: $NUMBER\$" "^build_debug_seconds: skipped\$" \
                "^build_release_seconds: skipped\$" "^build_debug_ratio_vs_base: skipped\$" \
                "^build_release_ratio_vs_base: skipped\$"
            ;;
        partial-json)
            printf '%s\n' "^partial_json_parse_mb_per_s: $NUMBER\$" "^partial_json_snapshot_mb_per_s: $NUMBER\$" \
                "^typed_partials_vs_final_decode: $NUMBER\$"
            ;;
        realtime)
            printf '%s\n' "^rtt_median_ms: $NUMBER\$" "^rtt_p99_ms: $NUMBER\$" \
                "^append_throughput_ratio_vs_python: $NUMBER\$"
            ;;
        runtime) printf '%s\n' "^overhead_ratio_c1: $NUMBER\$" "^overhead_ratio_c16: $NUMBER\$" ;;
        sse)
            printf '%s\n' "^framing_mb_per_s: $NUMBER\$" "^decode_ratio_vs_jsondecoder: $NUMBER\$" \
                "^rss_ratio_10x: $NUMBER\$"
            ;;
        stream-memory)
            printf '%s\n' "^stream_peak_rss_kib_short: $NUMBER\$" "^stream_peak_rss_kib_long: $NUMBER\$" \
                "^stream_rss_ratio_8x: $NUMBER\$"
            ;;
        upload) printf '%s\n' "^peak_rss_mib: $NUMBER\$" "^throughput_ratio_vs_curl: $NUMBER\$" ;;
        *) return 1 ;;
    esac
}

# Prints what a benchmark needs beside the repository and does not find (nothing when all is there): the test server
# of bench-runtime and bench-upload serves ../shared's spec (and bench-runtime's, its recorded fixtures).
missing_inputs() {
    case "$1" in
        runtime)
            [[ -f ../shared/spec/openapi.yaml && -d ../shared/fixtures ]] || echo "../shared/spec, ../shared/fixtures"
            ;;
        upload) [[ -f ../shared/spec/openapi.yaml ]] || echo "../shared/spec/openapi.yaml" ;;
    esac
}

names=()
if [[ $# -gt 0 ]]; then
    for name in "$@"; do
        if [[ ! -f "Scripts/bench/bench-$name.sh" ]]; then
            echo "test-benchmarks: no Scripts/bench/bench-$name.sh" >&2
            exit 2
        fi
        # A name given twice runs once: two runs at once would share its log and build folder.
        if [[ " ${names[*]-} " != *" $name "* ]]; then
            names+=("$name")
        fi
    done
else
    for file in Scripts/bench/bench-*.sh; do
        name="${file#Scripts/bench/bench-}"
        names+=("${name%.sh}")
    done
fi

timeout_seconds="${BENCH_SMOKE_TIMEOUT:-600}"
# coreutils' timeout (gtimeout from Homebrew's coreutils on macOS); without either, a hang is not stopped.
timeout_command=()
for tool in timeout gtimeout; do
    if command -v "$tool" >/dev/null 2>&1; then
        timeout_command=("$tool" --kill-after=10 "$timeout_seconds")
        break
    fi
done
if [[ ${#timeout_command[@]} -eq 0 ]]; then
    echo "test-benchmarks: no timeout command (coreutils): a benchmark that hangs is not stopped" >&2
fi
if [[ -n "${BENCH_SMOKE_LOGS:-}" ]]; then
    mkdir -p "$BENCH_SMOKE_LOGS"
    work="$(cd "$BENCH_SMOKE_LOGS" && pwd -P)"
else
    work="$(temp_dir openai-test-benchmarks)"
    trap 'rm -rf "$work"' EXIT
fi

# Runs one benchmark: its output in $work/NAME.log, then `STATUS SECONDS` in $work/NAME.status.
run_benchmark() {
    local name="$1" start status=0
    start="$(now)"
    # Its own process group (timeout's), so that a hang is stopped with the servers it started.
    BENCH_SMOKE=1 ${timeout_command[@]+"${timeout_command[@]}"} "Scripts/bench/bench-$name.sh" >"$work/$name.log" 2>&1 \
        </dev/null || status=$?
    printf '%s %s\n' "$status" "$(elapsed_since "$start")" >"$work/$name.status"
}

# Up to BENCH_SMOKE_JOBS benchmarks at once (default 2, one per core: their figures are not read), reported in the
# order of `names` once all have ended.
jobs_at_once="${BENCH_SMOKE_JOBS:-2}"
if [[ ! "$jobs_at_once" =~ ^[1-9][0-9]*$ ]]; then
    echo "test-benchmarks: BENCH_SMOKE_JOBS wants a positive integer, got '$jobs_at_once'" >&2
    exit 2
fi
failed=()
total_start="$(now)"
echo "test-benchmarks: ${#names[@]} benchmarks in smoke mode (BENCH_SMOKE=1), $jobs_at_once at once"
for name in "${names[@]}"; do
    if [[ -n "$(missing_inputs "$name")" ]]; then
        continue
    fi
    # Polls instead of `wait -n`, which macOS's bash 3.2 lacks.
    while [[ "$(jobs -pr | wc -l)" -ge "$jobs_at_once" ]]; do
        sleep 0.1
    done
    run_benchmark "$name" &
done
wait

for name in "${names[@]}"; do
    missing="$(missing_inputs "$name")"
    if [[ -n "$missing" ]]; then
        if [[ "${CI:-}" == "true" ]]; then
            printf '  FAILED  %6ss  bench-%s: %s not found (CI=true makes a skipped benchmark a failure)\n' \
                0.0 "$name" "$missing"
            failed+=("$name")
        else
            printf '  skipped %6ss  bench-%s: %s not found (CI=true makes this a failure)\n' 0.0 "$name" "$missing"
        fi
        continue
    fi
    log="$work/$name.log"
    read -r status seconds <"$work/$name.status"
    problem=""
    if [[ ${#timeout_command[@]} -gt 0 && ($status -eq 124 || $status -eq 137) ]]; then
        problem="stopped after ${timeout_seconds} s (BENCH_SMOKE_TIMEOUT)"
    elif [[ $status -ne 0 ]]; then
        problem="exit status $status"
    elif ! expected="$(summary_lines "$name")"; then
        problem="no summary lines listed for it in Scripts/bench/test-benchmarks.sh (a new benchmark needs a smoke mode"
        problem+=" and an entry there)"
    else
        while IFS= read -r pattern; do
            if ! grep -Eq "$pattern" "$log"; then
                problem="no line matching /$pattern/ in its output"
                break
            fi
        done <<<"$expected"
    fi
    if [[ -z "$problem" ]]; then
        printf '  ok      %6ss  bench-%s\n' "$seconds" "$name"
    else
        printf '  FAILED  %6ss  bench-%s: %s\n' "$seconds" "$name" "$problem"
        printf '  --- the last 30 lines of its output:\n'
        tail -n 30 "$log" | sed 's/^/  | /'
        failed+=("$name")
    fi
done
printf '  total   %6ss\n' "$(elapsed_since "$total_start")"

if [[ ${#failed[@]} -gt 0 ]]; then
    echo "test-benchmarks: FAILED: ${failed[*]}" >&2
    exit 1
fi
echo "test-benchmarks: all ${#names[@]} benchmarks ran in smoke mode and printed their summary lines."
