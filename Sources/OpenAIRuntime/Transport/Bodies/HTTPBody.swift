import Foundation

/// The body of an ``HTTPRequest``: bytes in memory, or a stream read while sending.
public enum HTTPBody: Sendable {
    /// Bytes held in memory; always replayable.
    case data(Data)
    /// Bytes read from a stream while the request is sent (large uploads, multipart forms of
    /// files); replayable only when the stream can be made anew.
    case stream(HTTPBodyStream)

    /// Whether the body can be sent again for a retry: always for ``data(_:)``, for a stream only
    /// when it is made from a file or a factory.
    public var isReplayable: Bool {
        switch self {
        case .data: true
        case .stream(let stream): stream.isReplayable
        }
    }

    /// The body's length in bytes, when known (sent as `Content-Length`).
    public var length: Int64? {
        switch self {
        case .data(let data): Int64(data.count)
        case .stream(let stream): stream.length
        }
    }
}
