#!/usr/bin/env python3
"""Local OpenAI API test server: validates every request against the locked OpenAPI spec, answers with
the spec's examples, fixtures or synthesised values, injects faults, and records what it received.

Usage (see README.md):
    python Scripts/servers/testserver/server.py --spec ../shared/spec/openapi.yaml --fixtures ../shared/fixtures \
        --port 0 --port-file /tmp/port --exit-on-stdin-eof
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import sys
import threading
import time
from pathlib import Path

_START = time.monotonic()
sys.path.insert(0, str(Path(__file__).resolve().parent))

from aiohttp import web  # noqa: E402

import handler  # noqa: E402
import spec_model  # noqa: E402
from schemas import Schemas  # noqa: E402


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Command-line options."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spec", required=True, help="path to openapi.yaml")
    parser.add_argument("--fixtures", default=None, help="fixtures directory (for x-testserver-fixture)")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    parser.add_argument("--port-file", default=None, help="written (atomically) with the port once listening")
    parser.add_argument(
        "--second-port-file",
        default=None,
        help="also listen on a second free port (another origin, for redirect tests) and write it here",
    )
    parser.add_argument("--tls-cert", default=None)
    parser.add_argument("--tls-key", default=None)
    parser.add_argument("--exit-on-stdin-eof", action="store_true", help="exit when stdin closes")
    parser.add_argument("--cache-dir", default=None, help="pickle cache of the parsed spec (default: tmp)")
    parser.add_argument("--max-records", type=int, default=10000, help="requests kept in memory")
    parser.add_argument("--verbose", action="store_true", help="one line per request on stderr")
    return parser.parse_args(argv)


def write_port_file(path: str, port: int) -> None:
    """Write `<port>\\n` atomically (temp file + rename) so a poller never reads a partial number."""
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "w") as handle:
        handle.write(f"{port}\n")
    os.replace(tmp, path)


def _watch_stdin(loop: asyncio.AbstractEventLoop, stop: asyncio.Event) -> None:
    try:
        while sys.stdin.buffer.read1(65536) if hasattr(sys.stdin.buffer, "read1") else sys.stdin.buffer.read(1):
            pass
    except (OSError, ValueError):
        pass
    loop.call_soon_threadsafe(stop.set)


async def serve(args: argparse.Namespace) -> None:
    """Load the spec, bind, write the port file, serve until SIGTERM/SIGINT or stdin EOF."""
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    if args.exit_on_stdin_eof:
        threading.Thread(target=_watch_stdin, args=(loop, stop), daemon=True).start()
    model, cache_hit = spec_model.load_model(args.spec, args.cache_dir)
    schemas = Schemas(model.registry_document)
    fixtures = Path(args.fixtures).resolve() if args.fixtures else None
    state = handler.ServerState(model, schemas, fixtures, args.max_records, args.verbose)
    app = web.Application(client_max_size=1 << 40)
    app.router.add_route("*", "/{tail:.*}", state.handle)
    runner = web.AppRunner(app, access_log=None, handler_cancellation=True, shutdown_timeout=1.0)
    await runner.setup()
    ssl_context = None
    if args.tls_cert:
        import ssl

        ssl_context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        ssl_context.load_cert_chain(args.tls_cert, args.tls_key)
    site = web.TCPSite(runner, args.host, args.port, ssl_context=ssl_context, backlog=1024)
    await site.start()
    port = runner.addresses[0][1]
    if args.second_port_file:
        second = web.TCPSite(runner, args.host, 0, ssl_context=ssl_context, backlog=1024)
        await second.start()
        write_port_file(args.second_port_file, runner.addresses[1][1])
    state.startup_seconds = time.monotonic() - _START
    state.cache_hit = cache_hit
    if args.port_file:
        write_port_file(args.port_file, port)
    print(
        f"testserver listening on {args.host}:{port} ({len(model.operations)} operations, "
        f"start-up {state.startup_seconds:.3f} s, spec cache {'hit' if cache_hit else 'miss'})",
        file=sys.stderr,
        flush=True,
    )
    await stop.wait()
    try:  # a graceful close for idle keep-alive connections; open streams are not waited for
        await asyncio.wait_for(runner.cleanup(), timeout=0.5)
    except (asyncio.TimeoutError, Exception):  # noqa: BLE001 - exiting anyway
        pass
    sys.stderr.flush()
    os._exit(0)


def main(argv: list[str] | None = None) -> None:
    """Entry point."""
    asyncio.run(serve(parse_args(argv)))


if __name__ == "__main__":
    main()
