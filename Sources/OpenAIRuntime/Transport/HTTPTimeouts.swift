import Foundation

/// The time limits of one attempt, in seconds, that an ``HTTPTransport`` enforces. Every value,
/// whole or fractional, means exactly what its name says.
///
/// A limit that passes ends the attempt with ``OpenAIError/Kind/timeout``, whose message names the
/// limit; the client retries timeouts like connection failures (`RetryPolicy`).
public struct HTTPTimeouts: Sendable, Hashable {
    /// The longest time the whole attempt may take, in seconds: from sending the request until the
    /// reply has arrived whole or, for a streamed reply (server-sent events, downloads to a file),
    /// until its head has arrived; the body of a streamed reply is then bounded by ``idle`` alone.
    public var request: TimeInterval
    /// The longest time the attempt may go without a byte sent or received, in seconds: before the
    /// reply head (the server is still working) and between two chunks of the body.
    public var idle: TimeInterval
    /// The longest time to wait for the connection, in seconds: until the first bytes of the
    /// request body have been sent or, for a request without a body, until the reply head has
    /// arrived (URLSession does not report the connection itself).
    public var connect: TimeInterval

    /// Creates time limits.
    ///
    /// - Parameters:
    ///   - request: The limit of the whole attempt (until the head, for streamed replies), in seconds.
    ///   - idle: The limit of a time without bytes, in seconds.
    ///   - connect: The limit of the connection's setup, in seconds.
    public init(request: TimeInterval, idle: TimeInterval, connect: TimeInterval) {
        self.request = request
        self.idle = idle
        self.connect = connect
    }

    /// The defaults: 600 s per attempt and without bytes (as OpenAI's SDKs), 10 s to connect.
    public static let `default` = HTTPTimeouts(request: 600, idle: 600, connect: 10)

    /// The longest limit a client takes, in seconds: a year (31,536,000 s). Longer ones, and
    /// limits that are not finite, would overflow the timers' nanosecond arithmetic.
    public static let longest: TimeInterval = 365 * 24 * 3600

    /// Checks one limit as a client takes it: a number of seconds greater than 0 and at most
    /// ``longest``.
    ///
    /// - Parameters:
    ///   - value: The limit, in seconds.
    ///   - name: Where it was set, for the error (`Configuration.requestTimeout`).
    /// - Throws: ``OpenAIError`` of kind ``OpenAIError/Kind/invalidRequest`` naming `name` and the value
    ///   when it is not finite, not greater than 0, or longer than ``longest``.
    package static func check(_ value: TimeInterval, _ name: String) throws {
        guard value.isFinite, value > 0, value <= longest else {
            throw OpenAIError(
                kind: .invalidRequest,
                message: "\(name) is \(value) s; a timeout must be a number of seconds greater than 0 and at most "
                    + "\(Int(longest)) (a year).")
        }
    }

    /// Checks the three limits a configuration or a request sets (``check(_:_:)`` each; `nil`
    /// is not set), named `owner.requestTimeout`, `owner.idleTimeout` and `owner.connectTimeout`.
    ///
    /// - Throws: As ``check(_:_:)``, for the first limit that fails.
    package static func check(
        request: TimeInterval?, idle: TimeInterval?, connect: TimeInterval?, of owner: String
    ) throws {
        try request.map { try check($0, "\(owner).requestTimeout") }
        try idle.map { try check($0, "\(owner).idleTimeout") }
        try connect.map { try check($0, "\(owner).connectTimeout") }
    }
}

extension Duration {
    /// The duration in seconds as a `Double` (a `TimeInterval`).
    package var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
