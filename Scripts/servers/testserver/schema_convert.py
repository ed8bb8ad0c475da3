"""Convert the OpenAPI 3.1 document's schemas (which still carry OpenAPI 3.0 habits) into plain
JSON Schema Draft 2020-12 that the `jsonschema` library validates.

Conversions (each counted in `ConversionStats` so the server can report them):
- `$ref: "#/components/schemas/X"` -> `$ref: "<SPEC_BASE>#/$defs/X"` (one registry resource holds all schemas).
- `nullable: true` (OpenAPI 3.0) -> `"null"` added to `type` (and `None` to `enum`), or `anyOf: [{type: null}, ...]`
  when the schema has no plain `type` (a `$ref`, `allOf`, `anyOf`, `oneOf`, `const`).
- `oneOf` -> `anyOf`: the spec's unions overlap (a value often matches several variants).
- Boolean `exclusiveMinimum: true` / `exclusiveMaximum: true` (OpenAPI 3.0 style) -> the numeric 2020-12 form.
- `$recursiveRef: "#"` (draft 2019-09) -> a `$ref` to the component it sits in; `$recursiveAnchor` dropped.
- `type` containing `"null"` with an `enum` lacking `null` -> `None` added to the enum.
- Dropped: `discriminator`, `example`, `x-*`, `description`, `xml`, `externalDocs`, `deprecated`.
  `format` is kept as an annotation only: no format checker is used, so `format: binary` never fails.
"""

from __future__ import annotations

import collections
from typing import Any

SPEC_BASE = "https://testserver.invalid/openai-spec.json"
COMPONENT_PREFIX = "#/components/schemas/"

_SCHEMA_MAP_KEYS = frozenset({"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"})
_SCHEMA_KEYS = frozenset(
    {
        "items",
        "additionalProperties",
        "not",
        "contains",
        "propertyNames",
        "if",
        "then",
        "else",
        "unevaluatedItems",
        "unevaluatedProperties",
        "additionalItems",
    }
)
_SCHEMA_LIST_KEYS = frozenset({"allOf", "anyOf", "oneOf", "prefixItems"})
_DROPPED_KEYS = frozenset(
    {"discriminator", "example", "description", "xml", "externalDocs", "deprecated", "$recursiveAnchor"}
)
_COMPOSITE_KEYS = ("$ref", "allOf", "anyOf", "oneOf", "not", "const")


class ConversionStats(collections.Counter):
    """Counts each kind of conversion applied (key: construct name, value: occurrences)."""


def ref_to_def(ref: str) -> str:
    """Rewrite an OpenAPI component reference to the registry URI of the converted schema."""
    if ref.startswith(COMPONENT_PREFIX):
        return SPEC_BASE + "#/$defs/" + ref[len(COMPONENT_PREFIX) :]
    return ref


def convert(schema: Any, stats: ConversionStats, component: str | None = None) -> Any:
    """Return a JSON Schema 2020-12 copy of an OpenAPI schema object.

    `component` is the name of the enclosing `#/components/schemas` entry, used for `$recursiveRef`.
    """
    if isinstance(schema, bool):
        return schema
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    nullable = False
    for key, value in schema.items():
        if key.startswith("x-"):
            stats["x-* extension keys dropped"] += 1
            continue
        if key in _DROPPED_KEYS:
            if key in ("discriminator", "$recursiveAnchor"):
                stats[f"{key} dropped"] += 1
            continue
        if key == "nullable":
            nullable = value is True
            continue
        if key == "$ref":
            out["$ref"] = ref_to_def(value) if isinstance(value, str) else value
        elif key == "$recursiveRef":
            stats["$recursiveRef -> $ref"] += 1
            out["$ref"] = SPEC_BASE + "#/$defs/" + component if component else value
        elif key in _SCHEMA_MAP_KEYS and isinstance(value, dict):
            out[key] = {name: convert(sub, stats, component) for name, sub in value.items()}
        elif key in _SCHEMA_KEYS:
            if key == "items" and isinstance(value, list):
                out["prefixItems"] = [convert(sub, stats, component) for sub in value]
            else:
                out[key] = convert(value, stats, component)
        elif key in _SCHEMA_LIST_KEYS and isinstance(value, list):
            converted = [convert(sub, stats, component) for sub in value]
            if key == "oneOf":
                stats["oneOf -> anyOf"] += 1
                if "anyOf" in out or "anyOf" in schema:
                    out.setdefault("allOf", []).append({"anyOf": converted})
                else:
                    out["anyOf"] = converted
            elif key == "anyOf" and "anyOf" in out:
                out.setdefault("allOf", []).append({"anyOf": out["anyOf"]})
                out["anyOf"] = converted
            else:
                out[key] = converted
        else:
            out[key] = value
    _fix_exclusive_bounds(out, stats)
    if isinstance(out.get("type"), list) and "null" in out["type"] and isinstance(out.get("enum"), list):
        if None not in out["enum"]:
            stats["type includes null but enum lacks null -> null added to enum"] += 1
            out["enum"] = [*out["enum"], None]
    if nullable:
        out = _make_nullable(out, stats)
    return out


def _fix_exclusive_bounds(out: dict[str, Any], stats: ConversionStats) -> None:
    for exclusive, bound in (("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")):
        value = out.get(exclusive)
        if isinstance(value, bool):
            stats[f"boolean {exclusive} -> numeric"] += 1
            del out[exclusive]
            if value and bound in out:
                out[exclusive] = out.pop(bound)


def _make_nullable(out: dict[str, Any], stats: ConversionStats) -> dict[str, Any]:
    if "type" in out and not any(key in out for key in _COMPOSITE_KEYS):
        stats["nullable: true -> type + null"] += 1
        types = out["type"] if isinstance(out["type"], list) else [out["type"]]
        if "null" not in types:
            out["type"] = [*types, "null"]
        if isinstance(out.get("enum"), list) and None not in out["enum"]:
            out["enum"] = [*out["enum"], None]
        return out
    stats["nullable: true -> anyOf [null, schema]"] += 1
    return {"anyOf": [{"type": "null"}, out]}


def convert_components(schemas: dict[str, Any], stats: ConversionStats) -> dict[str, Any]:
    """Convert every `#/components/schemas` entry; returns the registry document (`{"$defs": ...}`)."""
    defs = {name: convert(schema, stats, component=name) for name, schema in schemas.items()}
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": SPEC_BASE, "$defs": defs}
