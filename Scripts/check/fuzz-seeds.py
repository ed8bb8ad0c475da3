#!/usr/bin/env python3
"""Writes the seed inputs of one fuzz target of Scripts/check/fuzz.sh into a folder.

Usage: fuzz-seeds.py TARGET FIXTURES GENERATOR_TESTS OUTPUT_DIR

The seeds come from the recorded traffic in FIXTURES (../shared/fixtures, read in place: nothing of it is copied
into the repository) and the generator's snapshot specs in GENERATOR_TESTS (Tests/OpenAIGeneratorTests), in the
input format of each target (Fuzz/TARGET/main.swift says it). Each seed is a file named after its SHA-1, as
libFuzzer names its own.
"""

import hashlib
import json
import sys
from collections import defaultdict
from pathlib import Path

PLANTED_KEY = "sk-planted-FUZZ-0123456789abcdef"  # Fuzz/ErrorBody/main.swift's plantedKey


def files(root: Path, pattern: str) -> list[Path]:
    return sorted(path for path in root.glob(pattern) if path.is_file()) if root.is_dir() else []


def sse_payloads(path: Path) -> list[bytes]:
    """The data of each event of a text/event-stream body (a plain reading; the parser is the one under test)."""
    payloads, data = [], []
    for line in path.read_bytes().replace(b"\r\n", b"\n").split(b"\n"):
        if line.startswith(b"data:"):
            data.append(line[6:] if line[5:6] == b" " else line[5:])
        elif not line and data:
            payload = b"\n".join(data)
            if payload != b"[DONE]":
                payloads.append(payload)
            data = []
    return payloads


def by_type(payloads: list[bytes], per_type: int) -> list[bytes]:
    """At most per_type payloads of each JSON `type` (the shortest), so the seeds cover every kind once or twice."""
    kinds: dict[str, list[bytes]] = defaultdict(list)
    for payload in payloads:
        try:
            value = json.loads(payload)
        except ValueError:
            continue
        kinds[str(value.get("type") or value.get("object")) if isinstance(value, dict) else ""].append(payload)
    return [payload for kind in sorted(kinds) for payload in sorted(set(kinds[kind]), key=len)[:per_type]]


def frame(opcode: int, payload: bytes, fin: bool = True, key: bytes | None = None) -> bytes:
    """One WebSocket frame (RFC 6455 5.2), masked with key when given."""
    head = bytes([(0x80 if fin else 0) | opcode])
    mask = 0x80 if key else 0
    if len(payload) < 126:
        head += bytes([mask | len(payload)])
    elif len(payload) <= 0xFFFF:
        head += bytes([mask | 126]) + len(payload).to_bytes(2, "big")
    else:
        head += bytes([mask | 127]) + len(payload).to_bytes(8, "big")
    if key:
        return head + key + bytes(byte ^ key[index % 4] for index, byte in enumerate(payload))
    return head + payload


