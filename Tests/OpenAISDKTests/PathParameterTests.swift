import Foundation
import OpenAISDKTestSupport
import XCTest

@testable import OpenAI
@testable import OpenAIRuntime

/// Path parameters at the trust boundary: a value can never change which endpoint a request
/// reaches. Through generated methods, against the local test server, in every position the
/// spec puts them (the last segment, a middle segment, two in a row, one after a literal).
final class PathParameterTests: XCTestCase {
    private var server: TestServer!

    override func setUpWithError() throws {
        server = try TestServer.shared()
    }

    func testDotSegmentsAndEmptyValuesAreRejectedBeforeAnythingIsSent() async throws {
        let scenario = TestServer.scenario()
        let client = try server.client(maxRetries: 0, headers: ["x-testserver-scenario": scenario])
        for value in ["..", ".", ""] {
            do {
                _ = try await client.vectorStores.files.delete(vectorStoreID: value, fileID: "file-abc")
                XCTFail("`\(value)` was sent")
            } catch let error as OpenAIError {
                XCTAssertEqual(error.kind, .invalidRequest, value)
                XCTAssertTrue(error.message.contains("vector_store_id"), error.message)
            }
            do {
                _ = try await client.files.delete(fileID: value)
                XCTFail("`\(value)` was sent")
            } catch let error as OpenAIError {
                XCTAssertEqual(error.kind, .invalidRequest, value)
            }
        }
        let records = try await server.requests(scenario: scenario)
        XCTAssertEqual(records.count, 0, "no request left the client: \(records.map(\.path))")
    }

    func testCharactersThatChangeAPathArriveAsOneSegmentOfTheRightOperation() async throws {
        let hostile = [
            "a/b", "a?b=c", "a#b", "a%2F..%2Fb", "100%", "../files/file-abc", "a b", "é🔥", "..a", "...", "a\u{0}b",
            "%2e%2e", ";x=y", "a+b&c",
        ]
        for value in hostile {
            let scenario = TestServer.scenario("hostile")
            let client = try server.client(maxRetries: 0, headers: ["x-testserver-scenario": scenario])
            // Last segment; middle segment and two in a row; after a literal.
            _ = try? await client.files.retrieve(fileID: value)
            _ = try? await client.vectorStores.files.delete(vectorStoreID: value, fileID: value)
            _ = try? await client.threads.runs.retrieve(threadID: value, runID: "run_1")
            let records = try await server.requests(scenario: scenario)
            XCTAssertEqual(
                records.map(\.operationID), ["retrieveFile", "deleteVectorStoreFile", "getRun"],
                "\(value): \(records.map(\.path))")
            XCTAssertEqual(records[0].raw["path_params"]?["file_id"]?.stringValue, value)
            XCTAssertEqual(records[1].raw["path_params"]?["vector_store_id"]?.stringValue, value)
            XCTAssertEqual(records[1].raw["path_params"]?["file_id"]?.stringValue, value)
            XCTAssertEqual(records[2].raw["path_params"]?["thread_id"]?.stringValue, value)
            for record in records {
                XCTAssertFalse(record.path?.contains("?") ?? true, "\(value): \(record.path ?? "")")
                XCTAssertFalse(record.path?.contains("/../") ?? true, "\(value): \(record.path ?? "")")
            }
        }
    }

    func testEveryByteOutsideTheUnreservedSetIsPercentEncoded() {
        XCTAssertEqual(APIRequest.percentEncodedSegment("file-ABC_1.2~"), "file-ABC_1.2~")
        XCTAssertEqual(APIRequest.percentEncodedSegment("a/b?c#d%e f"), "a%2Fb%3Fc%23d%25e%20f")
        XCTAssertEqual(APIRequest.percentEncodedSegment("é"), "%C3%A9")
        XCTAssertEqual(APIRequest.percentEncodedSegment("ft:gpt-4o:org:x"), "ft%3Agpt-4o%3Aorg%3Ax")
    }

    func testAnAzureDeploymentIsOneSegmentAndNeverADotSegment() throws {
        let client = try OpenAIClient(
            configuration: .azure(
                endpoint: URL(string: "https://example.openai.azure.com")!, apiVersion: "2024-10-21",
                deployment: "team/../../admin", apiKey: "k"))
        let request = APIRequest(method: "POST", path: "/chat/completions", operationID: "createChatCompletion")
        let built = try client.makeHTTPRequest(request, options: RequestOptions())
        XCTAssertEqual(
            built.url.absoluteString,
            "https://example.openai.azure.com/openai/deployments/team%2F..%2F..%2Fadmin/chat/completions?api-version=2024-10-21"
        )
        let dots = try OpenAIClient(
            configuration: .azure(
                endpoint: URL(string: "https://example.openai.azure.com")!, apiVersion: "2024-10-21", deployment: "..",
                apiKey: "k"))
        XCTAssertThrowsError(try dots.makeHTTPRequest(request, options: RequestOptions()))
    }
}
