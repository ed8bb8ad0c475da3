import Foundation
import OpenAIRuntime

/// Assembles the events of a streamed response (`client.responses.createStream` or
/// `retrieveStream`) into the final `Response`, with text and argument snapshots along the way.
///
/// Lifecycle events (`response.created`, `.queued`, `.in_progress`) set the response snapshot;
/// `response.output_item.added` / `.done` place output items by `output_index`;
/// `response.content_part.added` / `.done` place content parts; text deltas (output text, refusal,
/// reasoning text and summaries) and argument deltas (function calls, custom tool input, code
/// interpreter code, MCP arguments) are concatenated; `response.completed`, `.failed` and
/// `.incomplete` carry the final response. A resumed stream (`retrieveStream(startingAfter:)`)
/// works: its first `response.in_progress` carries the snapshot; you can also pass one to
/// ``init(resumingFrom:)``. Unknown events are ignored.
///
/// ```swift
/// var accumulator = ResponseStreamAccumulator()
/// for try await event in try client.responses.createStream(request) {
///     try accumulator.apply(event)
///     print(accumulator.outputText)  // all output text so far
/// }
/// let response = accumulator.finalResponse
/// ```
///
/// The spec schema of the events is `ResponseStreamEvent`; mirrors openai-python's
/// `ResponseStreamState`.
public struct ResponseStreamAccumulator: Sendable {
    /// Where a text buffer belongs inside an output item.
    private enum TextSlot: Hashable, Sendable {
        /// `content[index].text` of a message (output text) or reasoning item (reasoning text).
        case contentText(Int)
        /// `content[index].refusal` of a message.
        case refusal(Int)
        /// `summary[index].text` of a reasoning item.
        case summary(Int)
    }

    private struct Key: Hashable, Sendable {
        var outputIndex: Int
        var slot: TextSlot
    }

    private var snapshot: JSONObject?
    private var items: [Int: JSONValue] = [:]
    private var texts: [Key: String] = [:]
    private var logprobs: [Key: [JSONValue]] = [:]
    private var arguments: [Int: String] = [:]

    /// The final response from `response.completed`, `response.failed` or `response.incomplete`,
    /// or `nil` before one of them arrived.
    public private(set) var finalResponse: Response?

    /// Whether a completing event (`response.completed`, `response.failed` or
    /// `response.incomplete`) was applied. A stream cut off before one (which ``OpenAIStream``
    /// reports by throwing ``OpenAIError/Kind/missingTerminalEvent``) leaves this `false`, and
    /// ``currentResponse()`` then holds what arrived, with the status of the last snapshot
    /// (`in_progress`).
    public var isComplete: Bool { finalResponse != nil }

    /// The `sequence_number` of the last event applied, or `nil` before the first; pass it as
    /// `startingAfter` to resume the stream after a dropped connection.
    public private(set) var lastSequenceNumber: Int?

    /// The response's `id`, once an event that carries the response (`response.created`,
    /// `response.queued`, …) or a snapshot to resume from was applied.
    public var responseID: String? { snapshot?["id"]?.stringValue }

    /// Creates an accumulator, optionally resuming from a response snapshot (for example one
    /// retrieved before calling `retrieveStream(responseID:startingAfter:)`).
    ///
    /// - Parameters:
    ///   - response: The snapshot to continue from, or `nil` to start from `response.created`.
    /// - Throws: `EncodingError` when the snapshot cannot be encoded (not expected).
    public init(resumingFrom response: Response? = nil) throws {
        if let response { try setSnapshot(response) }
    }

