import Foundation
import XCTest

@testable import OpenAIGeneratorCore

/// The generator's output folder at the trust boundary: it replaces or removes only files it
/// owns (listed in its manifest, or starting with its header), refuses a non-empty folder it does
/// not own unless forced, and `check` reports what is stale or foreign.
final class OutputFolderTests: XCTestCase {
    private let manager = FileManager.default

    private func folder() throws -> URL {
        let url = manager.temporaryDirectory.appendingPathComponent("out-\(UUID().uuidString)")
        try manager.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private func put(_ text: String, _ path: String, in folder: URL) throws {
        let url = folder.appendingPathComponent(path)
        try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    private func read(_ path: String, in folder: URL) -> String? {
        (try? Data(contentsOf: folder.appendingPathComponent(path))).map { String(decoding: $0, as: UTF8.self) }
    }

    /// What a generation run writes: two files and the manifest listing them.
    private func generated(_ names: [String], version: String = "1") -> [GeneratedFile] {
        let files = names.map {
            GeneratedFile(path: $0, contents: "\(OutputWriter.headerPrefix) test.\n// \($0) v\(version)\n")
        }
        return files + [SwiftGenerator.manifest(files, sha256: "abc")]
    }

    func testAnEmptyFolderReceivesTheFilesAndAManifest() throws {
        let out = try folder()
        try OutputWriter.write(generated(["A.swift", "Types/B.swift"]), to: out)
        XCTAssertEqual(OutputWriter.existingFiles(in: out), ["A.swift", OutputWriter.manifestName, "Types/B.swift"])
        XCTAssertEqual(OutputWriter.manifestEntries(in: out), ["A.swift", "Types/B.swift"])
        XCTAssertEqual(OutputWriter.differences(generated(["A.swift", "Types/B.swift"]), in: out), [])
    }

    func testAFolderWithForeignFilesIsRefusedAndLeftExactlyAsItWas() throws {
        let out = try folder()
        try put("my notes\n", "Notes.md", in: out)
        try put("[core]\n", ".git/config", in: out)
        XCTAssertThrowsError(try OutputWriter.write(generated(["A.swift"]), to: out)) { error in
            XCTAssertTrue("\(error)".contains("was not written by openai-generator"), "\(error)")
        }
        XCTAssertEqual(OutputWriter.existingFiles(in: out), [".git/config", "Notes.md"])
    }

    func testForcedIntoACheckoutItTouchesOnlyItsOwnFiles() throws {
        // `generate --output .` in a repository: .git, a README and sources.
        let out = try folder()
        try put("[core]\n", ".git/config", in: out)
        try put("ref: refs/heads/main\n", ".git/HEAD", in: out)
        try put("# Project\n", "README.md", in: out)
        try put("let x = 1\n", "Sources/App/main.swift", in: out)
        try OutputWriter.write(generated(["A.swift"]), to: out, force: true)
        try OutputWriter.write(generated(["B.swift"]), to: out)  // now the folder has a manifest
        XCTAssertEqual(
            OutputWriter.existingFiles(in: out),
            [".git/HEAD", ".git/config", "B.swift", OutputWriter.manifestName, "README.md", "Sources/App/main.swift"])
        XCTAssertEqual(read("README.md", in: out), "# Project\n")
        XCTAssertEqual(read(".git/config", in: out), "[core]\n")
    }

    func testOnlyOwnedStaleFilesAreRemovedInNestedFoldersAndCheckReportsTheRest() throws {
        let out = try folder()
        try OutputWriter.write(generated(["Types/Old.swift", "Types/Kept.swift", "Resources/R.swift"]), to: out)
        // An older generator's file without a manifest entry, and a hand-written one.
        try put("\(OutputWriter.headerPrefix) 0.0.1.\n", "Types/Older.swift", in: out)
        try put("extension X {}\n", "Types/HandWritten.swift", in: out)
        let next = generated(["Types/Kept.swift", "Resources/R.swift"], version: "2")
        XCTAssertEqual(
            OutputWriter.differences(next, in: out),
            [
                .changed("Manifest.swift"), .changed("Resources/R.swift"), .foreign("Types/HandWritten.swift"),
                .changed("Types/Kept.swift"), .stale("Types/Old.swift"), .stale("Types/Older.swift"),
            ])
        try OutputWriter.write(next, to: out)
        XCTAssertEqual(
            OutputWriter.existingFiles(in: out),
            [OutputWriter.manifestName, "Resources/R.swift", "Types/HandWritten.swift", "Types/Kept.swift"])
        XCTAssertEqual(OutputWriter.differences(next, in: out), [.foreign("Types/HandWritten.swift")])
    }

    func testAForeignFileAtAGeneratedPathIsNotReplacedUnlessForced() throws {
        let out = try folder()
        try OutputWriter.write(generated(["A.swift"]), to: out)
        try put("hand-written\n", "B.swift", in: out)
        XCTAssertThrowsError(try OutputWriter.write(generated(["A.swift", "B.swift"]), to: out)) { error in
            XCTAssertTrue("\(error)".contains("would replace files the generator did not write (B.swift)"), "\(error)")
        }
        XCTAssertEqual(read("B.swift", in: out), "hand-written\n")
        try OutputWriter.write(generated(["A.swift", "B.swift"]), to: out, force: true)
        XCTAssertEqual(read("B.swift", in: out), "\(OutputWriter.headerPrefix) test.\n// B.swift v1\n")
    }

    func testAHandWrittenManifestDoesNotMakeTheFolderTheGenerators() throws {
        let out = try folder()
        try put("// The app's manifest of screens.\n", OutputWriter.manifestName, in: out)
        try put("let screens = 3\n", "Screens.swift", in: out)
        XCTAssertFalse(OutputWriter.ownedFiles(in: out).contains(OutputWriter.manifestName))
        XCTAssertThrowsError(try OutputWriter.write(generated(["A.swift"]), to: out)) { error in
            XCTAssertTrue("\(error)".contains("was not written by openai-generator"), "\(error)")
        }
        XCTAssertEqual(read(OutputWriter.manifestName, in: out), "// The app's manifest of screens.\n")
        XCTAssertEqual(OutputWriter.existingFiles(in: out), [OutputWriter.manifestName, "Screens.swift"])
    }

    func testAGeneratedFolderThatIsASymbolicLinkIsRefusedEvenWhenForced() throws {
        let out = try folder()
        let elsewhere = try folder()
        try put("keep me\n", "B.swift", in: elsewhere)
        try OutputWriter.write(generated(["A.swift"]), to: out)
        try manager.createSymbolicLink(at: out.appendingPathComponent("Types"), withDestinationURL: elsewhere)
        for force in [false, true] {
            XCTAssertThrowsError(
                try OutputWriter.write(generated(["A.swift", "Types/B.swift"]), to: out, force: force)
            ) { error in
                XCTAssertTrue("\(error)".contains("symbolic links here (Types)"), "\(error)")
            }
        }
        XCTAssertEqual(read("B.swift", in: elsewhere), "keep me\n")
        XCTAssertEqual(OutputWriter.existingFiles(in: elsewhere), ["B.swift"])
    }

    func testAnOutputFolderGivenAsASymbolicLinkIsJudgedByWhatItPointsTo() throws {
        // A link to a folder of someone else's files: refused without --force, left as it was.
        let checkout = try folder()
        try put("// hand-written\n", "A.swift", in: checkout)
        try put("my notes\n", "Notes.md", in: checkout)
        let link = manager.temporaryDirectory.appendingPathComponent("link-\(UUID().uuidString)")
        try manager.createSymbolicLink(at: link, withDestinationURL: checkout)
        defer { try? manager.removeItem(at: link) }
        XCTAssertThrowsError(try OutputWriter.write(generated(["A.swift"]), to: link)) { error in
            XCTAssertTrue("\(error)".contains("was not written by openai-generator"), "\(error)")
        }
        XCTAssertEqual(read("A.swift", in: checkout), "// hand-written\n")
        XCTAssertEqual(OutputWriter.existingFiles(in: checkout), ["A.swift", "Notes.md"])
        XCTAssertEqual(
            OutputWriter.differences(generated(["A.swift"]), in: link).map(\.description).sorted(),
            [
                "A.swift: differs from what the spec generates",
                "Manifest.swift: differs from what the spec generates",
                "Notes.md: not written by openai-generator",
            ])
        // A link to the generator's own folder works as the folder does, and the link stays a link.
        let out = try folder()
        try OutputWriter.write(generated(["A.swift"]), to: out)
        let own = manager.temporaryDirectory.appendingPathComponent("link-\(UUID().uuidString)")
        try manager.createSymbolicLink(at: own, withDestinationURL: out)
        defer { try? manager.removeItem(at: own) }
        try OutputWriter.write(generated(["A.swift"], version: "2"), to: own)
        XCTAssertEqual(read("A.swift", in: out), "\(OutputWriter.headerPrefix) test.\n// A.swift v2\n")
        let type = try manager.attributesOfItem(atPath: own.path)[.type] as? FileAttributeType
        XCTAssertEqual(type, .typeSymbolicLink)
    }
}
