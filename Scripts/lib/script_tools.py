#!/usr/bin/env python3
"""Small tools the shell library's functions call (`python3 Scripts/lib/script_tools.py COMMAND ARGS...`), so that
no Python lives inside a script:

  sha256 FILE                   the file's sha256 in lowercase hex, read in 1 MiB chunks (lib/spec.sh's sha256_of)
  json-field FILE KEY           one top-level field of a JSON object, empty when absent or null (lib/spec.sh's
                                json_field)
  json-lines FILE KEY           the strings of the array at a top-level KEY, one per line (test-app-probes.sh's flags)
  swiftpm-objects MAP TARGET    the object files a SwiftPM output-file-map.json names, sorted, and the target's
                                module object beside it when present (lib.sh's swiftpm_objects)

Exit status: 0 on success; 1 on an unreadable file or a missing KEY for json-lines; 2 usage error.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import Sequence


def sha256(path: str) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def json_field(path: str, key: str) -> str:
    with open(path) as handle:
        value = json.load(handle).get(key)
    return "" if value is None else str(value)


def json_lines(path: str, key: str) -> list[str]:
    with open(path) as handle:
        return [str(item) for item in json.load(handle)[key]]


def swiftpm_objects(output_file_map: str, target: str) -> list[str]:
    """The objects of the sources the map lists (never every object in the folder: a removed source leaves its
    object behind), then `<TARGET>.swiftmodule.o` when the folder has it."""
    with open(output_file_map) as handle:
        entries = json.load(handle)
    objects = sorted(entry["object"] for source, entry in entries.items() if source and "object" in entry)
    module = os.path.join(os.path.dirname(output_file_map), target + ".swiftmodule.o")
    return objects + ([module] if os.path.isfile(module) else [])


COMMANDS = {
    "sha256": (1, lambda args: [sha256(*args)]),
    "json-field": (2, lambda args: [json_field(*args)]),
    "json-lines": (2, lambda args: json_lines(*args)),
    "swiftpm-objects": (2, lambda args: swiftpm_objects(*args)),
}


def main(argv: Sequence[str]) -> int:
    if not argv or argv[0] not in COMMANDS or len(argv) - 1 != COMMANDS[argv[0]][0]:
        print(f"script_tools: usage error: {' '.join(argv)}\n\n{__doc__}", file=sys.stderr)
        return 2
    try:
        lines = COMMANDS[argv[0]][1](list(argv[1:]))
    except (OSError, KeyError, ValueError) as error:
        print(f"script_tools: {argv[0]}: {error}", file=sys.stderr)
        return 1
    if lines:
        print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
