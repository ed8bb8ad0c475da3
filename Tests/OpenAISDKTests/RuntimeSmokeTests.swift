import Foundation
import OpenAISDKTestSupport
import XCTest

@testable import OpenAI
import OpenAIAdmin
@testable import OpenAIRuntime

/// One operation of every tag of the spec (and of the untagged ones) called through the generated
/// client against the test server, which validates the request against the spec and answers with
/// the spec's example (or a synthesised value); the reply must decode.
final class RuntimeSmokeTests: XCTestCase {
    private typealias Call = @Sendable (OpenAIClient) async throws -> Void

    /// Decodes a generated request type from JSON (every generated type is `Codable`).
    private static func body<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(json.utf8))
    }

    /// (tag, operationId, call).
    private static let calls: [(String, String, Call)] = [
        ("(untagged)", "ListContainers", { _ = try await $0.containers.list(limit: 2) }),
        ("Assistants", "listAssistants", { _ = try await $0.assistants.list(limit: 2) }),
        ("Audio", "listVoiceConsents", { _ = try await $0.audio.voiceConsents.list(limit: 2) }),
        ("Audit Logs", "list-audit-logs", { _ = try await $0.organization.auditLogs.list(limit: 2) }),
        ("Batch", "listBatches", { _ = try await $0.batches.list(limit: 2) }),
        ("Certificates", "listOrganizationCertificates", { _ = try await $0.organization.certificates.list(limit: 2) }),
        ("Chat", "listChatCompletions", { _ = try await $0.chat.completions.list(limit: 2) }),
        (
            "Completions", "createCompletion",
            {
                _ = try await $0.completions.create(
                    body(
                        CreateCompletionRequest.self,
                        #"{"model":"gpt-3.5-turbo-instruct","prompt":"Say this is a test"}"#))
            }
        ),
        (
            "Conversations", "listConversationItems",
            { _ = try await $0.conversations.items.list(conversationID: "conv_1", limit: 2) }
        ),
        (
            "Data retention", "retrieve-organization-data-retention",
            { _ = try await $0.organization.dataRetention.retrieve() }
        ),
        (
            "Embeddings", "createEmbedding",
            {
                _ = try await $0.embeddings.create(
                    body(CreateEmbeddingRequest.self, #"{"model":"text-embedding-3-small","input":"hello"}"#))
            }
        ),
        ("Evals", "listEvals", { _ = try await $0.evals.list(limit: 2) }),
        ("Files", "retrieveFile", { _ = try await $0.files.retrieve(fileID: "file-abc123") }),
        ("Fine-tuning", "listPaginatedFineTuningJobs", { _ = try await $0.fineTuning.jobs.list(limit: 2) }),
        (
            "Group organization role assignments", "list-group-role-assignments",
            { _ = try await $0.organization.groups.roles.list(groupID: "group_1", limit: 2) }
        ),
        (
            "Group users", "list-group-users",
            { _ = try await $0.organization.groups.users.list(groupID: "group_1", limit: 2) }
        ),
        ("Groups", "delete-group", { _ = try await $0.organization.groups.delete(groupID: "group_1") }),
        (
            "Hosted tools", "retrieve-project-hosted-tool-permissions",
            { _ = try await $0.organization.projects.hostedToolPermissions.retrieve(projectID: "proj_1") }
        ),
        (
            "Images", "createImage",
            {
                _ = try await $0.images.generations.create(
                    body(CreateImageRequest.self, #"{"prompt":"A cute baby sea otter","model":"dall-e-3"}"#))
            }
        ),
        ("Invites", "list-invites", { _ = try await $0.organization.invites.list(limit: 2) }),
        ("Models", "listModels", { _ = try await $0.models.list() }),
        (
            "Moderations", "createModeration",
            {
                _ = try await $0.moderations.create(
                    body(CreateModerationRequest.self, #"{"input":"I want to kill them."}"#))
            }
        ),
        (
            "Project group role assignments", "list-project-group-role-assignments",
            { _ = try await $0.projects.groups.roles.list(projectID: "proj_1", groupID: "group_1", limit: 2) }
        ),
        (
            "Project groups", "remove-project-group",
            { _ = try await $0.organization.projects.groups.delete(projectID: "proj_1", groupID: "group_1") }
        ),
        (
            "Project user role assignments", "list-project-user-role-assignments",
            { _ = try await $0.projects.users.roles.list(projectID: "proj_1", userID: "user_1", limit: 2) }
        ),
        ("Projects", "list-projects", { _ = try await $0.organization.projects.list(limit: 2) }),
        (
            "Realtime", "create-realtime-client-secret",
            { _ = try await $0.realtime.clientSecrets.create(body(RealtimeCreateClientSecretRequest.self, "{}")) }
        ),
        ("Responses", "getResponse", { _ = try await $0.responses.retrieve(responseID: "resp_1") }),
        ("Roles", "list-roles", { _ = try await $0.organization.roles.list(limit: 2) }),
        ("Skills", "ListSkills", { _ = try await $0.skills.list(limit: 2) }),
        (
            "Spend alerts", "list-project-spend-alerts",
            { _ = try await $0.organization.projects.spendAlerts.list(projectID: "proj_1", limit: 2) }
        ),
        (
            "Uploads", "createUpload",
            {
                _ = try await $0.uploads.create(
                    body(
                        CreateUploadRequest.self,
                        #"{"purpose":"fine-tune","filename":"training_examples.jsonl","bytes":2147483648,"mime_type":"text/jsonl"}"#
                    ))
            }
        ),
        ("Usage", "usage-costs", { _ = try await $0.organization.costs.list(startTime: 1_730_419_200, limit: 2) }),
        (
            "User organization role assignments", "list-user-role-assignments",
            { _ = try await $0.organization.users.roles.list(userID: "user_1", limit: 2) }
        ),
        ("Users", "list-users", { _ = try await $0.organization.users.list(limit: 2) }),
        ("Vector stores", "listVectorStores", { _ = try await $0.vectorStores.list(limit: 2) }),
        ("Videos", "DeleteVideo", { _ = try await $0.videos.delete(videoID: "video_1") }),
    ]

    /// Operations whose spec example does not match the spec's own schema (it lacks required
    /// members: `ListFilesResponse.data[].status`, `CreateModerationResponse...category_scores.illicit`,
    /// `ListVectorStoresResponse.data[].usage_bytes`) answer with recorded real traffic instead.
    private static let fixtures: [String: String] = [
        "retrieveFile": "files/json/dotnet-upload.json",
        "createModeration": "moderations/json/dotnet-text-single.json",
        "listVectorStores": "vector-stores/json/dotnet-list.json",
    ]

    func testOneOperationOfEveryTagValidatesAndDecodes() async throws {
        let server = try TestServer.shared()
        let spec = try String(contentsOf: SharedData.generatedFromSpec(), encoding: .utf8)
        var failures: [String] = []
        var covered: Set<String> = []
        for (tag, operationID, call) in Self.calls {
            let scenario = TestServer.scenario(operationID)
            var headers = ["x-testserver-scenario": scenario]
            if let fixture = Self.fixtures[operationID] {
                _ = try SharedData.file("fixtures/" + fixture)
                headers["x-testserver-fixture"] = fixture
            }
            let client = try server.client(maxRetries: 0, headers: headers)
            do {
                try await call(client)
            } catch {
                failures.append("\(tag) \(operationID): \(error)")
                continue
            }
            let record = try await server.requests(scenario: scenario).first
            if record?.operationID != operationID || record?.validation != "ok" {
                failures.append(
                    "\(tag) \(operationID): server saw \(record?.operationID ?? "-"), validation \(record?.validation ?? "-") \(record?.validationErrors ?? [])"
                )
                continue
            }
            covered.insert(tag)
        }
        XCTAssertEqual(failures, [], failures.joined(separator: "\n"))
        // Every tag the spec puts on an operation is covered (operations' `tags:` lists).
        XCTAssertEqual(covered.subtracting(["(untagged)"]), Self.operationTags(inSpec: spec))
        XCTAssertTrue(covered.contains("(untagged)"))
        XCTAssertEqual(covered.count, 37)
    }

    /// The first tag of each operation in the spec's text: `tags:` lists indented below `paths`.
    private static func operationTags(inSpec spec: String) -> Set<String> {
        var tags: Set<String> = []
        var inTags = false
        var tagsIndent = 0
        for line in spec.split(separator: "\n", omittingEmptySubsequences: false) {
            let indent = line.prefix { $0 == " " }.count
            let text = line.trimmingCharacters(in: .whitespaces)
            if inTags, indent > tagsIndent, text.hasPrefix("- ") {
                tags.insert(String(text.dropFirst(2)).trimmingCharacters(in: CharacterSet(charactersIn: "\"' ")))
                inTags = false  // the first tag names the operation's group
                continue
            }
            inTags = text == "tags:" && indent > 2
            tagsIndent = indent
        }
        return tags
    }

    func testWebhookDeliveryUnwrapsIntoTheGeneratedEvent() throws {
        let vector = try WebhookVector.load()
        let client = try OpenAIClient(configuration: .init(apiKey: "sk-test", webhookSecret: vector.secret))
        let event = try client.webhooks.unwrap(vector.body, headers: vector.headers, now: vector.signedAt)
        guard case .responseCompleted(let completed) = event else {
            return XCTFail("expected response.completed, got \(event)")
        }
        let raw = try JSONDecoder().decode(JSONValue.self, from: vector.body)
        XCTAssertEqual(completed.id, raw["id"]?.stringValue)
        XCTAssertEqual(completed.data.id, raw["data"]?["id"]?.stringValue)
        XCTAssertThrowsError(
            try client.webhooks.unwrap(
                vector.body, headers: vector.headers, now: vector.signedAt.addingTimeInterval(400))
        ) { XCTAssertEqual(($0 as? OpenAIError)?.kind, .webhookVerification) }
        XCTAssertThrowsError(
            try client.webhooks.unwrap(
                vector.body, headers: vector.headers, secret: "whsec_" + Data("nope".utf8).base64EncodedString(),
                now: vector.signedAt)
        ) { XCTAssertEqual(($0 as? OpenAIError)?.kind, .webhookVerification) }
    }
}
