"""Checks the JSON Schemas a request carries for structured outputs and function tools, as OpenAI does.

The spec types these schemas as free-form objects, so the request validation cannot see a broken one;
the API rejects it with a 400. Each schema must be a valid JSON Schema (Draft 2020-12 meta-schema), and
when `strict` is true it must follow the strict-mode rules of OpenAI's structured outputs guide: the root
is an object, every object lists all its properties in `required` and has `additionalProperties: false`,
and no `$ref` has sibling keywords.
"""

from __future__ import annotations

import copy
import json
from typing import Any, Callable, Iterator

import jsonschema


def carried_schemas(body: Any) -> Iterator[tuple[str, Any, bool]]:
    """(JSON path, schema, strict) of every schema in a Chat Completions or Responses request body."""
    if not isinstance(body, dict):
        return
    response_format = body.get("response_format")
    if isinstance(response_format, dict) and response_format.get("type") == "json_schema":
        spec = response_format.get("json_schema")
        if isinstance(spec, dict) and "schema" in spec:
            yield "$.response_format.json_schema.schema", spec["schema"], spec.get("strict") is True
    text = body.get("text")
    if isinstance(text, dict):
        text_format = text.get("format")
        if isinstance(text_format, dict) and text_format.get("type") == "json_schema" and "schema" in text_format:
            yield "$.text.format.schema", text_format["schema"], text_format.get("strict") is True
    tools = body.get("tools")
    if isinstance(tools, list):
        for index, tool in enumerate(tools):
            if not isinstance(tool, dict) or tool.get("type") != "function":
                continue
            # Chat Completions nests the function; Responses does not.
            function = tool.get("function") if isinstance(tool.get("function"), dict) else tool
            if "parameters" in function and function["parameters"] is not None:
                where = (
                    f"$.tools[{index}].function.parameters" if function is not tool else f"$.tools[{index}].parameters"
                )
                yield where, function["parameters"], function.get("strict") is True


# The string formats strict mode accepts (structured outputs guide, "Supported properties").
STRICT_FORMATS = {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}


def strict_problems(schema: Any, where: str) -> list[str]:
    """What strict mode rejects in `schema`, each `<path>: <message>`."""
    problems: list[str] = []
    if not isinstance(schema, dict) or schema.get("type") != "object":
        problems.append(f"{where}: a strict schema's root must be an object (`type: object`)")

    def walk(node: Any, path: str) -> None:
        if isinstance(node, list):
            for index, item in enumerate(node):
                walk(item, f"{path}[{index}]")
            return
        if not isinstance(node, dict):
            return
        if "$ref" in node and len(node) > 1:
            others = ", ".join(sorted(key for key in node if key != "$ref"))
            problems.append(f"{path}: `$ref` with sibling keywords ({others}) is not allowed in strict mode")
        if "format" in node and node["format"] not in STRICT_FORMATS:
            problems.append(f"{path}: format {node['format']!r} is not accepted in strict mode")
        types = node.get("type")
        is_object = types == "object" or (isinstance(types, list) and "object" in types)
        if is_object:
            properties = node.get("properties", {})
            if node.get("additionalProperties") is not False:
                problems.append(f"{path}: strict mode needs `additionalProperties: false` on every object")
            if isinstance(properties, dict):
                missing = sorted(set(properties) - set(node.get("required", [])))
                if missing:
                    problems.append(f"{path}: strict mode needs every property in `required`; missing {missing}")
        for key in ("properties", "$defs", "definitions"):
            members = node.get(key)
            if isinstance(members, dict):
                for name, member in members.items():
                    walk(member, f"{path}.{key}.{name}")
        for key in ("items", "anyOf", "additionalProperties"):
            if key in node and not isinstance(node[key], bool):
                walk(node[key], f"{path}.{key}")

    walk(schema, where)
    return problems


def problems(body: Any) -> list[str]:
    """Every problem of every schema the request carries."""
    found: list[str] = []
    for where, schema, strict in carried_schemas(body):
        try:
            jsonschema.Draft202012Validator.check_schema(schema)
        except jsonschema.SchemaError as error:
            found.append(f"{where}: not a valid JSON Schema: {error.message}")
            continue
        if strict:
            found.extend(strict_problems(schema, where))
    return found


