#!/usr/bin/env bash
# Benchmarks the partial-JSON decoder (Sources/OpenAIRuntime/StructuredOutputs/PartialJSONDecoder.swift)
# in release mode, on structured outputs of about 2 KiB, 16 KiB and 128 KiB fed in deltas of 4
# characters (as a model streams tokens):
#   - parsing alone, and parsing with the value so far taken after every delta, in MB/s (and that
#     against one JSONDecoder decode of the whole text as JSONValue);
#   - decoding the value so far as the Swift type after every delta (what PartialOutput.value()
#     costs when called for every event), against decoding the final JSON once (2 and 16 KiB).
#
# Ends with the summary lines:
#   partial_json_parse_mb_per_s: <x>         the slowest size
#   partial_json_snapshot_mb_per_s: <x>      the slowest size, a value after every delta
#   typed_partials_vs_final_decode: <x>      all typed partial decodes / one final decode, worst size
#
# Usage: Scripts/bench/bench-partial-json.sh [runs]   (default 5)
# Environment:
#   BENCH_SMOKE=1   smoke mode (Scripts/bench/test-benchmarks.sh): compiled with -Onone, one run, every size divided by 16;
#                   the figures mean nothing
set -euo pipefail
# shellcheck source=lib.sh source-path=SCRIPTDIR/..
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$ROOT"
runs="${1:-5}"
divisor=1
if bench_smoke; then
    runs=1
    divisor=16
fi
scratch=".build-bench-partial-json"
mkdir -p "$scratch"
set_bench_swiftc_flags
# The decoder and JSONValue with what JSONValue stands on: JSONObject and the SDK's JSON coders.
swiftc "${BENCH_SWIFTC_FLAGS[@]}" -swift-version 6 -module-name PartialJSONBench -package-name PartialJSONBench \
    Sources/OpenAIRuntime/StructuredOutputs/PartialJSONDecoder.swift \
    Sources/OpenAIRuntime/StructuredOutputs/PartialJSONError.swift Sources/OpenAIRuntime/Coding/JSONValue.swift \
    Sources/OpenAIRuntime/Coding/JSONObject.swift Sources/OpenAIRuntime/Coding/JSON/*.swift \
    Sources/OpenAIRuntime/Coding/UnionCaseDecoder.swift Sources/OpenAIRuntime/Coding/AbsentValueDecoder.swift \
    Sources/OpenAIRuntime/Coding/DecodingMode.swift Sources/OpenAIRuntime/Coding/AnyCodingKey.swift \
    Benchmarks/PartialJSON/main.swift -o "$scratch/bench" >&2
echo "# bench-partial-json ($(uname -m), $(nproc) cores)"
"$scratch/bench" "$runs" "$divisor"
