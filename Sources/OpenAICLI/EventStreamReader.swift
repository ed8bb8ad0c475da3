import Foundation
import OpenAIRuntime

/// Reads an operation's server-sent events (WHATWG HTML, "Server-sent events") through the
/// runtime's stream (``OpenAIStream``), so that the `openai` tool, its MCP server and the SDK's
/// typed streams end, fail and bound the same bytes the same way: `[DONE]`, the operation's
/// completing events or finished choices, error events (kind `server`), an event over
/// ``OpenAIClient/Configuration/maxStreamEventBytes`` (`eventTooLarge`), a body cut off in an
/// event (`truncatedEvent`) or between events before the end (`missingTerminalEvent`,
/// `unfinishedChoices`). Only what is printed stays here: each event's payload as JSON, with its
/// `event:` name where the operation names events.
struct EventStreamReader {
    var client: OpenAIClient
    var operation: APIOperation

    /// How a read ended.
    enum Outcome {
        /// The stream was complete.
        case complete(events: Int)
        /// `maxEvents` events were read; the connection was closed.
        case stopped(events: Int)
        /// The server answered with another media type (JSON instead of events): its reply.
        case notAStream(HTTPResponse)
    }

    /// Sends `request` and hands each chunk of bytes and each event on.
    ///
    /// - Parameters:
    ///   - maxEvents: The most events to read (`--max-items`); `nil` reads to the end.
    ///   - opened: Called once the reply's head has arrived.
    ///   - bytes: Each chunk as received (`--format raw`).
    ///   - skipped: Each payload that is not JSON, skipped as the SDK's streams skip it.
    ///   - event: Each event: its JSON payload, or `{"event": name, "data": payload}` for named events.
    /// - Throws: ``OpenAIError`` for a non-2xx reply and the stream failures listed above; what
    ///   `bytes` and `event` throw.
    func read(
        _ request: APIRequest, options: RequestOptions, maxEvents: Int? = nil, opened: () -> Void = {},
        bytes: (@Sendable (Data) throws -> Void)? = nil,
        skipped: @escaping @Sendable (SkippedStreamEvent) -> Void = { _ in },
        event: (JSON) throws -> Void
    ) async throws -> Outcome {
        guard let stream = operation.stream else { return .complete(events: 0) }
        var request = request
        request.accept = "text/event-stream"
        var response = try await client.openEventStream(request, options: options)
        opened()
        let type = (response.value(forHeader: "Content-Type") ?? "").lowercased()
        if !type.contains("text/event-stream") {
            var body = Data()
            for try await chunk in response.body { body.append(chunk) }
            return .notAStream(HTTPResponse(statusCode: response.statusCode, headers: response.headers, body: body))
        }
        if let bytes { response.body = Self.tapped(response.body, bytes) }
        let events = client.events(
            of: response, options: options, ending: Self.ending(of: stream),
            decode: Self.decoder(namedEvents: stream.namedEvents)
        ).onSkippedEvent(skipped)
        var count = 0
        for try await payload in events {
            try event(payload)
            count += 1
            if let maxEvents, count >= maxEvents {
                events.close()
                return .stopped(events: count)
            }
        }
        return .complete(events: count)
    }

    /// What completes the operation's stream, from the catalogue (the overlay's `x-stream` rules).
    static func ending(of stream: APIOperation.Stream) -> StreamEnding<JSON> {
        if !stream.terminalEvents.isEmpty { return .terminalEvents(Set(stream.terminalEvents)) }
        guard stream.finishedChoices else { return .unspecified }
        return .finishedChoices { event, choices in
            for choice in event["choices"]?.array ?? [] {
                let index = Int(choice["index"]?.compact ?? "0") ?? 0
                choices.record(index: index, finished: choice["finish_reason"].map { $0 != .null } ?? false)
            }
        }
    }

    /// One event's JSON and its `type`: `{"event": name, "data": payload}` where the operation
    /// names its events. Data that is not JSON throws `DecodingError` (the stream skips it).
    static func decoder(namedEvents: Bool) -> @Sendable (ServerSentEvent) throws -> (JSON, type: String?) {
        { sent in
            guard let payload = try? JSON.parse(Array(sent.data.utf8)) else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: [], debugDescription: "The event's data is not JSON."))
            }
            if namedEvents, let name = sent.event {
                return (.object([JSON.Member("event", .string(name)), JSON.Member("data", payload)]), name)
            }
            return (payload, payload["type"]?.string)
        }
    }

    /// `body` with each chunk handed to `observe` as it is read.
    private static func tapped(
        _ body: AsyncThrowingStream<Data, any Error>, _ observe: @escaping @Sendable (Data) throws -> Void
    ) -> AsyncThrowingStream<Data, any Error> {
        let source = ChunkSource(body.makeAsyncIterator())
        return AsyncThrowingStream {
            guard let chunk = try await source.next() else { return nil }
            try observe(chunk)
            return chunk
        }
    }

    /// The iterator of a body read by one consumer (the stream's iterator) at a time.
    private final class ChunkSource: @unchecked Sendable {
        private var iterator: AsyncThrowingStream<Data, any Error>.AsyncIterator

        init(_ iterator: AsyncThrowingStream<Data, any Error>.AsyncIterator) { self.iterator = iterator }

        func next() async throws -> Data? { try await iterator.next() }
    }

    /// `1 event`, `3 events`.
    static func count(_ events: Int) -> String { events == 1 ? "1 event" : "\(events) events" }
}
