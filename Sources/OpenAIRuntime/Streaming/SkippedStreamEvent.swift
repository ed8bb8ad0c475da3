/// A server-sent event that an ``OpenAIStream`` did not deliver because it is not an event of
/// the stream's type: a provider's keep-alive, a frame a proxy added, text that is not JSON.
///
/// Receive them with ``OpenAIStream/onSkippedEvent(_:)`` as they happen, or read
/// ``OpenAIStream/skippedEvents`` and pass them to ``SpecDeviationReport/init(_:skippedEvents:)``.
/// Error payloads are never skipped: they end the stream with ``OpenAIError``.
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
    /// Why the data did not decode as the stream's event type, when it did not: an
    /// ``OpenAIError/Kind/decoding`` error naming the field path (``OpenAIError/codingPath``) and
    /// keeping the event's data as its raw body. `nil` for an object that decoded but shares no
    /// member with the event type (``SpecDeviations/sharesNoMember``).
    public var decodingError: OpenAIError?

    /// Creates a record of a skipped event.
    ///
    /// - Parameters:
    ///   - event: The event as received.
    ///   - reason: Why it was skipped.
    ///   - decodingError: Why the data did not decode as an event, when it did not.
    public init(event: ServerSentEvent, reason: Reason, decodingError: OpenAIError? = nil) {
        self.event = event
        self.reason = reason
        self.decodingError = decodingError
    }
}

extension SkippedStreamEvent {
    /// Whether two records are of the same event skipped for the same reason; decoding errors
    /// compare by kind, field path and message.
    public static func == (lhs: SkippedStreamEvent, rhs: SkippedStreamEvent) -> Bool {
        lhs.event == rhs.event && lhs.reason == rhs.reason
            && lhs.decodingError?.kind == rhs.decodingError?.kind
            && lhs.decodingError?.codingPath == rhs.decodingError?.codingPath
            && lhs.decodingError?.message == rhs.decodingError?.message
    }

    /// Hashes the event, the reason and the decoding error's kind, field path and message.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(event)
        hasher.combine(reason)
        hasher.combine(decodingError?.kind)
        hasher.combine(decodingError?.codingPath)
        hasher.combine(decodingError?.message)
    }
}
