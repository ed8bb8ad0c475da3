import XCTest

@testable import OpenAIRuntime

/// ``TransferState`` transition by transition, with made-up clocks (nanoseconds): the time limits
/// and error-body bound both transports run on.
final class TransferStateTests: XCTestCase {
    private static let second: UInt64 = 1_000_000_000
    private let timeouts = HTTPTimeouts(request: 10, idle: 3, connect: 2)

    private func state(_ limits: TransferState.Limits = .all, errorBodyLimit: Int = 8) -> TransferState {
        TransferState(timeouts: timeouts, limits: limits, errorBodyLimit: errorBodyLimit)
    }

    func testStartSchedulesTheEarliestLimitAndConnectingEndsTheConnectLimit() {
        var transfer = state()
        let start = 100 * Self.second
        XCTAssertEqual(transfer.start(at: start), start + 2 * Self.second, "connect (2 s) comes first")
        // Before the connection: the connect limit passes.
        var early = transfer
        XCTAssertEqual(early.deadlineReached(at: start + 2 * Self.second), .expired(.connect))
        XCTAssertEqual(early.stop(), .connect)
        // Connected at 1 s: the idle limit (3 s after the last byte) is next.
        transfer.activity(at: start + Self.second)
        XCTAssertEqual(transfer.deadlineReached(at: start + 2 * Self.second), .wait(until: start + 4 * Self.second))
        XCTAssertEqual(transfer.deadlineReached(at: start + 4 * Self.second), .expired(.idle))
        XCTAssertEqual(transfer.deadlineReached(at: start + 5 * Self.second), .none, "expired once")
        XCTAssertEqual(transfer.stop(), .idle)
    }

    func testActivityWithoutConnectionKeepsTheConnectLimit() {
        var transfer = state()
        XCTAssertEqual(transfer.start(at: 0), 2 * Self.second)
        transfer.activity(at: Self.second, connected: false)
        XCTAssertEqual(transfer.deadlineReached(at: 2 * Self.second), .expired(.connect))
    }

    func testTheRequestLimitBoundsABusyAttemptUntilAStreamedHead() {
        var transfer = state()
        _ = transfer.start(at: 0)
        var buffered = transfer
        for second in 1...9 { buffered.activity(at: UInt64(second) * Self.second) }
        XCTAssertEqual(buffered.deadlineReached(at: 10 * Self.second), .expired(.request))
        // The head of a streamed reply ends the request limit: only idle time counts then.
        for second in 1...9 { transfer.activity(at: UInt64(second) * Self.second) }
        transfer.streamedHeadArrived()
        XCTAssertEqual(transfer.deadlineReached(at: 10 * Self.second), .wait(until: 12 * Self.second))
        transfer.activity(at: 11 * Self.second)
        XCTAssertEqual(transfer.deadlineReached(at: 12 * Self.second), .wait(until: 14 * Self.second))
        XCTAssertEqual(transfer.deadlineReached(at: 14 * Self.second), .expired(.idle))
    }

    func testAReaderThatLagsStopsTheIdleClock() {
        var transfer = state([.idle])
        XCTAssertEqual(transfer.start(at: 0), 3 * Self.second)
        XCTAssertNil(transfer.readerLags(true, at: Self.second))
        // The idle deadline passes while the reader lags: nothing expires, nothing is scheduled.
        XCTAssertEqual(transfer.deadlineReached(at: 3 * Self.second), .none)
        XCTAssertEqual(transfer.deadlineReached(at: 60 * Self.second), .none)
        // Caught up at 60 s: the idle clock starts again from then, and is scheduled again.
        XCTAssertEqual(transfer.readerLags(false, at: 60 * Self.second), 63 * Self.second)
        XCTAssertEqual(transfer.deadlineReached(at: 63 * Self.second), .expired(.idle))
    }

    func testCatchingUpSchedulesNothingWhileADeadlineIsPending() {
        var transfer = state([.idle])
        XCTAssertEqual(transfer.start(at: 0), 3 * Self.second)
        XCTAssertNil(transfer.readerLags(true, at: Self.second))
        // The pending deadline (3 s) is not later than the new one (5 s): it stays, and reaching it
        // schedules the next.
        XCTAssertNil(transfer.readerLags(false, at: 2 * Self.second))
        XCTAssertEqual(transfer.deadlineReached(at: 3 * Self.second), .wait(until: 5 * Self.second))
    }

    func testLimitsTheTransferDoesNotKeepAreNotChecked() {
        // libcurl keeps the connect limit, and a buffered reply's request limit, itself.
        var transfer = state([.idle])
        XCTAssertEqual(transfer.start(at: 0), 3 * Self.second)
        transfer.activity(at: 2 * Self.second, connected: false)
        XCTAssertEqual(transfer.deadlineReached(at: 3 * Self.second), .wait(until: 5 * Self.second))
        var none = state([])
        XCTAssertNil(none.start(at: 0))
        XCTAssertEqual(none.deadlineReached(at: .max), .none)
    }

    func testAStoppedAttemptSchedulesNothing() {
        var transfer = state()
        _ = transfer.start(at: 0)
        XCTAssertNil(transfer.stop())
        XCTAssertEqual(transfer.deadlineReached(at: 100 * Self.second), .none)
        XCTAssertNil(transfer.readerLags(false, at: Self.second))
        XCTAssertNil(transfer.nextDeadline(from: 0))
    }

    func testADeadlineInThePastIsScheduledNow() {
        var transfer = state([.idle])
        _ = transfer.start(at: 0)
        XCTAssertEqual(transfer.nextDeadline(from: 50 * Self.second), 50 * Self.second)
    }

    func testAnErrorBodyIsKeptUpToItsLimitAndA2xxBodyWhole() {
        var transfer = state(errorBodyLimit: 8)
        transfer.replyHead(statusCode: 200)
        XCTAssertEqual(transfer.admit(1_000_000), 1_000_000)
        XCTAssertFalse(transfer.cutAtLimit)
        // A second head (after `100 Continue`, or a new attempt's) starts the count again.
        transfer.replyHead(statusCode: 500)
        XCTAssertEqual(transfer.admit(5), 5)
        XCTAssertFalse(transfer.cutAtLimit)
        XCTAssertEqual(transfer.admit(5), 3, "8 bytes at most")
        XCTAssertTrue(transfer.cutAtLimit)
        XCTAssertEqual(transfer.admit(5), 0, "nothing after the cut")
        transfer.replyHead(statusCode: 404)
        XCTAssertFalse(transfer.cutAtLimit)
        XCTAssertEqual(transfer.admit(8), 8)
        XCTAssertFalse(transfer.cutAtLimit, "exactly the limit is not a cut")
    }

    func testLimitsThatAreNotPositiveOrTooLongAreNone() {
        XCTAssertNil(TransferState.nanoseconds(0))
        XCTAssertNil(TransferState.nanoseconds(-1))
        XCTAssertNil(TransferState.nanoseconds(.infinity))
        XCTAssertNil(TransferState.nanoseconds(1e9))
        XCTAssertEqual(TransferState.nanoseconds(1.5), 1_500_000_000)
    }
}
