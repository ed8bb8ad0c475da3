"""Writes the app-probe package: the code of README.md and BEHAVIOUR.md compiled as apps configure their targets.

Usage: make_probe_package.py ROOT OUTPUT
  ROOT    the SDK's package folder: the probes depend on it by path, and compile the first ```swift block under each
          of the headings BLOCKS below names in its README.md and BEHAVIOUR.md.
  OUTPUT  the folder to write (Package.swift, Sources/<Probe>/, and swiftc-flags.json: each probe's Swift settings as
          swiftc flags, for Scripts/check/test-app-probes.sh's direct build); files are rewritten only when they
          change, so that SwiftPM keeps its build.

Each probe is one executable target with the same files: one <File><Heading>.swift per block (ReadmeQuickStart.swift,
BehaviourWebhooks.swift: the block's imports,
its type declarations at file scope, its statements in one function, as an app's view model or command would hold
them) and main.swift (calls them in order, in the folder given as the first argument). The targets differ only in
their Swift settings (PROBES below).
"""

import json
import os
import re
import sys

# (file, heading, function signature): the statements of the block under the heading in the package's file become the
# function's body, in a file of its own with the block's own imports, so that an import the document leaves out fails
# the build as it would in an app (MemberImportVisibility); a block without imports continues the one before it and
# gets `import OpenAI`.
BLOCKS = [
    ("README.md", "## Quick start", "func quickStart() async throws"),
    ("README.md", "### Five everyday tasks", "func fiveTasks() async throws"),
    (
        "README.md",
        "### Structured outputs and function tools",
        "func structuredOutputs(client: OpenAIClient) async throws",
    ),
    ("BEHAVIOUR.md", "## Binary replies", "func binaryReplies() async throws"),
    ("BEHAVIOUR.md", "## Webhooks", "func webhooks() throws"),
]

# The approachable-concurrency features Xcode 26 turns on for a new app target (SWIFT_APPROACHABLE_CONCURRENCY), and
# MemberImportVisibility, which its templates also turn on. The Swift 6 language mode has the last three already (and
# warns when they are named again).
XCODE_FEATURES = ["NonisolatedNonsendingByDefault", "InferIsolatedConformances", "MemberImportVisibility"]
XCODE_FEATURES_BEFORE_SWIFT_6 = [
    "InferSendableFromCaptures",
    "GlobalActorIsolatedTypesUsability",
    "DisableOutwardActorInference",
]

# name: (what it stands for, swiftSettings, language mode)
PROBES = {
    "XcodeAppDefaults": (
        "a new Xcode 26 app target: default MainActor isolation, approachable concurrency, Swift 5 language mode",
        [".defaultIsolation(MainActor.self)"]
        + [f'.enableUpcomingFeature("{f}")' for f in XCODE_FEATURES + XCODE_FEATURES_BEFORE_SWIFT_6],
        ".v5",
    ),
    "XcodeAppDefaultsSwift6": (
        "the same target moved to the Swift 6 language mode (every concurrency diagnostic an error)",
        [".defaultIsolation(MainActor.self)"] + [f'.enableUpcomingFeature("{f}")' for f in XCODE_FEATURES],
        ".v6",
    ),
    "Swift5Mode": ("an app still in the Swift 5 language mode, nothing else set", [], ".v5"),
    "Swift6Complete": ("the Swift 6 language mode: complete concurrency checking, no default isolation", [], ".v6"),
}

HEADER = "// Written by Scripts/check/app-probes/make_probe_package.py from {source}: do not edit.\n"

MAIN = """import Foundation
import OpenAI

// The code of README.md and BEHAVIOUR.md, in order, against the server OPENAI_BASE_URL names; the files it
// uploads are in the folder given as the first argument.
// The README names them relative to the current folder.
guard FileManager.default.changeCurrentDirectoryPath(CommandLine.arguments[1]) else { fatalError("no folder") }
try await quickStart()
print()
try await fiveTasks()
// The test server answers structured outputs with JSON only when it is not asked to play tool rounds.
var configuration = OpenAIClient.Configuration.fromEnvironment()
configuration.defaultHeaders["x-testserver-tool-rounds"] = nil
try await structuredOutputs(client: try OpenAIClient(configuration: configuration))
try await binaryReplies()
try webhooks()
print("probe: done")
"""


def swift_block(document, heading, source):
    """The first ```swift block after the line `heading` of `document` (the text of the file `source`), as lines."""
    lines = document.splitlines()
    try:
        start = lines.index(heading)
    except ValueError:
        sys.exit(f"make_probe_package: {source} has no heading `{heading}`")
    for i in range(start + 1, len(lines)):
        if lines[i].startswith("#") and not lines[i].startswith("#" * (heading.count("#") + 1)):
            break
        if lines[i].strip() == "```swift":
            end = lines.index("```", i + 1)
            return lines[i + 1 : end]
    sys.exit(f"make_probe_package: no ```swift block under `{heading}` in {source}")


