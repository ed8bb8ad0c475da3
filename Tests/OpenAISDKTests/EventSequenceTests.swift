import Foundation
import XCTest

@testable import OpenAI
@testable import OpenAIRuntime

/// The events of `runToolsStream` and `createBackgroundStream` (``EventSequence`` run by a task of
/// its own): a slow iteration holds the task back instead of letting events pile up.
final class EventSequenceTests: XCTestCase {
    func testASlowIterationHoldsTheTaskBackAtTheLimit() async throws {
        let sent = Locked<Int>(0)
        let events = EventSequence<Int> { sink in
            for index in 0..<10_000 {
                await sink.send(index)
                sent.withLock { $0 += 1 }
            }
        }
        var iterator = events.makeAsyncIterator()
        let first = try await iterator.next()
        XCTAssertEqual(first, 0)
        try await Task.sleep(nanoseconds: 200_000_000)
        let ahead = sent.withLock { $0 }
        XCTAssertLessThanOrEqual(ahead, EventSink<Int>.limit + 2, "the task read on while nobody iterated")
        XCTAssertGreaterThanOrEqual(ahead, EventSink<Int>.limit - 1, "the task fills the queue up to its limit")
        var received = [0]
        while let next = try await iterator.next() { received.append(next) }
        XCTAssertEqual(received, Array(0..<10_000), "every event, in order")
    }

    func testEventsYieldedWithoutWaitingAreNotHeldBack() async throws {
        let events = EventSequence<Int> { sink in
            for index in 0..<200 { sink.yield(index) }
        }
        var received: [Int] = []
        for try await event in events { received.append(event) }
        XCTAssertEqual(received, Array(0..<200))
    }

    func testAnErrorComesAfterTheEventsBeforeItAndOnce() async throws {
        struct Failure: Error {}
        let events = EventSequence<Int> { sink in
            for index in 0..<3 { await sink.send(index) }
            throw Failure()
        }
        var iterator = events.makeAsyncIterator()
        var received: [Int] = []
        do {
            while let event = try await iterator.next() { received.append(event) }
            XCTFail("the error was not thrown")
        } catch is Failure {}
        XCTAssertEqual(received, [0, 1, 2])
        let after = try await iterator.next()
        XCTAssertNil(after, "the sequence ends after its error")
    }

    func testReleasingTheIteratorStopsTheTask() async throws {
        let stopped = expectation(description: "the task was cancelled")
        let events = EventSequence<Int> { sink in
            do {
                for index in 0... {
                    await sink.send(index)
                    try Task.checkCancellation()
                }
            } catch {
                stopped.fulfill()
                throw error
            }
        }
        do {
            var iterator = events.makeAsyncIterator()
            let first = try await iterator.next()
            XCTAssertEqual(first, 0)
        }
        await fulfillment(of: [stopped], timeout: 5)
    }

    func testCancellingTheIteratingTaskEndsTheIterationAndTheTask() async throws {
        let stopped = expectation(description: "the task was cancelled")
        let events = EventSequence<Int> { sink in
            await sink.send(0)
            do {
                try await Task.sleep(nanoseconds: 30_000_000_000)
            } catch {
                stopped.fulfill()
                throw error
            }
        }
        let consumer = Task {
            var received: [Int] = []
            for try await event in events { received.append(event) }
            return received
        }
        try await Task.sleep(nanoseconds: 100_000_000)
        consumer.cancel()
        let received = try await consumer.value
        XCTAssertEqual(received, [0])
        await fulfillment(of: [stopped], timeout: 5)
    }
}
