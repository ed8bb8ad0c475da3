import Foundation
import OpenAIGeneratorCLI
import XCTest

@testable import OpenAIGeneratorCore

/// One generation, a single tree, onto folders: the `OpenAIAdmin` module and the catalogue go to
/// their targets' folders beside the `OpenAI` module's (each with a manifest of its own), or stay in
/// the output folder when it is a folder of its own.
final class OutputLayoutTests: XCTestCase {
    private let manager = FileManager.default

    private func file(_ path: String) -> GeneratedFile {
        GeneratedFile(path: path, contents: "\(OutputWriter.headerPrefix) test.\n// \(path)\n")
    }

    func testSplitGivesEachFolderItsFilesAndAManifestOfItsOwn() throws {
        let tree = ["A.swift", "Admin/B.swift", "Admin/Types/C.swift", "Catalogue/D.swift", "Types/E.swift"].map(file)
        let parts = OutputLayout.split(
            tree + [SwiftGenerator.manifest(tree, sha256: "abc")], placing: ["Admin/", "Catalogue/"], sha256: "abc")
        XCTAssertEqual(parts.count, 3)
        XCTAssertEqual(
            parts.map { $0.map(\.path) },
            [
                ["A.swift", "Types/E.swift", "Manifest.swift"], ["B.swift", "Types/C.swift", "Manifest.swift"],
                ["D.swift", "Manifest.swift"],
            ])
        let adminManifest = try XCTUnwrap(parts[1].last?.contents)
        XCTAssertTrue(adminManifest.contains("// spec-sha256: abc\n// file: B.swift\n// file: Types/C.swift\n"))
        XCTAssertFalse(try XCTUnwrap(parts[0].last?.contents).contains("Admin/"))
        XCTAssertEqual(parts[1][0].contents, tree[1].contents, "contents kept")
        // Placing nothing keeps the tree as it is.
        XCTAssertEqual(OutputLayout.split(tree, placing: [], sha256: "abc"), [tree])
    }

    /// A package's `Sources/` with the three targets' folders, and the spec with admin operations.
    private func makePackage(withTargetFolders: Bool) throws -> (root: URL, spec: URL) {
        let root = manager.temporaryDirectory.appendingPathComponent("layout-\(UUID().uuidString)")
        try manager.createDirectory(
            at: root.appendingPathComponent("Sources/OpenAI"), withIntermediateDirectories: true)
        if withTargetFolders {
            for target in ["OpenAIAdmin", "OpenAICatalogue"] {
                try manager.createDirectory(
                    at: root.appendingPathComponent("Sources/\(target)"), withIntermediateDirectories: true)
            }
        }
        let spec = root.appendingPathComponent("spec.yaml")
        try Data(ModulePlacementTests.spec.utf8).write(to: spec)
        return (root, spec)
    }

