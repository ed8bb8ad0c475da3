import Foundation
import XCTest

@testable import OpenAI
@testable import OpenAIRuntime

/// A retry sleeper that records the delays asked for and returns at once (or, when `real` is
/// set, sleeps for real so cancellation can be tested).
final class RecordingSleeper: RetrySleeper, @unchecked Sendable {
    // `@unchecked Sendable`: `lock` guards `delays`.
    private let lock = NSLock()
    private var recorded: [TimeInterval] = []
    private let real: Bool

    init(real: Bool = false) { self.real = real }

    var delays: [TimeInterval] {
        lock.lock()
        defer { lock.unlock() }
        return recorded
    }

    func sleep(seconds: TimeInterval) async throws {
        lock.withLock { recorded.append(seconds) }
        if real { try await TaskSleeper().sleep(seconds: seconds) } else { try Task.checkCancellation() }
    }
}

/// A transport that answers from a closure and records the requests it was given.
final class ScriptedTransport: HTTPTransport, @unchecked Sendable {
    // `@unchecked Sendable`: `lock` guards `sent`.
    private let lock = NSLock()
    private var sent: [HTTPRequest] = []
    private let reply: @Sendable (HTTPRequest, Int) throws -> HTTPResponse

    init(reply: @escaping @Sendable (HTTPRequest, Int) throws -> HTTPResponse) { self.reply = reply }

    var requests: [HTTPRequest] {
        lock.lock()
        defer { lock.unlock() }
        return sent
    }

    func send(_ request: HTTPRequest, timeouts: HTTPTimeouts) async throws -> HTTPResponse {
        let index = lock.withLock {
            sent.append(request)
            return sent.count - 1
        }
        return try reply(request, index)
    }
}
