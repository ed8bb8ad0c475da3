"""lint.sh's size check: hand-written files under their line limit, generated ones under the generator's cap.

Usage: python3 Scripts/check/lint/sizes.py WORK LIMIT CAP_SOURCE NOTE   (run in the checkout's root)

Reads the lists file_lists.py wrote in WORK; prints one line per finding; writes the check's
summary to NOTE; exits 1 when there is a finding.
"""

import re
import sys

from file_lists import read_list


def line_count(path):
    with open(path, "rb") as f:
        return len(f.read().decode("utf-8", errors="replace").splitlines())


def header_lines(lines):
    """How many lines of a generated file are its header: two comment lines, then a blank line,
    the imports and a blank line when there are imports (Manifest.swift and OperationIndex.swift
    have none)."""
    header = min(2, len(lines))
    imports = header + 1
    while imports < len(lines) and lines[imports].startswith("import "):
        imports += 1
    if imports > header + 1 and lines[header] == "":
        header = imports + (1 if imports < len(lines) and lines[imports] == "" else 0)
    return header


def line_cap(cap_source):
    """The generator's default line cap, read from its source (`public static let defaultLineCap = N`)."""
    text = open(cap_source).read()
    return int(re.search(r"(?m)^\s*public static let defaultLineCap = (\d+)\s*$", text).group(1))


def main(argv):
    work, limit, cap_source, note_path = argv[0], int(argv[1]), argv[2], argv[3]
    findings, notes = 0, []
    hand_written = [(line_count(p), p) for p in read_list(work, "hand-written")]
    for lines, path in sorted(hand_written, reverse=True):
        if lines > limit:
            print(f"{path}: {lines} lines, over the {limit}-line limit for a hand-written file (STYLE.md habit 15)")
            findings += 1
    if hand_written:
        lines, path = max(hand_written)
        notes.append(f"{len(hand_written)} hand-written, largest {path} {lines} lines (limit {limit})")

    generated = read_list(work, "generated")
    if generated:
        try:
            cap = line_cap(cap_source)
        except (OSError, AttributeError) as error:
            print(
                f"lint: cannot read the generator's line cap (`static let defaultLineCap = N` in {cap_source}): {error}"
            )
            cap = None
            findings += 1
        if cap is not None:
            print(f"generated line cap: {cap} (the default of `openai-generator generate --line-cap`, {cap_source})")
            measured = []
            for path in generated:
                with open(path, "rb") as f:
                    lines = f.read().decode("utf-8", errors="replace").splitlines()
                header = header_lines(lines)
                body = len(lines) - header
                measured.append((body, len(lines), path))
                if body > cap:
                    print(
                        f"{path}: {body} lines below its {header}-line header ({len(lines)} in all), over the"
                        f" generator's line cap of {cap} ({cap_source})"
                    )
                    findings += 1
            body, total, path = max(measured)
            notes.append(f"{len(generated)} generated, largest {path} {body} + header = {total} lines (cap {cap})")
    with open(note_path, "w") as f:
        f.write("; ".join(notes + [f"{findings} findings"]))
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
