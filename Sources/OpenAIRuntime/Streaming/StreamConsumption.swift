import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Whether a stream's request was sent: a stream is consumed once.
/// `@unchecked Sendable`: `lock` guards `claimed`, `closed` and `closeConnection`.
final class StreamConsumption: @unchecked Sendable {
    private let lock = NSLock()
    private var claimed = false
    private var closed = false
    private var closeConnection: (@Sendable () -> Void)?
    private var skipped: [SkippedStreamEvent] = []
    private var skippedCount = 0

    /// The most skipped events kept (``OpenAIStream/maxRecordedSkippedEvents``).
    static let maxRecordedSkippedEvents = 64

    /// The skipped events kept.
    var skippedEvents: [SkippedStreamEvent] { lock.withLock { skipped } }

    /// How many events were skipped.
    var skippedEventCount: Int { lock.withLock { skippedCount } }

    /// Counts a skipped event, and keeps it while fewer than the maximum are kept.
    func recordSkipped(_ event: SkippedStreamEvent) {
        lock.withLock {
            skippedCount += 1
            if skipped.count < Self.maxRecordedSkippedEvents { skipped.append(event) }
        }
    }

    /// Whether ``close()`` was called.
    var isClosed: Bool { lock.withLock { closed } }

    /// Marks the stream closed and closes its connection, if one is open.
    func close() {
        let connection: (@Sendable () -> Void)? = lock.withLock {
            guard !closed else { return nil }
            closed = true
            defer { closeConnection = nil }
            return closeConnection
        }
        connection?()
    }

    /// Keeps what closes the open connection (or cancels the connecting attempt), replacing what
    /// it kept before; runs it at once when the stream was closed meanwhile.
    func onClose(_ connection: (@Sendable () -> Void)?) {
        guard let connection else { return }
        let closeNow: Bool = lock.withLock {
            if closed { return true }
            closeConnection = connection
            return false
        }
        if closeNow { connection() }
    }

    /// Claims the stream; `false` when it was claimed before.
    func claim() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if claimed { return false }
        claimed = true
        return true
    }
}
