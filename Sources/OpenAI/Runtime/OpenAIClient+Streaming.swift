import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How a streaming operation's server-sent events carry its typed events.
enum StreamFraming: Sendable {
    /// The `data` field is the event's JSON (Chat Completions, Responses, images, audio).
    case data
    /// The `event` field names the event and `data` holds its payload; the typed event decodes
    /// from `{"event": <name>, "data": <payload>}` (the Assistants run stream).
    case eventNameAndData
}

/// The typed events of a streaming operation, in the order the server sends them.
///
/// The request is sent when iteration starts; each iteration sends it anew. `data: [DONE]` ends
/// the sequence cleanly; an error event ends it by throwing ``OpenAIError``. Cancelling the
/// iterating task, or dropping the iterator, closes the connection.
public struct OpenAIStream<Event: Sendable>: AsyncSequence, Sendable {
    public typealias Element = Event

    private let makeStream: @Sendable () -> AsyncThrowingStream<Event, any Swift.Error>

    init(_ makeStream: @escaping @Sendable () -> AsyncThrowingStream<Event, any Swift.Error>) {
        self.makeStream = makeStream
    }

    public func makeAsyncIterator() -> AsyncThrowingStream<Event, any Swift.Error>.AsyncIterator {
        makeStream().makeAsyncIterator()
    }
}

extension OpenAIClient {
    /// Sends a streaming request and decodes its server-sent events as `Event`.
    func stream<Event: Decodable & Sendable>(
        _ request: APIRequest, options: RequestOptions, as type: Event.Type, framing: StreamFraming
    ) -> OpenAIStream<Event> {
        OpenAIStream { [self] in
            AsyncThrowingStream { continuation in
                let task = Task {
                    do {
                        var request = request
                        request.accept = "text/event-stream"
                        let httpRequest = try self.makeHTTPRequest(request, options: options)
                        let timeout = options.timeout ?? self.configuration.timeout
                        let response = try await self.transport.stream(httpRequest, timeout: timeout)
                        guard (200..<300).contains(response.statusCode) else {
                            var body = Data()
                            for try await chunk in response.body { body.append(chunk) }
                            throw OpenAIError.fromResponse(
                                HTTPResponse(statusCode: response.statusCode, headers: response.headers, body: body))
                        }
                        let requestID = HTTPResponse(statusCode: response.statusCode, headers: response.headers)
                            .value(forHeader: "x-request-id")
                        let decoder = ServerSentEventDecoder<Event>(
                            errorHook: { event in try Self.throwIfError(event, requestID: requestID) },
                            transform: { event in
                                .element(try Self.decodeEvent(Event.self, event, framing: framing, requestID: requestID))
                            })
                        for try await element in response.body.serverSentEvents.decoded(with: decoder) {
                            continuation.yield(element)
                        }
                        continuation.finish()
                    } catch is CancellationError {
                        continuation.finish(throwing: OpenAIError(kind: .cancelled, message: "The stream was cancelled."))
                    } catch {
                        continuation.finish(throwing: error)
                    }
                }
                continuation.onTermination = { _ in task.cancel() }
            }
        }
    }

    /// Throws when an event reports an error: an `event: error` frame, a payload with an `error`
    /// object, or a Responses `{"type": "error"}` event.
    static func throwIfError(_ event: ServerSentEvent, requestID: String?) throws {
        let named = event.event == "error"
        guard named || event.data.contains("\"error\"") else { return }
        guard let payload = try? JSONDecoder().decode(JSONValue.self, from: Data(event.data.utf8)) else {
            if named { throw OpenAIError(kind: .server, message: event.data, requestID: requestID) }
            return
        }
        let body: [String: JSONValue]?
        if let nested = payload["error"]?.objectValue {
            body = nested
        } else if named || payload["type"] == "error" {
            body = payload.objectValue
        } else {
            body = nil
        }
        guard let body else { return }
        let code: String? =
            switch body["code"] {
            case .string(let value): value
            case .int(let value): String(value)
            default: nil
            }
        throw OpenAIError(
            kind: .server, message: body["message"]?.stringValue ?? event.data, type: body["type"]?.stringValue,
            code: code, param: body["param"]?.stringValue, requestID: requestID,
            rawBody: Data(event.data.utf8))
    }

    static func decodeEvent<Event: Decodable>(
        _ type: Event.Type, _ event: ServerSentEvent, framing: StreamFraming, requestID: String?
    ) throws -> Event {
        let json: Data
        switch framing {
        case .data:
            json = Data(event.data.utf8)
        case .eventNameAndData:
            let name = String(decoding: try JSONEncoder().encode(event.event ?? "message"), as: UTF8.self)
            json = Data("{\"event\":\(name),\"data\":\(event.data)}".utf8)
        }
        do {
            return try JSONDecoder().decode(Event.self, from: json)
        } catch let error as DecodingError {
            throw OpenAIError.decoding(
                error, response: HTTPResponse(statusCode: 200, headers: requestID.map { ["x-request-id": $0] } ?? [:], body: json))
        }
    }
}
