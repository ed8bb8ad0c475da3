import Foundation
import OpenAIRuntime

/// An event of ``ChatCompletionsAPI/parseStream(_:as:name:strict:options:)`` or
/// ``ResponsesAPI/parseStream(_:as:name:strict:options:)``.
public enum StructuredOutputStreamEvent<Output: Decodable, Final>: Sendable where Final: Sendable {
    /// More of the output arrived (one event per chunk or text delta that changed the value so
    /// far); the partial shares the stream's text instead of copying it (see ``PartialOutput``).
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
    /// the iterator's `next()`, which is nonisolated (it runs off the iterating task's actor), and
    /// handed to the task that iterates. In an app target with default MainActor isolation,
    /// declare it `nonisolated struct Forecast: Decodable { … }`; the compiler rejects a
    /// main-actor-isolated conformance here ("cannot satisfy conformance requirement for a
    /// 'Sendable' type parameter"), while ``parse(_:as:name:strict:options:isolation:)`` takes one.
    ///
    /// - Parameters:
    ///   - body: The request; its `responseFormat` is replaced, and `stream` set.
    ///   - type: The Swift type of the structured output.
    ///   - name: The format's name; by default `Output`'s.
    ///   - strict: Whether the model must follow the schema exactly (OpenAI's strict mode).
    ///   - options: Per-request headers, query items, timeout, retries and idempotency key.
    /// - Returns: The events; the request is sent when iteration starts (a second iteration
    ///   throws ``OpenAIError/Kind/streamAlreadyConsumed``); each `next()` reads the stream only
    ///   until its event (nothing is read ahead or buffered, so a slow consumer holds the
    ///   connection back); stopping the iteration (or cancelling its task) closes the stream.
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
        return EventSequence(pulling: {
            var chunks = stream.makeAsyncIterator()
            var accumulator = ChatCompletionStreamAccumulator()
            let text = StreamedJSONText()
            var ended = false
            return {
                guard !ended else { return nil }
                while let chunk = try await chunks.next() {
                    accumulator.append(chunk)
                    var length: Int?
                    for choice in chunk.choices where choice.index == 0 {
                        if let delta = choice.delta.content, let changed = text.append(delta) { length = changed }
                    }
                    if let length { return .partial(PartialOutput(source: text, length: length)) }
                }
                ended = true
                guard let completion = accumulator.completion else {
                    throw StructuredOutputError(.noContent, "the stream ended without a chunk")
                }
                return .completed(try Self.parsed(completion, as: type))
            }
        })
    }
}

extension ResponsesAPI {
    /// Streams a response whose output is structured output of `Output`'s schema: the value so
    /// far after each `response.output_text.delta` of the first text part, then the whole
    /// response decoded as ``parse(_:as:name:strict:options:isolation:)`` does.
    ///
    /// `Output` is `Sendable` and its `Decodable` conformance nonisolated: values are decoded in
    /// the iterator's `next()`, which is nonisolated (it runs off the iterating task's actor), and
    /// handed to the task that iterates. In an app target with default MainActor isolation,
    /// declare it `nonisolated struct Forecast: Decodable { … }`; the compiler rejects a
    /// main-actor-isolated conformance here ("cannot satisfy conformance requirement for a
    /// 'Sendable' type parameter"), while ``parse(_:as:name:strict:options:isolation:)`` takes one.
    ///
    /// - Parameters:
    ///   - body: The request; its `text.format` is replaced (its verbosity kept), and `stream` set.
    ///   - type: The Swift type of the structured output.
    ///   - name: The format's name; by default `Output`'s.
    ///   - strict: Whether the model must follow the schema exactly.
    ///   - options: Per-request headers, query items, timeout, retries and idempotency key.
    /// - Returns: The events; the request is sent when iteration starts (a second iteration
    ///   throws ``OpenAIError/Kind/streamAlreadyConsumed``); each `next()` reads the stream only
    ///   until its event (nothing is read ahead or buffered); stopping the iteration (or
    ///   cancelling its task) closes the stream.
    /// - Throws: ``JSONSchemaError`` before sending. The iteration throws what
    ///   ``createStream(_:options:)``'s does, the accumulator's ``ResponseStreamAccumulator/apply(_:)``
    ///   errors, and, at the end, what ``parse(_:as:name:strict:options:isolation:)`` throws for the response.
    public func parseStream<Output: Decodable & Sendable>(
        _ body: CreateResponse, as type: Output.Type, name: String? = nil, strict: Bool = true,
        options: RequestOptions = RequestOptions()
    ) throws -> EventSequence<StructuredOutputStreamEvent<Output, ParsedResponse<Output>>> {
        let stream = try createStream(
            try Self.requestingFormat(of: type, name: name, strict: strict, in: body), options: options)
        return EventSequence(pulling: {
            var events = stream.makeAsyncIterator()
            var accumulator: ResponseStreamAccumulator?
            let text = StreamedJSONText()
            var part: (output: Int, content: Int)?
            var ended = false
            return {
                guard !ended else { return nil }
                if accumulator == nil { accumulator = try ResponseStreamAccumulator() }
                while let event = try await events.next() {
                    try accumulator!.apply(event)
                    guard case .responseOutputTextDelta(let delta) = event else { continue }
                    let position = part ?? (delta.outputIndex, delta.contentIndex)
                    part = position
                    guard position == (delta.outputIndex, delta.contentIndex), let length = text.append(delta.delta)
                    else { continue }
                    return .partial(PartialOutput(source: text, length: length))
                }
                ended = true
                guard let response = accumulator?.finalResponse else {
                    throw StructuredOutputError(.noContent, "the stream ended before the response completed")
                }
                return .completed(try Self.parsed(response, as: type))
            }
        })
    }
}