    /// Applies one event.
    ///
    /// - Parameters:
    ///   - event: The next event of the stream, in order.
    /// - Throws: `EncodingError` when an item cannot be re-encoded (not expected).
    public mutating func apply(_ event: ResponseStreamEvent) throws {
        switch event {
        case .responseCreated(let event):
            try setSnapshot(event.response, sequenceNumber: event.sequenceNumber)
        case .responseQueued(let event):
            try setSnapshot(event.response, sequenceNumber: event.sequenceNumber)
        case .responseInProgress(let event):
            try setSnapshot(event.response, sequenceNumber: event.sequenceNumber)
        case .responseCompleted(let event):
            try finish(event.response, sequenceNumber: event.sequenceNumber)
        case .responseFailed(let event):
            try finish(event.response, sequenceNumber: event.sequenceNumber)
        case .responseIncomplete(let event):
            try finish(event.response, sequenceNumber: event.sequenceNumber)
        case .responseOutputItemAdded(let event):
            items[event.outputIndex] = try JSONValue(encoding: event.item)
            clearBuffers(of: event.outputIndex)
            lastSequenceNumber = event.sequenceNumber
        case .responseOutputItemDone(let event):
            items[event.outputIndex] = try JSONValue(encoding: event.item)
            clearBuffers(of: event.outputIndex)
            lastSequenceNumber = event.sequenceNumber
        case .responseContentPartAdded(let event):
            try setPart(event.part, output: event.outputIndex, content: event.contentIndex)
            lastSequenceNumber = event.sequenceNumber
        case .responseContentPartDone(let event):
            try setPart(event.part, output: event.outputIndex, content: event.contentIndex)
            lastSequenceNumber = event.sequenceNumber
        case .responseOutputTextDelta(let event):
            let key = Key(outputIndex: event.outputIndex, slot: .contentText(event.contentIndex))
            append(event.delta, to: key)
            if !event.logprobs.isEmpty {
                logprobs[key, default: []].append(contentsOf: try event.logprobs.map { try JSONValue(encoding: $0) })
            }
            lastSequenceNumber = event.sequenceNumber
        case .responseOutputTextDone(let event):
            let key = Key(outputIndex: event.outputIndex, slot: .contentText(event.contentIndex))
            texts[key] = event.text
            lastSequenceNumber = event.sequenceNumber
        case .responseOutputTextAnnotationAdded(let event):
            if let annotation = Self.optional(event.annotation) {
                try modifyPart(output: event.outputIndex, content: event.contentIndex, in: "content") { part in
                    var annotations = part["annotations"]?.arrayValue ?? []
                    annotations.append(try JSONValue(encoding: annotation))
                    part["annotations"] = .array(annotations)
                }
            }
            lastSequenceNumber = event.sequenceNumber
        case .responseRefusalDelta(let event):
            append(event.delta, to: Key(outputIndex: event.outputIndex, slot: .refusal(event.contentIndex)))
            lastSequenceNumber = event.sequenceNumber
        case .responseRefusalDone(let event):
            texts[Key(outputIndex: event.outputIndex, slot: .refusal(event.contentIndex))] = event.refusal
            lastSequenceNumber = event.sequenceNumber
        case .responseReasoningTextDelta(let event):
            append(event.delta, to: Key(outputIndex: event.outputIndex, slot: .contentText(event.contentIndex)))
            lastSequenceNumber = event.sequenceNumber
        case .responseReasoningTextDone(let event):
            texts[Key(outputIndex: event.outputIndex, slot: .contentText(event.contentIndex))] = event.text
            lastSequenceNumber = event.sequenceNumber
        case .responseReasoningSummaryPartAdded(let event):
            let part = try JSONValue(encoding: event.part)
            try modifyPart(output: event.outputIndex, content: event.summaryIndex, in: "summary") {
                $0 = part.objectValue ?? [:]
            }
            lastSequenceNumber = event.sequenceNumber
        case .responseReasoningSummaryPartDone(let event):
            let part = try JSONValue(encoding: event.part)
            try modifyPart(output: event.outputIndex, content: event.summaryIndex, in: "summary") {
                $0 = part.objectValue ?? [:]
            }
            texts[Key(outputIndex: event.outputIndex, slot: .summary(event.summaryIndex))] = nil
            lastSequenceNumber = event.sequenceNumber
        case .responseReasoningSummaryTextDelta(let event):
            append(event.delta, to: Key(outputIndex: event.outputIndex, slot: .summary(event.summaryIndex)))
            lastSequenceNumber = event.sequenceNumber
        case .responseReasoningSummaryTextDone(let event):
            texts[Key(outputIndex: event.outputIndex, slot: .summary(event.summaryIndex))] = event.text
            lastSequenceNumber = event.sequenceNumber
        case .responseFunctionCallArgumentsDelta(let event):
            appendArguments(event.delta, output: event.outputIndex)
            lastSequenceNumber = event.sequenceNumber
        case .responseFunctionCallArgumentsDone(let event):
            arguments[event.outputIndex] = event.arguments
            lastSequenceNumber = event.sequenceNumber
        case .responseCustomToolCallInputDelta(let event):
            appendArguments(event.delta, output: event.outputIndex)
            lastSequenceNumber = event.sequenceNumber
        case .responseCustomToolCallInputDone(let event):
            arguments[event.outputIndex] = event.input
            lastSequenceNumber = event.sequenceNumber
        case .responseCodeInterpreterCallCodeDelta(let event):
            appendArguments(event.delta, output: event.outputIndex)
            lastSequenceNumber = event.sequenceNumber
        case .responseCodeInterpreterCallCodeDone(let event):
            arguments[event.outputIndex] = event.code
            lastSequenceNumber = event.sequenceNumber
        case .responseMCPCallArgumentsDelta(let event):
            appendArguments(event.delta, output: event.outputIndex)
            lastSequenceNumber = event.sequenceNumber
        case .responseMCPCallArgumentsDone(let event):
            arguments[event.outputIndex] = event.arguments
            lastSequenceNumber = event.sequenceNumber
        default:
            break
        }
    }

