import Foundation
import OpenAIRuntime

/// The structured output so far, while it streams: the JSON received, read with
/// ``PartialJSONDecoder`` (strings that have begun, complete numbers and literals, no member
/// whose value has not begun).
///
/// A partial holds no copy of the text: every partial of a stream shares the stream's one text
/// buffer, which only grows, and knows how much of it was there when it was made. Its ``text``
/// and ``json`` are built when first asked for, so a partial costs a few words however long the
/// output, and partials nobody reads cost nothing. Reading ``json`` of the newest partial (before
/// asking the stream for the next event) takes the decoder's value so far; reading it on an
/// older partial parses that partial's text again, in time linear in its length.
///
/// A partial is `Sendable`: it can be handed to another task or actor and read there while the
/// stream goes on (the shared text is guarded by a lock; a partial never sees text that arrived
/// after it).
public struct PartialOutput<Output: Decodable>: Sendable {
    /// The stream's text, shared by its partials.
    private var source: StreamedJSONText
    /// How many UTF-8 bytes of `source` this partial covers.
    private var length: Int
    /// The value, once built (or set); a box, so that copies of this partial share the work.
    private var cache: Locked<JSONValue?>

    /// The partial of the first `length` UTF-8 bytes of `source` (a length its `append` returned).
    init(source: StreamedJSONText, length: Int) {
        self.source = source
        self.length = length
        cache = Locked(nil)
    }

    /// The value so far: built on first use (the decoder's value for the newest partial, a parse
    /// of ``text`` for an older one), then kept by this partial and its copies.
    public var json: JSONValue {
        get {
            if let cached = cache.withLock({ $0 }) { return cached }
            let value = source.value(length: length)
            cache.withLock { $0 = value }
            return value
        }
        set {
            cache = Locked(newValue)
        }
    }

    /// The text received so far: a new `String` of this partial's part of the stream's text on
    /// each read (time linear in its length). Setting it leaves ``json`` as it was.
    public var text: String {
        get { source.prefix(length) }
        set {
            let value = json
            source = StreamedJSONText(newValue)
            length = newValue.utf8.count
            cache = Locked(value)
        }
    }

    /// The value so far decoded as `Output`, or `nil` while it does not decode (a required member
    /// not yet there). A type whose members are optional decodes from the first member on.
    /// Each call decodes the whole value so far.
    public func value() -> Output? { value(as: Output.self) }

    /// The value so far decoded as another type, typically `Output` with every member optional
    /// (what a screen shows while the output streams), or `nil` while it does not decode.
    public func value<T: Decodable>(as type: T.Type) -> T? { try? json.decode(as: type) }
}

/// The text of a streamed structured output and its decoder: appended to by the stream, read
/// by its ``PartialOutput``s, each up to its own length.
///
/// `@unchecked Sendable`: `state` is a `Locked` (the stream appends while the task that iterates,
/// or another it handed a partial to, reads).
final class StreamedJSONText: @unchecked Sendable {
    private struct State {
        /// Grows in place: no partial holds a reference to it.
        var text = ""
        var decoder = PartialJSONDecoder()
        /// Whether the text stopped being JSON (the decoder threw); it keeps growing.
        var failed = false
        /// The decoder's revision when the last partial was made.
        var partialRevision = 0
    }

    private let state: Locked<State>

    /// An empty text, to be appended to.
    init() {
        state = Locked(State())
    }

    /// A text that is complete as given (a partial's ``PartialOutput/text`` set by hand).
    init(_ text: String) {
        var initial = State()
        initial.text = text
        do { try initial.decoder.append(text) } catch { initial.failed = true }
        state = Locked(initial)
    }

    /// Adds a delta; returns the text's length in UTF-8 bytes when the value so far changed (a
    /// partial to make), or `nil` when it did not or the text is not JSON (any more).
    func append(_ delta: String) -> Int? {
        state.withLock { state in
            state.text.append(delta)
            guard !state.failed, !delta.isEmpty else { return nil }
            do {
                try state.decoder.append(delta)
            } catch {
                state.failed = true
                return nil
            }
            guard state.decoder.revision != state.partialRevision, state.decoder.hasValue else { return nil }
            state.partialRevision = state.decoder.revision
            return state.text.utf8.count
        }
    }

    /// The first `length` UTF-8 bytes of the text (a length `append` returned: a whole number of
    /// characters), as a new string.
    func prefix(_ length: Int) -> String {
        state.withLock { Self.copy(&$0.text, length) }
    }

    /// The value of the first `length` bytes: the decoder's value while the text is that long,
    /// else a parse of those bytes.
    func value(length: Int) -> JSONValue {
        enum Read {
            case value(JSONValue)
            case text(String)
        }
        let read: Read = state.withLock { state in
            if length == state.text.utf8.count, let value = state.decoder.value { return .value(value) }
            return .text(Self.copy(&state.text, length))
        }
        switch read {
        case .value(let value):
            return value
        case .text(let text):
            // Only text the decoder had read without an error was handed to a partial.
            var decoder = PartialJSONDecoder()
            try? decoder.append(text)
            return decoder.value ?? .null
        }
    }

    /// A copy of the first `length` bytes of `text` that shares no storage with it, so that the
    /// next append still grows `text` in place.
    private static func copy(_ text: inout String, _ length: Int) -> String {
        text.withUTF8 { bytes in
            String(decoding: UnsafeBufferPointer(rebasing: bytes.prefix(min(length, bytes.count))), as: UTF8.self)
        }
    }
}
