#!/usr/bin/env bash
# Benchmarks the SDK runtime's per-request overhead against bare URLSession, in release mode, on
# the local test server (Scripts/servers/testserver, request validation off).
#
# Both clients send the same GET /models/{model} exchange; the SDK also builds the request, runs
# its retry loop and delegate transport and decodes the JSON reply. Rounds alternate bare / SDK;
# medians of requests per second are compared with 1 and 16 concurrent tasks. Ends with:
#   overhead_ratio_c1: <x>    SDK time per request / bare URLSession time per request, 1 task
#   overhead_ratio_c16: <x>   the same with 16 concurrent tasks
#
# Usage: Scripts/bench/bench-runtime.sh [rounds] [requests-per-round]     (default 5 rounds of 400)
# Environment:
#   BENCH_RUNTIME_BUILD=standalone (default)  compile the runtime target (Sources/OpenAIRuntime)
#                                             and the benchmark as one module with swiftc -O: needs
#                                             no generated code
#   BENCH_RUNTIME_BUILD=spm                   swift build -c release --product openai-bench-runtime (the
#                                             whole OpenAI module; calls client.models.retrieve)
#   OPENAI_TEST_PYTHON                        the test server's Python (default Scripts/.venv/bin/python)
#   BENCH_SMOKE=1                             smoke mode (Scripts/bench/test-benchmarks.sh): one round of 20 requests;
#                                             standalone compiled with -Onone, spm the debug openai-bench-runtime of
#                                             SCRATCH_PATH or .build (no release build); the figures mean nothing
#   BENCH_RUNTIME_ONLY=sdk|bare               profiling: warm up that client alone, then send
#                                             requests-per-round requests with it, one at a time
#                                             (rounds ignored); no ratios
#   BENCH_RUNTIME_REUSE=1                     standalone: run the binary the last build left in
#                                             .build-bench-runtime when there is one, without building
#   BENCH_RUNTIME_WRAPPER                     a command the benchmark runs under, split at spaces, e.g.
#                                             "valgrind --tool=callgrind --callgrind-out-file=sdk.out"
# Per-request instruction counts, without the noise of wall-clock time: the slope of callgrind's
# totals between two counts, e.g. 200 and 600 requests:
#   BENCH_RUNTIME_ONLY=sdk BENCH_RUNTIME_WRAPPER="valgrind --tool=callgrind --callgrind-out-file=/tmp/sdk-600.out" \
#       Scripts/bench/bench-runtime.sh 1 600
set -euo pipefail

# shellcheck source=lib.sh source-path=SCRIPTDIR/..
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$ROOT"
rounds="${1:-5}"
per_round="${2:-400}"
if bench_smoke; then
    rounds=1
    per_round=20
fi
mode="${BENCH_RUNTIME_BUILD:-standalone}"
scratch=".build-bench-runtime"
python="${OPENAI_TEST_PYTHON:-Scripts/.venv/bin/python}"

if [[ ! -x "$python" ]] && ! command -v "$python" >/dev/null; then
    echo "no Python for the test server ($python): run Scripts/test.sh first" >&2
    exit 1
fi

mkdir -p "$scratch"
if [[ "$mode" == "spm" ]]; then
    binary="$(bench_product openai-bench-runtime "$scratch")"
else
    # The whole runtime target (it compiles without the generated code), with its C module on Linux: requests
    # take the path they take in the SDK there (libcurl directly).
    sources=()
    while IFS= read -r file; do
        sources+=("$file")
    done < <(find Sources/OpenAIRuntime -name '*.swift' | LC_ALL=C sort)
    binary="$scratch/bench-runtime"
fi
if [[ "$mode" != "spm" && ! ( "${BENCH_RUNTIME_REUSE:-}" == 1 && -x "$binary" ) ]]; then
    rm -f "$binary"
    set_bench_swiftc_flags
    # The C module (Sources/CLibcurl, `OpenAIRuntimeLibcurl` in Package.swift) as SwiftPM builds it: the shim's object
    # and a module map of its header.
    c_module=()
    if [[ "$(uname -s)" == "Linux" ]]; then
        mkdir -p "$scratch/CLibcurl"
        printf 'module OpenAIRuntimeLibcurl {\n    header "%s"\n    export *\n}\n' \
            "$ROOT/Sources/CLibcurl/include/CLibcurl.h" >"$scratch/CLibcurl/module.modulemap"
        clang -O2 -fPIC -c Sources/CLibcurl/shim.c -I Sources/CLibcurl/include -o "$scratch/CLibcurl/shim.o"
        c_module=(-I "$scratch/CLibcurl" "$scratch/CLibcurl/shim.o")
    fi
    # `-package-name`: the runtime's `package` declarations need one.
    if ! swiftc "${BENCH_SWIFTC_FLAGS[@]}" -module-name OpenAIBench -package-name openai -D STANDALONE -swift-version 6 \
        ${c_module[@]+"${c_module[@]}"} "${sources[@]}" Benchmarks/Runtime/main.swift -o "$binary" >&2; then
        echo "benchmark build failed" >&2
        exit 1
    fi
fi

port_file="$(mktemp -u "${TMPDIR:-/tmp}/openai-testserver-bench-XXXXXX.port")"
exec 3> >("$python" Scripts/servers/testserver/server.py --spec ../shared/spec/openapi.yaml --fixtures ../shared/fixtures \
    --port 0 --port-file "$port_file" --exit-on-stdin-eof --max-records 100 >/dev/null 2>&1)
for _ in $(seq 1 600); do
    [[ -s "$port_file" ]] && break
    sleep 0.05
done
[[ -s "$port_file" ]] || { echo "the test server did not start" >&2; exit 1; }
port="$(tr -d '[:space:]' < "$port_file")"
rm -f "$port_file"

wrapper=()
read -ra wrapper <<< "${BENCH_RUNTIME_WRAPPER:-}"
${wrapper[@]+"${wrapper[@]}"} "$binary" "http://127.0.0.1:$port/v1" "$rounds" "$per_round"
exec 3>&-
