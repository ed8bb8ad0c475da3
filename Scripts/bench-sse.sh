#!/usr/bin/env bash
# Benchmarks the server-sent events framing layer (Sources/OpenAI/Streaming) in release mode.
#
# Prints MB/s and events/s for a synthetic stream of 100,000 chat.completion.chunk events and a
# 100,000-event Responses stream (event: + data: lines), fed in 1 KiB / 16 KiB / 64 KiB chunks,
# then the peak RSS of streaming 10x vs 1x as many events from a generator (the input is never
# held in memory). Ends with the three summary lines the project's checks read:
#   framing_mb_per_s: <x>              16 KiB chunks, slower of the two streams, median of runs
#   decode_ratio_vs_jsondecoder: <x>   pending until generated event types exist
#   rss_ratio_10x: <x>                 peak RSS at 10x stream length / peak RSS at 1x
#
# Usage: Scripts/bench-sse.sh [runs]           (default 7 runs per measurement)
# Environment:
#   BENCH_SSE_BUILD=standalone (default)  compile Sources/OpenAI/Streaming/*.swift and the
#                                         benchmark as one module with swiftc -O (fast; needs
#                                         nothing else from the OpenAI module)
#   BENCH_SSE_BUILD=spm                   swift build -c release --product bench-sse (builds the
#                                         whole OpenAI module, including Generated/)
set -euo pipefail

cd "$(dirname "$0")/.."
runs="${1:-7}"
mode="${BENCH_SSE_BUILD:-standalone}"
scratch=".build-bench-sse"

if [[ "$mode" == "spm" ]]; then
    swift build -c release --product bench-sse --scratch-path "$scratch" >&2
    binary="$(swift build -c release --product bench-sse --scratch-path "$scratch" --show-bin-path)/bench-sse"
else
    mkdir -p "$scratch"
    binary="$scratch/bench-sse-standalone"
    swiftc -O -wmo -swift-version 6 -module-name SSEBench \
        Sources/OpenAI/Streaming/*.swift Benchmarks/SSE/main.swift -o "$binary" >&2
fi

echo "# bench-sse ($mode build, $(uname -m), $(nproc) cores)"
"$binary" framing "$runs" >"$scratch/framing.txt"
grep -v '^framing_mb_per_s:' "$scratch/framing.txt"

rss1=()
rss10=()
for _ in 1 2 3; do
    rss1+=("$("$binary" rss 1 | awk '/^peak_rss_kb:/ {print $2}')")
    rss10+=("$("$binary" rss 10 | awk '/^peak_rss_kb:/ {print $2}')")
done
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
m1="$(median "${rss1[@]}")"
m10="$(median "${rss10[@]}")"
echo "peak_rss_kb_1x (100,000 events): $m1 (runs: ${rss1[*]})"
echo "peak_rss_kb_10x (1,000,000 events): $m10 (runs: ${rss10[*]})"

grep '^framing_mb_per_s:' "$scratch/framing.txt"
echo "decode_ratio_vs_jsondecoder: pending"
awk -v a="$m10" -v b="$m1" 'BEGIN { printf "rss_ratio_10x: %.3f\n", a / b }'
