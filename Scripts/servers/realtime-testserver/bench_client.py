#!/usr/bin/env python3
"""The Python `websockets` client side of Scripts/bench/bench-realtime.sh.

Does exactly what the Swift benchmark (Benchmarks/Realtime/main.swift) does against the same /bench route:
ROUND_TRIPS round trips of a small JSON event, then APPENDS input_audio_buffer.append events each
carrying 100 ms of 24 kHz PCM16 audio (4800 bytes, base64), a commit, and waits for the counts (bench.committed).
Prints one JSON line with rtt_median_ms, rtt_p99_ms, append_messages_per_s, append_mb_per_s and
append_cpu_us_per_message (this process's CPU time, user + system, over the append phase).

--layer session (the counterpart of the Swift session layer, and of what the `openai` Python SDK
does per event): each client event is a dict serialised with json.dumps, each append base64-encodes
its audio, each server message is parsed with json.loads. --layer transport (the counterpart of the
Swift transport-only run): prebuilt JSON text, the audio encoded once, replies not parsed.
"""

import argparse
import asyncio
import base64
import json
import os
import time

from websockets.asyncio.client import connect


def percentile(sorted_values, fraction):
    index = min(len(sorted_values) - 1, int(round(fraction * (len(sorted_values) - 1))))
    return sorted_values[index]


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--round-trips", type=int, default=2000)
    parser.add_argument("--appends", type=int, default=2000)
    parser.add_argument("--layer", choices=["session", "transport"], default="session")
    args = parser.parse_args()
    # compression=None: the Swift client does not offer permessage-deflate either.
    async with connect(args.url, compression=None, max_size=64 * 1024 * 1024, ping_interval=None) as ws:
        session = args.layer == "session"

        async def round_trip(index):
            if session:
                await ws.send(json.dumps({"type": "response.create", "event_id": f"evt_{index}"}))
                json.loads(await ws.recv())
            else:
                await ws.send('{"type":"response.create","event_id":"evt_%06d"}' % index)
                await ws.recv()

        for i in range(50):
            await round_trip(i)
        rtts = []
        for i in range(args.round_trips):
            start = time.perf_counter()
            await round_trip(i)
            rtts.append((time.perf_counter() - start) * 1000)
        rtts.sort()
        audio = os.urandom(4800)
        prebuilt = '{"type":"input_audio_buffer.append","audio":"%s"}' % base64.b64encode(audio).decode()
        start = time.perf_counter()
        cpu_start = time.process_time()
        for _ in range(args.appends):
            if session:
                await ws.send(json.dumps({
                    "type": "input_audio_buffer.append",
                    "audio": base64.b64encode(audio).decode(),
                }, separators=(",", ":")))
            else:
                await ws.send(prebuilt)
        await ws.send('{"type":"input_audio_buffer.commit"}')
        reply = json.loads(await ws.recv())
        elapsed = time.perf_counter() - start
        cpu = time.process_time() - cpu_start
        assert reply["appends"] == args.appends, reply
        print(json.dumps({
            "client": f"python-websockets-{args.layer}",
            "rtt_median_ms": percentile(rtts, 0.5),
            "rtt_p99_ms": percentile(rtts, 0.99),
            "append_messages_per_s": args.appends / elapsed,
            "append_mb_per_s": reply["bytes"] / elapsed / 1e6,
            "append_cpu_us_per_message": cpu / args.appends * 1e6,
        }))


if __name__ == "__main__":
    asyncio.run(main())
