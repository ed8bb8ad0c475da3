import Foundation

/// The HTTP head of a reply: what ``OpenAIClient/withRawResponse(isolation:_:)`` returns beside the
/// decoded value.
public struct RawResponse: Sendable, Hashable {
    /// The status code of the last attempt.
    public var statusCode: Int
    /// The reply's header fields.
    public var headers: [String: String]
    /// How many attempts were made (1 without retries).
    public var attempts: Int
    /// The body of a 2xx reply that the operation's method does not return, because the spec
    /// declares none (`DELETE /responses/{id}` answers `{"id": …, "object": "response.deleted",
    /// "deleted": true}`); `nil` for every other reply.
    public var unreturnedBody: Data?

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
            self,
            children: [
                "statusCode": statusCode, "headers": HTTPHeaders.redacted(headers), "attempts": attempts,
                "unreturnedBody": unreturnedBody.map { "\($0.count) bytes" } as Any,
            ])
    }
}
