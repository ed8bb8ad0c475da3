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

extension OpenAIClient {
    /// Sends a streaming request and decodes its server-sent events as `Event`.
    ///
    /// - Parameters:
    ///   - request: The operation's request; its `Accept` becomes `text/event-stream`.
    ///   - options: Per-request overrides (timeout in seconds, retries, headers).
    ///   - type: The operation's event type.
    ///   - framing: Where the event's JSON is (`data`, or `event` name plus `data`).
    ///   - ending: What completes the stream, so that one cut off early is reported as such.
    /// - Returns: A lazily connecting stream of typed events, decoded under
    ///   ``Configuration/decodingMode``.
    package func stream<Event: Decodable & Sendable>(
        _ request: APIRequest, options: RequestOptions, as type: Event.Type, framing: StreamFraming,
        ending: StreamEnding<Event>
    ) -> OpenAIStream<Event> {
        var request = request
        request.accept = "text/event-stream"
        return OpenAIStream(
            connect: { [self, request] in try await self.openEventStream(request, options: options) },
            decode: { event, decoder, wantsType in
                try OpenAIClient.decodeEvent(Event.self, event, framing: framing, wantsType: wantsType, decoder)
            },
            rules: OpenAIStream<Event>.Rules(
                ending: ending, decodingMode: configuration.decodingMode,
                maxEventBytes: options.maxStreamEventBytes ?? configuration.maxStreamEventBytes))
    }

    /// The events of a reply whose head has already arrived (``openEventStream(_:options:)``), each
    /// made an `Event` by `decode`, under the rules of every typed stream (``OpenAIStream``):
    /// `[DONE]`, error events, `ending`, the bound on one event's size, a body cut off. For callers
    /// that look at the reply head before reading events, and read them as untyped JSON: the
    /// `openai` tool and its MCP server.
    ///
    /// - Parameters:
    ///   - response: The 2xx reply whose body is the event stream.
    ///   - options: Per-request overrides (``RequestOptions/maxStreamEventBytes``).
    ///   - ending: What completes the stream.
    ///   - decode: One event's value and its `type` (for ``StreamEnding/terminalEvents(_:)``);
    ///     throws `DecodingError` for data that is not an event (skipped, or thrown in
    ///     ``DecodingMode/strict``).
    /// - Returns: A stream that reads `response`'s body once.
    package func events<Event: Sendable>(
        of response: HTTPStreamingResponse, options: RequestOptions, ending: StreamEnding<Event>,
        decode: @escaping @Sendable (ServerSentEvent) throws -> (Event, type: String?)
    ) -> OpenAIStream<Event> {
        OpenAIStream(
            connect: { response },
            decode: { event, _, _ in try decode(event) },
            rules: OpenAIStream<Event>.Rules(
                ending: ending, decodingMode: configuration.decodingMode,
                maxEventBytes: options.maxStreamEventBytes ?? configuration.maxStreamEventBytes))
    }

    /// Sends `request` until a 2xx reply head arrives, with the runtime's retry rules
    /// (``withRetries(_:options:_:)``: connection failures, 408/409/429/5xx, `x-should-retry`,
    /// `Retry-After`). Once the head has arrived nothing is retried: events already yielded cannot
    /// be taken back.
    ///
    /// - Throws: ``OpenAIError``: for a non-2xx reply the same error a non-streaming call throws
    ///   (message, code, request id and the body, read up to
    ///   ``URLSessionTransport/maxErrorBodyBytes``); transport failures and cancellation.
    package func openEventStream(_ request: APIRequest, options: RequestOptions) async throws -> HTTPStreamingResponse {
        try await openReply(request, options: options)
    }

