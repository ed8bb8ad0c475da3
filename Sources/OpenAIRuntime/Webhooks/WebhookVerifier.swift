import Foundation

/// Verifies the signature of a webhook delivery (the Standard Webhooks scheme OpenAI uses):
/// HMAC-SHA256 over `"{webhook-id}.{webhook-timestamp}.{body}"` with the base64 secret after
/// `whsec_`, compared in constant time with each `v1,<base64>` entry of the space-separated
/// `webhook-signature` header; `webhook-timestamp` (Unix seconds) must lie within the tolerance
/// of the current time.
///
/// Every input is untrusted and read totally: no header value, however long, large, negative or
/// malformed, traps or throws anything but ``OpenAIError/Kind/webhookVerification``. The checks run
/// cheapest first, so an unauthenticated request costs little: header sizes, the timestamp, the
/// payload size (``maxPayloadBytes``, before anything is hashed), then the signature.
public struct WebhookVerifier: Sendable {
    /// The default tolerance between the delivery's timestamp and now: 300 seconds.
    public static let defaultTolerance: TimeInterval = 300
    /// The default largest payload verified: 1 MiB (OpenAI's webhook events are a few KiB).
    public static let defaultMaxPayloadBytes = 1 << 20
    /// The largest header value read, in bytes (`webhook-id`, `webhook-timestamp`,
    /// `webhook-signature`): 8 KiB.
    public static let maxHeaderBytes = 8192

    private let key: [UInt8]
    /// The largest allowed difference between `webhook-timestamp` and now, in seconds.
    public let tolerance: TimeInterval
    /// The largest payload verified, in bytes; a larger one is rejected before it is hashed.
    public let maxPayloadBytes: Int

    /// Creates a verifier.
    ///
    /// - Parameters:
    ///   - secret: The endpoint's signing secret: `whsec_` followed by base64 (the raw UTF-8 bytes
    ///     are used when the prefix is absent).
    ///   - tolerance: The largest allowed clock difference, in seconds.
    ///   - maxPayloadBytes: The largest payload verified, in bytes.
    /// - Throws: ``OpenAIError`` of kind ``OpenAIError/Kind/webhookVerification`` when the
    ///   `whsec_` secret is not valid base64 or is empty.
    public init(
        secret: String, tolerance: TimeInterval = WebhookVerifier.defaultTolerance,
        maxPayloadBytes: Int = WebhookVerifier.defaultMaxPayloadBytes
    ) throws {
        let trimmed = secret.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasPrefix("whsec_") {
            guard let decoded = Data(base64Encoded: String(trimmed.dropFirst(6))) else {
                throw OpenAIError(kind: .webhookVerification, message: "The webhook secret is not valid base64.")
            }
            key = [UInt8](decoded)
        } else {
            key = [UInt8](trimmed.utf8)
        }
        guard !key.isEmpty else {
            throw OpenAIError(kind: .webhookVerification, message: "The webhook secret is empty.")
        }
        self.tolerance = tolerance.isNaN ? 0 : max(0, tolerance)
        self.maxPayloadBytes = max(0, maxPayloadBytes)
    }

