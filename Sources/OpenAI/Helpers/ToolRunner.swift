import Foundation
import OpenAIRuntime

extension ChatCompletionResponseMessage {
    /// This reply as the assistant message of the next request: its content, refusal, tool calls
    /// and audio (by id), so that a conversation continues where the model left it.
    public var asRequestMessage: ChatCompletionRequestMessage {
        .assistant(
            ChatCompletionRequestAssistantMessage(
                content: content.map { .string($0) }, refusal: refusal,
                audio: audio.map { ConversationParam2(id: $0.id) }, toolCalls: toolCalls))
    }
}

/// A function the model may call, with the Swift code that runs it: the tools of
/// ``ChatCompletionsAPI/runTools(_:tools:maxRounds:maxConcurrentCalls:approve:options:)`` and
/// ``ResponsesAPI/runTools(_:tools:maxRounds:maxConcurrentCalls:approve:options:)``.
public struct RunnableFunction: Sendable {
    /// The function as a Chat Completions request declares it.
    public var definition: FunctionObject

    /// The function as a Responses request declares it (`type: function`, the same name,
    /// description, parameters and strictness). A definition that leaves `strict` unset is not
    /// strict in Chat Completions, while Responses makes an unset `strict` strict, so it is sent
    /// as `strict: false`.
    public var responsesTool: FunctionTool {
        FunctionTool(
            name: definition.name, description: definition.description, parameters: definition.parameters,
            strict: definition.strict ?? false)
    }
    /// Runs a call: the model's arguments (JSON text) in, the result for the model out.
    let run: @Sendable (_ arguments: String) async throws -> String

    /// A function whose arguments are `Arguments`, decoded from the model's JSON before `run`.
    ///
    /// The arguments are decoded on `isolation`, the actor that creates the function (by default
    /// the caller's: the main actor in an app target with default MainActor isolation), because
    /// that is where an app type's `Decodable` conformance may be isolated: a plain
    /// `struct Weather: Decodable` works as it is. `run` then gets the decoded value; it runs
    /// where its closure is isolated (a closure written as `{ @MainActor arguments in … }` runs on
    /// the main actor, any other concurrently).
    ///
    /// - Parameters:
    ///   - name: The function's name (`a-z`, `A-Z`, `0-9`, `_`, `-`; at most 64 characters).
    ///   - description: What the function does, for the model.
    ///   - arguments: The Swift type of the arguments; its schema is the function's parameters.
    ///   - strict: Whether the model must follow the schema exactly (checked here, before any request).
    ///   - isolation: The actor on which the arguments are decoded; the caller's by default.
    ///   - run: The function; what it returns is sent to the model as the call's result, and what it
    ///     throws is sent as `Error: <description>`.
    /// - Throws: ``JSONSchemaError`` when `Arguments`' schema cannot be derived or does not fit strict mode.
    public init<Arguments: Decodable>(
        name: String, description: String? = nil, arguments: Arguments.Type, strict: Bool = true,
        isolation: isolated (any Actor)? = #isolation,
        run: @escaping @Sendable (Arguments) async throws -> String
    ) throws {
        self.definition = try FunctionObject(name: name, description: description, arguments: arguments, strict: strict)
        // Written so that every toolchain from Swift 6.0 reads it the same way, without the rules
        // that changed between 6.0, 6.1 and 6.2 (closure isolation inferred from captures,
        // `nonisolated(unsafe)` locals captured by a `@Sendable` closure, `SendableMetatype`):
        // - `decodeAndRun` takes the actor as an `isolated` parameter of its own, so it runs on
        //   `isolation` because its type says so (SE-0313), not because it captures `isolation`.
        //   The decoding inside it is synchronous and so stays there: the domain the caller passed
        //   `Arguments`' conformance from.
        // - It is not `Sendable` (it holds `Arguments`, its metatype and conformance), so it crosses
        //   into the `@Sendable` `run` in an `@unchecked Sendable` box, whose meaning has not
        //   changed since Swift 5.5: it is only ever called on `isolation`, through the box.
        // - The decoded value is new (made from the model's text just now) and handed to `run`
        //   alone; Swift 6.3 cannot tell ("sending 'value' risks causing data races": the value comes
        //   from generic code), hence `nonisolated(unsafe)` on that local, which every toolchain
        //   since 5.10 reads the same way. No closure captures it.
        let decodeAndRun: (isolated (any Actor)?, String) async throws -> String = { _, text in
            nonisolated(unsafe) let value = try StructuredOutputError.decode(
                Arguments.self, from: text, what: "the arguments")
            return try await run(value)
        }
        let box = IsolatedFunction(decodeAndRun)
        self.run = { text in try await box.function(isolation, text) }
    }

