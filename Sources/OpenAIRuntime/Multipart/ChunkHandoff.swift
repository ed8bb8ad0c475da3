import Foundation

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

    /// Stops the producer (the request ended early) and wakes a reader waiting in ``next()``,
    /// which then throws ``OpenAIError`` of kind ``OpenAIError/Kind/cancelled``; from any thread.
    func cancel() {
        lock.lock()
        cancelled = true
        if !finished {
            finished = true
            failure = OpenAIError(kind: .cancelled, message: "The request body's stream was stopped.")
        }
        let waiting = producer
        producer = nil
        let task = _task
        lock.unlock()
        waiting?.resume(returning: false)
        task?.cancel()
        available.signal()
    }
}
