import Foundation
import OpenAIRuntime

/// Assembles the chunks of a streamed chat completion (`client.chat.completions.createStream`)
/// into the `CreateChatCompletionResponse` the same request would have returned without streaming.
///
/// Content and refusal deltas are concatenated per choice; tool calls are assembled by their
/// `index` from their `id`, `name` and argument fragments; log probabilities are appended; the
/// last finish reason, usage (the usage-only chunk with `choices: []`) and moderation win.
/// Several choices (`n > 1`) are kept apart by their `index`.
///
/// What OpenAI-compatible servers stream beyond the spec is assembled too: the reasoning text in
/// any of its spellings (``ChatCompletionStreamResponseDelta/reasoningText``), content sent as
/// parts, and streamed audio (`delta.audio`, into the message's `audio`). Every other member a
/// delta has beyond the spec is accumulated into the message's `undeclaredMembers` (strings
/// appended, objects merged, indexed arrays merged by `index`, as ``completion`` would have had
/// them), and the members of chunks and choices into those of the completion and its choices
/// (the latest value wins, objects merged): `x_groq`, `citations`, `native_finish_reason`, ….
///
/// ```swift
/// var accumulator = ChatCompletionStreamAccumulator()
/// for try await chunk in try client.chat.completions.createStream(request) {
///     for event in accumulator.append(chunk) {
///         if case .contentDelta(_, let delta, _) = event { print(delta, terminator: "") }
///     }
/// }
/// guard accumulator.isComplete else { return }  // a choice had no finish_reason
/// let completion = accumulator.completion
/// ```
///
/// ``append(_:)`` returns what the chunk changed as ``Event`` values, the events of openai-node's
/// `ChatCompletionStream` and openai-python's `ChatCompletionStreamState` (content, refusal and
/// tool-call argument deltas with the text so far, and each one's `done` once it is complete);
/// log probability events are not among them (the accumulated log probabilities are in
/// ``completion``).
///
/// The cost of a stream is linear in its length: each buffer grows in place. A `snapshot` shares
/// the accumulator's text, so keeping an event (or a `snapshot`, or what ``content(choice:)``
/// returned) past the next ``append(_:)`` makes that append copy the text so far; keep the
/// `delta`s, or read ``content(choice:)`` when you need the text, for long replies.
///
/// Mirrors `ChatCompletionStreamState` of openai-python and `ChatCompletionStream` of openai-node.
/// The spec schema of the chunks is `CreateChatCompletionStreamResponse`.
public struct ChatCompletionStreamAccumulator: Sendable {
    private struct ToolCallState: Sendable {
        var id: String?
        var name: String?
        /// The arguments of a function call, or the input of a custom tool call.
        var arguments = ""
        var isCustom = false

        /// Adds a fragment's parts: its `id`, a piece of its name, and `added` to the arguments.
        mutating func apply(id: String?, name: String?, isCustom: Bool, _ added: String) {
            if let id { self.id = id }
            if let name { self.name = (self.name ?? "") + name }
            if isCustom { self.isCustom = true }
            arguments.append(added)
        }
    }

    /// What one chunk changed, in the order of its choices and their parts.
    public enum Event: Sendable, Hashable {
        /// Text was added to a choice's content.
        ///
        /// - `choice`: the choice's `index`; `delta`: the new text; `snapshot`: all of it so far.
        case contentDelta(choice: Int, delta: String, snapshot: String)
        /// A choice's content is complete (its `finish_reason` arrived); not sent for empty content.
        case contentDone(choice: Int, content: String)
        /// Text was added to a choice's refusal.
        case refusalDelta(choice: Int, delta: String, snapshot: String)
        /// A choice's refusal is complete.
        case refusalDone(choice: Int, refusal: String)
        /// Arguments were added to a tool call (a function call's JSON text, or a custom tool
        /// call's input).
        ///
        /// - `toolCall`: the call's `index` in the choice; `name`: the function's name so far.
        case toolCallArgumentsDelta(choice: Int, toolCall: Int, name: String, delta: String, snapshot: String)
        /// A tool call's arguments are complete: a later tool call started, or the choice finished.
        case toolCallArgumentsDone(choice: Int, toolCall: Int, name: String, arguments: String)
        /// Reasoning text was added to a choice (servers that stream it: DeepSeek, Groq,
        /// OpenRouter, Mistral, …; see ``ChatCompletionStreamResponseDelta/reasoningText``).
        case reasoningDelta(choice: Int, delta: String, snapshot: String)
        /// A choice's reasoning is complete (its content began, or it finished).
        case reasoningDone(choice: Int, reasoning: String)
    }

