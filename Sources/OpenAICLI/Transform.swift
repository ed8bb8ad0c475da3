/// `--transform`: a path that picks part of a reply, in the dotted syntax of the official CLI
/// (GJSON's, the part of it that paths need):
///
/// - `a.b` the member `b` of the member `a`; `items.0` the first element of an array;
/// - `#` the number of elements of an array, and `a.#.b` the member `b` of each element of `a`
///   (elements without it are left out);
/// - `*` and `?` in a member name match any characters or any one character (the first member that
///   matches); `\.`, `\*`, `\?` and `\\` stand for the character itself.
///
/// A path that matches nothing gives no value (nothing is printed for it).
package struct Transform: Sendable {
    private var components: [String]

    /// Parses a path.
    ///
    /// - Throws: ``CLIError/usage(_:)`` for an empty path or an empty component (`a..b`).
    package init(_ path: String) throws {
        // GJSON's queries, modifiers and pipes (`#(…)`, `@reverse`, `a|b`) are not this syntax.
        for unsupported in ["#(", "|", "@", "{", "["] where path.contains(unsupported) {
            throw CLIError.usage(
                "--transform \(path): `\(unsupported)` (a GJSON query, modifier or multipath) is not supported; "
                    + "use member names, indexes, `#` and `*`/`?`")
        }
        var components: [String] = []
        var current = ""
        var escaped = false
        for character in path {
            if escaped {
                current.append(
                    character == "." ? "\u{0}" : character == "*" ? "\u{1}" : character == "?" ? "\u{2}" : character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "." {
                components.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        if escaped { current.append("\\") }
        components.append(current)
        guard !path.isEmpty, !components.contains(where: \.isEmpty) else {
            throw CLIError.usage("--transform \(path) has an empty path component")
        }
        self.components = components
    }

    /// The part of `value` the path picks, or `nil`.
    package func apply(_ value: JSON) -> JSON? {
        Self.apply(components[...], to: value)
    }

    private static func apply(_ path: ArraySlice<String>, to value: JSON) -> JSON? {
        guard let first = path.first else { return value }
        let rest = path.dropFirst()
        switch value {
        case .array(let elements):
            if first == "#" {
                if rest.isEmpty { return .number(String(elements.count)) }
                return .array(elements.compactMap { apply(rest, to: $0) })
            }
            guard let index = Int(first), elements.indices.contains(index) else { return nil }
            return apply(rest, to: elements[index])
        case .object(let members):
            guard let member = members.first(where: { matches($0.key, pattern: first) }) else { return nil }
            return apply(rest, to: member.value)
        default:
            return nil
        }
    }

    /// Whether `key` matches `pattern` (`*` any run, `?` any one character; escaped ones literal).
    private static func matches(_ key: String, pattern: String) -> Bool {
        let literal = pattern.map { $0 == "\u{0}" ? "." : $0 == "\u{1}" ? "*" : $0 == "\u{2}" ? "?" : $0 }
        if !pattern.contains("*") && !pattern.contains("?") { return key == String(literal) }
        let key = Array(key)
        let pattern = Array(pattern)
        func match(_ k: Int, _ p: Int) -> Bool {
            if p == pattern.count { return k == key.count }
            switch pattern[p] {
            case "*": return match(k, p + 1) || (k < key.count && match(k + 1, p))
            case "?": return k < key.count && match(k + 1, p + 1)
            default:
                let want: Character =
                    pattern[p] == "\u{0}" ? "." : pattern[p] == "\u{1}" ? "*" : pattern[p] == "\u{2}" ? "?" : pattern[p]
                return k < key.count && key[k] == want && match(k + 1, p + 1)
            }
        }
        return match(0, 0)
    }
}
