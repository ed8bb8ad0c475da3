/// `openai-generator`: dispatches its first word to ``GenerateCommand``, ``CheckCommand`` or
/// ``DiffCommand``.
public enum OpenAIGeneratorCommand {
    /// The usage of every command.
    public static let usage = """
        usage: openai-generator generate [options]   write the generated code from a spec
               openai-generator check [options]      whether the committed generated code is what the spec gives
               openai-generator diff OLD NEW [options]  what changed between two specs, and what it breaks
        `openai-generator COMMAND --help` gives a command's options.
        Exit status: 0 success; 1 invalid spec, drift found by check, or changes at diff's --fail-on level;
        2 usage error; 3 I/O error.
        """

    /// Runs the command `arguments` names.
    ///
    /// - Parameter arguments: The command-line words after the executable's name.
    /// - Returns: What the command printed and its exit status (2 for no or an unknown command).
    public static func run(_ arguments: [String]) -> CommandOutcome {
        guard let command = arguments.first else { return CommandOutcome(status: 2, errorOutput: usage + "\n") }
        let rest = Array(arguments.dropFirst())
        switch command {
        case "generate": return GenerateCommand.run(arguments: rest)
        case "check": return CheckCommand.run(arguments: rest)
        case "diff": return DiffCommand.run(arguments: rest)
        case "-h", "--help", "help": return CommandOutcome(status: 0, output: usage + "\n")
        default: return .usageError(UsageError("unknown command \(command)"), usage: usage)
        }
    }
}
