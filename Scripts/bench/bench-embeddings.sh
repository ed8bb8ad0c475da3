#!/usr/bin/env bash
# Benchmarks embeddings replies in release mode: bytes and median decode time of the float form
# against the base64 form that client.embeddings.create asks for when the caller does not choose
# (decoded into the same floats).
#
# Usage: Scripts/bench/bench-embeddings.sh [runs] [vectors] [dimensions]   (defaults 15, 64, 1536)
# Environment:
#   SCRATCH_PATH=DIR  builds in DIR (default .build-bench).
#   BENCH_SMOKE=1  smoke mode (Scripts/bench/test-benchmarks.sh): the debug openai-bench-embeddings of SCRATCH_PATH or .build
#                  (no release build), 3 runs of 4 vectors x 64 dimensions; the figures mean nothing
# Last lines: float_reply_bytes, base64_reply_bytes, float_decode_ms, base64_decode_ms,
#             bytes_ratio_base64_vs_float, decode_speedup_base64_vs_float.
set -euo pipefail
# shellcheck source=lib.sh source-path=SCRIPTDIR/..
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$ROOT"
if bench_smoke; then
    set -- 3 4 64
fi
bench="$(bench_product openai-bench-embeddings "${SCRATCH_PATH:-.build-bench}")"
"$bench" "$@"
