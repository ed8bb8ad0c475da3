import Foundation
import OpenAISDKTestSupport
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@testable import OpenAI
@testable import OpenAIRuntime

/// Configuration, request building, secrets, retries through a scripted transport, and the
/// cryptography of webhook signatures: everything of the runtime that needs no server.
final class RuntimeClientTests: XCTestCase {
    private let secretKey = "sk-proj-SECRETSECRETSECRET1234567890"

    // MARK: Configuration

    func testEnvironmentValuesAreTrimmedAndEmptyMeansUnset() {
        let configuration = OpenAIClient.Configuration.fromEnvironment([
            "OPENAI_API_KEY": "  sk-env \n", "OPENAI_ORG_ID": "", "OPENAI_PROJECT_ID": " proj_1 ",
            "OPENAI_BASE_URL": "http://localhost:9/v1/", "OPENAI_WEBHOOK_SECRET": "whsec_abc",
            "OPENAI_ADMIN_KEY": "sk-admin",
        ])
        XCTAssertEqual(configuration.apiKey, "sk-env")
        XCTAssertNil(configuration.organization)
        XCTAssertEqual(configuration.project, "proj_1")
        XCTAssertEqual(configuration.baseURL.absoluteString, "http://localhost:9/v1/")
        XCTAssertEqual(configuration.webhookSecret, "whsec_abc")
        XCTAssertEqual(configuration.adminAPIKey, "sk-admin")
        XCTAssertEqual(configuration.timeout, 600)
        XCTAssertEqual(configuration.maxRetries, 2)
        XCTAssertEqual(
            OpenAIClient.Configuration.fromEnvironment([:]).baseURL.absoluteString, "https://api.openai.com/v1")
    }

    func testNoCredentialFailsAtConstructionWithAClearMessage() {
        XCTAssertThrowsError(try OpenAIClient(configuration: .init())) { error in
            let error = error as? OpenAIError
            XCTAssertEqual(error?.kind, .invalidRequest)
            XCTAssertTrue(error?.message.contains("OPENAI_API_KEY") ?? false)
        }
        XCTAssertNoThrow(try OpenAIClient(configuration: .init(apiKeyProvider: { "sk-late" })))
    }

