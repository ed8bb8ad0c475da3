/// The Swift-shaped model the renderer prints. Every shape decision is made before this point
/// (in Translation); the renderer only prints.

/// A reference to a Swift type.
public indirect enum TypeRef: Hashable, Sendable {
    /// A generated or hand-written type by its full Swift path, e.g. `Response.Output`.
    case named(String)
    case string
    case int
    case double
    case bool
    /// `Foundation.Data`: binary bodies.
    case data
    /// A file to upload in a multipart form.
    case file
    /// Free-form JSON.
    case json
    case array(TypeRef)
    case dictionary(TypeRef)

    /// The Swift spelling.
    public var swift: String {
        switch self {
        case .named(let name): return name
        case .string: return "Swift.String"
        case .int: return "Swift.Int"
        case .double: return "Swift.Double"
        case .bool: return "Swift.Bool"
        case .data: return "Foundation.Data"
        case .file: return "FileUpload"
        case .json: return "JSONValue"
        case .array(let element): return "[\(element.swift)]"
        case .dictionary(let value): return "[Swift.String: \(value.swift)]"
        }
    }
}

/// Documentation carried to a declaration.
public struct Documentation: Hashable, Sendable {
    public var summary: String?
    /// Where it came from: a JSON pointer or an HTTP route.
    public var remark: String
    public var deprecated: Bool
    /// What the schema states about a member's values, one sentence each (`Default: `1`.`, `At least 0, at most
    /// 2.`): a paragraph of its own after the summary, and after the first sentence in a `- Parameters:` line.
    public var facts: [String]

    public init(summary: String?, remark: String, deprecated: Bool = false, facts: [String] = []) {
        self.summary = summary
        self.remark = remark
        self.deprecated = deprecated
        self.facts = facts
    }
}

extension Documentation {
    /// `@available(*, deprecated, message: "…")` for a deprecated declaration (the message from
    /// ``DocText/deprecationMessage(_:)``, as a Swift string literal); nil otherwise.
    public var availabilityAttribute: String? {
        deprecated ? DocText.deprecatedAttribute(summary) : nil
    }
}

public struct Property: Hashable, Sendable {
    /// Swift name, back-quoted if needed.
    public var name: String
    /// JSON member name.
    public var wireName: String
    public var type: TypeRef
    public var required: Bool
    /// `null` is a valid value: required-and-nullable properties encode `nil` as `null`.
    public var nullable: Bool
    /// A constant written by the encoder and checked by the decoder; not stored.
    public var constant: String?
    /// Stored in a heap box to break a recursive value type.
    public var boxed: Bool
    /// A credential (`Spec/overrides.json` `secret-members`): descriptions and mirrors of the
    /// struct show `<redacted>` instead of its value.
    public var isSecret: Bool = false
    public var documentation: Documentation

    /// Whether the Swift type is optional.
    public var isOptional: Bool { !required || nullable }

    /// Whether the value lives in private storage behind a computed property of the public name:
    /// a boxed value (unboxed by the accessor) or a deprecated member (whose accessor carries the
    /// deprecation, which the generated code itself must not trigger).
    public var hasPrivateStorage: Bool { boxed || documentation.deprecated }

    /// The identifier the value is stored under (``Naming/storageName(_:)`` when private).
    public var storageName: String { hasPrivateStorage ? Naming.storageName(name) : name }

    /// The memberwise initializer's local name for this property (``Naming/parameterLocalName(_:)``).
    public var parameterLocalName: String { Naming.parameterLocalName(name) }
}

public struct StructDecl: Hashable, Sendable {
    public var name: String
    public var documentation: Documentation
    public var properties: [Property]
    /// `additionalProperties` alongside named properties: stored as a dictionary.
    public var additionalProperties: TypeRef?
    /// Also encodable as `multipart/form-data`.
    public var multipart: Bool
    public var nested: [Declaration]
    /// A cursor page (`data` + `has_more`): conforms to `CursorPage`.
    public var page: PageInfo? = nil
    /// JSON names of optional members the memberwise initialiser takes right after the required
    /// ones, in this order (`Spec/overrides.json` `leading-members`); the others follow in schema
    /// order.
    public var leadingMembers: [String] = []

    /// The stored members in the memberwise initialiser's order: required ones in schema order
    /// (API Design Guidelines: parameters without a default first), then ``leadingMembers``, then
    /// the other optional ones in schema order.
    public func initializerOrder(_ stored: [Property]) -> [Property] {
        let optional = stored.filter(\.isOptional)
        let leading = leadingMembers.compactMap { name in optional.first { $0.wireName == name } }
        let leadingNames = Set(leading.map(\.wireName))
        return stored.filter { !$0.isOptional } + leading + optional.filter { !leadingNames.contains($0.wireName) }
    }

