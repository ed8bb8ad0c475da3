import Foundation
import OpenAI
import OpenAIWebSocket

/// A typed Realtime API session over WebSocket (`wss://api.openai.com/v1/realtime`).
///
/// Client events are the generated ``/OpenAI/RealtimeClientEvent`` types; server events arrive in ``events``
/// as the generated ``/OpenAI/RealtimeServerEvent`` union. Event types this SDK does not know (for example
/// `transcription_session.updated`, or the beta name `response.audio_transcript.done`) arrive as
/// `.unknown` with their raw JSON, and the session keeps running.
///
/// ```swift
/// let session = try await RealtimeSession.connect(.model("gpt-realtime"), client: client)
/// _ = try await session.updateSession(.realtime(.init(instructions: "Be brief.")))
/// try await session.appendAudio(pcm16)              // 24 kHz mono PCM16 little-endian
/// _ = try await session.commitAudio()
/// _ = try await session.createResponse()
/// for try await event in session.events {
///     switch event {
///     case .responseOutputAudioDelta(let delta): play(delta.delta)
///     case .responseFunctionCallArgumentsDone(let call):
///         _ = try await session.sendFunctionCallOutput(callID: call.callID, output: "{}")
///     case .responseDone: await session.close()
///     default: break
///     }
/// }
/// ```
///
/// Helpers that await a reply throw ``RealtimeError`` of kind ``RealtimeError/Kind/serverError``
/// when the server answers their event with an `error` event (matched by `event_id`; an error
/// without `event_id` fails every pending helper); the `error` event is delivered in ``events`` too.
/// With server VAD the server also starts responses itself, so a reply can belong to an event the
/// caller did not send; ``events`` is the authoritative record.
///
/// The session lives until ``close(code:reason:)``, the server closing, or the session being
/// dropped (then the socket closes with 1000).
public final class RealtimeSession: Sendable {
    /// The server events, in order, including `error` events and `.unknown` ones.
    ///
    /// Iterate it from one task. It finishes without error after a 1000 close or a close this side
    /// started, and throws ``WebSocketError`` (kind ``WebSocketError/Kind/closed`` with
    /// ``WebSocketError/closeInfo``) when the server closes with another code, for example 1011,
    /// or the connection drops (1006). Buffered as ``RealtimeSessionOptions/eventBuffering`` says
    /// (default: without limit until read).
    public var events: AsyncThrowingStream<RealtimeServerEvent, any Error> { connection.events }

    /// The options the session was opened with.
    public let options: RealtimeSessionOptions

    private struct RouterState {
        var router = RealtimeReplyRouter<ReplySlot>()
        var nextToken = 0
        var ended: RealtimeError?
    }

    private let connection: EventConnection<RealtimeServerEvent>
    private let routerState: Locked<RouterState>
    let endpoint: RealtimeEndpoint
    /// Builds the endpoint of a reconnect: a server-side session asks the key provider again.
    let reopen: @Sendable () async throws -> RealtimeEndpoint
    private let eventIDPrefix: String

    private init(
        connection: EventConnection<RealtimeServerEvent>, routerState: Locked<RouterState>,
        endpoint: RealtimeEndpoint, options: RealtimeSessionOptions,
        reopen: @escaping @Sendable () async throws -> RealtimeEndpoint
    ) {
        self.connection = connection
        self.routerState = routerState
        self.endpoint = endpoint
        self.options = options
        self.reopen = reopen
        eventIDPrefix = "evt_swift_" + String(UInt32.random(in: 0...UInt32.max), radix: 36) + "_"
    }

    // MARK: Connecting

