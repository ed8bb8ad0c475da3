import Foundation
import OpenAIGeneratorOpenAPI
import XCTest

@testable import OpenAIGeneratorCore

/// Which module (`OpenAI` or `OpenAIAdmin`) each resource and type is compiled in, and the files
/// that follow from it.
final class ModulePlacementTests: XCTestCase {
    /// Two roots that take only the admin key (`organization`, and `projects` for one operation),
    /// one root that mixes both keys (`mixed`), one project-key root (`files`).
    static let spec = """
        openapi: 3.1.0
        info: {title: Modules, version: 1.0.0}
        security: [{ApiKeyAuth: []}]
        paths:
          /organization/invites:
            get:
              operationId: listInvites
              security: [{AdminApiKeyAuth: []}]
              responses:
                "200":
                  description: OK
                  content:
                    application/json:
                      schema: {$ref: '#/components/schemas/InviteList'}
          /projects/{project_id}/archive:
            post:
              operationId: archiveProject
              security: [{AdminApiKeyAuth: []}]
              parameters:
                - {name: project_id, in: path, required: true, schema: {type: string}}
              responses:
                "200":
                  description: OK
                  content:
                    application/json:
                      schema: {$ref: '#/components/schemas/Owner'}
          /mixed/things:
            get:
              operationId: listThings
              security: [{AdminApiKeyAuth: []}]
              responses:
                "200":
                  description: OK
                  content:
                    application/json:
                      schema: {$ref: '#/components/schemas/Thing'}
            post:
              operationId: createThing
              responses:
                "200":
                  description: OK
                  content:
                    application/json:
                      schema: {type: object, properties: {id: {type: string}}}
          /files:
            get:
              operationId: listFiles
              responses:
                "200":
                  description: OK
                  content:
                    application/json:
                      schema: {$ref: '#/components/schemas/FileList'}
        components:
          securitySchemes:
            ApiKeyAuth: {type: http, scheme: bearer}
            AdminApiKeyAuth: {type: http, scheme: bearer}
          schemas:
            Invite:
              type: object
              properties: {id: {type: string}, owner: {$ref: '#/components/schemas/Owner'}}
            InviteList:
              type: object
              properties: {data: {type: array, items: {$ref: '#/components/schemas/Invite'}}}
            Owner:
              type: object
              properties: {name: {type: string}, email: {type: string}}
            FileList:
              type: object
              properties:
                owner: {$ref: '#/components/schemas/Owner'}
                # The shape of InviteList, which is admin-only: not emitted as it.
                invites:
                  type: object
                  properties: {data: {type: array, items: {$ref: '#/components/schemas/Invite'}}}
            Thing:
              type: object
              properties: {id: {type: string}, label: {type: string}}
            # Reached by no operation, and refers to an admin-reached schema: both stay in OpenAI.
            WebhookInvitePayload:
              type: object
              properties: {invite: {$ref: '#/components/schemas/Invite'}}
        """

    static func generate() throws -> [String: String] {
        let result = try GeneratorPipeline(configuration: GeneratorConfiguration()).run(
            Array(spec.utf8), file: "modules.yaml", sha256: String(repeating: "0", count: 64))
        return Dictionary(uniqueKeysWithValues: result.files.map { ($0.path, $0.contents) })
    }

    /// The top-level type names a file declares.
    static func topLevelTypes(_ contents: String?) -> [String] {
        (contents ?? "").split(separator: "\n").compactMap { line in
            let kinds = ["public struct ", "public enum ", "public indirect enum "]
            guard let kind = kinds.first(where: { line.hasPrefix($0) }) else { return nil }
            return line.dropFirst(kind.count).split(separator: ":")[0].description
        }
    }

