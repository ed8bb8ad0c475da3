/// An asynchronous sequence of ``ServerSentEvent``s parsed from an asynchronous sequence of byte
/// chunks, such as the `[UInt8]` or `Data` chunks a transport delivers for a `text/event-stream`
/// response body.
///
/// Each chunk is handed to a ``ServerSentEventParser`` as it arrives, so events are yielded as
/// soon as their terminating blank line has been received and memory use does not grow with the
/// length of the stream. Chunks may be split anywhere (WHATWG HTML 9.2.5 "Parsing an event
/// stream"). When the base sequence ends, an unterminated last event is discarded, as the
/// standard requires.
public struct ServerSentEventStream<Base: AsyncSequence>: AsyncSequence
where Base.Element: Collection, Base.Element.Element == UInt8 {
    /// The element type: one dispatched event.
    public typealias Element = ServerSentEvent

    /// The error type: parsing never fails, so only the base sequence's errors are thrown.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    public typealias Failure = Base.Failure

    private let base: Base
    private let lastEventID: String

    /// Creates a stream of events parsed from a sequence of byte chunks.
    ///
    /// - Parameters:
    ///   - base: The response body as byte chunks (for example `[UInt8]` or `Data`), in order.
    ///   - lastEventID: The initial last event ID, for example the one sent in a
    ///     `Last-Event-ID` header when resuming; empty for none.
    public init(_ base: Base, lastEventID: String = "") {
        self.base = base
        self.lastEventID = lastEventID
    }

    /// Returns an iterator that reads `base` lazily, one chunk at a time.
    ///
    /// - Returns: A new iterator positioned at the start of the stream.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), parser: ServerSentEventParser(lastEventID: lastEventID))
    }

    /// The iterator of a ``ServerSentEventStream``.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private var base: Base.AsyncIterator
        private var parser: ServerSentEventParser
        private var pending: [ServerSentEvent] = []
        private var pendingIndex = 0
        private var baseFinished = false

        fileprivate init(base: Base.AsyncIterator, parser: ServerSentEventParser) {
            self.base = base
            self.parser = parser
        }

        /// Returns the next event, reading further chunks from the base sequence as needed.
        ///
        /// - Returns: The next event, or `nil` once the base sequence has ended and every
        ///   complete event has been returned.
        /// - Throws: Whatever error the base sequence throws (for example a transport error or
        ///   `CancellationError`); events completed before the error have already been returned.
        public mutating func next() async throws -> ServerSentEvent? {
            while true {
                if let event = nextPending() { return event }
                if baseFinished { return nil }
                receive(try await base.next())
            }
        }

        /// Returns the next event without leaving the caller's actor, reading further chunks
        /// from the base sequence as needed.
        ///
        /// - Parameters:
        ///   - actor: The actor the caller runs on; the base sequence is read on it too.
        /// - Returns: The next event, or `nil` once the base sequence has ended and every
        ///   complete event has been returned.
        /// - Throws: Whatever error the base sequence throws; events completed before the error
        ///   have already been returned.
        @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(Base.Failure)
            -> ServerSentEvent?
        {
            while true {
                if let event = nextPending() { return event }
                if baseFinished { return nil }
                receive(try await base.next(isolation: actor))
            }
        }

        private mutating func nextPending() -> ServerSentEvent? {
            guard pendingIndex < pending.count else { return nil }
            let event = pending[pendingIndex]
            pendingIndex += 1
            return event
        }

        private mutating func receive(_ chunk: Base.Element?) {
            pending.removeAll(keepingCapacity: true)
            pendingIndex = 0
            if let chunk {
                parser.consume(chunk, into: &pending)
            } else {
                baseFinished = true
                pending = parser.finish()
            }
        }
    }
}

extension ServerSentEventStream: Sendable where Base: Sendable {}

extension AsyncSequence where Element: Collection, Element.Element == UInt8 {
    /// The server-sent events in this sequence of byte chunks (a `text/event-stream` body).
    ///
    /// - Returns: A ``ServerSentEventStream`` that parses the chunks lazily.
    public var serverSentEvents: ServerSentEventStream<Self> {
        ServerSentEventStream(self)
    }
}
