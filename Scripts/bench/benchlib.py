#!/usr/bin/env python3
"""The benchmark scripts' Python parts, one subcommand each (`python3 Scripts/bench/benchlib.py COMMAND ARGS...`).

  generate-runs GENERATOR SPEC WORK RUNS [OPTION...]
      `GENERATOR generate --spec SPEC --output WORK/generated-<i> OPTION...` RUNS times (bench-generate.sh): prints
      each wall time, the summary and size of the first run, and min/median/max; writes the median to
      WORK/generate_seconds.
  timed-build RESULT_FILE SCRATCH COMMAND...
      one clean build (bench-generate.sh): prints its last line, the wall time, the peak RSS of the largest reaped
      child and the bytes of the object files under SCRATCH; writes the seconds to RESULT_FILE.
  diff-runs GENERATOR OLD NEW RUNS CHECK_STATUSES [DIFF_OPTION...] --check [CHECK_ARGUMENT...]
      `GENERATOR diff OLD NEW --format json` and `GENERATOR check` RUNS times each (bench-diff.sh): prints each wall
      time, the diff's summary and check's last line, and `diff_seconds:` / `check_seconds:` (medians).
      CHECK_STATUSES: comma-separated exit statuses of check that count as success.
  realtime-report WORK ROUND_TRIPS APPENDS RUNS
      the table and ratios of bench-realtime.sh from WORK/{swift,python}-{session,transport}.jsonl (medians).
  sse-server PORT_FILE
      a local HTTP server streaming `data:` events of 64 KiB (bench-stream-memory.sh): POST ...?mib=N sends N MiB of
      events then `data: [DONE]`; writes its port to PORT_FILE and serves until killed.

Exit status: 0 on success; 1 when a command it runs fails (its output's end is printed); 2 usage error.
"""

from __future__ import annotations

import http.server
import json
import os
import resource
import statistics
import subprocess
import sys
import time
import urllib.parse
from collections.abc import Callable, Sequence


def timed(run: Callable[[int], float], runs: int) -> list[float]:
    """Calls `run` with each run's index (0, 1, …) `runs` times; it returns its wall time, printed here."""
    times = []
    for index in range(runs):
        elapsed = run(index)
        times.append(elapsed)
        print(f"run {index + 1}/{runs}: {elapsed:.3f} s", flush=True)
    return times


def spread(times: Sequence[float]) -> str:
    """`min …, median …, max …` of wall times in seconds."""
    return f"min {min(times):.3f} s, median {statistics.median(times):.3f} s, max {max(times):.3f} s"


def tree_size(folder: str, suffix: str = "") -> tuple[int, int]:
    """The number of files under `folder` ending in `suffix`, and their bytes."""
    files = size = 0
    for directory, _, names in os.walk(folder):
        for name in names:
            if name.endswith(suffix):
                files += 1
                size += os.path.getsize(os.path.join(directory, name))
    return files, size


def generate_runs(generator: str, spec: str, work: str, runs: int, options: Sequence[str]) -> float:
    """Runs the generator `runs` times into fresh folders; returns the median wall time in seconds."""

    def run(index: int) -> float:
        out = os.path.join(work, f"generated-{index}")
        start = time.perf_counter()
        command = [generator, "generate", "--spec", spec, "--output", out, *options]
        result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        elapsed = time.perf_counter() - start
        if result.returncode != 0:
            print(result.stdout, end="")
            sys.exit(f"bench-generate: run {index + 1} failed with exit status {result.returncode}")
        if index == 0:
            print("summary of the first run:")
            for line in result.stdout.splitlines()[-25:]:
                print("    " + line)
            files, size = tree_size(out)
            print(f"    ({files} files, {size} bytes written)")
        return elapsed

    times = timed(run, runs)
    print(spread(times))
    median = statistics.median(times)
    with open(os.path.join(work, "generate_seconds"), "w") as handle:
        handle.write(f"{median:.2f}\n")
    return median


def timed_build(result_file: str, scratch: str, command: Sequence[str]) -> float:
    """One build; prints its last line, wall time, peak memory and object bytes; returns the wall time."""
    start = time.perf_counter()
    completed = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    elapsed = time.perf_counter() - start
    if completed.returncode != 0:
        print(completed.stdout[-6000:], end="")
        sys.exit(f"bench-generate: {' '.join(command)} failed with exit status {completed.returncode}")
    # ru_maxrss is in KiB on Linux, in bytes on macOS.
    peak_mib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / (2**20 if sys.platform == "darwin" else 1024)
    _, objects = tree_size(scratch, ".o")
    print((completed.stdout.strip().splitlines() or [""])[-1])
    print(f"wall {elapsed:.2f} s, peak memory {peak_mib:.0f} MiB, object files {objects / 2**20:.1f} MiB")
    with open(result_file, "w") as handle:
        handle.write(f"{elapsed:.2f}\n")
    return elapsed


def command_runs(name: str, command: Sequence[str], runs: int, ok_codes: set[int]) -> float:
    """Runs `command` `runs` times (bench-diff.sh); returns the median wall time in seconds."""
    print(f"\n==> {name}: {' '.join(command)} ({runs} runs)", flush=True)

    def run(index: int) -> float:
        start = time.perf_counter()
        result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        elapsed = time.perf_counter() - start
        if result.returncode not in ok_codes:
            print(result.stdout[-2000:], result.stderr[-2000:], sep="\n")
            sys.exit(f"bench-diff: {name} run {index + 1} failed with exit status {result.returncode}")
        if index == 0:
            if name == "diff":
                summary = json.loads(result.stdout)["summary"]
                last = f"summary: {summary['breaking']} breaking, {summary['warning']} warning, {summary['info']} info"
            else:
                last = (result.stdout.strip().splitlines() or [""])[-1]
            print("    " + last)
        return elapsed

    times = timed(run, runs)
    print(spread(times))
    return statistics.median(times)


