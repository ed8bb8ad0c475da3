import Foundation

/// Opt-in logging of the requests a client sends, without a logging package: a level and a
/// closure that receives each entry (hand it to `os.Logger`, swift-log or `print`).
///
/// Set it as ``OpenAIClient/Configuration/logger``, or with `OPENAI_LOG` (`debug`, `info`,
/// `warn`, `error`, `off`, as openai-node reads it) for a logger that writes to standard error.
///
/// What is logged, per level:
/// - ``Level/error``: a request that failed for good (its error kind and message).
/// - ``Level/warning``: an attempt that will be retried, and the delay before the retry.
/// - ``Level/info``: the successful attempt's reply: method, URL, status, request id, attempt
///   number, duration in seconds.
/// - ``Level/debug``: also the request's and the reply's header fields.
///
/// No entry holds a credential: header values pass through the one redaction list
/// (`HTTPHeaders.credentialNames`), and URLs through `Redaction.url(_:)`. Bodies are never
/// logged.
public struct OpenAILogger: Sendable {
    /// How much is logged; each level includes the ones below it in this list.
    public enum Level: Int, Sendable, Comparable, CaseIterable {
        /// Header fields as well as what ``info`` logs.
        case debug
        /// The successful attempt's reply, as well as what ``warning`` logs.
        case info
        /// Retries, as well as what ``error`` logs.
        case warning
        /// Requests that failed for good.
        case error

        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }

        /// The level for an `OPENAI_LOG` value (`debug`, `info`, `warn` or `warning`, `error`;
        /// case ignored), or `nil` for `off`, an empty value or anything else.
        ///
        /// - Parameter name: The variable's value.
        public init?(environmentValue name: String) {
            switch name.trimmingCharacters(in: .whitespaces).lowercased() {
            case "debug": self = .debug
            case "info": self = .info
            case "warn", "warning": self = .warning
            case "error": self = .error
            default: return nil
            }
        }
    }

    /// One log entry.
    public struct Entry: Sendable, CustomStringConvertible {
        /// The entry's level.
        public var level: Level
        /// The request method (`POST`).
        public var method: String
        /// The request URL, credential query items redacted.
        public var url: String
        /// The reply's status code, or `nil` when no reply arrived (a connection failure).
        public var statusCode: Int?
        /// The reply's `x-request-id`.
        public var requestID: String?
        /// The attempt, from 1.
        public var attempt: Int
        /// How long the attempt took, in seconds: until the reply arrived whole (a download: until
        /// its file was written), or for a stream until its head arrived.
        public var duration: TimeInterval
        /// What happened: `retrying in 0.5 s`, `failed: rateLimit: ...`; empty for a reply.
        public var message: String
        /// The request's header fields, redacted; only at ``Level/debug``.
        public var requestHeaders: [String: String]?
        /// The reply's header fields, redacted; only at ``Level/debug``.
        public var responseHeaders: [String: String]?

        /// One line: `[openai] info POST https://api.openai.com/v1/models 200 req_123 attempt 1 0.214 s`.
        public var description: String {
            var parts = ["[openai]", Self.names[level.rawValue], method, url]
            parts.append(statusCode.map(String.init) ?? "no reply")
            if let requestID { parts.append(requestID) }
            parts.append("attempt \(attempt)")
            parts.append(String(format: "%.3f s", duration))
            if !message.isEmpty { parts.append("- " + message) }
            var line = parts.joined(separator: " ")
            if let requestHeaders { line += "\n  request headers: \(requestHeaders.sorted { $0.key < $1.key })" }
            if let responseHeaders { line += "\n  response headers: \(responseHeaders.sorted { $0.key < $1.key })" }
            return line
        }

        private static let names = ["debug", "info", "warn", "error"]
    }

    /// The least severe level logged.
    public var level: Level
    /// Receives each entry at ``level`` or above; called on the task that sends the request.
    public var handler: @Sendable (Entry) -> Void

    /// Creates a logger.
    ///
    /// - Parameters:
    ///   - level: The least severe level logged.
    ///   - handler: Receives each entry.
    public init(level: Level, handler: @escaping @Sendable (Entry) -> Void) {
        self.level = level
        self.handler = handler
    }

    /// A logger that writes each entry as one line (two more at ``Level/debug``) to standard
    /// error.
    ///
    /// - Parameter level: The least severe level logged.
    /// - Returns: The logger.
    public static func standardError(level: Level) -> OpenAILogger {
        OpenAILogger(level: level) { entry in
            FileHandle.standardError.write(Data((entry.description + "\n").utf8))
        }
    }

    /// Whether entries of `level` are logged.
    func logs(_ level: Level) -> Bool { level >= self.level }
}
