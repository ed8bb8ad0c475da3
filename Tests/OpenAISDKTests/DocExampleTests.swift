import Foundation
import XCTest

@testable import OpenAI
@testable import OpenAIRuntime

/// The code examples of the doc comments added for the decoding policy, streams and downloads,
/// kept compiling (and the offline ones run).
final class DocExampleTests: XCTestCase {
    /// `SpecDeviations`, `SpecDeviationReport` and `OpenAIStream.onSkippedEvent(_:)` examples.
    static func examples(_ client: OpenAIClient, id: String, fileURL: URL) async throws {
        let store = try await client.vectorStores.retrieve(vectorStoreID: id)
        if store.specDeviations.isMissing("usage_bytes") {
            print("usage_bytes is 0 because the reply left it out")
        }
        let page = try await client.vectorStores.list()
        for entry in SpecDeviationReport(page).entries { print(entry) }

        let request = CreateChatCompletionRequest(messages: [.user(.init(content: "Hi"))], model: "gpt-4o-mini")
        let stream = try client.chat.completions.createStream(request)
            .onSkippedEvent { skipped in print("skipped \(skipped.reason): \(skipped.event.data)") }
        for try await _ in stream {}

        let result = try await client.files.content(fileID: "file-abc", to: fileURL)
        print(result.byteCount, result.response.requestID ?? "-")
        let (models, raw) = try await client.withRawResponse { try await $0.models.list() }
        print(models.data.count, raw.statusCode)
    }

    func testTheDeviationExamplesReadAsDocumented() throws {
        _ = Self.examples
        func logDrift(_ value: some SpecDeviationReporting) -> String? {
            value.specDeviations.isEmpty ? nil : "spec drift: \(value.specDeviations)"
        }
        let store = try JSONDecoder().decode(
            VectorStoreObject.self,
            from: Data(
                #"{"id":"vs_1","object":"vector_store","created_at":1,"name":null,"file_counts":{"in_progress":0,"completed":0,"failed":0,"cancelled":0,"total":0},"status":"completed","last_active_at":null,"metadata":{}}"#
                    .utf8))
        XCTAssertEqual(logDrift(store), "spec drift: missing usage_bytes")
        XCTAssertEqual(SpecDeviationReport([store]).description, "[0]: missing usage_bytes")
    }
}
