import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The typed events of a streaming operation, in the order the server sends them.
///
/// Each stream sends its request once, when iteration starts, and is retried like a
/// non-streaming request until a 2xx reply head arrives; the events are then decoded one at a
/// time as their bytes arrive, so memory use does not grow with the length of the stream.
/// Iterating the same stream (or a copy of it) a second time throws
/// ``OpenAIError/Kind/streamAlreadyConsumed`` instead of sending, and paying for, the request
/// again; ``resend()`` makes a stream that sends it again on purpose.
///
/// What ends the sequence:
/// - `data: [DONE]`, or the operation's completing event (Responses: `response.completed`,
///   `response.failed`, `response.incomplete`), or, for Chat Completions and Completions, the end
///   of the body once every choice has a `finish_reason`: the sequence ends cleanly;
/// - an error event (`event: error`, a payload with an `error` object, or a Responses
///   `{"type": "error"}` event): ``OpenAIError`` with the event's message and code;
/// - a connection that closes early: ``OpenAIError/Kind/truncatedEvent`` when it closes in the
///   middle of an event, ``OpenAIError/Kind/missingTerminalEvent`` or
///   ``OpenAIError/Kind/unfinishedChoices`` when it closes between events before the stream was
///   complete; a cut-off stream never looks complete;
/// - an event larger than ``OpenAIClient/Configuration/maxStreamEventBytes``:
///   ``OpenAIError/Kind/eventTooLarge``.
///
/// An event type this SDK does not know arrives as the event type's `unknown` case with its raw
/// JSON. A payload that is not an event at all (not JSON, or JSON that shares no member with the
/// event type: a keep-alive, a proxy's frame) is skipped and reported to
/// ``onSkippedEvent(_:)``; in ``DecodingMode/strict`` it throws ``OpenAIError/Kind/decoding``
/// instead. Cancelling the iterating task, dropping the iterator, or ``close()`` closes the
/// connection.
public struct OpenAIStream<Event: Sendable>: AsyncSequence, Sendable {
    /// The element type: one typed event.
    public typealias Element = Event

    /// Sends the request (with retries) and returns the 2xx reply whose body is the event stream.
    typealias Connect = @Sendable () async throws -> HTTPStreamingResponse
    /// Decodes one event, returning it with its JSON `type` when `wantsType` (the event has no
    /// `event:` name and the stream ends with a terminal event). Throws `DecodingError`.
    typealias Decode =
        @Sendable (_ event: ServerSentEvent, _ decoder: OrderedJSONDecoder, _ wantsType: Bool) throws -> (
            Event, String?
        )

    /// What the iterator needs besides the connection.
    struct Rules: Sendable {
        var ending: StreamEnding<Event>
        var decodingMode: DecodingMode
        var maxEventBytes: Int
    }

    private let connect: Connect
    private let decode: Decode
    private let rules: Rules
    /// Shared by copies of this stream (and by ``onSkippedEvent(_:)``): the request goes once.
    private let consumption: StreamConsumption
    private let skippedEventHandler: (@Sendable (SkippedStreamEvent) -> Void)?
    /// Whether an error event that decodes as `Event` is yielded before the error is thrown.
    private let yieldsErrorEvents: Bool

    init(
        connect: @escaping Connect, decode: @escaping Decode, rules: Rules,
        consumption: StreamConsumption = StreamConsumption(),
        skippedEventHandler: (@Sendable (SkippedStreamEvent) -> Void)? = nil, yieldsErrorEvents: Bool = false
    ) {
        self.connect = connect
        self.decode = decode
        self.rules = rules
        self.consumption = consumption
        self.skippedEventHandler = skippedEventHandler
        self.yieldsErrorEvents = yieldsErrorEvents
    }

