"""Maps request paths under /v1 to spec operations (templates, fixed query strings such as `?beta=true`)."""

from __future__ import annotations

import collections
import urllib.parse

from spec_model import Operation


class Router:
    """Matches `/v1/...` request paths (percent-encoded) to spec operations."""

    def __init__(self, operations: list[Operation]) -> None:
        self.by_length: dict[int, list[Operation]] = collections.defaultdict(list)
        for op in operations:
            self.by_length[len(op.segments)].append(op)
        for ops in self.by_length.values():
            ops.sort(key=lambda op: (-op.literal_count, -len(op.path_query)))

    def match(
        self, method: str, raw_path: str, query: list[tuple[str, str]]
    ) -> tuple[Operation | None, dict[str, str], list[str]]:
        """Returns (operation, path params, allowed methods when the path matched but the method did not)."""
        segments = raw_path.split("/")[1:] if raw_path.startswith("/") else raw_path.split("/")
        allowed: list[str] = []
        query_set = set(query)
        for op in self.by_length.get(len(segments), []):
            params: dict[str, str] = {}
            for template, actual in zip(op.segments, segments):
                if template.startswith("{") and template.endswith("}"):
                    params[template[1:-1]] = urllib.parse.unquote(actual)
                elif template != urllib.parse.unquote(actual):
                    break
            else:
                if not all(pair in query_set for pair in op.path_query):
                    continue
                if op.method == method:
                    return op, params, []
                allowed.append(op.method)
        return None, {}, allowed
