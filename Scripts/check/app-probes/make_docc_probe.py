"""Writes the DocC articles' Swift blocks as files to type-check, one per article (Scripts/check/test-app-probes.sh).

Usage: make_docc_probe.py ROOT OUTPUT
  ROOT    the package folder: every ```swift block of Sources/<Module>/<Module>.docc/*.md is read.
  OUTPUT  the folder to write: OUTPUT/<Module>/<Article>.swift; files are rewritten only when they change.

An article's blocks are fragments of one story: they use a `client`, a delivery's `body` and `headers`, a file's
URL, that the text introduces. Each block becomes one function (so two blocks may declare the same name), its type
declarations at file scope (as the README probes do), and every function takes the names of CONTEXT below as
parameters, the values the articles take as given. A block that is not Swift statements (a Package.swift fragment:
it starts with `.` or declares `let package`) is left out. Prints how many blocks of how many articles it wrote.
"""

from __future__ import annotations

import os
import re
import sys

sys.path.insert(0, os.path.dirname(__file__))
from make_probe_package import split, write  # noqa: E402

# The names the articles' blocks use without declaring them, and their types.
CONTEXT = [
    ("client", "OpenAIClient"),
    ("key", "String"),
    ("azureKey", "String"),
    ("body", "Data"),
    ("headers", "[String: String]"),
    ("photo", "URL"),
    ("requests", "URL"),
    ("pdf", "URL"),
    ("fileID", "String"),
    ("vectorStoreID", "String"),
    ("storeID", "String"),
    ("id", "String"),
    ("request", "CreateChatCompletionRequest"),
]
# Besides CONTEXT, for the Realtime articles.
REALTIME_CONTEXT = [
    ("session", "OpenAIRealtime.RealtimeSession"),
    ("pcm", "Data"),
    ("play", "(String) -> Void"),
    ("testCA", "String"),
]


def blocks(text: str) -> list[list[str]]:
    """The ```swift blocks of a Markdown text, as lines."""
    found, current = [], None
    for line in text.splitlines():
        if current is None and line.strip() == "```swift":
            current = []
        elif current is not None and line.strip() == "```":
            found.append(current)
            current = None
        elif current is not None:
            current.append(line)
    return found


def is_statements(block: list[str]) -> bool:
    first = next((line for line in block if line.strip()), "")
    return not first.lstrip().startswith(".") and not any(re.match(r"\s*let package\s*=", line) for line in block)


def article(module: str, name: str, text: str) -> tuple[str, int]:
    """The Swift file of one article, and how many blocks it holds."""
    imports = {"import Foundation", "import OpenAI"} | (
        {"import OpenAIRealtime"} if module == "OpenAIRealtime" else set()
    )
    context = CONTEXT + (REALTIME_CONTEXT if module == "OpenAIRealtime" else [])
    parameters = ", ".join(f"{label}: {kind}" for label, kind in context)
    declarations, functions, count = [], [], 0
    for number, block in enumerate(blocks(text), 1):
        if not is_statements(block):
            continue
        count += 1
        own_imports, types, statements = split(block)
        imports.update(line.strip() for line in own_imports)
        declarations += types
        body = "\n".join(("    " + line) if line.strip() else "" for line in statements)
        function = f"func {name.replace('-', '')}{number}({parameters}) async throws"
        functions.append(f"// {name}.md, block {number}\n{function} {{\n{body}\n}}\n")
    source = f"Sources/{module}/{module}.docc/{name}.md"
    header = f"// Written by Scripts/check/app-probes/make_docc_probe.py from {source}: do not edit.\n"
    text = header + "\n".join(sorted(imports)) + "\n\n" + "\n".join(declarations) + "\n\n" + "\n".join(functions)
    return text, count


def main() -> None:
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    root, output = sys.argv[1:]
    total = articles = 0
    for module in ["OpenAI", "OpenAIRealtime"]:
        folder = os.path.join(root, "Sources", module, f"{module}.docc")
        for file in sorted(os.listdir(folder)):
            if not file.endswith(".md"):
                continue
            name = file[:-3]
            with open(os.path.join(folder, file), encoding="utf-8") as handle:
                text, count = article(module, name, handle.read())
            if count:
                write(os.path.join(output, module, f"{name}.swift"), text)
                total += count
                articles += 1
    print(f"make_docc_probe: {total} blocks of {articles} articles")


if __name__ == "__main__":
    main()
