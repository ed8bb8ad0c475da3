import OpenAI

/// A WebSocket whose text messages are JSON events of one generated union, read by a task of its own.
///
/// The reader task decodes every message (never failing: see ``EventDecoding``), hands it to
/// `onEvent` (reply routing) and then to ``events``, so helpers that await replies work whether
/// or not the caller iterates ``events``. ``events`` buffers without limit: a caller that never
/// reads it keeps every event in memory until the session ends.
///
/// Dropping the connection cancels the reader, which closes the socket with 1000.
final class EventConnection<Event: Decodable & Sendable>: Sendable {
    let socket: WebSocket
    let events: AsyncThrowingStream<Event, any Error>
    let failures: Locked<[RealtimeDecodingFailure]>
    private let reader: Task<Void, Never>

    /// The most decoding failures kept (the oldest are dropped).
    static var maxFailuresKept: Int { 100 }

    /// Starts reading.
    ///
    /// - Parameters:
    ///   - socket: The open socket.
    ///   - unknown: The union's `unknown` case.
    ///   - onEvent: Called on the reader task for each event, before it is yielded to ``events``.
    ///   - onEnd: Called once when the socket's messages end: `nil` after a normal close,
    ///     the transport error otherwise.
    init(
        socket: WebSocket,
        unknown: @escaping @Sendable (JSONValue) -> Event,
        onEvent: @escaping @Sendable (Event) -> Void,
        onEnd: @escaping @Sendable (WebSocketError?) -> Void
    ) {
        self.socket = socket
        let (events, continuation) = AsyncThrowingStream<Event, any Error>.makeStream()
        self.events = events
        let failures = Locked<[RealtimeDecodingFailure]>([])
        self.failures = failures
        let maxFailures = Self.maxFailuresKept
        reader = Task {
            do {
                for try await message in socket.messages {
                    let outcome = EventDecoding.decode(message, as: Event.self, unknown: unknown)
                    if let failure = outcome.failure {
                        failures.withLock {
                            $0.append(failure)
                            if $0.count > maxFailures { $0.removeFirst() }
                        }
                    }
                    onEvent(outcome.event)
                    continuation.yield(outcome.event)
                }
                onEnd(nil)
                continuation.finish()
            } catch {
                let transportError =
                    error as? WebSocketError ?? WebSocketError(.connectionFailed, "\(error)")
                onEnd(transportError)
                continuation.finish(throwing: error)
            }
        }
    }

    deinit {
        reader.cancel()
    }

    /// Waits until the reader has seen the end of the socket's messages.
    func waitForEnd() async {
        await reader.value
    }
}