def instance(schema: Any, root: Any, depth: int = 0) -> Any:
    """A value valid against `schema` (a structured-output schema, `$ref`s resolved against `root`):
    every property present, one item per array, the first enum value, the first non-null type."""
    if not isinstance(schema, dict) or depth > 12:
        return None
    ref = schema.get("$ref")
    if isinstance(ref, str):
        if ref == "#":
            target = root
        elif ref.startswith("#/$defs/") and isinstance(root, dict):
            name = ref[len("#/$defs/") :].replace("~1", "/").replace("~0", "~")
            target = root.get("$defs", {}).get(name)
        else:
            target = None
        return instance(target, root, depth + 1)
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        return next((value for value in schema["enum"] if value is not None), None)
    if "anyOf" in schema:
        variants = [v for v in schema["anyOf"] if not (isinstance(v, dict) and v.get("type") == "null")]
        if depth > 3 and len(variants) < len(schema["anyOf"]):
            return None  # a nullable recursion ends here
        return instance((variants or schema["anyOf"])[0], root, depth + 1)
    declared = schema.get("type")
    if isinstance(declared, list):
        declared = next((t for t in declared if t != "null"), "null")
    if declared == "object":
        properties = schema.get("properties", {})
        return {name: instance(value, root, depth + 1) for name, value in properties.items()}
    if declared == "array":
        # An array nested deep in a recursive schema ends empty.
        return [instance(schema.get("items", {}), root, depth + 1)] if depth < 6 else []
    if declared == "string":
        return {"uri": "https://example.com", "uuid": "00000000-0000-0000-0000-000000000000"}.get(
            schema.get("format", ""), "text"
        )
    if declared == "integer":
        return 1
    if declared == "number":
        return 1.5
    if declared == "boolean":
        return True
    return None


