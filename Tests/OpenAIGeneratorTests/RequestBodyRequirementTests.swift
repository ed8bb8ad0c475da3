import Foundation
import OpenAIGeneratorOpenAPI
import XCTest

@testable import OpenAIGeneratorCore

/// A request body is a required parameter when the spec says so or when its schema requires
/// members (issue 45): `create()` must not compile for a body that no empty request satisfies.
final class RequestBodyRequirementTests: XCTestCase {
    private static let spec = """
        openapi: 3.1.0
        info: {title: t, version: '1'}
        paths:
          /needs-members:
            post:
              operationId: needsMembers
              requestBody:
                content:
                  application/json:
                    schema: {$ref: '#/components/schemas/Named'}
              responses: {'200': {description: OK}}
          /all-optional:
            post:
              operationId: allOptional
              requestBody:
                content:
                  application/json:
                    schema: {$ref: '#/components/schemas/Loose'}
              responses: {'200': {description: OK}}
          /flagged:
            post:
              operationId: flagged
              requestBody:
                required: true
                content:
                  application/json:
                    schema: {$ref: '#/components/schemas/Loose'}
              responses: {'200': {description: OK}}
          /through-all-of:
            post:
              operationId: throughAllOf
              requestBody:
                content:
                  application/json:
                    schema:
                      allOf:
                        - {$ref: '#/components/schemas/Loose'}
                        - {type: object, required: [size], properties: {size: {type: integer}}}
              responses: {'200': {description: OK}}
          /one-form-loose:
            post:
              operationId: oneFormLoose
              requestBody:
                content:
                  application/json:
                    schema: {$ref: '#/components/schemas/Named'}
                  multipart/form-data:
                    schema: {$ref: '#/components/schemas/Loose'}
              responses: {'200': {description: OK}}
        components:
          schemas:
            Named:
              type: object
              required: [name]
              properties:
                name: {type: string}
            Loose:
              type: object
              properties:
                note: {type: string}
        """

    private func operations() throws -> [String: OperationDecl] {
        let document = try OpenAPILoader().load(Array(Self.spec.utf8), file: "bodies.yaml")
        let model = try Translator().translate(document).model
        return Dictionary(uniqueKeysWithValues: model.operations.map { ($0.operationID, $0) })
    }

    func testABodyWhoseSchemaRequiresMembersIsRequiredWhateverTheFlag() throws {
        let operations = try operations()
        XCTAssertEqual(operations["needsMembers"]?.bodyRequired, true)
        XCTAssertEqual(operations["throughAllOf"]?.bodyRequired, true)
        XCTAssertEqual(operations["flagged"]?.bodyRequired, true)
        // `{}` satisfies the schema: the body stays optional.
        XCTAssertEqual(operations["allOptional"]?.bodyRequired, false)
        // One media type accepts an empty object, so a caller may still leave the body out.
        XCTAssertEqual(operations["oneFormLoose"]?.bodyRequired, false)
    }

    func testTheMethodTakesTheRequiredBodyWithoutADefault() throws {
        let result = try GeneratorPipeline(configuration: GeneratorConfiguration()).run(
            Array(Self.spec.utf8), file: "bodies.yaml", sha256: "x")
        func method(_ operationID: String) throws -> String {
            let code = result.files.map(\.contents).joined(separator: "\n")
            let remark = try XCTUnwrap(code.range(of: "(operationId `\(operationID)`)"), operationID)
            let end = try XCTUnwrap(code.range(of: "\n    }\n", range: remark.upperBound..<code.endIndex))
            return String(code[remark.upperBound..<end.lowerBound])
        }
        XCTAssertTrue(try method("needsMembers").contains("_ body: Named,\n"))
        XCTAssertTrue(try method("needsMembers").contains("        try request.setJSONBody(body)\n"))
        XCTAssertTrue(try method("throughAllOf").contains("_ body: ThroughAllOfAPI.CreateRequest,\n"))
        XCTAssertTrue(try method("allOptional").contains("_ body: Loose? = nil,\n"))
        XCTAssertTrue(try method("allOptional").contains("if let body { try request.setJSONBody(body) }"))
        XCTAssertTrue(try method("oneFormLoose").contains("_ body: Named? = nil,\n"))
    }

    func testTheDiffReportsABodyMadeRequiredByItsSchema() throws {
        let fixture = DiffSnapshotTests.fixtures.appendingPathComponent("request-body-required-by-schema")
        let forward = try DiffSnapshotTests.report(fixture, reversed: false)
        let change = try XCTUnwrap(forward.changes.first { $0.kind == .requestBodyBecameRequired })
        XCTAssertEqual(change.message, "the request body became required (its schema now requires members)")
        XCTAssertEqual(change.severity, .breaking)
        let backward = try DiffSnapshotTests.report(fixture, reversed: true)
        XCTAssertEqual(
            backward.changes.first { $0.kind == .requestBodyBecameOptional }?.message,
            "the request body became optional (its schema no longer requires members)")
    }
}