    private struct ChoiceState: Sendable {
        var role: ChatCompletionResponseMessage.Role?
        var content: String?
        var refusal: String?
        var toolCalls: [Int: ToolCallState] = [:]
        var contentLogprobs: [ChatCompletionTokenLogprob]?
        var refusalLogprobs: [ChatCompletionTokenLogprob]?
        var reasoning: String?
        var reasoningDone = false
        /// Whether the reasoning came in a member of its own (not as content parts).
        var reasoningHasMember = false
        /// The deltas' members beyond the spec, accumulated; the choices' members, the latest.
        var deltaMembers = JSONObject()
        var choiceMembers = JSONObject()
        var finishReason: CreateChatCompletionResponse.Choice.FinishReason?
        /// The tool call whose arguments are arriving, whose `done` is still to come.
        var openToolCall: Int?
        /// The tool calls whose `done` was reported, so that each is reported once.
        var finishedToolCalls: Set<Int> = []

        /// Adds one choice of a chunk, reporting what it changed in `events`.
        ///
        /// Every buffer grows in place (amortised O(1) per character), never by building a new
        /// string or array, so a stream costs time linear in its length.
        mutating func apply(_ choice: CreateChatCompletionStreamResponse.Choice, events: inout [Event]) {
            let delta = choice.delta
            if let role = delta.role { self.role = ChatCompletionResponseMessage.Role(rawValue: role.rawValue) }
            if let reasoning = delta.reasoningText, !reasoning.isEmpty {
                Self.append(reasoning, to: &self.reasoning)
                if delta.undeclaredMembers.contains(where: { $0.key.hasPrefix("reasoning") }) {
                    reasoningHasMember = true
                }
                events.append(.reasoningDelta(choice: choice.index, delta: reasoning, snapshot: self.reasoning!))
            }
            if !delta.undeclaredMembers.isEmpty { deltaMembers.accumulate(delta: delta.undeclaredMembers) }
            if !choice.undeclaredMembers.isEmpty { choiceMembers.update(snapshot: choice.undeclaredMembers) }
            if let content = delta.contentText {
                if !content.isEmpty, let done = finishReasoning(choice: choice.index) { events.append(done) }
                Self.append(content, to: &self.content)
                if !content.isEmpty {
                    events.append(.contentDelta(choice: choice.index, delta: content, snapshot: self.content!))
                }
            }
            if let refusal = delta.refusal {
                Self.append(refusal, to: &self.refusal)
                if !refusal.isEmpty {
                    events.append(.refusalDelta(choice: choice.index, delta: refusal, snapshot: self.refusal!))
                }
            }
            for fragment in delta.toolCalls ?? [] {
                applyToolCall(fragment, choice: choice.index, events: &events)
            }
            if let logprobs = choice.logprobs {
                if let content = logprobs.content { contentLogprobs.appendInPlace(contentsOf: content) }
                if let refusal = logprobs.refusal { refusalLogprobs.appendInPlace(contentsOf: refusal) }
            }
            if let reason = choice.finishReason {
                if finishReason == nil {
                    if let done = finishReasoning(choice: choice.index) { events.append(done) }
                    if let content, !content.isEmpty {
                        events.append(.contentDone(choice: choice.index, content: content))
                    }
                    if let refusal, !refusal.isEmpty {
                        events.append(.refusalDone(choice: choice.index, refusal: refusal))
                    }
                    if let done = finishOpenToolCall(choice: choice.index) { events.append(done) }
                    openToolCall = nil
                }
                finishReason = CreateChatCompletionResponse.Choice.FinishReason(rawValue: reason.rawValue)
            }
        }

        private mutating func applyToolCall(_ fragment: ChatCompletionToolCallChunk, choice: Int, events: inout [Event])
        {
            guard var index = fragment.index else { return }
            if Self.lacksIndex(fragment) {
                // Servers that send each call whole in one fragment leave `index` out (Mistral,
                // Gemini, Ollama): a fragment with a name starts the next call, one without
                // continues the last.
                let last = toolCalls.keys.max()
                index =
                    fragment.function?.name != nil || fragment.custom?.name != nil || last == nil
                    ? (last ?? -1) + 1 : last!
            }
            if openToolCall != index, let done = finishOpenToolCall(choice: choice) {
                events.append(done)
            }
            openToolCall = index
            var added = ""
            var name: String?
            var isCustom = false
            switch fragment {
            case .function(let function):
                name = function.function?.name
                added = function.function?.arguments ?? ""
            case .custom(let custom):
                isCustom = true
                name = custom.custom?.name
                added = custom.custom?.input ?? ""
            case .unknown:
                break
            }
            // In place, as the choice: the dictionary's entry is the only reference to the arguments.
            toolCalls[index, default: ToolCallState()].apply(id: fragment.id, name: name, isCustom: isCustom, added)
            if !added.isEmpty, let call = toolCalls[index] {
                events.append(
                    .toolCallArgumentsDelta(
                        choice: choice, toolCall: index, name: call.name ?? "", delta: added, snapshot: call.arguments))
            }
        }

