"""Load the locked OpenAPI document into the operation table the test server routes and validates with.

Parsing 2.9 MB of YAML takes about a second, so the derived form (operations with converted schemas,
examples, the `$defs` registry document) is pickled in `<tmp>/openai-testserver-cache/`, keyed by the
sha256 of the spec bytes and of this package's converter sources. A cache hit loads in tens of ms.
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import re
import tempfile
import urllib.parse
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import schema_convert

HTTP_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
_CACHE_FORMAT = 3
_TRAILING_COMMA = re.compile(r",(\s*[}\]])")


@dataclass
class Parameter:
    """One operation parameter: `location` is path, query or header; `schema` is converted JSON Schema."""

    name: str
    location: str
    required: bool
    schema: Any
    style: str | None = None


@dataclass
class Operation:
    """Everything the server needs about one operation of the spec."""

    operation_id: str
    method: str
    path: str  # template without the query part, e.g. /threads/{thread_id}/runs
    path_query: list[tuple[str, str]]  # fixed query pairs carried in the spec path (`?beta=true`)
    segments: list[str]
    parameters: list[Parameter]
    body_required: bool
    body_content: dict[str, Any]  # media type -> converted schema
    success_status: int
    success_content: dict[str, Any]  # media type -> converted schema (may be empty: no body)
    example_responses: list[Any]  # parsed JSON values, first usable first
    example_sse: list[str]  # raw SSE texts from examples
    example_texts: list[str]  # examples that are neither JSON nor SSE (SDP, binary placeholder)
    example_request_curls: list[tuple[str, str]]  # (title, curl command)
    security: list[str]
    repaired_examples: int = 0

    @property
    def literal_count(self) -> int:
        """Number of literal (non-template) segments: more literals means a more specific route."""
        return sum(1 for seg in self.segments if not seg.startswith("{"))

    def param(self, location: str, name: str) -> Parameter | None:
        """Return the parameter with the given location and name, if declared."""
        for prm in self.parameters:
            if prm.location == location and prm.name == name:
                return prm
        return None


@dataclass
class SpecModel:
    """The derived, picklable form of the spec."""

    sha256: str
    registry_document: dict[str, Any]
    operations: list[Operation]
    stats: dict[str, int]


def _parse_example_json(text: str) -> tuple[Any, bool] | None:
    try:
        return json.loads(text), False
    except ValueError:
        pass
    try:
        return json.loads(_TRAILING_COMMA.sub(r"\1", text)), True
    except ValueError:
        return None


def _sse_from_example(text: str) -> str | None:
    stripped = text.lstrip()
    if stripped.startswith(("data:", "event:")):
        return stripped if stripped.endswith("\n\n") else stripped.rstrip("\n") + "\n\n"
    lines = [line for line in stripped.splitlines() if line.strip().strip(".…")]  # "...." = elided chunks
    if len(lines) < 2:
        return None
    try:
        for line in lines:
            json.loads(line)
    except ValueError:
        return None
    return "".join(f"data: {line.strip()}\n\n" for line in lines) + "data: [DONE]\n\n"


def _examples(op: dict[str, Any]) -> list[dict[str, Any]]:
    meta = op.get("x-oaiMeta") or {}
    examples = meta.get("examples")
    if isinstance(examples, dict):
        examples = [examples]
    return [ex for ex in examples or [] if isinstance(ex, dict)]


def _build_operation(
    path_key: str, method: str, op: dict[str, Any], shared_params: list[Any], spec: dict[str, Any], stats: Any
) -> Operation:
    path, _, query = path_key.partition("?")
    path_query = urllib.parse.parse_qsl(query, keep_blank_values=True)
    params = []
    declared = {}
    for raw in [*shared_params, *op.get("parameters", [])]:
        if "$ref" in raw:
            raw = _resolve_pointer(spec, raw["$ref"])
        declared[(raw["in"], raw["name"])] = raw
    for raw in declared.values():
        params.append(
            Parameter(
                name=raw["name"],
                location=raw["in"],
                required=bool(raw.get("required")) or raw["in"] == "path",
                schema=schema_convert.convert(raw.get("schema", {}), stats),
                style=raw.get("style"),
            )
        )
    body = op.get("requestBody") or {}
    if "$ref" in body:
        body = _resolve_pointer(spec, body["$ref"])
    body_content = {
        media: schema_convert.convert(content.get("schema", {}), stats)
        for media, content in (body.get("content") or {}).items()
    }
    success_status, success_content = 200, {}
    for code, response in sorted(op.get("responses", {}).items()):
        if str(code).startswith("2"):
            if "$ref" in response:
                response = _resolve_pointer(spec, response["$ref"])
            success_status = int(code)
            success_content = {
                media: schema_convert.convert(content.get("schema", {}), stats)
                for media, content in (response.get("content") or {}).items()
            }
            break
    example_responses, example_sse, example_texts, curls = [], [], [], []
    repaired = 0
    for ex in _examples(op):
        request = ex.get("request")
        if isinstance(request, dict) and isinstance(request.get("curl"), str):
            curls.append((ex.get("title") or "", request["curl"]))
        text = ex.get("response")
        if not isinstance(text, str) or not text.strip():
            continue
        parsed = _parse_example_json(text)
        if parsed is not None:
            example_responses.append(parsed[0])
            repaired += parsed[1]
            continue
        sse = _sse_from_example(text)
        if sse is not None:
            example_sse.append(sse)
        else:
            example_texts.append(text)
    if repaired:
        stats["example responses repaired (trailing commas)"] += repaired
    security = sorted({name for req in op.get("security", spec.get("security", [])) for name in req})
    return Operation(
        operation_id=op.get("operationId", f"{method} {path_key}"),
        method=method.upper(),
        path=path,
        path_query=path_query,
        segments=[seg for seg in path.split("/") if seg],
        parameters=params,
        body_required=bool(body.get("required")),
        body_content=body_content,
        success_status=success_status,
        success_content=success_content,
        example_responses=example_responses,
        example_sse=example_sse,
        example_texts=example_texts,
        example_request_curls=curls,
        security=security,
        repaired_examples=repaired,
    )


def _resolve_pointer(doc: dict[str, Any], ref: str) -> Any:
    node: Any = doc
    for part in ref.lstrip("#/").split("/"):
        node = node[part.replace("~1", "/").replace("~0", "~")]
    return node


def build_model(spec_bytes: bytes, sha256: str) -> SpecModel:
    """Parse the YAML and derive the operation table (slow path, ~1 s)."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    spec = yaml.load(spec_bytes, Loader=loader)
    stats = schema_convert.ConversionStats()
    registry_document = schema_convert.convert_components(spec.get("components", {}).get("schemas", {}), stats)
    operations = []
    for path_key, item in spec.get("paths", {}).items():
        shared = item.get("parameters", [])
        for method, op in item.items():
            if method in HTTP_METHODS and isinstance(op, dict):
                operations.append(_build_operation(path_key, method, op, shared, spec, stats))
    return SpecModel(sha256=sha256, registry_document=registry_document, operations=operations, stats=dict(stats))


