"""Validators and schema navigation over the converted registry document (see schema_convert.py)."""

from __future__ import annotations

from typing import Any, Iterator

import jsonschema
import referencing
import referencing.jsonschema
from jsonschema.exceptions import ValidationError

from schema_convert import SPEC_BASE

_MAX_MESSAGE = 600


class Schemas:
    """Holds the registry of converted component schemas and caches one validator per schema object."""

    def __init__(self, registry_document: dict[str, Any]) -> None:
        self.defs: dict[str, Any] = registry_document["$defs"]
        resource = referencing.Resource.from_contents(
            registry_document, default_specification=referencing.jsonschema.DRAFT202012
        )
        self.registry = referencing.Registry().with_resource(SPEC_BASE, resource)
        self._validators: dict[int, tuple[Any, jsonschema.Draft202012Validator]] = {}

    def validator(self, schema: Any) -> jsonschema.Draft202012Validator:
        """Return a cached Draft 2020-12 validator for a converted schema (no format assertions)."""
        key = id(schema)
        cached = self._validators.get(key)
        if cached is None or cached[0] is not schema:
            cached = (schema, jsonschema.Draft202012Validator(schema, registry=self.registry))
            self._validators[key] = cached
        return cached[1]

    def resolve(self, schema: Any, depth: int = 0) -> Any:
        """Follow `$ref`s to the registry's `$defs` until a schema without a bare `$ref` is reached."""
        while isinstance(schema, dict) and "$ref" in schema and depth < 64:
            ref = schema["$ref"]
            prefix = SPEC_BASE + "#/$defs/"
            if not isinstance(ref, str) or not ref.startswith(prefix):
                break
            target = self.defs.get(ref[len(prefix) :])
            if target is None:
                break
            extra = {k: v for k, v in schema.items() if k != "$ref"}
            schema = {**target, **extra} if extra else target
            depth += 1
        return schema

    def variants(self, schema: Any, depth: int = 0) -> Iterator[dict[str, Any]]:
        """Yield the schema and, recursively, every member of its `allOf`/`anyOf` (refs resolved)."""
        schema = self.resolve(schema)
        if not isinstance(schema, dict) or depth > 8:
            return
        yield schema
        for key in ("allOf", "anyOf"):
            for sub in schema.get(key, []) or []:
                yield from self.variants(sub, depth + 1)

    def types(self, schema: Any) -> set[str]:
        """The JSON types a schema may take, looking through refs and unions (empty: unconstrained)."""
        found: set[str] = set()
        for variant in self.variants(schema):
            declared = variant.get("type")
            if isinstance(declared, str):
                found.add(declared)
            elif isinstance(declared, list):
                found.update(declared)
            if "properties" in variant:
                found.add("object")
            if "items" in variant:
                found.add("array")
            if "enum" in variant:
                found.update(_json_type(value) for value in variant["enum"])
            if "const" in variant:
                found.add(_json_type(variant["const"]))
        return found

    def object_properties(self, schema: Any) -> tuple[dict[str, Any], bool]:
        """Union of the properties of every object variant; second value: additional properties allowed."""
        properties: dict[str, Any] = {}
        additional = False
        any_object = False
        for variant in self.variants(schema):
            if "properties" in variant:
                any_object = True
                for name, sub in variant["properties"].items():
                    properties.setdefault(name, sub)
            extra = variant.get("additionalProperties")
            if extra is True or (isinstance(extra, dict) and extra != {}) or extra == {}:
                additional = True
        if not any_object:
            additional = True
        return properties, additional

    def child(self, schema: Any, step: str | int | None) -> Any:
        """Schema of a property name (str) or an array item (None/int) inside `schema`, or {}."""
        for variant in self.variants(schema):
            if isinstance(step, str):
                if step in variant.get("properties", {}):
                    return variant["properties"][step]
            elif "items" in variant and isinstance(variant["items"], dict):
                return variant["items"]
        if isinstance(step, str):
            for variant in self.variants(schema):
                extra = variant.get("additionalProperties")
                if isinstance(extra, dict):
                    return extra
        return {}

    def is_binary(self, schema: Any) -> bool:
        """True when the schema (or one of its variants, or its items) is a file: `format: binary`."""
        for variant in self.variants(schema):
            if variant.get("format") == "binary" or "contentMediaType" in variant:
                return True
            items = variant.get("items")
            if isinstance(items, dict) and any(
                v.get("format") == "binary" or "contentMediaType" in v for v in self.variants(items)
            ):
                return True
        return False

    def errors(self, schema: Any, instance: Any, root: str = "$") -> list[str]:
        """Every validation problem as `<JSON path>: <message>`; unions report their closest variant."""
        validator = self.validator(schema)
        found = sorted(validator.iter_errors(instance), key=lambda e: [str(p) for p in e.absolute_path])
        return [describe(error, root) for error in found]

    def coerce_text(self, schema: Any, text: str) -> Any:
        """Turn a query/form text value into the first JSON value the schema accepts (else the text)."""
        candidates: list[Any] = [text]
        stripped = text.strip()
        try:
            candidates.append(int(stripped))
        except ValueError:
            pass
        try:
            candidates.append(float(stripped))
        except ValueError:
            pass
        if stripped in ("true", "false"):
            candidates.append(stripped == "true")
        if stripped == "null":
            candidates.append(None)
        validator = self.validator(schema)
        for candidate in candidates:
            if validator.is_valid(candidate):
                return candidate
        declared = self.types(schema)
        if "string" not in declared:
            for candidate in candidates[1:]:
                if _json_type(candidate) in declared or (_json_type(candidate) == "integer" and "number" in declared):
                    return candidate
        return text


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def json_path(root: str, path: Any) -> str:
    """Format a jsonschema path deque as `$.a[0].b` under the given root."""
    text = root
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else f".{part}"
    return text


