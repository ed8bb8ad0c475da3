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
    /// 8 s); a connection lost after `response.completed` ends the iteration normally. Only resumes
    /// in a row that brought no new event count against `maxResumes`: a long response over a
    /// connection that drops now and then is followed to its end.
    ///
    /// - Parameters:
    ///   - body: The request; `background` and `stream` are set.
    ///   - maxResumes: The most resumes in a row whose stream brings no new event (0: never resume).
    ///   - options: Per-request headers, query items, timeout and retries, for the request and
    ///     every resume.
    /// - Returns: The events; the request is sent when iteration starts, and stopping the
    ///   iteration closes the stream (the background response goes on: cancel it with
    ///   ``cancel(responseID:options:)``).
    /// - Throws: ``OpenAIError`` when the request cannot be built. The iteration throws what
    ///   ``createStream(_:options:)``'s does for an error that is not a dropped connection; once
    ///   resumes are used up, that error's kind with a message that names the response, the
    ///   resumes made and the last `sequence_number` received (resume from there with
    ///   ``retrieveStream(responseID:include:startingAfter:includeObfuscation:options:)``: the response goes on on the server).
    public func createBackgroundStream(
        _ body: CreateResponse, maxResumes: Int = 5, options: RequestOptions = RequestOptions()
    ) throws -> EventSequence<ResponseStreamEvent> {
        var body = body
        body.background = true
        let first = try createStream(body, options: options)
        return EventSequence { sink in
            var accumulator = try ResponseStreamAccumulator()
            var stream = first
            // Resumes in a row whose stream brought no new event.
            var stalled = 0
            while true {
                let before = accumulator.lastSequenceNumber
                do {
                    for try await event in stream {
                        try accumulator.apply(event)
                        await sink.send(event)
                    }
                    return
                } catch let error as OpenAIError {
                    // The response is complete: a connection lost after its last event ends nothing.
                    if accumulator.finalResponse != nil { return }
                    guard Self.resumable.contains(error.kind), let id = accumulator.responseID else { throw error }
                    let progressed = accumulator.lastSequenceNumber != before
                    if progressed { stalled = 0 }
                    guard stalled < maxResumes else {
                        var lost = error
                        let last = accumulator.lastSequenceNumber.map { "sequence_number \($0)" } ?? "no event"
                        lost.message =
                            "The background stream of response \(id) was lost after \(stalled) resume(s) in a row "
                            + "without a new event (maxResumes \(maxResumes)); the last received was \(last), and "
                            + "the response goes on on the server: \(error.message)"
                        throw lost
                    }
                    stalled += 1
                    // At once after a stream that brought events; after one that brought none,
                    // 0.5 s, 1 s, 2 s, … (at most 8 s), so that an outage does not use up the resumes.
                    if !progressed {
                        try await client.sleeper.sleep(seconds: min(8, 0.25 * Double(1 << min(stalled, 6))))
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
