import Foundation
import OpenAIGeneratorCLI
import OpenAIGeneratorCore
import XCTest

/// `openai-generator` on bad input: a clear error naming file:line:column and the JSON pointer,
/// a non-zero exit status, and the output folder exactly as it was.
final class GeneratorCLITests: XCTestCase {
    struct Run {
        var status: Int32
        var output: String
    }

    /// Runs the command in-process (``OpenAIGeneratorCommand/run(_:)``, what the executable runs),
    /// standard output then standard error as one text.
    func run(_ arguments: [String]) throws -> Run {
        let outcome = OpenAIGeneratorCommand.run(arguments)
        return Run(status: outcome.status, output: outcome.output + outcome.errorOutput)
    }

    /// The `openai-generator` executable built beside this test bundle.
    static func executable() throws -> URL {
        let runner = URL(
            fileURLWithPath: CommandLine.arguments.first { $0.hasSuffix(".xctest") } ?? CommandLine.arguments[0])
        let candidate = runner.deletingLastPathComponent().appendingPathComponent("openai-generator")
        guard FileManager.default.isExecutableFile(atPath: candidate.path) else {
            XCTFail("openai-generator is not built at \(candidate.path); run `swift build` first")
            throw XCTSkip("no openai-generator executable")
        }
        return candidate
    }

