import Foundation
import OpenAIGeneratorOpenAPI
import OpenAIYAML

extension Overrides {
    /// A problem in `Spec/overrides.json`.
    public struct LoadingError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Reads the overrides file (`Spec/overrides.json`): `operations` (operationId →
    /// `resource.path.method`), `streaming` (operationId → `{"event": schema, "framing": "event"?}`),
    /// `stream-endings` (operationId → `{"terminal-events": [...], "finished-choices": true}`),
    /// `binary-responses` (operationId → `{"accept": [media types], "reason": ...}`),
    /// `body-defaults` (operationId → `{"members": {JSON name: value}}`), `secret-members`
    /// (`{"members": [JSON pointers]}`), `leading-members` (`{"members": [JSON names]}`) and
    /// `schemas` (JSON pointer → ``SchemaCorrection``). Keys
    /// named `comment` are notes. A missing file gives no overrides.
    ///
    /// - Throws: ``LoadingError`` when the file is not a JSON object, has a section or a key this
    ///   generator does not know, or a value of another type: an overlay is never half applied.
    public static func load(from path: String) throws -> Overrides {
        guard let data = FileManager.default.contents(atPath: path) else { return Overrides() }
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw LoadingError(description: "\(path): not a JSON object")
        }
        let unknownSections = Set(object.keys).subtracting(sections)
        guard unknownSections.isEmpty else {
            throw LoadingError(
                description:
                    "\(path): unknown sections \(unknownSections.sorted()); known: \(sections.sorted().joined(separator: ", "))"
            )
        }
        for section in sections.subtracting(["comment"]) where object[section] != nil {
            guard object[section] is [String: Any] else {
                throw LoadingError(description: "\(path): `\(section)` is not an object")
            }
        }
        var overrides = Overrides()
        overrides.source = path
        for (operationID, value) in object["operations"] as? [String: Any] ?? [:] where operationID != "comment" {
            if let name = value as? String {
                overrides.operations[operationID] = name
            } else if let entry = value as? [String: Any], let name = entry["name"] as? String,
                Set(entry.keys).isSubset(of: ["name", "reason", "comment"])
            {
                overrides.operations[operationID] = name
            } else {
                throw LoadingError(
                    description: "\(path): operations.\(operationID) is not `resource.path.method` or {\"name\": ...}")
            }
        }
        for (operationID, value) in object["streaming"] as? [String: Any] ?? [:] where operationID != "comment" {
            guard let entry = value as? [String: Any], let event = entry["event"] as? String else {
                throw LoadingError(description: "\(path): streaming.\(operationID) needs `event`, a component schema")
            }
            let unknown = Set(entry.keys).subtracting(["event", "framing", "comment"])
            let framing = entry["framing"] as? String ?? "data"
            guard unknown.isEmpty, ["data", "event"].contains(framing) else {
                throw LoadingError(
                    description:
                        "\(path): streaming.\(operationID) takes `event` and `framing` (data or event); got \(entry.keys.sorted())"
                )
            }
            overrides.streaming[operationID] = (event, framing)
        }
        for (operationID, value) in object["stream-endings"] as? [String: Any] ?? [:] where operationID != "comment" {
            guard let entry = value as? [String: Any] else {
                throw LoadingError(description: "\(path): stream-endings.\(operationID) is not an object")
            }
            let unknown = Set(entry.keys).subtracting(["terminal-events", "finished-choices", "comment"])
            guard unknown.isEmpty else {
                throw LoadingError(
                    description: "\(path): stream-endings.\(operationID) has unknown keys \(unknown.sorted())")
            }
            guard entry["terminal-events"] == nil || entry["terminal-events"] is [String],
                entry["finished-choices"] == nil || entry["finished-choices"] is Bool
            else {
                throw LoadingError(
                    description:
                        "\(path): stream-endings.\(operationID): `terminal-events` is a list of strings, `finished-choices` a boolean"
                )
            }
            overrides.streamEndings[operationID] = StreamEnding(
                terminalEvents: entry["terminal-events"] as? [String] ?? [],
                finishedChoices: entry["finished-choices"] as? Bool ?? false)
        }
        for (operationID, value) in object["binary-responses"] as? [String: Any] ?? [:] where operationID != "comment" {
            guard let entry = value as? [String: Any], let accept = entry["accept"] as? [String], !accept.isEmpty else {
                throw LoadingError(
                    description: "\(path): binary-responses.\(operationID) needs an `accept` list of media types")
            }
            let unknown = Set(entry.keys).subtracting(["accept", "reason", "remove-when"])
            guard unknown.isEmpty else {
                throw LoadingError(
                    description: "\(path): binary-responses.\(operationID) has unknown keys \(unknown.sorted())")
            }
            overrides.binaryResponses[operationID] = accept
        }
        for (operationID, value) in object["body-defaults"] as? [String: Any] ?? [:] where operationID != "comment" {
            guard let entry = value as? [String: Any], let members = entry["members"] as? [String: String],
                !members.isEmpty, Set(entry.keys).isSubset(of: ["members", "reason", "comment"])
            else {
                throw LoadingError(
                    description:
                        "\(path): body-defaults.\(operationID) needs `members` (JSON name → string value), and takes only `reason` and `comment` beside it"
                )
            }
            overrides.bodyDefaults[operationID] = members
        }
        if let secrets = object["secret-members"] {
            guard let entry = secrets as? [String: Any], let pointers = entry["members"] as? [String],
                Set(entry.keys).isSubset(of: ["members", "reason", "comment"])
            else {
                throw LoadingError(
                    description:
                        "\(path): secret-members needs `members`, a list of JSON pointers, and takes only `reason` and `comment` beside it"
                )
            }
            overrides.secretMembers = Set(pointers)
        }
        if let leading = object["leading-members"] {
            guard let entry = leading as? [String: Any], let names = entry["members"] as? [String],
                Set(names).count == names.count, Set(entry.keys).isSubset(of: ["members", "reason", "comment"])
            else {
                throw LoadingError(
                    description:
                        "\(path): leading-members needs `members`, a list of distinct JSON member names, and takes only `reason` and `comment` beside it"
                )
            }
            overrides.leadingMembers = names
        }
        for (pointer, value) in object["schemas"] as? [String: Any] ?? [:] where pointer != "comment" {
            overrides.schemas[pointer] = try schemaCorrection(value, pointer: pointer, path: path)
        }
        return overrides
    }
}

