import Foundation
import OpenAISDKTestSupport
import XCTest

@testable import OpenAI
@testable import OpenAIRuntime

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

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