def fill_reply(operation_id: str, body: Any, reply: Any, control: dict[str, str]) -> Any:
    """The reply to a Chat Completions or Responses request that asks for structured output, with the
    model's text replaced by a value valid against the schema sent, as the API answers.

    Controls: `x-testserver-refusal: TEXT` answers with a refusal instead; `x-testserver-finish-reason:
    REASON` sets every choice's `finish_reason` (Chat Completions; `length` cuts the JSON in half).
    """
    if not isinstance(body, dict) or not isinstance(reply, dict):
        return reply
    found = next((s for w, s, _ in carried_schemas(body) if not w.startswith("$.tools")), None)
    if found is None:
        return reply
    text = json.dumps(instance(found, found))
    refusal = control.get("refusal")
    reply = copy.deepcopy(reply)
    if operation_id == "createChatCompletion":
        finish = control.get("finish-reason", "stop")
        if finish == "length":
            text = text[: len(text) // 2]
        for choice in reply.get("choices", []) or [{}]:
            message = choice.setdefault("message", {"role": "assistant"})
            message["content"] = None if refusal else text
            message["refusal"] = refusal
            message.pop("tool_calls", None)
            choice["finish_reason"] = finish
    elif operation_id == "createResponse":
        reason = {"length": "max_output_tokens", "content_filter": "content_filter"}.get(
            control.get("finish-reason", "")
        )
        if reason == "max_output_tokens":
            text = text[: len(text) // 2]
        part = (
            {"type": "refusal", "refusal": refusal}
            if refusal
            else {"type": "output_text", "text": text, "annotations": []}
        )
        reply["output"] = [
            {"type": "message", "id": "msg_testserver", "status": "completed", "role": "assistant", "content": [part]}
        ]
        reply["status"] = "incomplete" if reason else "completed"
        reply["incomplete_details"] = {"reason": reason} if reason else None
    return reply


def delta_splitter(control: dict[str, str]) -> Callable[[str], list[str]]:
    """Splits a text into the deltas a stream sends: `x-testserver-delta-chars` characters each
    (default 4)."""
    size = max(1, _count(control.get("delta-chars"), 4))
    return lambda text: [text[i : i + size] for i in range(0, len(text), size)]


def _count(value: str | None, default: int = 0) -> int:
    """A control header's number; `default` when it is not a whole number."""
    try:
        return int(value) if value is not None else default
    except ValueError:
        return default


def tool_reply(operation_id: str, body: Any, reply: Any, control: dict[str, str]) -> Any:
    """With `x-testserver-tool-rounds: N`, a Chat Completions or Responses request that offers
    function tools is answered as a model that calls tools: while the conversation has fewer than N
    rounds of tool calls (assistant messages with `tool_calls`; `function_call` input items), the
    reply calls every function tool offered, at once (ids `call_<round>_<i>`, arguments valid against
    each tool's parameters); then it answers with text that lists the tool results it was given, in
    order (`tool results: <content> | <content> ...`)."""
    rounds = control.get("tool-rounds")
    if rounds is None or not isinstance(body, dict):
        return reply
    rounds = _count(rounds)
    if operation_id == "createResponse":
        return _response_tool_reply(body, reply, rounds)
    if operation_id != "createChatCompletion":
        return reply
    tools = [
        t["function"]
        for t in body.get("tools") or []
        if isinstance(t, dict) and t.get("type") == "function" and isinstance(t.get("function"), dict)
    ]
    messages = [m for m in body.get("messages") or [] if isinstance(m, dict)]
    done = sum(1 for m in messages if m.get("role") == "assistant" and m.get("tool_calls"))
    reply = copy.deepcopy(reply) if isinstance(reply, dict) else {}
    choices = reply.get("choices") or [{"index": 0, "logprobs": None}]
    reply["choices"] = choices[:1]
    message = {"role": "assistant", "content": None, "refusal": None}
    if tools and done < rounds:
        message["tool_calls"] = [
            {
                "id": f"call_{done + 1}_{index}",
                "type": "function",
                "function": {
                    "name": tool.get("name"),
                    "arguments": json.dumps(instance(tool.get("parameters") or {}, tool.get("parameters") or {})),
                },
            }
            for index, tool in enumerate(tools)
        ]
        reply["choices"][0]["finish_reason"] = "tool_calls"
    else:
        results = [str(m.get("content")) for m in messages if m.get("role") == "tool"]
        message["content"] = "tool results: " + " | ".join(results)
        reply["choices"][0]["finish_reason"] = "stop"
    reply["choices"][0]["message"] = message
    return reply


def _response_tool_reply(body: dict[str, Any], reply: Any, rounds: int) -> Any:
    """`tool_reply` for Responses: `function_call` output items, or a message with the
    `function_call_output` results of the input."""
    tools = [t for t in body.get("tools") or [] if isinstance(t, dict) and t.get("type") == "function"]
    items = body.get("input") if isinstance(body.get("input"), list) else []
    calls = [i for i in items if isinstance(i, dict) and i.get("type") == "function_call"]
    done = len({str(c.get("call_id", "")).rsplit("_", 1)[0] for c in calls})
    reply = copy.deepcopy(reply) if isinstance(reply, dict) else {}
    reply["status"] = "completed"
    reply["incomplete_details"] = None
    if tools and done < rounds:
        reply["output"] = [
            {
                "type": "function_call",
                "id": f"fc_{done + 1}_{index}",
                "call_id": f"call_{done + 1}_{index}",
                "name": tool.get("name"),
                "arguments": json.dumps(instance(tool.get("parameters") or {}, tool.get("parameters") or {})),
                "status": "completed",
            }
            for index, tool in enumerate(tools)
        ]
        return reply
    results = [str(i.get("output")) for i in items if isinstance(i, dict) and i.get("type") == "function_call_output"]
    text = "tool results: " + " | ".join(results)
    reply["output"] = [
        {
            "type": "message",
            "id": "msg_testserver",
            "status": "completed",
            "role": "assistant",
            "content": [{"type": "output_text", "text": text, "annotations": []}],
        }
    ]
    return reply


def stream_reply(operation_id: str, body: Any, reply: Any, control: dict[str, str]) -> str | None:
    """The event stream of a streamed structured-output request (`stream: true` and a schema) or of
    a streamed request under `x-testserver-tool-rounds`: the reply `fill_reply` and `tool_reply`
    give, sent as the API streams it (tool calls with their arguments in deltas), its text in deltas of
    `x-testserver-delta-chars` characters (default 4). Chat Completions: `chat.completion.chunk`s and
    `[DONE]`; Responses: `response.created` … `response.output_text.delta` … `response.completed` (or
    `.incomplete`) with sequence numbers. `None` when the request carries no schema."""
    if operation_id not in ("createChatCompletion", "createResponse") or not isinstance(body, dict):
        return None
    has_schema = any(not w.startswith("$.tools") for w, _, _ in carried_schemas(body))
    if not has_schema and "tool-rounds" not in control:
        return None
    filled = fill_reply(operation_id, body, reply if isinstance(reply, dict) else {}, control)
    filled = tool_reply(operation_id, body, filled, control)
    pieces = delta_splitter(control)

    if operation_id == "createChatCompletion":
        return _chat_frames(filled, pieces)
    return response_frames(filled, pieces)


def _chat_frames(reply: dict[str, Any], pieces: Any) -> str:
    choice = (reply.get("choices") or [{}])[0]
    message = choice.get("message") or {}
    base = {
        "id": reply.get("id", "chatcmpl-testserver"),
        "object": "chat.completion.chunk",
        "created": reply.get("created", 0),
        "model": reply.get("model", "gpt-4o"),
    }

    def chunk(delta: dict[str, Any], finish: str | None = None) -> str:
        event = dict(base, choices=[{"index": 0, "delta": delta, "finish_reason": finish, "logprobs": None}])
        return f"data: {json.dumps(event)}\n\n"

    frames = [chunk({"role": "assistant", "content": ""})]
    for index, call in enumerate(message.get("tool_calls") or []):
        function = call.get("function") or {}
        first = {"index": index, "id": call.get("id"), "type": "function"}
        frames.append(chunk({"tool_calls": [dict(first, function={"name": function.get("name"), "arguments": ""})]}))
        for piece in pieces(function.get("arguments") or ""):
            frames.append(chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]}))
    if message.get("refusal"):
        frames += [chunk({"refusal": p}) for p in pieces(message["refusal"])]
    else:
        frames += [chunk({"content": p}) for p in pieces(message.get("content") or "")]
    frames.append(chunk({}, choice.get("finish_reason", "stop")))
    return "".join(frames) + "data: [DONE]\n\n"


