import Foundation
import OpenAI
import OpenAIWebSocket

/// A WebSocket whose text messages are JSON events of one generated union.
///
/// Every message is decoded where it is received (see ``WebSocketMessageSink``), never failing
/// (see ``EventDecoding``), handed to `onEvent` (reply routing) and then to ``events``, so helpers
/// that await replies work whether or not the caller iterates ``events``. ``events`` buffers as
/// ``RealtimeSessionOptions/eventBuffering`` says; events it drops are counted in
/// ``droppedEvents``.
///
/// Dropping the connection closes the socket with 1000.
final class EventConnection<Event: Decodable & Sendable>: Sendable {
    let socket: WebSocket
    let events: AsyncThrowingStream<Event, any Error>
    let failures: Locked<[RealtimeDecodingFailure]>
    private let state: Locked<State>

    private struct State {
        var ended = false
        var dropped = 0
        var endWaiters: [CheckedContinuation<Void, Never>] = []
    }

    /// The most decoding failures kept (the oldest are dropped).
    static var maxFailuresKept: Int { 100 }

    /// Connects and starts delivering events.
    ///
    /// - Parameters:
    ///   - endpoint: URL, headers and subprotocols of the upgrade request.
    ///   - configuration: Transport options.
    ///   - buffering: How ``events`` buffers events nobody has read yet.
    ///   - unknown: The union's `unknown` case.
    ///   - onEvent: Called for each event, before it is yielded to ``events``.
    ///   - onEnd: Called once when the connection ends, with how it closed and the transport error
    ///     (`nil` after a normal close).
    /// - Throws: ``WebSocketError`` when connecting fails.
    init(
        endpoint: RealtimeEndpoint,
        configuration: WebSocketConfiguration,
        buffering: RealtimeEventBuffering,
        unknown: @escaping @Sendable (JSONValue) -> Event,
        onEvent: @escaping @Sendable (Event) -> Void,
        onEnd: @escaping @Sendable (WebSocketCloseInfo, WebSocketError?) -> Void
    ) async throws {
        let (events, continuation) = AsyncThrowingStream<Event, any Error>.makeStream(
            bufferingPolicy: buffering.policy(for: Event.self))
        let failures = Locked<[RealtimeDecodingFailure]>([])
        let state = Locked(State())
        let maxFailures = Self.maxFailuresKept
        let decoder = OrderedJSONDecoder()
        let sink = WebSocketMessageSink(
            receive: { message in
                let outcome = EventDecoding.decode(
                    message, as: Event.self, unknown: unknown, decoder: decoder)
                if let failure = outcome.failure {
                    failures.withLock {
                        $0.append(failure)
                        if $0.count > maxFailures { $0.removeFirst() }
                    }
                }
                onEvent(outcome.event)
                if case .dropped = continuation.yield(outcome.event) {
                    state.withLock { $0.dropped += 1 }
                }
            },
            finish: { info, error in
                onEnd(info, error)
                if let error { continuation.finish(throwing: error) } else { continuation.finish() }
                let waiters = state.withLock { state in
                    state.ended = true
                    defer { state.endWaiters = [] }
                    return state.endWaiters
                }
                for waiter in waiters { waiter.resume() }
            })
        socket = try await WebSocket.connect(
            to: endpoint.url, headers: endpoint.headers, subprotocols: endpoint.subprotocols,
            configuration: configuration, sink: sink)
        self.events = events
        self.failures = failures
        self.state = state
    }

    deinit {
        socket.abandon()
    }

    /// How many events ``events`` dropped because its buffer was full.
    var droppedEvents: Int { state.withLock { $0.dropped } }

    /// Performs the closing handshake, then waits until the last event was delivered.
    ///
    /// - Parameters:
    ///   - code: The close code.
    ///   - reason: A UTF-8 reason, at most 123 bytes.
    /// - Returns: How the connection closed: this side's code, or the server's if it closed first.
    func close(code: WebSocketCloseCode, reason: String) async -> WebSocketCloseInfo? {
        await socket.close(code: code, reason: reason)
        await waitForEnd()
        return socket.closeInfo
    }

    /// Waits until the connection has ended and the last event was delivered.
    private func waitForEnd() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let ended = state.withLock { state in
                if !state.ended { state.endWaiters.append(waiter) }
                return state.ended
            }
            if ended { waiter.resume() }
        }
    }
}
