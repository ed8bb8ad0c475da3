import Foundation
import OpenAIRuntime

/// The structured output so far, while it streams: the JSON received, read with
/// ``PartialJSONDecoder`` (strings that have begun, complete numbers and literals, no member
/// whose value has not begun).
public struct PartialOutput<Output: Decodable>: Sendable {
    /// The value so far.
    public var json: JSONValue
    /// The text received so far.
    public var text: String

    /// The value so far decoded as `Output`, or `nil` while it does not decode (a required member
    /// not yet there). A type whose members are optional decodes from the first member on.
    /// Each call decodes the whole value so far.
    public func value() -> Output? { value(as: Output.self) }

    /// The value so far decoded as another type, typically `Output` with every member optional
    /// (what a screen shows while the output streams), or `nil` while it does not decode.
    public func value<T: Decodable>(as type: T.Type) -> T? { try? json.decode(as: type) }
}

/// An event of ``ChatCompletionsAPI/parseStream(_:as:name:strict:options:)`` or
/// ``ResponsesAPI/parseStream(_:as:name:strict:options:)``.
public enum StructuredOutputStreamEvent<Output: Decodable, Final>: Sendable where Final: Sendable {
    /// More of the output arrived (one event per text delta that changed the value so far).
    case partial(PartialOutput<Output>)
    /// The stream completed: the reply and its decoded output, as `parse` gives them.
    case completed(Final)
}

extension ChatCompletionsAPI {
    /// Streams a chat completion whose reply is structured output of `Output`'s schema: the value
    /// so far after each content delta of the first choice, then the whole reply decoded as
    /// ``parse(_:as:name:strict:options:isolation:)`` does.
    ///
    /// ```swift
    /// for try await event in try client.chat.completions.parseStream(request, as: Recipe.self) {
    ///     switch event {
    ///     case .partial(let partial): print(partial.json)  // {"title": "Pas"}
    ///     case .completed(let parsed): print(parsed.output?.title ?? parsed.refusal ?? "")
    ///     }
    /// }
    /// ```
    ///
    /// Content that stops being JSON (a model not in strict mode) ends the partial events; the
    /// completed reply then throws what `parse` throws for it.
    ///
    /// `Output` is `Sendable` and its `Decodable` conformance nonisolated: values are decoded in
    /// the stream's task and handed to the task that iterates. In an app target with default
    /// MainActor isolation, declare it `nonisolated struct Forecast: Decodable { … }`; the compiler
    /// rejects a main-actor-isolated conformance here ("cannot satisfy conformance requirement for
    /// a 'Sendable' type parameter"), while ``parse(_:as:name:strict:options:isolation:)`` takes one.
    ///
    /// - Parameters:
    ///   - body: The request; its `responseFormat` is replaced, and `stream` set.
    ///   - type: The Swift type of the structured output.
    ///   - name: The format's name; by default `Output`'s.
    ///   - strict: Whether the model must follow the schema exactly (OpenAI's strict mode).
    ///   - options: Per-request headers, query items, timeout, retries and idempotency key.
    /// - Returns: The events; the request is sent when iteration starts (a second iteration
    ///   throws ``OpenAIError/Kind/streamAlreadyConsumed``), and stopping the iteration (or
    ///   cancelling its task) closes the stream.
    /// - Throws: ``JSONSchemaError`` before sending when `Output`'s schema cannot be derived or
    ///   does not fit strict mode. The iteration throws what ``createStream(_:options:)``'s does
    ///   and, at the end, what ``parse(_:as:name:strict:options:isolation:)`` throws for the reply
    ///   (``StructuredOutputError``).
    public func parseStream<Output: Decodable & Sendable>(
        _ body: CreateChatCompletionRequest, as type: Output.Type, name: String? = nil, strict: Bool = true,
        options: RequestOptions = RequestOptions()
    ) throws -> EventSequence<StructuredOutputStreamEvent<Output, ParsedChatCompletion<Output>>> {
        var body = body
        body.responseFormat = try .jsonSchema(type, name: name, strict: strict)
        let stream = try createStream(body, options: options)
        return EventSequence { emit in
            var accumulator = ChatCompletionStreamAccumulator()
            var partial = StructuredOutputStreaming.Partial()
            for try await chunk in stream {
                accumulator.append(chunk)
                for choice in chunk.choices where choice.index == 0 {
                    if let delta = choice.delta.content, let event = partial.append(delta) {
                        emit(.partial(PartialOutput(json: event, text: partial.text)))
                    }
                }
            }
            guard let completion = accumulator.completion else {
                throw StructuredOutputError(.noContent, "the stream ended without a chunk")
            }
            emit(.completed(try Self.parsed(completion, as: type)))
        }
    }
}

