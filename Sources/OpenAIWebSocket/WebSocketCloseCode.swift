/// A WebSocket close status code (RFC 6455 section 7.4).
///
/// An open set: any code the peer sends is kept, including registered codes this type has no
/// constant for and application codes in 3000...4999.
public struct WebSocketCloseCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The numeric status code sent in the first two bytes of a close frame payload.
    public var rawValue: UInt16

    /// Creates a close code from its numeric value.
    ///
    /// - Parameters:
    ///   - rawValue: The status code, for example 1000.
    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    /// 1000: the purpose of the connection has been fulfilled.
    public static let normalClosure = WebSocketCloseCode(rawValue: 1000)
    /// 1001: an endpoint is going away (server shutting down, client navigating away).
    public static let goingAway = WebSocketCloseCode(rawValue: 1001)
    /// 1002: an endpoint received a frame that violates RFC 6455.
    public static let protocolError = WebSocketCloseCode(rawValue: 1002)
    /// 1003: an endpoint received a data type it cannot accept.
    public static let unsupportedData = WebSocketCloseCode(rawValue: 1003)
    /// 1005: no status code was present in the close frame (never sent on the wire).
    public static let noStatusReceived = WebSocketCloseCode(rawValue: 1005)
    /// 1006: the connection closed without a close frame (never sent on the wire).
    public static let abnormalClosure = WebSocketCloseCode(rawValue: 1006)
    /// 1007: a text message or close reason was not valid UTF-8.
    public static let invalidFramePayloadData = WebSocketCloseCode(rawValue: 1007)
    /// 1008: a message violated the endpoint's policy.
    public static let policyViolation = WebSocketCloseCode(rawValue: 1008)
    /// 1009: a message was larger than the endpoint accepts.
    public static let messageTooBig = WebSocketCloseCode(rawValue: 1009)
    /// 1010: the client expected the server to negotiate an extension.
    public static let mandatoryExtensionMissing = WebSocketCloseCode(rawValue: 1010)
    /// 1011: the server hit an unexpected condition (OpenAI uses it for "keepalive ping timeout").
    public static let internalError = WebSocketCloseCode(rawValue: 1011)
    /// 1012: the service is restarting (IANA registry).
    public static let serviceRestart = WebSocketCloseCode(rawValue: 1012)
    /// 1013: try again later (IANA registry).
    public static let tryAgainLater = WebSocketCloseCode(rawValue: 1013)
    /// 1015: the TLS handshake failed (RFC 6455 section 7.4.1); never sent in a close frame, only
    /// reported.
    public static let tlsHandshake = WebSocketCloseCode(rawValue: 1015)

    /// Whether the code may appear in a close frame on the wire (RFC 6455 section 7.4.1 and 7.4.2).
    ///
    /// Codes 1004, 1005, 1006 and 1015 are reserved for local use; 1016...2999 are unassigned;
    /// below 1000 and above 4999 are invalid.
    public var isValidOnTheWire: Bool {
        switch rawValue {
        case 1000...1003, 1007...1014, 3000...4999: return true
        default: return false
        }
    }

    /// The numeric code, for example `1011`.
    public var description: String { String(rawValue) }
}
