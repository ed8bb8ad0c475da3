import Foundation
import XCTest

@testable import OpenAI
@testable import OpenAIRuntime

/// `parseStream` costs memory linear in the output, whoever consumes it (issue "field
/// reliability": a 100 KB answer read at 1 ms per event peaked at 2.4 GB): its iterator reads the
/// connection only when asked for an event (counted here: the chunks the transport hands out), and
/// a partial shares the stream's text instead of copying it (`Scripts/bench/bench-accumulators.sh`
/// measures the peak RSS of both).
final class StructuredOutputStreamCostTests: XCTestCase {
    private struct Answer: Decodable, Sendable {
        var answer: String
    }

    /// Hands out a body one chunk at a time, when the stream asks, and counts them.
    private final class CountingTransport: HTTPTransport, Sendable {
        private let chunks: [Data]
        private let servedCount = Locked(0)

        init(_ chunks: [Data]) {
            self.chunks = chunks
        }

        /// How many chunks the stream has asked for.
        var served: Int { servedCount.withLock { $0 } }

        func send(_ request: HTTPRequest, timeouts: HTTPTimeouts) async throws -> HTTPResponse {
            throw OpenAIError(kind: .connection, message: "CountingTransport only streams")
        }

        func stream(_ request: HTTPRequest, timeouts: HTTPTimeouts) async throws -> HTTPStreamingResponse {
            let body = AsyncThrowingStream<Data, any Error>(unfolding: { [self] in
                servedCount.withLock { served in
                    guard served < chunks.count else { return nil }
                    served += 1
                    return chunks[served - 1]
                }
            })
            return HTTPStreamingResponse(statusCode: 200, headers: [:], body: body)
        }
    }

    /// `{"answer":"…"}` streamed as chat chunks, one chunk of the body per event: the role, the
    /// opening, `count` deltas of 4 characters, the closing, the finish reason and `[DONE]`.
    private static func chatChunks(deltas count: Int) -> (chunks: [Data], answer: String) {
        let pieces = (0..<count).map { String(format: "%04d", $0) }
        let head =
            #"{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"gpt-4o","choices":[{"index":0,"delta":{"#
        var frames = ["data: \(head)\"role\":\"assistant\",\"content\":\"\"},\"finish_reason\":null}]}\n\n"]
        for delta in [#"{\"answer\":\""#] + pieces + [#"\"}"#] {
            frames.append("data: \(head)\"content\":\"\(delta)\"},\"finish_reason\":null}]}\n\n")
        }
        frames.append("data: \(head)},\"finish_reason\":\"stop\"}]}\n\n")
        frames.append("data: [DONE]\n\n")
        return (frames.map { Data($0.utf8) }, pieces.joined())
    }

    private static let request = CreateChatCompletionRequest(
        messages: [.user(.init(content: "Hi"))], model: "gpt-4o-mini")

    func testParseStreamReadsTheConnectionOnlyWhenTheConsumerAsks() async throws {
        let (chunks, answer) = Self.chatChunks(deltas: 200)
        let transport = CountingTransport(chunks)
        let client = try StreamingTestSupport.client(transport, maxRetries: 0)
        var events = try client.chat.completions.parseStream(Self.request, as: Answer.self).makeAsyncIterator()
        guard case .partial(let first)? = try await events.next() else { return XCTFail("no first partial") }
        XCTAssertEqual(first.text, #"{"answer":""#)
        // A consumer busy elsewhere: a producer running ahead would read the whole body meanwhile.
        try await Task.sleep(nanoseconds: 200_000_000)
        XCTAssertEqual(transport.served, 2, "the role chunk and the opening, nothing read ahead")
        var partials = 1
        var readAhead = 0
        var output: String?
        while let event = try await events.next() {
            switch event {
            case .partial(let partial):
                partials += 1
                readAhead = max(readAhead, transport.served - (partials + 1))
                if partials <= 201 { XCTAssertTrue(partial.text.hasSuffix(String(format: "%04d", partials - 2))) }
            case .completed(let parsed): output = parsed.output?.answer
            }
        }
        XCTAssertEqual(readAhead, 0, "one chunk read per partial")
        XCTAssertEqual(partials, 202, "the opening, 200 deltas and the closing each changed the value")
        XCTAssertEqual(output, answer)
        XCTAssertEqual(transport.served, chunks.count)
    }

    func testPartialsKeptByTheConsumerEachGiveTheirOwnTextAndValue() async throws {
        // The partials share the stream's text; each reads its own part of it, the newest its value
        // from the decoder, the older ones by parsing their text again.
        let (chunks, answer) = Self.chatChunks(deltas: 3_000)
        let client = try StreamingTestSupport.client(CountingTransport(chunks), maxRetries: 0)
        var partials: [PartialOutput<Answer>] = []
        var newest: [JSONValue] = []
        for try await event in try client.chat.completions.parseStream(Self.request, as: Answer.self) {
            guard case .partial(let partial) = event else { continue }
            partials.append(partial)
            if partials.count % 500 == 0 { newest.append(partial.json) }
        }
        XCTAssertEqual(partials.count, 3_002)
        XCTAssertEqual(newest, (1...6).map { ["answer": .string(String(answer.prefix(4 * (500 * $0 - 1))))] })

        XCTAssertEqual(partials.last?.text, #"{"answer":"\#(answer)"}"#)
        XCTAssertEqual(partials.last?.value()?.answer, answer)
        for (index, partial) in partials.enumerated().dropFirst().dropLast() {
            let soFar = String(answer.prefix(4 * index))
            XCTAssertEqual(partial.text, #"{"answer":"\#(soFar)"#)
            XCTAssertEqual(partial.json, ["answer": .string(soFar)])
        }
        XCTAssertEqual(partials.first?.json, ["answer": ""])

        // Setting the text leaves the value, as the stored properties did.
        var edited = try XCTUnwrap(partials.first)
        edited.text = "edited"
        XCTAssertEqual(edited.text, "edited")
        XCTAssertEqual(edited.json, ["answer": ""])
        XCTAssertEqual(partials.first?.text, #"{"answer":""#, "a copy keeps its text")
    }
}
