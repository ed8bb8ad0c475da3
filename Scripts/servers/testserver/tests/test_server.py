"""End-to-end tests of the test server over HTTP (server started as a subprocess, like the Swift tests)."""

from __future__ import annotations

import email.utils
import hashlib
import http.client
import json
import socket
import time
import uuid

import pytest

from conftest import Server, multipart

CHAT = {"model": "gpt-4o", "messages": [{"role": "user", "content": "Hello"}]}


def scenario() -> str:
    return uuid.uuid4().hex


def errors_of(body: bytes) -> list[str]:
    return json.loads(body)["validation_errors"]


def test_valid_chat_completion_passes_and_gets_the_spec_example(server: Server) -> None:
    status, headers, body = server.request("POST", "/v1/chat/completions", CHAT)
    assert status == 200
    assert headers["x-testserver-validation"] == "ok"
    assert headers["x-testserver-operation"] == "createChatCompletion"
    assert headers["x-request-id"].startswith("req_")
    assert int(headers["openai-processing-ms"]) >= 0
    reply = json.loads(body)
    assert reply["object"] == "chat.completion"
    assert reply["choices"][0]["message"]["role"] == "assistant"


def test_wrong_type_is_rejected_with_its_json_path(server: Server) -> None:
    status, headers, body = server.request("POST", "/v1/chat/completions", {**CHAT, "temperature": "hot"})
    assert status == 400
    assert headers["x-testserver-validation"] == "failed"
    error = json.loads(body)["error"]
    assert error["type"] == "invalid_request_error"
    assert "$.temperature" in error["message"]
    assert "'hot' is not of type 'number'" in error["message"]


def test_missing_required_field_is_rejected(server: Server) -> None:
    status, _, body = server.request("POST", "/v1/chat/completions", {"model": "gpt-4o"})
    assert status == 400
    assert errors_of(body) == ["$: 'messages' is a required property"]


def test_unknown_enum_value_names_the_field_and_allowed_values(server: Server) -> None:
    bad = {"model": "gpt-4o", "messages": [{"role": "robot", "content": "x"}], "service_tier": "turbo"}
    status, _, body = server.request("POST", "/v1/chat/completions", bad)
    assert status == 400
    found = errors_of(body)
    assert any(e.startswith("$.messages[0].role: 'robot'") and "'user'" in e for e in found), found
    assert any(e.startswith("$.service_tier") and "turbo" in e for e in found), found


def test_every_problem_is_listed(server: Server) -> None:
    bad = {"messages": [{"role": "user", "content": 5}], "n": "two"}
    status, _, body = server.request("POST", "/v1/chat/completions", bad)
    assert status == 400
    found = errors_of(body)
    assert len(found) == 3, found
    assert any(e.startswith("$: 'model' is a required") for e in found)
    assert any(e.startswith("$.messages[0]") for e in found)
    assert any(e.startswith("$.n") for e in found)


def test_missing_authorization_is_rejected(server: Server) -> None:
    status, _, body = server.request("POST", "/v1/chat/completions", CHAT, auth=False)
    assert status == 400
    assert errors_of(body) == ["header.Authorization: missing (expected `Bearer <key>`)"]


def test_wrong_content_type_is_rejected(server: Server) -> None:
    status, _, body = server.request(
        "POST", "/v1/chat/completions", json.dumps(CHAT).encode(), {"Content-Type": "text/plain"}
    )
    assert status == 400
    assert errors_of(body)[0].startswith("header.Content-Type: `text/plain` is not accepted")


def test_query_arrays_with_brackets_pass_and_bad_values_fail(server: Server) -> None:
    include = "step_details.tool_calls%5B%2A%5D.file_search.results%5B%2A%5D.content"
    ok_path = f"/v1/threads/thread_1/runs/run_1/steps?include%5B%5D={include}&limit=5&order=asc"
    status, headers, _ = server.request("GET", ok_path)
    assert status == 200 and headers["x-testserver-validation"] == "ok"
    assert "x-testserver-warnings" not in headers
    status, _, body = server.request("GET", "/v1/threads/t/runs/r/steps?include%5B%5D=nope&limit=x&order=up")
    assert status == 400
    found = errors_of(body)
    assert any(e.startswith("query.include[][0]: 'nope' is not one of") for e in found), found
    assert "query.limit: 'x' is not of type 'integer'" in found
    assert any(e.startswith("query.order: 'up' is not one of") for e in found), found
    status, _, body = server.request("GET", f"/v1/threads/t/runs/r/steps?include={include}")
    assert status == 400
    assert "expected `include[]=` per value" in errors_of(body)[0]


