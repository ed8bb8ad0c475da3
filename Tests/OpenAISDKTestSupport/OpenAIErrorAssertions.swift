import OpenAIRuntime
import XCTest

/// Runs `body` and returns the ``OpenAIError`` it throws; fails the test when it throws nothing
/// or something else.
package func XCTAssertThrowsOpenAIError(
    file: StaticString = #filePath, line: UInt = #line, _ body: () async throws -> Void
) async -> OpenAIError? {
    do {
        try await body()
        XCTFail("expected an OpenAIError", file: file, line: line)
    } catch let error as OpenAIError {
        return error
    } catch {
        XCTFail("expected an OpenAIError, got \(error)", file: file, line: line)
    }
    return nil
}
