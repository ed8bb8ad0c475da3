/// A node of a parsed YAML document: a scalar, a sequence or a mapping, with the position where it starts.
///
/// Aliases are already resolved: an alias yields a copy of the anchored node (sharing its storage) whose ``mark``
/// is the alias's position.
public struct YAMLNode: Sendable {
    /// What a node holds.
    public indirect enum Kind: Sendable {
        /// A scalar.
        case scalar(YAMLScalar)
        /// A sequence, in document order.
        case sequence([YAMLNode])
        /// A mapping with scalar keys, in document order, each key at most once.
        case mapping([YAMLPair])
    }

    /// What the node holds. Setting it drops the key index used by ``subscript(key:)``.
    public var kind: Kind {
        didSet { keyIndex = nil }
    }
    /// The 1-based position where the node starts: its anchor or tag when it has one, else its first character
    /// (for a block mapping, its first key); for an alias, the position of the alias.
    public var mark: Mark
    /// For large mappings, the position of each key in the pairs, so that lookups are O(1).
    var keyIndex: [String: Int]?

    /// Creates a node.
    /// - Parameters:
    ///   - kind: What the node holds.
    ///   - mark: The 1-based position where it starts.
    public init(kind: Kind, mark: Mark) {
        self.kind = kind
        self.mark = mark
        self.keyIndex = nil
    }

    /// Creates a node with a key index built by the parser.
    init(kind: Kind, mark: Mark, keyIndex: [String: Int]?) {
        self.kind = kind
        self.mark = mark
        self.keyIndex = keyIndex
    }

    /// Mappings with more pairs than this get a key index.
    static let keyIndexThreshold = 12

    /// Looks up a mapping value by its key's text.
    ///
    /// O(1) for mappings the parser built with more than 12 pairs (they carry an index), otherwise a linear scan.
    /// - Parameter key: The key's scalar text, for example `"paths"` or `"200"`.
    /// - Returns: The value, or `nil` when the node is not a mapping or has no such key.
    public subscript(key: String) -> YAMLNode? {
        guard case .mapping(let pairs) = kind else { return nil }
        if let keyIndex {
            guard let position = keyIndex[key] else { return nil }
            return pairs[position].value
        }
        for pair in pairs where pair.key == key {
            return pair.value
        }
        return nil
    }

    /// The scalar, or `nil` for a sequence or mapping.
    public var scalar: YAMLScalar? {
        if case .scalar(let scalar) = kind { return scalar }
        return nil
    }

    /// The text of a scalar that resolves to a string, or `nil` (also for `null`, booleans and numbers).
    public var string: String? {
        if case .scalar(let scalar) = kind, case .string(let value) = scalar.resolved { return value }
        return nil
    }

    /// The text of any scalar whatever it resolves to (for example `"200"` or `"true"`), or `nil` for a sequence
    /// or mapping.
    public var scalarText: String? {
        if case .scalar(let scalar) = kind { return scalar.text }
        return nil
    }

    /// The value of a scalar that resolves to a boolean, or `nil`.
    public var bool: Bool? {
        if case .scalar(let scalar) = kind, case .bool(let value) = scalar.resolved { return value }
        return nil
    }

    /// The value of a scalar that resolves to an integer, or `nil`.
    public var int: Int? {
        if case .scalar(let scalar) = kind, case .int(let value) = scalar.resolved { return value }
        return nil
    }

    /// The value of a scalar that resolves to an integer or a float, or `nil`.
    public var double: Double? {
        guard case .scalar(let scalar) = kind else { return nil }
        switch scalar.resolved {
        case .int(let value): return Double(value)
        case .float(let value): return value
        default: return nil
        }
    }

    /// Whether the node is a scalar that resolves to null (`null`, `~`, empty, or tagged `!!null`).
    public var isNull: Bool {
        if case .scalar(let scalar) = kind, case .null = scalar.resolved { return true }
        return false
    }

    /// The items of a sequence, or `nil`.
    public var sequence: [YAMLNode]? {
        if case .sequence(let items) = kind { return items }
        return nil
    }

    /// The pairs of a mapping in document order, or `nil`.
    public var mapping: [YAMLPair]? {
        if case .mapping(let pairs) = kind { return pairs }
        return nil
    }
}
