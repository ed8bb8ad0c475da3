import Foundation

extension OpenAIClient {
    /// Runs `call` on a client that records its replies, and returns the call's value with the
    /// HTTP head (status, headers, request id, attempts) of the last reply it received.
    ///
    /// This is how the request id of any reply is read: decoded values carry no request id
    /// themselves (openai-python's `_request_id`), since a member on every generated type would
    /// make it part of their equality and cost compile time on hundreds of types. An error's
    /// ``OpenAIError/requestID`` has it too. For the body bytes, see ``withUndecodedResponse(isolation:_:)``.
    ///
    /// ```swift
    /// let (models, raw) = try await client.withRawResponse { try await $0.models.list() }
    /// print(raw.statusCode, raw.requestID ?? "-")
    /// ```
    ///
    /// Only requests sent through the client `call` is given are recorded (and through clients
    /// derived from it with ``withOptions(headers:query:replacingHeaders:replacingQuery:_:)``);
    /// this client itself is unchanged. A recording client kept past the call records nothing more.
    ///
    /// - Parameter call: One SDK call on the client it is given (or several: the last reply is
    ///   kept).
    /// - Returns: The call's value and the reply head.
    /// - Throws: What `call` throws; ``OpenAIError`` of kind ``OpenAIError/Kind/invalidRequest``
    ///   when `call` made no request.
    public func withRawResponse<Value>(
        isolation: isolated (any Actor)? = #isolation, _ call: (OpenAIClient) async throws -> Value
    ) async throws -> (value: Value, response: RawResponse) {
        let recorder = RawResponseRecorder()
        defer { recorder.close() }
        let value = try await call(recording(into: recorder))
        guard let response = recorder.response else {
            throw OpenAIError(kind: .invalidRequest, message: "withRawResponse: the call sent no request.")
        }
        return (value, response)
    }
}

extension OpenAIClient {
    /// Runs `call` up to its first 2xx reply and returns that reply undecoded, with its head and
    /// body bytes; ``UndecodedResponse/decode()`` decodes it later, as the call would have.
    ///
    /// The call stops once that reply has arrived: `call` should be one SDK method, on the client
    /// it is given, that returns a JSON reply, and `Value` that method's own return type
    /// (`{ try await $0.models.list() }`, not `{ try await $0.models.list().data }`, whose
    /// `decode()` would fail at run time). For a helper that sends several requests, only the
    /// first is made. Requests sent through any other client are not affected.
    ///
    /// - Parameter call: The call, e.g. `{ try await $0.models.list() }`.
    /// - Returns: The undecoded reply.
    /// - Throws: What `call` throws before the reply (``OpenAIError`` for a non-2xx reply after
    ///   retries); ``OpenAIError`` of kind ``OpenAIError/Kind/invalidRequest`` when `call`
    ///   returned without a JSON reply (a binary download, no request).
    public func withUndecodedResponse<Value: Decodable>(
        isolation: isolated (any Actor)? = #isolation, _ call: (OpenAIClient) async throws -> Value
    ) async throws -> UndecodedResponse<Value> {
        let recorder = RawResponseRecorder(defersDecoding: true)
        defer { recorder.close() }
        do {
            _ = try await call(recording(into: recorder))
        } catch is DecodingDeferred {
        } catch {
            // A helper that turned the signal into its own error still made the request.
            if let reply = recorder.undecoded { return UndecodedResponse(reply) }
            throw error
        }
        guard let reply = recorder.undecoded else {
            throw OpenAIError(
                kind: .invalidRequest, message: "withUndecodedResponse: the call received no JSON reply.")
        }
        return UndecodedResponse(reply)
    }
}
