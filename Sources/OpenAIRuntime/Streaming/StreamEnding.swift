/// How a streaming operation's event stream ends when it is complete, so that a stream whose
/// connection closed early is reported as cut off instead of looking complete.
///
/// `data: [DONE]` always completes a stream. Beyond it, a stream is complete when it delivered one
/// of ``terminalEvents`` (by its `event:` name or its JSON `type`), or, for Chat Completions and
/// Completions, when every choice it mentioned has a `finish_reason`. A stream with neither rule
/// (an operation the overlay in `Spec/overrides.json` does not describe) is complete whenever it
/// ends between events.
package struct StreamEnding<Event>: Sendable {
    /// Event types that complete the stream.
    var terminalEvents: Set<String>
    /// Records the choices of one event in the tracker: Chat Completions and Completions.
    var trackChoices: (@Sendable (Event, inout ChoiceCompletion) -> Void)?

    /// No rule beyond `[DONE]` and the end of the last event.
    package static var unspecified: StreamEnding { StreamEnding(terminalEvents: [], trackChoices: nil) }

    /// Complete after one of `names` (or `[DONE]`).
    package static func terminalEvents(_ names: Set<String>) -> StreamEnding {
        StreamEnding(terminalEvents: names, trackChoices: nil)
    }

    /// Complete after `[DONE]`, or when every choice that `track` reports has finished.
    package static func finishedChoices(_ track: @escaping @Sendable (Event, inout ChoiceCompletion) -> Void)
        -> StreamEnding
    {
        StreamEnding(terminalEvents: [], trackChoices: track)
    }

    /// Whether the stream must end with something: `[DONE]`, a terminal event or finished choices.
    var requiresEnd: Bool { !terminalEvents.isEmpty || trackChoices != nil }
}