def _code_fingerprint() -> str:
    digest = hashlib.sha256(str(_CACHE_FORMAT).encode())
    here = Path(__file__).resolve().parent
    for name in ("spec_model.py", "schema_convert.py"):
        digest.update((here / name).read_bytes())
    return digest.hexdigest()[:16]


def load_model(spec_path: str | os.PathLike[str], cache_dir: str | None = None) -> tuple[SpecModel, bool]:
    """Load the derived model, from the pickle cache when possible. Returns (model, cache_hit)."""
    spec_bytes = Path(spec_path).read_bytes()
    sha256 = hashlib.sha256(spec_bytes).hexdigest()
    directory = Path(cache_dir or os.path.join(tempfile.gettempdir(), "openai-testserver-cache"))
    cache_file = directory / f"{sha256}-{_code_fingerprint()}.pickle"
    try:
        with cache_file.open("rb") as handle:
            model = pickle.load(handle)
        if isinstance(model, SpecModel) and model.sha256 == sha256:
            return model, True
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError):
        pass
    model = build_model(spec_bytes, sha256)
    try:
        directory.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=directory, suffix=".tmp")
        with os.fdopen(fd, "wb") as handle:
            pickle.dump(model, handle, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, cache_file)  # atomic: parallel servers never read a half-written cache
    except OSError:
        pass
    return model, False
