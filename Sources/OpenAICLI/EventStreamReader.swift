import Foundation
import OpenAIRuntime

/// Reads an operation's server-sent events (WHATWG HTML, "Server-sent events") through the
/// runtime: each event's payload as JSON (with its `event:` name where the operation names events),
/// error events thrown, and the ending checked (``StreamTracker``).
struct EventStreamReader {
    var client: OpenAIClient
    var operation: APIOperation

    /// How a read ended.
    enum Outcome {
        /// The stream was complete.
        case complete(events: Int)
        /// The server answered with another media type (JSON instead of events): its reply.
        case notAStream(HTTPResponse)
    }

    /// Sends `request` and hands each chunk of bytes and each event on.
    ///
    /// - Parameters:
    ///   - opened: Called once the reply's head has arrived.
    ///   - bytes: Each chunk as received.
    ///   - event: Each event: its JSON payload, or `{"event": name, "data": payload}` for named events.
    /// - Throws: ``OpenAIError`` for a non-2xx reply, an error event (kind `server`), a stream cut
    ///   off (kind `truncatedEvent`) or ended without its final event (`missingTerminalEvent`); what
    ///   `bytes` and `event` throw.
    func read(
        _ request: APIRequest, options: RequestOptions, opened: () -> Void = {},
        bytes: (Data) throws -> Void = { _ in }, event: (JSON) throws -> Void
    ) async throws -> Outcome {
        guard let stream = operation.stream else { return .complete(events: 0) }
        let response = try await client.openEventStream(request, options: options)
        opened()
        let requestID = response.value(forHeader: "x-request-id")
        let type = (response.value(forHeader: "Content-Type") ?? "").lowercased()
        if !type.contains("text/event-stream") {
            var body = Data()
            for try await chunk in response.body { body.append(chunk) }
            return .notAStream(HTTPResponse(statusCode: response.statusCode, headers: response.headers, body: body))
        }
        var parser = ServerSentEventParser()
        var tracker = StreamTracker(stream: stream)
        // The runtime's bound on one event (Configuration.maxStreamEventBytes, 64 MiB by default): a
        // server that never ends an event cannot fill the memory.
        let maxEventBytes = options.maxStreamEventBytes ?? client.configuration.maxStreamEventBytes
        func tooLarge(_ received: Int) -> OpenAIError {
            OpenAIError(
                kind: .eventTooLarge,
                message:
                    "A server-sent event exceeded \(maxEventBytes) bytes (\(received) bytes received) after "
                    + "\(StreamTracker.count(tracker.events)).",
                requestID: requestID)
        }
        func handle(_ sent: ServerSentEvent) throws {
            guard sent.data.utf8.count <= maxEventBytes else { throw tooLarge(sent.data.utf8.count) }
            guard let payload = try tracker.take(sent, requestID: requestID) else { return }
            if stream.namedEvents, let name = sent.event {
                try event(.object([JSON.Member("event", .string(name)), JSON.Member("data", payload)]))
            } else {
                try event(payload)
            }
        }
        var midEvent = false
        do {
            for try await chunk in response.body {
                try bytes(chunk)
                for sent in parser.consume(chunk) { try handle(sent) }
                if parser.pendingByteCount > maxEventBytes { throw tooLarge(parser.pendingByteCount) }
            }
            // A last event without its blank line counts when it is whole (`data: [DONE]\n` and
            // the end of the body, as Anthropic's compatible endpoint ends), as the SDK's streams do.
            if let last = parser.pendingEvent,
                last.data.hasPrefix("[DONE]") || (try? JSON.parse(Array(last.data.utf8))) != nil
            {
                try handle(last)
            } else {
                midEvent = parser.hasIncompleteEvent
            }
            for sent in parser.finish() { try handle(sent) }
        } catch let error as OpenAIError where error.kind != .connection && error.kind != .timeout {
            throw error
        } catch let error as CLIError {
            throw error
        } catch {
            // The connection broke or timed out in the middle of the stream.
            let reason = (error as? OpenAIError)?.message ?? "\(error)"
            throw OpenAIError(
                kind: .truncatedEvent,
                message: "The stream was cut off after \(StreamTracker.count(tracker.events)): \(reason)",
                requestID: requestID)
        }
        if !tracker.complete(midEvent: midEvent) {
            throw OpenAIError(
                kind: .missingTerminalEvent,
                message: "The stream ended after \(StreamTracker.count(tracker.events)) without its final event"
                    + (stream.terminalEvents.isEmpty ? "" : " (\(stream.terminalEvents.joined(separator: ", ")))")
                    + ".",
                requestID: requestID)
        }
        return .complete(events: tracker.events)
    }
}

/// Whether a stream got what completes it: `[DONE]`, a terminal event, or every choice finished
/// (the rules of the SDK's typed streams, on JSON).
struct StreamTracker {
    var stream: APIOperation.Stream
    /// Events taken (not counting `[DONE]`).
    private(set) var events = 0
    private(set) var done = false
    private(set) var terminal = false
    /// Each choice's index → whether it has a `finish_reason`.
    private var choices: [String: Bool] = [:]

    init(stream: APIOperation.Stream) { self.stream = stream }

    /// Takes one event: its JSON payload (text that is not JSON as a string), or `nil` for `[DONE]`
    /// and empty events.
    ///
    /// - Throws: ``OpenAIError`` of kind `server` for an event that reports an error.
    mutating func take(_ event: ServerSentEvent, requestID: String?) throws -> JSON? {
        if event.data == "[DONE]" {
            done = true
            return nil
        }
        if event.data.isEmpty && event.event == nil { return nil }
        try OpenAIClient.throwIfError(event, requestID: requestID)
        let payload = (try? JSON.parse(Array(event.data.utf8))) ?? .string(event.data)
        events += 1
        let name = stream.namedEvents ? event.event : payload["type"]?.string
        if let name, stream.terminalEvents.contains(name) { terminal = true }
        for choice in payload["choices"]?.array ?? [] {
            let index = choice["index"]?.compact ?? "0"
            let finished = choice["finish_reason"].map { $0 != .null } ?? false
            choices[index] = (choices[index] ?? false) || finished
        }
        return payload
    }

    /// Whether the stream is complete, given that it ended `midEvent` or between events.
    func complete(midEvent: Bool) -> Bool {
        if done || terminal { return true }
        if !stream.terminalEvents.isEmpty { return false }
        if stream.finishedChoices { return !choices.isEmpty && choices.values.allSatisfy { $0 } }
        return !midEvent
    }

    /// `1 event`, `3 events`.
    static func count(_ events: Int) -> String { events == 1 ? "1 event" : "\(events) events" }
}
