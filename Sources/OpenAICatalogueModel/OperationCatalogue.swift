/// The operation catalogue of the `openai` tool as data: the generator encodes it
/// (`CatalogueRenderer`, into `Sources/OpenAICatalogue/Generated`), the tool and its MCP server decode it.
///
/// Format version 2: a JSON object `{"version": 2, "operations": [...]}`, the operations in command
/// order, each encoded with sorted keys. A member that is `nil` is left out; so are the booleans
/// ``CatalogueOperation/deprecated``, ``CatalogueFlag/nullable`` and ``CatalogueFlag/deprecated``
/// when they are `false`.
package struct OperationCatalogue: Codable, Equatable, Sendable {
    /// The format's version: ``currentVersion``.
    package var version: Int
    package var operations: [CatalogueOperation]

    /// The version this code writes and reads.
    package static let currentVersion = 2

    package init(operations: [CatalogueOperation]) {
        version = Self.currentVersion
        self.operations = operations
    }
}

/// One operation: how the tool names it, sends it and reads its reply.
package struct CatalogueOperation: Codable, Equatable, Sendable {
    /// The spec's operationId.
    package var id: String
    /// The command line (`vector-stores:files list`): the resource chain joined by `:`, a space,
    /// the method.
    package var command: String
    /// Further command lines that run it (official names of the same operation).
    package var aliases: [String]?
    /// Whether ``command`` is the official CLI's name.
    package var official: Bool
    /// The MCP tool's name: the command in snake case, at most 64 characters of `[A-Za-z0-9_]`.
    package var tool: String
    /// Whether it deletes, or ends or takes away something (MCP's `destructiveHint`).
    package var destructive: Bool
    /// Whether it is called with the admin key.
    package var admin: Bool
    package var deprecated: Bool?
    /// `GET`, `POST`, …
    package var method: String
    /// The path template below the base URL, `{name}` for each path parameter.
    package var path: String
    /// Fixed query pairs of the spec's path (`beta=true`).
    package var query: [String: String]?
    /// The first sentence of the description.
    package var summary: String?
    /// The description, asides last, links absolute.
    package var description: String?
    /// The path, query and header parameters.
    package var parameters: [CatalogueFlag]
    package var body: CatalogueBody?
    package var reply: Reply
    /// The `Accept` header's media types.
    package var accept: String?
    package var stream: CatalogueStream?
    package var page: CataloguePage?

    /// What the reply is read as.
    package enum Reply: String, Codable, Sendable { case json, binary, text, none }

    package init(
        id: String, command: String, official: Bool, tool: String, destructive: Bool, admin: Bool, method: String,
        path: String, parameters: [CatalogueFlag], reply: Reply
    ) {
        self.id = id
        self.command = command
        self.official = official
        self.tool = tool
        self.destructive = destructive
        self.admin = admin
        self.method = method
        self.path = path
        self.parameters = parameters
        self.reply = reply
    }
}

/// A parameter (path, query or header) or a top-level member of the body, as a flag.
package struct CatalogueFlag: Codable, Equatable, Sendable {
    /// The wire name (`vector_store_id`, `include[]`).
    package var name: String
    /// The parameter's location: `path`, `query` or `header`; `nil` for a body member.
    package var location: String?
    /// The flag without its dashes (`vector-store-id`).
    package var flag: String
    package var required: Bool
    package var nullable: Bool?
    package var deprecated: Bool?
    package var schema: CatalogueSchema
    /// The first paragraph of its description, links absolute.
    package var description: String?
    /// What the spec states about the values (`Default: `1`.`).
    package var facts: [String]?

    package init(name: String, location: String?, flag: String, required: Bool, schema: CatalogueSchema) {
        self.name = name
        self.location = location
        self.flag = flag
        self.required = required
        self.schema = schema
    }

    private enum CodingKeys: String, CodingKey {
        case name, location = "in", flag, required, nullable, deprecated, schema, description, facts
    }
}

/// The request body.
package struct CatalogueBody: Codable, Equatable, Sendable {
    /// `json`, `multipart` or `text`.
    package var kind: String
    package var contentType: String
    package var required: Bool
    /// The top-level members of a JSON or multipart body.
    package var members: [CatalogueFlag]?
    /// The whole body's shape.
    package var schema: CatalogueSchema?

    package init(kind: String, contentType: String, required: Bool) {
        self.kind = kind
        self.contentType = contentType
        self.required = required
    }
}

