import Foundation
import OpenAIRuntime
import XCTest

/// ``ServerSentEventStream`` over chunked async sources and the typed ``ServerSentEventDecoder``
/// rules (`[DONE]` finishes, empty data is skipped, the error hook ends the stream).
final class SSEStreamTests: XCTestCase {
    private struct Chunk: Decodable, Equatable, Sendable {
        var n: Int
    }

    private struct HookError: Error, Equatable {
        var message: String
    }

    private func chunks(_ parts: [[UInt8]]) -> AsyncStream<[UInt8]> {
        AsyncStream { continuation in
            for part in parts { continuation.yield(part) }
            continuation.finish()
        }
    }

    func testStreamOfByteArrayChunksYieldsEventsSplitAcrossChunks() async throws {
        let body = Array("event: a\r\ndata: {\"n\":1}\r".utf8) + Array("\n\r\n: keep-alive\n\ndata: é".utf8).dropLast()
        let rest = [Array("é".utf8).last!] + Array("\n\n".utf8)
        var events: [ServerSentEvent] = []
        for try await event in chunks([Array(body.prefix(9)), Array(body.dropFirst(9)), rest]).serverSentEvents {
            events.append(event)
        }
        XCTAssertEqual(events, [ServerSentEvent(event: "a", data: "{\"n\":1}"), ServerSentEvent(data: "é")])
    }

    func testStreamOfDataChunks() async throws {
        let stream = AsyncStream<Data> { continuation in
            continuation.yield(Data("data: 1\n".utf8))
            continuation.yield(Data("\ndata: 2\n\ndata: incomplete\n".utf8))
            continuation.finish()
        }
        var data: [String] = []
        for try await event in ServerSentEventStream(stream) { data.append(event.data) }
        XCTAssertEqual(data, ["1", "2"])
    }

    func testStreamPassesInitialLastEventID() async throws {
        var ids: [String?] = []
        for try await event in ServerSentEventStream(
            chunks([Array("data: a\n\nid: 5\ndata: b\n\n".utf8)]), lastEventID: "4")
        {
            ids.append(event.id)
        }
        XCTAssertEqual(ids, ["4", "5"])
    }

    func testStreamRethrowsBaseError() async throws {
        struct TransportError: Error {}
        let stream = AsyncThrowingStream<[UInt8], any Error> { continuation in
            continuation.yield(Array("data: a\n\n".utf8))
            continuation.finish(throwing: TransportError())
        }
        var iterator = stream.serverSentEvents.makeAsyncIterator()
        let first = try await iterator.next()
        XCTAssertEqual(first?.data, "a")
        do {
            _ = try await iterator.next()
            XCTFail("expected the transport error")
        } catch {
            XCTAssertTrue(error is TransportError)
        }
    }

    func testDecoderRules() throws {
        let decoder = ServerSentEventDecoder<Chunk>.json()
        XCTAssertEqual(try decoder.step(for: ServerSentEvent(data: #"{"n":3}"#)), .element(Chunk(n: 3)))
        XCTAssertEqual(try decoder.step(for: ServerSentEvent(data: "[DONE]")), .finish)
        XCTAssertEqual(try decoder.step(for: ServerSentEvent(event: "done", data: "[DONE]")), .finish)
        XCTAssertEqual(try decoder.step(for: ServerSentEvent(data: "")), .skip)
        XCTAssertThrowsError(try decoder.step(for: ServerSentEvent(data: "not json"))) { error in
            XCTAssertTrue(error is DecodingError)
        }
    }

    func testTypedStreamSkipsEmptyDataAndFinishesAtDone() async throws {
        let body =
            "data: {\"n\":1}\n\nretry: 3000\n\n: keep-alive\n\ndata\n\ndata: {\"n\":2}\n\ndata: [DONE]\n\ndata: {\"n\":3}\n\n"
        let stream = chunks([Array(body.utf8)]).serverSentEvents.decoded(with: .json(Chunk.self))
        var elements: [Chunk] = []
        for try await element in stream { elements.append(element) }
        XCTAssertEqual(elements, [Chunk(n: 1), Chunk(n: 2)])
    }

    func testErrorHookEndsStreamWithItsError() async throws {
        let decoder = ServerSentEventDecoder<Chunk>.json(errorHook: { event in
            if event.event == "error" { throw HookError(message: event.data) }
        })
        let body =
            "data: {\"n\":1}\n\nevent: error\ndata: {\"type\":\"error\",\"code\":\"server_error\"}\n\ndata: {\"n\":2}\n\n"
        var iterator = chunks([Array(body.utf8)]).serverSentEvents.decoded(with: decoder).makeAsyncIterator()
        let first = try await iterator.next()
        XCTAssertEqual(first, Chunk(n: 1))
        do {
            _ = try await iterator.next()
            XCTFail("expected the hook's error")
        } catch let error as HookError {
            XCTAssertEqual(error.message, #"{"type":"error","code":"server_error"}"#)
        }
        let afterError = try await iterator.next()
        XCTAssertNil(afterError)
    }

    func testCustomTransformCanSkipAndFinish() async throws {
        let decoder = ServerSentEventDecoder<String> { event in
            switch event.event {
            case "ping": return .skip
            case "end": return .finish
            default: return .element(event.data)
            }
        }
        let body = "data: a\n\nevent: ping\ndata: p\n\ndata: b\n\nevent: end\ndata: x\n\ndata: c\n\n"
        var elements: [String] = []
        for try await element in chunks([Array(body.utf8)]).serverSentEvents.decoded(with: decoder) {
            elements.append(element)
        }
        XCTAssertEqual(elements, ["a", "b"])
    }
}
