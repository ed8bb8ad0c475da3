/// A generated struct or union whose `==` compares it member by member, as a derived `Equatable`
/// conformance would.
///
/// Every generated struct and union conforms, and its `==` comes from this protocol (`!=` from
/// `Equatable`, as always): two structs are equal when each stored property is
/// (``SpecDeviationReporting/specDeviations`` and `undeclaredMembers` included), two union values when
/// they are the same case with equal payloads. The runtime's hand-written stand-ins for generated
/// types (``EmbeddingVector``, ``ChatCompletionToolCallChunk``) keep a derived `Hashable` conformance.
///
/// It exists for build time, not behaviour: the compiler type-checks every `==` in a derived
/// conformance's body against every overload of `==` in scope, for each member of each type.
/// ``isMemberwiseEqual(to:)`` compares members through a generic function with one overload
/// instead, and a single `==` here serves every type (CONTRIBUTING § Build cost).
public protocol MemberwiseEquatable: Equatable {
    /// Whether `other` is equal to this value: for a struct, every stored property equal, in
    /// declaration order; for a union, the same case with equal payloads.
    ///
    /// - Parameter other: The value to compare with.
    /// - Returns: What `==` returns for the two values.
    func isMemberwiseEqual(to other: Self) -> Bool
}

extension MemberwiseEquatable {
    /// Whether the two values are equal member by member (``isMemberwiseEqual(to:)``).
    @inlinable
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.isMemberwiseEqual(to: rhs)
    }
}

/// `lhs == rhs`, for generated ``MemberwiseEquatable/isMemberwiseEqual(to:)`` bodies: a call of this
/// one function type-checks without weighing every overload of `==`.
@inlinable
package func equal<Value: Equatable>(_ lhs: Value, _ rhs: Value) -> Bool {
    lhs == rhs
}
