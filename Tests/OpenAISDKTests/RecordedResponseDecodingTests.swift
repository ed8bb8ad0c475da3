import Foundation
import OpenAISDKTestSupport
import XCTest
import OpenAIYAML

@testable import OpenAI
@testable import OpenAIRuntime

/// Conformance on recorded real traffic: every recorded 2xx JSON body in `../shared/fixtures`
/// decodes into the generated reply type of the operation that produced it.
final class RecordedResponseDecodingTests: XCTestCase {
    /// Fixtures recorded without their request line: the operation they answer, by folder.
    static let operationByFolder: [String: String] = [
        "chat-completions/json": "createChatCompletion",
        "completions/json": "createCompletion",
        "embeddings/json": "createEmbedding",
        "images/json": "createImage",
        "responses/json": "createResponse",
        "audio/json": "createTranscription",
        "skills/json": "CreateSkill",
    ]

    func testEveryRecordedJSONReplyDecodesIntoItsOperationsReplyType() throws {
        let provenance = try String(contentsOf: try SharedData.file("fixtures/PROVENANCE.md"), encoding: .utf8)
        let specURL = try SharedData.generatedFromSpec()
        let routes = try Self.routes(specURL)
        let fixtures = try SharedData.file("fixtures")
        var decoded: [String] = []
        var failures: [String] = []
        var noReplyType: [String] = []
        var deviations: [String] = []
        for line in provenance.split(separator: "\n") where line.hasPrefix("- `") && line.contains("` — ") {
            let path = String(line.dropFirst(3).prefix { $0 != "`" })
            guard path.hasSuffix(".json"), !path.hasSuffix(".meta.json"), !path.hasPrefix("errors/"),
                !path.contains("spec-examples"), !path.hasPrefix("webhooks/"), !path.hasPrefix("realtime/")
            else { continue }
            var operationID: String?
            if let request = line.firstMatch(of: #/\[(GET|POST|DELETE|PUT|PATCH) (\S+) -> /#) {
                operationID = Self.match(method: String(request.1), url: String(request.2), routes: routes)
            }
            if operationID == nil {
                let folder = path.split(separator: "/").prefix(2).joined(separator: "/")
                operationID = Self.operationByFolder[folder]
            }
            guard let operationID else {
                failures.append("\(path): no operation found for it")
                continue
            }
            guard let type = replyType(of: operationID) else {
                // The spec documents no JSON reply (e.g. DeleteContainer): the method returns nothing.
                noReplyType.append("\(path) (\(operationID))")
                continue
            }
            let data = try Data(contentsOf: fixtures.appendingPathComponent(path))
            do {
                let value = try SpecExampleDecodingTests.decode(type, from: data)
                decoded.append(path)
                // Real replies match the spec (with the corrections in Spec/overrides.json): no
                // deviation, and strict mode decodes them too.
                let audit = DecodingAudit(value)
                if !audit.report.isEmpty { deviations.append("\(path): \(audit.report)") }
                _ = try SpecExampleDecodingTests.decode(type, from: data, mode: .strict)
            } catch {
                failures.append("\(path) as \(operationID): \(SpecExampleDecodingTests.describe(error))")
            }
        }
        print(
            "recorded JSON replies: \(decoded.count) decoded, \(deviations.count) with deviations, \(failures.count) failed, \(noReplyType.count) for operations whose spec documents no JSON reply: \(noReplyType.joined(separator: ", "))"
        )
        for failure in failures { print("  FAIL \(failure)") }
        for line in deviations { print("  DEVIATION \(line)") }
        XCTAssertGreaterThan(decoded.count, 80)
        XCTAssertEqual(failures, [])
        XCTAssertEqual(deviations, [])
    }

    /// (method, path pattern split in segments, operationId) for every operation of the spec.
    static func routes(_ url: URL) throws -> [(String, [Substring], String)] {
        let document = try YAMLParser().parse([UInt8](try Data(contentsOf: url)), file: url.path)
        var result: [(String, [Substring], String)] = []
        for path in document.root["paths"]?.mapping ?? [] where !path.key.contains("?") {
            for method in path.value.mapping ?? [] {
                guard let operationID = method.value["operationId"]?.scalarText else { continue }
                result.append((method.key.uppercased(), path.key.split(separator: "/"), operationID))
            }
        }
        return result
    }

    /// The operation whose path template matches `url` (`https://api.openai.com/v1/...`).
    static func match(method: String, url: String, routes: [(String, [Substring], String)]) -> String? {
        guard let range = url.range(of: "/v1/") else { return nil }
        let path = url[range.upperBound...].prefix { $0 != "?" }
        let segments = path.split(separator: "/")
        let candidates = routes.filter { route in
            route.0 == method && route.1.count == segments.count
                && zip(route.1, segments).allSatisfy { $0.hasPrefix("{") || $0 == $1 }
        }
        // Prefer the template with the most literal segments (`/files/{id}/content` over `/{a}/{b}/{c}`).
        return candidates.max { lhs, rhs in
            lhs.1.filter { !$0.hasPrefix("{") }.count < rhs.1.filter { !$0.hasPrefix("{") }.count
        }?.2
    }
}
