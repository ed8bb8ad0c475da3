// Fuzz target: webhook verification (Sources/OpenAIRuntime/Webhooks/WebhookVerifier.swift): the
// `webhook-id`, `webhook-timestamp` and `webhook-signature` headers and the secret.
//
// The input is five fields separated by line feeds: the secret, webhook-id, webhook-timestamp,
// webhook-signature, then the payload (the rest, line feeds included); missing fields are absent
// headers. Invariants:
// - `init(secret:)` and `verify(payload:headers:now:)` throw nothing but `OpenAIError` of kind
//   `webhookVerification`, and never trap, whatever the header values;
// - the headers `signedHeaders(payload:id:timestamp:)` makes for the same payload and id verify
//   (when the id is a header value verify reads: not empty, at most 8 KiB);
// - the timestamp is read as 1 to 19 ASCII digits with surrounding spaces, and nothing else.

import Foundation
@testable import OpenAIRuntime

func expectVerificationError(_ body: () throws -> Void) -> Bool {
    do {
        try body()
        return true
    } catch let error as OpenAIError {
        invariant(error.kind == .webhookVerification, "threw OpenAIError of kind \(error.kind)")
        _ = error.description
        return false
    } catch {
        invariant(false, "threw \(type(of: error)), not OpenAIError")
        return false
    }
}

/// The timestamp rule spelled out again, in the plainest way.
func expectedSeconds(_ text: String) -> Int64? {
    let digits = text.trimmingCharacters(in: .whitespaces)
    guard !digits.isEmpty, digits.utf8.count <= 19, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
        return nil
    }
    return Int64(digits)
}

let signedAt = Date(timeIntervalSince1970: 1_750_861_210)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebhookHeaders(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzBytes(data, size)
    let fields = bytes.split(separator: 0x0A, maxSplits: 4, omittingEmptySubsequences: false)
    func field(_ index: Int) -> String? {
        index < fields.count ? String(decoding: fields[index], as: UTF8.self) : nil
    }
    let payload = fields.count > 4 ? Data(fields[4]) : Data()
    var headers: [String: String] = [:]
    for (index, name) in ["webhook-id", "webhook-timestamp", "webhook-signature"].enumerated() {
        if let value = field(index + 1) { headers[name] = value }
    }
    if let timestamp = field(2) {
        invariant(
            WebhookVerifier.seconds(timestamp) == expectedSeconds(timestamp),
            "webhook-timestamp \(timestamp.debugDescription) read as \(String(describing: WebhookVerifier.seconds(timestamp)))"
        )
    }
    var verifier: WebhookVerifier?
    _ = expectVerificationError { verifier = try WebhookVerifier(secret: field(0) ?? "") }
    guard let verifier else { return 0 }
    for now in [signedAt, Date(timeIntervalSince1970: 0), Date()] {
        _ = expectVerificationError { try verifier.verify(payload: payload, headers: headers, now: now) }
    }
    if let id = field(1), !id.isEmpty, id.utf8.count <= WebhookVerifier.maxHeaderBytes {
        let signed = verifier.signedHeaders(payload: payload, id: id, timestamp: signedAt)
        let verified = expectVerificationError { try verifier.verify(payload: payload, headers: signed, now: signedAt) }
        invariant(verified, "signedHeaders(payload:id:timestamp:) do not verify")
    }
    return 0
}
