import Foundation
import OpenAIRuntime

extension Response {
    /// The reply's output as input items of the next request, so that a conversation continues
    /// where the model left it without `previous_response_id` (OpenAI's SDKs call it
    /// `toResponseInputItems`): messages, reasoning, and tool calls and their results, each as the
    /// `Item` the API accepts back. An output item this SDK does not know goes back as its JSON.
    ///
    /// The API accepts its output items as input: a message is ``Item/outputMessage(_:)`` (an
    /// assistant message with `output_text` parts, its `id` and `status` kept), and every other
    /// item is re-read from its JSON as the input item of its `type` (`FunctionToolCall` as
    /// ``Item/functionCall(_:)``, a shell call as its `…ItemParam`, …); members only a reply has
    /// (`null` ones) are left out.
    ///
    /// - Returns: One input item per output item, in order.
    /// - Throws: `EncodingError` or `DecodingError` only for a value that does not survive a JSON
    ///   round trip (none of the recorded replies in the tests).
    public func toInputItems() throws -> [InputItem] {
        try output.map { item in
            if case .message(let message) = item { return .item(.outputMessage(message)) }
            return try JSONValue(encoding: item).decode(as: InputItem.self)
        }
    }
}

extension InputItem {
    /// A user message of plain text (`EasyInputMessage` with role `user`).
    public static func user(_ text: String) -> InputItem {
        .easyInputMessage(EasyInputMessage(role: .user, content: .string(text)))
    }

    /// The result of a function call for the model (`function_call_output`).
    ///
    /// - Parameters:
    ///   - callID: The call's `call_id`.
    ///   - output: The function's result, text.
    public static func functionCallOutput(callID: String, output: String) -> InputItem {
        .item(.functionCallOutput(FunctionCallOutputItemParam(output: .string(output), callID: callID)))
    }
}

extension InputParam {
    /// The input as a list of items: a text input is one user message.
    ///
    /// - Throws: `DecodingError` when an input of a kind this SDK does not know is not a list of
    ///   items.
    public func items() throws -> [InputItem] {
        switch self {
        case .string(let text): [.user(text)]
        case .inputItemList(let items): items
        case .unknown(let value): try value.decode(as: [InputItem].self)
        }
    }
}

extension Tool {
    /// A function tool in one line, without the `FunctionTool` wrapper.
    ///
    /// - Parameters:
    ///   - name: The function's name.
    ///   - description: What the function does, for the model.
    ///   - parameters: Its parameters' JSON Schema, an object (`nil`: no parameters).
    ///   - strict: Whether the model must follow the schema exactly.
    public static func function(
        name: String, description: String? = nil, parameters: JSONObject? = nil, strict: Bool? = nil
    ) -> Self {
        .function(FunctionTool(name: name, description: description, parameters: parameters, strict: strict))
    }

    /// A function tool whose parameters are `Arguments`' schema (strict by default).
    ///
    /// - Throws: ``JSONSchemaError`` when the schema cannot be derived or does not fit strict mode.
    public static func function<Arguments: Decodable>(
        name: String, description: String? = nil, arguments: Arguments.Type, strict: Bool = true
    ) throws -> Self {
        .function(try FunctionTool(name: name, description: description, arguments: arguments, strict: strict))
    }
}

/// What ``ResponsesAPI/runTools(_:tools:maxRounds:maxConcurrentCalls:approve:options:)`` did.
public struct ResponseToolRun: Sendable {
    /// Every reply, in order; the last is the final answer unless ``stoppedAtMaxRounds``.
    public var responses: [Response]
    /// The conversation: the request's input, then each reply's output (the last one's too)
    /// followed by its tool results, in call order, as input items: what a next request sends to
    /// go on. After ``stoppedAtMaxRounds`` it ends with `function_call` items that have no output
    /// yet: add them before sending it.
    public var items: [InputItem]
    /// Whether the loop stopped because the last allowed reply still asked for tools.
    public var stoppedAtMaxRounds: Bool

    /// The last reply.
    public var response: Response { responses[responses.count - 1] }
    /// The last reply's text (``Response/outputText``).
    public var outputText: String { response.outputText }
}

extension ResponsesAPI {
    /// Runs a conversation in which the model calls Swift functions: sends the request with the
    /// tools, runs the `function_call` items each reply has (concurrently, each once), sends their
    /// `function_call_output` back, and repeats until a reply calls none or `maxRounds` replies
    /// were made.
    ///
    /// Each next request carries the whole conversation as `input` (the request's input, then
    /// every reply's output and the results, ``Response/toInputItems()``) and keeps the request's
    /// `previous_response_id`, which then names what came before this run. With a `conversation`,
    /// whose items the API keeps itself, each next request carries only the new results.
    ///
    /// A call the tools do not define, whose arguments do not decode, that the hook declines, or
    /// that throws is not an error of the loop: the model is told why (`Error: …`, `The call was
    /// declined: …`) and goes on. Custom tool calls get an `Error:` result.
    ///
    /// - Parameters:
    ///   - body: The request: its input starts the conversation; the tools are added to its own.
    ///   - tools: The functions the model may call.
    ///   - maxRounds: The most replies to ask for (at least 1).
    ///   - maxConcurrentCalls: The most calls of one reply that run at once (at least 1; 8 by
    ///     default): the others wait for a slot, so a reply asking for thousands of calls does not
    ///     start them all.
    ///   - approve: Asked before each call, concurrently for the calls of one reply; `nil` runs every call.
    ///   - options: Per-request headers, query items, timeout and retries, for every request; an
    ///     idempotency key `k` is sent as `k-round-1`, `k-round-2`, ….
    /// - Returns: Every reply and the whole conversation.
    /// - Throws: ``OpenAIError`` as ``create(_:options:)`` does; `CancellationError` when the task is
    ///   cancelled; `DecodingError` when `body.input` is of a kind this SDK does not know and not a
    ///   list of items.
    public func runTools(
        _ body: CreateResponse, tools: [RunnableFunction], maxRounds: Int = 10, maxConcurrentCalls: Int = 8,
        approve: (@Sendable (ToolCallRequest) async -> ToolCallApproval)? = nil,
        options: RequestOptions = RequestOptions()
    ) async throws -> ResponseToolRun {
        try await runToolLoop(
            body, tools: tools, maxRounds: maxRounds, maxConcurrentCalls: maxConcurrentCalls, approve: approve,
            options: options
        ) {
            body, options, _ in
            try await create(body, options: options)
        } emit: { _ in
        }
    }

