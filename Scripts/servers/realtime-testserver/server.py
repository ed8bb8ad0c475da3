#!/usr/bin/env python3
"""Local WebSocket server for the OpenAIRealtime tests and benchmark.

Built on PyPI's `websockets` (an independent RFC 6455 implementation). Starts one plain listener
and any number of TLS listeners on free loopback ports, prints one JSON line
`{"plain": PORT, "tls": {"NAME": PORT, ...}}` to stdout, and exits when stdin closes, so a test
that dies cannot leave it running.

Routes (by request path):
  /echo        echo every message back with the same type
  /headers     first send a JSON report of the request (Authorization and api-key headers, offered
               and selected subprotocols, path), then echo
  /headers-close-1012  send the same report, then close with 1012 "service restart"
  /fragmented  send a text message in 3 frames and a binary message in 2 frames, then echo
  /ping        send a ping, wait up to 5 s for the pong, send "pong received", then echo
  /close-1011  send "closing", then close with 1011 "keepalive ping timeout"
  /large?bytes=N  send one text message of N bytes of "a", then echo
  /reject      refuse the upgrade with HTTP 403 and a short body
  /session     a scripted Realtime conversation (events shaped after the GA spec examples):
               session.created; waits for session.update -> session.updated, then the bug-report
               events transcription_session.updated (absent from the spec's server-event union),
               response.audio_transcript.done (beta name) and response.output_audio_transcript.done
               (GA name); counts input_audio_buffer.append until input_audio_buffer.commit ->
               input_audio_buffer.committed; pings; waits for response.create -> response.created,
               AUDIO_DELTAS x response.output_audio.delta (every other one fragmented into frames),
               response.function_call_arguments.done; waits for conversation.item.create with a
               function_call_output -> conversation.item.added (the item echoed with an id) and
               response.done; then waits for the client to close.
               Unexpected client events are answered with an error event (type invalid_request_error).
  /responses   Responses API WebSocket mode: each response.create is answered with
               response.output_text.delta events ("Hel", "lo") echoing its stream_id, then an
               error event (ResponseWsError) with status 400 and the same stream_id, then one
               event of a type the spec does not define (response.future_event)
  /bench       echo, except input_audio_buffer.append events are counted, not echoed, and
               input_audio_buffer.commit is answered with
               {"type":"bench.committed","appends":N,"bytes":B} (a type the spec does not define)
"""

import argparse
import asyncio
import base64
import http
import json
import os
import ssl
import sys
from urllib.parse import parse_qs, urlsplit

from websockets.asyncio.server import serve
from websockets.exceptions import ConnectionClosed


def process_request(connection, request):
    if request.path == "/reject":
        return connection.respond(http.HTTPStatus.FORBIDDEN, "forbidden: test rejection\n")
    return None


def select_subprotocol(connection, offered):
    return "realtime" if "realtime" in offered else None


async def echo(ws):
    async for message in ws:
        await ws.send(message)


AUDIO_DELTAS = 6


def event(counter, type_, **fields):
    return json.dumps({"type": type_, "event_id": f"event_{counter}", **fields})


async def realtime_session(ws):
    counter = iter(range(1, 1_000_000))
    session = {"type": "realtime", "object": "realtime.session", "id": "sess_test_001",
               "model": "gpt-realtime", "output_modalities": ["audio"]}
    await ws.send(event(next(counter), "session.created", session=session))

    async def expect(type_):
        while True:
            message = json.loads(await ws.recv())
            if message.get("type") == type_:
                return message
            await ws.send(event(next(counter), "error", error={
                "type": "invalid_request_error", "code": "unexpected_event",
                "message": f"expected {type_}, got {message.get('type')}", "param": None,
                "event_id": message.get("event_id")}))

    update = await expect("session.update")
    await ws.send(event(next(counter), "session.updated", session={**session, **update.get("session", {})}))
    await ws.send(event(next(counter), "transcription_session.updated", session={"id": "sess_test_001"}))
    await ws.send(event(next(counter), "response.audio_transcript.done", response_id="resp_000",
                        item_id="item_000", output_index=0, content_index=0, transcript="beta name"))
    await ws.send(event(next(counter), "response.output_audio_transcript.done", response_id="resp_000",
                        item_id="item_000", output_index=0, content_index=0, transcript="GA name"))
    appends = 0
    audio_bytes = 0
    while True:
        message = json.loads(await ws.recv())
        if message.get("type") == "input_audio_buffer.append":
            appends += 1
            audio_bytes += len(base64.b64decode(message["audio"]))
        elif message.get("type") == "input_audio_buffer.commit":
            break
    # item_id carries the counts so a typed client can check what the server received.
    await ws.send(event(next(counter), "input_audio_buffer.committed", previous_item_id=None,
                        item_id=f"item_{appends}_{audio_bytes}", appends=appends, audio_bytes=audio_bytes))
    await asyncio.wait_for(await ws.ping(b"session-ping"), timeout=5)
    await expect("response.create")
    response = {"object": "realtime.response", "id": "resp_001", "status": "in_progress",
                "output": [], "conversation_id": "conv_001", "output_modalities": ["audio"]}
    await ws.send(event(next(counter), "response.created", response=response))
    for index in range(AUDIO_DELTAS):
        delta = event(next(counter), "response.output_audio.delta", response_id="resp_001",
                      item_id="item_002", output_index=0, content_index=0,
                      delta=base64.b64encode(bytes(range(256)) * 19).decode())
        if index % 2:
            await ws.send([delta[i:i + 1000] for i in range(0, len(delta), 1000)])
        else:
            await ws.send(delta)
    await ws.send(event(next(counter), "response.function_call_arguments.done", response_id="resp_001",
                        item_id="fc_001", output_index=1, call_id="call_001", name="get_weather",
                        arguments='{"location": "Paris"}'))
    output = await expect("conversation.item.create")
    item = output.get("item", {})
    await ws.send(event(next(counter), "conversation.item.added", previous_item_id="fc_001",
                        item={**item, "id": "item_003", "status": "completed"}))
    done = {**response, "status": "completed",
            "output": [{"id": "fc_001", "type": "function_call", "call_id": "call_001",
                        "name": "get_weather", "arguments": '{"location": "Paris"}'}],
            "metadata": {"function_output": item.get("output")}}
    await ws.send(event(next(counter), "response.done", response=done))
    await ws.wait_closed()


