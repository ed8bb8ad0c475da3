import Foundation
import OpenAISDKTestSupport
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@testable import OpenAI
@testable import OpenAIRuntime

#if os(Linux)
    /// Large streamed uploads through ``URLSessionTransport`` on Linux go through libcurl directly
    /// (`CurlUpload`), against the local test server.
    final class DirectUploadTests: XCTestCase {
        private var folder: UploadTestFolder!

        override func setUpWithError() throws {
            folder = try UploadTestFolder(prefix: "direct-upload")
        }

        override func tearDownWithError() throws {
            folder.remove()
        }

        private func file(size: Int = 3 << 20) throws -> URL { try folder.file(size: size) }

        func testAStreamedUploadIsSentWithItsContentLengthAndReportsProgress() async throws {
            XCTAssertTrue(CurlUpload.isAvailable, "libcurl.so.4 loads where FoundationNetworking runs")
            let server = try TestServer.shared()
            let scenario = TestServer.scenario()
            let client = try server.client(maxRetries: 0, headers: ["x-testserver-scenario": scenario])
            let url = try file()
            let progress = Locked<[Int64]>([])
            let created = try await client.files.create(
                .init(file: try FileUpload(fileURL: url), purpose: .batch),
                options: RequestOptions(uploadProgress: { sent, _ in progress.withLock { $0.append(sent) } }))
            XCTAssertFalse(created.id.isEmpty)
            let records = try await server.requests(scenario: scenario)
            let record = try XCTUnwrap(records.last)
            XCTAssertEqual(record.validation, "ok", "\(record.validationErrors)")
            let length = try XCTUnwrap(record.headers["content-length"].flatMap { Int($0) }, "sent with its length")
            XCTAssertGreaterThan(length, 3 << 20)
            XCTAssertNil(record.headers["transfer-encoding"], "not chunked")
            XCTAssertNil(record.headers["expect"])
            XCTAssertEqual(record.headers["authorization"], "Bearer sk-test-0123456789")
            let sent = progress.withLock { $0 }
            XCTAssertEqual(sent.last.map(Int.init), length, "progress ends at the whole body")
            XCTAssertEqual(sent, sent.sorted(), "progress only grows")
        }

        func testCancellingADirectUploadEndsItPromptly() async throws {
            let server = try TestServer.shared()
            // The server reads the body, then waits 20 s before it answers.
            let client = try server.client(
                maxRetries: 0,
                headers: ["x-testserver-scenario": TestServer.scenario(), "x-testserver-delay-ms": "20000"])
            let url = try file()
            let task = Task {
                try await client.files.create(.init(file: try FileUpload(fileURL: url), purpose: .batch))
            }
            try await Task.sleep(for: .milliseconds(500))
            let started = ContinuousClock.now
            task.cancel()
            do {
                _ = try await task.value
                XCTFail("a cancelled upload throws")
            } catch let error as OpenAIError {
                XCTAssertEqual(error.kind, .cancelled)
            }
            XCTAssertLessThan(ContinuousClock.now - started, .seconds(3), "libcurl's progress callback aborts")
        }

        func testADirectUploadTimesOutAndAnErrorReplyKeepsItsBody() async throws {
            let server = try TestServer.shared()
            let url = try file()
            let slow = try server.client(
                maxRetries: 0, timeout: 1,
                headers: ["x-testserver-scenario": TestServer.scenario(), "x-testserver-delay-ms": "5000"])
            let started = ContinuousClock.now
            do {
                _ = try await slow.files.create(.init(file: try FileUpload(fileURL: url), purpose: .batch))
                XCTFail("the reply comes after the request timeout")
            } catch let error as OpenAIError {
                XCTAssertEqual(error.kind, .timeout)
                XCTAssertTrue(error.message.contains("request timeout of 1.0 s"), error.message)
            }
            XCTAssertLessThan(ContinuousClock.now - started, .seconds(4))

            let failing = try server.client(
                maxRetries: 0,
                headers: ["x-testserver-scenario": TestServer.scenario(), "x-testserver-fail-status": "400"])
            do {
                _ = try await failing.files.create(.init(file: try FileUpload(fileURL: url), purpose: .batch))
                XCTFail("a 400 throws")
            } catch let error as OpenAIError {
                XCTAssertEqual(error.kind, .badRequest)
                XCTAssertEqual(error.statusCode, 400)
                XCTAssertNotNil(error.requestID, "the reply's headers were read")
                XCTAssertFalse(error.message.isEmpty)
            }
        }

        func testAnIdleTimeoutAndALargeErrorBodyOfADirectUpload() async throws {
            let server = try TestServer.shared()
            let url = try file()
            let idle = try server.client(
                maxRetries: 0,
                headers: ["x-testserver-scenario": TestServer.scenario(), "x-testserver-delay-ms": "6000"],
                configure: { $0.idleTimeout = 1 })
            let started = ContinuousClock.now
            do {
                _ = try await idle.files.create(.init(file: try FileUpload(fileURL: url), purpose: .batch))
                XCTFail("nothing moves for longer than the idle timeout")
            } catch let error as OpenAIError {
                XCTAssertEqual(error.kind, .timeout)
                XCTAssertTrue(error.message.contains("idle timeout of 1.0 s"), error.message)
            }
            XCTAssertLessThan(ContinuousClock.now - started, .seconds(4), "checked about once a second")

            // A 10 MB error body: reading stops after its first 64 KiB, and the reply is the error.
            let scenario = TestServer.scenario()
            let flooding = try server.client(
                maxRetries: 0,
                headers: [
                    "x-testserver-scenario": scenario, "x-testserver-fail-status": "400",
                    "x-testserver-error-body-bytes": "10000000",
                ])
            do {
                _ = try await flooding.files.create(.init(file: try FileUpload(fileURL: url), purpose: .batch))
                XCTFail("a 400 throws")
            } catch let error as OpenAIError {
                XCTAssertEqual(error.kind, .badRequest, "the cut body is the reply, not a connection error")
                XCTAssertEqual(error.rawBody?.count, 8192, "errors keep the start of the body")
            }
            var written: Double?
            for _ in 0..<50 where written == nil {
                let records = try await server.requests(scenario: scenario)
                written = records.last?.raw["error_body_bytes_written"]?.doubleValue
                if written == nil || written == 0 { written = nil; try await Task.sleep(for: .milliseconds(100)) }
            }
            XCTAssertLessThan(try XCTUnwrap(written), 5_000_000, "the client closed the connection early")
        }

        func testTheTransportsConfigurationDecidesThePathAndAddsItsHeaders() async throws {
            let server = try TestServer.shared()
            let url = try file()
            func upload(_ configuration: URLSessionConfiguration) async throws -> TestServer.Record {
                let scenario = TestServer.scenario()
                let client = try server.client(
                    maxRetries: 0, headers: ["x-testserver-scenario": scenario],
                    transport: URLSessionTransport(configuration: configuration))
                _ = try await client.files.create(.init(file: try FileUpload(fileURL: url), purpose: .batch))
                let records = try await server.requests(scenario: scenario)
                return try XCTUnwrap(records.last)
            }
            let additional = URLSessionConfiguration.default
            additional.httpAdditionalHeaders = ["X-From-Configuration": "yes", "X-Stainless-Lang": "overridden"]
            let direct = try await upload(additional)
            XCTAssertNotNil(direct.headers["content-length"])
            XCTAssertEqual(direct.headers["x-from-configuration"], "yes")
            XCTAssertEqual(direct.headers["x-stainless-lang"], "swift", "the request's header wins")
            // A proxy dictionary keeps the request on URLSession, which sends a stream chunked.
            let proxied = URLSessionConfiguration.default
            proxied.connectionProxyDictionary = [:]
            let viaSession = try await upload(proxied)
            XCTAssertEqual(viaSession.headers["transfer-encoding"], "chunked")
            XCTAssertEqual(viaSession.validation, "ok")
        }

        func testAHeaderWithALineBreakIsRefusedBeforeAnythingIsSent() async throws {
            XCTAssertThrowsError(
                try CurlUpload.headerLines(["X-Injected": "a\r\nEvil: 1"], additionalHeaders: [:])
            ) { error in
                XCTAssertEqual((error as? OpenAIError)?.kind, .invalidRequest)
            }
            XCTAssertEqual(
                try CurlUpload.headerLines(["B": "2", "a": "", "Content-Length": "9"], additionalHeaders: ["b": "1"]),
                ["a;", "B: 2", "Expect:"], "sorted, the request's value wins, an empty value kept, no length")
        }

        func testAFileThatShrinksWhileItIsSentFailsWithTheBodysError() async throws {
            let server = try TestServer.shared()
            let url = try file()
            let upload = try FileUpload(fileURL: url)  // its length is taken now
            try Data(count: 1 << 20).write(to: url)  // then the file shrinks to 1 MiB
            let client = try server.client(maxRetries: 0, headers: ["x-testserver-scenario": TestServer.scenario()])
            do {
                _ = try await client.files.create(.init(file: upload, purpose: .batch))
                XCTFail("a body shorter than its length is an error")
            } catch let error as OpenAIError {
                XCTAssertEqual(error.kind, .invalidRequest)
                XCTAssertTrue(error.message.contains("ended early"), error.message)
            }
        }
    }
#endif
