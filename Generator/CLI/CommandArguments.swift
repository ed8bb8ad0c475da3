import OpenAICommandLine

/// A command-line mistake: an unknown option, a missing value, a value out of range.
public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, naming the option.
    public var message: String

    /// Creates a usage error.
    ///
    /// - Parameter message: What is wrong.
    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

/// The words of one command split into positional words, options with a value (`--spec PATH` or
/// `--spec=PATH`, repeatable) and flags (`--force`): the one argument parser of every command, on
/// the grammar the project's executables share (``FlagScanner``).
///
/// Words are read left to right; a word starting with `--` is an option, any other is positional,
/// and every word after `--` is positional; `-h` and `--help` are always flags. An option it was
/// not told about (with the closest known one suggested), a flag given a value, or a valued option
/// without one is a ``UsageError``.
public struct CommandArguments: Sendable {
    /// The words that are not options, in order.
    public private(set) var positional: [String] = []
    /// The flags given.
    public private(set) var flags: Set<String> = []
    private var values: [String: [String]] = [:]

    /// Parses `words`.
    ///
    /// - Parameters:
    ///   - words: The command-line words after the command's name.
    ///   - valued: The options that take a value (`"--spec"`).
    ///   - flags: The options that take none (`"--force"`).
    /// - Throws: ``UsageError`` for an unknown option, a flag given a value, or a missing value.
    public init(_ words: [String], valued: Set<String>, flags: Set<String> = []) throws(UsageError) {
        var scanner = FlagScanner(words)
        while let token = scanner.next() {
            switch token {
            case .help:
                self.flags.insert("--help")
            case .positional(let word):
                positional.append(word)
            case .flag(let name, let inline):
                let option = "--" + name
                if flags.contains(option) || option == "--help" {
                    guard inline == nil else { throw UsageError("\(option) takes no value") }
                    self.flags.insert(option)
                } else if valued.contains(option) {
                    // A value may start with `--` (a path): the option's next word is its value.
                    guard let value = scanner.value(inline: inline, isFlag: { _ in false }) else {
                        throw UsageError("missing value for \(option)")
                    }
                    values[option, default: []].append(value)
                } else {
                    let known = valued.union(flags).map { String($0.dropFirst(2)) } + ["help"]
                    throw UsageError(
                        "unknown option \(option)" + Suggestion.didYouMean(name, among: known, prefix: "--"))
                }
            }
        }
    }

    /// Whether `-h` or `--help` was given.
    public var wantsHelp: Bool { flags.contains("--help") }

    /// Whether the flag `name` was given.
    ///
    /// - Parameter name: The flag, e.g. `"--force"`.
    /// - Returns: Whether it was given.
    public func has(_ name: String) -> Bool { flags.contains(name) }

    /// The last value given for `name`, or `fallback` when it was not given.
    ///
    /// - Parameters:
    ///   - name: The option, e.g. `"--spec"`.
    ///   - fallback: The default.
    /// - Returns: The value.
    public func value(_ name: String, default fallback: String) -> String { values[name]?.last ?? fallback }

    /// The last value given for `name`, or `nil`.
    ///
    /// - Parameter name: The option.
    /// - Returns: The value, or `nil` when it was not given.
    public func value(_ name: String) -> String? { values[name]?.last }

    /// Every value given for `name`, in order (a repeatable option such as `--severity`).
    ///
    /// - Parameter name: The option.
    /// - Returns: The values.
    public func values(_ name: String) -> [String] { values[name] ?? [] }

    /// The value of `name` as one of `choices`, or `fallback` when it was not given.
    ///
    /// - Parameters:
    ///   - name: The option.
    ///   - choices: The values it takes.
    ///   - fallback: The default.
    /// - Returns: The value.
    /// - Throws: ``UsageError`` naming the option when the value is not one of `choices`.
    public func choice(_ name: String, of choices: [String], default fallback: String) throws(UsageError) -> String {
        let chosen = value(name, default: fallback)
        guard choices.contains(chosen) else {
            throw UsageError("invalid \(name) \(chosen) (one of \(choices.joined(separator: ", ")))")
        }
        return chosen
    }

    /// The value of `name` as an integer of at least `minimum`, or `fallback`.
    ///
    /// - Parameters:
    ///   - name: The option.
    ///   - minimum: The smallest value taken.
    ///   - fallback: The default.
    /// - Returns: The value.
    /// - Throws: ``UsageError`` naming the option when the value is not such an integer.
    public func integer(_ name: String, atLeast minimum: Int, default fallback: Int) throws(UsageError) -> Int {
        guard let text = value(name) else { return fallback }
        guard let number = Int(text), number >= minimum else {
            throw UsageError("invalid \(name) \(text) (at least \(minimum))")
        }
        return number
    }
}
