import Foundation

enum MissingValue {
    /// The placeholder of `type`: its ``MissingValueRepresentable/missingValue``, an open enum
    /// with the raw value `""`, a union's `unknown(.null)`, or a generated struct decoded from an
    /// empty object.
    ///
    /// - Parameter depth: How many placeholder structs enclose this one; a schema that requires
    ///   itself would otherwise recurse without end.
    /// - Throws: `DecodingError.valueNotFound` when `type` has no placeholder.
    static func of<T: Decodable>(_ type: T.Type, depth: Int, codingPath: [any CodingKey]) throws -> T {
        if let known = T.self as? any MissingValueRepresentable.Type, let value = known.missingValue as? T {
            return value
        }
        if let openEnum = T.self as? any OpenEnum.Type, let value = openEnum.init(rawValue: "") as? T {
            return value
        }
        if let union = T.self as? any UnknownCaseRepresentable.Type, let value = union.unknown(.null) as? T {
            return value
        }
        guard depth < AbsentValueDecoder.maximumDepth else {
            throw DecodingError.valueNotFound(
                T.self,
                DecodingError.Context(
                    codingPath: codingPath, debugDescription: "No placeholder for \(T.self) this deep."))
        }
        return try T(from: AbsentValueDecoder(depth: depth + 1, codingPath: codingPath))
    }

    /// Whether an absent member of `type` is tolerated also in ``DecodingMode/strict``.
    static func isCollection<T>(_ type: T.Type) -> Bool {
        (T.self as? any MissingValueRepresentable.Type)?.isCollection ?? false
    }
}
