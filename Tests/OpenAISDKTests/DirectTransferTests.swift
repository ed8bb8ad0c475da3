import Foundation
import OpenAISDKTestSupport
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@testable import OpenAI
@testable import OpenAIRuntime

#if os(Linux)
    /// Requests with a buffered reply through ``URLSessionTransport`` on Linux go through libcurl
    /// directly, on kept connections (`CurlPool`), against the local test server.
    final class DirectTransferTests: XCTestCase {
        private var server: TestServer!

        override func setUpWithError() throws {
            server = try TestServer.shared()
        }

        func testRequestsOneAfterAnotherUseOneConnection() async throws {
            let scenario = TestServer.scenario()
            let transport = URLSessionTransport()
            let client = try server.client(
                maxRetries: 0, headers: ["x-testserver-scenario": scenario], transport: transport)
            for _ in 0..<5 { _ = try await client.models.list() }
            _ = try await client.embeddings.create(
                .init(input: .string("kept connection"), model: .init(rawValue: "text-embedding-3-small")))
            XCTAssertEqual(transport.directTransferCount, 6, "every request went through libcurl directly")
            let records = try await server.requests(scenario: scenario)
            XCTAssertEqual(records.count, 6)
            let ports = Set(records.compactMap(\.clientPort))
            XCTAssertEqual(records.compactMap(\.clientPort).count, 6, "the server reports each client port")
            XCTAssertEqual(ports.count, 1, "one kept connection, GETs and a POST alike: \(records.map(\.clientPort))")
            XCTAssertEqual(records.last?.validation, "ok", "\(records.last?.validationErrors ?? [])")
            // Compressed replies are asked for, as URLSession asks for them.
            XCTAssertTrue(
                records.first?.headers["accept-encoding"]?.contains("gzip") == true, "\(records.first?.headers ?? [:])")
        }

        func testACallersCookieStoreKeepsRequestsOnURLSession() async throws {
            let configuration = URLSessionConfiguration.default
            configuration.httpCookieStorage = URLSessionConfiguration.ephemeral.httpCookieStorage
            let transport = URLSessionTransport(configuration: configuration)
            let client = try server.client(
                maxRetries: 0, headers: ["x-testserver-scenario": TestServer.scenario()], transport: transport)
            _ = try await client.models.list()
            XCTAssertEqual(transport.directTransferCount, 0, "only URLSession writes to the caller's store")
        }

        func testEachTransportHasItsOwnConnections() async throws {
            let scenario = TestServer.scenario()
            let first = try server.client(maxRetries: 0, headers: ["x-testserver-scenario": scenario])
            let second = try server.client(maxRetries: 0, headers: ["x-testserver-scenario": scenario])
            _ = try await first.models.list()
            _ = try await second.models.list()
            let ports = try await server.requests(scenario: scenario).compactMap(\.clientPort)
            XCTAssertEqual(ports.count, 2)
            XCTAssertNotEqual(ports.first, ports.last)
        }

        func testConcurrentRequestsEachGetTheirReply() async throws {
            let scenario = TestServer.scenario()
            let client = try server.client(maxRetries: 0, headers: ["x-testserver-scenario": scenario])
            let names = (0..<24).map { "model-\($0)" }
            let replies = try await withThrowingTaskGroup(of: (String, String).self) { group in
                for name in names {
                    group.addTask { (name, try await client.models.retrieve(model: name).id) }
                }
                var replies: [String: String] = [:]
                for try await (name, id) in group { replies[name] = id }
                return replies
            }
            XCTAssertEqual(replies.count, names.count)
            let records = try await server.requests(scenario: scenario)
            XCTAssertEqual(Set(records.compactMap(\.path)), Set(names.map { "/v1/models/\($0)" }))
            // At most the pool's idle handles stay open; the rest closed once they were not needed.
            XCTAssertLessThanOrEqual(Set(records.compactMap(\.clientPort)).count, names.count)
        }

        func testACancelledRequestsConnectionIsNotUsedAgain() async throws {
            let scenario = TestServer.scenario()
            let slow = try server.client(
                maxRetries: 0, headers: ["x-testserver-scenario": scenario, "x-testserver-delay-ms": "20000"])
            _ = try await slow.models.list(options: RequestOptions(headers: ["x-testserver-delay-ms": "0"]))
            let task = Task { try await slow.models.list() }
            try await Task.sleep(nanoseconds: 300_000_000)
            let started = Date()
            task.cancel()
            do {
                _ = try await task.value
                XCTFail("a cancelled request returned")
            } catch let error as OpenAIError {
                XCTAssertEqual(error.kind, .cancelled)
            }
            XCTAssertLessThan(Date().timeIntervalSince(started), 2, "cancelling ends the transfer at once")
            _ = try await slow.models.list(options: RequestOptions(headers: ["x-testserver-delay-ms": "0"]))
            let ports = try await server.requests(scenario: scenario).compactMap(\.clientPort)
            XCTAssertEqual(ports.count, 3)
            XCTAssertEqual(ports[0], ports[1], "the second request used the first one's connection")
            XCTAssertNotEqual(ports[1], ports[2], "the cancelled request's connection was closed, not kept")
        }

        func testAnErrorReplyCutAtItsLimitClosesItsConnection() async throws {
            let scenario = TestServer.scenario()
            let client = try server.client(maxRetries: 0, headers: ["x-testserver-scenario": scenario])
            _ = try await client.models.list()
            let size = URLSessionTransport.maxErrorBodyBytes * 4
            do {
                _ = try await client.models.list(
                    options: RequestOptions(headers: [
                        "x-testserver-fail-status": "500", "x-testserver-error-body-bytes": String(size),
                    ]))
                XCTFail("a 500 returned")
            } catch let error as OpenAIError {
                XCTAssertEqual(error.statusCode, 500)
            }
            _ = try await client.models.list()
            let ports = try await server.requests(scenario: scenario).compactMap(\.clientPort)
            XCTAssertEqual(ports.count, 3)
            XCTAssertEqual(ports[0], ports[1])
            XCTAssertNotEqual(ports[1], ports[2], "the connection of the cut error body was closed")
        }
    }
#endif
