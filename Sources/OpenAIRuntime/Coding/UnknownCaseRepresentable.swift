import Foundation

/// A generated union: its `unknown(_:)` case is the placeholder (`unknown(.null)`).
///
/// The generated `case unknown(JSONValue)` is the witness of the requirement.
package protocol UnknownCaseRepresentable {
    static func unknown(_ value: JSONValue) -> Self
}
