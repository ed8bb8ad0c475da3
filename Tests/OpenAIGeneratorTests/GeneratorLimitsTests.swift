import Foundation
import OpenAIGeneratorOpenAPI
import OpenAIYAML
import XCTest

@testable import OpenAIGeneratorCore

/// The generator's bounds on hostile specs: each one a located error in bounded time, or a
/// diagnostic and code that compiles.
final class GeneratorLimitsTests: XCTestCase {
    private static let head = "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n"

    private func generate(_ text: String) throws -> GenerationResult {
        let bytes = Array(text.utf8)
        return try GeneratorPipeline(configuration: GeneratorConfiguration()).run(
            bytes, file: "hostile.yaml", sha256: "x")
    }

    /// The error generating `text` throws, and how long it took.
    private func failure(_ text: String) -> (OpenAPIError?, TimeInterval) {
        let start = Date()
        do {
            _ = try generate(text)
            return (nil, Date().timeIntervalSince(start))
        } catch let error as OpenAPIError {
            return (error, Date().timeIntervalSince(start))
        } catch {
            XCTFail("\(error)")
            return (nil, 0)
        }
    }

    func testDeepNestingIsALocatedErrorWithinALimit() {
        for depth in [5_000, 100_000] {
            let properties =
                String(repeating: "{type: object, properties: {a: ", count: depth) + "{type: string}"
                + String(repeating: "}}", count: depth)
            let (error, seconds) = failure(Self.head + "    Deep: " + properties + "\n")
            XCTAssertEqual(error?.location.mark.line, 6)
            XCTAssertTrue(
                error?.message.contains("nest deeper than 128 levels") ?? false, "\(String(describing: error))")
            XCTAssertTrue(
                error?.location.pointer.hasPrefix("#/components/schemas/Deep/properties/a/properties/a") ?? false)
            XCTAssertLessThan(seconds, 2)
        }
        let items =
            String(repeating: "{type: array, items: ", count: 5_000) + "{type: string}"
            + String(repeating: "}", count: 5_000)
        let (error, seconds) = failure(Self.head + "    Items: " + items + "\n")
        XCTAssertTrue(error?.location.pointer.hasPrefix("#/components/schemas/Items/items/items") ?? false)
        XCTAssertLessThan(seconds, 2)
        // The same within the limit generates.
        let shallow =
            String(repeating: "{type: array, items: ", count: 40) + "{type: string}"
            + String(repeating: "}", count: 40)
        XCTAssertNoThrow(try generate(Self.head + "    Items: " + shallow + "\n"))
    }

    func testAnAliasBombIsALocatedErrorInBoundedTimeAndMemory() {
        var bomb =
            "    Bomb:\n      type: object\n      x-bomb:\n        l0: &b0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
        for level in 1..<10 {
            bomb +=
                "        l\(level): &b\(level) ["
                + Array(repeating: "*b\(level - 1)", count: 10).joined(separator: ", ")
                + "]\n"
        }
        XCTAssertLessThan(bomb.utf8.count, 3_000, "a 3 KB document")
        let (error, seconds) = failure(Self.head + bomb)
        XCTAssertTrue(error?.message.contains("more than 4000000 nodes") ?? false, "\(String(describing: error))")
        XCTAssertEqual(error?.location.pointer, "#/components/schemas/Bomb/x-bomb/l6/2")
        XCTAssertLessThan(seconds, 2)
    }

    func testAStringAliasedThousandsOfTimesIsALocatedErrorNotGigabytesOfSwift() {
        // A 100 KB description aliased 2,000 times: few nodes, 200 MB of text in the tree.
        let long = String(repeating: "lorem ipsum ", count: 8_500)
        let uses = (0..<2_000).map { "      p\($0): {type: string, description: *d}" }.joined(separator: "\n")
        let spec =
            Self.head + "    Bomb:\n      description: &d \"\(long)\"\n      type: object\n      properties:\n" + uses
            + "\n"
        XCTAssertLessThan(spec.utf8.count, 200_000, "a 200 KB document")
        let (error, seconds) = failure(spec)
        XCTAssertTrue(
            error?.message.contains("bytes of text, aliases counted") ?? false, "\(String(describing: error))")
        XCTAssertTrue(error?.message.contains("the alias '*d' adds 102000") ?? false, "\(String(describing: error))")
        XCTAssertEqual(
            error?.location.pointer.hasPrefix("#/components/schemas/Bomb/"), true,
            "\(String(describing: error?.location))")
        XCTAssertGreaterThan(error?.location.mark.line ?? 0, 600, "at the alias that passes the limit")
        XCTAssertLessThan(seconds, 2)
        // The same limit on a parser of its own.
        let parser = YAMLParser(limits: .init(maxExpandedBytes: 1_000))
        XCTAssertThrowsError(try parser.parse("a: &a \(String(repeating: "x", count: 600))\nb: *a\n", file: "s.yaml"))
    }

    func testADuplicateOperationIdIsALocatedError() {
        let spec = """
            openapi: 3.1.0
            info: {title: t, version: '1'}
            paths:
              /a:
                get: {operationId: getThing, responses: {'200': {description: OK}}}
              /b:
                post: {operationId: getThing, responses: {'200': {description: OK}}}
            """
        let (error, _) = failure(spec)
        XCTAssertEqual(error?.location.mark.line, 7)
        XCTAssertTrue(
            error?.message.contains("operationId getThing is used twice: by GET /a (line 5) and by POST /b") ?? false,
            "\(String(describing: error))")
    }