async def responses_socket(ws):
    sequence = iter(range(0, 1_000_000))
    async for message in ws:
        request = json.loads(message)
        lane = {"stream_id": request["stream_id"]} if "stream_id" in request else {}
        if request.get("type") != "response.create":
            await ws.send(json.dumps({"type": "error", "status": 400, "error": {
                "type": "invalid_request_error", "code": "unknown_event", "message": "unknown event",
                "param": "type"}, **lane}))
            continue
        for piece in ("Hel", "lo"):
            await ws.send(json.dumps({"type": "response.output_text.delta", "item_id": "msg_001",
                                      "output_index": 0, "content_index": 0, "delta": piece,
                                      "sequence_number": next(sequence), "logprobs": [], **lane}))
        await ws.send(json.dumps({"type": "error", "status": 400, "sequence_number": next(sequence),
                                  "error": {"type": "invalid_request_error", "code": "model_not_found",
                                            "message": f"model {request.get('model')} not found",
                                            "param": "model"}, **lane}))
        await ws.send(json.dumps({"type": "response.future_event", "detail": {"kept": True}, **lane}))


async def handler(ws):
    url = urlsplit(ws.request.path)
    path = url.path
    try:
        if path == "/echo":
            await echo(ws)
        elif path in ("/headers", "/headers-close-1012"):
            offered = ws.request.headers.get_all("Sec-WebSocket-Protocol")
            offered = [p.strip() for value in offered for p in value.split(",")]
            report = {
                "path": ws.request.path,
                "authorization": ws.request.headers.get("Authorization"),
                "api_key": ws.request.headers.get("api-key"),
                "x_custom": ws.request.headers.get("X-Custom"),
                "offered_subprotocols": offered,
                "selected_subprotocol": ws.subprotocol,
                "host": ws.request.headers.get("Host"),
            }
            await ws.send(json.dumps(report))
            if path == "/headers-close-1012":
                await ws.close(1012, "service restart")
            else:
                await echo(ws)
        elif path == "/fragmented":
            await ws.send(["frag-one ", "frag-two ", "frag-three \u00e9\u20ac"])
            await ws.send([b"\x00\x01\x02", b"\x03\x04"])
            await echo(ws)
        elif path == "/ping":
            waiter = await ws.ping(b"server-ping")
            await asyncio.wait_for(waiter, timeout=5)
            await ws.send("pong received")
            await echo(ws)
        elif path == "/close-1011":
            await ws.send("closing")
            await ws.close(1011, "keepalive ping timeout")
        elif path == "/large":
            size = int(parse_qs(url.query).get("bytes", ["0"])[0])
            await ws.send("a" * size)
            await echo(ws)
        elif path == "/session":
            await realtime_session(ws)
        elif path == "/responses":
            await responses_socket(ws)
        elif path == "/bench":
            appends = 0
            total = 0
            async for message in ws:
                if isinstance(message, str) and message.startswith('{"type":"input_audio_buffer.append"'):
                    appends += 1
                    total += len(message)
                elif isinstance(message, str) and message.startswith('{"type":"input_audio_buffer.commit"'):
                    # Not a spec event type, so that a typed client receives the counts as an unknown
                    # event (input_audio_buffer.committed without its spec members decodes leniently).
                    committed = {"type": "bench.committed", "appends": appends, "bytes": total}
                    await ws.send(json.dumps(committed))
                    appends = 0
                    total = 0
                else:
                    await ws.send(message)
        else:
            await ws.close(1008, f"unknown route {path}")
    except ConnectionClosed:
        pass


async def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tls", nargs=3, action="append", default=[], metavar=("NAME", "CERT", "KEY"),
                        help="add a TLS listener with this certificate chain and key")
    args = parser.parse_args()
    # max_queue: websockets' default (16 messages) pauses reading whenever a burst of frames arrives
    # faster than the handler takes them, and pausing and resuming costs this one-process server about
    # a third more CPU per message; the benchmark would then measure that, not the client. A deeper
    # queue keeps the server out of the way (measured: the Swift transport's appends/s went from 0.77x
    # to above 1x the Python client's against the same server).
    options = dict(select_subprotocol=select_subprotocol, process_request=process_request, max_size=64 * 1024 * 1024,
                   ping_interval=None, compression=None, max_queue=(1024, 256))
    servers = []
    plain = await serve(handler, "127.0.0.1", 0, **options)
    servers.append(plain)
    ports = {"plain": plain.sockets[0].getsockname()[1], "tls": {}}
    for name, cert, key in args.tls:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(cert, key)
        server = await serve(handler, "127.0.0.1", 0, ssl=context, **options)
        servers.append(server)
        ports["tls"][name] = server.sockets[0].getsockname()[1]
    print(json.dumps(ports), flush=True)
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, sys.stdin.read)
    os._exit(0)


if __name__ == "__main__":
    asyncio.run(main())
