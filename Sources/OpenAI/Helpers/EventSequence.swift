import Foundation
import OpenAIRuntime

/// The events of a streaming helper (`parseStream`, `runToolsStream`, `createBackgroundStream`).
///
/// Nothing is sent until iteration starts. How the work runs depends on the helper:
/// - `parseStream` pulls: each `next()` reads the underlying stream only until it has its next
///   event, in the iterating task (its `next()` is nonisolated: off the caller's actor), so a
///   slow consumer holds back the connection instead of making the SDK buffer events, and
///   cancelling the iterating task or dropping the iterator closes the stream;
/// - `runToolsStream` and `createBackgroundStream` run in a task of their own, which stopping the
///   iteration early (or cancelling the iterating task, or dropping the iterator) cancels; at most
///   64 streamed events wait for the iteration, and the task reads its stream on
///   only as the iteration takes them (a tool call's start and result are never held back).
public struct EventSequence<Element: Sendable>: AsyncSequence, Sendable {
    /// Returns the next event, or `nil` at the end; throws what the work throws.
    typealias Next = () async throws -> Element?

    private enum Work: Sendable {
        /// Pushes events from a task of its own.
        case task(@Sendable (_ sink: EventSink<Element>) async throws -> Void)
        /// Makes an iteration's state: its events on demand.
        case pull(@Sendable () -> Next)
    }

    private let work: Work

    /// The events `produce` hands to its sink, from a task started when iteration starts.
    init(_ produce: @escaping @Sendable (_ sink: EventSink<Element>) async throws -> Void) {
        work = .task(produce)
    }

    /// The events `makeNext()`'s function returns, one per call of the iterator's `next()`, in
    /// the iterating task; `makeNext` runs once per iteration, when it starts.
    init(pulling makeNext: @escaping @Sendable () -> Next) {
        work = .pull(makeNext)
    }

    /// Starts the work and returns its events' iterator.
    ///
    /// - Returns: The iterator; its `next()` throws what the work throws.
    public func makeAsyncIterator() -> AsyncIterator {
        switch work {
        case .pull(let makeNext):
            return AsyncIterator(.pull(makeNext()))
        case .task(let produce):
            let sink = EventSink<Element>()
            let task = Task {
                do {
                    try await produce(sink)
                    sink.finish(nil)
                } catch {
                    sink.finish(error)
                }
            }
            return AsyncIterator(.sink(SinkReader(sink: sink, task: task)))
        }
    }

    /// The iterator of an ``EventSequence``.
    public struct AsyncIterator: AsyncIteratorProtocol {
        fileprivate enum Source {
            case sink(SinkReader<Element>)
            case pull(Next)
            case finished
        }

        private var source: Source

        fileprivate init(_ source: Source) {
            self.source = source
        }

        /// Returns the next event.
        ///
        /// - Returns: The next event, or `nil` once the work is done (and after it threw).
        /// - Throws: What the work throws (the helper's documentation says what); the sequence
        ///   then ends.
        public mutating func next() async throws -> Element? {
            switch source {
            case .finished:
                return nil
            case .sink(let reader):
                source = .finished
                let event = try await reader.next()
                if event != nil { source = .sink(reader) }
                return event
            case .pull(let next):
                source = .finished
                guard let event = try await next() else { return nil }
                source = .pull(next)
                return event
            }
        }
    }
}

/// Where the task of a streaming helper puts its events for the iteration: a queue that holds at
/// most ``limit`` streamed events, so that the task reads its stream on only as fast as the
/// iteration takes them.
final class EventSink<Element: Sendable>: Sendable {
    /// The most events ``send(_:)`` lets wait for the iteration before it waits itself.
    static var limit: Int { 64 }

    private struct State {
        var queue = FIFOQueue<Element>()
        var reader: CheckedContinuation<Element?, any Error>?
        /// Senders waiting for room in the queue.
        var senders: [CheckedContinuation<Void, Never>] = []
        /// How the work ended: `.success` once done, or its error (thrown once).
        var ending: Result<Void, any Error>?
        /// Whether the iteration has stopped: events are dropped, senders do not wait.
        var closed = false

