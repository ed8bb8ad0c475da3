import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends HTTP requests for ``OpenAIClient``. Inject your own for tests, proxies or another HTTP stack.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the response, whatever its status.
    ///
    /// A transport should follow redirects as `RedirectPolicy` (see ``URLSessionTransport``)
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