    /// The runtime protocols the struct adopts beyond the value conformances every type has.
    public var conformances: [Conformance] {
        var result: [Conformance] = [.specDeviationReporting]
        if multipart { result.append(.multipartFormEncodable) }
        if page != nil { result.append(.cursorPage) }
        if properties.contains(where: { $0.isSecret && $0.constant == nil }) { result.append(.customReflectable) }
        return result
    }
}

/// A protocol a generated type adopts because of what its schema is.
public enum Conformance: String, Hashable, Sendable {
    /// Every struct: members missing or unexpected in a reply stay observable.
    case specDeviationReporting = "SpecDeviationReporting"
    /// A `multipart/form-data` body.
    case multipartFormEncodable = "MultipartFormEncodable"
    /// A cursor page (``PageInfo``).
    case cursorPage = "CursorPage"
    /// A struct with credential members, whose mirror redacts them.
    case customReflectable = "CustomReflectable"
    /// A union with a plain string case, writable as a string literal (`content: "Hi"`).
    case expressibleByStringLiteral = "ExpressibleByStringLiteral"
}

/// How a list reply exposes its items and the next cursor.
public struct PageInfo: Hashable, Sendable {
    /// Where the next page's `after` cursor comes from.
    public enum CursorSource: Hashable, Sendable {
        /// A string member of the reply (`last_id`, `next`), by Swift name.
        case member(String)
        /// The `id` of the last item of the `data` member (its Swift name).
        case lastItemID(data: String)
    }

    public var itemType: TypeRef
    /// The Swift name of the `data` member, which holds the items.
    public var items: String
    /// The Swift name of the `has_more` member.
    public var hasMore: String
    /// Whether `has_more` may be absent, which reads as "maybe more": the next page tells.
    public var hasMoreIsOptional: Bool
    /// The cursor's sources, the first present one wins; empty when the reply has none.
    public var nextCursor: [CursorSource]
    /// The query parameter a request takes the cursor in: `page` when it comes from the reply's
    /// `next_page` (the usage endpoints), else `after`.
    public var cursorParameter: String = "after"
}

public struct EnumValue: Hashable, Sendable {
    public var name: String
    public var rawValue: String
    /// What the spec says of this value (``DocText/valueDescriptions(_:values:)``), if anything.
    public var documentation: String? = nil
}

public struct OpenEnumDecl: Hashable, Sendable {
    public var name: String
    public var documentation: Documentation
    public var values: [EnumValue]
}

public struct UnionCase: Hashable, Sendable {
    public var name: String
    public var type: TypeRef
    /// Discriminator values that select this case; empty when chosen by trying to decode.
    public var discriminatorValues: [String]
    public var documentation: String?
    /// The payload is itself a union, whose `unknown` case must not count as a match when
    /// variants are tried in order.
    public var payloadIsUnion: Bool = false
}

public struct UnionDecl: Hashable, Sendable {
    public var name: String
    public var documentation: Documentation
    /// The JSON member that names the variant, when there is one.
    public var discriminator: String?
    public var cases: [UnionCase]
    /// Cases hold the union itself through a cycle: `indirect enum`.
    public var isIndirect: Bool
    public var nested: [Declaration]

    /// The runtime protocols the union adopts beyond the value conformances and
    /// `UnknownCaseRepresentable`.
    public var conformances: [Conformance] {
        cases.contains { $0.type == .string } ? [.expressibleByStringLiteral] : []
    }
}

public struct AliasDecl: Hashable, Sendable {
    public var name: String
    public var documentation: Documentation
    public var target: TypeRef
}

public indirect enum Declaration: Hashable, Sendable {
    case structure(StructDecl)
    case openEnum(OpenEnumDecl)
    case union(UnionDecl)
    case alias(AliasDecl)

    public var name: String {
        switch self {
        case .structure(let decl): decl.name
        case .openEnum(let decl): decl.name
        case .union(let decl): decl.name
        case .alias(let decl): decl.name
        }
    }
}

/// The Swift module a generated declaration or operation is compiled in.
public enum SDKModule: String, Hashable, Sendable, CaseIterable {
    /// `OpenAI`: everything called with a project API key, and every type those operations reach.
    case openAI = "OpenAI"
    /// `OpenAIAdmin`: the root resources whose every operation needs an admin API key
    /// (`organization`, `projects`) and the types only those operations reach. Its files are in
    /// the generated folder's `Admin/`.
    case admin = "OpenAIAdmin"

