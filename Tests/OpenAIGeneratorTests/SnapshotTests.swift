import Foundation
import OpenAIGeneratorCore
import OpenAIGeneratorOpenAPI
import XCTest
import OpenAISDKTestSupport

/// The snapshot fixtures in `Tests/OpenAIGeneratorTests/Snapshots/<name>/`: a tiny `spec.yaml`, the exact
/// generated tree in `expected/`, and the expected diagnostics in `diagnostics.txt`
/// (`kind<TAB>pointer<TAB>message`, one per line).
enum SnapshotFixtures {
    /// The environment variable that rewrites `expected/` and `diagnostics.txt` instead of comparing.
    static let updateVariable = "UPDATE_SNAPSHOTS"

    /// Whether this run rewrites the snapshots (`UPDATE_SNAPSHOTS=1`).
    static var isUpdating: Bool { ProcessInfo.processInfo.environment[updateVariable] == "1" }

    /// `Tests/OpenAIGeneratorTests/Snapshots`, found from this file's path.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Snapshots", isDirectory: true)

    /// The package root (two levels above this file's folder).
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Fixture folder names, sorted.
    static func names() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: root.path)
            .filter {
                FileManager.default.fileExists(
                    atPath: root.appendingPathComponent($0).appendingPathComponent("spec.yaml").path)
            }
            .sorted()
    }

    /// Runs the generator in memory on the fixture `name`'s spec, with the default configuration.
    static func generate(_ name: String) throws -> GenerationResult {
        let specURL = root.appendingPathComponent(name).appendingPathComponent("spec.yaml")
        let bytes = [UInt8](try Data(contentsOf: specURL))
        // A fixture may bring its own overlay, as Spec/overrides.json is for the real spec.
        let overridesURL = root.appendingPathComponent(name).appendingPathComponent("overrides.json")
        let overrides = try Overrides.load(from: overridesURL.path)
        return try GeneratorPipeline(configuration: GeneratorConfiguration(overrides: overrides)).run(
            bytes, file: "\(name)/spec.yaml", sha256: SHA256.hex(bytes))
    }

    /// The `expected/` folder of the fixture `name`.
    static func expectedDirectory(_ name: String) -> URL {
        root.appendingPathComponent(name).appendingPathComponent("expected", isDirectory: true)
    }

    /// Relative paths of every `.swift` file under `directory`, sorted.
    static func swiftFiles(under directory: URL) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: directory.path) else { return [] }
        var paths: [String] = []
        while let next = enumerator.nextObject() as? String {
            if next.hasSuffix(".swift") { paths.append(next) }
        }
        return paths.sorted()
    }

    /// One diagnostic as a line of `diagnostics.txt`.
    static func line(_ diagnostic: Diagnostic) -> String {
        "\(diagnostic.kind.rawValue)\t\(diagnostic.location.pointer)\t\(diagnostic.message)"
    }

    /// A unified-diff-like excerpt around the first line where `expected` and `actual` differ,
    /// or `nil` when they are equal.
    static func firstDifference(expected: String, actual: String, context: Int = 3, shown: Int = 8)
        -> String?
    {
        guard expected != actual else { return nil }
        let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let new = actual.split(separator: "\n", omittingEmptySubsequences: false)
        var index = 0
        while index < old.count, index < new.count, old[index] == new[index] { index += 1 }
        let start = max(0, index - context)
        var lines = ["@@ line \(index + 1) (expected \(old.count) lines, actual \(new.count)) @@"]
        for line in old[start..<index] { lines.append("  \(line)") }
        for line in old[index..<min(old.count, index + shown)] { lines.append("- \(line)") }
        for line in new[index..<min(new.count, index + shown)] { lines.append("+ \(line)") }
        if index >= old.count || index >= new.count {
            lines.append("(one text is a prefix of the other)")
        }
        return lines.joined(separator: "\n")
    }
}

/// Tiny spec in, exact Swift out: every fixture under `Snapshots/` must generate exactly its
/// `expected/` tree and `diagnostics.txt`. `Scripts/update-snapshots.sh` rewrites them.
final class SnapshotTests: XCTestCase {
    func testEveryFixtureGeneratesExactlyItsExpectedSwiftAndDiagnostics() throws {
        let names = try SnapshotFixtures.names()
        XCTAssertGreaterThanOrEqual(names.count, 20, "issue 2 asks for at least 20 snapshot fixtures")
        var changed: [String] = []
        for name in names {
            let result = try SnapshotFixtures.generate(name)
            if SnapshotFixtures.isUpdating {
                changed += try update(name, result)
            } else {
                compare(name, result)
            }
        }
        if SnapshotFixtures.isUpdating {
            print("UPDATE_SNAPSHOTS: \(changed.count) file(s) rewritten in \(names.count) fixtures")
            for path in changed { print("  updated \(path)") }
        }
    }

    /// Generating a fixture twice gives identical bytes and diagnostics.
    func testGeneratingAFixtureTwiceGivesIdenticalBytes() throws {
        for name in ["landmines-keywords", "name-collisions", "recursive-schemas"] {
            let first = try SnapshotFixtures.generate(name)
            let second = try SnapshotFixtures.generate(name)
            XCTAssertFalse(first.files.isEmpty, name)
            XCTAssertEqual(first.files, second.files, name)
            XCTAssertEqual(
                first.diagnostics.map(SnapshotFixtures.line), second.diagnostics.map(SnapshotFixtures.line),
                name)
        }
    }

