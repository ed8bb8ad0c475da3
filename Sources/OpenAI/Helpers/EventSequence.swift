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
///   iteration early (or cancelling the iterating task) cancels; events the iteration has not
///   asked for yet are buffered.
public struct EventSequence<Element: Sendable>: AsyncSequence, Sendable {
    /// Returns the next event, or `nil` at the end; throws what the work throws.
    typealias Next = () async throws -> Element?

    private enum Work: Sendable {
        /// Pushes events from a task of its own.
        case task(@Sendable (_ emit: (Element) -> Void) async throws -> Void)
        /// Makes an iteration's state: its events on demand.
        case pull(@Sendable () -> Next)
    }

    private let work: Work

    /// The events `produce` emits, from a task started when iteration starts.
    init(_ produce: @escaping @Sendable (_ emit: (Element) -> Void) async throws -> Void) {
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
            let events = AsyncThrowingStream<Element, any Error> { continuation in
                let task = Task {
                    do {
                        try await produce { continuation.yield($0) }
                        continuation.finish()
                    } catch {
                        continuation.finish(throwing: error)
                    }
                }
                continuation.onTermination = { _ in task.cancel() }
            }
            return AsyncIterator(.buffered(events.makeAsyncIterator()))
        }
    }

    /// The iterator of an ``EventSequence``.
    public struct AsyncIterator: AsyncIteratorProtocol {
        fileprivate enum Source {
            case buffered(AsyncThrowingStream<Element, any Error>.AsyncIterator)
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
            case .buffered(var events):
                source = .finished
                let event = try await events.next()
                if event != nil { source = .buffered(events) }
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
