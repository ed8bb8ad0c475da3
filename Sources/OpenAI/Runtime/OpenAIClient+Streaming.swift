import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// How a streaming operation's server-sent events carry its typed events.
enum StreamFraming: Sendable {
    /// The `data` field is the event's JSON (Chat Completions, Completions, Responses, images,
    /// audio); a discriminator inside it (for example the Responses `type`) names the event.
    case data
    /// The `event` field names the event and `data` holds its payload; the typed event decodes
    /// from `{"event": <name>, "data": <payload>}` (the Assistants run stream), so the `event:`
    /// line alone decides which event it is.
    case eventNameAndData
}

/// The typed events of a streaming operation, in the order the server sends them.
///
/// The request is sent when iteration starts (each new iterator sends it anew) and retried like a
/// non-streaming request until a 2xx reply head arrives; the events are then decoded one at a time
/// as their bytes arrive, so memory use does not grow with the length of the stream. `data: [DONE]`
/// ends the sequence cleanly. An event type this SDK does not know arrives as the event type's
/// `unknown` case with its raw JSON. An error event (`event: error`, a payload with an `error`
/// object, or a Responses `{"type": "error"}` event) ends the sequence by throwing
/// ``OpenAIError``. Cancelling the iterating task, or dropping the iterator, closes the
/// connection.
public struct OpenAIStream<Event: Sendable>: AsyncSequence, Sendable {
    /// The element type: one typed event.
    public typealias Element = Event

    /// Sends the request (with retries) and returns the 2xx reply whose body is the event stream.
    typealias Connect = @Sendable () async throws -> HTTPStreamingResponse
    /// Maps one event to a step, given the reply's `x-request-id`.
    typealias Decode = @Sendable (ServerSentEvent, JSONDecoder, String?) throws -> StreamStep<Event>

    private let connect: Connect
    private let decode: Decode

    init(connect: @escaping Connect, decode: @escaping Decode) {
        self.connect = connect
        self.decode = decode
    }

