# shellcheck shell=bash
# Shell functions the scripts in Scripts/ share, sourced, never run:
#   # shellcheck source=lib.sh source-path=SCRIPTDIR
#   source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
# Sourcing sets ROOT and defines the functions below; it runs nothing else and changes no directory. No function exits
# the caller: each returns non-zero on failure (under `set -e` that ends the script, as the command itself would).
# The spec scripts' own helpers (hashing, JSON fields, the spec cache) are in Scripts/lib/spec.sh.

# The repository: the folder above the one this file is in, absolute, symbolic links resolved.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"

# --- SwiftPM ---------------------------------------------------------------------------------------------------------

# SwiftPM's product of every test target (the package's name, then PackageTests); on Linux the executable
# `$(swift_bin_path)/$TEST_PRODUCT.xctest`.
# shellcheck disable=SC2034 # read by the scripts that source this file
TEST_PRODUCT=swift-openaiPackageTests

# Prints the test executable in the debug bin folder $1 when the tests are to run in two lanes at once
# (Scripts/lib/test-lanes.sh): on Linux, where SwiftPM makes `$1/$TEST_PRODUCT.xctest`, unless TEST_LANES=1. Returns 1,
# printing nothing, when `swift test` is to run them in one process instead:
#   test_lanes_executable BIN_DIR
test_lanes_executable() {
    local executable="$1/$TEST_PRODUCT.xctest"
    [[ "${TEST_LANES:-2}" != "1" && -f "$executable" && -x "$executable" ]] || return 1
    printf '%s\n' "$executable"
}

# Sets the array SWIFT_FLAGS to `--scratch-path DIR` for every swift command, DIR being $SCRATCH_PATH, else the
# default given (a script's own build folder, e.g. .build-bench); empty (SwiftPM's .build) when neither is set:
#   set_swift_flags [DEFAULT_DIR]
# Expand it as ${SWIFT_FLAGS[@]+"${SWIFT_FLAGS[@]}"} (bash before 4.4 calls an empty array unset under `set -u`).
set_swift_flags() {
    local scratch="${SCRATCH_PATH:-${1:-}}"
    SWIFT_FLAGS=()
    if [[ -n "$scratch" ]]; then
        SWIFT_FLAGS+=(--scratch-path "$scratch")
    fi
}

# Prints SwiftPM's folder of built products for the configuration (debug or release; default debug), with
# SWIFT_FLAGS: swift_bin_path [debug|release]
swift_bin_path() {
    swift build -c "${1:-debug}" --show-bin-path ${SWIFT_FLAGS[@]+"${SWIFT_FLAGS[@]}"}
}

# Builds the generator, `swift build -c CONFIG --product openai-generator` with SWIFT_FLAGS (the build's output on
# standard output: redirect the call, e.g. `build_generator release >&2`), and sets GENERATOR to the executable's path:
#   build_generator [release|debug]    (default release: what regenerate.sh and the benchmarks run)
# Returns the build's status when it fails (GENERATOR then unchanged).
build_generator() {
    local configuration="${1:-release}" bin_dir
    swift build -c "$configuration" --product openai-generator ${SWIFT_FLAGS[@]+"${SWIFT_FLAGS[@]}"} || return
    bin_dir="$(swift_bin_path "$configuration")" || return
    # shellcheck disable=SC2034 # read by the scripts that source this file
    GENERATOR="$bin_dir/openai-generator"
}

# Removes the empty lock files SwiftPM leaves in the temporary folder for a scratch folder under DIR (named after the
# path, slashes as underscores): remove_swiftpm_locks DIR. For the cleanup of a temporary folder that held builds.
remove_swiftpm_locks() {
    rm -f "${TMPDIR:-/tmp}/$(printf '%s' "$1" | tr '/' '_')"_*.lock
}

# --- time and figures ------------------------------------------------------------------------------------------------

