import Foundation
import XCTest

@testable import OpenAIGeneratorCore

/// Text from the spec can never become code: descriptions with every kind of line break,
/// control and bidirectional characters, names and values with quotes and backslashes
/// (`Snapshots/hostile-text`, which `SnapshotCompileTests` also compiles without warnings).
final class HostileTextTests: XCTestCase {
    /// The line without its string literals (`"…"` with escapes).
    private static func withoutStringLiterals(_ line: String) -> String {
        var result = ""
        var inLiteral = false
        var escaped = false
        for character in line {
            if inLiteral {
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    inLiteral = false
                }
            } else if character == "\"" {
                inLiteral = true
            } else {
                result.append(character)
            }
        }
        return result
    }

    func testNothingFromADescriptionOrNameAppearsOutsideACommentOrALiteral() throws {
        let result = try SnapshotFixtures.generate("hostile-text")
        var commentLines = 0
        for file in result.files {
            for line in file.contents.split(separator: "\n", omittingEmptySubsequences: false) {
                let text = String(line)
                XCTAssertFalse(
                    text.unicodeScalars.contains { CodePrinter.isLineTerminator($0) || CodePrinter.isHidden($0) },
                    "\(file.path): a line holds a line terminator or hidden character: \(text.debugDescription)")
                let trimmed = text.drop { $0 == " " }
                if trimmed.hasPrefix("//") {
                    if text.lowercased().contains("injected") { commentLines += 1 }
                    continue
                }
                let code = Self.withoutStringLiterals(text).lowercased()
                for injected in ["let injected", "func injected", "struct injected", "*/", "}\r"] {
                    XCTAssertFalse(code.contains(injected), "\(file.path): code from the spec: \(text)")
                }
            }
        }
        XCTAssertGreaterThan(commentLines, 10, "the hostile text is there, in comments")
    }

    func testCommentLinesSplitAtEveryLineBreakAndHideControls() {
        XCTAssertEqual(
            CodePrinter.commentLines("a\rb\r\nc\u{2028}d\u{2029}e\u{85}f\u{0B}g\u{0C}h\ni"),
            ["a", "b", "c", "d", "e", "f", "g", "h", "i"])
        XCTAssertEqual(CodePrinter.commentLines("x\u{0}y\u{202E}z"), ["x\u{FFFD}y\u{FFFD}z"])
        XCTAssertEqual("a\u{2028}b\"\u{202E}".swiftLiteral, #""a\u{2028}b\"\u{202e}""#)
        var printer = CodePrinter()
        printer.line("let a = 1\rlet b = 2")
        XCTAssertEqual(printer.lines, ["let a = 1 let b = 2"])
    }

    /// `isPlain` reads bytes; a text it calls plain must hold no scalar that `isLineTerminator`
    /// or `isHidden` finds, for every scalar of the first three planes' blocks that matter.
    func testPlainTextHoldsNoLineTerminatorOrHiddenScalar() throws {
        var hiddenOrBreaking = 0
        for value in UInt32(0)...0x3000 {
            let scalar = try XCTUnwrap(Unicode.Scalar(value))
            let text = "a\(Character(scalar))b"
            let special = CodePrinter.isLineTerminator(scalar) || CodePrinter.isHidden(scalar)
            if special {
                hiddenOrBreaking += 1
                XCTAssertFalse(CodePrinter.isPlain(text), "U+\(String(value, radix: 16)) is not plain")
            }
            if value == 0x0A {
                XCTAssertTrue(CodePrinter.isPlain(text, allowingLineFeeds: true), "LF, when let through")
            } else if special {
                XCTAssertFalse(CodePrinter.isPlain(text, allowingLineFeeds: true), "U+\(String(value, radix: 16))")
            }
        }
        // C0 but tab (31), DEL and C1 (33), the bidirectional controls (11), U+2028 and U+2029.
        XCTAssertEqual(hiddenOrBreaking, 77)
        XCTAssertTrue(CodePrinter.isPlain("tab\there, é, 日本"))
        XCTAssertFalse(CodePrinter.isPlain("an em dash \u{2014}"), "0xE2 leads: read scalar by scalar")
        XCTAssertEqual(CodePrinter.withoutLineTerminators("an em dash \u{2014}"), "an em dash \u{2014}")
    }

    /// Plain text is cut at LF bytes; the result is the one the scalar-by-scalar pass gives.
    func testCommentLinesOfPlainTextTrimTrailingBlanksAndBlankEdges() {
        let text = "\n  first  \n\tsecond\t \n\nthird é\n \n"
        XCTAssertEqual(CodePrinter.commentLines(text), ["  first", "\tsecond", "", "third é"])
        XCTAssertEqual(
            CodePrinter.commentLines(text, keepingBlankEdges: true), ["", "  first", "\tsecond", "", "third é", "", ""])
        // The same text with one character that takes the scalar pass (U+2014) gives the same lines.
        XCTAssertEqual(
            CodePrinter.commentLines(text + "\u{2014}", keepingBlankEdges: true),
            ["", "  first", "\tsecond", "", "third é", "", "\u{2014}"])
        XCTAssertEqual(CodePrinter.commentLines("no break"), ["no break"])
        XCTAssertEqual(CodePrinter.commentLines(""), [])
    }

    /// The generator's SHA-256 against FIPS 180-4's examples: one block, none, and two blocks.
    func testSHA256MatchesThePublishedVectors() {
        XCTAssertEqual(
            SHA256.hex(Array("abc".utf8)), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(SHA256.hex([]), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(
            SHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }
}
