/// Swift identifiers from the spec's names: case conversion, initialisms, keywords and reserved
/// names by context. With ``TypeNames`` (unique type names), ``SynthesizedNames`` (the suffixes of
/// types and methods the spec does not name), ``RouteNaming`` (resources and methods),
/// ``UnionCaseNaming`` (union cases), ``CommandNaming`` (the tool's commands, flags and MCP tools)
/// and ``FileLayout`` (files), `Core/Naming` is where every name the generator invents comes from.
public enum Naming {
    /// Words written in upper case everywhere but at the start of a lowerCamelCase name.
    static let initialisms: [String: String] = [
        "id": "ID", "ids": "IDs", "url": "URL", "urls": "URLs", "uri": "URI", "api": "API",
        "json": "JSON", "http": "HTTP", "sdp": "SDP", "sip": "SIP", "mcp": "MCP", "ip": "IP", "ai": "AI",
    ]

    /// Swift keywords that must be back-quoted as identifiers.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init",
        "inout", "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public",
        "rethrows", "static", "struct", "subscript", "typealias", "var", "break", "case", "catch",
        "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat",
        "return", "throw", "switch", "where", "while", "as", "Any", "false", "is", "nil", "self", "Self",
        "super", "throws", "true", "try", "await", "async", "consume", "copy", "discard", "borrowing",
        "consuming", "package", "some", "any", "Type", "Protocol", "_",
    ]

    /// Reserved words by context. Members: ``keywords`` are back-quoted. Every type, nested ones
    /// included: ``reservedTypeNames`` get the suffix `Value` (the module names among them, so that
    /// `OpenAI.Role` always means the module's type). ``runtimeTypeNames`` (which include the
    /// reserved type names) get the suffix `Object` for a component, `Value` for a nested type
    /// (``TypeNames``).
    static let reservedTypeNames: Set<String> = [
        "Type", "Protocol", "Self", "Any", "CodingKeys", "Swift", "Foundation", "OpenAI", "OpenAIAdmin",
    ]

    /// Member names the generated code declares or calls unqualified inside every struct and
    /// union: a property or union case the spec gives one of them is numbered (`equal2`). `equal`
    /// is the runtime function that `isMemberwiseEqual(to:)` compares with
    /// (``DeclarationRenderer/renderEquality(members:into:)``).
    static let reservedMemberNames: Set<String> = [
        "additionalProperties", "specDeviations", "undeclaredMembers", "isMemberwiseEqual", "equal",
    ]

    /// The names a union case may not take: ``reservedMemberNames`` and `unknown`, the case every
    /// union has.
    static let reservedCaseNames = reservedMemberNames.union(["unknown"])

    /// Names the hand-written runtime and the generated code use unqualified, or that user code
    /// reaches for: `Error` → `ErrorObject`. Includes ``reservedTypeNames``.
    static let runtimeTypeNames: Set<String> = reservedTypeNames.union([
        "Error", "Data", "URL", "Date", "String", "Int", "Double", "Float", "Bool", "Array",
        "Dictionary", "Set", "Optional", "Result", "Task", "Never", "Void", "Character", "Decoder",
        "Encoder", "Codable", "Encodable", "Decodable", "Hashable", "Equatable", "Sendable", "CodingKey",
        "UUID", "TimeInterval", "Duration", "Range", "Sequence", "Collection", "AsyncSequence",
        "AsyncStream", "AsyncThrowingStream", "JSONEncoder", "JSONDecoder", "URLSession", "URLRequest",
        "URLQueryItem", "URLComponents", "CharacterSet", "ProcessInfo", "Hasher", "Substring",
        "OpenAIClient", "OpenAIError", "JSONValue", "JSONObject", "OpenEnum", "AnyCodingKey", "FileUpload",
        "RequestOptions", "HTTPRequest", "HTTPResponse", "HTTPTransport", "URLSessionTransport",
        "APIRequest", "Indirect", "RetryPolicy", "MultipartForm", "MultipartFormEncodable",
        "ServerSentEvent", "ServerSentEventParser", "ServerSentEventStream", "EmbeddingVector",
        "MemberwiseEquatable",
    ])

    /// Splits `text` into words at `_`, `-`, `.`, `/`, spaces and other punctuation, and at
    /// lower-to-upper case changes (`fileId` → `file`, `Id`; `JSONSchema` → `JSON`, `Schema`).
    public static func words(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        let scalars = Array(text.unicodeScalars)
        func flush() {
            if !current.isEmpty { words.append(current) }
            current = ""
        }
        for (index, scalar) in scalars.enumerated() {
            let isAlnum = scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
            guard isAlnum, scalar.isASCII else {
                flush()
                continue
            }
            if let last = current.unicodeScalars.last {
                let isUpper = ("A"..."Z").contains(scalar)
                let lastIsLower = ("a"..."z").contains(last)
                let lastIsUpper = ("A"..."Z").contains(last)
                let lastIsDigit = ("0"..."9").contains(last)
                let nextIsLower = index + 1 < scalars.count && ("a"..."z").contains(scalars[index + 1])
                if isUpper && (lastIsLower || lastIsDigit) {
                    flush()
                } else if isUpper && lastIsUpper && nextIsLower {
                    flush()
                }
            }
            current.unicodeScalars.append(scalar)
        }
        flush()
        return words
    }

    private static func capitalized(_ word: String) -> String {
        if let initialism = initialisms[word.lowercased()] { return initialism }
        return word.prefix(1).uppercased() + word.dropFirst()
    }

    /// Joins words; between two words that both are, or end and start, with digits, puts `_` so
    /// that `gpt-4.1` and `gpt-41` stay apart.
    private static func join(_ parts: [String]) -> String {
        var result = ""
        for part in parts {
            if let last = result.last, last.isNumber, part.first?.isNumber == true { result += "_" }
            result += part
        }
        return result
    }

    /// `UpperCamelCase` for a type: `create_chat_completion` → `CreateChatCompletion`,
    /// `file_id` → `FileID`, `PromptCacheTTLEnum` as it is. Not escaped; see ``typeName(_:)``.
    public static func upperCamel(_ text: String) -> String {
        let mixed = isMixedCase(text)
        return join(words(text).map { camelWord($0, inMixedCase: mixed) })
    }

    /// Whether `text` has both lower- and upper-case letters: then a word its author wrote in
    /// upper case is an initialism (`PromptCacheTTLEnum`, `RealtimeSessionCreateRequestGA`), kept
    /// as written. In `FILE_SEARCH` or `AUTO`, upper case is the style of the whole name.
    static func isMixedCase(_ text: String) -> Bool {
        text.unicodeScalars.contains { ("a"..."z").contains($0) }
            && text.unicodeScalars.contains { ("A"..."Z").contains($0) }
    }

    /// A word after the first of a camel-case name: an ``initialisms`` entry in upper case, a
    /// word written in upper case in a mixed-case name as written, else capitalized.
    private static func camelWord(_ word: String, inMixedCase mixed: Bool) -> String {
        let isAllUpper = word.count > 1 && word.allSatisfy { $0.isUppercase || $0.isNumber }
        if isAllUpper, initialisms[word.lowercased()] == nil {
            return mixed ? word : capitalized(word.lowercased())
        }
        return capitalized(word)
    }

    /// `lowerCamelCase` for a member: `file_id` → `fileID`, `JSONSchema` → `jsonSchema`.
    public static func lowerCamel(_ text: String) -> String {
        let parts = words(text)
        guard let first = parts.first else { return "" }
        let mixed = isMixedCase(text)
        return join([first.lowercased()] + parts.dropFirst().map { camelWord($0, inMixedCase: mixed) })
    }

    /// A type name for `text`, never empty, never starting with a digit, never reserved.
    public static func typeName(_ text: String) -> String {
        var name = upperCamel(text)
        if name.isEmpty { name = "Value" }
        if name.first!.isNumber { name = "_" + name }
        if reservedTypeNames.contains(name) { name += "Value" }
        return name
    }

    /// A member name (property, case, static member, parameter label) for `text`, back-quoted
    /// when it is a keyword.
    public static func memberName(_ text: String) -> String {
        var name = lowerCamel(text)
        if name.isEmpty { name = "value" }
        if name.first!.isNumber { name = "_" + name }
        return escaped(name)
    }

    /// Back-quotes `name` when it is a Swift keyword.
    public static func escaped(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    /// The identifier of a member's private storage: `_` and the name, unescaped (`_default`).
    public static func storageName(_ name: String) -> String {
        "_" + unescaped(name)
    }

    /// The local name of a memberwise-init parameter for the member `name`: `self` cannot be
    /// one, so it is `selfValue`; otherwise the member's name.
    public static func parameterLocalName(_ name: String) -> String {
        unescaped(name) == "self" ? "selfValue" : name
    }

    /// `name` without back-quotes.
    public static func unescaped(_ name: String) -> String {
        name.hasPrefix("`") ? String(name.dropFirst().dropLast()) : name
    }

    /// The static members of an open enumeration for its raw `values`, duplicates dropped, in
    /// order: ``memberName(_:)``, then `Value` for a name the type already has (`rawValue` →
    /// `rawValueValue`), then `2`, `3`, … for one an earlier value took (`gpt-4.1` and `gpt-41`).
    public static func enumMemberNames(_ values: [String]) -> [(value: String, name: String)] {
        let builtIn: Set<String> = ["rawValue", "description", "init", "hashValue"]
        var used = builtIn
        var seen: Set<String> = []
        var result: [(value: String, name: String)] = []
        for value in values where seen.insert(value).inserted {
            let base = unescaped(memberName(value))
            var member = base
            var counter = 2
            while used.contains(member) {
                member = base + (counter == 2 && builtIn.contains(base) ? "Value" : String(counter))
                counter += 1
            }
            used.insert(member)
            result.append((value, escaped(member)))
        }
        return result
    }

    /// A singular form of a plural property name for naming an inline array item type:
    /// `messages` → `Message`, `entries` → `Entry`; otherwise `<Name>Item`.
    public static func itemTypeName(_ propertyName: String) -> String {
        let base = typeName(propertyName)
        if base.hasSuffix("ies"), base.count > 4 { return String(base.dropLast(3)) + "y" }
        if base.hasSuffix("s"), !base.hasSuffix("ss"), !base.hasSuffix("us"), !base.hasSuffix("is"),
            base.count > 3
        {
            return String(base.dropLast())
        }
        return base + "Item"
    }
}
