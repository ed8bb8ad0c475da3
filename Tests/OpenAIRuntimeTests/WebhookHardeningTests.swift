import Foundation
import XCTest
import OpenAISDKTestSupport

@testable import OpenAIRuntime

/// Webhook verification on hostile input: no header value traps, large payloads are refused
/// before hashing, and signatures compare in constant time.
final class WebhookHardeningTests: XCTestCase {
    private func rejected(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let error as OpenAIError {
            XCTAssertEqual(error.kind, .webhookVerification)
            return error.message
        } catch {
            XCTFail("unexpected \(error)")
            return nil
        }
    }

    func testTimestampsWhoseAgeOverflowsAnIntegerAreRejectedNotTrapped() throws {
        let vector = try WebhookVector.load()
        let verifier = try WebhookVerifier(secret: vector.secret)
        for timestamp in [
            "-9223372036854775808", "9223372036854775807", "99999999999999999999999", "-1", "+1750861210",
            "1750861210.5", "1e18", "0x10", "１７５０８６１２１０", " 1750861210 ", "", "\u{0}", "NaN",
        ] {
            var headers = vector.headers
            headers["webhook-timestamp"] = timestamp
            let message = rejected { try verifier.verify(payload: vector.body, headers: headers, now: vector.signedAt) }
            if timestamp == " 1750861210 " {
                // Surrounding spaces are read, but the signature covers the header as sent.
                XCTAssertEqual(message, "No webhook signature matches the payload.")
            } else {
                XCTAssertNotNil(message, timestamp)
            }
        }
        var headers = vector.headers
        headers["webhook-timestamp"] = "9223372036854775807"
        XCTAssertEqual(
            rejected { try verifier.verify(payload: vector.body, headers: headers, now: vector.signedAt) },
            "The webhook timestamp is 9.22e+18 s in the future (tolerance 300.0 s).")
    }

    func testARandomHeaderFuzzNeverTrapsAndNeverVerifies() throws {
        let vector = try WebhookVector.load()
        let verifier = try WebhookVerifier(secret: vector.secret)
        var random = SeededRandom(seed: 0xF0_22)
        let pieces = [
            "v1,", "v2,", "=", " ", ",", "-", "9", "0", "9223372036854775808", "\u{FFFD}", "é", "\u{0}", "\r\n", "msg_",
            "AAAA", vector.headers["webhook-signature"]!, vector.headers["webhook-timestamp"]!, "١",
        ]
        func text() -> String {
            (0..<Int(random.next() % 6)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
        }
        var accepted = 0
        for _ in 0..<3000 {
            var headers = vector.headers
            for name in ["webhook-id", "webhook-timestamp", "webhook-signature"] where random.next() % 2 == 0 {
                headers[name] = text()
            }
            if headers == vector.headers { continue }
            do {
                try verifier.verify(payload: vector.body, headers: headers, now: vector.signedAt)
                accepted += 1
            } catch let error as OpenAIError {
                XCTAssertEqual(error.kind, .webhookVerification)
            }
        }
        // Only an unchanged id, timestamp and a list still holding the real signature verify.
        XCTAssertLessThan(accepted, 300)
    }

    func testAPayloadOverTheLimitIsRejectedBeforeHashingAndHugeHeadersToo() throws {
        let vector = try WebhookVector.load()
        let verifier = try WebhookVerifier(secret: vector.secret, maxPayloadBytes: 4096)
        let big = Data(repeating: 0x61, count: 50_000_000)
        let start = Date()
        XCTAssertEqual(
            rejected { try verifier.verify(payload: big, headers: vector.headers, now: vector.signedAt) },
            "The webhook payload is 50000000 bytes, more than the 4096 verified.")
        XCTAssertLessThan(Date().timeIntervalSince(start), 0.5, "nothing was hashed")
        XCTAssertEqual(WebhookVerifier.defaultMaxPayloadBytes, 1 << 20)
        var headers = vector.headers
        headers["webhook-signature"] = String(repeating: "v1,AAAA ", count: 10_000)
        XCTAssertEqual(
            rejected { try verifier.verify(payload: vector.body, headers: headers, now: vector.signedAt) },
            "The webhook-signature header is longer than 8192 bytes.")
        XCTAssertThrowsError(try WebhookVerifier(secret: "whsec_"))
    }

    func testHashingAMegabyteTakesMilliseconds() throws {
        // The streaming SHA-256 hashes in place (no copy of the payload, nothing allocated per
        // block); the previous one copied the message and took 28 s for 50 MB.
        let payload = [UInt8](repeating: 0x61, count: 1 << 20)
        let start = Date()
        let mac = HMACSHA256.authenticationCode(key: [1, 2, 3], message: payload)
        XCTAssertEqual(mac.count, 32)
        XCTAssertLessThan(Date().timeIntervalSince(start), 2.0)
        // Split anywhere, the same digest.
        var hasher = HMACSHA256.Hasher256()
        payload.withUnsafeBytes { all in
            hasher.update(UnsafeRawBufferPointer(rebasing: all[0..<63]))
            hasher.update(UnsafeRawBufferPointer(rebasing: all[63..<1000]))
            hasher.update(UnsafeRawBufferPointer(rebasing: all[1000...]))
        }
        XCTAssertEqual(hasher.finalize(), HMACSHA256.digest(payload))
    }
}