    /// Generating the real locked spec twice gives identical files.
    func testGeneratingTheLockedSpecTwiceGivesIdenticalFiles() throws {
        let spec = SnapshotFixtures.packageRoot.appendingPathComponent("../shared/spec/openapi.yaml")
            .standardized
        guard FileManager.default.fileExists(atPath: spec.path) else {
            throw Unavailable.skip("the locked spec is not at \(spec.path)")
        }
        let bytes = [UInt8](try Data(contentsOf: spec))
        let hash = SHA256.hex(bytes)
        func run() throws -> GenerationResult {
            try GeneratorPipeline(configuration: GeneratorConfiguration()).run(
                bytes, file: "openapi.yaml", sha256: hash)
        }
        let first = try run()
        let second = try run()
        XCTAssertGreaterThan(first.files.count, 10)
        XCTAssertEqual(first.files.map(\.path), second.files.map(\.path))
        for (a, b) in zip(first.files, second.files) where a.contents != b.contents {
            XCTFail(
                "\(a.path) differs between two runs:\n\(SnapshotFixtures.firstDifference(expected: a.contents, actual: b.contents) ?? "")"
            )
        }
        XCTAssertEqual(
            first.diagnostics.map(SnapshotFixtures.line), second.diagnostics.map(SnapshotFixtures.line))
    }

    /// The diff helper names the first differing line.
    func testFirstDifferenceShowsTheFirstDifferingLine() {
        XCTAssertNil(SnapshotFixtures.firstDifference(expected: "a\nb\n", actual: "a\nb\n"))
        let message = SnapshotFixtures.firstDifference(expected: "a\nb\nc\n", actual: "a\nB\nc\n")
        XCTAssertEqual(
            message?.split(separator: "\n").first, "@@ line 2 (expected 4 lines, actual 4) @@")
        XCTAssertTrue(message?.contains("- b") == true)
        XCTAssertTrue(message?.contains("+ B") == true)
    }

    // MARK: Comparing and updating

    private func compare(_ name: String, _ result: GenerationResult) {
        let directory = SnapshotFixtures.expectedDirectory(name)
        let expectedPaths = SnapshotFixtures.swiftFiles(under: directory)
        let actualPaths = result.files.map(\.path).sorted()
        if expectedPaths != actualPaths {
            XCTFail(
                """
                \(name): generated file set differs from expected/ (run Scripts/update-snapshots.sh)
                  missing from output: \(Set(expectedPaths).subtracting(actualPaths).sorted())
                  not in expected/: \(Set(actualPaths).subtracting(expectedPaths).sorted())
                """)
        }
        for file in result.files {
            let url = directory.appendingPathComponent(file.path)
            guard let expected = try? String(contentsOf: url, encoding: .utf8) else { continue }
            if let difference = SnapshotFixtures.firstDifference(
                expected: expected, actual: file.contents)
            {
                XCTFail("\(name)/expected/\(file.path) differs from the generated output:\n\(difference)")
            }
        }
        let diagnosticsURL = SnapshotFixtures.root.appendingPathComponent(name).appendingPathComponent(
            "diagnostics.txt")
        let expectedDiagnostics =
            (try? String(contentsOf: diagnosticsURL, encoding: .utf8)) ?? "<missing diagnostics.txt>"
        let actualDiagnostics = diagnosticsText(result)
        if let difference = SnapshotFixtures.firstDifference(
            expected: expectedDiagnostics, actual: actualDiagnostics)
        {
            XCTFail("\(name)/diagnostics.txt differs from the generated diagnostics:\n\(difference)")
        }
    }

    private func diagnosticsText(_ result: GenerationResult) -> String {
        result.diagnostics.map { SnapshotFixtures.line($0) + "\n" }.joined()
    }

    /// Rewrites the fixture's `expected/` and `diagnostics.txt`; returns the paths it changed.
    private func update(_ name: String, _ result: GenerationResult) throws -> [String] {
        let manager = FileManager.default
        let directory = SnapshotFixtures.expectedDirectory(name)
        var changed: [String] = []
        let produced = Set(result.files.map(\.path))
        for stale in SnapshotFixtures.swiftFiles(under: directory) where !produced.contains(stale) {
            try manager.removeItem(at: directory.appendingPathComponent(stale))
            changed.append("\(name)/expected/\(stale) (removed)")
        }
        for file in result.files {
            let url = directory.appendingPathComponent(file.path)
            if (try? String(contentsOf: url, encoding: .utf8)) == file.contents { continue }
            try manager.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(file.contents.utf8).write(to: url)
            changed.append("\(name)/expected/\(file.path)")
        }
        let diagnosticsURL = SnapshotFixtures.root.appendingPathComponent(name).appendingPathComponent(
            "diagnostics.txt")
        let text = diagnosticsText(result)
        if (try? String(contentsOf: diagnosticsURL, encoding: .utf8)) != text {
            try Data(text.utf8).write(to: diagnosticsURL)
            changed.append("\(name)/diagnostics.txt")
        }
        return changed
    }
}
