import OpenAI
import OpenAIWebSocket

/// A server message that was delivered as `unknown` because it did not decode as the type its
/// `type` member names (or was not JSON, or was binary).
///
/// New event *types* are not failures: the generated unions decode them as `unknown` by design.
/// A failure means a known type arrived in a shape the spec does not describe; the message is
/// still delivered (as `unknown` with its raw JSON) and the session keeps running.
public struct RealtimeDecodingFailure: Sendable, Hashable, CustomStringConvertible {
    /// The message's `type` member, when it had one.
    public var eventType: String?
    /// What went wrong, with the JSON coding path of the failing member.
    public var message: String

    /// Creates a failure record.
    ///
    /// - Parameters:
    ///   - eventType: The `type` member, or `nil`.
    ///   - message: The reason.
    public init(eventType: String?, message: String) {
        self.eventType = eventType
        self.message = message
    }

    /// The type and the reason.
    public var description: String { "\(eventType ?? "<no type>"): \(message)" }
}
