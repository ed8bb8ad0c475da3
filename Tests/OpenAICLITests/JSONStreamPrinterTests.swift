import Foundation
import OpenAISDKTestSupport
import XCTest

@testable import OpenAICLI

/// The JSON printer that reformats a reply as it arrives prints what the printer of parsed values
/// prints, whatever the chunking, and refuses what the parser refuses.
final class JSONStreamPrinterTests: XCTestCase {
    /// What the stream printer prints of `bytes` delivered in chunks of `size`.
    private func streamed(_ bytes: Data, chunk size: Int, indented: Bool = true, colors: Bool = false) throws -> String
    {
        var output = Data()
        var printer = JSONStreamPrinter(indented: indented, colors: colors) { output.append($0) }
        var start = 0
        while start < bytes.count {
            try printer.consume(bytes.subdata(in: start..<min(start + size, bytes.count)))
            start += size
        }
        try printer.finish()
        return String(decoding: output, as: UTF8.self)
    }

    private static let handWritten = [
        #"{}"#, #"[]"#, #"{"a":{},"b":[],"c":[{}],"d":[[]]}"#, #"  [1, -0.5e+10, 2E3, true, false, null]  "#,
        #""just a string""#, "42", "null",
        #"{"esc":"\"\\\/\b\f\n\r\t","u":"\u00e9\u2028\u0001\u007f","pair":"\ud83d\ude00","lone":"\ud800x","lone2":"\udc00","hi-then-escape":"\ud83d\n"}"#,
        #"{"nested":{"deep":[{"x":[1,{"y":"z"}]}]},"unicode":"héllo 😀 日本"}"#,
        "{\"raw\":\"\u{2028}\u{7F}\"}",
    ]

    func testItPrintsWhatTheValuePrinterPrintsInEveryChunking() throws {
        var corpus = Self.handWritten.map { Data($0.utf8) }
        // A long string with multi-byte characters across the flush size, and real replies.
        corpus.append(Data(("{\"long\":\"" + String(repeating: "é😀a", count: 40_000) + "\"}").utf8))
        if let folder = SharedData.folder?.appendingPathComponent("fixtures"),
            let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        {
            for case let file as URL in files where file.pathExtension == "json" {
                corpus.append(try Data(contentsOf: file))
            }
        }
        XCTAssertGreaterThan(corpus.count, 50, "the shared fixtures are read")
        for bytes in corpus {
            guard let value = try? JSON.parse(bytes) else { continue }
            for size in [1, 7, 4096, bytes.count + 1] {
                XCTAssertEqual(try streamed(bytes, chunk: size), value.pretty() + "\n", "chunks of \(size)")
                XCTAssertEqual(try streamed(bytes, chunk: size, indented: false), value.compact + "\n")
            }
            XCTAssertEqual(try streamed(bytes, chunk: 5, colors: true), value.pretty(colors: true) + "\n")
        }
    }

    func testWhatTheParserRefusesIsRefused() {
        let refused = [
            "", "   ", "{", "[1,]", "{\"a\" 1}", "{\"a\":1,}", "[1 2]", "01", "1.", "-", "tru", "nulls", "\"a",
            "\"\\x\"", "\"\\u12G4\"", "\"a\u{01}\"", "[1]x", "{1:2}", "[}", String(repeating: "[", count: 600),
        ]
        for text in refused {
            XCTAssertThrowsError(try JSON.parse(Array(text.utf8)), "the parser refuses \(text.prefix(20))")
            XCTAssertThrowsError(
                try streamed(Data(text.utf8), chunk: 3), "the stream printer refuses \(text.prefix(20))")
        }
    }

    func testMemoryStaysBoundedForALargeString() throws {
        // 8 MiB of string in 1 MiB chunks: no output piece holds more than about the flush size.
        var largest = 0
        var printer = JSONStreamPrinter(indented: true, colors: false) { largest = max(largest, $0.count) }
        try printer.consume(Data(#"{"pad":""#.utf8))
        for _ in 0..<8 { try printer.consume(Data(repeating: 0x61, count: 1 << 20)) }
        try printer.consume(Data(#""}"#.utf8))
        try printer.finish()
        XCTAssertLessThanOrEqual(largest, 3 * JSONStreamPrinter.flushBytes)
    }
}
