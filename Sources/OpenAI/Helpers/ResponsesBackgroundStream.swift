import Foundation
import OpenAIRuntime

extension ResponsesAPI {
    /// Creates a background response (`background: true`) and streams it, resuming the stream
    /// when the connection drops: the events continue with
    /// ``retrieveStream(responseID:include:startingAfter:includeObfuscation:options:)`` from the
    /// `sequence_number` of the last event received, so every event arrives once and in order,
    /// and an accumulator applying them (``ResponseStreamAccumulator``) ends with the complete
    /// response.
    ///
    /// ```swift
    /// var accumulator = try ResponseStreamAccumulator()
    /// for try await event in try client.responses.createBackgroundStream(request) {
    ///     try accumulator.apply(event)
    /// }
    /// print(accumulator.finalResponse?.outputText ?? "")
    /// ```
    ///
    /// Only a background response can be resumed: the API keeps its events (OpenAI's background
    /// mode guide). A stream resumes on a dropped or timed-out connection, an event cut off, or an
    /// end without `response.completed` (``OpenAIError/Kind/connection``, ``OpenAIError/Kind/timeout``,
    /// ``OpenAIError/Kind/truncatedEvent``, ``OpenAIError/Kind/missingTerminalEvent``), once the
    /// response's id is known (from `response.created`); other errors end the iteration. A resume
    /// follows at once when the lost stream brought events, else after 0.5 s, 1 s, 2 s, … (at most
    /// 8 s); a connection lost after `response.completed` ends the iteration normally.
    ///
    /// - Parameters:
    ///   - body: The request; `background` and `stream` are set.
    ///   - maxResumes: The most times to resume (0: never).
    ///   - options: Per-request headers, query items, timeout and retries, for the request and
    ///     every resume.
    /// - Returns: The events; the request is sent when iteration starts, and stopping the
    ///   iteration closes the stream (the background response goes on: cancel it with
    ///   ``cancel(responseID:options:)``).
    /// - Throws: ``OpenAIError`` when the request cannot be built. The iteration throws what
    ///   ``createStream(_:options:)``'s does, once resumes are used up or for an error that is
    ///   not a dropped connection.
    public func createBackgroundStream(
        _ body: CreateResponse, maxResumes: Int = 5, options: RequestOptions = RequestOptions()
    ) throws -> EventSequence<ResponseStreamEvent> {
        var body = body
        body.background = true
        let first = try createStream(body, options: options)
        return EventSequence { emit in
            var accumulator = try ResponseStreamAccumulator()
            var stream = first
            var resumes = 0
            var idleResumes = 0
            while true {
                let before = accumulator.lastSequenceNumber
                do {
                    for try await event in stream {
                        try accumulator.apply(event)
                        emit(event)
                    }
                    return
                } catch let error as OpenAIError {
                    // The response is complete: a connection lost after its last event ends nothing.
                    if accumulator.finalResponse != nil { return }
                    guard Self.resumable.contains(error.kind), resumes < maxResumes,
                        let id = accumulator.responseID
                    else { throw error }
                    resumes += 1
                    // At once after a stream that brought events; after one that brought none,
                    // 0.5 s, 1 s, 2 s, … (at most 8 s), so that an outage does not use up the resumes.
                    if accumulator.lastSequenceNumber == before {
                        idleResumes += 1
                        try await client.sleeper.sleep(seconds: min(8, 0.25 * Double(1 << min(idleResumes, 6))))
                    } else {
                        idleResumes = 0
                    }
                    stream = try retrieveStream(
                        responseID: id, startingAfter: accumulator.lastSequenceNumber, options: options)
                }
            }
        }
    }

    /// The errors after which a background stream resumes.
    static let resumable: Set<OpenAIError.Kind> = [.connection, .timeout, .truncatedEvent, .missingTerminalEvent]
}
