import Foundation
import OpenAISDKTestSupport
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

import OpenAIAdmin

@testable import OpenAI
@testable import OpenAIRuntime

/// Runtime behaviours OpenAI's official SDKs have (issue 16): middlewares, logging, derived
/// clients, per-request base URLs, undecoded replies, Azure routing and environment, data
/// residency, and the admin key per operation.
final class RuntimeParityTests: XCTestCase {
    // MARK: Middleware

    /// Appends its name to a header and records what it saw, once per attempt.
    struct TaggingMiddleware: HTTPMiddleware {
        let name: String
        let journal: Locked<[String]>
        var authorization: String?

        func intercept<Reply: HTTPReplyHead>(
            _ request: HTTPRequest, timeouts: HTTPTimeouts,
            next: (HTTPRequest, HTTPTimeouts) async throws -> Reply
        ) async throws -> Reply {
            var request = request
            let chain = request.value(forHeader: "X-Chain").map { $0 + "," } ?? ""
            request.headers["X-Chain"] = chain + name
            if let authorization { request.headers["Authorization"] = authorization }
            journal.withLock { $0.append("\(name) in \(request.value(forHeader: "X-Stainless-Retry-Count") ?? "?")") }
            var reply = try await next(request, timeouts)
            journal.withLock { $0.append("\(name) out \(reply.statusCode)") }
            reply.headers["X-Seen-By-\(name)"] = "yes"
            return reply
        }
    }

    func testTwoMiddlewaresRunInOrderAroundEveryAttemptOfARetriedRequest() async throws {
        let transport = ScriptedTransport { _, index in
            HTTPResponse(statusCode: index == 0 ? 503 : 200, headers: ["x-request-id": "req_\(index)"])
        }
        let journal = Locked<[String]>([])
        let client = try OpenAIClient(
            configuration: .init(
                apiKey: "sk-original",
                middlewares: [
                    TaggingMiddleware(name: "outer", journal: journal),
                    TaggingMiddleware(name: "inner", journal: journal, authorization: "Bearer custom-auth"),
                ]),
            transport: transport, sleeper: RecordingSleeper(), jitter: { 0 })
        let (_, raw) = try await client.withRawResponse { client in
            try await client.sendRaw(
                APIRequest(method: "GET", path: "/models", operationID: "listModels"), options: RequestOptions())
        }
        XCTAssertEqual(
            journal.withLock { $0 },
            [
                "outer in 0", "inner in 0", "inner out 503", "outer out 503",
                "outer in 1", "inner in 1", "inner out 200", "outer out 200",
            ])
        XCTAssertEqual(transport.requests.map { $0.value(forHeader: "X-Chain") }, ["outer,inner", "outer,inner"])
        XCTAssertEqual(
            transport.requests.map { $0.value(forHeader: "Authorization") },
            ["Bearer custom-auth", "Bearer custom-auth"], "an inner middleware replaces the credential")
        XCTAssertEqual(raw.attempts, 2)
        XCTAssertEqual(raw.value(forHeader: "X-Seen-By-outer"), "yes", "a middleware can change the reply")
        XCTAssertEqual(raw.requestID, "req_1")
    }

    func testMiddlewaresSeeStreamedRepliesFromTheTestServer() async throws {
        let server = try TestServer.shared()
        let scenario = TestServer.scenario()
        let journal = Locked<[String]>([])
        let client = try server.client(
            headers: [
                "x-testserver-scenario": scenario, "x-testserver-fail-times": "1", "x-testserver-fail-status": "500",
            ],
            configure: { $0.middlewares = [TaggingMiddleware(name: "only", journal: journal)] },
            sleeper: RecordingSleeper())
        var chunks = 0
        let request = CreateChatCompletionRequest(messages: [.user(.init(content: "Hi"))], model: "gpt-4o-mini")
        for try await _ in try client.chat.completions.createStream(request) { chunks += 1 }
        XCTAssertGreaterThan(chunks, 0)
        XCTAssertEqual(journal.withLock { $0 }, ["only in 0", "only out 500", "only in 1", "only out 200"])
        let records = try await server.requests(scenario: scenario)
        XCTAssertEqual(records.map { $0.headers["x-chain"] }, ["only", "only"])
        XCTAssertEqual(records.last?.validation, "ok")
    }

