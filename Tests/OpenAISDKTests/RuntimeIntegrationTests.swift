import Foundation
import OpenAISDKTestSupport
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

import OpenAIAdmin

@testable import OpenAI
@testable import OpenAIRuntime

/// The runtime against the local test server (Scripts/servers/testserver), which validates every request
/// against the spec, injects faults and records what it received.
final class RuntimeIntegrationTests: XCTestCase {
    private var server: TestServer!

    override func setUpWithError() throws {
        server = try TestServer.shared()
    }

    private func client(
        _ scenario: String, maxRetries: Int = 2, timeout: TimeInterval = 30, headers: [String: String] = [:],
        sleeper: (any RetrySleeper)? = nil, configure: (inout OpenAIClient.Configuration) -> Void = { _ in }
    ) throws -> OpenAIClient {
        try server.client(
            maxRetries: maxRetries, timeout: timeout,
            headers: headers.merging(["x-testserver-scenario": scenario]) { a, _ in a },
            configure: configure, sleeper: sleeper)
    }

    private func listModels() -> APIRequest {
        APIRequest(method: "GET", path: "/models", operationID: "listModels")
    }

    private func createChat() throws -> APIRequest {
        var request = APIRequest(method: "POST", path: "/chat/completions", operationID: "createChatCompletion")
        try request.setJSONBody(ChatBody())
        return request
    }

    private struct ChatBody: Encodable {
        struct Message: Encodable { var role = "user", content = "Hello" }
        var model = "gpt-4o"
        var messages = [Message()]
    }

    // MARK: Headers

    func testEveryDefaultHeaderReachesTheServerAndValidates() async throws {
        let scenario = TestServer.scenario()
        let client = try self.client(scenario) {
            $0.organization = "org-test"
            $0.project = "proj_test"
        }
        _ = try await client.sendRaw(try createChat(), options: RequestOptions(idempotencyKey: "idem-42"))
        let record = try await XCTUnwrapAsync(try await server.requests(scenario: scenario).first)
        XCTAssertEqual(record.validation, "ok", "\(record.validationErrors)")
        XCTAssertEqual(record.headers["authorization"], "Bearer sk-test-0123456789")
        XCTAssertEqual(record.headers["openai-organization"], "org-test")
        XCTAssertEqual(record.headers["openai-project"], "proj_test")
        XCTAssertEqual(record.headers["user-agent"], OpenAIClient.userAgent)
        XCTAssertEqual(record.headers["accept"], "application/json")
        XCTAssertEqual(record.headers["content-type"], "application/json")
        XCTAssertEqual(record.headers["idempotency-key"], "idem-42")

        let bare = TestServer.scenario()
        _ = try await self.client(bare).sendRaw(listModels(), options: RequestOptions())
        let plain = try await XCTUnwrapAsync(try await server.requests(scenario: bare).first)
        XCTAssertNil(plain.headers["openai-organization"], "unset organization sends no header")
        XCTAssertNil(plain.headers["openai-project"])
        XCTAssertNil(plain.headers["idempotency-key"])
    }

    func testKeyProviderIsAskedBeforeEveryAttempt() async throws {
        let scenario = TestServer.scenario()
        let counter = Locked(0)
        let client = try self.client(
            scenario, headers: ["x-testserver-fail-times": "1", "x-testserver-fail-status": "500"],
            sleeper: RecordingSleeper()
        ) {
            $0.apiKey = nil
            $0.apiKeyProvider = { "sk-rotated-\(counter.withLock { value -> Int in value += 1; return value })" }
        }
        _ = try await client.sendRaw(listModels(), options: RequestOptions())
        let records = try await server.requests(scenario: scenario)
        XCTAssertEqual(records.map { $0.headers["authorization"] }, ["Bearer sk-rotated-1", "Bearer sk-rotated-2"])
    }

    // MARK: Errors

