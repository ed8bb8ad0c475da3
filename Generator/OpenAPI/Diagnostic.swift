import Foundation
import YAML

/// Where something is in the spec: the file, the line and column, and the JSON pointer.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    /// The spec file's path as given on the command line.
    public var file: String
    /// 1-based line and column.
    public var mark: Mark
    /// The JSON pointer (RFC 6901), e.g. `#/components/schemas/Error/properties/code`.
    public var pointer: String

    public init(file: String, mark: Mark, pointer: String) {
        self.file = file
        self.mark = mark
        self.pointer = pointer
    }

    public var description: String { "\(file):\(mark.line):\(mark.column) (\(pointer))" }
}

/// A problem in the spec that the generator reports and works around: it stops generation only
/// under `generate --strict`, which fails on any warning.
public struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
    /// How much a diagnostic matters.
    public enum Severity: String, Hashable, Sendable {
        /// The generated code differs from what the spec says, or the spec contradicts itself.
        case warning
        /// Worth knowing, changes nothing a caller sees.
        case note
    }

    /// What kind of problem; summaries count warnings by kind.
    public var kind: String
    public var message: String
    public var location: SourceLocation
    public var severity: Severity

    public init(kind: String, message: String, location: SourceLocation, severity: Severity = .warning) {
        self.kind = kind
        self.message = message
        self.location = location
        self.severity = severity
    }

    public var description: String {
        "\(location.file):\(location.mark.line):\(location.mark.column): \(severity.rawValue): \(message) [\(kind)] at \(location.pointer)"
    }
}

/// A spec that cannot be read: invalid YAML, not OpenAPI 3.x, or a dangling `$ref`.
public struct OpenAPIError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var location: SourceLocation

    public init(message: String, location: SourceLocation) {
        self.message = message
        self.location = location
    }

    public var description: String {
        "\(location.file):\(location.mark.line):\(location.mark.column): error: \(message) (at \(location.pointer))"
    }
}