    /// Opens a server-side session with the client's API key in the `Authorization` header.
    ///
    /// With Azure settings (``/OpenAI/OpenAIClient/Configuration/azure``) the session connects as
    /// openai-python's `AzureOpenAI` does: `wss://<resource>/openai/realtime` with the
    /// `api-version` query and `deployment` (the configured deployment, else the target's model)
    /// in place of `model`, and the key in an `api-key` header (a token provider's token as
    /// `Authorization: Bearer`).
    ///
    /// Sessions speak the GA protocol only: the beta protocol (`OpenAI-Beta: realtime=v1`) sends
    /// events of other names and shapes than the generated ``/OpenAI/RealtimeServerEvent``, so a client or
    /// session header that asks for it is refused rather than decoded wrongly.
    ///
    /// - Parameters:
    ///   - target: The model, call or transcription intent, for example `.model("gpt-realtime")`.
    ///   - client: Supplies the API key (or key provider, asked again on every
    ///     ``reconnect(policy:willReconnect:)``), organization, project, default headers and base
    ///     URL (`https://api.openai.com/v1` becomes `wss://api.openai.com/v1/realtime`).
    ///   - options: Endpoint override, TLS trust, timeouts and audio chunk size.
    /// - Returns: The open session.
    /// - Throws: ``RealtimeError`` of kind ``RealtimeError/Kind/invalidConfiguration`` without an API
    ///   key, with a base URL that is not http(s), or with `OpenAI-Beta: realtime=v1`;
    ///   ``WebSocketError`` when connecting, TLS or the upgrade fails (for example
    ///   ``WebSocketError/Kind/handshakeRejected`` with HTTP 401).
    public static func connect(
        _ target: Target, client: OpenAIClient,
        options: RealtimeSessionOptions = RealtimeSessionOptions()
    ) async throws -> RealtimeSession {
        let configuration = client.configuration
        let reopen: @Sendable () async throws -> RealtimeEndpoint = {
            try await RealtimeEndpoint.server(target, configuration: configuration, options: options)
        }
        return try await open(try await reopen(), options: options, reopen: reopen)
    }

    /// Opens a session with an ephemeral client secret, offered as the subprotocol
    /// `openai-insecure-api-key.<secret>` next to `realtime` (no API key leaves the server).
    ///
    /// Create the secret on a server with `client.realtime.clientSecrets.create(...)` and pass its
    /// `value` (`ek_…`); it expires at its `expires_at`.
    ///
    /// - Parameters:
    ///   - target: The model, call or transcription intent.
    ///   - clientSecret: The ephemeral secret, for example `ek_…`.
    ///   - options: Endpoint override (default `wss://api.openai.com/v1/realtime`), TLS, timeouts.
    /// - Returns: The open session.
    /// - Throws: ``RealtimeError`` of kind ``RealtimeError/Kind/invalidConfiguration`` for a bad
    ///   endpoint; ``WebSocketError`` when connecting, TLS or the upgrade fails.
    public static func connect(
        _ target: Target, clientSecret: String,
        options: RealtimeSessionOptions = RealtimeSessionOptions()
    ) async throws -> RealtimeSession {
        let base =
            try options.endpoint
            ?? RealtimeEndpoint.webSocketURL(
                baseURL: OpenAIClient.Configuration.defaultBaseURL, path: "realtime")
        var headers = ["User-Agent": RealtimeEndpoint.userAgent]
        RealtimeEndpoint.merge(options.headers, into: &headers)
        let endpoint = RealtimeEndpoint(
            url: try RealtimeEndpoint.url(base, queryItems: target.queryItems),
            headers: headers,
            subprotocols: RealtimeEndpoint.clientSecretSubprotocols(clientSecret))
        try RealtimeEndpoint.refuseBeta(headers)
        return try await open(endpoint, options: options, reopen: { endpoint })
    }

    static func open(
        _ endpoint: RealtimeEndpoint, options: RealtimeSessionOptions,
        reopen: @escaping @Sendable () async throws -> RealtimeEndpoint
    ) async throws -> RealtimeSession {
        let routerState = Locked(RouterState())
        let connection = try await EventConnection(
            endpoint: endpoint, configuration: options.webSocket, buffering: options.eventBuffering,
            unknown: { RealtimeServerEvent.unknown($0) },
            onEvent: { event in
                let resolutions = routerState.withLock { $0.router.route(event) }
                for resolution in resolutions {
                    switch resolution {
                    case .reply(let slot, let reply): slot.resolve(.success(reply))
                    case .failure(let slot, let error):
                        slot.resolve(.failure(RealtimeError.server(error)))
                    }
                }
            },
            onEnd: { info, transportError in
                let error = RealtimeError(
                    .closed, "the connection closed before the reply", closeInfo: info,
                    underlying: transportError)
                let slots = routerState.withLock { state in
                    state.ended = error
                    return state.router.removeAll()
                }
                for slot in slots { slot.resolve(.failure(error)) }
            })
        return RealtimeSession(
            connection: connection, routerState: routerState, endpoint: endpoint, options: options,
            reopen: reopen)
    }

