import Foundation
import OpenAISDKTestSupport
import XCTest

@testable import OpenAI
@testable import OpenAIRuntime

/// `client.uploads.uploadFileChunked`: create → parts of at most 64 MiB (bounded concurrency,
/// a failed part retried alone) → complete with the parts in order; cancellation cancels the
/// Upload on the server.
final class UploadChunkedTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("up-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    /// A file whose part `i` (of `partSize` bytes) is filled with the byte `i`.
    private func makeFile(parts: Int, partSize: Int, lastPartSize: Int) throws -> URL {
        var data = Data()
        for index in 0..<parts {
            data.append(Data(repeating: UInt8(index), count: index == parts - 1 ? lastPartSize : partSize))
        }
        let url = directory.appendingPathComponent("train.jsonl")
        try data.write(to: url)
        return url
    }

    /// A fake Uploads API: answers each part with `part_<byte>` (the byte its data is filled
    /// with), holds part 0 back so parts complete out of order, fails part 1's first attempt
    /// with a 500, and records everything.
    final class FakeUploadsAPI: HTTPTransport, Sendable {
        /// What it has seen.
        struct Record {
            var paths: [String] = []
            var partAttempts: [Int: Int] = [:]
            var inFlight = 0
            var maxInFlight = 0
            var completedPartIDs: [String] = []
        }
        private let record = Locked(Record())
        var paths: [String] { record.withLock { $0.paths } }
        var partAttempts: [Int: Int] { record.withLock { $0.partAttempts } }
        var maxInFlight: Int { record.withLock { $0.maxInFlight } }
        var completedPartIDs: [String] { record.withLock { $0.completedPartIDs } }
        let hang: Bool
        /// What part 1's first attempt gets.
        let failure: HTTPResponse

        init(
            hang: Bool = false,
            failure: HTTPResponse = HTTPResponse(
                statusCode: 500, headers: ["content-type": "application/json"],
                body: Data(#"{"error":{"message":"boom","type":"server_error"}}"#.utf8))
        ) {
            self.hang = hang
            self.failure = failure
        }

        static func bytes(of body: HTTPBody?) throws -> Data {
            switch body {
            case .data(let data): return data
            case .stream(let stream):
                let input = try stream.makeInputStream()
                input.open()
                defer { input.close() }
                var result = Data()
                var buffer = [UInt8](repeating: 0, count: 1 << 16)
                while true {
                    let count = input.read(&buffer, maxLength: buffer.count)
                    if count <= 0 { break }
                    result.append(contentsOf: buffer[0..<count])
                }
                return result
            case nil: return Data()
            }
        }

        func send(_ request: HTTPRequest, timeouts: HTTPTimeouts) async throws -> HTTPResponse {
            let path = request.url.path
            record.withLock { $0.paths.append(path) }
            let json: String
            if path.hasSuffix("/uploads") {
                json =
                    #"{"id":"upload_1","object":"upload","bytes":1,"created_at":1,"filename":"train.jsonl","purpose":"fine-tune","status":"pending","expires_at":2}"#
            } else if path.hasSuffix("/parts") {
                let body = try Self.bytes(of: request.body)
                let marker = body.range(of: Data("\r\n\r\n".utf8)).map { body[$0.upperBound] } ?? 255
                let attempt: Int = record.withLock { record in
                    record.partAttempts[Int(marker), default: 0] += 1
                    record.inFlight += 1
                    record.maxInFlight = max(record.maxInFlight, record.inFlight)
                    return record.partAttempts[Int(marker)]!
                }
                defer { record.withLock { $0.inFlight -= 1 } }
                if hang || marker == 0 {
                    try await Task.sleep(nanoseconds: hang ? 30_000_000_000 : 300_000_000)
                } else {
                    try await Task.sleep(nanoseconds: 50_000_000)
                }
                if marker == 1 && attempt == 1 { return failure }
                json = #"{"id":"part_\#(marker)","object":"upload.part","created_at":1,"upload_id":"upload_1"}"#
            } else if path.hasSuffix("/complete") {
                let body = try JSONDecoder().decode(JSONValue.self, from: try Self.bytes(of: request.body))
                let ids = body["part_ids"]?.arrayValue?.compactMap(\.stringValue) ?? []
                record.withLock { $0.completedPartIDs = ids }
                json =
                    #"{"id":"upload_1","object":"upload","bytes":1,"created_at":1,"filename":"train.jsonl","purpose":"fine-tune","status":"completed","expires_at":2}"#
            } else {
                json =
                    #"{"id":"upload_1","object":"upload","bytes":1,"created_at":1,"filename":"train.jsonl","purpose":"fine-tune","status":"cancelled","expires_at":2}"#
            }
            return HTTPResponse(statusCode: 200, headers: ["content-type": "application/json"], body: Data(json.utf8))
        }
    }

    final class ProgressLog: Sendable {
        private let values = Locked<[UploadProgress]>([])
        func append(_ value: UploadProgress) { values.withLock { $0.append(value) } }
        var all: [UploadProgress] { values.withLock { $0 } }
    }

    private func client(_ transport: any HTTPTransport) throws -> OpenAIClient {
        try OpenAIClient(
            configuration: .init(apiKey: "sk-test", baseURL: URL(string: "http://127.0.0.1:9/v1")!, maxRetries: 0),
            transport: transport)
    }

    func testPartsAreSentBoundedRetriedAloneAndCompletedInFileOrder() async throws {
        let partSize = 100_000
        let url = try makeFile(parts: 5, partSize: partSize, lastPartSize: 12_345)
        let fake = FakeUploadsAPI()
        let log = ProgressLog()
        let upload = try await client(fake).uploads.uploadFileChunked(
            fileURL: url, purpose: .fineTune, partSize: Int64(partSize), maxConcurrentParts: 2,
            progress: { log.append($0) })
        XCTAssertEqual(upload.status, .completed)
        XCTAssertEqual(fake.completedPartIDs, ["part_0", "part_1", "part_2", "part_3", "part_4"])
        XCTAssertEqual(fake.partAttempts, [0: 1, 1: 2, 2: 1, 3: 1, 4: 1], "only the failed part is sent again")
        XCTAssertEqual(fake.maxInFlight, 2)
        XCTAssertEqual(fake.paths.first, "/v1/uploads")
        XCTAssertEqual(fake.paths.last, "/v1/uploads/upload_1/complete")
        XCTAssertFalse(fake.paths.contains { $0.hasSuffix("/cancel") })
        let total = Int64(4 * partSize + 12_345)
        XCTAssertEqual(log.all.last, UploadProgress(bytesSent: total, totalBytes: total))
        XCTAssertTrue(log.all.allSatisfy { $0.bytesSent <= total })
    }

    func testAPartIsRetriedByTheClientsRetryRules() async throws {
        let partSize = 100_000
        let url = try makeFile(parts: 3, partSize: partSize, lastPartSize: 10)
        let error = Data(#"{"error":{"message":"slow down","type":"rate_limit"}}"#.utf8)
        // Retry-After is honoured, through the client's sleeper.
        let limited = FakeUploadsAPI(failure: HTTPResponse(statusCode: 429, headers: ["retry-after": "2"], body: error))
        let sleeper = RecordingSleeper()
        let client = try OpenAIClient(
            configuration: .init(apiKey: "sk-test", maxRetries: 0), transport: limited, sleeper: sleeper,
            jitter: { 0 })
        let upload = try await client.uploads.uploadFileChunked(
            fileURL: url, purpose: .fineTune, partSize: Int64(partSize), maxConcurrentParts: 1)
        XCTAssertEqual(upload.status, .completed)
        XCTAssertEqual(limited.partAttempts, [0: 1, 1: 2, 2: 1])
        XCTAssertEqual(sleeper.delays, [2.0])
        // `x-should-retry: false` is final even within maxPartAttempts: the Upload is cancelled.
        let refused = FakeUploadsAPI(
            failure: HTTPResponse(statusCode: 503, headers: ["x-should-retry": "false"], body: error))
        let refusing = try OpenAIClient(
            configuration: .init(apiKey: "sk-test", maxRetries: 0), transport: refused, sleeper: RecordingSleeper(),
            jitter: { 0 })
        do {
            _ = try await refusing.uploads.uploadFileChunked(
                fileURL: url, purpose: .fineTune, partSize: Int64(partSize), maxConcurrentParts: 1,
                maxPartAttempts: 5)
            XCTFail("the part is not retried")
        } catch let error as OpenAIError {
            XCTAssertEqual(error.statusCode, 503)
        }
        XCTAssertEqual(refused.partAttempts[1], 1)
        XCTAssertEqual(refused.paths.last, "/v1/uploads/upload_1/cancel")
    }

    func testCancellingTheTaskCancelsTheUploadOnTheServer() async throws {
        let url = try makeFile(parts: 3, partSize: 1000, lastPartSize: 10)
        let fake = FakeUploadsAPI(hang: true)
        let client = try client(fake)
        let task = Task {
            try await client.uploads.uploadFileChunked(fileURL: url, purpose: .batch, partSize: 1000)
        }
        try await Task.sleep(nanoseconds: 300_000_000)
        task.cancel()
        do {
            _ = try await task.value
            XCTFail("expected cancellation")
        } catch let error as OpenAIError {
            XCTAssertEqual(error.kind, .cancelled)
        }
        XCTAssertEqual(fake.paths.last, "/v1/uploads/upload_1/cancel")
        XCTAssertFalse(fake.paths.contains { $0.hasSuffix("/complete") })
    }

    func testPartRangesCoverTheFileWithAtMost64MiBEach() {
        let mib: Int64 = 1 << 20
        let ranges = UploadsAPI.partRanges(size: 150 * mib, partSize: UploadsAPI.maxPartSize)
        XCTAssertEqual(ranges, [0..<64 * mib, 64 * mib..<128 * mib, 128 * mib..<150 * mib])
        XCTAssertEqual(UploadsAPI.partRanges(size: 0, partSize: 10), [0..<0])
        XCTAssertEqual(UploadsAPI.partRanges(size: 10, partSize: 10), [0..<10])
    }

    func testAChunkedUploadPassesTheTestServersValidation() async throws {
        let server = try TestServer.shared()
        let scenario = TestServer.scenario()
        let client = try server.client(headers: ["x-testserver-scenario": scenario])
        let url = try makeFile(parts: 3, partSize: 1 << 20, lastPartSize: 1 << 19)
        do {
            _ = try await client.uploads.uploadFileChunked(
                fileURL: url, purpose: .fineTune, mimeType: "text/jsonl", partSize: 1 << 20)
        } catch let error as OpenAIError where error.kind == .decoding {
            // The completed Upload's example `file` lacks `status`, which the spec marks required
            // (a spec/model issue); the requests are what this test checks.
        }
        let records = try await server.requests(scenario: scenario)
        XCTAssertEqual(
            records.map { $0.operationID ?? "" },
            ["createUpload", "addUploadPart", "addUploadPart", "addUploadPart", "completeUpload"])
        XCTAssertEqual(records.map { $0.validation ?? "" }, Array(repeating: "ok", count: 5))
        let sizes = records.filter { $0.operationID == "addUploadPart" }
            .compactMap { $0.raw["parts"]?.arrayValue?.first?["size"]?.doubleValue }.map { Int($0) }.sorted()
        XCTAssertEqual(sizes, [1 << 19, 1 << 20, 1 << 20])
    }
}
