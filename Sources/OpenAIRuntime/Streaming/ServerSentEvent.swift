/// One event dispatched from a `text/event-stream` body.
///
/// The fields mirror what the WHATWG HTML Standard, section 9.2 "Server-sent events"
/// (9.2.5 "Parsing an event stream" and 9.2.6 "Interpreting an event stream"), puts into a
/// dispatched `MessageEvent`, plus the `retry` field of the block that produced the event.
/// ``ServerSentEventParser`` creates these values; you rarely build one yourself except in tests.
public struct ServerSentEvent: Sendable, Hashable {
    /// The event type from the block's last `event:` line, or `nil` when the block had none
    /// (or an empty one); a browser would report the type `"message"` in that case.
    public var event: String?

    /// The block's `data:` values joined with U+000A LINE FEED, without the final line feed.
    ///
    /// It can be empty (a block with a bare `data` or `data:` line); the typed layer
    /// (``ServerSentEventDecoder``) skips such events instead of decoding them.
    public var data: String

    /// The last event ID in effect when this event was dispatched, or `nil` when it is empty.
    ///
    /// As the standard requires, an `id:` line sets the ID for this and every later event until
    /// another `id:` line changes it; an `id:` value containing U+0000 NULL is ignored.
    public var id: String?

    /// The reconnection time, in milliseconds, set by a `retry:` line inside this event's own
    /// block, or `nil` when the block had no valid `retry:` line.
    ///
    /// The stream-wide value, which also remembers `retry:` lines of blocks that dispatched no
    /// event, is ``ServerSentEventParser/reconnectionTime``.
    public var retry: Int?

    /// Creates an event.
    ///
    /// - Parameters:
    ///   - event: The event type (`event:` field), or `nil` for none.
    ///   - data: The event data (`data:` fields joined with line feeds).
    ///   - id: The last event ID (`id:` field), or `nil` for none.
    ///   - retry: The reconnection time in milliseconds (`retry:` field), or `nil` for none.
    public init(event: String? = nil, data: String, id: String? = nil, retry: Int? = nil) {
        self.event = event
        self.data = data
        self.id = id
        self.retry = retry
    }
}
