import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One HTTP request as the transport sends it.
///
/// Its descriptions and its mirror (`dump`) redact the credential headers (`Authorization`,
/// `api-key`).
public struct HTTPRequest: Sendable {
    /// The HTTP method, e.g. `"POST"`.
    public var method: String
    /// The absolute URL, query included.
    public var url: URL
    /// Header fields, by name as sent.
    public var headers: [String: String]
    /// The body, or `nil` for none.
    public var body: HTTPBody?
    /// Called as the body is sent with the bytes sent so far and the total, when known.
    public var uploadProgress: (@Sendable (_ bytesSent: Int64, _ totalBytes: Int64?) -> Void)?

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - url: The absolute URL.
    ///   - headers: Header fields.
    ///   - body: The body, or `nil` for none.
    ///   - uploadProgress: Called with bytes sent and total bytes as the body goes out.
    public init(
        method: String, url: URL, headers: [String: String] = [:], body: HTTPBody? = nil,
        uploadProgress: (@Sendable (_ bytesSent: Int64, _ totalBytes: Int64?) -> Void)? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.uploadProgress = uploadProgress
    }

    /// The value of the header field `name`, compared without regard to case.
    ///
    /// - Parameter name: The field name.
    /// - Returns: The value, or `nil` when absent.
    public func value(forHeader name: String) -> String? {
        HTTPHeaders.value(name, in: headers)
    }
}

extension HTTPRequest: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The method, URL and headers with credentials redacted.
    public var description: String {
        "\(method) \(Redaction.url(url)) \(HTTPHeaders.redacted(headers))"
    }

    /// Same as ``description``.
    public var debugDescription: String { description }

    /// A mirror that shows the headers with credentials redacted.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "method": method, "url": Redaction.url(url), "headers": HTTPHeaders.redacted(headers),
                "bodyLength": body?.length as Any,
            ])
    }
}

/// One HTTP response as the transport received it, its body read whole.
public struct HTTPResponse: Sendable {
    /// The status code, e.g. `200`.
    public var statusCode: Int
    /// Header fields; look them up with ``value(forHeader:)``, which ignores case.
    public var headers: [String: String]
    /// The body bytes.
    public var body: Data

    /// Creates a response.
    ///
    /// - Parameters:
    ///   - statusCode: The status code.
    ///   - headers: Header fields.
    ///   - body: The body bytes.
    public init(statusCode: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
    }

    /// The value of the header field `name`, compared without regard to case (RFC 9110 section 5.1).
    ///
    /// - Parameter name: The field name.
    /// - Returns: The value, or `nil` when absent.
    public func value(forHeader name: String) -> String? {
        HTTPHeaders.value(name, in: headers)
    }
}

extension HTTPResponse: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The status, the headers with credentials (`Set-Cookie`, ...) redacted and the body's size.
    public var description: String {
        "HTTP \(statusCode) \(HTTPHeaders.redacted(headers)) (\(body.count) bytes)"
    }

    /// Same as ``description``.
    public var debugDescription: String { description }

    /// A mirror that shows the headers with credentials redacted and the body's size.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: ["statusCode": statusCode, "headers": HTTPHeaders.redacted(headers), "bodyBytes": body.count])
    }
}

extension HTTPStreamingResponse: CustomStringConvertible, CustomReflectable {
    /// The status and the headers with credentials redacted.
    public var description: String { "HTTP \(statusCode) \(HTTPHeaders.redacted(headers)) (streamed)" }

    /// A mirror that shows the headers with credentials redacted.
    public var customMirror: Mirror {
        Mirror(self, children: ["statusCode": statusCode, "headers": HTTPHeaders.redacted(headers)])
    }
}

