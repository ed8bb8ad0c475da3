import XCTest

extension XCTestCase {
    /// Waits until `condition` holds, checking every 5 ms, for at most `timeout`; a test failure at
    /// the caller's line when it never does. For what another task or a deinitializer finishes a
    /// moment later (a close, a count), never as a delay.
    ///
    /// - Throws: `CancellationError` when the test's task is cancelled while it waits.
    package func waitUntil(
        timeout: Duration = .seconds(5), _ condition: @Sendable () -> Bool, file: StaticString = #filePath,
        line: UInt = #line
    ) async throws {
        let deadline = ContinuousClock.now + timeout
        while !condition() {
            if ContinuousClock.now > deadline {
                XCTFail("the condition did not hold within \(timeout)", file: file, line: line)
                return
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}
