#!/bin/sh
# Benchmark of OpenAIRealtime against a Python `websockets` client, all talking to the same local
# server (Scripts/realtime-testserver/server.py, route /bench) in the same run. The Swift client runs
# twice: through the typed session layer (RealtimeSession: generated client events encoded, every
# server message decoded into RealtimeServerEvent, appendAudio(_:) base64-encoding PCM16) and over
# the bare WebSocket transport (prebuilt JSON text, replies not decoded). Measured:
#   - round trip of a small JSON event over loopback (median and p99 over ROUND_TRIPS),
#   - throughput of input_audio_buffer.append events carrying 100 ms of 24 kHz PCM16 audio
#     (4800 bytes, base64) each: APPENDS back to back, then a commit answered by the server.
# Each client runs RUNS times, alternating; the median run of each figure is reported.
# The last three lines are the interface the project's checks read, for the session layer (what
# callers use); the transport's ratio is printed just above them:
#   rtt_median_ms: <x>   rtt_p99_ms: <x>   append_throughput_ratio_vs_python: <x>  (Swift / Python, >1 = faster)
# Environment: ROUND_TRIPS (2000), APPENDS (10000), RUNS (3), OPENAI_TEST_PYTHON (Scripts/.venv/bin/python),
# SCRATCH_PATH (.build-bench), PACKAGE_PATH (the repository root).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
python=${OPENAI_TEST_PYTHON:-Scripts/.venv/bin/python}
round_trips=${ROUND_TRIPS:-2000}
appends=${APPENDS:-10000}
runs=${RUNS:-3}
scratch=${SCRATCH_PATH:-.build-bench}

if ! "$python" -c "import websockets.asyncio.client" 2>/dev/null; then
    echo "bench-realtime: $python lacks websockets; run:" >&2
    echo "  python3 -m venv Scripts/.venv && Scripts/.venv/bin/pip install -r Scripts/realtime-testserver/requirements.txt" >&2
    exit 1
fi

swift build -c release --package-path "${PACKAGE_PATH:-.}" --scratch-path "$scratch" --product realtime-bench >&2
bench="$scratch/release/realtime-bench"

work=$(mktemp -d)
fifo="$work/stdin"
mkfifo "$fifo"
# The server exits when its stdin closes: keep the fifo open on fd 9 for the length of the run.
"$python" Scripts/realtime-testserver/server.py <"$fifo" >"$work/ports" &
server_pid=$!
exec 9>"$fifo"
trap 'exec 9>&-; wait $server_pid 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 50); do [ -s "$work/ports" ] && break; sleep 0.1; done
port=$("$python" -c "import json,sys; print(json.load(open(sys.argv[1]))['plain'])" "$work/ports")
url="ws://127.0.0.1:$port/bench"

for run in $(seq "$runs"); do
    "$bench" --layer session --url "$url" --round-trips "$round_trips" --appends "$appends" >>"$work/swift.jsonl"
    "$bench" --layer transport --url "$url" --round-trips "$round_trips" --appends "$appends" \
        >>"$work/transport.jsonl"
    "$python" Scripts/realtime-testserver/bench_client.py --url "$url" --round-trips "$round_trips" \
        --appends "$appends" >>"$work/python.jsonl"
done

"$python" - "$work/swift.jsonl" "$work/python.jsonl" "$round_trips" "$appends" "$runs" "$work/transport.jsonl" <<'PY'
import json, statistics, sys
swift = [json.loads(line) for line in open(sys.argv[1])]
python = [json.loads(line) for line in open(sys.argv[2])]
transport = [json.loads(line) for line in open(sys.argv[6])]
def med(rows, key):
    return statistics.median(row[key] for row in rows)
print(f"round trips: {sys.argv[3]}, appends: {sys.argv[4]} x 100 ms of 24 kHz PCM16, runs per client: {sys.argv[5]} (medians)")
print(f"{'client':<24}{'rtt median ms':>15}{'rtt p99 ms':>12}{'appends/s':>12}{'MB/s':>10}")
for name, rows in (("swift session layer", swift), ("swift transport only", transport),
                   ("python (websockets)", python)):
    print(f"{name:<24}{med(rows, 'rtt_median_ms'):>15.4f}{med(rows, 'rtt_p99_ms'):>12.4f}"
          f"{med(rows, 'append_messages_per_s'):>12.0f}{med(rows, 'append_mb_per_s'):>10.1f}")
ratio = med(swift, "append_messages_per_s") / med(python, "append_messages_per_s")
transport_ratio = med(transport, "append_messages_per_s") / med(python, "append_messages_per_s")
print(f"transport_append_throughput_ratio_vs_python: {transport_ratio:.3f}")
print(f"rtt_median_ms: {med(swift, 'rtt_median_ms'):.4f}")
print(f"rtt_p99_ms: {med(swift, 'rtt_p99_ms'):.4f}")
print(f"append_throughput_ratio_vs_python: {ratio:.3f}")
PY
