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
/// send again itself (an authentication challenge, a connection reset before the reply) needs a
/// delegate's `needNewBodyStream`. A file has neither problem: URLSession reads it as often as it
/// needs, and sends its `Content-Length`. Redirects are not among those resends: URLSession does
/// not follow one with the body (`RedirectPolicy` decides), and a same-origin 307 or 308 is sent
/// again by the client, whose new attempt spools the body to a new file, as a retry does. The body goes through memory one chunk at
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
    /// A body that stalls cannot hold the request: the call returns when the task is cancelled or
    /// a limit of `timeouts` passes (the whole spool within `request` seconds, no gap longer than
    /// `idle` seconds between chunks), and a multipart body's stream parts are stopped. A body of
    /// another kind whose `read` blocks keeps its dispatch thread until it returns; its file is
    /// removed then.
    ///
    /// - Parameters:
    ///   - body: The body; a one-shot body is consumed.
    ///   - timeouts: The attempt's limits; `nil` for none.
    ///   - folder: Where the file goes (the system's temporary folder by default).
    /// - Returns: The file; the caller removes it (``remove()``).
    /// - Throws: ``OpenAIError`` of kind ``OpenAIError/Kind/invalidRequest`` when the body cannot
    ///   be read (a file that cannot be opened or changed its length, a one-shot body already sent)
    ///   or the file cannot be written, of kind ``OpenAIError/Kind/cancelled`` when the task is
    ///   cancelled, of kind ``OpenAIError/Kind/timeout`` when a limit passes; no file is left behind.
    static func spool(
        _ body: HTTPBodyStream, timeouts: HTTPTimeouts? = nil, in folder: URL = FileManager.default.temporaryDirectory
    ) async throws -> SpooledBody {
        let control = SpoolControl(input: try body.makeInputStream())
        let length = body.length
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<SpooledBody, Error>) in
                control.begin(continuation)
                DispatchQueue.global(qos: .userInitiated).async {
                    control.finish(Result { try write(length: length, in: folder, control: control) })
                }
                if let timeouts { control.watch(timeouts) }
            }
        } onCancel: {
            control.stop(OpenAIError(kind: .cancelled, message: "The request was cancelled before it was sent."))
        }
    }

    /// Reads `control.input` into a new file on this thread, checking `control`'s stop between reads.
    private static func write(length expected: Int64?, in folder: URL, control: SpoolControl) throws -> SpooledBody {
        let input = control.input
        let url = folder.appendingPathComponent(filePrefix + UUID().uuidString)
        guard FileManager.default.createFile(atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600])
        else {
            throw OpenAIError(kind: .invalidRequest, message: "Cannot create a temporary file for the request body.")
        }
        do {
            let output = try FileHandle(forWritingTo: url)
            defer { try? output.close() }
            input.open()
            defer { input.close() }
            var buffer = [UInt8](repeating: 0, count: chunkSize)
            var length: Int64 = 0
            while true {
                if let reason = control.stopReason { throw reason }
                let count = buffer.withUnsafeMutableBufferPointer { input.read($0.baseAddress!, maxLength: $0.count) }
                if let reason = control.stopReason { throw reason }
                if count < 0 {
                    let reason = input.streamError.map { ": \($0.localizedDescription)" } ?? ""
                    throw OpenAIError(kind: .invalidRequest, message: "The request body could not be read\(reason).")
                }
                if count == 0 { break }
                try output.write(contentsOf: buffer[0..<count])
                length += Int64(count)
                control.progressed()
            }
            if let expected, expected != length {
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

/// One spool's outcome: the caller's continuation is resumed once, by the writer's result or by a
/// stop (cancellation, a time limit), whichever comes first; a file the writer finishes after a stop
/// is removed.
///
/// `@unchecked Sendable`: `state` (a lock) guards everything that changes; `input` is read by the
/// writer's thread alone, and touched from other threads only through
/// `MultipartInputStream.abort()`, which is thread-safe.
private final class SpoolControl: @unchecked Sendable {
    private struct State {
        var continuation: CheckedContinuation<SpooledBody, Error>?
        var done = false
        var stopReason: OpenAIError?
        var lastProgress = DispatchTime.now()
    }

    /// The body's stream, read by the writer.
    let input: InputStream
    private let state = Locked(State())

    init(input: InputStream) { self.input = input }

    /// Why the spool was stopped, once it was.
    var stopReason: OpenAIError? { state.withLock { $0.stopReason } }

    func begin(_ continuation: CheckedContinuation<SpooledBody, Error>) {
        let stopped = state.withLock { state -> OpenAIError? in
            if let reason = state.stopReason {
                state.done = true
                return reason
            }
            state.continuation = continuation
            return nil
        }
        if let stopped { continuation.resume(throwing: stopped) }
    }

    func progressed() { state.withLock { $0.lastProgress = DispatchTime.now() } }

    /// Ends the spool with `reason` unless it has ended: the caller gets `reason` now.
    func stop(_ reason: OpenAIError) {
        let continuation = state.withLock { state -> CheckedContinuation<SpooledBody, Error>? in
            guard !state.done, state.stopReason == nil else { return nil }
            state.stopReason = reason
            defer { state.continuation = nil }
            if state.continuation != nil { state.done = true }
            return state.continuation
        }
        (input as? MultipartInputStream)?.abort()
        continuation?.resume(throwing: reason)
    }

    /// The writer's result: to the caller, or removed when the spool was stopped first.
    func finish(_ result: Result<SpooledBody, Error>) {
        let continuation = state.withLock { state -> CheckedContinuation<SpooledBody, Error>? in
            guard !state.done else { return nil }
            state.done = true
            defer { state.continuation = nil }
            return state.continuation
        }
        guard let continuation else {
            if case .success(let body) = result { body.remove() }
            return
        }
        continuation.resume(with: result)
    }

    /// Stops the spool when it takes longer than `timeouts.request`, or no chunk arrives for
    /// `timeouts.idle`, in seconds.
    func watch(_ timeouts: HTTPTimeouts) {
        let start = DispatchTime.now()
        Task { [self] in
            while true {
                let (done, last) = state.withLock { ($0.done, $0.lastProgress) }
                if done { return }
                let now = DispatchTime.now()
                let elapsed = Double(now.uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
                let quiet = Double(now.uptimeNanoseconds - last.uptimeNanoseconds) / 1e9
                if elapsed >= timeouts.request {
                    return stop(
                        OpenAIError(
                            kind: .timeout,
                            message:
                                "The request body was not read within the request timeout of \(timeouts.request) s."))
                }
                if quiet >= timeouts.idle {
                    return stop(
                        OpenAIError(
                            kind: .timeout,
                            message: "The request body produced no byte for the idle timeout of \(timeouts.idle) s."))
                }
                // At most an hour at a time (and an hour for a limit that is not a finite number).
                let wait = min(timeouts.request - elapsed, timeouts.idle - quiet)
                let seconds = wait.isFinite ? min(max(wait, 0.001), 3600) : 3600
                try? await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
            }
        }
    }
}