    func testParametersWithOneNameGetTheirLocationAsASuffixWithAWarning() throws {
        let spec = """
            openapi: 3.1.0
            info: {title: t, version: '1'}
            paths:
              /things/{id}:
                get:
                  operationId: getThing
                  parameters:
                    - {name: id, in: path, required: true, schema: {type: string}}
                    - {name: id, in: query, schema: {type: string}}
                    - {name: id, in: header, schema: {type: string}}
                    - {name: body, in: query, schema: {type: string}}
                    - {name: default, in: query, schema: {type: string}}
                    - {name: default, in: header, schema: {type: string}}
                  responses: {'200': {description: OK}}
            """
        let result = try generate(spec)
        let renamed = result.diagnostics.filter { $0.kind == .parameterRenamed }
        XCTAssertEqual(renamed.count, 4, "\(renamed)")
        XCTAssertTrue(renamed.allSatisfy { $0.severity == .warning })
        let code = result.files.map(\.contents).joined(separator: "\n")
        XCTAssertTrue(code.contains("id: Swift.String,"), code)
        XCTAssertTrue(code.contains("idQuery: Swift.String? = nil,"), code)
        XCTAssertTrue(code.contains("idHeader: Swift.String? = nil,"), code)
        XCTAssertTrue(code.contains("bodyQuery: Swift.String? = nil,"), code)
        // A keyword keeps its backquotes; the renamed one needs none.
        XCTAssertTrue(code.contains("`default`: Swift.String? = nil,"), code)
        XCTAssertTrue(code.contains("defaultHeader: Swift.String? = nil,"), code)
        // Each still goes out under its wire name.
        XCTAssertTrue(code.contains("addQuery(\"id\", idQuery)"), code)
    }

    func testReferenceCyclesAreAnErrorAndCollectionCyclesADiagnostic() throws {
        let (cycle, _) = failure(
            Self.head + "    A: {$ref: '#/components/schemas/B'}\n    B: {$ref: '#/components/schemas/A'}\n")
        XCTAssertEqual(
            cycle?.description,
            "hostile.yaml:6:8: error: the schemas A → B → A refer to each other through $ref and nothing else, so they describe no value (at #/components/schemas/A)"
        )
        // Through `allOf`, a schema that refers to itself is an object with no members of its own.
        let allOf = try generate(Self.head + "    A: {allOf: [{$ref: '#/components/schemas/A'}]}\n")
        XCTAssertTrue(allOf.files.contains { $0.contents.contains("public struct A: Codable") })
        let result = try generate(
            Self.head + "    A: {type: array, items: {$ref: '#/components/schemas/A'}}\n")
        XCTAssertEqual(result.diagnostics.map(\.kind), [.recursiveAlias])
        XCTAssertTrue(result.files.contains { $0.contents.contains("public typealias A = JSONValue") })
    }

    /// Components `A0` … `A<count - 1>`, each a `$ref` to the next; the last is a string, or a
    /// `$ref` back to `A0` when `cycle`.
    private static func aliasChain(_ count: Int, cycle: Bool = false) -> String {
        var text = head
        for index in 0..<count - 1 { text += "    A\(index): {$ref: '#/components/schemas/A\(index + 1)'}\n" }
        text += "    A\(count - 1): " + (cycle ? "{$ref: '#/components/schemas/A0'}\n" : "{type: string}\n")
        return text
    }

    func testAnAliasChainOverTheLimitIsALocatedErrorInLinearTime() throws {
        // 20,000 aliases took 100 s when every alias walked the chain after it.
        let (error, seconds) = failure(Self.aliasChain(20_001))
        XCTAssertEqual(
            error?.description,
            "hostile.yaml:6:9: error: the schemas A0 → A1 → A2 → … are a chain of 20000 $refs, more than the 64 the generator follows (at #/components/schemas/A0)"
        )
        XCTAssertLessThan(seconds, 2)
        // 64 hops (A0 → … → A64, a string) is within the limit; 65 is not.
        let within = try generate(Self.aliasChain(65))
        XCTAssertTrue(within.files.contains { $0.contents.contains("public typealias A0 = A1") })
        let (over, _) = failure(Self.aliasChain(66))
        XCTAssertTrue(
            over?.message.contains("a chain of 65 $refs, more than the 64") ?? false, "\(String(describing: over))")
        XCTAssertEqual(OpenAPILoader.aliasChainLimit, 64)
    }

    func testALongCycleOfAliasesIsAnErrorNamedByItsEndsInLinearTime() {
        // Over the limit, refused when loading (translating it would recurse 20,000 deep).
        let (error, seconds) = failure(Self.aliasChain(20_000, cycle: true))
        XCTAssertEqual(
            error?.description,
            "hostile.yaml:6:9: error: the schemas A0 → A1 → A2 → … refer to each other through $ref and nothing else in a cycle of 20000, more than the 64 $refs the generator follows (at #/components/schemas/A0)"
        )
        XCTAssertLessThan(seconds, 2)
        // Within it, the translation's error, a long chain named by its ends.
        let (short, _) = failure(Self.aliasChain(40, cycle: true))
        XCTAssertEqual(
            short?.description,
            "hostile.yaml:6:9: error: the schemas A0 → A1 → A2 → A3 → A4 → … → A39 → A0 (a cycle of 40 schemas) refer to each other through $ref and nothing else, so they describe no value (at #/components/schemas/A0)"
        )
    }

    func testADocumentLargerThanTheLimitIsRefusedAtOnce() {
        let parser = YAMLParser(limits: .init(maxBytes: 1000))
        XCTAssertThrowsError(try parser.parse(Array(repeating: 0x20, count: 1001), file: "big.yaml")) { error in
            XCTAssertEqual(
                "\(error)", "big.yaml:1:1: the document is 1001 bytes, more than the 1000 the generator reads")
        }
    }
}
