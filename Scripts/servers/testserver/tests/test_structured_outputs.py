"""The structured-output schema checks: valid JSON Schema always, OpenAI's strict rules when `strict`."""

from __future__ import annotations

import json

import structured_outputs

STRICT_OK = {
    "type": "object",
    "properties": {
        "city": {"type": "string"},
        "tags": {"type": "array", "items": {"$ref": "#/$defs/Tag"}},
        "next": {"anyOf": [{"$ref": "#"}, {"type": "null"}]},
    },
    "required": ["city", "tags", "next"],
    "additionalProperties": False,
    "$defs": {
        "Tag": {
            "type": "object",
            "properties": {"name": {"type": ["string", "null"]}},
            "required": ["name"],
            "additionalProperties": False,
        }
    },
}


def chat(schema: object, strict: bool) -> dict:
    return {
        "model": "gpt-4o",
        "messages": [],
        "response_format": {"type": "json_schema", "json_schema": {"name": "x", "schema": schema, "strict": strict}},
    }


def test_a_strict_schema_that_follows_the_rules_passes() -> None:
    assert structured_outputs.problems(chat(STRICT_OK, strict=True)) == []


def test_strict_rules_name_the_object_and_the_rule() -> None:
    loose = {
        "type": "object",
        "properties": {
            "a": {"type": "string"},
            "b": {"$ref": "#/$defs/B", "description": "a sibling"},
        },
        "required": ["a"],
        "$defs": {"B": {"type": "object", "properties": {}, "additionalProperties": False}},
    }
    found = structured_outputs.problems(chat(loose, strict=True))
    assert (
        "$.response_format.json_schema.schema: strict mode needs `additionalProperties: false` on every object" in found
    )
    assert (
        "$.response_format.json_schema.schema: strict mode needs every property in `required`; missing ['b']" in found
    )
    ref = "$.response_format.json_schema.schema.properties.b"
    assert f"{ref}: `$ref` with sibling keywords (description) is not allowed in strict mode" in found
    # Without strict, the same schema is only checked against the meta-schema: it is valid.
    assert structured_outputs.problems(chat(loose, strict=False)) == []


def test_an_invalid_json_schema_is_a_problem_strict_or_not() -> None:
    broken = {"type": "object", "properties": {"a": {"type": "strng"}}}
    for strict in (True, False):
        found = structured_outputs.problems(chat(broken, strict=strict))
        assert len(found) == 1 and found[0].startswith("$.response_format.json_schema.schema: not a valid JSON Schema")


def test_function_tools_and_the_responses_format_are_checked_too() -> None:
    body = {
        "model": "gpt-4o",
        "input": "hi",
        "text": {"format": {"type": "json_schema", "name": "x", "schema": {"type": "array"}, "strict": True}},
        "tools": [
            {"type": "function", "name": "f", "parameters": {"type": "object", "properties": {}}, "strict": True},
            {"type": "web_search"},
        ],
    }
    found = structured_outputs.problems(body)
    assert "$.text.format.schema: a strict schema's root must be an object (`type: object`)" in found
    assert "$.tools[0].parameters: strict mode needs `additionalProperties: false` on every object" in found
    chat_tool = {"tools": [{"type": "function", "function": {"name": "f", "parameters": STRICT_OK, "strict": True}}]}
    assert structured_outputs.problems(chat_tool) == []
    chat_tool["tools"][0]["function"]["parameters"] = {"type": "object", "properties": {"q": {"type": "string"}}}
    assert structured_outputs.problems(chat_tool) == [
        "$.tools[0].function.parameters: strict mode needs `additionalProperties: false` on every object",
        "$.tools[0].function.parameters: strict mode needs every property in `required`; missing ['q']",
    ]


def test_a_structured_reply_holds_a_value_valid_against_the_schema_sent() -> None:
    import json

    import jsonschema

    body = chat(STRICT_OK, strict=True)
    reply = {"choices": [{"index": 0, "message": {"role": "assistant", "content": "hi"}, "finish_reason": "stop"}]}
    filled = structured_outputs.fill_reply("createChatCompletion", body, reply, {})
    content = json.loads(filled["choices"][0]["message"]["content"])
    jsonschema.Draft202012Validator(STRICT_OK).validate(content)
    assert content["city"] == "text" and content["tags"] == [{"name": "text"}]
    assert reply["choices"][0]["message"]["content"] == "hi"  # the example itself is not changed

    refused = structured_outputs.fill_reply("createChatCompletion", body, reply, {"refusal": "No."})
    assert refused["choices"][0]["message"]["content"] is None
    assert refused["choices"][0]["message"]["refusal"] == "No."
    cut = structured_outputs.fill_reply("createChatCompletion", body, reply, {"finish-reason": "length"})
    assert cut["choices"][0]["finish_reason"] == "length"
    try:
        json.loads(cut["choices"][0]["message"]["content"])
        raise AssertionError("a reply cut by length is not whole JSON")
    except json.JSONDecodeError:
        pass

    responses = {"model": "gpt-4o", "text": {"format": {"type": "json_schema", "name": "x", "schema": STRICT_OK}}}
    filled = structured_outputs.fill_reply("createResponse", responses, {"output": []}, {})
    text = filled["output"][0]["content"][0]["text"]
    jsonschema.Draft202012Validator(STRICT_OK).validate(json.loads(text))
    # A request without a structured format keeps the reply as it is.
    assert structured_outputs.fill_reply("createChatCompletion", {"messages": []}, reply, {}) is reply


