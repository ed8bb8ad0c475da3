import Foundation
import OpenAIRuntime

/// Structured outputs and function tools from Swift types: the request values that carry a
/// ``JSONSchemaDocument``, and reading a tool call's arguments back as the Swift type.
extension JSONSchemaDocument {
    /// A name the API accepts for a format or a function (`a-z`, `A-Z`, `0-9`, `_` and `-`, at most
    /// 64 characters), from a Swift type's name.
    static func apiName(for type: Any.Type) -> String {
        let name = String(describing: type).map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") ? $0 : "_" }
        return String(String(name).prefix(64))
    }
}

extension ResponseFormatJSONSchema {
    /// A Chat Completions structured-output format (`response_format` of type `json_schema`)
    /// whose schema is `T`'s (``JSONSchemaDocument/init(for:)``).
    ///
    /// - Parameters:
    ///   - type: The Swift type the reply's content decodes to.
    ///   - name: The format's name; by default `T`'s name with characters the API does not
    ///     accept replaced by `_`.
    ///   - description: What the format is for, for the model.
    ///   - strict: Whether the model must follow the schema exactly (OpenAI's strict mode); the
    ///     schema is then written in its strict form and checked before any request is sent.
    /// - Throws: ``JSONSchemaError`` when the schema cannot be derived or does not fit strict mode.
    public init<T: Decodable>(
        _ type: T.Type, name: String? = nil, description: String? = nil, strict: Bool = true
    ) throws {
        let document = try JSONSchemaDocument(for: type)
        self.init(
            jsonSchema: JSONSchema(
                name: name ?? JSONSchemaDocument.apiName(for: type), description: description,
                schema: try document.jsonObject(strict: strict), strict: strict))
    }
}

extension CreateChatCompletionRequest.ResponseFormat {
    /// The `json_schema` format for `T` (``ResponseFormatJSONSchema/init(_:name:description:strict:)``).
    ///
    /// - Throws: ``JSONSchemaError`` when the schema cannot be derived or does not fit strict mode.
    public static func jsonSchema<T: Decodable>(
        _ type: T.Type, name: String? = nil, description: String? = nil, strict: Bool = true
    ) throws -> Self {
        .jsonSchema(try ResponseFormatJSONSchema(type, name: name, description: description, strict: strict))
    }
}

extension TextResponseFormatJSONSchema {
    /// A Responses structured-output format (`text.format` of type `json_schema`) whose schema is
    /// `T`'s (``JSONSchemaDocument/init(for:)``).
    ///
    /// - Parameters:
    ///   - type: The Swift type the reply's output text decodes to.
    ///   - name: The format's name; by default `T`'s name.
    ///   - description: What the format is for, for the model.
    ///   - strict: Whether the model must follow the schema exactly; the schema is then written in
    ///     its strict form and checked before any request is sent.
    /// - Throws: ``JSONSchemaError`` when the schema cannot be derived or does not fit strict mode.
    public init<T: Decodable>(
        _ type: T.Type, name: String? = nil, description: String? = nil, strict: Bool = true
    ) throws {
        let document = try JSONSchemaDocument(for: type)
        self.init(
            name: name ?? JSONSchemaDocument.apiName(for: type), schema: try document.jsonObject(strict: strict),
            description: description, strict: strict)
    }
}

extension TextResponseFormatConfiguration {
    /// The `json_schema` format for `T` (``TextResponseFormatJSONSchema/init(_:name:description:strict:)``).
    ///
    /// - Throws: ``JSONSchemaError`` when the schema cannot be derived or does not fit strict mode.
    public static func jsonSchema<T: Decodable>(
        _ type: T.Type, name: String? = nil, description: String? = nil, strict: Bool = true
    ) throws -> Self {
        .jsonSchema(try TextResponseFormatJSONSchema(type, name: name, description: description, strict: strict))
    }
}