    /// Checks that `payload` was signed with this secret, recently.
    ///
    /// - Parameters:
    ///   - payload: The raw request body, byte for byte as received.
    ///   - headers: The request headers (names compared without regard to case).
    ///   - now: The current time (inject a fixed clock in tests).
    /// - Throws: ``OpenAIError`` of kind ``OpenAIError/Kind/webhookVerification`` when a header
    ///   is missing or longer than ``maxHeaderBytes``, the timestamp is not a whole number of
    ///   seconds or lies outside the tolerance, the payload is larger than ``maxPayloadBytes``,
    ///   or no `v1` signature matches.
    public func verify(payload: Data, headers: [String: String], now: Date = Date()) throws {
        func header(_ name: String) throws -> String {
            guard let value = HTTPHeaders.value(name, in: headers), !value.isEmpty else {
                throw OpenAIError(kind: .webhookVerification, message: "The \(name) header is missing.")
            }
            guard value.utf8.count <= Self.maxHeaderBytes else {
                throw OpenAIError(
                    kind: .webhookVerification,
                    message: "The \(name) header is longer than \(Self.maxHeaderBytes) bytes.")
            }
            return value
        }
        let id = try header("webhook-id")
        let timestampText = try header("webhook-timestamp")
        let signatures = try header("webhook-signature")
        guard let timestamp = Self.seconds(timestampText) else {
            throw OpenAIError(
                kind: .webhookVerification, message: "The webhook-timestamp header is not a whole number of seconds.")
        }
        // Both are exact in a Double far beyond any real clock; the difference cannot overflow.
        let age = now.timeIntervalSince1970 - Double(timestamp)
        guard age.isFinite, abs(age) <= tolerance else {
            let direction = age > 0 ? "old" : "in the future"
            throw OpenAIError(
                kind: .webhookVerification,
                message:
                    "The webhook timestamp is \(Self.describe(abs(age))) s \(direction) (tolerance \(tolerance) s).")
        }
        guard payload.count <= maxPayloadBytes else {
            throw OpenAIError(
                kind: .webhookVerification,
                message: "The webhook payload is \(payload.count) bytes, more than the \(maxPayloadBytes) verified.")
        }
        let prefix = [UInt8]("\(id).\(timestampText).".utf8)
        let expected = prefix.withUnsafeBytes { prefixBytes in
            payload.withUnsafeBytes { body in
                HMACSHA256.authenticationCode(key: key, parts: [prefixBytes, body])
            }
        }
        // Every candidate is compared (in constant time each), matching or not.
        var matched = false
        for entry in signatures.split(separator: " ") {
            let parts = entry.split(separator: ",", maxSplits: 1)
            guard parts.count == 2, parts[0] == "v1", let candidate = Data(base64Encoded: String(parts[1])) else {
                continue
            }
            if HMACSHA256.constantTimeEqual([UInt8](candidate), expected) { matched = true }
        }
        guard matched else {
            throw OpenAIError(kind: .webhookVerification, message: "No webhook signature matches the payload.")
        }
    }

    /// The headers that sign `payload` with this secret, as OpenAI sends them: for tests of a
    /// webhook endpoint, and for forwarding a delivery to another service of your own.
    ///
    /// ```swift
    /// let verifier = try WebhookVerifier(secret: "whsec_…")
    /// let headers = verifier.signedHeaders(payload: body, id: "wh_123")
    /// try verifier.verify(payload: body, headers: headers)  // passes
    /// ```
    ///
    /// - Parameters:
    ///   - payload: The request body, byte for byte as it will be sent.
    ///   - id: The delivery's `webhook-id`.
    ///   - timestamp: When it was signed (`webhook-timestamp`, whole Unix seconds); now by default.
    /// - Returns: `webhook-id`, `webhook-timestamp` and `webhook-signature` (`v1,<base64>` of
    ///   HMAC-SHA256 over `"{webhook-id}.{webhook-timestamp}.{body}"`).
    public func signedHeaders(payload: Data, id: String, timestamp: Date = Date()) -> [String: String] {
        let seconds = String(Int64(timestamp.timeIntervalSince1970.rounded(.down)))
        let prefix = [UInt8]("\(id).\(seconds).".utf8)
        let code = prefix.withUnsafeBytes { prefixBytes in
            payload.withUnsafeBytes { body in
                HMACSHA256.authenticationCode(key: key, parts: [prefixBytes, body])
            }
        }
        return [
            "webhook-id": id, "webhook-timestamp": seconds,
            "webhook-signature": "v1," + Data(code).base64EncodedString(),
        ]
    }

    /// A `webhook-timestamp`: 1 to 19 ASCII digits, with surrounding spaces, as Unix seconds.
    static func seconds(_ text: String) -> Int64? {
        let digits = text.trimmingCharacters(in: .whitespaces)
        guard (1...19).contains(digits.utf8.count), digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            return nil
        }
        return Int64(digits)
    }

    /// Seconds for a message: whole below a trillion, else in scientific notation (never a trap).
    private static func describe(_ seconds: Double) -> String {
        seconds < 1e12 ? String(Int64(seconds)) : String(format: "%.3g", seconds)
    }
}

extension WebhookVerifier: CustomStringConvertible, CustomReflectable {
    /// The limits; never the secret.
    public var description: String {
        "WebhookVerifier(secret: <redacted>, tolerance: \(tolerance) s, maxPayloadBytes: \(maxPayloadBytes))"
    }

    /// A mirror without the secret.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: ["secret": Redaction.placeholder, "tolerance": tolerance, "maxPayloadBytes": maxPayloadBytes])
    }
}