        /// Whether a tool-call fragment came without its `index` (it reads as 0).
        private static func lacksIndex(_ fragment: ChatCompletionToolCallChunk) -> Bool {
            switch fragment {
            case .function(let call): call.specDeviations.isMissing("index")
            case .custom(let call): call.specDeviations.isMissing("index")
            case .unknown: false
            }
        }

        /// Appends `text` to an optional buffer, starting it when absent.
        private static func append(_ text: String, to buffer: inout String?) {
            if buffer == nil { buffer = "" }
            buffer!.append(text)
        }

        /// The `done` of the reasoning, the first time it is asked for once there is some.
        mutating func finishReasoning(choice: Int) -> Event? {
            guard let reasoning, !reasoningDone else { return nil }
            reasoningDone = true
            return .reasoningDone(choice: choice, reasoning: reasoning)
        }

        /// The message's members beyond the spec: the deltas' (the audio taken out, it has a
        /// member of its own), and reasoning that came as content parts as `reasoning_content`.
        var messageMembers: (members: JSONObject, audio: ChatCompletionResponseMessage.Audio?) {
            var members = deltaMembers
            var audio: ChatCompletionResponseMessage.Audio?
            if case .object(let pieces)? = members["audio"] {
                // Decoded leniently: a member no piece carried is recorded as missing, not invented.
                audio = try? JSONValue.object(pieces).decode(as: ChatCompletionResponseMessage.Audio.self)
                if audio != nil { members["audio"] = nil }
            }
            if let reasoning, !reasoningHasMember { members["reasoning_content"] = .string(reasoning) }
            return (members, audio)
        }

        /// The `done` of the open tool call, the first time it is asked for.
        mutating func finishOpenToolCall(choice: Int) -> Event? {
            guard let open = openToolCall, let call = toolCalls[open], finishedToolCalls.insert(open).inserted
            else { return nil }
            return .toolCallArgumentsDone(
                choice: choice, toolCall: open, name: call.name ?? "", arguments: call.arguments)
        }
    }

    private var id: String?
    private var created = 0
    private var model = ""
    private var serviceTier: ServiceTier?
    private var systemFingerprint: String?
    private var usage: CompletionUsage?
    private var moderation: ChatCompletionModeration?
    private var choices: [Int: ChoiceState] = [:]
    /// The chunks' members beyond the spec (`x_groq`, `citations`, `provider`, …), the latest.
    private var chunkMembers = JSONObject()

    /// The number of chunks appended so far.
    public private(set) var chunkCount = 0

    /// Creates an empty accumulator.
    public init() {}

    /// Adds one chunk.
    ///
    /// - Parameters:
    ///   - chunk: The next chunk of the stream, in order.
    /// - Returns: What the chunk changed: deltas, and the `done` of each part it completed.
    @discardableResult
    public mutating func append(_ chunk: CreateChatCompletionStreamResponse) -> [Event] {
        var events: [Event] = []
        chunkCount += 1
        if id == nil {
            id = chunk.id
            created = chunk.created
            model = chunk.model
        }
        if let tier = chunk.serviceTier { serviceTier = tier }
        if let fingerprint = (chunk as any SystemFingerprintCarrying).currentSystemFingerprint {
            systemFingerprint = fingerprint
        }
        if let chunkUsage = chunk.usage { usage = chunkUsage }
        if let chunkModeration = chunk.moderation { moderation = chunkModeration }
        if !chunk.undeclaredMembers.isEmpty { chunkMembers.update(snapshot: chunk.undeclaredMembers) }
        for choice in chunk.choices {
            // In place: a copy of the state would make each append copy the text so far.
            choices[choice.index, default: ChoiceState()].apply(choice, events: &events)
        }
        return events
    }

    /// Whether the stream was complete: at least one choice arrived and every choice has its
    /// `finish_reason`. A stream cut off early (which ``OpenAIStream`` reports by throwing
    /// ``OpenAIError/Kind/unfinishedChoices``) leaves this `false`, and ``completion`` then holds
    /// what arrived, with an empty finish reason on the unfinished choices.
    public var isComplete: Bool {
        !choices.isEmpty && choices.values.allSatisfy { $0.finishReason != nil }
    }

