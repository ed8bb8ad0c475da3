import Foundation
import OpenAIRuntime
import XCTest

/// `JSONValue` decodes every JSON kind to the right case, wherever it sits, and encodes back.
final class JSONValueTests: XCTestCase {
    func testEveryKindDecodesToItsCaseAtTopLevelAndNested() throws {
        let text = #"""
            {"s":"text","i":-42,"big":18446744073709551616,"d":1.5,"e":2e3,"t":true,"f":false,
             "n":null,"a":[1,"two",[3.25,null],{"k":false}],"o":{"nested":{"deep":["x"]}},
             "empty_a":[],"empty_o":{},"unicode":"é\u00e9"}
            """#
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        let expected: JSONValue = .object([
            "s": .string("text"), "i": .int(-42), "big": .double(18_446_744_073_709_551_616),
            "d": .double(1.5), "e": .int(2000), "t": .bool(true), "f": .bool(false),
            "n": .null,
            "a": .array([.int(1), .string("two"), .array([.double(3.25), .null]), .object(["k": .bool(false)])]),
            "o": .object(["nested": .object(["deep": .array([.string("x")])])]),
            "empty_a": .array([]), "empty_o": .object([:]), "unicode": .string("éé"),
        ])
        XCTAssertEqual(value, expected)
        let reencoded = try JSONDecoder().decode(
            JSONValue.self, from: try JSONEncoder().encode(value))
        XCTAssertEqual(reencoded, expected)
        for (scalar, kind) in [
            ("\"x\"", JSONValue.string("x")), ("7", .int(7)), ("7.5", .double(7.5)),
            ("true", .bool(true)), ("null", .null), ("[]", .array([])),
        ] {
            XCTAssertEqual(try JSONDecoder().decode(JSONValue.self, from: Data(scalar.utf8)), kind)
        }
    }
}
