import Foundation
import OpenAISDKTestSupport
import XCTest

@testable import OpenAI
@testable import OpenAIRuntime

/// `poll` and `createAndPoll` against the local server, whose replies move through the statuses
/// of `x-testserver-status-sequence` (one per request to the same path).
final class PollingTests: XCTestCase {
    private var server: TestServer!

    override func setUpWithError() throws {
        server = try TestServer.shared()
    }

    private func client(_ scenario: String, _ headers: [String: String], sleeper: RecordingSleeper) throws
        -> OpenAIClient
    {
        try server.client(
            maxRetries: 0, headers: headers.merging(["x-testserver-scenario": scenario]) { a, _ in a },
            sleeper: sleeper)
    }

    func testABatchIsPolledThroughItsStatesWaitingWhatTheServerAdvises() async throws {
        let scenario = TestServer.scenario()
        let sleeper = RecordingSleeper()
        let client = try client(
            scenario,
            [
                "x-testserver-status-sequence": "validating,in_progress,finalizing,completed",
                "x-testserver-poll-after-ms": "250",
            ], sleeper: sleeper)
        let body: CreateBatchRequest = try
            (["input_file_id": "file-1", "endpoint": "/v1/responses", "completion_window": "24h"] as JSONValue)
            .decode()
        let batch = try await client.batches.createAndPoll(body)
        XCTAssertEqual(batch.status, .completed)
        XCTAssertEqual(sleeper.delays, [0.25, 0.25, 0.25])
        let records = try await server.requests(scenario: scenario)
        XCTAssertEqual(records.map { $0.method ?? "" }, ["POST", "GET", "GET", "GET", "GET"])
        XCTAssertTrue(records.dropFirst().allSatisfy { $0.path == "/v1/batches/\(batch.id)" })
        XCTAssertTrue(records.allSatisfy { $0.validation == "ok" }, "\(records.map(\.validationErrors))")
    }

    func testUploadAndPollUploadsAttachesAndWaitsOneSecondByDefault() async throws {
        let scenario = TestServer.scenario()
        let sleeper = RecordingSleeper()
        let client = try client(
            scenario, ["x-testserver-status-sequence": "in_progress,in_progress,completed"], sleeper: sleeper)
        let file = try await client.vectorStores.files.uploadAndPoll(
            vectorStoreID: "vs_1", file: FileUpload(data: Data("Notes about Oslo.".utf8), filename: "notes.txt"),
            attributes: ["city": "Oslo"])
        XCTAssertEqual(file.status, .completed)
        XCTAssertEqual(sleeper.delays, [1, 1])
        let records = try await server.requests(scenario: scenario)
        XCTAssertEqual(
            records.map { "\($0.method ?? "") \($0.path ?? "")" },
            [
                "POST /v1/files", "POST /v1/vector_stores/vs_1/files", "GET /v1/vector_stores/vs_1/files/\(file.id)",
                "GET /v1/vector_stores/vs_1/files/\(file.id)", "GET /v1/vector_stores/vs_1/files/\(file.id)",
            ])
        XCTAssertTrue(records.allSatisfy { $0.validation == "ok" }, "\(records.map(\.validationErrors))")
        let attach = try XCTUnwrap(records[1].bodyJSON)
        XCTAssertEqual(attach["attributes"], ["city": "Oslo"])
        XCTAssertNotNil(attach["file_id"]?.stringValue)
    }

    func testMaxWaitStopsBeforeAWaitWouldPassIt() async throws {
        let scenario = TestServer.scenario()
        let sleeper = RecordingSleeper()
        let client = try client(scenario, ["x-testserver-status-sequence": "running"], sleeper: sleeper)
        do {
            _ = try await client.fineTuning.jobs.poll(
                fineTuningJobID: "ftjob-1", polling: PollingOptions(interval: 2, maxWait: 5))
            XCTFail("a job that never finishes was returned")
        } catch let error as OpenAIError {
            XCTAssertEqual(error.kind, .timeout)
            XCTAssertTrue(error.message.contains("still `running`"), error.message)
        }
        XCTAssertEqual(sleeper.delays, [2, 2])
        let records = try await server.requests(scenario: scenario)
        XCTAssertEqual(records.count, 3)
    }

    func testAStatusThisSDKDoesNotKnowEndsThePolling() async throws {
        let sleeper = RecordingSleeper()
        let client = try client(
            TestServer.scenario(), ["x-testserver-status-sequence": "queued,paused_by_operator"], sleeper: sleeper)
        let run = try await client.evals.runs.poll(evalID: "eval_1", runID: "evalrun_1")
        XCTAssertEqual(run.status, "paused_by_operator")
        XCTAssertEqual(sleeper.delays, [1])
    }

    func testAFileBatchIsPolledAndCancellationStopsTheWait() async throws {
        let sleeper = RecordingSleeper()
        let done = try client(
            TestServer.scenario(), ["x-testserver-status-sequence": "in_progress,completed"], sleeper: sleeper)
        let batch = try await done.vectorStores.fileBatches.createAndPoll(
            vectorStoreID: "vs_1", CreateVectorStoreFileBatchRequest(fileIDs: ["file-1", "file-2"]))
        XCTAssertEqual(batch.status, .completed)
        XCTAssertEqual(sleeper.delays, [1])

        let waiting = try client(
            TestServer.scenario(), ["x-testserver-status-sequence": "in_progress"],
            sleeper: RecordingSleeper(real: true))
        let task = Task {
            try await waiting.vectorStores.fileBatches.poll(
                vectorStoreID: "vs_1", batchID: "vsfb_1", polling: PollingOptions(interval: 30))
        }
        try await Task.sleep(nanoseconds: 300_000_000)
        let start = Date()
        task.cancel()
        do {
            _ = try await task.value
            XCTFail("a cancelled poll returned")
        } catch {
            // Cancelled while waiting (`CancellationError`) or during a request (`.cancelled`).
            XCTAssertTrue(
                error is CancellationError || (error as? OpenAIError)?.kind == .cancelled, "\(error)")
            XCTAssertLessThan(Date().timeIntervalSince(start), 2)
        }
    }

    func testTheAdvisedWaitIsReadSafely() {
        XCTAssertEqual(OpenAIClient.pollWait(interval: nil, advised: nil), 1)
        XCTAssertEqual(OpenAIClient.pollWait(interval: nil, advised: "250"), 0.25)
        XCTAssertEqual(OpenAIClient.pollWait(interval: nil, advised: " 1500 "), 1.5)
        XCTAssertEqual(OpenAIClient.pollWait(interval: nil, advised: "0"), 0.05, "no busy loop")
        XCTAssertEqual(OpenAIClient.pollWait(interval: nil, advised: "inf"), 1, "not a finite number: ignored")
        XCTAssertEqual(OpenAIClient.pollWait(interval: nil, advised: "nan"), 1)
        XCTAssertEqual(OpenAIClient.pollWait(interval: nil, advised: "1e20"), 3600, "no trap on a huge wait")
        XCTAssertEqual(OpenAIClient.pollWait(interval: nil, advised: "soon"), 1)
        XCTAssertEqual(OpenAIClient.pollWait(interval: 2, advised: "250"), 2, "the caller's interval wins")
        XCTAssertEqual(OpenAIClient.pollWait(interval: .infinity, advised: "250"), 0.25)
    }
}
