#!/usr/bin/env bash
# What the `openai` command-line tool costs: a clean build of its product in debug and in release (each on a fresh
# scratch folder, so every module it needs is compiled: the runtime, the catalogue, libyaml's wrapper, not the typed
# SDK), the release binary's size, and the time of `openai --help`, `openai responses create --help` (the catalogue
# parsed, one command's help) and a completion query, as the median of RUNS runs each; for `openai mcp`, the bytes of
# its tools/list reply (every tool with an admin key, the project-key tools, the dynamic mode's three) and the time
# from start to the initialize reply and to the tools/list reply. The figures CLI.md and the closing notes of
# issues 29 and 30 quote come from this script.
#
# Usage: Scripts/bench/bench-cli.sh [RUNS]      (RUNS runs per timed command, default 21)
# Environment:
#   BENCH_SMOKE=1   smoke mode (Scripts/bench/test-benchmarks.sh): no clean builds; the debug binary of .build (or
#                   $SCRATCH_PATH), 3 runs each; the figures mean nothing
# Prints `cli build CONFIG: N s`, `cli binary: N bytes (stripped N bytes)`, `cli COMMAND: median N ms over RUNS`,
# `mcp tools/list TOOLS: N tools, N bytes`.
# Run it on a quiet machine: the figures are wall-clock times.
set -euo pipefail

# shellcheck source=lib.sh source-path=SCRIPTDIR/..
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$ROOT"

RUNS="${1:-21}"
if ! [[ "$RUNS" =~ ^[1-9][0-9]*$ ]]; then
    echo "bench-cli: RUNS wants a positive whole number, got '$RUNS'" >&2
    exit 2
fi

WORK="$(temp_dir openai-bench-cli)"
trap 'rm -rf "$WORK"; remove_swiftpm_locks "$WORK"' EXIT
echo "# bench-cli: swift build --product openai, fresh scratch folder ($(uname -m), $(getconf _NPROCESSORS_ONLN) cores," \
    "$(swift --version 2>&1 | sed -n 1p), $(date -u +%Y-%m-%d), commit $(git rev-parse --short HEAD 2>/dev/null || echo '?'))"

if bench_smoke; then
    RUNS=3
    BINARY="$(bench_product openai "${SCRATCH_PATH:-.build}")"
else
    for configuration in debug release; do
        start="$(now)"
        swift build --product openai -c "$configuration" --scratch-path "$WORK/$configuration" >"$WORK/build.log" 2>&1 || {
            tail -n 30 "$WORK/build.log" >&2
            echo "bench-cli: the $configuration build failed" >&2
            exit 1
        }
        echo "cli build $configuration: $(elapsed_since "$start") s"
    done
    BINARY="$(swift build -c release --scratch-path "$WORK/release" --show-bin-path)/openai"
    cp "$BINARY" "$WORK/openai-stripped"
    strip "$WORK/openai-stripped"
    echo "cli binary: $(wc -c <"$BINARY") bytes (stripped $(wc -c <"$WORK/openai-stripped") bytes)"
fi

# Times one command RUNS times (its output discarded) and prints the median in milliseconds (`now`'s microseconds).
time_command() {
    local label="$1" times=() start end
    shift
    for _ in $(seq 1 "$RUNS"); do
        start="$(now)"
        "$@" >/dev/null 2>&1 </dev/null
        end="$(now)"
        times+=("$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.1f", (e - s) * 1000 }')")
    done
    echo "cli $label: median $(median "${times[@]}") ms over $RUNS"
}
time_command "--help" "$BINARY" --help
time_command "responses create --help" "$BINARY" responses create --help
time_command "__complete (flags of a command)" "$BINARY" __complete --line "openai vector-stores:files list --"

# `openai mcp`: what a client reads at tools/list, and how long the server takes to answer.
INITIALIZE='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"0"}}}'
LIST='{"jsonrpc":"2.0","id":2,"method":"tools/list"}'
mcp_list() {
    printf '%s\n%s\n' "$INITIALIZE" "$LIST" | env -i PATH="$PATH" OPENAI_API_KEY=sk-bench "$@" "$BINARY" mcp 2>/dev/null |
        sed -n 2p
}
for case in "all:OPENAI_ADMIN_KEY=sk-admin-bench" "project:" "dynamic:OPENAI_ADMIN_KEY=sk-admin-bench"; do
    name="${case%%:*}"
    variables=()
    [[ -n "${case#*:}" ]] && variables=("${case#*:}")
    if [[ "$name" == dynamic ]]; then
        reply="$(printf '%s\n%s\n' "$INITIALIZE" "$LIST" | env -i PATH="$PATH" OPENAI_API_KEY=sk-bench \
            "${variables[@]}" "$BINARY" mcp --tools dynamic 2>/dev/null | sed -n 2p)"
    else
        reply="$(mcp_list ${variables[@]+"${variables[@]}"})"
    fi
    tools="$(printf '%s' "$reply" | grep -o '"inputSchema"' | wc -l)"
    echo "mcp tools/list $name: $tools tools, $(printf '%s' "$reply" | wc -c) bytes"
done
initialize_only() { printf '%s\n' "$INITIALIZE" | env -i PATH="$PATH" OPENAI_API_KEY=sk-bench "$BINARY" mcp; }
list_all() { mcp_list OPENAI_ADMIN_KEY=sk-admin-bench; }
time_command "mcp start to the initialize reply" initialize_only
time_command "mcp start to the tools/list reply (288 tools)" list_all
