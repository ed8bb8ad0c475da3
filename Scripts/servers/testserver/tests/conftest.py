"""Fixtures: a test server started as a subprocess on a free port (the same way the Swift tests do)."""

from __future__ import annotations

import http.client
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
SERVER_DIR = HERE.parent
REPO = SERVER_DIR.parents[2]
SHARED = REPO.parent / "shared"
SPEC = SHARED / "spec" / "openapi.yaml"
FIXTURES = SHARED / "fixtures"
AUTH = {"Authorization": "Bearer sk-test-key"}

sys.path.insert(0, str(SERVER_DIR))


def require_shared() -> None:
    """Skip (loudly) when ../shared is not beside the repository."""
    if not SPEC.is_file():
        pytest.skip(f"needs the locked spec at {SPEC} (../shared beside the repository)")


class Server:
    """A running test server subprocess."""

    def __init__(self, tmp: Path, cache_dir: Path | None = None) -> None:
        self.port_file = tmp / f"port-{time.monotonic_ns()}"
        args = [
            sys.executable,
            str(SERVER_DIR / "server.py"),
            "--spec",
            str(SPEC),
            "--fixtures",
            str(FIXTURES),
            "--port",
            "0",
            "--port-file",
            str(self.port_file),
            "--exit-on-stdin-eof",
        ]
        if cache_dir is not None:
            args += ["--cache-dir", str(cache_dir)]
        started = time.monotonic()
        self.process = subprocess.Popen(args, stdin=subprocess.PIPE, stderr=subprocess.PIPE)
        while not self.port_file.exists():
            if self.process.poll() is not None:
                raise RuntimeError("server exited: " + self.process.stderr.read().decode())
            if time.monotonic() - started > 60:
                raise RuntimeError("server did not write its port file within 60 s")
            time.sleep(0.01)
        self.startup_seconds = time.monotonic() - started
        self.port = int(self.port_file.read_text().strip())

    def stop(self) -> int:
        """Close stdin (the server exits on EOF) and wait; returns the exit code."""
        assert self.process.stdin is not None
        self.process.stdin.close()
        try:
            return self.process.wait(timeout=10)
        finally:
            if self.process.poll() is None:
                self.process.kill()

    def request(
        self,
        method: str,
        path: str,
        body: bytes | dict | None = None,
        headers: dict[str, str] | None = None,
        auth: bool = True,
    ) -> tuple[int, dict[str, str], bytes]:
        """One HTTP exchange; a dict body is sent as JSON. Returns (status, lower-cased headers, body)."""
        all_headers = dict(AUTH) if auth else {}
        if isinstance(body, dict):
            body = json.dumps(body).encode()
            all_headers["Content-Type"] = "application/json"
        all_headers.update(headers or {})
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            conn.request(method, path, body=body, headers=all_headers)
            response = conn.getresponse()
            return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
        finally:
            conn.close()

    def records(self, scenario: str) -> list[dict[str, Any]]:
        """The requests the server recorded under a scenario id."""
        status, _, body = self.request("GET", f"/__testserver/requests?scenario={scenario}", auth=False)
        assert status == 200
        return json.loads(body)["requests"]


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Server:
    require_shared()
    srv = Server(tmp_path_factory.mktemp("testserver"))
    print(f"\ntest server start-up (spec cache as found): {srv.startup_seconds:.3f} s")
    yield srv
    assert srv.stop() == 0


def multipart(
    fields: list[tuple[str, str | tuple[str, bytes, str]]], boundary: str = "testboundary7MA4YWxk"
) -> tuple[bytes, str]:
    """Encode a multipart/form-data body by hand: (name, text) or (name, (filename, bytes, content type))."""
    out = bytearray()
    for name, value in fields:
        out += f"--{boundary}\r\n".encode()
        if isinstance(value, tuple):
            filename, data, content_type = value
            out += f'Content-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'.encode()
            out += f"Content-Type: {content_type}\r\n\r\n".encode() + data + b"\r\n"
        else:
            out += f'Content-Disposition: form-data; name="{name}"\r\n\r\n'.encode() + value.encode() + b"\r\n"
    out += f"--{boundary}--\r\n".encode()
    return bytes(out), f"multipart/form-data; boundary={boundary}"
