/// One tool call's fragment in a Chat Completions stream chunk (`choices[].delta.tool_calls[]`):
/// a function call, a custom tool call, or a kind this SDK does not know yet.
///
/// The first fragment of a call carries its `id`, `type` and name; later fragments of the same
/// call (same ``index``) usually carry only more of the arguments or input, often without
/// `type`, so a fragment without `type` is read by the member it has (`custom` or `function`).
///
/// ```swift
/// for fragment in chunk.choices.first?.delta.toolCalls ?? [] {
///     switch fragment {
///     case .function(let call): arguments[call.index, default: ""] += call.function?.arguments ?? ""
///     case .custom(let call): input[call.index, default: ""] += call.custom?.input ?? ""
///     case .unknown(let json): print("tool call of another kind: \(json)")
///     }
/// }
/// ```
///
/// Spec correction: `#/components/schemas/ChatCompletionStreamResponseDelta/properties/tool_calls/items`
/// is `ChatCompletionMessageToolCallChunk`, which allows only `type: function`; the API also
/// streams custom tool calls (`type: custom`, `custom: {name, input}`), the streamed form of
/// `ChatCompletionMessageCustomToolCall` (see `Spec/overrides.json`). Remove when the spec's
/// chunk schema is a union with a custom variant.
public enum ChatCompletionToolCallChunk: Codable, Hashable, Sendable {
    /// A fragment of a function call (`type: function`).
    case function(Function)
    /// A fragment of a custom tool call (`type: custom`).
    case custom(Custom)
    /// A tool call of a type this SDK does not know, kept as its raw JSON.
    case unknown(JSONValue)

    /// A fragment of a function call.
    public struct Function: Codable, Hashable, Sendable, SpecDeviationReporting {
        /// The position of the call among the message's tool calls; fragments of one call share it.
        public var index: Int
        /// The call's ID (first fragment only).
        public var id: String?
        /// The function's name (first fragment) and a piece of its JSON arguments.
        public var function: FunctionFragment?
        /// What the decoded JSON had that the schema does not allow (see ``DecodingMode``).
        public private(set) var specDeviations = SpecDeviations()
        /// The members the fragment has beyond these, in the order received.
        public var undeclaredMembers = JSONObject()

        /// Creates a function-call fragment.
        ///
        /// - Parameters:
        ///   - index: The call's position among the tool calls.
        ///   - id: The call's ID.
        ///   - function: The name and arguments fragment.
        public init(index: Int, id: String? = nil, function: FunctionFragment? = nil) {
            self.index = index
            self.id = id
            self.function = function
        }

        /// Decodes a function-call fragment.
        ///
        /// - Throws: `DecodingError` when the value is not an object, or in
        ///   ``DecodingMode/strict`` when `index` is missing.
        public init(from decoder: any Decoder) throws {
            var reader = try ObjectReader(decoder)
            try reader.constant("type", is: "function", required: false)
            index = try reader.required(Int.self, "index")
            id = try reader.optional(String.self, "id")
            function = try reader.optional(FunctionFragment.self, "function")
            undeclaredMembers = reader.undeclaredMembers()
            specDeviations = reader.finish()
        }

        /// Encodes the fragment with `type: function`, then its ``undeclaredMembers``.
        ///
        /// - Throws: `EncodingError` when a member cannot be encoded.
        public func encode(to encoder: any Encoder) throws {
            var writer = ObjectWriter(encoder, specDeviations)
            try writer.encode(index, "index")
            try writer.encodeIfPresent(id, "id")
            try writer.encode("function", "type")
            try writer.encodeIfPresent(function, "function")
            try writer.encode(undeclared: undeclaredMembers)
        }
    }

    /// The name and a piece of the arguments of a function call.
    public struct FunctionFragment: Codable, Hashable, Sendable, SpecDeviationReporting {
        /// The function's name (first fragment).
        public var name: String?
        /// A piece of the JSON arguments; concatenate the pieces of one call.
        public var arguments: String?
        /// What the decoded JSON had that the schema does not allow (see ``DecodingMode``).
        public private(set) var specDeviations = SpecDeviations()
        /// The members the fragment has beyond these, in the order received.
        public var undeclaredMembers = JSONObject()