    // MARK: Logging

    func testTheLoggerSeesEveryAttemptWithStatusRequestIDAndTimingButNoCredential() async throws {
        let transport = ScriptedTransport { _, index in
            HTTPResponse(
                statusCode: index == 0 ? 429 : 200,
                headers: ["x-request-id": "req_\(index)", "set-cookie": "session=sk-cookie-secret"])
        }
        let entries = Locked<[OpenAILogger.Entry]>([])
        let client = try OpenAIClient(
            configuration: .init(
                apiKey: "sk-secret-0123456789",
                logger: OpenAILogger(level: .debug) { entry in entries.withLock { $0.append(entry) } }),
            transport: transport, sleeper: RecordingSleeper(), jitter: { 0 })
        _ = try await client.sendRaw(
            APIRequest(method: "GET", path: "/models", operationID: "listModels"),
            options: RequestOptions(query: [URLQueryItem(name: "api-key", value: "sk-query-secret")]))
        let logged = entries.withLock { $0 }
        XCTAssertEqual(logged.map(\.level), [.warning, .info])
        XCTAssertEqual(logged.map(\.statusCode), [429, 200])
        XCTAssertEqual(logged.map(\.requestID), ["req_0", "req_1"])
        XCTAssertEqual(logged.map(\.attempt), [1, 2])
        XCTAssertEqual(logged.map(\.method), ["GET", "GET"])
        XCTAssertEqual(logged[0].message, "retrying in 0.500 s")
        XCTAssertEqual(logged[1].url, "https://api.openai.com/v1/models?api-key=<redacted>")
        XCTAssertTrue(logged.allSatisfy { $0.duration >= 0 && $0.duration < 30 })
        XCTAssertEqual(logged[1].requestHeaders?["Authorization"], "<redacted>")
        XCTAssertEqual(logged[1].responseHeaders?["set-cookie"], "<redacted>")
        let text = logged.map(\.description).joined(separator: "\n")
        XCTAssertTrue(text.contains("[openai] info GET https://api.openai.com/v1/models"), text)
        for secret in ["sk-secret", "sk-query-secret", "sk-cookie-secret"] {
            XCTAssertFalse(text.contains(secret), "\(secret) in \(text)")
        }
    }

    func testTheLoggerLevelFiltersAndAFailureIsAnError() async throws {
        let transport = ScriptedTransport { _, _ in HTTPResponse(statusCode: 400, headers: ["x-request-id": "req_x"]) }
        let entries = Locked<[OpenAILogger.Entry]>([])
        let client = try OpenAIClient(
            configuration: .init(
                apiKey: "sk-1", logger: OpenAILogger(level: .info) { entry in entries.withLock { $0.append(entry) } }),
            transport: transport, sleeper: RecordingSleeper(), jitter: { 0 })
        do {
            _ = try await client.sendRaw(
                APIRequest(method: "POST", path: "/files", operationID: "createFile"), options: RequestOptions())
            XCTFail("a 400 throws")
        } catch let error as OpenAIError {
            XCTAssertEqual(error.kind, .badRequest)
        }
        let logged = entries.withLock { $0 }
        XCTAssertEqual(logged.map(\.level), [.error])
        XCTAssertEqual(logged.first?.statusCode, 400)
        XCTAssertTrue(logged.first?.message.hasPrefix("failed: badRequest") == true, "\(logged)")
        XCTAssertNil(logged.first?.requestHeaders, "headers only at debug")
    }

