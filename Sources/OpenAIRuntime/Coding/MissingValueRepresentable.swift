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

extension JSONObject: MissingValueRepresentable {
    static var missingValue: JSONObject { [:] }
    static var isCollection: Bool { true }
}
