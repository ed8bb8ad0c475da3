import Foundation
import OpenAIYAML

/// What the previous generation into the output folder decided that the next one keeps: the area
/// (the folder of `Types/`) of each component schema and the file of each top-level type, read
/// from the folder's `TypeIndex.swift` files. With it a spec update moves no type to another
/// folder only because an operation of another area now reaches it more directly (``Translator``
/// keeps an area while the spec still supports it), and no type to another file of its area
/// (``FileLayout``) unless its file grows over the cap. Empty for a first generation, and where the output is a function of the spec
/// alone (the tests, `diff`).
public struct PreviousLayout: Hashable, Sendable {
    /// Component schema name → area, e.g. `Annotation` → `Conversations`.
    public var areas: [String: String]
    /// Top-level type name → the path of its file in the generated folder, e.g. `Annotation` →
    /// `Types/Conversations/Conversations.swift` (`Admin/Types/…` in `OpenAIAdmin`).
    public var files: [String: String]

    public init(areas: [String: String] = [:], files: [String: String] = [:]) {
        self.areas = areas
        self.files = files
    }

    /// The files and areas the `TypeIndex.swift` texts of a generated folder name, by module
    /// folder (``SDKModule/folder``: `""` or `Admin/`): each line
    /// `// Type → Types/<Area>/<File>.swift (#/components/schemas/<Name>)`. Lines of another shape
    /// and files outside `Types/` are skipped, so a file that is not a type index gives nothing;
    /// types of inline schemas have a file and no area.
    public init(typeIndexes: [(moduleFolder: String, text: String)]) {
        var areas: [String: String] = [:]
        var files: [String: String] = [:]
        let prefix = "#/components/schemas/"
        for (moduleFolder, text) in typeIndexes {
            for line in text.split(separator: "\n") where line.hasPrefix("// ") {
                guard let arrow = line.range(of: " → Types/") else { continue }
                let type = line[line.index(line.startIndex, offsetBy: 3)..<arrow.lowerBound]
                var rest = line[arrow.upperBound...]
                var pointer: Substring = ""
                if rest.hasSuffix(")"), let open = rest.range(of: " (") {
                    pointer = rest[open.upperBound..<rest.index(before: rest.endIndex)]
                    rest = rest[..<open.lowerBound]
                }
                let path = rest.split(separator: "/")
                guard path.count == 2, path[1].hasSuffix(".swift"), !type.isEmpty, !type.contains(" ") else { continue }
                files[String(type)] = moduleFolder + "Types/" + path.joined(separator: "/")
                guard pointer.hasPrefix(prefix) else { continue }
                let token = pointer.dropFirst(prefix.count)
                guard !token.isEmpty, !token.contains("/") else { continue }
                areas[unescapePointerToken(token)] = String(path[0])
            }
        }
        self.areas = areas
        self.files = files
    }
}
