import Foundation

/// A one-shot asynchronous sequence of `Data` chunks, read synchronously by
/// ``MultipartBodyReader`` (which runs on the transport's I/O thread, as `InputStream.read` does).
///
/// At most one chunk is held at a time: the sequence is asked for the next chunk only after the
/// reader took the previous one, so memory stays flat however long the stream.
///
/// `@unchecked Sendable`: `lock` guards `claimed`.
final class AsyncChunkSource: @unchecked Sendable, Hashable {
    /// The number of bytes the sequence promises.
    let length: Int64
    private let start: @Sendable (ChunkHandoff) -> Task<Void, Never>
    private let lock = NSLock()
    private var claimed = false

    init<Chunks: AsyncSequence & Sendable>(_ chunks: Chunks, length: Int64) where Chunks.Element == Data {
        self.length = length
        self.start = { handoff in
            Task {
                do {
                    for try await chunk in chunks where !chunk.isEmpty {
                        guard await handoff.put(chunk) else { return }
                    }
                    handoff.finish(nil)
                } catch {
                    handoff.finish(error)
                }
            }
        }
    }

    /// Starts reading the sequence; the returned handoff delivers its chunks.
    ///
    /// - Throws: ``OpenAIError`` of kind ``OpenAIError/Kind/invalidRequest`` on the second call:
    ///   the stream was already sent once.
    func claim() throws -> ChunkHandoff {
        lock.lock()
        let already = claimed
        claimed = true
        lock.unlock()
        if already {
            throw OpenAIError(
                kind: .invalidRequest,
                message: "A streamed file upload can be sent only once; use a file URL or data to retry.")
        }
        let handoff = ChunkHandoff()
        handoff.task = start(handoff)
        return handoff
    }

    static func == (lhs: AsyncChunkSource, rhs: AsyncChunkSource) -> Bool { lhs === rhs }

    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// Passes chunks one at a time from an async producer task to a synchronous reader.
///
/// `@unchecked Sendable`: `lock` guards every stored property; `available` counts deposits.
final class ChunkHandoff: @unchecked Sendable {
    private let lock = NSLock()
    private let available = DispatchSemaphore(value: 0)
    private var slot: Data?
    private var producer: CheckedContinuation<Bool, Never>?
    private var finished = false
    private var failure: (any Swift.Error)?
    private var cancelled = false
    private var _task: Task<Void, Never>?

    var task: Task<Void, Never>? {
        get { lock.withLock { _task } }
        set { lock.withLock { _task = newValue } }
    }

    /// Producer side: hands over `chunk` and waits until the reader took it.
    ///
    /// - Returns: `false` when the reader went away; the producer stops.
    func put(_ chunk: Data) async -> Bool {
        await withCheckedContinuation { continuation in
            lock.lock()
            if cancelled {
                lock.unlock()
                continuation.resume(returning: false)
                return
            }
            slot = chunk
            producer = continuation
            lock.unlock()
            available.signal()
        }
    }

    /// Producer side: the sequence ended, with `error` when it threw.
    func finish(_ error: (any Swift.Error)?) {
        lock.withLock {
            finished = true
            failure = error
        }
        available.signal()
    }

    /// Reader side: blocks until the next chunk arrives.
    ///
    /// - Returns: The chunk, or `nil` at the end of the sequence.
    /// - Throws: The sequence's error.
    func next() throws -> Data? {
        while true {
            available.wait()
            lock.lock()
            if let chunk = slot {
                slot = nil
                let waiting = producer
                producer = nil
                lock.unlock()
                waiting?.resume(returning: true)
                return chunk
            }
            if finished {
                let error = failure
                lock.unlock()
                // Let later calls return at once too.
                available.signal()
                if let error { throw error }
                return nil
            }
            lock.unlock()
        }
    }

    /// Reader side: stops the producer (the request ended early).
    func cancel() {
        lock.lock()
        cancelled = true
        let waiting = producer
        producer = nil
        let task = _task
        lock.unlock()
        waiting?.resume(returning: false)
        task?.cancel()
    }
}
