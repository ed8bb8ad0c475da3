import Foundation
import XCTest

@testable import OpenAIRuntime

/// Byte-exact encoding of `multipart/form-data` bodies (RFC 7578) and the conventions the API
/// expects: `name[]` arrays, `name[key]` objects, plain-decimal numbers, WHATWG filename escaping.
final class MultipartEncodingTests: XCTestCase {
    /// A form built field by field, like the generated `encode(to:)` methods do.
    struct Form: MultipartFormEncodable {
        var fill: (inout MultipartForm) throws -> Void
        func encode(to form: inout MultipartForm) throws { try fill(&form) }
    }

    private func encode(
        boundary: String = "XBOUNDARYX", operationID: String? = nil,
        _ fill: @escaping (inout MultipartForm) throws -> Void
    ) throws -> String {
        var form = MultipartForm(operationID: operationID)
        try Form(fill: fill).encode(to: &form)
        let body = form.body(boundary: boundary)
        let data = try body.collectData()
        XCTAssertEqual(Int64(data.count), body.length, "Content-Length must match the bytes produced")
        return String(decoding: data, as: UTF8.self)
    }

    private func lines(_ lines: String...) -> String { lines.joined(separator: "\r\n") }

    func testArraysNestedObjectsScalarsAndFileOrderAreByteExact() throws {
        let body = try encode { form in
            try form.append("file", FileUpload(data: Data("{\"a\":1}\n".utf8), filename: "batch.jsonl"))
            try form.append("purpose", "batch")
            try form.append("include", ["logprobs", "words"])
            try form.append("metadata", ["stage": "2", "project": "alpha"])
            try form.append(
                "chunking", ["server_vad": ["threshold": 0.5, "prefix_padding_ms": 300] as [String: Double]])
            try form.append("temperature", 0.0000001)
            try form.append("n", 3)
            try form.append("stream", true)
            try form.append("default", false)
            try form.append("absent", String?.none)
        }
        let expected = lines(
            "--XBOUNDARYX", "Content-Disposition: form-data; name=\"purpose\"", "", "batch",
            "--XBOUNDARYX", "Content-Disposition: form-data; name=\"include[]\"", "", "logprobs",
            "--XBOUNDARYX", "Content-Disposition: form-data; name=\"include[]\"", "", "words",
            "--XBOUNDARYX", "Content-Disposition: form-data; name=\"metadata[project]\"", "", "alpha",
            "--XBOUNDARYX", "Content-Disposition: form-data; name=\"metadata[stage]\"", "", "2",
            "--XBOUNDARYX", "Content-Disposition: form-data; name=\"chunking[server_vad][prefix_padding_ms]\"", "",
            "300",
            "--XBOUNDARYX", "Content-Disposition: form-data; name=\"chunking[server_vad][threshold]\"", "", "0.5",
            "--XBOUNDARYX", "Content-Disposition: form-data; name=\"temperature\"", "", "0.0000001",
            "--XBOUNDARYX", "Content-Disposition: form-data; name=\"n\"", "", "3",
            "--XBOUNDARYX", "Content-Disposition: form-data; name=\"stream\"", "", "true",
            "--XBOUNDARYX", "Content-Disposition: form-data; name=\"default\"", "", "false",
            "--XBOUNDARYX", "Content-Disposition: form-data; name=\"file\"; filename=\"batch.jsonl\"",
            "Content-Type: application/jsonl", "", "{\"a\":1}\n",
            "--XBOUNDARYX--", "")
        XCTAssertEqual(body, expected)
    }

    func testTwoImagesBecomeTwoImageArrayParts() throws {
        // Bug report: an image edit with two images must reach the server as two `image[]` parts.
        let body = try encode { form in
            try form.append(
                "image",
                [
                    FileUpload(data: Data("one".utf8), filename: "a.png"),
                    FileUpload(data: Data("two".utf8), filename: "b.png"),
                ])
            try form.append("prompt", "Put them together")
        }
        let expected = lines(
            "--XBOUNDARYX", "Content-Disposition: form-data; name=\"prompt\"", "", "Put them together",
            "--XBOUNDARYX", "Content-Disposition: form-data; name=\"image[]\"; filename=\"a.png\"",
            "Content-Type: image/png", "", "one",
            "--XBOUNDARYX", "Content-Disposition: form-data; name=\"image[]\"; filename=\"b.png\"",
            "Content-Type: image/png", "", "two",
            "--XBOUNDARYX--", "")
        XCTAssertEqual(body, expected)
    }

    func testOddFilenamesAreEscapedLikeBrowsersAndEmptyFileHasAnEmptyPart() throws {
        let body = try encode { form in
            try form.append("file", FileUpload(data: Data("x".utf8), filename: "my \"q\" résumé 📄\r\n.pdf"))
            try form.append("mask", FileUpload(data: Data(), filename: "empty.png"))
        }
        let expected = lines(
            "--XBOUNDARYX",
            "Content-Disposition: form-data; name=\"file\"; filename=\"my %22q%22 résumé 📄%0D%0A.pdf\"",
            "Content-Type: application/pdf", "", "x",
            "--XBOUNDARYX", "Content-Disposition: form-data; name=\"mask\"; filename=\"empty.png\"",
            "Content-Type: image/png", "", "",
            "--XBOUNDARYX--", "")
        XCTAssertEqual(body, expected)
        XCTAssertEqual(MultipartBody.escape("a\"b\rc\nd\\e"), "a%22b%0Dc%0Ad\\e")
    }

