import Foundation
import OpenAISDKTestSupport
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@testable import OpenAI
@testable import OpenAIRuntime

/// The upload path of Apple platforms (`SpooledBody`: a streamed body written to a temporary file
/// and sent with `uploadTask(with:fromFile:)`, never as a custom `InputStream`), run here on Linux
/// through `URLSessionTransport(configuration:spoolsStreamedBodies: true)` against the local test
/// server.
final class SpooledUploadTests: XCTestCase {
    private var folder: UploadTestFolder!

    override func setUpWithError() throws {
        folder = try UploadTestFolder(prefix: "spooled-upload")
    }

    override func tearDownWithError() throws {
        folder.remove()
    }

    private func file(size: Int = 3 << 20) throws -> URL { try folder.file(size: size) }

    /// The spooled files of this process's temporary folder.
    private func spooledFiles() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)
            .filter { $0.hasPrefix(SpooledBody.filePrefix) }
    }

    /// The `file` part as the test server received it: its size in bytes and its SHA-256 (hex).
    private func filePart(_ record: TestServer.Record) -> (size: Int, sha256: String)? {
        guard let part = record.raw["parts"]?.arrayValue?.first(where: { $0["name"]?.stringValue == "file" }),
            let size = part["size"]?.doubleValue, let digest = part["sha256"]?.stringValue
        else { return nil }
        return (Int(size), digest)
    }

    private func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    private func client(_ server: TestServer, headers: [String: String]) throws -> OpenAIClient {
        try server.client(
            maxRetries: 0, headers: headers,
            transport: URLSessionTransport(configuration: .default, spoolsStreamedBodies: true))
    }

    func testAMultipartUploadIsSentFromATemporaryFileWithItsContentLengthAndTheFileIsRemoved() async throws {
        let server = try TestServer.shared()
        let scenario = TestServer.scenario()
        let before = try spooledFiles()
        let url = try file()
        let progress = Locked<[Int64]>([])
        let created = try await client(server, headers: ["x-testserver-scenario": scenario]).files.create(
            .init(file: try FileUpload(fileURL: url), purpose: .batch),
            options: RequestOptions(uploadProgress: { sent, _ in progress.withLock { $0.append(sent) } }))
        XCTAssertFalse(created.id.isEmpty)
        let records = try await server.requests(scenario: scenario)
        let record = try XCTUnwrap(records.last)
        XCTAssertEqual(record.validation, "ok", "\(record.validationErrors)")
        let length = try XCTUnwrap(record.headers["content-length"].flatMap { Int($0) }, "sent with its length")
        XCTAssertGreaterThan(length, 3 << 20)
        let sent = try XCTUnwrap(filePart(record))
        XCTAssertEqual(sent.size, 3 << 20)
        XCTAssertEqual(sent.sha256, hex(HMACSHA256.digest(Array(try Data(contentsOf: url)))), "the file's bytes")
        XCTAssertNil(record.headers["transfer-encoding"], "not chunked")
        XCTAssertEqual(progress.withLock { $0.last }.map(Int.init), length, "progress ends at the whole body")
        XCTAssertEqual(Set(try spooledFiles()), Set(before), "the temporary file is gone")
    }

    func testASpooledBodyIsSentAgainOnASameOriginRedirect() async throws {
        let server = try TestServer.shared()
        let scenario = TestServer.scenario()
        let client = try client(
            server,
            headers: [
                "x-testserver-scenario": scenario, "x-testserver-redirect-status": "307",
                "x-testserver-redirect-location": server.baseURL.absoluteString + "/files",
            ])
        _ = try await client.files.create(
            .init(file: try FileUpload(fileURL: try file(size: 200_000)), purpose: .batch))
        let records = try await server.requests(scenario: scenario)
        XCTAssertEqual(records.count, 2, "the 307 was followed")
        XCTAssertEqual(records.last.flatMap(filePart)?.size, 200_000, "the whole file went again")
        XCTAssertEqual(records.last?.validation, "ok", "\(records.last?.validationErrors ?? [])")
    }

    func testAOneShotPartIsSpooledOnce() async throws {
        let server = try TestServer.shared()
        let scenario = TestServer.scenario()
        let chunks = AsyncStream<Data> { continuation in
            for index in 0..<8 { continuation.yield(Data(repeating: UInt8(index), count: 256 << 10)) }
            continuation.finish()
        }
        let upload = FileUpload(stream: chunks, length: 8 * (256 << 10), filename: "train.jsonl")
        _ = try await client(server, headers: ["x-testserver-scenario": scenario]).files.create(
            .init(file: upload, purpose: .batch))
        let records = try await server.requests(scenario: scenario)
        let record = try XCTUnwrap(records.last)
        XCTAssertEqual(record.validation, "ok", "\(record.validationErrors)")
        XCTAssertEqual(filePart(record)?.size, 8 * (256 << 10))
    }

    func testABodyThatCannotBeReadLeavesNoFileAndNamesTheCause() async throws {
        let url = try file(size: 1000)
        let body = HTTPBodyStream.replayable(length: 2000) { InputStream(url: url)! }
        do {
            _ = try await SpooledBody.spool(body, in: folder.url)
            XCTFail("a body shorter than its length is refused")
        } catch let error as OpenAIError {
            XCTAssertEqual(error.kind, .invalidRequest)
            XCTAssertTrue(error.message.contains("1000 bytes"), error.message)
            XCTAssertTrue(error.message.contains("2000"), error.message)
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
        XCTAssertEqual(left, ["train.jsonl"], "no spooled file is left")
        let spooled = try await SpooledBody.spool(try HTTPBodyStream.file(url), in: folder.url)
        defer { spooled.remove() }
        XCTAssertEqual(spooled.length, 1000)
        XCTAssertEqual(try Data(contentsOf: spooled.url), try Data(contentsOf: url))
        let permissions = try FileManager.default.attributesOfItem(atPath: spooled.url.path)[.posixPermissions]
        XCTAssertEqual((permissions as? NSNumber)?.intValue, 0o600, "readable by its owner only")
    }

    func testAStalledStreamPartEndsAtTheRequestTimeoutAndLeavesNoFile() async throws {
        let server = try TestServer.shared()
        let before = Set(try spooledFiles())
        // A stream that promises a megabyte and never yields.
        let stalled = AsyncStream<Data> { _ in }
        let client = try server.client(
            maxRetries: 0, timeout: 1,
            transport: URLSessionTransport(configuration: .default, spoolsStreamedBodies: true)
        )
        let start = ContinuousClock.now
        do {
            _ = try await client.files.create(
                .init(file: FileUpload(stream: stalled, length: 1 << 20, filename: "train.jsonl"), purpose: .batch))
            XCTFail("a body that never comes cannot be sent")
        } catch let error as OpenAIError {
            XCTAssertEqual(error.kind, .timeout, error.message)
            XCTAssertTrue(error.message.contains("request timeout of 1"), error.message)
        }
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(10), "the spool stopped at its limit")
        // The writer thread, woken by the stopped stream, removes its file.
        var left = Set(try spooledFiles()).subtracting(before)
        for _ in 0..<100 where !left.isEmpty {
            try await Task.sleep(for: .milliseconds(20))
            left = Set(try spooledFiles()).subtracting(before)
        }
        XCTAssertEqual(left, [], "no spooled file is left")
    }
}
