import Foundation
import OpenAISDKTestSupport
import XCTest

@testable import OpenAIRuntime

/// Back-pressure between the transport and the reader of a streamed body (`StreamedBody`): a
/// reader slower than the network holds a bounded number of bytes, and the server is slowed to
/// its pace, however long the body.
final class StreamBackPressureTests: XCTestCase {
    // MARK: StreamedBody

    func testAWaitingProducerStopsAtTheLimitAndLosesNothing() async throws {
        let gone = Locked(0)
        let body = StreamedBody(limit: 256 << 10, readerGone: { gone.withLock { $0 += 1 } })
        let chunk = Data(repeating: 7, count: 64 << 10)
        let produced = Locked(0)
        let producer = Thread {
            for _ in 0..<100 {
                guard body.appendWaiting(chunk) else { return }
                produced.withLock { $0 += 1 }
            }
            body.finish()
        }
        producer.start()
        try await Task.sleep(for: .milliseconds(200))
        // The producer waits once 256 KiB are queued: 4 chunks, never all 100.
        XCTAssertEqual(produced.withLock { $0 }, 4)
        XCTAssertEqual(body.unreadByteCount, 256 << 10)
        var received = 0
        for try await part in body.makeStream() { received += part.count }
        XCTAssertEqual(received, 100 * chunk.count)
        XCTAssertEqual(produced.withLock { $0 }, 100)
        XCTAssertEqual(gone.withLock { $0 }, 0, "a body read to its end does not close the connection")
    }

    func testPauseIsCalledPastTheLimitAndResumeAtHalfOfIt() async throws {
        let calls = Locked<[Bool]>([])
        let body = StreamedBody(limit: 100, pause: { stop in calls.withLock { $0.append(stop) } }, readerGone: {})
        for _ in 0..<3 { XCTAssertTrue(body.append(Data(repeating: 1, count: 60))) }
        try await waitUntil { calls.withLock { $0 } == [true] }
        var iterator = body.makeStream().makeAsyncIterator()
        // 120, then 60 bytes left: more than half of the limit, the transport stays paused.
        for _ in 0..<2 {
            _ = try await iterator.next()
            try await Task.sleep(for: .milliseconds(50))
            XCTAssertEqual(calls.withLock { $0 }, [true])
        }
        _ = try await iterator.next()
        try await waitUntil { calls.withLock { $0 } == [true, false] }
        body.finish()
        let end = try await iterator.next()
        XCTAssertNil(end)
    }

    func testAnErrorComesAfterTheQueuedChunksAndOnce() async throws {
        let body = StreamedBody(limit: 1 << 20, readerGone: {})
        body.append(Data("a".utf8))
        body.append(Data("b".utf8))
        body.finish(throwing: OpenAIError(kind: .connection, message: "reset"))
        XCTAssertFalse(body.append(Data("c".utf8)), "nothing is queued after the end")
        var iterator = body.makeStream().makeAsyncIterator()
        let first = try await iterator.next()
        let second = try await iterator.next()
        XCTAssertEqual(first, Data("a".utf8))
        XCTAssertEqual(second, Data("b".utf8))
        do {
            _ = try await iterator.next()
            XCTFail("the connection's error was not thrown")
        } catch let error as OpenAIError {
            XCTAssertEqual(error.kind, .connection)
        }
        let after = try await iterator.next()
        XCTAssertNil(after)
    }

    func testCancellingTheReaderClosesTheConnectionOnceAndWakesTheProducer() async throws {
        let gone = Locked(0)
        let body = StreamedBody(limit: 10, readerGone: { gone.withLock { $0 += 1 } })
        let producerResult = Locked<Bool?>(nil)
        XCTAssertTrue(body.appendWaiting(Data(repeating: 0, count: 10)))
        let producer = Thread { producerResult.withLock { $0 = body.appendWaiting(Data([1])) } }
        producer.start()
        let reader = Task {
            var iterator = body.makeStream().makeAsyncIterator()
            _ = try await iterator.next()  // the queued chunk
            _ = try await iterator.next()  // the producer's byte
            return try await iterator.next()  // waits: nothing more comes
        }
        try await Task.sleep(for: .milliseconds(100))
        reader.cancel()
        let last = try await reader.value
        XCTAssertNil(last)
        try await waitUntil { gone.withLock { $0 } == 1 }
        try await waitUntil { producerResult.withLock { $0 } != nil }
        XCTAssertEqual(producerResult.withLock { $0 }, true)
        XCTAssertFalse(body.appendWaiting(Data([2])), "the producer stops once the reader is gone")
        XCTAssertEqual(gone.withLock { $0 }, 1)
    }

    func testDroppingAnUnfinishedStreamClosesTheConnection() async throws {
        let gone = Locked(0)
        let body = StreamedBody(limit: 1 << 20, readerGone: { gone.withLock { $0 += 1 } })
        body.append(Data("a".utf8))
        do {
            var iterator = body.makeStream().makeAsyncIterator()
            _ = try await iterator.next()
        }
        try await waitUntil { gone.withLock { $0 } == 1 }
        XCTAssertFalse(body.append(Data("b".utf8)))

        let finished = StreamedBody(limit: 1 << 20, readerGone: { gone.withLock { $0 += 1 } })
        finished.append(Data("a".utf8))
        finished.finish()
        do {
            var iterator = finished.makeStream().makeAsyncIterator()
            while try await iterator.next() != nil {}
        }
        try await Task.sleep(for: .milliseconds(50))
        XCTAssertEqual(gone.withLock { $0 }, 1, "a stream read to its end closes nothing when dropped")
    }

    // MARK: The transport, against the local test server

    func testASlowReaderHoldsTheServerBackAndStillGetsEveryByte() async throws {
        let server = try TestServer.shared()
        let scenario = TestServer.scenario()
        let size = 128 << 20
        let transport = URLSessionTransport()
        let request = HTTPRequest(
            method: "GET", url: server.baseURL.appendingPathComponent("files/file-big/content"),
            headers: [
                "Authorization": "Bearer sk-test", "x-testserver-scenario": scenario,
                "x-testserver-binary-size": "\(size)",
            ])
        let response = try await transport.stream(request, timeouts: HTTPTimeouts(request: 30, idle: 30, connect: 10))
        XCTAssertEqual(response.statusCode, 200)
        var iterator = response.body.makeAsyncIterator()
        var received = try await iterator.next()?.count ?? 0
        // The reader stops for a second: without back-pressure the server writes the whole body
        // into the client's memory in that time (about 0.4 s for 128 MiB on loopback).
        try await Task.sleep(for: .seconds(1))
        let written = try await server.requests(scenario: scenario).first?.raw["binary_bytes_written"]?.doubleValue
        let held = Int(written ?? -1)
        XCTAssertGreaterThan(held, 0)
        // What socket buffers on both sides hold (Linux grows a receive buffer up to
        // net.ipv4.tcp_rmem's maximum) plus `StreamedBody.defaultLimit`.
        XCTAssertLessThan(held, 48 << 20, "the server wrote \(held >> 20) MiB to a reader that was not reading")
        print("back-pressure: \(held >> 10) KiB written while the reader paused, of \(size >> 10) KiB")
        var pattern = true
        var chunks = 0
        while let chunk = try await iterator.next() {
            if chunks % 64 == 0 {
                pattern = pattern && chunk.enumerated().allSatisfy { $0.element == UInt8(($0.offset + received) % 251) }
            }
            chunks += 1
            received += chunk.count
        }
        XCTAssertEqual(received, size)
        XCTAssertTrue(pattern, "the bytes arrived in order")
    }
}