    /// The folder of its files inside the generated folder, with a trailing slash (empty for `OpenAI`).
    public var folder: String { self == .admin ? "Admin/" : "" }
}

/// Where a top-level declaration is declared.
public enum Placement: Hashable, Sendable {
    /// At the top level, in the types files of an API area (the tag of the operations that reach
    /// it, or `Shared`).
    case area(String)
    /// Nested in a resource type (an operation's inline schema), e.g. `ChatCompletionsAPI`.
    case resource(String)
}

/// A top-level declaration and where it goes.
public struct TopLevelDeclaration: Hashable, Sendable {
    public var declaration: Declaration
    public var placement: Placement
    /// The component schema it came from, or nil for synthesized ones.
    public var schemaName: String?
    /// The module it is compiled in.
    public var module: SDKModule
    /// What a reader uses it for: the types operations take and return and the event types each
    /// get a file of their own and their own group in the documentation.
    public var role: Role = .supporting

    /// What a top-level type is to a reader.
    public enum Role: Hashable, Sendable {
        /// A component an operation's body or reply names directly (`CreateResponse`, `Response`).
        case operationType
        /// A stream's event type (the schema `Spec/overrides.json` names for a stream) or a union
        /// of events (`ResponseStreamEvent`, `WebhookEvent`).
        case event
        /// Any other type: a member's type, a variant of a union.
        case supporting
    }

    /// Whether it is a type a reader names (``Role/operationType`` or ``Role/event``): in a file
    /// of its own, named after it (`Types/Responses/Response.swift`), when it is long enough; the
    /// others share their area's files.
    public var hasOwnFile: Bool { role != .supporting }

    /// The types files' area, or `nil` for a type nested in a resource type.
    public var area: String? {
        if case .area(let area) = placement { return area }
        return nil
    }

    /// The resource type it is nested in (an operation's inline schema), or `nil` at the top level.
    public var resourceType: String? {
        if case .resource(let type) = placement { return type }
        return nil
    }

    /// A declaration nested in the resource type `resourceType`.
    static func inResource(_ declaration: Declaration, _ resourceType: String, module: SDKModule)
        -> TopLevelDeclaration
    {
        TopLevelDeclaration(
            declaration: declaration, placement: .resource(resourceType), schemaName: nil, module: module)
    }

    /// Every declaration, nested ones included, by its full Swift path (`Response.Output`).
    static func indexByPath(_ declarations: [TopLevelDeclaration]) -> [String: Declaration] {
        var result: [String: Declaration] = [:]
        func index(_ declaration: Declaration, prefix: String?) {
            let path = prefix.map { "\($0).\(declaration.name)" } ?? declaration.name
            result[path] = declaration
            switch declaration {
            case .structure(let decl): for nested in decl.nested { index(nested, prefix: path) }
            case .union(let decl): for nested in decl.nested { index(nested, prefix: path) }
            default: break
            }
        }
        for top in declarations { index(top.declaration, prefix: top.resourceType) }
        return result
    }

    /// Every struct, nested ones included, by its full Swift path.
    static func structsByPath(_ declarations: [TopLevelDeclaration]) -> [String: StructDecl] {
        indexByPath(declarations).compactMapValues { declaration in
            if case .structure(let decl) = declaration { return decl }
            return nil
        }
    }
}

public struct OperationParameter: Hashable, Sendable {
    public enum Location: String, Hashable, Sendable { case path, query, header }
    public var name: String
    public var wireName: String
    public var location: Location
    public var type: TypeRef
    public var required: Bool
    public var documentation: String?
    /// What the schema states about its values (``Documentation/facts``).
    public var facts: [String] = []
}

public enum RequestBodyKind: Hashable, Sendable {
    case json(TypeRef)
    case multipart(TypeRef)
    /// A text body with this content type (e.g. `application/sdp`).
    case text(contentType: String)
}

public enum ResponseKind: Hashable, Sendable {
    case json(TypeRef)
    case binary
    case text
    case none
}