def response_frames(response: dict[str, Any], pieces: Any) -> str:
    """A Responses event stream whose final `response` is `response` (its messages' text parts
    streamed in deltas)."""
    return "".join(sse_frame(e) for e in response_events(response, pieces))


def sse_frame(event: dict[str, Any]) -> str:
    """One Responses event as an SSE frame (`event:` and `data:` lines)."""
    return f"event: {event['type']}\ndata: {json.dumps(event)}\n\n"


def response_events(response: dict[str, Any], pieces: Any) -> list[dict[str, Any]]:
    """The events of `response_frames`, numbered from 0 in `sequence_number`."""
    events: list[dict[str, Any]] = []
    started = dict(response, status="in_progress", output=[], incomplete_details=None)
    events.append({"type": "response.created", "response": started})
    events.append({"type": "response.in_progress", "response": started})
    for index, item in enumerate(response.get("output") or []):
        if item.get("type") == "function_call":
            events.append(
                {"type": "response.output_item.added", "output_index": index, "item": dict(item, arguments="")}
            )
            where = {"item_id": item.get("id"), "output_index": index}
            for piece in pieces(item.get("arguments") or ""):
                events.append(dict(where, type="response.function_call_arguments.delta", delta=piece))
            events.append(
                dict(where, type="response.function_call_arguments.done", arguments=item.get("arguments") or "")
            )
            events.append({"type": "response.output_item.done", "output_index": index, "item": item})
            continue
        if item.get("type") != "message":
            events.append({"type": "response.output_item.added", "output_index": index, "item": item})
            events.append({"type": "response.output_item.done", "output_index": index, "item": item})
            continue
        events.append(
            {
                "type": "response.output_item.added",
                "output_index": index,
                "item": dict(item, status="in_progress", content=[]),
            }
        )
        for content_index, part in enumerate(item.get("content") or []):
            where = {"item_id": item.get("id"), "output_index": index, "content_index": content_index}
            key = "text" if part.get("type") == "output_text" else "refusal"
            empty = dict(part, **{key: ""})
            events.append(dict(where, type="response.content_part.added", part=empty))
            kind = "output_text" if key == "text" else "refusal"
            for piece in pieces(part.get(key) or ""):
                delta = dict(where, type=f"response.{kind}.delta", delta=piece)
                if kind == "output_text":
                    delta["logprobs"] = []
                events.append(delta)
            done = dict(where, type=f"response.{kind}.done", **{key: part.get(key) or ""})
            if kind == "output_text":
                done["logprobs"] = []
            events.append(done)
            events.append(dict(where, type="response.content_part.done", part=part))
        events.append({"type": "response.output_item.done", "output_index": index, "item": item})
    final = "response.incomplete" if response.get("status") == "incomplete" else "response.completed"
    events.append({"type": final, "response": response})
    for number, event in enumerate(events):
        event["sequence_number"] = number
    return events
