/// A 1-based position in YAML source text.
///
/// Lines count from 1 at the start of the input; columns count Unicode scalars (not bytes) from 1 at the start of
/// the line. libyaml reports 0-based marks; the parser converts them.
public struct Mark: Hashable, Sendable, CustomStringConvertible {
    /// The 1-based line number.
    public var line: Int
    /// The 1-based column number, in Unicode scalars from the start of the line.
    public var column: Int

    /// Creates a position.
    /// - Parameters:
    ///   - line: The 1-based line number.
    ///   - column: The 1-based column number, in Unicode scalars.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// The position as `line:column`, for example `12:7`.
    public var description: String { "\(line):\(column)" }
}
