import Foundation

/// When to retry a failed attempt and how long to wait first: the rules of OpenAI's official
/// SDKs, as a pure value with no I/O, tested decision by decision.
///
/// 1. A cancelled request, a body that cannot be replayed, or no retries left: fail.
/// 2. A reply's `x-should-retry: true|false` decides first.
/// 3. Otherwise 408, 409, 429 and 5xx replies, connection failures and timeouts are retried.
/// 4. The wait is `retry-after-ms`, else `Retry-After` (seconds or an HTTP date, RFC 9110
///    section 10.2.3), when it is more than 0 and at most `maxRetryAfter`; else the backoff
///    `min(0.5 s · 2^n, 8 s)` minus up to 25 % jitter. A `Retry-After: 0` (or a date already
///    past) falls back to the backoff, as openai-python (`0 < retry_after <= 60`) and openai-node
///    do: a server that asks for no wait at all would otherwise be hit again at once.
///
/// **The cap.** A `Retry-After` longer than ``maxRetryAfter`` (60 s) is not honoured: the
/// exponential backoff is used instead (as openai-python and openai-node do). Refusing to retry
/// (120 s elsewhere) would turn a transient 429 into a failure, and clamping to 8 s ignores the
/// server; falling back keeps the request alive without sleeping an hour on a bad header.
struct RetryPolicy: Sendable {
    /// The result of a failed attempt, as the policy sees it.
    enum Outcome: Sendable {
        /// A reply arrived with this status and these headers.
        case response(statusCode: Int, headers: [String: String])
        /// No reply: the transport failed with this error category.
        case failure(OpenAIError.Kind)
    }

    /// What to do after a failed attempt.
    enum Decision: Equatable, Sendable {
        /// Wait this many seconds, then send again.
        case retry(after: TimeInterval)
        /// Give up and throw.
        case fail
    }

    /// The longest `Retry-After` honoured, in seconds; a longer one falls back to the backoff.
    static let maxRetryAfter: TimeInterval = 60
    /// The first backoff delay, in seconds.
    static let initialDelay: TimeInterval = 0.5
    /// The longest backoff delay, in seconds.
    static let maxDelay: TimeInterval = 8
    /// The largest fraction of the backoff removed at random.
    static let maxJitter = 0.25

    /// How many retries follow the first attempt.
    var maxRetries: Int

    /// Decides what follows a failed attempt.
    ///
    /// - Parameters:
    ///   - retriesSoFar: Retries already made (0 after the first attempt).
    ///   - outcome: The failed attempt's reply or error category.
    ///   - bodyIsReplayable: Whether the request body can be sent again.
    ///   - isCancelled: Whether the calling task is cancelled.
    ///   - now: The current time, for `Retry-After` dates.
    ///   - jitter: A fraction in `0...1` of ``maxJitter`` to remove from the backoff.
    /// - Returns: ``Decision/retry(after:)`` with the wait in seconds, or ``Decision/fail``.
    func decide(
        retriesSoFar: Int, outcome: Outcome, bodyIsReplayable: Bool, isCancelled: Bool, now: Date, jitter: Double
    ) -> Decision {
        guard !isCancelled, bodyIsReplayable, retriesSoFar < maxRetries else { return .fail }
        switch outcome {
        case .failure(let kind):
            guard kind == .connection || kind == .timeout else { return .fail }
            return .retry(after: Self.backoff(retriesSoFar: retriesSoFar, jitter: jitter))
        case .response(let statusCode, let headers):
            switch HTTPHeaders.value("x-should-retry", in: headers)?.lowercased() {
            case "true": break
            case "false": return .fail
            default:
                guard [408, 409, 429].contains(statusCode) || statusCode >= 500 else { return .fail }
            }
            if let advised = Self.retryAfter(headers: headers, now: now), advised > 0, advised <= Self.maxRetryAfter {
                return .retry(after: advised)
            }
            return .retry(after: Self.backoff(retriesSoFar: retriesSoFar, jitter: jitter))
        }
    }

    /// The backoff before retry number `retriesSoFar + 1`: `min(0.5 · 2^n, 8)` seconds less
    /// `jitter · 25 %`.
    ///
    /// - Parameters:
    ///   - retriesSoFar: Retries already made.
    ///   - jitter: A fraction in `0...1`.
    /// - Returns: The delay in seconds.
    static func backoff(retriesSoFar: Int, jitter: Double) -> TimeInterval {
        let base = min(initialDelay * pow(2, Double(min(retriesSoFar, 32))), maxDelay)
        return base * (1 - maxJitter * min(max(jitter, 0), 1))
    }

    /// The server's advised wait in seconds: `retry-after-ms`, then `Retry-After` as seconds or
    /// as an HTTP date relative to `now`; `nil` when absent or unreadable.
    ///
    /// - Parameters:
    ///   - headers: The reply's headers.
    ///   - now: The current time.
    /// - Returns: The wait in seconds (negative for a date in the past), or `nil`.
    static func retryAfter(headers: [String: String], now: Date) -> TimeInterval? {
        if let text = HTTPHeaders.value("retry-after-ms", in: headers),
            let milliseconds = Double(text.trimmingCharacters(in: .whitespaces)), milliseconds.isFinite
        {
            return milliseconds / 1000
        }
        guard let text = HTTPHeaders.value("retry-after", in: headers)?.trimmingCharacters(in: .whitespaces)
        else { return nil }
        if let seconds = Double(text), seconds.isFinite { return seconds }
        return httpDate(text).map { $0.timeIntervalSince(now) }
    }

    /// Parses an IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`, RFC 9110 section 5.6.7).
    static func httpDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: text)
    }
}
