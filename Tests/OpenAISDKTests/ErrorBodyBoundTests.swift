import Foundation
import OpenAISDKTestSupport
import XCTest

@testable import OpenAI
@testable import OpenAIRuntime

/// A hostile or broken server's huge error body costs neither memory nor time: the transport keeps
/// the start that the error stores, drops the rest as it arrives and closes the connection.
///
/// The body arrives at 200 MB/s, a fast network. (Unthrottled on loopback, FoundationNetworking
/// can take up to a few hundred milliseconds to act on the cancellation while libcurl reads on,
/// and holds what it read in its delegate queue meanwhile; see CONTRIBUTING.md, Security.)
final class ErrorBodyBoundTests: XCTestCase {
    func testA200MegabyteErrorBodyIsCutAfterItsStartOnEveryPath() async throws {
        let server = try TestServer.shared()
        let size = 200_000_000
        for path in ["send", "stream", "download"] {
            let scenario = TestServer.scenario("errorBody\(path)")
            let client = try server.client(
                maxRetries: 0,
                headers: [
                    "x-testserver-scenario": scenario, "x-testserver-fail-status": "500",
                    "x-testserver-error-body-bytes": String(size), "x-testserver-error-body-rate": "200000000",
                ])
            let start = Date()
            #if os(Linux)
                let baseline = try FileDownloadTests.residentBytes()
                let peak = Locked<Int>(baseline)
                let sampler = FileDownloadTests.sampleResidentMemory(into: peak)
            #endif
            do {
                switch path {
                case "send":
                    _ = try await client.models.list()
                case "stream":
                    let body: CreateChatCompletionRequest = try
                        ([
                            "model": "gpt-4o",
                            "messages": [
                                ["role": "user", "content": "Hi"]
                            ],
                        ] as JSONValue).decode()
                    for try await _ in try client.chat.completions.createStream(body) {}
                default:
                    let file = FileManager.default.temporaryDirectory.appendingPathComponent("\(scenario).bin")
                    _ = try await client.files.content(fileID: "file-abc", to: file)
                }
                XCTFail("\(path): a 500 reply did not throw")
            } catch let error as OpenAIError {
                XCTAssertEqual(error.statusCode, 500, path)
                XCTAssertEqual(error.message, "Injected failure (attempt 1, status 500).", path)
                XCTAssertLessThanOrEqual(error.rawBody?.count ?? 0, 8192, path)
            }
            XCTAssertLessThan(Date().timeIntervalSince(start), 5, "\(path): the body was not read to its end")
            #if os(Linux)
                sampler.cancel()
                _ = await sampler.value
                let grown = peak.withLock { $0 } - baseline
                XCTAssertLessThan(grown, 24 << 20, "\(path): resident memory grew by \(grown >> 20) MiB")
            #endif
            // The client closed the connection before the server could write it all.
            var written = 0
            for _ in 0..<50 {
                let records = try await server.requests(scenario: scenario)
                written = Int(records.first?.raw["error_body_bytes_written"]?.doubleValue ?? 0)
                if records.first?.raw["disconnected"] == true { break }
                try await Task.sleep(nanoseconds: 50_000_000)
            }
            XCTAssertLessThan(written, size / 4, "\(path): \(written) of \(size) bytes went out")
        }
    }
}
