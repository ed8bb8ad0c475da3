import Foundation
import OpenAI
import OpenAIWebSocket

/// The Responses API's WebSocket mode (`wss://api.openai.com/v1/responses`): one long-lived
/// connection over which `response.create` events (the same fields as `POST /v1/responses`, spec
/// schema ``/OpenAI/ResponsesClientEventResponseCreate``) start responses and their stream events come back
/// as the generated ``/OpenAI/ResponsesServerEvent`` union, each echoing the request's `stream_id` when one
/// was given.
///
/// The spec defines the events (``/OpenAI/ResponsesClientEvent``, ``/OpenAI/ResponsesServerEvent``, ``/OpenAI/ResponseWsError``)
/// but not the URL; the URL and the `Authorization: Bearer` handshake are from OpenAI's API reference
/// ("Connect", `WebSocket wss://api.openai.com/v1/responses`).
///
/// ```swift
/// let socket = try await ResponsesWebSocketSession.connect(client: client)
/// try await socket.createResponse(.init(streamID: "lane_1", model: "gpt-5", input: .string("Hi")))
/// for try await event in socket.events {
///     if case .responseOutputTextDelta(let delta) = event { print(delta.delta, terminator: "") }
///     if case .responseCompleted = event { break }
/// }
/// await socket.close()
/// ```
public final class ResponsesWebSocketSession: Sendable {
    /// The server events, in order; `error` events (schema ``/OpenAI/ResponseWsError``) included, unknown
    /// types as `.unknown` with their raw JSON. Finishes after a 1000 close or one this side started;
    /// throws ``WebSocketError`` for any other close. Buffered as ``RealtimeSessionOptions/eventBuffering``
    /// says (default: without limit until read).
    public var events: AsyncThrowingStream<ResponsesServerEvent, any Error> { connection.events }

    private let connection: EventConnection<ResponsesServerEvent>

    private init(connection: EventConnection<ResponsesServerEvent>) {
        self.connection = connection
    }

    /// Opens a connection with the client's API key in the `Authorization` header.
    ///
    /// - Parameters:
    ///   - client: Supplies the API key, organization, project, default headers and base URL
    ///     (`https://api.openai.com/v1` becomes `wss://api.openai.com/v1/responses`).
    ///   - options: Endpoint override, extra headers (for example `OpenAI-Beta`), TLS trust, timeouts.
    /// - Returns: The open connection.
    /// - Throws: ``RealtimeError`` of kind ``RealtimeError/Kind/invalidConfiguration`` without an API
    ///   key or with a base URL that is not http(s); ``WebSocketError`` when connecting, TLS or the
    ///   upgrade fails.
    public static func connect(
        client: OpenAIClient, options: RealtimeSessionOptions = RealtimeSessionOptions()
    ) async throws -> ResponsesWebSocketSession {
        let url =
            try options.endpoint
            ?? RealtimeEndpoint.webSocketURL(baseURL: client.configuration.baseURL, path: "responses")
        let headers = try await RealtimeEndpoint.serverHeaders(
            client.configuration, extra: options.headers)
        let connection = try await EventConnection(
            endpoint: RealtimeEndpoint(url: url, headers: headers, subprotocols: []),
            configuration: options.webSocket, buffering: options.eventBuffering,
            unknown: { ResponsesServerEvent.unknown($0) }, onEvent: { _ in }, onEnd: { _, _ in })
        return ResponsesWebSocketSession(connection: connection)
    }

    /// Sends `response.create`; the response's events then arrive in ``events``.
    ///
    /// - Parameters:
    ///   - request: The request: `POST /v1/responses` fields plus `stream_id` (do not set `stream`
    ///     or `background`, which WebSocket mode does not accept).
    /// - Throws: ``RealtimeError`` of kind ``RealtimeError/Kind/encodingFailed``; ``WebSocketError``
    ///   of kind ``WebSocketError/Kind/closed`` once the connection is closing or closed.
    public func createResponse(_ request: ResponsesClientEvent) async throws {
        try await connection.socket.send(utf8Text: try EventDecoding.encode(request))
    }

    /// How the connection closed, or `nil` while it is open.
    public var closeInfo: WebSocketCloseInfo? { connection.socket.closeInfo }

    /// Server messages delivered as `.unknown` because a known type did not decode: the last 100.
    public var decodingFailures: [RealtimeDecodingFailure] { connection.failures.withLock { $0 } }

    /// How many events ``events`` dropped unread because of ``RealtimeSessionOptions/eventBuffering``
    /// (always 0 with ``RealtimeEventBuffering/unbounded``).
    public var droppedEventCount: Int { connection.droppedEvents }

    /// Performs the closing handshake and waits for it; ``events`` finishes.
    ///
    /// - Parameters:
    ///   - code: The close code (default 1000).
    ///   - reason: A UTF-8 reason, at most 123 bytes (default empty).
    /// - Returns: How the connection closed.
    @discardableResult
    public func close(code: WebSocketCloseCode = .normalClosure, reason: String = "") async
        -> WebSocketCloseInfo?
    {
        await connection.close(code: code, reason: reason)
    }
}

extension ResponsesWebSocketSession: CustomStringConvertible, CustomReflectable {
    /// A description without the connection's credentials.
    public var description: String { "ResponsesWebSocketSession()" }

    /// A mirror without the upgrade request's credentials, so `dump(session)` shows no key.
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
