import Foundation

/// JSON text that cannot continue: where and why.
public struct PartialJSONError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The byte offset of the character that cannot continue the text, from 0.
    public var offset: Int
    /// What is wrong there.
    public var message: String

    public var description: String { "not JSON at byte \(offset): \(message)" }
}
