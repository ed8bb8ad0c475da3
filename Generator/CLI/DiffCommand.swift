import Foundation
import GeneratorCore

/// Runs `openai-generator diff OLD NEW [options]`: prints the report to standard output and
/// messages to standard error (see ``DiffTool/usage``).
/// - Parameters:
///   - arguments: The command-line words after `diff`.
/// - Returns: The exit status: 0 nothing at the `--fail-on` level; 1 changes at that level or an
///   unreadable spec; 2 usage error; 3 I/O error.
func runDiff(arguments: [String]) -> Int32 {
    let outcome = DiffTool.run(arguments: arguments)
    FileHandle.standardOutput.write(Data(outcome.output.utf8))
    FileHandle.standardError.write(Data(outcome.errorOutput.utf8))
    return outcome.status
}
