import Foundation
import XCTest

/// What a test throws when something it needs is missing (`../shared`, a tool, a platform
/// feature): outside CI the test is skipped, saying why; in CI (`CI=true`) it fails, because a
/// skipped test has not passed.
public enum Unavailable {
    /// The error to throw: `XCTSkip(message)` outside CI, a failure naming `message` in CI.
    ///
    /// - Parameters:
    ///   - message: What is missing and how to get it.
    ///   - environment: Where `CI` is read (the process's environment).
    /// - Returns: An error for `throw`.
    public static func skip(
        _ message: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> any Error {
        if environment["CI"] == "true" {
            return MissingInCI(message: "CI=true: this test must run, but \(message)")
        }
        return XCTSkip(message)
    }

    /// The failure a test throws in CI instead of skipping.
    public struct MissingInCI: Error, CustomStringConvertible {
        /// What is missing.
        public var message: String
        public var description: String { message }
    }
}
