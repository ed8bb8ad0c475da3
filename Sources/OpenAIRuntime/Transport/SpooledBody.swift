import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A streamed request body written to a temporary file, sent with
/// `uploadTask(with:fromFile:)`: how ``URLSessionTransport`` uploads a multipart form (or any
/// ``HTTPBodyStream`` not read from a file) on Apple platforms.
///
/// CFNetwork reads `URLRequest.httpBodyStream` with run-loop scheduling calls that a custom
/// `InputStream` subclass does not implement (it has long crashed on them), and a body it must
/// send again (a 307 or 308 redirect, an authentication challenge, a connection reset before the
/// reply) needs a delegate's `needNewBodyStream`. A file has neither problem: URLSession reads it
/// as often as it needs, and sends its `Content-Length`. The body goes through memory one chunk at
/// a time (``chunkSize``), so memory stays bounded as on Linux; it costs the body's size on disk
/// while the request runs. The file is readable by its owner only and removed when the request
/// ends, however it ends.
struct SpooledBody: Sendable {
    /// The temporary file.
    let url: URL
    /// Its length in bytes.
    let length: Int64

    /// The bytes read and written at a time (512 KiB, as the direct uploads' buffer on Linux).
    static let chunkSize = 512 << 10
    /// The prefix of every spooled file's name in the temporary folder.
    static let filePrefix = "openai-upload-"

    /// Reads `body` (one ``HTTPBodyStream/makeInputStream()``) into a new temporary file, on a
    /// dispatch queue rather than the task's thread (reading files blocks).
    ///
    /// - Parameters:
    ///   - body: The body; a one-shot body is consumed.
    ///   - folder: Where the file goes (the system's temporary folder by default).
    /// - Returns: The file; the caller removes it (``remove()``).
    /// - Throws: ``OpenAIError`` of kind ``OpenAIError/Kind/invalidRequest`` when the body cannot
    ///   be read (a file that cannot be opened or changed its length, a one-shot body already sent)
    ///   or the file cannot be written, of kind ``OpenAIError/Kind/cancelled`` when the task is
    ///   cancelled; no file is left behind.
    static func spool(
        _ body: HTTPBodyStream, in folder: URL = FileManager.default.temporaryDirectory
    ) async throws -> SpooledBody {
        let cancelled = Locked(false)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<SpooledBody, Error>) in
                DispatchQueue.global(qos: .userInitiated).async {
                    continuation.resume(with: Result { try write(body, in: folder, cancelled: cancelled) })
                }
            }
        } onCancel: {
            cancelled.withLock { $0 = true }
        }
    }

    private static func write(_ body: HTTPBodyStream, in folder: URL, cancelled: Locked<Bool>) throws -> SpooledBody {
        let url = folder.appendingPathComponent(filePrefix + UUID().uuidString)
        guard FileManager.default.createFile(atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600])
        else {
            throw OpenAIError(kind: .invalidRequest, message: "Cannot create a temporary file for the request body.")
        }
        do {
            let output = try FileHandle(forWritingTo: url)
            defer { try? output.close() }
            let input = try body.makeInputStream()
            input.open()
            defer { input.close() }
            var buffer = [UInt8](repeating: 0, count: chunkSize)
            var length: Int64 = 0
            while true {
                if cancelled.withLock({ $0 }) {
                    throw OpenAIError(kind: .cancelled, message: "The request was cancelled before it was sent.")
                }
                let count = buffer.withUnsafeMutableBufferPointer { input.read($0.baseAddress!, maxLength: $0.count) }
                if count < 0 {
                    let reason = input.streamError.map { ": \($0.localizedDescription)" } ?? ""
                    throw OpenAIError(kind: .invalidRequest, message: "The request body could not be read\(reason).")
                }
                if count == 0 { break }
                try output.write(contentsOf: buffer[0..<count])
                length += Int64(count)
            }
            if let expected = body.length, expected != length {
                throw OpenAIError(
                    kind: .invalidRequest,
                    message: "The request body has \(length) bytes; its announced length is \(expected).")
            }
            return SpooledBody(url: url, length: length)
        } catch let error as OpenAIError {
            try? FileManager.default.removeItem(at: url)
            throw error
        } catch {
            try? FileManager.default.removeItem(at: url)
            throw OpenAIError(
                kind: .invalidRequest,
                message: "The request body could not be written to a temporary file: \(error.localizedDescription)")
        }
    }

    /// Removes the file (nothing when it is already gone).
    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
