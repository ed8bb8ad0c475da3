import Foundation
import OpenAIRuntime

/// Why a structured-output reply was not read as the type asked for.
public struct StructuredOutputError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Equatable {
        /// The model stopped at the token limit (`finish_reason: length`, or a response incomplete
        /// for `max_output_tokens`): the JSON is cut off.
        case lengthLimit
        /// The content filter removed the output (`finish_reason: content_filter`).
        case contentFilter
        /// The model's text is not JSON of the type (the path and reason are in ``message``).
        case invalidContent
        /// The reply has neither text nor a refusal.
        case noContent
    }

    /// What went wrong.
    public var kind: Kind
    /// Why, with the member path of a decoding failure.
    public var message: String
    /// The model's text, at most 64 KiB of it.
    public var content: String?
    /// The chat completion choice it concerns (`nil` for a Responses reply).
    public var choiceIndex: Int?

    /// The most of the model's text an error keeps.
    public static let contentLimit = 64 * 1024

    init(_ kind: Kind, _ message: String, content: String? = nil, choiceIndex: Int? = nil) {
        self.kind = kind
        self.message = message
        self.choiceIndex = choiceIndex
        self.content = content.map { String(decoding: $0.utf8.prefix(Self.contentLimit), as: UTF8.self) }
    }

    public var description: String { message }

    /// `text` decoded as `type`.
    /// `text` decoded as `type`; `what` names the text in the error (the model's text, a tool
    /// call's arguments).
    static func decode<T: Decodable>(
        _ type: T.Type, from text: String, what: String = "the model's text", choiceIndex: Int? = nil
    ) throws -> T {
        do {
            return try OrderedJSONDecoder().decode(T.self, from: Data(text.utf8))
        } catch let error as DecodingError {
            let which = choiceIndex.map { "choice \($0): " } ?? ""
            throw StructuredOutputError(
                .invalidContent, "\(which)\(what) is not a \(T.self): \(Self.describe(error))", content: text,
                choiceIndex: choiceIndex)
        }
    }

    static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue }.joined()
            return path.isEmpty ? "the top level" : String(path.drop { $0 == "." })
        }
        switch error {
        case .keyNotFound(let key, let context): return "\(path(context)): missing member `\(key.stringValue)`"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return "\(path(context)): \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }
}

/// A chat completion whose choices' content was decoded as `Output`.
public struct ParsedChatCompletion<Output: Decodable> {
    /// One choice: its decoded content, or the model's refusal.
    public struct Choice {
        /// The choice's index.
        public var index: Int
        /// The content decoded as `Output`; `nil` when the model refused.
        public var output: Output?
        /// The model's refusal (`message.refusal`), when it refused.
        public var refusal: String?
    }

    /// The reply as sent.
    public var completion: CreateChatCompletionResponse
    /// Every choice, in order.
    public var choices: [Choice]

    /// The first choice's decoded content; `nil` when the model refused (see ``refusal``).
    public var output: Output? { choices.first?.output }
    /// The first choice's refusal.
    public var refusal: String? { choices.first?.refusal }
}

extension ParsedChatCompletion: Sendable where Output: Sendable {}
extension ParsedChatCompletion.Choice: Sendable where Output: Sendable {}

extension ChatCompletionsAPI {
    /// Creates a chat completion whose reply is structured output of `Output`'s schema, and decodes it.
    ///
    /// Sets `response_format` to `Output`'s `json_schema` (``ResponseFormatJSONSchema/init(_:name:description:strict:)``),
    /// replacing the body's own, then reads every choice: its content decoded as `Output`, or its
    /// refusal. As OpenAI's SDKs do, one choice that cannot be read fails the call; the error
    /// names it (``StructuredOutputError/choiceIndex``).
    ///
    /// - Parameters:
    ///   - body: The request; its `responseFormat` is replaced.
    ///   - type: The Swift type of the structured output.
    ///   - name: The format's name; by default `Output`'s.
    ///   - strict: Whether the model must follow the schema exactly (OpenAI's strict mode).
    ///   - options: Per-request headers, query items, timeout, retries and idempotency key.
    ///   - isolation: The actor on which `Output`'s schema is derived and the reply decoded; the
    ///     caller's by default, where an app type's `Decodable` conformance may be isolated (the
    ///     main actor in an app target with default MainActor isolation).
    /// - Returns: The reply and each choice's decoded output or refusal.
    /// - Throws: ``JSONSchemaError`` before sending when `Output`'s schema cannot be derived or does
    ///   not fit strict mode; ``OpenAIError`` as ``create(_:options:)`` does;
    ///   ``StructuredOutputError`` when a choice stopped at the token limit (``StructuredOutputError/Kind/lengthLimit``),
    ///   was filtered (``StructuredOutputError/Kind/contentFilter``), or its text does not decode.
    public func parse<Output: Decodable>(
        _ body: CreateChatCompletionRequest, as type: Output.Type, name: String? = nil, strict: Bool = true,
        options: RequestOptions = RequestOptions(), isolation: isolated (any Actor)? = #isolation
    ) async throws -> ParsedChatCompletion<Output> {
        var body = body
        body.responseFormat = try .jsonSchema(type, name: name, strict: strict)
        return try Self.parsed(try await create(body, options: options), as: type)
    }

