import Foundation
import OpenAICatalogueModel
import OpenAICommandLine

/// How replies are printed (`--format`).
package enum OutputFormat: String, CaseIterable, Sendable {
    /// `pretty` on a terminal, `json` otherwise.
    case auto
    /// Indented JSON.
    case json
    /// One compact JSON value per line: each item of a paged list, each event of a stream.
    case jsonl
    /// Indented JSON with colors on a terminal.
    case pretty
    /// Block YAML.
    case yaml
    /// The reply's bytes as received (each page's; a stream's `text/event-stream` bytes).
    case raw
}

/// The flags every command takes, before or after the command.
package struct GlobalOptions: Sendable {
    package var apiKey: String?
    package var adminAPIKey: String?
    package var baseURL: String?
    package var organization: String?
    package var project: String?
    package var format: OutputFormat = .auto
    /// A path picking part of the reply (``Transform``).
    package var transform: String?
    /// Log requests and replies (credentials redacted) on standard error.
    package var debug = false
    /// `--timeout SECONDS`: the longest one attempt may take, and may go without a byte
    /// (``OpenAIClient/Configuration/requestTimeout`` and ``OpenAIClient/Configuration/idleTimeout``);
    /// `nil` keeps the client's (600 s each).
    package var timeout: TimeInterval?

    package init() {}

    /// Global flags that take a value.
    static let valued: Set<String> = [
        "api-key", "admin-api-key", "base-url", "organization", "project", "format", "transform", "timeout",
    ]
    /// Global flags without a value.
    static let switches: Set<String> = ["debug", "version", "help"]

    /// Sets the global flag `name` (without dashes) to `value`.
    mutating func set(_ name: String, _ value: String) throws {
        switch name {
        case "api-key": apiKey = value
        case "admin-api-key": adminAPIKey = value
        case "base-url": baseURL = value
        case "organization": organization = value
        case "project": project = value
        case "transform": transform = value
        case "timeout":
            guard let seconds = TimeInterval(value), seconds.isFinite, seconds > 0, seconds <= 86_400 else {
                throw CLIError.usage("--timeout takes a number of seconds above 0 (at most 86400), not `\(value)`")
            }
            timeout = seconds
        case "format":
            guard let format = OutputFormat(rawValue: value) else {
                let names = OutputFormat.allCases.map(\.rawValue)
                throw CLIError.usage(
                    "--format \(value) is not one of \(names.joined(separator: ", "))"
                        + Suggestion.didYouMean(value, among: names))
            }
            self.format = format
        default: break
        }
    }
}

