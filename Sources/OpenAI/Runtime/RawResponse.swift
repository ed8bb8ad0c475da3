import Foundation

/// The HTTP head of a reply: what ``OpenAIClient/withRawResponse(_:)`` returns beside the
/// decoded value.
public struct RawResponse: Sendable, Hashable {
    /// The status code of the last attempt.
    public var statusCode: Int
    /// The reply's header fields.
    public var headers: [String: String]
    /// How many attempts were made (1 without retries).
    public var attempts: Int

    /// Creates a raw response.
    ///
    /// - Parameters:
    ///   - statusCode: The status code.
    ///   - headers: The header fields.
    ///   - attempts: The number of attempts made.
    public init(statusCode: Int, headers: [String: String], attempts: Int) {
        self.statusCode = statusCode
        self.headers = headers
        self.attempts = attempts
    }

    /// The `x-request-id` header: quote it when asking OpenAI about a request.
    public var requestID: String? { value(forHeader: "x-request-id") }

    /// The value of the header field `name`, compared without regard to case.
    ///
    /// - Parameter name: The field name.
    /// - Returns: The value, or `nil` when absent.
    public func value(forHeader name: String) -> String? {
        HTTPHeaders.value(name, in: headers)
    }
}

/// The result of ``OpenAIClient/download(to:_:)``.
public struct DownloadResult: Sendable, Hashable {
    /// The file the body was written to.
    public var fileURL: URL
    /// The number of bytes written.
    public var byteCount: Int64
    /// The reply's status and headers.
    public var response: RawResponse?
}

/// Task-local state that the runtime reads while a call runs.
enum RequestContext {
    /// Where ``OpenAIClient/withRawResponse(_:)`` collects reply heads.
    @TaskLocal static var recorder: RawResponseRecorder?
    /// Where ``OpenAIClient/download(to:_:)`` sends a binary body.
    @TaskLocal static var download: DownloadTarget?
}

/// Keeps the head of the last reply of a call.
/// `@unchecked Sendable`: `lock` guards `last`.
final class RawResponseRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var last: RawResponse?

    func record(_ response: RawResponse) {
        lock.lock()
        last = response
        lock.unlock()
    }

    var response: RawResponse? {
        lock.lock()
        defer { lock.unlock() }
        return last
    }
}

/// The destination of a download and the bytes written to it.
/// `@unchecked Sendable`: `lock` guards `written`.
final class DownloadTarget: @unchecked Sendable {
    let destination: URL
    private let lock = NSLock()
    private var written: Int64?

    init(destination: URL) { self.destination = destination }

    func record(_ count: Int64) {
        lock.lock()
        written = count
        lock.unlock()
    }

    var byteCount: Int64? {
        lock.lock()
        defer { lock.unlock() }
        return written
    }
}

extension OpenAIClient {
    /// Runs `call` and returns its value with the HTTP head (status, headers, request id,
    /// attempts) of the last reply it received; generated methods need no change.
    ///
    /// ```swift
    /// let (models, raw) = try await client.withRawResponse { try await client.models.list() }
    /// print(raw.statusCode, raw.requestID ?? "-")
    /// ```
    ///
    /// - Parameter call: One SDK call (or several: the last reply is kept).
    /// - Returns: The call's value and the reply head.
    /// - Throws: What `call` throws; ``OpenAIError`` of kind ``OpenAIError/Kind/invalidRequest``
    ///   when `call` made no request.
    public func withRawResponse<Value>(
        isolation: isolated (any Actor)? = #isolation, _ call: () async throws -> Value
    ) async throws -> (value: Value, response: RawResponse) {
        let recorder = RawResponseRecorder()
        let value = try await RequestContext.$recorder.withValue(recorder) { try await call() }
        guard let response = recorder.response else {
            throw OpenAIError(kind: .invalidRequest, message: "withRawResponse: the call sent no request.")
        }
        return (value, response)
    }

    /// Runs `call`, one binary-reply operation (speech, file content, video content, skill
    /// archive), streaming its body to the file at `destination` without holding it in memory.
    ///
    /// ```swift
    /// let result = try await client.download(to: fileURL) {
    ///     try await client.files.content(fileID: "file-abc")
    /// }
    /// ```
    ///
    /// The operation's own return value is empty inside `call`. The file is replaced; it is
    /// removed when the transfer fails midway. A failed attempt before the body starts is retried
    /// as usual.
    ///
    /// - Parameters:
    ///   - destination: A file URL.
    ///   - call: Calls one operation that returns `Data`.
    /// - Returns: The file URL, the number of bytes written and the reply head.
    /// - Throws: What the operation throws (``OpenAIError``), the file-system error when
    ///   `destination` cannot be written, or ``OpenAIError`` of kind
    ///   ``OpenAIError/Kind/invalidRequest`` when `call` downloaded nothing.
    public func download(
        to destination: URL, isolation: isolated (any Actor)? = #isolation, _ call: () async throws -> Data
    ) async throws -> DownloadResult {
        let target = DownloadTarget(destination: destination)
        let recorder = RawResponseRecorder()
        _ = try await RequestContext.$recorder.withValue(recorder) {
            try await RequestContext.$download.withValue(target) { try await call() }
        }
        guard let count = target.byteCount else {
            throw OpenAIError(kind: .invalidRequest, message: "download(to:): the call is not a binary download.")
        }
        return DownloadResult(fileURL: destination, byteCount: count, response: recorder.response)
    }
}