    func testBinaryContentWithDashesAndBoundaryLikeBytesIsCopiedVerbatim() throws {
        var content = Data("--XBOUNDARY\r\n--XBOUNDARYY--\r\n--".utf8)
        content.append(contentsOf: [0x00, 0xFF, 0x0D, 0x0A, 0x2D, 0x2D])
        var form = MultipartForm()
        try form.append("file", FileUpload(data: content, filename: "blob.bin"))
        let data = try form.body(boundary: "XBOUNDARYX").collectData()
        var expected = Data(
            lines(
                "--XBOUNDARYX", "Content-Disposition: form-data; name=\"file\"; filename=\"blob.bin\"",
                "Content-Type: application/octet-stream", "", ""
            ).utf8)
        expected.append(content)
        expected.append(Data("\r\n--XBOUNDARYX--\r\n".utf8))
        XCTAssertEqual(data, expected)
    }

    func testRandomBoundaryNeverOccursInInMemoryContent() throws {
        var form = MultipartForm()
        try form.append("file", FileUpload(data: Data("--OpenAISwiftFormBoundary\r\n".utf8), filename: "a.txt"))
        for _ in 0..<50 {
            let body = form.body()
            XCTAssertTrue(body.boundary.hasPrefix("OpenAISwiftFormBoundary"))
            XCTAssertEqual(body.boundary.count, "OpenAISwiftFormBoundary".count + 24)
            XCTAssertFalse(MultipartBody.contains(form.parts[0], body.boundary))
            XCTAssertEqual(body.contentType, "multipart/form-data; boundary=\(body.boundary)")
        }
        // A part that does contain a candidate is detected.
        var trap = MultipartForm()
        try trap.append("file", FileUpload(data: Data("..XYZ..".utf8), filename: "a.txt"))
        XCTAssertTrue(MultipartBody.contains(trap.parts[0], "XYZ"))
    }

    func testNumbersArePlainDecimal() throws {
        let cases: [(Double, String)] = [
            (0.0000001, "0.0000001"), (1.5e20, "150000000000000000000"), (0.1, "0.1"), (3, "3"),
            (-2.5e-5, "-0.000025"), (123.456, "123.456"), (0, "0"), (-0.0, "0"),
            (1e-300, "0." + String(repeating: "0", count: 299) + "1"),
            (0.5, "0.5"), (100, "100"), (12345678.9, "12345678.9"),
        ]
        for (value, text) in cases {
            XCTAssertEqual(try MultipartFieldEncoder.plainDecimal(value), text, "\(value)")
        }
        XCTAssertThrowsError(try MultipartFieldEncoder.plainDecimal(.nan))
        XCTAssertEqual(try MultipartFieldEncoder.text(Float(0.1)), "0.1")
        XCTAssertEqual(try MultipartFieldEncoder.text(Int64(-42)), "-42")
    }

    func testUnnamedDataGetsAFilenameFromItsFirstBytes() throws {
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        XCTAssertEqual(FileUpload(data: png).filename, "file.png")
        XCTAssertEqual(FileUpload(data: png).contentType, "image/png")
        XCTAssertEqual(FileUpload(data: Data([0xFF, 0xD8, 0xFF, 0xE0])).filename, "file.jpg")
        XCTAssertEqual(FileUpload(data: Data("ID3\u{3}".utf8)).filename, "file.mp3")
        XCTAssertEqual(FileUpload(data: Data("RIFF\0\0\0\0WAVEfmt ".utf8)).filename, "file.wav")
        XCTAssertEqual(FileUpload(data: Data("{\"a\":1}\n{\"a\":2}\n".utf8)).filename, "file.jsonl")
        XCTAssertEqual(FileUpload(data: Data("{\"a\":1}".utf8)).filename, "file.json")
        XCTAssertEqual(FileUpload(data: Data("hello".utf8)).filename, "file.txt")
        XCTAssertEqual(FileUpload(data: Data([0x00, 0x01, 0xFE])).filename, "file.bin")
        XCTAssertEqual(FileUpload(data: Data()).filename, "file.bin")
        XCTAssertEqual(FileUpload(data: png, filename: "x.webp").contentType, "image/webp")
        XCTAssertEqual(FileUpload(data: png, filename: "x", contentType: "image/png").contentType, "image/png")
    }

    /// A union like the generated ones (`case string(Data)`), encoding its payload directly.
    enum DataUnion: Encodable {
        case one(Data)
        case many([Data])
        func encode(to encoder: any Encoder) throws {
            switch self {
            case .one(let data): try data.encode(to: encoder)
            case .many(let data): try data.encode(to: encoder)
            }
        }
    }

    func testDataInsideUnionsBecomesFileParts() throws {
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var form = MultipartForm()
        try form.append("image", DataUnion.many([png, Data("GIF89a".utf8)]))
        try form.append("mask", DataUnion.one(png))
        XCTAssertEqual(form.parts.map(\.name), ["image[]", "image[]", "mask"])
        XCTAssertEqual(form.parts.map(\.filename), ["file.png", "file.gif", "file.png"])
        XCTAssertEqual(form.parts.map(\.contentType), ["image/png", "image/gif", "image/png"])
    }

    func testJSONFieldsOfTheRealtimeCallAreOneJSONPart() throws {
        let body = try encode(operationID: "create-realtime-call") { form in
            try form.append("sdp", "v=0")
            try form.append("session", ["type": "realtime"])
        }
        let expected = lines(
            "--XBOUNDARYX", "Content-Disposition: form-data; name=\"sdp\"", "", "v=0",
            "--XBOUNDARYX", "Content-Disposition: form-data; name=\"session\"", "Content-Type: application/json", "",
            "{\"type\":\"realtime\"}",
            "--XBOUNDARYX--", "")
        XCTAssertEqual(body, expected)
    }
}
