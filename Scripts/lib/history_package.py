"""The Python parts of Scripts/spec/check-history.sh: its temporary package's manifests, and the
generator's warning count.

Usage: python3 Scripts/lib/history_package.py manifests ROOT_PACKAGE_SWIFT OUT
       python3 Scripts/lib/history_package.py warnings GENERATOR_LOG

`manifests` writes OUT (the SDK's layers without the admin module) and OUT.admin (with
OpenAIAdmin): the root manifest's tools version and platforms, its OpenAIRuntimeLibcurl,
OpenAIRuntime, OpenAI and OpenAIAdmin target declarations as they are written there, in Swift 6
language mode. A target the root manifest no longer declares, or one with settings the temporary
package does not copy, is an error (exit status 1, naming it): the check would no longer be the
package's. `warnings` prints the generator's warning count from its output: a "warnings: N" or
"N warnings" summary if it has one, else the number of lines starting with "warning", else "?".
"""

import re
import sys

LAYERS = ("OpenAIRuntimeLibcurl", "OpenAIRuntime", "OpenAI")
ADMIN = "OpenAIAdmin"
# Settings a target may have that the temporary package does not copy (its files are not there).
UNCOPIED = ("resources", "swiftSettings", "cSettings", "cxxSettings", "plugins")


class ManifestError(Exception):
    """The root manifest is not one the temporary package can be made from."""


def balanced(text, start):
    """text[start:end], where text[start] is an opening bracket and end is just past its match."""
    pairs = {"(": ")", "[": "]"}
    stack = []
    for i in range(start, len(text)):
        c = text[i]
        if c in pairs:
            stack.append(pairs[c])
        elif stack and c == stack[-1]:
            stack.pop()
            if not stack:
                return text[start : i + 1]
    raise ManifestError("unbalanced brackets")


def target(text, name):
    """The manifest's `.target(name: NAME, ...)` declaration, as written."""
    # A declaration starts its line; a dependency on the target (`.target(name:condition:)`) does not.
    m = re.search(r'(?m)^\s*\.target\(\s*name:\s*"%s"\s*,(?!\s*condition:)' % re.escape(name), text)
    if not m:
        raise ManifestError(f"the root Package.swift declares no target {name}")
    block = ".target" + balanced(text, text.index("(", m.start()))
    for key in UNCOPIED:
        if re.search(key + r":", block):
            raise ManifestError(f"the {name} target has {key}, which the temporary package does not copy")
    return block


def manifests(text):
    """The temporary package's two manifests (without and with the admin module), as text."""
    tools = text.splitlines()[0].strip() if text else ""
    if not tools.startswith("// swift-tools-version"):
        raise ManifestError("the root Package.swift does not start with a swift-tools-version line")
    # The package's own `platforms:` starts its line (a target's `.when(platforms:)` does not).
    m = re.search(r"(?m)^\s*platforms:\s*\[", text)
    platforms = balanced(text, m.end() - 1) if m else None
    layers = [target(text, name) for name in LAYERS]
    admin_target = target(text, ADMIN)
    head = [tools, "import PackageDescription", "", "let package = Package(", '    name: "OpenAIHistoryCheck",']
    if platforms:
        head.append(f"    platforms: {platforms},")
    result = []
    for admin in (False, True):
        products = '.library(name: "OpenAI", targets: ["OpenAI"])'
        targets = list(layers)
        if admin:
            products += ', .library(name: "OpenAIAdmin", targets: ["OpenAIAdmin"])'
            targets.append(admin_target)
        body = ",\n".join("        " + block for block in targets)
        lines = head + [f"    products: [{products}],", "    targets: [", body, "    ],"]
        result.append("\n".join(lines + ["    swiftLanguageModes: [.v6]", ")"]) + "\n")
    return result[0], result[1]


def generator_warnings(text):
    """The warning count of a generator's output, as text ("?" when it says nothing of warnings)."""
    m = re.search(r"(?im)^\s*warnings?\b\D{0,20}?(\d+)", text) or re.search(r"(?i)\b(\d+)\s+warnings?\b", text)
    if m:
        return m.group(1)
    n = len(re.findall(r"(?im)^\s*(?:\S+:\s*)?warning\b", text))
    return str(n) if n else "?"


def main(argv):
    if len(argv) == 3 and argv[0] == "manifests":
        try:
            plain, admin = manifests(open(argv[1], encoding="utf-8").read())
        except ManifestError as error:
            print(f"check-history: {error}", file=sys.stderr)
            return 1
        with open(argv[2], "w") as out:
            out.write(plain)
        with open(argv[2] + ".admin", "w") as out:
            out.write(admin)
        return 0
    if len(argv) == 2 and argv[0] == "warnings":
        print(generator_warnings(open(argv[1], errors="replace").read()))
        return 0
    print(__doc__.split("\n\n")[1], file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
