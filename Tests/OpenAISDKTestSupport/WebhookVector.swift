import Foundation
import XCTest

/// OpenAI's published signed webhook vector in `../shared/fixtures/webhooks/signed/`.
package struct WebhookVector {
    package let body: Data
    package let headers: [String: String]
    package let secret: String
    package let signedAt: Date

    package static func load() throws -> WebhookVector {
        let body = try Data(contentsOf: SharedData.file("fixtures/webhooks/signed/response.completed.body.json"))
        let headers = try JSONDecoder().decode(
            [String: String].self,
            from: Data(contentsOf: SharedData.file("fixtures/webhooks/signed/response.completed.headers.json")))
        let secret = try String(
            contentsOf: SharedData.file("fixtures/webhooks/signed/secret.txt"), encoding: .utf8
        ).trimmingCharacters(in: .whitespacesAndNewlines)
        let timestamp = try XCTUnwrap(headers["webhook-timestamp"].flatMap(TimeInterval.init))
        return WebhookVector(
            body: body, headers: headers, secret: secret, signedAt: Date(timeIntervalSince1970: timestamp))
    }
}