def test_query_object_parameter(server: Server) -> None:
    status, headers, _ = server.request("GET", "/v1/fine_tuning/jobs?metadata%5Bproject%5D=alpha&limit=2")
    assert (status, headers["x-testserver-validation"]) == (200, "ok")


def test_multipart_create_file_with_purpose_passes_and_is_recorded(server: Server) -> None:
    sid = scenario()
    body, content_type = multipart(
        [("purpose", "assistants"), ("file", ("data set.jsonl", b'{"a": 1}\n', "application/jsonl"))]
    )
    status, headers, reply = server.request(
        "POST", "/v1/files", body, {"Content-Type": content_type, "x-testserver-scenario": sid}
    )
    assert (status, headers["x-testserver-validation"]) == (200, "ok"), reply
    parts = server.records(sid)[0]["parts"]
    assert [(p["name"], p["filename"], p["size"]) for p in parts] == [
        ("purpose", None, 10),
        ("file", "data set.jsonl", 9),
    ]
    assert parts[0]["value"] == "assistants"
    assert parts[1]["sha256"] == hashlib.sha256(b'{"a": 1}\n').hexdigest()
    assert "value" not in parts[1]


def test_multipart_create_file_without_purpose_fails(server: Server) -> None:
    body, content_type = multipart([("file", ("a.jsonl", b"{}\n", "application/jsonl"))])
    status, _, reply = server.request("POST", "/v1/files", body, {"Content-Type": content_type})
    assert status == 400
    assert errors_of(reply) == ["$: 'purpose' is a required property"]


def test_multipart_bad_enum_unknown_field_and_file_without_filename(server: Server) -> None:
    body, content_type = multipart([("purpose", "holiday"), ("file", "not a file"), ("colour", "red")])
    status, _, reply = server.request("POST", "/v1/files", body, {"Content-Type": content_type})
    assert status == 400
    found = errors_of(reply)
    assert "$.file: file field sent without a filename" in found
    assert "$.colour: form field not declared by the request schema" in found
    assert any(e.startswith("$.purpose: 'holiday' is not one of") for e in found), found


def test_multipart_arrays_and_objects_from_brackets(server: Server) -> None:
    png = b"\x89PNG\r\n\x1a\n" + b"\x00" * 16
    fields = [
        ("image[]", ("a.png", png, "image/png")),
        ("image[]", ("b.png", png, "image/png")),
        ("prompt", "add a hat"),
        ("n", "2"),
    ]
    body, content_type = multipart(fields)
    status, headers, reply = server.request("POST", "/v1/images/edits", body, {"Content-Type": content_type})
    assert (status, headers["x-testserver-validation"]) == (200, "ok"), reply
    sid = scenario()
    body, content_type = multipart(
        [
            ("purpose", "batch"),
            ("file", ("b.jsonl", b"{}\n", "application/jsonl")),
            ("expires_after[anchor]", "created_at"),
            ("expires_after[seconds]", "3600"),
        ]
    )
    status, headers, reply = server.request(
        "POST", "/v1/files", body, {"Content-Type": content_type, "x-testserver-scenario": sid}
    )
    assert (status, headers["x-testserver-validation"]) == (200, "ok"), reply
    body, content_type = multipart(
        [("purpose", "batch"), ("file", ("b.jsonl", b"{}\n", "x/y")), ("expires_after[anchor]", "sometime")]
    )
    status, _, reply = server.request("POST", "/v1/files", body, {"Content-Type": content_type})
    assert status == 400
    found = errors_of(reply)
    assert any(e.startswith("$.expires_after") for e in found), found


def test_path_with_query_string_routes_to_the_beta_operation(server: Server) -> None:
    body = {"model": "gpt-4o", "input": "hi"}
    _, beta, _ = server.request("POST", "/v1/responses?beta=true", body)
    _, plain, _ = server.request("POST", "/v1/responses", body)
    assert beta["x-testserver-operation"] == "beta_createResponse"
    assert plain["x-testserver-operation"] == "createResponse"