    // MARK: State

    /// The subprotocol the server selected (`realtime` when a client secret was offered), or `nil`.
    public var subprotocol: String? { connection.socket.subprotocol }

    /// How the connection closed (code, reason, which side), or `nil` while it is open.
    public var closeInfo: WebSocketCloseInfo? { connection.socket.closeInfo }

    /// Server messages that were delivered as `.unknown` because a known event type did not decode
    /// (or the message was not JSON): the last 100, oldest first. Unknown event *types* are not listed.
    public var decodingFailures: [RealtimeDecodingFailure] { connection.failures.withLock { $0 } }

    /// How many events ``events`` dropped unread because of ``RealtimeSessionOptions/eventBuffering``
    /// (always 0 with ``RealtimeEventBuffering/unbounded``).
    public var droppedEventCount: Int { connection.droppedEvents }

    // MARK: Sending

    /// Sends any client event as JSON text, without waiting for a reply.
    ///
    /// - Parameters:
    ///   - event: The event, for example `.conversationItemCreate(...)`.
    /// - Throws: ``RealtimeError`` of kind ``RealtimeError/Kind/encodingFailed``; ``WebSocketError``
    ///   of kind ``WebSocketError/Kind/closed`` once the connection is closing or closed.
    public func send(_ event: RealtimeClientEvent) async throws {
        try await connection.socket.send(utf8Text: try EventDecoding.encode(event))
    }

    /// Sends `session.update` and waits for `session.updated`.
    ///
    /// - Parameters:
    ///   - session: The configuration: `.realtime(...)` or `.transcription(...)`
    ///     (schema ``/OpenAI/RealtimeClientEventSessionUpdate``).
    /// - Returns: The `session.updated` event with the effective configuration.
    /// - Throws: ``RealtimeError`` of kind ``RealtimeError/Kind/serverError`` (the server's `error`
    ///   event), ``RealtimeError/Kind/replyTimeout`` after ``RealtimeSessionOptions/replyTimeout``,
    ///   ``RealtimeError/Kind/closed``, ``RealtimeError/Kind/cancelled``; ``WebSocketError`` if closed.
    public func updateSession(_ session: RealtimeClientEventSessionUpdate.Session) async throws
        -> RealtimeServerEventSessionUpdated
    {
        let id = nextEventID()
        var update = RealtimeClientEventSessionUpdate(session: session)
        update.eventID = id
        let reply = try await request(
            .sessionUpdate(update), eventID: id, replies: [.sessionUpdated])
        guard case .sessionUpdated(let updated) = reply else { throw unexpected(reply) }
        return updated
    }

    /// Appends PCM16 audio to the input buffer as `input_audio_buffer.append` events, base64
    /// encoded, split so no event carries more than ``RealtimeSessionOptions/maxAudioBytesPerAppend``
    /// bytes (the API allows 15 MiB per event). The server sends no reply to appends; errors about
    /// them arrive in ``events``.
    ///
    /// - Parameters:
    ///   - pcm16: Little-endian 16-bit mono samples at the session's input rate (24 kHz for `audio/pcm`).
    /// - Returns: The number of append events sent (0 for empty audio).
    /// - Throws: ``WebSocketError`` of kind ``WebSocketError/Kind/closed`` once the connection is
    ///   closing or closed.
    @discardableResult
    public func appendAudio(_ pcm16: Data) async throws -> Int {
        let chunk = max(2, options.maxAudioBytesPerAppend & ~1)
        var sent = 0
        var start = pcm16.startIndex
        while start < pcm16.endIndex {
            let end = pcm16.index(start, offsetBy: chunk, limitedBy: pcm16.endIndex) ?? pcm16.endIndex
            try await connection.socket.send(utf8Text: AudioAppendEncoder.event(pcm16[start..<end]))
            sent += 1
            start = end
        }
        return sent
    }

