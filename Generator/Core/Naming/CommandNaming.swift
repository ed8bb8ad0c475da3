/// The names of the `openai` tool's commands and flags, as its catalogue gives them (the official
/// CLI's where it has one, ``CommandNameTable``; these otherwise).
public enum CommandNaming {
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
