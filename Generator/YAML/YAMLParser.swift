/// Parses YAML text into a ``YAMLNode`` tree with 1-based line:column marks, using libyaml's event API.
///
/// Scalars are resolved by the YAML 1.2 core schema; anchors and aliases are resolved; merge keys (`<<`) are
/// applied (explicit keys win over merged ones, and earlier merge sources over later ones). Only the first
/// document of a stream is used.
public struct YAMLParser: Sendable {
    /// Creates a parser. A parser holds no state between calls and can be shared across threads.
    public init() {}

    /// Parses the first document of a YAML stream.
    ///
    /// The bytes are UTF-8 (libyaml also accepts UTF-16 with a byte-order mark). An empty stream or one without a
    /// document parses as a null scalar at 1:1. A duplicate mapping key keeps its first position, takes the last
    /// value, and is reported in ``YAMLDocument/warnings``; so is a second document.
    /// - Parameters:
    ///   - bytes: The YAML source.
    ///   - file: The file name used in error and warning messages; it is not opened.
    /// - Returns: The first document's root node and the warnings.
    /// - Throws: ``YAMLError`` with the 1-based position for malformed YAML (libyaml's problem and context), an
    ///   undefined or recursive alias, a mapping key that is a sequence or mapping, a merge key whose value is not
    ///   a mapping or a sequence of mappings, and a scalar that does not fit its `!!int`, `!!float`, `!!bool` or
    ///   `!!null` tag.
    public func parse(_ bytes: [UInt8], file: String) throws(YAMLError) -> YAMLDocument {
        if bytes.isEmpty {
            let null = YAMLScalar(text: "", style: .plain, tag: nil, resolved: .null)
            return YAMLDocument(root: YAMLNode(kind: .scalar(null), mark: Mark(line: 1, column: 1)))
        }
        let result = bytes.withUnsafeBufferPointer { input in
            var builder = YAMLTreeBuilder(file: file, input: input)
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
