"""Runs the command lines of OpenAI's own CLI's test suite (openai/openai-cli, `pkg/cmd/*_test.go`) with our
`openai` tool against the spec-validating test server, and prints how many succeed and why the others fail.

The official suite calls `mocktest.TestRunMockTestWithFlags(t, args...)` and
`mocktest.TestRunMockTestWithPipeAndFlags(t, pipeData, args...)` (YAML on standard input); this script reads
those Go files (string literals, `+`, local variables, `strings.ReplaceAll`, `[]byte(...)`,
`mocktest.TestFile(t, contents)`), never copies them, and runs each line as `openai --base-url URL ARGS...`.
A line passes when `openai` exits 0, and so when the test server validated the request against the locked spec.

Usage: python Scripts/check/official-cli-suite.py CHECKOUT [--openai BINARY] [--spec SPEC] [--verbose]
    CHECKOUT   a checkout of openai/openai-cli (its `pkg/cmd` folder is read)
    --openai   the tool to run (default .build/debug/openai)
    --spec     the spec the test server validates against (default ../shared/spec/openapi.yaml)
    --verbose  print every failing line with the first line of its error
Prints `official-cli lines: PASSED of TOTAL (P %)`, then the failures grouped by their error's first line.
"""

from __future__ import annotations

import argparse
import ast
import collections
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TOKEN = re.compile(
    r"""(?P<space>\s+|//[^\n]*|/\*.*?\*/)
    |(?P<string>"(?:[^"\\\n]|\\.)*")
    |(?P<raw>`[^`]*`)
    |(?P<name>[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)
    |(?P<op>:=|==|\[\]|[-+*/=(){}\[\],;:.!<>&|%^'0-9])""",
    re.S | re.X,
)


@dataclass
class Line:
    """One command line of the official suite: where it is, its words and what it pipes."""

    test: str
    case: str
    args: list[str]
    stdin: bytes


def tokens(source: str) -> list[tuple[str, str]]:
    """The Go tokens of `source` this reader needs (kind, text), comments and spaces dropped."""
    result = []
    position = 0
    while position < len(source):
        match = TOKEN.match(source, position)
        if match is None:
            position += 1
            continue
        position = match.end()
        if match.lastgroup != "space":
            result.append((match.lastgroup, match.group()))
    return result


class Reader:
    """Evaluates the few Go expressions the suite's arguments use, over a file's tokens."""

    def __init__(self, files: Path) -> None:
        self.values: dict[str, object] = {}
        self.files = files
        self.count = 0

    def literal(self, kind: str, text: str) -> str:
        if kind == "raw":
            return text[1:-1]
        try:
            return json.loads(text)
        except ValueError:
            return ast.literal_eval(text)

    def expression(self, items: list[tuple[str, str]], index: int) -> tuple[object, int]:
        """The value of the expression at `index` (terms joined by `+`) and the index after it."""
        value, index = self.term(items, index)
        while index < len(items) and items[index][1] == "+":
            right, index = self.term(items, index + 1)
            both = isinstance(value, (str, bytes)) and type(value) is type(right)
            value = value + right if both else None  # type: ignore[operator]
        return value, index

    def term(self, items: list[tuple[str, str]], index: int) -> tuple[object, int]:
        kind, text = items[index]
        if kind in ("string", "raw"):
            return self.literal(kind, text), index + 1
        if text == "[]" and items[index + 1][1] == "byte":
            value, index = self.call_arguments(items, index + 2)
            return str(value[0]).encode(), index
        if kind == "name" and index + 1 < len(items) and items[index + 1][1] == "(":
            arguments, after = self.call_arguments(items, index + 1)
            if text == "strings.ReplaceAll":
                return str(arguments[0]).replace(str(arguments[1]), str(arguments[2])), after
            if text == "mocktest.TestFile":
                self.count += 1
                path = self.files / f"file-{self.count}.txt"
                path.write_text(str(arguments[1]))
                return str(path), after
            return None, after
        if kind == "name":
            return self.values.get(text), index + 1
        return None, index + 1

    def call_arguments(self, items: list[tuple[str, str]], index: int) -> tuple[list[object], int]:
        """The arguments of the call whose `(` is at `index`, and the index after its `)`."""
        assert items[index][1] == "("
        index += 1
        arguments: list[object] = []
        while items[index][1] != ")":
            value, index = self.expression(items, index)
            arguments.append(value)
            if items[index][1] == ",":
                index += 1
        return arguments, index + 1

    def lines(self, source: str) -> list[Line]:
        """The suite's command lines in `source`, in order."""
        items = tokens(source)
        found: list[Line] = []
        test = case = ""
        index = 0
        while index < len(items):
            kind, text = items[index]
            following = items[index + 1][1] if index + 1 < len(items) else ""
            if text == "func" and items[index + 1][1].startswith("Test"):
                test = items[index + 1][1]
            if text == "t.Run" and following == "(" and items[index + 2][0] == "string":
                case = self.literal(*items[index + 2])
            if kind == "name" and following in (":=", "=") and text not in ("const", "var"):
                # Other statements of the files (test helpers) are skipped; only string values matter.
                try:
                    self.values[text], index = self.expression(items, index + 2)
                except (AssertionError, IndexError, TypeError, ValueError):
                    self.values[text] = None
                    index += 2
                continue
            if text == "const" and items[index + 2][1] == "=":
                self.values[items[index + 1][1]], index = self.expression(items, index + 3)
                continue
            if text in ("mocktest.TestRunMockTestWithFlags", "mocktest.TestRunMockTestWithPipeAndFlags"):
                arguments, index = self.call_arguments(items, index + 1)
                piped = text.endswith("PipeAndFlags")
                stdin = arguments[1] if piped else b""
                words = arguments[2:] if piped else arguments[1:]
                found.append(Line(test, case, [str(word) for word in words], bytes(stdin or b"")))  # type: ignore
                continue
            index += 1
        return found


