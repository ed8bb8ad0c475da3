import Foundation

/// A file for a `multipart/form-data` field (spec `type: string, format: binary`): where its bytes
/// come from, its filename and its content type.
///
/// Three sources, chosen by the initialiser:
/// - ``init(data:filename:contentType:)``: bytes in memory;
/// - ``init(fileURL:filename:contentType:)``: a file on disk, read in 64 KiB chunks while the
///   request is sent, so its size never matters for memory; the request can be retried;
/// - ``init(stream:length:filename:contentType:)``: chunks from an asynchronous sequence, read
///   once; a request carrying it is never retried.
///
/// ```swift
/// let file = try FileUpload(fileURL: URL(fileURLWithPath: "train.jsonl"))
/// let created = try await client.files.create(.init(file: file, purpose: .fineTune))
/// ```
public struct FileUpload: Hashable, Sendable {
    /// Where the bytes come from.
    enum Source: Hashable, Sendable {
        /// Bytes in memory.
        case data(Data)
        /// `length` bytes of the file at `url`, from byte `offset`.
        case file(url: URL, offset: Int64, length: Int64)
        /// A one-shot asynchronous sequence of chunks.
        case stream(AsyncChunkSource)
    }

    let source: Source
    /// The filename sent in `Content-Disposition`; the API uses its extension to tell the format.
    public var filename: String
    /// The part's `Content-Type`, e.g. `audio/mpeg`.
    public var contentType: String

    /// The size of the file in bytes.
    public var length: Int64 {
        switch source {
        case .data(let data): Int64(data.count)
        case .file(_, _, let length): length
        case .stream(let source): source.length
        }
    }

    /// Whether the bytes can be read again from the start, so a failed request can be retried:
    /// `true` for data and files, `false` for a stream.
    public var isReplayable: Bool {
        if case .stream = source { return false }
        return true
    }

    /// Creates an upload from bytes in memory.
    ///
    /// - Parameters:
    ///   - data: The file's bytes.
    ///   - filename: The filename; when `nil`, `file` with an extension guessed from the first
    ///     bytes (`file.png`, `file.mp3`, `file.jsonl`, ...; see ``defaultFilename(for:)``), so
    ///     the API can tell the format.
    ///   - contentType: The content type; inferred from the filename's extension when `nil`.
    public init(data: Data, filename: String? = nil, contentType: String? = nil) {
        let name = filename ?? Self.defaultFilename(for: data)
        self.init(source: .data(data), filename: name, contentType: contentType)
    }

    /// Creates an upload of the file at `fileURL`, read from disk while the request is sent.
    ///
    /// The file's size is taken now and sent as part of `Content-Length`; a file that shrinks
    /// before it is sent fails the request, one that grows is sent up to this size.
    ///
    /// - Parameters:
    ///   - fileURL: A file URL.
    ///   - filename: The filename sent; the URL's last path component when `nil`.
    ///   - contentType: The content type; inferred from the filename's extension when `nil`.
    /// - Throws: ``OpenAIError`` of kind ``OpenAIError/Kind/invalidRequest`` when `fileURL` is not
    ///   a file URL or names no readable regular file.
    public init(fileURL: URL, filename: String? = nil, contentType: String? = nil) throws {
        let size = try Self.regularFileSize(fileURL)
        self.init(
            source: .file(url: fileURL, offset: 0, length: size),
            filename: filename ?? fileURL.lastPathComponent, contentType: contentType)
    }

    /// Creates an upload of `length` bytes of the file at `fileURL` from byte `offset` (one part
    /// of a chunked upload), read from disk while the request is sent.
    ///
    /// - Parameters:
    ///   - fileURL: A file URL.
    ///   - offset: The first byte, counted from 0.
    ///   - length: The number of bytes, in bytes.
    ///   - filename: The filename sent; the URL's last path component when `nil`.
    ///   - contentType: The content type; `application/octet-stream` when `nil`.
    /// - Throws: ``OpenAIError`` of kind ``OpenAIError/Kind/invalidRequest`` when the file cannot
    ///   be read or the range does not lie within it.
    public init(
        fileURL: URL, offset: Int64, length: Int64, filename: String? = nil, contentType: String? = nil
    ) throws {
        let size = try Self.regularFileSize(fileURL)
        guard offset >= 0, length >= 0, offset + length <= size else {
            throw OpenAIError(
                kind: .invalidRequest,
                message: "Bytes \(offset)..<\(offset + length) are not within \(fileURL.path) (\(size) bytes).")
        }
        self.init(
            source: .file(url: fileURL, offset: offset, length: length),
            filename: filename ?? fileURL.lastPathComponent,
            contentType: contentType ?? "application/octet-stream")
    }

