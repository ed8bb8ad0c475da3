"""Sweeps over the whole spec: the spec's own curl examples must validate (defects are listed, not
failed: they are the spec's), and the validator must never crash on them. Run with `-s` to see the lists."""

from __future__ import annotations

import json
import shlex
import time

import pytest

from conftest import SPEC, require_shared


@pytest.fixture(scope="module")
def loaded():
    require_shared()
    import spec_model
    from schemas import Schemas

    model, _ = spec_model.load_model(SPEC)
    return model, Schemas(model.registry_document)


def curl_args(curl: str) -> list[str] | None:
    try:
        return shlex.split(curl.replace("\\\n", " "))
    except ValueError:
        return None


def test_curl_json_examples_validate(loaded) -> None:
    model, schemas = loaded
    passed, failed, unparsable = [], [], []
    started = time.monotonic()
    for op in model.operations:
        schema = op.body_content.get("application/json")
        if schema is None:
            continue
        for title, curl in op.example_request_curls:
            args = curl_args(curl)
            data = None
            for flag, value in zip(args or [], (args or [])[1:]):
                if flag in ("-d", "--data", "--data-raw"):
                    data = value
            if data is None:
                continue
            label = f"{op.operation_id} [{title or 'example'}]"
            try:
                value = json.loads(data)
            except ValueError as error:
                unparsable.append(f"{label}: -d body is not JSON ({error})")
                continue
            problems = schemas.errors(schema, value)  # must not raise
            (failed if problems else passed).append((label, problems))
    elapsed = time.monotonic() - started
    print(f"\ncurl -d examples: {len(passed)} pass, {len(failed)} fail, {len(unparsable)} not JSON ({elapsed:.2f} s)")
    for label, problems in failed:
        print(f"  FAIL {label}")
        for problem in problems:
            print(f"       {problem}")
    for line in unparsable:
        print(f"  NOT JSON {line}")
    assert passed, "no example validated at all: the validator is broken"


def test_curl_multipart_examples_validate(loaded) -> None:
    import validation

    model, schemas = loaded
    passed, failed = [], []
    for op in model.operations:
        schema = op.body_content.get("multipart/form-data")
        if schema is None:
            continue
        for title, curl in op.example_request_curls:
            args = curl_args(curl) or []
            forms = [value for flag, value in zip(args, args[1:]) if flag in ("-F", "--form")]
            if not forms:
                continue
            parts = []
            for form in forms:
                name, _, value = form.partition("=")
                value, _, content_type = value.partition(";type=")
                if value.startswith("@"):  # curl: a file part
                    parts.append(validation.Part(name, value[1:].split("/")[-1], content_type, 10, "0" * 64, None))
                else:  # a text value; `<file` = the file's content as text
                    text = "placeholder text" if value.startswith("<") else value.strip('"')
                    parts.append(validation.Part(name, None, content_type or None, len(text), "0" * 64, text))
            outcome = validation.Outcome()
            validation.check_multipart(schemas, schema, parts, outcome)
            (failed if outcome.errors else passed).append((f"{op.operation_id} [{title or 'example'}]", outcome.errors))
    print(f"\ncurl -F examples: {len(passed)} pass, {len(failed)} fail")
    for label, problems in failed:
        print(f"  FAIL {label}: {problems}")
    assert passed


def test_synthesized_replies_validate_against_their_schemas(loaded) -> None:
    import synth

    model, schemas = loaded
    bad = []
    count = 0
    for op in model.operations:
        schema = op.success_content.get("application/json")
        if schema is None:
            continue
        count += 1
        problems = schemas.errors(schema, synth.synthesize(schemas, schema))
        if problems:
            bad.append(f"{op.operation_id}: {problems[:2]}")
    print(f"\nsynthesized replies: {count - len(bad)} of {count} validate")
    for line in bad:
        print("  " + line)
    assert not bad, bad


def test_example_responses_against_response_schemas(loaded) -> None:
    """Informational: how many of the spec's documented responses match the spec's own schemas."""
    model, schemas = loaded
    ok, bad = 0, []
    for op in model.operations:
        schema = op.success_content.get("application/json")
        if schema is None or not op.example_responses:
            continue
        problems = schemas.errors(schema, op.example_responses[0])
        if problems:
            bad.append(f"{op.operation_id}: {problems[0]}")
        else:
            ok += 1
    print(f"\nexample responses: {ok} match their response schema, {len(bad)} do not")
    for line in bad:
        print("  " + line)
    assert ok > 0


def test_startup_time_cold_and_warm(tmp_path) -> None:
    """Prints the start-up time (process start to port file) with an empty and a warm spec cache."""
    from conftest import Server

    require_shared()
    cache = tmp_path / "cache"
    timings = []
    for label in ("cold cache", "warm cache"):
        server = Server(tmp_path, cache_dir=cache)
        timings.append((label, server.startup_seconds))
        assert server.stop() == 0
    print("\nstart-up: " + ", ".join(f"{label} {seconds:.3f} s" for label, seconds in timings))
