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
    /// The spec also takes any other string (`anyOf: [string, enum]`, as model names are): the
    /// values are the known ones, not the only ones. A plain `enum` lists them all (the type still
    /// decodes others, to stay lenient, but a client sends only these).
    public var acceptsOtherStrings = false
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

    /// The declaration's own documentation.
    public var documentation: Documentation {
        get {
            switch self {
            case .structure(let decl): decl.documentation
            case .openEnum(let decl): decl.documentation
            case .union(let decl): decl.documentation
            case .alias(let decl): decl.documentation
            }
        }
        set {
            switch self {
            case .structure(var decl):
                decl.documentation = newValue
                self = .structure(decl)
            case .openEnum(var decl):
                decl.documentation = newValue
                self = .openEnum(decl)
            case .union(var decl):
                decl.documentation = newValue
                self = .union(decl)
            case .alias(var decl):
                decl.documentation = newValue
                self = .alias(decl)
            }
        }
    }
}