        /// Creates a fragment.
        ///
        /// - Parameters:
        ///   - name: The function's name.
        ///   - arguments: A piece of the arguments.
        public init(name: String? = nil, arguments: String? = nil) {
            self.name = name
            self.arguments = arguments
        }

        /// Decodes the fragment.
        ///
        /// - Throws: `DecodingError` when the value is not an object, or in
        ///   ``DecodingMode/strict`` when a member is of another type.
        public init(from decoder: any Decoder) throws {
            var reader = try ObjectReader(decoder)
            name = try reader.optional(String.self, "name")
            arguments = try reader.optional(String.self, "arguments")
            undeclaredMembers = reader.undeclaredMembers()
            specDeviations = reader.finish()
        }

        /// Encodes the fragment, then its ``undeclaredMembers``.
        ///
        /// - Throws: `EncodingError` when a member cannot be encoded.
        public func encode(to encoder: any Encoder) throws {
            var writer = ObjectWriter(encoder, specDeviations)
            try writer.encodeIfPresent(name, "name")
            try writer.encodeIfPresent(arguments, "arguments")
            try writer.encode(undeclared: undeclaredMembers)
        }
    }

    /// A fragment of a custom tool call.
    public struct Custom: Codable, Hashable, Sendable, SpecDeviationReporting {
        /// The position of the call among the message's tool calls; fragments of one call share it.
        public var index: Int
        /// The call's ID (first fragment only).
        public var id: String?
        /// The tool's name (first fragment) and a piece of its free-form input.
        public var custom: CustomFragment?
        /// What the decoded JSON had that the schema does not allow (see ``DecodingMode``).
        public private(set) var specDeviations = SpecDeviations()
        /// The members the fragment has beyond these, in the order received.
        public var undeclaredMembers = JSONObject()

        /// Creates a custom tool-call fragment.
        ///
        /// - Parameters:
        ///   - index: The call's position among the tool calls.
        ///   - id: The call's ID.
        ///   - custom: The name and input fragment.
        public init(index: Int, id: String? = nil, custom: CustomFragment? = nil) {
            self.index = index
            self.id = id
            self.custom = custom
        }

        /// Decodes a custom tool-call fragment.
        ///
        /// - Throws: `DecodingError` when the value is not an object, or in
        ///   ``DecodingMode/strict`` when `index` is missing.
        public init(from decoder: any Decoder) throws {
            var reader = try ObjectReader(decoder)
            try reader.constant("type", is: "custom", required: false)
            index = try reader.required(Int.self, "index")
            id = try reader.optional(String.self, "id")
            custom = try reader.optional(CustomFragment.self, "custom")
            undeclaredMembers = reader.undeclaredMembers()
            specDeviations = reader.finish()
        }

        /// Encodes the fragment with `type: custom`, then its ``undeclaredMembers``.
        ///
        /// - Throws: `EncodingError` when a member cannot be encoded.
        public func encode(to encoder: any Encoder) throws {
            var writer = ObjectWriter(encoder, specDeviations)
            try writer.encode(index, "index")
            try writer.encodeIfPresent(id, "id")
            try writer.encode("custom", "type")
            try writer.encodeIfPresent(custom, "custom")
            try writer.encode(undeclared: undeclaredMembers)
        }
    }

    /// The name and a piece of the input of a custom tool call.
    public struct CustomFragment: Codable, Hashable, Sendable, SpecDeviationReporting {
        /// The custom tool's name (first fragment).
        public var name: String?
        /// A piece of the free-form input; concatenate the pieces of one call.
        public var input: String?
        /// What the decoded JSON had that the schema does not allow (see ``DecodingMode``).
        public private(set) var specDeviations = SpecDeviations()
        /// The members the fragment has beyond these, in the order received.
        public var undeclaredMembers = JSONObject()

