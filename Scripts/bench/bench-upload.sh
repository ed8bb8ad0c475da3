#!/usr/bin/env bash
# Benchmarks a large multipart upload: one file of SIZE_MIB MiB sent through createFile
# (POST /files, multipart/form-data, the file streamed from disk) to the local test server, which
# discards the bytes as they arrive (x-testserver-discard-body: true). In the same run, curl -F
# uploads the same file to the same server for comparison.
#
# The Swift upload runs in its own process (Benchmarks/Upload) under /usr/bin/time -v, so its
# peak RSS is the whole client's. Each side runs BENCH_UPLOAD_RUNS times (default 3), curl and
# Swift alternating; the median throughputs of the two sides are compared (the machine is shared,
# so single runs vary), and the highest RSS of any Swift run is reported.
# Ends with the two summary lines the project's checks read:
#   peak_rss_mib: <x>                 peak RSS of the Swift client process, MiB (goal: < 64)
#   throughput_ratio_vs_curl: <x>     Swift MiB/s / curl MiB/s (goal: >= 0.8)
#
# Usage: Scripts/bench/bench-upload.sh [SIZE_MIB]      (default 1024)
# Environment:
#   BENCH_UPLOAD_BUILD=standalone (default)  swiftc -O the runtime target (Sources/OpenAIRuntime)
#                        and Benchmarks/Upload/main.swift as one module; the
#                        request is built as the generated client.files.create builds it (fast)
#   BENCH_UPLOAD_BUILD=spm   swift build -c release --product openai-bench-upload: the real generated
#                        client.files.create (builds the whole OpenAI module, slow)
#   BENCH_UPLOAD_RUNS=N      runs per side (default 3)
#   BENCH_UPLOAD_SOURCES=DIR the runtime's sources for the standalone build (default Sources/OpenAIRuntime)
#   OPENAI_TEST_PYTHON       the Python with the test server's requirements (default Scripts/.venv)
#   BENCH_SMOKE=1            smoke mode (Scripts/bench/test-benchmarks.sh): one run per side of a 1 MiB file; standalone
#                        compiled with -Onone, spm the debug openai-bench-upload of SCRATCH_PATH or .build (no release
#                        build); the figures mean nothing
set -euo pipefail

# shellcheck source=lib.sh source-path=SCRIPTDIR/..
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$ROOT"
size_mib="${1:-1024}"
mode="${BENCH_UPLOAD_BUILD:-standalone}"
runs="${BENCH_UPLOAD_RUNS:-3}"
if bench_smoke; then
    size_mib=1
    runs=1
fi
scratch=".build-bench-upload"
python="${OPENAI_TEST_PYTHON:-Scripts/.venv/bin/python}"
spec="../shared/spec/openapi.yaml"
sources="${BENCH_UPLOAD_SOURCES:-Sources/OpenAIRuntime}"
mkdir -p "$scratch"

[[ -f "$spec" ]] || { echo "bench-upload: $spec is missing" >&2; exit 1; }
[[ -x "$python" ]] || command -v "$python" >/dev/null || {
    echo "bench-upload: no Python at $python (run Scripts/test.sh or set OPENAI_TEST_PYTHON)" >&2
    exit 1
}

if [[ "$mode" == "spm" ]]; then
    binary="$(bench_product openai-bench-upload "$scratch")"
else
    binary="$scratch/bench-upload-standalone"
    runtime_sources=()
    while IFS= read -r source; do
        runtime_sources+=("$source")
    done < <(find "$sources" -name '*.swift' | LC_ALL=C sort)
    # The OpenAIRuntimeLibcurl C target as SwiftPM builds it: its object file and a module map for its header,
    # so that the direct libcurl upload path (Transport/Curl/CurlUpload.swift) is in the build.
    clibcurl="$scratch/clibcurl"
    mkdir -p "$clibcurl"
    cc -O2 -fPIC -c Sources/CLibcurl/shim.c -I Sources/CLibcurl/include -o "$clibcurl/shim.o"
    printf 'module OpenAIRuntimeLibcurl {\n    header "%s"\n    export *\n}\n' \
        "$PWD/Sources/CLibcurl/include/CLibcurl.h" >"$clibcurl/module.modulemap"
    set_bench_swiftc_flags
    swiftc "${BENCH_SWIFTC_FLAGS[@]}" -swift-version 6 -module-name OpenAI -package-name openai -D BENCH_STANDALONE \
        -Xcc -fmodule-map-file="$clibcurl/module.modulemap" "$clibcurl/shim.o" -ldl \
        "${runtime_sources[@]}" Benchmarks/Upload/main.swift -o "$binary" >&2
