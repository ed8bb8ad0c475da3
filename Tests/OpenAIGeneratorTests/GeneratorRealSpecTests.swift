import Foundation
import OpenAIGeneratorOpenAPI
import XCTest
import OpenAIYAML
import OpenAISDKTestSupport

@testable import OpenAIGeneratorCore

/// The generator on the locked spec: every operation gets a method, every component schema a
/// type, and the spec's defects come out as warnings.
final class GeneratorRealSpecTests: XCTestCase {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static func lockedSpec() throws -> (bytes: [UInt8], path: String) {
        let url = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/spec/openapi.yaml")
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw Unavailable.skip("../shared/spec/openapi.yaml is missing beside the package root")
        }
        return ([UInt8](data), url.path)
    }

    func testEveryOperationHasAMethodAndEverySchemaAType() throws {
        let (bytes, path) = try Self.lockedSpec()
        // Counted from the YAML itself, independently of the OpenAPI loader.
        let root = try YAMLParser().parse(bytes, file: path).root
        let methods: Set<String> = ["get", "put", "post", "delete", "patch", "head", "options", "trace"]
        let specOperations = (root["paths"]?.mapping ?? []).flatMap { path in
            (path.value.mapping ?? []).filter { methods.contains($0.key) }.compactMap {
                $0.value["operationId"]?.scalarText
            }
        }
        let specSchemas = (root["components"]?["schemas"]?.mapping ?? []).map(\.key)
        XCTAssertEqual(specOperations.count, 288)
        XCTAssertEqual(specSchemas.count, 1422)

        let document = try OpenAPILoader().load(bytes, file: path)
        let (model, _) = try Translator().translate(document)
        let withMethod = Set(model.operations.map(\.operationID))
        XCTAssertEqual(withMethod, Set(specOperations), "operations without a method")
        let calls = Set(model.operations.map { ($0.resourcePath + [$0.methodName]).joined(separator: ".") })
        XCTAssertEqual(calls.count, 288, "two operations share a call path")
        let typed = Set(model.declarations.compactMap(\.schemaName))
        XCTAssertEqual(Set(specSchemas).subtracting(typed), [], "schemas without a type")

        // Call sites follow the URL path, as in OpenAI's own SDKs.
        func call(_ operationID: String) -> String? {
            model.operations.first { $0.operationID == operationID }.map {
                ($0.resourcePath + [$0.methodName]).joined(separator: ".")
            }
        }
        XCTAssertEqual(call("createChatCompletion"), "chat.completions.create")
        XCTAssertEqual(call("listVectorStoreFiles"), "vectorStores.files.list")
        XCTAssertEqual(call("cancelRun"), "threads.runs.cancel")
        XCTAssertEqual(call("retrieveFile"), "files.retrieve")
        XCTAssertEqual(call("beta_createResponse"), "responses.createBeta")
    }

    func testSpecDefectsAreWarningsNamingSchemaAndProperty() throws {
        let (bytes, path) = try Self.lockedSpec()
        let result = try GeneratorPipeline(configuration: GeneratorConfiguration()).run(
            bytes, file: path, sha256: "test")
        let messages = result.diagnostics.map { "\($0.kind.rawValue) \($0.location.pointer) \($0.message)" }
        XCTAssertTrue(
            messages.contains {
                $0.hasPrefix("required-undeclared #/components/schemas/ResponseAudioDoneEvent ")
                    && $0.contains("response_id")
            }, "no warning for ResponseAudioDoneEvent.response_id")
        XCTAssertTrue(
            messages.contains {
                $0.hasPrefix("duplicate-required #/components/schemas/ContainerResource ") && $0.contains("name")
            })
        XCTAssertTrue(
            messages.contains {
                $0.hasPrefix("discriminator-without-mapping #/components/schemas/ChatCompletionRequestMessage ")
            })
        XCTAssertTrue(result.diagnostics.allSatisfy { $0.location.mark.line > 0 })
        XCTAssertEqual(result.operationCount, 288)
    }

    /// The spec's `Beta…` repeats of other schemas are `typealias`es of them; those that differ
    /// (an `agent` member more, a reference to one that differs) stay types of their own.
    func testBetaRepeatsOfTheLockedSpecAreAliases() throws {
        let (bytes, path) = try Self.lockedSpec()
        let document = try OpenAPILoader().load(bytes, file: path)
        let (model, _) = try Translator().translate(document)
        var aliases: [String: String] = [:]
        var types: Set<String> = []
        for top in model.declarations where top.resourceType == nil {
            if case .alias(let decl) = top.declaration, case .named(let target) = decl.target {
                aliases[decl.name] = target
            } else {
                types.insert(top.declaration.name)
            }
        }
        let betaAliases = aliases.filter { $0.key.hasPrefix("Beta") && $0.value == String($0.key.dropFirst(4)) }
        XCTAssertGreaterThanOrEqual(betaAliases.count, 200, "Beta repeats emitted as aliases")
        // Every alias names a declared type, never another Beta repeat.
        for (alias, target) in betaAliases {
            XCTAssertTrue(types.contains(target), "\(alias) = \(target)")
            XCTAssertFalse(target.hasPrefix("Beta"), "\(alias) = \(target)")
        }
        XCTAssertEqual(aliases["BetaResponseUsage"], "ResponseUsage")
        XCTAssertEqual(aliases["BetaCodeInterpreterTool"], "CodeInterpreterTool")
        XCTAssertEqual(aliases["BetaMetadata"], "Metadata")
        // `agent` is a member only the Beta schema has.
        XCTAssertTrue(types.contains("BetaResponseCreatedEvent"))
        XCTAssertTrue(types.contains("BetaResponse"))
    }
}