    /// Sends `request` as ``openEventStream(_:options:)`` does and returns the 2xx reply with its
    /// body still to be read, chunk by chunk: for a caller that bounds what it holds of a reply of
    /// any media type (`openai mcp`'s tool results).
    ///
    /// - Throws: ``OpenAIError`` as ``openEventStream(_:options:)``.
    package func openReply(_ request: APIRequest, options: RequestOptions) async throws -> HTTPStreamingResponse {
        try await withRetries(request, options: options) { httpRequest, timeouts in
            let response = try await self.pipeline.stream(httpRequest, timeouts: timeouts)
            guard (200..<300).contains(response.statusCode) else {
                return .failure(try await Self.readErrorBody(response))
            }
            return .success(response, statusCode: response.statusCode, headers: response.headers)
        }.value
    }

    /// Throws when an event reports an error: an `event: error` frame (its data is the error, flat
    /// or as `{"error": {...}}`), a payload with a top-level `error` object (Chat Completions),
    /// or a Responses `{"type": "error", "code": ..., "message": ...}` event.
    ///
    /// - Parameters:
    ///   - event: The dispatched event.
    ///   - requestID: The reply's `x-request-id`, copied into the error.
    /// - Throws: ``OpenAIError`` of kind ``OpenAIError/Kind/server`` with the payload's message,
    ///   code, type and param, and the event's data as the raw body.
    package static func throwIfError(_ event: ServerSentEvent, requestID: String?) throws {
        let named = event.event == "error"
        guard named || mentionsError(event.data) else { return }
        guard let payload = try? JSONValue(parsing: Data(event.data.utf8)) else {
            if named {
                throw OpenAIError(
                    kind: .server, message: event.data.isEmpty ? "The stream reported an error." : event.data,
                    requestID: requestID, rawBody: Data(event.data.utf8))
            }
            return
        }
        let wrapsError = if case .object? = payload["error"] { true } else { false }
        guard wrapsError || (payload.objectValue != nil && (named || payload["type"] == "error")) else { return }
        let body = ErrorBody(payload)
        throw OpenAIError(
            kind: .server, message: body.message ?? event.data,
            type: body.type == "error" ? nil : body.type, code: body.code, param: body.param,
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

    /// Decodes one event's JSON as `Event`, and its JSON `type` member when `wantsType`.
    ///
    /// - Throws: `DecodingError` when the data is not JSON or not an `Event`.
    static func decodeEvent<Event: Decodable>(
        _ type: Event.Type, _ event: ServerSentEvent, framing: StreamFraming, wantsType: Bool = false,
        _ decoder: OrderedJSONDecoder = OrderedJSONDecoder()
    ) throws -> (Event, String?) {
        switch framing {
        case .data:
            return try decode(Event.self, event.data.utf8, wantsType: wantsType, decoder)
        case .eventNameAndData:
            var json: [UInt8] = []
            json.reserveCapacity(event.data.utf8.count + 64)
            json.append(contentsOf: #"{"event":"#.utf8)
            json.append(contentsOf: try OrderedJSONEncoder().encodeBytes(event.event ?? "message"))
            json.append(contentsOf: #","data":"#.utf8)
            json.append(contentsOf: event.data.utf8)
            json.append(UInt8(ascii: "}"))
            return try decode(Event.self, json, wantsType: wantsType, decoder)
        }
    }

    private static func decode<Event: Decodable>(
        _ type: Event.Type, _ json: some Collection<UInt8>, wantsType: Bool, _ decoder: OrderedJSONDecoder
    ) throws -> (Event, String?) {
        if wantsType {
            let typed = try decoder.decode(TypedEvent<Event>.self, fromBytes: json)
            return (typed.event, typed.type)
        }
        return (try decoder.decode(Event.self, fromBytes: json), nil)
    }
}

/// An event with its JSON `type` member, read from the same decoder (no second parse).
private struct TypedEvent<Event: Decodable>: Decodable {
    var event: Event
    var type: String?

    init(from decoder: any Decoder) throws {
        event = try Event(from: decoder)
        type = decoder.discriminator("type")
    }
}
