import Foundation

/// How the `poll` and `createAndPoll` helpers wait for an object (a run, a batch, a vector-store
/// file, …) to leave its pending states.
public struct PollingOptions: Sendable, Equatable {
    /// Seconds between two requests; `nil` waits what the reply's `openai-poll-after-ms` header
    /// says, else 1 second (as OpenAI's SDKs do). Either is kept within ``waitRange``.
    public var interval: TimeInterval?

    /// The shortest and longest wait between two requests, in seconds: 0.05 s to 1 hour.
    public static let waitRange: ClosedRange<TimeInterval> = 0.05...3600
    /// The longest time to poll, in seconds, counting the requests and the waits between them;
    /// `nil` polls until the object is no longer pending (or the task is cancelled).
    public var maxWait: TimeInterval?

    /// Creates polling options.
    ///
    /// - Parameters:
    ///   - interval: Seconds between requests; `nil`: `openai-poll-after-ms`, else 1 s.
    ///   - maxWait: The longest time to poll, in seconds; `nil`: no limit.
    public init(interval: TimeInterval? = nil, maxWait: TimeInterval? = nil) {
        self.interval = interval
        self.maxWait = maxWait
    }
}

extension OpenAIClient {
    /// Fetches an object until `isPending` says it no longer is, waiting between requests as
    /// `polling` says.
    ///
    /// - Parameters:
    ///   - polling: The interval and the longest wait.
    ///   - status: The object's status, for the error when `maxWait` passes.
    ///   - fetch: One request for the object (a generated `retrieve` call) on the client it is
    ///     given, which records the reply's head for its `openai-poll-after-ms` advice.
    ///   - isPending: Whether the object is still in a pending state.
    /// - Returns: The first object that is not pending.
    /// - Throws: What `fetch` throws; ``OpenAIError`` of kind ``OpenAIError/Kind/timeout`` when
    ///   the next wait would pass `maxWait`; `CancellationError` when the task is cancelled while
    ///   waiting (``OpenAIError/Kind/cancelled`` during a request).
    package func poll<Value: Sendable>(
        _ polling: PollingOptions, status: (Value) -> String, fetch: (OpenAIClient) async throws -> Value,
        isPending: (Value) -> Bool
    ) async throws -> Value {
        let clock = ContinuousClock()
        var spent: TimeInterval = 0
        while true {
            try Task.checkCancellation()
            let started = clock.now
            let (value, raw) = try await withRawResponse { try await fetch($0) }
            spent += started.duration(to: clock.now).seconds
            guard isPending(value) else { return value }
            let wait = Self.pollWait(
                interval: polling.interval, advised: raw.value(forHeader: "openai-poll-after-ms"))
            if let maxWait = polling.maxWait, spent + wait > maxWait {
                throw OpenAIError(
                    kind: .timeout,
                    message:
                        "Polling stopped: the object is still `\(status(value))` after \(Self.seconds(spent)) s, and waiting \(Self.seconds(wait)) s more would pass maxWait (\(Self.seconds(maxWait)) s).",
                    requestID: raw.requestID)
            }
            try await sleeper.sleep(seconds: wait)
            spent += wait
        }
    }

    private static func seconds(_ value: TimeInterval) -> String { String(format: "%.3g", value) }

    /// The wait before the next request: `interval`, else the advised milliseconds, else 1 s;
    /// an advice that is not a finite number is ignored, and every wait is kept within
    /// ``PollingOptions/waitRange`` (a header of `0` or of years does not spin or trap).
    static func pollWait(interval: TimeInterval?, advised: String?) -> TimeInterval {
        let advice = advised.flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }.flatMap {
            $0.isFinite ? $0 / 1000 : nil
        }
        let wait = interval.flatMap { $0.isFinite ? $0 : nil } ?? advice ?? 1
        return min(max(wait, PollingOptions.waitRange.lowerBound), PollingOptions.waitRange.upperBound)
    }
}
