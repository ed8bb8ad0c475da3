import Foundation

/// Waits between retries; injected so tests neither sleep for real nor depend on timing.
package protocol RetrySleeper: Sendable {
    /// Waits `seconds`.
    ///
    /// - Throws: `CancellationError` at once when the calling task is cancelled.
    func sleep(seconds: TimeInterval) async throws
}

/// The real sleeper: `Task.sleep`, which returns at once on cancellation.
struct TaskSleeper: RetrySleeper {
    func sleep(seconds: TimeInterval) async throws {
        try await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1_000_000_000))
    }
}
