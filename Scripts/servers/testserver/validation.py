"""Checks one received request against its spec operation: path, query, headers, content type and body.

Every function returns a list of problems, each `<location>: <message>`; locations are JSON paths
(`$.messages[0].role` for the body, `query.include[]`, `path.thread_id`, `header.Authorization`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Mapping

from schemas import Schemas
from spec_model import Operation

_BRACKETS = re.compile(r"^([^\[\]]+)((?:\[[^\[\]]*\])*)$")
_BRACKET_PART = re.compile(r"\[([^\[\]]*)\]")


@dataclass
class Part:
    """One received multipart part (content not kept beyond `text` for small text parts)."""

    name: str
    filename: str | None
    content_type: str | None
    size: int
    sha256: str
    text: str | None  # decoded value of a non-file part (None for files or oversized parts)

    def record(self) -> dict[str, Any]:
        """JSON form for the request record."""
        out = {
            "name": self.name,
            "filename": self.filename,
            "content_type": self.content_type,
            "size": self.size,
            "sha256": self.sha256,
        }
        if self.text is not None and self.size <= 4096:
            out["value"] = self.text
        return out


@dataclass
class Outcome:
    """Validation result: hard errors and advisory warnings."""

    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def split_brackets(name: str) -> tuple[str, list[str]]:
    """`metadata[project]` -> ("metadata", ["project"]); `image[]` -> ("image", [""])."""
    match = _BRACKETS.match(name)
    if not match:
        return name, []
    return match.group(1), _BRACKET_PART.findall(match.group(2))


def check_path(op: Operation, schemas: Schemas, values: Mapping[str, str], out: Outcome) -> None:
    """Path parameters: non-empty and valid against their schema (enums, patterns)."""
    for prm in op.parameters:
        if prm.location != "path":
            continue
        value = values.get(prm.name)
        if not value:
            out.errors.append(f"path.{prm.name}: path parameter is empty")
            continue
        out.errors.extend(schemas.errors(prm.schema, schemas.coerce_text(prm.schema, value), f"path.{prm.name}"))


def check_query(op: Operation, schemas: Schemas, pairs: list[tuple[str, str]], out: Outcome) -> None:
    """Query parameters: arrays as `name[]=a&name[]=b`, objects as `o[k]=v`, scalars once."""
    groups: dict[str, list[tuple[list[str], str]]] = {}
    for key, value in pairs:
        base, brackets = split_brackets(key)
        groups.setdefault(base, []).append((brackets, value))
    fixed = {key for key, _ in op.path_query}
    for prm in op.parameters:
        if prm.location != "query":
            continue
        base_name = prm.name[:-2] if prm.name.endswith("[]") else prm.name  # the spec names some `include[]`
        received = groups.pop(base_name, None)
        where = f"query.{base_name}"
        if not received:
            if prm.required:
                out.errors.append(f"{where}: required query parameter is missing")
            continue
        kinds = schemas.types(prm.schema)
        if "array" in kinds and "string" not in kinds:
            plain = [value for brackets, value in received if not brackets]
            if plain:
                out.errors.append(
                    f"{where}: array parameter sent as `{base_name}=`; expected `{base_name}[]=` per value"
                )
            item_schema = schemas.child(prm.schema, None)
            values = [schemas.coerce_text(item_schema, value) for brackets, value in received if brackets == [""]]
            out.errors.extend(schemas.errors(prm.schema, values, where + "[]"))
        elif "object" in kinds:
            obj: dict[str, Any] = {}
            for brackets, value in received:
                if len(brackets) != 1 or not brackets[0]:
                    out.errors.append(f"{where}: object parameter must be sent as `{base_name}[key]=value`")
                    continue
                obj[brackets[0]] = schemas.coerce_text(schemas.child(prm.schema, brackets[0]), value)
            out.errors.extend(schemas.errors(prm.schema, obj, where))
        else:
            if len(received) > 1:
                out.errors.append(f"{where}: scalar parameter sent {len(received)} times")
            brackets, value = received[0]
            if brackets:
                out.errors.append(f"{where}: scalar parameter sent with brackets")
            out.errors.extend(schemas.errors(prm.schema, schemas.coerce_text(prm.schema, value), where))
    for name in sorted(groups):
        if name not in fixed:
            out.warnings.append(f"query.{name}: parameter not declared by the operation")


def check_headers(op: Operation, schemas: Schemas, headers: Mapping[str, str], out: Outcome) -> None:
    """Authorization (Bearer, non-empty; Azure-style `api-key` accepted with a warning) and header params."""
    auth = headers.get("Authorization")
    if auth is None:
        if headers.get("api-key"):
            out.warnings.append("header.api-key: authenticated with an Azure-style api-key header")
        else:
            out.errors.append("header.Authorization: missing (expected `Bearer <key>`)")
    elif not auth.startswith("Bearer ") or not auth[len("Bearer ") :].strip():
        out.errors.append("header.Authorization: expected `Bearer <key>` with a non-empty key")
    for prm in op.parameters:
        if prm.location != "header":
            continue
        value = headers.get(prm.name)
        if value is None:
            if prm.required:
                out.errors.append(f"header.{prm.name}: required header is missing")
            continue
        if "array" in schemas.types(prm.schema):
            item_schema = schemas.child(prm.schema, None)
            instance: Any = [schemas.coerce_text(item_schema, v.strip()) for v in value.split(",")]
        else:
            instance = schemas.coerce_text(prm.schema, value)
        out.errors.extend(schemas.errors(prm.schema, instance, f"header.{prm.name}"))


def media_type(content_type: str | None) -> str:
    """`application/json; charset=utf-8` -> `application/json`."""
    return (content_type or "").split(";", 1)[0].strip().lower()


def check_json_body(op: Operation, schemas: Schemas, schema: Any, body: bytes, out: Outcome, strict: bool) -> Any:
    """Parse and validate a JSON body; returns the parsed value (or None when it does not parse)."""
    try:
        value = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        out.errors.append(f"$: body is not valid UTF-8 JSON: {error}")
        return None
    out.errors.extend(schemas.errors(schema, value, "$"))
    if isinstance(value, dict):
        properties, additional = schemas.object_properties(schema)
        if not additional:
            for name in sorted(set(value) - set(properties)):
                message = f"$.{name}: property not declared by the request schema"
                (out.errors if strict else out.warnings).append(message)
    return value


def check_multipart(schemas: Schemas, schema: Any, parts: list[Part], out: Outcome) -> dict[str, Any]:
    """Assemble form parts (`name[]` arrays, `name[key]` objects) and validate against the schema.

    File fields (schema `format: binary`) need a filename and content; plain fields are coerced to the
    type their schema accepts (`"3"` -> 3, `"true"` -> true); a part sent as `application/json` is parsed.
    Returns the assembled object (files as `"<file name (size bytes)>"` placeholders).
    """
    properties, additional = schemas.object_properties(schema)
    assembled: dict[str, Any] = {}
    for part in parts:
        base, brackets = split_brackets(part.name)
        where = "$." + part.name
        if base not in properties and not additional:
            out.errors.append(f"{where}: form field not declared by the request schema")
        prop_schema = properties.get(base, {})
        is_file_field = schemas.is_binary(prop_schema)
        leaf_schema = prop_schema
        for step in brackets:
            leaf_schema = schemas.child(leaf_schema, step or None)
        if part.filename is not None:
            if not part.filename:
                out.errors.append(f"{where}: file part has an empty filename")
            if part.size == 0:
                out.errors.append(f"{where}: file part is empty")
            if not is_file_field and prop_schema:
                out.warnings.append(f"{where}: file sent for a field that is not binary in the schema")
            value: Any = f"<file {part.filename} ({part.size} bytes)>"
        else:
            if is_file_field:
                out.errors.append(f"{where}: file field sent without a filename")
            text = part.text if part.text is not None else ""
            if media_type(part.content_type) == "application/json":
                try:
                    value = json.loads(text)
                except ValueError as error:
                    out.errors.append(f"{where}: part declared application/json does not parse: {error}")
                    value = text
            else:
                value = schemas.coerce_text(leaf_schema, text)
        _insert(assembled, base, brackets, value, where, out)
    out.errors.extend(schemas.errors(schema, assembled, "$"))
    return assembled


def _insert(target: dict[str, Any], base: str, brackets: list[str], value: Any, where: str, out: Outcome) -> None:
    if not brackets:
        if base in target:
            out.errors.append(f"{where}: field sent more than once (use `{base}[]` for arrays)")
        target[base] = value
        return
    container: Any = target
    key: Any = base
    for step in brackets:
        wanted: Any = [] if step == "" else {}
        current = container.get(key) if isinstance(container, dict) else None
        if current is None:
            current = wanted
            container[key] = current
        elif type(current) is not type(wanted):
            out.errors.append(f"{where}: mixes array and object notation for `{base}`")
            return
        if step == "":
            current.append(None)
            container, key = current, len(current) - 1
        else:
            container, key = current, step
    container[key] = value


def check_sdp(body: bytes, out: Outcome) -> None:
    """`application/sdp`: non-empty UTF-8 text."""
    if not body.strip():
        out.errors.append("$: application/sdp body is empty")
        return
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:
        out.errors.append("$: application/sdp body is not UTF-8 text")