        /// Creates a fragment.
        ///
        /// - Parameters:
        ///   - name: The tool's name.
        ///   - input: A piece of the input.
        public init(name: String? = nil, input: String? = nil) {
            self.name = name
            self.input = input
        }

        /// Decodes the fragment.
        ///
        /// - Throws: `DecodingError` when the value is not an object, or in
        ///   ``DecodingMode/strict`` when a member is of another type.
        public init(from decoder: any Decoder) throws {
            var reader = try ObjectReader(decoder)
            name = try reader.optional(String.self, "name")
            input = try reader.optional(String.self, "input")
            undeclaredMembers = reader.undeclaredMembers()
            specDeviations = reader.finish()
        }

        /// Encodes the fragment, then its ``undeclaredMembers``.
        ///
        /// - Throws: `EncodingError` when a member cannot be encoded.
        public func encode(to encoder: any Encoder) throws {
            var writer = ObjectWriter(encoder, specDeviations)
            try writer.encodeIfPresent(name, "name")
            try writer.encodeIfPresent(input, "input")
            try writer.encode(undeclared: undeclaredMembers)
        }
    }

    /// Decodes the fragment by its `type`: `custom` is a custom tool call, `function` a function
    /// call. Without `type` (later fragments of a call), or with a `type` this SDK does not know,
    /// the member the fragment has decides (`custom`, or `function` and fragments with neither,
    /// which carry only the `index`); the other `type` value is kept in ``Function/specDeviations``
    /// or ``Custom/specDeviations``. A fragment with an unknown `type` and neither member decodes
    /// as ``unknown(_:)``.
    ///
    /// - Throws: `DecodingError` only when the input is not JSON.
    public init(from decoder: any Decoder) throws {
        guard let members = try? decoder.container(keyedBy: AnyCodingKey.self) else {
            self = .unknown(try JSONValue(from: decoder))
            return
        }
        let hasCustom = members.contains(AnyCodingKey("custom"))
        let hasFunction = members.contains(AnyCodingKey("function"))
        switch try? members.decodeIfPresent(String.self, forKey: AnyCodingKey("type")) {
        case "custom"?:
            self = .custom(try Custom(from: decoder))
        case "function"?, nil:
            self =
                hasCustom && !hasFunction ? .custom(try Custom(from: decoder)) : .function(try Function(from: decoder))
        default:
            if hasCustom {
                self = .custom(try Custom(from: decoder))
            } else if hasFunction {
                self = .function(try Function(from: decoder))
            } else {
                self = .unknown(try JSONValue(from: decoder))
            }
        }
    }

    /// Encodes the fragment as it is (an unknown one as its original JSON).
    ///
    /// - Throws: `EncodingError` when the value cannot be encoded.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .function(let value): try value.encode(to: encoder)
        case .custom(let value): try value.encode(to: encoder)
        case .unknown(let value): try value.encode(to: encoder)
        }
    }

    /// The call's position among the message's tool calls; `nil` for an unknown kind without an
    /// integer `index`.
    public var index: Int? {
        switch self {
        case .function(let value): value.index
        case .custom(let value): value.index
        case .unknown(let value):
            if case .int(let index)? = value["index"] { index } else { nil }
        }
    }

    /// The call's ID, on the first fragment of a call.
    public var id: String? {
        switch self {
        case .function(let value): value.id
        case .custom(let value): value.id
        case .unknown(let value): value["id"]?.stringValue
        }
    }

    /// The function fragment, when this is a function call.
    public var function: FunctionFragment? {
        if case .function(let value) = self { return value.function }
        return nil
    }

    /// The custom-tool fragment, when this is a custom tool call.
    public var custom: CustomFragment? {
        if case .custom(let value) = self { return value.custom }
        return nil
    }
}

extension ChatCompletionToolCallChunk: UnknownCaseRepresentable {}
