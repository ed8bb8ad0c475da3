import Foundation
import XCTest
@testable import OpenAIRuntime

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

import OpenAISDKTestSupport

@testable import OpenAI

/// The three limits of ``HTTPTimeouts`` against the local test server trickling one byte every
/// 0.5 s, and a listener that never accepts: each limit, whole or fractional, means what its name
/// says.
final class TimeoutTests: XCTestCase {
    private var server: TestServer!

    override func setUpWithError() throws {
        server = try TestServer.shared()
    }

    private func client(
        _ scenario: String, headers: [String: String], request: TimeInterval, idle: TimeInterval,
        connect: TimeInterval = 10
    ) throws -> OpenAIClient {
        try server.client(
            maxRetries: 0, headers: headers.merging(["x-testserver-scenario": scenario]) { a, _ in a },
            configure: {
                $0.requestTimeout = request
                $0.idleTimeout = idle
                $0.connectTimeout = connect
            })
    }

    /// Runs `body` and returns its error and how long it took, in seconds.
    private func timed(_ body: () async throws -> Void) async -> (OpenAIError?, TimeInterval) {
        let start = Date()
        do {
            try await body()
            return (nil, Date().timeIntervalSince(start))
        } catch let error as OpenAIError {
            return (error, Date().timeIntervalSince(start))
        } catch {
            XCTFail("expected OpenAIError, got \(error)")
            return (nil, Date().timeIntervalSince(start))
        }
    }

    private let trickle = ["x-testserver-trickle-ms": "500"]

    func testAWholeNumberRequestTimeoutBoundsTheWholeReplyAlthoughBytesKeepArriving() async throws {
        // 2 s, a whole number: bytes arrive every 0.5 s, so an idle limit would never pass.
        let client = try client(TestServer.scenario(), headers: trickle, request: 2, idle: 30)
        let (error, elapsed) = await timed { _ = try await client.models.retrieve(model: "gpt-4o") }
        XCTAssertEqual(error?.kind, .timeout)
        XCTAssertTrue(error?.message.contains("request timeout of 2.0 s") ?? false, error?.message ?? "")
        XCTAssertEqual(elapsed, 2, accuracy: 0.6)
    }

    func testAFractionalRequestTimeoutBehavesAlike() async throws {
        let client = try client(TestServer.scenario(), headers: trickle, request: 1.5, idle: 30)
        let (error, elapsed) = await timed { _ = try await client.models.retrieve(model: "gpt-4o") }
        XCTAssertEqual(error?.kind, .timeout)
        XCTAssertTrue(error?.message.contains("request timeout of 1.5 s") ?? false, error?.message ?? "")
        XCTAssertEqual(elapsed, 1.5, accuracy: 0.6)
    }

    func testAnIdleTimeoutShorterThanTheGapsBetweenBytesEndsTheAttempt() async throws {
        let client = try client(TestServer.scenario(), headers: trickle, request: 30, idle: 0.3)
        let (error, elapsed) = await timed { _ = try await client.models.retrieve(model: "gpt-4o") }
        XCTAssertEqual(error?.kind, .timeout)
        XCTAssertTrue(error?.message.contains("idle timeout of 0.3 s") ?? false, error?.message ?? "")
        XCTAssertLessThan(elapsed, 1.5)
    }

    func testAnIdleTimeoutLongerThanTheGapsLetsASlowReplyComplete() async throws {
        // Six bytes 0.5 s apart (2.5 s in all), then the rest: each gap is within 1 s.
        let client = try client(
            TestServer.scenario(), headers: trickle.merging(["x-testserver-trickle-bytes": "6"]) { a, _ in a },
            request: 30, idle: 1)
        let (error, elapsed) = await timed {
            let model = try await client.models.retrieve(model: "gpt-4o")
            XCTAssertFalse(model.id.isEmpty)
        }
        XCTAssertNil(error)
        XCTAssertGreaterThan(elapsed, 2.2)
    }

