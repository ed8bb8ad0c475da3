import Foundation

/// A file for a `multipart/form-data` field (spec `format: binary`): its bytes, filename and
/// content type.
public struct FileUpload: Hashable, Sendable {
    /// The file's bytes.
    public var data: Data
    /// The filename sent in `Content-Disposition`; the API uses its extension to tell the format.
    public var filename: String
    /// The part's `Content-Type`, e.g. `audio/mpeg`.
    public var contentType: String

    /// Creates an upload from bytes in memory.
    ///
    /// - Parameters:
    ///   - data: The file's bytes.
    ///   - filename: The filename; `file` when not given.
    ///   - contentType: The content type; inferred from the filename's extension when `nil`.
    public init(data: Data, filename: String = "file", contentType: String? = nil) {
        self.data = data
        self.filename = filename
        self.contentType = contentType ?? FileUpload.contentType(forExtension: (filename as NSString).pathExtension)
    }

    /// Creates an upload by reading the file at `url`.
    ///
    /// - Parameters:
    ///   - url: A file URL.
    ///   - filename: The filename sent; the URL's last component when `nil`.
    ///   - contentType: The content type; inferred from the extension when `nil`.
    /// - Throws: The file-system error when the file cannot be read.
    public init(contentsOf url: URL, filename: String? = nil, contentType: String? = nil) throws {
        let name = filename ?? url.lastPathComponent
        self.init(data: try Data(contentsOf: url), filename: name, contentType: contentType)
    }

    /// The content type for a filename extension, `application/octet-stream` when unknown.
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
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            data: try container.decode(Data.self, forKey: .data),
            filename: try container.decode(String.self, forKey: .filename),
            contentType: try container.decodeIfPresent(String.self, forKey: .contentType))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(data, forKey: .data)
        try container.encode(filename, forKey: .filename)
        try container.encode(contentType, forKey: .contentType)
    }
}
