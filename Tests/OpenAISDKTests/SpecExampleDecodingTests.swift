import Foundation
import OpenAISDKTestSupport
import XCTest
import OpenAIYAML

@testable import OpenAI
@testable import OpenAIRuntime

/// Every response example in the spec's `x-oaiMeta` decodes into its operation's generated
/// reply type.
final class SpecExampleDecodingTests: XCTestCase {
    func testEveryJSONResponseExampleDecodesIntoItsOperationsReplyType() throws {
        let url = try SharedData.generatedFromSpec()
        let document = try YAMLParser().parse([UInt8](try Data(contentsOf: url)), file: url.path)
        var total = 0
        var notJSON = 0
        var decoded = 0
        var strictDecoded = 0
        var withDeviations: [String] = []
        var withUnknowns: [String] = []
        var failures: [String] = []
        for path in document.root["paths"]?.mapping ?? [] {
            for method in path.value.mapping ?? [] {
                guard let operationID = method.value["operationId"]?.scalarText,
                    let examples = method.value["x-oaiMeta"]?["examples"]
                else { continue }
                for example in examples.sequence ?? [examples] {
                    guard let response = example["response"]?.scalarText else { continue }
                    total += 1
                    let data = Data(response.utf8)
                    guard (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) != nil else {
                        notJSON += 1
                        continue
                    }
                    guard let type = replyType(of: operationID) else {
                        failures.append("\(operationID): the reply is not JSON in the spec, but the example is")
                        continue
                    }
                    let value: any Decodable
                    do {
                        value = try Self.decode(type, from: data)
                        decoded += 1
                    } catch {
                        failures.append("\(operationID): \(Self.describe(error))")
                        continue
                    }
                    let audit = DecodingAudit(value)
                    if !audit.report.isEmpty {
                        withDeviations.append(
                            "\(operationID): " + audit.report.entries.map(\.description).joined(separator: " | "))
                    }
                    if !audit.unknownPaths.isEmpty {
                        withUnknowns.append("\(operationID): unknown at \(audit.unknownPaths.joined(separator: ", "))")
                    }
                    // Strict mode throws exactly when lenient mode recorded a deviation.
                    let strict = (try? Self.decode(type, from: data, mode: .strict)) != nil
                    if strict { strictDecoded += 1 }
                    if strict && !audit.report.isEmpty {
                        failures.append("\(operationID): strict mode accepted \(audit.report)")
                    }
                    if !strict && audit.report.isEmpty {
                        failures.append("\(operationID): strict mode failed but lenient mode recorded nothing")
                    }
                }
            }
        }
        print(
            "spec response examples: \(total) in all, \(notJSON) not JSON, \(decoded) decoded (\(strictDecoded) in strict mode), "
                + "\(withDeviations.count) with deviations, \(withUnknowns.count) with unknown variants, \(failures.count) failed"
        )
        for failure in failures { print("  FAIL \(failure)") }
        for line in withDeviations { print("  DEVIATION \(line)") }
        for line in withUnknowns { print("  UNKNOWN \(line)") }
        XCTAssertGreaterThan(total, 250)
        // Every JSON example decodes; the failures left are listed in `examplesWithoutAJSONReply`
        // with their reason.
        let failingOperations = Set(failures.map { String($0.prefix { $0 != ":" }) })
        XCTAssertEqual(failingOperations.subtracting(Self.examplesWithoutAJSONReply), [], "\(failures)")
        XCTAssertEqual(decoded, total - notJSON - failures.count)
        XCTAssertGreaterThanOrEqual(decoded, 264)
        // The strict count is what the SDK decoded before the lenient mode (223 of 268).
        XCTAssertGreaterThanOrEqual(strictDecoded, 223)
        XCTAssertLessThan(strictDecoded, decoded)
    }

    /// Operations whose spec documents no JSON reply although the example shows one: the
    /// generated method returns nothing, so there is nothing to decode the example into.
    static let examplesWithoutAJSONReply: Set<String> = [
        "DeleteContainer", "DeleteContainerFile", "deleteResponse", "beta_deleteResponse",
    ]

    static func decode<T: Decodable>(_ type: T.Type, from data: Data, mode: DecodingMode = .lenient) throws -> T {
        let decoder = JSONDecoder()
        decoder.userInfo[.openAIDecodingMode] = mode
        return try decoder.decode(T.self, from: data)
    }

    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        func path(_ keys: [any CodingKey]) -> String {
            keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        }
        switch error {
        case .keyNotFound(let key, let context): return "missing \(path(context.codingPath + [key]))"
        case .typeMismatch(let type, let context):
            return "type mismatch at \(path(context.codingPath)): expected \(type); \(context.debugDescription)"
        case .valueNotFound(let type, let context): return "null at \(path(context.codingPath)) for \(type)"
        case .dataCorrupted(let context): return "corrupted at \(path(context.codingPath)): \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }
}
