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
