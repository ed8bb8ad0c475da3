import Foundation
import XCTest

@testable import OpenAI

/// The README's quick start, kept compiling: these are the calls the README shows, and the
/// request they build is checked against the JSON OpenAI's documentation sends.
final class ReadmeExampleTests: XCTestCase {
    /// The README's quick start, verbatim apart from the client being passed in.
    static func quickStart(_ client: OpenAIClient) async throws {
        let completion = try await client.chat.completions.create(
            .init(messages: [.user(.init(content: "Say hello."))], model: .gpt4o))
        print(completion.choices.first?.message.content ?? "")

        for try await chunk in try client.chat.completions.createStream(
            .init(messages: [.user(.init(content: "Count to 3."))], model: "gpt-4o-mini"))
        {
            print(chunk.choices.first?.delta.content ?? "", terminator: "")
        }
    }

    func testQuickStartRequestEncodesAsTheAPIDocumentsIt() throws {
        _ = Self.quickStart  // The README code above must keep compiling.
        let request = CreateChatCompletionRequest(messages: [.user(.init(content: "Say hello."))], model: .gpt4o)
        let json = try JSONValue(encoding: request)
        XCTAssertEqual(json, ["messages": [["role": "user", "content": "Say hello."]], "model": "gpt-4o"])
    }
}
