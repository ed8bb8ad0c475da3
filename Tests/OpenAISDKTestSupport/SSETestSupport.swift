import Foundation
import OpenAIRuntime
import XCTest

/// Helpers shared by the server-sent event tests of the runtime (`OpenAIRuntimeTests`) and of the generated streams
/// (`OpenAISDKTests`).
package enum SSETestSupport {
    /// Parses `bytes` fed as one chunk, then ends the stream.
    package static func parse(_ bytes: [UInt8]) -> [ServerSentEvent] {
        var parser = ServerSentEventParser()
        var events = parser.consume(bytes)
        events += parser.finish()
        return events
    }

    /// Parses the UTF-8 bytes of `text` fed as one chunk.
    package static func parse(_ text: String) -> [ServerSentEvent] {
        parse(Array(text.utf8))
    }

    /// Parses `bytes` split into chunks at the given increasing offsets.
    package static func parse(_ bytes: [UInt8], splitAt offsets: [Int]) -> [ServerSentEvent] {
        var parser = ServerSentEventParser()
        var events: [ServerSentEvent] = []
        var start = 0
        for offset in offsets + [bytes.count] {
            parser.consume(bytes[start..<offset], into: &events)
            start = offset
        }
        events += parser.finish()
        return events
    }

    /// Asserts that `bytes` gives `expected` one-shot, fed byte by byte, and split in two at every
    /// offset.
    package static func assertEverySplit(
        _ bytes: [UInt8],
        give expected: [ServerSentEvent],
        file: StaticString = #filePath,
        line: UInt = #line
    ) {
        XCTAssertEqual(parse(bytes), expected, "one chunk", file: file, line: line)
        XCTAssertEqual(parse(bytes, splitAt: Array(0..<bytes.count)), expected, "byte by byte", file: file, line: line)
        for offset in 0...bytes.count {
            let events = parse(bytes, splitAt: [offset])
            if events != expected {
                XCTFail("split at \(offset): \(events) != \(expected)", file: file, line: line)
                return
            }
        }
    }

    /// The folder `../shared/fixtures` beside the package root, resolved from this file's path
    /// (the package root is three levels above `Tests/OpenAISDKTestSupport/<file>`).
    package static func fixturesDirectory(filePath: String = #filePath) throws -> URL {
        let root = URL(fileURLWithPath: filePath)
            .deletingLastPathComponent()
            .deletingLastPathComponent()
            .deletingLastPathComponent()
        let fixtures = root.deletingLastPathComponent().appendingPathComponent("shared/fixtures")
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: fixtures.path, isDirectory: &isDirectory), isDirectory.boolValue
        else {
            throw Unavailable.skip(
                "recorded traffic not found at \(fixtures.path) (expected ../shared/fixtures beside the package)")
        }
        return fixtures
    }

    /// Every `.sse` file under the fixtures folder, as paths relative to it, sorted.
    package static func sseFixtures(in directory: URL) throws -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: directory.path) else {
            throw Unavailable.skip("cannot list \(directory.path)")
        }
        let paths = enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".sse") }.sorted()
        if paths.isEmpty { throw Unavailable.skip("no .sse fixtures under \(directory.path)") }
        return paths
    }
}
