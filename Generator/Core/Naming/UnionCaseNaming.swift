/// The case names of a union (`oneOf`/`anyOf`) enum.
enum UnionCaseNaming {
    /// What a case is named after, the first that applies: the variant's one discriminator value
    /// (`output_text` → `outputText`); its component's name without the words every variant's
    /// component shares (`ChatCompletionRequestUserMessage` → `userMessage`), or the whole name when
    /// nothing or a digit is left; its `title` unless the variant is a scalar or the title is a
    /// JSON type name; else `anonymous()`, a name from the variant's JSON kind.
    static func base(
        discriminatorValues: [String], componentName: String?, commonPrefix: String, title: String?,
        isScalar: Bool, anonymous: () -> String
    ) -> String {
        if discriminatorValues.count == 1 { return discriminatorValues[0] }
        if let componentName {
            let stripped = String(componentName.dropFirst(commonPrefix.count))
            return stripped.isEmpty || stripped.first!.isNumber ? componentName : stripped
        }
        if let title, !isScalar,
            !["string", "array", "integer", "number", "boolean", "object"].contains(title.lowercased())
        {
            return title
        }
        return anonymous()
    }

    /// The member name for `base`, back-quoted when a keyword, numbered (`text2`) when `used`
    /// already has it; added to `used` (which holds unescaped names and starts with `unknown`).
    static func unique(_ base: String, used: inout Set<String>) -> String {
        let caseName = Naming.memberName(base)
        let stem = Naming.unescaped(caseName)
        let unique = TypeNames.numbered(stem) { used.contains($0) }
        used.insert(unique)
        return unique == stem ? caseName : Naming.escaped(unique)
    }

    /// The plural of a case name's element: `Image` → `Images`, `Entry` → `Entries`, and
    /// `…List` for a name that already ends in `s`.
    static func plural(_ name: String) -> String {
        if name.hasSuffix("s") { return name + "List" }
        if name.hasSuffix("y"), let last = name.dropLast().last, !"aeiou".contains(last) {
            return String(name.dropLast()) + "ies"
        }
        return name + "s"
    }

    /// The case name of an anonymous array variant from the name its element would have as a case:
    /// the plural of a JSON kind (`string` → `strings`, `json` → `values`), of a named element
    /// (`inputItem` → `InputItems`), and `…Arrays` for an array of arrays (`strings` →
    /// `StringArrays`).
    static func arrayCase(elementCase inner: String) -> String {
        switch inner {
        case "string": return "strings"
        case "file": return "files"
        case "integer": return "integers"
        case "number": return "numbers"
        case "boolean": return "booleans"
        case "object": return "objects"
        case "json": return "values"
        default: return plural(Naming.upperCamel(inner.hasSuffix("s") ? String(inner.dropLast()) + "Array" : inner))
        }
    }

    /// The longest prefix, in whole words, shared by all `names` (only when there are
    /// `minimumCount` of them, at least two).
    static func commonWordPrefix(_ names: [String], minimumCount: Int) -> String {
        guard names.count >= 2, names.count == minimumCount else { return "" }
        let split = names.map { Naming.words($0) }
        var prefix: [String] = []
        for (index, word) in split[0].enumerated() {
            guard split.allSatisfy({ $0.count > index + 1 && $0[index] == word }) else { break }
            prefix.append(word)
        }
        return prefix.joined()
    }
}