    /// Appends 16-bit samples to the input buffer (converted to little-endian PCM16 bytes); see
    /// ``appendAudio(_:)``.
    ///
    /// - Parameters:
    ///   - samples: Mono samples at the session's input rate (24 kHz for `audio/pcm`).
    /// - Returns: The number of append events sent.
    /// - Throws: ``WebSocketError`` of kind ``WebSocketError/Kind/closed`` once closing or closed.
    @discardableResult
    public func appendAudio(samples: [Int16]) async throws -> Int {
        var data = Data(count: samples.count * 2)
        data.withUnsafeMutableBytes { bytes in
            for (index, sample) in samples.enumerated() {
                bytes.storeBytes(of: sample.littleEndian, toByteOffset: index * 2, as: Int16.self)
            }
        }
        return try await appendAudio(data)
    }

    /// Sends `input_audio_buffer.commit` and waits for `input_audio_buffer.committed`.
    ///
    /// - Returns: The `input_audio_buffer.committed` event (with the new user item's ID).
    /// - Throws: ``RealtimeError`` (for example ``RealtimeError/Kind/serverError`` when the buffer
    ///   is empty), ``WebSocketError`` if closed. See ``updateSession(_:)``.
    public func commitAudio() async throws -> RealtimeServerEventInputAudioBufferCommitted {
        let id = nextEventID()
        let reply = try await request(
            RealtimeClientEvent.inputAudioBufferCommit(.init(eventID: id)), eventID: id,
            replies: [.inputAudioBufferCommitted])
        guard case .inputAudioBufferCommitted(let committed) = reply else {
            throw unexpected(reply)
        }
        return committed
    }

    /// Sends `input_audio_buffer.clear` and waits for `input_audio_buffer.cleared`.
    ///
    /// - Returns: The `input_audio_buffer.cleared` event.
    /// - Throws: ``RealtimeError``, ``WebSocketError`` if closed. See ``updateSession(_:)``.
    public func clearAudio() async throws -> RealtimeServerEventInputAudioBufferCleared {
        let id = nextEventID()
        let reply = try await request(
            RealtimeClientEvent.inputAudioBufferClear(.init(eventID: id)), eventID: id,
            replies: [.inputAudioBufferCleared])
        guard case .inputAudioBufferCleared(let cleared) = reply else { throw unexpected(reply) }
        return cleared
    }

    /// Sends `response.create` and waits for `response.created`; the response's output then
    /// streams in ``events`` until `response.done`.
    ///
    /// - Parameters:
    ///   - response: Per-response overrides (schema ``/OpenAI/RealtimeResponseCreateParams``), or `nil` to use
    ///     the session's configuration.
    /// - Returns: The `response.created` event.
    /// - Throws: ``RealtimeError``, ``WebSocketError`` if closed. See ``updateSession(_:)``.
    public func createResponse(_ response: RealtimeResponseCreateParams? = nil) async throws
        -> RealtimeServerEventResponseCreated
    {
        let id = nextEventID()
        let reply = try await request(
            RealtimeClientEvent.responseCreate(.init(eventID: id, response: response)), eventID: id,
            replies: [.responseCreated])
        guard case .responseCreated(let created) = reply else { throw unexpected(reply) }
        return created
    }

    /// Sends a function call's result as a `function_call_output` item (`conversation.item.create`)
    /// and waits until the server added it (`conversation.item.added`, or the beta
    /// `conversation.item.created`). Call ``createResponse(_:)`` afterwards to let the model answer.
    ///
    /// - Parameters:
    ///   - callID: The `call_id` from `response.function_call_arguments.done`.
    ///   - output: The function's result, usually JSON text.
    /// - Returns: The item as the server stored it.
    /// - Throws: ``RealtimeError``, ``WebSocketError`` if closed. See ``updateSession(_:)``.
    public func sendFunctionCallOutput(callID: String, output: String) async throws
        -> RealtimeConversationItem
    {
        let id = nextEventID()
        let item = RealtimeConversationItem.functionCallOutput(
            .init(callID: callID, output: output))
        var create = RealtimeClientEventConversationItemCreate(item: item)
        create.eventID = id
        let reply = try await request(
            .conversationItemCreate(create), eventID: id, replies: [.conversationItemAdded])
        switch reply {
        case .conversationItemAdded(let added): return added.item
        case .conversationItemCreated(let created): return created.item
        default: throw unexpected(reply)
        }
    }