    func testNoDescriptionDebugDescriptionOrDumpShowsTheKey() throws {
        let configuration = OpenAIClient.Configuration(
            apiKey: secretKey, adminAPIKey: secretKey + "admin", organization: "org-1",
            webhookSecret: "whsec_" + secretKey, defaultHeaders: ["Authorization": "Bearer " + secretKey])
        let client = try OpenAIClient(configuration: configuration)
        let request = try client.makeHTTPRequest(
            APIRequest(method: "GET", path: "/models", operationID: "listModels"), options: RequestOptions())
        XCTAssertEqual(request.headers["Authorization"], "Bearer " + secretKey, "the key is sent")
        let error = OpenAIError.fromResponse(
            HTTPResponse(
                statusCode: 401, headers: ["x-request-id": "req_1", "Set-Cookie": "s=1"],
                body: Data(#"{"error":{"message":"Incorrect API key provided: sk-proj-****7890."}}"#.utf8)))
        var texts: [String] = []
        for value in [client, configuration, request, error] as [Any] {
            texts.append(String(describing: value))
            texts.append(String(reflecting: value))
            var dumped = ""
            dump(value, to: &dumped)
            texts.append(dumped)
        }
        for text in texts {
            XCTAssertFalse(text.contains("SECRETSECRET"), "a key leaked into: \(text)")
        }
        XCTAssertTrue(String(describing: configuration).contains("apiKey: <redacted>"))
        XCTAssertTrue(String(describing: request).contains("<redacted>"))
    }

    // MARK: Request building

    func testQueryArraysObjectsAndNamesThatAlreadyEndInBrackets() throws {
        var request = APIRequest(method: "GET", path: "/x", operationID: "x")
        try request.addQuery("include", ["a", "b"])
        try request.addQuery("include[]", ["step_details.tool_calls[*].file_search.results[*].content"])
        try request.addQuery("metadata", ["k": "v", "a": "b"])
        try request.addQuery("limit", 3)
        try request.addQuery("flag", true)
        try request.addQuery("absent", String?.none)
        XCTAssertEqual(
            request.query.map { "\($0.name)=\($0.value ?? "")" },
            [
                "include[]=a", "include[]=b", "include[]=step_details.tool_calls[*].file_search.results[*].content",
                "metadata[a]=b", "metadata[k]=v", "limit=3", "flag=true",
            ])
    }

    func testPathParametersArePercentEncodedAndEmptyOnesRejected() throws {
        var request = APIRequest(method: "GET", path: "/files/{file_id}/content", operationID: "downloadFile")
        try request.setPathParameter("file_id", "a b/c?d#é")
        XCTAssertEqual(request.path, "/files/a%20b%2Fc%3Fd%23%C3%A9/content")
        var empty = APIRequest(method: "GET", path: "/files/{file_id}", operationID: "retrieveFile")
        XCTAssertThrowsError(try empty.setPathParameter("file_id", "")) { error in
            XCTAssertEqual((error as? OpenAIError)?.kind, .invalidRequest)
        }
    }

    func testHeadersOptionsAndQueryItemsApplyInOrder() throws {
        let client = try OpenAIClient(
            configuration: .init(
                apiKey: "sk-1", organization: "org-1", baseURL: URL(string: "http://h/v1/")!,
                defaultHeaders: ["X-Default": "d"]))
        var request = APIRequest(method: "POST", path: "/chat/completions", operationID: "createChatCompletion")
        try request.setJSONBody(["model": "gpt-4o"])
        let options = RequestOptions(
            headers: ["x-default": "override", "OpenAI-Organization": nil],
            query: [URLQueryItem(name: "q", value: "a+b")],
            extraBody: ["store": .null], idempotencyKey: "idem-1")
        let http = try client.makeHTTPRequest(request, options: options)
        XCTAssertEqual(http.url.absoluteString, "http://h/v1/chat/completions?q=a%2Bb")
        XCTAssertEqual(http.value(forHeader: "x-default"), "override")
        XCTAssertNil(http.value(forHeader: "OpenAI-Organization"), "a nil option removes the header")
        XCTAssertNil(http.value(forHeader: "OpenAI-Project"), "unset project sends no header")
        XCTAssertEqual(http.value(forHeader: "Idempotency-Key"), "idem-1")
        XCTAssertEqual(http.value(forHeader: "User-Agent"), OpenAIClient.userAgent)
        XCTAssertEqual(OpenAIClient.userAgent, "OpenAI/Swift \(OpenAIClient.sdkVersion)")
        guard case .data(let body)? = http.body else { return XCTFail("expected a data body") }
        XCTAssertEqual(try JSONDecoder().decode(JSONValue.self, from: body), ["model": "gpt-4o", "store": nil])
    }

    func testADefaultHeaderInAnySpellingReplacesTheHeaderTheSDKSetsForEachRequest() throws {
        let client = try OpenAIClient(
            configuration: .init(
                apiKey: "sk-1", project: "proj-1",
                defaultHeaders: [
                    "accept": "text/plain", "AUTHORIZATION": "Bearer gateway", "idempotency-key": "fixed",
                    "openai-project": "proj-2", "User-agent": "mine",
                ]))
        var request = APIRequest(method: "POST", path: "/chat/completions", operationID: "createChatCompletion")
        try request.setJSONBody(["model": "gpt-4o"])
        request.headers["X-Operation"] = "op"
        for _ in 0..<2 {
            let http = try client.makeHTTPRequest(request, options: RequestOptions(idempotencyKey: "idem-1"))
            let names = http.headers.keys.map { $0.lowercased() }
            XCTAssertEqual(names.count, Set(names).count, "one spelling of each name: \(http.headers.keys.sorted())")
            XCTAssertEqual(http.headers["accept"], "text/plain")
            XCTAssertEqual(http.headers["AUTHORIZATION"], "Bearer gateway")
            XCTAssertEqual(http.headers["idempotency-key"], "fixed")
            XCTAssertEqual(http.headers["openai-project"], "proj-2")
            XCTAssertEqual(http.headers["User-agent"], "mine")
            XCTAssertEqual(http.headers["Content-Type"], "application/json")
            XCTAssertEqual(http.headers["X-Operation"], "op")
            XCTAssertEqual(http.headers["X-Stainless-Lang"], "swift")
        }
    }

    func testHeaderNamesCompareWithoutRegardToCaseAsLowercasingDoes() {
        for (a, b) in [
            ("Content-Type", "content-type"), ("X-API-KEY", "x-api-key"), ("", ""), ("\u{212A}ey", "key"),
            ("Stra\u{DF}e", "STRA\u{DF}E"), ("a", "ab"), ("ab", "a"), ("a-b", "a_b"), ("@", "`"), ("[", "{"),
            ("Z", "z"), ("\u{C9}", "\u{E9}"), ("x\u{212A}", "xl"),
        ] {
            XCTAssertEqual(HTTPHeaders.sameName(a, b), a.lowercased() == b.lowercased(), "\(a) vs \(b)")
        }
    }

    func testTheTransportSetsHeaderFieldsAsURLRequestsSetValueWould() throws {
        let url = URL(string: "http://h/v1/models")!
        for headers in [
            [:], ["Authorization": "Bearer sk-1", "x-stainless-os": "Linux", "OpenAI-Project": "p", "accept": "*/*"],
            ["X-Same": "1", "x-same": "2", "X-SAME": "3"], ["X-Split": "a\r\nb"], ["X-Fold": "a\r\n b"],
            ["X-Nul": "a\u{0}b"], ["X-\u{C9}t\u{E9}": "v"], ["x-api-key": ""],
        ] as [[String: String]] {
            var expected = URLRequest(url: url)
            for (name, value) in headers { expected.setValue(value, forHTTPHeaderField: name) }
            var built = URLRequest(url: url)
            URLRequestHeaderFields.set(headers, on: &built)
            XCTAssertEqual(built.allHTTPHeaderFields, expected.allHTTPHeaderFields, "\(headers)")
        }
    }

    func testAzureUsesDeploymentPathAPIVersionAndAPIKeyHeader() throws {
        let client = try OpenAIClient(
            configuration: .azure(
                endpoint: URL(string: "https://example.openai.azure.com/")!, apiVersion: "2024-10-21", apiKey: "az-key")
        )
        var chat = APIRequest(method: "POST", path: "/chat/completions", operationID: "createChatCompletion")
        try chat.setJSONBody(["model": "my-gpt4o"])
        let http = try client.makeHTTPRequest(chat, options: RequestOptions())
        XCTAssertEqual(
            http.url.absoluteString,
            "https://example.openai.azure.com/openai/deployments/my-gpt4o/chat/completions?api-version=2024-10-21")
        XCTAssertEqual(http.value(forHeader: "api-key"), "az-key")
        XCTAssertNil(http.value(forHeader: "Authorization"))
        let files = try client.makeHTTPRequest(
            APIRequest(method: "GET", path: "/files", operationID: "listFiles"), options: RequestOptions())
        XCTAssertEqual(files.url.absoluteString, "https://example.openai.azure.com/openai/files?api-version=2024-10-21")
    }

    func testAzureTokenProviderIsCalledBeforeEveryAttemptAsBearer() async throws {
        let counter = Locked(0)
        let transport = ScriptedTransport { request, index in
            HTTPResponse(statusCode: index == 0 ? 500 : 200, headers: [:], body: Data("{}".utf8))
        }
        let configuration = OpenAIClient.Configuration.azure(
            endpoint: URL(string: "https://e.openai.azure.com")!, apiVersion: "v", deployment: "dep",
            tokenProvider: { "token-\(counter.withLock { value -> Int in value += 1; return value })" })
        let client = try OpenAIClient(
            configuration: configuration, transport: transport, sleeper: RecordingSleeper(), jitter: { 0 })
        _ = try await client.sendRaw(
            APIRequest(method: "POST", path: "/embeddings", operationID: "createEmbedding"), options: RequestOptions())
        XCTAssertEqual(
            transport.requests.map { $0.value(forHeader: "Authorization") }, ["Bearer token-1", "Bearer token-2"])
        XCTAssertEqual(
            transport.requests.first?.url.absoluteString,
            "https://e.openai.azure.com/openai/deployments/dep/embeddings?api-version=v")
    }

    // MARK: Retries through a scripted transport

    func testEveryAttemptSendsTheSameIdempotencyKeyAndTheDelaysFollowThePolicy() async throws {
        let transport = ScriptedTransport { _, index in
            HTTPResponse(
                statusCode: index < 2 ? 503 : 200, headers: index == 0 ? ["retry-after-ms": "250"] : [:],
                body: Data("{}".utf8))
        }
        let sleeper = RecordingSleeper()
        let client = try OpenAIClient(
            configuration: .init(apiKey: "sk-1"), transport: transport, sleeper: sleeper, jitter: { 0 })
        let (_, raw) = try await client.withRawResponse { client in
            try await client.sendRaw(
                APIRequest(method: "POST", path: "/batches", operationID: "createBatch"),
                options: RequestOptions(idempotencyKey: "stable-key"))
        }
        XCTAssertEqual(
            transport.requests.map { $0.value(forHeader: "Idempotency-Key") }, Array(repeating: "stable-key", count: 3))
        XCTAssertEqual(sleeper.delays, [0.25, 1.0])
        XCTAssertEqual(raw.attempts, 3)
        XCTAssertEqual(raw.statusCode, 200)
    }

    func testEveryAttemptSaysItsRetryCountAndTimeoutBesideThePlatformHeaders() async throws {
        let transport = ScriptedTransport { _, index in HTTPResponse(statusCode: index < 2 ? 503 : 200) }
        let client = try OpenAIClient(
            configuration: .init(apiKey: "sk-1", requestTimeout: 42.5), transport: transport,
            sleeper: RecordingSleeper(), jitter: { 0 })
        _ = try await client.sendRaw(
            APIRequest(method: "GET", path: "/models", operationID: "listModels"), options: RequestOptions())
        XCTAssertEqual(transport.requests.map { $0.value(forHeader: "X-Stainless-Retry-Count") }, ["0", "1", "2"])
        // 42.5 s in whole seconds, the fraction dropped as openai-node does.
        XCTAssertEqual(transport.requests.map { $0.value(forHeader: "X-Stainless-Timeout") }, ["42", "42", "42"])
        let first = try XCTUnwrap(transport.requests.first)
        XCTAssertEqual(first.value(forHeader: "User-Agent"), "OpenAI/Swift \(OpenAIClient.sdkVersion)")
        XCTAssertEqual(first.value(forHeader: "X-Stainless-Lang"), "swift")
        XCTAssertEqual(first.value(forHeader: "X-Stainless-Package-Version"), OpenAIClient.sdkVersion)
        XCTAssertEqual(first.value(forHeader: "X-Stainless-Runtime"), "swift")
        #if os(Linux)
            XCTAssertEqual(first.value(forHeader: "X-Stainless-OS"), "Linux")
        #endif
        #if arch(x86_64)
            XCTAssertEqual(first.value(forHeader: "X-Stainless-Arch"), "x64")
        #elseif arch(arm64)
            XCTAssertEqual(first.value(forHeader: "X-Stainless-Arch"), "arm64")
        #endif
        XCTAssertTrue(
            ["6.0", "6.1", "6.2", "6.3", "6.4+"].contains(first.value(forHeader: "X-Stainless-Runtime-Version")))
    }

    func testACallersRetryCountTimeoutOrPlatformHeaderIsNeverOverridden() async throws {
        let transport = ScriptedTransport { _, index in HTTPResponse(statusCode: index < 1 ? 503 : 200) }
        let client = try OpenAIClient(
            configuration: .init(
                apiKey: "sk-1", defaultHeaders: ["x-stainless-os": "Custom", "X-Stainless-Timeout": "9"]),
            transport: transport, sleeper: RecordingSleeper(), jitter: { 0 })
        _ = try await client.sendRaw(
            APIRequest(method: "GET", path: "/models", operationID: "listModels"),
            options: RequestOptions(headers: ["X-Stainless-Retry-Count": "mine"]))
        XCTAssertEqual(transport.requests.map { $0.value(forHeader: "X-Stainless-Retry-Count") }, ["mine", "mine"])
        XCTAssertEqual(transport.requests.map { $0.value(forHeader: "X-Stainless-Timeout") }, ["9", "9"])
        XCTAssertEqual(transport.requests.first?.value(forHeader: "X-Stainless-OS"), "Custom")
    }

    func testNegativeRetriesAndAnEmptyProvidedKeyAreRejectedBeforeAnythingIsSent() async throws {
        let transport = ScriptedTransport { _, _ in HTTPResponse(statusCode: 200) }
        XCTAssertThrowsError(try OpenAIClient(configuration: .init(apiKey: "sk-1", maxRetries: -1))) { error in
            XCTAssertEqual((error as? OpenAIError)?.kind, .invalidRequest)
            XCTAssertTrue("\(error)".contains("maxRetries is -1"), "\(error)")
        }
        let client = try OpenAIClient(
            configuration: .init(apiKey: "sk-1"), transport: transport, sleeper: RecordingSleeper(), jitter: { 0 })
        do {
            _ = try await client.sendRaw(
                APIRequest(method: "GET", path: "/models", operationID: "listModels"),
                options: RequestOptions(maxRetries: -2))
            XCTFail("a negative maxRetries was accepted")
        } catch let error as OpenAIError {
            XCTAssertEqual(error.kind, .invalidRequest)
        }
        let empty = try OpenAIClient(
            configuration: .init(apiKeyProvider: { "  " }), transport: transport, sleeper: RecordingSleeper(),
            jitter: { 0 })
        do {
            _ = try await empty.sendRaw(
                APIRequest(method: "GET", path: "/models", operationID: "listModels"), options: RequestOptions())
            XCTFail("an empty provided key was sent")
        } catch let error as OpenAIError {
            XCTAssertEqual(error.kind, .authentication)
        }
        XCTAssertTrue(transport.requests.isEmpty)
    }

    func testTimeoutsAndEventSizesThatCannotWorkAreRefusedBeforeAnythingIsSent() async throws {
        // 1e300 once trapped on every request, and .nan crashed inside FoundationNetworking.
        let refused: [(String, (inout OpenAIClient.Configuration) -> Void)] = [
            ("Configuration.requestTimeout is 1e+300 s", { $0.requestTimeout = 1e300 }),
            ("Configuration.idleTimeout is nan s", { $0.idleTimeout = .nan }),
            ("Configuration.connectTimeout is inf s", { $0.connectTimeout = .infinity }),
            ("Configuration.requestTimeout is 0.0 s", { $0.requestTimeout = 0 }),
            ("Configuration.idleTimeout is -1.0 s", { $0.idleTimeout = -1 }),
            ("Configuration.requestTimeout is 31536000.5 s", { $0.requestTimeout = HTTPTimeouts.longest + 0.5 }),
            ("Configuration.maxStreamEventBytes is 0", { $0.maxStreamEventBytes = 0 }),
        ]
        for (message, change) in refused {
            var configuration = OpenAIClient.Configuration(apiKey: "sk-1")
            change(&configuration)
            XCTAssertThrowsError(try OpenAIClient(configuration: configuration)) { error in
                XCTAssertEqual((error as? OpenAIError)?.kind, .invalidRequest, message)
                XCTAssertTrue("\(error)".contains(message), "\(error)")
            }
        }
        var longest = OpenAIClient.Configuration(apiKey: "sk-1")
        longest.requestTimeout = HTTPTimeouts.longest
        longest.idleTimeout = 0.001
        XCTAssertNoThrow(try OpenAIClient(configuration: longest), "a year and a millisecond are limits")

        let transport = ScriptedTransport { _, _ in HTTPResponse(statusCode: 200) }
        let client = try OpenAIClient(
            configuration: .init(apiKey: "sk-1"), transport: transport, sleeper: RecordingSleeper(), jitter: { 0 })
        for (name, options) in [
            ("RequestOptions.requestTimeout is 1e+300 s", RequestOptions(requestTimeout: 1e300)),
            ("RequestOptions.idleTimeout is nan s", RequestOptions(idleTimeout: .nan)),
            ("RequestOptions.connectTimeout is -inf s", RequestOptions(connectTimeout: -.infinity)),
        ] {
            do {
                _ = try await client.sendRaw(
                    APIRequest(method: "GET", path: "/models", operationID: "listModels"), options: options)
                XCTFail("\(name): accepted")
            } catch let error as OpenAIError {
                XCTAssertEqual(error.kind, .invalidRequest)
                XCTAssertTrue(error.message.contains(name), error.message)
            }
        }
        XCTAssertTrue(transport.requests.isEmpty, "nothing was sent")
    }

    func testValidJSONBeyondTheDecodersLimitsIsNamedNotCalledInvalid() async throws {
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        let cases: [(body: String, says: String)] = [
            (
                #"{"id": "m", "object": "model", "created": 1e400, "owned_by": "o"}"#,
                "the number 1e400 is beyond a Double's range at line 1, column 43 (byte 42)"
            ),
            (
                #"{"id": "m", "object": "model", "created": 1, "owned_by": "o", "x": "# + deep + "}",
                "objects and arrays nest deeper than 512 levels, the most this decoder reads at line 1, column 579 (byte 578)"
            ),
        ]
        for (body, says) in cases {
            let client = try Self.client(replying: body)
            do {
                _ = try await client.models.retrieve(model: "m")
                XCTFail("\(says): decoded")
            } catch let error as OpenAIError {
                XCTAssertEqual(error.kind, .decoding)
                XCTAssertTrue(error.message.contains("is valid JSON beyond what this decoder reads"), error.message)
                XCTAssertTrue(error.message.contains(says), error.message)
            }
        }
    }

    func testAnIntegerBeyondSixtyFourBitsIsAMemberOfAnotherTypeNotAnUnreadableReply() async throws {
        // Foundation's JSONDecoder refused the whole reply; the member alone does not fit `Int`.
        let client = try Self.client(
            replying: #"{"id": "m", "object": "model", "created": 123456789012345678901234567890, "owned_by": "o"}"#)
        let model = try await client.models.retrieve(model: "m")
        XCTAssertEqual(model.id, "m")
        XCTAssertEqual(model.created, 0)
        XCTAssertEqual(model.specDeviations.receivedValue(of: "created"), .double(123456789012345678901234567890))
        XCTAssertEqual(model.ownedBy, "o")
    }

    private static func client(replying body: String) throws -> OpenAIClient {
        let transport = ScriptedTransport { _, _ in
            HTTPResponse(statusCode: 200, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
        }
        return try OpenAIClient(
            configuration: .init(apiKey: "sk-1", maxRetries: 0), transport: transport, sleeper: RecordingSleeper(),
            jitter: { 0 })
    }

    func testCustomHeadersComeFromTheEnvironmentOnePerLine() throws {
        let configuration = OpenAIClient.Configuration.fromEnvironment([
            "OPENAI_API_KEY": "sk-1",
            "OPENAI_CUSTOM_HEADERS": "X-Team: search\nnot a header\n: no name\nX-Note:  two words  \r\nBad Name: x",
        ])
        XCTAssertEqual(configuration.defaultHeaders, ["X-Team": "search", "X-Note": "two words"])
        XCTAssertEqual(OpenAIClient.Configuration.fromEnvironment(["OPENAI_API_KEY": "sk-1"]).defaultHeaders, [:])
    }

    func testAOneShotStreamBodyIsNotRetried() async throws {
        let transport = ScriptedTransport { _, _ in HTTPResponse(statusCode: 500) }
        let client = try OpenAIClient(
            configuration: .init(apiKey: "sk-1"), transport: transport, sleeper: RecordingSleeper(), jitter: { 0 })
        var request = APIRequest(method: "POST", path: "/files", operationID: "createFile")
        request.setStreamBody(.oneShot(length: 3, InputStream(data: Data("abc".utf8))), contentType: "text/plain")
        do {
            _ = try await client.sendRaw(request, options: RequestOptions())
            XCTFail("expected an error")
        } catch let error as OpenAIError {
            XCTAssertEqual(error.kind, .server)
        }
        XCTAssertEqual(transport.requests.count, 1)
        var replayable = APIRequest(method: "POST", path: "/files", operationID: "createFile")
        replayable.setStreamBody(
            .replayable(length: 3) { InputStream(data: Data("abc".utf8)) }, contentType: "text/plain")
        _ = try? await client.sendRaw(replayable, options: RequestOptions())
        XCTAssertEqual(transport.requests.count, 4, "a replayable body is sent 1 + 2 times")
    }

    func testASameOrigin307OfAOneShotBodyIsThrownNotSentAgain() async throws {
        let transport = ScriptedTransport { _, _ in HTTPResponse(statusCode: 307, headers: ["Location": "/v1/uploads"])
        }
        let client = try OpenAIClient(
            configuration: .init(apiKey: "sk-1", maxRetries: 0), transport: transport, sleeper: RecordingSleeper(),
            jitter: { 0 })
        var request = APIRequest(method: "POST", path: "/files", operationID: "createFile")
        request.setStreamBody(.oneShot(length: 3, InputStream(data: Data("abc".utf8))), contentType: "text/plain")
        let error = await XCTAssertThrowsOpenAIError {
            _ = try await client.sendRaw(request, options: RequestOptions())
        }
        XCTAssertEqual(error?.statusCode, 307)
        XCTAssertEqual(transport.requests.count, 1)
        var replayable = APIRequest(method: "POST", path: "/files", operationID: "createFile")
        replayable.setStreamBody(
            .replayable(length: 3) { InputStream(data: Data("abc".utf8)) }, contentType: "text/plain")
        _ = try? await client.sendRaw(replayable, options: RequestOptions())
        XCTAssertEqual(
            transport.requests.count, 1 + 1 + RedirectPolicy.maxBodyRedirects, "followed 5 times, then thrown")
        XCTAssertEqual(transport.requests.last?.url.path, "/v1/uploads")
    }

    func testPerRequestMaxRetriesOverridesTheClient() async throws {
        let transport = ScriptedTransport { _, _ in HTTPResponse(statusCode: 429) }
        let client = try OpenAIClient(
            configuration: .init(apiKey: "sk-1", maxRetries: 5), transport: transport, sleeper: RecordingSleeper(),
            jitter: { 0 })
        let error = await XCTAssertThrowsOpenAIError {
            _ = try await client.sendRaw(
                APIRequest(method: "GET", path: "/models", operationID: "listModels"),
                options: RequestOptions(maxRetries: 1))
        }
        XCTAssertEqual(error?.kind, .rateLimit)
        XCTAssertEqual(transport.requests.count, 2)
    }

    // MARK: Webhook cryptography

    func testSHA256AndHMACMatchPublishedVectors() {
        func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
        XCTAssertEqual(
            hex(HMACSHA256.digest(Array("abc".utf8))),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(
            hex(HMACSHA256.digest([UInt8](repeating: 0x61, count: 1000))),
            "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
        XCTAssertEqual(
            hex(
                HMACSHA256.authenticationCode(
                    key: Array("key".utf8), message: Array("The quick brown fox jumps over the lazy dog".utf8))),
            "f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8")
        XCTAssertEqual(
            hex(HMACSHA256.authenticationCode(key: [UInt8](repeating: 0x6b, count: 100), message: Array("msg".utf8))),
            "bd56a1782c2830e8abc6ed866a57a1230661e650b84c62f7ee3accc5fa5af491", "a key longer than a block is hashed")
        // RFC 4231 test case 2.
        XCTAssertEqual(
            hex(
                HMACSHA256.authenticationCode(
                    key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    func testWebhookVerifierAcceptsTheSignedVectorAndRejectsTampering() throws {
        let vector = try WebhookVector.load()
        let verifier = try WebhookVerifier(secret: vector.secret)
        XCTAssertNoThrow(try verifier.verify(payload: vector.body, headers: vector.headers, now: vector.signedAt))
        XCTAssertNoThrow(
            try verifier.verify(
                payload: vector.body, headers: vector.headers, now: vector.signedAt.addingTimeInterval(299)))
        var tampered = vector.body
        tampered.append(0x20)
        assertRejected(
            try verifier.verify(payload: tampered, headers: vector.headers, now: vector.signedAt),
            "No webhook signature")
        assertRejected(
            try WebhookVerifier(secret: "whsec_" + Data("wrong secret".utf8).base64EncodedString())
                .verify(payload: vector.body, headers: vector.headers, now: vector.signedAt),
            "No webhook signature")
        assertRejected(
            try verifier.verify(
                payload: vector.body, headers: vector.headers, now: vector.signedAt.addingTimeInterval(301)),
            "old")
        assertRejected(
            try verifier.verify(
                payload: vector.body, headers: vector.headers, now: vector.signedAt.addingTimeInterval(-301)),
            "future")
        var missing = vector.headers
        missing["webhook-id"] = nil
        assertRejected(try verifier.verify(payload: vector.body, headers: missing, now: vector.signedAt), "webhook-id")
    }

    func testSignedHeadersReproduceTheRecordedSignatureAndVerify() throws {
        let vector = try WebhookVector.load()
        let verifier = try WebhookVerifier(secret: vector.secret)
        let id = try XCTUnwrap(vector.headers["webhook-id"])
        let signed = verifier.signedHeaders(payload: vector.body, id: id, timestamp: vector.signedAt)
        XCTAssertEqual(signed["webhook-id"], id)
        XCTAssertEqual(signed["webhook-timestamp"], vector.headers["webhook-timestamp"])
        XCTAssertEqual(signed["webhook-signature"], vector.headers["webhook-signature"], "the recorded signature")
        // Signed now, verified now; another body does not verify.
        let body = Data(#"{"type":"response.completed","data":{"id":"resp_1"}}"#.utf8)
        let headers = verifier.signedHeaders(payload: body, id: "wh_test")
        XCTAssertNoThrow(try verifier.verify(payload: body, headers: headers))
        assertRejected(try verifier.verify(payload: body + Data(" ".utf8), headers: headers), "No webhook signature")
    }

    func testWebhookVerifierAcceptsAnyOfSeveralSignatures() throws {
        let vector = try WebhookVector.load()
        let verifier = try WebhookVerifier(secret: vector.secret)
        var headers = vector.headers
        let valid = vector.headers["webhook-signature"]!
        headers["webhook-signature"] = "v1,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA= v2,abc \(valid)"
        XCTAssertNoThrow(try verifier.verify(payload: vector.body, headers: headers, now: vector.signedAt))
        headers["webhook-signature"] = "v1,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA= v0," + valid.dropFirst(3)
        assertRejected(
            try verifier.verify(payload: vector.body, headers: headers, now: vector.signedAt), "No webhook signature")
    }

    private func assertRejected(
        _ body: @autoclosure () throws -> Void, _ fragment: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertThrowsError(try body(), file: file, line: line) { error in
            let error = error as? OpenAIError
            XCTAssertEqual(error?.kind, .webhookVerification, file: file, line: line)
            XCTAssertTrue(
                error?.message.contains(fragment) ?? false, "\(error?.message ?? "-")", file: file, line: line)
        }
    }
}
