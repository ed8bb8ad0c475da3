import Foundation
import GeneratorCore
import XCTest

/// The inputs from the public bug reports quoted in issue 7, each as a test.
final class DiffBugReportTests: XCTestCase {
    static func fixture(_ name: String, _ file: String) -> String {
        DiffSnapshotTests.fixtures.appendingPathComponent(name).appendingPathComponent(file).path
    }

    static func change(_ name: String, reversed: Bool = false) throws -> SpecChange {
        let report = try DiffSnapshotTests.report(
            DiffSnapshotTests.fixtures.appendingPathComponent(name), reversed: reversed)
        XCTAssertEqual(report.changes.count, 1, "\(name): \(report.changes)")
        return try XCTUnwrap(report.changes.first)
    }

    func testRequestEnumLosingMediumIsBreakingForCallers() throws {
        let change = try Self.change("request-enum-value-removed")
        XCTAssertEqual(change.kind, "enum-value-removed")
        XCTAssertEqual(change.severity, .breaking)
        XCTAssertEqual(
            change.judgements,
            [
                ChangeJudgement(audience: .wireRequest, severity: .breaking),
                ChangeJudgement(audience: .swift, severity: .breaking),
            ])
    }

    func testResponseEnumLosingMediumIsNotBreakingOnTheWire() throws {
        let change = try Self.change("response-enum-value-removed")
        XCTAssertEqual(change.kind, "enum-value-removed")
        XCTAssertEqual(change.judgements.first { $0.audience == .wireResponse }?.severity, .info)
        XCTAssertNil(change.judgements.first { $0.audience == .wireRequest })
    }

    func testResponseEnumGainingXhighIsAWarning() throws {
        let change = try Self.change("response-enum-value-added")
        XCTAssertEqual(change.kind, "enum-value-added")
        XCTAssertEqual(change.message, "enum value \"xhigh\" added")
        XCTAssertEqual(change.severity, .warning)
        XCTAssertEqual(change.judgements.first { $0.audience == .swift }?.severity, .info)
    }

    func testMarkdownSummaryCountsOneBreakingTwoNonBreakingAndFailOnBreakingExitsNonZero() {
        let arguments = [
            Self.fixture("markdown-summary", "old.yaml"), Self.fixture("markdown-summary", "new.yaml"),
            "--format", "markdown", "--fail-on", "breaking", "--overrides", "/nonexistent/overrides.json",
        ]
        let outcome = DiffTool.run(arguments: arguments)
        XCTAssertEqual(outcome.status, 1)
        XCTAssertTrue(
            outcome.output.contains("**Summary: 1 breaking, 2 non-breaking (0 warnings, 2 info).**"),
            outcome.output)
        XCTAssertTrue(outcome.output.contains("| Things | 1 | 0 | 2 |"), outcome.output)
        XCTAssertEqual(
            DiffTool.run(arguments: Array(arguments.dropLast(4)) + ["--fail-on", "none"]).status, 0)
        XCTAssertEqual(
            DiffTool.run(arguments: Array(arguments.dropLast(4)) + ["--fail-on", "any"]).status, 1)
    }

    func testJSONFormatHasTheInterfaceFields() throws {
        let outcome = DiffTool.run(arguments: [
            Self.fixture("markdown-summary", "old.yaml"), Self.fixture("markdown-summary", "new.yaml"),
            "--format", "json",
        ])
        XCTAssertEqual(outcome.status, 0)
        let object = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(outcome.output.utf8)) as? [String: Any])
        let summary = try XCTUnwrap(object["summary"] as? [String: Any])
        XCTAssertEqual(summary["breaking"] as? Int, 1)
        XCTAssertEqual(summary["warning"] as? Int, 0)
        XCTAssertEqual(summary["info"] as? Int, 2)
        let changes = try XCTUnwrap(object["changes"] as? [[String: Any]])
        XCTAssertEqual(changes.count, 3)
        XCTAssertEqual(changes[0]["kind"] as? String, "enum-value-removed")
        XCTAssertEqual(
            changes[0]["pointer"] as? String, "#/components/schemas/CreateThingRequest/properties/effort")
        XCTAssertEqual(changes[0]["severity"] as? String, "breaking")
        XCTAssertEqual(changes[0]["message"] as? String, "enum value \"medium\" removed")
        XCTAssertEqual(
            changes.compactMap { $0["kind"] as? String }.sorted(),
            ["enum-value-removed", "operation-added", "property-added"])
    }

    func testUsageErrorsExitTwoAndMissingFilesExitThree() {
        XCTAssertEqual(DiffTool.run(arguments: ["only-one.yaml"]).status, 2)
        XCTAssertEqual(DiffTool.run(arguments: ["a", "b", "--format", "html"]).status, 2)
        XCTAssertEqual(
            DiffTool.run(arguments: ["a", "b", "--severity", "no-such-rule=info"]).status, 2)
        XCTAssertEqual(
            DiffTool.run(arguments: ["/nonexistent/a.yaml", "/nonexistent/b.yaml"]).status, 3)
    }
}
