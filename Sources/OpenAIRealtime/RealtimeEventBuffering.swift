import OpenAIWebSocket
/// How a session's `events` stream keeps server events the caller has not read yet.
///
/// A voice session sends many `response.output_audio.delta` events (about 10 per second of audio
/// while the model speaks); a caller that drives the session only through the awaiting helpers and
/// never reads `events` keeps all of them with ``unbounded``.
public enum RealtimeEventBuffering: Hashable, Sendable {
    /// Every event is kept until read (the default).
    case unbounded
    /// At most this many unread events are kept; when another arrives, the oldest unread one is
    /// dropped and counted in `droppedEventCount`. `newest(0)` delivers an event only to a reader
    /// already waiting for one.
    case newest(Int)

    func policy<Event>(for _: Event.Type)
        -> AsyncThrowingStream<Event, any Error>.Continuation
        .BufferingPolicy
    {
        switch self {
        case .unbounded: .unbounded
        case .newest(let limit): .bufferingNewest(max(0, limit))
        }
    }
}