    func testAConnectionFailureAndAMiddlewaresOwnErrorAreLoggedAsErrors() async throws {
        struct Refusal: Error {}
        struct Refusing: HTTPMiddleware {
            func intercept<Reply: HTTPReplyHead>(
                _ request: HTTPRequest, timeouts: HTTPTimeouts,
                next: (HTTPRequest, HTTPTimeouts) async throws -> Reply
            ) async throws -> Reply { throw Refusal() }
        }
        let entries = Locked<[OpenAILogger.Entry]>([])
        let logger = OpenAILogger(level: .error) { entry in entries.withLock { $0.append(entry) } }
        let down = ScriptedTransport { _, _ in throw OpenAIError(kind: .connection, message: "refused") }
        let client = try OpenAIClient(
            configuration: .init(apiKey: "sk-1", maxRetries: 0, logger: logger), transport: down,
            sleeper: RecordingSleeper(), jitter: { 0 })
        let request = APIRequest(method: "GET", path: "/models", operationID: "listModels")
        _ = try? await client.sendRaw(request, options: RequestOptions())
        let refusing = try client.withOptions { $0.middlewares = [Refusing()] }
        do {
            _ = try await refusing.sendRaw(request, options: RequestOptions())
            XCTFail("the middleware's error ends the request")
        } catch is Refusal {}
        let logged = entries.withLock { $0 }
        XCTAssertEqual(logged.map(\.statusCode), [nil, nil])
        XCTAssertEqual(logged.map(\.message), ["failed: connection: refused", "failed: Refusal: Refusal()"])
        XCTAssertTrue(logged[0].description.contains("no reply"), logged[0].description)
        XCTAssertEqual(down.requests.count, 1, "the middleware's request never reached the transport")
    }

    func testOpenAILogChoosesTheLevel() {
        func level(_ value: String) -> OpenAILogger.Level? {
            OpenAIClient.Configuration.fromEnvironment(["OPENAI_API_KEY": "sk-1", "OPENAI_LOG": value]).logger?.level
        }
        XCTAssertEqual(level("debug"), .debug)
        XCTAssertEqual(level(" INFO "), .info)
        XCTAssertEqual(level("warn"), .warning)
        XCTAssertEqual(level("error"), .error)
        XCTAssertNil(level("off"))
        XCTAssertNil(level("verbose"))
        XCTAssertNil(OpenAIClient.Configuration.fromEnvironment(["OPENAI_API_KEY": "sk-1"]).logger)
    }

    // MARK: Base URL, default query, derived clients

    func testAPerRequestBaseURLAndTheDefaultQueryShapeTheURL() throws {
        let client = try OpenAIClient(
            configuration: .init(
                apiKey: "sk-1",
                defaultQuery: [URLQueryItem(name: "tenant", value: "a"), URLQueryItem(name: "trace", value: "1")]))
        var request = APIRequest(method: "GET", path: "/models", operationID: "listModels")
        request.query = [URLQueryItem(name: "limit", value: "2")]
        let http = try client.makeHTTPRequest(
            request,
            options: RequestOptions(
                query: [URLQueryItem(name: "trace", value: "2")], baseURL: URL(string: "http://127.0.0.1:9/proxy/v1/")!)
        )
        XCTAssertEqual(http.url.absoluteString, "http://127.0.0.1:9/proxy/v1/models?limit=2&tenant=a&trace=2")
        let plain = try client.makeHTTPRequest(
            APIRequest(method: "GET", path: "/models", operationID: "listModels"), options: RequestOptions())
        XCTAssertEqual(plain.url.absoluteString, "https://api.openai.com/v1/models?tenant=a&trace=1")
        // The operation's own item wins over a default one; Azure's api-version is sent once.
        var azure = OpenAIClient.Configuration.azure(
            endpoint: URL(string: "https://r.openai.azure.com")!, apiVersion: "v1", apiKey: "k")
        azure.defaultQuery = [URLQueryItem(name: "api-version", value: "v2"), URLQueryItem(name: "limit", value: "9")]
        let azureClient = try OpenAIClient(configuration: azure)
        XCTAssertEqual(
            try azureClient.makeHTTPRequest(request, options: RequestOptions()).url.absoluteString,
            "https://r.openai.azure.com/openai/models?limit=2&api-version=v2")
    }

