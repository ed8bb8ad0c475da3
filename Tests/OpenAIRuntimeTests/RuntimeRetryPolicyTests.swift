import Foundation
import XCTest

@testable import OpenAIRuntime

/// The retry rules as a pure value: every decision without I/O or sleeping.
final class RuntimeRetryPolicyTests: XCTestCase {
    private let policy = RetryPolicy(maxRetries: 2)
    private let now = Date(timeIntervalSince1970: 1_750_000_000)

    private func decide(
        _ outcome: RetryPolicy.Outcome, retries: Int = 0, replayable: Bool = true, cancelled: Bool = false,
        jitter: Double = 0
    ) -> RetryPolicy.Decision {
        policy.decide(
            retriesSoFar: retries, outcome: outcome, bodyIsReplayable: replayable, isCancelled: cancelled, now: now,
            jitter: jitter)
    }

    private func status(_ code: Int, _ headers: [String: String] = [:]) -> RetryPolicy.Outcome {
        .response(statusCode: code, headers: headers)
    }

    func testRetryableStatusesAre408_409_429And5xx() {
        for code in [408, 409, 429, 500, 502, 503, 504, 599] {
            XCTAssertEqual(decide(status(code)), .retry(after: 0.5), "status \(code)")
        }
        for code in [400, 401, 403, 404, 422, 301] {
            XCTAssertEqual(decide(status(code)), .fail, "status \(code)")
        }
    }

    func testShouldRetryHeaderDecidesBeforeTheStatus() {
        XCTAssertEqual(decide(status(400, ["x-should-retry": "true"])), .retry(after: 0.5))
        XCTAssertEqual(decide(status(503, ["X-Should-Retry": "false"])), .fail)
        XCTAssertEqual(decide(status(429, ["x-should-retry": "maybe"])), .retry(after: 0.5))
    }

    func testConnectionFailuresAndTimeoutsRetryOtherErrorsDoNot() {
        XCTAssertEqual(decide(.failure(.connection)), .retry(after: 0.5))
        XCTAssertEqual(decide(.failure(.timeout)), .retry(after: 0.5))
        XCTAssertEqual(decide(.failure(.cancelled)), .fail)
        XCTAssertEqual(decide(.failure(.invalidRequest)), .fail)
    }

    func testBackoffDoublesFromHalfASecondAndCapsAtEightSeconds() {
        let expected: [TimeInterval] = [0.5, 1, 2, 4, 8, 8, 8]
        for (retries, delay) in expected.enumerated() {
            XCTAssertEqual(RetryPolicy.backoff(retriesSoFar: retries, jitter: 0), delay, "retry \(retries)")
        }
        XCTAssertEqual(RetryPolicy.backoff(retriesSoFar: 1000, jitter: 0), 8)
    }

    func testJitterRemovesAtMostAQuarter() {
        XCTAssertEqual(RetryPolicy.backoff(retriesSoFar: 2, jitter: 1), 1.5)
        XCTAssertEqual(RetryPolicy.backoff(retriesSoFar: 2, jitter: 0.5), 1.75)
        XCTAssertEqual(RetryPolicy.backoff(retriesSoFar: 4, jitter: 1), 6)
        XCTAssertEqual(RetryPolicy.backoff(retriesSoFar: 0, jitter: 7), 0.375, "jitter is clamped to 0...1")
    }

    func testRetryAfterMillisecondsWinsOverRetryAfterSeconds() {
        let headers = ["retry-after-ms": "1500", "Retry-After": "30"]
        XCTAssertEqual(decide(status(429, headers)), .retry(after: 1.5))
    }

    func testRetryAfterSecondsAndHTTPDate() {
        XCTAssertEqual(decide(status(429, ["Retry-After": "7"])), .retry(after: 7))
        // No wait at all is not honoured: the backoff, as openai-python and openai-node do.
        XCTAssertEqual(
            decide(status(503, ["retry-after": "0"])), .retry(after: RetryPolicy.backoff(retriesSoFar: 0, jitter: 0)))
        XCTAssertEqual(
            decide(status(503, ["retry-after-ms": "0"])), .retry(after: RetryPolicy.backoff(retriesSoFar: 0, jitter: 0))
        )
        XCTAssertEqual(decide(status(503, ["retry-after-ms": "1"])), .retry(after: 0.001))
        let date = "Sun, 15 Jun 2025 15:07:00 GMT"  // now + 20 s
        XCTAssertEqual(RetryPolicy.httpDate(date)?.timeIntervalSince1970, 1_750_000_020)
        XCTAssertEqual(decide(status(429, ["Retry-After": date])), .retry(after: 20))
    }

    func testRetryAfterBeyondTheSixtySecondCapFallsBackToTheBackoff() {
        XCTAssertEqual(decide(status(429, ["Retry-After": "60"])), .retry(after: 60))
        XCTAssertEqual(decide(status(429, ["Retry-After": "3600"])), .retry(after: 0.5))
        XCTAssertEqual(decide(status(429, ["retry-after-ms": "3600000"]), retries: 1), .retry(after: 1))
        XCTAssertEqual(decide(status(429, ["Retry-After": "-5"])), .retry(after: 0.5))
        XCTAssertEqual(decide(status(429, ["Retry-After": "soon"])), .retry(after: 0.5))
        XCTAssertEqual(
            decide(status(429, ["Retry-After": "Sun, 15 Jun 2025 14:00:00 GMT"])), .retry(after: 0.5),
            "a date in the past falls back too")
    }

    func testNoRetryWhenCancelledOutOfRetriesOrTheBodyCannotBeReplayed() {
        XCTAssertEqual(decide(status(500), cancelled: true), .fail)
        XCTAssertEqual(decide(status(500), retries: 2), .fail)
        XCTAssertEqual(decide(status(500), replayable: false), .fail)
        XCTAssertEqual(decide(.failure(.connection), replayable: false), .fail)
        XCTAssertEqual(
            RetryPolicy(maxRetries: 0).decide(
                retriesSoFar: 0, outcome: status(500), bodyIsReplayable: true, isCancelled: false, now: now, jitter: 0),
            .fail)
    }
}
