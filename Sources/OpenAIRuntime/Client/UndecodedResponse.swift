import Foundation

/// A 2xx reply of a JSON operation, not decoded yet: its head, its body bytes and the decode the
/// SDK would have done (openai-python's `with_raw_response` and `.parse()`).
///
/// ```swift
/// let reply = try await client.withUndecodedResponse { try await $0.models.list() }
/// print(reply.response.requestID ?? "-", reply.body.count)
/// let models = try reply.decode()
/// ```
public struct UndecodedResponse<Value: Decodable>: Sendable {
    /// The reply's status, headers (``RawResponse/requestID``) and attempts.
    public let response: RawResponse
    /// The reply's body, as it arrived.
    public let body: Data
    private let reply: UndecodedReply

    init(_ reply: UndecodedReply) {
        self.reply = reply
        response = reply.head
        body = reply.response.body
    }

    /// Decodes the body as the call would have: with the client's ``DecodingMode``, and a text
    /// reply (`text/plain`) as a string where the type takes one.
    ///
    /// - Returns: The value.
    /// - Throws: ``OpenAIError`` of kind ``OpenAIError/Kind/decoding`` with the field path and the
    ///   body's start.
    public func decode() throws -> Value {
        try decode(as: Value.self)
    }

    /// Decodes the body as another type (a subset of the members, your own type).
    ///
    /// - Parameter type: The type to decode.
    /// - Returns: The value.
    /// - Throws: ``OpenAIError`` of kind ``OpenAIError/Kind/decoding``.
    public func decode<Other: Decodable>(as type: Other.Type) throws -> Other {
        try OpenAIClient.decodeReply(
            Other.self, from: reply.response, mode: reply.decodingMode, defaultedMembers: reply.defaultedBodyMembers)
    }
}
