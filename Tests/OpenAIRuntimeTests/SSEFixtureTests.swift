import Foundation
import OpenAIRuntime
import XCTest
import OpenAISDKTestSupport

/// The parser on every recorded `.sse` body in `../shared/fixtures` (real OpenAI traffic, see
/// `PROVENANCE.md` there): checked against an independent line-based reading, and fed split at
/// every byte offset (files under 16 KiB) or at seeded random offsets (larger files).
final class SSEFixtureTests: XCTestCase {
    /// Files smaller than this many bytes are split at every offset; larger ones at
    /// ``randomSplitCount`` seeded random offsets (and 100 multi-way splits). 16 KiB keeps the test
    /// at a few seconds in a debug build on two cores. `SSE_SPLIT_EXHAUSTIVE=1` splits every file at
    /// every offset; `SSE_SPLIT_EXHAUSTIVE_LIMIT` (bytes) and `SSE_SPLIT_RANDOM` (count) tune it.
    private static let exhaustiveSplitLimit: Int = {
        let environment = ProcessInfo.processInfo.environment
        if environment["SSE_SPLIT_EXHAUSTIVE"] == "1" { return Int.max }
        return environment["SSE_SPLIT_EXHAUSTIVE_LIMIT"].flatMap { Int($0) } ?? 16 * 1024
    }()

    /// Random single splits per file above ``exhaustiveSplitLimit`` (1,000 unless `SSE_SPLIT_RANDOM`).
    private static let randomSplitCount =
        ProcessInfo.processInfo.environment["SSE_SPLIT_RANDOM"].flatMap { Int($0) } ?? 1000

    private func loadFixtures() throws -> [(path: String, bytes: [UInt8])] {
        let directory = try SSETestSupport.fixturesDirectory()
        return try SSETestSupport.sseFixtures(in: directory).map { path in
            (path, Array(try Data(contentsOf: directory.appendingPathComponent(path))))
        }
    }

