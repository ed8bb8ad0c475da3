import XCTest

@testable import OpenAIRealtime
@testable import OpenAIWebSocket

/// The reconnect policy as a pure function of close info and attempt number.
final class RealtimeReconnectPolicyTests: XCTestCase {
    private func peerClose(_ code: UInt16) -> WebSocketCloseInfo {
        WebSocketCloseInfo(
            code: WebSocketCloseCode(rawValue: code), reason: "", initiatedByPeer: true)
    }

    func testRetriesExactlyTheCodesThatAllowIt() {
        let policy = RealtimeReconnectPolicy()
        let retryable: [UInt16] = [1001, 1005, 1006, 1011, 1012, 1013, 1015]
        for code in retryable {
            XCTAssertTrue(policy.allowsReconnect(after: peerClose(code)), "\(code)")
        }
        for code: UInt16 in [1000, 1002, 1003, 1007, 1008, 1009, 1010, 1014, 3000, 4000] {
            XCTAssertFalse(policy.allowsReconnect(after: peerClose(code)), "\(code)")
            XCTAssertEqual(
                policy.decision(after: peerClose(code), attempt: 1, jitterSample: 0), .stop)
        }
    }

    func testNeverRetriesACloseThisSideStarted() {
        let local = WebSocketCloseInfo(code: .goingAway, reason: "", initiatedByPeer: false)
        XCTAssertEqual(
            RealtimeReconnectPolicy().decision(after: local, attempt: 1, jitterSample: 0), .stop)
    }

    func testTheDefaultBackoffIsCappedAtEightSeconds() {
        let delays = (1...6).map { RealtimeReconnectPolicy().delay(forAttempt: $0, jitterSample: 0) }
        XCTAssertEqual(
            delays,
            [.milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(8)])
    }

    func testBackoffDoublesFromHalfASecondUpToTheCap() {
        let policy = RealtimeReconnectPolicy(
            maxAttempts: 10, initialDelay: .milliseconds(500), maxDelay: .seconds(5))
        let delays = (1...6).map { policy.delay(forAttempt: $0, jitterSample: 0) }
        XCTAssertEqual(
            delays,
            [
                .milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(5),
                .seconds(5),
            ])
    }

    func testJitterRemovesAtMostTheConfiguredFraction() {
        let policy = RealtimeReconnectPolicy(initialDelay: .seconds(2), jitterFraction: 0.25)
        XCTAssertEqual(policy.delay(forAttempt: 1, jitterSample: 0), .seconds(2))
        XCTAssertEqual(policy.delay(forAttempt: 1, jitterSample: 0.5), .milliseconds(1750))
        XCTAssertEqual(policy.delay(forAttempt: 1, jitterSample: 1), .milliseconds(1500))
        for _ in 0..<100 {
            guard case .reconnect(let delay) = policy.decision(after: peerClose(1011), attempt: 1)
            else { return XCTFail("1011 must be retried") }
            XCTAssertGreaterThan(delay, .milliseconds(1499))
            XCTAssertLessThanOrEqual(delay, .seconds(2))
        }
    }

    func testStopsAfterMaxAttempts() {
        let policy = RealtimeReconnectPolicy(maxAttempts: 3, initialDelay: .seconds(1))
        let close = peerClose(1006)
        XCTAssertEqual(
            policy.decision(after: close, attempt: 1, jitterSample: 0), .reconnect(after: .seconds(1)))
        XCTAssertEqual(
            policy.decision(after: close, attempt: 3, jitterSample: 0), .reconnect(after: .seconds(4)))
        XCTAssertEqual(policy.decision(after: close, attempt: 4, jitterSample: 0), .stop)
        XCTAssertEqual(policy.decision(after: close, attempt: 0, jitterSample: 0), .stop)
    }

    func testCustomCodesReplaceTheDefaults() {
        let policy = RealtimeReconnectPolicy(retryableCloseCodes: [WebSocketCloseCode(rawValue: 4000)])
        XCTAssertTrue(policy.allowsReconnect(after: peerClose(4000)))
        XCTAssertFalse(policy.allowsReconnect(after: peerClose(1011)))
    }
}
