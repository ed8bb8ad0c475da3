"""Reply bodies: fixtures (JSON, SSE, binary), recorded error fixtures, SSE framing, content types."""

from __future__ import annotations

import json
import mimetypes
import re
from pathlib import Path
from typing import Any

_FRAME_END = re.compile(rb"\r\n\r\n|\n\n|\r\r")
_EXTRA_TYPES = {
    ".sse": "text/event-stream; charset=utf-8",
    ".json": "application/json",
    ".jsonl": "application/jsonl",
    ".mp3": "audio/mpeg",
    ".opus": "audio/opus",
    ".aac": "audio/aac",
    ".flac": "audio/flac",
    ".wav": "audio/wav",
    ".pcm": "audio/pcm",
    ".webp": "image/webp",
    ".png": "image/png",
    ".mp4": "video/mp4",
    ".zip": "application/zip",
    ".srt": "text/plain; charset=utf-8",
    ".vtt": "text/vtt; charset=utf-8",
    ".txt": "text/plain; charset=utf-8",
}
# Response headers of recorded errors that describe the recorded connection, not the reply we send.
_SKIPPED_META_HEADERS = frozenset(
    {
        "content-length",
        "connection",
        "transfer-encoding",
        "content-encoding",
        "date",
        "set-cookie",
        "alt-svc",
        "x-request-id",
        "keep-alive",
    }
)


class FixtureError(Exception):
    """A fixture named by a request header is missing or outside the fixtures directory."""


def resolve_fixture(root: Path | None, relative: str) -> Path:
    """Resolve `relative` inside the fixtures directory, refusing paths that escape it."""
    if root is None:
        raise FixtureError("the server was started without --fixtures")
    path = (root / relative).resolve()
    if root.resolve() not in path.parents or not path.is_file():
        raise FixtureError(f"fixture not found: {relative}")
    return path


def content_type_for(path: Path) -> str:
    """Content type by extension (audio/mpeg for .mp3, text/event-stream for .sse, ...)."""
    known = _EXTRA_TYPES.get(path.suffix.lower())
    if known:
        return known
    guessed, _ = mimetypes.guess_type(path.name)
    return guessed or "application/octet-stream"


def split_sse_frames(data: bytes) -> list[bytes]:
    """Split an SSE body into frames, each keeping its own terminating blank line (LF, CRLF or CR)."""
    frames = []
    start = 0
    for match in _FRAME_END.finditer(data):
        frames.append(data[start : match.end()])
        start = match.end()
    if start < len(data) and data[start:].strip():
        frames.append(data[start:])
    return frames


def error_fixture(root: Path | None, relative: str) -> tuple[int, dict[str, str], bytes]:
    """Body, status and headers of a recorded error: status/headers from the `.meta.json` sibling,
    else the status from the file name's leading digits (`429-insufficient-quota.json`)."""
    path = resolve_fixture(root, relative)
    body = path.read_bytes()
    meta_path = path.with_name(path.name[: -len(path.suffix)] + ".meta.json")
    status = 0
    headers: dict[str, str] = {}
    if meta_path.is_file():
        meta = json.loads(meta_path.read_text())
        status = int(meta.get("status") or 0)
        for name, value in (meta.get("response_headers") or {}).items():
            if name.lower() in _SKIPPED_META_HEADERS or isinstance(value, list) or value == "Sanitized":
                continue
            headers[name] = str(value)
    if not status:
        match = re.match(r"(\d{3})", path.name)
        status = int(match.group(1)) if match else 400
    if not any(name.lower() == "content-type" for name in headers):
        headers["Content-Type"] = "application/json"
    return status, headers, body


def openai_error(message: str, code: str | None, error_type: str = "invalid_request_error", **extra: Any) -> bytes:
    """An OpenAI-shaped error body: `{"error": {"message", "type", "param", "code"}}` plus extra keys."""
    body: dict[str, Any] = {
        "error": {"message": message, "type": error_type, "param": extra.pop("param", None), "code": code}
    }
    body.update(extra)
    return json.dumps(body, indent=2).encode() + b"\n"


def stream_error_frame(responses_style: bool, sequence_number: int, override: str | None) -> bytes:
    """The `event: error` frame sent mid-stream: Responses API style (flat, with sequence_number) or the
    nested `{"error": {...}}` object the other streaming endpoints use; `override` replaces the data."""
    if override:
        data = override
    elif responses_style:
        data = json.dumps(
            {
                "type": "error",
                "code": "server_error",
                "message": "The server had an error while processing your request.",
                "param": None,
                "sequence_number": sequence_number,
            }
        )
    else:
        data = json.dumps(
            {
                "error": {
                    "message": "The server had an error while processing your request.",
                    "type": "server_error",
                    "param": None,
                    "code": "server_error",
                }
            }
        )
    return b"event: error\ndata: " + data.encode() + b"\n\n"


def binary_chunk(offset: int, size: int) -> bytes:
    """Deterministic synthetic binary content: byte i of the body is `i % 251`."""
    pattern = bytes(range(251))
    start = offset % 251
    repeated = pattern[start:] + pattern * (size // 251 + 2)
    return repeated[:size]
