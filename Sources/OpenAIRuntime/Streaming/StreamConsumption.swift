import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Whether a stream's request was sent: a stream is consumed once.
final class StreamConsumption: Sendable {
    private struct State {
        var claimed = false
        var closed = false
        var closeConnection: (@Sendable () -> Void)?
        var skipped: [SkippedStreamEvent] = []
        var skippedCount = 0
    }

    private let state = Locked(State())

    /// The most skipped events kept (``OpenAIStream/maxRecordedSkippedEvents``).
    static let maxRecordedSkippedEvents = 64

    /// The skipped events kept.
    var skippedEvents: [SkippedStreamEvent] { state.withLock { $0.skipped } }

    /// How many events were skipped.
    var skippedEventCount: Int { state.withLock { $0.skippedCount } }

    /// Counts a skipped event, and keeps it while fewer than the maximum are kept.
    func recordSkipped(_ event: SkippedStreamEvent) {
        state.withLock { state in
            state.skippedCount += 1
            if state.skipped.count < Self.maxRecordedSkippedEvents { state.skipped.append(event) }
        }
    }

    /// Whether ``close()`` was called.
    var isClosed: Bool { state.withLock { $0.closed } }

    /// Marks the stream closed and closes its connection, if one is open.
    func close() {
        let connection: (@Sendable () -> Void)? = state.withLock { state in
            guard !state.closed else { return nil }
            state.closed = true
            defer { state.closeConnection = nil }
            return state.closeConnection
        }
        connection?()
    }

    /// Keeps what closes the open connection (or cancels the connecting attempt), replacing what
    /// it kept before; runs it at once when the stream was closed meanwhile.
    func onClose(_ connection: (@Sendable () -> Void)?) {
        guard let connection else { return }
        let closeNow: Bool = state.withLock { state in
            if state.closed { return true }
            state.closeConnection = connection
            return false
        }
        if closeNow { connection() }
    }

    /// Claims the stream; `false` when it was claimed before.
    func claim() -> Bool {
        state.withLock { state in
            defer { state.claimed = true }
            return !state.claimed
        }
    }
}
