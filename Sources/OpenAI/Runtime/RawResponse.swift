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

extension RawResponse: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The status, attempts and headers with credentials (`Set-Cookie`, ...) redacted.
    public var description: String {
        "HTTP \(statusCode) after \(attempts) attempt\(attempts == 1 ? "" : "s") \(HTTPHeaders.redacted(headers))"
    }

    /// Same as ``description``.
    public var debugDescription: String { description }

    /// A mirror that shows the headers with credentials redacted.
    public var customMirror: Mirror {
        Mirror(
            self, children: ["statusCode": statusCode, "headers": HTTPHeaders.redacted(headers), "attempts": attempts])
    }
}

/// The result of a download to a file: the `to:` variant of every operation that returns file
/// bytes (`client.files.content(fileID:to:)`, `client.audio.speech.create(_:to:)`, ...).
public struct DownloadResult: Sendable, Hashable {
    /// The file the body was written to.
    public var fileURL: URL
    /// The number of bytes written.
    public var byteCount: Int64
    /// The reply's status and headers, and how many attempts were made.
    public var response: RawResponse

    /// Creates a download result.
    ///
    /// - Parameters:
    ///   - fileURL: The file written.
    ///   - byteCount: The bytes written.
    ///   - response: The reply head.
    public init(fileURL: URL, byteCount: Int64, response: RawResponse) {
        self.fileURL = fileURL
        self.byteCount = byteCount
        self.response = response
    }
}

/// Task-local state that the runtime reads while a call runs.
enum RequestContext {
    /// Where ``OpenAIClient/withRawResponse(_:)`` collects reply heads.
    @TaskLocal static var recorder: RawResponseRecorder?
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
}
