import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

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
