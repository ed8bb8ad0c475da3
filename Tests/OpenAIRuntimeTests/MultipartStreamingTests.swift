import Foundation
import XCTest

@testable import OpenAIRuntime

/// Multipart bodies produced while they are sent: files read from disk in chunks, one-shot
/// streams, lengths known up front, replay rules.
final class MultipartStreamingTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("mp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    /// A deterministic pseudo-random file of `size` bytes.
    private func makeFile(_ name: String, size: Int) throws -> (URL, Data) {
        var generator = SplitMix(seed: UInt64(size))
        let data = Data((0..<size).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
        let url = directory.appendingPathComponent(name)
        try data.write(to: url)
        return (url, data)
    }

    struct SplitMix: RandomNumberGenerator {
        var seed: UInt64
        mutating func next() -> UInt64 {
            seed &+= 0x9E37_79B9_7F4A_7C15
            var z = seed
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    func testAFileFromDiskIsStreamedInChunksAndMatchesTheInMemoryEncoding() throws {
        let (url, data) = try makeFile("blob.wav", size: 3 * MultipartBodyReader.chunkSize + 17)
        var onDisk = MultipartForm()
        try onDisk.append("model", "whisper-1")
        try onDisk.append("file", try FileUpload(fileURL: url))
        var inMemory = MultipartForm()
        try inMemory.append("model", "whisper-1")
        try inMemory.append("file", FileUpload(data: data, filename: "blob.wav"))
        let streamed = onDisk.body(boundary: "B")
        XCTAssertFalse(streamed.isInMemory)
        XCTAssertTrue(streamed.isReplayable)
        XCTAssertEqual(streamed.segments.count, 3, "head, file, tail")
        let expected = try inMemory.body(boundary: "B").collectData()
        XCTAssertEqual(streamed.length, Int64(expected.count))

        // Read through the InputStream a transport uses, in odd-sized reads; count the chunks.
        let chunks = ChunkCounter()
        let stream = streamed.makeInputStream(progress: { chunks.record($0) })
        stream.open()
        var produced = Data()
        var buffer = [UInt8](repeating: 0, count: 10_000)
        while stream.hasBytesAvailable {
            let count = stream.read(&buffer, maxLength: buffer.count)
            XCTAssertGreaterThanOrEqual(count, 0)
            if count <= 0 { break }
            produced.append(contentsOf: buffer[0..<count])
        }
        stream.close()
        XCTAssertEqual(produced, expected)
        XCTAssertEqual(stream.streamStatus, .closed)
        XCTAssertEqual(chunks.last, Int64(expected.count), "progress ends at the total")
        // Replayable: a second reader produces the same bytes again.
        XCTAssertEqual(try streamed.collectData(), expected)
    }

    func testAFileRangeSendsOnlyThoseBytes() throws {
        let (url, data) = try makeFile("big.bin", size: 200_000)
        let part = try FileUpload(fileURL: url, offset: 70_000, length: 100_000)
        var form = MultipartForm()
        try form.append("data", part)
        let body = try form.body(boundary: "B").collectData()
        let head = Data(
            "--B\r\nContent-Disposition: form-data; name=\"data\"; filename=\"big.bin\"\r\nContent-Type: application/octet-stream\r\n\r\n"
                .utf8)
        XCTAssertEqual(body, head + data[70_000..<170_000] + Data("\r\n--B--\r\n".utf8))
        XCTAssertThrowsError(try FileUpload(fileURL: url, offset: 150_000, length: 60_000))
    }

    func testAFileThatShrankAfterItWasMeasuredFailsTheBody() throws {
        let (url, _) = try makeFile("shrinks.bin", size: 100_000)
        var form = MultipartForm()
        try form.append("file", try FileUpload(fileURL: url))
        let body = form.body()
        try Data(count: 10).write(to: url)
        XCTAssertThrowsError(try body.collectData()) { error in
            XCTAssertEqual((error as? OpenAIError)?.kind, .invalidRequest)
            XCTAssertTrue("\(error)".contains("early"), "\(error)")
        }
        let stream = body.makeInputStream()
        stream.open()
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var result = 0
        repeat { result = stream.read(&buffer, maxLength: buffer.count) } while result > 0
        XCTAssertEqual(result, -1)
        XCTAssertEqual(stream.streamStatus, .error)
        XCTAssertNotNil(stream.streamError)
    }

    func testAMissingFileOrADirectoryIsRejectedUpFront() {
        XCTAssertThrowsError(try FileUpload(fileURL: directory.appendingPathComponent("missing.txt")))
        XCTAssertThrowsError(try FileUpload(fileURL: directory))
        XCTAssertThrowsError(try FileUpload(fileURL: URL(string: "https://example.com/a.png")!))
    }

    func testFileURLInfersNameAndTypeAndBothCanBeOverridden() throws {
        let (url, _) = try makeFile("Photo.JPG", size: 10)
        let inferred = try FileUpload(fileURL: url)
        XCTAssertEqual(inferred.filename, "Photo.JPG")
        XCTAssertEqual(inferred.contentType, "image/jpeg")
        XCTAssertEqual(inferred.length, 10)
        let overridden = try FileUpload(fileURL: url, filename: "x.png", contentType: "image/x-custom")
        XCTAssertEqual(overridden.filename, "x.png")
        XCTAssertEqual(overridden.contentType, "image/x-custom")
    }

    func testAnAsyncStreamIsSentOnceWithItsAnnouncedLength() throws {
        let chunks = (0..<50).map { Data(repeating: UInt8($0), count: 1000) }
        let stream = AsyncStream<Data> { continuation in
            for chunk in chunks { continuation.yield(chunk) }
            continuation.finish()
        }
        let upload = FileUpload(stream: stream, length: 50_000, filename: "rec.wav")
        XCTAssertFalse(upload.isReplayable)
        XCTAssertEqual(upload.contentType, "audio/wav")
        var form = MultipartForm()
        try form.append("file", upload)
        let body = form.body(boundary: "B")
        XCTAssertFalse(body.isReplayable)
        XCTAssertFalse(body.httpBodyStream().isReplayable)
        let data = try collectOffThePool(body)
        XCTAssertEqual(Int64(data.count), body.length)
        XCTAssertEqual(data.range(of: chunks.reduce(Data(), +)) != nil, true)
        // A second send fails instead of sending an empty or partial file.
        XCTAssertThrowsError(try collectOffThePool(body)) { error in
            XCTAssertEqual((error as? OpenAIError)?.kind, .invalidRequest)
        }
    }

    func testAStreamShorterOrLongerThanAnnouncedFails() throws {
        for (length, actual) in [(Int64(2000), 1000), (Int64(500), 1000)] {
            let stream = AsyncStream<Data> { continuation in
                continuation.yield(Data(count: actual))
                continuation.finish()
            }
            var form = MultipartForm()
            try form.append("file", FileUpload(stream: stream, length: length, filename: "a.bin"))
            XCTAssertThrowsError(try collectOffThePool(form.body())) { error in
                XCTAssertEqual((error as? OpenAIError)?.kind, .invalidRequest, "\(length) vs \(actual)")
            }
        }
    }

    func testSmallInMemoryFormsAreBytesAndFilesAreStreams() throws {
        let (url, _) = try makeFile("a.txt", size: 100)
        struct Form: MultipartFormEncodable {
            var file: FileUpload
            func encode(to form: inout MultipartForm) throws { try form.append("file", file) }
        }
        var small = APIRequest(method: "POST", path: "/files", operationID: "createFile")
        try small.setMultipartBody(Form(file: FileUpload(data: Data("x".utf8), filename: "a.txt")))
        XCTAssertNotNil(small.body)
        var streamed = APIRequest(method: "POST", path: "/files", operationID: "createFile")
        try streamed.setMultipartBody(Form(file: try FileUpload(fileURL: url)))
        guard case .stream(let stream) = streamed.httpBody else { return XCTFail("expected a stream body") }
        XCTAssertTrue(stream.isReplayable)
        XCTAssertEqual(stream.length, streamed.httpBody?.length)
        XCTAssertTrue(streamed.contentType?.hasPrefix("multipart/form-data; boundary=") ?? false)
    }

    /// Collects a body on a plain thread, as a transport's I/O thread reads it (a stream part
    /// blocks the reading thread while the producer task runs on the concurrency pool).
    private func collectOffThePool(_ body: MultipartBody) throws -> Data {
        let result = LockedResult()
        let done = DispatchSemaphore(value: 0)
        Thread {
            result.set(Result { try body.collectData() })
            done.signal()
        }.start()
        XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
        return try result.get()
    }

    final class LockedResult: Sendable {
        private let value = Locked<Result<Data, any Error>?>(nil)
        func set(_ value: Result<Data, any Error>) { self.value.withLock { $0 = value } }
        func get() throws -> Data { try value.withLock { $0 }!.get() }
    }

    final class ChunkCounter: Sendable {
        private let values = Locked<[Int64]>([])
        func record(_ value: Int64) { values.withLock { $0.append(value) } }
        var last: Int64? { values.withLock { $0.last } }
    }
}