    /// The `index` of each choice without a `finish_reason` yet, in order.
    public var unfinishedChoices: [Int] {
        choices.filter { $0.value.finishReason == nil }.keys.sorted()
    }

    /// The text of choice `index` so far, or `nil` when it has no content (yet).
    ///
    /// - Parameters:
    ///   - index: The choice's `index` (0 unless the request set `n`).
    /// - Returns: The concatenated `delta.content` fragments.
    public func content(choice index: Int = 0) -> String? {
        choices[index]?.content
    }

    /// The refusal of choice `index` so far, or `nil` when there is none.
    ///
    /// - Parameters:
    ///   - index: The choice's `index`.
    /// - Returns: The concatenated `delta.refusal` fragments.
    public func refusal(choice index: Int = 0) -> String? {
        choices[index]?.refusal
    }

    /// The reasoning text of choice `index` so far (``ChatCompletionStreamResponseDelta/reasoningText``
    /// of each chunk), or `nil` when the server sent none.
    ///
    /// - Parameters:
    ///   - index: The choice's `index`.
    /// - Returns: The concatenated reasoning fragments.
    public func reasoning(choice index: Int = 0) -> String? {
        choices[index]?.reasoning
    }

    /// The arguments of a tool call so far: the JSON text of a function call's fragments, or the
    /// free-form input of a custom tool call's, possibly incomplete.
    ///
    /// - Parameters:
    ///   - toolCallIndex: The tool call's `index` within the choice.
    ///   - index: The choice's `index`.
    /// - Returns: The concatenated `function.arguments` (or `custom.input`) fragments, or `nil`
    ///   for an unknown call.
    public func toolCallArguments(_ toolCallIndex: Int, choice index: Int = 0) -> String? {
        choices[index]?.toolCalls[toolCallIndex]?.arguments
    }

    /// The chat completion assembled from the chunks so far, or `nil` before the first chunk.
    ///
    /// Choices are ordered by `index`. A choice that has not finished yet has a finish reason with
    /// an empty raw value; its role defaults to `assistant`.
    public var completion: CreateChatCompletionResponse? {
        guard let id else { return nil }
        let assembled = choices.keys.sorted().map { index -> CreateChatCompletionResponse.Choice in
            let state = choices[index]!
            let toolCalls: ChatCompletionMessageToolCalls? =
                state.toolCalls.isEmpty
                ? nil
                : state.toolCalls.keys.sorted().map { key in
                    let call = state.toolCalls[key]!
                    if call.isCustom {
                        return .custom(
                            ChatCompletionMessageCustomToolCall(
                                id: call.id ?? "", custom: .init(name: call.name ?? "", input: call.arguments)))
                    }
                    return .function(
                        ChatCompletionMessageToolCall(
                            id: call.id ?? "",
                            function: .init(name: call.name ?? "", arguments: call.arguments)))
                }
            let logprobs: CreateChatCompletionResponse.Choice.Logprobs? =
                state.contentLogprobs == nil && state.refusalLogprobs == nil
                ? nil : .init(content: state.contentLogprobs, refusal: state.refusalLogprobs)
            let (members, audio) = state.messageMembers
            var message = ChatCompletionResponseMessage(
                role: state.role ?? .assistant, content: state.content, refusal: state.refusal,
                toolCalls: toolCalls, audio: audio)
            message.undeclaredMembers = members
            var choice = CreateChatCompletionResponse.Choice(
                finishReason: state.finishReason ?? .init(rawValue: ""),
                index: index,
                message: message,
                logprobs: logprobs)
            // A chunk's choice may carry a whole `message` (Perplexity): not one of the
            // completion's own members.
            choice.undeclaredMembers = state.choiceMembers.filter {
                !["message", "finish_reason", "index", "logprobs", "delta"].contains($0.key)
            }
            return choice
        }
        var completion = CreateChatCompletionResponse(
            id: id, choices: assembled, created: created, model: model, serviceTier: serviceTier,
            systemFingerprint: systemFingerprint, usage: usage, moderation: moderation)
        completion.undeclaredMembers = chunkMembers
        return completion
    }
}

/// Reads the deprecated `system_fingerprint` of a chunk without a deprecation warning at each use.
private protocol SystemFingerprintCarrying {
    var systemFingerprint: String? { get }
}

extension SystemFingerprintCarrying {
    var currentSystemFingerprint: String? { systemFingerprint }
}

extension CreateChatCompletionStreamResponse: SystemFingerprintCarrying {}

extension Optional {
    /// Appends to the array, starting it when absent, in place.
    fileprivate mutating func appendInPlace<Element>(contentsOf elements: [Element]) where Wrapped == [Element] {
        if self == nil { self = [] }
        self!.append(contentsOf: elements)
    }
}