extension Overrides {
    /// The sections of `Spec/overrides.json`; any other is an error.
    static let sections: Set<String> = [
        "comment", "operations", "streaming", "stream-endings", "binary-responses", "body-defaults",
        "secret-members", "leading-members", "schemas",
    ]

    /// One `schemas` entry: `x-swift-type` (a string), `enum`, `not-required`,
    /// `nullable-properties` (lists of strings), and the notes `reason`, `remove-when`, `comment`.
    ///
    /// - Throws: ``LoadingError`` for another key or a value of another type.
    static func schemaCorrection(_ value: Any, pointer: String, path: String) throws -> SchemaCorrection {
        func fail(_ message: String) -> LoadingError {
            LoadingError(description: "\(path): schemas.\(pointer): \(message)")
        }
        guard let entry = value as? [String: Any] else { throw fail("not an object") }
        let unknown = Set(entry.keys).subtracting([
            "x-swift-type", "enum", "not-required", "nullable-properties", "reason", "remove-when", "comment",
        ])
        guard unknown.isEmpty else { throw fail("unknown keys \(unknown.sorted())") }
        func list(_ key: String) throws -> [String]? {
            guard let value = entry[key] else { return nil }
            guard let strings = value as? [String] else { throw fail("`\(key)` is not a list of strings") }
            return strings
        }
        var correction = SchemaCorrection()
        if let type = entry["x-swift-type"] {
            guard let text = type as? String else { throw fail("`x-swift-type` is not a string") }
            correction.swiftType = text
        }
        correction.enumValues = try list("enum")
        correction.notRequired = Set(try list("not-required") ?? [])
        correction.nullableProperties = Set(try list("nullable-properties") ?? [])
        return correction
    }
}

extension Diagnostic {
    /// A problem with an operation's entry in a section of the overrides file `file`
    /// (``Overrides/source``), located at `#/<section>/<operationId>` of that file.
    static func overlay(_ kind: Kind, file: String, section: String, operationID: String, _ message: String)
        -> Diagnostic
    {
        Diagnostic(
            kind, message: "\(operationID): \(message)",
            location: SourceLocation(
                file: file, mark: Mark(line: 1, column: 1), pointer: "#/\(section)/\(operationID)"))
    }
}
