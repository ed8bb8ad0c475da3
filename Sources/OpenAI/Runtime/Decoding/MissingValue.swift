import Foundation

/// A type with a placeholder value that a required member takes when a reply leaves it out, sends
/// `null`, or sends a value of another type (``DecodingMode/lenient``).
///
/// Generated structs need no conformance: their placeholder decodes from an empty object, every
/// member taking its own placeholder (see ``AbsentValueDecoder``).
protocol MissingValueRepresentable {
    /// The placeholder: `""`, `0`, `false`, `[]`, `[:]`, `.null`.
    static var missingValue: Self { get }
    /// Whether an absent or `null` member of this type reads as the placeholder also in
    /// ``DecodingMode/strict`` (collections: replies omit empty arrays).
    static var isCollection: Bool { get }
}

extension MissingValueRepresentable {
    static var isCollection: Bool { false }
}

/// A generated union: its `unknown(_:)` case is the placeholder (`unknown(.null)`).
///
/// The generated `case unknown(JSONValue)` is the witness of the requirement.
package protocol UnknownCaseRepresentable {
    static func unknown(_ value: JSONValue) -> Self
}

extension String: MissingValueRepresentable { static var missingValue: String { "" } }
extension Int: MissingValueRepresentable { static var missingValue: Int { 0 } }
extension Int64: MissingValueRepresentable { static var missingValue: Int64 { 0 } }
extension Double: MissingValueRepresentable { static var missingValue: Double { 0 } }
extension Float: MissingValueRepresentable { static var missingValue: Float { 0 } }
extension Bool: MissingValueRepresentable { static var missingValue: Bool { false } }
extension Data: MissingValueRepresentable { static var missingValue: Data { Data() } }
extension JSONValue: MissingValueRepresentable { static var missingValue: JSONValue { .null } }

extension Array: MissingValueRepresentable {
    static var missingValue: [Element] { [] }
    static var isCollection: Bool { true }
}

extension Dictionary: MissingValueRepresentable {
    static var missingValue: [Key: Value] { [:] }
    static var isCollection: Bool { true }
}

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
