import Foundation
import OpenAI
import OpenAISDKTestSupport
import XCTest

@testable import OpenAIRealtime
@testable import OpenAIWebSocket

#if canImport(Glibc)

    /// Buffering of unread events and what dropping a session releases, against the local server.
    final class RealtimeSessionLifetimeTests: XCTestCase {
        private static func options(_ server: RealtimeTestServer, _ path: String)
            -> RealtimeSessionOptions
        {
            RealtimeSessionOptions(
                endpoint: server.url(path),
                webSocket: WebSocketConfiguration(connectTimeout: .seconds(10)),
                replyTimeout: .seconds(10))
        }

        private static func connect(_ options: RealtimeSessionOptions) async throws
            -> OpenAIRealtime.RealtimeSession
        {
            try await RealtimeSession.connect(
                .model("gpt-realtime"), clientSecret: "ek_test_lifetime", options: options)
        }

        /// Polls `condition` every 20 ms for at most 5 seconds.
        private func eventually(_ condition: () -> Bool) async throws -> Bool {
            for _ in 0..<250 {
                if condition() { return true }
                try await Task.sleep(for: .milliseconds(20))
            }
            return condition()
        }

        func testNewestBufferingKeepsTheLastUnreadEventsAndCountsTheDropped() async throws {
            let server = try RealtimeTestServer.shared()
            var options = Self.options(server, "/echo")
            options.eventBuffering = .newest(2)
            let session = try await Self.connect(options)
            for index in 1...5 {
                var clear = RealtimeClientEventInputAudioBufferClear()
                clear.eventID = "evt_\(index)"
                try await session.send(.inputAudioBufferClear(clear))
            }
            // The echo server sends the five events back; nobody reads until all have arrived.
            let allArrived = try await eventually { session.droppedEventCount == 3 }
            XCTAssertTrue(allArrived, "dropped \(session.droppedEventCount), expected 3")
            var events = session.events.makeAsyncIterator()
            var kept: [String] = []
            for _ in 0..<2 {
                guard case .unknown(let echo) = try await events.next() else {
                    return XCTFail("echoed client events arrive as unknown")
                }
                kept.append(echo["event_id"]?.stringValue ?? "?")
            }
            XCTAssertEqual(kept, ["evt_4", "evt_5"])
            await session.close()
            XCTAssertEqual(session.droppedEventCount, 3)
        }

        func testUnboundedBufferingKeepsEveryUnreadEventInOrder() async throws {
            let server = try RealtimeTestServer.shared()
            let session = try await Self.connect(Self.options(server, "/echo"))
            for index in 1...50 {
                var clear = RealtimeClientEventInputAudioBufferClear()
                clear.eventID = "evt_\(index)"
                try await session.send(.inputAudioBufferClear(clear))
            }
            try await Task.sleep(for: .milliseconds(200))  // let all echoes arrive unread
            var events = session.events.makeAsyncIterator()
            var ids: [String] = []
            for _ in 1...50 {
                guard case .unknown(let echo) = try await events.next() else {
                    return XCTFail("echoed client events arrive as unknown")
                }
                ids.append(echo["event_id"]?.stringValue ?? "?")
            }
            XCTAssertEqual(ids, (1...50).map { "evt_\($0)" })
            XCTAssertEqual(session.droppedEventCount, 0)
            await session.close()
        }

        func testDroppingASessionWithoutClosingReleasesSocketPipeAndThread() async throws {
            let server = try RealtimeTestServer.shared()
            func use() async throws -> OpenAIRealtime.RealtimeSession {
                let session = try await Self.connect(Self.options(server, "/echo"))
                try await session.appendAudio(Data(count: 480))
                var events = session.events.makeAsyncIterator()
                _ = try await events.next()
                return session
            }
            _ = try await use()  // warm up what the runtime opens once (Dispatch's epoll and timers)
            try await Task.sleep(for: .milliseconds(200))
            guard let fdsBefore = ProcessResources.openFileDescriptors() else {
                throw XCTSkip("needs /proc (Linux)")
            }
            let threadsBefore = SocketConnection.liveIOThreadCount
            var sessions: [OpenAIRealtime.RealtimeSession] = []
            for _ in 0..<5 {
                sessions.append(try await use())
            }
            XCTAssertEqual(SocketConnection.liveIOThreadCount, threadsBefore + 5, "one I/O thread each")
            XCTAssertGreaterThanOrEqual(
                ProcessResources.openFileDescriptors() ?? 0, fdsBefore + 15,
                "a socket and a wake pipe each")
            sessions.removeAll()
            let released = try await eventually {
                ProcessResources.openFileDescriptors() == fdsBefore
                    && SocketConnection.liveIOThreadCount == threadsBefore
            }
            XCTAssertTrue(
                released,
                "fds \(ProcessResources.openFileDescriptors() ?? -1) (before \(fdsBefore)), I/O threads "
                    + "\(SocketConnection.liveIOThreadCount) (before \(threadsBefore))")
        }
    }

#endif
