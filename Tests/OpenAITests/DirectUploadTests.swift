import Foundation
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@testable import OpenAI

#if os(Linux)
    /// Large streamed uploads through ``URLSessionTransport`` on Linux go through libcurl directly
    /// (`CurlUpload`), against the local test server.
    final class DirectUploadTests: XCTestCase {
        private var directory: URL!

        override func setUpWithError() throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("direct-upload-\(UUID())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        }

        override func tearDownWithError() throws {
            try? FileManager.default.removeItem(at: directory)
        }

        /// A file of `size` bytes, 3 MiB by default: over the 1 MiB in-memory limit, so streamed.
        private func file(size: Int = 3 << 20) throws -> URL {
            let url = directory.appendingPathComponent("train.jsonl")
            var bytes = [UInt8](repeating: 0, count: size)
            for index in bytes.indices { bytes[index] = UInt8(truncatingIfNeeded: index &* 31 &+ 7) }
            try Data(bytes).write(to: url)
            return url
        }

        func testAStreamedUploadIsSentWithItsContentLengthAndReportsProgress() async throws {
            XCTAssertTrue(CurlUpload.isAvailable, "libcurl.so.4 loads where FoundationNetworking runs")
            let server = try TestServer.shared()
            let scenario = TestServer.scenario()
            let client = try server.client(maxRetries: 0, headers: ["x-testserver-scenario": scenario])
            let url = try file()
            let progress = LockedState<[Int64]>([])
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