    /// A function declared by hand: `run` gets the model's arguments as JSON text.
    public init(_ definition: FunctionObject, run: @escaping @Sendable (_ arguments: String) async throws -> String) {
        self.definition = definition
        self.run = run
    }
}

/// A tool call the model asked for, for the approval hook.
public struct ToolCallRequest: Sendable, Equatable {
    /// The call's id: `tool_call_id` of its result in Chat Completions, `call_id` in Responses.
    public var id: String
    /// The function's name.
    public var name: String
    /// The model's arguments, JSON text.
    public var arguments: String
    /// Which reply asked for it, from 1.
    public var round: Int
}

/// What the approval hook decides about one call.
public enum ToolCallApproval: Sendable, Equatable {
    /// Run it.
    case approve
    /// Do not run it; the model is told `The call was declined: <reason>`.
    case decline(reason: String)
}

/// What ``ChatCompletionsAPI/runTools(_:tools:maxRounds:maxConcurrentCalls:approve:options:)`` did.
public struct ChatToolRun: Sendable {
    /// Every reply, in order; the last is the final answer unless ``stoppedAtMaxRounds``.
    public var completions: [CreateChatCompletionResponse]
    /// The conversation: the request's messages, then each reply's assistant message (the last
    /// one's too) followed by its tool results, in call order: what a next request sends to go
    /// on. After ``stoppedAtMaxRounds`` it ends with tool calls that have no results yet: add
    /// them (or drop that message) before sending it.
    public var messages: [ChatCompletionRequestMessage]
    /// Whether the loop stopped because the last allowed reply still asked for tools.
    public var stoppedAtMaxRounds: Bool

    /// The last reply.
    public var completion: CreateChatCompletionResponse { completions[completions.count - 1] }
    /// The last reply's text.
    public var content: String? { completion.choices.first?.message.content }
}

