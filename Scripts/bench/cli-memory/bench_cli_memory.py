"""Peak memory of the `openai` tool and `openai mcp` on hostile sizes: a large JSON reply printed as json, jsonl and
raw and asked of an MCP tool, one large MCP input line, and a list that says `has_more` for ever.

A local server (standard library only, 127.0.0.1, a free port) answers `GET /v1/models/{id}` with one JSON object of
SIZE MiB (a long string member) and `GET /v1/files` with pages of 100 files that never end. Each case runs the tool
as a child process; its peak resident set comes from `os.wait4`'s rusage (`ru_maxrss`, KiB on Linux), which counts
the pages a child shares with this process before it runs the tool: this process never holds a large value.

Usage: python bench_cli_memory.py OPENAI_BINARY SIZE_MIB
Prints `cli_memory_CASE_peak_mib: N` for each case and `cli_memory_paging_items: N` (the items the endless list
printed before the default cap).
"""

from __future__ import annotations

import http.server
import json
import os
import subprocess
import sys
import tempfile
import threading

SIZE = int(sys.argv[2]) * 1024 * 1024


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        if self.path.startswith("/v1/files"):
            after = self.path.split("after=file_")[-1].split("&")[0] if "after=file_" in self.path else "0"
            start = int(after)
            items = [
                {
                    "id": f"file_{start + i + 1}",
                    "object": "file",
                    "bytes": 1,
                    "created_at": 1,
                    "filename": "f" * 200,
                    "purpose": "batch",
                    "status": "processed",
                }
                for i in range(100)
            ]
            body = json.dumps({"object": "list", "data": items, "has_more": True, "last_id": items[-1]["id"]})
            self.reply(body.encode())
            return
        head, tail = b'{"id":"m","object":"model","created":1,"owned_by":"o","pad":"', b'"}'
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(SIZE))
        self.end_headers()
        self.wfile.write(head)
        left = SIZE - len(head) - len(tail)
        chunk = b"a" * (1 << 20)
        while left > 0:
            self.wfile.write(chunk[: min(left, len(chunk))])
            left -= len(chunk)
        self.wfile.write(tail)

    def reply(self, body: bytes) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def peak(arguments: list[str], environment: dict[str, str], stdin_path: str | None = None) -> tuple[int, int]:
    """Runs the tool; returns its peak resident set in MiB and the lines it printed."""
    with tempfile.TemporaryFile() as output, open(stdin_path or os.devnull, "rb") as stdin:
        process = subprocess.Popen(arguments, stdin=stdin, stdout=output, stderr=subprocess.DEVNULL, env=environment)
        _, _, usage = os.wait4(process.pid, 0)
        output.seek(0)
        lines = sum(chunk.count(b"\n") for chunk in iter(lambda: output.read(1 << 20), b""))
    return usage.ru_maxrss // 1024, lines


def main() -> None:
    binary = sys.argv[1]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    environment = {
        "PATH": "/usr/bin:/bin",
        "OPENAI_API_KEY": "sk-bench-memory",
        "OPENAI_BASE_URL": f"http://127.0.0.1:{server.server_address[1]}/v1",
    }
    for format in ["json", "jsonl", "raw"]:
        mib, _ = peak([binary, "models", "retrieve", "--model", "m", "--format", format], environment)
        print(f"cli_memory_reply_{format}_peak_mib: {mib}")
    with tempfile.TemporaryDirectory() as folder:
        call = os.path.join(folder, "call.jsonl")
        line = os.path.join(folder, "line.jsonl")
        initialize = {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "b", "version": "0"},
            },
        }
        with open(call, "w") as file:
            file.write(json.dumps(initialize) + "\n")
            arguments = {"name": "models_retrieve", "arguments": {"model": "m"}}
            file.write(json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": arguments}) + "\n")
        mib, _ = peak([binary, "mcp"], environment, call)
        print(f"cli_memory_mcp_reply_peak_mib: {mib}")
        with open(line, "w") as file:
            file.write(json.dumps(initialize) + "\n")
            # Written in pieces: this process stays small, so that the children forked from it measure their own.
            file.write('{"jsonrpc":"2.0","id":2,"method":"ping","params":{"pad":"')
            piece = "a" * (1 << 20)
            for _ in range(SIZE >> 20):
                file.write(piece)
            file.write('"}}\n')
        mib, _ = peak([binary, "mcp"], environment, line)
        print(f"cli_memory_mcp_line_peak_mib: {mib}")
    for format in ["json", "jsonl"]:
        mib, lines = peak([binary, "files", "list", "--limit", "100", "--format", format], environment)
        print(f"cli_memory_paging_{format}_peak_mib: {mib}")
        if format == "jsonl":
            print(f"cli_memory_paging_items: {lines}")
    server.shutdown()


if __name__ == "__main__":
    main()
