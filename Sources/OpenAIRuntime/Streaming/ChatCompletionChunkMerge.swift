import Foundation

/// Chat Completions chunks (`CreateChatCompletionStreamResponse`, as JSON) merged into the
/// `chat.completion` the same request returns without streaming, by the rules of
/// ``JSONObject/accumulate(delta:)`` that the SDK's typed accumulator applies to the members the
/// spec does not declare:
///
/// - each choice's `delta` is accumulated into its `message`: `content`, `refusal` and reasoning
///   text (`reasoning_content`, `reasoning`, …) appended, `tool_calls` merged by their `index`
///   with their `function.arguments` appended, `role` the latest;
/// - each choice's `logprobs` accumulated (their arrays appended), its other members
///   (`finish_reason`, …) and the chunk's (`id`, `model`, `usage`, …) the latest, `null` changing
///   nothing.
///
/// For the untyped surfaces (the `openai` tool's MCP server); the SDK's typed streams use
/// `ChatCompletionStreamAccumulator`.
package struct ChatCompletionChunkMerge: Sendable {
    private var head = JSONObject()
    /// Each choice's `index` → its members and its message so far.
    private var choices: [Int: (members: JSONObject, message: JSONObject)] = [:]

    package init() {}

    /// Takes one chunk; a value that is not an object changes nothing.
    package mutating func take(_ chunk: JSONValue) {
        guard case .object(var members) = chunk else { return }
        let given = members.removeValue(forKey: "choices")
        head.update(snapshot: members)
        for case .object(var choice) in given?.arrayValue ?? [] {
            let index = if case .int(let given)? = choice["index"] { given } else { 0 }
            var state = choices[index] ?? (JSONObject(), JSONObject())
            choice.removeValue(forKey: "index")
            if case .object(var delta)? = choice.removeValue(forKey: "delta") {
                if let role = delta.removeValue(forKey: "role"), role != .null { state.message["role"] = role }
                state.message.accumulate(delta: delta)
            }
            if case .object(let logprobs)? = choice.removeValue(forKey: "logprobs") {
                var merged = state.members["logprobs"]?.objectValue ?? JSONObject()
                merged.accumulate(delta: logprobs)
                state.members["logprobs"] = .object(merged)
            }
            state.members.update(snapshot: choice)
            choices[index] = state
        }
    }

    /// The completion so far: the chunks' members with `object` `chat.completion`, and each choice
    /// (by `index`) with its `message`; `nil` before a chunk with choices.
    package var completion: JSONValue? {
        guard !choices.isEmpty else { return nil }
        var result = JSONObject()
        for (key, value) in head { result[key] = key == "object" ? .string("chat.completion") : value }
        if result["object"] == nil { result["object"] = .string("chat.completion") }
        result["choices"] = .array(
            choices.keys.sorted().map { index in
                let state = choices[index]!
                var message = JSONObject()
                message["role"] = state.message["role"] ?? .string("assistant")
                for (key, value) in state.message where key != "role" {
                    message[key] = key == "tool_calls" ? Self.withoutIndex(value) : value
                }
                if message["content"] == nil { message["content"] = .null }
                var choice: JSONObject = ["index": .int(index), "message": .object(message)]
                for (key, value) in state.members { choice[key] = value }
                if choice["finish_reason"] == nil { choice["finish_reason"] = .null }
                return .object(choice)
            })
        if let usage = result.removeValue(forKey: "usage") { result["usage"] = usage }
        return .object(result)
    }

    /// Tool calls without the `index` that placed their fragments (a completion has none).
    private static func withoutIndex(_ calls: JSONValue) -> JSONValue {
        guard case .array(let elements) = calls else { return calls }
        return .array(
            elements.map { element in
                guard case .object(var call) = element else { return element }
                call.removeValue(forKey: "index")
                return .object(call)
            })
    }
}
