import Foundation

/// The body of a streamed reply on its way from the transport that receives it to the task that
/// reads it: a queue of chunks bounded in bytes, so that a reader slower than the network holds
/// at most about ``limit`` bytes in memory, whatever the length of the body (back-pressure).
///
/// When more than ``limit`` bytes wait unread, the transport stops reading from the connection:
/// libcurl's thread waits in its write callback (``appendWaiting(_:)``, Linux), or the transport
/// suspends its `URLSessionTask` (``append(_:)`` with `pause`, Apple platforms). The socket's
/// receive buffer then fills and TCP's flow control slows the server to the reader's pace. Reading
/// resumes once the reader has taken the queue down to half of ``limit``.
///
/// The reader sees an `AsyncThrowingStream` (``makeStream()``): the same type as before, pulled
/// one chunk per `next()`. Cancelling the reading task, or dropping every copy of the stream and
/// its iterators, calls `readerGone`, which closes the connection.
///
/// `@unchecked Sendable`: `condition` guards every `var`.
final class StreamedBody: @unchecked Sendable {
    /// The bytes held unread before the transport stops reading (1 MiB): many events of any size
    /// the API sends, and well under what a device can spare.
    static let defaultLimit = 1 << 20

    /// The most bytes held unread before the transport stops reading; a chunk is never split, so
    /// the queue may exceed it by one chunk.
    let limit: Int

    private let condition = NSCondition()
    private var chunks = FIFOQueue<Data>()
    private var bufferedBytes = 0
    /// The body's end: `nil` until the transport has finished.
    private var ending: Result<Void, any Error>?
    /// Whether the reader has seen the end (a thrown error ends the stream as after `nil`).
    private var endDelivered = false
    private var readerIsGone = false
    private var waiter: CheckedContinuation<Data?, any Error>?
    /// Whether the transport should stop reading (the reader is behind by more than `limit`).
    private var paused = false
    /// The state last given to `pause`.
    private var pauseApplied = false
    private let pause: (@Sendable (_ stop: Bool) -> Void)?
    /// Runs the calls of `pause` in order; `nil` without `pause`.
    private let pauseQueue: DispatchQueue?
    private let readerGone: @Sendable () -> Void

    /// Creates an empty body.
    ///
    /// - Parameters:
    ///   - limit: The bytes held unread before the transport stops reading.
    ///   - pause: Called with `true` when the queue exceeds `limit` and with `false` when the
    ///     reader has taken it down to half of it (for a transport that cannot wait in its
    ///     callback), in order, on a serial queue of the body's own.
    ///   - readerGone: Called once when the reader cancels or drops the stream before its end:
    ///     the transport closes the connection.
    init(
        limit: Int = StreamedBody.defaultLimit, pause: (@Sendable (_ stop: Bool) -> Void)? = nil,
        readerGone: @escaping @Sendable () -> Void
    ) {
        self.limit = max(1, limit)
        self.pause = pause
        pauseQueue = pause == nil ? nil : DispatchQueue(label: "OpenAI.StreamedBody.pause")
        self.readerGone = readerGone
    }

    /// The stream the reader iterates: one chunk per `next()`, `nil` at the end of the body or
    /// when the reading task is cancelled, the transport's error when the connection failed.
    func makeStream() -> AsyncThrowingStream<Data, any Error> {
        let reader = Reader(body: self)
        return AsyncThrowingStream(unfolding: { try await reader.next() })
    }

    // MARK: Transport side

    /// Queues `chunk` without waiting; when the queue exceeds ``limit`` the `pause` given at
    /// creation is called with `true`.
    ///
    /// - Returns: `false` when the reader is gone or the body has ended (the chunk is dropped).
    @discardableResult
    func append(_ chunk: Data) -> Bool {
        condition.lock()
        guard !readerIsGone, ending == nil else {
            condition.unlock()
            return false
        }
        let waiter = enqueue(chunk)
        if pause != nil, !paused, bufferedBytes > limit {
            paused = true
            applyPauseLater()
        }
        condition.unlock()
        waiter?.resume(returning: chunk)
        return true
    }