/// How the operation streams server-sent events.
package struct CatalogueStream: Codable, Equatable, Sendable {
    /// `event` (the `event:` field names the event) or `data` (the payload's `type` does).
    package var framing: String
    /// Body members whose values ask for the stream (`stream: true`).
    package var set: [String: Setting]?
    /// A boolean query parameter that asks for it.
    package var query: String?
    /// Event types (or names) that complete the stream.
    package var terminal: [String]?
    /// Complete when every choice has a `finish_reason` (Chat Completions).
    package var choices: Bool?

    package init(framing: String) {
        self.framing = framing
    }

    /// A body member's value that asks for the stream.
    package enum Setting: Codable, Equatable, Sendable {
        case bool(Bool)
        case string(String)

        package init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let value = try? container.decode(Bool.self) {
                self = .bool(value)
            } else {
                self = .string(try container.decode(String.self))
            }
        }

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .bool(let value): try container.encode(value)
            case .string(let value): try container.encode(value)
            }
        }
    }
}

/// How a list reply pages: a cursor in the query, `has_more` in the reply.
package struct CataloguePage: Codable, Equatable, Sendable {
    /// The query parameter taking the cursor (`after`, or `page`).
    package var cursor: String
    /// The reply member holding the items (`data`).
    package var items: String
    /// The reply member saying whether more pages follow (`has_more`).
    package var hasMore: String
    /// Reply members holding the next cursor, first present wins; `#last-id`: the last item's `id`.
    package var next: [String]

    package init(cursor: String, items: String, hasMore: String, next: [String]) {
        self.cursor = cursor
        self.items = items
        self.hasMore = hasMore
        self.next = next
    }
}

/// A value's shape: a small JSON Schema (`{}` is any JSON). The catalogue gives one per flag; the tool
/// derives one for a nested flag (`--text.format.type`) from the operation's JSON Schema. Empty
/// arrays are left out of the JSON.
package struct CatalogueSchema: Codable, Hashable, Sendable {
    /// `string`, `integer`, `number`, `boolean`, `array`, `object`, or `file` for a multipart file;
    /// `nil` for any JSON or a union.
    package var type: String?
    /// The only values (the tool validates them before sending).
    package var enumValues: [String]
    /// Known values of a string that takes others too (model names): shown and completed, not
    /// enforced.
    package var examples: [String]
    package var format: String?
    /// The alternatives of a union.
    package var anyOf: [CatalogueSchema]
    /// The element shape of an array, in an array of at most one (a struct cannot hold itself).
    private var itemStorage: [CatalogueSchema]

    /// The element shape of an array.
    package var items: CatalogueSchema? {
        get { itemStorage.first }
        set { itemStorage = newValue.map { [$0] } ?? [] }
    }

    package init(
        type: String? = nil, enumValues: [String] = [], examples: [String] = [], format: String? = nil,
        items: CatalogueSchema? = nil, anyOf: [CatalogueSchema] = []
    ) {
        self.type = type
        self.enumValues = enumValues
        self.examples = examples
        self.format = format
        self.anyOf = anyOf
        itemStorage = items.map { [$0] } ?? []
    }

    /// Any JSON: `{}`.
    package static let any = CatalogueSchema()

    /// Whether it says nothing: any JSON.
    package var isAny: Bool { self == .any }

    private enum CodingKeys: String, CodingKey {
        case type, enumValues = "enum", examples, format, anyOf, items
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        type = try container.decodeIfPresent(String.self, forKey: .type)
        enumValues = try container.decodeIfPresent([String].self, forKey: .enumValues) ?? []
        examples = try container.decodeIfPresent([String].self, forKey: .examples) ?? []
        format = try container.decodeIfPresent(String.self, forKey: .format)
        anyOf = try container.decodeIfPresent([CatalogueSchema].self, forKey: .anyOf) ?? []
        itemStorage = try container.decodeIfPresent(CatalogueSchema.self, forKey: .items).map { [$0] } ?? []
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(type, forKey: .type)
        if !enumValues.isEmpty { try container.encode(enumValues, forKey: .enumValues) }
        if !examples.isEmpty { try container.encode(examples, forKey: .examples) }
        try container.encodeIfPresent(format, forKey: .format)
        if !anyOf.isEmpty { try container.encode(anyOf, forKey: .anyOf) }
        try container.encodeIfPresent(items, forKey: .items)
    }
}