/// Sends HTTP requests for ``OpenAIClient``. Inject your own for tests, proxies or another HTTP stack.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the response, whatever its status.
    ///
    /// A transport should follow redirects as ``RedirectPolicy`` (see ``URLSessionTransport``)
    /// does: never send a credential or a body to another origin.
    ///
    /// - Parameters:
    ///   - request: The request to send.
    ///   - timeouts: The limits of this attempt: the whole reply within `request` seconds, no
    ///     `idle` gap without bytes, the connection within `connect` seconds.
    /// - Returns: The response with its whole body (a non-2xx reply's body may be cut to a few
    ///   KiB: only its start is kept in the error).
    /// - Throws: ``OpenAIError`` of kind ``OpenAIError/Kind/connection``,
    ///   ``OpenAIError/Kind/timeout`` or ``OpenAIError/Kind/cancelled``.
    func send(_ request: HTTPRequest, timeouts: HTTPTimeouts) async throws -> HTTPResponse

    /// Sends `request` and returns the response head as soon as it arrives, with the body as a
    /// sequence of chunks (server-sent events, large downloads).
    ///
    /// - Parameters:
    ///   - request: The request to send.
    ///   - timeouts: The limits of this attempt: the head within `request` seconds, then no
    ///     `idle` gap between two chunks; the connection within `connect` seconds.
    /// - Returns: The status, headers and a body stream; cancelling its consumer closes the
    ///   connection.
    /// - Throws: As ``send(_:timeouts:)``.
    func stream(_ request: HTTPRequest, timeouts: HTTPTimeouts) async throws -> HTTPStreamingResponse
}

/// A response whose body arrives in chunks.
public struct HTTPStreamingResponse: Sendable {
    /// The status code.
    public var statusCode: Int
    /// Header fields.
    public var headers: [String: String]
    /// The body, chunk by chunk as received; it throws ``OpenAIError`` when the connection fails.
    public var body: AsyncThrowingStream<Data, any Swift.Error>
    /// Closes the connection from any task, so that a pending read of ``body`` ends at once
    /// (``OpenAIStream/close()``); `nil` when the transport has no such handle.
    public var close: (@Sendable () -> Void)?

    /// Creates a streaming response.
    ///
    /// - Parameters:
    ///   - statusCode: The status code.
    ///   - headers: Header fields.
    ///   - body: The body chunks.
    ///   - close: Closes the connection from any task.
    public init(
        statusCode: Int, headers: [String: String], body: AsyncThrowingStream<Data, any Swift.Error>,
        close: (@Sendable () -> Void)? = nil
    ) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
        self.close = close
    }

    /// The value of the header field `name`, compared without regard to case.
    ///
    /// - Parameter name: The field name.
    /// - Returns: The value, or `nil` when absent.
    public func value(forHeader name: String) -> String? {
        HTTPHeaders.value(name, in: headers)
    }
}

extension HTTPTransport {
    /// A default for transports that only buffer: the whole body arrives as one chunk.
    ///
    /// - Parameters:
    ///   - request: The request to send.
    ///   - timeouts: The limits of this attempt.
    /// - Returns: The response, its body as a single chunk.
    /// - Throws: As ``send(_:timeouts:)``.
    public func stream(_ request: HTTPRequest, timeouts: HTTPTimeouts) async throws -> HTTPStreamingResponse {
        let response = try await send(request, timeouts: timeouts)
        return HTTPStreamingResponse(
            statusCode: response.statusCode, headers: response.headers,
            body: AsyncThrowingStream { continuation in
                continuation.yield(response.body)
                continuation.finish()
            })
    }
}

/// Header-field helpers shared by requests, responses and errors.
enum HTTPHeaders {
    /// Header names (lowercased) whose values are credentials and never printed: the one
    /// redaction list of descriptions, mirrors, errors and logs.
    static let credentialNames: Set<String> = [
        "authorization", "api-key", "x-api-key", "proxy-authorization", "cookie", "set-cookie",
        "x-amz-security-token",
    ]

    /// Header names (lowercased) never sent to another origin on a redirect: the credentials and
    /// the organization and project they are scoped to.
    static let crossOriginStripped: Set<String> = credentialNames.union(["openai-organization", "openai-project"])

    static func value(_ name: String, in headers: [String: String]) -> String? {
        if let value = headers[name] { return value }
        let lowered = name.lowercased()
        return headers.first { $0.key.lowercased() == lowered }?.value
    }

    /// `headers` with credential values replaced by `<redacted>` (``Redaction/headers(_:)``).
    static func redacted(_ headers: [String: String]) -> [String: String] {
        Redaction.headers(headers)
    }
}
