import Foundation

/// Rules that map each ``ServerSentEvent`` of an OpenAI stream to a ``StreamStep``.
///
/// ``step(for:)`` applies, in order:
/// 1. data starting with `[DONE]` finishes the stream cleanly (the sentinel OpenAI sends at the
///    end of Chat Completions, Completions, Assistants and audio streams; openai-python's
///    `Stream` checks the same prefix);
/// 2. the error hook, if any, which sees every other event (including ones with empty data)
///    and throws to end the stream with an error (for `event: error` frames or payloads with an
///    `error` object; the SDK's error type supplies it);
/// 3. events with empty data are skipped and never handed to the transform (so never
///    JSON-decoded), for example a block that held only `data:`;
/// 4. the caller's transform decides the rest.
///
/// The decoder does not depend on any generated type; the generated streaming methods supply a
/// transform that decodes their event types.
public struct ServerSentEventDecoder<Element>: Sendable {
    /// A function that inspects an event and throws when it reports an error.
    public typealias ErrorHook = @Sendable (ServerSentEvent) throws -> Void
    /// A function that maps an event (with non-empty data other than `[DONE]`) to a step.
    public typealias Transform = @Sendable (ServerSentEvent) throws -> StreamStep<Element>

    /// The data prefix that ends a stream cleanly.
    public static var doneSentinel: String { "[DONE]" }

    private let errorHook: ErrorHook?
    private let transform: Transform

    /// Creates a decoder from a transform and an optional error hook.
    ///
    /// - Parameters:
    ///   - errorHook: Called for every event except `[DONE]`, before the empty-data rule;
    ///     throw from it to end the stream with that error. `nil` for no error detection.
    ///   - transform: Maps an event with non-empty data to an element, a skip or the end.
    public init(errorHook: ErrorHook? = nil, transform: @escaping Transform) {
        self.errorHook = errorHook
        self.transform = transform
    }

    /// Applies the built-in rules and then the transform to one event.
    ///
    /// - Parameters:
    ///   - event: The dispatched event.
    /// - Returns: `.finish` for `[DONE]`, `.skip` for empty data, otherwise the transform's step.
    /// - Throws: The error thrown by the error hook or the transform.
    public func step(for event: ServerSentEvent) throws -> StreamStep<Element> {
        if event.data.hasPrefix(Self.doneSentinel) { return .finish }
        try errorHook?(event)
        if event.data.isEmpty { return .skip }
        return try transform(event)
    }
}

extension ServerSentEventDecoder where Element: Decodable & Sendable {
    /// A decoder that decodes each event's data as JSON of type `Element`.
    ///
    /// - Parameters:
    ///   - type: The type to decode every event's data into.
    ///   - makeDecoder: Creates the `JSONDecoder` used for each event (configure date or key
    ///     strategies here). Called once per event so no decoder is shared across threads.
    ///   - errorHook: Called for every event except `[DONE]`; throw to end the stream.
    /// - Returns: A decoder whose transform yields `.element` for every event with data.
    /// - Throws: Nothing itself; its ``step(for:)`` throws `DecodingError` when an event's data is
    ///   not valid JSON for `type`.
    public static func json(
        _ type: Element.Type = Element.self,
        makeDecoder: @escaping @Sendable () -> JSONDecoder = { JSONDecoder() },
        errorHook: ErrorHook? = nil
    ) -> ServerSentEventDecoder<Element> {
        ServerSentEventDecoder(errorHook: errorHook) { event in
            .element(try makeDecoder().decode(Element.self, from: Data(event.data.utf8)))
        }
    }
}