# A type declaration at column 0, with its attributes and modifiers (`nonisolated struct`, `@MainActor final class`).
DECLARATION = re.compile(r"(@\w+\s+|nonisolated\s+|final\s+|public\s+|private\s+)*(struct|enum|class|actor)\s")


def split(block):
    """(imports, type declarations, statements): a declaration starts at column 0 and ends where its braces balance."""
    imports, declarations, statements, depth, inside = [], [], [], 0, False
    for line in block:
        if re.match(r"(import)\s", line):
            imports.append(line)
            continue
        if not inside and DECLARATION.match(line):
            inside, depth = True, 0
        if inside:
            declarations.append(line)
            depth += line.count("{") - line.count("}")
            if depth == 0:
                inside = False
        else:
            statements.append(line)
    while statements and not statements[0].strip():
        statements.pop(0)
    return imports, declarations, statements


def document_files(root):
    """{file name: Swift text}: one file per block of BLOCKS, with the block's imports, types and function."""
    files, documents = {}, {}
    for source, heading, signature in BLOCKS:
        if source not in documents:
            with open(os.path.join(root, source), encoding="utf-8") as f:
                documents[source] = f.read()
        imports, types, statements = split(swift_block(documents[source], heading, source))
        body = "\n".join(("    " + line) if line.strip() else "" for line in statements)
        words = re.findall(r"[A-Za-z]+", os.path.splitext(source)[0]) + re.findall(r"[A-Za-z]+", heading)
        name = "".join(word.capitalize() for word in words) + ".swift"
        files[name] = (
            HEADER.format(source=source)
            + "\n".join(imports or ["import OpenAI"])
            + "\n\n"
            + ("\n".join(types) + "\n\n" if types else "")
            + f"// {heading.lstrip('# ')}\n{signature} {{\n{body}\n}}\n"
        )
    return files


def package_swift(root):
    targets = []
    for name, (about, settings, mode) in PROBES.items():
        flags = settings + ['.unsafeFlags(["-warnings-as-errors"])', f".swiftLanguageMode({mode})"]
        rendered = ",\n".join(" " * 16 + s for s in flags)
        targets.append(
            f"""        // {about}
        .executableTarget(
            name: "{name}",
            dependencies: [.product(name: "OpenAI", package: "swift-openai")],
            swiftSettings: [
{rendered},
            ]
        ),"""
        )
    return (
        "// swift-tools-version:6.2\n"
        + HEADER.format(source="README.md and BEHAVIOUR.md")
        + f"""import PackageDescription

let package = Package(
    name: "openai-app-probes",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    dependencies: [.package(name: "swift-openai", path: {json.dumps(root)})],
    targets: [
"""
        + "\n".join(targets)
        + "\n    ]\n)\n"
    )


def swiftc_flags(settings, mode):
    """The swiftc flags of a probe's Swift settings, as SwiftPM passes them for the probe's own module."""
    flags = ["-warnings-as-errors", "-swift-version", mode.lstrip(".v")]
    for setting in settings:
        if setting == ".defaultIsolation(MainActor.self)":
            flags += ["-default-isolation", "MainActor"]
        elif match := re.fullmatch(r'\.enableUpcomingFeature\("(\w+)"\)', setting):
            flags += ["-enable-upcoming-feature", match.group(1)]
        else:
            sys.exit(f"make_probe_package: no swiftc flags for the setting {setting}")
    return flags


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if os.path.exists(path) and open(path).read() == text:
        return
    with open(path, "w") as f:
        f.write(text)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    root, output = sys.argv[1:]
    files = document_files(root)
    write(os.path.join(output, "Package.swift"), package_swift(os.path.abspath(root)))
    flags = {name: swiftc_flags(settings, mode) for name, (_, settings, mode) in PROBES.items()}
    write(os.path.join(output, "swiftc-flags.json"), json.dumps(flags, indent=2) + "\n")
    for name in PROBES:
        folder = os.path.join(output, "Sources", name)
        for stale in set(os.listdir(folder) if os.path.isdir(folder) else []) - set(files) - {"main.swift"}:
            os.remove(os.path.join(folder, stale))
        for file, text in files.items():
            write(os.path.join(folder, file), text)
        write(os.path.join(output, "Sources", name, "main.swift"), HEADER.format(source="its template") + MAIN)
    print(" ".join(PROBES))


if __name__ == "__main__":
    main()