def describe(error: ValidationError, root: str = "$") -> str:
    """One line per problem: JSON path, message (shortened), the closest union variant's problem."""
    where = json_path(root, error.absolute_path)
    if error.validator in ("anyOf", "oneOf") and error.context:
        return _shorten(_describe_union(error, where, root))
    return _shorten(f"{where}: {error.message}")


def _describe_union(error: ValidationError, where: str, root: str) -> str:
    """Explain a failed union: a discriminator-like property (`type`, `role`) whose value no variant
    accepts is named with every allowed value; otherwise the closest variant's problems are given."""
    by_variant: dict[Any, list[ValidationError]] = {}
    for sub in error.context or []:
        key = sub.relative_schema_path[0] if sub.relative_schema_path else None
        by_variant.setdefault(key, []).append(sub)
    tags: dict[str, dict[Any, ValidationError]] = {}
    mismatched_type: set[Any] = set()
    for variant, errors in by_variant.items():
        for sub in errors:
            if sub.validator in ("enum", "const") and len(sub.relative_path) == 1:
                tags.setdefault(str(sub.relative_path[0]), {})[variant] = sub
            if sub.validator == "type" and not sub.relative_path:
                mismatched_type.add(variant)
    for name, rejected in sorted(tags.items()):
        if len(rejected) == len(by_variant):
            allowed: list[Any] = []
            for sub in rejected.values():
                values = sub.validator_value if sub.validator == "enum" else [sub.validator_value]
                allowed.extend(v for v in values if v not in allowed)
            value = next(iter(rejected.values())).instance
            return f"{where}.{name}: {value!r} is not one of the values the union accepts {allowed!r}"
    tagged = {variant for rejected in tags.values() for variant in rejected}
    candidates = [v for v in by_variant if v not in tagged and v not in mismatched_type]
    if not candidates:
        candidates = [v for v in by_variant if v not in mismatched_type] or list(by_variant)
    chosen = min(candidates, key=lambda v: len(by_variant[v]))
    problems = by_variant[chosen]
    detail = "; ".join(describe(sub, root) for sub in problems[:3])
    return f"{where}: matches none of the allowed variants; closest variant #{chosen}: {detail}"


def _shorten(message: str) -> str:
    return message if len(message) <= _MAX_MESSAGE else message[: _MAX_MESSAGE - 3] + "..."
