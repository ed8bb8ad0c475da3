import Foundation
import OpenAIRuntime

// What OpenAI-compatible servers send in Chat Completions beyond the spec, read from the
// members the generated types keep (`undeclaredMembers`, and the value of a declared member that
// did not fit its type in `specDeviations`). Each accessor names the spellings it reads.

extension ChatCompletionResponseMessage {
    /// The model's reasoning text, whatever the server calls it: `reasoning_content` (DeepSeek,
    /// Alibaba, xAI, Z.ai, vLLM, Azure's DeepSeek deployments), `reasoning` (Groq, Cerebras,
    /// OpenRouter, Ollama), the text of `reasoning_details` (OpenRouter), or the `thinking` parts
    /// of a content array (Mistral's reasoning models). `nil` when the message has none (OpenAI's
    /// Chat Completions does not return reasoning; the Responses API does, as reasoning items).
    public var reasoningText: String? {
        ChatProviderMembers.reasoning(undeclaredMembers, content: specDeviations.receivedValue(of: "content"))
    }

    /// The message's text: `content`, or, when the server sent `content` as an array of parts
    /// (Mistral's reasoning models), the text of its `text` parts joined; `nil` when there is none.
    public var contentText: String? {
        content ?? ChatProviderMembers.text(ofParts: specDeviations.receivedValue(of: "content"))
    }
}

extension ChatCompletionStreamResponseDelta {
    /// This delta's piece of the model's reasoning text, in the spellings
    /// ``ChatCompletionResponseMessage/reasoningText`` reads.
    public var reasoningText: String? {
        ChatProviderMembers.reasoning(undeclaredMembers, content: specDeviations.receivedValue(of: "content"))
    }

    /// This delta's piece of the text: `content`, or the text of `text` parts when the server
    /// streams `content` as an array of parts (Mistral's reasoning models).
    public var contentText: String? {
        content ?? ChatProviderMembers.text(ofParts: specDeviations.receivedValue(of: "content"))
    }

    /// This delta's piece of the spoken reply when the request asked for audio output
    /// (`modalities: ["text", "audio"]`): the `audio` member of the streamed delta, which the
    /// spec does not declare. ``ChatCompletionStreamAccumulator`` joins the pieces into the
    /// message's ``ChatCompletionResponseMessage/audio``.
    public var audioDelta: ChatCompletionAudioDelta? {
        guard case .object(let audio)? = undeclaredMembers["audio"] else { return nil }
        return ChatCompletionAudioDelta(audio)
    }
}

/// A piece of a streamed spoken reply (`choices[].delta.audio` of a Chat Completions chunk): the
/// first piece carries the `id` and usually the `transcript`, later ones `data`, the last one
/// `expires_at`.
public struct ChatCompletionAudioDelta: Sendable, Hashable {
    /// The audio's ID, to refer to it in a later turn.
    public var id: String?
    /// A piece of the audio, base64 text in the requested format (`pcm16`: 24 kHz mono
    /// little-endian 16-bit samples).
    public var data: String?
    /// A piece of the transcript.
    public var transcript: String?
    /// When the audio stops being available for later turns (Unix time, seconds).
    public var expiresAt: Int?

    init(_ object: JSONObject) {
        id = object["id"]?.stringValue
        data = object["data"]?.stringValue
        transcript = object["transcript"]?.stringValue
        if case .int(let seconds)? = object["expires_at"] { expiresAt = seconds }
    }

    /// The bytes of ``data``; `nil` when there is none or it is not base64.
    public var bytes: Data? { data.flatMap { Data(base64Encoded: $0) } }
}

extension CompletionUsage {
    /// What the request cost in US dollars, when the server says: OpenRouter's `cost` (its credits,
    /// one per dollar) or xAI's `cost_in_usd_ticks` (10^10 ticks per dollar). `nil` from OpenAI,
    /// which does not report cost per request.
    public var costInUSD: Double? {
        if let cost = undeclaredMembers["cost"]?.doubleValue { return cost }
        if let ticks = undeclaredMembers["cost_in_usd_ticks"]?.doubleValue { return ticks / 10_000_000_000 }
        return nil
    }

    /// How many prompt tokens were read from the server's prompt cache:
    /// `prompt_tokens_details.cached_tokens` (OpenAI, and the servers that copy it) or DeepSeek's
    /// `prompt_cache_hit_tokens`; `nil` when the reply says neither.
    public var cachedPromptTokens: Int? {
        if let cached = promptTokensDetails?.cachedTokens { return cached }
        if case .int(let hits)? = undeclaredMembers["prompt_cache_hit_tokens"] { return hits }
        return nil
    }
}

extension CreateChatCompletionResponse {
    /// The URLs the reply cites: the top-level `citations` of Perplexity and xAI's search, else
    /// the `url_citation` annotations of the messages (OpenAI's web search, OpenRouter). Empty when
    /// there are none. Perplexity's richer `search_results` are in
    /// `undeclaredMembers["search_results"]`.
    public var citationURLs: [String] {
        if let urls = ChatProviderMembers.urls(undeclaredMembers["citations"]) { return urls }
        return choices.flatMap { choice in
            (choice.message.annotations ?? []).map(\.urlCitation.url)
        }
    }
}

extension CreateChatCompletionStreamResponse {
    /// The URLs the reply cites, from the top-level `citations` that Perplexity and xAI send with
    /// the chunks; empty when there are none.
    public var citationURLs: [String] {
        ChatProviderMembers.urls(undeclaredMembers["citations"]) ?? []
    }
}

/// Readers of the members servers add to Chat Completions.
enum ChatProviderMembers {
    /// The reasoning text in `members` (a message's or a delta's undeclared members) or in the
    /// `thinking` parts of a content array.
    static func reasoning(_ members: JSONObject, content: JSONValue?) -> String? {
        for name in ["reasoning_content", "reasoning"] {
            if case .string(let text)? = members[name] { return text }
        }
        if case .array(let details)? = members["reasoning_details"] {
            let texts = details.compactMap { detail in detail["text"]?.stringValue ?? detail["summary"]?.stringValue }
            if !texts.isEmpty { return texts.joined() }
        }
        guard case .array(let parts)? = content else { return nil }
        let thinking = parts.filter { $0["type"] == "thinking" }.compactMap { part -> String? in
            switch part["thinking"] {
            case .string(let text)?: text
            case .array(let inner)?: text(ofParts: .array(inner))
            default: nil
            }
        }
        return thinking.isEmpty ? nil : thinking.joined()
    }

    /// The text of the `text` parts of a content array, joined; `nil` when there are none.
    static func text(ofParts content: JSONValue?) -> String? {
        guard case .array(let parts)? = content else { return nil }
        let texts = parts.filter { $0["type"] == "text" }.compactMap { $0["text"]?.stringValue }
        return texts.isEmpty ? nil : texts.joined()
    }

    /// An array of URL strings, or the `url` of each object of an array.
    static func urls(_ value: JSONValue?) -> [String]? {
        guard case .array(let items)? = value else { return nil }
        return items.compactMap { $0.stringValue ?? $0["url"]?.stringValue }
    }
}
