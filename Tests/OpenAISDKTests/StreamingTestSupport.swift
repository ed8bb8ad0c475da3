import Foundation
import XCTest

@testable import OpenAI
@testable import OpenAIRuntime

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transport that answers streaming requests from a script, records what it was sent, and
/// records when a body stream was terminated (consumer finished, dropped it, or was cancelled).
final class ScriptedStreamTransport: HTTPTransport, @unchecked Sendable {
    /// One scripted answer.
    enum Reply {
        /// A reply head and its body chunks; with `hold`, the body never ends by itself.
        case stream(status: Int, headers: [String: String], chunks: [Data], hold: Bool)
        /// The attempt fails with this error.
        case failure(OpenAIError)
    }

    // Guarded by `lock`.
    private let lock = NSLock()
    private var replies: [Reply]
    private var _requests: [HTTPRequest] = []
    private var _terminations: [AsyncThrowingStream<Data, any Error>.Continuation.Termination] = []

    init(_ replies: [Reply]) {
        self.replies = replies
    }

    /// Replies with `body` (split into chunks of `chunkSize` bytes) and status 200.
    convenience init(body: Data, chunkSize: Int = 4096, headers: [String: String] = ["x-request-id": "req_test"]) {
        self.init([.stream(status: 200, headers: headers, chunks: Self.split(body, chunkSize), hold: false)])
    }

    static func split(_ body: Data, _ size: Int) -> [Data] {
        stride(from: 0, to: body.count, by: max(1, size)).map { body.subdata(in: $0..<min($0 + size, body.count)) }
    }

    var requests: [HTTPRequest] { lock.withLock { _requests } }
    var terminations: [AsyncThrowingStream<Data, any Error>.Continuation.Termination] {
        lock.withLock { _terminations }
    }

    func send(_ request: HTTPRequest, timeouts: HTTPTimeouts) async throws -> HTTPResponse {
        throw OpenAIError(kind: .connection, message: "ScriptedStreamTransport only streams")
    }

    func stream(_ request: HTTPRequest, timeouts: HTTPTimeouts) async throws -> HTTPStreamingResponse {
        let reply: Reply = lock.withLock {
            _requests.append(request)
            return replies.count > 1 ? replies.removeFirst() : replies[0]
        }
        switch reply {
        case .failure(let error):
            throw error
        case .stream(let status, let headers, let chunks, let hold):
            let body = AsyncThrowingStream<Data, any Error> { continuation in
                continuation.onTermination = { [weak self] termination in
                    guard let self else { return }
                    self.lock.withLock { self._terminations.append(termination) }
                }
                for chunk in chunks { continuation.yield(chunk) }
                if !hold { continuation.finish() }
            }
            return HTTPStreamingResponse(statusCode: status, headers: headers, body: body)
        }
    }
}

/// A retry sleeper that does not sleep.
struct NoSleep: RetrySleeper {
    func sleep(seconds: TimeInterval) async throws {}
}

enum StreamingTestSupport {
    /// A client on `transport` with a test key, no real sleeping between retries.
    static func client(
        _ transport: any HTTPTransport, baseURL: URL = URL(string: "http://127.0.0.1:9/v1")!, maxRetries: Int = 2,
        decodingMode: DecodingMode = .lenient,
        maxStreamEventBytes: Int = OpenAIClient.Configuration.defaultMaxStreamEventBytes
    ) throws -> OpenAIClient {
        try OpenAIClient(
            configuration: .init(
                apiKey: "sk-test", baseURL: baseURL, maxRetries: maxRetries, decodingMode: decodingMode,
                maxStreamEventBytes: maxStreamEventBytes),
            transport: transport, sleeper: NoSleep(), jitter: { 0 })
    }

    /// A streaming request through the client's real path (`client.stream`).
    static func stream<Event: Decodable & Sendable>(
        _ client: OpenAIClient, as type: Event.Type, framing: StreamFraming, path: String = "/responses",
        ending: StreamEnding<Event> = .unspecified
    ) -> OpenAIStream<Event> {
        client.stream(
            APIRequest(method: "POST", path: path, operationID: "test"), options: RequestOptions(), as: type,
            framing: framing, ending: ending)
    }

    /// Every event of `body` decoded through a scripted transport.
    static func decodeAll<Event: Decodable & Sendable>(
        _ body: Data, as type: Event.Type, framing: StreamFraming, chunkSize: Int = 4096,
        ending: StreamEnding<Event> = .unspecified
    ) async throws -> [Event] {
        let client = try client(ScriptedStreamTransport(body: body, chunkSize: chunkSize))
        var events: [Event] = []
        for try await event in stream(client, as: type, framing: framing, ending: ending) { events.append(event) }
        return events
    }

    /// Runs `body` and returns the error it throws, failing the test when it throws none.
    static func thrownError(
        file: StaticString = #filePath, line: UInt = #line, _ body: () async throws -> Void
    ) async -> OpenAIError? {
        do {
            try await body()
            XCTFail("expected an error", file: file, line: line)
            return nil
        } catch let error as OpenAIError {
            return error
        } catch {
            XCTFail("expected OpenAIError, got \(error)", file: file, line: line)
            return nil
        }
    }

    /// The terminal events of `operationID` in the `stream-endings` of `Spec/overrides.json`, which
    /// the generated streaming methods use too.
    static func terminalEvents(operationID: String) throws -> Set<String> {
        let url = SharedData.packageRoot.appendingPathComponent("Spec/overrides.json")
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let endings = try XCTUnwrap(object["stream-endings"] as? [String: Any])
        let entry = try XCTUnwrap(endings[operationID] as? [String: Any], operationID)
        return Set(entry["terminal-events"] as? [String] ?? [])
    }

    /// The ending of Chat Completions and Completions streams, as the generated methods build it.
    static func finishedChoices<Chunk>(_ choices: @escaping @Sendable (Chunk) -> [(Int, Bool)]) -> StreamEnding<Chunk> {
        .finishedChoices { chunk, tracker in
            for (index, finished) in choices(chunk) { tracker.record(index: index, finished: finished) }
        }
    }

    /// The locked spec's text, to tell event types it defines from ones it does not.
    static func specText() throws -> String {
        let url = try SharedData.generatedFromSpec()
        return try String(contentsOf: url, encoding: .utf8)
    }
}
