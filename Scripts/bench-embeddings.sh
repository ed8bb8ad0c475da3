#!/usr/bin/env bash
# Benchmarks embeddings replies in release mode: bytes and median decode time of the float form
# against the base64 form that client.embeddings.create asks for when the caller does not choose
# (decoded into the same floats).
#
# Usage: Scripts/bench-embeddings.sh [runs] [vectors] [dimensions]   (defaults 15, 64, 1536)
# Environment: SCRATCH_PATH=DIR builds in DIR (default .build-bench).
# Last lines: float_reply_bytes, base64_reply_bytes, float_decode_ms, base64_decode_ms,
#             bytes_ratio_base64_vs_float, decode_speedup_base64_vs_float.
set -euo pipefail
# shellcheck source=lib.sh source-path=SCRIPTDIR
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"
set_swift_flags .build-bench
swift build -c release --product openai-bench-embeddings ${SWIFT_FLAGS[@]+"${SWIFT_FLAGS[@]}"} >&2
"$(swift_bin_path release)/openai-bench-embeddings" "$@"