extension ResponsesAPI {
    /// Streams a response whose output is structured output of `Output`'s schema: the value so
    /// far after each `response.output_text.delta` of the first text part, then the whole
    /// response decoded as ``parse(_:as:name:strict:options:isolation:)`` does.
    ///
    /// `Output` is `Sendable` and its `Decodable` conformance nonisolated: values are decoded in
    /// the stream's task and handed to the task that iterates. In an app target with default
    /// MainActor isolation, declare it `nonisolated struct Forecast: Decodable { … }`; the compiler
    /// rejects a main-actor-isolated conformance here ("cannot satisfy conformance requirement for
    /// a 'Sendable' type parameter"), while ``parse(_:as:name:strict:options:isolation:)`` takes one.
    ///
    /// - Parameters:
    ///   - body: The request; its `text.format` is replaced (its verbosity kept), and `stream` set.
    ///   - type: The Swift type of the structured output.
    ///   - name: The format's name; by default `Output`'s.
    ///   - strict: Whether the model must follow the schema exactly.
    ///   - options: Per-request headers, query items, timeout, retries and idempotency key.
    /// - Returns: The events; the request is sent when iteration starts (a second iteration
    ///   throws ``OpenAIError/Kind/streamAlreadyConsumed``).
    /// - Throws: ``JSONSchemaError`` before sending. The iteration throws what
    ///   ``createStream(_:options:)``'s does, the accumulator's ``ResponseStreamAccumulator/apply(_:)``
    ///   errors, and, at the end, what ``parse(_:as:name:strict:options:isolation:)`` throws for the response.
    public func parseStream<Output: Decodable & Sendable>(
        _ body: CreateResponse, as type: Output.Type, name: String? = nil, strict: Bool = true,
        options: RequestOptions = RequestOptions()
    ) throws -> EventSequence<StructuredOutputStreamEvent<Output, ParsedResponse<Output>>> {
        let stream = try createStream(
            try Self.requestingFormat(of: type, name: name, strict: strict, in: body), options: options)
        return EventSequence { emit in
            var accumulator = try ResponseStreamAccumulator()
            var partial = StructuredOutputStreaming.Partial()
            var part: (output: Int, content: Int)?
            for try await event in stream {
                try accumulator.apply(event)
                guard case .responseOutputTextDelta(let delta) = event else { continue }
                let position = part ?? (delta.outputIndex, delta.contentIndex)
                part = position
                guard position == (delta.outputIndex, delta.contentIndex), let json = partial.append(delta.delta)
                else { continue }
                emit(.partial(PartialOutput(json: json, text: partial.text)))
            }
            guard let response = accumulator.finalResponse else {
                throw StructuredOutputError(.noContent, "the stream ended before the response completed")
            }
            emit(.completed(try Self.parsed(response, as: type)))
        }
    }
}

enum StructuredOutputStreaming {
    /// The text so far and its value so far; stops reading once the text is not JSON.
    struct Partial {
        private var decoder = PartialJSONDecoder()
        private var failed = false
        private var revision = 0
        private(set) var text = ""

        /// Adds a delta; returns the value so far when it changed.
        mutating func append(_ delta: String) -> JSONValue? {
            text += delta
            guard !failed, !delta.isEmpty else { return nil }
            do {
                try decoder.append(delta)
            } catch {
                failed = true
                return nil
            }
            guard decoder.revision != revision, let value = decoder.value else { return nil }
            revision = decoder.revision
            return value
        }
    }

}

/// The events of a streaming helper (`parseStream`, `runToolsStream`, `createBackgroundStream`).
///
/// Nothing is sent until iteration starts; the work runs in a task of its own, and stopping the
/// iteration early (or cancelling the iterating task) cancels it. Events the iteration has not
/// asked for yet are buffered.
public struct EventSequence<Element: Sendable>: AsyncSequence, Sendable {
    private let produce: @Sendable (_ emit: (Element) -> Void) async throws -> Void

    /// The events `produce` emits, from a task started when iteration starts.
    init(_ produce: @escaping @Sendable (_ emit: (Element) -> Void) async throws -> Void) {
        self.produce = produce
    }

    /// Starts the work and returns its events' iterator.
    ///
    /// - Returns: The iterator; its `next()` throws what the work throws.
    public func makeAsyncIterator() -> AsyncThrowingStream<Element, any Error>.AsyncIterator {
        let produce = self.produce
        return AsyncThrowingStream<Element, any Error> { continuation in
            let task = Task {
                do {
                    try await produce { continuation.yield($0) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }.makeAsyncIterator()
    }
}
