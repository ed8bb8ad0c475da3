import Foundation
import OpenAISDKTestSupport
import XCTest

@testable import OpenAI
@testable import OpenAIRuntime

/// A background response streamed over a connection the local server drops every few events:
/// the stream resumes from the last `sequence_number` and the accumulator ends complete.
final class ResponsesBackgroundStreamTests: XCTestCase {
    private var server: TestServer!

    override func setUpWithError() throws {
        server = try TestServer.shared()
    }

    private func run(headers: [String: String], maxResumes: Int) async throws -> (
        events: [ResponseStreamEvent], accumulator: ResponseStreamAccumulator
    ) {
        let client = try server.client(
            maxRetries: 0, headers: headers.merging(["x-testserver-delta-chars": "3"]) { a, _ in a })
        var accumulator = try ResponseStreamAccumulator()
        var events: [ResponseStreamEvent] = []
        for try await event in try client.responses.createBackgroundStream(
            CreateResponse(model: "gpt-4.1", input: "Tell me a story."), maxResumes: maxResumes)
        {
            try accumulator.apply(event)
            events.append(event)
        }
        return (events, accumulator)
    }

    func testADroppedStreamResumesAfterTheLastEventAndTheSnapshotIsComplete() async throws {
        let whole = try await run(headers: [:], maxResumes: 0)
        let expected = try XCTUnwrap(whole.accumulator.finalResponse)
        XCTAssertFalse(expected.outputText.isEmpty)
        XCTAssertGreaterThan(whole.events.count, 50, "at least two resumes")

        let scenario = TestServer.scenario()
        let dropped = try await run(
            headers: ["x-testserver-scenario": scenario, "x-testserver-drop-after-frames": "25"], maxResumes: 50)
        let final = try XCTUnwrap(dropped.accumulator.finalResponse)
        XCTAssertEqual(final.outputText, expected.outputText)
        XCTAssertEqual(try dropped.accumulator.currentResponse()?.outputText, expected.outputText)
        XCTAssertEqual(dropped.events.count, whole.events.count, "every event once")
        XCTAssertEqual(dropped.accumulator.lastSequenceNumber, whole.events.count - 1)

        let records = try await server.requests(scenario: scenario)
        XCTAssertEqual(records.first?.method, "POST")
        XCTAssertEqual(records.first?.bodyJSON?["background"], true)
        let resumes = records.dropFirst()
        XCTAssertEqual(resumes.count, (whole.events.count - 1) / 25)
        XCTAssertTrue(resumes.allSatisfy { $0.method == "GET" && $0.path == "/v1/responses/\(final.id)" })
        XCTAssertEqual(
            resumes.map { $0.query.first { $0.0 == "starting_after" }?.1 },
            (1...resumes.count).map { String($0 * 25 - 1) })
        XCTAssertTrue(records.allSatisfy { $0.validation == "ok" }, "\(records.map(\.validationErrors))")
    }

    func testWithoutResumesTheDropIsThrownNamingTheResponseAndTheLastEvent() async throws {
        do {
            _ = try await run(headers: ["x-testserver-drop-after-frames": "6"], maxResumes: 0)
            XCTFail("a dropped stream completed")
        } catch let error as OpenAIError {
            XCTAssertTrue(ResponsesAPI.resumable.contains(error.kind), "\(error.kind)")
            XCTAssertTrue(
                error.message.hasPrefix("The background stream of response resp_"), error.message)
            XCTAssertTrue(error.message.contains("the last received was sequence_number 5"), error.message)
            XCTAssertTrue(error.message.contains("(maxResumes 0)"), error.message)
        }
    }

    func testResumesThatBringEventsDoNotCountAgainstMaxResumes() async throws {
        let whole = try await run(headers: [:], maxResumes: 0)
        let scenario = TestServer.scenario()
        // More than two drops, each after new events: two resumes in a row without one are allowed.
        let dropped = try await run(
            headers: ["x-testserver-scenario": scenario, "x-testserver-drop-after-frames": "25"], maxResumes: 2)
        XCTAssertEqual(dropped.events.count, whole.events.count, "every event once, to the end")
        XCTAssertNotNil(dropped.accumulator.finalResponse)
        let records = try await server.requests(scenario: scenario)
        XCTAssertGreaterThan(records.count - 1, 2, "more resumes than maxResumes")
    }

    func testAConnectionLostAfterTheLastEventEndsTheStreamNormally() async throws {
        let whole = try await run(headers: [:], maxResumes: 0)
        let scenario = TestServer.scenario()
        let lost = try await run(
            headers: [
                "x-testserver-scenario": scenario, "x-testserver-drop-after-frames": String(whole.events.count),
            ], maxResumes: 0)
        XCTAssertEqual(lost.events.count, whole.events.count)
        XCTAssertNotNil(lost.accumulator.finalResponse)
        let records = try await server.requests(scenario: scenario)
        XCTAssertEqual(records.map { $0.method ?? "" }, ["POST"], "nothing to resume")
        XCTAssertEqual(records.first?.raw["dropped"], true, "the server did drop the connection")
    }
}