def diff_runs(arguments: Sequence[str]) -> None:
    generator, old, new, runs = arguments[0], arguments[1], arguments[2], int(arguments[3])
    check_statuses = {int(status) for status in arguments[4].split(",")}
    rest = list(arguments[5:])
    if "--check" not in rest:
        usage("diff-runs needs --check")
    split = rest.index("--check")
    diff_options, check_arguments = rest[:split], rest[split + 1 :]
    diff_median = command_runs("diff", [generator, "diff", old, new, "--format", "json", *diff_options], runs, {0})
    check_median = command_runs("check", [generator, "check", *check_arguments], runs, check_statuses)
    print("\n==> Results (medians)")
    print(f"diff_seconds: {diff_median:.3f}")
    print(f"check_seconds: {check_median:.3f}")


REALTIME_CLIENTS = (
    ("swift-session", "swift session layer"),
    ("python-session", "python, per-event json/b64"),
    ("swift-transport", "swift transport only"),
    ("python-transport", "python, prebuilt text"),
)


def realtime_report(work: str, round_trips: str, appends: str, runs: str) -> list[str]:
    """The lines bench-realtime.sh prints: a table per client, then `name: value` ratios (Swift over Python)."""
    rows = {}
    for name, _ in REALTIME_CLIENTS:
        with open(os.path.join(work, f"{name}.jsonl")) as handle:
            rows[name] = [json.loads(line) for line in handle if line.strip()]

    def med(name: str, key: str) -> float:
        return statistics.median(row[key] for row in rows[name])

    def ratio(layer: str) -> float:
        return med(f"swift-{layer}", "append_messages_per_s") / med(f"python-{layer}", "append_messages_per_s")

    lines = [
        f"round trips: {round_trips}, appends: {appends} x 100 ms of 24 kHz PCM16, runs per client: {runs} (medians)",
        f"{'client':<28}{'rtt median ms':>15}{'rtt p99 ms':>12}{'appends/s':>12}{'MB/s':>10}{'cpu us/append':>15}",
    ]
    for name, label in REALTIME_CLIENTS:
        lines.append(
            f"{label:<28}{med(name, 'rtt_median_ms'):>15.4f}{med(name, 'rtt_p99_ms'):>12.4f}"
            f"{med(name, 'append_messages_per_s'):>12.0f}{med(name, 'append_mb_per_s'):>10.1f}"
            f"{med(name, 'append_cpu_us_per_message'):>15.2f}"
        )
    for layer in ("session", "transport"):
        rtt = med(f"python-{layer}", "rtt_median_ms") / med(f"swift-{layer}", "rtt_median_ms")
        lines.append(f"{layer}_rtt_median_ratio_vs_python: {rtt:.3f}")
    lines.append(f"transport_append_throughput_ratio_vs_python: {ratio('transport'):.3f}")
    for layer in ("session", "transport"):
        cpu = med(f"python-{layer}", "append_cpu_us_per_message") / med(f"swift-{layer}", "append_cpu_us_per_message")
        lines.append(f"{layer}_append_cpu_efficiency_ratio_vs_python: {cpu:.3f}")
    lines.append(f"rtt_median_ms: {med('swift-session', 'rtt_median_ms'):.4f}")
    lines.append(f"rtt_p99_ms: {med('swift-session', 'rtt_p99_ms'):.4f}")
    lines.append(f"append_throughput_ratio_vs_python: {ratio('session'):.3f}")
    return lines


SSE_EVENT = b"data: " + json.dumps({"text": "x" * (64 * 1024 - 20)}).encode() + b"\n\n"


class SSEHandler(http.server.BaseHTTPRequestHandler):
    """POST ...?mib=N: N MiB of 64 KiB `data:` events, then `data: [DONE]`; the connection closes after."""

    protocol_version = "HTTP/1.1"

    def do_POST(self) -> None:  # noqa: N802 (http.server's name)
        self.rfile.read(int(self.headers.get("content-length") or 0))
        query = urllib.parse.parse_qs(urllib.parse.urlparse(self.path).query)
        count = int(query["mib"][0]) * 1024 * 1024 // len(SSE_EVENT)
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("connection", "close")
        self.end_headers()
        try:
            for _ in range(count):
                self.wfile.write(SSE_EVENT)
            self.wfile.write(b"data: [DONE]\n\n")
        except (BrokenPipeError, ConnectionResetError):
            pass

    def log_message(self, *args: object) -> None:
        pass


def sse_server(port_file: str) -> None:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), SSEHandler)
    with open(port_file, "w") as handle:
        handle.write(str(server.server_address[1]))
    server.serve_forever()


def usage(message: str) -> None:
    print(f"benchlib: {message}\n\n{__doc__}", file=sys.stderr)
    sys.exit(2)


def main(argv: Sequence[str]) -> None:
    if not argv:
        usage("no command")
    command, arguments = argv[0], list(argv[1:])
    if command == "generate-runs" and len(arguments) >= 4:
        generate_runs(arguments[0], arguments[1], arguments[2], int(arguments[3]), arguments[4:])
    elif command == "timed-build" and len(arguments) >= 3:
        timed_build(arguments[0], arguments[1], arguments[2:])
    elif command == "diff-runs" and len(arguments) >= 5:
        diff_runs(arguments)
    elif command == "realtime-report" and len(arguments) == 4:
        print("\n".join(realtime_report(*arguments)))
    elif command == "sse-server" and len(arguments) == 1:
        sse_server(arguments[0])
    else:
        usage(f"unknown command or wrong arguments: {' '.join(argv)}")


if __name__ == "__main__":
    main(sys.argv[1:])
