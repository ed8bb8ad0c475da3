import Foundation

/// A value guarded by an `NSLock`.
///
/// `Synchronization.Mutex` would do on Linux, but it needs macOS 15 and the package supports macOS 13.
/// `@unchecked Sendable` is sound because every access to `state` goes through `withLock`.
package final class Locked<State>: @unchecked Sendable {
    private let lock = NSLock()
    private var state: State

    /// Wraps an initial value.
    package init(_ state: State) {
        self.state = state
    }

    /// Runs `body` with exclusive access to the state.
    ///
    /// - Parameters:
    ///   - body: Reads or mutates the state; must not block or call back into this lock.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}