public struct OperationDecl: Hashable, Sendable {
    public var operationID: String
    /// Resource chain from the client, e.g. `["chat", "completions"]`.
    public var resourcePath: [String]
    public var methodName: String
    public var httpMethod: String
    /// Path without the query part.
    public var path: String
    /// Fixed query items carried in the spec's path (`/responses?beta=true`).
    public var fixedQuery: [(String, String)]
    public var parameters: [OperationParameter]
    public var bodies: [RequestBodyKind]
    public var bodyRequired: Bool
    public var response: ResponseKind
    /// The success reply's media types except `text/event-stream`, for `Accept`.
    public var acceptTypes: [String]
    public var streams: Bool
    /// The streaming variant (`createStream`), when the operation streams.
    public var streaming: StreamingInfo? = nil
    public var adminAuthentication: Bool
    public var documentation: Documentation
    public var area: String
    /// The module its method is compiled in (that of its root resource).
    public var module: SDKModule
    /// JSON body members the SDK sets when the caller left them `nil` (`Spec/overrides.json`
    /// `body-defaults`), e.g. `encoding_format: base64` for embeddings.
    public var bodyDefaults: [BodyDefault] = []
    /// The reply is a cursor page and the operation takes its cursor in this string query
    /// parameter (`after`; `page` for the usage endpoints, whose replies say `next_page`): it also
    /// gets an auto-paging method (`listPages`) returning `CursorPages`.
    public var pageCursor: OperationParameter? = nil

    public static func == (lhs: OperationDecl, rhs: OperationDecl) -> Bool {
        lhs.operationID == rhs.operationID
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(operationID) }
}

/// A JSON body member the SDK sets when the caller left it `nil`; the reply's decoder is told, so
/// types can answer in the form the caller expects (base64 embeddings decode to floats).
public struct BodyDefault: Hashable, Sendable {
    /// The property's Swift name.
    public var property: String
    /// The member's JSON name.
    public var wireName: String
    /// The string value sent.
    public var value: String
}

/// The streaming variant of an operation: its event type and how to ask for a stream.
public struct StreamingInfo: Hashable, Sendable {
    public enum Framing: String, Hashable, Sendable {
        /// `data:` holds the event's JSON.
        case data
        /// `event:` names the event, `data:` holds its payload.
        case eventNameAndData
    }

    /// A body member the streaming method sets to ask for a stream, e.g. `stream` to `true`.
    public struct BodySetting: Hashable, Sendable {
        public enum Value: Hashable, Sendable {
            case bool(Bool)
            case string(String)
        }

        /// The property's Swift name.
        public var property: String
        public var value: Value
    }

    public var eventType: TypeRef
    public var framing: Framing
    /// The body members that turn the caller's body into a streaming request.
    public var bodySettings: [BodySetting]
    /// The same for the `multipart/form-data` body, when the operation offers one beside JSON.
    public var multipartBodySettings: [BodySetting] = []
    /// A boolean query parameter that asks for the stream (`stream=true` on retrieve), which the
    /// streaming method sets and does not take.
    public var queryFlag: String?
    /// What completes the stream, so that one cut off early is reported as such.
    public var ending: StreamEndingRule = .unspecified
}

/// What completes an event stream besides `data: [DONE]` (from `Spec/overrides.json`).
public enum StreamEndingRule: Hashable, Sendable {
    /// Nothing more: the stream is complete whenever it ends between events.
    case unspecified
    /// One of these event types (discriminator values or `event:` names).
    case terminalEvents([String])
    /// Every choice has a `finish_reason`: the Swift names of the event's choices array, and of
    /// each choice's index and finish reason.
    case finishedChoices(choices: String, index: String, finishReason: String)
}

/// The whole translated API.
public struct APIModel: Sendable {
    public var declarations: [TopLevelDeclaration]
    public var operations: [OperationDecl]
    /// The client's resource tree, every resource once, parents before their children, in path
    /// order (``ResourceDecl/tree(of:)``).
    public var resources: [ResourceDecl] = []
    /// Webhook payload union members: (event name as sent, payload type).
    public var webhooks: [(name: String, type: TypeRef)]
    /// The inline schemas emitted as the component of the same shape: JSON pointer → the
    /// component's Swift name (what `diff` compares at that pointer).
    public var reusedComponents: [String: String] = [:]
    /// Area name → the spec's tag it comes from (`VectorStores` → `Vector stores`), for titles.
    public var areaTitles: [String: String] = [:]
}

/// A resource of ``OpenAIClient``: `client.chat.completions` is the resource at `["chat",
/// "completions"]`, the Swift struct `ChatCompletionsAPI`; its operations are methods, its
/// sub-resources properties.
public struct ResourceDecl: Hashable, Sendable {
    /// A sub-resource: the property that reaches it and its Swift type.
    public struct Child: Hashable, Sendable {
        public var member: String
        public var typeName: String
    }

    /// Member names from the client down, e.g. `["chat", "completions"]`.
    public var path: [String]
    /// The Swift type (``ResourceNaming/typeName(_:)``).
    public var typeName: String
    /// The module of its root resource (every root, with all below it, is in one module).
    public var module: SDKModule
    /// Its sub-resources, by member name.
    public var children: [Child]
    /// Its methods: indices into ``APIModel/operations``, by method name.
    public var operationIndices: [Int]

