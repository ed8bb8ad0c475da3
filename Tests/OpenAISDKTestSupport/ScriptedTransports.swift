import Foundation

@testable import OpenAIRuntime

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A retry sleeper that records the delays asked for and returns at once (or, when `real` is
/// set, sleeps for real so cancellation can be tested).
package final class RecordingSleeper: RetrySleeper, Sendable {
    private let recorded = Locked<[TimeInterval]>([])
    private let real: Bool

    package init(real: Bool = false) { self.real = real }

    package var delays: [TimeInterval] { recorded.withLock { $0 } }

    package func sleep(seconds: TimeInterval) async throws {
        recorded.withLock { $0.append(seconds) }
        if real { try await TaskSleeper().sleep(seconds: seconds) } else { try Task.checkCancellation() }
    }
}

/// A retry sleeper that does not sleep.
package struct NoSleep: RetrySleeper {
    package init() {}

    package func sleep(seconds: TimeInterval) async throws {}
}

/// A transport that answers from a closure and records the requests it was given.
package final class ScriptedTransport: HTTPTransport, Sendable {
    private let sent = Locked<[HTTPRequest]>([])
    private let reply: @Sendable (HTTPRequest, Int) throws -> HTTPResponse

    package init(reply: @escaping @Sendable (HTTPRequest, Int) throws -> HTTPResponse) { self.reply = reply }

    package var requests: [HTTPRequest] { sent.withLock { $0 } }

    package func send(_ request: HTTPRequest, timeouts: HTTPTimeouts) async throws -> HTTPResponse {
        let index = sent.withLock { sent in
            sent.append(request)
            return sent.count - 1
        }
        return try reply(request, index)
    }
}

/// A transport that answers streaming requests from a script, records what it was sent, and
/// records when a body stream was terminated (consumer finished, dropped it, or was cancelled).
package final class ScriptedStreamTransport: HTTPTransport, Sendable {
    /// One scripted answer.
    package enum Reply: Sendable {
        /// A reply head and its body chunks; with `hold`, the body never ends by itself.
        case stream(status: Int, headers: [String: String], chunks: [Data], hold: Bool)
        /// The attempt fails with this error.
        case failure(OpenAIError)
    }

    private struct State {
        var replies: [Reply]
        var requests: [HTTPRequest] = []
        var terminations: [AsyncThrowingStream<Data, any Error>.Continuation.Termination] = []
    }

    private let state: Locked<State>

    package init(_ replies: [Reply]) {
        state = Locked(State(replies: replies))
    }

    /// Replies with `body` (split into chunks of `chunkSize` bytes) and status 200.
    package convenience init(
        body: Data, chunkSize: Int = 4096, headers: [String: String] = ["x-request-id": "req_test"]
    ) {
        self.init([.stream(status: 200, headers: headers, chunks: Self.split(body, chunkSize), hold: false)])
    }

    package static func split(_ body: Data, _ size: Int) -> [Data] {
        stride(from: 0, to: body.count, by: max(1, size)).map { body.subdata(in: $0..<min($0 + size, body.count)) }
    }

    package var requests: [HTTPRequest] { state.withLock { $0.requests } }
    package var terminations: [AsyncThrowingStream<Data, any Error>.Continuation.Termination] {
        state.withLock { $0.terminations }
    }

    package func send(_ request: HTTPRequest, timeouts: HTTPTimeouts) async throws -> HTTPResponse {
        throw OpenAIError(kind: .connection, message: "ScriptedStreamTransport only streams")
    }

    package func stream(_ request: HTTPRequest, timeouts: HTTPTimeouts) async throws -> HTTPStreamingResponse {
        let reply: Reply = state.withLock { state in
            state.requests.append(request)
            return state.replies.count > 1 ? state.replies.removeFirst() : state.replies[0]
        }
        switch reply {
        case .failure(let error):
            throw error
        case .stream(let status, let headers, let chunks, let hold):
            let body = AsyncThrowingStream<Data, any Error> { continuation in
                continuation.onTermination = { [weak self] termination in
                    self?.state.withLock { $0.terminations.append(termination) }
                }
                for chunk in chunks { continuation.yield(chunk) }
                if !hold { continuation.finish() }
            }
            return HTTPStreamingResponse(statusCode: status, headers: headers, body: body)
        }
    }
}
