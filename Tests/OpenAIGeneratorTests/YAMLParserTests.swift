import Foundation
import XCTest
import OpenAISDKTestSupport

@testable import OpenAIYAML

/// Structure, marks, anchors, warnings and errors of ``YAMLParser``, and the real OpenAI spec.
final class YAMLParserTests: XCTestCase {
    private func parse(_ text: String) throws -> YAMLDocument {
        try YAMLParser().parse(text, file: "t.yaml")
    }

    /// The description of the error that parsing `text` throws, or a failure when it does not throw.
    private func errorDescription(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> String? {
        do {
            _ = try YAMLParser().parse(text, file: "t.yaml")
            XCTFail("expected an error", file: file, line: line)
            return nil
        } catch {
            return error.description
        }
    }

    func testBlockScalarsFoldAndChompLikeYAML() throws {
        let root = try parse(
            """
            lit: |
              line one
                indented
              line three
            fold: >
              folded
              text

              new para
            strip: |-
              x
            keep: |+
              y

            end: 1
            """
        ).root
        XCTAssertEqual(root["lit"]?.string, "line one\n  indented\nline three\n")
        XCTAssertEqual(root["lit"]?.scalar?.style, .literal)
        XCTAssertEqual(root["fold"]?.string, "folded text\nnew para\n")
        XCTAssertEqual(root["fold"]?.scalar?.style, .folded)
        XCTAssertEqual(root["strip"]?.string, "x")
        XCTAssertEqual(root["keep"]?.string, "y\n\n")
        XCTAssertEqual(root["end"]?.int, 1)
    }

    func testDoubleQuotedEscapesAreDecoded() throws {
        let root = try parse(#"a: "tab\there \u00e9 \"q\" \n""# + "\nb: 'it''s'\n").root
        XCTAssertEqual(root["a"]?.string, "tab\there é \"q\" \n")
        XCTAssertEqual(root["b"]?.string, "it's")
    }

    func testFlowCollectionsKeepOrderAndMarks() throws {
        let root = try parse("flow: {a: 1, b: [x, \"y\", {c: d}], e: []}\n").root
        let flow = try XCTUnwrap(root["flow"])
        XCTAssertEqual(flow.mark, Mark(line: 1, column: 7))
        XCTAssertEqual(flow.mapping?.map(\.key), ["a", "b", "e"])
        let b = try XCTUnwrap(flow["b"]?.sequence)
        XCTAssertEqual(b.count, 3)
        XCTAssertEqual(b[0].string, "x")
        XCTAssertEqual(b[1].string, "y")
        XCTAssertEqual(b[1].scalar?.style, .doubleQuoted)
        XCTAssertEqual(b[2]["c"]?.string, "d")
        XCTAssertEqual(b[2]["c"]?.mark, Mark(line: 1, column: 30))
        XCTAssertEqual(flow["e"]?.sequence?.count, 0)
        XCTAssertEqual(flow["a"]?.int, 1)
    }

    func testMarksOfNestedKeysAndValuesAreOneBased() throws {
        let root = try parse(
            """
            openapi: 3.1.0
            paths:
              /models:
                get:
                  operationId: listModels
                  tags:
                    - Models
            """
        ).root
        XCTAssertEqual(root.mark, Mark(line: 1, column: 1))
        let get = try XCTUnwrap(root["paths"]?["/models"]?["get"])
        XCTAssertEqual(get.mark, Mark(line: 5, column: 7))
        let pair = try XCTUnwrap(get.mapping?.first)
        XCTAssertEqual(pair.key, "operationId")
        XCTAssertEqual(pair.keyMark, Mark(line: 5, column: 7))
        XCTAssertEqual(pair.value.mark, Mark(line: 5, column: 20))
        XCTAssertEqual(pair.value.string, "listModels")
        XCTAssertEqual(get["tags"]?.sequence?.first?.mark, Mark(line: 7, column: 11))
        XCTAssertEqual(root.mapping?[1].keyMark.description, "2:1")
        let unicode = try parse("ключ: {é: x}\n").root
        XCTAssertEqual(unicode["ключ"]?["é"]?.mark, Mark(line: 1, column: 11), "columns count characters, not bytes")
    }

    func testAliasesYieldTheAnchoredNodeAtTheAliasMark() throws {
        let root = try parse(
            """
            defs:
              shared: &shared
                type: object
                properties:
                  id: {type: string}
            first: *shared
            second:
              - *shared
              - &word hello
              - *word
            """
        ).root
        let first = try XCTUnwrap(root["first"])
        XCTAssertEqual(first.mark, Mark(line: 6, column: 8))
        XCTAssertEqual(first["type"]?.string, "object")
        XCTAssertEqual(first["properties"]?["id"]?["type"]?.string, "string")
        XCTAssertEqual(first["type"]?.mark, Mark(line: 3, column: 11), "content keeps the anchored marks")
        let second = try XCTUnwrap(root["second"]?.sequence)
        XCTAssertEqual(second[0].mark, Mark(line: 8, column: 5))
        XCTAssertEqual(second[0]["properties"]?["id"]?["type"]?.string, "string")
        XCTAssertEqual(second[1].string, "hello")
        XCTAssertEqual(second[2].string, "hello")
        XCTAssertEqual(second[2].mark, Mark(line: 10, column: 5))
    }

    func testAliasOfScalarCanBeAKey() throws {
        let root = try parse("a: &k name\n*k : value\n").root
        XCTAssertEqual(root.mapping?.map(\.key), ["a", "name"])
        XCTAssertEqual(root["name"]?.string, "value")
    }

    func testMergeKeysApplyWithExplicitKeysWinning() throws {
        let root = try parse(
            """
            base: &base {x: 1, y: 2}
            more: &more {y: 20, w: 5}
            d:
              <<: [*base, *more]
              y: 3
              z: 4
            """
        ).root
        let d = try XCTUnwrap(root["d"])
        // Merged pairs stand where `<<` stood; `y` is explicit, so only its explicit position remains.
        XCTAssertEqual(d.mapping?.map(\.key), ["x", "w", "y", "z"])
        XCTAssertEqual(d["x"]?.int, 1)
        XCTAssertEqual(d["y"]?.int, 3)
        XCTAssertEqual(d["w"]?.int, 5)
        XCTAssertEqual(d["z"]?.int, 4)
        XCTAssertEqual(try parse("'<<': 1\n").root["<<"]?.int, 1, "a quoted << is an ordinary key")
        XCTAssertEqual(
            errorDescription("<<: 1\n"),
            "t.yaml:1:5: the value of a merge key ('<<') must be a mapping or a sequence of mappings")
    }

    func testDuplicateKeyWarnsAndLastValueWins() throws {
        let document = try parse("a: 1\nb: 2\na: 3\n")
        XCTAssertEqual(document.root.mapping?.map(\.key), ["a", "b"])
        XCTAssertEqual(document.root["a"]?.int, 3)
        XCTAssertEqual(
            document.warnings.map(\.description),
            ["t.yaml:3:1: duplicate mapping key 'a' (first at 1:1); the last value is used"])
        XCTAssertEqual(document.warnings.first?.mark, Mark(line: 3, column: 1))
    }

    func testLargeMappingsAreIndexedAndDetectDuplicates() throws {
        var text = (0..<40).map { "key\($0): \($0)\n" }.joined()
        text += "key7: seven\n"
        var root = try parse(text).root
        XCTAssertEqual(root.mapping?.count, 40)
        XCTAssertNotNil(root.keyIndex)
        for number in [0, 1, 12, 13, 39] {
            XCTAssertEqual(root["key\(number)"]?.int, number)
        }
        XCTAssertEqual(root["key7"]?.string, "seven")
        XCTAssertNil(root["key40"])
        // Replacing the content drops the index, so lookups follow the new pairs.
        root.kind = .mapping([YAMLPair(key: "only", keyMark: Mark(line: 1, column: 1), value: root["key1"]!)])
        XCTAssertNil(root["key0"])
        XCTAssertEqual(root["only"]?.int, 1)
    }

    func testEmptyDocumentsAreNull() throws {
        for text in ["", "# only a comment\n", "---\n", "\n\n"] {
            let document = try parse(text)
            XCTAssertTrue(document.root.isNull, text.debugDescription)
            XCTAssertEqual(document.warnings.count, 0)
        }
        XCTAssertEqual(try parse("").root.mark, Mark(line: 1, column: 1))
    }

    func testOnlyTheFirstDocumentIsUsedAndASecondIsReported() throws {
        let document = try parse("a: 1\n---\nb: 2\n")
        XCTAssertEqual(document.root.mapping?.map(\.key), ["a"])
        XCTAssertEqual(
            document.warnings.map(\.description),
            ["t.yaml:2:1: the stream has more than one document; only the first is used"])
    }

    func testSyntaxErrorsNameLineAndColumn() {
        XCTAssertEqual(
            errorDescription("a:\n  b: 1\n c: 2\n"),
            "t.yaml:3:2: did not find expected key (while parsing a block mapping that started at 1:1)"
        )
        XCTAssertEqual(errorDescription("a: 1\n  b: 2\n"), "t.yaml:2:4: mapping values are not allowed in this context")
        XCTAssertEqual(
            errorDescription("a: 1\nb: \"unclosed\nc: 3\n"),
            "t.yaml:4:1: found unexpected end of stream (while scanning a quoted scalar that started at 2:4)"
        )
        XCTAssertEqual(
            errorDescription("key: [1, 2\n"),
            "t.yaml:2:1: did not find expected ',' or ']' (while parsing a flow sequence that started at 1:6)"
        )
    }

    func testAliasAndKeyErrorsNameLineAndColumn() {
        XCTAssertEqual(errorDescription("a: 1\nb: *nope\n"), "t.yaml:2:4: undefined alias '*nope'")
        XCTAssertEqual(
            errorDescription("a: &x [1, *x]\n"),
            "t.yaml:1:11: alias '*x' refers to a node that contains it; recursive aliases are not supported"
        )
        XCTAssertEqual(
            errorDescription("ok: 1\n[1, 2]: x\n"),
            "t.yaml:2:1: a sequence cannot be a mapping key; only scalar keys are supported"
        )
        XCTAssertEqual(
            errorDescription("? {a: 1}\n: x\n"),
            "t.yaml:1:3: a mapping cannot be a mapping key; only scalar keys are supported"
        )
        XCTAssertEqual(
            errorDescription("a: &m {x: 1}\n*m : 2\n"),
            "t.yaml:2:1: an alias to a collection cannot be a mapping key; only scalar keys are supported"
        )
    }

    func testInvalidUTF8IsReportedAtItsPosition() {
        let bytes = Array("a: b\nc: ".utf8) + [0xFF, 0x0A]
        XCTAssertThrowsError(try YAMLParser().parse(bytes, file: "t.yaml")) { error in
            XCTAssertEqual("\(error)", "t.yaml:2:4: invalid leading UTF-8 octet (byte 0xFF)")
        }
    }

    func testDeepNestingDoesNotRecurse() throws {
        // Beyond the default limit (128 levels) only when asked for: the builder itself never recurses.
        let depth = 2000
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        XCTAssertThrowsError(try parse(text))
        var node = try YAMLParser(limits: .init(maxDepth: depth)).parse(text, file: "t.yaml").root
        var levels = 1
        while let first = node.sequence?.first {
            node = first
            levels += 1
        }
        XCTAssertEqual(levels, depth)
    }

    /// The real OpenAI spec in ../shared (the package root's sibling).
    func testRealOpenAISpecParses() throws {
        let testsDirectory = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent()
        let spec = testsDirectory.appendingPathComponent("../../../shared/spec/openapi.yaml").standardizedFileURL
        guard let data = FileManager.default.contents(atPath: spec.path) else {
            throw Unavailable.skip(
                "the OpenAI spec is not at \(spec.path); /work/shared (the package's sibling shared/) is missing")
        }
        let start = Date()
        let document = try YAMLParser().parse([UInt8](data), file: "openapi.yaml")
        print("YAMLParserTests: parsed \(data.count) bytes in \(Int(Date().timeIntervalSince(start) * 1000)) ms")
        let root = document.root
        XCTAssertEqual(root.mapping?.prefix(3).map(\.key), ["openapi", "info", "servers"])
        XCTAssertEqual(root["openapi"]?.string, "3.1.0")
        XCTAssertNotNil(root["components"])
        XCTAssertEqual(root["components"]?["schemas"]?.mapping?.count, 1422)
        XCTAssertEqual(root["paths"]?.mapping?.count, 182)
        XCTAssertEqual(root.mapping?.first { $0.key == "paths" }?.keyMark, Mark(line: 57, column: 1))
        XCTAssertEqual(document.warnings.count, 0)
    }

    /// JSON pointer reference tokens (RFC 6901): escaping and unescaping round-trip, `~1` before `~0`.
    func testPointerTokensRoundTrip() {
        for token in ["plain", "a/b", "a~b", "~1", "/~0/", ""] {
            XCTAssertEqual(unescapePointerToken(escapePointerToken(token)), token, token)
        }
        XCTAssertEqual(escapePointerToken("a/b~c"), "a~1b~0c")
        XCTAssertEqual(unescapePointerToken("~01"), "~1")
        XCTAssertEqual(unescapePointerToken("a~2"), "a~2")
    }
}
