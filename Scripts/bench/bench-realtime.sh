#!/usr/bin/env bash
# Benchmark of OpenAIRealtime against a Python `websockets` client, all talking to the same local
# server (Scripts/servers/realtime-testserver/server.py, route /bench) in the same run. Each side runs at two
# layers, and each Swift layer is compared with the Python client doing the same work:
#   - session: Swift through RealtimeSession (generated client events encoded, every server message
#     decoded into RealtimeServerEvent, appendAudio(_:) base64-encoding the PCM16 of every event);
#     Python the way the `openai` Python SDK sends and reads events (json.dumps of a dict per event,
#     base64.b64encode per append, json.loads per server message).
#   - transport: both send prebuilt JSON text (audio encoded once) and do not parse replies.
# Measured: round trip of a small JSON event over loopback (median and p99 over ROUND_TRIPS), and
# throughput of input_audio_buffer.append events carrying 100 ms of 24 kHz PCM16 audio (4800 bytes,
# base64) each: APPENDS back to back, then a commit answered by the server; and the client's CPU
# time per append (user + system, all threads). The server is one Python process; when a client
# sends faster than it parses, the server is the bottleneck and works harder per message on the
# larger reads, so messages/s then measures the server and CPU per message measures the client.
# Each client runs RUNS times, interleaved, each run against a fresh server process; the median run
# of each figure is reported.
# The last three lines are the interface the project's checks read, for the session layer (what
# callers use); the transport's ratio is printed just above them:
#   rtt_median_ms: <x>   rtt_p99_ms: <x>   append_throughput_ratio_vs_python: <x>  (Swift / Python, >1 = faster)
# Environment: ROUND_TRIPS (2000), APPENDS (40000), RUNS (5), OPENAI_TEST_PYTHON (Scripts/.venv/bin/python),
# SCRATCH_PATH (.build-bench), PACKAGE_PATH (the repository root).
# BENCH_SMOKE=1: smoke mode (Scripts/bench/test-benchmarks.sh): the debug openai-bench-realtime of SCRATCH_PATH or .build (no
# release build), one run of 20 round trips and 200 appends per client; the figures mean nothing.
set -euo pipefail
# shellcheck source=lib.sh source-path=SCRIPTDIR/..
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
cd "$ROOT"
python=${OPENAI_TEST_PYTHON:-Scripts/.venv/bin/python}
round_trips=${ROUND_TRIPS:-2000}
appends=${APPENDS:-40000}
runs=${RUNS:-5}
if bench_smoke; then
    round_trips=20
    appends=200
    runs=1
fi
scratch=${SCRATCH_PATH:-.build-bench}

if ! "$python" -c "import websockets.asyncio.client" 2>/dev/null; then
    echo "bench-realtime: $python lacks websockets; run:" >&2
    echo "  python3 -m venv Scripts/.venv && Scripts/.venv/bin/pip install -r Scripts/servers/realtime-testserver/requirements.txt" >&2
    exit 1
fi

bench="$(bench_product openai-bench-realtime "$scratch" --package-path "${PACKAGE_PATH:-.}")"

work=$(temp_dir bench-realtime)
server_pid=""
trap 'exec 9>&- 2>/dev/null; [ -n "$server_pid" ] && wait $server_pid 2>/dev/null; rm -rf "$work"' EXIT

# A fresh server for every run: how fast one server process serves a client varies from process to
# process on this 2-core machine (where its thread lands next to the client's), so the medians are
# taken across server processes, every client meeting each of them.
start_server() {
    rm -f "$work/stdin" "$work/ports"
    mkfifo "$work/stdin"
    # The server exits when its stdin closes: keep the fifo open on fd 9 while the run lasts.
    # Fixed glibc malloc thresholds for the server: with the default, dynamic ones, its first burst
    # of 256 KiB reads raises the mmap threshold, and from then on every large read buffer grows and
    # trims the heap with brk(2) and fresh page faults; a fast client then measured ~70,000
    # appends/s instead of ~115,000 from its second connection on (the Python client, which never
    # fills the server's socket buffer, is unaffected: ~90,000 either way).
    MALLOC_MMAP_THRESHOLD_=1048576 MALLOC_TRIM_THRESHOLD_=268435456 \
        "$python" Scripts/servers/realtime-testserver/server.py <"$work/stdin" >"$work/ports" &
    server_pid=$!
    exec 9>"$work/stdin"
    for _ in $(seq 50); do [ -s "$work/ports" ] && break; sleep 0.1; done
    port=$("$python" -c "import json,sys; print(json.load(open(sys.argv[1]))['plain'])" "$work/ports")
    url="ws://127.0.0.1:$port/bench"
}

stop_server() {
    exec 9>&-
    wait "$server_pid" 2>/dev/null || true
    server_pid=""
}

for _ in $(seq "$runs"); do
    start_server
    for layer in session transport; do
        "$bench" --layer "$layer" --url "$url" --round-trips "$round_trips" --appends "$appends" \
            >>"$work/swift-$layer.jsonl"
        "$python" Scripts/servers/realtime-testserver/bench_client.py --layer "$layer" --url "$url" \
            --round-trips "$round_trips" --appends "$appends" >>"$work/python-$layer.jsonl"
    done
    stop_server
done

"$python" Scripts/bench/benchlib.py realtime-report "$work" "$round_trips" "$appends" "$runs"