    /// Creates an upload whose bytes arrive as chunks from `stream` while the request is sent.
    ///
    /// The stream is read once: a request carrying it is not retried, and sending it twice fails.
    ///
    /// - Parameters:
    ///   - stream: The chunks, in order; together exactly `length` bytes.
    ///   - length: The total size in bytes, needed up front for `Content-Length`.
    ///   - filename: The filename sent, e.g. `recording.wav`.
    ///   - contentType: The content type; inferred from the filename's extension when `nil`.
    public init<Chunks: AsyncSequence & Sendable>(
        stream: Chunks, length: Int64, filename: String, contentType: String? = nil
    ) where Chunks.Element == Data {
        self.init(
            source: .stream(AsyncChunkSource(stream, length: length)), filename: filename,
            contentType: contentType)
    }

    init(source: Source, filename: String, contentType: String?) {
        self.source = source
        self.filename = filename
        self.contentType =
            contentType ?? FileUpload.contentType(forExtension: (filename as NSString).pathExtension)
    }

    private static func regularFileSize(_ url: URL) throws -> Int64 {
        guard url.isFileURL else {
            throw OpenAIError(kind: .invalidRequest, message: "\(url) is not a file URL.")
        }
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        } catch {
            throw OpenAIError(kind: .invalidRequest, message: "Cannot read \(url.path): \(error.localizedDescription)")
        }
        guard attributes[.type] as? FileAttributeType == .typeRegular,
            FileManager.default.isReadableFile(atPath: url.path),
            let size = (attributes[.size] as? NSNumber)?.int64Value
        else {
            throw OpenAIError(kind: .invalidRequest, message: "\(url.path) is not a readable regular file.")
        }
        return size
    }

    /// The content type for a filename extension, `application/octet-stream` when unknown.
    ///
    /// - Parameter pathExtension: The extension without the dot, in any case, e.g. `"MP3"`.
    /// - Returns: A media type such as `audio/mpeg`.
    public static func contentType(forExtension pathExtension: String) -> String {
        switch pathExtension.lowercased() {
        case "json": "application/json"
        case "jsonl": "application/jsonl"
        case "txt", "text": "text/plain"
        case "md": "text/markdown"
        case "csv": "text/csv"
        case "html", "htm": "text/html"
        case "pdf": "application/pdf"
        case "zip": "application/zip"
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "webp": "image/webp"
        case "gif": "image/gif"
        case "mp3", "mpga", "mpeg": "audio/mpeg"
        case "m4a": "audio/mp4"
        case "wav": "audio/wav"
        case "webm": "audio/webm"
        case "ogg", "opus": "audio/ogg"
        case "flac": "audio/flac"
        case "mp4": "video/mp4"
        case "mov": "video/quicktime"
        default: "application/octet-stream"
        }
    }
}

extension FileUpload: Codable {
    private enum CodingKeys: String, CodingKey {
        case data, filename, contentType = "content_type"
    }

    /// Decodes `{"data": <base64>, "filename": ..., "content_type": ...}`; JSON bodies never carry
    /// files, this only keeps generated multipart types `Codable`.
    ///
    /// - Throws: `DecodingError` when `data` or `filename` is missing.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            data: try container.decode(Data.self, forKey: .data),
            filename: try container.decode(String.self, forKey: .filename),
            contentType: try container.decodeIfPresent(String.self, forKey: .contentType))
    }

    /// In a multipart form, becomes one file part; elsewhere encodes
    /// `{"data": <base64>, "filename": ..., "content_type": ...}`.
    ///
    /// - Throws: ``OpenAIError`` of kind ``OpenAIError/Kind/invalidRequest`` when a file or stream
    ///   upload is encoded as JSON (only in-memory bytes can be).
    public func encode(to encoder: any Encoder) throws {
        if let form = encoder as? MultipartFieldEncoder {
            form.recordFile(self)
            return
        }
        guard case .data(let data) = source else {
            throw OpenAIError(
                kind: .invalidRequest,
                message: "The file \(filename) is streamed and can only be sent in a multipart form.")
        }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(data, forKey: .data)
        try container.encode(filename, forKey: .filename)
        try container.encode(contentType, forKey: .contentType)
    }
}
