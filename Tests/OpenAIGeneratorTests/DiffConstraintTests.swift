import Foundation
import OpenAIGeneratorCLI
import XCTest

@testable import OpenAIGeneratorCore

/// The `diff` rules of issue 31: validation keywords, the empty schema, one-variant unions and
/// union cases in Swift, each on a fixture pair read in both directions.
final class DiffConstraintTests: XCTestCase {
    private typealias Rules = DiffRuleFixtureTests

    /// The changes of `report` whose kind starts with `prefix`, by pointer.
    private func changes(_ report: SpecDiffReport, kind prefix: String) -> [String: SpecChange] {
        Dictionary(
            report.changes.filter { $0.kind.rawValue.hasPrefix(prefix) }.map { ($0.pointer, $0) },
            uniquingKeysWith: { first, _ in first })
    }

    private let request = "#/components/schemas/CreateThingRequest/properties/"
    private let reply = "#/components/schemas/Thing/properties/"

    func testAConstraintNarrowedInARequestBreaksTheWireAndWidenedIsInfo() throws {
        let forward = changes(try Rules.report("constraint-changes"), kind: "constraint-")
        XCTAssertEqual(
            Set(forward.keys),
            Set(
                ["name", "code", "tags", "count", "step"].map { request + $0 }
                    + ["id", "score"].map { reply + $0 }))
        let expected: [(String, ChangeKind, String, ChangeSeverity)] = [
            ("name", .constraintNarrowed, "maxLength narrowed from 100 to 50", .breaking),
            ("tags", .constraintNarrowed, "minItems 1 added (narrowed)", .breaking),
            (
                "step", .constraintNarrowed,
                "multipleOf changed from 2 to 3 (cannot be ordered: treated as narrowed)", .breaking
            ),
            ("count", .constraintWidened, "minimum 0 removed (widened)", .info),
        ]
        for (property, kind, message, severity) in expected {
            let change = try XCTUnwrap(forward[request + property], property)
            XCTAssertEqual(change.kind, kind, property)
            XCTAssertEqual(change.message, message, property)
            XCTAssertEqual(change.judgements.map(\.audience), [.wireRequest], property)
            XCTAssertEqual(Rules.verdict(change, .wireRequest), severity, property)
            XCTAssertEqual(change.swiftDeclaration, "CreateThingRequest.\(property)")
        }
        // Widening the request back: the larger maxLength, the minItems removed are info.
        let backward = changes(try Rules.report("constraint-changes", reversed: true), kind: "constraint-")
        XCTAssertEqual(backward[request + "name"]?.message, "maxLength widened from 50 to 100")
        XCTAssertEqual(backward[request + "name"].flatMap { Rules.verdict($0, .wireRequest) }, .info)
        XCTAssertEqual(backward[request + "tags"]?.message, "minItems 1 removed (widened)")
        XCTAssertEqual(backward[request + "count"]?.kind, .constraintNarrowed)
        XCTAssertEqual(backward[request + "count"].flatMap { Rules.verdict($0, .wireRequest) }, .breaking)
    }

    func testAChangedPatternIsNarrowedInARequestWhicheverWayItIsRead() throws {
        for reversed in [false, true] {
            let report = changes(try Rules.report("constraint-changes", reversed: reversed), kind: "constraint-")
            let change = try XCTUnwrap(report[request + "code"])
            XCTAssertEqual(change.kind, .constraintNarrowed)
            XCTAssertEqual(Rules.verdict(change, .wireRequest), .breaking)
            let (before, after) = reversed ? ("^[a-z0-9]+$", "^[a-z]+$") : ("^[a-z]+$", "^[a-z0-9]+$")
            XCTAssertEqual(
                change.message,
                "pattern changed from \"\(before)\" to \"\(after)\" (cannot be ordered: treated as narrowed)")
        }
    }

    func testAConstraintInAReplyIsJudgedTheOtherWayRound() throws {
        let forward = changes(try Rules.report("constraint-changes"), kind: "constraint-")
        let narrowed = try XCTUnwrap(forward[reply + "id"])
        XCTAssertEqual(narrowed.kind, .constraintNarrowed)
        XCTAssertEqual(narrowed.judgements.map(\.audience), [.wireResponse])
        XCTAssertEqual(Rules.verdict(narrowed, .wireResponse), .info)
        let widened = try XCTUnwrap(forward[reply + "score"])
        XCTAssertEqual(widened.message, "maximum widened from 1 to 10")
        XCTAssertEqual(Rules.verdict(widened, .wireResponse), .warning)
        let backward = changes(try Rules.report("constraint-changes", reversed: true), kind: "constraint-")
        XCTAssertEqual(backward[reply + "id"].flatMap { Rules.verdict($0, .wireResponse) }, .warning)
        XCTAssertEqual(backward[reply + "score"].flatMap { Rules.verdict($0, .wireResponse) }, .info)
    }

