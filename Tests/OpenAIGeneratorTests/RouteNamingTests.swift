import Foundation
import OpenAIGeneratorOpenAPI
import XCTest

@testable import OpenAIGeneratorCore

/// Routes (resource chain + method name) from paths and methods, input → name, and the
/// diagnostic for every name that falls back to an operationId.
final class RouteNamingTests: XCTestCase {
    static func model(_ paths: [(path: String, method: String, operationID: String)]) throws
        -> (calls: [String: String], diagnostics: [Diagnostic])
    {
        var yaml = "openapi: 3.1.0\ninfo:\n  title: Routes\n  version: 1.0.0\npaths:\n"
        for path in Set(paths.map(\.path)).sorted() {
            yaml += "  \(path):\n"
            for entry in paths where entry.path == path {
                yaml += """
                        \(entry.method):
                          operationId: \(entry.operationID)
                          parameters:
                    \(path.contains("{id}") ? "        - {name: id, in: path, required: true, schema: {type: string}}\n" : "")\
                          responses:
                            "200":
                              description: OK
                              content:
                                application/json:
                                  schema: {type: object, properties: {id: {type: string}}}

                    """
            }
        }
        let document = try OpenAPILoader().load(Array(yaml.utf8), file: "routes.yaml")
        let (model, diagnostics) = try Translator().translate(document)
        var calls: [String: String] = [:]
        for operation in model.operations {
            calls[operation.operationID] = (operation.resourcePath + [operation.methodName]).joined(separator: ".")
        }
        return (calls, diagnostics.filter { $0.kind == .routeFallback })
    }

    func testSingletonSubResourcesGetRetrieveAndUpdate() throws {
        let (calls, diagnostics) = try Self.model([
            ("/projects/{id}", "get", "getProject"),
            ("/projects/{id}/spend_limit", "get", "getprojectspendlimit"),
            ("/projects/{id}/spend_limit", "post", "updateprojectspendlimit"),
            ("/projects/{id}/archive", "post", "archiveProject"),
            ("/projects/{id}/usage", "get", "getProjectUsage"),
            // The same shape at the top of a resource: the same verbs.
            ("/organization/spend_limit", "get", "getspendlimit"),
            ("/organization/spend_limit", "post", "updatespendlimit"),
        ])
        XCTAssertEqual(
            calls,
            [
                "getProject": "projects.retrieve",
                "getprojectspendlimit": "projects.spendLimit.retrieve",
                "updateprojectspendlimit": "projects.spendLimit.update",
                "getspendlimit": "organization.spendLimit.retrieve",
                "updatespendlimit": "organization.spendLimit.update",
                // One method on a sub-path stays an action of its parent.
                "archiveProject": "projects.archive",
                "getProjectUsage": "projects.usage",
            ])
        XCTAssertEqual(diagnostics.map(\.message), [])
    }

    func testANameTakenTwiceFallsBackToTheOperationIDWithADiagnostic() throws {
        let (calls, diagnostics) = try Self.model([
            ("/things", "post", "createThing"),
            ("/things?beta=true", "post", "createThingBeta"),
            ("/things?mode=a", "post", "createThingA"),
            ("/things?mode=b", "post", "createThingB"),
        ])
        XCTAssertEqual(calls["createThing"], "things.create")
        XCTAssertEqual(calls["createThingBeta"], "things.createBeta")
        XCTAssertEqual(calls["createThingA"], "things.createMode")
        XCTAssertEqual(calls["createThingB"], "things.createThingB")
        XCTAssertEqual(diagnostics.count, 1)
        XCTAssertTrue(
            diagnostics[0].message.contains("createThingB would be things.createMode"), diagnostics[0].message)
        XCTAssertEqual(diagnostics[0].location.pointer, "#/paths/~1things?mode=b/post")
    }

    func testTheOperationIndexListsEveryOperationWithTheMethodThatCallsIt() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let index = try String(
            contentsOf: root.appendingPathComponent("Sources/OpenAI/Generated/OperationIndex.swift"), encoding: .utf8)
        let lines = index.split(separator: "\n").map(String.init)
        let entries = lines.filter { $0.hasPrefix("//     client.") }
        let routes = lines.filter {
            $0.range(of: #"^// (GET|POST|PUT|PATCH|DELETE) /"#, options: .regularExpression) != nil
        }
        XCTAssertEqual(entries.count, routes.count)
        XCTAssertGreaterThan(entries.count, 200)
        let chat = try XCTUnwrap(lines.firstIndex(of: "// POST /chat/completions"))
        XCTAssertEqual(lines[chat + 1], "//     client.chat.completions.create(_:) [createChatCompletion]")
        let spend = try XCTUnwrap(lines.firstIndex(of: "// GET /organization/projects/{project_id}/spend_limit"))
        XCTAssertTrue(
            lines[spend + 1].hasPrefix("//     client.organization.projects.spendLimit.retrieve(projectID:)"),
            lines[spend + 1])
    }

    /// Paths with no segment of their own (found by the YAML fuzzer: `/` trapped on an index out of
    /// range): their operations belong to the client's `root` resource.
    func testPathsWithoutASegmentOfTheirOwnAreTheRootResource() throws {
        let (calls, notes) = try Self.model([
            ("/", "get", "getRoot"),
            ("/{id}", "get", "getByID"),
            ("/{id}", "delete", "deleteByID"),
            ("/{id}/cancel", "post", "cancelByID"),
            ("/things", "get", "listThings"),
        ])
        XCTAssertEqual(
            calls,
            [
                "getRoot": "root.retrieve", "getByID": "root.getByID", "deleteByID": "root.delete",
                "cancelByID": "root.cancel", "listThings": "things.retrieve",
            ])
        // Two GETs on the root: the second is named by its operationId, with a note.
        XCTAssertEqual(calls["getByID"], "root.getByID")
        XCTAssertEqual(notes.count, 1)
    }
}
