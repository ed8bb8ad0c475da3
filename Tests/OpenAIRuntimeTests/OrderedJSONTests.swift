import Foundation
import XCTest

@testable import OpenAIRuntime

/// The SDK's JSON decoder and encoder: objects keep their members' order, errors and numbers as
/// Foundation's `JSONDecoder` gives them, the same bytes for the same value.
final class OrderedJSONTests: XCTestCase {
    private struct Point: Codable, Equatable {
        var z: Int
        var a: String
        var m: Double?
        var list: [Bool]
    }

    func testObjectsKeepTheOrderTheyArriveInAndAreWrittenInThatOrder() throws {
        let text = #"{"zeta":1,"alpha":{"y":true,"b":null},"mid":[3,"x"],"beta":2.5}"#
        let value = try JSONValue(parsing: Data(text.utf8))
        XCTAssertEqual(value.objectValue?.keys, ["zeta", "alpha", "mid", "beta"])
        XCTAssertEqual(value["alpha"]?.objectValue?.keys, ["y", "b"])
        XCTAssertEqual(value.jsonText, text)
        XCTAssertEqual(String(decoding: try OrderedJSONEncoder().encode(value), as: UTF8.self), text)
    }

    func testACodableTypeIsWrittenInItsDeclarationOrderAndADictionarySorted() throws {
        let point = Point(z: 1, a: "x", m: nil, list: [true])
        XCTAssertEqual(
            String(decoding: try OrderedJSONEncoder().encode(point), as: UTF8.self), #"{"z":1,"a":"x","list":[true]}"#)
        let dictionary = ["b": 1, "a": 2, "c": 3, "aa": 4]
        XCTAssertEqual(
            String(decoding: try OrderedJSONEncoder().encode(dictionary), as: UTF8.self), #"{"a":2,"aa":4,"b":1,"c":3}"#
        )
        XCTAssertEqual(
            try OrderedJSONDecoder().decode(Point.self, from: Data(#"{"list":[false],"a":"q","z":-3,"m":1e2}"#.utf8)),
            Point(z: -3, a: "q", m: 100, list: [false]))
    }

    func testNumbersStringsAndFoundationsSpecialTypes() throws {
        let encoder = OrderedJSONEncoder()
        func text(_ value: some Encodable) throws -> String {
            String(decoding: try encoder.encode(value), as: UTF8.self)
        }
        XCTAssertEqual(try text([1.0, 0.1, 1e-5, 1e20, -0.0, 123456789.125]), "[1,0.1,1e-05,1e+20,-0,123456789.125]")
        XCTAssertEqual(try text([Float(0.1)]), "[0.1]")
        XCTAssertEqual(try text(UInt64.max), "18446744073709551615")
        XCTAssertEqual(try text("a\"b\\c/\n\t\u{1}é😀"), #""a\"b\\c/\n\t\u0001é😀""#)
        XCTAssertEqual(try text(Data([1, 2, 3])), #""AQID""#)
        XCTAssertEqual(try text(URL(string: "https://example.com/a?b=c")!), #""https://example.com/a?b=c""#)
        XCTAssertThrowsError(try text([Double.nan]))
        XCTAssertThrowsError(try text(["x": Double.infinity]))

        let decoder = OrderedJSONDecoder()
        XCTAssertEqual(try decoder.decode([Int].self, from: Data("[2.0, 2e3, -0, 1E2]".utf8)), [2, 2000, 0, 100])
        XCTAssertThrowsError(try decoder.decode(Int.self, from: Data("1.5".utf8)))
        // Exact in decimal, not through `Double` (the JSON fuzz target found `1000000000000000.1e+1` read as 1e16).
        XCTAssertEqual(
            try decoder.decode(
                [Int].self, from: Data("[1000000000000000.1e+1, 1.50e1, -12.3400E3, 0.0e999, 4e-0]".utf8)),
            [10_000_000_000_000_001, 15, -12_340, 0, 4])
        XCTAssertEqual(try decoder.decode(Int64.self, from: Data("-9.223372036854775808e18".utf8)), .min)
        for text in ["1.25e1", "1e19", "-9.223372036854775809e18", "1e1000000000", "5e-1"] {
            XCTAssertThrowsError(try decoder.decode(Int64.self, from: Data(text.utf8)), text)
        }
        XCTAssertThrowsError(try decoder.decode(UInt8.self, from: Data("-1.0".utf8)))
        XCTAssertEqual(try decoder.decode(UInt8.self, from: Data("-0.0".utf8)), 0)
        XCTAssertThrowsError(try decoder.decode(Int8.self, from: Data("300".utf8)))
        XCTAssertEqual(try decoder.decode(Double.self, from: Data("12345678901234567890".utf8)), 12345678901234567890)
        XCTAssertEqual(try decoder.decode(UInt64.self, from: Data("18446744073709551615".utf8)), .max)
        XCTAssertEqual(
            try decoder.decode(String.self, from: Data(#""\u00e9\ud83d\ude00\n\/""#.utf8)), "é😀\n/")
        XCTAssertEqual(try decoder.decode(String.self, from: Data(#""lone \ud83d half""#.utf8)), "lone \u{FFFD} half")
        XCTAssertEqual(try decoder.decode(String.self, from: Data("\"tab\there\"".utf8)), "tab\there")
        XCTAssertEqual(try decoder.decode(Data.self, from: Data(#""AQID""#.utf8)), Data([1, 2, 3]))
        XCTAssertEqual(try decoder.decode(Decimal.self, from: Data("3.14159".utf8)), Decimal(string: "3.14159"))
        XCTAssertEqual(try decoder.decode([String: Int].self, from: Data("\u{FEFF} {\"a\": 1} ".utf8)), ["a": 1])
        // A member named twice reads as its first value, as Foundation's JSONDecoder reads it.
        XCTAssertEqual(try decoder.decode([String: Int].self, from: Data(#"{"a":1,"a":2}"#.utf8)), ["a": 1])
        XCTAssertEqual(try JSONValue(parsing: Data(#"{"a":1,"a":2}"#.utf8)), ["a": 1])
        // A comma before the end, as JSONDecoder reads it.
        XCTAssertEqual(
            try JSONValue(parsing: Data(#"{"a":[1,2,],"b":{"c":3,},}"#.utf8)), ["a": [1, 2], "b": ["c": 3]])
        XCTAssertThrowsError(try JSONValue(parsing: Data("[,]".utf8)))
        XCTAssertThrowsError(try JSONValue(parsing: Data("[1,,]".utf8)))
    }

    func testErrorsNameTheirPlaceAndKindAsFoundationsDo() throws {
        let decoder = OrderedJSONDecoder()
        func error(_ text: String, as type: (some Decodable).Type) -> DecodingError? {
            do {
                _ = try decoder.decode(type, from: Data(text.utf8))
                return nil
            } catch { return error as? DecodingError }
        }
        guard case .keyNotFound(let key, let context)? = error(#"{"a":"x","list":[]}"#, as: Point.self) else {
            return XCTFail("no keyNotFound")
        }
        XCTAssertEqual(key.stringValue, "z")
        XCTAssertTrue(context.codingPath.isEmpty)
        guard case .valueNotFound(_, let nullContext)? = error(#"[{"z":null,"a":"x","list":[]}]"#, as: [Point].self)
        else { return XCTFail("no valueNotFound") }
        XCTAssertEqual(nullContext.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }, ["0", "z"])
        guard case .typeMismatch(_, let mismatch)? = error(#"{"z":1,"a":"x","list":[true,"no"]}"#, as: Point.self)
        else { return XCTFail("no typeMismatch") }
        XCTAssertEqual(mismatch.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }, ["list", "1"])
        for (text, says) in [
            ("{\"a\": }", "unexpected `}` where a value should be at line 1, column 7 (byte 6)"),
            ("[1,\n 2,,]", "unexpected `,` where a value should be at line 2, column 4 (byte 7)"),
            ("\"abc", "the text ends inside a string at line 1, column 1 (byte 0)"),
            ("[1] x", "unexpected `x` where the end of the text should be at line 1, column 5 (byte 4)"),
            ("\"\\x\"", "invalid escape `\\x` in a string at line 1, column 2 (byte 1)"),
            ("01", "unexpected `1` where the end of the text should be at line 1, column 2 (byte 1)"),
            ("", "the text ends where a value should be at line 1, column 1 (byte 0)"),
        ] {
            guard case .dataCorrupted(let context)? = error(text, as: JSONValue.self),
                let syntax = context.underlyingError as? JSONSyntaxError
            else { return XCTFail("\(text): no syntax error") }
            XCTAssertEqual(syntax.description, says, text)
            XCTAssertFalse(syntax.exceedsLimit, text)
        }
        let invalid = Data([0x22, 0xC3, 0x28, 0x22])
        XCTAssertThrowsError(try decoder.decode(String.self, from: invalid)) { error in
            guard case .dataCorrupted(let context) = error as? DecodingError else { return XCTFail("\(error)") }
            XCTAssertEqual(
                (context.underlyingError as? JSONSyntaxError)?.reason, "a string holds bytes that are not UTF-8")
        }
    }

    func testNestingBeyond512LevelsIsALimitNotAStackOverflow() throws {
        let deep = Data((String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)).utf8)
        XCTAssertThrowsError(try JSONValue(parsing: deep)) { error in
            guard case .dataCorrupted(let context) = error as? DecodingError,
                let syntax = context.underlyingError as? JSONSyntaxError
            else { return XCTFail("\(error)") }
            XCTAssertTrue(syntax.exceedsLimit)
            XCTAssertEqual(syntax.offset, 512)
        }
        let fine = Data((String(repeating: "[", count: 512) + String(repeating: "]", count: 512)).utf8)
        XCTAssertNoThrow(try JSONValue(parsing: fine))
    }

    func testNestedContainersAndSuperDecodersKeepTheirPaths() throws {
        struct Outer: Decodable {
            var inner: [Int]
            var name: String
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: AnyCodingKey.self)
                var list = try container.nestedUnkeyedContainer(forKey: "list")
                let nested = try container.nestedContainer(keyedBy: AnyCodingKey.self, forKey: "nested")
                var inner: [Int] = []
                while !list.isAtEnd { inner.append(try list.decode(Int.self)) }
                self.inner = inner
                name = try nested.decode(String.self, forKey: "name")
                XCTAssertEqual(nested.codingPath.map(\.stringValue), ["nested"])
                let superDecoder = try container.superDecoder(forKey: "nested")
                XCTAssertEqual(
                    try superDecoder.container(keyedBy: AnyCodingKey.self).decode(String.self, forKey: "name"), "n")
                XCTAssertTrue(try container.superDecoder(forKey: "absent").singleValueContainer().decodeNil())
            }
        }
        let outer = try OrderedJSONDecoder().decode(
            Outer.self, from: Data(#"{"list":[1,2,3],"nested":{"name":"n"}}"#.utf8))
        XCTAssertEqual(outer.inner, [1, 2, 3])
        XCTAssertEqual(outer.name, "n")
    }

    func testJSONObjectReadsLikeADictionaryAndComparesWithoutOrder() {
        var object: JSONObject = ["b": 1, "a": 2]
        object["c"] = "x"
        object["b"] = 5
        XCTAssertEqual(object.keys, ["b", "a", "c"])
        object["a"] = nil
        XCTAssertEqual(object.keys, ["b", "c"])
        XCTAssertEqual(object, ["c": "x", "b": 5])
        XCTAssertEqual(object.hashValue, (["c": "x", "b": 5] as JSONObject).hashValue)
        XCTAssertNotEqual(object, ["c": "x", "b": 6])
        var large = JSONObject()
        for index in (0..<40).reversed() { large["k\(index)"] = .int(index) }
        XCTAssertEqual(large["k7"], 7)
        XCTAssertEqual(large.keys.first, "k39")
        large["k39"] = nil
        XCTAssertEqual(large.index(forKey: "k38"), 0)
        XCTAssertEqual(JSONObject(["b": 1, "a": 2]).keys, ["a", "b"])
    }
}
