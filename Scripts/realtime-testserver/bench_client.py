#!/usr/bin/env python3
"""The Python `websockets` client side of Scripts/bench-realtime.sh.

Does exactly what the Swift benchmark (swift-bench/main.swift) does against the same /bench route:
ROUND_TRIPS round trips of a small JSON event, then APPENDS input_audio_buffer.append events each
carrying 100 ms of 24 kHz PCM16 audio (4800 bytes, base64), a commit, and waits for "committed".
Prints one JSON line with rtt_median_ms, rtt_p99_ms, append_messages_per_s, append_mb_per_s.
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
    args = parser.parse_args()
    # compression=None: the Swift client does not offer permessage-deflate either.
    async with connect(args.url, compression=None, max_size=64 * 1024 * 1024, ping_interval=None) as ws:
        event = '{"type":"response.create","event_id":"evt_%06d"}'
        for i in range(50):
            await ws.send(event % i)
            await ws.recv()
        rtts = []
        for i in range(args.round_trips):
            start = time.perf_counter()
            await ws.send(event % i)
            await ws.recv()
            rtts.append((time.perf_counter() - start) * 1000)
        rtts.sort()
        audio = base64.b64encode(os.urandom(4800)).decode()
        message = '{"type":"input_audio_buffer.append","audio":"%s"}' % audio
        start = time.perf_counter()
        for _ in range(args.appends):
            await ws.send(message)
        await ws.send('{"type":"input_audio_buffer.commit"}')
        reply = json.loads(await ws.recv())
        elapsed = time.perf_counter() - start
        assert reply["appends"] == args.appends, reply
        print(json.dumps({
            "client": "python-websockets",
            "rtt_median_ms": percentile(rtts, 0.5),
            "rtt_p99_ms": percentile(rtts, 0.99),
            "append_messages_per_s": args.appends / elapsed,
            "append_mb_per_s": reply["bytes"] / elapsed / 1e6,
        }))


if __name__ == "__main__":
    asyncio.run(main())
