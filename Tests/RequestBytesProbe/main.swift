// Prints the bytes of two requests as the SDK sends them, one per line: a structured-output
// request (`client.responses.parse` with a type of four members) and a Chat Completions request
// with a tool. `RequestBytesTests` runs it in several fresh processes, each with its own hash
// seed, and compares the lines. Nothing is sent over the network: the transport keeps the body.
import Foundation
import OpenAI

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A structured output whose members a model should write in this order.
struct Answer: Codable {
    var reasoning: String
    var answer: String
    var confidence: Double
    var unit: String?
}

/// A tool's arguments.
struct Weather: Codable {
    var city: String
    var country: String
    var unit: String?
    var days: Int
}

/// Keeps each request's body and fails the request (no reply is needed).
final class BodyKeeper: HTTPTransport, Sendable {
    private let bodies = Locked<[Data]>([])

    var kept: [Data] { bodies.withLock { $0 } }

    func send(_ request: HTTPRequest, timeouts: HTTPTimeouts) async throws -> HTTPResponse {
        if case .data(let body)? = request.body { bodies.withLock { $0.append(body) } }
        return HTTPResponse(statusCode: 418, headers: [:], body: Data(#"{"error":{"message":"kept"}}"#.utf8))
    }

    func stream(_ request: HTTPRequest, timeouts: HTTPTimeouts) async throws -> HTTPStreamingResponse {
        throw OpenAIError(kind: .connection, message: "not streamed")
    }
}

let keeper = BodyKeeper()
let client = try OpenAIClient(configuration: .init(apiKey: "sk-probe", maxRetries: 0), transport: keeper)
_ = try? await client.responses.parse(
    CreateResponse(model: "gpt-4.1", input: "How tall is Mount Everest?"), as: Answer.self)
_ = try? await client.chat.completions.create(
    CreateChatCompletionRequest(
        messages: [.system(.init(content: "Answer briefly.")), .user(.init(content: "Weather in Oslo?"))],
        model: "gpt-4.1", tools: [try .function(name: "get_weather", arguments: Weather.self)],
        toolChoice: .string(.auto), metadata: ["team": "search", "app": "probe"], parallelToolCalls: false))
for body in keeper.kept { print(String(decoding: body, as: UTF8.self)) }
