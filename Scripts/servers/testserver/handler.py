"""The request handler: routing, recording, validation, fault injection and replies.

Per-request control headers (all prefixed `x-testserver-`) are documented in README.md.
"""

from __future__ import annotations

import asyncio
import base64
import collections
import email.utils
import hashlib
import json
import sys
import time
import urllib.parse
from pathlib import Path
from typing import Any

from aiohttp import web

import replies
import structured_outputs
import synth
import validation
from router import Router
from schemas import Schemas
from spec_model import Operation, SpecModel

PREFIX = "x-testserver-"
_BODY_RECORD_LIMIT = 1 << 20  # bytes of a body kept as text/base64 in the record
_TEXT_PART_LIMIT = 1 << 20  # bytes of a non-file multipart part kept for validation
_BINARY_CHUNK = 1 << 16
_DROPPED = "x-testserver-drop-connection"


class ServerState:
    """Everything the running server keeps: spec model, request records and scenario attempt counts."""

    def __init__(
        self, model: SpecModel, schemas: Schemas, fixtures: Path | None, max_records: int, verbose: bool
    ) -> None:
        self.model = model
        self.schemas = schemas
        self.fixtures = fixtures
        self.router = Router(model.operations)
        self.records: collections.deque[dict[str, Any]] = collections.deque(maxlen=max_records)
        self.attempts: collections.Counter[str] = collections.Counter()
        # Requests per (scenario, method, path), for `x-testserver-status-sequence`.
        self.path_attempts: collections.Counter[tuple[str, str, str]] = collections.Counter()
        self.counter = 0
        # Background responses streamed so far: id -> their events, replayed by
        # `GET /responses/{id}?stream=true&starting_after=N`.
        self.background: dict[str, list[dict[str, Any]]] = {}
        self.verbose = verbose
        self.startup_seconds = 0.0
        self.cache_hit = False

    # ----------------------------------------------------------------------------------------- control

    async def control(self, request: web.Request) -> web.StreamResponse:
        """`/__testserver/...`: health, info, request records (GET with ?scenario=, DELETE)."""
        name = request.path[len("/__testserver/") :]
        if name == "health":
            return web.json_response({"status": "ok"})
        if name == "info":
            return web.json_response(
                {
                    "spec_sha256": self.model.sha256,
                    "operations": len(self.model.operations),
                    "startup_seconds": self.startup_seconds,
                    "spec_cache_hit": self.cache_hit,
                    "conversions": self.model.stats,
                }
            )
        if name == "requests":
            scenario = request.query.get("scenario")
            if request.method == "DELETE":
                if scenario is None:
                    self.records.clear()
                    self.attempts.clear()
                else:
                    kept = [r for r in self.records if r["scenario"] != scenario]
                    self.records.clear()
                    self.records.extend(kept)
                    self.attempts.pop(scenario, None)
                return web.json_response({"cleared": True})
            selected = [r for r in self.records if scenario is None or r["scenario"] == scenario]
            return web.json_response({"requests": selected, "count": len(selected)})
        return web.json_response({"error": {"message": f"unknown control endpoint {name}"}}, status=404)

    # ----------------------------------------------------------------------------------------- requests

    async def handle(self, request: web.Request) -> web.StreamResponse:
        """Entry point for every request."""
        if request.path.startswith("/__testserver/"):
            return await self.control(request)
        self.counter += 1
        started = time.monotonic()
        headers = request.headers
        scenario = headers.get(PREFIX + "scenario", "")
        self.attempts[scenario] += 1
        self.path_attempts[(scenario, request.method, request.rel_url.raw_path)] += 1
        query = urllib.parse.parse_qsl(request.rel_url.raw_query_string, keep_blank_values=True)
        record: dict[str, Any] = {
            "request_id": f"req_{self.counter}",
            "scenario": scenario,
            "attempt": self.attempts[scenario],
            "method": request.method,
            "path": request.rel_url.raw_path,
            "query": [list(pair) for pair in query],
            "headers": [[k, v] for k, v in headers.items()],
            "received_at": time.time(),
            "operation_id": None,
            "security": [],
            "disconnected": False,
            # The client's TCP port: requests with the same one came on the same connection.
            "client_port": _peer_port(request),
        }
        self.records.append(record)
        context = _Context(self, request, record, started, query)
        try:
            response = await context.run()
        except asyncio.CancelledError:
            record["disconnected"] = True
            record["completed_at"] = time.time()
            raise
        except ConnectionResetError as error:
            record["completed_at"] = time.time()
            if str(error) != _DROPPED:
                record["disconnected"] = True
            transport = request.transport
            if transport is not None:
                transport.close()
            self._log(record)
            return web.Response(status=599)  # never reaches the client: the transport is closed
        record.setdefault("completed_at", time.time())
        self._log(record)
        return response

    def _log(self, record: dict[str, Any]) -> None:
        if self.verbose:
            print(
                f"{record['request_id']} {record['method']} {record['path']} -> {record.get('status')} "
                f"validation={record.get('validation', {}).get('result')}"
                f"{' dropped' if record.get('dropped') else ''}{' disconnected' if record['disconnected'] else ''}",
                file=sys.stderr,
                flush=True,
            )


