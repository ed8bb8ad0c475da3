import Foundation
import OpenAIRuntime

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Where the tool writes: standard output (or `--output FILE`) for replies, standard error for
/// messages and progress.
package final class Terminal: @unchecked Sendable {
    private let lock = NSLock()
    private var out: FileHandle
    private var outputFile: FileHandle?
    /// Whether standard output is a terminal (and not redirected to `--output`).
    package let outputIsTerminal: Bool
    /// Whether standard error is a terminal (progress bars are drawn there only).
    package let errorIsTerminal: Bool
    /// Colors on: a terminal and no `NO_COLOR` (https://no-color.org).
    package let colors: Bool
    /// What was written to standard output, when capturing (tests).
    private var captured: Data?
    private var capturedError: Data?

    /// Runs `body` holding the lock (NSLock's `withLock` needs macOS 14).
    private func locked<Result>(_ body: () -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    /// The process's standard output and error.
    package init() {
        out = FileHandle.standardOutput
        outputIsTerminal = isatty(STDOUT_FILENO) == 1
        errorIsTerminal = isatty(STDERR_FILENO) == 1
        colors = outputIsTerminal && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
    }

    /// A terminal that keeps what is written (for tests); standard output is not a terminal,
    /// standard error is one when `errorIsTerminal` (progress bars are drawn).
    package init(capturing: Bool, errorIsTerminal: Bool = false) {
        out = FileHandle.standardOutput
        outputIsTerminal = false
        self.errorIsTerminal = errorIsTerminal
        colors = false
        captured = Data()
        capturedError = Data()
    }

    /// What was written to standard output and standard error while capturing.
    package var capturedText: (output: String, error: String) {
        locked {
            (
                String(decoding: captured ?? Data(), as: UTF8.self),
                String(decoding: capturedError ?? Data(), as: UTF8.self)
            )
        }
    }

    /// Sends the reply to `path` (replaced) instead of standard output.
    ///
    /// - Throws: ``CLIError/failure(_:)`` when the file cannot be created.
    package func redirect(to path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else { throw CLIError.failure("cannot write \(path)") }
        locked { outputFile = handle }
    }

    /// Writes reply bytes.
    package func write(_ data: Data) {
        locked {
            if captured != nil, outputFile == nil {
                captured!.append(data)
                return
            }
            (outputFile ?? out).write(data)
        }
    }

    /// Writes a line of reply text.
    package func line(_ text: String) { write(Data((text + "\n").utf8)) }

    /// Writes a message line on standard error.
    package func error(_ text: String) {
        let data = Data((text + "\n").utf8)
        locked {
            if capturedError != nil {
                capturedError!.append(data)
                return
            }
            FileHandle.standardError.write(data)
        }
    }

    /// Writes on standard error without a newline (a progress bar's redraw).
    func errorRaw(_ text: String) {
        locked {
            if capturedError != nil {
                capturedError!.append(Data(text.utf8))
            } else {
                FileHandle.standardError.write(Data(text.utf8))
            }
        }
    }

    /// Closes `--output`'s file.
    package func finish() {
        locked {
            try? outputFile?.close()
            outputFile = nil
        }
    }
}

/// A progress bar on standard error, redrawn at most ten times a second, only on a terminal.
final class ProgressBar: @unchecked Sendable {
    private let terminal: Terminal
    private let label: String
    private let lock = NSLock()
    private var lastDraw = ContinuousClock.now - .seconds(1)
    private var drawn = false

    /// Runs `body` holding the lock (NSLock's `withLock` needs macOS 14).
    private func locked<Result>(_ body: () -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    init(terminal: Terminal, label: String) {
        self.terminal = terminal
        self.label = label
    }

    func update(_ done: Int64, _ total: Int64?) {
        guard terminal.errorIsTerminal else { return }
        let now = ContinuousClock.now
        let finished = total.map { done >= $0 } ?? false
        let text: String? = locked {
            guard finished || now - lastDraw >= .milliseconds(100) else { return nil }
            lastDraw = now
            drawn = true
            let width = 30
            guard let total, total > 0 else {
                return "\r\(label) \(Self.bytes(done))\u{1B}[K"
            }
            let fraction = min(1, Double(done) / Double(total))
            let filled = Int(fraction * Double(width))
            let bar = String(repeating: "=", count: filled) + String(repeating: " ", count: width - filled)
            return "\r\(label) [\(bar)] \(Int(fraction * 100))% \(Self.bytes(done)) / \(Self.bytes(total))\u{1B}[K"
        }
        if let text { terminal.errorRaw(text) }
    }

    /// Ends the bar's line.
    func end() {
        let wasDrawn = locked { drawn }
        if wasDrawn { terminal.errorRaw("\n") }
    }

    /// `1.2 MB`, `512 B`: decimal units.
    static func bytes(_ count: Int64) -> String {
        let units = ["B", "kB", "MB", "GB", "TB"]
        var value = Double(count)
        var unit = 0
        while value >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return unit == 0 ? "\(count) B" : String(format: "%.1f", value) + " " + units[unit]
    }
}

/// Prints JSON replies in the chosen format, through the transform.
struct ReplyPrinter {
    var format: OutputFormat
    var transform: Transform?
    var terminal: Terminal

    /// The format `auto` stands for here.
    var effectiveFormat: OutputFormat {
        format == .auto ? (terminal.outputIsTerminal ? .pretty : .json) : format
    }

    /// Prints one value (a reply, or one event of a stream as one line).
    func print(_ value: JSON, oneLine: Bool = false) {
        guard let picked = transform.map({ $0.apply(value) }) ?? value else { return }
        switch effectiveFormat {
        case .jsonl, .raw: terminal.line(picked.compact)
        case _ where oneLine: terminal.line(picked.compact)
        case .yaml: terminal.line(YAMLText.print(picked))
        case .pretty: terminal.line(picked.pretty(colors: terminal.colors))
        case .json, .auto: terminal.line(picked.pretty())
        }
    }

    /// Prints a stream event as YAML documents (`---` between), else as one JSON line.
    func printEvent(_ value: JSON) {
        if effectiveFormat == .yaml {
            guard let picked = transform.map({ $0.apply(value) }) ?? value else { return }
            terminal.line("---\n" + YAMLText.print(picked))
        } else {
            print(value, oneLine: true)
        }
    }
}
