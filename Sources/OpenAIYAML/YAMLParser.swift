/// Parses YAML text into a ``YAMLNode`` tree with 1-based line:column marks, using libyaml's event API.
///
/// Scalars are resolved by the YAML 1.2 core schema; anchors and aliases are resolved; merge keys (`<<`) are
/// applied (explicit keys win over merged ones, and earlier merge sources over later ones). Only the first
/// document of a stream is used.
public struct YAMLParser: Sendable {
    /// Bounds on what a document may make the parser (and everything that walks the tree) do, so
    /// hostile input fails with a located error in bounded time and memory instead of exhausting
    /// the stack or the heap.
    public struct Limits: Sendable, Hashable {
        /// The deepest nesting of sequences and mappings: 128 (the OpenAI spec nests 22).
        public var maxDepth: Int
        /// The most nodes the document may hold, an alias counted as the nodes of what it stands
        /// for: 4,000,000 (the OpenAI spec holds about 110,000), which stops alias bombs.
        public var maxNodes: Int
        /// The largest document read, in bytes: 64 MiB (the OpenAI spec is 2.9 MB).
        public var maxBytes: Int
        /// The most bytes of scalar text the document may hold, an alias counted as the text of
        /// what it stands for: 64 MiB (the OpenAI spec holds about 2 MB), which stops a long string
        /// aliased thousands of times (a few nodes, gigabytes of text).
        public var maxExpandedBytes: Int

        /// Creates limits.
        public init(
            maxDepth: Int = 128, maxNodes: Int = 4_000_000, maxBytes: Int = 64 << 20, maxExpandedBytes: Int = 64 << 20
        ) {
            self.maxDepth = maxDepth
            self.maxNodes = maxNodes
            self.maxBytes = maxBytes
            self.maxExpandedBytes = maxExpandedBytes
        }

        /// The defaults.
        public static let `default` = Limits()
    }

    /// The bounds this parser enforces.
    public var limits: Limits

    /// Creates a parser. A parser holds no state between calls and can be shared across threads.
    ///
    /// - Parameter limits: The bounds on depth, node count and size.
    public init(limits: Limits = .default) {
        self.limits = limits
    }

    /// Parses the first document of a YAML stream.
    ///
    /// The bytes are UTF-8 (libyaml also accepts UTF-16 with a byte-order mark). An empty stream or one without a
    /// document parses as a null scalar at 1:1. A duplicate mapping key keeps its first position, takes the last
    /// value, and is reported in ``YAMLDocument/warnings``; so is a second document.
    /// - Parameters:
    ///   - bytes: The YAML source.
    ///   - file: The file name used in error and warning messages; it is not opened.
    /// - Returns: The first document's root node and the warnings.
    /// - Throws: ``YAMLError`` with the 1-based position for malformed YAML (libyaml's problem and context), a
    ///   document beyond ``limits`` (too deep, too many nodes with aliases expanded, too large), an
    ///   undefined or recursive alias, a mapping key that is a sequence or mapping, a merge key whose value is not
    ///   a mapping or a sequence of mappings, and a scalar that does not fit its `!!int`, `!!float`, `!!bool` or
    ///   `!!null` tag.
    public func parse(_ bytes: [UInt8], file: String) throws(YAMLError) -> YAMLDocument {
        if bytes.isEmpty {
            let null = YAMLScalar(text: "", style: .plain, tag: nil, resolved: .null)
            return YAMLDocument(root: YAMLNode(kind: .scalar(null), mark: Mark(line: 1, column: 1)))
        }
        let result = bytes.withUnsafeBufferPointer { input in
            var builder = YAMLTreeBuilder(file: file, input: input, limits: limits)
            return builder.run()
        }
        return try result.get()
    }

    /// Parses the first document of a YAML stream given as text.
    /// - Parameters:
    ///   - text: The YAML source.
    ///   - file: The file name used in error and warning messages; it is not opened.
    /// - Returns: The first document's root node and the warnings.
    /// - Throws: ``YAMLError`` in the same cases as ``parse(_:file:)``.
    public func parse(_ text: String, file: String) throws(YAMLError) -> YAMLDocument {
        try parse(Array(text.utf8), file: file)
    }
}
