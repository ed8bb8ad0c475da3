import Foundation
import OpenAIRuntime

/// Verifies webhook deliveries and decodes them into ``WebhookEvent``.
///
/// ```swift
/// let event = try client.webhooks.unwrap(body, headers: request.headers)
/// if case .responseCompleted(let completed) = event { print(completed.data.id) }
/// ```
public struct WebhooksAPI: Sendable {
    /// The client whose ``OpenAIClient/Configuration/webhookSecret`` is the default secret.
    public let client: OpenAIClient

    /// Checks a delivery's signature and timestamp.
    ///
    /// - Parameters:
    ///   - payload: The raw request body, byte for byte as received.
    ///   - headers: The request headers (`webhook-id`, `webhook-timestamp`, `webhook-signature`).
    ///   - secret: The signing secret; the client's ``OpenAIClient/Configuration/webhookSecret``
    ///     (`OPENAI_WEBHOOK_SECRET`) when `nil`.
    ///   - tolerance: The largest allowed clock difference, in seconds; 300 by default.
    ///   - maxPayloadBytes: The largest payload verified, in bytes (1 MiB by default); a larger
    ///     one is rejected before it is hashed.
    ///   - now: The current time.
    /// - Throws: ``OpenAIError`` of kind ``OpenAIError/Kind/webhookVerification`` when no secret
    ///   is set or the delivery does not verify (see ``WebhookVerifier/verify(payload:headers:now:)``).
    public func verifySignature(
        _ payload: Data, headers: [String: String], secret: String? = nil,
        tolerance: TimeInterval = WebhookVerifier.defaultTolerance,
        maxPayloadBytes: Int = WebhookVerifier.defaultMaxPayloadBytes, now: Date = Date()
    ) throws {
        guard let secret = secret ?? client.configuration.webhookSecret else {
            throw OpenAIError(
                kind: .webhookVerification,
                message: "No webhook secret: pass one or set OPENAI_WEBHOOK_SECRET / Configuration(webhookSecret:).")
        }
        try WebhookVerifier(secret: secret, tolerance: tolerance, maxPayloadBytes: maxPayloadBytes)
            .verify(payload: payload, headers: headers, now: now)
    }

    /// Verifies a delivery and decodes it as a ``WebhookEvent`` (an unknown `type` decodes as
    /// ``WebhookEvent/unknown(_:)``).
    ///
    /// - Parameters:
    ///   - payload: The raw request body, byte for byte as received.
    ///   - headers: The request headers.
    ///   - secret: The signing secret; the client's when `nil`.
    ///   - tolerance: The largest allowed clock difference, in seconds.
    ///   - maxPayloadBytes: The largest payload verified, in bytes.
    ///   - now: The current time.
    /// - Returns: The event.
    /// - Throws: ``OpenAIError`` of kind ``OpenAIError/Kind/webhookVerification`` when the
    ///   delivery does not verify, of kind ``OpenAIError/Kind/decoding`` (with the JSON path)
    ///   when the body does not decode.
    public func unwrap(
        _ payload: Data, headers: [String: String], secret: String? = nil,
        tolerance: TimeInterval = WebhookVerifier.defaultTolerance,
        maxPayloadBytes: Int = WebhookVerifier.defaultMaxPayloadBytes, now: Date = Date()
    ) throws -> WebhookEvent {
        try verifySignature(
            payload, headers: headers, secret: secret, tolerance: tolerance, maxPayloadBytes: maxPayloadBytes, now: now)
        do {
            return try OrderedJSONDecoder().decode(WebhookEvent.self, from: payload)
        } catch let error as DecodingError {
            throw OpenAIError.decoding(error, response: HTTPResponse(statusCode: 200, headers: [:], body: payload))
        }
    }
}

extension OpenAIClient {
    /// Webhook verification and decoding.
    public var webhooks: WebhooksAPI { WebhooksAPI(client: self) }
}