    func testAdminRootsAndTheTypesOnlyTheyReachAreInOpenAIAdmin() throws {
        let files = try Self.generate()
        XCTAssertEqual(
            files.keys.filter { $0.hasPrefix("Admin/") }.sorted(),
            [
                "Admin/AdminOperationResponseTypes.swift", "Admin/Resources/OrganizationAPI.swift",
                "Admin/Resources/ProjectsAPI.swift", "Admin/TypeIndex.swift",
                "Admin/Types/Organization/Organization.swift",
            ])
        // InviteList is reached only by an admin operation. So is Invite, but WebhookInvitePayload,
        // which no operation reaches, refers to it: such a schema stays in OpenAI with all it refers
        // to. Owner is reached by operations of both modules.
        XCTAssertEqual(Self.topLevelTypes(files["Admin/Types/Organization/Organization.swift"]), ["InviteList"])
        XCTAssertTrue(
            files["Admin/TypeIndex.swift"]!.contains(
                "// InviteList → Types/Organization/Organization.swift (#/components/schemas/InviteList)\n"))
        let core = files.filter { $0.key.hasPrefix("Types/") }.values.flatMap { Self.topLevelTypes($0) }
        XCTAssertEqual(Set(core), ["FileList", "Invite", "Owner", "Thing", "WebhookInvitePayload"])
        // A root with a project-key operation stays in OpenAI, its admin operation included.
        XCTAssertNotNil(files["Resources/MixedAPI.swift"])
        XCTAssertNotNil(files["Resources/FilesAPI.swift"])
        XCTAssertTrue(files["Resources/MixedAPI.swift"]!.contains("authentication: .adminAPIKey"))
        // An inline schema of an admin-only component's shape stays a nested type in OpenAI.
        let fileList = try XCTUnwrap(files.first { $0.value.contains("public struct FileList:") }?.value)
        XCTAssertTrue(fileList.contains("public var invites: FileList.Invites?"), fileList)
        XCTAssertFalse(fileList.contains("InviteList"))
    }

    func testAdminFilesImportOpenAIAndEachModuleHasItsOwnReplyTable() throws {
        let files = try Self.generate()
        // Every Swift file with declarations (the type index and the manifest are comments only).
        for (path, contents) in files where path.hasPrefix("Admin/") && !path.hasSuffix("TypeIndex.swift") {
            XCTAssertTrue(contents.contains("\nimport Foundation\nimport OpenAI\n"), path)
        }
        for (path, contents) in files where !path.hasPrefix("Admin/") && path.hasSuffix(".swift") {
            XCTAssertFalse(contents.contains("import OpenAI\n"), path)
        }
        let coreTable = try XCTUnwrap(files["OperationResponseTypes.swift"])
        let adminTable = try XCTUnwrap(files["Admin/AdminOperationResponseTypes.swift"])
        XCTAssertTrue(coreTable.contains("case \"listFiles\": return FileList.self"))
        XCTAssertTrue(coreTable.contains("case \"listThings\": return Thing.self"))
        XCTAssertFalse(coreTable.contains("listInvites"))
        XCTAssertTrue(adminTable.contains("enum AdminOperationResponseTypes"))
        XCTAssertTrue(adminTable.contains("case \"listInvites\": return InviteList.self"))
        XCTAssertTrue(adminTable.contains("case \"archiveProject\": return Owner.self"))
        // The manifest lists the admin files: the one output folder holds both modules.
        XCTAssertTrue(files["Manifest.swift"]!.contains("// file: Admin/Resources/OrganizationAPI.swift"))
    }

    func testASpecWithoutAdminOperationsHasNoAdminFolder() throws {
        let spec = Self.spec.replacingOccurrences(of: "security: [{AdminApiKeyAuth: []}]", with: "security: []")
        let result = try GeneratorPipeline(configuration: GeneratorConfiguration()).run(
            Array(spec.utf8), file: "modules.yaml", sha256: String(repeating: "0", count: 64))
        XCTAssertEqual(result.files.filter { $0.path.hasPrefix("Admin/") }.map(\.path), [])
    }
}
