#!/usr/bin/env bash
# Benchmarks the stream helpers that grow with the length of a reply, in release mode (SwiftPM release build of the
# OpenAI module, as openai-bench-sse's decoding part):
#   1. the stream accumulators: seconds to accumulate 1 MiB of text streamed in deltas of 4 characters, for chat
#      content and tool-call arguments (ChatCompletionStreamAccumulator) and Responses output text and function-call
#      arguments (ResponseStreamAccumulator), median of runs;
#   2. parseStream under a slow consumer: peak RSS of a 100 KiB structured answer (4-character deltas) read through
#      client.chat.completions.parseStream and client.responses.parseStream over an in-memory transport by a consumer
#      that sleeps 1 ms per event and keeps nothing, and (chat) one that keeps every partial (each takes about 30 s:
#      one run each).
#
# Ends with the summary lines:
#   accumulate_1mb_seconds: <x>          the slowest of the four accumulations (goal: < 0.5)
#   parse_stream_peak_rss_mib: <x>       the larger of the two parseStream peaks of a consumer that keeps nothing
#
# Usage: Scripts/bench/bench-accumulators.sh [runs]   (default 5)
# Environment:
#   BENCH_PARSE_STREAM=0   skip part 2
#   BENCH_SMOKE=1          smoke mode (Scripts/bench/test-benchmarks.sh): the debug openai-bench-accumulators of SCRATCH_PATH
#                          or .build (no release build), one run of 16 KiB, parseStream on 2 KiB; the figures (named
#                          after 1 MiB and 100 KiB still) mean nothing
set -euo pipefail
# shellcheck source=lib.sh source-path=SCRIPTDIR/..
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$ROOT"
scratch=".build-bench-accumulators"
runs="${1:-5}"
accumulate_bytes=$((1024 * 1024))
answer_bytes=$((100 * 1024))
if bench_smoke; then
    runs=1
    accumulate_bytes=$((16 * 1024))
    answer_bytes=2048
fi
mkdir -p "$scratch"
bench="$(bench_product openai-bench-accumulators "$scratch")"

echo "# bench-accumulators ($(uname -m), $(nproc) cores)"
"$bench" accumulate "$runs" "$accumulate_bytes" >"$scratch/accumulate.txt"
grep -v '^accumulate_1mb_seconds:' "$scratch/accumulate.txt"

rss_line="parse_stream_peak_rss_mib: skipped"
if [[ "${BENCH_PARSE_STREAM:-1}" != "0" ]]; then
    peaks=()
    for run in "chat 0" "responses 0" "chat 1"; do
        read -r api keep <<<"$run"
        name="parse_stream_$api$([[ "$keep" == 1 ]] && echo _keeping_every_partial || true)"
        "$bench" parse-stream-rss "$api" "$answer_bytes" 1 4 "$keep" >"$scratch/$name.txt"
        peak="$(awk '/^peak_rss_kb:/ {print $2}' "$scratch/$name.txt")"
        echo "$name: $(awk '/^partials:/ {p=$2} /^seconds:/ {s=$2} END {print p " partials in " s " s"}' \
            "$scratch/$name.txt"), peak RSS $peak kB"
        [[ "$keep" == 1 ]] || peaks+=("$peak")
    done
    rss_line="parse_stream_peak_rss_mib: $(printf '%s\n' "${peaks[@]}" | sort -n | tail -1 | awk '{printf "%.1f", $1 / 1024}')"
fi

grep '^accumulate_1mb_seconds:' "$scratch/accumulate.txt"
echo "$rss_line"
