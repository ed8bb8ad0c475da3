/// What a typed stream does with one server-sent event: yield an element, skip the event, or
/// end the stream cleanly.
///
/// Returned by the transform of a ``ServerSentEventDecoder``.
public enum StreamStep<Element> {
    /// Yield this element to the caller.
    case element(Element)
    /// Yield nothing for this event and continue with the next one.
    case skip
    /// End the stream cleanly; later events are not read.
    case finish
}

extension StreamStep: Sendable where Element: Sendable {}
extension StreamStep: Equatable where Element: Equatable {}
extension StreamStep: Hashable where Element: Hashable {}
