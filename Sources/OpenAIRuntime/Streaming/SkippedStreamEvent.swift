/// A server-sent event that an ``OpenAIStream`` did not deliver because it is not an event of
/// the stream's type: a provider's keep-alive, a frame a proxy added, text that is not JSON.
///
/// Receive them with ``OpenAIStream/onSkippedEvent(_:)``. Error payloads are never skipped: they
/// end the stream with ``OpenAIError``.
public struct SkippedStreamEvent: Sendable, Hashable {
    /// Why an event was skipped.
    public enum Reason: Sendable, Hashable {
        /// The data is not JSON.
        case notJSON
        /// The data is JSON but not an event of the stream's type (e.g. not an object, or an
        /// object with none of the event's members).
        case notAnEvent
    }

    /// The event as received.
    public var event: ServerSentEvent
    /// Why it was skipped.
    public var reason: Reason

    /// Creates a record of a skipped event.
    ///
    /// - Parameters:
    ///   - event: The event as received.
    ///   - reason: Why it was skipped.
    public init(event: ServerSentEvent, reason: Reason) {
        self.event = event
        self.reason = reason
    }
}
