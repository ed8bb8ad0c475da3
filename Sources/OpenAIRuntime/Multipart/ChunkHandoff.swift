import Foundation

/// Passes chunks one at a time from an async producer task to a synchronous reader.
final class ChunkHandoff: Sendable {
    private struct State {
        var slot: Data?
        var producer: CheckedContinuation<Bool, Never>?
        var finished = false
        var failure: (any Swift.Error)?
        var cancelled = false
        var task: Task<Void, Never>?
    }

    private let state = Locked(State())
    /// Signalled once per deposit (a chunk, or the end).
    private let available = DispatchSemaphore(value: 0)

    var task: Task<Void, Never>? {
        get { state.withLock { $0.task } }
        set { state.withLock { $0.task = newValue } }
    }

    /// Producer side: hands over `chunk` and waits until the reader took it.
    ///
    /// - Returns: `false` when the reader went away; the producer stops.
    func put(_ chunk: Data) async -> Bool {
        await withCheckedContinuation { continuation in
            let deposited = state.withLock { state in
                if state.cancelled { return false }
                state.slot = chunk
                state.producer = continuation
                return true
            }
            if deposited { available.signal() } else { continuation.resume(returning: false) }
        }
    }

    /// Producer side: the sequence ended, with `error` when it threw.
    func finish(_ error: (any Swift.Error)?) {
        state.withLock { state in
            state.finished = true
            state.failure = error
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
            let taken: (chunk: Data, producer: CheckedContinuation<Bool, Never>?)? = state.withLock { state in
                guard let chunk = state.slot else { return nil }
                state.slot = nil
                defer { state.producer = nil }
                return (chunk, state.producer)
            }
            if let taken {
                taken.producer?.resume(returning: true)
                return taken.chunk
            }
            let ended: Result<Void, any Swift.Error>? = state.withLock { state in
                guard state.finished else { return nil }
                return state.failure.map { .failure($0) } ?? .success(())
            }
            if let ended {
                // Let later calls return at once too.
                available.signal()
                try ended.get()
                return nil
            }
        }
    }

    /// Stops the producer (the request ended early) and wakes a reader waiting in ``next()``,
    /// which then throws ``OpenAIError`` of kind ``OpenAIError/Kind/cancelled``; from any thread.
    func cancel() {
        let (waiting, task) = state.withLock { state in
            state.cancelled = true
            if !state.finished {
                state.finished = true
                state.failure = OpenAIError(kind: .cancelled, message: "The request body's stream was stopped.")
            }
            defer { state.producer = nil }
            return (state.producer, state.task)
        }
        waiting?.resume(returning: false)
        task?.cancel()
        available.signal()
    }
}
