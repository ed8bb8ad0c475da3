/// One entry of a YAML mapping: a scalar key and its value.
public struct YAMLPair: Sendable {
    /// The key's scalar text (after unescaping), for example `"200"` for the plain key `200`.
    public var key: String
    /// The 1-based position where the key starts.
    public var keyMark: Mark
    /// The value node.
    public var value: YAMLNode

    /// Creates a mapping entry.
    /// - Parameters:
    ///   - key: The key's scalar text.
    ///   - keyMark: The 1-based position of the key.
    ///   - value: The value node.
    public init(key: String, keyMark: Mark, value: YAMLNode) {
        self.key = key
        self.keyMark = keyMark
        self.value = value
    }
}
