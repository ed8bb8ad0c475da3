import Foundation
import OpenAIWebSocket

/// When and how soon to reconnect after a Realtime WebSocket closed: a pure policy, no I/O.
///
/// Reconnecting is the caller's choice (a new connection is a new server-side session; the
/// conversation state is gone). This type only answers "may I, and after how long?": a close is
/// retryable when its code is in ``retryableCloseCodes`` (by default the codes OpenAI's SDKs
/// reconnect on: 1001 going away, 1005 no status, 1006 dropped without a close frame, 1011
/// internal error such as "keepalive ping timeout", 1012 service restart, 1013 try again later
/// and 1015 TLS handshake failure) and fewer than ``maxAttempts`` attempts were made. The delay grows
/// exponentially from ``initialDelay`` by ``multiplier`` up to ``maxDelay``, and up to
/// ``jitterFraction`` of it is subtracted at random so that many clients do not reconnect in step.
///
/// ```swift
/// var attempt = 1
/// while case .reconnect(let delay) = policy.decision(after: closeInfo, attempt: attempt) {
///     try await Task.sleep(for: delay)
///     ...
/// }
/// ```
public struct RealtimeReconnectPolicy: Sendable, Hashable {
    /// What to do after a close.
    public enum Decision: Sendable, Hashable {
        /// Wait this long, then connect again.
        case reconnect(after: Duration)
        /// Do not reconnect: the close code is not retryable, or the attempts are used up.
        case stop
    }

    /// The close codes after which reconnecting makes sense (default 1001, 1005, 1006, 1011,
    /// 1012, 1013, 1015).
    public var retryableCloseCodes: Set<WebSocketCloseCode>
    /// The most connection attempts after one close, counting the first (default 5).
    public var maxAttempts: Int
    /// The delay before the first attempt (default 0.5 seconds).
    public var initialDelay: Duration
    /// The longest delay between attempts (default 8 seconds, the cap of OpenAI's SDKs).
    public var maxDelay: Duration
    /// The factor by which the delay grows per attempt (default 2).
    public var multiplier: Double
    /// The largest fraction of a delay removed at random, 0...1 (default 0.25).
    public var jitterFraction: Double

    /// The close codes that allow a reconnect by default: 1001, 1005, 1006, 1011, 1012, 1013, 1015.
    public static let defaultRetryableCloseCodes: Set<WebSocketCloseCode> = [
        .goingAway, .noStatusReceived, .abnormalClosure, .internalError, .serviceRestart,
        .tryAgainLater, .tlsHandshake,
    ]

    /// Creates a policy.
    ///
    /// - Parameters:
    ///   - retryableCloseCodes: Close codes that allow a reconnect (default 1001, 1005, 1006, 1011,
    ///     1012, 1013, 1015).
    ///   - maxAttempts: Most attempts after one close (default 5).
    ///   - initialDelay: Delay before the first attempt (default 0.5 seconds).
    ///   - maxDelay: Longest delay (default 8 seconds).
    ///   - multiplier: Growth factor per attempt (default 2).
    ///   - jitterFraction: Largest fraction of a delay removed at random, clamped to 0...1 (default 0.25).
    public init(
        retryableCloseCodes: Set<WebSocketCloseCode> = RealtimeReconnectPolicy
            .defaultRetryableCloseCodes,
        maxAttempts: Int = 5,
        initialDelay: Duration = .milliseconds(500),
        maxDelay: Duration = .seconds(8),
        multiplier: Double = 2,
        jitterFraction: Double = 0.25
    ) {
        self.retryableCloseCodes = retryableCloseCodes
        self.maxAttempts = maxAttempts
        self.initialDelay = initialDelay
        self.maxDelay = maxDelay
        self.multiplier = multiplier
        self.jitterFraction = min(1, max(0, jitterFraction))
    }

    /// Whether a close allows reconnecting at all, regardless of attempts.
    ///
    /// A close this side started (``WebSocketCloseInfo/initiatedByPeer`` is `false`) never does.
    ///
    /// - Parameters:
    ///   - closeInfo: How the connection closed.
    /// - Returns: `true` when the peer closed (or the connection dropped) with a retryable code.
    public func allowsReconnect(after closeInfo: WebSocketCloseInfo) -> Bool {
        closeInfo.initiatedByPeer && retryableCloseCodes.contains(closeInfo.code)
    }

    /// Decides whether to make connection attempt number `attempt` after a close, and when.
    ///
    /// - Parameters:
    ///   - closeInfo: How the previous connection closed.
    ///   - attempt: The attempt about to be made, starting at 1.
    ///   - jitterSample: A number in 0..<1 that picks the jitter; pass a fixed value in tests
    ///     (default: random).
    /// - Returns: ``Decision/reconnect(after:)`` with the delay, or ``Decision/stop``.
    public func decision(
        after closeInfo: WebSocketCloseInfo, attempt: Int,
        jitterSample: Double = Double.random(in: 0..<1)
    ) -> Decision {
        guard allowsReconnect(after: closeInfo), attempt >= 1, attempt <= maxAttempts else {
            return .stop
        }
        return .reconnect(after: delay(forAttempt: attempt, jitterSample: jitterSample))
    }

    /// The delay before attempt number `attempt`: `initialDelay * multiplier^(attempt-1)`, at most
    /// `maxDelay`, minus `jitterFraction * jitterSample` of it.
    ///
    /// - Parameters:
    ///   - attempt: The attempt number, starting at 1.
    ///   - jitterSample: A number in 0..<1 (0 gives the full delay).
    /// - Returns: The delay, never negative.
    public func delay(forAttempt attempt: Int, jitterSample: Double) -> Duration {
        let initial = initialDelay.seconds
        let grown = initial * pow(max(1, multiplier), Double(max(0, attempt - 1)))
        let capped = min(grown, maxDelay.seconds)
        let jittered = capped * (1 - jitterFraction * min(1, max(0, jitterSample)))
        return .nanoseconds(Int64((max(0, jittered) * 1e9).rounded()))
    }
}