def start_server(python: str, spec: str, work: Path) -> tuple[subprocess.Popen, str]:
    """The test server (its process, kept alive by its stdin pipe) and its base URL."""
    port_file = work / "port"
    server = subprocess.Popen(
        [
            python,
            str(ROOT / "Scripts/servers/testserver/server.py"),
            "--spec",
            spec,
            "--port",
            "0",
            "--port-file",
            str(port_file),
            "--exit-on-stdin-eof",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while not port_file.exists():
        if server.poll() is not None or time.monotonic() > deadline:
            sys.exit("official-cli-suite: the test server did not start")
        time.sleep(0.05)
    return server, f"http://127.0.0.1:{port_file.read_text().strip()}/v1"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkout")
    parser.add_argument("--openai", default=str(ROOT / ".build/debug/openai"))
    parser.add_argument("--spec", default=str(ROOT.parent / "shared/spec/openapi.yaml"))
    parser.add_argument("--verbose", action="store_true")
    options = parser.parse_args()
    folder = Path(options.checkout) / "pkg/cmd"
    sources = sorted(folder.glob("*_test.go"))
    if not sources:
        sys.exit(f"official-cli-suite: no *_test.go under {folder}")
    python = os.environ.get("OPENAI_TEST_PYTHON") or str(ROOT / "Scripts/.venv/bin/python")
    with tempfile.TemporaryDirectory(prefix="openai-official-cli-") as temporary:
        work = Path(temporary)
        reader = Reader(work)
        lines = [line for source in sources for line in reader.lines(source.read_text())]
        server, base_url = start_server(python, options.spec, work)
        environment = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(work)}
        failures: dict[str, list[Line]] = collections.defaultdict(list)
        try:
            for line in lines:
                run = subprocess.run(
                    [options.openai, "--base-url", base_url, *line.args],
                    input=line.stdin,
                    capture_output=True,
                    env=environment,
                    cwd=work,
                    timeout=60,
                )
                if run.returncode != 0:
                    message = run.stderr.decode(errors="replace").strip().split("\n")[0][:160]
                    failures[re.sub(r"`[^`]*`|--[a-z0-9.-]+", "…", message)].append(line)
                    if options.verbose:
                        print(f"FAIL {line.test} [{line.case}]: {message}")
        finally:
            server.stdin.close()  # type: ignore[union-attr]
            server.wait(timeout=10)
    failed = sum(len(group) for group in failures.values())
    passed = len(lines) - failed
    print(f"official-cli lines: {passed} of {len(lines)} ({100 * passed / max(1, len(lines)):.1f} %)")
    for message, group in sorted(failures.items(), key=lambda item: -len(item[1])):
        print(f"  {len(group):4d}  {message}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
