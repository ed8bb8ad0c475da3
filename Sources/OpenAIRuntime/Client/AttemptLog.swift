import Foundation

/// Writes the entries of one request's attempts to the configuration's logger, if any.
struct AttemptLog {
    let logger: OpenAILogger?

    /// A 2xx reply (for a stream, its head; for a download, once its file is written).
    func reply(
        _ request: HTTPRequest, status: Int, headers: [String: String], attempt: Int,
        since start: ContinuousClock.Instant
    ) {
        write(.info, request, status: status, headers: headers, attempt: attempt, since: start, message: "")
    }

    /// An attempt that will be retried after `delay` seconds.
    func retry(
        _ request: HTTPRequest, _ response: HTTPResponse?, error: OpenAIError, delay: TimeInterval, attempt: Int,
        since start: ContinuousClock.Instant
    ) {
        write(
            .warning, request, status: response?.statusCode, headers: response?.headers ?? [:], attempt: attempt,
            since: start,
            message: "\(response == nil ? "\(error.kind): " : "")retrying in \(String(format: "%.3f", delay)) s")
    }

    /// The changes made to a request's body for the provider, before its first attempt.
    func adapted(_ request: HTTPRequest, _ changes: [String]) {
        write(
            .warning, request, status: nil, headers: [:], attempt: 1, since: .now,
            message: "adapted to the provider: " + changes.joined(separator: "; "))
    }

    /// The attempt after which the request fails.
    func failure(
        _ request: HTTPRequest, _ response: HTTPResponse?, error: any Error, attempt: Int,
        since start: ContinuousClock.Instant
    ) {
        let reason =
            if let error = error as? OpenAIError {
                "\(error.kind): \(error.message)"
            } else {
                "\(type(of: error)): \(error)"
            }
        write(
            .error, request, status: response?.statusCode, headers: response?.headers ?? [:], attempt: attempt,
            since: start, message: "failed: " + Redaction.text(reason))
    }

    private func write(
        _ level: OpenAILogger.Level, _ request: HTTPRequest, status: Int?, headers: [String: String], attempt: Int,
        since start: ContinuousClock.Instant, message: String
    ) {
        guard let logger, logger.logs(level) else { return }
        let seconds = (ContinuousClock.now - start).seconds
        let debug = logger.logs(.debug)
        logger.handler(
            OpenAILogger.Entry(
                level: level, method: request.method, url: Redaction.url(request.url), statusCode: status,
                requestID: HTTPHeaders.value("x-request-id", in: headers), attempt: attempt, duration: seconds,
                message: message, requestHeaders: debug ? Redaction.headers(request.headers) : nil,
                responseHeaders: debug && status != nil ? Redaction.headers(headers) : nil))
    }
}
