import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The head of an HTTP reply as a middleware sees it: ``HTTPResponse`` (a reply read whole) or
/// ``HTTPStreamingResponse`` (a reply whose body is still arriving).
public protocol HTTPReplyHead: Sendable {
    /// The status code.
    var statusCode: Int { get set }
    /// The header fields; compare names without regard to case (RFC 9110 section 5.1).
    var headers: [String: String] { get set }
}

extension HTTPResponse: HTTPReplyHead {}
extension HTTPStreamingResponse: HTTPReplyHead {}

/// A request/response interceptor around the transport: tracing, metrics, custom
/// authentication, request signing.
///
/// Middlewares run in the order of ``OpenAIClient/Configuration/middlewares`` (the first is the
/// outermost) once per attempt, inside the retry loop: each sees the request with the SDK's
/// headers and credential set, and may change it, call `next` (the rest of the chain, then the
/// transport) zero or more times, and change or replace the reply. A reply returned without
/// calling `next` is used as it is (build an ``HTTPResponse`` or ``HTTPStreamingResponse`` and
/// return it `as? Reply`); a thrown error fails the attempt (an ``OpenAIError`` keeps its kind,
/// so it may be retried; any other error ends the request). Calling `next` a second time sends
/// the body again, which fails for a one-shot stream body (``HTTPBody/isReplayable``).
///
/// One method serves buffered and streamed replies: it is generic over the reply, so a
/// middleware cannot forget one of the two.
///
/// ```swift
/// struct Timing: HTTPMiddleware {
///     func intercept<Reply: HTTPReplyHead>(
///         _ request: HTTPRequest, timeouts: HTTPTimeouts,
///         next: (HTTPRequest, HTTPTimeouts) async throws -> Reply
///     ) async throws -> Reply {
///         let start = ContinuousClock.now
///         let reply = try await next(request, timeouts)
///         print(request.method, reply.statusCode, ContinuousClock.now - start)
///         return reply
///     }
/// }
/// ```
public protocol HTTPMiddleware: Sendable {
    /// Handles one attempt.
    ///
    /// - Parameters:
    ///   - request: The attempt's request, credential included (do not log it; see
    ///     ``HTTPRequest/description``, which redacts it).
    ///   - timeouts: The attempt's limits, in seconds.
    ///   - next: Sends a request through the rest of the chain and the transport.
    /// - Returns: The reply: a buffered one for a buffered request, a streamed one for a stream.
    /// - Throws: What `next` throws, or the middleware's own error.
    func intercept<Reply: HTTPReplyHead>(
        _ request: HTTPRequest, timeouts: HTTPTimeouts,
        next: (HTTPRequest, HTTPTimeouts) async throws -> Reply
    ) async throws -> Reply
}

/// The transport with the configuration's middlewares around it.
struct MiddlewareTransport: HTTPTransport {
    let base: any HTTPTransport
    let middlewares: [any HTTPMiddleware]

    func send(_ request: HTTPRequest, timeouts: HTTPTimeouts) async throws -> HTTPResponse {
        try await run(from: 0, request, timeouts) { try await base.send($0, timeouts: $1) }
    }

    func stream(_ request: HTTPRequest, timeouts: HTTPTimeouts) async throws -> HTTPStreamingResponse {
        try await run(from: 0, request, timeouts) { try await base.stream($0, timeouts: $1) }
    }

    private func run<Reply: HTTPReplyHead>(
        from index: Int, _ request: HTTPRequest, _ timeouts: HTTPTimeouts,
        _ terminal: (HTTPRequest, HTTPTimeouts) async throws -> Reply
    ) async throws -> Reply {
        guard index < middlewares.count else { return try await terminal(request, timeouts) }
        return try await middlewares[index].intercept(request, timeouts: timeouts) { request, timeouts in
            try await run(from: index + 1, request, timeouts, terminal)
        }
    }
}