# Prints the wall-clock time in seconds with a fraction (bash 5's EPOCHREALTIME; otherwise python3).
now() {
    if [[ -n "${EPOCHREALTIME:-}" ]]; then
        printf '%s\n' "${EPOCHREALTIME/,/.}"
    else
        python3 -c 'import time; print(time.time())'
    fi
}

# Prints the seconds (one decimal, rounded) from a time `now` printed to now: elapsed_since START
elapsed_since() {
    local end tenths
    end="$(now)"
    if [[ "$1" =~ ^[0-9]+\.[0-9]{6}$ && "$end" =~ ^[0-9]+\.[0-9]{6}$ ]]; then
        # EPOCHREALTIME's microseconds, in bash arithmetic (no python3 start-up per call).
        tenths=$(((10#${end/./} - 10#${1/./} + 50000) / 100000))
        printf '%d.%d\n' $((tenths / 10)) $((tenths % 10))
    else
        python3 -c 'import sys; print(f"{float(sys.argv[2]) - float(sys.argv[1]):.1f}")' "$1" "$end"
    fi
}

# Prints the CPU seconds (user and system, one decimal) that this shell's finished children have used so far, from
# /proc/$$/stat (the `cutime` and `cstime` fields, in clock ticks); prints nothing where there is no /proc (macOS).
# A step's CPU time is the difference of two calls (cpu_since): children_cpu_seconds
children_cpu_seconds() {
    local ticks
    [[ -r "/proc/$$/stat" ]] || return 0
    ticks="$(getconf CLK_TCK 2>/dev/null || echo 100)"
    # The fields after the command name in parentheses (which may hold spaces): cutime and cstime are the 14th and
    # 15th of them (fields 16 and 17 of proc(5)).
    sed 's/^.*) //' "/proc/$$/stat" | awk -v hz="$ticks" '{ printf "%.1f\n", ($14 + $15) / hz }'
}

# Prints the CPU seconds used since a `children_cpu_seconds` figure (`12.3s`), or `-` where there is none (no /proc):
# cpu_since START. A figure near twice the wall time means the step kept both cores of a 2-core machine busy.
cpu_since() {
    local end
    end="$(children_cpu_seconds)"
    if [[ "$1" =~ ^[0-9]+\.[0-9]$ && "$end" =~ ^[0-9]+\.[0-9]$ ]]; then
        local tenths=$((10#${end/./} - 10#${1/./}))
        printf '%d.%ds\n' $((tenths / 10)) $((tenths % 10))
    else
        echo "-"
    fi
}

# Prints the median of the numbers given (the middle one; for an even count the mean of the two middle ones, as
# Python's statistics.median): median VALUE...   Returns 1 when given none.
median() {
    [[ $# -gt 0 ]] || return 1
    printf '%s\n' "$@" | LC_ALL=C sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}

# --- files and tools -------------------------------------------------------------------------------------------------

# Makes a new temporary folder named after PREFIX in $TMPDIR (default /tmp) and prints its path: temp_dir PREFIX
temp_dir() {
    mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX"
}

# Prints, NUL-separated, the paths (relative to DIR) of the files of the tree at DIR as the checks see it: in a git
# checkout (DIR its top level) the tracked files that exist and the untracked ones .gitignore does not exclude
# (`git ls-files --cached --others --exclude-standard`); elsewhere (a copy) every file but those whose names, or their
# folders' names, start with a dot, and those in .build* folders: tree_files DIR
tree_files() {
    local dir="$1" top
    top="$(git -C "$dir" rev-parse --show-toplevel 2>/dev/null || true)"
    if [[ -n "$top" && "$(cd "$top" && pwd -P)" == "$(cd "$dir" && pwd -P)" ]]; then
        # Tracked files deleted from the work tree (or moved, the move not yet staged) are still listed by --cached.
        git -C "$dir" ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' path; do
            if [[ -f "$dir/$path" ]]; then
                printf '%s\0' "$path"
            fi
        done
    else
        (cd "$dir" && find . -mindepth 1 \( -name '.*' -o -name '.build*' \) -prune -o -type f -print0) \
            | while IFS= read -r -d '' path; do
                printf '%s\0' "${path#./}"
            done
    fi
}

# Prints the objects SwiftPM's last build of TARGET linked, one per line: for a Swift target, the object of each source
# in its output-file-map.json and the module's own (TARGET.swiftmodule.o, when there is one); for a C target, every
# object in its folder. Never every object of a Swift target's folder: a source removed or renamed since leaves its
# object behind, built against older types, and a linker may take a compiler-generated helper (an outlined copy or
# destroy) from it. swiftpm_objects BIN_DIR TARGET
swiftpm_objects() {
    local folder="$1/$2.build"
    [[ -d "$folder" ]] || return 0
    if [[ -f "$folder/output-file-map.json" ]]; then
        python3 "$ROOT/Scripts/lib/script_tools.py" swiftpm-objects "$folder/output-file-map.json" "$2"
    else
        find "$folder" -name '*.o' | LC_ALL=C sort
    fi
}

# Prints the path of a tool: Scripts/.venv/bin/NAME (where Scripts/test.sh's venv step installs the linters) when it
# is there, else NAME on PATH: find_tool NAME. Returns 1 (printing nothing) when neither has it.
find_tool() {
    if [[ -x "$ROOT/Scripts/.venv/bin/$1" ]]; then
        printf '%s\n' "$ROOT/Scripts/.venv/bin/$1"
    elif command -v "$1" >/dev/null 2>&1; then
        command -v "$1"
    else
        return 1
    fi
}

# For a check that cannot run here (a missing tool or input): prints why on standard error, then returns 1 when
# CI=true (a check that skips in CI has not passed), else 0 after saying it was skipped:
#   skip_unless_ci WHAT REASON...      e.g. skip_unless_ci "Workflows lint" "actionlint not found" || return
skip_unless_ci() {
    local what="$1"
    shift
    printf '%s\n' "$*" >&2
    if [[ "${CI:-}" == "true" ]]; then
        printf '%s: FAILED: it cannot run, and CI=true makes a skipped check a failure.\n' "$what" >&2
        return 1
    fi
    printf '%s skipped (CI=true makes this a failure).\n' "$what"
}

# --- steps at once ----------------------------------------------------------------------------------------------------

# The process groups at_once runs in the background. A script that uses at_once calls end_background_jobs from its EXIT
# trap, so that they end when it ends before them (a failure or an interrupt).
BACKGROUND_PIDS=()

# Sends TERM to the process groups of BACKGROUND_PIDS: end_background_jobs. A command in them that makes a process
# group of its own (coreutils' `timeout`, which test-benchmarks.sh runs each benchmark under) is not reached; its own
# limit ends it.
end_background_jobs() {
    local pid
    for pid in ${BACKGROUND_PIDS[@]+"${BACKGROUND_PIDS[@]}"}; do
        kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
    done
}

# Runs step functions at once, for steps that leave a core idle: FIRST prints as it runs; beside it the others run one
# after another, their output going to a file that is printed when all have ended. Fails when any fails (the others
# stop at their first failure), after all have ended, with the first failing status, and says which. The others run in
# a process group of their own (job control on while it starts), which end_background_jobs ends when the script ends
# first (a failure or an interrupt): an interrupt ends them at once, even when FIRST catches it and exits normally
# (pytest exits with status 2). Each side runs in a subshell with `set -e` in effect, which needs at_once itself called
# with `set -e` in effect: never under `if`, `||`, `&&` or `!` (as run_step calls it). Leaves `set -e` on and `set -m`
# off. (Steps that write the same files, or build in the same SwiftPM scratch folder, cannot run at once.)
# at_once FIRST SECOND [THIRD...]
at_once() {
    local first="$1" log_dir pid start first_time others_time first_status others_status
    shift
    local -a others=("$@")
    log_dir="$(temp_dir openai-test-at-once)"
    echo "+ ${others[*]}, one after another in the background beside $first (their output when all have ended)"
    start="$(now)"
    # An interrupt reaches FIRST (the terminal's process group), not the others: end them, then die of it as before.
    trap 'end_background_jobs; echo "at once: interrupted; the output of ${others[*]} is in $log_dir" >&2
        trap - INT; kill -INT $$' INT
    set -m
    {
        set -e
        trap 'elapsed_since "$start" >"$log_dir/seconds"' EXIT
        for step in "${others[@]}"; do
            printf '\n==> %s\n' "$step"
            "$step"
        done
    } >"$log_dir/output.log" 2>&1 </dev/null &
    pid=$!
    BACKGROUND_PIDS+=("$pid")
    set +m
    # Each side's status is taken with `set -e` off here; inside the subshells it is on.
    set +e
    (
        set -e
        "$first"
    )
    first_status=$?
    first_time="$(elapsed_since "$start")"
    wait "$pid"
    others_status=$?
    set -e
    trap - INT
    BACKGROUND_PIDS=()
    others_time="$(cat "$log_dir/seconds" 2>/dev/null || echo "?")"
    printf '\n==> %s, run beside %s: their output\n' "${others[*]}" "$first"
    cat "$log_dir/output.log"
    rm -rf "$log_dir"
    printf '\nat once: %s exit status %d after %ss; %s exit status %d after %ss\n' \
        "$first" "$first_status" "$first_time" "${others[*]}" "$others_status" "$others_time"
    if [[ $first_status -ne 0 ]]; then return "$first_status"; fi
    return "$others_status"
}

# --- benchmarks ------------------------------------------------------------------------------------------------------

# Succeeds when a benchmark runs in smoke mode (BENCH_SMOKE=1): the same code path down to its summary lines, on
# inputs of a few seconds, built cheaply (debug SwiftPM products, swiftc -Onone). Its figures mean nothing; it shows
# that the benchmark still builds and runs to the end. Scripts/bench/test-benchmarks.sh runs every benchmark so.
bench_smoke() {
    [[ "${BENCH_SMOKE:-0}" == "1" ]]
}

# Builds one of the package's benchmark executables and prints its path (the build's output on standard error):
#   bench_product PRODUCT SCRATCH [SWIFT_BUILD_ARGUMENTS...]
# Normally a release build in SCRATCH (the benchmark's own build folder). In smoke mode a debug build in $SCRATCH_PATH,
# else .build: where `swift build --build-tests` (Scripts/test.sh's build step) has already built every benchmark
# executable, so nothing is compiled then.
bench_product() {
    local product="$1" scratch="$2" configuration=release bin_dir
    shift 2
    if bench_smoke; then
        configuration=debug
        scratch="${SCRATCH_PATH:-.build}"
    fi
    swift build -c "$configuration" --product "$product" --scratch-path "$scratch" "$@" >&2 || return
    bin_dir="$(swift build -c "$configuration" --scratch-path "$scratch" "$@" --show-bin-path)" || return
    printf '%s\n' "$bin_dir/$product"
}

# Sets the array BENCH_SWIFTC_FLAGS to the optimization flags for a benchmark compiled with swiftc outside the package:
# `-O -wmo`; in smoke mode `-Onone -wmo -num-threads N` (N the cores), which compiles the runtime's sources in about
# 7 s on 2 cores (`-Onone` alone, one frontend per batch of files, 21 s): set_bench_swiftc_flags
set_bench_swiftc_flags() {
    # shellcheck disable=SC2034 # read by the scripts that source this file
    if bench_smoke; then
        BENCH_SWIFTC_FLAGS=(-Onone -wmo -num-threads "$(getconf _NPROCESSORS_ONLN)")
    else
        BENCH_SWIFTC_FLAGS=(-O -wmo)
    fi
}
