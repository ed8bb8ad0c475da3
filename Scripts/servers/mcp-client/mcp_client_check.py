"""Drives `openai mcp` with the official MCP Python SDK's client (PyPI `mcp`) over stdio, against the local test
server, and prints a JSON report the Swift test (Tests/OpenAICLITests/MCPServerTests.swift) asserts on.

What it does: initializes at each protocol revision (2025-06-18, 2025-11-25, 2026-07-28); counts the tools with and
without filters and an admin key; checks every inputSchema and outputSchema against the Draft 2020-12 meta-schema;
calls tools of different kinds (a list, a page with its cursor, a create with a nested body, a stream collected with
progress, a binary reply, a multipart upload, an admin tool, a delete) and reads what the test server received; an API
error as `isError`; a cancellation; the dynamic mode end to end; malformed messages on a raw pipe; and the sizes of
tools/list and the start-up time.

Usage: python mcp_client_check.py --binary PATH --root http://127.0.0.1:PORT --folder DIR
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import json
import os
import statistics
import subprocess
import sys
import time
import urllib.request
import uuid
from typing import Any

import anyio
import jsonschema
import mcp.types as types
from mcp import ClientSession, StdioServerParameters, stdio_client

ARGS: argparse.Namespace
ADMIN_KEY = "sk-admin-mcp-0123456789"


def environment(scenario: str, admin: bool = False, headers: dict[str, str] | None = None) -> dict[str, str]:
    """The server's environment: test keys, the test server's base URL and the scenario header."""
    lines = {"x-testserver-scenario": scenario, **(headers or {})}
    env = {
        "OPENAI_API_KEY": "sk-test-mcp-0123456789",
        "OPENAI_BASE_URL": ARGS.root + "/v1",
        "OPENAI_CUSTOM_HEADERS": "\n".join(f"{k}: {v}" for k, v in lines.items()),
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
    }
    if admin:
        env["OPENAI_ADMIN_KEY"] = ADMIN_KEY
    return env


def records(scenario: str) -> list[dict[str, Any]]:
    """What the test server received for `scenario`."""
    with urllib.request.urlopen(f"{ARGS.root}/__testserver/requests?scenario={scenario}") as reply:
        return json.loads(reply.read())["requests"]


@contextlib.asynccontextmanager
async def session(version: str, args: list[str] | None = None, env: dict[str, str] | None = None):
    """A client session with `openai mcp ARGS`, pinned to the protocol revision `version`."""
    params = StdioServerParameters(command=ARGS.binary, args=["mcp", *(args or [])], env=env or environment("none"))
    with open(os.devnull, "w") as devnull:
        async with stdio_client(params, errlog=devnull) as (read, write):
            async with ClientSession(read, write, client_info=types.Implementation(name="check", version="0")) as s:
                if version == "2026-07-28":
                    await s.discover()
                elif version == "2025-11-25":
                    await s.initialize()
                else:
                    result = await s.send_request(
                        types.InitializeRequest(
                            params=types.InitializeRequestParams(
                                protocol_version=version,
                                capabilities=types.ClientCapabilities(),
                                client_info=types.Implementation(name="check", version="0"),
                            )
                        ),
                        types.InitializeResult,
                    )
                    s.adopt(result)
                    await s.send_notification(types.InitializedNotification())
                yield s


def dump(model: Any) -> Any:
    return model.model_dump(mode="json", by_alias=True, exclude_none=True)


async def revisions(report: dict[str, Any]) -> None:
    report["revisions"] = {}
    for version in ("2025-06-18", "2025-11-25", "2026-07-28"):
        async with session(version) as s:
            listed = await s.list_tools()
            result = await s.call_tool("models_list", {})
            report["revisions"][version] = {
                "negotiated": s.protocol_version,
                "tools": len(listed.tools),
                "call_ok": not result.is_error and result.structured_content is not None,
            }


async def counts(report: dict[str, Any]) -> None:
    cases = {
        "default": ([], False),
        "admin": ([], True),
        "resource vector-stores*": (["--resource", "vector-stores*"], False),
        "read-only": (["--read-only"], True),
        "no-admin": (["--no-admin"], True),
        "operation": (["--operation", "responses_create", "--operation", "files list"], False),
        "dynamic": (["--tools", "dynamic"], True),
    }
    report["counts"] = {}
    for name, (args, admin) in cases.items():
        async with session("2025-11-25", args, environment("counts", admin)) as s:
            report["counts"][name] = len((await s.list_tools()).tools)


async def schemas(report: dict[str, Any]) -> None:
    invalid: list[str] = []
    refs: list[str] = []
    names: list[str] = []
    async with session("2025-11-25", [], environment("schemas", admin=True)) as s:
        tools = (await s.list_tools()).tools
    for tool in tools:
        names.append(tool.name)
        for kind, schema in (("input", tool.input_schema), ("output", tool.output_schema)):
            if schema is None:
                continue
            try:
                jsonschema.Draft202012Validator.check_schema(schema)
            except jsonschema.SchemaError as error:
                invalid.append(f"{tool.name} {kind}: {error.message}")
            if "$ref" in json.dumps(schema):
                refs.append(f"{tool.name} {kind}")
    destructive = sorted(t.name for t in tools if t.annotations and t.annotations.destructive_hint)
    deletes = sorted(t.name for t in tools if t.name.endswith("_delete"))
    report["schemas"] = {
        "tools": len(tools),
        "invalid": invalid,
        "with_refs": refs,
        "names_ok": all(len(n) <= 64 and n.replace("_", "").isalnum() and n.isascii() for n in names),
        "with_output_schema": sum(1 for t in tools if t.output_schema is not None),
        "destructive": len(destructive),
        "every_delete_destructive": set(deletes) <= set(destructive),
        "destructive_names": destructive,
    }


async def calls(report: dict[str, Any]) -> None:
    scenario = f"calls-{uuid.uuid4().hex[:8]}"
    upload = os.path.join(ARGS.folder, "train.jsonl")
    with open(upload, "w") as file:
        file.write('{"messages": []}\n')
    results: dict[str, Any] = {}
    async with session("2025-11-25", ["--allow-files", ARGS.folder], environment(scenario, admin=True)) as s:
        progress: list[tuple[float, str | None]] = []

        async def on_progress(value: float, total: float | None, message: str | None) -> None:
            progress.append((value, message))

        plan = [
            ("models_list", {}),
            ("files_list", {"limit": 2}),
            (
                "responses_create",
                {"model": "gpt-4.1", "input": [{"role": "user", "content": "Say hi."}], "metadata": {"team": "mcp"}},
            ),
            ("embeddings_create", {"model": "text-embedding-3-small", "input": "hello"}),
            ("vector_stores_create", {"name": "docs"}),
            ("vector_stores_delete", {"vector_store_id": "vs_1"}),
            ("audio_speech_create", {"model": "gpt-4o-mini-tts", "voice": "alloy", "input": "Hello."}),
            ("files_create", {"file": "@" + upload, "purpose": "fine-tune"}),
            ("admin_organization_projects_list", {"limit": 2}),
            (
                "chat_completions_create",
                {"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}], "stream": True},
            ),
        ]
        for name, arguments in plan:
            callback = on_progress if name == "chat_completions_create" else None
            result = await s.call_tool(name, arguments, progress_callback=callback)
            entry: dict[str, Any] = {"is_error": bool(result.is_error)}
            entry["text"] = next((c.text for c in result.content if c.type == "text"), "")[:300]
            if result.structured_content is not None:
                entry["structured_keys"] = sorted(result.structured_content)[:20]
            for block in result.content:
                if block.type == "resource" and getattr(block.resource, "blob", None):
                    entry["blob_bytes"] = len(base64.b64decode(block.resource.blob))
                    entry["mime"] = block.resource.mime_type
            if name == "chat_completions_create" and result.structured_content:
                message = result.structured_content["choices"][0]["message"]
                entry["collected_content"] = message.get("content")
                entry["object"] = result.structured_content.get("object")
            if name == "files_list":
                entry["notes"] = [c.text for c in result.content if c.type == "text"][1:]
            results[name] = entry
        results["chat_completions_create"]["progress"] = len(progress)
        results["chat_completions_create"]["progress_last"] = progress[-1][0] if progress else None
        outside = await s.call_tool("files_create", {"file": "@/etc/hostname", "purpose": "batch"})
        inline = await s.call_tool(
            "files_create",
            {"file": "data:application/jsonl;base64," + base64.b64encode(b'{"a": 1}\n').decode(), "purpose": "batch"},
        )
    report["files"] = {
        "outside_is_error": bool(outside.is_error),
        "outside_text": outside.content[0].text if outside.content else "",
        "data_url_ok": not inline.is_error,
    }
    received = records(scenario)
    report["calls"] = results
    report["calls_received"] = {
        "operations": sorted({r.get("operation_id") for r in received}),
        "all_validated": all((r.get("validation") or {}).get("result") == "ok" for r in received),
        "count": len(received),
        "upload_parts": [
            {"name": p.get("name"), "filename": p.get("filename"), "size": p.get("size")}
            for r in received
            if r.get("operation_id") == "createFile"
            for p in r.get("parts") or []
        ],
        "admin_authorization": [
            dict(r["headers"]).get("Authorization") for r in received if r.get("operation_id") == "list-projects"
        ],
    }


async def errors(report: dict[str, Any]) -> None:
    scenario = f"errors-{uuid.uuid4().hex[:8]}"
    headers = {"x-testserver-fail-status": "404"}
    async with session("2025-11-25", [], environment(scenario, headers=headers)) as s:
        api = await s.call_tool("models_retrieve", {"model": "gpt-4o"})
        invalid = await s.call_tool("vector_stores_files_list", {"limit": "ten"})
    paged = f"pages-{uuid.uuid4().hex[:8]}"
    async with session("2025-11-25", [], environment(paged, headers={"x-testserver-pages": "3"})) as s:
        first = await s.call_tool("files_list", {"limit": 2})
        second = await s.call_tool("files_list", {"limit": 2, "after": "item_2"})
    report["paging"] = {
        "first_ids": [item["id"] for item in (first.structured_content or {}).get("data", [])],
        "first_note": [c.text for c in first.content if c.type == "text"][1:],
        "second_ids": [item["id"] for item in (second.structured_content or {}).get("data", [])],
        "requests": len(records(paged)),
    }
    report["errors"] = {
        "api_is_error": bool(api.is_error),
        "api_text": api.content[0].text if api.content else "",
        "invalid_is_error": bool(invalid.is_error),
        "invalid_text": invalid.content[0].text if invalid.content else "",
        "requests": len(records(scenario)),
    }


async def dynamic(report: dict[str, Any]) -> None:
    scenario = f"dynamic-{uuid.uuid4().hex[:8]}"
    async with session("2026-07-28", ["--tools", "dynamic"], environment(scenario, admin=True)) as s:
        names = [t.name for t in (await s.list_tools()).tools]
        # Stainless's argument names (`search_query`, `endpoint_name`), then the earlier ones kept as aliases.
        found = await s.call_tool("list_api_endpoints", {"search_query": "vector store"})
        found_by_alias = await s.call_tool("list_api_endpoints", {"search": "vector store"})
        schema = await s.call_tool("get_api_endpoint_schema", {"endpoint": "vector_stores_create"})
        invoked = await s.call_tool(
            "invoke_api_endpoint", {"endpoint_name": "vector_stores_create", "args": {"name": "docs"}}
        )
        invoked_by_alias = await s.call_tool(
            "invoke_api_endpoint", {"endpoint": "vector_stores_create", "args": {"name": "old"}}
        )
        refused = await s.call_tool(
            "invoke_api_endpoint", {"endpoint_name": "vector_stores_files_create", "args": {"file_id": "file-1"}}
        )
    endpoints = [e["name"] for e in (found.structured_content or {}).get("endpoints", [])]
    input_schema = (schema.structured_content or {}).get("inputSchema", {})
    valid = True
    try:
        jsonschema.Draft202012Validator.check_schema(input_schema)
    except jsonschema.SchemaError:
        valid = False
    received = records(scenario)
    report["dynamic"] = {
        "tools": names,
        "found_vector_stores_create": "vector_stores_create" in endpoints,
        "found": len(endpoints),
        "schema_valid": valid,
        "invoked_ok": not invoked.is_error,
        "invoked_by_alias_ok": not invoked_by_alias.is_error,
        "found_by_alias": len((found_by_alias.structured_content or {}).get("endpoints", [])),
        "refused_is_error": bool(refused.is_error),
        "refused_text": refused.content[0].text if refused.content else "",
        "received": [r.get("operation_id") for r in received],
        "validated": all((r.get("validation") or {}).get("result") == "ok" for r in received),
    }


def raw_exchange(lines: list[str], env: dict[str, str], args: list[str] | None = None, wait: float = 0) -> list[dict]:
    """Writes `lines` to `openai mcp` (pausing `wait` seconds before the last), closes its input, reads every reply."""
    process = subprocess.Popen(
        [ARGS.binary, "mcp", *(args or [])],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
        text=True,
    )
    assert process.stdin is not None
    for index, line in enumerate(lines):
        if wait and index == len(lines) - 1:
            process.stdin.flush()
            time.sleep(wait)
        process.stdin.write(line + "\n")
    process.stdin.close()
    assert process.stdout is not None
    output = process.stdout.read()
    process.wait(timeout=60)  # the server exits at the end of its input
    return [json.loads(line) for line in output.splitlines() if line.strip()]


def malformed(report: dict[str, Any]) -> None:
    meta = {
        "io.modelcontextprotocol/protocolVersion": "1900-01-01",
        "io.modelcontextprotocol/clientCapabilities": {},
    }
    lines = [
        "this is not json",
        "[1, 2]",
        json.dumps({"jsonrpc": "1.0", "id": 1, "method": "ping"}),
        json.dumps({"jsonrpc": "2.0", "id": {"x": 1}, "method": "ping"}),
        json.dumps({"jsonrpc": "2.0", "id": 2, "method": "no/such/method"}),
        json.dumps({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "no_such_tool"}}),
        json.dumps({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"arguments": {}}}),
        json.dumps({"jsonrpc": "2.0", "id": 5, "method": "tools/list", "params": {"_meta": meta}}),
        json.dumps({"jsonrpc": "2.0", "id": 6, "method": "ping"}),
    ]
    replies = raw_exchange(lines, environment("malformed"))
    codes = {json.dumps(r.get("id")): (r.get("error") or {}).get("code") for r in replies}
    report["malformed"] = {
        "replies": len(replies),
        "null_ids": [r["error"]["code"] for r in replies if r.get("id") is None and "error" in r],
        "codes": codes,
        "ping_after": any(r.get("id") == 6 and r.get("result") == {} for r in replies),
        "unsupported_data": next((r["error"].get("data") for r in replies if r.get("id") == 5 and "error" in r), None),
    }


def cancellation(report: dict[str, Any]) -> None:
    """A call held 3 s by the server, cancelled 1 s after it was sent (the tools built first, so it is in flight):
    no response for it, a ping still answered, and the HTTP request dropped."""
    scenario = f"cancel-{uuid.uuid4().hex[:8]}"
    env = environment(scenario, headers={"x-testserver-delay-ms": "3000"})
    process = subprocess.Popen(
        [ARGS.binary, "mcp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
        text=True,
    )
    assert process.stdin is not None and process.stdout is not None

    def send(message: dict[str, Any]) -> None:
        process.stdin.write(json.dumps(message) + "\n")
        process.stdin.flush()

    def reply(id: int) -> dict[str, Any]:
        while True:
            message = json.loads(process.stdout.readline())
            if message.get("id") == id:
                return message

    info = {"name": "c", "version": "0"}
    send(
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": info},
        }
    )
    reply(1)
    send({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
    reply(2)
    started = time.monotonic()
    send({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "models_list", "arguments": {}}})
    time.sleep(1.0)
    send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 7, "reason": "test"}})
    send({"jsonrpc": "2.0", "id": 8, "method": "ping"})
    ping = reply(8)
    elapsed = time.monotonic() - started
    process.stdin.close()
    rest = [json.loads(line) for line in process.stdout.read().splitlines() if line.strip()]
    process.wait(timeout=30)
    # The server holds the request 3 s, then records it; the client hung up before.
    time.sleep(max(0.0, 3.5 - (time.monotonic() - started)))
    received = records(scenario)
    report["cancellation"] = {
        "reply_ids": [r.get("id") for r in [ping, *rest]],
        "seconds": round(elapsed, 2),
        "requests": len(received),
        "disconnected": [r.get("disconnected") for r in received],
    }


def sizes(report: dict[str, Any]) -> None:
    listing = [
        json.dumps(
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "initialize",
                "params": {
                    "protocolVersion": "2025-11-25",
                    "capabilities": {},
                    "clientInfo": {"name": "s", "version": "0"},
                },
            }
        ),
        json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
    ]
    result: dict[str, Any] = {}
    for name, args, admin in (("all", [], True), ("project", [], False), ("dynamic", ["--tools", "dynamic"], True)):
        replies = raw_exchange(listing, environment("sizes", admin), args)
        tools = next(r for r in replies if r.get("id") == 2)
        result[name] = {"tools": len(tools["result"]["tools"]), "bytes": len(json.dumps(tools, separators=(",", ":")))}
    times = []
    for _ in range(5):
        started = time.monotonic()
        raw_exchange(listing[:1], environment("sizes"))
        times.append(time.monotonic() - started)
    result["startup_ms_median"] = round(statistics.median(times) * 1000, 1)
    report["sizes"] = result


async def main() -> None:
    report: dict[str, Any] = {}
    with anyio.fail_after(240):
        await checks(report)
    malformed(report)
    cancellation(report)
    sizes(report)
    json.dump(report, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


async def checks(report: dict[str, Any]) -> None:
    """The checks through the SDK's client, which a hung server would otherwise hang."""
    await revisions(report)
    await counts(report)
    await schemas(report)
    await calls(report)
    await errors(report)
    await dynamic(report)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--root", required=True)
    parser.add_argument("--folder", required=True)
    ARGS = parser.parse_args()
    anyio.run(main)