    /// The type of the root resource, which names the root's file (and, when that is split at
    /// the line cap, the files of the later pieces: `<Root>API+<FirstResource>`).
    public var rootTypeName: String { ResourceNaming.typeName([path[0]]) }

    /// The resource tree of `operations`: every resource path an operation lies on or under.
    public static func tree(of operations: [OperationDecl]) -> [ResourceDecl] {
        var byPath: [[String]: [Int]] = [:]
        var paths: Set<[String]> = []
        var rootModules: [String: SDKModule] = [:]
        for (index, operation) in operations.enumerated() {
            byPath[operation.resourcePath, default: []].append(index)
            for end in operation.resourcePath.indices { paths.insert(Array(operation.resourcePath[...end])) }
            rootModules[operation.resourcePath[0]] = operation.module
        }
        let sorted = paths.sorted { $0.joined(separator: ".") < $1.joined(separator: ".") }
        return sorted.map { path in
            let children = paths.filter { $0.count == path.count + 1 && Array($0.prefix(path.count)) == path }
                .sorted { $0.last! < $1.last! }
                .map { Child(member: $0.last!, typeName: ResourceNaming.typeName($0)) }
            return ResourceDecl(
                path: path, typeName: ResourceNaming.typeName(path), module: rootModules[path[0]] ?? .openAI,
                children: children,
                operationIndices: (byPath[path] ?? []).sorted { operations[$0].methodName < operations[$1].methodName })
        }
    }
}

// MARK: Documentation facts

// What the doc comments say, composed from the spec's text by ``DocText``, so that the renderer
// only prints.

extension Property {
    /// The memberwise init's line for this property: the first sentence of its description and its
    /// facts, else nothing (see ``undescribedParameterLine``).
    public var parameterSummary: String? {
        let first = DocText.summary(documentation.summary)
        guard !documentation.facts.isEmpty else {
            return first
        }
        return DocText.withFacts(first, documentation.facts)
    }

    /// The memberwise init's line for a property the spec says nothing about, when another
    /// parameter is described (DocC wants the list whole): what the encoder does with it, which
    /// the reader cannot tell from the name, and the JSON name where it differs from the Swift one.
    public var undescribedParameterLine: String {
        let wire = Naming.unescaped(name) == wireName ? "" : " The JSON member `\(wireName)`."
        switch (required, nullable) {
        case (true, false): return "Required." + wire
        case (true, true): return "Required; `nil` is sent as `null`." + wire
        default: return "Optional; left out of the JSON when `nil`." + wire
        }
    }
}

extension OperationParameter {
    /// The `- Parameters:` line: the first sentence of its description, else where it goes; then its facts.
    public var summary: String {
        DocText.withFacts(DocText.summary(documentation) ?? "The `\(wireName)` \(location.rawValue) parameter.", facts)
    }
}

extension UnionCase {
    /// The case's doc comment: the first sentence of its variant's description, then which
    /// discriminator values (of the member `discriminator`) select it.
    public func summary(discriminator: String?) -> String? {
        var sentences = DocText.summary(documentation).map { [DocText.sentence($0)] } ?? []
        if let discriminator, !discriminatorValues.isEmpty {
            let values = discriminatorValues.map { "`\($0)`" }
            let listed =
                values.count == 1 ? values[0] : values.dropLast().joined(separator: ", ") + " or " + values.last!
            sentences.append("Selected when `\(discriminator)` is \(listed).")
        }
        return sentences.isEmpty ? nil : sentences.joined(separator: " ")
    }
}

extension OperationDecl {
    /// The main method's summary: the spec's, else what it calls.
    public var methodSummary: String {
        documentation.summary ?? "Calls `\(httpMethod) \(path)`."
    }

    /// The streaming variant's summary: the operation's first sentence, then what the variant
    /// does, as a sentence of its own.
    public var streamSummary: String {
        DocText.variantSummary(
            documentation.summary, adding: "The reply streams as server-sent events.",
            fallback: "Calls `\(httpMethod) \(path)` and streams the reply as server-sent events.")
    }

    /// The download variant's summary, composed like ``streamSummary``.
    public var downloadSummary: String {
        DocText.variantSummary(
            documentation.summary,
            adding: "Writes the reply's bytes to a file as they arrive, without holding them in memory.",
            fallback: "Calls `\(httpMethod) \(path)` and writes the reply's bytes to a file.")
    }
}
