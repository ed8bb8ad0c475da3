/// The decoder a generated union hands to a case it tries (a union without a discriminator, or
/// a case the discriminator cannot tell apart): ``ObjectReader`` enforces the case's own
/// constants and required members under it, whatever the ``DecodingMode``, so a value lands in
/// the case it fits or in `unknown(_:)`, never in the first case that happens to decode.
/// Members nested deeper decode under the decoder's own mode.
struct UnionCaseDecoder: Decoder {
    let base: any Decoder

    var codingPath: [any CodingKey] { base.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { base.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        try base.container(keyedBy: type)
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { try base.unkeyedContainer() }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { try base.singleValueContainer() }
}

extension Decoder {
    /// Decodes `type` as a union case being tried: `nil` when the value does not fit the case's
    /// own constants and required members (see ``UnionCaseDecoder``).
    package func attemptCase<T: Decodable>(_ type: T.Type) -> T? {
        let base = (self as? UnionCaseDecoder)?.base ?? self
        return try? T(from: UnionCaseDecoder(base: base))
    }
}