extension ChatCompletionsAPI {
    /// Runs a conversation in which the model calls Swift functions: sends the request with the
    /// tools, runs the calls each reply asks for (concurrently, each once), sends their results
    /// back, and repeats until a reply asks for none or `maxRounds` replies were made.
    ///
    /// A call the tools do not define, whose arguments do not decode, that the hook declines, or
    /// that throws is not an error of the loop: the model is told why (`Error: …`, `The call was
    /// declined: …`) and goes on. Custom (non-function) tool calls get an `Error:` result.
    ///
    /// - Parameters:
    ///   - body: The request: its messages start the conversation; the tools are added to its own.
    ///   - tools: The functions the model may call.
    ///   - maxRounds: The most replies to ask for (at least 1).
    ///   - maxConcurrentCalls: The most calls of one reply that run at once (at least 1; 8 by
    ///     default): the others wait for a slot, so a reply asking for thousands of calls does not
    ///     start them all.
    ///   - approve: Asked before each call, concurrently for the calls of one reply; `nil` runs every call.
    ///   - options: Per-request headers, query items, timeout and retries, for every request; an
    ///     idempotency key `k` is sent as `k-round-1`, `k-round-2`, … so that each reply is its own
    ///     request (retries of one request share its key).
    /// - Returns: Every reply and the whole conversation.
    /// - Throws: ``OpenAIError`` as ``create(_:options:)`` does; `CancellationError` when the task is
    ///   cancelled (between replies; running tools see the cancellation).
    public func runTools(
        _ body: CreateChatCompletionRequest, tools: [RunnableFunction], maxRounds: Int = 10,
        maxConcurrentCalls: Int = 8,
        approve: (@Sendable (ToolCallRequest) async -> ToolCallApproval)? = nil,
        options: RequestOptions = RequestOptions()
    ) async throws -> ChatToolRun {
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
    /// chunk as it arrives, each tool call before it runs and its result when it is ready, then
    /// the whole run.
    ///
    /// ```swift
    /// for try await event in client.chat.completions.runToolsStream(request, tools: [weather]) {
    ///     switch event {
    ///     case .event(let chunk, _): print(chunk.choices.first?.delta.content ?? "", terminator: "")
    ///     case .toolCall(let call): print("calling \(call.name)")
    ///     case .toolResult(let call, let output): print("\(call.name): \(output)")
    ///     case .finished(let run): print(run.content ?? "")
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters: As ``runTools(_:tools:maxRounds:maxConcurrentCalls:approve:options:)``.
    /// - Returns: The events, in the order they happen; the first request is sent when iteration
    ///   starts (each iteration runs the loop again), and stopping the iteration (or cancelling
    ///   its task) stops the loop.
    /// - Throws: The iteration throws what ``createStream(_:options:)``'s iteration throws, and
    ///   `CancellationError`.
    public func runToolsStream(
        _ body: CreateChatCompletionRequest, tools: [RunnableFunction], maxRounds: Int = 10,
        maxConcurrentCalls: Int = 8,
        approve: (@Sendable (ToolCallRequest) async -> ToolCallApproval)? = nil,
        options: RequestOptions = RequestOptions()
    ) -> EventSequence<ToolRunEvent<CreateChatCompletionStreamResponse, ChatToolRun>> {
        EventSequence { sink in
            let run = try await runToolLoop(
                body, tools: tools, maxRounds: maxRounds, maxConcurrentCalls: maxConcurrentCalls, approve: approve,
                options: options
            ) { body, options, round in
                var accumulator = ChatCompletionStreamAccumulator()
                for try await chunk in try createStream(body, options: options) {
                    accumulator.append(chunk)
                    await sink.send(.event(chunk, round: round))
                }
                guard let completion = accumulator.completion else {
                    throw OpenAIError(kind: .decoding, message: "The stream of round \(round) had no chunk.")
                }
                return completion
            } emit: {
                sink.yield($0)
            }
            sink.yield(.finished(run))
        }
    }

    /// The loop of both forms: `reply` gets one round's reply.
    private func runToolLoop(
        _ body: CreateChatCompletionRequest, tools: [RunnableFunction], maxRounds: Int, maxConcurrentCalls: Int,
        approve: (@Sendable (ToolCallRequest) async -> ToolCallApproval)?, options: RequestOptions,
        reply: (_ body: CreateChatCompletionRequest, _ options: RequestOptions, _ round: Int) async throws ->
            CreateChatCompletionResponse,
        emit: (ToolRunEvent<CreateChatCompletionStreamResponse, ChatToolRun>) -> Void
    ) async throws -> ChatToolRun {
        var body = body
        body.tools = (body.tools ?? []) + tools.map { .function(ChatCompletionTool(function: $0.definition)) }
        let byName = try RunnableFunction.byName(tools)
        var run = ChatToolRun(completions: [], messages: body.messages, stoppedAtMaxRounds: false)
        let rounds = max(1, maxRounds)
        for round in 1...rounds {
            try Task.checkCancellation()
            body.messages = run.messages
            let roundOptions = options.forStep("round-\(round)")
            let completion = try await reply(body, roundOptions, round)
            run.completions.append(completion)
            guard let message = completion.choices.first?.message else { return run }
            run.messages.append(message.asRequestMessage)
            guard let calls = message.toolCalls, !calls.isEmpty else { return run }
            if round == rounds {
                run.stoppedAtMaxRounds = true
                return run
            }
            let results = try await Self.results(
                of: calls, round: round, tools: byName, maxConcurrent: maxConcurrentCalls, approve: approve, emit: emit)
            for (id, result) in results {
                run.messages.append(.tool(ChatCompletionRequestToolMessage(content: .string(result), toolCallID: id)))
            }
        }
        return run
    }
}

/// An event of a streamed tool run (``ChatCompletionsAPI/runToolsStream(_:tools:maxRounds:maxConcurrentCalls:approve:options:)``,
/// ``ResponsesAPI/runToolsStream(_:tools:maxRounds:maxConcurrentCalls:approve:options:)``), in the order it happens.
public enum ToolRunEvent<StreamEvent: Sendable, Run: Sendable>: Sendable {
    /// An event of the reply of round `round` (from 1): a chat chunk or a Responses stream event.
    case event(StreamEvent, round: Int)
    /// A function call is about to be asked about (approval hook) and run.
    case toolCall(ToolCallRequest)
    /// A call's result, as the model will get it (`Error: …` and declines included).
    case toolResult(ToolCallRequest, output: String)
    /// The run ended: every reply and the whole conversation.
    case finished(Run)
}

extension ChatCompletionsAPI {
    /// The result of each call, in call order: function calls run by
    /// ``RunnableFunction/results(of:tools:maxConcurrent:approve:emit:)``, an `Error:` result for the
    /// kinds `runTools` does not run.
    static func results<Event, Run>(
        of calls: [ChatCompletionMessageToolCallValue], round: Int, tools: [String: RunnableFunction],
        maxConcurrent: Int, approve: (@Sendable (ToolCallRequest) async -> ToolCallApproval)?,
        emit: (ToolRunEvent<Event, Run>) -> Void
    ) async throws -> [(id: String, result: String)] {
        var results: [(id: String, result: String)] = []
        var requests: [(index: Int, request: ToolCallRequest)] = []
        for call in calls {
            switch call {
            case .function(let call):
                let request = ToolCallRequest(
                    id: call.id, name: call.function.name, arguments: call.function.arguments, round: round)
                requests.append((results.count, request))
                results.append((call.id, ""))
            case .custom(let call):
                results.append((call.id, "Error: custom tool `\(call.custom.name)` is not run by runTools"))
            case .unknown(let value):
                results.append((value["id"]?.stringValue ?? "", "Error: a tool call of a kind this SDK does not know"))
            }
        }
        let outputs = try await RunnableFunction.results(
            of: requests.map(\.request), tools: tools, maxConcurrent: maxConcurrent, approve: approve, emit: emit)
        for (slot, output) in zip(requests.map(\.index), outputs) { results[slot].result = output }
        return results
    }
}

extension RunnableFunction {
    /// The tools by function name.
    ///
    /// - Throws: ``OpenAIError`` of kind ``OpenAIError/Kind/invalidRequest`` naming the first name
    ///   two tools share: the model could not tell them apart, and the API refuses the request.
    static func byName(_ tools: [RunnableFunction]) throws -> [String: RunnableFunction] {
        var byName: [String: RunnableFunction] = [:]
        for tool in tools {
            let name = tool.definition.name
            guard byName.updateValue(tool, forKey: name) == nil else {
                throw OpenAIError(
                    kind: .invalidRequest,
                    message: "Two tools are named `\(name)`: a function's name must be unique among the tools.")
            }
        }
        return byName
    }