        /// The waiting senders when there is room for them, which then no longer wait.
        mutating func sendersToWake() -> [CheckedContinuation<Void, Never>] {
            guard queue.count < EventSink.limit else { return [] }
            defer { senders = [] }
            return senders
        }
    }

    private let state = Locked(State())

    /// Hands `event` to the iteration without waiting (for the few events that happen between
    /// streamed ones: a tool call's start and its result).
    func yield(_ event: Element) {
        let reader: CheckedContinuation<Element?, any Error>? = state.withLock { state in
            guard !state.closed, state.ending == nil else { return nil }
            guard let reader = state.reader else {
                state.queue.append(event)
                return nil
            }
            state.reader = nil
            return reader
        }
        reader?.resume(returning: event)
    }

    /// Hands `event` to the iteration, then waits while ``limit`` events or more wait for it
    /// (returns at once when the iteration has stopped or the task is cancelled).
    func send(_ event: Element) async {
        yield(event)
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let goOn = state.withLock { state in
                    if state.queue.count < Self.limit || state.closed || Task.isCancelled { return true }
                    state.senders.append(continuation)
                    return false
                }
                if goOn { continuation.resume() }
            }
        } onCancel: {
            wakeSenders()
        }
    }

    /// Ends the events: after those queued, the iteration ends, or throws `error` once.
    func finish(_ error: (any Error)?) {
        let reader: CheckedContinuation<Element?, any Error>? = state.withLock { state in
            guard state.ending == nil else { return nil }
            state.ending = error.map { .failure($0) } ?? .success(())
            guard let reader = state.reader, state.queue.isEmpty else { return nil }
            state.reader = nil
            state.ending = .success(())
            return reader
        }
        guard let reader else { return }
        if let error { reader.resume(throwing: error) } else { reader.resume(returning: nil) }
    }

    /// The iteration has stopped: drops what waits and lets every sender go on.
    func close() {
        let reader = state.withLock { state in
            state.closed = true
            state.queue.removeAll()
            defer { state.reader = nil }
            return state.reader
        }
        reader?.resume(returning: nil)
        wakeSenders()
    }

    /// The next event, waiting for it; `nil` at the end (and after the error was thrown).
    func next() async throws -> Element? {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Element?, any Error>) in
            /// What the iteration gets now; `nil` when it waits.
            let now: (Result<Element?, any Error>, wake: [CheckedContinuation<Void, Never>])? = state.withLock {
                state in
                if let event = state.queue.popFirst() { return (.success(event), state.sendersToWake()) }
                switch state.ending {
                case .failure(let error)?:
                    state.ending = .success(())
                    return (.failure(error), [])
                case .success?:
                    return (.success(nil), [])
                case nil:
                    if state.closed { return (.success(nil), []) }
                    state.reader = continuation
                    return nil
                }
            }
            guard let now else { return }
            for sender in now.wake { sender.resume() }
            continuation.resume(with: now.0)
        }
    }

    private func wakeSenders() {
        let senders = state.withLock { state in
            defer { state.senders = [] }
            return state.senders
        }
        for sender in senders { sender.resume() }
    }
}

/// The iteration's side of an ``EventSink``: cancelling the iterating task, or releasing the
/// iterator, stops the work's task.
final class SinkReader<Element: Sendable>: Sendable {
    private let sink: EventSink<Element>
    private let task: Task<Void, Never>

    init(sink: EventSink<Element>, task: Task<Void, Never>) {
        self.sink = sink
        self.task = task
    }

    deinit {
        sink.close()
        task.cancel()
    }

    /// The next event; `nil` at the end or once the iterating task is cancelled (which stops the
    /// work).
    func next() async throws -> Element? {
        try await withTaskCancellationHandler {
            try await sink.next()
        } onCancel: { [task, sink] in
            // Closed first: the work's task, once cancelled, may end with an error the iteration
            // must not see (it ends with `nil`).
            sink.close()
            task.cancel()
        }
    }
}
