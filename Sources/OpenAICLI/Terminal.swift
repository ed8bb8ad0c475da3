import Foundation
import OpenAIRuntime

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Where the tool writes: standard output, or the file `--output` names, for replies; standard
/// error for messages and progress.
///
/// A reply for `--output` is written as ``OutputDestination`` decides: to a temporary file beside a
/// regular file, renamed over it only when the command succeeds (a failed request leaves the
/// destination as it was), or straight into a FIFO or character device.
///
/// Writes happen with `state`'s lock held, so that lines from concurrent tasks stay whole and in
/// one order in a capture.
package final class Terminal: Sendable {
    private struct State {
        /// The `--output` file being written: its handle, its temporary path (`nil` when written
        /// directly) and the destination.
        var outputFile: (handle: FileHandle, temporary: String?, destination: OutputDestination)?
        /// What was written to standard output and standard error, when capturing (tests).
        var captured: Data?
        var capturedError: Data?
    }

    private let state: Locked<State>
    private let standardOutputIsTerminal: Bool
    /// Whether standard error is a terminal (progress bars are drawn there only).
    package let errorIsTerminal: Bool
    private let noColor: Bool

    /// The process's standard output and error; colors unless `NO_COLOR` is set and not empty
    /// (https://no-color.org).
    package init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        standardOutputIsTerminal = isatty(STDOUT_FILENO) == 1
        errorIsTerminal = isatty(STDERR_FILENO) == 1
        noColor = !(environment["NO_COLOR"] ?? "").isEmpty
        state = Locked(State())
    }

    private init(outputIsTerminal: Bool, errorIsTerminal: Bool) {
        standardOutputIsTerminal = outputIsTerminal
        self.errorIsTerminal = errorIsTerminal
        noColor = false
        state = Locked(State(captured: Data(), capturedError: Data()))
    }

    /// A terminal that keeps what is written to standard output and error (tests), each end a
    /// terminal or not as given.
    package static func capturing(outputIsTerminal: Bool = false, errorIsTerminal: Bool = false) -> Terminal {
        Terminal(outputIsTerminal: outputIsTerminal, errorIsTerminal: errorIsTerminal)
    }

    /// Whether replies go to a terminal: standard output is one and no `--output` file is open, or
    /// `--output` names one (`/dev/tty`, written directly).
    package var outputIsTerminal: Bool {
        state.withLock { state in
            guard let outputFile = state.outputFile else { return standardOutputIsTerminal }
            return outputFile.temporary == nil && isatty(outputFile.handle.fileDescriptor) == 1
        }
    }

    /// Whether replies are colored: they go to a terminal and `NO_COLOR` is not set.
    package var colors: Bool { outputIsTerminal && !noColor }

    /// What was written to standard output and standard error while capturing.
    package var capturedText: (output: String, error: String) {
        state.withLock { state in
            (
                String(decoding: state.captured ?? Data(), as: UTF8.self),
                String(decoding: state.capturedError ?? Data(), as: UTF8.self)
            )
        }
    }

    /// Sends replies to the file at `path`, as ``OutputDestination`` decides (through a temporary
    /// file beside a regular file, see ``finish(success:)``).
    ///
    /// - Parameter force: `--force`: replace a file owned by another user or with other hard links.
    /// - Throws: ``CLIError/failure(_:)`` when `path` is a folder, a block device or a socket, a file
    ///   it may not replace without `force`, or cannot be written.
    package func redirect(to path: String, force: Bool = false) throws {
        let destination = try OutputDestination.resolve(path, force: force)
        let (handle, temporary) = try destination.open()
        state.withLock { $0.outputFile = (handle, temporary, destination) }
    }

    /// Writes reply bytes.
    ///
    /// - Throws: ``CLIError/failure(_:)`` when they cannot be written (a full disk).
    package func write(_ data: Data) throws {
        try state.withLock { state in
            if let outputFile = state.outputFile {
                do {
                    try outputFile.handle.write(contentsOf: data)
                } catch {
                    throw CLIError.failure(
                        "cannot write \(outputFile.destination.path): \(error.localizedDescription)")
                }
            } else if state.captured != nil {
                state.captured!.append(data)
            } else {
                do {
                    try FileHandle.standardOutput.write(contentsOf: data)
                } catch {
                    throw CLIError.failure("cannot write to standard output: \(error.localizedDescription)")
                }
            }
        }
    }

    /// Writes a line of reply text.
    package func line(_ text: String) throws { try write(Data((text + "\n").utf8)) }

    /// Writes a message line on standard error.
    package func error(_ text: String) { errorRaw(text + "\n") }

    /// Writes on standard error without a newline (a progress bar's redraw); a write that fails is dropped.
    func errorRaw(_ text: String) {
        state.withLock { state in
            if state.capturedError != nil {
                state.capturedError!.append(Data(text.utf8))
            } else {
                try? FileHandle.standardError.write(contentsOf: Data(text.utf8))
            }
        }
    }

    /// Closes `--output`'s file: a temporary file is renamed over its destination when the command
    /// succeeded, else removed.
    ///
    /// - Throws: ``CLIError/failure(_:)`` when it cannot be renamed.
    package func finish(success: Bool) throws {
        guard
            let file = state.withLock({ state in
                defer { state.outputFile = nil }
                return state.outputFile
            })
        else { return }
        try? file.handle.close()
        try file.destination.settle(file.temporary, success: success)
    }
}