    /// Runs the calls concurrently, at most `maxConcurrent` at once (at least 1), each at most once,
    /// and gives their results in call order (`emit` hears of each call when it is asked for and
    /// of each result as it is ready): a
    /// call the tools do not define, that the hook declines, whose arguments do not decode or
    /// that throws gets a result that says so (`Error: …`, `The call was declined: …`).
    ///
    /// - Throws: `CancellationError` when the task is cancelled while they run.
    static func results<Event, Run>(
        of requests: [ToolCallRequest], tools: [String: RunnableFunction], maxConcurrent: Int,
        approve: (@Sendable (ToolCallRequest) async -> ToolCallApproval)?, emit: (ToolRunEvent<Event, Run>) -> Void
    ) async throws -> [String] {
        try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for request in requests { emit(.toolCall(request)) }
            var next = 0
            func startNext() {
                let index = next
                let request = requests[index]
                next += 1
                group.addTask { (index, await result(of: request, tools: tools, approve: approve)) }
            }
            while next < min(max(1, maxConcurrent), requests.count) { startNext() }
            var results = [String](repeating: "", count: requests.count)
            for try await (index, result) in group {
                results[index] = result
                emit(.toolResult(requests[index], output: result))
                if next < requests.count, !Task.isCancelled { startNext() }
            }
            try Task.checkCancellation()
            return results
        }
    }

    private static func result(
        of request: ToolCallRequest, tools: [String: RunnableFunction],
        approve: (@Sendable (ToolCallRequest) async -> ToolCallApproval)?
    ) async -> String {
        guard let tool = tools[request.name] else { return "Error: there is no function named `\(request.name)`" }
        if let approve, case .decline(let reason) = await approve(request) {
            return "The call was declined: \(reason)"
        }
        do {
            return try await tool.run(request.arguments)
        } catch {
            return "Error: \(error)"
        }
    }
}

/// A function that runs on the actor it is given, carried into a `@Sendable` closure.
///
/// `@unchecked Sendable`: the function is only called with the actor it was made for, and runs
/// there (its first parameter is `isolated`), so its state is never touched from two domains.
private struct IsolatedFunction: @unchecked Sendable {
    let function: (isolated (any Actor)?, String) async throws -> String

    init(_ function: @escaping (isolated (any Actor)?, String) async throws -> String) {
        self.function = function
    }
}
