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
}
