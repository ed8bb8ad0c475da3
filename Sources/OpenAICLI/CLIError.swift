import Foundation

/// What ends a run of the `openai` tool early, and its exit status.
package enum CLIError: Error, CustomStringConvertible {
    /// A command line that cannot be run (status 2): the message, and the usage of the command it
    /// concerns when known.
    case usage(String, usage: String? = nil)
    /// Anything else that stops the run (status 1): a file that cannot be read or written, a reply
    /// that is not what the operation documents.
    case failure(String)

    package var description: String {
        switch self {
        case .usage(let message, _): message
        case .failure(let message): message
        }
    }
}

/// The tool's exit statuses (documented in `openai --help` and the README).
package enum ExitStatus {
    package static let success: Int32 = 0
    /// Any other failure: `--output` cannot be written, a reply that is not what the operation documents.
    package static let failure: Int32 = 1
    /// A usage error: unknown command or flag, a missing required flag, a value of the wrong type.
    package static let usage: Int32 = 2
    /// The API answered with a 4xx status.
    package static let clientError: Int32 = 4
    /// The API answered with a 5xx status (after retries).
    package static let serverError: Int32 = 5
    /// No reply: the connection failed or timed out.
    package static let connection: Int32 = 6
    /// The reply ended before it was complete: a stream cut off before its final event.
    package static let incomplete: Int32 = 7
    /// Interrupted (SIGINT).
    package static let interrupted: Int32 = 130
}