    func testADerivedClientMergesOrReplacesDefaultsAndSharesTheTransport() throws {
        let transport = ScriptedTransport { _, _ in HTTPResponse(statusCode: 200) }
        let client = try OpenAIClient(
            configuration: .init(
                apiKey: "sk-1", maxRetries: 1, defaultHeaders: ["X-Team": "core", "X-Drop": "1"],
                defaultQuery: [URLQueryItem(name: "tenant", value: "a")]),
            transport: transport)
        let merged = try client.withOptions(
            headers: ["x-drop": nil, "X-Extra": "2"], query: [URLQueryItem(name: "tenant", value: "b")]
        ) { $0.maxRetries = 4 }
        XCTAssertTrue(merged.transport as AnyObject === transport, "the transport is shared")
        XCTAssertEqual(merged.configuration.defaultHeaders, ["X-Team": "core", "X-Extra": "2"])
        XCTAssertEqual(merged.configuration.defaultQuery, [URLQueryItem(name: "tenant", value: "b")])
        XCTAssertEqual(merged.configuration.maxRetries, 4)
        XCTAssertEqual(client.configuration.maxRetries, 1, "the original is unchanged")
        XCTAssertEqual(client.configuration.defaultHeaders, ["X-Team": "core", "X-Drop": "1"])
        let replaced = try client.withOptions(
            headers: ["X-Only": "1"], query: [URLQueryItem(name: "q", value: "1")], replacingHeaders: true,
            replacingQuery: true)
        XCTAssertEqual(replaced.configuration.defaultHeaders, ["X-Only": "1"])
        XCTAssertEqual(replaced.configuration.defaultQuery, [URLQueryItem(name: "q", value: "1")])
        XCTAssertThrowsError(try client.withOptions { $0.maxRetries = -1 }) { error in
            XCTAssertEqual((error as? OpenAIError)?.kind, .invalidRequest)
        }
    }

    // MARK: Undecoded replies

