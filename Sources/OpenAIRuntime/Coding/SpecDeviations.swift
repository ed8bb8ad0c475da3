/// What a decoded object received that its schema does not allow: members that were missing,
/// `null` or of another type, and constants with another value (see ``DecodingMode``).
///
/// Every generated struct has one, as ``SpecDeviationReporting/specDeviations``; it is empty for
/// a value that matches its schema and for every value created in code. Members are named by
/// their JSON name (`usage_bytes`, not `usageBytes`). Only the object's own members are listed:
/// a nested object reports its own.
///
/// ```swift
/// let store = try await client.vectorStores.retrieve(vectorStoreID: id)
/// if store.specDeviations.isMissing("usage_bytes") {
///     // `store.usageBytes` is 0 because the reply left it out, not because it is 0.
/// }
/// ```
public struct SpecDeviations: Hashable, Sendable {
    /// One difference between a decoded object and its schema.
    public struct Deviation: Hashable, Sendable {
        /// What differed.
        public enum Kind: Hashable, Sendable {
            /// A required member was absent; the property holds its placeholder.
            case missing
            /// A required member was `null` although its schema does not allow `null`; the
            /// property holds its placeholder.
            case null
            /// The member's value does not fit its type (the value received is kept); the
            /// property holds its placeholder, or `nil` when it is optional.
            case invalid(received: JSONValue)
            /// A constant member (OpenAPI `const` or single-value `enum`) had another value;
            /// the value received is kept, and encoding writes it back.
            case unexpectedConstant(received: JSONValue)
        }

        /// The member's JSON name.
        public var member: String
        /// What differed.
        public var kind: Kind

        /// Creates a deviation.
        ///
        /// - Parameters:
        ///   - member: The member's JSON name.
        ///   - kind: What differed.
        public init(member: String, kind: Kind) {
            self.member = member
            self.kind = kind
        }
    }

    /// Immutable once built, so sharing it between copies keeps value semantics.
    private final class Storage: Hashable, Sendable {
        let entries: [Deviation]
        let sharesNoMember: Bool

        init(entries: [Deviation], sharesNoMember: Bool) {
            self.entries = entries
            self.sharesNoMember = sharesNoMember
        }

        static func == (lhs: Storage, rhs: Storage) -> Bool {
            lhs.entries == rhs.entries && lhs.sharesNoMember == rhs.sharesNoMember
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(entries)
            hasher.combine(sharesNoMember)
        }
    }

    /// `nil` for the common case, no deviation: the value costs one word and no allocation.
    private let storage: Storage?

    /// No deviations.
    public init() { storage = nil }

    /// Creates a record of `deviations`.
    ///
    /// - Parameters:
    ///   - deviations: The differences, in the order they were found.
    ///   - sharesNoMember: Whether the JSON object had none of the schema's members although
    ///     some are required (it is probably not this kind of object at all).
    public init(_ deviations: [Deviation], sharesNoMember: Bool = false) {
        storage =
            deviations.isEmpty && !sharesNoMember
            ? nil : Storage(entries: deviations, sharesNoMember: sharesNoMember)
    }

    /// Whether the JSON object had none of the schema's members although some are required: a
    /// payload that is probably not this kind of object at all (a keep-alive, a proxy's frame).
    /// Streams skip such events (see ``OpenAIStream``).
    public var sharesNoMember: Bool { storage?.sharesNoMember ?? false }

    /// Whether the required member `member` (a JSON name) was absent or `null`, so its property
    /// holds a placeholder rather than a value the server sent.
    ///
    /// - Parameter member: The member's JSON name, e.g. `"usage_bytes"`.
    /// - Returns: `true` when the reply lacked a value for it.
    public func isMissing(_ member: String) -> Bool {
        guard let kind = self[member] else { return false }
        switch kind {
        case .missing, .null: return true
        case .invalid, .unexpectedConstant: return false
        }
    }

    /// What differed for the member `member` (a JSON name), or `nil` when it matched its schema.
    ///
    /// - Parameter member: The member's JSON name.
    public subscript(member: String) -> Deviation.Kind? {
        storage?.entries.first { $0.member == member }?.kind
    }

    /// The value received for `member` when it did not fit its type or was a constant with
    /// another value; `nil` otherwise.
    ///
    /// - Parameter member: The member's JSON name.
    /// - Returns: The JSON the server sent.
    public func receivedValue(of member: String) -> JSONValue? {
        switch self[member] {
        case .invalid(let value)?, .unexpectedConstant(let value)?: return value
        default: return nil
        }
    }
}

extension SpecDeviations: RandomAccessCollection {
    /// The position of the first deviation.
    public var startIndex: Int { 0 }
    /// The position after the last deviation.
    public var endIndex: Int { storage?.entries.count ?? 0 }
    /// The deviation at `position`.
    public subscript(position: Int) -> Deviation { storage!.entries[position] }
}

extension SpecDeviations: CustomStringConvertible {
    /// The deviations, e.g. `missing usage_bytes; object: unexpected constant "list2"`.
    public var description: String {
        var parts = map { deviation -> String in
            switch deviation.kind {
            case .missing: "missing \(deviation.member)"
            case .null: "null \(deviation.member)"
            case .invalid(let value): "\(deviation.member): invalid value \(value.compactJSON(limit: 80))"
            case .unexpectedConstant(let value):
                "\(deviation.member): unexpected constant \(value.compactJSON(limit: 80))"
            }
        }
        if sharesNoMember { parts.insert("none of the schema's members", at: 0) }
        return parts.isEmpty ? "none" : parts.joined(separator: "; ")
    }
}
