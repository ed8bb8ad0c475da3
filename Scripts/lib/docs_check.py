"""The Python parts of Scripts/docs/build-docs.sh: checking a module's symbol graph, and reporting DocC's
diagnostics.

Usage: python3 Scripts/lib/docs_check.py graph FOLDER MODULE REEXPORTED
       python3 Scripts/lib/docs_check.py diagnostics DIAGNOSTICS_JSON LOG MODULE STATUS

`graph` fails (status 1) when MODULE's symbol graph in FOLDER lacks the re-exported module's
symbols DocC shows in it (`OpenAIClient` for OpenAI, `WebSocket` for OpenAIRealtime).
`diagnostics` prints every diagnostic of a `docc convert` run (the first 50 with their file:line:column)
and the count by severity and kind, and fails when there is an error or a warning, or when DocC
exited with STATUS other than 0 (then printing its LOG).
"""

import collections
import json
import os
import re
import sys

# The top-level symbols each module's graph must have from the module it re-exports.
REEXPORTED_SYMBOLS = {
    "OpenAI": ["OpenAIClient", "OpenAIError", "OpenAIStream", "FileUpload"],
    "OpenAIRealtime": ["WebSocket", "WebSocketError", "WebSocketConfiguration"],
}
LISTED = 50


def check_graph(folder, module, reexported):
    """A line describing the graph, and an error message when re-exported symbols are missing."""
    graph = json.load(open(os.path.join(folder, module + ".symbols.json"), encoding="utf-8"))
    names = {s["names"]["title"] for s in graph["symbols"] if len(s["pathComponents"]) == 1}
    missing = [name for name in REEXPORTED_SYMBOLS[module] if name not in names]
    files = sorted(f for f in os.listdir(folder) if f.endswith(".symbols.json"))
    line = (
        f"{module}: {len(graph['symbols'])} symbols, {len(graph['relationships'])} relationships; "
        f"files: {', '.join(files)}"
    )
    error = (
        f"build-docs: the {module} symbol graph lacks the re-exported {reexported} symbols {missing}"
        if missing
        else None
    )
    return line, error


def kind(summary):
    """A diagnostic's kind: its summary with quoted names and numbers blanked (DocC gives no identifier)."""
    quoted = r"(?<![A-Za-z])'[^']*'(?![A-Za-z])|``[^`]*``|`[^`]*`"
    return re.sub(r"\d+", "N", re.sub(quoted, "'…'", summary or ""))


def report(diagnostics, module, cwd, path):
    """The report's lines, and the number of errors and warnings."""
    lines = []
    for d in diagnostics[:LISTED]:
        where = d.get("source") or ""
        if where.startswith("file://"):
            where = where[len("file://") :]
        where = os.path.relpath(where, cwd) if where.startswith(cwd + "/") else where
        start = (d.get("range") or {}).get("start") or {}
        location = f"{where}:{start.get('line', '?')}:{start.get('column', '?')}" if where else "<no file>"
        lines.append(f"  {location}: {d.get('severity')}: {d.get('summary')}")
    if len(diagnostics) > LISTED:
        lines.append(f"  ... and {len(diagnostics) - LISTED} more (all in {os.path.relpath(path, cwd)})")
    by_severity = collections.Counter(d.get("severity", "?") for d in diagnostics)
    by_kind = collections.Counter((d.get("severity", "?"), kind(d.get("summary"))) for d in diagnostics)
    counts = ", ".join(f"{n} {s}" for s, n in sorted(by_severity.items())) or "none"
    # --warnings-as-errors makes DocC report every warning with the severity "error".
    lines.append(f"{module}: diagnostics: {counts}")
    lines += [f"  {n:6d}  {severity:8s} {text}" for (severity, text), n in by_kind.most_common()]
    return lines, by_severity.get("error", 0) + by_severity.get("warning", 0)


def main(argv):
    if len(argv) == 4 and argv[0] == "graph":
        line, error = check_graph(argv[1], argv[2], argv[3])
        print(line)
        if error:
            print(error, file=sys.stderr)
            return 1
        return 0
    if len(argv) == 5 and argv[0] == "diagnostics":
        path, log, module, status = argv[1], argv[2], argv[3], int(argv[4])
        diagnostics = json.load(open(path, encoding="utf-8")).get("diagnostics", []) if os.path.exists(path) else []
        lines, problems = report(diagnostics, module, os.getcwd(), path)
        print("\n".join(lines))
        if status != 0 and problems == 0:
            print(f"build-docs: docc convert exited with status {status}; its output:")
            print(open(log, encoding="utf-8", errors="replace").read())
        return 1 if status != 0 or problems else 0
    print(__doc__.split("\n\n")[1], file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
