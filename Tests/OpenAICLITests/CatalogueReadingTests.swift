import Foundation
import OpenAICLI
import OpenAIRuntime
import XCTest

/// The tool's reading of the generated catalogue (an `OperationCatalogue`): what it takes from it, and
/// the catalogues it refuses.
final class CatalogueReadingTests: XCTestCase {
    func testTheGeneratedCatalogueGivesCommandsToolNamesAndDestructiveOperations() throws {
        let catalogue = Catalogue.shared
        XCTAssertGreaterThan(catalogue.operations.count, 250)
        let delete = try XCTUnwrap(catalogue.operation(resource: "files", method: "delete"))
        XCTAssertEqual(delete.tool, "files_delete")
        XCTAssertTrue(delete.destructive)
        XCTAssertEqual(delete.httpMethod, "DELETE")
        let list = try XCTUnwrap(catalogue.operation(resource: "files", method: "list"))
        XCTAssertFalse(list.destructive)
        XCTAssertEqual(list.page?.cursor, "after")
        // Every tool name fits MCP's limit and is unique.
        let tools = catalogue.operations.map(\.tool)
        XCTAssertEqual(Set(tools).count, tools.count)
        XCTAssertTrue(tools.allSatisfy { $0.count <= 64 && $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } })
    }

    private static func catalogue(version: Int = 2, parameter: String) -> [UInt8] {
        Array(
            """
            {"version": \(version), "operations": [
            {"admin":false,"command":"things list","destructive":false,"id":"listThings","method":"GET",\
            "official":false,"parameters":[\(parameter)],"path":"/things","reply":"json","tool":"things_list"}
            ]}
            """.utf8)
    }

    func testAParameterIsReadWithItsLocation() throws {
        let parameter = #"{"flag":"limit","in":"query","name":"limit","required":false,"schema":{"type":"integer"}}"#
        let catalogue = try Catalogue(json: Self.catalogue(parameter: parameter))
        let operation = try XCTUnwrap(catalogue.operation(resource: "things", method: "list"))
        XCTAssertEqual(operation.parameters.map(\.location), [.query])
        XCTAssertEqual(operation.parameters.first?.schema.type, "integer")
    }

    func testACatalogueOfAnotherVersionOrWithAParameterWithoutALocationIsRefused() {
        let parameter = #"{"flag":"limit","name":"limit","required":false,"schema":{}}"#
        XCTAssertThrowsError(try Catalogue(json: Self.catalogue(parameter: parameter))) { error in
            XCTAssertEqual("\(error)", "\(CLIError.failure("the parameter limit of listThings has no location"))")
        }
        let located = #"{"flag":"limit","in":"query","name":"limit","required":false,"schema":{}}"#
        XCTAssertThrowsError(try Catalogue(json: Self.catalogue(version: 1, parameter: located))) { error in
            XCTAssertEqual(
                "\(error)", "\(CLIError.failure("the catalogue has format version 1; this tool reads 2"))")
        }
        XCTAssertThrowsError(try Catalogue(json: Array("{\"version\": 2, \"operations\": [".utf8))) { error in
            guard case DecodingError.dataCorrupted(let context) = error else {
                return XCTFail("expected a syntax error, got \(error)")
            }
            XCTAssertTrue(context.underlyingError is OpenAIRuntime.JSONSyntaxError, "\(error)")
        }
    }
}