def test_unknown_path_is_an_openai_shaped_404(server: Server) -> None:
    status, headers, body = server.request("GET", "/v1/no/such/thing")
    assert status == 404
    assert headers["x-testserver-validation"] == "failed"
    assert json.loads(body) == {
        "error": {
            "message": "Invalid URL (GET /v1/no/such/thing)",
            "type": "invalid_request_error",
            "param": None,
            "code": "unknown_url",
        }
    }


def test_fail_times_then_success_with_attempt_counts(server: Server) -> None:
    sid = scenario()
    faults = {
        "x-testserver-scenario": sid,
        "x-testserver-fail-times": "2",
        "x-testserver-fail-status": "503",
        "x-testserver-retry-after": "2",
        "x-testserver-should-retry": "true",
    }
    results = [server.request("POST", "/v1/chat/completions", CHAT, faults) for _ in range(3)]
    assert [status for status, _, _ in results] == [503, 503, 200]
    assert [h["x-testserver-attempt"] for _, h, _ in results] == ["1", "2", "3"]
    assert results[0][1]["retry-after"] == "2"
    assert results[0][1]["x-should-retry"] == "true"
    assert "retry-after" not in results[2][1]
    assert json.loads(results[0][2])["error"]["type"] == "server_error"
    records = server.records(sid)
    assert [(r["attempt"], r["status"]) for r in records] == [(1, 503), (2, 503), (3, 200)]


def test_rate_limit_with_retry_after_ms(server: Server) -> None:
    faults = {"x-testserver-fail-status": "429", "x-testserver-retry-after-ms": "250"}
    status, headers, body = server.request("POST", "/v1/chat/completions", CHAT, faults)
    assert status == 429
    assert headers["retry-after-ms"] == "250"
    assert json.loads(body)["error"]["code"] == "rate_limit_exceeded"


def test_error_fixture_uses_recorded_status_and_headers(server: Server) -> None:
    fault = {"x-testserver-error-fixture": "errors/401-chat-invalid-api-key.json"}
    status, headers, body = server.request("POST", "/v1/chat/completions", CHAT, fault)
    assert status == 401
    assert headers["cf-ray"] == "9cd0fedd99a4c37c-SEA"
    assert headers["x-request-id"].startswith("req_")
    assert json.loads(body)["error"]["code"] == "invalid_api_key"
    status, _, body = server.request(
        "POST", "/v1/chat/completions", CHAT, {"x-testserver-error-fixture": "errors/429-insufficient-quota.json"}
    )
    assert status == 429 and json.loads(body)["error"]["code"] == "insufficient_quota"


def test_drop_connection_really_closes_the_socket(server: Server) -> None:
    sid = scenario()
    faults = {"x-testserver-drop-connection": "true", "x-testserver-scenario": sid, "x-testserver-fail-times": "1"}
    with pytest.raises((http.client.RemoteDisconnected, ConnectionResetError)):
        server.request("POST", "/v1/chat/completions", CHAT, faults)
    status, _, _ = server.request("POST", "/v1/chat/completions", CHAT, faults)
    assert status == 200
    records = server.records(sid)
    assert [r.get("dropped", False) for r in records] == [True, False]


def test_delay_past_the_client_timeout_is_recorded_as_disconnect(server: Server) -> None:
    sid = scenario()
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=0.3)
    headers = {
        **{"Authorization": "Bearer k", "Content-Type": "application/json"},
        "x-testserver-delay-ms": "3000",
        "x-testserver-scenario": sid,
    }
    conn.request("POST", "/v1/chat/completions", body=json.dumps(CHAT), headers=headers)
    with pytest.raises((socket.timeout, TimeoutError)):
        conn.getresponse()
    conn.close()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and not server.records(sid)[0]["disconnected"]:
        time.sleep(0.05)
    assert server.records(sid)[0]["disconnected"] is True


def read_frames(response: http.client.HTTPResponse) -> list[tuple[float, bytes]]:
    frames, current = [], b""
    while True:
        line = response.readline()
        if not line:
            return frames
        current += line
        if line in (b"\n", b"\r\n"):
            frames.append((time.monotonic(), current))
            current = b""


