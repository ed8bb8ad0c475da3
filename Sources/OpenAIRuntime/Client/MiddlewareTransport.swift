import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

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
