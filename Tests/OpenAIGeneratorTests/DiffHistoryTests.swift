import Foundation
import OpenAIGeneratorOpenAPI
import XCTest
import OpenAISDKTestSupport

@testable import OpenAIGeneratorCore

/// `diff` on the real spec history in `../shared/spec/history/` (file names sort by date), then
/// the locked spec: every consecutive pair runs, twice with the same result, and a handful of
/// changes checked by hand (with Python's yaml module) between 2026-08-05 and 2026-08-13 are found.
final class DiffHistoryTests: XCTestCase {
    static let shared = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/spec")

    static func translated(_ url: URL) throws -> TranslatedSpec {
        let bytes = try [UInt8](Data(contentsOf: url))
        let document = try OpenAPILoader().load(bytes, file: url.lastPathComponent)
        return TranslatedSpec(document: document, model: try Translator().translate(document).model)
    }

    static func historyFiles() throws -> [URL] {
        let history = shared.appendingPathComponent("history")
        guard FileManager.default.fileExists(atPath: history.path) else {
            throw Unavailable.skip(
                "../shared/spec/history not found at \(history.path); the real-history diff tests need it")
        }
        return try FileManager.default.contentsOfDirectory(atPath: history.path).filter {
            $0.hasSuffix(".yaml")
        }.sorted()
            .map { history.appendingPathComponent($0) }
    }

    func testConsecutiveVersionsDiffWithStableCounts() throws {
        var files = try Self.historyFiles()
        let locked = Self.shared.appendingPathComponent("openapi.yaml")
        if FileManager.default.fileExists(atPath: locked.path) { files.append(locked) }
        XCTAssertGreaterThanOrEqual(files.count, 2)
        let specs = try files.map(Self.translated)
        let differ = SpecDiffer()
        for index in 1..<specs.count {
            let first = differ.compare(old: specs[index - 1], new: specs[index])
            let second = differ.compare(old: specs[index - 1], new: specs[index])
            XCTAssertEqual(first.counts, second.counts)
            XCTAssertEqual(first.changes, second.changes)
            XCTAssertGreaterThan(
                first.changes.count, 0,
                "\(files[index - 1].lastPathComponent) → \(files[index].lastPathComponent)")
            print(
                "diff \(files[index - 1].lastPathComponent) → \(files[index].lastPathComponent): "
                    + "\(first.counts.breaking) breaking, \(first.counts.warning) warning, \(first.counts.info) info"
            )
        }
    }

    func testHandVerifiedChangesBetweenAugust5And13() throws {
        let files = try Self.historyFiles()
        guard let old = files.first(where: { $0.lastPathComponent.hasPrefix("2026-08-05") }),
            let new = files.first(where: { $0.lastPathComponent.hasPrefix("2026-08-13") })
        else { throw Unavailable.skip("the 2026-08-05 and 2026-08-13 specs are not in ../shared/spec/history") }
        let report = SpecDiffer().compare(old: try Self.translated(old), new: try Self.translated(new))
        func find(_ kind: ChangeKind, _ pointer: String) -> SpecChange? {
            report.changes.first { $0.kind == kind && $0.pointer == pointer }
        }
        // GET /videos: no `deprecated` before, `deprecated: true` after.
        let deprecated = try XCTUnwrap(find(.operationDeprecated, "#/paths/~1videos/get"))
        XCTAssertEqual(deprecated.swiftDeclaration, "client.videos.list(limit:order:after:)")
        XCTAssertEqual(deprecated.severity, .warning)
        // AuditLogEventType gained tenant.workload_identity.access_token.issued (a response enum: warning).
        let enumValue = try XCTUnwrap(
            find(.enumValueAdded, "#/components/schemas/AuditLogEventType"))
        XCTAssertEqual(
            enumValue.message, "enum value \"tenant.workload_identity.access_token.issued\" added")
        XCTAssertEqual(enumValue.judgements.first { $0.audience == .wireResponse }?.severity, .warning)
        // ModelResponseProperties lost service_tier (read in responses: breaking).
        let removed = try XCTUnwrap(
            find(
                .propertyRemoved, "#/components/schemas/ModelResponseProperties/properties/service_tier"))
        XCTAssertEqual(removed.severity, .breaking)
        // BetaServiceTier is gone (its users now reference BetaServiceTierResponses).
        XCTAssertNotNil(find(.schemaRemoved, "#/components/schemas/BetaServiceTier"))
        XCTAssertNotNil(find(.schemaAdded, "#/components/schemas/ServiceTierResponses"))
        // The four added and one removed components, exactly.
        XCTAssertEqual(
            report.changes.filter { $0.kind == .schemaAdded }.map(\.pointer).sorted(),
            [
                "#/components/schemas/BetaResponsesWebSocketStreamEvent",
                "#/components/schemas/BetaServiceTierResponses",
                "#/components/schemas/ResponsesWebSocketStreamEvent",
                "#/components/schemas/ServiceTierResponses",
            ])
        // ResponsesServerEvent's variants gained `stream_id` through allOf; not reported as variants removed.
        XCTAssertTrue(
            report.changes.contains {
                $0.kind == .propertyAdded
                    && $0.pointer.hasPrefix("#/components/schemas/ResponsesServerEvent/anyOf/")
                    && $0.pointer.hasSuffix("/properties/stream_id")
            })
        XCTAssertFalse(
            report.changes.contains {
                $0.kind == .unionVariantRemoved
                    && $0.pointer.hasPrefix("#/components/schemas/ResponseStreamEvent/")
            })
        // `/responses/{response_id}?beta=true` was paired with `/responses/{response_id}` before
        // (3 false breaking `ref-changed`, 2 false `parameter-added`); it pairs with itself now and
        // did not change. ModelIdsShared is `anyOf: [string, enum]`: its new values are open.
        XCTAssertFalse(report.changes.contains { $0.pointer.contains("?beta=true") }, "\(report.changes)")
        XCTAssertEqual(
            report.changes.filter { $0.kind == .openEnumValueAdded }.map(\.pointer).sorted(),
            [
                "#/components/schemas/BetaModelIdsShared/anyOf/1",
                "#/components/schemas/ModelIdsShared/anyOf/1",
            ])
        XCTAssertEqual(report.counts, SpecDiffReport.Counts(breaking: 8, warning: 21, info: 114))
    }

