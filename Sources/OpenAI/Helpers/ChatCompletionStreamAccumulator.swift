import Foundation

/// Assembles the chunks of a streamed chat completion (`client.chat.completions.createStream`)
/// into the `CreateChatCompletionResponse` the same request would have returned without streaming.
///
/// Content and refusal deltas are concatenated per choice; tool calls are assembled by their
/// `index` from their `id`, `name` and argument fragments; log probabilities are appended; the
/// last finish reason, usage (the usage-only chunk with `choices: []`) and moderation win.
/// Several choices (`n > 1`) are kept apart by their `index`.
///
/// ```swift
/// var accumulator = ChatCompletionStreamAccumulator()
/// for try await chunk in try client.chat.completions.createStream(request) {
///     accumulator.append(chunk)
///     print(accumulator.content(choice: 0) ?? "")  // the text so far
/// }
/// let completion = accumulator.completion
/// ```
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
    }

    private struct ChoiceState: Sendable {
        var role: ChatCompletionResponseMessage.RoleValue?
        var content: String?
        var refusal: String?
        var toolCalls: [Int: ToolCallState] = [:]
        var contentLogprobs: [ChatCompletionTokenLogprob]?
        var refusalLogprobs: [ChatCompletionTokenLogprob]?
        var finishReason: CreateChatCompletionResponse.Choice.FinishReason?
    }

    private var id: String?
    private var created = 0
    private var model = ""
    private var serviceTier: ServiceTier?
    private var systemFingerprint: String?
    private var usage: CompletionUsage?
    private var moderation: ChatCompletionModeration?
    private var choices: [Int: ChoiceState] = [:]

    /// The number of chunks appended so far.
    public private(set) var chunkCount = 0

    /// Creates an empty accumulator.
    public init() {}

    /// Adds one chunk.
    ///
    /// - Parameters:
    ///   - chunk: The next chunk of the stream, in order.
    public mutating func append(_ chunk: CreateChatCompletionStreamResponse) {
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
        for choice in chunk.choices {
            var state = choices[choice.index] ?? ChoiceState()
            let delta = choice.delta
            if let role = delta.role { state.role = ChatCompletionResponseMessage.RoleValue(rawValue: role.rawValue) }
            if let content = delta.content { state.content = (state.content ?? "") + content }
            if let refusal = delta.refusal { state.refusal = (state.refusal ?? "") + refusal }
            for fragment in delta.toolCalls ?? [] {
                guard let index = fragment.index else { continue }
                var call = state.toolCalls[index] ?? ToolCallState()
                if let id = fragment.id { call.id = id }
                switch fragment {
                case .function(let function):
                    if let name = function.function?.name { call.name = (call.name ?? "") + name }
                    if let arguments = function.function?.arguments { call.arguments += arguments }
                case .custom(let custom):
                    call.isCustom = true
                    if let name = custom.custom?.name { call.name = (call.name ?? "") + name }
                    if let input = custom.custom?.input { call.arguments += input }
                case .unknown:
                    break
                }
                state.toolCalls[index] = call
            }
            if let logprobs = choice.logprobs {
                if let content = logprobs.content { state.contentLogprobs = (state.contentLogprobs ?? []) + content }
                if let refusal = logprobs.refusal { state.refusalLogprobs = (state.refusalLogprobs ?? []) + refusal }
            }
            if let reason = choice.finishReason {
                state.finishReason = CreateChatCompletionResponse.Choice.FinishReason(rawValue: reason.rawValue)
            }
            choices[choice.index] = state
        }
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
            return CreateChatCompletionResponse.Choice(
                finishReason: state.finishReason ?? .init(rawValue: ""),
                index: index,
                message: ChatCompletionResponseMessage(
                    role: state.role ?? .assistant, content: state.content, refusal: state.refusal,
                    toolCalls: toolCalls),
                logprobs: logprobs)
        }
        return CreateChatCompletionResponse(
            id: id, choices: assembled, created: created, model: model, serviceTier: serviceTier,
            systemFingerprint: systemFingerprint, usage: usage, moderation: moderation)
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
