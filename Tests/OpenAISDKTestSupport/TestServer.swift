import Foundation
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@testable import OpenAIRuntime

/// The local OpenAI test server (Scripts/servers/testserver/server.py), started once per test process and
/// shared by every test class; it exits when the process ends (its stdin pipe closes).
///
/// ```swift
/// let server = try TestServer.shared()       // skips the test when Python or ../shared is missing
/// let client = try server.client()
/// let records = try await server.requests(scenario: id)
/// ```
///
/// Python: `OPENAI_TEST_PYTHON`, else `Scripts/.venv/bin/python` (both made by `Scripts/test.sh`).
///
/// `OPENAI_TEST_SERVER_URL` (a root URL such as `http://127.0.0.1:8000`) points the tests at a
/// server that is already running instead of starting one: `Scripts/servers/testserver/server.py` started
/// by hand (for its log), in a container, or another mock server that speaks its control API
/// (`x-testserver-*` headers, `/__testserver/requests`). `OPENAI_TEST_SERVER_SECOND_URL` is its
/// second origin for the redirect tests (by default the same port on `localhost`, which is
/// another origin).
package final class TestServer: Sendable {
    /// `http://127.0.0.1:<port>/v1`.
    package let baseURL: URL
    /// `http://127.0.0.1:<port>`.
    package let rootURL: URL
    /// `http://127.0.0.1:<second port>`: the same server on another port, so another origin
    /// (redirect tests); its requests are recorded with the others.
    package let secondRootURL: URL
    private let process: Process?

    private init(baseURL: URL, rootURL: URL, secondRootURL: URL, process: Process?) {
        self.baseURL = baseURL
        self.rootURL = rootURL
        self.secondRootURL = secondRootURL
        self.process = process
    }

    /// The one server of this process, started on first use.
    ///
    /// - Throws: ``Unavailable/skip(_:)`` (a skip, or a failure in CI) when the Python venv or
    ///   `../shared` is missing (run `Scripts/test.sh`),
    ///   an error when the server does not start within 60 s.
    package static func shared() throws -> TestServer {
        try state.withLock { state in
            switch state {
            case .running(let server): return server
            case .failed(let message): throw Unavailable.skip(message)
            case .notStarted:
                do {
                    let server = try start()
                    state = .running(server)
                    return server
                } catch let skip as XCTSkip {
                    state = .failed(skip.message ?? "the test server is unavailable")
                    throw skip
                } catch {
                    state = .failed("the test server did not start: \(error)")
                    throw error
                }
            }
        }
    }

    /// A fresh scenario id: groups one test's requests and attempt counters on the server.
    package static func scenario(_ name: String = #function) -> String {
        "\(name.filter { $0.isLetter || $0.isNumber })-\(UUID().uuidString.prefix(8))"
    }

    /// A client pointed at the server with a test key (`sk-test-<...>`).
    ///
    /// - Parameters:
    ///   - apiKey: The key sent.
    ///   - maxRetries: Retries per request.
    ///   - timeout: The request timeout, in seconds per attempt.
    ///   - headers: Default headers (e.g. the scenario).
    ///   - sleeper: Waits between retries; the real one when `nil`.
    package func client(
        apiKey: String = "sk-test-0123456789", maxRetries: Int = 2, timeout: TimeInterval = 30,
        headers: [String: String] = [:], configure: (inout OpenAIClient.Configuration) -> Void = { _ in },
        sleeper: (any RetrySleeper)? = nil, transport: any HTTPTransport = URLSessionTransport()
    ) throws -> OpenAIClient {
        var configuration = OpenAIClient.Configuration(
            apiKey: apiKey, baseURL: baseURL, requestTimeout: timeout, maxRetries: maxRetries, defaultHeaders: headers)
        configure(&configuration)
        return try OpenAIClient(
            configuration: configuration, transport: transport, sleeper: sleeper ?? TaskSleeper(),
            jitter: { 0.5 })
    }

    /// One request as the server recorded it.
    package struct Record: Sendable {
        package let raw: JSONValue
        package var attempt: Int? { raw["attempt"]?.doubleValue.map { Int($0) } }
        package var method: String? { raw["method"]?.stringValue }
        package var path: String? { raw["path"]?.stringValue }
        package var status: Int? { raw["status"]?.doubleValue.map { Int($0) } }
        package var operationID: String? { raw["operation_id"]?.stringValue }
        package var disconnected: Bool { raw["disconnected"] == .bool(true) }
        package var validation: String? { raw["validation"]?["result"]?.stringValue }
        package var validationErrors: [JSONValue] { raw["validation"]?["errors"]?.arrayValue ?? [] }
        package var receivedAt: Double? { raw["received_at"]?.doubleValue }
        /// The client's TCP port: requests with the same one came on the same connection.
        package var clientPort: Int? { raw["client_port"]?.doubleValue.map { Int($0) } }
        /// The request body's size in bytes as the server received it (0 without a body).
        package var bodySize: Int { Int(raw["body"]?["size"]?.doubleValue ?? 0) }
        /// The request body parsed as JSON, when it was UTF-8 JSON.
        package var bodyJSON: JSONValue? {
            guard let text = raw["body"]?["text"]?.stringValue else { return nil }
            return try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        }
        /// Header values by lowercased name (the last one wins).
        package var headers: [String: String] {
            var result: [String: String] = [:]
            for pair in raw["headers"]?.arrayValue ?? [] {
                if let items = pair.arrayValue, items.count == 2, let name = items[0].stringValue,
                    let value = items[1].stringValue
                {
                    result[name.lowercased()] = value
                }
            }
            return result
        }
        /// Query pairs in order.
        package var query: [(String, String)] {
            (raw["query"]?.arrayValue ?? []).compactMap { pair in
                guard let items = pair.arrayValue, items.count == 2, let name = items[0].stringValue,
                    let value = items[1].stringValue
                else { return nil }
                return (name, value)
            }
        }
    }

    /// The requests recorded for `scenario`, oldest first.
    package func requests(scenario: String) async throws -> [Record] {
        var components = URLComponents(
            url: rootURL.appendingPathComponent("__testserver/requests"), resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "scenario", value: scenario)]
        let (data, _) = try await URLSession.shared.data(from: components.url!)
        let body = try JSONDecoder().decode(JSONValue.self, from: data)
        return (body["requests"]?.arrayValue ?? []).map(Record.init(raw:))
    }

    // MARK: Start-up

    private enum State {
        case notStarted
        case running(TestServer)
        case failed(String)
    }

    private static let state = Locked<State>(.notStarted)

    /// The server named by `OPENAI_TEST_SERVER_URL` (and `OPENAI_TEST_SERVER_SECOND_URL`), or
    /// `nil` when it is unset or empty.
    ///
    /// - Throws: An error (not a skip) when a value is not an `http` or `https` URL with a host.
    package static func external(_ environment: [String: String]) throws -> (root: URL, second: URL)? {
        guard let text = environment["OPENAI_TEST_SERVER_URL"], !text.isEmpty else { return nil }
        func parse(_ text: String, _ name: String) throws -> URL {
            let trimmed = text.hasSuffix("/") ? String(text.dropLast()) : text
            guard let url = URL(string: trimmed), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
                throw ExternalServerError(message: "\(name)=\(text) is not an http(s) URL with a host")
            }
            return url
        }
        let root = try parse(text, "OPENAI_TEST_SERVER_URL")
        if let second = environment["OPENAI_TEST_SERVER_SECOND_URL"], !second.isEmpty {
            return (root, try parse(second, "OPENAI_TEST_SERVER_SECOND_URL"))
        }
        var components = URLComponents(url: root, resolvingAgainstBaseURL: false)!
        components.host = components.host == "localhost" ? "127.0.0.1" : "localhost"
        return (root, components.url!)
    }

    package struct ExternalServerError: Error, CustomStringConvertible {
        package var message: String
        package var description: String { message }
    }

    private static func start() throws -> TestServer {
        let root = SharedData.packageRoot
        let environment = ProcessInfo.processInfo.environment
        if let (external, second) = try external(environment) {
            return TestServer(
                baseURL: external.appendingPathComponent("v1"), rootURL: external, secondRootURL: second, process: nil)
        }
        let python =
            environment["OPENAI_TEST_PYTHON"].flatMap { $0.isEmpty ? nil : $0 }
            ?? root.appendingPathComponent("Scripts/.venv/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: python) || !python.contains("/") else {
            throw Unavailable.skip(
                "no Python for the test server at \(python): run Scripts/test.sh (it creates Scripts/.venv) or set OPENAI_TEST_PYTHON"
            )
        }
        let spec = try SharedData.generatedFromSpec()
        let fixtures = try SharedData.file("fixtures")
        let portFile = FileManager.default.temporaryDirectory
            .appendingPathComponent("openai-testserver-\(UUID().uuidString).port")
        let secondPortFile = portFile.appendingPathExtension("second")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python.contains("/") ? python : "/usr/bin/env")
        process.arguments =
            (python.contains("/") ? [] : [python]) + [
                root.appendingPathComponent("Scripts/servers/testserver/server.py").path, "--spec", spec.path,
                "--fixtures",
                fixtures.path, "--port", "0", "--port-file", portFile.path, "--second-port-file", secondPortFile.path,
                "--exit-on-stdin-eof",
            ]
        let stdin = Pipe()
        process.standardInput = stdin
        process.standardOutput = FileHandle.nullDevice
        if environment["OPENAI_TESTSERVER_VERBOSE"] == nil { process.standardError = FileHandle.nullDevice }
        try process.run()
        // Keep the write end open for the life of the process: the server exits on EOF.
        keepAlive.withLock { $0 = stdin }
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            // The second port file is written before the first one.
            if let text = try? String(contentsOf: portFile, encoding: .utf8),
                let port = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)),
                let secondText = try? String(contentsOf: secondPortFile, encoding: .utf8),
                let secondPort = Int(secondText.trimmingCharacters(in: .whitespacesAndNewlines))
            {
                try? FileManager.default.removeItem(at: portFile)
                try? FileManager.default.removeItem(at: secondPortFile)
                let root = URL(string: "http://127.0.0.1:\(port)")!
                atexit { TestServer.stopAtExit() }
                let server = TestServer(
                    baseURL: root.appendingPathComponent("v1"), rootURL: root,
                    secondRootURL: URL(string: "http://127.0.0.1:\(secondPort)")!, process: process)
                runningProcess.withLock { $0 = process }
                return server
            }
            guard process.isRunning else {
                throw Unavailable.skip(
                    "the test server exited at start-up (status \(process.terminationStatus)); run Scripts/test.sh")
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        process.terminate()
        throw Unavailable.skip("the test server wrote no port file within 60 s")
    }

    private static let keepAlive = Locked<Pipe?>(nil)
    private static let runningProcess = Locked<Process?>(nil)

    private static func stopAtExit() {
        runningProcess.withLock { process in
            if let process, process.isRunning { process.terminate() }
        }
    }
}
