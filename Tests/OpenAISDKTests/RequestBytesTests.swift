import Foundation
import OpenAISDKTestSupport
import XCTest

@testable import OpenAI
@testable import OpenAIRuntime

/// The same request gives the same bytes in every process: prompt caching matches a byte
/// prefix, and a model writes structured output in its schema's order.
final class RequestBytesTests: XCTestCase {
    /// The structured-output body (`responses.parse` with `Answer`): members in the spec's order,
    /// the schema's `properties` in `Answer`'s declaration order.
    static let structuredOutputBody =
        #"{"model":"gpt-4.1","text":{"format":{"type":"json_schema","name":"Answer","schema":{"type":"object","properties":{"reasoning":{"type":"string"},"answer":{"type":"string"},"confidence":{"type":"number"},"unit":{"type":["string","null"]}},"required":["reasoning","answer","confidence","unit"],"additionalProperties":false},"strict":true}},"input":"How tall is Mount Everest?"}"#

    func testFiveFreshProcessesSendTheSameBytesAndTheGoldenBody() throws {
        let probe = try Self.probe()
        var outputs: Set<String> = []
        for _ in 0..<5 {
            let process = Process()
            process.executableURL = probe
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0)
            outputs.insert(String(decoding: data, as: UTF8.self))
        }
        XCTAssertEqual(outputs.count, 1, "distinct request bodies over 5 processes: \(outputs.count)")
        let lines = try XCTUnwrap(outputs.first).split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 2)
        XCTAssertEqual(lines.first, Self.structuredOutputBody)
        // The tools request: members in the spec's order, the tool's schema in `Weather`'s order,
        // the metadata dictionary sorted.
        let tools = try JSONValue(parsing: Data(lines[1].utf8))
        XCTAssertEqual(
            tools.objectValue?.keys, ["metadata", "messages", "model", "tools", "tool_choice", "parallel_tool_calls"])
        XCTAssertEqual(tools["metadata"]?.objectValue?.keys, ["app", "team"])
        XCTAssertEqual(
            tools["tools"]?[0]?["function"]?["parameters"]?["properties"]?.objectValue?.keys,
            ["city", "country", "unit", "days"])
    }

    /// The probe executable beside the test bundle (`swift build` builds it with the tests).
    static func probe() throws -> URL {
        let bundle = Bundle(for: RequestBytesTests.self).bundleURL
        for folder in [bundle, bundle.deletingLastPathComponent()] {
            let url = folder.appendingPathComponent("openai-request-bytes")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        throw Unavailable.skip("openai-request-bytes is not built beside \(bundle.path): run swift build --build-tests")
    }
}