/// A parsed command line.
package enum Invocation: Sendable {
    /// Print this text and exit 0 (`--help`, `openai <resource>`).
    case help(String)
    case version
    /// `openai completion bash|zsh|fish`.
    case completion(Completion.Shell)
    /// `openai mcp …`: the MCP server.
    case mcp(MCPOptions)
    /// Call an operation.
    case call(Call)

    /// An operation to call and what the command line gave it.
    package struct Call: Sendable {
        package var operation: APIOperation
        package var globals: GlobalOptions
        /// Each flag's words, in order (a repeated flag has several), by flag name; a singular
        /// flag's (``Flag/singular``) by that name.
        package var values: [String: [String]]
        /// The dotted flags (``NestedFlag``) and their words, in command-line order.
        package var nested: [(flag: String, word: String)] = []
        /// The most items to fetch from a list operation, across pages (`--max-items`).
        package var maxItems: Int?
        /// Where the reply goes instead of standard output (`--output`).
        package var output: String?
        /// `--force`: `--output` may replace a file owned by another user or with other hard links.
        package var force = false
        /// `--allow-files DIR` (repeatable): folders (symbolic links resolved) under which an
        /// `@path` in a body on standard input is read; none by default, so a piped body's strings
        /// are text.
        package var fileFolders: [String] = []
    }

    /// Flags every operation command takes beside its own.
    static let commandValued: Set<String> = ["max-items", "output", "allow-files"]

    /// Parses the words after the program name.
    ///
    /// The grammar is the official CLI's: `openai <resource>[:<sub>…] <method> [--flag value…]`,
    /// flags as `--name value` or `--name=value`, a boolean flag alone for `true`; the global
    /// flags anywhere.
    ///
    /// - Throws: ``CLIError/usage(_:usage:)`` for an unknown command or flag (with a suggestion),
    ///   a flag without its value, or a value a global flag does not take.
    package static func parse(_ words: [String], catalogue: Catalogue) throws -> Invocation {
        if words.first == "mcp" { return .mcp(try MCPOptions.parse(Array(words.dropFirst()))) }
        var globals = GlobalOptions()
        var positional: [String] = []
        var wantsHelp = false
        var values: [String: [String]] = [:]
        var nestedValues: [(flag: String, word: String)] = []
        var operation: APIOperation?
        var scanner = FlagScanner(words)

        func value(for name: String, inline: String?) throws -> String {
            // A flag's value may start with `--` (`--input "--help me"`), but not be another flag.
            guard let value = scanner.value(inline: inline, isFlag: { Self.isFlag($0, operation: operation) }) else {
                throw CLIError.usage("--\(name) needs a value", usage: operation.map(Help.usage))
            }
            return value
        }

        // `--stream`, `--stream=false`, or `--stream false`: a command takes no other word.
        func switchValue(for name: String, inline: String?) throws -> String {
            let given = scanner.optionalValue(inline: inline, accepting: { !$0.hasPrefix("--") })
            if let given, given != "true", given != "false" {
                throw CLIError.usage(
                    "--\(name) takes true or false (or nothing, for true), not `\(given)`",
                    usage: operation.map(Help.usage))
            }
            return given ?? "true"
        }

        while let token = scanner.next() {
            let name: String
            let inline: String?
            switch token {
            case .help:
                wantsHelp = true
                continue
            case .positional(let word):
                if word == "-v" && !scanner.flagsEnded { return .version }
                guard operation == nil else {
                    throw CLIError.usage(
                        "\(positional.joined(separator: " ")) takes no argument `\(word)`: give values as flags",
                        usage: operation.map(Help.usage))
                }
                positional.append(word)
                if positional.count == 2 && positional[0] != "completion" && positional[0] != "help" {
                    operation = try resolve(positional[0], positional[1], catalogue: catalogue)
                }
                continue
            case .flag(let flag, let value):
                (name, inline) = (flag, value)
            }
            // `--version` is a flag of its own on a few commands (`skills:versions retrieve`).
            if name == "version", inline == nil, operation?.flags.contains(where: { $0.flag == "version" }) != true {
                return .version
            }
            // A command's own flag wins over a global one of the same name.
            if let operation, let nested = try NestedFlag.resolve(name, operation: operation, schemas: .shared) {
                if nested.leaf.schema.type == "boolean" {
                    nestedValues.append((name, try switchValue(for: name, inline: inline)))
                } else {
                    nestedValues.append((name, try value(for: name, inline: inline)))
                }
                continue
            }
            if let operation, let (flag, singular) = operation.flag(named: name) {
                // A singular flag's words are kept apart: each is one item (`--tool '{…}'`).
                let key = singular ? flag.singular ?? name : flag.flag
                let isBoolean = (singular ? flag.schema.items?.type : flag.schema.type) == "boolean"
                values[key, default: []].append(
                    isBoolean ? try switchValue(for: name, inline: inline) : try value(for: name, inline: inline))
                continue
            }
            if operation != nil, name == "force" {
                values["--force", default: []].append(inline ?? "true")
                continue
            }
            if operation != nil, commandValued.contains(name) {
                values["--" + name, default: []].append(try value(for: name, inline: inline))
                continue
            }
            if GlobalOptions.valued.contains(name) {
                try globals.set(name, try value(for: name, inline: inline))
                continue
            }
            if name == "debug" {
                globals.debug = inline.map { $0 != "false" } ?? true
                continue
            }
            let known =
                Array(GlobalOptions.valued) + Array(GlobalOptions.switches)
                + (operation.map { operation in
                    operation.flags.flatMap { [$0.flag] + $0.aliases + [$0.singular].compactMap { $0 } }
                        + Array(commandValued) + ["force"]
                } ?? [])
            throw CLIError.usage(
                "unknown flag --\(name)" + (operation.map { " for `openai \($0.command)`" } ?? "")
                    + Suggestion.didYouMean(name, among: known, prefix: "--"),
                usage: operation.map(Help.usage))
        }

        if positional.first == "completion" {
            guard positional.count == 2, let shell = Completion.Shell(rawValue: positional[1]) else {
                throw CLIError.usage(
                    "usage: openai completion bash|zsh|fish"
                        + (positional.count == 2
                            ? Suggestion.didYouMean(positional[1], among: Completion.Shell.allCases.map(\.rawValue))
                            : ""))
            }
            return .completion(shell)
        }
        if positional.first == "help" {
            positional.removeFirst()
            wantsHelp = true
        }
        guard let operation else {
            switch positional.count {
            case 0:
                return .help(Help.root(catalogue))
            case 1:
                guard catalogue.resources.contains(positional[0]) else {
                    throw CLIError.usage(
                        "unknown resource `\(positional[0])`"
                            + Suggestion.didYouMean(positional[0], among: catalogue.resources),
                        usage: Help.rootUsage)
                }
                return .help(Help.resource(positional[0], catalogue: catalogue))
            default:
                // `help <resource> <method>`
                return .help(Help.command(try resolve(positional[0], positional[1], catalogue: catalogue)))
            }
        }
        if wantsHelp { return .help(Help.command(operation)) }
        var call = Call(operation: operation, globals: globals, values: values)
        call.nested = nestedValues
        if let words = values.removeValue(forKey: "--max-items") {
            guard operation.takesMaxItems else {
                throw CLIError.usage(
                    "`openai \(operation.command)` neither pages, streams nor replies with a list: --max-items "
                        + "is for those",
                    usage: Help.usage(operation))
            }
            guard words.count == 1, let number = Int(words[0]), number >= 1 else {
                throw CLIError.usage("--max-items takes one whole number of at least 1", usage: Help.usage(operation))
            }
            call.maxItems = number
        }
        if let words = values.removeValue(forKey: "--output") {
            guard words.count == 1, !words[0].isEmpty else {
                throw CLIError.usage("--output takes one file path", usage: Help.usage(operation))
            }
            call.output = words[0]
        }
        for word in values.removeValue(forKey: "--allow-files") ?? [] {
            let folder = URL(fileURLWithPath: word).resolvingSymlinksInPath().standardized
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
                throw CLIError.usage("--allow-files \(word) is not a folder", usage: Help.usage(operation))
            }
            call.fileFolders.append(folder.path)
        }
        if let words = values.removeValue(forKey: "--force") {
            guard let last = words.last, last == "true" || last == "false" else {
                throw CLIError.usage("--force takes true or false (or nothing, for true)", usage: Help.usage(operation))
            }
            call.force = last == "true"
        }
        call.values = values
        return .call(call)
    }

    /// Whether `word` is a flag of `operation` or a global one (`--name` or `--name=value`).
    static func isFlag(_ word: String, operation: APIOperation?) -> Bool {
        guard word.hasPrefix("--") else { return false }
        let name = String(word.dropFirst(2).prefix { $0 != "=" })
        let top = String(name.prefix { $0 != "." })
        return GlobalOptions.valued.contains(name) || GlobalOptions.switches.contains(name)
            || commandValued.contains(name) || operation?.flag(named: name) != nil
            || (top != name && operation?.flag(named: top) != nil)
    }

    /// The operation `openai resource method` names.
    ///
    /// - Throws: ``CLIError/usage(_:usage:)`` naming the unknown resource or method, with a suggestion.
    static func resolve(_ resource: String, _ method: String, catalogue: Catalogue) throws -> APIOperation {
        if let operation = catalogue.operation(resource: resource, method: method) { return operation }
        let methods = catalogue.methods(of: resource)
        guard !methods.isEmpty else {
            // `openai chat completions create`: the official grammar joins resources with `:`.
            let joined = resource + ":" + method
            if catalogue.resources.contains(where: { $0 == joined || $0.hasPrefix(joined + ":") }) {
                throw CLIError.usage(
                    "unknown resource `\(resource)`; sub-resources join with `:`: `openai \(joined) <method>`",
                    usage: Help.rootUsage)
            }
            throw CLIError.usage(
                "unknown resource `\(resource)`" + Suggestion.didYouMean(resource, among: catalogue.resources),
                usage: Help.rootUsage)
        }
        throw CLIError.usage(
            "`\(resource)` has no method `\(method)`" + Suggestion.didYouMean(method, among: methods.map(\.name)),
            usage: Help.resource(resource, catalogue: catalogue))
    }
}
