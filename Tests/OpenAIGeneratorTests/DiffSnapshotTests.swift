import Foundation
import OpenAIGeneratorCore
import XCTest

/// Snapshot tests of `diff` reports: one small spec pair per rule in `DiffFixtures/<rule>/`
/// (`old.yaml`, `new.yaml`), diffed in both directions; the text reports must equal
/// `expected.txt`. `UPDATE_SNAPSHOTS=1` rewrites the expected files (read the whole diff before
/// committing).
final class DiffSnapshotTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("DiffFixtures")

    static func report(_ directory: URL, reversed: Bool) throws -> SpecDiffReport {
        let old = try [UInt8](Data(contentsOf: directory.appendingPathComponent("old.yaml")))
        let new = try [UInt8](Data(contentsOf: directory.appendingPathComponent("new.yaml")))
        let differ = SpecDiffer()
        return reversed
            ? try differ.diff(oldBytes: new, oldFile: "new.yaml", newBytes: old, newFile: "old.yaml")
            : try differ.diff(oldBytes: old, oldFile: "old.yaml", newBytes: new, newFile: "new.yaml")
    }

    func testEveryFixtureMatchesItsSnapshotInBothDirections() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.fixtures.path).sorted()
        XCTAssertGreaterThanOrEqual(names.count, 21)
        for name in names {
            let directory = Self.fixtures.appendingPathComponent(name)
            let forward = try Self.report(directory, reversed: false).rendered(.text)
            let backward = try Self.report(directory, reversed: true).rendered(.text)
            let actual = "# forward\n" + forward + "\n# backward\n" + backward
            let expectedURL = directory.appendingPathComponent("expected.txt")
            if ProcessInfo.processInfo.environment["UPDATE_SNAPSHOTS"] == "1" {
                try actual.write(to: expectedURL, atomically: true, encoding: .utf8)
                continue
            }
            let expected = try String(contentsOf: expectedURL, encoding: .utf8)
            XCTAssertEqual(
                actual, expected,
                "snapshot \(name) differs; rerun with UPDATE_SNAPSHOTS=1 and read the diff")
        }
    }

    func testNullableSpellingsAreTheSameThing() throws {
        let directory = Self.fixtures.appendingPathComponent("nullable-forms-equivalent")
        XCTAssertEqual(try Self.report(directory, reversed: false).changes.count, 0)
        XCTAssertEqual(try Self.report(directory, reversed: true).changes.count, 0)
        let nullable = try Self.report(
            Self.fixtures.appendingPathComponent("response-became-nullable"), reversed: false)
        XCTAssertEqual(
            nullable.changes.map(\.kind), [.becameNullable, .becameNullable, .becameNullable])
        XCTAssertEqual(nullable.changes.map(\.swiftDeclaration), ["Thing.a", "Thing.b", "Thing.c"])
    }

    func testMovingAnInlineSchemaToAnEquivalentRefIsNoChange() throws {
        let report = try Self.report(
            Self.fixtures.appendingPathComponent("inline-schema-moved-to-ref"), reversed: false)
        XCTAssertEqual(report.changes.map(\.kind), [.schemaAdded])
        XCTAssertEqual(report.counts.breaking, 0)
    }

    func testRenamedSchemaWithTheSameShapeIsARenameThatBreaksSwiftOnly() throws {
        let report = try Self.report(
            Self.fixtures.appendingPathComponent("schema-renamed"), reversed: false)
        XCTAssertEqual(report.changes.count, 1)
        let change = try XCTUnwrap(report.changes.first)
        XCTAssertEqual(change.kind, .schemaRenamed)
        XCTAssertEqual(change.swiftDeclaration, "Owner → ThingOwner")
        XCTAssertEqual(change.judgements.first { $0.audience == .swift }?.severity, .breaking)
        XCTAssertEqual(change.judgements.first { $0.audience == .wireResponse }?.severity, .info)
    }

    func testSeverityOverrideDowngradesAResponseUnionVariant() throws {
        let directory = Self.fixtures.appendingPathComponent("response-union-variant-added")
        let old = try [UInt8](Data(contentsOf: directory.appendingPathComponent("old.yaml")))
        let new = try [UInt8](Data(contentsOf: directory.appendingPathComponent("new.yaml")))
        let differ = SpecDiffer(
            configuration: DiffConfiguration(severityOverrides: [
                // The wire verdict, and the Swift one a union read from replies gets for its new case.
                "union-variant-added@wire-response": .info, "union-case-added@swift": .info,
            ]))
        let report = try differ.diff(
            oldBytes: old, oldFile: "old.yaml", newBytes: new, newFile: "new.yaml")
        XCTAssertEqual(report.counts.warning, 0)
        XCTAssertEqual(report.counts.info, 2)
    }
}
