import Foundation

/// A request body read from a stream while it is sent, so it never has to fit in memory.
///
/// Make one from a file (``file(_:)``), from a factory that makes a fresh `InputStream` for every
/// attempt (``replayable(length:makeStream:)``), or from a stream that can be read only once
/// (``oneShot(length:_:)``; such a request is never retried).
public struct HTTPBodyStream: Sendable {
    /// The length in bytes, when known; `nil` sends the body with chunked transfer coding.
    public let length: Int64?
    /// Whether ``makeInputStream()`` can be called more than once.
    public let isReplayable: Bool
    /// Whether reading never waits on another task: a file, or a multipart form of files and
    /// bytes. Only such bodies take `URLSessionTransport`'s direct libcurl path, whose timeouts
    /// and cancellation are checked between reads.
    let readsWithoutWaiting: Bool
    private let source: Source

    private enum Source: Sendable {
        case file(URL)
        case factory(@Sendable () throws -> InputStream)
        case once(OneShotStream)
    }

    private init(length: Int64?, isReplayable: Bool, source: Source, readsWithoutWaiting: Bool = false) {
        self.length = length
        self.isReplayable = isReplayable
        self.source = source
        self.readsWithoutWaiting = readsWithoutWaiting
    }

    /// A body read from the file at `url`; its length is the file's size at this call.
    ///
    /// - Parameter url: A file URL.
    /// - Returns: A replayable stream body.
    /// - Throws: The file-system error when the file's size cannot be read.
    public static func file(_ url: URL) throws -> HTTPBodyStream {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        let size = (attributes[.size] as? NSNumber)?.int64Value
        return HTTPBodyStream(length: size, isReplayable: true, source: .file(url), readsWithoutWaiting: true)
    }

    /// A body made by `makeStream`, called once for every attempt.
    ///
    /// - Parameters:
    ///   - length: The length in bytes, when known.
    ///   - makeStream: Returns a new, unopened stream over the same bytes on every call.
    /// - Returns: A replayable stream body.
    public static func replayable(
        length: Int64?, makeStream: @escaping @Sendable () throws -> InputStream
    ) -> HTTPBodyStream {
        HTTPBodyStream(length: length, isReplayable: true, source: .factory(makeStream))
    }

    /// A body that can be read once: a request carrying it is not retried.
    ///
    /// - Parameters:
    ///   - length: The length in bytes, when known.
    ///   - stream: An unopened stream; the body takes ownership of it.
    /// - Returns: A one-shot stream body.
    /// A replayable body whose streams read only files and bytes (never waiting on a task).
    static func nonBlocking(length: Int64?, makeStream: @escaping @Sendable () throws -> InputStream)
        -> HTTPBodyStream
    {
        HTTPBodyStream(length: length, isReplayable: true, source: .factory(makeStream), readsWithoutWaiting: true)
    }

    public static func oneShot(length: Int64?, _ stream: InputStream) -> HTTPBodyStream {
        HTTPBodyStream(length: length, isReplayable: false, source: .once(OneShotStream(stream)))
    }

    /// The file the body is read from, when it was made with ``file(_:)``.
    var fileURL: URL? {
        if case .file(let url) = source { return url }
        return nil
    }

    /// Makes the stream to read for one attempt.
    ///
    /// - Returns: A new, unopened stream.
    /// - Throws: ``OpenAIError`` of kind ``OpenAIError/Kind/invalidRequest`` when a one-shot
    ///   stream was already taken or the file cannot be opened; the factory's error otherwise.
    public func makeInputStream() throws -> InputStream {
        switch source {
        case .file(let url):
            guard let stream = InputStream(url: url) else {
                throw OpenAIError(kind: .invalidRequest, message: "Cannot open \(url.path) for reading.")
            }
            return stream
        case .factory(let make):
            return try make()
        case .once(let box):
            guard let stream = box.take() else {
                throw OpenAIError(kind: .invalidRequest, message: "A one-shot request body was already sent.")
            }
            return stream
        }
    }
}

/// Holds a one-shot `InputStream` until it is taken once: it is handed out at most once.
private final class OneShotStream: Sendable {
    private let stream: Locked<InputStream?>

    init(_ stream: InputStream) { self.stream = Locked(stream) }

    func take() -> InputStream? {
        stream.withLock { stream in
            defer { stream = nil }
            return stream
        }
    }
}