def _peer_port(request: web.Request) -> int | None:
    """The client's TCP port, or None when the transport does not tell it."""
    transport = request.transport
    peer = transport.get_extra_info("peername") if transport is not None else None
    return peer[1] if isinstance(peer, tuple) and len(peer) >= 2 else None


def _flag(value: str | None) -> bool:
    return (value or "").strip().lower() in ("1", "true", "yes", "on")


def _int(value: str | None, default: int | None = None) -> int | None:
    try:
        return int(value) if value is not None else default
    except ValueError:
        return default


class _Context:
    """One request in flight."""

    def __init__(
        self, state: ServerState, request: web.Request, record: dict[str, Any], started: float, query: list
    ) -> None:
        self.state = state
        self.schemas = state.schemas
        self.request = request
        self.record = record
        self.started = started
        self.query = query
        self.control = {k[len(PREFIX) :].lower(): v for k, v in request.headers.items() if k.lower().startswith(PREFIX)}
        self.op: Operation | None = None
        self.body_json: Any = None
        self.validation_result = "failed"

    def base_headers(self) -> dict[str, str]:
        """Headers on every reply."""
        out = {
            "x-request-id": self.record["request_id"],
            "openai-processing-ms": str(int((time.monotonic() - self.started) * 1000)),
            "openai-version": "2020-10-01",
            "x-testserver-validation": self.validation_result,
            "x-testserver-attempt": str(self.record["attempt"]),
        }
        if self.op is not None:
            out["x-testserver-operation"] = self.op.operation_id
        warnings = self.record.get("validation", {}).get("warnings")
        if warnings:
            out["x-testserver-warnings"] = str(len(warnings))
        if "set-cookie" in self.control:
            out["Set-Cookie"] = f"{self.control['set-cookie']}; Path=/"
        return out

    def reply(self, status: int, body: bytes, content_type: str = "application/json", extra=None) -> web.Response:
        """A buffered reply with the standard headers."""
        self.record["status"] = status
        headers = self.base_headers()
        headers.update(extra or {})
        headers.setdefault("Content-Type", content_type)
        return web.Response(status=status, body=body, headers=headers)

    async def run(self) -> web.StreamResponse:
        """Route, read, validate, inject faults, reply (trickled when asked)."""
        response = await self._run()
        trickle = _int(self.control.get("trickle-ms"))
        if trickle is not None and isinstance(response, web.Response) and response.body:
            return await self._trickle(response, trickle / 1000)
        return response

    async def _run(self) -> web.StreamResponse:
        request = self.request
        raw_path = request.rel_url.raw_path
        redirect = await self._redirect()
        if redirect is not None:
            return redirect
        if not raw_path.startswith("/v1/"):
            return self._not_found()
        op, path_params, allowed = self.state.router.match(request.method, raw_path[len("/v1") :], self.query)
        if op is None:
            if allowed:
                self.record["validation"] = {"result": "failed", "errors": [f"method {request.method} not allowed"]}
                message = f"Invalid method {request.method} for {raw_path}; the spec allows {', '.join(allowed)}."
                return self.reply(
                    405, replies.openai_error(message, "method_not_allowed"), extra={"Allow": ", ".join(allowed)}
                )
            return self._not_found()
        self.op = op
        self.record["operation_id"] = op.operation_id
        self.record["path_params"] = path_params
        self.record["security"] = op.security
        outcome = validation.Outcome()
        await self._read_body(op, outcome)
        validate = self.control.get("validate", "true").lower() not in ("false", "0", "off")
        if validate:
            validation.check_path(op, self.schemas, path_params, outcome)
            validation.check_query(op, self.schemas, self.query, outcome)
            validation.check_headers(op, self.schemas, request.headers, outcome)
            self.validation_result = "failed" if outcome.errors else "ok"
        else:
            self.validation_result = "skipped"
        self.record["validation"] = {
            "result": self.validation_result,
            "errors": outcome.errors,
            "warnings": outcome.warnings,
        }
        if outcome.errors and validate:
            listed = "; ".join(f"{i + 1}) {e}" for i, e in enumerate(outcome.errors))
            message = f"Request does not match the OpenAPI spec ({op.operation_id}): {listed}"
            body = replies.openai_error(
                message,
                "testserver_validation_failed",
                param=outcome.errors[0].split(":", 1)[0],
                validation_errors=outcome.errors,
            )
            return self.reply(400, body)
        return await self._respond(op)

    async def _redirect(self) -> web.Response | None:
        """A 3xx to `redirect-location` for the first `redirect-times` attempts (default 1), as an
        edge proxy sends before the API sees the request (its body is read and recorded)."""
        control = self.control
        status = _int(control.get("redirect-status"))
        if status is None or "redirect-location" not in control:
            return None
        if self.record["attempt"] > (_int(control.get("redirect-times"), 1) or 0):
            return None
        if self.request.body_exists:
            self._record_body(await self.request.read())
        self.record["redirected_to"] = control["redirect-location"]
        body = replies.openai_error(f"Moved to {control['redirect-location']}", "moved")
        return self.reply(status, body, extra={"Location": control["redirect-location"]})

    async def _trickle(self, buffered: web.Response, seconds: float) -> web.StreamResponse:
        """Sends `buffered`'s head at once, then its first `trickle-bytes` body bytes (default all)
        one every `seconds`, then the rest at once."""
        response = web.StreamResponse(status=buffered.status, headers=buffered.headers)
        response.content_length = len(buffered.body)
        await response.prepare(self.request)
        count = min(len(buffered.body), _int(self.control.get("trickle-bytes"), len(buffered.body)) or 0)
        for index in range(count):
            if index:
                await self._sleep_watching(seconds)
            await self._write(response, buffered.body[index : index + 1])
        if count < len(buffered.body):
            await self._write(response, buffered.body[count:])
        self.record["trickled"] = True
        await response.write_eof()
        return response

    def _not_found(self) -> web.Response:
        self.record["validation"] = {"result": "failed", "errors": ["unknown URL"]}
        message = f"Invalid URL ({self.request.method} {self.request.rel_url.raw_path})"
        return self.reply(404, replies.openai_error(message, "unknown_url"))

    # ----------------------------------------------------------------------------------------- body

    async def _read_body(self, op: Operation, outcome: validation.Outcome) -> None:
        request = self.request
        media = validation.media_type(request.headers.get("Content-Type"))
        has_body = request.body_exists
        if _flag(self.control.get("discard-body")):
            size, digest = 0, hashlib.sha256()
            async for chunk in request.content.iter_chunked(1 << 20):
                size += len(chunk)
                digest.update(chunk)
            self.record["body"] = {"discarded": True, "size": size, "sha256": digest.hexdigest()}
            if size and op.body_content and media not in op.body_content:
                outcome.errors.append(self._content_type_error(op, media))
            return
        if media == "multipart/form-data" and has_body:
            parts = await self._read_multipart(outcome)
            self.record["parts"] = [part.record() for part in parts]
            if "multipart/form-data" not in op.body_content:
                outcome.errors.append(self._content_type_error(op, media))
            elif parts is not None:
                validation.check_multipart(self.schemas, op.body_content[media], parts, outcome)
            return
        body = await request.read() if has_body else b""
        self._record_body(body)
        if not body:
            if op.body_required:
                outcome.errors.append("$: request body is required")
            return
        if not op.body_content:
            outcome.errors.append("$: the operation takes no request body")
            return
        if media not in op.body_content:
            outcome.errors.append(self._content_type_error(op, media))
            return
        strict = _flag(self.control.get("strict"))
        if media == "application/json":
            self.body_json = validation.check_json_body(op, self.schemas, op.body_content[media], body, outcome, strict)
            outcome.errors.extend(structured_outputs.problems(self.body_json))
        elif media == "application/sdp":
            validation.check_sdp(body, outcome)

    def _content_type_error(self, op: Operation, media: str) -> str:
        accepted = ", ".join(sorted(op.body_content)) or "no body"
        return f"header.Content-Type: `{media or '(none)'}` is not accepted; the operation takes {accepted}"

    def _record_body(self, body: bytes) -> None:
        kept = body[:_BODY_RECORD_LIMIT]
        entry: dict[str, Any] = {"size": len(body), "sha256": hashlib.sha256(body).hexdigest()}
        try:
            entry["text"] = kept.decode("utf-8")
        except UnicodeDecodeError:
            entry["base64"] = base64.b64encode(kept).decode()
        if len(body) > len(kept):
            entry["truncated"] = True
        self.record["body"] = entry

    async def _read_multipart(self, outcome: validation.Outcome) -> list[validation.Part]:
        parts: list[validation.Part] = []
        try:
            reader = await self.request.multipart()
            while True:
                part = await reader.next()
                if part is None:
                    break
                size, digest, kept = 0, hashlib.sha256(), bytearray()
                while True:
                    chunk = await part.read_chunk(_BINARY_CHUNK)
                    if not chunk:
                        break
                    size += len(chunk)
                    digest.update(chunk)
                    if part.filename is None and len(kept) < _TEXT_PART_LIMIT:
                        kept.extend(chunk[: _TEXT_PART_LIMIT - len(kept)])
                text = None
                if part.filename is None:
                    text = bytes(kept).decode("utf-8", errors="replace")
                if part.name is None:
                    outcome.errors.append("$: multipart part without a name in Content-Disposition")
                parts.append(
                    validation.Part(
                        name=part.name or "",
                        filename=part.filename,
                        content_type=part.headers.get("Content-Type"),
                        size=size,
                        sha256=digest.hexdigest(),
                        text=text,
                    )
                )
        except (ValueError, AssertionError, RuntimeError) as error:
            outcome.errors.append(f"$: multipart body does not parse: {error}")
        return parts

    # ----------------------------------------------------------------------------------------- replies

    async def _sleep_watching(self, seconds: float) -> None:
        """Sleep; a client that disconnects meanwhile cancels the handler (handler_cancellation)."""
        if seconds > 0:
            await asyncio.sleep(seconds)

    async def _respond(self, op: Operation) -> web.StreamResponse:
        control = self.control
        fail_times = _int(control.get("fail-times"))
        faulty = fail_times is None or self.record["attempt"] <= fail_times
        wants_failure = fail_times is not None or "fail-status" in control or "error-fixture" in control
        extra: dict[str, str] = {}
        if faulty:
            if "retry-after" in control:
                value = control["retry-after"].strip()
                if value.startswith("date+"):  # an HTTP date this many seconds after the reply
                    value = http_date(float(value[len("date+") :] or 0))
                extra["retry-after"] = value
            if "retry-after-ms" in control:
                extra["retry-after-ms"] = control["retry-after-ms"]
            if "should-retry" in control:
                extra["x-should-retry"] = "true" if _flag(control["should-retry"]) else "false"
            await self._sleep_watching((_int(control.get("delay-ms"), 0) or 0) / 1000)
            if _flag(control.get("drop-connection")):
                return self._drop()
        self.record["fault"] = faulty and (wants_failure or _flag(control.get("drop-connection")))
        if faulty and wants_failure:
            if "error-fixture" in control:
                try:
                    status, headers, body = replies.error_fixture(self.state.fixtures, control["error-fixture"])
                except replies.FixtureError as error:
                    return self._fixture_missing(error)
                headers.update(extra)
                return self.reply(status, body, headers.pop("Content-Type"), headers)
            status = _int(control.get("fail-status"), 500) or 500
            message = (
                control.get("fail-message") or f"Injected failure (attempt {self.record['attempt']}, status {status})."
            )
            error_type = (
                "rate_limit_error" if status == 429 else "server_error" if status >= 500 else "invalid_request_error"
            )
            code = "rate_limit_exceeded" if status == 429 else "testserver_injected_failure"
            body = replies.openai_error(message, code, error_type)
            padded = _int(control.get("error-body-bytes"))
            if padded is not None and padded > len(body):
                return await self._stream_padded(status, body, padded, extra)
            return self.reply(status, body, extra=extra)
        return await self._success(op, extra)

    async def _stream_padded(self, status: int, body: bytes, size: int, extra: dict[str, str]) -> web.StreamResponse:
        """An error reply of `size` bytes: the JSON body, then spaces (still JSON), in 64 KiB writes;
        records how many bytes went out before the client closed the connection."""
        headers = self.base_headers()
        headers.update(extra)
        headers["Content-Type"] = "application/json"
        response = web.StreamResponse(status=status, headers=headers)
        response.content_length = size
        self.record["status"] = status
        await response.prepare(self.request)
        written = 0
        rate = _int(self.control.get("error-body-rate"))  # bytes per second, unthrottled when absent
        started = time.monotonic()
        self.record["error_body_bytes_written"] = 0
        try:
            await self._write(response, body)
            written = len(body)
            while written < size:
                piece = min(_BINARY_CHUNK, size - written)
                await self._write(response, b" " * piece)
                written += piece
                self.record["error_body_bytes_written"] = written
                if rate:
                    await self._sleep_watching(started + written / rate - time.monotonic())
        finally:
            self.record["error_body_bytes_written"] = written
        await response.write_eof()
        return response

    def _drop(self) -> web.StreamResponse:
        self.record["dropped"] = True
        self.record["status"] = None
        transport = self.request.transport
        if transport is not None:
            transport.close()
        raise ConnectionResetError(_DROPPED)

    def _fixture_missing(self, error: Exception) -> web.Response:
        body = replies.openai_error(f"testserver: {error}", "testserver_fixture_missing", "server_error")
        return self.reply(500, body, extra={"x-testserver-error": str(error)})

    def _background_stream(self, op: Operation, example: Any, control: dict[str, str]) -> str | None:
        """A background response's stream: `POST /responses` with `background: true` streams the
        response (structured output when the request has a schema) in deltas of
        `x-testserver-delta-chars` (default 4) and keeps its events; `GET /responses/{id}` with
        `stream=true` replays those after `starting_after`, as the API resumes a stream."""
        body = self.body_json if isinstance(self.body_json, dict) else {}
        if op.operation_id == "createResponse" and body.get("background") is True:
            response = structured_outputs.fill_reply(op.operation_id, body, example, control)
            response = dict(response if isinstance(response, dict) else {})
            number = len(self.state.background) + 1
            response.update(id=f"resp_background_{number}", background=True, status="completed")
            events = structured_outputs.response_events(response, structured_outputs.delta_splitter(control))
            self.state.background[response["id"]] = events
            return "".join(structured_outputs.sse_frame(e) for e in events)
        if op.operation_id == "getResponse":
            events = self.state.background.get(self.request.path.rstrip("/").rsplit("/", 1)[-1])
            if events is None:
                return None
            after = next((_int(v) for k, v in self.query if k == "starting_after"), None)
            start = -1 if after is None else after
            return "".join(structured_outputs.sse_frame(e) for e in events if e["sequence_number"] > start)
        return None

    def _stream_requested(self) -> bool:
        body = self.body_json if isinstance(self.body_json, dict) else {}
        if body.get("stream") is True or body.get("stream_format") == "sse":
            return True
        return any(k == "stream" and v == "true" for k, v in self.query)

    async def _success(self, op: Operation, extra: dict[str, str]) -> web.StreamResponse:
        control = self.control
        status = op.success_status
        if "fixture" in control:
            try:
                path = replies.resolve_fixture(self.state.fixtures, control["fixture"])
            except replies.FixtureError as error:
                return self._fixture_missing(error)
            content_type = replies.content_type_for(path)
            if content_type.startswith("text/event-stream"):
                return await self._stream_sse(path.read_bytes(), extra)
            return self.reply(status, path.read_bytes(), content_type, extra)
        json_schema = op.success_content.get("application/json")
        example = op.example_responses[0] if op.example_responses else None
        cursor = next(
            (n for n in ("after", "page") if any(p.name == n and p.location == "query" for p in op.parameters)),
            None,
        )
        if "pages" in control and cursor:
            pages = max(0, _int(control.get("pages"), 1) or 0)
            limit = next((int(v) for k, v in self.query if k == "limit" and v.isdigit()), 3)
            after = next((v for k, v in self.query if k == cursor), None)
            page = synth.list_page(self.schemas, json_schema or {}, example, pages, max(1, limit), after)
            for member in control.get("page-omit", "").split(","):
                page.pop(member.strip(), None)
            return self.reply(status, json.dumps(page).encode(), extra=extra)
        if self._stream_requested():
            resumed = self._background_stream(op, example, control)
            if resumed is not None:
                return await self._stream_sse(resumed.encode(), extra)
            structured = structured_outputs.stream_reply(op.operation_id, self.body_json, example, control)
            if structured is not None:
                return await self._stream_sse(structured.encode(), extra)
            if op.example_sse:
                return await self._stream_sse(op.example_sse[0].encode(), extra)
            sse_schema = op.success_content.get("text/event-stream")
            if sse_schema:
                event = synth.synthesize(self.schemas, sse_schema)
            else:
                event = example if example is not None else synth.synthesize(self.schemas, json_schema or {})
            frames = f"data: {json.dumps(event)}\n\ndata: [DONE]\n\n"
            return await self._stream_sse(frames.encode(), extra)
        media = next((m for m in op.success_content if m not in ("application/json", "text/event-stream")), None)
        if media is None and (
            json_schema == {"type": "string"} or (op.path.endswith("/content") and not op.success_content)
        ):
            media = "application/octet-stream"  # file downloads the spec types as a JSON string or not at all
        if media == "application/sdp":
            sdp = op.example_texts[0] if op.example_texts else "v=0\r\no=- 0 0 IN IP4 127.0.0.1\r\ns=-\r\n"
            return self.reply(status, sdp.encode(), media, {"Location": "/v1/realtime/calls/rtc_testserver", **extra})
        if media is not None:
            return await self._stream_binary(media, extra)
        if not op.success_content and example is None:
            return self.reply(status, b"", "application/json", extra)
        if example is None:
            example = synth.synthesize(self.schemas, json_schema or {})
        example = structured_outputs.fill_reply(op.operation_id, self.body_json, example, control)
        example = structured_outputs.tool_reply(op.operation_id, self.body_json, example, control)
        sequence = [v.strip() for v in control.get("status-sequence", "").split(",") if v.strip()]
        if sequence and isinstance(example, dict):
            # The n-th request to this path in the scenario gets the n-th status (the last one
            # after that), as an object being polled moves through its states.
            key = (self.record["scenario"], self.request.method, self.request.rel_url.raw_path)
            example = dict(example, status=sequence[min(self.state.path_attempts[key], len(sequence)) - 1])
        if "poll-after-ms" in control:
            extra = dict(extra, **{"openai-poll-after-ms": control["poll-after-ms"]})
        return self.reply(status, json.dumps(example, indent=2).encode() + b"\n", extra=extra)

    async def _prepare_stream(self, content_type: str, extra: dict[str, str]) -> web.StreamResponse:
        headers = self.base_headers()
        headers.update(extra)
        headers["Content-Type"] = content_type
        response = web.StreamResponse(status=self.op.success_status if self.op else 200, headers=headers)
        response.enable_chunked_encoding()
        self.record["status"] = response.status
        await response.prepare(self.request)
        return response

    async def _write(self, response: web.StreamResponse, data: bytes) -> None:
        transport = self.request.transport
        if transport is None or transport.is_closing():
            self.record["disconnected"] = True
            raise ConnectionResetError("client disconnected")
        await response.write(data)

    async def _stream_sse(self, data: bytes, extra: dict[str, str]) -> web.StreamResponse:
        """Send SSE frames one write each, with an optional delay, mid-stream error or drop."""
        control = self.control
        frames = replies.split_sse_frames(data)
        delay = (_int(control.get("chunk-delay-ms"), 0) or 0) / 1000
        error_after = _int(control.get("stream-error-after"))
        drop_after = _int(control.get("drop-after-frames"))
        end_after_bytes = _int(control.get("end-after-bytes"))
        response = await self._prepare_stream("text/event-stream; charset=utf-8", extra)
        sent = 0
        written = 0
        for index, frame in enumerate(frames):
            if end_after_bytes is not None and written + len(frame) > end_after_bytes:
                # A clean end of the body in the middle of the stream (the chunked coding is
                # terminated properly), as a proxy that gives up or a server that restarts sends.
                if end_after_bytes > written:
                    await self._write(response, frame[: end_after_bytes - written])
                self.record["ended_early"] = True
                break
            if error_after is not None and index == error_after:
                responses_style = bool(self.op and self.op.path.startswith("/responses"))
                await self._write(
                    response, replies.stream_error_frame(responses_style, index, control.get("stream-error-data"))
                )
                self.record["stream_error_sent"] = True
                break
            if drop_after is not None and index == drop_after:
                self._drop()
            if index and delay:
                await self._sleep_watching(delay)
            trickle = _int(control.get("trickle-ms"))
            if trickle is not None:
                for byte in range(len(frame)):
                    if index or byte:
                        await self._sleep_watching(trickle / 1000)
                    await self._write(response, frame[byte : byte + 1])
            else:
                await self._write(response, frame)
            sent += 1
            written += len(frame)
        else:
            if drop_after is not None and drop_after >= len(frames):
                self._drop()  # every frame sent, then the connection lost instead of a clean end
            if error_after is not None and error_after >= len(frames):
                await self._write(
                    response, replies.stream_error_frame(False, len(frames), control.get("stream-error-data"))
                )
                self.record["stream_error_sent"] = True
        self.record["frames_sent"] = sent
        await response.write_eof()
        return response

    async def _stream_binary(self, media: str, extra: dict[str, str]) -> web.StreamResponse:
        """Deterministic bytes (`i % 251`), `x-testserver-binary-size` long (default 1024), in 64 KiB writes.

        The record's `binary_bytes_written` counts the bytes handed to the socket so far: a client
        that reads slowly holds it back (TCP flow control) when it applies back-pressure.
        """
        size = max(0, _int(self.control.get("binary-size"), 1024) or 0)
        headers = self.base_headers()
        headers.update(extra)
        headers["Content-Type"] = media
        response = web.StreamResponse(status=self.op.success_status if self.op else 200, headers=headers)
        response.content_length = size
        self.record["status"] = response.status
        await response.prepare(self.request)
        offset = 0
        self.record["binary_bytes_written"] = 0
        while offset < size:
            chunk = replies.binary_chunk(offset, min(_BINARY_CHUNK, size - offset))
            await self._write(response, chunk)
            offset += len(chunk)
            self.record["binary_bytes_written"] = offset
        await response.write_eof()
        return response


def http_date(seconds_from_now: float) -> str:
    """An HTTP date (RFC 9110 IMF-fixdate) `seconds_from_now` in the future, for Retry-After tests."""
    return email.utils.formatdate(time.time() + seconds_from_now, usegmt=True)
