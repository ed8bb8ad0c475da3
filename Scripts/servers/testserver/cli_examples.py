"""Example arguments for every operation of a spec, for the `openai` command-line tool's sweep test.

Prints one JSON object: operationId -> {"parameters": [{"name", "in", "value"}], "bodies": {media type: body}},
where the path parameters and the required query and header parameters get a minimal valid value, and each media
type of the request body the minimal valid value of its schema (`synth.synthesize`: required members only, plus
the members a validation error names as required). The test (Tests/OpenAICLITests/CLISweepTests.swift) turns
each into flags and checks that the test server validates the request.

Usage: python cli_examples.py SPEC.yaml [CACHE_DIR]
"""

from __future__ import annotations

import json
import sys
from typing import Any

from schemas import Schemas
from spec_model import load_model
from synth import synthesize


def examples(spec: str, cache_dir: str | None = None) -> dict[str, dict]:
    """The example arguments of every operation of `spec`, by operationId."""
    model, _ = load_model(spec, cache_dir)
    schemas = Schemas(model.registry_document)
    result: dict[str, dict] = {}
    for op in model.operations:
        parameters = []
        for parameter in op.parameters:
            if parameter.location != "path" and not parameter.required:
                continue
            value = synthesize(schemas, parameter.schema)
            if parameter.location == "path" and (not isinstance(value, str) or not value):
                value = "id_1"
            parameters.append({"name": parameter.name, "in": parameter.location, "value": value})
        bodies = {media: _valid_body(schemas, schema) for media, schema in op.body_content.items()}
        result[op.operation_id] = {"parameters": parameters, "bodies": bodies}
    return result


def _valid_body(schemas: Schemas, schema: Any) -> Any:
    """The minimal value of `schema`, with each member a validation error says is required added (a union of
    `required` lists that `synthesize` leaves empty), a few rounds at most."""
    value = synthesize(schemas, schema)
    if not isinstance(value, dict):
        return value
    resolved = schemas.resolve(schema)
    properties = resolved.get("properties", {}) if isinstance(resolved, dict) else {}
    for _ in range(4):
        missing = []
        for error in schemas.validator(schema).iter_errors(value):
            for sub in [error, *(error.context or [])]:
                if sub.validator == "required" and not sub.path:
                    missing += [name for name in sub.validator_value if name not in value and name in properties]
        if not missing:
            break
        value[missing[0]] = synthesize(schemas, properties[missing[0]])
    return value


if __name__ == "__main__":
    json.dump(examples(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None), sys.stdout, sort_keys=True)
    sys.stdout.write("\n")
