import Foundation
import OpenAIYAML

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

/// A problem in the spec or the overlay that the generator reports and works around. A warning
/// stops generation only under `generate --strict`; a note never does.
public struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
    /// How much a diagnostic matters.
    public enum Severity: String, Hashable, Sendable {
        /// The generated code differs from what the spec says, or the spec contradicts itself.
        case warning
        /// The generated code does what the spec says; worth knowing all the same (a redundant
        /// entry, a discriminator without `mapping`, a name that needed a suffix).
        case note
    }

    /// What kind of problem, each with its severity; summaries count warnings by kind. The raw
    /// value is the name printed in brackets after the message.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// A YAML mapping has the same key twice; the last one is used.
        case duplicateKey = "duplicate-key"
        /// `required` names a member more than once.
        case duplicateRequired = "duplicate-required"
        /// `required` names a member the schema does not declare; it is ignored.
        case requiredUndeclared = "required-undeclared"
        /// An `allOf` of a union and members: generated as the union.
        case allOfUnion = "allof-union"
        /// A discriminator without `mapping`: decoding dispatches on each variant's constant
        /// value, which is what the API sends.
        case discriminatorWithoutMapping = "discriminator-without-mapping"
        /// `oneOf` variants that can match the same JSON object; decoding tries them in spec order.
        case overlappingOneOf = "overlapping-oneOf"
        /// A schema that holds itself through arrays or dictionaries only; decoded as `JSONValue`.
        case recursiveAlias = "recursive-alias"
        /// An operation named after its operationId because the route rules gave a taken name.
        case routeFallback = "route-fallback"
        /// An entry of the overlay that matches nothing in the spec: a schema correction or a
        /// secret member whose pointer matches no schema, an operation's entry whose operationId
        /// matches no operation. It is not applied.
        case overlayUnmatched = "overlay-unmatched"
        /// A `stream-endings` entry that is missing or does not fit its event type.
        case streamEnding = "stream-ending"
        /// A `body-defaults` entry that names no optional member of a JSON body.
        case bodyDefault = "body-default"
        /// A Swift type name that is taken and got a suffix: a component's (`Error` →
        /// `ErrorObject`), or a nested type's number (`Item2`).
        case nameTaken = "name-taken"
        /// An entry of the official CLI's command names (`Spec/cli-commands.json`) whose
        /// operationId the spec does not have (a spec older or newer than the table).
        case commandUnmatched = "command-unmatched"
        /// A command name of that table that is already taken: the operation is named from its
        /// SDK method instead.
        case commandTaken = "command-taken"
        /// Two flags of one `openai` command with the same name (a parameter and a body member
        /// whose names kebab-case alike), or one named like a flag every command takes (`--output`,
        /// `--max-items`, `--help`): the first is reachable, the other not.
        case flagTaken = "flag-taken"
        /// Two parameters of one operation whose Swift names are alike (a path, a query and a header
        /// parameter sharing a name), or one named `body` or `options` like the method's own
        /// parameters: the later one gets its location as a suffix (`idQuery`, `idHeader`).
        case parameterRenamed = "parameter-renamed"

        /// The severity of every diagnostic of this kind.
        public var severity: Severity {
            switch self {
            case .duplicateRequired, .discriminatorWithoutMapping, .nameTaken, .commandUnmatched: .note
            default: .warning
            }
        }
    }

    public var kind: Kind
    public var message: String
    public var location: SourceLocation
    public var severity: Severity { kind.severity }

    public init(_ kind: Kind, message: String, location: SourceLocation) {
        self.kind = kind
        self.message = message
        self.location = location
    }

    public var description: String {
        "\(location.file):\(location.mark.line):\(location.mark.column): \(severity.rawValue): \(message) [\(kind.rawValue)] at \(location.pointer)"
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
