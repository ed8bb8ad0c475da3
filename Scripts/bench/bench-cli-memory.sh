#!/usr/bin/env bash
# Peak memory of `openai` and `openai mcp` on hostile sizes (issue 42): a SIZE MiB JSON reply printed with --format
# json, jsonl and raw and asked of an MCP tool, one SIZE MiB MCP input line, and a list whose pages never end (the
# default --max-items cap), each the peak resident set of the tool's process (Scripts/bench/cli-memory/bench_cli_memory.py,
# a local server of the Python standard library). The closing note of issue 42 quotes these figures.
#
# Usage: Scripts/bench/bench-cli-memory.sh [SIZE_MIB]      (default 300)
# Environment:
#   BENCH_SMOKE=1   smoke mode (Scripts/bench/test-benchmarks.sh): the debug binary of .build (or $SCRATCH_PATH), 8 MiB; the
#                   figures mean nothing
# Prints `cli_memory_CASE_peak_mib: N` per case and `cli_memory_paging_items: N`.
set -euo pipefail

# shellcheck source=lib.sh source-path=SCRIPTDIR/..
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$ROOT"

SIZE="${1:-300}"
if ! [[ "$SIZE" =~ ^[1-9][0-9]*$ ]]; then
    echo "bench-cli-memory: SIZE_MIB wants a positive whole number, got '$SIZE'" >&2
    exit 2
fi
WORK="$(temp_dir openai-bench-cli-memory)"
trap 'rm -rf "$WORK"; remove_swiftpm_locks "$WORK"' EXIT
if bench_smoke; then
    SIZE=8
fi
BINARY="$(bench_product openai "$WORK/release")"
echo "# bench-cli-memory: $SIZE MiB, $(basename "$(dirname "$BINARY")") build ($(uname -m), $(date -u +%Y-%m-%d)," \
    "commit $(git rev-parse --short HEAD 2>/dev/null || echo '?'))"
python3 Scripts/bench/cli-memory/bench_cli_memory.py "$BINARY" "$SIZE"