def test_sse_fixture_is_streamed_frame_by_frame(server: Server) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    headers = {
        "Authorization": "Bearer k",
        "Content-Type": "application/json",
        "x-testserver-fixture": "audio/stream/dotnet-transcription-deltas-crlf.sse",
        "x-testserver-chunk-delay-ms": "40",
    }
    conn.request("POST", "/v1/chat/completions", body=json.dumps({**CHAT, "stream": True}), headers=headers)
    response = conn.getresponse()
    assert response.status == 200
    assert response.getheader("Content-Type").startswith("text/event-stream")
    frames = read_frames(response)
    conn.close()
    raw = open(__import__("conftest").FIXTURES / "audio/stream/dotnet-transcription-deltas-crlf.sse", "rb").read()
    assert b"".join(frame for _, frame in frames) == raw
    assert frames[-1][1] == b"data: [DONE]\r\n\r\n"
    spread = frames[-1][0] - frames[0][0]
    assert spread >= 0.04 * (len(frames) - 1) * 0.8, spread


def test_stream_error_after_two_frames(server: Server) -> None:
    headers = {"x-testserver-fixture": "responses/stream/vercel-mcp-call.sse", "x-testserver-stream-error-after": "2"}
    status, _, body = server.request("POST", "/v1/responses", {"model": "m", "input": "x", "stream": True}, headers)
    assert status == 200
    frames = body.split(b"\n\n")
    assert frames[0].startswith(b"event: response.created")
    assert frames[2].startswith(b"event: error\ndata: ")
    error = json.loads(frames[2].split(b"data: ", 1)[1])
    assert (error["type"], error["code"], error["sequence_number"]) == ("error", "server_error", 2)


def test_end_after_bytes_ends_the_body_cleanly_at_that_byte(server: Server) -> None:
    fixture = "responses/stream/vercel-mcp-call.sse"
    raw = open(__import__("conftest").FIXTURES / fixture, "rb").read()
    for cut in (0, 57, raw.index(b"\n\n") + 2, 1000):
        headers = {"x-testserver-fixture": fixture, "x-testserver-end-after-bytes": str(cut)}
        status, _, body = server.request("POST", "/v1/responses", {"model": "m", "input": "x", "stream": True}, headers)
        assert status == 200
        assert body == raw[:cut], cut


def test_stream_from_the_spec_example_when_no_fixture(server: Server) -> None:
    status, headers, body = server.request("POST", "/v1/chat/completions", {**CHAT, "stream": True})
    assert status == 200 and headers["content-type"].startswith("text/event-stream")
    frames = [f for f in body.decode().split("\n\n") if f]
    assert frames[-1] == "data: [DONE]"
    assert json.loads(frames[0][len("data: ") :])["object"] == "chat.completion.chunk"


def test_client_disconnect_during_stream_is_recorded(server: Server) -> None:
    sid = scenario()
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    headers = {
        "Authorization": "Bearer k",
        "Content-Type": "application/json",
        "x-testserver-fixture": "responses/stream/vercel-mcp-call.sse",
        "x-testserver-chunk-delay-ms": "200",
        "x-testserver-scenario": sid,
    }
    conn.request(
        "POST", "/v1/responses", body=json.dumps({"model": "m", "input": "x", "stream": True}), headers=headers
    )
    response = conn.getresponse()
    response.readline()
    conn.sock.shutdown(socket.SHUT_RDWR)
    conn.close()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and not server.records(sid)[0]["disconnected"]:
        time.sleep(0.05)
    record = server.records(sid)[0]
    assert record["disconnected"] is True
    assert record.get("frames_sent", 0) < 10


def test_recording_endpoint_and_clear(server: Server) -> None:
    sid = scenario()
    server.request("POST", "/v1/chat/completions", CHAT, {"x-testserver-scenario": sid, "OpenAI-Project": "proj_1"})
    (record,) = server.records(sid)
    assert record["method"] == "POST"
    assert record["path"] == "/v1/chat/completions"
    assert record["operation_id"] == "createChatCompletion"
    assert record["security"] == ["ApiKeyAuth"]
    assert json.loads(record["body"]["text"]) == CHAT
    assert ["OpenAI-Project", "proj_1"] in record["headers"]
    assert record["validation"] == {"result": "ok", "errors": [], "warnings": []}
    assert record["received_at"] <= record["completed_at"]
    status, _, _ = server.request("DELETE", f"/__testserver/requests?scenario={sid}", auth=False)
    assert status == 200 and server.records(sid) == []
    assert server.request("GET", "/__testserver/health", auth=False)[0] == 200


