"""The file lists lint.sh's checks read, from the checkout's files.

Usage: python3 Scripts/check/lint/file_lists.py WORK GENERATED_DIR...   (run in the checkout's root)

Reads WORK/files (the checkout's files, NUL-separated) and writes WORK/hand-written (*.swift but
what .swift-format-ignore lists), WORK/generated (*.swift under each GENERATED_DIR) and WORK/python
(*.py), each NUL-separated. Exits with a message on an ignore file it cannot read (a negation).
"""

import os
import re
import sys


def read_list(work, name):
    """The paths of the NUL-separated list WORK/name."""
    with open(os.path.join(work, name), "rb") as f:
        return [p for p in f.read().decode().split("\0") if p]


def compile_pattern(line):
    """A .gitignore pattern (no negation) as (regex over a path, whether it matches folders only)."""
    folder_only = line.endswith("/")
    body = line.rstrip("/")
    anchored = "/" in body
    body = body.lstrip("/")
    rx, i = "", 0
    while i < len(body):
        if body.startswith("**/", i):
            rx, i = rx + "(?:.*/)?", i + 3
        elif body.startswith("**", i):
            rx, i = rx + ".*", i + 2
        elif body[i] == "*":
            rx, i = rx + "[^/]*", i + 1
        elif body[i] == "?":
            rx, i = rx + "[^/]", i + 1
        else:
            rx, i = rx + re.escape(body[i]), i + 1
    return re.compile(("" if anchored else "(?:.*/)?") + rx), folder_only


def read_patterns(text, name=".swift-format-ignore"):
    """The patterns of an ignore file's text; raises SystemExit naming the line of a negation."""
    patterns = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("!"):
            sys.exit(f"lint: {name}:{number}: negation (!) is not supported: {line}")
        patterns.append(compile_pattern(line))
    return patterns


def ignored(path, patterns):
    """Whether `path`, or a folder above it, matches one of `patterns`."""
    parts = path.split("/")
    candidates = [("/".join(parts[:k]), True) for k in range(1, len(parts))] + [(path, False)]
    return any(
        rx.fullmatch(candidate) and (is_folder or not folder_only)
        for rx, folder_only in patterns
        for candidate, is_folder in candidates
    )


def lists(files, generated_dirs, patterns):
    """The three lists, by name, from the checkout's files; `generated_dirs` are the generator's
    output folders."""
    swift = [p for p in files if p.endswith(".swift")]
    prefixes = tuple(folder.rstrip("/") + "/" for folder in generated_dirs)
    return {
        "hand-written": [p for p in swift if not ignored(p, patterns)],
        "generated": [p for p in swift if p.startswith(prefixes)],
        "python": [p for p in files if p.endswith(".py")],
    }


def main(argv):
    work, generated_dirs = argv[0], argv[1:]
    files = sorted(set(read_list(work, "files")))
    patterns = []
    if os.path.exists(".swift-format-ignore"):
        patterns = read_patterns(open(".swift-format-ignore", encoding="utf-8").read())
    for name, paths in lists(files, generated_dirs, patterns).items():
        with open(os.path.join(work, name), "w") as out:
            out.write("".join(p + "\0" for p in paths))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
