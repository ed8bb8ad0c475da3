import XCTest

@testable import OpenAIYAML

/// Scalar resolution by the YAML 1.2 core schema (YAML 1.2.2 §10.3.2), through the parser.
final class YAMLScalarResolutionTests: XCTestCase {
    /// Parses `value: <source>` and returns the value's scalar.
    private func scalar(_ source: String, file: StaticString = #filePath, line: UInt = #line) throws -> YAMLScalar {
        let document = try YAMLParser().parse("value: \(source)\n", file: "t.yaml")
        return try XCTUnwrap(document.root["value"]?.scalar, "no scalar for \(source)", file: file, line: line)
    }

    func testPlainScalarsResolveByTheCoreSchema() throws {
        let table: [(String, YAMLScalar.Resolved)] = [
            ("~", .null),
            ("null", .null),
            ("Null", .null),
            ("NULL", .null),
            ("", .null),
            ("nULL", .string("nULL")),
            ("true", .bool(true)),
            ("True", .bool(true)),
            ("TRUE", .bool(true)),
            ("false", .bool(false)),
            ("False", .bool(false)),
            ("FALSE", .bool(false)),
            ("yes", .string("yes")),
            ("no", .string("no")),
            ("on", .string("on")),
            ("y", .string("y")),
            ("0", .int(0)),
            ("123", .int(123)),
            ("-17", .int(-17)),
            ("+12", .int(12)),
            ("007", .int(7)),
            ("0o17", .int(15)),
            ("0x1F", .int(31)),
            ("0xff", .int(255)),
            ("-0x1F", .string("-0x1F")),
            ("0x", .string("0x")),
            ("0o8", .string("0o8")),
            ("0b101", .string("0b101")),
            ("1_000", .string("1_000")),
            ("1e3", .float(1000)),
            ("1E+3", .float(1000)),
            ("2.5e-1", .float(0.25)),
            ("1.5", .float(1.5)),
            ("-0.5", .float(-0.5)),
            ("1.", .float(1)),
            (".5", .float(0.5)),
            ("+.5", .float(0.5)),
            (".", .string(".")),
            ("1e", .string("1e")),
            ("1.2.3", .string("1.2.3")),
            ("2024-01-01", .string("2024-01-01")),
            (".inf", .float(.infinity)),
            (".Inf", .float(.infinity)),
            ("+.INF", .float(.infinity)),
            ("-.inf", .float(-.infinity)),
            (".infinity", .string(".infinity")),
            ("inf", .string("inf")),
            ("gpt-4o", .string("gpt-4o")),
            ("-x", .string("-x")),
        ]
        for (source, expected) in table {
            XCTAssertEqual(try scalar(source).resolved, expected, "value: \(source)")
        }
    }

    func testNaNVariantsResolveToNaN() throws {
        for source in [".nan", ".NaN", ".NAN"] {
            guard case .float(let value) = try scalar(source).resolved else {
                return XCTFail("\(source) did not resolve to a float")
            }
            XCTAssertTrue(value.isNaN, source)
        }
        XCTAssertEqual(try scalar("-.nan").resolved, .string("-.nan"))
    }

    func testIntegerTooLargeForIntResolvesToFloatAndKeepsText() throws {
        let big = try scalar("99999999999999999999")
        XCTAssertEqual(big.resolved, .float(1e20))
        XCTAssertEqual(big.text, "99999999999999999999")
        XCTAssertEqual(try scalar("0xFFFFFFFFFFFFFFFFFF").resolved, .float(0xFF_FFFF_FFFF_FFFF_FFFF as Double))
        XCTAssertEqual(try scalar("9223372036854775807").resolved, .int(Int.max))
        XCTAssertEqual(try scalar("-9223372036854775808").resolved, .int(Int.min))
    }

