import Foundation
import OpenAPI
import XCTest

@testable import GeneratorCore

/// `Spec/overrides.json` is a typed overlay: a key the generator does not know is an error, and a
/// schema correction that matches no schema is a warning.
final class OverridesLoadingTests: XCTestCase {
    func load(_ json: String) throws -> Overrides {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("overrides-\(UUID().uuidString).json")
        try Data(json.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try Overrides.load(from: file.path)
    }

    func assertRejected(_ json: String, mentioning text: String, line: UInt = #line) {
        XCTAssertThrowsError(try load(json), line: line) { error in
            XCTAssertTrue("\(error)".contains(text), "\(error)", line: line)
        }
    }

    func testSchemaCorrectionsAreTyped() throws {
        let overrides = try load(
            """
            {"schemas": {"comment": "notes",
              "#/components/schemas/A": {"x-swift-type": "JSONValue", "reason": "r"},
              "#/components/schemas/B": {"enum": ["x", "y"], "not-required": ["id"], "nullable-properties": ["n"]}}}
            """)
        XCTAssertEqual(overrides.schemas["#/components/schemas/A"], SchemaCorrection(swiftType: "JSONValue"))
        XCTAssertEqual(
            overrides.schemas["#/components/schemas/B"],
            SchemaCorrection(enumValues: ["x", "y"], notRequired: ["id"], nullableProperties: ["n"]))
        XCTAssertEqual(overrides.schemas.count, 2)
    }

    func testUnknownSectionsKeysAndValueTypesAreErrors() {
        assertRejected(#"{"schema": {}}"#, mentioning: "unknown sections [\"schema\"]")
        assertRejected(
            ##"{"schemas": {"#/components/schemas/A": {"nullable": ["n"]}}}"##,
            mentioning: "unknown keys [\"nullable\"]")
        assertRejected(
            ##"{"schemas": {"#/components/schemas/A": {"enum": "x,y"}}}"##,
            mentioning: "`enum` is not a list of strings")
        assertRejected(
            #"{"streaming": {"createX": {"event": "E", "framing": "lines"}}}"#, mentioning: "streaming.createX")
        assertRejected(#"{"operations": {"createX": 3}}"#, mentioning: "operations.createX")
    }

    func testACorrectionThatMatchesNoSchemaIsAWarning() throws {
        let spec = """
            openapi: 3.1.0
            info: {title: t, version: 1.0.0}
            paths: {}
            components:
              schemas:
                A: {type: object, properties: {id: {type: string}}}
            """
        let loader = OpenAPILoader(schemaOverrides: [
            "#/components/schemas/A": SchemaCorrection(notRequired: ["id"]),
            "#/components/schemas/Gone": SchemaCorrection(swiftType: "JSONValue"),
        ])
        let document = try loader.load(Array(spec.utf8), file: "t.yaml")
        let unmatched = document.diagnostics.filter { $0.kind == "overlay-unmatched" }
        XCTAssertEqual(unmatched.map(\.location.pointer), ["#/schemas/#~1components~1schemas~1Gone"])
        XCTAssertTrue(unmatched[0].message.contains("#/components/schemas/Gone matches no schema of t.yaml"))
    }
}