    /// Returns an iterator; the request is sent on its first call to `next()`.
    ///
    /// - Returns: An iterator. Only the first iterator of a stream sends the request: the next
    ///   ones throw ``OpenAIError/Kind/streamAlreadyConsumed`` from `next()`.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(stream: self)
    }

    /// A stream that reports every event it skips to `handler`, on the iterating task, before it
    /// reads on.
    ///
    /// ```swift
    /// let stream = try client.chat.completions.createStream(request)
    ///     .onSkippedEvent { skipped in print("skipped \(skipped.reason): \(skipped.event.data)") }
    /// ```
    ///
    /// - Parameter handler: Called with each skipped event.
    /// - Returns: The same stream (it still sends its request once) with the handler.
    public func onSkippedEvent(_ handler: @escaping @Sendable (SkippedStreamEvent) -> Void) -> OpenAIStream {
        OpenAIStream(
            connect: connect, decode: decode, rules: rules, consumption: consumption, skippedEventHandler: handler,
            yieldsErrorEvents: yieldsErrorEvents)
    }

    /// A stream that yields a typed error event (Responses' ``ResponseStreamEvent/error(_:)``,
    /// Realtime-style `error` events) as an element before it throws the ``OpenAIError`` of that
    /// event from the next call to `next()`; openai-node emits its `error` event the same way.
    /// An error event that does not decode as `Event` (Chat Completions has none) is thrown at
    /// once, as without this.
    ///
    /// - Returns: The same stream (it still sends its request once), delivering error events.
    public func deliveringErrorEvents() -> OpenAIStream {
        OpenAIStream(
            connect: connect, decode: decode, rules: rules, consumption: consumption,
            skippedEventHandler: skippedEventHandler, yieldsErrorEvents: true)
    }

    /// Ends the stream from any task, and iteration ends without an error, as after the last
    /// event:
    /// - before iteration: no request is sent;
    /// - while the request waits for its reply head or for a retry: the attempt is cancelled;
    /// - while events arrive: the connection closes at once with ``URLSessionTransport`` (it
    ///   cancels its task, ``HTTPStreamingResponse/close``); with a transport that gives no such
    ///   handle, the body ends at its next chunk.
    ///
    /// Calling it again does nothing; copies of the stream share it, ``resend()`` makes one that
    /// is open.
    public func close() {
        consumption.close()
    }

    /// Whether ``close()`` was called on this stream or a copy of it.
    public var isClosed: Bool { consumption.isClosed }

    /// The events skipped so far (the first ``maxRecordedSkippedEvents``; copies of the stream
    /// share them), each with why: pass them to ``SpecDeviationReport/init(_:skippedEvents:)``
    /// with the events received to see how a stream departed from the spec.
    ///
    /// ```swift
    /// let stream = try client.responses.createStream(request)
    /// var events: [ResponseStreamEvent] = []
    /// for try await event in stream { events.append(event) }
    /// print(SpecDeviationReport(events, skippedEvents: stream.skippedEvents))
    /// ```
    public var skippedEvents: [SkippedStreamEvent] { consumption.skippedEvents }

    /// How many events were skipped so far, including those past ``maxRecordedSkippedEvents``.
    public var skippedEventCount: Int { consumption.skippedEventCount }

    /// The most skipped events ``skippedEvents`` keeps (64): a stream of many keep-alives holds a
    /// bounded record.
    public static var maxRecordedSkippedEvents: Int { StreamConsumption.maxRecordedSkippedEvents }

    /// A new stream that sends the same request again when it is iterated: a new generation,
    /// billed again.
    ///
    /// - Returns: A stream that has not been consumed.
    public func resend() -> OpenAIStream {
        OpenAIStream(
            connect: connect, decode: decode, rules: rules, skippedEventHandler: skippedEventHandler,
            yieldsErrorEvents: yieldsErrorEvents)
    }

    /// The iterator of an ``OpenAIStream``: it owns the HTTP connection and pulls bytes only when
    /// asked for the next event (back-pressure: a slow consumer never makes the SDK buffer).
    public struct AsyncIterator: AsyncIteratorProtocol {
        private struct Connection {
            var body: AsyncThrowingStream<Data, any Swift.Error>.AsyncIterator
            var requestID: String?
            var parser = ServerSentEventParser()
            var pending: [ServerSentEvent] = []
            var pendingIndex = 0
            var eventCount = 0
            var lastEventType: String?
            var sawTerminalEvent = false
            var choices = ChoiceCompletion()
            /// The error of an error event yielded as an element, thrown by the next `next()`.
            var pendingError: OpenAIError?
        }

        private enum State {
            case idle
            case streaming(Connection)
            case finished
        }

        private let stream: OpenAIStream
        private let decoder: OrderedJSONDecoder
        /// Whether `Event` is a struct that records deviations (a union's cases record their own):
        /// decided once, not by a cast per event.
        private let reportsDeviations: Bool
        private var state = State.idle

        fileprivate init(stream: OpenAIStream) {
            self.stream = stream
            var decoder = OrderedJSONDecoder()
            reportsDeviations = Event.self is any SpecDeviationReporting.Type
            if stream.rules.decodingMode == .strict {
                // Lenient is the default without the key; an empty `userInfo` costs nothing per
                // object.
                decoder.userInfo[.openAIDecodingMode] = DecodingMode.strict
            }
            self.decoder = decoder
        }

        /// Returns the next event, connecting first if needed.
        ///
        /// - Returns: The next typed event, or `nil` once the stream is complete.
        /// - Throws: ``OpenAIError``: the API error of a non-2xx reply (after retries) or of an
        ///   error event; ``OpenAIError/Kind/connection`` or ``OpenAIError/Kind/timeout`` when the
        ///   connection fails; ``OpenAIError/Kind/truncatedEvent``,
        ///   ``OpenAIError/Kind/missingTerminalEvent`` or ``OpenAIError/Kind/unfinishedChoices``
        ///   when it closes before the stream is complete; ``OpenAIError/Kind/eventTooLarge``;
        ///   ``OpenAIError/Kind/cancelled`` when the task is cancelled;
        ///   ``OpenAIError/Kind/streamAlreadyConsumed`` on a second iteration; and, in
        ///   ``DecodingMode/strict``, ``OpenAIError/Kind/decoding`` when an event does not decode.
        ///   After an error the sequence ends and the connection is closed.
        public mutating func next() async throws -> Event? {
            do {
                return try await advance()
            } catch {
                state = .finished
                // A closed stream ends as after its last event, whatever the closing caused.
                if stream.consumption.isClosed { return nil }
                throw Self.openAIError(error)
            }
        }

        private mutating func advance() async throws -> Event? {
            var connection: Connection
            if stream.consumption.isClosed {
                state = .finished
                return nil
            }
            switch state {
            case .finished: return nil
            case .streaming(let current):
                connection = current
                if let error = connection.pendingError { throw error }
            case .idle:
                guard stream.consumption.claim() else {
                    throw OpenAIError(
                        kind: .streamAlreadyConsumed,
                        message:
                            "This stream was iterated before and sends its request only once; call resend() for a new request."
                    )
                }
                try Task.checkCancellation()
                let response = try await connectClosably()
                connection = Connection(
                    body: response.body.makeAsyncIterator(), requestID: response.value(forHeader: "x-request-id"))
            }
            // Leave `state` without a second reference to the body iterator while it is mutated.
            state = .finished
            while true {
                while connection.pendingIndex < connection.pending.count {
                    let event = connection.pending[connection.pendingIndex]
                    connection.pendingIndex += 1
                    switch try handle(event, &connection) {
                    case .element(let element):
                        state = .streaming(connection)
                        return element
                    case .skip: continue
                    case .finish: return nil
                    }
                }
                connection.pending.removeAll(keepingCapacity: true)
                connection.pendingIndex = 0
                guard let chunk = try await connection.body.next() else {
                    // AsyncThrowingStream ends (rather than throws) when the task is cancelled.
                    try Task.checkCancellation()
                    if let last = Self.unterminatedLastEvent(connection.parser) {
                        // The body ended without the blank line after a complete last event.
                        _ = connection.parser.finish()
                        connection.pending.append(last)
                        continue
                    }
                    try checkEnding(connection)
                    return nil
                }
                connection.parser.consume(chunk, into: &connection.pending)
                if connection.parser.pendingByteCount > stream.rules.maxEventBytes {
                    throw tooLarge(connection, received: connection.parser.pendingByteCount)
                }
            }
        }

        /// One dispatched event: `[DONE]`, an error, a skipped payload or a typed event.
        /// Connects in a child task that ``OpenAIStream/close()`` cancels (while the request waits
        /// for its head, or between retries), then hands `close()` the reply's own close.
        private func connectClosably() async throws -> HTTPStreamingResponse {
            let connect = stream.connect
            let attempt = Task { try await connect() }
            stream.consumption.onClose { attempt.cancel() }
            let response = try await withTaskCancellationHandler {
                try await attempt.value
            } onCancel: {
                attempt.cancel()
            }
            stream.consumption.onClose(response.close)
            return response
        }

        /// Whether `element`, decoded from an error event, is a typed event: not a placeholder
        /// that shares no member with the event type, nor a union's `unknown` case.
        private func isTypedEvent(_ element: Event) -> Bool {
            !sharesNoMember(element) && Mirror(reflecting: element).children.first?.label != "unknown"
        }

        /// Whether `element` is a placeholder decoded from JSON that shares no member with the
        /// event type (a keep-alive, a proxy's frame, an error payload).
        private func sharesNoMember(_ element: Event) -> Bool {
            guard reportsDeviations, let reporting = element as? any SpecDeviationReporting else { return false }
            return reporting.specDeviations.sharesNoMember
        }

        private func handle(_ event: ServerSentEvent, _ connection: inout Connection) throws -> StreamStep<Event> {
            let rules = stream.rules
            if event.data.utf8.count > rules.maxEventBytes {
                throw tooLarge(connection, received: event.data.utf8.count)
            }
            if event.data.hasPrefix(ServerSentEventDecoder<Event>.doneSentinel) { return .finish }
            if let name = event.event { connection.lastEventType = name }
            do {
                try OpenAIClient.throwIfError(event, requestID: connection.requestID)
            } catch let error as OpenAIError where stream.yieldsErrorEvents {
                guard let (element, _) = try? stream.decode(event, decoder, false), isTypedEvent(element) else {
                    throw error
                }
                connection.eventCount += 1
                connection.pendingError = error
                return .element(element)
            }
            if event.data.isEmpty { return .skip }
            let wantsType = event.event == nil && !rules.ending.terminalEvents.isEmpty
            let element: Event
            let type: String?
            do {
                (element, type) = try stream.decode(event, decoder, wantsType)
            } catch let error as DecodingError {
                if rules.decodingMode == .strict {
                    throw OpenAIError.decoding(error, response: Self.eventResponse(event, connection.requestID))
                }
                let isJSON = (try? JSONValue(parsing: Data(event.data.utf8))) != nil
                let failure = OpenAIError.decoding(error, response: Self.eventResponse(event, connection.requestID))
                skip(SkippedStreamEvent(event: event, reason: isJSON ? .notAnEvent : .notJSON, decodingError: failure))
                return .skip
            }
            if sharesNoMember(element) {
                skip(SkippedStreamEvent(event: event, reason: .notAnEvent))
                return .skip
            }
            connection.eventCount += 1
            if let type { connection.lastEventType = type }
            if let name = event.event ?? type, rules.ending.terminalEvents.contains(name) {
                connection.sawTerminalEvent = true
            }
            rules.ending.trackChoices?(element, &connection.choices)
            return .element(element)
        }

        private func skip(_ skipped: SkippedStreamEvent) {
            stream.consumption.recordSkipped(skipped)
            stream.skippedEventHandler?(skipped)
        }

        /// The last event of a body that ended without the blank line after it, when it is whole:
        /// `[DONE]`, or data that is complete JSON. Data cut off inside its JSON is `nil`: the
        /// stream was truncated.
        private static func unterminatedLastEvent(_ parser: ServerSentEventParser) -> ServerSentEvent? {
            guard let event = parser.pendingEvent else { return nil }
            if event.data.hasPrefix(ServerSentEventDecoder<Event>.doneSentinel) { return event }
            guard (try? JSONValue(parsing: Data(event.data.utf8))) != nil else { return nil }
            return event
        }

        /// At the end of the body: throws unless the stream is complete.
        private func checkEnding(_ connection: Connection) throws {
            let progress = OpenAIError.StreamProgress(
                eventCount: connection.eventCount, lastEventType: connection.lastEventType,
                unfinishedChoices: connection.choices.unfinished)
            if connection.parser.hasPendingData {
                var error = OpenAIError(
                    kind: .truncatedEvent,
                    message:
                        "The connection closed in the middle of an event: \(connection.parser.pendingByteCount) bytes arrived after the last complete event.",
                    requestID: connection.requestID, rawBody: Data(connection.parser.pendingBytes(upTo: 8192)))
                error.stream = progress
                throw error
            }
            let ending = stream.rules.ending
            guard ending.requiresEnd, !connection.sawTerminalEvent, !connection.choices.isComplete else { return }
            var error: OpenAIError
            if ending.trackChoices != nil {
                let unfinished = connection.choices.unfinished
                let which =
                    unfinished.isEmpty
                    ? "no choice had arrived"
                    : "choice\(unfinished.count == 1 ? "" : "s") \(unfinished.map(String.init).joined(separator: ", ")) had no finish_reason"
                error = OpenAIError(
                    kind: .unfinishedChoices,
                    message: "The stream ended without [DONE] after \(connection.eventCount) events; \(which).",
                    requestID: connection.requestID)
            } else {
                let expected = ending.terminalEvents.sorted().joined(separator: ", ")
                let last = connection.lastEventType.map { "; the last event was \($0)" } ?? ""
                error = OpenAIError(
                    kind: .missingTerminalEvent,
                    message:
                        "The stream ended after \(connection.eventCount) events without a completing event (\(expected))\(last).",
                    requestID: connection.requestID)
            }
            error.stream = progress
            throw error
        }

        private func tooLarge(_ connection: Connection, received: Int) -> OpenAIError {
            var error = OpenAIError(
                kind: .eventTooLarge,
                message:
                    "A server-sent event exceeded \(stream.rules.maxEventBytes) bytes (\(received) bytes received); see Configuration.maxStreamEventBytes.",
                requestID: connection.requestID)
            error.stream = OpenAIError.StreamProgress(
                eventCount: connection.eventCount, lastEventType: connection.lastEventType)
            return error
        }

        static func eventResponse(_ event: ServerSentEvent, _ requestID: String?) -> HTTPResponse {
            HTTPResponse(
                statusCode: 200, headers: requestID.map { ["x-request-id": $0] } ?? [:], body: Data(event.data.utf8))
        }

        private static func openAIError(_ error: any Swift.Error) -> OpenAIError {
            switch error {
            case let error as OpenAIError: return error
            case is CancellationError:
                return .cancelled("The stream was cancelled.")
            case let error as URLError where error.code == .cancelled:
                return .cancelled("The stream was cancelled.")
            case let error as URLError where error.code == .timedOut:
                return OpenAIError(kind: .timeout, message: "The stream timed out.")
            default:
                return OpenAIError(kind: .connection, message: "The stream failed: \(error)")
            }
        }
    }
}
