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
/// A reply for `--output` is written to a temporary file beside the destination and renamed over it
/// only when the command succeeds: a failed request leaves the destination as it was.
///
/// `@unchecked Sendable`: every stored property that changes is read and written under `lock`.
package final class Terminal: @unchecked Sendable {
    private let lock = NSLock()
    private let standardOutputIsTerminal: Bool
    /// Whether standard error is a terminal (progress bars are drawn there only).
    package let errorIsTerminal: Bool
    private let noColor: Bool
    /// The `--output` file being written: its handle, its temporary path and the destination.
    private var outputFile: (handle: FileHandle, temporary: String, destination: String)?
    /// What was written to standard output and standard error, when capturing (tests).
    private var captured: Data?
    private var capturedError: Data?

    /// The process's standard output and error; colors unless `NO_COLOR` is set and not empty
    /// (https://no-color.org).
    package init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        standardOutputIsTerminal = isatty(STDOUT_FILENO) == 1
        errorIsTerminal = isatty(STDERR_FILENO) == 1
        noColor = !(environment["NO_COLOR"] ?? "").isEmpty
    }

    private init(outputIsTerminal: Bool, errorIsTerminal: Bool) {
        standardOutputIsTerminal = outputIsTerminal
        self.errorIsTerminal = errorIsTerminal
        noColor = false
        captured = Data()
        capturedError = Data()
    }

    /// A terminal that keeps what is written to standard output and error (tests), each end a
    /// terminal or not as given.
    package static func capturing(outputIsTerminal: Bool = false, errorIsTerminal: Bool = false) -> Terminal {
        Terminal(outputIsTerminal: outputIsTerminal, errorIsTerminal: errorIsTerminal)
    }

    /// Whether replies go to a terminal: standard output is one and no `--output` file is open.
    package var outputIsTerminal: Bool { locked { outputFile == nil && standardOutputIsTerminal } }

    /// Whether replies are colored: they go to a terminal and `NO_COLOR` is not set.
    package var colors: Bool { outputIsTerminal && !noColor }

    /// What was written to standard output and standard error while capturing.
    package var capturedText: (output: String, error: String) {
        locked {
            (
                String(decoding: captured ?? Data(), as: UTF8.self),
                String(decoding: capturedError ?? Data(), as: UTF8.self)
            )
        }
    }

    /// Runs `body` holding the lock (NSLock's `withLock` needs macOS 14).
    private func locked<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// Sends replies to the file at `path` (through a temporary file beside it, see ``finish(success:)``).
    ///
    /// - Throws: ``CLIError/failure(_:)`` when `path` is a folder or the file cannot be created.
    package func redirect(to path: String) throws {
        // Through a symbolic link to its target, as a shell's `>` writes.
        let destination = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: destination, isDirectory: &isFolder), isFolder.boolValue {
            throw CLIError.failure("--output \(path) is a folder")
        }
        let temporary = Self.temporaryPath(for: destination)
        guard FileManager.default.createFile(atPath: temporary, contents: nil),
            let handle = FileHandle(forWritingAtPath: temporary)
        else { throw CLIError.failure("cannot write \(path)") }
        locked { outputFile = (handle, temporary, destination) }
    }

    /// A file name beside `path` for writing it in full before it replaces `path`.
    static func temporaryPath(for path: String) -> String {
        let url = URL(fileURLWithPath: path)
        let name = ".\(url.lastPathComponent).openai-\(UUID().uuidString.prefix(8)).partial"
        return url.deletingLastPathComponent().appendingPathComponent(name).path
    }

    /// Moves `temporary` over `destination` (replacing it), or removes it.
    ///
    /// - Throws: ``CLIError/failure(_:)`` when the rename fails.
    static func settle(_ temporary: String, at destination: String, success: Bool) throws {
        guard success else {
            try? FileManager.default.removeItem(atPath: temporary)
            return
        }
        guard rename(temporary, destination) == 0 else {
            try? FileManager.default.removeItem(atPath: temporary)
            throw CLIError.failure("cannot write \(destination)")
        }
    }

    /// Writes reply bytes.
    ///
    /// - Throws: ``CLIError/failure(_:)`` when they cannot be written (a full disk).
    package func write(_ data: Data) throws {
        try locked {
            if let outputFile {
                do {
                    try outputFile.handle.write(contentsOf: data)
                } catch {
                    throw CLIError.failure("cannot write \(outputFile.destination): \(error.localizedDescription)")
                }
            } else if captured != nil {
                captured!.append(data)
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
        locked {
            if capturedError != nil {
                capturedError!.append(Data(text.utf8))
            } else {
                try? FileHandle.standardError.write(contentsOf: Data(text.utf8))
            }
        }
    }

    /// Closes `--output`'s file: renamed over its destination when the command succeeded, else removed.
    ///
    /// - Throws: ``CLIError/failure(_:)`` when it cannot be closed or renamed.
    package func finish(success: Bool) throws {
        guard
            let file = locked({ () -> (handle: FileHandle, temporary: String, destination: String)? in
                defer { outputFile = nil }
                return outputFile
            })
        else { return }
        try? file.handle.close()
        try Self.settle(file.temporary, at: file.destination, success: success)
    }
}
