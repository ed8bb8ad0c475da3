import Foundation
import OpenAISDKTestSupport
import XCTest

@testable import OpenAI
@testable import OpenAIRuntime

/// Every multipart operation of the spec (18), sent to the local test server, which parses the
/// body with aiohttp's multipart reader (not our code), checks field names and values against the
/// operation's request schema and records the parts.
final class MultipartServerTests: XCTestCase {
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]) + Data("IHDR--".utf8)
    static let mp3 = Data("ID3\u{3}\0\0\0\0\0\0".utf8) + Data(repeating: 0xAB, count: 300)
    static let wav = Data("RIFF\0\0\0\0WAVEfmt ".utf8) + Data(repeating: 1, count: 100)
    static let mp4 = Data([0, 0, 0, 0x18]) + Data("ftypmp42".utf8) + Data(repeating: 7, count: 64)
    static let zip = Data([0x50, 0x4B, 0x03, 0x04]) + Data(repeating: 9, count: 40)

    /// One part as the server recorded it.
    struct RecordedPart: Equatable, CustomStringConvertible {
        var name: String
        var filename: String?
        var contentType: String?
        var size: Int
        var value: String?
        var description: String { "\(name)=\(filename.map { "<\($0) \(size) B>" } ?? value ?? "?")" }
    }

    /// Records the `x-testserver-validation` header of every reply.
    final class HeaderRecorder: HTTPTransport, Sendable {
        private let values = Locked<[String]>([])
        private let base = URLSessionTransport()

        var validations: [String] { values.withLock { $0 } }

        func send(_ request: HTTPRequest, timeouts: HTTPTimeouts) async throws -> HTTPResponse {
            let response = try await base.send(request, timeouts: timeouts)
            let validation = response.value(forHeader: "x-testserver-validation") ?? "none"
            values.withLock { $0.append(validation) }
            return response
        }
    }

    private var scenario = ""
    private var recorder = HeaderRecorder()

    private func client(validate: Bool = true) throws -> OpenAIClient {
        scenario = TestServer.scenario(name)
        recorder = HeaderRecorder()
        var headers = ["x-testserver-scenario": scenario]
        if !validate { headers["x-testserver-validate"] = "false" }
        return try TestServer.shared().client(maxRetries: 0, headers: headers, transport: recorder)
    }

    /// Sends a form for an operation that also accepts JSON (its generated method sends JSON).
    private func sendMultipart(
        _ client: OpenAIClient, _ path: String, _ operationID: String, _ form: some MultipartFormEncodable,
        pathParameters: [String: String] = [:]
    ) async throws {
        var request = APIRequest(method: "POST", path: path, operationID: operationID)
        for (name, value) in pathParameters { try request.setPathParameter(name, value) }
        try request.setMultipartBody(form)
        _ = try await client.sendRaw(request, options: RequestOptions())
    }

    /// Asserts that the server validated the one request of this test and returns its parts.
    private func recordedParts(
        operation: String, file: StaticString = #filePath, line: UInt = #line
    ) async throws -> [RecordedPart] {
        let records = try await TestServer.shared().requests(scenario: scenario)
        XCTAssertEqual(records.count, 1, file: file, line: line)
        let record = try XCTUnwrap(records.last, file: file, line: line)
        XCTAssertEqual(record.operationID, operation, file: file, line: line)
        XCTAssertEqual(record.validation, "ok", "\(record.validationErrors)", file: file, line: line)
        XCTAssertEqual(recorder.validations, ["ok"], file: file, line: line)
        XCTAssertTrue(
            record.headers["content-type"]?.hasPrefix("multipart/form-data; boundary=OpenAISwiftFormBoundary") ?? false,
            file: file, line: line)
        return (record.raw["parts"]?.arrayValue ?? []).map { part in
            RecordedPart(
                name: part["name"]?.stringValue ?? "", filename: part["filename"]?.stringValue,
                contentType: part["content_type"]?.stringValue,
                size: part["size"]?.doubleValue.map { Int($0) } ?? -1, value: part["value"]?.stringValue)
        }
    }

    private func text(_ name: String, _ value: String) -> RecordedPart {
        RecordedPart(name: name, filename: nil, contentType: nil, size: value.utf8.count, value: value)
    }

    private func file(_ name: String, _ filename: String, _ contentType: String, _ data: Data) -> RecordedPart {
        RecordedPart(name: name, filename: filename, contentType: contentType, size: data.count, value: nil)
    }

    /// Drops the text value the server keeps for small file parts.
    private func withoutFileValues(_ parts: [RecordedPart]) -> [RecordedPart] {
        parts.map { part in
            var part = part
            if part.filename != nil { part.value = nil }
            return part
        }
    }

    // MARK: Operations with a multipart method

    func testCreateFileStreamsAFileFromDiskWithAnOddName() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("train \"v1\" é.jsonl")
        let content = Data("{\"messages\":[]}\n{\"messages\":[]}\n".utf8)
        try content.write(to: url)
        let client = try client()
        do {
            _ = try await client.files.create(
                .init(file: try FileUpload(fileURL: url), purpose: .fineTune, expiresAfter: .init(seconds: 3600)))
        } catch let error as OpenAIError where error.kind == .decoding {
            // The request is what this test checks. The reply (the spec's example File object)
            // lacks `status`, which the spec marks required: a spec/model issue, not the upload's.
        }
        let parts = try await recordedParts(operation: "createFile")
        XCTAssertEqual(
            withoutFileValues(parts),
            [
                text("purpose", "fine-tune"), text("expires_after[anchor]", "created_at"),
                text("expires_after[seconds]", "3600"),
                // Sent as browsers send it (WHATWG: `"` as %22, UTF-8 kept); aiohttp reports the
                // parameter as received.
                file("file", "train %22v1%22 é.jsonl", "application/jsonl", content),
            ])
    }

    func testCreateFileFromAnAsyncStreamIsSentOnceAndNotRetried() async throws {
        let chunks = [Data("{\"a\":1}\n".utf8), Data("{\"a\":2}\n".utf8), Data("{\"a\":3}\n".utf8)]
        func upload() -> FileUpload {
            let stream = AsyncStream<Data> { continuation in
                for chunk in chunks { continuation.yield(chunk) }
                continuation.finish()
            }
            return FileUpload(stream: stream, length: 24, filename: "stream.jsonl")
        }
        let client = try client()
        do {
            _ = try await client.files.create(.init(file: upload(), purpose: .batch))
        } catch let error as OpenAIError where error.kind == .decoding {
            // The spec's example File lacks the required `status`; the request is what is checked.
        }
        let parts = try await recordedParts(operation: "createFile")
        XCTAssertEqual(
            withoutFileValues(parts),
            [text("purpose", "batch"), file("file", "stream.jsonl", "application/jsonl", chunks.reduce(Data(), +))])

        // A failure is not retried: the stream cannot be read again.
        let failing = try TestServer.shared().client(
            maxRetries: 2, headers: ["x-testserver-scenario": scenario + "-fail", "x-testserver-fail-times": "1"])
        do {
            _ = try await failing.files.create(.init(file: upload(), purpose: .batch))
            XCTFail("expected the injected 500")
        } catch let error as OpenAIError {
            XCTAssertEqual(error.statusCode, 500)
        }
        let attempts = try await TestServer.shared().requests(scenario: scenario + "-fail")
        XCTAssertEqual(attempts.count, 1)
    }

    func testCreateTranscriptionSendsArraysAsBracketPartsAndNumbersInDecimal() async throws {
        let client = try client()
        _ = try await client.audio.transcriptions.create(
            .init(
                file: FileUpload(data: Self.mp3), model: "gpt-4o-transcribe", responseFormat: "json",
                temperature: 0.0000001, language: "en", prompt: "Names: Zoë", include: ["logprobs"],
                chunkingStrategy: "auto", knownSpeakerNames: ["agent", "customer"]))
        let parts = try await recordedParts(operation: "createTranscription")
        XCTAssertEqual(
            withoutFileValues(parts),
            [
                text("model", "gpt-4o-transcribe"), text("language", "en"), text("prompt", "Names: Zoë"),
                text("response_format", "json"), text("temperature", "0.0000001"), text("include[]", "logprobs"),
                text("chunking_strategy", "auto"), text("known_speaker_names[]", "agent"),
                text("known_speaker_names[]", "customer"), file("file", "file.mp3", "audio/mpeg", Self.mp3),
            ])
    }

    func testCreateTranslation() async throws {
        let client = try client()
        _ = try await client.audio.translations.create(
            .init(file: FileUpload(data: Self.mp3, filename: "talk.mp3"), model: "whisper-1", temperature: 0))
        let parts = try await recordedParts(operation: "createTranslation")
        XCTAssertEqual(
            withoutFileValues(parts),
            [text("model", "whisper-1"), text("temperature", "0"), file("file", "talk.mp3", "audio/mpeg", Self.mp3)])
    }

    func testCreateVoiceConsent() async throws {
        let client = try client()
        _ = try await client.audio.voiceConsents.create(
            .init(name: "Consent", recording: FileUpload(data: Self.wav), language: "en-US"))
        let parts = try await recordedParts(operation: "createVoiceConsent")
        XCTAssertEqual(
            withoutFileValues(parts),
            [text("name", "Consent"), text("language", "en-US"), file("recording", "file.wav", "audio/wav", Self.wav)])
    }

    func testCreateVoice() async throws {
        let client = try client()
        _ = try await client.audio.voices.create(
            .init(name: "Narrator", audioSample: FileUpload(data: Self.wav, filename: "sample.wav"), consent: "cons_1"))
        let parts = try await recordedParts(operation: "createVoice")
        XCTAssertEqual(
            withoutFileValues(parts),
            [
                text("name", "Narrator"), text("consent", "cons_1"),
                file("audio_sample", "sample.wav", "audio/wav", Self.wav),
            ])
    }

    func testCreateImageVariation() async throws {
        let client = try client()
        _ = try await client.images.variations.create(
            .init(image: FileUpload(data: Self.png, filename: "cat.png"), n: 2, size: "256x256"))
        let parts = try await recordedParts(operation: "createImageVariation")
        XCTAssertEqual(
            withoutFileValues(parts),
            [text("n", "2"), text("size", "256x256"), file("image", "cat.png", "image/png", Self.png)])
    }

    func testCreateRealtimeCallSendsTheSessionAsOneJSONPart() async throws {
        let client = try client()
        let sdp = "v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\ns=-\r\n"
        _ = try await client.realtime.calls.create(
            .init(sdp: sdp, session: .init(model: "gpt-realtime", instructions: "Be brief.")))
        let parts = try await recordedParts(operation: "create-realtime-call")
        XCTAssertEqual(parts.map(\.name), ["sdp", "session"])
        XCTAssertEqual(parts[0].value, sdp)
        XCTAssertEqual(parts[1].contentType, "application/json")
        let session = try JSONDecoder().decode(JSONValue.self, from: Data((parts[1].value ?? "").utf8))
        XCTAssertEqual(session["type"], "realtime")
        XCTAssertEqual(session["model"], "gpt-realtime")
        XCTAssertEqual(session["instructions"], "Be brief.")
    }

    func testCreateRealtimeCallAlsoTakesAPlainSDPBody() async throws {
        // `application/sdp`, the operation's other media type (`setTextBody`).
        let client = try client()
        var request = APIRequest(method: "POST", path: "/realtime/calls", operationID: "create-realtime-call")
        request.setTextBody("v=0\r\ns=-\r\n", contentType: "application/sdp")
        request.accept = "*/*"
        XCTAssertEqual(request.body, Data("v=0\r\ns=-\r\n".utf8))
        _ = try await client.sendRaw(request, options: RequestOptions())
        let records = try await TestServer.shared().requests(scenario: scenario)
        XCTAssertEqual(records.map { $0.validation ?? "" }, ["ok"])
        XCTAssertEqual(records.first?.headers["content-type"], "application/sdp")
        XCTAssertEqual(recorder.validations, ["ok"])
    }

    func testAddUploadPart() async throws {
        let client = try client()
        let data = Data(repeating: 0x2D, count: 1000)  // all dashes
        _ = try await client.uploads.parts.create(
            uploadID: "upload_abc", .init(data: FileUpload(data: data, filename: "part")))
        let parts = try await recordedParts(operation: "addUploadPart")
        XCTAssertEqual(withoutFileValues(parts), [file("data", "part", "application/octet-stream", data)])
    }

    func testCreateContentProvenanceCheck() async throws {
        let client = try client()
        _ = try await client.contentProvenanceChecks.create(.init(file: FileUpload(data: Self.png)))
        let parts = try await recordedParts(operation: "Createcontentprovenancecheck")
        XCTAssertEqual(withoutFileValues(parts), [file("file", "file.png", "image/png", Self.png)])
    }

    func testCreateVideoCharacter() async throws {
        let client = try client()
        _ = try await client.videos.characters.create(.init(video: FileUpload(data: Self.mp4), name: "Robot"))
        let parts = try await recordedParts(operation: "CreateVideoCharacter")
        XCTAssertEqual(
            withoutFileValues(parts), [text("name", "Robot"), file("video", "file.mp4", "video/mp4", Self.mp4)])
    }

    // MARK: Operations that also accept JSON (sent here through the multipart encoder directly)

    func testCreateContainerFile() async throws {
        let client = try client()
        let form = CreateContainerFileBody(file: FileUpload(data: Data("print(1)\n".utf8), filename: "main.py"))
        try await sendMultipart(
            client, "/containers/{container_id}/files", "CreateContainerFile", form,
            pathParameters: ["container_id": "cntr_1"])
        let parts = try await recordedParts(operation: "CreateContainerFile")
        XCTAssertEqual(
            withoutFileValues(parts),
            [file("file", "main.py", "application/octet-stream", Data("print(1)\n".utf8))])
    }

    func testCreateImageEditWithTwoImagesSendsTwoImageArrayParts() async throws {
        // Bug report: an image edit with two images must reach the server as two `image[]` parts.
        let client = try client()
        let second = Self.png + Data("second".utf8)
        let form = CreateImageEditRequest(
            image: .files([FileUpload(data: Self.png), FileUpload(data: second)]), prompt: "Combine them",
            model: "gpt-image-1", background: "transparent", n: 1, outputCompression: 80, stream: false)
        try await sendMultipart(client, "/images/edits", "createImageEdit", form)
        let parts = try await recordedParts(operation: "createImageEdit")
        XCTAssertEqual(
            withoutFileValues(parts),
            [
                text("prompt", "Combine them"), text("background", "transparent"), text("model", "gpt-image-1"),
                text("n", "1"), text("output_compression", "80"), text("stream", "false"),
                file("image[]", "file.png", "image/png", Self.png), file("image[]", "file.png", "image/png", second),
            ])
    }

    func testCreateVideoWithAnInputReferenceFile() async throws {
        let client = try client()
        let form = CreateVideoMultipartBody(
            prompt: "A cat", model: "sora-2", inputReference: .file(FileUpload(data: Self.png)), seconds: "4",
            size: "720x1280")
        try await sendMultipart(client, "/videos", "createVideo", form)
        let parts = try await recordedParts(operation: "createVideo")
        XCTAssertEqual(
            withoutFileValues(parts),
            [
                text("model", "sora-2"), text("prompt", "A cat"), text("seconds", "4"), text("size", "720x1280"),
                file("input_reference", "file.png", "image/png", Self.png),
            ])
    }

    func testCreateVideoEdit() async throws {
        let client = try client()
        try await sendMultipart(
            client, "/videos/edits", "CreateVideoEdit",
            CreateVideoEditMultipartBody(video: .file(FileUpload(data: Self.mp4)), prompt: "Brighter"))
        let parts = try await recordedParts(operation: "CreateVideoEdit")
        XCTAssertEqual(
            withoutFileValues(parts), [text("prompt", "Brighter"), file("video", "file.mp4", "video/mp4", Self.mp4)])
    }

    func testCreateVideoExtend() async throws {
        let client = try client()
        let form = CreateVideoExtendMultipartBody(
            video: .file(FileUpload(data: Self.mp4)), prompt: "Longer", seconds: "8")
        try await sendMultipart(client, "/videos/extensions", "CreateVideoExtend", form)
        let parts = try await recordedParts(operation: "CreateVideoExtend")
        XCTAssertEqual(
            withoutFileValues(parts),
            [text("prompt", "Longer"), text("seconds", "8"), file("video", "file.mp4", "video/mp4", Self.mp4)])
    }

    func testCreateVideoRemix() async throws {
        let client = try client()
        try await sendMultipart(
            client, "/videos/{video_id}/remix", "CreateVideoRemix", CreateVideoRemixBody(prompt: "In winter"),
            pathParameters: ["video_id": "video_1"])
        let parts = try await recordedParts(operation: "CreateVideoRemix")
        XCTAssertEqual(parts, [text("prompt", "In winter")])
    }

    func testCreateSkillWithAZip() async throws {
        let client = try client()
        try await sendMultipart(
            client, "/skills", "CreateSkill", CreateSkillBody(files: .file(FileUpload(data: Self.zip))))
        let parts = try await recordedParts(operation: "CreateSkill")
        XCTAssertEqual(withoutFileValues(parts), [file("files", "file.zip", "application/zip", Self.zip)])
    }

    func testCreateSkillVersionWithSeveralFiles() async throws {
        let client = try client()
        let markdown = Data("# Skill\n".utf8)
        let script = Data([0x00, 0x2D, 0x2D, 0x0D, 0x0A])
        try await sendMultipart(
            client, "/skills/{skill_id}/versions", "CreateSkillVersion",
            CreateSkillVersionBody(
                files: .files([FileUpload(data: markdown), FileUpload(data: script)]), default: true),
            pathParameters: ["skill_id": "skill_1"])
        let parts = try await recordedParts(operation: "CreateSkillVersion")
        XCTAssertEqual(
            withoutFileValues(parts),
            [
                text("default", "true"), file("files[]", "file.txt", "text/plain", markdown),
                file("files[]", "file.bin", "application/octet-stream", script),
            ])
    }

    // MARK: Bug-report inputs

    /// `CreateFileRequest` plus a `metadata` object, as a caller adding fields would send it.
    struct FileWithMetadata: MultipartFormEncodable {
        var base: CreateFileRequest
        var metadata: [String: String]
        func encode(to form: inout MultipartForm) throws {
            try base.encode(to: &form)
            try form.append("metadata", metadata)
        }
    }

    func testMetadataObjectReachesTheServerAsBracketedParts() async throws {
        // Bug report: metadata {"project": "alpha", "stage": "2"} must arrive as
        // `metadata[project]` and `metadata[stage]`. No multipart schema declares `metadata`, so
        // validation is off here; the parts are still parsed and recorded by the server.
        let client = try client(validate: false)
        let form = FileWithMetadata(
            base: .init(file: FileUpload(data: Data("{}\n".utf8), filename: "a.jsonl"), purpose: .batch),
            metadata: ["project": "alpha", "stage": "2"])
        try await sendMultipart(client, "/files", "createFile", form)
        let records = try await TestServer.shared().requests(scenario: scenario)
        let parts = (records.last?.raw["parts"]?.arrayValue ?? []).map {
            "\($0["name"]?.stringValue ?? "")=\($0["value"]?.stringValue ?? "")"
        }
        // The server keeps text values of fields only, not of files.
        XCTAssertEqual(parts, ["purpose=batch", "metadata[project]=alpha", "metadata[stage]=2", "file="])
    }
}