    /// A folder holding one file, to check that a failed run leaves it untouched.
    func makeOutputFolder() throws -> (URL, Data) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gen-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let marker = Data("// previous output\n".utf8)
        try marker.write(to: folder.appendingPathComponent("Previous.swift"))
        return (folder, marker)
    }

    func assertUntouched(_ folder: URL, _ marker: Data, file: StaticString = #filePath, line: UInt = #line) throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        XCTAssertEqual(names, ["Previous.swift"], file: file, line: line)
        XCTAssertEqual(
            try Data(contentsOf: folder.appendingPathComponent("Previous.swift")), marker, file: file, line: line)
    }

    func generate(spec text: String) throws -> (Run, URL, Data, String) {
        let spec = FileManager.default.temporaryDirectory.appendingPathComponent("spec-\(UUID().uuidString).yaml")
        try Data(text.utf8).write(to: spec)
        let (folder, marker) = try makeOutputFolder()
        let run = try run(["generate", "--spec", spec.path, "--output", folder.path, "--overrides", "none"])
        return (run, folder, marker, spec.path)
    }

    func testStrictFailsOnAWarningAndWritesNothing() throws {
        let text = """
            openapi: 3.1.0
            info: {title: strict, version: 1.0.0}
            paths: {}
            components:
              schemas:
                Thing:
                  type: object
                  properties: {id: {type: string}}
                  required: [id, name]
            """
        let spec = FileManager.default.temporaryDirectory.appendingPathComponent("spec-\(UUID().uuidString).yaml")
        try Data(text.utf8).write(to: spec)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gen-\(UUID().uuidString)")
        let arguments = [
            "generate", "--spec", spec.path, "--output", folder.path, "--overrides", "none", "--cli-commands", "none",
        ]
        let strict = try run(arguments + ["--strict"])
        XCTAssertEqual(strict.status, 1, strict.output)
        XCTAssertTrue(
            strict.output.contains(
                "\(spec.path):7:7: warning: Thing lists name in `required` but declares no such property"),
            strict.output)
        XCTAssertTrue(strict.output.contains("generate --strict: 1 warning(s); the output folder was not changed."))
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.path))
        // Without --strict the same spec generates, and the warning is reported.
        let lenient = try run(arguments)
        XCTAssertEqual(lenient.status, 0, lenient.output)
        XCTAssertTrue(lenient.output.contains("warnings: 1; notes: 0"), lenient.output)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("Manifest.swift").path))
        try? FileManager.default.removeItem(at: folder)
    }

    /// A note (here a duplicate `required` entry) is printed but does not fail `--strict`.
    func testStrictGenerationPassesWithNotesOnly() throws {
        let text = """
            openapi: 3.1.0
            info: {title: strict, version: 1.0.0}
            paths: {}
            components:
              schemas:
                Thing:
                  type: object
                  properties: {id: {type: string}}
                  required: [id, id]
            """
        let spec = FileManager.default.temporaryDirectory.appendingPathComponent("spec-\(UUID().uuidString).yaml")
        try Data(text.utf8).write(to: spec)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gen-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let strict = try run([
            "generate", "--spec", spec.path, "--output", folder.path, "--overrides", "none", "--cli-commands", "none",
            "--strict",
        ])
        XCTAssertEqual(strict.status, 0, strict.output)
        XCTAssertTrue(
            strict.output.contains("note: `required` lists id more than once [duplicate-required]"), strict.output)
        XCTAssertTrue(strict.output.contains("warnings: 0; notes: 1"), strict.output)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("Manifest.swift").path))
    }

    func testInvalidYAMLNamesFileLineAndColumnAndLeavesTheOutputAlone() throws {
        let (run, folder, marker, spec) = try generate(spec: "openapi: 3.1.0\npaths:\n  /a: [unclosed\n")
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.output.contains("\(spec):4:1: error: invalid YAML"), run.output)
        // The pointer of the node the parser was in: the second item of the sequence at /paths/~1a.
        XCTAssertTrue(run.output.contains("(at #/paths/~1a/1)"), run.output)
        try assertUntouched(folder, marker)
    }

    func testDanglingReferenceNamesItsPointerAndLine() throws {
        let text = """
            openapi: 3.1.0
            info: {title: t, version: '1'}
            paths: {}
            components:
              schemas:
                A:
                  type: object
                  properties:
                    b:
                      $ref: '#/components/schemas/Missing'
            """
        let (run, folder, marker, spec) = try generate(spec: text)
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(
            run.output.contains("\(spec):10:17: error: dangling $ref: no schema named Missing"), run.output)
        XCTAssertTrue(run.output.contains("#/components/schemas/A/properties/b/$ref"), run.output)
        try assertUntouched(folder, marker)
    }

    func testADocumentThatIsNotOpenAPI3IsRejected() throws {
        let (run, folder, marker, spec) = try generate(spec: "swagger: '2.0'\ninfo: {title: t}\n")
        XCTAssertEqual(run.status, 1)
        XCTAssertTrue(run.output.contains("\(spec):1:1: error: missing `openapi` version field"), run.output)
        try assertUntouched(folder, marker)

        let (run3, folder3, marker3, spec3) = try generate(spec: "openapi: 2.0.0\ninfo: {title: t}\n")
        XCTAssertEqual(run3.status, 1)
        XCTAssertTrue(run3.output.contains("\(spec3):1:10: error: unsupported OpenAPI version 2.0.0"), run3.output)
        XCTAssertTrue(run3.output.contains("(at #/openapi)"), run3.output)
        try assertUntouched(folder3, marker3)
    }

    func testAMistypedOverridesPathIsAnErrorAndNoneMeansNoOverrides() throws {
        let spec = FileManager.default.temporaryDirectory.appendingPathComponent("spec-\(UUID().uuidString).yaml")
        try Data("openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {}\n".utf8).write(to: spec)
        defer { try? FileManager.default.removeItem(at: spec) }
        let (folder, marker) = try makeOutputFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for command in ["generate", "check"] {
            let mistyped = try run([
                command, "--spec", spec.path, "--output", folder.path, "--overrides", "Spec/overides.json",
            ])
            XCTAssertEqual(mistyped.status, 1, "\(command): \(mistyped.output)")
            XCTAssertTrue(
                mistyped.output.contains("Spec/overides.json: no such overrides file"), "\(command): \(mistyped.output)"
            )
        }
        try assertUntouched(folder, marker)
        let diff = try run(["diff", spec.path, spec.path, "--overrides", "/nonexistent/overrides.json"])
        XCTAssertEqual(diff.status, 1, diff.output)
        XCTAssertTrue(diff.output.contains("/nonexistent/overrides.json: no such overrides file"), diff.output)
        let none = try run(["diff", spec.path, spec.path, "--overrides", "none"])
        XCTAssertEqual(none.status, 0, none.output)
    }

    func testUsageErrorExitsWithTwo() throws {
        XCTAssertEqual(try run(["generate", "--bogus", "x"]).status, 2)
        XCTAssertEqual(try run([]).status, 2)
        XCTAssertEqual(try run(["generate", "--line-cap", "99"]).status, 2)
        XCTAssertEqual(try run(["generate", "--access", "open"]).status, 2)
        XCTAssertEqual(try run(["check", "extra"]).status, 2)
        XCTAssertEqual(try run(["frobnicate"]).status, 2)
        let missing = try run(["check", "--spec"])
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.output.contains("missing value for --spec"), missing.output)
        XCTAssertTrue(try run(["generate", "--help"]).output.contains("usage: openai-generator generate"))
    }

    func testTheOneParserSplitsPositionalWordsValuesAndFlags() throws {
        let parsed = try CommandArguments(
            ["old.yaml", "--severity", "a=info", "--force", "new.yaml", "--severity", "b=warning", "-h"],
            valued: ["--severity", "--format"], flags: ["--force"])
        XCTAssertEqual(parsed.positional, ["old.yaml", "new.yaml"])
        XCTAssertEqual(parsed.values("--severity"), ["a=info", "b=warning"])
        XCTAssertEqual(parsed.value("--severity"), "b=warning")
        XCTAssertEqual(parsed.value("--format", default: "text"), "text")
        XCTAssertTrue(parsed.has("--force"))
        XCTAssertTrue(parsed.wantsHelp)
        XCTAssertThrowsError(try CommandArguments(["--format"], valued: ["--format"])) { error in
            XCTAssertEqual(error as? UsageError, UsageError("missing value for --format"))
        }
        XCTAssertThrowsError(try CommandArguments(["--strict"], valued: [])) { error in
            XCTAssertEqual(error as? UsageError, UsageError("unknown option --strict"))
        }
        XCTAssertThrowsError(try parsed.integer("--severity", atLeast: 1, default: 0))
        // The executables' shared grammar (FlagScanner): `--x=y`, a value that starts with `--`,
        // `--` ending the options, a flag given a value, a suggestion for a near miss.
        let grammar = try CommandArguments(
            ["--format=json", "--spec", "--odd-name.yaml", "--", "--force", "-h"], valued: ["--format", "--spec"],
            flags: ["--force"])
        XCTAssertEqual(grammar.value("--format"), "json")
        XCTAssertEqual(grammar.value("--spec"), "--odd-name.yaml")
        XCTAssertEqual(grammar.positional, ["--force", "-h"])
        XCTAssertFalse(grammar.has("--force"))
        XCTAssertFalse(grammar.wantsHelp)
        XCTAssertThrowsError(try CommandArguments(["--force=yes"], valued: [], flags: ["--force"])) { error in
            XCTAssertEqual(error as? UsageError, UsageError("--force takes no value"))
        }
        XCTAssertThrowsError(try CommandArguments(["--sepc", "x"], valued: ["--spec"])) { error in
            XCTAssertEqual(error as? UsageError, UsageError("unknown option --sepc; did you mean `--spec`?"))
        }
    }

    func testTheExecutableWritesTheOutcomesStreamsAndExitsWithItsStatus() throws {
        let process = Process()
        process.executableURL = try Self.executable()
        process.arguments = ["check", "--spec", "/nonexistent/spec.yaml"]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let reported = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 3)
        XCTAssertEqual(printed, Data())
        XCTAssertEqual(
            String(decoding: reported, as: UTF8.self),
            OpenAIGeneratorCommand.run(["check", "--spec", "/nonexistent/spec.yaml"]).errorOutput)
        XCTAssertTrue(
            String(decoding: reported, as: UTF8.self).contains("/nonexistent/spec.yaml: cannot read the spec"))
    }

    func testTheCommandLineRefusesTheCurrentDirectoryOfACheckout() throws {
        let checkout = FileManager.default.temporaryDirectory.appendingPathComponent("checkout-\(UUID().uuidString)")
        func put(_ text: String, _ path: String, in folder: URL) throws {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        try put("[core]\n", ".git/config", in: checkout)
        try put("# Project\n", "README.md", in: checkout)
        let spec = checkout.appendingPathComponent("spec.yaml")
        try put(
            """
            openapi: 3.1.0
            info: {title: t, version: '1'}
            paths: {}
            components:
              schemas:
                Thing: {type: object, properties: {id: {type: string}}}
            """, "spec.yaml", in: checkout)
        let run = try self.run([
            "generate", "--spec", spec.path, "--output", checkout.path, "--overrides", "none",
        ])
        XCTAssertEqual(run.status, 1, run.output)
        XCTAssertTrue(run.output.contains("was not written by openai-generator"), run.output)
        XCTAssertTrue(run.output.contains("The output folder was not changed."), run.output)
        XCTAssertEqual(OutputWriter.existingFiles(in: checkout), [".git/config", "README.md", "spec.yaml"])
    }

    /// `generate` over its own output keeps each type's folder from the folder's `TypeIndex.swift`,
    /// `check` compares with that layout, and `--fresh-layout` lays the types out from the spec alone.
    func testGenerateKeepsTheOutputFoldersLayoutAndFreshLayoutDropsIt() throws {
        func spec(pins: Bool) -> String {
            var text = """
                openapi: 3.1.0
                info: {title: layout, version: 1.0.0}
                paths:

                """
            for tag in ["Notes"] + (pins ? ["Pins"] : []) {
                text += """
                      /\(tag.lowercased()):
                        get:
                          operationId: get\(tag)
                          tags: [\(tag)]
                          responses:
                            '200':
                              description: ok
                              content: {application/json: {schema: {$ref: '#/components/schemas/Note'}}}

                    """
            }
            return text + "components:\n  schemas:\n    Note: {type: object, properties: {text: {type: string}}}\n"
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("layout-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = folder.appendingPathComponent("first.yaml")
        let second = folder.appendingPathComponent("second.yaml")
        let output = folder.appendingPathComponent("Generated")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(spec(pins: false).utf8).write(to: first)
        try Data(spec(pins: true).utf8).write(to: second)
        func exists(_ path: String) -> Bool {
            FileManager.default.fileExists(atPath: output.appendingPathComponent(path).path)
        }
        let common = ["--output", output.path, "--overrides", "none"]
        XCTAssertEqual(try run(["generate", "--spec", first.path] + common).status, 0)
        XCTAssertTrue(exists("Types/Notes/Notes.swift"))

        let kept = try run(["generate", "--spec", second.path] + common)
        XCTAssertEqual(kept.status, 0, kept.output)
        XCTAssertTrue(exists("Types/Notes/Notes.swift"), "Note stays in Notes while getNotes reaches it")
        XCTAssertFalse(exists("Types/Shared/Shared.swift"))
        let lock = folder.appendingPathComponent("lock.json")
        let sha = SHA256.hex([UInt8](try Data(contentsOf: second)))
        try Data(#"{"sha256": "\#(sha)"}"#.utf8).write(to: lock)
        let check = try run(["check", "--spec", second.path, "--lock", lock.path] + common)
        XCTAssertEqual(check.status, 0, check.output)

        let fresh = try run(["generate", "--spec", second.path, "--fresh-layout"] + common)
        XCTAssertEqual(fresh.status, 0, fresh.output)
        XCTAssertTrue(exists("Types/Shared/Shared.swift"), "afresh, two tags reach Note equally: Shared")
        XCTAssertFalse(exists("Types/Notes/Notes.swift"))
    }
}