    /// For the last three consecutive pairs: entries, renames, duplicates and the markdown's
    /// size, printed for the record; no duplicate entries, no Swift-type "renames" (every one
    /// reported by the position-matching diff between these versions was false), and markdown
    /// under GitHub's limit.
    func testConsecutivePairsHaveNoDuplicatesNoFalseRenamesAndFitAPullRequest() throws {
        var files = try Self.historyFiles()
        let locked = Self.shared.appendingPathComponent("openapi.yaml")
        if FileManager.default.fileExists(atPath: locked.path) { files.append(locked) }
        XCTAssertGreaterThanOrEqual(files.count, 4)
        let specs = try files.suffix(4).map(Self.translated)
        let names = files.suffix(4).map(\.lastPathComponent)
        for index in 1..<specs.count {
            let report = SpecDiffer().compare(old: specs[index - 1], new: specs[index])
            struct Key: Hashable {
                var kind: ChangeKind
                var pointer: String
                var message: String
            }
            let keys = report.changes.map { Key(kind: $0.kind, pointer: $0.pointer, message: $0.message) }
            let duplicates = keys.count - Set(keys).count
            let renames = report.changes.filter { $0.kind == .swiftTypeRenamed }
            let markdown = report.rendered(.markdown)
            print(
                "diff \(names[index - 1]) → \(names[index]): \(report.changes.count) entries, "
                    + "\(renames.count) Swift type renames, \(duplicates) duplicates, markdown \(markdown.utf8.count) bytes"
            )
            XCTAssertEqual(duplicates, 0)
            XCTAssertEqual(renames.map(\.message), [])
            XCTAssertLessThan(markdown.utf8.count, SpecDiffReport.pullRequestBodyLimit)
            // A beta path never pairs with its non-beta twin.
            XCTAssertFalse(
                report.changes.contains {
                    $0.kind == .swiftMethodRenamed && ($0.swiftDeclaration ?? "").contains("Beta")
                })
        }
    }

    /// The largest pair (the oldest history spec and the locked one, both ways, 2,000+ changes): the
    /// markdown stays under GitHub's 65,536-character limit, leads with the summary table and
    /// says what it left out.
    func testMarkdownOfTheLargestPairFitsAPullRequestBody() throws {
        let files = try Self.historyFiles()
        let locked = Self.shared.appendingPathComponent("openapi.yaml")
        guard let oldest = files.first, FileManager.default.fileExists(atPath: locked.path) else {
            throw Unavailable.skip("../shared/spec/openapi.yaml or the history is missing")
        }
        let specs = (old: try Self.translated(oldest), new: try Self.translated(locked))
        for (old, new) in [(specs.old, specs.new), (specs.new, specs.old)] {
            try checkLargestPair(SpecDiffer().compare(old: old, new: new))
        }
    }

    private func checkLargestPair(_ report: SpecDiffReport) throws {
        XCTAssertGreaterThan(report.changes.count, 2_000)
        let markdown = report.rendered(.markdown)
        print(
            "markdown \(report.oldLabel) → \(report.newLabel): \(markdown.utf8.count) bytes, \(markdown.count) characters, \(report.changes.count) changes"
        )
        XCTAssertLessThan(markdown.count, SpecDiffReport.pullRequestBodyLimit)
        XCTAssertLessThanOrEqual(markdown.utf8.count, 60_000)
        XCTAssertTrue(markdown.contains("| What | Changes | Areas |"))
        XCTAssertTrue(markdown.contains("the JSON report has all"), String(markdown.suffix(400)))
        // Every section that has changes keeps its fold.
        for title in ["Breaks Swift code", "Breaks on the wire only", "Warnings"] {
            XCTAssertTrue(markdown.contains("<summary><b>\(title) ("), "\(title) missing")
        }
        XCTAssertTrue(markdown.contains("### Everything else ("))
        // Operations added and removed lead, in a table of their own (at most 60 rows), before the counts.
        let operations = report.changes.filter { $0.kind == .operationAdded || $0.kind == .operationRemoved }
        XCTAssertGreaterThan(operations.count, 60)
        let section = try XCTUnwrap(markdown.range(of: "### Operations"))
        XCTAssertLessThan(
            section.lowerBound, try XCTUnwrap(markdown.range(of: "| What | Changes | Areas |")).lowerBound)
        XCTAssertTrue(markdown.contains("… and \(operations.count - 60) more operations (see the JSON report)."))
        let swiftBreaks = report.changes.filter { change in
            change.kind != .operationRemoved
                && change.judgements.contains { $0.audience == .swift && $0.severity == .breaking }
        }
        XCTAssertTrue(
            markdown.contains(
                "| **Breaks Swift code** (the generated API: code using it may stop compiling) | \(swiftBreaks.count) |"
            ))
        // Every line is whole: HTML folds are balanced.
        XCTAssertEqual(
            markdown.components(separatedBy: "<details").count, markdown.components(separatedBy: "</details>").count)
    }
}
