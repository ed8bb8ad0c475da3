import Foundation
import OpenAISDKTestSupport
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@testable import OpenAI
@testable import OpenAIRuntime

/// Redirects at the trust boundary: a 3xx to another origin (here the test server's second port,
/// or the same port under another host name) never carries a credential or a body; see
/// ``RedirectPolicy``.
final class RedirectTests: XCTestCase {
    private var server: TestServer!

    override func setUpWithError() throws {
        server = try TestServer.shared()
    }

    private static let embedding: JSONValue = ["model": "text-embedding-3-small", "input": "secret text"]

    private func client(_ scenario: String, redirect status: Int, to location: String) throws -> OpenAIClient {
        try server.client(
            apiKey: "sk-test-redirect-secret", maxRetries: 0,
            headers: [
                "x-testserver-scenario": scenario, "x-testserver-redirect-status": String(status),
                "x-testserver-redirect-location": location,
            ],
            configure: {
                $0.organization = "org-secret"
                $0.project = "proj_secret"
            })
    }

    private var otherOrigin: String { server.secondRootURL.absoluteString + "/v1/embeddings" }

    private func headers(_ record: TestServer.Record) -> [String: String] { record.headers }

    func testNoRedirectOfAPostIsFollowedAcrossOriginsNorTurnedIntoAGet() async throws {
        for status in [301, 302, 303, 307, 308] {
            let scenario = TestServer.scenario("crossOrigin\(status)")
            let client = try client(scenario, redirect: status, to: otherOrigin)
            var thrown: OpenAIError?
            do {
                _ = try await client.embeddings.create(try Self.embedding.decode())
            } catch let error as OpenAIError {
                thrown = error
            }
            let records = try await server.requests(scenario: scenario)
            XCTAssertEqual(records.first?.headers["authorization"], "Bearer sk-test-redirect-secret", "\(status)")
            // 307/308 would send the body to the other origin; 301-303 would turn the POST into a
            // GET whose reply is not the POST's: the 3xx is the reply, thrown with its Location.
            XCTAssertEqual(records.count, 1, "\(status): not followed")
            XCTAssertEqual(thrown?.statusCode, status)
            XCTAssertEqual(thrown?.headers.first { $0.key.lowercased() == "location" }?.value, otherOrigin)
        }
        // The same origin: 301-303 of a POST are not followed either (a 307 is: the body goes again).
        for status in [301, 302, 303] {
            let scenario = TestServer.scenario("sameOrigin\(status)")
            let client = try client(scenario, redirect: status, to: server.baseURL.absoluteString + "/embeddings")
            do {
                _ = try await client.embeddings.create(try Self.embedding.decode())
                XCTFail("\(status): the POST was answered by a GET")
            } catch let error as OpenAIError {
                XCTAssertEqual(error.statusCode, status)
            }
            let records = try await server.requests(scenario: scenario)
            XCTAssertEqual(records.map(\.method), ["POST"], "\(status): not followed")
        }
    }

    func testARedirectOfAGetIsFollowedAcrossOriginsWithoutCredentials() async throws {
        let scenario = TestServer.scenario()
        let client = try client(scenario, redirect: 302, to: server.secondRootURL.absoluteString + "/v1/models")
        // The other origin refuses the request without its credential (a 400 from the test server).
        _ = try? await client.models.list()
        let records = try await server.requests(scenario: scenario)
        XCTAssertEqual(records.count, 2, "followed")
        let redirected = try XCTUnwrap(records.last)
        XCTAssertEqual(
            redirected.headers["host"], server.secondRootURL.host.map { "\($0):\(server.secondRootURL.port!)" })
        XCTAssertEqual(redirected.method, "GET")
        XCTAssertEqual(records.first?.headers["authorization"], "Bearer sk-test-redirect-secret")
        XCTAssertNil(redirected.headers["authorization"])
        XCTAssertNil(redirected.headers["openai-organization"])
        XCTAssertNil(redirected.headers["openai-project"])
        XCTAssertFalse("\(redirected.raw)".contains("secret"), "nothing secret arrived")
    }

