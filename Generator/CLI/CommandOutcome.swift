/// What one `openai-generator` command produced: its exit status and the text it prints, so that
/// tests run a command in-process and the executable only writes the text and exits.
public struct CommandOutcome: Sendable, Equatable {
    /// Exit status: 0 success; 1 an invalid spec, drift found by `check`, or changes at `diff`'s
    /// `--fail-on` level; 2 usage error; 3 I/O error.
    public var status: Int32
    /// Standard output: the command's report.
    public var output: String
    /// Standard error: diagnostics, usage and error messages.
    public var errorOutput: String

    /// Creates an outcome.
    ///
    /// - Parameters:
    ///   - status: The exit status.
    ///   - output: What goes to standard output.
    ///   - errorOutput: What goes to standard error.
    public init(status: Int32, output: String = "", errorOutput: String = "") {
        self.status = status
        self.output = output
        self.errorOutput = errorOutput
    }

    /// A usage error (status 2): the message, then the command's usage, on standard error.
    static func usageError(_ error: UsageError, usage: String) -> CommandOutcome {
        CommandOutcome(status: 2, errorOutput: error.message + "\n" + usage + "\n")
    }

    /// A failure with `message` (and a line break) on standard error.
    static func failure(_ status: Int32, _ message: String) -> CommandOutcome {
        CommandOutcome(status: status, errorOutput: message + "\n")
    }
}