    // MARK: - Snapshots

    /// The output text of one content part so far.
    ///
    /// - Parameters:
    ///   - outputIndex: The message item's `output_index`.
    ///   - contentIndex: The part's `content_index`.
    /// - Returns: The text from its deltas (or its final text), or `nil` when there is none.
    public func outputText(outputIndex: Int, contentIndex: Int = 0) -> String? {
        if let text = texts[Key(outputIndex: outputIndex, slot: .contentText(contentIndex))] { return text }
        return items[outputIndex]?["content"]?.arrayValue.flatMap { parts in
            contentIndex < parts.count ? parts[contentIndex]["text"]?.stringValue : nil
        }
    }

    /// All output text so far: the `output_text` parts of every message item, in output order.
    public var outputText: String {
        var result = ""
        for index in items.keys.sorted() where items[index]?["type"] == "message" {
            let parts = items[index]?["content"]?.arrayValue ?? []
            var contentIndices = Set(parts.indices)
            for key in texts.keys where key.outputIndex == index {
                if case .contentText(let content) = key.slot { contentIndices.insert(content) }
            }
            for content in contentIndices.sorted() {
                let type = content < parts.count ? parts[content]["type"] : "output_text"
                if type == "output_text" { result += outputText(outputIndex: index, contentIndex: content) ?? "" }
            }
        }
        return result
    }

    /// The arguments (function call, MCP call), input (custom tool call) or code (code
    /// interpreter call) of an output item so far: possibly incomplete JSON or text.
    ///
    /// - Parameters:
    ///   - outputIndex: The item's `output_index`.
    /// - Returns: The concatenated deltas, or the item's own value, or `nil` when it has none.
    public func arguments(outputIndex: Int) -> String? {
        if let buffered = arguments[outputIndex] { return buffered }
        guard let item = items[outputIndex], let field = Self.argumentField(of: item) else { return nil }
        return item[field]?.stringValue
    }

    /// The response assembled so far: the last snapshot with every output item and the text and
    /// arguments received since; `nil` before the first lifecycle event (unless resuming).
    ///
    /// - Returns: The current `Response`.
    /// - Throws: `DecodingError` when the assembled JSON does not decode as `Response`.
    public func currentResponse() throws -> Response? {
        if let finalResponse { return finalResponse }
        guard var object = snapshot else { return nil }
        object["output"] = .array(items.keys.sorted().map { materializedItem($0) ?? .null })
        return try JSONValue.object(object).decode(as: Response.self)
    }

    /// The output item at `outputIndex` as assembled so far, with its buffered text and arguments.
    ///
    /// - Parameters:
    ///   - outputIndex: The item's `output_index`.
    /// - Returns: The item, or `nil` when none was added at that index.
    /// - Throws: `DecodingError` when the assembled JSON does not decode as `OutputItem`.
    public func item(outputIndex: Int) throws -> OutputItem? {
        try materializedItem(outputIndex)?.decode(as: OutputItem.self)
    }

    // MARK: - Internals

