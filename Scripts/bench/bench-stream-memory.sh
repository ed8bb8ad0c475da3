#!/usr/bin/env bash
# Benchmarks the memory a stream holds when its consumer is slower than the network (release mode).
#
# A local server (Python's standard library) sends server-sent events of 64 KiB as fast as the
# socket takes them; the client reads them through its streaming path (transport, framing,
# decoding as JSONValue) and sleeps after each event. Peak RSS is measured for a short and a
# 8x longer stream: with back-pressure (the transport stops reading while the consumer is 1 MiB
# behind) the two are about the same; without it the longer stream's whole body is held.
#
# Ends with:
#   stream_peak_rss_kib_short: <n>   median of runs, 32 MiB stream
#   stream_peak_rss_kib_long: <n>    median of runs, 256 MiB stream
#   stream_rss_ratio_8x: <x>         long / short (goal: about 1, independent of the length)
#
# Usage: Scripts/bench/bench-stream-memory.sh [runs] [delay-ms]     (default 3 runs, 1 ms per event)
# Environment:
#   BENCH_SMOKE=1   smoke mode (Scripts/bench/test-benchmarks.sh): compiled with -Onone, one run of 1 MiB and of 8 MiB; the
#                   figures mean nothing
set -euo pipefail

# shellcheck source=lib.sh source-path=SCRIPTDIR/..
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$ROOT"
runs="${1:-3}"
delay="${2:-1}"
short=32 # MiB
long=256
if bench_smoke; then
    runs=1
    short=1
    long=8
fi
scratch=".build-bench-stream-memory"
mkdir -p "$scratch/include"

# The runtime's sources and the benchmark as one module, with the libcurl shim (the direct path
# that Linux streams take).
sources=()
while IFS= read -r file; do
    sources+=("$file")
done < <(find Sources/OpenAIRuntime -name '*.swift' | LC_ALL=C sort)
binary="$scratch/bench-stream-memory"
extra=()
if [[ "$(uname -s)" == "Linux" ]]; then
    cp Sources/CLibcurl/include/CLibcurl.h "$scratch/include/"
    printf 'module OpenAIRuntimeLibcurl {\n    header "CLibcurl.h"\n    export *\n}\n' >"$scratch/include/module.modulemap"
    clang -O2 -c Sources/CLibcurl/shim.c -I Sources/CLibcurl/include -o "$scratch/shim.o"
    extra=(-I include shim.o -ldl)  # relative to the scratch folder, where swiftc runs
fi
set_bench_swiftc_flags
# In the scratch folder: with an object file among its inputs, swiftc leaves the module's files in the current one.
(cd "$scratch" && swiftc "${BENCH_SWIFTC_FLAGS[@]}" -module-name OpenAIBench -package-name openai -swift-version 6 \
    ${extra[@]+"${extra[@]}"} "${sources[@]/#/$ROOT/}" "$ROOT/Benchmarks/StreamMemory/main.swift" \
    -o "$(basename "$binary")" >&2)

port_file="$scratch/port"
rm -f "$port_file"
python3 "$ROOT/Scripts/bench/benchlib.py" sse-server "$port_file" &
server_pid=$!
trap 'kill "$server_pid" 2>/dev/null || true' EXIT
for _ in $(seq 100); do [[ -s "$port_file" ]] && break; sleep 0.05; done
url="http://127.0.0.1:$(cat "$port_file")/v1"

echo "# bench-stream-memory ($(uname -m), $(nproc) cores, ${delay} ms per 64 KiB event)"
declare -A peaks
for size in "$short" "$long"; do
    values=()
    for _ in $(seq "$runs"); do
        line="$("$binary" "$url" "$size" "$delay")"
        echo "${size} MiB: $line"
        values+=("$(awk '{ print $2 }' <<<"$line")")
    done
    peaks[$size]="$(median "${values[@]}")"
done
echo "stream_peak_rss_kib_short: ${peaks[$short]}"
echo "stream_peak_rss_kib_long: ${peaks[$long]}"
awk -v a="${peaks[$long]}" -v b="${peaks[$short]}" 'BEGIN { printf "stream_rss_ratio_8x: %.2f\n", a / b }'
