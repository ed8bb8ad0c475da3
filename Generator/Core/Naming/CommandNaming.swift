/// The names of the `openai` tool's commands, flags and MCP tools, as its catalogue gives them (the
/// official CLI's commands where it has one, ``CommandNameTable``; these otherwise).
public enum CommandNaming {
    /// The MCP tool name of a command: in snake case (`vector-stores:files list` →
    /// `vector_stores_files_list`), at most 64 characters of `[A-Za-z0-9_]` (MCP's limit on tool
    /// names); a longer one is its first 55 characters, `_` and a stable hash (FNV-1a, hex) of the
    /// whole.
    public static func toolName(command: String) -> String {
        let name = String(command.map { $0.isLetter || $0.isNumber ? $0 : "_" }.filter { $0.isASCII })
        guard name.count > 64 else { return name }
        var hash: UInt32 = 2_166_136_261
        for byte in name.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return String(name.prefix(55)) + "_" + String(hash, radix: 16)
    }

    /// The methods that end or take away something (cancel a run, archive a project), beside
    /// deleting: a command whose method is one of them, or starts with one and `-`, is destructive.
    public static let destructiveMethods = ["cancel", "archive", "deactivate", "delete", "remove", "revoke"]

    /// Whether an operation with `command` and `httpMethod` is destructive: a `DELETE`, or a
    /// method of ``destructiveMethods`` (MCP's `destructiveHint`).
    public static func isDestructive(command: String, httpMethod: String) -> Bool {
        let method = command.drop { $0 != " " }.dropFirst()
        return httpMethod == "DELETE"
            || destructiveMethods.contains { method == $0 || method.hasPrefix($0 + "-") }
    }

    /// The command line of an operation the official CLI has no name for: its SDK resource chain
    /// and method in kebab case (`vector-stores:files list`), under `admin:` for an admin-key one.
    public static func derivedCommand(_ operation: OperationDecl) -> String {
        let resources = operation.resourcePath.map(kebab)
        let prefix = operation.adminAuthentication && resources.first != "admin" ? ["admin"] : []
        return (prefix + resources).joined(separator: ":") + " " + kebab(operation.methodName)
    }

    /// `vectorStoreID` → `vector-store-id`, `file_id` → `file-id`, `include[]` → `include`; a name
    /// already split by hyphens (a header's, `OpenAI-Beta`) lowercased.
    public static func kebab(_ name: String) -> String {
        if name.contains("-") { return name.lowercased().replacingOccurrences(of: "_", with: "-") }
        var result = ""
        var previous: Character? = nil
        let characters = Array(name.replacingOccurrences(of: "[]", with: ""))
        for (index, character) in characters.enumerated() {
            if character == "_" || character == " " || character == "." {
                if !result.isEmpty && result.last != "-" { result.append("-") }
            } else if character.isUppercase {
                let next = index + 1 < characters.count ? characters[index + 1] : nil
                let startsWord =
                    previous.map { $0.isLowercase || $0.isNumber || ($0.isUppercase && next?.isLowercase == true) }
                    ?? false
                if startsWord && result.last != "-" { result.append("-") }
                result.append(Character(character.lowercased()))
            } else {
                result.append(character)
            }
            previous = character
        }
        return result
    }
}
