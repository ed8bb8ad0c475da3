"""Linux-only spellings outside a Linux branch: the `portability` check of Scripts/lint.sh.

Usage: portability.py LIST
  LIST  a file of NUL-separated Swift paths (relative to the current folder).

A Linux-only spelling compiles on Linux and nowhere else: `Glibc.` and `import Glibc`, `.rawValue` on a C
constant (`SOCK_STREAM.rawValue`, `RUSAGE_SELF.rawValue`: Glibc imports these as enums, Darwin as integers), and the
Linux file systems `/proc` and `/dev/shm` as path literals (a string that starts with them). Each must sit in a
branch that only Linux compiles: an `#if` or `#elseif` whose condition names `os(Linux)`, `canImport(Glibc)` or
`canImport(Musl)` or excludes Apple's platforms with `!canImport(Darwin)`, or the `#else` of a chain whose conditions
name Apple's platforms only (`canImport(Darwin)`, `os(macOS)`, `os(iOS)`, `os(tvOS)`, `os(watchOS)`,
`os(visionOS)`). Comments are not checked.

Prints one line per finding, `path:line:column: spelling ...`; exits 1 when there is any, 0 otherwise.
"""

import re
import sys

SPELLINGS = [
    (re.compile(r"\bGlibc\."), "`Glibc.` (Darwin has no Glibc module)"),
    (re.compile(r"^\s*import\s+Glibc\b"), "`import Glibc` (Darwin has no Glibc module)"),
    (
        re.compile(r"\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\.rawValue\b"),
        "`.rawValue` on a C constant (an enum in Glibc, an integer in Darwin)",
    ),
    (re.compile(r'"/proc(/|")'), "a `/proc` path (Linux's process file system)"),
    (re.compile(r'"/dev/shm(/|")'), "a `/dev/shm` path (Linux's shared-memory file system)"),
]
LINUX = re.compile(r"(?<!!)\bos\(Linux\)|(?<!!)canImport\((Glibc|Musl)\)|!\s*canImport\(Darwin\)")
APPLE = re.compile(r"canImport\(Darwin\)|os\((macOS|iOS|tvOS|watchOS|visionOS)\)")
NOT_APPLE_ONLY = re.compile(r"!|\|\||os\((Linux|Windows|Android|WASI|FreeBSD|OpenBSD)\)|canImport\((?!Darwin)")
DIRECTIVE = re.compile(r"^\s*#(if|elseif|else|endif)\b(.*)$")


def strip_comments(line, in_block):
    """(the line without its comments, whether a block comment is still open at its end): `//` and `/* */` outside
    string literals (a good approximation for this check: interpolations and raw strings are not parsed)."""
    code, in_string, i = [], False, 0
    while i < len(line):
        if in_block:
            if line.startswith("*/", i):
                in_block, i = False, i + 2
            else:
                i += 1
            continue
        c = line[i]
        if in_string and c == "\\":
            code.append(line[i : i + 2])
            i += 2
            continue
        if c == '"':
            in_string = not in_string
        elif not in_string and line.startswith("//", i):
            break
        elif not in_string and line.startswith("/*", i):
            in_block, i = True, i + 2
            continue
        code.append(c)
        i += 1
    return "".join(code), in_block


def check(path):
    findings = []
    # One frame per open #if: whether its current branch is Linux-only, and whether every condition so far in the
    # chain named Apple's platforms only (so that its #else is compiled by no Apple platform).
    frames = []
    in_block = False
    with open(path, encoding="utf-8", errors="replace") as f:
        for number, line in enumerate(f, 1):
            code, in_block_after = strip_comments(line, in_block)
            starts_in_block, in_block = in_block, in_block_after
            directive = None if starts_in_block else DIRECTIVE.match(code)
            if directive:
                keyword, condition = directive.group(1), directive.group(2)
                if keyword == "if":
                    apple_only = bool(APPLE.search(condition)) and not NOT_APPLE_ONLY.search(condition)
                    frames.append([bool(LINUX.search(condition)), apple_only])
                elif keyword == "elseif" and frames:
                    apple_only = bool(APPLE.search(condition)) and not NOT_APPLE_ONLY.search(condition)
                    frames[-1] = [bool(LINUX.search(condition)), frames[-1][1] and apple_only]
                elif keyword == "else" and frames:
                    frames[-1] = [frames[-1][1], False]
                elif keyword == "endif" and frames:
                    frames.pop()
                continue
            if any(linux for linux, _ in frames):
                continue
            for pattern, why in SPELLINGS:
                match = pattern.search(code)
                if match:
                    findings.append(
                        f"{path}:{number}:{match.start() + 1}: {why} outside an `#if os(Linux)` or"
                        " `#if canImport(Glibc)` branch"
                    )
    return findings


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    paths = [p for p in open(sys.argv[1], "rb").read().decode().split("\0") if p]
    findings = [finding for path in paths for finding in check(path)]
    for finding in findings:
        print(finding)
    print(f"portability: {len(paths)} files, {len(findings)} findings")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
