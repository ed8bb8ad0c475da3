import Foundation
import OpenAIGeneratorOpenAPI
import XCTest

@testable import OpenAIGeneratorCore

/// Where a member's doc comment comes from (its own description, the non-null branch of `anyOf`, the `$ref` target)
/// and the facts the schema states about its values (default, range, length, item count).
final class MemberDocumentationTests: XCTestCase {
    static let spec = """
        openapi: 3.1.0
        info: {title: Docs, version: 1.0.0}
        paths:
          /responses:
            get:
              operationId: listResponses
              parameters:
                - name: limit
                  in: query
                  description: How many to return.
                  schema: {type: integer, minimum: 1, maximum: 100, default: 20}
                - name: after
                  in: query
                  schema: {type: string}
              responses:
                '200':
                  description: OK
                  content:
                    application/json:
                      schema: {$ref: '#/components/schemas/Settings'}
        components:
          schemas:
            Temperature:
              type: number
              description: The component's description.
              minimum: 0
              maximum: 2
            Settings:
              type: object
              properties:
                temperature:
                  anyOf:
                    - type: number
                      description: What sampling temperature to use.
                      minimum: 0
                      maximum: 2
                      default: 1
                    - type: 'null'
                by_reference:
                  $ref: '#/components/schemas/Temperature'
                own_wins:
                  description: The property's own description.
                  anyOf:
                    - {$ref: '#/components/schemas/Temperature'}
                    - type: 'null'
                name:
                  type: string
                  maxLength: 64
                tags:
                  type: array
                  items: {type: string}
                  minItems: 1
                  maxItems: 16
                created_at:
                  type: integer
                  format: unixtime
                plain_name:
                  type: string
        """

    static func generated() throws -> String {
        let result = try GeneratorPipeline(configuration: GeneratorConfiguration()).run(
            Array(spec.utf8), file: "docs.yaml", sha256: String(repeating: "0", count: 64))
        return result.files.map(\.contents).joined(separator: "\n")
    }

    /// The doc-comment lines right above `line` in `text`, without their `/// `.
    static func comment(above line: String, in text: String) -> [String] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let index = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == line }) else {
            return ["<no line \(line)>"]
        }
        var comment: [String] = []
        var cursor = index - 1
        while cursor >= 0, lines[cursor].trimmingCharacters(in: .whitespaces).hasPrefix("///") {
            comment.insert(
                String(lines[cursor].trimmingCharacters(in: .whitespaces).dropFirst(3)).trimmingCharacters(
                    in: .whitespaces), at: 0)
            cursor -= 1
        }
        return comment
    }

    func testAPropertyTakesItsDescriptionAndFactsFromTheNonNullBranch() throws {
        let text = try Self.generated()
        XCTAssertEqual(
            Self.comment(above: "public var temperature: Swift.Double?", in: text),
            ["What sampling temperature to use.", "", "Default: `1`. At least 0, at most 2."])
    }

    func testAReferenceGivesItsComponentsDescriptionAndRangeUnlessThePropertyHasItsOwn() throws {
        let text = try Self.generated()
        XCTAssertEqual(
            Self.comment(above: "public var byReference: Temperature?", in: text),
            ["The component's description.", "", "At least 0, at most 2."])
        XCTAssertEqual(
            Self.comment(above: "public var ownWins: Temperature?", in: text),
            ["The property's own description.", "", "At least 0, at most 2."])
    }

    func testLengthsItemCountsAndUnitsAreStatedAndANameAloneSaysNothing() throws {
        let text = try Self.generated()
        XCTAssertEqual(Self.comment(above: "public var name: Swift.String?", in: text), ["At most 64 characters."])
        XCTAssertEqual(Self.comment(above: "public var tags: [Swift.String]?", in: text), ["1 to 16 items."])
        XCTAssertEqual(Self.comment(above: "public var createdAt: Swift.Int?", in: text), ["Unix time, in seconds."])
        XCTAssertEqual(Self.comment(above: "public var plainName: Swift.String?", in: text), [])
    }

    func testInitialiserAndMethodParametersEndWithTheirFacts() throws {
        let text = try Self.generated()
        XCTAssertTrue(
            text.contains(
                "///   - temperature: What sampling temperature to use. Default: `1`. At least 0, at most 2."),
            text)
        XCTAssertTrue(text.contains("///   - limit: How many to return. Default: `20`. At least 1, at most 100."), text)
        XCTAssertTrue(text.contains("///   - after: The `after` query parameter."), text)
    }

    func testFactsTable() {
        let cases: [(ScalarValue?, [String: ScalarValue], [String])] = [
            (nil, [:], []),
            (.null, [:], []),
            (.int(1), ["minimum": .int(0), "maximum": .int(2)], ["Default: `1`.", "At least 0, at most 2."]),
            (.double(0.5), [:], ["Default: `0.5`."]),
            (.double(1), [:], ["Default: `1`."]),
            (.string("auto"), [:], ["Default: `\"auto\"`."]),
            (.bool(false), [:], ["Default: `false`."]),
            (nil, ["minimum": .int(0), "exclusiveMinimum": .bool(true)], ["Greater than 0."]),
            (nil, ["exclusiveMinimum": .int(0), "exclusiveMaximum": .double(1.5)], ["Greater than 0, less than 1.5."]),
            (nil, ["maximum": .int(10)], ["At most 10."]),
            (nil, ["minLength": .int(1), "maxLength": .int(1)], ["Exactly 1 character."]),
            (nil, ["minLength": .int(0), "maxLength": .int(512)], ["0 to 512 characters."]),
            (nil, ["minLength": .int(0)], []),
            (nil, ["minItems": .int(2)], ["At least 2 items."]),
            (nil, ["minItems": .int(1)], ["At least 1 item."]),
            (nil, ["pattern": .string("^a$")], []),
        ]
        for (value, constraints, expected) in cases {
            XCTAssertEqual(
                SchemaTranslator.valueFacts(default: value, constraints: constraints), expected,
                "default \(String(describing: value)), \(constraints)")
        }
    }
}