def test_pagination_over_three_pages(server: Server) -> None:
    ids, pages, after = [], 0, None
    while True:
        path = "/v1/assistants?limit=2" + (f"&after={after}" if after else "")
        status, _, body = server.request("GET", path, headers={"x-testserver-pages": "3"})
        assert status == 200
        page = json.loads(body)
        pages += 1
        ids += [item["id"] for item in page["data"]]
        assert page["first_id"] == page["data"][0]["id"] and page["last_id"] == page["data"][-1]["id"]
        if not page["has_more"]:
            break
        after = page["last_id"]
    assert pages == 3
    assert ids == [f"item_{n}" for n in range(1, 7)]
    assert page["data"][0]["object"] == "assistant"


def test_discard_body_counts_bytes_without_keeping_them(server: Server) -> None:
    sid = scenario()
    payload = b"x" * (5 << 20)
    body, content_type = multipart([("purpose", "batch"), ("file", ("big.jsonl", payload, "application/jsonl"))])
    headers = {"Content-Type": content_type, "x-testserver-discard-body": "true", "x-testserver-scenario": sid}
    status, _, reply = server.request("POST", "/v1/files", body, headers)
    assert status == 200 and json.loads(reply)["object"] == "file"
    (record,) = server.records(sid)
    assert record["body"]["discarded"] is True and record["body"]["size"] == len(body)
    assert len(record["body"]["sha256"]) == 64


def test_binary_download_and_sdp(server: Server) -> None:
    status, headers, body = server.request(
        "GET", "/v1/files/file-1/content", headers={"x-testserver-binary-size": "100000"}
    )
    assert status == 200 and len(body) == 100000 and body[:3] == bytes([0, 1, 2]) and body[251] == 0
    status, headers, body = server.request(
        "POST", "/v1/realtime/calls", b"v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\n", {"Content-Type": "application/sdp"}
    )
    assert (status, headers["x-testserver-validation"]) == (201, "ok") or status == 200, body
    status, _, body = server.request("POST", "/v1/realtime/calls", b"  ", {"Content-Type": "application/sdp"})
    assert status == 400 and errors_of(body) == ["$: application/sdp body is empty"]


def test_exits_when_stdin_closes(tmp_path) -> None:
    from conftest import require_shared

    require_shared()
    srv = Server(tmp_path)
    assert srv.request("GET", "/__testserver/health", auth=False)[0] == 200
    started = time.monotonic()
    assert srv.stop() == 0
    print(f"\nexit after stdin EOF took {time.monotonic() - started:.3f} s")


def test_retry_after_as_http_date(server: Server) -> None:
    faults = {"x-testserver-fail-status": "503", "x-testserver-retry-after": "date+30"}
    status, headers, _ = server.request("POST", "/v1/chat/completions", CHAT, faults)
    assert status == 503
    when = email.utils.parsedate_to_datetime(headers["retry-after"]).timestamp()
    assert 20 < when - time.time() <= 31


def test_unknown_body_property_is_a_warning_or_an_error_when_strict(server: Server) -> None:
    body = {**CHAT, "max_tokenz": 5}
    status, headers, _ = server.request("POST", "/v1/chat/completions", body)
    assert (status, headers["x-testserver-validation"], headers["x-testserver-warnings"]) == (200, "ok", "1")
    status, _, reply = server.request("POST", "/v1/chat/completions", body, {"x-testserver-strict": "true"})
    assert status == 400
    assert errors_of(reply) == ["$.max_tokenz: property not declared by the request schema"]


def test_validation_can_be_skipped_for_benchmarks(server: Server) -> None:
    status, headers, _ = server.request(
        "POST", "/v1/chat/completions", {"bogus": 1}, {"x-testserver-validate": "false"}
    )
    assert (status, headers["x-testserver-validation"]) == (200, "skipped")


def test_method_not_allowed_and_empty_path_parameter(server: Server) -> None:
    status, headers, body = server.request("PUT", "/v1/chat/completions", CHAT)
    assert status == 405 and set(headers["allow"].split(", ")) == {"GET", "POST"}
    status, _, body = server.request("GET", "/v1/files//content")
    assert status == 400 and errors_of(body) == ["path.file_id: path parameter is empty"]
