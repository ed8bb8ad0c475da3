import OpenAIWebSocket
extension RealtimeSession {
    /// Opens a new session to the same endpoint with the same credentials, if the close allows it.
    ///
    /// Opt-in: call it after ``events`` ended. The new connection is a new server-side session
    /// (configure it again). It waits with backoff between attempts and retries connection
    /// failures, timeouts and 5xx upgrade answers up to ``RealtimeReconnectPolicy/maxAttempts``.
    /// A session opened with a client asks its key provider for a fresh key before every attempt;
    /// an ephemeral client secret may have expired by then (the upgrade is rejected with 401).
    ///
    /// It is not automatic, unlike the reconnecting clients some official SDKs have: the new
    /// connection has none of the old one's conversation or configuration, which only the caller
    /// can restore.
    ///
    /// - Parameters:
    ///   - policy: Which close codes allow it and the backoff (default 1001, 1005, 1006, 1011,
    ///     1012, 1013, 1015; at most 8 seconds between attempts).
    ///   - willReconnect: Called before each attempt with its number (from 1) and the delay about
    ///     to be waited: log it, update the UI, or throw to stop reconnecting.
    /// - Returns: The new session, or `nil` when the session is still open, was closed by this
    ///   side, or closed with a code the policy does not retry.
    /// - Throws: The last ``WebSocketError`` when every attempt failed, at once for errors that a
    ///   retry cannot fix (TLS verification, a 4xx upgrade answer); what `willReconnect` throws;
    ///   what the key provider throws and ``RealtimeError`` (kind
    ///   ``RealtimeError/Kind/invalidConfiguration``) while building the new endpoint, neither
    ///   retried; `CancellationError` when cancelled.
    public func reconnect(
        policy: RealtimeReconnectPolicy = RealtimeReconnectPolicy(),
        willReconnect: (@Sendable (_ attempt: Int, _ delay: Duration) async throws -> Void)? = nil
    ) async throws -> RealtimeSession? {
        guard let info = closeInfo else { return nil }
        var attempt = 1
        var lastError: WebSocketError?
        while case .reconnect(let delay) = policy.decision(after: info, attempt: attempt) {
            try await willReconnect?(attempt, delay)
            try await Task.sleep(for: delay)
            do {
                return try await Self.open(try await reopen(), options: options, reopen: reopen)
            } catch let error as WebSocketError {
                let retryable =
                    error.kind == .connectionFailed || error.kind == .timeout
                    || (error.kind == .handshakeRejected && (error.httpStatus ?? 0) >= 500)
                guard retryable else { throw error }
                lastError = error
                attempt += 1
            }
        }
        if let lastError { throw lastError }
        return nil
    }
}
