/// The result of parsing a YAML stream: the first document's root node and any non-fatal findings.
public struct YAMLDocument: Sendable {
    /// The root node of the first document; a null scalar at 1:1 when the stream has no document.
    public var root: YAMLNode
    /// Non-fatal findings in document order, such as duplicate mapping keys (the last value wins) or a stream with
    /// more than one document (only the first is used).
    public var warnings: [YAMLError]

    /// Creates a document.
    /// - Parameters:
    ///   - root: The root node.
    ///   - warnings: Non-fatal findings.
    public init(root: YAMLNode, warnings: [YAMLError] = []) {
        self.root = root
        self.warnings = warnings
    }
}