    func testSameOriginRedirectIsFollowedWithCredentialsAndBody() async throws {
        let scenario = TestServer.scenario()
        let client = try client(scenario, redirect: 307, to: server.baseURL.absoluteString + "/embeddings")
        _ = try await client.embeddings.create(try Self.embedding.decode())
        let records = try await server.requests(scenario: scenario)
        XCTAssertEqual(records.count, 2)
        XCTAssertEqual(records.last?.method, "POST")
        XCTAssertEqual(records.last?.headers["authorization"], "Bearer sk-test-redirect-secret")
        XCTAssertEqual(records.last?.headers["openai-organization"], "org-secret")
        XCTAssertEqual(records.last?.validation, "ok", "the body arrived again")
    }

    func testAnotherHostNameOnTheSamePortIsAnotherOrigin() async throws {
        let scenario = TestServer.scenario()
        let port = try XCTUnwrap(server.rootURL.port)
        let client = try client(scenario, redirect: 302, to: "http://localhost:\(port)/v1/models")
        _ = try? await client.models.list()
        let records = try await server.requests(scenario: scenario)
        XCTAssertEqual(records.count, 2)
        XCTAssertEqual(records.last?.headers["host"], "localhost:\(port)")
        XCTAssertNil(records.last?.headers["authorization"])
    }

    func testAzureAPIKeyIsNotSentToAnotherOrigin() async throws {
        let scenario = TestServer.scenario()
        var configuration = OpenAIClient.Configuration.azure(
            endpoint: server.rootURL, apiVersion: "2024-10-21", deployment: "embed", apiKey: "azure-secret-key")
        configuration.maxRetries = 0
        configuration.defaultHeaders = [
            "x-testserver-scenario": scenario, "x-testserver-redirect-status": "302",
            "x-testserver-redirect-location": otherOrigin,
        ]
        let client = try OpenAIClient(configuration: configuration)
        // A GET: a redirect of a POST is not followed at all.
        _ = try? await client.models.list()
        let records = try await server.requests(scenario: scenario)
        XCTAssertEqual(records.first?.headers["api-key"], "azure-secret-key")
        XCTAssertEqual(records.count, 2)
        XCTAssertNil(records.last?.headers["api-key"])
        XCTAssertFalse("\(records.last?.raw ?? .null)".contains("azure-secret-key"))
    }

    // MARK: The rule, without I/O

    func testOriginsCompareSchemeHostAndPortWithDefaultPorts() {
        func same(_ a: String, _ b: String) -> Bool { RedirectPolicy.sameOrigin(URL(string: a)!, URL(string: b)!) }
        XCTAssertTrue(same("https://api.openai.com/v1/x", "https://API.openai.com:443/v2"))
        XCTAssertTrue(same("http://127.0.0.1:8080/a", "http://127.0.0.1:8080/b?c"))
        XCTAssertFalse(same("https://api.openai.com/v1", "http://api.openai.com/v1"), "scheme")
        XCTAssertFalse(same("https://api.openai.com/v1", "https://api.openai.com.evil.example/v1"), "host")
        XCTAssertFalse(same("http://127.0.0.1:8080/a", "http://127.0.0.1:8081/a"), "port")
        XCTAssertFalse(same("http://127.0.0.1/a", "http://localhost/a"), "host name")
    }