    /// A deliberately naive reading of a body whose lines are only `event:`/`data:` fields,
    /// comments and blank lines: split into lines on CR LF / LF / CR, collect each block up to
    /// a blank line, count the blocks that have a `data` line.
    private func naiveEvents(_ bytes: [UInt8]) -> [(event: String?, data: String)] {
        let text = String(decoding: bytes, as: UTF8.self)
            .replacingOccurrences(of: "\r\n", with: "\n")
            .replacingOccurrences(of: "\r", with: "\n")
        var result: [(event: String?, data: String)] = []
        var event: String?
        var dataLines: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.isEmpty {
                if !dataLines.isEmpty { result.append((event, dataLines.joined(separator: "\n"))) }
                event = nil
                dataLines = []
            } else if line.hasPrefix("data: ") {
                dataLines.append(String(line.dropFirst(6)))
            } else if line.hasPrefix("event: ") {
                event = String(line.dropFirst(7))
            }
        }
        return result
    }

    func testRecordedStreamsMatchIndependentLineBasedReading() throws {
        let fixtures = try loadFixtures()
        var totalEvents = 0
        for (path, bytes) in fixtures {
            let events = SSETestSupport.parse(bytes)
            let expected = naiveEvents(bytes)
            XCTAssertGreaterThan(events.count, 0, path)
            XCTAssertEqual(events.count, expected.count, "event count of \(path)")
            XCTAssertEqual(events.map(\.event), expected.map(\.event), "event names of \(path)")
            XCTAssertEqual(events.map(\.data), expected.map(\.data), "data of \(path)")
            XCTAssertTrue(events.allSatisfy { $0.id == nil && $0.retry == nil }, path)
            totalEvents += events.count
        }
        XCTAssertGreaterThanOrEqual(fixtures.count, 100, "expected the full recorded corpus")
        print("SSEFixtureTests: \(fixtures.count) .sse fixtures, \(totalEvents) events")
    }

    func testChatCompletionStreamEventsAndDoneSentinel() throws {
        let directory = try SSETestSupport.fixturesDirectory()
        let url = directory.appendingPathComponent("chat-completions/stream/py-plain-text.sse")
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw Unavailable.skip("missing \(url.path)")
        }
        let events = SSETestSupport.parse(Array(data))
        XCTAssertEqual(events.count, 34)
        XCTAssertEqual(
            events.first?.data,
            #"{"id":"chatcmpl-ABfw031mOJeYCSHe4yI2ZjOA6kMJL","object":"chat.completion.chunk","created":1727346168,"#
                + #""model":"gpt-4o-2024-08-06","system_fingerprint":"fp_5050236cbd","choices":[{"index":0,"#
                + #""delta":{"role":"assistant","content":"","refusal":null},"logprobs":null,"finish_reason":null}]}"#
        )
        XCTAssertEqual(events.last?.data, "[DONE]")
        XCTAssertTrue(events.allSatisfy { $0.event == nil })
    }

    func testResponsesStreamEventNames() throws {
        let directory = try SSETestSupport.fixturesDirectory()
        let url = directory.appendingPathComponent("responses/stream/dotnet-text-basic.sse")
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw Unavailable.skip("missing \(url.path)")
        }
        let events = SSETestSupport.parse(Array(data))
        XCTAssertEqual(
            events.map(\.event),
            ["response.created", "response.in_progress", "response.output_item.added", "response.content_part.added"]
                + Array(repeating: "response.output_text.delta", count: 9)
                + [
                    "response.output_text.done", "response.content_part.done", "response.output_item.done",
                    "response.completed",
                ]
        )
        XCTAssertTrue(
            events[0].data.hasPrefix(
                #"{"type":"response.created","sequence_number":0,"response":{"id":"resp_0b70e4946283a4df"#))
    }

    func testCRLFTranscriptionStream() throws {
        let directory = try SSETestSupport.fixturesDirectory()
        let url = directory.appendingPathComponent("audio/stream/dotnet-transcription-deltas-crlf.sse")
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw Unavailable.skip("missing \(url.path)")
        }
        let events = SSETestSupport.parse(Array(data))
        XCTAssertEqual(events.count, 10)
        XCTAssertEqual(events.first?.data, #"{"type":"transcript.text.delta","delta":"Hello"}"#)
        XCTAssertEqual(events.last?.data, "[DONE]")
        XCTAssertFalse(events.contains { $0.data.contains("\r") })
    }

    func testRecordedStreamsGiveIdenticalEventsWhenSplitAnywhere() throws {
        let fixtures = try loadFixtures()
        var generator = SeededRandom(seed: 0x5EE_5EED)
        var exhaustive = 0
        var sampled = 0
        for (path, bytes) in fixtures {
            let expected = SSETestSupport.parse(bytes)
            if bytes.count < Self.exhaustiveSplitLimit {
                exhaustive += 1
                try assertSplits(bytes, at: (1..<bytes.count).map { [$0] }, expected: expected, path: path)
            } else {
                sampled += 1
                let single = (0..<Self.randomSplitCount).map { _ in [Int.random(in: 1..<bytes.count, using: &generator)]
                }
                try assertSplits(bytes, at: single, expected: expected, path: path)
                let multi = (0..<100).map { _ in
                    let count = Int.random(in: 2...400, using: &generator)
                    return Set((0..<count).map { _ in Int.random(in: 1..<bytes.count, using: &generator) }).sorted()
                }
                try assertSplits(bytes, at: multi, expected: expected, path: path)
            }
        }
        XCTAssertGreaterThan(exhaustive, 0)
        print(
            "SSEFixtureTests: \(exhaustive) fixtures split at every offset, \(sampled) at "
                + "\(Self.randomSplitCount) + 100 seeded random splits")
    }

    private func assertSplits(_ bytes: [UInt8], at splits: [[Int]], expected: [ServerSentEvent], path: String) throws {
        for offsets in splits {
            let events = SSETestSupport.parse(bytes, splitAt: offsets)
            if events != expected {
                XCTFail("\(path) split at \(offsets.prefix(10)): \(events.count) events, expected \(expected.count)")
                return
            }
        }
    }
}