    /// Sends `response.cancel` and waits for the `response.done` that ends the response
    /// (with status `cancelled`, or `completed` when it finished first).
    ///
    /// - Parameters:
    ///   - responseID: The response to cancel (then only its `response.done` is the reply), or
    ///     `nil` for the one in progress (then the next `response.done` is).
    /// - Returns: The `response.done` event.
    /// - Throws: ``RealtimeError`` of kind ``RealtimeError/Kind/serverError`` when no response is in
    ///   progress; see ``updateSession(_:)``.
    public func cancelResponse(responseID: String? = nil) async throws
        -> RealtimeServerEventResponseDone
    {
        let id = nextEventID()
        let reply = try await request(
            RealtimeClientEvent.responseCancel(.init(eventID: id, responseID: responseID)),
            eventID: id, replies: [.responseDone], responseID: responseID)
        guard case .responseDone(let done) = reply else { throw unexpected(reply) }
        return done
    }

    /// Performs the closing handshake and waits for it (at most
    /// ``WebSocketConfiguration/closeTimeout``); helpers still waiting fail with
    /// ``RealtimeError/Kind/closed``, and ``events`` finishes.
    ///
    /// - Parameters:
    ///   - code: The close code (default 1000).
    ///   - reason: A UTF-8 reason, at most 123 bytes (default empty).
    /// - Returns: How the connection closed: this side's code, or the server's if it closed first.
    @discardableResult
    public func close(code: WebSocketCloseCode = .normalClosure, reason: String = "") async
        -> WebSocketCloseInfo?
    {
        await connection.close(code: code, reason: reason)
    }

    // MARK: Internals

    private func nextEventID() -> String {
        let number = routerState.withLock { state -> Int in
            state.nextToken += 1
            return state.nextToken
        }
        return eventIDPrefix + String(number)
    }

    private func unexpected(_ reply: RealtimeServerEvent) -> RealtimeError {
        RealtimeError(.serverError, "unexpected reply \(reply)")
    }

    /// Sends `event` and waits for a reply of one of `replies` or an `error` naming `eventID`.
    private func request(
        _ event: RealtimeClientEvent, eventID: String, replies: Set<RealtimeReplyKind>,
        responseID: String? = nil
    ) async throws -> RealtimeServerEvent {
        let text = try EventDecoding.encode(event)
        let slot = ReplySlot()
        let token = try routerState.withLock { state throws(RealtimeError) -> Int in
            if let ended = state.ended { throw ended }
            state.nextToken += 1
            state.router.register(
                token: state.nextToken, clientEventID: eventID, replyKinds: replies,
                responseID: responseID, waiter: slot)
            return state.nextToken
        }
        defer { _ = routerState.withLock { $0.router.remove(token: token) } }
        try await connection.socket.send(utf8Text: text)
        let timeout = options.replyTimeout
        let timer = Task {
            try? await Task.sleep(for: timeout)
            guard !Task.isCancelled else { return }
            slot.resolve(
                .failure(RealtimeError(.replyTimeout, "no reply to \(eventID) within \(timeout)")))
        }
        defer { timer.cancel() }
        return try await slot.value()
    }
}

extension RealtimeSession: CustomStringConvertible, CustomReflectable {
    /// The endpoint and options, credentials redacted.
    public var description: String {
        "RealtimeSession(\(Redaction.url(endpoint.url)), subprotocols: \(Redaction.subprotocols(endpoint.subprotocols)))"
    }

    /// A mirror without the upgrade request's credentials (`Authorization`, the client secret in
    /// the `openai-insecure-api-key.` subprotocol), so `dump(session)` shows no secret.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "url": Redaction.url(endpoint.url), "headers": Redaction.headers(endpoint.headers),
                "subprotocols": Redaction.subprotocols(endpoint.subprotocols), "options": options,
            ])
    }
}
