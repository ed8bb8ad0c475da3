import Foundation
import OpenAIGeneratorOpenAPI
import OpenAIGeneratorYAML
import XCTest

@testable import OpenAIGeneratorCore

/// The generator's bounds on hostile specs: each one a located error in bounded time, or a
/// diagnostic and code that compiles.
final class GeneratorLimitsTests: XCTestCase {
    private static let head = "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n"

    private func generate(_ text: String) throws -> GenerationResult {
        let bytes = Array(text.utf8)
        return try SwiftGenerator.generate(
            specBytes: bytes, specFile: "hostile.yaml", sha256: "x", configuration: GeneratorConfiguration())
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

    func testADocumentLargerThanTheLimitIsRefusedAtOnce() {
        let parser = YAMLParser(limits: .init(maxBytes: 1000))
        XCTAssertThrowsError(try parser.parse(Array(repeating: 0x20, count: 1001), file: "big.yaml")) { error in
            XCTAssertEqual(
                "\(error)", "big.yaml:1:1: the document is 1001 bytes, more than the 1000 the generator reads")
        }
    }
}
