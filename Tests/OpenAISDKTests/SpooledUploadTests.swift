import Foundation
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
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("spooled-upload-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    /// A file of `size` bytes (3 MiB by default: over the 1 MiB in-memory limit, so streamed).
    private func file(size: Int = 3 << 20) throws -> URL {
        let url = directory.appendingPathComponent("train.jsonl")
        var bytes = [UInt8](repeating: 0, count: size)
        for index in bytes.indices { bytes[index] = UInt8(truncatingIfNeeded: index &* 31 &+ 7) }
        try Data(bytes).write(to: url)
        return url
    }

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
        let progress = LockedState<[Int64]>([])
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
        XCTAssertEqual(try spooledFiles(), before, "the temporary file is gone")
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
            _ = try await SpooledBody.spool(body, in: directory)
            XCTFail("a body shorter than its length is refused")
        } catch let error as OpenAIError {
            XCTAssertEqual(error.kind, .invalidRequest)
            XCTAssertTrue(error.message.contains("1000 bytes"), error.message)
            XCTAssertTrue(error.message.contains("2000"), error.message)
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        XCTAssertEqual(left, ["train.jsonl"], "no spooled file is left")
        let spooled = try await SpooledBody.spool(try HTTPBodyStream.file(url), in: directory)
        defer { spooled.remove() }
        XCTAssertEqual(spooled.length, 1000)
        XCTAssertEqual(try Data(contentsOf: spooled.url), try Data(contentsOf: url))
        let permissions = try FileManager.default.attributesOfItem(atPath: spooled.url.path)[.posixPermissions]
        XCTAssertEqual((permissions as? NSNumber)?.intValue, 0o600, "readable by its owner only")
    }
}
