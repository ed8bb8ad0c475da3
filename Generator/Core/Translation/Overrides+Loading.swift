import Foundation
import OpenAPI
import YAML

extension Overrides {
    /// A problem in `Spec/overrides.json`.
    public struct LoadingError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Reads the overrides file (`Spec/overrides.json`): `operations` (operationId →
    /// `resource.path.method`), `streaming` (operationId → `{"event": schema, "framing": "event"?}`),
    /// `stream-endings` (operationId → `{"terminal-events": [...], "finished-choices": true}`),
    /// `binary-responses` (operationId → `{"accept": [media types], "reason": ...}`)
    /// and `schemas` (JSON pointer → attributes; lists become comma-separated). Keys named
    /// `comment` are notes. A missing file gives no overrides.
    ///
    /// - Throws: ``LoadingError`` when the file is not a JSON object.
    public static func load(from path: String) throws -> Overrides {
        guard let data = FileManager.default.contents(atPath: path) else { return Overrides() }
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw LoadingError(description: "\(path): not a JSON object")
        }
        var overrides = Overrides()
        for (operationID, value) in object["operations"] as? [String: Any] ?? [:] where operationID != "comment" {
            if let name = value as? String { overrides.operations[operationID] = name }
            if let entry = value as? [String: Any], let name = entry["name"] as? String {
                overrides.operations[operationID] = name
            }
        }
        for (operationID, value) in object["streaming"] as? [String: Any] ?? [:] {
            guard let entry = value as? [String: Any], let event = entry["event"] as? String else { continue }
            overrides.streaming[operationID] = (event, entry["framing"] as? String ?? "data")
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
            overrides.streamEndings[operationID] = StreamEndingOverride(
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
                !members.isEmpty
            else {
                throw LoadingError(
                    description: "\(path): body-defaults.\(operationID) needs `members` (JSON name → string value)")
            }
            overrides.bodyDefaults[operationID] = members
        }
        if let secrets = object["secret-members"] {
            guard let entry = secrets as? [String: Any], let pointers = entry["members"] as? [String] else {
                throw LoadingError(description: "\(path): secret-members needs `members`, a list of JSON pointers")
            }
            overrides.secretMembers = Set(pointers)
        }
        for (pointer, value) in object["schemas"] as? [String: Any] ?? [:] {
            guard let entry = value as? [String: Any] else { continue }
            overrides.schemas[pointer] = entry.compactMapValues { value in
                if let text = value as? String { return text }
                if let list = value as? [String] { return list.joined(separator: ",") }
                return nil
            }
        }
        return overrides
    }
}

extension Diagnostic {
    /// A problem with an operation's entry in a section of `Spec/overrides.json`, located at
    /// `#/<section>/<operationId>` of that file.
    static func overlay(_ kind: String, section: String, operationID: String, _ message: String) -> Diagnostic {
        Diagnostic(
            kind: kind, message: "\(operationID): \(message)",
            location: SourceLocation(
                file: "Spec/overrides.json", mark: Mark(line: 1, column: 1), pointer: "#/\(section)/\(operationID)"))
    }
}
