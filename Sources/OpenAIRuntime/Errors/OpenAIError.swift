import Foundation

/// The one error type of the SDK: an HTTP error reply, a transport failure, or a reply that does
/// not decode.
///
/// Switch on ``kind`` for the category. For an API error, ``message``, ``type``, ``code`` and
/// ``param`` come from the OpenAI error body (`{"error": {...}}`, spec schema `Error`).
/// The API key is never part of any description.
public struct OpenAIError: Swift.Error, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The category of an ``OpenAIError``; new categories may be added.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        public var description: String { name }

        /// HTTP 400.
        public static let badRequest = Kind("badRequest")
        /// HTTP 401.
        public static let authentication = Kind("authentication")
        /// HTTP 403.
        public static let permissionDenied = Kind("permissionDenied")
        /// HTTP 404.
        public static let notFound = Kind("notFound")
        /// HTTP 409.
        public static let conflict = Kind("conflict")
        /// HTTP 422.
        public static let unprocessableEntity = Kind("unprocessableEntity")
        /// HTTP 429.
        public static let rateLimit = Kind("rateLimit")
        /// HTTP 500 and above.
        public static let server = Kind("server")
        /// Any other non-2xx status.
        public static let status = Kind("status")
        /// The connection failed or was dropped.
        public static let connection = Kind("connection")
        /// An attempt took longer than its timeout.
        public static let timeout = Kind("timeout")
        /// The calling task was cancelled.
        public static let cancelled = Kind("cancelled")
        /// A 2xx reply whose body does not decode as the documented type.
        public static let decoding = Kind("decoding")
        /// The request could not be built (e.g. an empty path parameter) or no credential is set.
        public static let invalidRequest = Kind("invalidRequest")
        /// A webhook delivery failed verification: missing headers, a bad signature, or a
        /// timestamp outside the tolerance.
        public static let webhookVerification = Kind("webhookVerification")
        /// A stream's connection closed in the middle of an event: bytes arrived after the last
        /// complete event (``OpenAIError/rawBody`` holds them).
        public static let truncatedEvent = Kind("truncatedEvent")
        /// A stream ended without the event that completes it (Responses: `response.completed`,
        /// `response.failed`, `response.incomplete` or `error`); see ``OpenAIError/stream``.
        public static let missingTerminalEvent = Kind("missingTerminalEvent")
        /// A Chat Completions or Completions stream ended without `data: [DONE]` while a choice
        /// had no `finish_reason` yet; see ``OpenAIError/stream``.
        public static let unfinishedChoices = Kind("unfinishedChoices")
        /// One server-sent event grew beyond the limit
        /// (``OpenAIClient/Configuration/maxStreamEventBytes``) before it was complete.
        public static let eventTooLarge = Kind("eventTooLarge")
        /// An ``OpenAIStream`` was iterated a second time; each stream sends its request once
        /// (use ``OpenAIStream/resend()`` to send it again).
        public static let streamAlreadyConsumed = Kind("streamAlreadyConsumed")

        static func forStatus(_ status: Int) -> Kind {
            switch status {
            case 400: return .badRequest
            case 401: return .authentication
            case 403: return .permissionDenied
            case 404: return .notFound
            case 409: return .conflict
            case 422: return .unprocessableEntity
            case 429: return .rateLimit
            case 500...: return .server
            default: return .status
            }
        }
    }

    /// The category.
    public var kind: Kind
    /// The HTTP status code, when a reply arrived.
    public var statusCode: Int?
    /// A human-readable message: the API's `error.message` when there is one.
    public var message: String
    /// The API's `error.type`, e.g. `"invalid_request_error"`.
    public var type: String?
    /// The API's `error.code`, e.g. `"rate_limit_exceeded"`; kept as sent, known or not.
    public var code: String?
    /// The API's `error.param`: the request parameter the error is about.
    public var param: String?
    /// The `x-request-id` response header.
    public var requestID: String?
    /// The response headers.
    public var headers: [String: String]
    /// The reply's body, at most 8 KiB of it, when there was one.
    public var rawBody: Data?
    /// For ``Kind/decoding``: the JSON path of the member that failed, e.g. `choices[0].message`.
    public var codingPath: String?
    /// For errors that end a stream: what the stream had delivered.
    public var stream: StreamProgress?

    /// Creates an error.
    public init(
        kind: Kind, statusCode: Int? = nil, message: String, type: String? = nil, code: String? = nil,
        param: String? = nil, requestID: String? = nil, headers: [String: String] = [:],
        rawBody: Data? = nil, codingPath: String? = nil
    ) {
        self.kind = kind
        self.statusCode = statusCode
        self.message = message
        self.type = type
        self.code = code
        self.param = param
        self.requestID = requestID
        self.headers = headers
        self.rawBody = rawBody.map { Data($0.prefix(8192)) }
        self.codingPath = codingPath
    }

    /// The kind, status, code, request id and message, with any secret in the message masked.
    public var description: String {
        var parts = ["OpenAIError.\(kind)"]
        if let statusCode { parts.append("status \(statusCode)") }
        if let code { parts.append("code \(code)") }
        if let requestID { parts.append("request \(requestID)") }
        if let codingPath { parts.append("at \(codingPath)") }
        if let stream { parts.append("after \(stream.eventCount) events") }
        return parts.joined(separator: ", ") + ": " + Redaction.text(message)
    }

    /// The body excerpt (at most 512 bytes, as UTF-8), the method and request id and the
    /// response headers with credentials and cookies redacted.
    public var debugDescription: String {
        var text = description
        if !headers.isEmpty {
            let rendered = HTTPHeaders.redacted(headers).sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
            text += "\nheaders: " + rendered.joined(separator: "; ")
        }
        if let rawBody, !rawBody.isEmpty {
            text += "\nbody: " + Redaction.text(String(decoding: rawBody.prefix(512), as: UTF8.self))
        }
        return text
    }

    /// A cancellation error.
    static func cancelled(_ message: String = "The request was cancelled.") -> OpenAIError {
        OpenAIError(kind: .cancelled, message: message)
    }

    /// Builds the error for a non-2xx reply from whatever its body says (``ErrorBody``): OpenAI's
    /// envelope, the same members without it, other servers' shapes, text or HTML. The raw body is
    /// always kept (its first 8 KiB).
    static func fromResponse(_ response: HTTPResponse) -> OpenAIError {
        let body = ErrorBody(response.body)
        return OpenAIError(
            kind: .forStatus(response.statusCode), statusCode: response.statusCode,
            message: body.message ?? "HTTP \(response.statusCode)", type: body.type, code: body.code,
            param: body.param, requestID: response.value(forHeader: "x-request-id"), headers: response.headers,
            rawBody: response.body)
    }

    /// Builds the error for a 2xx reply that does not decode, naming the JSON path that failed.
    package static func decoding(_ error: DecodingError, response: HTTPResponse) -> OpenAIError {
        let (path, detail): ([any CodingKey], String) =
            switch error {
            case .keyNotFound(let key, let context):
                (context.codingPath + [key], "required member is missing")
            case .typeMismatch(_, let context): (context.codingPath, context.debugDescription)
            case .valueNotFound(_, let context): (context.codingPath, context.debugDescription)
            case .dataCorrupted(let context): (context.codingPath, context.debugDescription)
            @unknown default: ([], "\(error)")
            }
        let rendered = path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        let codingPath = rendered.hasPrefix(".") ? String(rendered.dropFirst()) : rendered
        return OpenAIError(
            kind: .decoding, statusCode: response.statusCode,
            message: "The reply does not decode at \(codingPath.isEmpty ? "the top level" : codingPath): \(detail)",
            requestID: response.value(forHeader: "x-request-id"), headers: response.headers,
            rawBody: response.body, codingPath: codingPath)
    }
}

extension OpenAIError: CustomReflectable {
    /// A mirror with the headers' credentials redacted and secrets in the message and body masked,
    /// so `dump(error)` shows no key.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "kind": kind, "statusCode": statusCode as Any, "message": Redaction.text(message), "type": type as Any,
                "code": code as Any, "param": param as Any, "requestID": requestID as Any,
                "headers": HTTPHeaders.redacted(headers),
                "rawBody": rawBody.map { Redaction.text(String(decoding: $0.prefix(512), as: UTF8.self)) } as Any,
                "codingPath": codingPath as Any, "stream": stream as Any,
            ])
    }
}
