import Foundation
import OpenAIGeneratorCLI
@testable import OpenAIGeneratorCore
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
        XCTAssertEqual(change.kind, .enumValueRemoved)
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
        XCTAssertEqual(change.kind, .enumValueRemoved)
        XCTAssertEqual(change.judgements.first { $0.audience == .wireResponse }?.severity, .info)
        XCTAssertNil(change.judgements.first { $0.audience == .wireRequest })
    }

    func testResponseEnumGainingXhighIsAWarning() throws {
        let change = try Self.change("response-enum-value-added")
        XCTAssertEqual(change.kind, .enumValueAdded)
        XCTAssertEqual(change.message, "enum value \"xhigh\" added")
        XCTAssertEqual(change.severity, .warning)
        XCTAssertEqual(change.judgements.first { $0.audience == .swift }?.severity, .info)
    }

    func testMarkdownSummaryCountsOneBreakingTwoNonBreakingAndFailOnBreakingExitsNonZero() throws {
        let arguments = [
            Self.fixture("markdown-summary", "old.yaml"), Self.fixture("markdown-summary", "new.yaml"),
            "--format", "markdown", "--fail-on", "breaking", "--overrides", "none",
        ]
        let outcome = DiffCommand.run(arguments: arguments)
        XCTAssertEqual(outcome.status, 1)
        XCTAssertTrue(
            outcome.output.contains(": 1 breaking, 2 non-breaking (0 warnings, 2 info)."), outcome.output)
        XCTAssertTrue(
            outcome.output.contains(
                "| **Breaks Swift code** (the generated API: code using it may stop compiling) | 1 | Things 1 |"),
            outcome.output)
        XCTAssertTrue(outcome.output.contains("| New (schemas, properties, values) | 1 | Things 1 |"), outcome.output)
        // New and removed operations lead, with the call each is, before the table of the rest.
        XCTAssertTrue(outcome.output.contains("| New operations (listed above) | 1 | Things 1 |"), outcome.output)
        let operations = try XCTUnwrap(outcome.output.range(of: "### Operations"))
        let table = try XCTUnwrap(outcome.output.range(of: "| What | Changes | Areas |"))
        XCTAssertLessThan(operations.lowerBound, table.lowerBound)
        XCTAssertTrue(
            outcome.output.contains(
                "| New | `GET /things/{thing_id}` | `client.things.retrieve(thingID:)` | Things |"), outcome.output)
        let backward = DiffCommand.run(arguments: [
            Self.fixture("markdown-summary", "new.yaml"), Self.fixture("markdown-summary", "old.yaml"),
            "--format", "markdown", "--overrides", "none",
        ])
        XCTAssertTrue(
            backward.output.contains(
                "| **Removed** | `GET /things/{thing_id}` | `client.things.retrieve(thingID:)` *Breaks requests and Swift code.* | Things |"
            ), backward.output)
        XCTAssertFalse(
            backward.output.contains("} removed"), "listed once, in the operations table: \(backward.output)")
        XCTAssertTrue(
            outcome.output.contains(
                "- **Things** `CreateThingRequest.effort`: enum value \"medium\" removed. *Breaks requests and Swift code.*"
            ), outcome.output)
        XCTAssertEqual(
            DiffCommand.run(arguments: Array(arguments.dropLast(4)) + ["--fail-on", "none"]).status, 0)
        XCTAssertEqual(
            DiffCommand.run(arguments: Array(arguments.dropLast(4)) + ["--fail-on", "any"]).status, 1)
    }

    func testJSONFormatHasTheInterfaceFields() throws {
        let outcome = DiffCommand.run(arguments: [
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
        XCTAssertEqual(DiffCommand.run(arguments: ["only-one.yaml"]).status, 2)
        XCTAssertEqual(DiffCommand.run(arguments: ["a", "b", "--format", "html"]).status, 2)
        XCTAssertEqual(
            DiffCommand.run(arguments: ["a", "b", "--severity", "no-such-rule=info"]).status, 2)
        XCTAssertEqual(
            DiffCommand.run(arguments: ["/nonexistent/a.yaml", "/nonexistent/b.yaml"]).status, 3)
    }
}

/// The `diff` rules of issue 13, each on a fixture pair read in both directions.
final class DiffRuleFixtureTests: XCTestCase {
    static func report(_ name: String, reversed: Bool = false) throws -> SpecDiffReport {
        try DiffSnapshotTests.report(
            DiffSnapshotTests.fixtures.appendingPathComponent(name), reversed: reversed)
    }

    static func verdict(_ change: SpecChange, _ audience: ChangeAudience) -> ChangeSeverity? {
        change.judgements.first { $0.audience == audience }?.severity
    }

    func testUnionVariantsThatMoveAreMatchedByDiscriminatorNotPosition() throws {
        // A variant inserted first shifts every other one; only the new one is reported, and no
        // Swift type is "renamed" from one variant to its neighbour.
        let forward = try Self.report("union-variants-reordered")
        XCTAssertEqual(forward.changes.map(\.kind), [.unionVariantAdded])
        XCTAssertEqual(forward.changes.first?.pointer, "#/components/schemas/Event/anyOf/0")
        XCTAssertEqual(
            forward.changes.first?.message, "variant with type \"queued\" added (a new case of the Swift enum)")
        let backward = try Self.report("union-variants-reordered", reversed: true)
        XCTAssertEqual(backward.changes.map(\.kind), [.unionVariantRemoved])
        XCTAssertFalse(
            (forward.changes + backward.changes).contains { $0.kind.rawValue.hasSuffix("renamed") })
    }

    func testABetaQueryPathPairsWithItself() throws {
        for reversed in [false, true] {
            let report = try Self.report("beta-path-pairs-with-itself", reversed: reversed)
            XCTAssertEqual(report.changes.count, 1, "\(report.changes)")
            let change = try XCTUnwrap(report.changes.first)
            XCTAssertEqual(change.kind, reversed ? .parameterRemoved : .parameterAdded)
            XCTAssertEqual(change.pointer, "#/paths/~1things~1{thing_id}?beta=true/get/parameters/1")
            XCTAssertEqual(change.swiftDeclaration, "client.things.retrieveBeta(thingID:openaiBeta:)")
        }
    }

    func testASchemaUsedInRequestsAndRepliesGetsOneEntryJudgedForBoth() throws {
        for reversed in [false, true] {
            let report = try Self.report("one-entry-per-change", reversed: reversed)
            XCTAssertEqual(report.changes.count, 1, "\(report.changes)")
            let change = try XCTUnwrap(report.changes.first)
            XCTAssertEqual(change.kind, .typeChanged)
            XCTAssertEqual(
                change.judgements.map(\.audience), [.wireRequest, .wireResponse, .swift])
        }
    }

    func testRemovingAValueFromAnOpenEnumIsNotBreakingOnTheWire() throws {
        let removed = try XCTUnwrap(Self.report("open-enum-value-removed").changes.first)
        XCTAssertEqual(removed.kind, .openEnumValueRemoved)
        XCTAssertEqual(Self.verdict(removed, .wireRequest), .info)
        XCTAssertEqual(Self.verdict(removed, .swift), .breaking)  // the static constant is gone
        let added = try XCTUnwrap(Self.report("open-enum-value-removed", reversed: true).changes.first)
        XCTAssertEqual(added.kind, .openEnumValueAdded)
        XCTAssertEqual(added.severity, .info)
        // A closed enum losing a value still breaks requests.
        let closed = try XCTUnwrap(Self.report("request-enum-value-removed").changes.first)
        XCTAssertEqual(Self.verdict(closed, .wireRequest), .breaking)
    }

    func testARequestSchemaThatWidensIsNotBreakingOnTheWireAndNarrowingIs() throws {
        let widened = try Self.report("request-widened")
        XCTAssertEqual(widened.changes.map(\.kind), [.typeWidened, .typeWidened])
        XCTAssertEqual(
            widened.changes.map(\.swiftDeclaration),
            ["CreateThingRequest.metadata", "CreateThingRequest.size"])
        for change in widened.changes {
            XCTAssertEqual(Self.verdict(change, .wireRequest), .info, change.message)
            XCTAssertEqual(Self.verdict(change, .swift), .breaking, change.message)
        }
        XCTAssertEqual(
            widened.changes.first?.message,
            "now accepts any value instead of only object, and may now be null")  // `{}` takes null too
        let narrowed = try Self.report("request-widened", reversed: true)
        XCTAssertEqual(narrowed.changes.map(\.kind), [.typeNarrowed, .typeNarrowed])
        XCTAssertTrue(narrowed.changes.allSatisfy { Self.verdict($0, .wireRequest) == .breaking })
    }

    func testASingleSchemaBecomingAUnionGainsAVariantAndSaysTheSwiftTypeChanges() throws {
        let forward = try Self.report("single-to-union")
        XCTAssertEqual(forward.changes.map(\.kind), [.unionVariantAdded, .unionVariantAdded])
        let request = try XCTUnwrap(
            forward.changes.first { $0.swiftDeclaration == "CreateThingRequest.content" })
        let reply = try XCTUnwrap(forward.changes.first { $0.swiftDeclaration == "Thing.content" })
        XCTAssertEqual(Self.verdict(request, .wireRequest), .info)
        XCTAssertEqual(Self.verdict(reply, .wireResponse), .warning)
        // The rule's Swift verdict for a variant added is info; here the Swift type changes.
        XCTAssertEqual(Self.verdict(request, .swift), .breaking)
        XCTAssertTrue(request.message.contains("the Swift type changes"), request.message)
        let backward = try Self.report("single-to-union", reversed: true)
        XCTAssertEqual(backward.changes.map(\.kind), [.unionVariantRemoved, .unionVariantRemoved])
        XCTAssertEqual(
            backward.changes.compactMap { Self.verdict($0, .wireRequest) }, [.breaking])
        XCTAssertEqual(backward.changes.compactMap { Self.verdict($0, .wireResponse) }, [.info])
        // A `--severity` override still wins over the instance's Swift verdict.
        let directory = DiffSnapshotTests.fixtures.appendingPathComponent("single-to-union")
        let differ = SpecDiffer(
            configuration: DiffConfiguration(severityOverrides: ["union-variant-added@swift": .info]))
        let overridden = try differ.diff(
            oldBytes: [UInt8](Data(contentsOf: directory.appendingPathComponent("old.yaml"))),
            oldFile: "old.yaml",
            newBytes: [UInt8](Data(contentsOf: directory.appendingPathComponent("new.yaml"))),
            newFile: "new.yaml")
        XCTAssertTrue(overridden.changes.allSatisfy { Self.verdict($0, .swift) == .info })
    }

    func testGitHubFormatAnnotatesTheNewSpecLineAndFailOnTakesAnAudience() throws {
        let old = DiffBugReportTests.fixture("markdown-summary", "old.yaml")
        let new = DiffBugReportTests.fixture("markdown-summary", "new.yaml")
        let base = [old, new, "--overrides", "none"]
        let outcome = DiffCommand.run(
            arguments: base + ["--format", "github", "--annotate-file", "Spec/openapi.yaml"])
        XCTAssertEqual(outcome.status, 0)
        let lines = outcome.output.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 2, outcome.output)
        // new.yaml line 55 column 11 is where the schema of CreateThingRequest's `effort` begins.
        XCTAssertEqual(
            lines[0],
            "::error file=Spec/openapi.yaml,line=55,col=11,title=enum-value-removed (wire-request%3A breaking%2C swift%3A breaking)::"
                + "`CreateThingRequest.effort`: enum value \"medium\" removed. #/components/schemas/CreateThingRequest/properties/effort"
        )
        let newLines = try String(contentsOfFile: new, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(newLines[53], "        effort:")
        XCTAssertEqual(newLines[54], "          type: string")
        XCTAssertTrue(lines[1].hasPrefix("::notice title=OpenAPI spec changes::"), lines[1])
        XCTAssertEqual(DiffCommand.run(arguments: base + ["--fail-on", "breaking@swift"]).status, 1)
        XCTAssertEqual(DiffCommand.run(arguments: base + ["--fail-on", "breaking@wire-response"]).status, 0)
        XCTAssertEqual(DiffCommand.run(arguments: base + ["--fail-on", "breaking@wire"]).status, 1)
        XCTAssertEqual(DiffCommand.run(arguments: base + ["--fail-on", "breaking@nobody"]).status, 2)
    }

    func testLabelsNameTheSpecsAndTemporaryPathsAreNeverShown() throws {
        let old = DiffBugReportTests.fixture("markdown-summary", "old.yaml")
        let new = DiffBugReportTests.fixture("markdown-summary", "new.yaml")
        let labelled = DiffCommand.run(arguments: [
            old, new, "--format", "markdown", "--overrides", "none",
            "--old-label", "openai/openai-openapi@855e5d4", "--new-label", "openai/openai-openapi@f85dbe2",
        ])
        XCTAssertTrue(
            labelled.output.contains(
                "From `openai/openai-openapi@855e5d4` to `openai/openai-openapi@f85dbe2`: 1 breaking"),
            labelled.output)
        XCTAssertFalse(labelled.output.contains(old))
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent(
            "diff-label-\(UUID().uuidString).yaml")
        try FileManager.default.copyItem(atPath: new, toPath: temporary.path)
        defer { try? FileManager.default.removeItem(at: temporary) }
        let unlabelled = DiffCommand.run(arguments: [
            old, temporary.path, "--format", "markdown", "--overrides", "none",
        ])
        XCTAssertFalse(unlabelled.output.contains(temporary.path), unlabelled.output)
        XCTAssertTrue(unlabelled.output.contains("to `\(temporary.lastPathComponent)`"), unlabelled.output)
    }
}

/// Review findings on the report and the rules: each reproduced, then fixed.
final class DiffReportLimitsTests: XCTestCase {
    func testAnEmptyOrHalfFailOnIsAUsageErrorNotACrash() {
        let old = DiffBugReportTests.fixture("markdown-summary", "old.yaml")
        let new = DiffBugReportTests.fixture("markdown-summary", "new.yaml")
        for value in ["", "@", "breaking@", "@swift"] {
            XCTAssertEqual(DiffCommand.run(arguments: [old, new, "--fail-on", value]).status, 2, "--fail-on \(value)")
        }
    }

    func testATypeChangeThatAlsoDropsNullKeepsTheWorstVerdict() throws {
        // `[integer, null]` → `[integer, string]`: wider in type, but `null` is refused now.
        let report = try DiffRuleFixtureTests.report("type-and-nullability-at-once")
        XCTAssertEqual(report.changes.count, 1, "\(report.changes)")
        let change = try XCTUnwrap(report.changes.first)
        XCTAssertEqual(change.kind, .typeWidened)
        XCTAssertTrue(change.message.hasSuffix(", and may no longer be null"), change.message)
        XCTAssertEqual(DiffRuleFixtureTests.verdict(change, .wireRequest), .breaking)
        let backward = try XCTUnwrap(
            DiffRuleFixtureTests.report("type-and-nullability-at-once", reversed: true).changes.first)
        XCTAssertEqual(backward.kind, .typeNarrowed)
        XCTAssertEqual(DiffRuleFixtureTests.verdict(backward, .wireRequest), .breaking)
    }

    func testAnOpenEnumThroughARefIsOpenAndAClosedOneIsNot() throws {
        let report = try DiffRuleFixtureTests.report("open-enum-through-ref")
        let byPointer = Dictionary(uniqueKeysWithValues: report.changes.map { ($0.pointer, $0) })
        let open = try XCTUnwrap(byPointer["#/components/schemas/ModelName"])
        XCTAssertEqual(open.kind, .openEnumValueRemoved)
        XCTAssertEqual(DiffRuleFixtureTests.verdict(open, .wireRequest), .info)
        // Color is also used on its own (a request property and a reply property): closed.
        let closed = try XCTUnwrap(byPointer["#/components/schemas/Color"])
        XCTAssertEqual(closed.kind, .enumValueRemoved)
        XCTAssertEqual(DiffRuleFixtureTests.verdict(closed, .wireRequest), .breaking)
    }

    func testMarkupKeepsCodeSpansAndNeutralizesTheRest() {
        XCTAssertEqual(Markup.code("a`b"), "``a`b``")
        XCTAssertEqual(Markup.code("plain"), "`plain`")
        XCTAssertEqual(Markup.code("`edge"), "`` `edge ``")
        XCTAssertEqual(Markup.inline("property `a<b` added"), "property `a<b` added")
        XCTAssertEqual(
            Markup.inline("enum value \"a|b<c`d\" removed"), "enum value \"a|b&lt;c\\`d\" removed")
        XCTAssertEqual(Markup.inline("<details>"), "&lt;details&gt;")
    }

    /// A spec pair built here: `areas` tags, each with an operation whose schema gains
    /// `properties` properties, and breaking changes in every area (an enum value and a property
    /// removed: Swift and the wire; a property that becomes required: the wire only).
    static func synthetic(areas: Int, properties: Int) -> (old: [UInt8], new: [UInt8]) {
        func spec(_ added: Bool) -> [UInt8] {
            var text = "openapi: 3.1.0\ninfo:\n  title: Synthetic\n  version: 1.0.0\npaths:\n"
            for area in 0..<areas {
                text += """
                      /area\(area)/things:
                        post:
                          operationId: createThing\(area)
                          tags: [Area\(area)]
                          requestBody:
                            required: true
                            content:
                              application/json:
                                schema:
                                  $ref: "#/components/schemas/Thing\(area)"
                          responses:
                            "200":
                              description: OK
                              content:
                                application/json:
                                  schema:
                                    $ref: "#/components/schemas/Thing\(area)"

                    """
            }
            text += "components:\n  schemas:\n"
            for area in 0..<areas {
                text += "    Thing\(area):\n      type: object\n"
                text += added ? "      required: [must]\n" : ""
                text += "      properties:\n        must:\n          type: string\n"
                text += "        kind:\n          type: string\n          enum: [a, b\(added ? "" : ", c")]\n"
                text += "        \(added ? "renamed" : "original")_\(area):\n          type: string\n"
                for index in 0..<(added ? properties : 0) {
                    text += "        p\(index)_with_a_long_name_<b>|`x:\n          type: integer\n"
                }
            }
            return Array(text.utf8)
        }
        return (spec(false), spec(true))
    }

    func testMarkdownStaysUnderTheLimitWithHundredsOfAreasAndEverySectionKeepsAFold() throws {
        let pair = Self.synthetic(areas: 450, properties: 40)
        for reversed in [false, true] {
            let report = try SpecDiffer().diff(
                oldBytes: reversed ? pair.new : pair.old, oldFile: "old.yaml",
                newBytes: reversed ? pair.old : pair.new, newFile: "new.yaml")
            XCTAssertGreaterThan(report.changes.count, 18_000)
            let markdown = report.rendered(.markdown)
            XCTAssertLessThanOrEqual(markdown.utf8.count, 60_000, "reversed: \(reversed)")
            XCTAssertEqual(
                markdown.components(separatedBy: "<details").count,
                markdown.components(separatedBy: "</details>").count)
            XCTAssertTrue(markdown.contains("<summary><b>Breaks Swift code ("), "reversed: \(reversed)")
            XCTAssertTrue(markdown.contains("<summary><b>Breaks on the wire only (") || reversed)
            XCTAssertTrue(markdown.contains("Not every change is listed here"), String(markdown.suffix(1500)))
            XCTAssertFalse(markdown.contains("<b>|"), "raw spec text in HTML")
            let github = report.rendered(.github).split(separator: "\n")
            XCTAssertEqual(github.filter { $0.hasPrefix("::error") || $0.hasPrefix("::warning") }.count, 50)
            XCTAssertTrue(github.last?.contains("more breaking changes and warnings are not annotated") == true)
        }
    }
}