    func testEveryRecordedErrorFixtureBecomesItsCategoryWithTheRequestID() async throws {
        let folder = try SharedData.file("fixtures/errors")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".json") && !$0.hasSuffix(".meta.json") }.sorted()
        XCTAssertGreaterThanOrEqual(names.count, 10)
        var kinds: Set<String> = []
        for name in names {
            let status = try XCTUnwrap(Int(name.prefix(3)), name)
            let fixture = try JSONDecoder().decode(
                JSONValue.self, from: Data(contentsOf: folder.appendingPathComponent(name)))
            let scenario = TestServer.scenario(name)
            let client = try self.client(
                scenario, maxRetries: 0, headers: ["x-testserver-error-fixture": "errors/\(name)"])
            let error = await XCTAssertThrowsOpenAIError {
                _ = try await client.sendRaw(self.listModels(), options: RequestOptions())
            }
            XCTAssertEqual(error?.statusCode, status, name)
            XCTAssertEqual(error?.kind, OpenAIError.Kind.forStatus(status), name)
            XCTAssertEqual(error?.message, fixture["error"]?["message"]?.stringValue, name)
            XCTAssertEqual(error?.type, fixture["error"]?["type"]?.stringValue, name)
            XCTAssertEqual(error?.param, fixture["error"]?["param"]?.stringValue, name)
            let record = try await XCTUnwrapAsync(try await server.requests(scenario: scenario).first)
            XCTAssertEqual(error?.requestID, record.raw["request_id"]?.stringValue, name)
            XCTAssertTrue(error?.requestID?.hasPrefix("req_") ?? false, name)
            kinds.insert(error.map { "\($0.kind)" } ?? "-")
        }
        XCTAssertEqual(kinds, ["badRequest", "authentication", "notFound", "rateLimit"])
    }

    func testStatusesWithoutAFixtureMapToTheirCategories() async throws {
        let expected: [(Int, OpenAIError.Kind)] = [
            (403, .permissionDenied), (409, .conflict), (422, .unprocessableEntity), (500, .server), (503, .server),
            (418, .status),
        ]
        for (status, kind) in expected {
            let scenario = TestServer.scenario("status\(status)")
            let client = try self.client(scenario, maxRetries: 0, headers: ["x-testserver-fail-status": "\(status)"])
            let error = await XCTAssertThrowsOpenAIError {
                _ = try await client.sendRaw(self.listModels(), options: RequestOptions())
            }
            XCTAssertEqual(error?.kind, kind, "status \(status)")
            XCTAssertEqual(error?.statusCode, status)
            XCTAssertNotNil(error?.requestID)
            XCTAssertFalse(error?.message.isEmpty ?? true)
        }
    }

    func testAReplyThatDoesNotDecodeNamesTheJSONPathAndKeepsTheBody() async throws {
        struct Expected: Decodable {
            struct Item: Decodable { var id: String; var owned_by: Int }
            var data: [Item]
        }
        let client = try self.client(TestServer.scenario())
        let error = await XCTAssertThrowsOpenAIError {
            _ = try await client.send(self.listModels(), options: RequestOptions(), as: Expected.self)
        }
        XCTAssertEqual(error?.kind, .decoding)
        XCTAssertEqual(error?.codingPath, "data[0].owned_by")
        XCTAssertNotNil(error?.requestID)
        XCTAssertTrue(String(decoding: error?.rawBody ?? Data(), as: UTF8.self).contains("\"data\""))
    }

    // MARK: Retries

    func testRetriesUntilSuccessHonouringRetryAfterSeconds() async throws {
        let scenario = TestServer.scenario()
        let sleeper = RecordingSleeper()
        let client = try self.client(
            scenario,
            headers: [
                "x-testserver-fail-times": "2", "x-testserver-fail-status": "429", "x-testserver-retry-after": "2",
            ], sleeper: sleeper)
        let (_, raw) = try await client.withRawResponse { client in
            try await client.sendRaw(try self.createChat(), options: RequestOptions(idempotencyKey: "same-key"))
        }
        XCTAssertEqual(raw.attempts, 3)
        XCTAssertEqual(raw.statusCode, 200)
        XCTAssertEqual(sleeper.delays, [2, 2])
        let records = try await server.requests(scenario: scenario)
        XCTAssertEqual(records.map(\.status), [429, 429, 200])
        XCTAssertEqual(records.map(\.attempt), [1, 2, 3])
        XCTAssertEqual(Set(records.map { $0.headers["idempotency-key"] }), ["same-key"])
    }

    func testRetryAfterMillisecondsIsHonouredWithRealDelays() async throws {
        let scenario = TestServer.scenario()
        let client = try self.client(
            scenario,
            headers: [
                "x-testserver-fail-times": "2", "x-testserver-fail-status": "503", "x-testserver-retry-after-ms": "300",
            ])
        _ = try await client.sendRaw(listModels(), options: RequestOptions())
        let times = try await server.requests(scenario: scenario).compactMap(\.receivedAt)
        XCTAssertEqual(times.count, 3)
        for (earlier, later) in zip(times, times.dropFirst()) {
            XCTAssertGreaterThanOrEqual(later - earlier, 0.29)
            XCTAssertLessThan(later - earlier, 1.5)
        }
    }

    func testServerErrorsWithoutAdviceBackOffExponentially() async throws {
        let scenario = TestServer.scenario()
        let sleeper = RecordingSleeper()
        let client = try self.client(
            scenario, maxRetries: 3, headers: ["x-testserver-fail-status": "500"], sleeper: sleeper)
        let error = await XCTAssertThrowsOpenAIError {
            _ = try await client.sendRaw(self.listModels(), options: RequestOptions())
        }
        XCTAssertEqual(error?.kind, .server)
        XCTAssertEqual(sleeper.delays, [0.4375, 0.875, 1.75], "0.5 · 2^n less 12.5 % (jitter fixed at half)")
        let count = try await server.requests(scenario: scenario).count
        XCTAssertEqual(count, 4)
    }

    func testShouldRetryFalseStopsAtTheFirstAttempt() async throws {
        let scenario = TestServer.scenario()
        let client = try self.client(
            scenario, headers: ["x-testserver-should-retry": "false", "x-testserver-fail-status": "500"],
            sleeper: RecordingSleeper())
        let error = await XCTAssertThrowsOpenAIError {
            _ = try await client.sendRaw(self.listModels(), options: RequestOptions())
        }
        XCTAssertEqual(error?.kind, .server)
        let count = try await server.requests(scenario: scenario).count
        XCTAssertEqual(count, 1)
        let forced = TestServer.scenario()
        let retrying = try self.client(
            forced,
            headers: [
                "x-testserver-should-retry": "true", "x-testserver-fail-status": "400", "x-testserver-fail-times": "1",
            ], sleeper: RecordingSleeper())
        _ = try await retrying.sendRaw(listModels(), options: RequestOptions())
        let statuses = try await server.requests(scenario: forced).map(\.status)
        XCTAssertEqual(statuses, [400, 200], "x-should-retry: true retries even a 400")
    }

    func testARetryAfterOfAnHourNeitherSleepsAnHourNorHangs() async throws {
        for advice in ["3600", "date+3600"] {
            let scenario = TestServer.scenario("hour\(advice)")
            let client = try self.client(
                scenario,
                headers: ["x-testserver-fail-status": "429", "x-testserver-retry-after": advice])
            let start = Date()
            let error = await XCTAssertThrowsOpenAIError {
                _ = try await client.sendRaw(self.listModels(), options: RequestOptions())
            }
            let elapsed = Date().timeIntervalSince(start)
            XCTAssertEqual(error?.kind, .rateLimit)
            XCTAssertLessThan(elapsed, 5, "fell back to the 0.44 s + 0.88 s backoff (\(advice))")
            XCTAssertGreaterThan(elapsed, 1.2)
            let count = try await server.requests(scenario: scenario).count
            XCTAssertEqual(count, 3)
        }
    }

    func testCancellingDuringABackoffReturnsAtOnce() async throws {
        let scenario = TestServer.scenario()
        let client = try self.client(
            scenario, headers: ["x-testserver-fail-status": "429", "x-testserver-retry-after": "30"])
        let request = listModels()
        let task = Task { try await client.sendRaw(request, options: RequestOptions()) }
        try await Task.sleep(nanoseconds: 500_000_000)
        let start = Date()
        task.cancel()
        let result = await task.result
        XCTAssertLessThan(Date().timeIntervalSince(start), 1)
        XCTAssertEqual((result.failureValue as? OpenAIError)?.kind, .cancelled)
        let count = try await server.requests(scenario: scenario).count
        XCTAssertEqual(count, 1)
    }

    func testATaskCancelledInFlightEndsCancelledAndTheServerSeesNoSecondAttempt() async throws {
        let scenario = TestServer.scenario()
        let client = try self.client(scenario, headers: ["x-testserver-delay-ms": "3000"])
        let request = listModels()
        let task = Task { try await client.sendRaw(request, options: RequestOptions()) }
        try await Task.sleep(nanoseconds: 500_000_000)
        let start = Date()
        task.cancel()
        let result = await task.result
        XCTAssertLessThan(Date().timeIntervalSince(start), 1)
        XCTAssertEqual((result.failureValue as? OpenAIError)?.kind, .cancelled)
        var records: [TestServer.Record] = []
        for _ in 0..<40 {
            records = try await server.requests(scenario: scenario)
            if records.first?.disconnected == true { break }
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        XCTAssertEqual(records.count, 1)
        XCTAssertEqual(records.first?.disconnected, true, "the server saw the connection close")
    }

    func testASlowReplyTimesOutAndIsRetried() async throws {
        let scenario = TestServer.scenario()
        let client = try self.client(scenario, maxRetries: 0, timeout: 0.5, headers: ["x-testserver-delay-ms": "3000"])
        let start = Date()
        let error = await XCTAssertThrowsOpenAIError {
            _ = try await client.sendRaw(self.listModels(), options: RequestOptions())
        }
        XCTAssertEqual(error?.kind, .timeout)
        XCTAssertLessThan(Date().timeIntervalSince(start), 2)

        // A whole-second timeout is URLSession's own timer.
        let whole = try self.client(
            TestServer.scenario(), maxRetries: 0, timeout: 1, headers: ["x-testserver-delay-ms": "4000"])
        let wholeStart = Date()
        let wholeError = await XCTAssertThrowsOpenAIError {
            _ = try await whole.sendRaw(self.listModels(), options: RequestOptions())
        }
        XCTAssertEqual(wholeError?.kind, .timeout)
        XCTAssertLessThan(Date().timeIntervalSince(wholeStart), 3)

        let retried = TestServer.scenario()
        let retrying = try self.client(
            retried, timeout: 0.5, headers: ["x-testserver-delay-ms": "3000", "x-testserver-fail-times": "1"],
            sleeper: RecordingSleeper())
        _ = try await retrying.sendRaw(listModels(), options: RequestOptions())
        let count = try await server.requests(scenario: retried).count
        XCTAssertEqual(count, 2)
    }

    func testADroppedConnectionIsAConnectionErrorAndIsRetried() async throws {
        let scenario = TestServer.scenario()
        let client = try self.client(scenario, maxRetries: 0, headers: ["x-testserver-drop-connection": "true"])
        let error = await XCTAssertThrowsOpenAIError {
            _ = try await client.sendRaw(self.listModels(), options: RequestOptions())
        }
        XCTAssertEqual(error?.kind, .connection)

        let retried = TestServer.scenario()
        let retrying = try self.client(
            retried, headers: ["x-testserver-drop-connection": "true", "x-testserver-fail-times": "1"],
            sleeper: RecordingSleeper())
        let (_, raw) = try await retrying.withRawResponse { retrying in
            try await retrying.sendRaw(self.listModels(), options: RequestOptions())
        }
        XCTAssertEqual(raw.attempts, 2)
    }

    // MARK: Pagination, raw access, binary bodies, streams

    /// The `after` query item of each recorded request.
    private func afterCursors(_ records: [TestServer.Record]) -> [String?] {
        records.map { $0.query.first { $0.0 == "after" }?.1 }
    }

    func testAutoPagingWalksThreePagesOfAGeneratedListType() async throws {
        let scenario = TestServer.scenario()
        let client = try self.client(scenario, headers: ["x-testserver-pages": "3"])
        let pages = client.files.listPages(purpose: "assistants", limit: 2)
        var ids: [String] = []
        for try await file in pages.items { ids.append(file.id) }
        XCTAssertEqual(ids, ["item_1", "item_2", "item_3", "item_4", "item_5", "item_6"])
        var sizes: [Int] = []
        for try await page in pages {
            sizes.append(page.data.count)
            XCTAssertTrue(page.specDeviations.isEmpty, "\(page.specDeviations)")
        }
        XCTAssertEqual(sizes, [2, 2, 2])
        let records = try await server.requests(scenario: scenario)
        XCTAssertEqual(records.count, 6)
        XCTAssertEqual(afterCursors(records), [nil, "item_2", "item_4", nil, "item_2", "item_4"])
        XCTAssertTrue(records.allSatisfy { $0.query.contains { $0 == ("purpose", "assistants") } })
        XCTAssertTrue(records.allSatisfy { $0.validation == "ok" }, "\(records.map(\.validation))")
    }

    func testNextPageFollowsTheCursorAndEndsAfterTheLastPage() async throws {
        let scenario = TestServer.scenario()
        let client = try self.client(scenario, headers: ["x-testserver-pages": "2"])
        let first = try await client.files.listPages(limit: 2, after: "item_0").firstPage()
        XCTAssertEqual(first.items.map(\.id), ["item_1", "item_2"])
        XCTAssertTrue(first.hasNextPage)
        let next = try await first.nextPage()
        let second = try XCTUnwrap(next)
        XCTAssertEqual(second.items.map(\.id), ["item_3", "item_4"])
        XCTAssertFalse(second.page.hasMore)
        XCTAssertFalse(second.hasNextPage)
        let third = try await second.nextPage()
        XCTAssertNil(third)
        let records = try await server.requests(scenario: scenario)
        XCTAssertEqual(afterCursors(records), ["item_0", "item_2"], "nothing is sent after the last page")
    }

    func testAnEmptyListIsOnePageWithNoItems() async throws {
        let scenario = TestServer.scenario()
        let client = try self.client(scenario, headers: ["x-testserver-pages": "0"])
        var pages: [ListFilesResponse] = []
        for try await page in client.files.listPages() { pages.append(page) }
        XCTAssertEqual(pages.count, 1)
        XCTAssertEqual(pages.first?.data, [])
        var items = 0
        for try await _ in client.files.listPages().items { items += 1 }
        XCTAssertEqual(items, 0)
        let first = try await client.files.listPages().firstPage()
        XCTAssertFalse(first.hasNextPage)
        let records = try await server.requests(scenario: scenario)
        XCTAssertEqual(records.count, 3)
    }

    func testAReplyWithoutHasMoreGoesOnUntilAnEmptyPage() async throws {
        // Some compatible servers leave `has_more` out: the SDK does not read that as "no more"
        // (which would drop every later item); it asks for the next page, and an empty one ends
        // the list, as OpenAI's official SDKs do. What was missing stays observable.
        let scenario = TestServer.scenario()
        let client = try self.client(
            scenario, headers: ["x-testserver-pages": "2", "x-testserver-page-omit": "has_more"])
        var ids: [String] = []
        var missing: [Bool] = []
        for try await page in client.vectorStores.listPages(limit: 2) {
            ids += page.data.map(\.id)
            missing.append(page.specDeviations.isMissing("has_more"))
            XCTAssertFalse(page.hasMore, "decoded leniently as false")
        }
        XCTAssertEqual(ids, ["item_1", "item_2", "item_3", "item_4"])
        XCTAssertEqual(missing, [true, true, true])
        let records = try await server.requests(scenario: scenario)
        XCTAssertEqual(afterCursors(records), [nil, "item_2", "item_4"])
    }

    func testUsagePagesFollowNextPageInThePageParameter() async throws {
        let scenario = TestServer.scenario()
        let client = try self.client(scenario, headers: ["x-testserver-pages": "2"]) {
            $0.adminAPIKey = "sk-admin-test"
        }
        var buckets = 0
        for try await page in client.organization.usage.completions.listPages(startTime: 1_700_000_000, limit: 2) {
            buckets += page.data.count
        }
        XCTAssertEqual(buckets, 4)
        let records = try await server.requests(scenario: scenario)
        XCTAssertEqual(records.map { $0.query.first { $0.0 == "page" }?.1 }, [nil, "item_2"])
        XCTAssertTrue(records.allSatisfy { $0.validation == "ok" }, "\(records.map(\.validation))")
    }

    func testAServerThatIgnoresTheCursorDoesNotRepeatItems() async throws {
        // The same page for every `after`, `has_more` left out: iteration stops at the repeat.
        let page: ListFilesResponse = try
            ([
                "object": "list", "first_id": "file-1", "last_id": "file-2",
                "data": [
                    [
                        "id": "file-1", "object": "file", "bytes": 1, "created_at": 0, "filename": "a",
                        "purpose": "batch",
                    ],
                    [
                        "id": "file-2", "object": "file", "bytes": 1, "created_at": 0, "filename": "b",
                        "purpose": "batch",
                    ],
                ],
            ] as JSONValue).decode()
        let client = try self.client(TestServer.scenario())
        let fetches = Counter()
        var ids: [String] = []
        for try await file in client.items({ _ in
            fetches.increment()
            return page
        }) { ids.append(file.id) }
        XCTAssertEqual(ids, ["file-1", "file-2"])
        XCTAssertEqual(fetches.value, 2)
        let first = try await client.pages({ _ in page }).firstPage()
        XCTAssertTrue(first.hasNextPage)
        let second = try await first.nextPage()
        XCTAssertNil(second)
    }

    func testPagesAroundAnyCallThatTakesACursor() async throws {
        let scenario = TestServer.scenario()
        let client = try self.client(scenario, headers: ["x-testserver-pages": "2"])
        let ids = client.items(startingAfter: "item_1") { after in
            try await client.batches.list(after: after, limit: 1)
        }
        var seen: [String] = []
        for try await batch in ids { seen.append(batch.id) }
        XCTAssertEqual(seen, ["item_2"])
        let records = try await server.requests(scenario: scenario)
        XCTAssertEqual(afterCursors(records), ["item_1"])
    }

    func testRawResponseGivesStatusHeadersAndRequestID() async throws {
        let client = try self.client(TestServer.scenario())
        let (data, raw) = try await client.withRawResponse { client in
            try await client.sendForData(self.listModels(), options: RequestOptions())
        }
        XCTAssertFalse(data.isEmpty)
        XCTAssertEqual(raw.statusCode, 200)
        XCTAssertTrue(raw.requestID?.hasPrefix("req_") ?? false)
        XCTAssertEqual(raw.value(forHeader: "X-TESTSERVER-OPERATION"), "listModels")
        XCTAssertEqual(raw.attempts, 1)
    }

    func testAStreamedRequestBodyWithUploadProgress() async throws {
        let scenario = TestServer.scenario()
        let client = try self.client(scenario)
        let json = try JSONEncoder().encode(
            ChatBody(messages: Array(repeating: .init(content: String(repeating: "x", count: 1000)), count: 300)))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("rt-\(UUID().uuidString).json")
        try json.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let progress = Locked<[Int64]>([])
        var request = APIRequest(method: "POST", path: "/chat/completions", operationID: "createChatCompletion")
        request.setStreamBody(try .file(file), contentType: "application/json")
        _ = try await client.sendRaw(
            request,
            options: RequestOptions(uploadProgress: { sent, total in
                XCTAssertEqual(total, Int64(json.count))
                progress.withLock { $0.append(sent) }
            }))
        let record = try await XCTUnwrapAsync(try await server.requests(scenario: scenario).first)
        XCTAssertEqual(record.validation, "ok", "\(record.validationErrors)")
        XCTAssertEqual(record.raw["body"]?["size"]?.doubleValue, Double(json.count))
        let sent = progress.withLock { $0 }
        XCTAssertEqual(sent.last, Int64(json.count), "progress reaches the total")
        XCTAssertEqual(sent, sent.sorted())
    }

    func testAReplayableStreamBodyOfUnknownSizeIsSentAndRetried() async throws {
        let scenario = TestServer.scenario()
        let client = try self.client(
            scenario, headers: ["x-testserver-fail-times": "1", "x-testserver-fail-status": "503"],
            sleeper: RecordingSleeper())
        let json = try JSONEncoder().encode(ChatBody())
        let made = Locked(0)
        var request = APIRequest(method: "POST", path: "/chat/completions", operationID: "createChatCompletion")
        request.setStreamBody(
            .replayable(length: Int64(json.count)) {
                made.withLock { $0 += 1 }
                return InputStream(data: json)
            }, contentType: "application/json")
        _ = try await client.sendRaw(request, options: RequestOptions())
        let records = try await server.requests(scenario: scenario)
        XCTAssertEqual(records.map(\.status), [503, 200])
        XCTAssertEqual(records.last?.validation, "ok", "\(records.last?.validationErrors ?? [])")
        XCTAssertEqual(records.last?.raw["body"]?["size"]?.doubleValue, Double(json.count))
        XCTAssertEqual(made.withLock { $0 }, 2, "a fresh stream for every attempt")
    }

    func testResponseBodiesArriveChunkByChunk() async throws {
        var request = try createChat()
        request.body = try JSONEncoder().encode([
            "model": JSONValue("gpt-4o"), "stream": true, "messages": [["role": "user", "content": "Hi"]],
        ])
        request.accept = "text/event-stream"
        let client = try self.client(TestServer.scenario(), headers: ["x-testserver-chunk-delay-ms": "150"])
        let http = try client.makeHTTPRequest(request, options: RequestOptions())
        let start = Date()
        let response = try await client.transport.stream(
            http, timeouts: HTTPTimeouts(request: 10, idle: 10, connect: 10))
        XCTAssertEqual(response.statusCode, 200)
        var arrivals: [TimeInterval] = []
        for try await _ in response.body { arrivals.append(Date().timeIntervalSince(start)) }
        XCTAssertGreaterThanOrEqual(arrivals.count, 2)
        XCTAssertGreaterThan(
            try XCTUnwrap(arrivals.last) - arrivals[0], 0.1, "chunks arrived over time, not buffered: \(arrivals)")
    }

    func testStoppingAStreamEarlyClosesTheConnection() async throws {
        let scenario = TestServer.scenario()
        var request = try createChat()
        request.body = try JSONEncoder().encode([
            "model": JSONValue("gpt-4o"), "stream": true, "messages": [["role": "user", "content": "Hi"]],
        ])
        let client = try self.client(scenario, headers: ["x-testserver-chunk-delay-ms": "500"])
        // The response (and its body stream) is released when this function returns.
        func readOneChunk() async throws -> Int {
            let response = try await client.transport.stream(
                try client.makeHTTPRequest(request, options: RequestOptions()),
                timeouts: HTTPTimeouts(request: 10, idle: 10, connect: 10))
            for try await chunk in response.body { return chunk.count }
            return 0
        }
        let first = try await readOneChunk()
        XCTAssertGreaterThan(first, 0)
        var record: TestServer.Record?
        for _ in 0..<50 {
            record = try await server.requests(scenario: scenario).first
            if record?.disconnected == true { break }
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        XCTAssertEqual(record?.disconnected, true)
    }
}

extension Result {
    var failureValue: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

func XCTUnwrapAsync<T>(
    _ expression: @autoclosure () async throws -> T?, file: StaticString = #filePath, line: UInt = #line
) async throws -> T {
    let value = try await expression()
    return try XCTUnwrap(value, file: file, line: line)
}

/// A count shared with `@Sendable` closures.
private final class Counter: Sendable {
    private let count = Locked(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
