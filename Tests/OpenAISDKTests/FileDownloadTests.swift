import Foundation
import OpenAISDKTestSupport
import XCTest

@testable import OpenAI
@testable import OpenAIRuntime

/// Every operation that returns file bytes, through its generated methods against the local test
/// server: the bytes as `Data`, and the `to:` variant that streams them to a file without holding
/// them in memory. The server sends bytes `i % 251` (not UTF-8, not JSON), as a batch result,
/// a PDF or an image would be for a JSON decoder.
final class FileDownloadTests: XCTestCase {
    private var server: TestServer!

    override func setUpWithError() throws {
        server = try TestServer.shared()
    }

    private func client(size: Int, scenario: String = TestServer.scenario()) throws -> OpenAIClient {
        try server.client(
            maxRetries: 0, headers: ["x-testserver-scenario": scenario, "x-testserver-binary-size": "\(size)"])
    }

    private static func isPattern(_ bytes: Data) -> Bool {
        bytes.enumerated().allSatisfy { $0.element == UInt8($0.offset % 251) }
    }

    private func temporaryFile() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("download-\(UUID().uuidString).bin")
    }

    func testFileContentReturnsTheFilesBytes() async throws {
        let scenario = TestServer.scenario()
        let client = try client(size: 300_017, scenario: scenario)
        let bytes = try await client.files.content(fileID: "file-abc123")
        XCTAssertEqual(bytes.count, 300_017)
        XCTAssertTrue(Self.isPattern(bytes))
        let records = try await server.requests(scenario: scenario)
        XCTAssertEqual(records.first?.path, "/v1/files/file-abc123/content")
        XCTAssertEqual(records.first?.headers["accept"], "*/*")
        XCTAssertEqual(records.first?.validation, "ok")
    }

    func testContainerFileContentReturnsItsBytesInsteadOfDroppingThem() async throws {
        let client = try client(size: 4096)
        let bytes = try await client.containers.files.content(containerID: "cntr_1", fileID: "cfile_1")
        XCTAssertEqual(bytes.count, 4096)
        XCTAssertTrue(Self.isPattern(bytes))
    }

    func testEveryBinaryOperationHasAFileVariantThatWritesTheBytes() async throws {
        let size = 3 * 1024 * 1024 + 17
        let client = try client(size: size)
        let speech: CreateSpeechRequest = try
            (["model": "gpt-4o-mini-tts", "input": "Hi", "voice": "alloy"]
            as JSONValue).decode()
        let calls: [(String, (URL) async throws -> DownloadResult)] = [
            ("files.content", { try await client.files.content(fileID: "file-abc123", to: $0) }),
            (
                "containers.files.content",
                { try await client.containers.files.content(containerID: "c", fileID: "f", to: $0) }
            ),
            ("audio.speech.create", { try await client.audio.speech.create(speech, to: $0) }),
            ("videos.content", { try await client.videos.content(videoID: "video_1", to: $0) }),
            ("skills.content", { try await client.skills.content(skillID: "skill_1", to: $0) }),
            (
                "skills.versions.content",
                { try await client.skills.versions.content(skillID: "skill_1", version: "1", to: $0) }
            ),
        ]
        for (name, call) in calls {
            let file = temporaryFile()
            defer { try? FileManager.default.removeItem(at: file) }
            let result = try await call(file)
            XCTAssertEqual(result.fileURL, file, name)
            XCTAssertEqual(result.byteCount, Int64(size), name)
            XCTAssertEqual(result.response.statusCode, 200, name)
            XCTAssertEqual(result.response.attempts, 1, name)
            let bytes = try Data(contentsOf: file)
            XCTAssertEqual(bytes.count, size, name)
            XCTAssertTrue(Self.isPattern(bytes), name)
        }
    }

    func testADownloadToAFileDoesNotHoldTheBodyInMemory() async throws {
        #if os(Linux)
            let size = 96 << 20
            let client = try client(size: size)
            let file = temporaryFile()
            defer { try? FileManager.default.removeItem(at: file) }
            let baseline = try Self.residentBytes()
            let peak = Locked<Int>(baseline)
            let sampler = Self.sampleResidentMemory(into: peak)
            let result = try await client.files.content(fileID: "file-big", to: file)
            sampler.cancel()
            _ = await sampler.value
            XCTAssertEqual(result.byteCount, Int64(size))
            let grown = peak.withLock { $0 } - baseline
            // Holding the body would grow it by 96 MiB or more. The transport stops reading while the
            // file writer is 1 MiB behind (`StreamedBody`), so what remains is the heap's own slack.
            XCTAssertLessThan(grown, 16 << 20, "resident memory grew by \(grown >> 20) MiB for a 96 MiB download")
        #else
            throw XCTSkip("reads /proc/self/statm (Linux)")
        #endif
    }

    func testAFailedDownloadLeavesNoFileBehind() async throws {
        let client = try server.client(
            maxRetries: 0,
            headers: ["x-testserver-scenario": TestServer.scenario(), "x-testserver-fail-status": "404"])
        let file = temporaryFile()
        do {
            _ = try await client.files.content(fileID: "file-missing", to: file)
            XCTFail("a 404 did not throw")
        } catch let error as OpenAIError {
            XCTAssertEqual(error.kind, .notFound)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: file.path))
    }

    /// Records the largest resident memory in `peak` every 5 ms until cancelled.
    static func sampleResidentMemory(into peak: Locked<Int>) -> Task<Void, Never> {
        Task.detached {
            while !Task.isCancelled {
                if let now = try? residentBytes() { peak.withLock { $0 = max($0, now) } }
                try? await Task.sleep(nanoseconds: 5_000_000)
            }
        }
    }

    /// The process's resident memory, in bytes (`/proc/self/statm`; 0 elsewhere).
    static func residentBytes() throws -> Int {
        #if os(Linux)
            let text = try String(contentsOfFile: "/proc/self/statm", encoding: .utf8)
            let pages = Int(text.split(separator: " ")[1]) ?? 0
            return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
        #else
            return 0
        #endif
    }
}

/// Replies that are text where the spec documents JSON: a transcription asked for as `text`,
/// `srt` or `vtt` comes back as `text/plain` or `text/vtt`, and still decodes.
final class TextReplyTests: XCTestCase {
    func testATranscriptionAskedForAsTextOrVTTDecodesToItsText() async throws {
        let server = try TestServer.shared()
        for (fixture, format) in [
            ("audio/text/dotnet-transcription.txt", "text"), ("audio/text/dotnet-transcription.vtt", "vtt"),
        ] {
            let client = try server.client(
                maxRetries: 0,
                headers: ["x-testserver-scenario": TestServer.scenario(), "x-testserver-fixture": fixture])
            let expected = try String(contentsOf: try SharedData.file("fixtures/" + fixture), encoding: .utf8)
            let reply = try await client.audio.transcriptions.create(
                .init(
                    file: FileUpload(data: Data([0xFF, 0xF3, 0x44, 0xC4]), filename: "a.mp3"), model: "whisper-1",
                    responseFormat: .init(rawValue: format)))
            guard case .unknown(.string(let text)) = reply else { return XCTFail("\(reply)") }
            XCTAssertEqual(text, expected, fixture)
        }
    }
}