extension FunctionObject {
    /// A Chat Completions function whose parameters are `Arguments`' schema: the model's
    /// arguments decode to `Arguments` (``ChatCompletionMessageToolCall/Function/decodeArguments(as:)``).
    ///
    /// - Parameters:
    ///   - name: The function's name (`a-z`, `A-Z`, `0-9`, `_`, `-`; at most 64 characters).
    ///   - description: What the function does, for the model.
    ///   - arguments: The Swift type of its arguments, a struct (the parameters are an object).
    ///   - strict: Whether the model must follow the schema exactly (checked before sending).
    /// - Throws: ``JSONSchemaError`` when the schema cannot be derived or does not fit strict mode.
    public init<Arguments: Decodable>(
        name: String, description: String? = nil, arguments: Arguments.Type, strict: Bool = true
    ) throws {
        let document = try JSONSchemaDocument(for: arguments)
        self.init(
            name: name, description: description, parameters: try document.jsonObject(strict: strict),
            strict: strict)
    }
}

extension CreateChatCompletionRequest.Tool {
    /// A function tool in one line, without the `ChatCompletionTool` and `FunctionObject` wrappers.
    ///
    /// - Parameters:
    ///   - name: The function's name.
    ///   - description: What the function does, for the model.
    ///   - parameters: Its parameters' JSON Schema, an object (`nil`: no parameters).
    ///   - strict: Whether the model must follow the schema exactly.
    public static func function(
        name: String, description: String? = nil, parameters: JSONObject? = nil, strict: Bool? = nil
    ) -> Self {
        .function(
            ChatCompletionTool(
                function: FunctionObject(name: name, description: description, parameters: parameters, strict: strict)))
    }

    /// A function tool whose parameters are `Arguments`' schema (strict by default).
    ///
    /// - Throws: ``JSONSchemaError`` when the schema cannot be derived or does not fit strict mode.
    public static func function<Arguments: Decodable>(
        name: String, description: String? = nil, arguments: Arguments.Type, strict: Bool = true
    ) throws -> Self {
        .function(
            ChatCompletionTool(
                function: try FunctionObject(name: name, description: description, arguments: arguments, strict: strict)
            ))
    }
}

extension FunctionTool {
    /// A Responses function tool whose parameters are `Arguments`' schema: the call's arguments
    /// decode to `Arguments` (``FunctionToolCall/decodeArguments(as:)``).
    ///
    /// - Parameters:
    ///   - name: The function's name.
    ///   - description: What the function does, for the model.
    ///   - arguments: The Swift type of its arguments, a struct.
    ///   - strict: Whether the model must follow the schema exactly (checked before sending).
    /// - Throws: ``JSONSchemaError`` when the schema cannot be derived or does not fit strict mode.
    public init<Arguments: Decodable>(
        name: String, description: String? = nil, arguments: Arguments.Type, strict: Bool = true
    ) throws {
        let document = try JSONSchemaDocument(for: arguments)
        self.init(
            name: name, description: description, parameters: try document.jsonObject(strict: strict),
            strict: strict)
    }
}

extension ChatCompletionMessageToolCall.Function {
    /// The model's arguments (a JSON object in a string) decoded as `type`.
    ///
    /// - Throws: `DecodingError` naming the member path when the arguments are not JSON or do not
    ///   fit `type` (the model may write invalid JSON when the function is not strict).
    public func decodeArguments<T: Decodable>(as type: T.Type = T.self) throws -> T {
        try OrderedJSONDecoder().decode(T.self, from: Data(arguments.utf8))
    }
}

extension FunctionToolCall {
    /// The model's arguments (a JSON object in a string) decoded as `type`.
    ///
    /// - Throws: `DecodingError` naming the member path when the arguments are not JSON or do not
    ///   fit `type`.
    public func decodeArguments<T: Decodable>(as type: T.Type = T.self) throws -> T {
        try OrderedJSONDecoder().decode(T.self, from: Data(arguments.utf8))
    }
}
