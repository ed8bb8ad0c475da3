"""Synthesised replies: a minimal valid value for a schema, and pages of list items for pagination tests."""

from __future__ import annotations

import copy
from typing import Any

from schemas import Schemas

_MAX_DEPTH = 14
_STRING_BY_FORMAT = {
    "date-time": "2025-01-01T00:00:00Z",
    "date": "2025-01-01",
    "uri": "https://example.com/",
    "url": "https://example.com/",
    "email": "user@example.com",
    "binary": "",
    "byte": "",
}


def synthesize(schemas: Schemas, schema: Any, depth: int = 0) -> Any:
    """A minimal value valid against `schema`: required properties only, the first const/enum value,
    `minimum` (or 0) for numbers, `minItems` copies for arrays, the first non-null union variant."""
    schema = schemas.resolve(schema)
    if schema is True or not isinstance(schema, dict) or depth > _MAX_DEPTH:
        return None if depth > _MAX_DEPTH else {}
    if "const" in schema:
        return copy.deepcopy(schema["const"])
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        non_null = [value for value in schema["enum"] if value is not None]
        return copy.deepcopy(non_null[0] if non_null else None)
    if "allOf" in schema:
        schema = _merge_all_of(schemas, schema)
    if "anyOf" in schema:
        variants = schema["anyOf"]
        non_null = [v for v in variants if schemas.resolve(v) != {"type": "null"}]
        chosen = synthesize(schemas, (non_null or variants)[0], depth + 1)
        if isinstance(chosen, dict) and schema.get("properties"):
            own = synthesize(schemas, {k: v for k, v in schema.items() if k != "anyOf"}, depth + 1)
            if isinstance(own, dict):
                chosen = {**own, **chosen}
        return chosen
    declared = schema.get("type")
    if isinstance(declared, list):
        non_null_types = [t for t in declared if t != "null"]
        declared = non_null_types[0] if non_null_types else "null"
    if declared is None:
        declared = "object" if "properties" in schema else "array" if "items" in schema else None
    if declared == "object":
        out = {}
        properties = schema.get("properties", {})
        for name in schema.get("required", []):
            out[name] = synthesize(schemas, properties.get(name, {}), depth + 1)
        return out
    if declared == "array":
        count = int(schema.get("minItems", 0))
        return [synthesize(schemas, schema.get("items", {}), depth + 1) for _ in range(count)]
    if declared == "string":
        text = _STRING_BY_FORMAT.get(schema.get("format", ""), "string")
        minimum = int(schema.get("minLength", 0))
        return text + "x" * max(0, minimum - len(text))
    if declared in ("integer", "number"):
        value = schema.get("minimum", schema.get("exclusiveMinimum", 0))
        if "exclusiveMinimum" in schema and "minimum" not in schema:
            value = value + 1
        return int(value) if declared == "integer" else float(value)
    if declared == "boolean":
        return False
    if declared == "null":
        return None
    return {}


def list_page(
    schemas: Schemas,
    response_schema: Any,
    example: Any,
    pages: int,
    limit: int,
    after: str | None,
) -> dict[str, Any]:
    """One page of a cursor list: `pages * limit` items with ids item_1.., the page after `after`.

    Items are the example response's first `data` element (when it has one) or a synthesised item,
    each given `id: item_N`. The page carries `has_more`, `first_id`, `last_id` (and `next` or
    `next_page` when the schema declares it)."""
    total = pages * limit
    start = 0
    if after and after.startswith("item_") and after[5:].isdigit():
        start = int(after[5:])
    numbers = list(range(start + 1, min(start + limit, total) + 1))
    template: Any = None
    if isinstance(example, dict) and isinstance(example.get("data"), list) and example["data"]:
        template = example["data"][0]
    if template is None:
        item_schema = schemas.child(schemas.child(response_schema, "data"), None)
        template = synthesize(schemas, item_schema)
    items = []
    for number in numbers:
        item = copy.deepcopy(template) if isinstance(template, dict) else {}
        item["id"] = f"item_{number}"
        items.append(item)
    page = synthesize(schemas, response_schema) if response_schema else {}
    if not isinstance(page, dict):
        page = {}
    page.setdefault("object", "list")
    page["data"] = items
    page["first_id"] = items[0]["id"] if items else None
    page["last_id"] = items[-1]["id"] if items else None
    page["has_more"] = bool(numbers) and numbers[-1] < total
    properties, _ = schemas.object_properties(response_schema)
    for member in ("next", "next_page"):
        if member in properties:
            page[member] = page["last_id"] if page["has_more"] else None
    return page


def _merge_all_of(schemas: Schemas, schema: dict[str, Any], depth: int = 0) -> dict[str, Any]:
    """Flatten `allOf` into one schema: properties and required lists united, first keyword wins."""
    merged: dict[str, Any] = {k: v for k, v in schema.items() if k != "allOf"}
    properties = dict(merged.get("properties", {}))
    required = list(merged.get("required", []))
    for part in schema["allOf"]:
        part = schemas.resolve(part)
        if not isinstance(part, dict):
            continue
        if "allOf" in part and depth < 8:
            part = _merge_all_of(schemas, part, depth + 1)
        for name, sub in part.get("properties", {}).items():
            properties.setdefault(name, sub)
        required += [name for name in part.get("required", []) if name not in required]
        for key, value in part.items():
            if key not in ("properties", "required"):
                merged.setdefault(key, value)
    if properties:
        merged["properties"] = properties
    if required:
        merged["required"] = required
    return merged