    /// ``runTools(_:tools:maxRounds:maxConcurrentCalls:approve:options:)`` with each reply streamed: yields every
    /// event as it arrives (text deltas, function-call argument deltas, …), each tool call before
    /// it runs and its result when it is ready, then the whole run.
    ///
    /// - Parameters: As ``runTools(_:tools:maxRounds:maxConcurrentCalls:approve:options:)``.
    /// - Returns: The events, in the order they happen; the first request is sent when iteration
    ///   starts (each iteration runs the loop again), and stopping the iteration (or cancelling
    ///   its task) stops the loop.
    /// - Throws: The iteration throws what ``createStream(_:options:)``'s iteration throws, the
    ///   accumulator's errors, and `CancellationError`.
    public func runToolsStream(
        _ body: CreateResponse, tools: [RunnableFunction], maxRounds: Int = 10, maxConcurrentCalls: Int = 8,
        approve: (@Sendable (ToolCallRequest) async -> ToolCallApproval)? = nil,
        options: RequestOptions = RequestOptions()
    ) -> EventSequence<ToolRunEvent<ResponseStreamEvent, ResponseToolRun>> {
        EventSequence { sink in
            let run = try await runToolLoop(
                body, tools: tools, maxRounds: maxRounds, maxConcurrentCalls: maxConcurrentCalls, approve: approve,
                options: options
            ) { body, options, round in
                var accumulator = try ResponseStreamAccumulator()
                for try await event in try createStream(body, options: options) {
                    try accumulator.apply(event)
                    await sink.send(.event(event, round: round))
                }
                guard let response = accumulator.finalResponse else {
                    throw OpenAIError(
                        kind: .missingTerminalEvent,
                        message: "The stream of round \(round) ended before the response did.")
                }
                return response
            } emit: {
                sink.yield($0)
            }
            sink.yield(.finished(run))
        }
    }

    /// The loop of both forms: `reply` gets one round's response.
    private func runToolLoop(
        _ body: CreateResponse, tools: [RunnableFunction], maxRounds: Int, maxConcurrentCalls: Int,
        approve: (@Sendable (ToolCallRequest) async -> ToolCallApproval)?, options: RequestOptions,
        reply: (_ body: CreateResponse, _ options: RequestOptions, _ round: Int) async throws -> Response,
        emit: (ToolRunEvent<ResponseStreamEvent, ResponseToolRun>) -> Void
    ) async throws -> ResponseToolRun {
        var body = body
        body.tools = (body.tools ?? []) + tools.map { .function($0.responsesTool) }
        let byName = try RunnableFunction.byName(tools)
        let serverKeepsItems = body.conversation != nil
        var run = ResponseToolRun(responses: [], items: try body.input?.items() ?? [], stoppedAtMaxRounds: false)
        let rounds = max(1, maxRounds)
        for round in 1...rounds {
            try Task.checkCancellation()
            let roundOptions = options.forStep("round-\(round)")
            let response = try await reply(body, roundOptions, round)
            run.responses.append(response)
            var requests: [ToolCallRequest] = []
            var results: [InputItem] = []
            var slots: [Int] = []
            for item in response.output {
                switch item {
                case .functionCall(let call):
                    slots.append(results.count)
                    requests.append(
                        ToolCallRequest(id: call.callID, name: call.name, arguments: call.arguments, round: round))
                    results.append(.functionCallOutput(callID: call.callID, output: ""))
                case .customToolCall(let call):
                    results.append(
                        .item(
                            .customToolCallOutput(
                                CustomToolCallOutput(
                                    callID: call.callID,
                                    output: .string("Error: custom tool `\(call.name)` is not run by runTools")))))
                default: continue
                }
            }
            run.items += try response.toInputItems()
            guard !results.isEmpty else { return run }
            if round == rounds {
                run.stoppedAtMaxRounds = true
                return run
            }
            let outputs = try await RunnableFunction.results(
                of: requests, tools: byName, maxConcurrent: maxConcurrentCalls, approve: approve, emit: emit)
            for (slot, (request, output)) in zip(slots, zip(requests, outputs)) {
                results[slot] = .functionCallOutput(callID: request.id, output: output)
            }
            run.items += results
            body.input = .inputItemList(serverKeepsItems ? results : run.items)
        }
        return run
    }
}
