import OpenAI
import OpenAIWebSocket

/// A one-shot place for the reply to one client event: resolved once (by the routing of a
/// received event, a timeout, cancellation or the end of the connection) and awaited once.
///
/// `Sendable` through ``Locked``: the result and the waiting continuation are only touched under its lock.
final class ReplySlot: Sendable {
    private struct State {
        var result: Result<RealtimeServerEvent, any Error>?
        var waiter: CheckedContinuation<RealtimeServerEvent, any Error>?
    }

    private let state = Locked(State())

    /// Sets the result unless one is set already, and resumes the waiter if there is one.
    ///
    /// - Parameters:
    ///   - result: The reply or the error.
    func resolve(_ result: Result<RealtimeServerEvent, any Error>) {
        let waiter = state.withLock { state -> CheckedContinuation<RealtimeServerEvent, any Error>? in
            guard state.result == nil else { return nil }
            state.result = result
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(with: result)
    }

    /// Waits for the result.
    ///
    /// - Returns: The reply.
    /// - Throws: The error it was resolved with; ``RealtimeError/Kind/cancelled`` when the task is cancelled.
    func value() async throws -> RealtimeServerEvent {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (waiter: CheckedContinuation<RealtimeServerEvent, any Error>) in
                let ready = state.withLock { state -> Result<RealtimeServerEvent, any Error>? in
                    if let result = state.result { return result }
                    state.waiter = waiter
                    return nil
                }
                if let ready { waiter.resume(with: ready) }
            }
        } onCancel: {
            resolve(.failure(RealtimeError(.cancelled, "the task awaiting the reply was cancelled")))
        }
    }
}
