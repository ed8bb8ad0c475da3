import Foundation
import OpenAICLI
import OpenAISDKTestSupport
import XCTest

/// Every operation of the locked spec called through the `openai` tool's flags, as a person types
/// them, against the spec-validating test server.
final class CLISweepTests: XCTestCase {
    /// For each operation: the path parameters, required query and header parameters and the
    /// minimal valid body of its media type (``CLIHarness/examples()``) as flags (files as
    /// `@path`); the run must exit 0 and the server must record one request of that operationId
    /// that it validated.
    func testEveryOperationRunsFromItsFlags() async throws {
        let server = try TestServer.shared()
        let examples = try CLIHarness.examples()
        let catalogue = Catalogue.shared
        XCTAssertEqual(catalogue.operations.count, 288, "the locked spec's operations")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cli-sweep-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let upload = folder.appendingPathComponent("upload.bin")
        try Data("example file content\n".utf8).write(to: upload)

        var validated = 0
        var failures: [String] = []
        for operation in catalogue.operations {
            guard let example = examples[operation.id] else {
                failures.append("\(operation.id): no example")
                continue
            }
            var words = operation.command.split(separator: " ").map(String.init)
            for parameter in example["parameters"]?.array ?? [] {
                guard let name = parameter["name"]?.string, let value = parameter["value"],
                    let flag = operation.parameters.first(where: {
                        $0.name == name && $0.location.rawValue == parameter["in"]?.string
                    })
                else {
                    failures.append("\(operation.id): no flag for the parameter \(parameter.compact)")
                    continue
                }
                words += ["--" + flag.flag, Self.word(value)]
            }
            if let body = operation.body, let value = example["bodies"]?[body.contentType] {
                guard case .object(let members) = value else {
                    failures.append("\(operation.id): the example body is not an object")
                    continue
                }
                for member in members {
                    guard let flag = body.members.first(where: { $0.name == member.key }) else {
                        failures.append("\(operation.id): no flag for the body member \(member.key)")
                        continue
                    }
                    if flag.schema.isFile {
                        words += ["--" + flag.flag, "@" + upload.path]
                    } else if flag.schema.type == "boolean" {
                        words.append("--\(flag.flag)=\(member.value.compact)")
                    } else {
                        words += ["--" + flag.flag, Self.word(member.value)]
                    }
                }
            }
            let scenario = TestServer.scenario("cli-sweep-\(operation.id)")
            let outcome = await CLIHarness.run(
                words + ["--format", "json"], environment: CLIHarness.environment(server, scenario: scenario))
            let records = try await server.requests(scenario: scenario)
            let record = records.last
            // A list operation pages on while the documented example it gets says `has_more`.
            let expected = operation.page == nil ? 1...1 : 1...10
            if outcome.status == 0, expected.contains(records.count),
                records.allSatisfy({ $0.operationID == operation.id && $0.validation == "ok" })
            {
                validated += 1
            } else {
                let errors = record?.validationErrors.map { "\($0)" } ?? []
                let command = words.joined(separator: " ")
                var line = "\(operation.id) (`openai \(command)`): status \(outcome.status), \(records.count) requests"
                line += ", operation \(record?.operationID ?? "-"), validation \(record?.validation ?? "-") \(errors); "
                line += String(outcome.error.prefix(300))
                failures.append(line)
            }
        }
        XCTAssertEqual(failures, [], failures.joined(separator: "\n"))
        XCTAssertEqual(validated, 288, "operations called from their flags and validated by the server")
    }

    /// A value as one command-line word: strings as they are (a leading `@` escaped), the rest as
    /// compact JSON.
    static func word(_ value: JSON) -> String {
        if case .string(let text) = value { return text.hasPrefix("@") ? "\\" + text : text }
        return value.compact
    }
}