    func testQuotedAndBlockScalarsAreStrings() throws {
        XCTAssertEqual(try scalar("\"123\"").resolved, .string("123"))
        XCTAssertEqual(try scalar("\"123\"").style, .doubleQuoted)
        XCTAssertEqual(try scalar("'true'").resolved, .string("true"))
        XCTAssertEqual(try scalar("'true'").style, .singleQuoted)
        XCTAssertEqual(try scalar("\"\"").resolved, .string(""))
        XCTAssertEqual(try scalar("''").resolved, .string(""))
        XCTAssertEqual(try scalar("|\n  42\n").resolved, .string("42\n"))
        XCTAssertEqual(try scalar(">\n  null\n").resolved, .string("null\n"))
    }

    func testCoreTagsAreHonoured() throws {
        let str = try scalar("!!str 123")
        XCTAssertEqual(str.resolved, .string("123"))
        XCTAssertEqual(str.tag, "tag:yaml.org,2002:str")
        XCTAssertEqual(try scalar("!!str").resolved, .string(""))
        XCTAssertEqual(try scalar("!!int \"42\"").resolved, .int(42))
        XCTAssertEqual(try scalar("!!int 0x10").resolved, .int(16))
        XCTAssertEqual(try scalar("!!float 1").resolved, .float(1))
        XCTAssertEqual(try scalar("!!float '2.5'").resolved, .float(2.5))
        XCTAssertEqual(try scalar("!!bool 'True'").resolved, .bool(true))
        XCTAssertEqual(try scalar("!!null ''").resolved, .null)
        XCTAssertEqual(try scalar("! 12").resolved, .string("12"))
        XCTAssertEqual(try scalar("! 12").tag, "!")
        XCTAssertEqual(try scalar("!custom 12").resolved, .string("12"))
        XCTAssertEqual(try scalar("!custom 12").tag, "!custom")
    }

    func testValueThatDoesNotFitItsTagIsAnError() {
        XCTAssertThrowsError(try YAMLParser().parse("a: 1\nb: !!int abc\n", file: "t.yaml")) { error in
            XCTAssertEqual("\(error)", "t.yaml:2:4: 'abc' is not a valid !!int value")
        }
        XCTAssertThrowsError(try YAMLParser().parse("b: !!bool yes\n", file: "t.yaml")) { error in
            XCTAssertEqual("\(error)", "t.yaml:1:4: 'yes' is not a valid !!bool value")
        }
    }

    func testNodeAccessorsFollowResolution() throws {
        let root = try YAMLParser().parse(
            "s: text\nq: '12'\ni: 12\nf: 1.5\nb: false\nn: ~\nl: [1]\n",
            file: "t.yaml"
        ).root
        XCTAssertEqual(root["s"]?.string, "text")
        XCTAssertEqual(root["q"]?.string, "12")
        XCTAssertNil(root["q"]?.int)
        XCTAssertNil(root["i"]?.string)
        XCTAssertEqual(root["i"]?.scalarText, "12")
        XCTAssertEqual(root["i"]?.int, 12)
        XCTAssertEqual(root["i"]?.double, 12)
        XCTAssertEqual(root["f"]?.double, 1.5)
        XCTAssertNil(root["f"]?.int)
        XCTAssertEqual(root["b"]?.bool, false)
        XCTAssertEqual(root["b"]?.scalarText, "false")
        XCTAssertEqual(root["n"]?.isNull, true)
        XCTAssertEqual(root["s"]?.isNull, false)
        XCTAssertNil(root["n"]?.string)
        XCTAssertNil(root["l"]?.scalarText)
        XCTAssertEqual(root["l"]?.sequence?.count, 1)
        XCTAssertNil(root["l"]?.mapping)
        XCTAssertNil(root["missing"])
        XCTAssertNil(root["s"]?["x"])
    }

    func testPublicScalarInitializerResolves() {
        XCTAssertEqual(YAMLScalar(text: "0x1F").resolved, .int(31))
        XCTAssertEqual(YAMLScalar(text: "0x1F", style: .doubleQuoted).resolved, .string("0x1F"))
        XCTAssertEqual(YAMLScalar(text: "abc", tag: "tag:yaml.org,2002:int").resolved, .string("abc"))
    }
}
