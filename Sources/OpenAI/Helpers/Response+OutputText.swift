import OpenAIRuntime
extension Response {
    /// The text of every `output_text` part of every output message, joined in order: what
    /// OpenAI's SDKs call `output_text`. Empty when the model produced no text (only tool calls,
    /// or a refusal).
    public var outputText: String {
        var text = ""
        for item in output {
            guard case .message(let message) = item else { continue }
            for part in message.content {
                if case .outputText(let content) = part { text += content.text }
            }
        }
        return text
    }
}