def seeds(target: str, fixtures: Path, generator_tests: Path) -> list[bytes]:
    streams = files(fixtures, "**/*.sse")
    if target == "SSE":
        edges = [
            b"\xef\xbb\xbfdata: a\r\n\r\n",
            b"retry: 1000\nid: 7\nevent: e\ndata: a\rdata: b\r\n\n",
            b": c\n\ndata\n\n",
        ]
        return [path.read_bytes() for path in streams] + edges
    if target in ("PartialJSON", "JSON"):
        payloads = sorted({payload for path in streams for payload in sse_payloads(path)}, key=len)[:300]
        edges = [b'{"a":"\\ud83d\\ude00\\u00e9","b":[1,-2.5e3,true,false,null],"c":{}}', b"[[[[[]]]]]", b"-0.0e+1"]
        return [path.read_bytes() for path in files(fixtures, "**/*.json")] + payloads + edges
    if target == "ResponseStreamEvent":
        return by_type([payload for path in files(fixtures, "responses/**/*.sse") for payload in sse_payloads(path)], 3)
    if target == "Response":
        events = [payload for path in files(fixtures, "responses/**/*.sse") for payload in sse_payloads(path)]
        nested = []
        for payload in events:
            value = json.loads(payload) if payload.startswith(b"{") else None
            if isinstance(value, dict) and isinstance(value.get("response"), dict):
                nested.append(json.dumps(value["response"]).encode())
        bodies = [path.read_bytes() for path in files(fixtures, "responses/**/*.json")]
        return bodies + sorted(set(nested), key=len)[:40]
    if target == "RealtimeServerEvent":
        lines = [line for path in files(fixtures, "realtime/**/*.jsonl") for line in path.read_bytes().splitlines()]
        return by_type(lines, 3)
    if target == "ChatCompletion":
        chunks = [payload for path in files(fixtures, "chat-completions/**/*.sse") for payload in sse_payloads(path)]
        bodies = [path.read_bytes() for path in files(fixtures, "chat-completions/**/*.json")]
        return bodies + sorted(set(chunks), key=len)[:200]
    if target == "WebSocketFrames":
        lines = [line for path in files(fixtures, "realtime/**/*.jsonl") for line in path.read_bytes().splitlines()]
        key = bytes([0x37, 0xFA, 0x21, 0x3D])
        result = [b"\x00" + frame(1, line) for line in sorted(set(lines), key=len)[:40]]
        result += [b"\x01" + frame(1, line, key=key) for line in sorted(set(lines), key=len)[:5]]
        sample = lines[0] if lines else b'{"type":"session.created"}'
        result += [
            b"\x00" + frame(1, sample[:10], fin=False) + frame(9, b"ping") + frame(0, sample[10:]),
            b"\x00" + frame(2, bytes(range(256)) * 2) + frame(10, b"") + frame(8, b"\x03\xe8bye"),
            b"\x00" + frame(8, b"\x03\xf3keepalive ping timeout"),
            b"\x04" + frame(2, b"x" * 70000)[:4096],
            b"\x21" + frame(1, "caf\u00e9 \U0001f600".encode()),
        ]
        return result
    if target == "WebhookHeaders":
        signed = fixtures / "webhooks" / "signed"
        if not signed.is_dir():
            return [b"whsec_AAAA\nwh_1\n1750861210\nv1,AAAA\n{}"]
        secret = (signed / "secret.txt").read_text().strip().encode()
        headers = json.loads((signed / "response.completed.headers.json").read_text())
        fields = [headers["webhook-id"], headers["webhook-timestamp"], headers["webhook-signature"]]
        head = b"\n".join([secret] + [field.encode() for field in fields]) + b"\n"
        body = (signed / "response.completed.body.json").read_bytes()
        examples = [path.read_bytes() for path in files(fixtures, "webhooks/spec-examples/*.json")][:10]
        return [head + body] + [head + example for example in examples] + [b"raw secret\nid\n 12 \nv1,x v2,y\n"]
    if target == "ErrorBody":
        result = []
        for path in files(fixtures, "errors/*.json"):
            if path.name.endswith(".meta.json"):
                continue
            meta = path.with_name(path.name[: -len(".json")] + ".meta.json")
            status = json.loads(meta.read_text()).get("status", 400) if meta.is_file() else int(path.name[:3])
            result.append(bytes([(int(status) - 400) % 200]) + path.read_bytes())
        message = f"Incorrect API key provided: {PLANTED_KEY}. You can find your key at https://x."
        result += [
            b"\x01" + json.dumps({"error": {"message": message, "type": "invalid_request_error"}}).encode(),
            b"\x64<html><head><title>502 Bad Gateway</title></head><body>Bearer " + PLANTED_KEY.encode() + b"</body>",
            b"\x16" + json.dumps({"detail": [{"loc": ["body"], "msg": "field required"}]}).encode(),
            b"\x1d" + json.dumps({"errors": [{"message": "slow down", "code": 42}]}).encode(),
            b"\x00plain text " + PLANTED_KEY.encode(),
        ]
        return result
    if target == "YAMLSpec":
        return [path.read_bytes() for path in files(generator_tests, "Snapshots/*/spec.yaml")] + [
            path.read_bytes() for path in files(generator_tests, "DiffFixtures/**/*.yaml")
        ]
    raise SystemExit(f"fuzz-seeds: unknown target {target}")


def main() -> None:
    if len(sys.argv) != 5:
        raise SystemExit(__doc__)
    target, fixtures, generator_tests, output = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3]), Path(sys.argv[4])
    output.mkdir(parents=True, exist_ok=True)
    for seed in seeds(target, fixtures, generator_tests):
        (output / hashlib.sha1(seed).hexdigest()).write_bytes(seed)


if __name__ == "__main__":
    main()
