/// An asynchronous sequence of typed elements decoded from a sequence of ``ServerSentEvent``s
/// by a ``ServerSentEventDecoder``.
///
/// The sequence ends when the base ends or the decoder returns ``StreamStep/finish`` (for
/// example at `data: [DONE]`); after a thrown error it ends as well.
public struct DecodedServerSentEventStream<Base: AsyncSequence, Element>: AsyncSequence
where Base.Element == ServerSentEvent {
    private let base: Base
    private let decoder: ServerSentEventDecoder<Element>

    /// Creates a typed stream.
    ///
    /// - Parameters:
    ///   - base: The events, for example a ``ServerSentEventStream``.
    ///   - decoder: The rules mapping each event to an element, a skip or the end.
    public init(_ base: Base, decoder: ServerSentEventDecoder<Element>) {
        self.base = base
        self.decoder = decoder
    }

    /// Returns an iterator that reads `base` lazily.
    ///
    /// - Returns: A new iterator positioned at the start of the stream.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), decoder: decoder)
    }

    /// The iterator of a ``DecodedServerSentEventStream``.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private var base: Base.AsyncIterator
        private let decoder: ServerSentEventDecoder<Element>
        private var finished = false

        fileprivate init(base: Base.AsyncIterator, decoder: ServerSentEventDecoder<Element>) {
            self.base = base
            self.decoder = decoder
        }

        /// Returns the next element, skipping events the decoder skips.
        ///
        /// - Returns: The next element, or `nil` after `[DONE]` (or another `.finish`), at the
        ///   end of the base sequence, or after an error has been thrown.
        /// - Throws: The error thrown by the base sequence, the decoder's error hook or its
        ///   transform (for example `DecodingError`); the stream then ends.
        public mutating func next() async throws -> Element? {
            while !finished {
                do {
                    if let element = try handle(try await base.next()) { return element }
                } catch {
                    finished = true
                    throw error
                }
            }
            return nil
        }

        /// Returns the next element without leaving the caller's actor, skipping events the
        /// decoder skips.
        ///
        /// - Parameters:
        ///   - actor: The actor the caller runs on; the base sequence is read on it too.
        /// - Returns: The next element, or `nil` after `[DONE]` (or another `.finish`), at the
        ///   end of the base sequence, or after an error has been thrown.
        /// - Throws: The error thrown by the base sequence, the decoder's error hook or its
        ///   transform (for example `DecodingError`); the stream then ends.
        @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        public mutating func next(isolation actor: isolated (any Actor)?) async throws -> Element? {
            while !finished {
                do {
                    if let element = try handle(try await base.next(isolation: actor)) { return element }
                } catch {
                    finished = true
                    throw error
                }
            }
            return nil
        }

        /// Applies the decoder to one event (or the end of the base); `nil` means keep reading
        /// unless `finished` was set.
        private mutating func handle(_ event: ServerSentEvent?) throws -> Element? {
            guard let event else {
                finished = true
                return nil
            }
            switch try decoder.step(for: event) {
            case .element(let element): return element
            case .skip: return nil
            case .finish:
                finished = true
                return nil
            }
        }
    }
}

extension DecodedServerSentEventStream: Sendable where Base: Sendable {}

extension AsyncSequence where Element == ServerSentEvent {
    /// Maps these events to typed elements with `decoder`.
    ///
    /// - Parameters:
    ///   - decoder: The rules: `[DONE]` finishes, empty data is skipped, the rest is transformed.
    /// - Returns: A lazily decoded ``DecodedServerSentEventStream``.
    public func decoded<Decoded>(
        with decoder: ServerSentEventDecoder<Decoded>
    ) -> DecodedServerSentEventStream<Self, Decoded> {
        DecodedServerSentEventStream(self, decoder: decoder)
    }
}
