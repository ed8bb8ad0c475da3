import Foundation
import OpenAI
import OpenAIWebSocket

/// Turns WebSocket messages into a generated event union without ever failing the session.
///
/// The generated unions already decode unknown `type` values as `.unknown(JSONValue)`. When a known
/// type does not decode (a shape the spec does not describe), when a text message is not JSON, or
/// for a binary message, the message is still delivered as `.unknown` with what could be kept and
/// a ``RealtimeDecodingFailure`` is reported.
enum EventDecoding {
    /// The result of decoding one message.
    struct Outcome<Event> {
        var event: Event
        var failure: RealtimeDecodingFailure?
    }

    /// Decodes one message.
    ///
    /// - Parameters:
    ///   - message: The WebSocket message.
    ///   - type: The union to decode.
    ///   - unknown: The union's `unknown` case constructor.
    ///   - decoder: The decoder to use (a connection keeps one for all its messages).
    /// - Returns: The event and, when it had to fall back to `unknown`, why.
    static func decode<Event: Decodable>(
        _ message: WebSocketMessage, as type: Event.Type, unknown: (JSONValue) -> Event,
        decoder: OrderedJSONDecoder = OrderedJSONDecoder()
    ) -> Outcome<Event> {
        let data: Data
        switch message {
        case .text(let text): data = Data(text.utf8)
        case .binary(let bytes):
            return Outcome(
                event: unknown(.string(bytes.base64EncodedString())),
                failure: RealtimeDecodingFailure(
                    eventType: nil,
                    message: "binary message of \(bytes.count) bytes (delivered as base64 text)"))
        }
        do {
            return Outcome(event: try decoder.decode(Event.self, from: data), failure: nil)
        } catch {
            let raw = try? JSONValue(parsing: data)
            let reason = describe(error)
            guard let raw else {
                let text = String(decoding: data, as: UTF8.self)
                return Outcome(
                    event: unknown(.string(text)),
                    failure: RealtimeDecodingFailure(
                        eventType: nil, message: "not JSON: \(reason)"))
            }
            return Outcome(
                event: unknown(raw),
                failure: RealtimeDecodingFailure(
                    eventType: raw["type"]?.stringValue, message: reason))
        }
    }

    /// A decoding error as one line with its coding path, for example
    /// `keyNotFound "event_id" at response.output[0]`.
    static func describe(_ error: any Error) -> String {
        func path(_ codingPath: [any CodingKey]) -> String {
            let text = codingPath.map { key in
                key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)"
            }.joined()
            return text.hasPrefix(".") ? String(text.dropFirst()) : (text.isEmpty ? "<root>" : text)
        }
        switch error as? DecodingError {
        case .keyNotFound(let key, let context)?:
            return "missing key \"\(key.stringValue)\" at \(path(context.codingPath))"
        case .typeMismatch(let type, let context)?:
            return "expected \(type) at \(path(context.codingPath)): \(context.debugDescription)"
        case .valueNotFound(let type, let context)?:
            return "null where \(type) is required at \(path(context.codingPath))"
        case .dataCorrupted(let context)?:
            return "\(context.debugDescription) at \(path(context.codingPath))"
        default:
            return "\(error)"
        }
    }

    /// Encodes a client event as compact JSON text (``OrderedJSONEncoder``: members in declaration
    /// order, slashes unescaped, as the API's examples are).
    ///
    /// - Parameters:
    ///   - event: The event.
    /// - Returns: The JSON text as UTF-8 bytes.
    /// - Throws: ``RealtimeError`` of kind ``RealtimeError/Kind/encodingFailed``.
    static func encode(_ event: some Encodable) throws(RealtimeError) -> Data {
        do {
            return try encoder.encode(event)
        } catch {
            throw RealtimeError(.encodingFailed, "cannot encode the client event: \(error)")
        }
    }

    /// One encoder for every session.
    private static let encoder = OrderedJSONEncoder()
}