    func testGenerateWritesEachTargetsFolderAndCheckComparesEveryOne() throws {
        let (root, spec) = try makePackage(withTargetFolders: true)
        defer { try? manager.removeItem(at: root) }
        let sources = root.appendingPathComponent("Sources")
        let output = sources.appendingPathComponent("OpenAI/Generated").path
        let options = ["--spec", spec.path, "--output", output, "--overrides", "none", "--docs-output", "none"]

        let listed = OpenAIGeneratorCommand.run(["generate", "--list-outputs"] + options)
        XCTAssertEqual(
            listed.output,
            [
                output, sources.appendingPathComponent("OpenAIAdmin/Generated").path,
                sources.appendingPathComponent("OpenAICatalogue/Generated").path,
            ]
            .joined(separator: "\n") + "\n")

        let generated = OpenAIGeneratorCommand.run(["generate"] + options)
        XCTAssertEqual(generated.status, 0, generated.output + generated.errorOutput)
        let admin = sources.appendingPathComponent("OpenAIAdmin/Generated")
        let catalogue = sources.appendingPathComponent("OpenAICatalogue/Generated")
        XCTAssertTrue(OutputWriter.existingFiles(in: admin).contains("Resources/OrganizationAPI.swift"))
        XCTAssertEqual(
            OutputWriter.existingFiles(in: catalogue),
            ["Manifest.swift", "OperationCatalogue.swift", "OperationSchemas.swift"])
        let main = OutputWriter.existingFiles(in: URL(fileURLWithPath: output))
        XCTAssertFalse(main.contains { $0.hasPrefix("Admin/") || $0.hasPrefix("Catalogue/") }, "\(main)")
        XCTAssertTrue(main.contains("Resources/FilesAPI.swift"), "\(main)")
        // Each folder is the generator's by its own manifest, which lists its files only.
        XCTAssertEqual(
            OutputWriter.manifestEntries(in: admin).sorted(),
            OutputWriter.existingFiles(in: admin).filter { $0 != "Manifest.swift" })
        XCTAssertFalse(
            OutputWriter.manifestEntries(in: URL(fileURLWithPath: output)).contains { $0.hasPrefix("Admin/") })
        // The previous layout is read from the admin module's own folder: a second run changes nothing.
        let again = OpenAIGeneratorCommand.run(["generate"] + options)
        XCTAssertTrue(again.output.contains("; 0 changed"), again.output)

        // A lock naming the spec's hash, as the manifest records it.
        let manifest = try String(contentsOfFile: output + "/Manifest.swift", encoding: .utf8)
        let sha = try XCTUnwrap(
            manifest.split(separator: "\n").first { $0.hasPrefix("// spec-sha256: ") }?.dropFirst(16))
        let lock = root.appendingPathComponent("lock.json")
        try Data("{\"sha256\": \"\(sha)\"}".utf8).write(to: lock)
        let check = ["check", "--lock", lock.path] + options
        let clean = OpenAIGeneratorCommand.run(check)
        XCTAssertEqual(clean.status, 0, clean.output)
        XCTAssertTrue(clean.output.hasPrefix("check: "), clean.output)
        try Data("// edited\n".utf8).write(to: admin.appendingPathComponent("Resources/OrganizationAPI.swift"))
        let drift = OpenAIGeneratorCommand.run(check)
        XCTAssertEqual(drift.status, 1)
        XCTAssertTrue(
            drift.output.contains(
                "OpenAIAdmin/Generated/Resources/OrganizationAPI.swift: differs from what the spec generates"),
            drift.output)
    }

    func testAnOutputFolderOfItsOwnKeepsTheWholeTree() throws {
        let (root, spec) = try makePackage(withTargetFolders: false)
        defer { try? manager.removeItem(at: root) }
        let output = root.appendingPathComponent("Sources/OpenAI/Generated")
        let options = ["--spec", spec.path, "--output", output.path, "--overrides", "none", "--docs-output", "none"]
        XCTAssertEqual(OpenAIGeneratorCommand.run(["generate", "--list-outputs"] + options).output, output.path + "\n")
        XCTAssertEqual(OpenAIGeneratorCommand.run(["generate"] + options).status, 0)
        let files = OutputWriter.existingFiles(in: output)
        XCTAssertTrue(files.contains("Admin/Resources/OrganizationAPI.swift"), "\(files)")
        XCTAssertTrue(files.contains("Catalogue/OperationCatalogue.swift"), "\(files)")
        XCTAssertTrue(OutputWriter.manifestEntries(in: output).contains("Admin/Resources/OrganizationAPI.swift"))
        XCTAssertFalse(manager.fileExists(atPath: root.appendingPathComponent("Sources/OpenAIAdmin").path))

        // Named folders are used whether or not they exist.
        let admin = root.appendingPathComponent("elsewhere/admin")
        let named = OpenAIGeneratorCommand.run(["generate", "--admin-output", admin.path] + options)
        XCTAssertEqual(named.status, 0, named.errorOutput)
        XCTAssertTrue(OutputWriter.existingFiles(in: admin).contains("Resources/OrganizationAPI.swift"))
        XCTAssertFalse(
            OutputWriter.existingFiles(in: output).contains { $0.hasPrefix("Admin/") },
            "the tree's Admin/ files, now another folder's, are stale here and removed")
    }
}
