#!/usr/bin/env bash
# Benchmarks server-sent events streaming in release mode.
#
# 1. Framing (the server-sent event files of Sources/OpenAIRuntime/Streaming): MB/s and events/s for a synthetic stream of 100,000
#    chat.completion.chunk events and a 100,000-event Responses stream (event: + data: lines), fed
#    in 1 KiB / 16 KiB / 64 KiB chunks.
# 2. Decoding (SwiftPM release build of the OpenAI module): the same streams through the client's
#    typed path (client.chat.completions.createStream / client.responses.createStream over an
#    in-memory transport: framing, error checks and decoding into the generated event types),
#    compared with Foundation's JSONDecoder (and the SDK's OrderedJSONDecoder) decoding the same payloads alone.
#    Then the generated code alone: encoding a chat and a Responses request and decoding a Response with the SDK's
#    coders and with Foundation's (`_foundation`), and `==` on two equal Responses, per second (`coding_…_per_s`).
# 3. Memory: peak RSS streaming 10x vs 1x as many events from a generator (the input is never held
#    in memory), through the typed client path (SwiftPM build) and through ServerSentEventStream.
#
# Ends with the three summary lines the project's checks read:
#   framing_mb_per_s: <x>              16 KiB chunks, slower of the two streams, median of runs
#   decode_ratio_vs_jsondecoder: <x>   (framing + decoding) time / Foundation's JSONDecoder-alone time
#                                      on the same types, the worse of the two streams (goal: <= 1.2)
#   rss_ratio_10x: <x>                 peak RSS at 10x stream length / at 1x (typed client path
#                                      when the SwiftPM build is available) (goal: <= 1.10)
#
# Usage: Scripts/bench/bench-sse.sh [runs]           (default 7 framing runs, 5 decoding runs)
# Environment:
#   BENCH_SSE_DECODE=0   skip the SwiftPM release build (decoding and client RSS print "unavailable")
#   BENCH_SMOKE=1        smoke mode (Scripts/bench/test-benchmarks.sh): streams of 500 events instead of 100,000, one run
#                        of each, the framing benchmark compiled with -Onone and the debug openai-bench-sse of
#                        SCRATCH_PATH or .build (no release build); the figures mean nothing
set -euo pipefail

# shellcheck source=lib.sh source-path=SCRIPTDIR/..
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$ROOT"
runs="${1:-7}"
events=100000 # per stream; the RSS runs stream 1x and 10x as many
rss_runs=3
if bench_smoke; then
    runs=1
    events=500
    rss_runs=1
fi
scratch=".build-bench-sse"
mkdir -p "$scratch"
set_bench_swiftc_flags

# Framing: compile the server-sent event files and the benchmark as one module (fast).
standalone="$scratch/bench-sse-standalone"
swiftc "${BENCH_SWIFTC_FLAGS[@]}" -swift-version 6 -module-name SSEBench \
    Sources/OpenAIRuntime/Streaming/*ServerSentEvent*.swift Sources/OpenAIRuntime/Streaming/StreamStep.swift \
    Benchmarks/SSE/main.swift -o "$standalone" >&2

spm=""
if [[ "${BENCH_SSE_DECODE:-1}" != "0" ]]; then
    if bench_smoke; then
        spm="$(bench_product openai-bench-sse "$scratch")"
    elif ! spm="$(bench_product openai-bench-sse "$scratch")"; then
        spm=""
        echo "# SwiftPM release build failed; decoding figures unavailable" >&2
    fi
fi

echo "# bench-sse ($(uname -m), $(nproc) cores)"
"$standalone" framing "$runs" "$events" >"$scratch/framing.txt"
grep -v '^framing_mb_per_s:' "$scratch/framing.txt"

decode_line="decode_ratio_vs_jsondecoder: unavailable"
if [[ -n "$spm" ]]; then
    "$spm" decode "$(( runs < 5 ? runs : 5 ))" "$events" >"$scratch/decode.txt"
    grep -v '^decode_ratio_vs_jsondecoder:' "$scratch/decode.txt"
    decode_line="$(grep '^decode_ratio_vs_jsondecoder:' "$scratch/decode.txt")"
    # The generated code alone: requests encoded, Responses decoded and compared per second.
    "$spm" coding "$(( runs < 5 ? runs : 5 ))" "$(( events < 20000 ? events : 20000 ))"
fi

measure_rss() {  # binary mode multiplier -> median peak RSS (kB) of rss_runs runs; fails when a run fails
    local values=() output
    for _ in $(seq "$rss_runs"); do
        output="$("$1" "$2" "$3" "$events")" || return
        values+=("$(awk '/^peak_rss_kb:/ {print $2}' <<<"$output")")
    done
    median "${values[@]}"
}
p1="$(measure_rss "$standalone" rss 1)"
p10="$(measure_rss "$standalone" rss 10)"
echo "parser peak_rss_kb 1x ($events events): $p1, 10x ($((events * 10)) events): $p10"
ratio="$(awk -v a="$p10" -v b="$p1" 'BEGIN { printf "%.3f", a / b }')"
if [[ -n "$spm" ]]; then
    c1="$(measure_rss "$spm" rss-client 1)"
    c10="$(measure_rss "$spm" rss-client 10)"
    echo "typed client peak_rss_kb 1x ($events chunks): $c1, 10x ($((events * 10)) chunks): $c10"
    ratio="$(awk -v a="$c10" -v b="$c1" 'BEGIN { printf "%.3f", a / b }')"
fi

grep '^framing_mb_per_s:' "$scratch/framing.txt"
echo "$decode_line"
echo "rss_ratio_10x: $ratio"
