import Foundation

/// A laid-out `multipart/form-data` body: the boundary, the parts' heads as bytes and their
/// contents by reference (files stay on disk, streams unread), so the total length is known
/// before any byte is read and the bytes are produced only while the request is sent.
struct MultipartBody: Sendable {
    /// A run of the body.
    enum Segment: Sendable {
        case bytes(Data)
        case file(FileUpload)
    }

    /// The boundary, without the leading `--`.
    let boundary: String
    let segments: [Segment]
    /// The total length in bytes (`Content-Length`).
    let length: Int64

    /// `multipart/form-data; boundary=...`.
    var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// The largest body of in-memory parts sent as bytes rather than streamed: 1 MiB.
    static let inMemoryLimit: Int64 = 1 << 20

    /// Whether every part is in memory (no file on disk, no stream).
    var isInMemory: Bool {
        segments.allSatisfy { segment in
            if case .bytes = segment { return true }
            return false
        }
    }

    /// Whether the body can be produced again from the start: no part is a one-shot stream.
    var isReplayable: Bool {
        segments.allSatisfy { segment in
            if case .file(let file) = segment { return file.isReplayable }
            return true
        }
    }

    init(parts: [MultipartForm.Part], boundary: String) {
        self.boundary = boundary
        var segments: [Segment] = []
        var pending = Data()
        for part in parts {
            pending.append(Self.head(of: part, boundary: boundary))
            switch part.content {
            case .text(let data): pending.append(data)
            case .file(let file):
                // File contents are referenced, never copied into the heads' buffer.
                segments.append(.bytes(pending))
                pending = Data()
                if case .data(let data) = file.source {
                    segments.append(.bytes(data))
                } else {
                    segments.append(.file(file))
                }
            }
            pending.append(contentsOf: [0x0D, 0x0A])
        }
        pending.append(Data("--\(boundary)--\r\n".utf8))
        segments.append(.bytes(pending))
        self.segments = segments.filter {
            if case .bytes(let data) = $0 { return !data.isEmpty }
            return true
        }
        self.length = segments.reduce(0) { total, segment in
            switch segment {
            case .bytes(let data): total + Int64(data.count)
            case .file(let file): total + file.length
            }
        }
    }

    /// A part's delimiter and header fields, up to and including the blank line.
    static func head(of part: MultipartForm.Part, boundary: String) -> Data {
        var head = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(escape(part.name))\""
        if let filename = part.filename { head += "; filename=\"\(escape(filename))\"" }
        head += "\r\n"
        if let contentType = part.contentType { head += "Content-Type: \(contentType)\r\n" }
        head += "\r\n"
        return Data(head.utf8)
    }

    /// Escapes a quoted `Content-Disposition` parameter as browsers do (WHATWG HTML, "multipart/
    /// form-data encoding algorithm"): `"` → `%22`, CR → `%0D`, LF → `%0A`; every other character,
    /// non-ASCII included, is sent as UTF-8. RFC 7578 section 4.2 forbids the RFC 5987
    /// `filename*` form in `multipart/form-data`, so it is never sent.
    static func escape(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "%22"
            case "\r": result += "%0D"
            case "\n": result += "%0A"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// A random boundary (`OpenAISwiftFormBoundary` and 24 random letters and digits, about
    /// 142 bits) that occurs in no in-memory part. Files on disk and streams are not searched
    /// (that would read them twice); a collision there has a probability of about 2^-142.
    static func randomBoundary(avoiding parts: [MultipartForm.Part]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        while true {
            let boundary = "OpenAISwiftFormBoundary" + String((0..<24).map { _ in alphabet.randomElement()! })
            if !parts.contains(where: { contains($0, boundary) }) { return boundary }
        }
    }

    /// Whether the in-memory content of `part` or its head contains `boundary`.
    static func contains(_ part: MultipartForm.Part, _ boundary: String) -> Bool {
        let needle = Data(boundary.utf8)
        switch part.content {
        case .text(let data): return data.range(of: needle) != nil
        case .file(let file):
            if case .data(let data) = file.source { return data.range(of: needle) != nil }
            return false
        }
    }

    /// Makes a reader that produces the body from its first byte.
    ///
    /// - Parameter progress: Called with the total number of bytes produced so far, after each
    ///   chunk.
    func makeReader(progress: (@Sendable (Int64) -> Void)? = nil) -> MultipartBodyReader {
        MultipartBodyReader(segments: segments, progress: progress)
    }

    /// Makes an `InputStream` over the body, for `HTTPBodyStream` and `URLRequest.httpBodyStream`.
    ///
    /// - Parameter progress: As in ``makeReader(progress:)``.
    func makeInputStream(progress: (@Sendable (Int64) -> Void)? = nil) -> InputStream {
        MultipartInputStream(reader: makeReader(progress: progress))
    }

    /// The body as the runtime's streamed request body: replayable (a retry reads the files
    /// again) unless a part is a one-shot stream.
    ///
    /// - Parameter progress: As in ``makeReader(progress:)``; restarts from 0 on a retry.
    func httpBodyStream(progress: (@Sendable (Int64) -> Void)? = nil) -> HTTPBodyStream {
        if isReplayable {
            // Files and bytes only (a part from an async sequence makes the body one-shot).
            return .nonBlocking(length: length) { makeInputStream(progress: progress) }
        }
        return .oneShot(length: length, makeInputStream(progress: progress))
    }

    /// Reads the whole body into memory (small forms, tests).
    ///
    /// - Throws: ``OpenAIError`` when a file cannot be read or does not have its announced length.
    func collectData() throws -> Data {
        let reader = makeReader()
        defer { reader.close() }
        var data = Data(capacity: Int(clamping: length))
        var buffer = [UInt8](repeating: 0, count: MultipartBodyReader.chunkSize)
        while true {
            let count = try buffer.withUnsafeMutableBufferPointer {
                try reader.read(into: $0.baseAddress!, maxLength: $0.count)
            }
            if count == 0 { break }
            data.append(contentsOf: buffer[0..<count])
        }
        return data
    }
}
