import Foundation
import OpenAISDKTestSupport
import XCTest

@testable import OpenAIRuntime

final class PartialJSONDecoderTests: XCTestCase {
    private func value(after text: String) throws -> JSONValue? {
        var decoder = PartialJSONDecoder()
        try decoder.append(text)
        return decoder.value
    }

    func testTheValueSoFarHoldsWhatHasBegunAndNothingInvented() throws {
        XCTAssertNil(try value(after: ""))
        XCTAssertNil(try value(after: "  "))
        XCTAssertEqual(try value(after: "{"), [:])
        XCTAssertEqual(try value(after: #"{"ti"#), [:], "a member name counts once complete")
        XCTAssertEqual(try value(after: #"{"a":"#), [:], "a member whose value has not begun")
        XCTAssertEqual(try value(after: #"{"a": "#), [:])
        XCTAssertEqual(try value(after: #"{"a": ""#), ["a": ""])
        XCTAssertEqual(try value(after: "[1"), [], "1 could still become 12")
        XCTAssertEqual(try value(after: "[12,"), [12])
        XCTAssertEqual(try value(after: "[12, tr"), [12])
        XCTAssertEqual(try value(after: "[12, true"), [12, true])
        XCTAssertEqual(try value(after: "[null, fals"), [nil])
        XCTAssertEqual(
            try value(after: #"{"title": "Pasta", "steps": ["Boil wa"#), ["title": "Pasta", "steps": ["Boil wa"]])
        XCTAssertEqual(try value(after: #"{"a": {"b": [{"c": "d"#), ["a": ["b": [["c": "d"]]]])
        XCTAssertEqual(try value(after: #"{"a": [], "b": {}, "c": 1.5e2}"#), ["a": [], "b": [:], "c": 150])
        XCTAssertEqual(try value(after: #"[-0.25, 1E-2"#), [-0.25])
    }

    func testNestingDeeperThanTheLimitThrowsAtItsOpeningCharacterInsteadOfExhaustingTheStack() throws {
        // 50 KB of `[` once overflowed the stack when the value so far was released.
        var deep = PartialJSONDecoder()
        XCTAssertThrowsError(try deep.append(String(repeating: "[", count: 50_000))) { error in
            XCTAssertEqual((error as? PartialJSONError)?.offset, PartialJSONDecoder.maxDepth)
            XCTAssertEqual(
                (error as? PartialJSONError)?.message,
                "objects and arrays nest deeper than 512 levels, the most this decoder reads")
        }
        XCTAssertEqual(deep.byteCount, PartialJSONDecoder.maxDepth, "nothing past the limit was read")
        // 512 levels, objects and arrays mixed, are read and closed.
        var atLimit = PartialJSONDecoder()
        let open = (0..<PartialJSONDecoder.maxDepth).map { $0.isMultiple(of: 2) ? "[" : #"{"a":"# }.joined()
        let close = (0..<PartialJSONDecoder.maxDepth).reversed().map { $0.isMultiple(of: 2) ? "]" : "}" }.joined()
        try atLimit.append(open + "1" + close)
        XCTAssertTrue(atLimit.isComplete)
        var depth = 0
        var value = try atLimit.finish()
        while true {
            switch value {
            case .array(let elements): value = elements[0]
            case .object(let members): value = members["a"]!
            default:
                XCTAssertEqual(value, 1)
                XCTAssertEqual(depth, PartialJSONDecoder.maxDepth)
                return
            }
            depth += 1
        }
    }

    func testTheRevisionGrowsExactlyWhenTheValueSoFarChanges() throws {
        var decoder = PartialJSONDecoder()
        try decoder.append(#"{"na"#)
        let opened = decoder.revision
        XCTAssertEqual(opened, 1)
        try decoder.append(#"me": "#)
        XCTAssertEqual(decoder.revision, opened, "a member name and `:` change nothing")
        try decoder.append(#""P"#)
        XCTAssertEqual(decoder.revision, opened + 2, "the string begins, then gains a character")
        try decoder.append(#"", "n": 4"#)
        XCTAssertEqual(decoder.revision, opened + 3, "the string completes; 4 is not complete yet")
        try decoder.append("}")
        XCTAssertEqual(decoder.revision, opened + 5)
        XCTAssertEqual(decoder.value, ["name": "P", "n": 4])
    }

    func testEscapesAndUnicodeAreDecodedAndNeverCutInHalf() throws {
        XCTAssertEqual(try value(after: #""a\n\"b\u00e9"#), "a\n\"bé")
        XCTAssertEqual(try value(after: #""tab\"#), "tab", "an escape not yet complete is left out")
        XCTAssertEqual(try value(after: #""x\u00"#), "x")
        XCTAssertEqual(try value(after: #""😀 \ud83d\ude00""#), "😀 😀")
        XCTAssertEqual(try value(after: #""\ud83d""#), "\u{FFFD}", "a lone high surrogate")
        // Bytes that split a multi-byte character: the half character is not shown.
        var decoder = PartialJSONDecoder()
        let bytes = Array(#"["né€😀"]"#.utf8)
        var seen: [String] = []
        for byte in bytes {
            try decoder.append([byte])
            if case .array(let elements)? = decoder.value, case .string(let text)? = elements.first {
                seen.append(text)
                XCTAssertFalse(text.contains("\u{FFFD}"), "\(seen)")
            }
        }
        XCTAssertEqual(Set(seen), ["", "n", "né", "né€", "né€😀"])
        XCTAssertTrue(decoder.isComplete)
    }

    func testALoneSurrogateIsReplacedWhereItStands() throws {
        XCTAssertEqual(try value(after: #""\ud83dabc""#), "\u{FFFD}abc")
        XCTAssertEqual(try value(after: #""\ud83dx\ude00""#), "\u{FFFD}x\u{FFFD}", "halves that are not adjacent")
        XCTAssertEqual(try value(after: #""\ud83d\n""#), "\u{FFFD}\n")
        XCTAssertEqual(try value(after: #"{"\ud83dk": 1}"#), ["\u{FFFD}k": 1])
        var decoder = PartialJSONDecoder()
        try decoder.append(#"["a"#)
        let before = decoder.revision
        try decoder.append(#"\ud83d"#)
        XCTAssertEqual(decoder.revision, before, "half a pair changes nothing yet")
        try decoder.append(#"\ude00"#)
        XCTAssertEqual(decoder.revision, before + 1)
        XCTAssertEqual(decoder.value, ["a😀"])
    }

    func testATopLevelNumberIsCompleteAtFinish() throws {
        var decoder = PartialJSONDecoder()
        try decoder.append("42")
        XCTAssertNil(decoder.value)
        XCTAssertFalse(decoder.isComplete)
        XCTAssertEqual(try decoder.finish(), 42)
        var open = PartialJSONDecoder()
        try open.append(#"{"a": 1"#)
        XCTAssertThrowsError(try open.finish()) { error in
            XCTAssertEqual((error as? PartialJSONError)?.message, "the JSON text ends before its value does")
        }
        XCTAssertThrowsError(try open.append("}")) { error in
            XCTAssertEqual((error as? PartialJSONError)?.message, "the JSON text ends before its value does")
        }
    }

    func testAMemberNamedTwiceKeepsItsFirstValueAsJSONDecoderDoes() throws {
        // Found by Scripts/check/fuzz.sh (PartialJSON): a recorded stream event with `item_id` twice read as
        // the second value here and as the first in JSONDecoder, so the value so far of a structured
        // output ended as another value than the one `parse` returns for the same text.
        let text = #"{"item_id": "msg_1", "n": 1, "item_id": "msg_2", "n": [2], "m": {"a": true, "a": null}}"#
        let foundation = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        XCTAssertEqual(foundation, ["item_id": "msg_1", "n": 1, "m": ["a": true]])
        var decoder = PartialJSONDecoder()
        try decoder.append(text)
        XCTAssertEqual(try decoder.finish(), foundation)
        XCTAssertEqual(try value(after: #"{"a": "first", "a": "sec"#), ["a": "first"], "while the second streams")
        XCTAssertEqual(try value(after: #"{"a": "first", "a": ["#), ["a": "first"])
    }

    func testTextThatIsNotJSONThrowsWhereItGoesWrongAndKeepsThrowing() throws {
        let cases: [(String, Int)] = [
            ("[1,]", 3), (#"{"a" 1}"#, 5), ("tru e", 3), ("[01]", 3), ("{} {}", 3), ("\"a\u{01}\"", 2),
            (#"{"a": 1,}"#, 8), ("[1 2]", 3), (#"{"a": 1]"#, 7), (#""\x""#, 2), ("-", 1), ("[1.]", 3),
            ("[1e400]", 6),
        ]
        for (text, offset) in cases {
            var decoder = PartialJSONDecoder()
            do {
                try decoder.append(text)
                _ = try decoder.finish()
                XCTFail("\(text) was accepted")
            } catch let error as PartialJSONError {
                XCTAssertEqual(error.offset, offset, "\(text): \(error)")
                XCTAssertThrowsError(try decoder.append("]")) { again in
                    XCTAssertEqual(again as? PartialJSONError, error, "the first error sticks")
                }
            }
        }
    }

    /// Every recorded reply, fed in pieces of 1 to 7 bytes: each value so far is contained in the
    /// next (strings grow, containers gain members), and the last is the whole reply as
    /// `JSONDecoder` reads it.
    func testRecordedRepliesInPiecesGrowMonotonicallyToTheFinalValue() throws {
        let folder = try SharedData.file("fixtures/responses/json")
        var files = 0
        var generator = SplitMix(seed: 7)
        for url in try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil).sorted(by: {
            $0.path < $1.path
        }) where url.pathExtension == "json" {
            let data = try Data(contentsOf: url)
            guard let expected = try? JSONDecoder().decode(JSONValue.self, from: data) else { continue }
            var decoder = PartialJSONDecoder()
            var previous: JSONValue?
            var offset = 0
            let bytes = Array(data)
            while offset < bytes.count {
                let length = min(bytes.count - offset, Int(generator.next() % 7) + 1)
                try decoder.append(bytes[offset..<(offset + length)])
                offset += length
                let current = decoder.value
                if let previous {
                    let grown = try XCTUnwrap(current, url.lastPathComponent)
                    XCTAssertTrue(previous.isContained(in: grown), "\(url.lastPathComponent) at \(offset)")
                }
                previous = current
            }
            XCTAssertTrue(decoder.isComplete, url.lastPathComponent)
            XCTAssertEqual(try decoder.finish(), expected, url.lastPathComponent)
            files += 1
        }
        XCTAssertGreaterThan(files, 50)
    }

    func testTypedValuesSoFarDecodeOnceTheyFit() throws {
        struct Recipe: Decodable, Equatable {
            var title: String?
            var steps: [String]?
        }
        struct Strict: Decodable { var title: String }
        var decoder = PartialJSONDecoder()
        try decoder.append(#"{"steps": ["Boil"#)
        XCTAssertEqual(decoder.decode(as: Recipe.self), Recipe(title: nil, steps: ["Boil"]))
        XCTAssertNil(decoder.decode(as: Strict.self), "the required title has not arrived")
        try decoder.append(#"", "Drain"], "title": "Pas"#)
        XCTAssertEqual(decoder.decode(as: Recipe.self), Recipe(title: "Pas", steps: ["Boil", "Drain"]))
        XCTAssertEqual(decoder.decode(as: Strict.self)?.title, "Pas")
    }
}

/// A small deterministic random generator (SplitMix64) for piece lengths.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension JSONValue {
    /// Whether a value so far is contained in a later one: its members and elements are there,
    /// its strings are prefixes, everything else is equal.
    fileprivate func isContained(in later: JSONValue) -> Bool {
        switch (self, later) {
        case (.string(let early), .string(let late)):
            // By scalars: `"\r"` then `"\r\n"` is a prefix, though not by `Character`.
            late.unicodeScalars.starts(with: early.unicodeScalars)
        case (.object(let early), .object(let late)):
            early.allSatisfy { key, value in late[key].map { value.isContained(in: $0) } ?? false }
        case (.array(let early), .array(let late)):
            early.count <= late.count
                && zip(early, late).enumerated().allSatisfy { index, pair in
                    index == early.count - 1 ? pair.0.isContained(in: pair.1) : pair.0 == pair.1
                }
        default: self == later
        }
    }
}
