import Foundation

/// Verifies the signature of a webhook delivery (the Standard Webhooks scheme OpenAI uses):
/// HMAC-SHA256 over `"{webhook-id}.{webhook-timestamp}.{body}"` with the base64 secret after
/// `whsec_`, compared in constant time with each `v1,<base64>` entry of the space-separated
/// `webhook-signature` header; `webhook-timestamp` (Unix seconds) must lie within the tolerance
/// of the current time.
public struct WebhookVerifier: Sendable {
    /// The default tolerance between the delivery's timestamp and now: 300 seconds.
    public static let defaultTolerance: TimeInterval = 300

    private let key: [UInt8]
    /// The largest allowed difference between `webhook-timestamp` and now, in seconds.
    public let tolerance: TimeInterval

    /// Creates a verifier.
    ///
    /// - Parameters:
    ///   - secret: The endpoint's signing secret: `whsec_` followed by base64 (the raw UTF-8 bytes
    ///     are used when the prefix is absent).
    ///   - tolerance: The largest allowed clock difference, in seconds.
    /// - Throws: ``OpenAIError`` of kind ``OpenAIError/Kind/webhookVerification`` when the
    ///   `whsec_` secret is not valid base64.
    public init(secret: String, tolerance: TimeInterval = WebhookVerifier.defaultTolerance) throws {
        let trimmed = secret.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasPrefix("whsec_") {
            guard let decoded = Data(base64Encoded: String(trimmed.dropFirst(6))) else {
                throw OpenAIError(kind: .webhookVerification, message: "The webhook secret is not valid base64.")
            }
            key = [UInt8](decoded)
        } else {
            key = [UInt8](trimmed.utf8)
        }
        self.tolerance = tolerance
    }

    /// Checks that `payload` was signed with this secret, recently.
    ///
    /// - Parameters:
    ///   - payload: The raw request body, byte for byte as received.
    ///   - headers: The request headers (names compared without regard to case).
    ///   - now: The current time (inject a fixed clock in tests).
    /// - Throws: ``OpenAIError`` of kind ``OpenAIError/Kind/webhookVerification`` when a header
    ///   is missing, the timestamp is not a number or lies outside the tolerance, or no `v1`
    ///   signature matches.
    public func verify(payload: Data, headers: [String: String], now: Date = Date()) throws {
        func header(_ name: String) throws -> String {
            guard let value = HTTPHeaders.value(name, in: headers), !value.isEmpty else {
                throw OpenAIError(kind: .webhookVerification, message: "The \(name) header is missing.")
            }
            return value
        }
        let id = try header("webhook-id")
        let timestampText = try header("webhook-timestamp")
        let signatures = try header("webhook-signature")
        guard let timestamp = Int64(timestampText.trimmingCharacters(in: .whitespaces)) else {
            throw OpenAIError(kind: .webhookVerification, message: "The webhook-timestamp header is not a number.")
        }
        let age = now.timeIntervalSince1970 - TimeInterval(timestamp)
        if age > tolerance {
            throw OpenAIError(
                kind: .webhookVerification,
                message: "The webhook timestamp is \(Int(age)) s old (tolerance \(tolerance) s).")
        }
        if age < -tolerance {
            throw OpenAIError(
                kind: .webhookVerification,
                message: "The webhook timestamp is \(Int(-age)) s in the future (tolerance \(tolerance) s).")
        }
        let expected = HMACSHA256.authenticationCode(
            key: key, message: [UInt8]("\(id).\(timestampText).".utf8) + [UInt8](payload))
        for entry in signatures.split(separator: " ") {
            let parts = entry.split(separator: ",", maxSplits: 1)
            guard parts.count == 2, parts[0] == "v1", let candidate = Data(base64Encoded: String(parts[1])) else {
                continue
            }
            if HMACSHA256.constantTimeEqual([UInt8](candidate), expected) { return }
        }
        throw OpenAIError(kind: .webhookVerification, message: "No webhook signature matches the payload.")
    }
}
