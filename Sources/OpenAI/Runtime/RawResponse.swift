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

/// Keeps the head of the last reply of a call, and for ``OpenAIClient/withUndecodedResponse(_:)``
/// the first 2xx JSON reply, undecoded.
/// `@unchecked Sendable`: `lock` guards `last` and `deferred`.
final class RawResponseRecorder: @unchecked Sendable {
    /// Whether the first JSON reply is kept undecoded and the call stopped there.
    let defersDecoding: Bool
    private let lock = NSLock()
    private var last: RawResponse?
    private var deferred: UndecodedReply?

    init(defersDecoding: Bool = false) {
        self.defersDecoding = defersDecoding
    }

    func record(_ response: RawResponse) {
        lock.lock()
        last = response
        lock.unlock()
    }

    /// Keeps `reply` (the first one only); returns whether it was kept.
    func keep(_ reply: UndecodedReply) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard deferred == nil else { return false }
        deferred = reply
        return true
    }

    var response: RawResponse? {
        lock.lock()
        defer { lock.unlock() }
        return last
    }

    var undecoded: UndecodedReply? {
        lock.lock()
        defer { lock.unlock() }
        return deferred
    }
}

/// A 2xx JSON reply kept undecoded, with what decoding it needs.
struct UndecodedReply: Sendable {
    var response: HTTPResponse
    var head: RawResponse
    var decodingMode: DecodingMode
    var defaultedBodyMembers: Set<String>
}

/// Thrown by `send` once the reply is kept, to end the call without decoding.
struct DecodingDeferred: Error {}

/// A 2xx reply of a JSON operation, not decoded yet: its head, its body bytes and the decode the
/// SDK would have done (openai-python's `with_raw_response` and `.parse()`).
///
/// ```swift
/// let reply = try await client.withUndecodedResponse { try await client.models.list() }
/// print(reply.response.requestID ?? "-", reply.body.count)
/// let models = try reply.decode()
/// ```
public struct UndecodedResponse<Value: Decodable>: Sendable {
    /// The reply's status, headers (``RawResponse/requestID``) and attempts.
    public let response: RawResponse
    /// The reply's body, as it arrived.
    public let body: Data
    private let reply: UndecodedReply

    init(_ reply: UndecodedReply) {
        self.reply = reply
        response = reply.head
        body = reply.response.body
    }

    /// Decodes the body as the call would have: with the client's ``DecodingMode``, and a text
    /// reply (`text/plain`) as a string where the type takes one.
    ///
    /// - Returns: The value.
    /// - Throws: ``OpenAIError`` of kind ``OpenAIError/Kind/decoding`` with the field path and the
    ///   body's start.
    public func decode() throws -> Value {
        try decode(as: Value.self)
    }

    /// Decodes the body as another type (a subset of the members, your own type).
    ///
    /// - Parameter type: The type to decode.
    /// - Returns: The value.
    /// - Throws: ``OpenAIError`` of kind ``OpenAIError/Kind/decoding``.
    public func decode<Other: Decodable>(as type: Other.Type) throws -> Other {
        try OpenAIClient.decodeReply(
            Other.self, from: reply.response, mode: reply.decodingMode, defaultedMembers: reply.defaultedBodyMembers)
    }
}

extension OpenAIClient {
    /// Runs `call` and returns its value with the HTTP head (status, headers, request id,
    /// attempts) of the last reply it received; generated methods need no change.
    ///
    /// This is how the request id of any reply is read: decoded values carry no request id
    /// themselves (openai-python's `_request_id`), since a member on every generated type would
    /// make it part of their equality and cost compile time on hundreds of types. An error's
    /// ``OpenAIError/requestID`` has it too. For the body bytes, see ``withUndecodedResponse(_:)``.
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

extension OpenAIClient {
    /// Runs `call` up to its first 2xx reply and returns that reply undecoded, with its head and
    /// body bytes; ``UndecodedResponse/decode()`` decodes it later, as the call would have.
    ///
    /// The call stops once that reply has arrived: `call` should be one SDK method that returns a
    /// JSON reply, and `Value` that method's own return type (`{ try await client.models.list() }`,
    /// not `{ try await client.models.list().data }`, whose `decode()` would fail at run time).
    /// For a helper that sends several requests, only the first is made.
    ///
    /// - Parameter call: The call, e.g. `{ try await client.models.list() }`.
    /// - Returns: The undecoded reply.
    /// - Throws: What `call` throws before the reply (``OpenAIError`` for a non-2xx reply after
    ///   retries); ``OpenAIError`` of kind ``OpenAIError/Kind/invalidRequest`` when `call`
    ///   returned without a JSON reply (a binary download, no request).
    public func withUndecodedResponse<Value: Decodable>(
        isolation: isolated (any Actor)? = #isolation, _ call: () async throws -> Value
    ) async throws -> UndecodedResponse<Value> {
        let recorder = RawResponseRecorder(defersDecoding: true)
        do {
            _ = try await RequestContext.$recorder.withValue(recorder) { try await call() }
        } catch is DecodingDeferred {
        } catch {
            // A helper that turned the signal into its own error still made the request.
            if let reply = recorder.undecoded { return UndecodedResponse(reply) }
            throw error
        }
        guard let reply = recorder.undecoded else {
            throw OpenAIError(
                kind: .invalidRequest, message: "withUndecodedResponse: the call received no JSON reply.")
        }
        return UndecodedResponse(reply)
    }
}
