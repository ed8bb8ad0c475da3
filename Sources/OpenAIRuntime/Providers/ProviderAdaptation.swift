import Foundation

/// Adapts a Chat Completions request body to a provider's ``ProviderPreset/Dialect``: what the
/// provider rejects is left out or renamed, and each change is said in words, for the logger.
/// The other members keep their place, so the bytes are the same for the same request.
enum ProviderAdaptation {
    /// The operations whose bodies are adapted: Chat Completions, the protocol these servers share.
    static let adaptedPaths: Set<String> = ["/chat/completions"]

    /// `body` adapted to `preset`'s dialect, and what changed (empty when nothing did).
    static func adapt(_ body: JSONObject, to preset: ProviderPreset) -> (body: JSONObject, changes: [String]) {
        let dialect = preset.dialect
        var body = body
        var changes: [String] = []
        let rejects = "\(preset.name) does not accept it"
        for name in dialect.unsupportedMembers where body.contains(key: name) {
            body[name] = nil
            changes.append("left out `\(name)` (\(rejects))")
        }
        if dialect.maxTokensMember != "max_completion_tokens", let value = body["max_completion_tokens"] {
            if body.contains(key: dialect.maxTokensMember) {
                body["max_completion_tokens"] = nil
                changes.append(
                    "left out `max_completion_tokens` (\(preset.name) reads `\(dialect.maxTokensMember)`, also set)")
            } else {
                body = renamed(body, "max_completion_tokens", to: dialect.maxTokensMember, value: value)
                changes.append("sent `max_completion_tokens` as `\(dialect.maxTokensMember)`")
            }
        }
        for (old, new) in dialect.renamedMembers.sorted(by: { $0.key < $1.key }) {
            guard let value = body[old] else { continue }
            body = renamed(body, old, to: new, value: value)
            changes.append("sent `\(old)` as `\(new)`")
        }
        if !dialect.acceptsStreamOptions, body.contains(key: "stream_options") {
            body["stream_options"] = nil
            changes.append("left out `stream_options` (\(rejects))")
        }
        if !dialect.acceptsStrict, removeStrict(from: &body) {
            changes.append("left out `strict` of the tools and the response format (\(rejects))")
        }
        if let effort = body["reasoning_effort"] {
            switch dialect.reasoning {
            case .reasoningEffort:
                break
            case .reasoningObject:
                var reasoning = body["reasoning"]?.objectValue ?? [:]
                if !reasoning.contains(key: "effort") { reasoning["effort"] = effort }
                body = renamed(body, "reasoning_effort", to: "reasoning", value: .object(reasoning))
                changes.append("sent `reasoning_effort` as `reasoning.effort`")
            case .none:
                body["reasoning_effort"] = nil
                changes.append("left out `reasoning_effort` (\(rejects))")
            }
        }
        let ignored = dialect.ignoredMembers.filter { body.contains(key: $0) }
        if !ignored.isEmpty {
            changes.append("\(ignored.map { "`\($0)`" }.joined(separator: ", ")) sent, but \(preset.name) ignores it")
        }
        return (body, changes)
    }

    /// `body` with the member `old` replaced, in its place, by `new` holding `value` (an existing
    /// `new` member is dropped).
    private static func renamed(_ body: JSONObject, _ old: String, to new: String, value: JSONValue) -> JSONObject {
        var result = JSONObject()
        for (key, member) in body where key != new {
            if key == old {
                result[new] = value
            } else {
                result[key] = member
            }
        }
        return result
    }

    /// Removes `strict` from the function tools and the `json_schema` response format.
    private static func removeStrict(from body: inout JSONObject) -> Bool {
        var removed = false
        if case .array(var tools)? = body["tools"] {
            for index in tools.indices {
                guard case .object(var tool) = tools[index], case .object(var function)? = tool["function"],
                    function.removeValue(forKey: "strict") != nil
                else { continue }
                tool["function"] = .object(function)
                tools[index] = .object(tool)
                removed = true
            }
            if removed { body["tools"] = .array(tools) }
        }
        if case .object(var format)? = body["response_format"], case .object(var schema)? = format["json_schema"],
            schema.removeValue(forKey: "strict") != nil
        {
            format["json_schema"] = .object(schema)
            body["response_format"] = .object(format)
            removed = true
        }
        return removed
    }
}