    /// Returns an iterator; the request is sent on its first call to `next()`.
    ///
    /// - Returns: A new iterator with its own connection.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(connect: connect, decode: decode)
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
        }

        private enum State {
            case idle
            case streaming(Connection)
            case finished
        }

        private let connect: Connect
        private let decode: Decode
        private let decoder = JSONDecoder()
        private var state = State.idle

        fileprivate init(connect: @escaping Connect, decode: @escaping Decode) {
            self.connect = connect
            self.decode = decode
        }

        /// Returns the next event, connecting first if needed.
        ///
        /// - Returns: The next typed event, or `nil` after `data: [DONE]` or the end of the body.
        /// - Throws: ``OpenAIError``: the API error of a non-2xx reply (after retries) or of an
        ///   error event, ``OpenAIError/Kind/connection`` or ``OpenAIError/Kind/timeout`` when the
        ///   connection fails, ``OpenAIError/Kind/cancelled`` when the task is cancelled, and
        ///   ``OpenAIError/Kind/decoding`` when an event of a known type does not decode. After an
        ///   error the sequence ends and the connection is closed.
        public mutating func next() async throws -> Event? {
            do {
                return try await advance()
            } catch {
                state = .finished
                throw Self.openAIError(error)
            }
        }

        private mutating func advance() async throws -> Event? {
            var connection: Connection
            switch state {
            case .finished: return nil
            case .streaming(let current): connection = current
            case .idle:
                try Task.checkCancellation()
                let response = try await connect()
                connection = Connection(
                    body: response.body.makeAsyncIterator(),
                    requestID: HTTPResponse(statusCode: response.statusCode, headers: response.headers)
                        .value(forHeader: "x-request-id"))
            }
            // Leave `state` without a second reference to the body iterator while it is mutated.
            state = .finished
            while true {
                while connection.pendingIndex < connection.pending.count {
                    let event = connection.pending[connection.pendingIndex]
                    connection.pendingIndex += 1
                    switch try decode(event, decoder, connection.requestID) {
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
                    return nil
                }
                connection.parser.consume(chunk, into: &connection.pending)
            }
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

extension OpenAIClient {
    /// Sends a streaming request and decodes its server-sent events as `Event`.
    ///
    /// - Parameters:
    ///   - request: The operation's request; its `Accept` becomes `text/event-stream`.
    ///   - options: Per-request overrides (timeout in seconds, retries, headers).
    ///   - type: The operation's event type.
    ///   - framing: Where the event's JSON is (`data`, or `event` name plus `data`).
    /// - Returns: A lazily connecting stream of typed events.
    func stream<Event: Decodable & Sendable>(
        _ request: APIRequest, options: RequestOptions, as type: Event.Type, framing: StreamFraming
    ) -> OpenAIStream<Event> {
        var request = request
        request.accept = "text/event-stream"
        return OpenAIStream(
            connect: { [self, request] in try await self.openEventStream(request, options: options) },
            decode: { event, decoder, requestID in
                if event.data.hasPrefix(ServerSentEventDecoder<Event>.doneSentinel) { return .finish }
                try OpenAIClient.throwIfError(event, requestID: requestID)
                if event.data.isEmpty { return .skip }
                return .element(
                    try OpenAIClient.decodeEvent(Event.self, event, framing: framing, requestID: requestID, decoder))
            })
    }

    /// Sends `request` until a 2xx reply head arrives, with the runtime's retry rules
    /// (``withRetries(_:options:_:)``: connection failures, 408/409/429/5xx, `x-should-retry`,
    /// `Retry-After`). Once the head has arrived nothing is retried: events already yielded cannot
    /// be taken back.
    ///
    /// - Throws: ``OpenAIError``: for a non-2xx reply the same error a non-streaming call throws
    ///   (message, code, request id and the body, read up to ``maxErrorBodyBytes``); transport
    ///   failures and cancellation.
    func openEventStream(_ request: APIRequest, options: RequestOptions) async throws -> HTTPStreamingResponse {
        try await withRetries(request, options: options) { httpRequest, timeout in
            let response = try await self.transport.stream(httpRequest, timeout: timeout)
            guard (200..<300).contains(response.statusCode) else {
                var body = Data()
                for try await chunk in response.body where body.count < Self.maxErrorBodyBytes {
                    body.append(chunk)
                }
                return .failure(HTTPResponse(statusCode: response.statusCode, headers: response.headers, body: body))
            }
            return .success(response, statusCode: response.statusCode, headers: response.headers)
        }
    }

    /// The most bytes of a non-2xx streaming reply's body that are read (1 MiB).
    static let maxErrorBodyBytes = 1 << 20

    /// Throws when an event reports an error: an `event: error` frame (its data is the error, flat
    /// or as `{"error": {...}}`), a payload with a top-level `error` object (Chat Completions),
    /// or a Responses `{"type": "error", "code": ..., "message": ...}` event.
    ///
    /// - Parameters:
    ///   - event: The dispatched event.
    ///   - requestID: The reply's `x-request-id`, copied into the error.
    /// - Throws: ``OpenAIError`` of kind ``OpenAIError/Kind/server`` with the payload's message,
    ///   code, type and param, and the event's data as the raw body.
    static func throwIfError(_ event: ServerSentEvent, requestID: String?) throws {
        let named = event.event == "error"
        guard named || mentionsError(event.data) else { return }
        guard let payload = try? JSONDecoder().decode(JSONValue.self, from: Data(event.data.utf8)) else {
            if named {
                throw OpenAIError(
                    kind: .server, message: event.data.isEmpty ? "The stream reported an error." : event.data,
                    requestID: requestID, rawBody: Data(event.data.utf8))
            }
            return
        }
        let body: [String: JSONValue]
        if let nested = payload["error"]?.objectValue {
            body = nested
        } else if let object = payload.objectValue, named || object["type"] == "error" {
            body = object
        } else {
            return
        }
        let code: String? =
            switch body["code"] {
            case .string(let value): value
            case .int(let value): String(value)
            default: nil
            }
        let type = body["type"]?.stringValue
        throw OpenAIError(
            kind: .server, message: body["message"]?.stringValue ?? event.data,
            type: type == "error" ? nil : type, code: code, param: body["param"]?.stringValue,
            requestID: requestID, rawBody: Data(event.data.utf8))
    }

    /// Whether `data` contains the bytes `"error"` (a JSON key or value), found with `memchr`
    /// and `memcmp`; only such events are parsed a second time to look for an error.
    private static func mentionsError(_ data: String) -> Bool {
        var data = data
        return data.withUTF8 { buffer in
            guard let base = buffer.baseAddress else { return false }
            return errorNeedle.withUnsafeBufferPointer { needle in
                let last = buffer.count - needle.count
                var position = 0
                while position <= last {
                    guard let found = memchr(base + position, 0x22, last - position + 1) else { return false }
                    let index = UnsafeRawPointer(found) - UnsafeRawPointer(base)
                    if memcmp(base + index, needle.baseAddress!, needle.count) == 0 { return true }
                    position = index + 1
                }
                return false
            }
        }
    }

    private static let errorNeedle: [UInt8] = Array("\"error\"".utf8)

    /// Decodes one event's JSON as `Event`.
    ///
    /// - Throws: ``OpenAIError`` of kind ``OpenAIError/Kind/decoding`` naming the JSON path.
    static func decodeEvent<Event: Decodable>(
        _ type: Event.Type, _ event: ServerSentEvent, framing: StreamFraming, requestID: String?,
        _ decoder: JSONDecoder = JSONDecoder()
    ) throws -> Event {
        var json = Data()
        switch framing {
        case .data:
            json = Data(event.data.utf8)
        case .eventNameAndData:
            let name = String(decoding: try JSONEncoder().encode(event.event ?? "message"), as: UTF8.self)
            json.append(contentsOf: #"{"event":"#.utf8)
            json.append(contentsOf: name.utf8)
            json.append(contentsOf: #","data":"#.utf8)
            json.append(contentsOf: event.data.utf8)
            json.append(UInt8(ascii: "}"))
        }
        do {
            return try decoder.decode(Event.self, from: json)
        } catch let error as DecodingError {
            throw OpenAIError.decoding(
                error,
                response: HTTPResponse(
                    statusCode: 200, headers: requestID.map { ["x-request-id": $0] } ?? [:], body: json))
        }
    }
}