    func testConstraintDirectionsForEveryKeyword() {
        typealias Change = ConstraintChange
        XCTAssertEqual(Change.direction("maxItems", from: .int(3), to: .int(2)), .narrowed)
        XCTAssertEqual(Change.direction("maxProperties", from: .int(3), to: .int(4)), .widened)
        XCTAssertEqual(Change.direction("minProperties", from: .int(1), to: .int(2)), .narrowed)
        XCTAssertEqual(Change.direction("exclusiveMinimum", from: .double(0.5), to: .int(0)), .widened)
        XCTAssertEqual(Change.direction("exclusiveMaximum", from: .int(10), to: .double(9.5)), .narrowed)
        XCTAssertEqual(Change.direction("multipleOf", from: .int(2), to: .int(4)), .narrowed)
        XCTAssertEqual(Change.direction("multipleOf", from: .int(4), to: .int(2)), .widened)
        XCTAssertEqual(Change.direction("uniqueItems", from: nil, to: .bool(true)), .narrowed)
        XCTAssertNil(Change.direction("maximum", from: .int(1), to: .double(1)))
        XCTAssertNil(Change.direction("maximum", from: .int(1), to: .int(1)))
        XCTAssertEqual(Change.direction("exclusiveMinimum", from: .bool(true), to: .int(0)), .narrowed)
    }

    func testARequestWidenedToTheEmptySchemaTakesNullAndIsNotBreakingOnTheWire() throws {
        // `{}` and `true` accept every value, `null` included: a nullable value widened to
        // either is no narrowing of null.
        let forward = try Rules.report("request-widened-to-empty-schema")
        XCTAssertEqual(forward.changes.map(\.kind), [.typeWidened, .typeWidened])
        XCTAssertEqual(
            forward.changes.map(\.message),
            ["now accepts any value instead of only object", "now accepts any value instead of only string"])
        for change in forward.changes {
            XCTAssertEqual(Rules.verdict(change, .wireRequest), .info, change.message)
        }
        // Back from `{}` to a nullable type refuses other values: breaking, still without a
        // nullability change.
        let backward = try Rules.report("request-widened-to-empty-schema", reversed: true)
        XCTAssertEqual(backward.changes.map(\.kind), [.typeNarrowed, .typeNarrowed])
        XCTAssertTrue(backward.changes.allSatisfy { Rules.verdict($0, .wireRequest) == .breaking })
        XCTAssertFalse(backward.changes.contains { $0.message.contains("null") })
    }

    func testAOneVariantUnionGainingAVariantIsAVariantAddedNotATypeChange() throws {
        // A one-variant `oneOf` is generated as its variant's type.
        let directory = DiffSnapshotTests.fixtures.appendingPathComponent("one-variant-union-gains-variant")
        let generated = try GeneratorPipeline(configuration: GeneratorConfiguration()).run(
            [UInt8](Data(contentsOf: directory.appendingPathComponent("old.yaml"))), file: "old.yaml", sha256: "x")
        XCTAssertTrue(generated.files.contains { $0.contents.contains("public var content: TextPart?") })
        let forward = try Rules.report("one-variant-union-gains-variant")
        XCTAssertEqual(forward.changes.map(\.kind), [.unionVariantAdded])
        let added = try XCTUnwrap(forward.changes.first)
        XCTAssertEqual(added.pointer, "#/components/schemas/Thing/properties/content/oneOf/1")
        XCTAssertEqual(Rules.verdict(added, .wireResponse), .warning)
        XCTAssertEqual(Rules.verdict(added, .swift), .breaking)
        XCTAssertEqual(
            added.message,
            "the value became a union: variant `ImagePart` added (the Swift type changes from a single type to an enum of cases)"
        )
        let backward = try Rules.report("one-variant-union-gains-variant", reversed: true)
        XCTAssertEqual(backward.changes.map(\.kind), [.unionVariantRemoved])
        XCTAssertEqual(backward.changes.first.flatMap { Rules.verdict($0, .wireResponse) }, .info)
    }

    func testAUnionReadFromRepliesGainingACaseIsASwiftWarningThatSeverityOverrides() throws {
        let reply = try XCTUnwrap(
            Rules.report("response-union-variant-added").changes.first { $0.kind == .unionVariantAdded })
        XCTAssertEqual(reply.message, "variant `AudioPart` added (a new case of the Swift enum)")
        XCTAssertEqual(Rules.verdict(reply, .wireResponse), .warning)
        XCTAssertEqual(Rules.verdict(reply, .swift), .warning)
        // A union the caller only builds (a request): no `switch` of the caller's breaks.
        let request = try XCTUnwrap(Rules.report("request-union-variant-added").changes.first)
        XCTAssertEqual(request.kind, .unionVariantAdded)
        XCTAssertEqual(Rules.verdict(request, .wireRequest), .info)
        XCTAssertEqual(Rules.verdict(request, .swift), .info)
        // `--severity union-case-added=…` moves the Swift verdict of the reply's case only.
        let directory = DiffSnapshotTests.fixtures.appendingPathComponent("response-union-variant-added")
        let files = ["old.yaml", "new.yaml"].map { directory.appendingPathComponent($0).path }
        let base = files + ["--overrides", "none", "--fail-on", "breaking@swift"]
        XCTAssertEqual(DiffCommand.run(arguments: base).status, 0)
        XCTAssertEqual(DiffCommand.run(arguments: base + ["--severity", "union-case-added=breaking"]).status, 1)
        let quiet = DiffCommand.run(
            arguments: files + [
                "--overrides", "none", "--fail-on", "warning@swift", "--severity", "union-case-added@swift=info",
            ])
        XCTAssertEqual(quiet.status, 0, quiet.output)
        XCTAssertTrue(DiffCommand.ruleList().contains("  union-case-added: - / - / warning — "))
    }
}