    func testCrossOriginRequestsLoseEveryCredentialHeaderAndMethodsWithABodyAreRefused() throws {
        var request = URLRequest(url: URL(string: "https://elsewhere.example/v1/models")!)
        request.httpMethod = "GET"
        let headers = [
            "Authorization": "Bearer sk-1", "api-key": "k", "X-Api-Key": "k", "Proxy-Authorization": "Basic x",
            "Cookie": "a=b", "OpenAI-Organization": "org-1", "OpenAI-Project": "proj_1",
            "X-Amz-Security-Token": "t", "Accept": "application/json",
        ]
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let original = URL(string: "https://api.openai.com/v1/models")!
        let followed = try XCTUnwrap(RedirectPolicy.follow(from: original, method: "GET", to: request, hasBody: false))
        XCTAssertEqual(followed.allHTTPHeaderFields, ["Accept": "application/json"])
        // Same origin: as URLSession built it.
        XCTAssertEqual(
            RedirectPolicy.follow(
                from: URL(string: "https://elsewhere.example/v0")!, method: "GET", to: request, hasBody: false)?
                .allHTTPHeaderFields?.count, headers.count)
        // A redirect that keeps the body is left to the client, whatever the origin.
        var post = request
        post.httpMethod = "POST"
        XCTAssertNil(RedirectPolicy.follow(from: original, method: "POST", to: post, hasBody: true))
        XCTAssertNil(
            RedirectPolicy.follow(
                from: URL(string: "https://elsewhere.example/v0")!, method: "POST", to: post, hasBody: true))
        // A POST that a 301-303 turns into a GET, with a body or without (an action such as cancel).
        XCTAssertNil(RedirectPolicy.follow(from: original, method: "POST", to: request, hasBody: true))
        XCTAssertNil(
            RedirectPolicy.follow(
                from: URL(string: "https://elsewhere.example/v0")!, method: "POST", to: request, hasBody: false))
        var put = request
        put.httpMethod = "PUT"
        XCTAssertNil(RedirectPolicy.follow(from: original, method: "PUT", to: put, hasBody: true))
        // A body-less DELETE keeps its method on a 307: not to another origin, as is to the same one.
        var delete = request
        delete.httpMethod = "DELETE"
        XCTAssertNil(RedirectPolicy.follow(from: original, method: "DELETE", to: delete, hasBody: false))
        XCTAssertNotNil(
            RedirectPolicy.follow(
                from: URL(string: "https://elsewhere.example/v0")!, method: "DELETE", to: delete, hasBody: false))
        // The client sends it again only to the same origin.
        let reply = HTTPResponse(statusCode: 307, headers: ["location": "/v2/models"])
        XCTAssertEqual(
            RedirectPolicy.sameOriginLocation(of: reply, for: original)?.absoluteString,
            "https://api.openai.com/v2/models")
        XCTAssertNil(
            RedirectPolicy.sameOriginLocation(
                of: HTTPResponse(statusCode: 308, headers: ["Location": "https://elsewhere.example/x"]), for: original))
        XCTAssertNil(
            RedirectPolicy.sameOriginLocation(
                of: HTTPResponse(statusCode: 302, headers: ["Location": "/v2/models"]), for: original))
    }

    func testEachClientKeepsItsOwnCookiesAndWritesNoneToTheSharedStore() async throws {
        // A server (an edge proxy) sets a cookie on client A's replies.
        let scenarioA = TestServer.scenario("cookiesA")
        let first = try server.client(
            apiKey: "sk-test-client-a", maxRetries: 0,
            headers: ["x-testserver-scenario": scenarioA, "x-testserver-set-cookie": "edge=alpha"])
        _ = try await first.models.list()
        _ = try await first.models.list()
        let recordsA = try await server.requests(scenario: scenarioA)
        XCTAssertNil(recordsA.first?.headers["cookie"])
        XCTAssertEqual(recordsA.last?.headers["cookie"], "edge=alpha", "a client sends back what it was given")
        // Client B, with another key, in the same process: it never sends A's cookie.
        let scenarioB = TestServer.scenario("cookiesB")
        let second = try server.client(
            apiKey: "sk-test-client-b", maxRetries: 0, headers: ["x-testserver-scenario": scenarioB])
        _ = try await second.models.list()
        let recordsB = try await server.requests(scenario: scenarioB)
        XCTAssertEqual(recordsB.count, 1)
        XCTAssertNil(recordsB.first?.headers["cookie"], "another client's cookie crossed over")
        XCTAssertFalse(
            (HTTPCookieStorage.shared.cookies ?? []).contains { $0.name == "edge" },
            "the process's shared (persisted) store holds no cookie of the SDK's")
    }
}