def test_a_tool_calling_model_calls_every_tool_then_lists_the_results() -> None:
    import json

    tools = [
        {"type": "function", "function": {"name": "a", "parameters": STRICT_OK, "strict": True}},
        {"type": "function", "function": {"name": "b", "parameters": {"type": "object", "properties": {}}}},
    ]
    body = {"model": "gpt-4o", "messages": [{"role": "user", "content": "go"}], "tools": tools}
    first = structured_outputs.tool_reply("createChatCompletion", body, {"choices": []}, {"tool-rounds": "1"})
    calls = first["choices"][0]["message"]["tool_calls"]
    assert [c["id"] for c in calls] == ["call_1_0", "call_1_1"]
    assert json.loads(calls[0]["function"]["arguments"])["city"] == "text"
    assert first["choices"][0]["finish_reason"] == "tool_calls"
    body["messages"] += [
        {"role": "assistant", "tool_calls": calls},
        {"role": "tool", "tool_call_id": "call_1_0", "content": "sunny"},
        {"role": "tool", "tool_call_id": "call_1_1", "content": "Error: no"},
    ]
    final = structured_outputs.tool_reply("createChatCompletion", body, {"choices": []}, {"tool-rounds": "1"})
    assert final["choices"][0]["message"]["content"] == "tool results: sunny | Error: no"
    assert structured_outputs.tool_reply("createChatCompletion", body, {"x": 1}, {}) == {"x": 1}


def test_strict_mode_accepts_only_its_string_formats() -> None:
    schema = {
        "type": "object",
        "properties": {"link": {"type": "string", "format": "uri"}, "at": {"type": "string", "format": "date-time"}},
        "required": ["link", "at"],
        "additionalProperties": False,
    }
    assert structured_outputs.problems(chat(schema, strict=True)) == [
        "$.response_format.json_schema.schema.properties.link: format 'uri' is not accepted in strict mode"
    ]


def test_an_incomplete_response_is_simulated_for_responses() -> None:
    body = {"model": "gpt-4o", "text": {"format": {"type": "json_schema", "name": "x", "schema": STRICT_OK}}}
    cut = structured_outputs.fill_reply("createResponse", body, {"output": []}, {"finish-reason": "length"})
    assert cut["status"] == "incomplete" and cut["incomplete_details"] == {"reason": "max_output_tokens"}
    filtered = structured_outputs.fill_reply(
        "createResponse", body, {"output": []}, {"finish-reason": "content_filter"}
    )
    assert filtered["incomplete_details"] == {"reason": "content_filter"}


def test_a_streamed_structured_reply_comes_in_deltas_that_add_up_to_the_text() -> None:
    body = chat(STRICT_OK, strict=True)
    body["stream"] = True
    reply = {"id": "chatcmpl-1", "choices": [{"index": 0, "message": {"role": "assistant"}}]}
    frames = structured_outputs.stream_reply("createChatCompletion", body, reply, {"delta-chars": "3"})
    assert frames is not None and frames.endswith("data: [DONE]\n\n")
    chunks = [json.loads(line[6:]) for line in frames.splitlines() if line.startswith("data: {")]
    text = "".join(c["choices"][0]["delta"].get("content") or "" for c in chunks)
    assert all(len(c["choices"][0]["delta"].get("content") or "") <= 3 for c in chunks)
    assert json.loads(text)["city"] == "text"
    assert chunks[-1]["choices"][0]["finish_reason"] == "stop"


def test_response_events_are_numbered_and_end_with_the_whole_response() -> None:
    response = {
        "id": "resp_1",
        "status": "completed",
        "output": [
            {"type": "function_call", "id": "fc_1", "call_id": "c", "name": "f", "arguments": '{"a": 1}'},
            {"type": "message", "id": "m", "role": "assistant", "content": [{"type": "output_text", "text": "hello"}]},
        ],
    }
    events = structured_outputs.response_events(
        response, lambda text: [text[i : i + 2] for i in range(0, len(text), 2)]
    )
    assert [e["sequence_number"] for e in events] == list(range(len(events)))
    assert events[0]["type"] == "response.created" and events[0]["response"]["output"] == []
    assert events[-1] == {"type": "response.completed", "response": response, "sequence_number": len(events) - 1}
    arguments = "".join(e["delta"] for e in events if e["type"] == "response.function_call_arguments.delta")
    text = "".join(e["delta"] for e in events if e["type"] == "response.output_text.delta")
    assert (arguments, text) == ('{"a": 1}', "hello")


def test_a_tool_round_for_responses_calls_every_function_then_lists_the_results() -> None:
    tools = [{"type": "function", "name": "f", "parameters": {"type": "object", "properties": {}}}]
    first = structured_outputs.tool_reply("createResponse", {"tools": tools, "input": "hi"}, {}, {"tool-rounds": "1"})
    assert [(o["type"], o["call_id"]) for o in first["output"]] == [("function_call", "call_1_0")]
    items = [first["output"][0], {"type": "function_call_output", "call_id": "call_1_0", "output": "42"}]
    second = structured_outputs.tool_reply("createResponse", {"tools": tools, "input": items}, {}, {"tool-rounds": "1"})
    assert second["output"][0]["content"][0]["text"] == "tool results: 42"
    assert (
        structured_outputs.tool_reply("createResponse", {"tools": tools}, {}, {"tool-rounds": "x"})["output"][0]["type"]
        == "message"
    ), "a control that is not a number counts as 0 rounds"
