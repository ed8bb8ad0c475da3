import Foundation
import OpenAIGeneratorOpenAPI
import XCTest
import OpenAIYAML

@testable import OpenAIGeneratorCore

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
        assertRejected(#"{"leading-members": {"members": "model"}}"#, mentioning: "leading-members needs `members`")
        assertRejected(
            #"{"leading-members": {"members": ["model", "model"]}}"#, mentioning: "a list of distinct JSON member names"
        )
    }

    func testLeadingMembersAreReadInTheirOrder() throws {
        let overrides = try load(#"{"leading-members": {"members": ["model", "input"], "reason": "r"}}"#)
        XCTAssertEqual(overrides.leadingMembers, ["model", "input"])
        XCTAssertEqual(try load("{}").leadingMembers, [])
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
        let overlay = SchemaOverlay(corrections: [
            "#/components/schemas/A": SchemaCorrection(notRequired: ["id"]),
            "#/components/schemas/Gone": SchemaCorrection(swiftType: "JSONValue"),
        ])
        let document = overlay.apply(to: try OpenAPILoader().load(Array(spec.utf8), file: "t.yaml"))
        let unmatched = document.diagnostics.filter { $0.kind == .overlayUnmatched }
        XCTAssertEqual(unmatched.map(\.location.pointer), ["#/schemas/#~1components~1schemas~1Gone"])
        XCTAssertTrue(unmatched[0].message.contains("#/components/schemas/Gone matches no schema of t.yaml"))
    }

    /// The overlay is a stage of its own over the loaded model: it corrects schemas at any depth
    /// (here inside an operation's reply), copies only the schemas on the way there, and leaves
    /// the loader's document as it was.
    func testTheOverlayCorrectsSchemasAtAnyDepthAndSharesTheRest() throws {
        let spec = """
            openapi: 3.1.0
            info: {title: t, version: 1.0.0}
            paths:
              /things:
                get:
                  operationId: listThings
                  responses:
                    '200':
                      description: ok
                      content:
                        application/json:
                          schema:
                            type: object
                            properties:
                              kind: {type: string, enum: [a, b]}
                              note: {type: string}
                            required: [kind, note]
            components:
              schemas:
                Untouched: {type: object, properties: {id: {type: string}}}
                Corrected: {type: object, properties: {id: {type: string}}, required: [id]}
            """
        let loaded = try OpenAPILoader().load(Array(spec.utf8), file: "t.yaml")
        let reply = "#/paths/~1things/get/responses/200/content/application~1json/schema"
        let overlay = SchemaOverlay(corrections: [
            reply: SchemaCorrection(notRequired: ["note"], nullableProperties: ["note"]),
            reply + "/properties/kind": SchemaCorrection(enumValues: ["a", "b", "c"]),
            "#/components/schemas/Corrected": SchemaCorrection(swiftType: "JSONValue", notRequired: ["id"]),
        ])
        let document = overlay.apply(to: loaded)
        XCTAssertEqual(document.diagnostics.filter { $0.kind == .overlayUnmatched }.count, 0)

        let schema = try XCTUnwrap(document.operations[0].responses[0].content[0].schema)
        XCTAssertEqual(schema.required, ["kind"])
        let properties = Dictionary(uniqueKeysWithValues: schema.properties.map { ($0.name, $0.schema) })
        XCTAssertEqual(properties["kind"]?.enumValues, [.string("a"), .string("b"), .string("c")])
        XCTAssertEqual(properties["note"]?.nullable, true)
        XCTAssertEqual(document.schema(named: "Corrected")?.swiftType, "JSONValue")
        XCTAssertEqual(document.schema(named: "Corrected")?.required, [])
        // Only what lies on the way to a correction is copied.
        XCTAssertTrue(document.schema(named: "Untouched") === loaded.schema(named: "Untouched"))
        XCTAssertFalse(document.schema(named: "Corrected") === loaded.schema(named: "Corrected"))
        // The loader's document is unchanged.
        let original = try XCTUnwrap(loaded.operations[0].responses[0].content[0].schema)
        XCTAssertEqual(original.required, ["kind", "note"])
        XCTAssertEqual(original.properties[1].schema.nullable, false)
        XCTAssertNil(loaded.schema(named: "Corrected")?.swiftType)
    }

    /// Every diagnostic kind has one severity; a note is never a departure from the spec.
    func testDiagnosticKindsHaveTheirSeverity() {
        let notes = Diagnostic.Kind.allCases.filter { $0.severity == .note }
        XCTAssertEqual(Set(notes), [.duplicateRequired, .discriminatorWithoutMapping, .nameTaken, .commandUnmatched])
        XCTAssertEqual(Diagnostic.Kind.allCases.count, 16)
        let location = SourceLocation(file: "s.yaml", mark: Mark(line: 3, column: 5), pointer: "#/components/schemas/A")
        XCTAssertEqual(
            "\(Diagnostic(.duplicateRequired, message: "`required` lists id more than once", location: location))",
            "s.yaml:3:5: note: `required` lists id more than once [duplicate-required] at #/components/schemas/A")
        XCTAssertEqual(Diagnostic(.routeFallback, message: "m", location: location).severity, .warning)
    }

    /// An entry of an operation section that does not fit the spec is a warning located in the
    /// overrides file actually used, at `#/<section>/<operationId>`.
    func testOperationEntriesThatDoNotFitAreWarningsInTheFileUsed() throws {
        let spec = """
            openapi: 3.1.0
            info: {title: t, version: 1.0.0}
            paths:
              /things:
                post:
                  operationId: createThing
                  requestBody:
                    content:
                      application/json:
                        schema: {type: object, properties: {name: {type: string}}, required: [name]}
                  responses:
                    '200': {description: ok}
            """
        var overrides = Overrides(bodyDefaults: ["createThing": ["name": "x", "color": "red"]])
        overrides.source = "custom/overrides.json"
        let pipeline = GeneratorPipeline(configuration: GeneratorConfiguration(overrides: overrides))
        let (_, diagnostics) = try pipeline.translate(try pipeline.load(Array(spec.utf8), file: "t.yaml"))
        let entries = diagnostics.filter { $0.kind == .bodyDefault }
        XCTAssertEqual(entries.map(\.location.file), ["custom/overrides.json", "custom/overrides.json"])
        XCTAssertEqual(entries.map(\.location.pointer), ["#/body-defaults/createThing", "#/body-defaults/createThing"])
        XCTAssertEqual(entries.map(\.severity), [.warning, .warning])
        XCTAssertTrue(entries.contains { $0.message.contains("has no member `color`") }, "\(entries)")
        XCTAssertTrue(entries.contains { $0.message.contains("is required; the caller always sets it") }, "\(entries)")
    }

    /// The overlay stage applies every section: what it knows of an operation lands on the
    /// operation (translation reads nothing else), and an entry that matches nothing is an
    /// `overlay-unmatched` warning at its pointer in the overrides file.
    func testTheOverlayStageAppliesEverySectionAndReportsWhatMatchesNothing() throws {
        let spec = """
            openapi: 3.1.0
            info: {title: t, version: 1.0.0}
            paths:
              /things:
                post:
                  operationId: createThing
                  requestBody:
                    content:
                      application/json:
                        schema: {$ref: '#/components/schemas/CreateThing'}
                  responses:
                    '200':
                      description: ok
                      content:
                        application/json:
                          schema: {type: string}
              /things/{id}:
                get:
                  operationId: getThing
                  parameters:
                    - {name: id, in: path, required: true, schema: {type: string}}
                  responses:
                    '200':
                      description: ok
                      content:
                        application/json:
                          schema: {type: string}
            components:
              schemas:
                CreateThing:
                  type: object
                  properties:
                    stream: {type: boolean}
                    format: {type: string}
                    token: {type: string}
                ThingEvent:
                  type: object
                  properties: {type: {type: string}}
            """
        var overrides = Overrides(
            operations: ["createThing": "things.make", "renamedUpstream": "things.gone"],
            streaming: [
                "createThing": (eventSchema: "ThingEvent", framing: "event"),
                "getThing": (eventSchema: "RenamedEvent", framing: "data"),
            ],
            streamEndings: ["createThing": StreamEnding(terminalEvents: ["done"]), "alsoGone": StreamEnding()],
            binaryResponses: ["createThing": ["*/*"]], bodyDefaults: ["createThing": ["format": "base64"]])
        overrides.secretMembers = [
            "#/components/schemas/CreateThing/properties/token", "#/components/schemas/Moved/properties/value",
        ]
        overrides.leadingMembers = ["format"]
        overrides.source = "custom/overrides.json"
        let pipeline = GeneratorPipeline(configuration: GeneratorConfiguration(overrides: overrides))
        let document = try pipeline.load(Array(spec.utf8), file: "t.yaml")

        let overlay = try XCTUnwrap(document.operations.first?.overlay)
        XCTAssertNil(document.operations.last?.overlay.stream, "an event schema the spec lacks is not applied")
        XCTAssertEqual(overlay.methodPath, ["things", "make"])
        XCTAssertEqual(overlay.stream, UndeclaredStream(eventSchema: "ThingEvent", eventNameInEventLine: true))
        XCTAssertEqual(overlay.streamEnding, StreamEnding(terminalEvents: ["done"]))
        XCTAssertEqual(overlay.binaryReplyTypes, ["*/*"])
        XCTAssertEqual(overlay.bodyDefaults, ["format": "base64"])
        XCTAssertEqual(document.secretMembers, ["#/components/schemas/CreateThing/properties/token"])
        XCTAssertEqual(document.leadingMembers, ["format"])
        XCTAssertEqual(document.overlayFile, "custom/overrides.json")

        let unmatched = document.diagnostics.filter { $0.kind == .overlayUnmatched }
        XCTAssertEqual(
            unmatched.map(\.location.pointer),
            [
                "#/secret-members/members", "#/operations/renamedUpstream", "#/streaming/getThing",
                "#/stream-endings/alsoGone",
            ])
        XCTAssertTrue(
            unmatched[0].message.contains("#/components/schemas/Moved/properties/value"), unmatched[0].message)
        XCTAssertTrue(unmatched[2].message.contains("RenamedEvent"), unmatched[2].message)
        XCTAssertEqual(Set(unmatched.map(\.location.file)), ["custom/overrides.json"])
        XCTAssertEqual(Set(unmatched.map(\.severity)), [.warning])

        // Translation takes it all from the document.
        let (model, _) = try pipeline.translate(document)
        let operation = try XCTUnwrap(model.operations.first { $0.operationID == "createThing" })
        XCTAssertEqual(operation.resourcePath + [operation.methodName], ["things", "make"])
        XCTAssertEqual(operation.response, .binary)
        XCTAssertEqual(operation.acceptTypes, ["*/*"])
        XCTAssertEqual(operation.streaming?.framing, .eventNameAndData)
        XCTAssertEqual(operation.streaming?.ending, .terminalEvents(["done"]))
        XCTAssertEqual(operation.bodyDefaults.map(\.wireName), ["format"])
    }
}