    func testAnUndecodedReplyKeepsTheBytesAndDecodesLater() async throws {
        let body = Data(#"{"object":"list","data":[{"id":"gpt-x","object":"model","created":1,"owned_by":"me"}]}"#.utf8)
        let transport = ScriptedTransport { _, _ in
            HTTPResponse(
                statusCode: 200, headers: ["x-request-id": "req_models", "Content-Type": "application/json"], body: body
            )
        }
        let client = try OpenAIClient(configuration: .init(apiKey: "sk-1"), transport: transport)
        let reply = try await client.withUndecodedResponse { try await $0.models.list() }
        XCTAssertEqual(reply.body, body)
        XCTAssertEqual(reply.response.requestID, "req_models")
        XCTAssertEqual(reply.response.statusCode, 200)
        XCTAssertEqual(try reply.decode().data.map(\.id), ["gpt-x"])
        struct OnlyObject: Decodable { var object: String }
        XCTAssertEqual(try reply.decode(as: OnlyObject.self).object, "list")
        struct Wrong: Decodable { var missing: Int }
        XCTAssertThrowsError(try reply.decode(as: Wrong.self)) { error in
            XCTAssertEqual((error as? OpenAIError)?.kind, .decoding)
        }
        XCTAssertEqual(transport.requests.count, 1)
        // The call stops at its first reply: a second request in the closure is never sent.
        let first = try await client.withUndecodedResponse { client async throws -> ListModelsResponse in
            _ = try await client.models.list()
            return try await client.models.list()
        }
        XCTAssertEqual(first.body, body)
        XCTAssertEqual(transport.requests.count, 2)
        // A helper that turns the signal into its own error still returns the reply.
        struct Wrapped: Error {}
        let wrapped = try await client.withUndecodedResponse { client async throws -> ListModelsResponse in
            do { return try await client.models.list() } catch { throw Wrapped() }
        }
        XCTAssertEqual(wrapped.response.requestID, "req_models")
        // A call that sends no JSON request says so.
        do {
            _ = try await client.withUndecodedResponse { _ in 1 }
            XCTFail("no request")
        } catch let error as OpenAIError {
            XCTAssertEqual(error.kind, .invalidRequest)
        }
    }

    func testOnlyTheClientHandedToTheCallRecordsAndClientsDerivedFromItToo() async throws {
        let transport = ScriptedTransport { request, _ in
            HTTPResponse(
                statusCode: 200, headers: ["x-request-id": "req_\(request.url.lastPathComponent)"],
                body: Data(#"{"object":"list","data":[]}"#.utf8))
        }
        let client = try OpenAIClient(configuration: .init(apiKey: "sk-1"), transport: transport)
        // A request on the outer client inside the call is not recorded: no task-wide side channel.
        do {
            _ = try await client.withRawResponse { _ in try await client.models.list() }
            XCTFail("the outer client's request was recorded")
        } catch let error as OpenAIError {
            XCTAssertEqual(error.kind, .invalidRequest)
            XCTAssertTrue(error.message.contains("sent no request"), error.message)
        }
        // A client derived from the recording one records; the last reply wins.
        let (_, raw) = try await client.withRawResponse { recording in
            _ = try await recording.models.list()
            return try await recording.withOptions(headers: ["X-Trace": "on"]).files.list()
        }
        XCTAssertEqual(raw.requestID, "req_files")
        XCTAssertEqual(transport.requests.last?.headers["X-Trace"], "on")
        // Undecoded: the outer client's request decodes as usual, and the call still needs its own.
        do {
            _ = try await client.withUndecodedResponse { _ in try await client.models.list() }
            XCTFail("the outer client's reply was kept")
        } catch let error as OpenAIError {
            XCTAssertEqual(error.kind, .invalidRequest)
        }
        XCTAssertEqual(transport.requests.count, 4)
        // A recording client kept past its call is an ordinary client: it decodes, and records nothing.
        var kept: OpenAIClient?
        _ = try await client.withUndecodedResponse { recording in
            kept = recording
            return try await recording.models.list()
        }
        let later = try await XCTUnwrap(kept).models.list()
        XCTAssertEqual(later.data.count, 0)
        XCTAssertEqual(transport.requests.count, 6)
    }

    func testAnUndecodedReplyOfTheTestServerDecodesToTheGeneratedType() async throws {
        let server = try TestServer.shared()
        let scenario = TestServer.scenario()
        let client = try server.client(headers: ["x-testserver-scenario": scenario])
        let reply = try await client.withUndecodedResponse { try await $0.files.list() }
        let page = try reply.decode()
        let raw = try JSONDecoder().decode(JSONValue.self, from: reply.body)
        XCTAssertEqual(page.data.count, raw["data"]?.arrayValue?.count)
        XCTAssertNotNil(reply.response.requestID)
        let records = try await server.requests(scenario: scenario)
        XCTAssertEqual(records.count, 1)
    }

    // MARK: Admin key per operation

    func testAnAdminOperationSendsTheAdminKeyAndARegularOneTheAPIKey() async throws {
        let server = try TestServer.shared()
        let scenario = TestServer.scenario()
        let client = try server.client(
            apiKey: "sk-test-regular", headers: ["x-testserver-scenario": scenario],
            configure: { $0.adminAPIKey = "sk-admin-test" })
        _ = try await client.organization.adminAPIKeys.list()
        _ = try await client.models.list()
        let records = try await server.requests(scenario: scenario)
        XCTAssertEqual(records.map(\.operationID), ["admin-api-keys-list", "listModels"])
        XCTAssertEqual(records.map { $0.headers["authorization"] }, ["Bearer sk-admin-test", "Bearer sk-test-regular"])
        XCTAssertTrue(records.allSatisfy { $0.validation == "ok" }, "\(records.map(\.validationErrors))")
    }

    // MARK: Azure

    func testAzureRoutesMultipartAndBatchesToTheDeployment() async throws {
        let transport = ScriptedTransport { _, _ in
            HTTPResponse(
                statusCode: 200, headers: ["Content-Type": "application/json"], body: Data(#"{"text":"hi"}"#.utf8))
        }
        let azure = try OpenAIClient(
            configuration: .azure(
                endpoint: URL(string: "https://r.openai.azure.com")!, apiVersion: "2025-04-01", apiKey: "az-key"),
            transport: transport)
        _ = try await azure.audio.transcriptions.create(
            .init(file: FileUpload(data: Data([1, 2, 3]), filename: "a.mp3"), model: "whisper-dep"))
        XCTAssertEqual(
            transport.requests.last?.url.absoluteString,
            "https://r.openai.azure.com/openai/deployments/whisper-dep/audio/transcriptions?api-version=2025-04-01")
        XCTAssertEqual(transport.requests.last?.value(forHeader: "api-key"), "az-key")

        // `/batches` has no `model`: it moves only with a configured deployment.
        var batch = APIRequest(method: "POST", path: "/batches", operationID: "createBatch")
        try batch.setJSONBody(["input_file_id": "file-1"])
        XCTAssertEqual(
            try azure.makeHTTPRequest(batch, options: RequestOptions()).url.absoluteString,
            "https://r.openai.azure.com/openai/batches?api-version=2025-04-01")
        let deployed = try OpenAIClient(
            configuration: .azure(
                endpoint: URL(string: "https://r.openai.azure.com")!, apiVersion: "v", deployment: "batch-dep",
                apiKey: "k"))
        XCTAssertEqual(
            try deployed.makeHTTPRequest(batch, options: RequestOptions()).url.absoluteString,
            "https://r.openai.azure.com/openai/deployments/batch-dep/batches?api-version=v")
        // A GET of the same path and a base URL that already names a deployment stay as they are.
        XCTAssertEqual(
            try deployed.makeHTTPRequest(
                APIRequest(method: "GET", path: "/batches", operationID: "listBatches"), options: RequestOptions()
            ).url.absoluteString, "https://r.openai.azure.com/openai/batches?api-version=v")
        var pinned = OpenAIClient.Configuration.azure(
            endpoint: URL(string: "https://r.openai.azure.com")!, apiVersion: "v", deployment: "x", apiKey: "k")
        pinned.baseURL = URL(string: "https://r.openai.azure.com/openai/deployments/fixed")!
        XCTAssertEqual(
            try OpenAIClient(configuration: pinned).makeHTTPRequest(batch, options: RequestOptions()).url
                .absoluteString,
            "https://r.openai.azure.com/openai/deployments/fixed/batches?api-version=v")
    }

    func testAzureReadsItsEnvironmentAndRejectsAKeyWithATokenProvider() throws {
        let environment = [
            "AZURE_OPENAI_ENDPOINT": "https://env.openai.azure.com/", "OPENAI_API_VERSION": " 2024-10-21 ",
            "AZURE_OPENAI_API_KEY": "az-env-key", "OPENAI_LOG": "info",
        ]
        let configuration = try OpenAIClient.Configuration.azureFromEnvironment(environment: environment)
        XCTAssertEqual(configuration.baseURL.absoluteString, "https://env.openai.azure.com/openai")
        XCTAssertEqual(configuration.azure?.apiVersion, "2024-10-21")
        XCTAssertEqual(configuration.apiKey, "az-env-key")
        XCTAssertEqual(configuration.logger?.level, .info)
        var proxied = environment
        proxied["OPENAI_BASE_URL"] = "https://proxy.example/azure"
        XCTAssertEqual(
            try OpenAIClient.Configuration.azureFromEnvironment(environment: proxied).baseURL.absoluteString,
            "https://proxy.example/azure")
        for missing in ["OPENAI_API_VERSION", "AZURE_OPENAI_ENDPOINT"] {
            var partial = environment
            partial[missing] = nil
            XCTAssertThrowsError(try OpenAIClient.Configuration.azureFromEnvironment(environment: partial)) { error in
                XCTAssertTrue((error as? OpenAIError)?.message.contains(missing) == true, "\(error)")
            }
        }
        let both = try OpenAIClient.Configuration.azureFromEnvironment(
            tokenProvider: { "entra-token" }, environment: environment)
        XCTAssertThrowsError(try OpenAIClient(configuration: both)) { error in
            XCTAssertEqual((error as? OpenAIError)?.kind, .invalidRequest)
            XCTAssertTrue((error as? OpenAIError)?.message.contains("not both") == true)
        }
    }

    // MARK: Data residency

    func testDataResidencyChoosesTheRegionalBaseURLAndExcludesABaseURL() throws {
        let client = try OpenAIClient(configuration: .init(apiKey: "sk-1", dataResidency: .europe))
        XCTAssertEqual(client.configuration.baseURL.absoluteString, "https://eu.api.openai.com/v1")
        XCTAssertEqual(
            try client.makeHTTPRequest(
                APIRequest(method: "GET", path: "/models", operationID: "listModels"), options: RequestOptions()
            ).url.absoluteString, "https://eu.api.openai.com/v1/models")
        let moved = try client.withOptions { $0.dataResidency = .japan }
        XCTAssertEqual(moved.configuration.baseURL.absoluteString, "https://jp.api.openai.com/v1")
        let global = try client.withOptions { $0.dataResidency = nil }
        XCTAssertEqual(global.configuration.baseURL, OpenAIClient.Configuration.defaultBaseURL)
        // A base URL the caller chose is never replaced by a region: the two stay exclusive.
        let proxied = try OpenAIClient(
            configuration: .init(apiKey: "sk-1", baseURL: URL(string: "https://proxy.example/v1")!))
        XCTAssertThrowsError(try proxied.withOptions { $0.dataResidency = .europe }) { error in
            XCTAssertEqual((error as? OpenAIError)?.kind, .invalidRequest)
        }
        XCTAssertEqual(
            [.unitedStates, .australia, .canada, .india, .singapore, .southKorea, .unitedKingdom, .unitedArabEmirates]
                .map { (region: OpenAIClient.Configuration.DataResidency) in region.baseURL?.host ?? "-" },
            [
                "us.api.openai.com", "au.api.openai.com", "ca.api.openai.com", "in.api.openai.com",
                "sg.api.openai.com", "kr.api.openai.com", "gb.api.openai.com", "ae.api.openai.com",
            ])
        XCTAssertThrowsError(
            try OpenAIClient(
                configuration: .init(
                    apiKey: "sk-1", baseURL: URL(string: "https://proxy.example/v1")!, dataResidency: .europe))
        ) { error in
            XCTAssertEqual((error as? OpenAIError)?.kind, .invalidRequest)
        }
        XCTAssertThrowsError(
            try OpenAIClient(configuration: .init(apiKey: "sk-1", dataResidency: .init(rawValue: "eu/../x"))))
    }
}

/// `OPENAI_TEST_SERVER_URL`: the integration tests against a server that is already running.
final class ExternalTestServerTests: XCTestCase {
    func testTheTestServerURLOverrideIsReadStrictly() throws {
        XCTAssertNil(try TestServer.external([:]))
        XCTAssertNil(try TestServer.external(["OPENAI_TEST_SERVER_URL": ""]))
        let plain = try XCTUnwrap(TestServer.external(["OPENAI_TEST_SERVER_URL": "http://127.0.0.1:8000/"]))
        XCTAssertEqual(plain.root.absoluteString, "http://127.0.0.1:8000")
        XCTAssertEqual(plain.second.absoluteString, "http://localhost:8000", "another origin on the same port")
        let both = try XCTUnwrap(
            TestServer.external([
                "OPENAI_TEST_SERVER_URL": "https://mock.internal:9443",
                "OPENAI_TEST_SERVER_SECOND_URL": "https://mock-2.internal:9443",
            ]))
        XCTAssertEqual(both.second.absoluteString, "https://mock-2.internal:9443")
        for bad in ["127.0.0.1:8000", "ftp://x", "http://"] {
            XCTAssertThrowsError(try TestServer.external(["OPENAI_TEST_SERVER_URL": bad]), bad) { error in
                XCTAssertTrue(error is TestServer.ExternalServerError, "\(error)")
            }
        }
    }
}