fi

file="$scratch/upload-${size_mib}MiB.bin"
bytes=$((size_mib * 1048576))
if [[ ! -f "$file" ]] || [[ "$(stat -c %s "$file")" -ne "$bytes" ]]; then
    echo "# writing $file ($size_mib MiB of random bytes)" >&2
    head -c "$bytes" /dev/urandom >"$file"
fi

port_file="$(mktemp -u "${TMPDIR:-/tmp}/openai-testserver-bench-XXXXXX.port")"
"$python" Scripts/servers/testserver/server.py --spec "$spec" --port 0 --port-file "$port_file" \
    >"$scratch/server.log" 2>&1 &
server_pid=$!
trap 'kill "$server_pid" 2>/dev/null || true; rm -f "$port_file"' EXIT
for _ in $(seq 1 3000); do
    [[ -s "$port_file" ]] && break
    kill -0 "$server_pid" 2>/dev/null || { echo "bench-upload: the test server exited" >&2; exit 1; }
    sleep 0.02
done
port="$(tr -d '[:space:]' <"$port_file")"
base="http://127.0.0.1:$port/v1"

echo "# bench-upload: $size_mib MiB through createFile to $base ($mode build, $(uname -m), $(nproc) cores)"
curl_rates=()
swift_rates=()
peak_kib=0
for run in $(seq 1 "$runs"); do
    read -r curl_bytes curl_seconds < <(curl -sS -o /dev/null -w '%{size_upload} %{time_total}\n' \
        -H "Authorization: Bearer sk-bench" -H "x-testserver-discard-body: true" \
        -H "x-testserver-validate: false" -H "Expect:" \
        -F purpose=batch -F "file=@$file;filename=upload.bin" "$base/files")
    curl_rate="$(awk -v b="$curl_bytes" -v s="$curl_seconds" 'BEGIN { printf "%.1f", b / 1048576 / s }')"
    echo "run $run curl:  $curl_bytes bytes in $curl_seconds s = $curl_rate MiB/s"

    /usr/bin/time -v "$binary" "$file" "$base" >"$scratch/swift.out" 2>"$scratch/time.txt" || {
        cat "$scratch/time.txt" >&2
        exit 1
    }
    swift_rate="$(awk '/^mib_per_s:/ {print $2}' "$scratch/swift.out")"
    swift_seconds="$(awk '/^seconds:/ {print $2}' "$scratch/swift.out")"
    rss_kib="$(awk -F': ' '/Maximum resident set size/ {print $2}' "$scratch/time.txt")"
    echo "run $run swift: $(awk '/^bytes:/ {print $2}' "$scratch/swift.out") bytes in $swift_seconds s = $swift_rate MiB/s, peak RSS $((rss_kib / 1024)) MiB"

    curl_rates+=("$curl_rate")
    swift_rates+=("$swift_rate")
    if (( rss_kib > peak_kib )); then peak_kib="$rss_kib"; fi
done

median_curl="$(median "${curl_rates[@]}")"
median_swift="$(median "${swift_rates[@]}")"
echo "median curl MiB/s: $median_curl (runs: ${curl_rates[*]})"
echo "median swift MiB/s: $median_swift (runs: ${swift_rates[*]})"
awk -v k="$peak_kib" 'BEGIN { printf "peak_rss_mib: %.1f\n", k / 1024 }'
awk -v s="$median_swift" -v c="$median_curl" 'BEGIN { printf "throughput_ratio_vs_curl: %.3f\n", s / c }'