    /// Reads every choice of a structured-output reply (see ``parse(_:as:name:strict:options:isolation:)``).
    static func parsed<Output: Decodable>(_ completion: CreateChatCompletionResponse, as type: Output.Type) throws
        -> ParsedChatCompletion<Output>
    {
        let choices = try completion.choices.map { choice -> ParsedChatCompletion<Output>.Choice in
            let content = choice.message.content.flatMap { $0.isEmpty ? nil : $0 }
            if choice.finishReason == .length {
                throw StructuredOutputError(
                    .lengthLimit, "choice \(choice.index) stopped at the token limit; its JSON is cut off",
                    content: content, choiceIndex: choice.index)
            }
            if choice.finishReason == .contentFilter {
                throw StructuredOutputError(
                    .contentFilter, "choice \(choice.index) was removed by the content filter", content: content,
                    choiceIndex: choice.index)
            }
            if let refusal = choice.message.refusal, content == nil {
                return .init(index: choice.index, output: nil, refusal: refusal)
            }
            guard let content else {
                let reason =
                    choice.finishReason == .toolCalls
                    ? "asked for tool calls instead (finish_reason tool_calls)" : "has neither content nor a refusal"
                throw StructuredOutputError(.noContent, "choice \(choice.index) \(reason)", choiceIndex: choice.index)
            }
            return .init(
                index: choice.index,
                output: try StructuredOutputError.decode(Output.self, from: content, choiceIndex: choice.index),
                refusal: nil)
        }
        return ParsedChatCompletion(completion: completion, choices: choices)
    }
}

/// A response whose output text was decoded as `Output`.
public struct ParsedResponse<Output: Decodable> {
    /// The reply as sent.
    public var response: Response
    /// The first `output_text` part of the output decoded as `Output`; `nil` when the model refused.
    public var output: Output?
    /// The model's refusal, when it refused (the `refusal` parts of its messages, joined).
    public var refusal: String?
}

extension ParsedResponse: Sendable where Output: Sendable {}

extension ResponsesAPI {
    /// Creates a response whose output is structured output of `Output`'s schema, and decodes it.
    ///
    /// Sets `text.format` to `Output`'s `json_schema` (``TextResponseFormatJSONSchema/init(_:name:description:strict:)``),
    /// keeping the body's `text.verbosity`.
    ///
    /// - Parameters:
    ///   - body: The request; its `text.format` is replaced.
    ///   - type: The Swift type of the structured output.
    ///   - name: The format's name; by default `Output`'s.
    ///   - strict: Whether the model must follow the schema exactly.
    ///   - options: Per-request headers, query items, timeout, retries and idempotency key.
    ///   - isolation: The actor on which `Output`'s schema is derived and the reply decoded; the
    ///     caller's by default, where an app type's `Decodable` conformance may be isolated (the
    ///     main actor in an app target with default MainActor isolation).
    /// - Returns: The reply and its decoded output, or the refusal.
    /// - Throws: ``JSONSchemaError`` before sending when `Output`'s schema cannot be derived or does
    ///   not fit strict mode; ``OpenAIError`` as ``create(_:options:)`` does;
    ///   ``StructuredOutputError`` when the response is incomplete for `max_output_tokens`
    ///   (``StructuredOutputError/Kind/lengthLimit``) or `content_filter`, or its text does not decode.
    public func parse<Output: Decodable>(
        _ body: CreateResponse, as type: Output.Type, name: String? = nil, strict: Bool = true,
        options: RequestOptions = RequestOptions(), isolation: isolated (any Actor)? = #isolation
    ) async throws -> ParsedResponse<Output> {
        let body = try Self.requestingFormat(of: type, name: name, strict: strict, in: body)
        return try Self.parsed(try await create(body, options: options), as: type)
    }

    /// `body` with `text.format` set to `Output`'s `json_schema`, its `text.verbosity` kept.
    static func requestingFormat<Output: Decodable>(
        of type: Output.Type, name: String?, strict: Bool, in body: CreateResponse
    ) throws -> CreateResponse {
        var body = body
        var text = body.text ?? ResponseTextParam()
        text.format = try .jsonSchema(type, name: name, strict: strict)
        body.text = text
        return body
    }

    /// Reads a structured-output response (see ``parse(_:as:name:strict:options:isolation:)``).
    static func parsed<Output: Decodable>(_ response: Response, as type: Output.Type) throws -> ParsedResponse<Output> {
        // Each `output_text` part is one JSON value; the first is the answer.
        var outputText: String?
        var refusals: [String] = []
        for item in response.output {
            guard case .message(let message) = item else { continue }
            for part in message.content {
                switch part {
                case .outputText(let content): outputText = outputText ?? content.text
                case .refusal(let refusal): refusals.append(refusal.refusal)
                default: break
                }
            }
        }
        switch response.incompleteDetails?.reason {
        case .maxOutputTokens?:
            throw StructuredOutputError(
                .lengthLimit, "the response stopped at max_output_tokens; its JSON is cut off", content: outputText)
        case .contentFilter?:
            throw StructuredOutputError(
                .contentFilter, "the response was cut by the content filter", content: outputText)
        default:
            break
        }
        guard let outputText, !outputText.isEmpty else {
            guard !refusals.isEmpty else {
                throw StructuredOutputError(.noContent, "the response has neither output text nor a refusal")
            }
            return ParsedResponse(response: response, output: nil, refusal: refusals.joined(separator: "\n"))
        }
        return ParsedResponse(
            response: response, output: try StructuredOutputError.decode(Output.self, from: outputText),
            refusal: refusals.isEmpty ? nil : refusals.joined(separator: "\n"))
    }
}