    /// Queues `chunk`, first waiting (blocking the calling thread) while the queue holds
    /// ``limit`` bytes or more.
    ///
    /// - Returns: `false` when the reader is gone or the body has ended (the chunk is dropped).
    func appendWaiting(_ chunk: Data) -> Bool {
        condition.lock()
        while bufferedBytes >= limit, !readerIsGone, ending == nil {
            condition.wait()
        }
        guard !readerIsGone, ending == nil else {
            condition.unlock()
            return false
        }
        let waiter = enqueue(chunk)
        condition.unlock()
        waiter?.resume(returning: chunk)
        return true
    }

    /// Hands `chunk` to a waiting reader, or queues it. Call with the lock held.
    ///
    /// - Returns: The reader's continuation to resume with `chunk` after unlocking.
    private func enqueue(_ chunk: Data) -> CheckedContinuation<Data?, any Error>? {
        if let waiter {
            self.waiter = nil
            return waiter
        }
        chunks.append(chunk)
        bufferedBytes += chunk.count
        return nil
    }

    /// Ends the body after the chunks already queued: with `error` (thrown by the reader's next
    /// `next()` once the queue is empty), or cleanly when `nil`. Only the first call counts.
    func finish(throwing error: (any Error)? = nil) {
        condition.lock()
        guard ending == nil else {
            condition.unlock()
            return
        }
        ending = error.map { .failure($0) } ?? .success(())
        var waiter: CheckedContinuation<Data?, any Error>?
        if chunks.isEmpty, let pending = self.waiter {
            self.waiter = nil
            endDelivered = true
            waiter = pending
        }
        condition.broadcast()
        condition.unlock()
        if let waiter {
            if let error { waiter.resume(throwing: error) } else { waiter.resume(returning: nil) }
        }
    }

    /// The unread bytes held, for tests.
    var unreadByteCount: Int { condition.withLock { bufferedBytes } }

    // MARK: Reader side

    /// The next chunk, waiting for one when the queue is empty.
    ///
    /// - Returns: A chunk, or `nil` at the end of the body or once the reader is gone.
    /// - Throws: The transport's error, once, after the chunks queued before it.
    fileprivate func next() async throws -> Data? {
        if let ready = condition.withLock({ take() }) { return try ready.get() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Data?, any Error>) in
                condition.lock()
                if let ready = take() {
                    condition.unlock()
                    continuation.resume(with: ready)
                } else {
                    waiter = continuation
                    condition.unlock()
                }
            }
        } onCancel: {
            self.cancelReader()
        }
    }

    /// What the reader gets without waiting: the next queued chunk, or the end once the queue is
    /// empty (`nil` chunk: the body ended or the reader is gone), or `nil` when it must wait.
    /// Call with the lock held.
    private func take() -> Result<Data?, any Error>? {
        guard let chunk = chunks.popFirst() else {
            if readerIsGone || endDelivered { return .success(nil) }
            guard let ending else { return nil }
            endDelivered = true
            return ending.map { nil }
        }
        bufferedBytes -= chunk.count
        if bufferedBytes < limit { condition.broadcast() }
        if paused, bufferedBytes <= limit / 2 {
            paused = false
            applyPauseLater()
        }
        return .success(chunk)
    }

    /// Brings the transport to the state `paused` asks for, on a serial queue: calls of `pause`
    /// alternate and the last one matches the last state, however the transport's and the
    /// reader's threads interleave. Call with the lock held.
    private func applyPauseLater() {
        pauseQueue?.async {
            self.condition.lock()
            let wanted = self.paused
            let changes = wanted != self.pauseApplied
            self.pauseApplied = wanted
            self.condition.unlock()
            if changes { self.pause?(wanted) }
        }
    }

    /// The reader cancelled or dropped the stream: the queue is emptied, a waiting transport
    /// thread wakes and stops, and the connection is closed (once).
    fileprivate func cancelReader() {
        condition.lock()
        guard !readerIsGone else {
            condition.unlock()
            return
        }
        readerIsGone = true
        let finished = ending != nil && chunks.isEmpty
        chunks.removeAll()
        bufferedBytes = 0
        let waiter = self.waiter
        self.waiter = nil
        condition.broadcast()
        condition.unlock()
        waiter?.resume(returning: nil)
        if !finished { readerGone() }
    }

    /// Owned by the reader's stream: when the stream and its iterators are released (or the
    /// reading task is cancelled, which releases the unfolding closure), the body's reader is gone.
    private final class Reader: Sendable {
        let body: StreamedBody

        init(body: StreamedBody) { self.body = body }

        func next() async throws -> Data? { try await body.next() }

        deinit { body.cancelReader() }
    }
}
