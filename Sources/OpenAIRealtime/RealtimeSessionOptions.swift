import OpenAI
import Foundation
import OpenAIWebSocket

/// Options for a ``RealtimeSession`` or ``ResponsesWebSocketSession``.
public struct RealtimeSessionOptions: Sendable {
    /// The WebSocket endpoint without query, replacing the one derived from the client's base URL
    /// (`wss://api.openai.com/v1/realtime` or `.../v1/responses`); `ws://` or `wss://`. For tests and
    /// proxies. The target's query items (`model`, `call_id`, `intent`) are still appended.
    public var endpoint: URL?
    /// Extra headers for the upgrade request (they override the client's headers of the same name).
    public var headers: [String: String]
    /// Transport options: timeouts, message size limit and TLS trust (for example a test CA).
    public var webSocket: WebSocketConfiguration
    /// How long a helper that awaits a reply (for example ``RealtimeSession/updateSession(_:)``)
    /// waits before throwing ``RealtimeError/Kind/replyTimeout`` (default 30 seconds).
    public var replyTimeout: Duration
    /// The most PCM16 bytes per `input_audio_buffer.append` event (default 11,796,480 bytes, so the
    /// base64 text stays within the API's 15 MiB per event; spec schema
    /// ``/OpenAI/RealtimeClientEventInputAudioBufferAppend``). Rounded down to a whole number of samples.
    public var maxAudioBytesPerAppend: Int
    /// How `events` keeps server events the caller has not read yet (default
    /// ``RealtimeEventBuffering/unbounded``). Helpers that await replies see every event either way.
    public var eventBuffering: RealtimeEventBuffering

    /// The default of ``maxAudioBytesPerAppend``: the largest whole-sample PCM16 byte count whose
    /// base64 encoding fits in 15 MiB (15,728,640 bytes).
    public static let defaultMaxAudioBytesPerAppend = (15 << 20) / 4 * 3

    /// Creates options.
    ///
    /// - Parameters:
    ///   - endpoint: A `ws://` or `wss://` endpoint replacing the default (default `nil`).
    ///   - headers: Extra upgrade headers (default none).
    ///   - webSocket: Transport options (default ``WebSocketConfiguration/init(connectTimeout:closeTimeout:maxMessageBytes:sendBufferHighWaterBytes:tls:transport:)``).
    ///   - replyTimeout: How long helpers wait for a reply (default 30 seconds).
    ///   - maxAudioBytesPerAppend: Most PCM16 bytes per append event (default 11,796,480 bytes).
    ///   - eventBuffering: How unread server events are kept (default unbounded).
    public init(
        endpoint: URL? = nil,
        headers: [String: String] = [:],
        webSocket: WebSocketConfiguration = WebSocketConfiguration(),
        replyTimeout: Duration = .seconds(30),
        maxAudioBytesPerAppend: Int = RealtimeSessionOptions.defaultMaxAudioBytesPerAppend,
        eventBuffering: RealtimeEventBuffering = .unbounded
    ) {
        self.endpoint = endpoint
        self.headers = headers
        self.webSocket = webSocket
        self.replyTimeout = replyTimeout
        self.maxAudioBytesPerAppend = maxAudioBytesPerAppend
        self.eventBuffering = eventBuffering
    }
}

extension RealtimeSessionOptions: CustomReflectable {
    /// A mirror with header credentials redacted.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "endpoint": endpoint.map(Redaction.url) as Any, "headers": Redaction.headers(headers),
                "webSocket": webSocket, "replyTimeout": replyTimeout, "maxAudioBytesPerAppend": maxAudioBytesPerAppend,
                "eventBuffering": eventBuffering,
            ])
    }
}
