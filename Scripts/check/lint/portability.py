"""Linux-only spellings outside a Linux branch: the `portability` check of Scripts/check/lint.sh.

Usage: portability.py LIST
  LIST  a file of NUL-separated paths (relative to the current folder); the `*.swift` ones are read.

A Linux-only spelling compiles on Linux and nowhere else: `Glibc.`, `Musl.`, `import Glibc` or `import Musl` (with any
attribute), `import FoundationNetworking`, `.rawValue` on a C constant (`SOCK_STREAM.rawValue`, `RUSAGE_SELF.rawValue`:
Glibc imports these as enums, Darwin as integers), `MSG_NOSIGNAL`, and the Linux file systems `/proc` and `/dev/shm`
as path literals (a string that starts with them). Each must sit in a branch that only Linux compiles: an `#if` or
`#elseif` each of whose `||` parts requires `os(Linux)`, `canImport(Glibc)` or `canImport(Musl)` (not negated) or
excludes Apple with `!canImport(Darwin)`, or the `#else` of a chain whose conditions name every Apple platform
(`canImport(Darwin)`, or `os(macOS)`, `os(iOS)`, `os(tvOS)`, `os(watchOS)` and `os(visionOS)` on their own);
`import FoundationNetworking` may also sit under `canImport(FoundationNetworking)`. Comments are not checked.

Prints one line per finding, `path:line:column: spelling ...`; exits 1 when there is any, 0 otherwise.
"""

import re
import sys

# (pattern, why, the extra branch condition under which the spelling is also fine): each spelling is fine in a Linux
# branch; `import FoundationNetworking` also under `canImport(FoundationNetworking)`.
SPELLINGS = [
    (re.compile(r"\b(Glibc|Musl)\."), "`Glibc.` or `Musl.` (Darwin has neither module)", None),
    (
        re.compile(r"^\s*(@\w+\s+)*import\s+(Glibc|Musl)\b"),
        "`import Glibc` or `import Musl` (Darwin has neither module)",
        None,
    ),
    (
        re.compile(r"^\s*(@\w+\s+)*import\s+FoundationNetworking\b"),
        "`import FoundationNetworking` (Apple's Foundation has no such module)",
        "canImport(FoundationNetworking)",
    ),
    (
        re.compile(r"\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\.rawValue\b"),
        "`.rawValue` on a C constant (an enum in Glibc, an integer in Darwin)",
        None,
    ),
    (re.compile(r"\bMSG_NOSIGNAL\b"), "`MSG_NOSIGNAL` (Darwin has `SO_NOSIGPIPE` instead)", None),
    (re.compile(r'"/proc(/|")'), "a `/proc` path (Linux's process file system)", None),
    (re.compile(r'"/dev/shm(/|")'), "a `/dev/shm` path (Linux's shared-memory file system)", None),
]
# A term of a condition that only Linux (of the platforms the package supports) satisfies, and one that excludes
# Apple's platforms when negated.
LINUX_TERM = re.compile(r"os\(Linux\)|canImport\((Glibc|Musl)\)")
DARWIN_TERM = re.compile(r"canImport\(Darwin\)")
APPLE_OS = ("macOS", "iOS", "tvOS", "watchOS", "visionOS")
DIRECTIVE = re.compile(r"^\s*#(if|elseif|else|endif)\b(.*)$")


def negated(condition, start):
    """Whether the term at `start` is under a `!` (skipping the parentheses and spaces between them)."""
    i = start - 1
    while i >= 0 and condition[i] in " (":
        i -= 1
    return i >= 0 and condition[i] == "!"


def disjuncts(condition):
    """The parts of `condition` joined by a top-level `||` (outermost parentheses of the whole removed)."""
    condition = condition.strip()
    while condition.startswith("(") and condition.endswith(")") and balanced(condition[1:-1]):
        condition = condition[1:-1].strip()
    parts, depth, start = [], 0, 0
    for i, c in enumerate(condition):
        depth += c == "("
        depth -= c == ")"
        if depth == 0 and condition.startswith("||", i):
            parts.append(condition[start:i])
            start = i + 2
    return parts + [condition[start:]]


def balanced(text):
    depth = 0
    for c in text:
        depth += c == "("
        depth -= c == ")"
        if depth < 0:
            return False
    return depth == 0


def requires(condition, positive, negative=None):
    """Whether every `||` part of `condition` has a term `positive` matches (not negated), or a negated term `negative`
    matches: a branch no platform without that term compiles (a good approximation; `&&` parts may add more)."""
    for part in disjuncts(condition):
        found = any(not negated(part, m.start()) for m in positive.finditer(part))
        if negative is not None:
            found = found or any(negated(part, m.start()) for m in negative.finditer(part))
        if not found:
            return False
    return True


def linux_only(condition, extra=None):
    """Whether only Linux compiles a branch with this condition (or, with `extra`, one where `extra` holds)."""
    if requires(condition, LINUX_TERM, DARWIN_TERM):
        return True
    return extra is not None and requires(condition, re.compile(re.escape(extra)))


def apple_platforms(condition):
    """The Apple platforms that surely satisfy `condition`: those its `||` parts name alone (`canImport(Darwin)` is
    all of them). A part with `&&`, `!` or another test may cover an Apple platform only in part, so it adds none."""
    covered = set()
    for part in disjuncts(condition):
        part = part.strip()
        if DARWIN_TERM.fullmatch(part):
            covered.update(APPLE_OS)
        elif (match := re.fullmatch(r"os\((\w+)\)", part)) and match.group(1) in APPLE_OS:
            covered.add(match.group(1))
    return covered


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
    # One frame per open #if: the condition of its current branch, and the Apple platforms its conditions so far
    # surely cover. A line is in a Linux branch when the current branch of an enclosing #if only Linux compiles: its
    # condition requires Linux, or it is the #else of a chain whose conditions cover every Apple platform.
    frames = []
    in_block = False
    with open(path, encoding="utf-8", errors="replace") as f:
        for number, line in enumerate(f, 1):
            code, in_block_after = strip_comments(line, in_block)
            starts_in_block, in_block = in_block, in_block_after
            directive = None if starts_in_block else DIRECTIVE.match(code)
            if directive:
                keyword, condition = directive.group(1), directive.group(2).strip()
                if keyword == "if":
                    frames.append({"condition": condition, "else": False, "apple": apple_platforms(condition)})
                elif keyword == "elseif" and frames:
                    frames[-1]["condition"] = condition
                    frames[-1]["apple"] |= apple_platforms(condition)
                elif keyword == "else" and frames:
                    frames[-1]["else"] = True
                elif keyword == "endif" and frames:
                    frames.pop()
                continue

            def fine(extra):
                for frame in frames:
                    if frame["else"]:
                        if frame["apple"] >= set(APPLE_OS):
                            return True
                    elif linux_only(frame["condition"], extra):
                        return True
                return False

            for pattern, why, extra in SPELLINGS:
                match = pattern.search(code)
                if match and not fine(extra):
                    findings.append(
                        f"{path}:{number}:{match.start() + 1}: {why} outside an `#if os(Linux)` or"
                        " `#if canImport(Glibc)` branch"
                    )
    return findings


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    paths = [p for p in open(sys.argv[1], "rb").read().decode().split("\0") if p.endswith(".swift")]
    findings = [finding for path in paths for finding in check(path)]
    for finding in findings:
        print(finding)
    print(f"portability: {len(paths)} files, {len(findings)} findings")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
