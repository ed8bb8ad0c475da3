/// The words of a command line read as flags and positional words: the grammar the three
/// executables share (`openai`, `openai mcp`, `openai-generator`), each keeping its own table of
/// flags.
///
/// - `--name value` and `--name=value` (the value may be empty: `--name=`);
/// - a flag may be repeated: each use is read in order, and the table says what repeats mean;
/// - `-h` and `--help` are ``Token/help``;
/// - `--` ends the flags: every word after it is positional, even one that starts with `--`;
/// - any other word, `-x` among them, is positional.
///
/// Which flags take a value, and whether the next word may be one, is the caller's to say
/// (``value(inline:isFlag:)``, ``optionalValue(inline:accepting:)``): the scanner only splits.
package struct FlagScanner: Sendable {
    /// One reading of the words.
    package enum Token: Equatable, Sendable {
        /// `--name` or `--name=value` (`inline`: the text after `=`), `name` without the dashes.
        case flag(String, inline: String?)
        /// A word that is not a flag, or any word after `--`.
        case positional(String)
        /// `-h` or `--help` (before `--`).
        case help
    }

    private let words: [String]
    private var index = 0
    /// Whether `--` was read: every word from there on is positional.
    package private(set) var flagsEnded = false

    /// Scans `words` (the words after the program's or the command's name).
    package init(_ words: [String]) {
        self.words = words
    }

    /// The next token, or `nil` after the last word.
    package mutating func next() -> Token? {
        while index < words.count {
            let word = words[index]
            index += 1
            if flagsEnded { return .positional(word) }
            if word == "--" {
                flagsEnded = true
                continue
            }
            if word == "-h" || word == "--help" { return .help }
            guard word.hasPrefix("--") else { return .positional(word) }
            let text = word.dropFirst(2)
            guard let equals = text.firstIndex(of: "=") else { return .flag(String(text), inline: nil) }
            return .flag(String(text[..<equals]), inline: String(text[text.index(after: equals)...]))
        }
        return nil
    }

    /// The value of the flag just read: `inline` when it had one, else the next word, taken,
    /// unless there is none, `--` ends the flags there, or `isFlag` says it is a flag.
    ///
    /// - Parameters:
    ///   - inline: The flag's `=value`, if any.
    ///   - isFlag: Whether a word is a flag rather than a value; by default any word starting
    ///     with `--` (a value may start with `--` where the caller knows the flags:
    ///     `--input "--help me"`).
    /// - Returns: The value, or `nil` when the flag has none.
    package mutating func value(inline: String?, isFlag: (String) -> Bool = { $0.hasPrefix("--") }) -> String? {
        if let inline { return inline }
        guard !flagsEnded, index < words.count, words[index] != "--", !isFlag(words[index]) else { return nil }
        index += 1
        return words[index - 1]
    }

    /// The value of a flag whose value may be left out (`--stream`, `--stream false`): `inline`
    /// when it had one, else the next word when `accepting` takes it, else `nil`.
    ///
    /// - Parameters:
    ///   - inline: The flag's `=value`, if any.
    ///   - accepting: Whether the next word is the flag's value; by default any word that does
    ///     not start with `-`.
    /// - Returns: The value given, or `nil` for none.
    package mutating func optionalValue(
        inline: String?, accepting: (String) -> Bool = { !$0.hasPrefix("-") }
    ) -> String? {
        if let inline { return inline }
        guard !flagsEnded, index < words.count, words[index] != "--", accepting(words[index]) else { return nil }
        index += 1
        return words[index - 1]
    }
}

/// "Did you mean" suggestions by edit distance, for an unknown flag, command or value.
package enum Suggestion {
    /// `; did you mean `x`?` for the closest of `candidates` to `word`, or the empty string when
    /// none is close (more than a third of the longer word differs, and it is not a prefix of at
    /// least 3 characters).
    ///
    /// - Parameters:
    ///   - word: What was given.
    ///   - candidates: What is known.
    ///   - prefix: Written before the suggestion (`--` for a flag).
    /// - Returns: The suggestion, with its leading `; `, or the empty string.
    package static func didYouMean(_ word: String, among candidates: [String], prefix: String = "") -> String {
        let scored = candidates.map { ($0, distance(word.lowercased(), $0.lowercased())) }
        guard let best = scored.min(by: { ($0.1, $0.0) < ($1.1, $1.0) }) else { return "" }
        let limit = max(2, max(word.count, best.0.count) / 3)
        if best.1 <= limit || (best.0.hasPrefix(word) && word.count >= 3) {
            return "; did you mean `\(prefix)\(best.0)`?"
        }
        return ""
    }

    /// The Levenshtein distance of two strings, by characters.
    package static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