    private mutating func setSnapshot(_ response: Response, sequenceNumber: Int? = nil) throws {
        guard case .object(var object) = try JSONValue(encoding: response) else { return }
        let output = object["output"]?.arrayValue ?? []
        object["output"] = nil
        snapshot = object
        if items.isEmpty {
            for (index, item) in output.enumerated() { items[index] = item }
        }
        if let sequenceNumber { lastSequenceNumber = sequenceNumber }
    }

    private mutating func finish(_ response: Response, sequenceNumber: Int) throws {
        try setSnapshot(response, sequenceNumber: sequenceNumber)
        finalResponse = response
    }

    private mutating func clearBuffers(of outputIndex: Int) {
        arguments[outputIndex] = nil
        for key in texts.keys where key.outputIndex == outputIndex { texts[key] = nil }
        for key in logprobs.keys where key.outputIndex == outputIndex { logprobs[key] = nil }
    }

    private mutating func append(_ delta: String, to key: Key) {
        if texts[key] == nil {
            texts[key] = currentText(key) ?? ""
        }
        texts[key]! += delta
    }

    private mutating func appendArguments(_ delta: String, output: Int) {
        if arguments[output] == nil { arguments[output] = arguments(outputIndex: output) ?? "" }
        arguments[output]! += delta
    }

    private func currentText(_ key: Key) -> String? {
        let (array, index, field) = Self.location(of: key.slot)
        guard let parts = items[key.outputIndex]?[array]?.arrayValue, index < parts.count else { return nil }
        return parts[index][field]?.stringValue
    }

    private static func location(of slot: TextSlot) -> (array: String, index: Int, field: String) {
        switch slot {
        case .contentText(let index): ("content", index, "text")
        case .refusal(let index): ("content", index, "refusal")
        case .summary(let index): ("summary", index, "text")
        }
    }

    private static func argumentField(of item: JSONValue) -> String? {
        switch item["type"]?.stringValue {
        case "function_call", "mcp_call": "arguments"
        case "custom_tool_call": "input"
        case "code_interpreter_call": "code"
        default: nil
        }
    }

    /// Replaces the content part at `content` of an item; the part carries its own text, so the
    /// buffers of that part are dropped.
    private mutating func setPart(_ part: OutputContent, output: Int, content: Int) throws {
        let encoded = try JSONValue(encoding: part)
        try modifyPart(output: output, content: content, in: "content") { $0 = encoded.objectValue ?? [:] }
        for slot in [TextSlot.contentText(content), .refusal(content)] {
            texts[Key(outputIndex: output, slot: slot)] = nil
            logprobs[Key(outputIndex: output, slot: slot)] = nil
        }
    }

    private mutating func modifyPart(
        output: Int, content: Int, in array: String, _ body: (inout JSONObject) throws -> Void
    ) throws {
        guard case .object(var item) = items[output] else { return }
        var parts = item[array]?.arrayValue ?? []
        while parts.count <= content { parts.append(.object([:])) }
        var part = parts[content].objectValue ?? [:]
        try body(&part)
        parts[content] = .object(part)
        item[array] = .array(parts)
        items[output] = .object(item)
    }

    private func materializedItem(_ outputIndex: Int) -> JSONValue? {
        guard case .object(var item) = items[outputIndex] else { return items[outputIndex] }
        if let buffered = arguments[outputIndex], let field = Self.argumentField(of: .object(item)) {
            item[field] = .string(buffered)
        }
        for (key, text) in texts where key.outputIndex == outputIndex {
            let (array, index, field) = Self.location(of: key.slot)
            var parts = item[array]?.arrayValue ?? []
            while parts.count <= index { parts.append(.object([:])) }
            var part = parts[index].objectValue ?? [:]
            part[field] = .string(text)
            if let extra = logprobs[key] {
                part["logprobs"] = .array((part["logprobs"]?.arrayValue ?? []) + extra)
            }
            parts[index] = .object(part)
            item[array] = .array(parts)
        }
        return .object(item)
    }
}

extension ResponseStreamAccumulator {
    /// `value` as an optional: the member is optional in some versions of the spec and required in
    /// others (`annotation` of `response.output_text.annotation.added` before 2026-08-21), and this
    /// file compiles against both (`Scripts/spec/check-history.sh`).
    fileprivate static func optional<Value>(_ value: Value?) -> Value? { value }
}
