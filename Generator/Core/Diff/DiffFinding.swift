/// A change found by the comparison, before it is judged and named: which rule, where, and for
/// which directions of use.
struct DiffFinding {
    enum Side { case old, new }

    var kind: String
    var pointer: String
    /// Which spec ``pointer`` is in.
    var side: Side
    var message: String
    /// The wire directions it is judged for (empty: Swift only).
    var directions: UsageDirections
    /// Whether the Swift verdict applies (false when the generated Swift is unchanged, e.g. an
    /// optional property becoming nullable is `T?` either way).
    var swift: Bool = true
    /// Overrides the Swift declaration found from the pointer.
    var swiftDeclaration: String? = nil
}