    func testAStreamIsBoundedByTheRequestTimeoutOnlyUntilItsHeadThenByTheIdleTimeout() async throws {
        // Five frames 0.6 s apart: 2.4 s in all, longer than the 1 s request timeout.
        let headers = [
            "x-testserver-fixture": "chat-completions/stream/py-finish-reason-length.sse",
            "x-testserver-chunk-delay-ms": "600",
        ]
        let body: CreateChatCompletionRequest = try
            (["model": "gpt-4o", "messages": [["role": "user", "content": "x"]]]
            as JSONValue).decode()
        let slow = try client(TestServer.scenario(), headers: headers, request: 1, idle: 2)
        let (error, elapsed) = await timed {
            var count = 0
            for try await _ in try slow.chat.completions.createStream(body) { count += 1 }
            XCTAssertEqual(count, 4)
        }
        XCTAssertNil(error)
        XCTAssertGreaterThan(elapsed, 2)
        // The same stream with a 0.3 s idle limit ends at the first gap.
        let impatient = try client(TestServer.scenario(), headers: headers, request: 30, idle: 0.3)
        let (idleError, _) = await timed {
            for try await _ in try impatient.chat.completions.createStream(body) {}
        }
        XCTAssertEqual(idleError?.kind, .timeout)
        XCTAssertTrue(idleError?.message.contains("idle timeout") ?? false, idleError?.message ?? "")
    }

    func testAConnectTimeoutEndsAnAttemptToAListenerThatNeverAccepts() async throws {
        let listener = try BlackHoleListener()
        defer { listener.close() }
        var configuration = OpenAIClient.Configuration(
            apiKey: "sk-test", baseURL: URL(string: "http://127.0.0.1:\(listener.port)/v1")!, requestTimeout: 30,
            idleTimeout: 30, connectTimeout: 1, maxRetries: 0)
        let client = try OpenAIClient(configuration: configuration)
        let body: CreateEmbeddingRequest = try (["model": "text-embedding-3-small", "input": "x"] as JSONValue).decode()
        let (error, elapsed) = await timed { _ = try await client.embeddings.create(body) }
        XCTAssertEqual(error?.kind, .timeout)
        XCTAssertTrue(error?.message.contains("connect timeout of 1.0 s") ?? false, error?.message ?? "")
        XCTAssertEqual(elapsed, 1, accuracy: 0.6)
        // With a long connect limit, the request limit ends it, and says so.
        configuration.connectTimeout = 30
        configuration.requestTimeout = 1.2
        let patient = try OpenAIClient(configuration: configuration)
        let (requestError, _) = await timed { _ = try await patient.embeddings.create(body) }
        XCTAssertTrue(requestError?.message.contains("request timeout of 1.2 s") ?? false, requestError?.message ?? "")
    }

    func testPerRequestOptionsOverrideTheClientsLimits() async throws {
        let client = try client(TestServer.scenario(), headers: trickle, request: 30, idle: 30)
        let (error, elapsed) = await timed {
            _ = try await client.models.retrieve(model: "gpt-4o", options: RequestOptions(requestTimeout: 1))
        }
        XCTAssertTrue(error?.message.contains("request timeout of 1.0 s") ?? false, error?.message ?? "")
        XCTAssertEqual(elapsed, 1, accuracy: 0.6)
    }
}

/// A TCP listener whose accept queue is full, so a new connection is never established: the
/// kernel drops its SYN (Linux, `tcp_abort_on_overflow` 0) and the client waits.
final class BlackHoleListener {
    let port: Int
    private var descriptors: [Int32] = []

    init() throws {
        let listener = socket(AF_INET, POSIX.streamSocket, 0)
        guard listener >= 0 else { throw Unavailable.skip("cannot create a socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Bool in
                bind(listener, pointer, length) == 0 && listen(listener, 0) == 0
                    && getsockname(listener, pointer, &length) == 0
            }
        }
        guard bound else { throw Unavailable.skip("cannot open a loopback listener") }
        port = Int(UInt16(bigEndian: address.sin_port))
        descriptors.append(listener)
        // Fill the accept queue (backlog 0 holds one connection; a few more to be sure).
        for _ in 0..<4 {
            let client = socket(AF_INET, POSIX.streamSocket, 0)
            _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
            var target = address
            _ = withUnsafePointer(to: &target) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            descriptors.append(client)
        }
        Thread.sleep(forTimeInterval: 0.1)
    }

    func close() {
        for descriptor in descriptors { POSIX.close(descriptor) }
        descriptors = []
    }
}
