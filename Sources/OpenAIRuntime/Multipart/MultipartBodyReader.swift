import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `read(2)`, named apart from ``MultipartBodyReader/read(into:maxLength:)``.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutablePointer<UInt8>, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

/// Produces a ``MultipartBody``'s bytes in order, synchronously: in-memory runs as they are,
/// files read from disk straight into the caller's buffer (``chunkSize``, 64 KiB, at a time when
/// the body is collected), streams chunk by chunk. No file is ever held in memory, and at most
/// one stream chunk, so memory stays flat whatever the files' sizes.
///
/// Used from one thread at a time (the transport's I/O thread, or ``MultipartBody/collectData()``),
/// but for ``abort()``, which any thread may call.
final class MultipartBodyReader {
    /// The size of the chunks read from files, in bytes (64 KiB).
    static let chunkSize = 64 * 1024

    private let segments: [MultipartBody.Segment]
    private let progress: (@Sendable (Int64) -> Void)?
    private var index = 0
    private var pending = Data()
    private var pendingOffset = 0
    private var current: Source?
    /// The number of bytes produced so far.
    private(set) var bytesRead: Int64 = 0
    /// The stream parts started so far, and whether ``abort()`` was called: the only state shared
    /// across threads.
    private let started = Locked((handoffs: [ChunkHandoff](), aborted: false))

    private enum Source {
        case file(FileHandle, remaining: Int64, name: String)
        case stream(ChunkHandoff, remaining: Int64, name: String)
    }

    init(segments: [MultipartBody.Segment], progress: (@Sendable (Int64) -> Void)?) {
        self.segments = segments
        self.progress = progress
    }

    deinit { close() }

    /// Copies up to `maxLength` next bytes of the body into `buffer`.
    ///
    /// - Parameters:
    ///   - buffer: Room for `maxLength` bytes.
    ///   - maxLength: The most bytes to copy.
    /// - Returns: The number of bytes copied; 0 at the end of the body.
    /// - Throws: ``OpenAIError`` of kind ``OpenAIError/Kind/invalidRequest`` when a file cannot be
    ///   opened or read, or a file or stream is shorter or longer than announced; a stream's error.
    func read(into buffer: UnsafeMutablePointer<UInt8>, maxLength: Int) throws -> Int {
        // Fill the buffer whole when the body has the bytes: a short read makes the transport
        // send a short write (with chunked coding, a tiny chunk), halving throughput.
        var copied = 0
        while copied < maxLength {
            if pendingOffset >= pending.count, case .file(let handle, let remaining, let name) = current {
                // File bytes go straight from the file into the transport's buffer: no copy.
                let count = try readFile(
                    handle, into: buffer + copied, count: Int(min(Int64(maxLength - copied), remaining)), name: name)
                copied += count
                let left = remaining - Int64(count)
                if left == 0 {
                    try? handle.close()
                    current = nil
                } else {
                    current = .file(handle, remaining: left, name: name)
                }
                continue
            }
            if pendingOffset >= pending.count {
                guard try fill() else { break }
                continue
            }
            let count = min(maxLength - copied, pending.count - pendingOffset)
            pending.withUnsafeBytes { raw in
                let start = raw.baseAddress!.assumingMemoryBound(to: UInt8.self) + pendingOffset
                (buffer + copied).update(from: start, count: count)
            }
            pendingOffset += count
            copied += count
        }
        if copied > 0 {
            bytesRead += Int64(copied)
            progress?(bytesRead)
        }
        return copied
    }

    /// Reads up to `count` bytes of the open file; throws when the file ended early.
    private func readFile(_ handle: FileHandle, into buffer: UnsafeMutablePointer<UInt8>, count: Int, name: String)
        throws -> Int
    {
        while true {
            let result = systemRead(handle.fileDescriptor, buffer, count)
            if result > 0 { return result }
            if result == 0 {
                throw OpenAIError(kind: .invalidRequest, message: "\(name) ended early, before its announced length.")
            }
            if errno == EINTR { continue }
            throw OpenAIError(kind: .invalidRequest, message: "Cannot read \(name): errno \(errno).")
        }
    }

    /// Loads the next run into `pending`; `false` at the end of the body.
    private func fill() throws -> Bool {
        pending = Data()
        pendingOffset = 0
        switch current {
        case .file:
            // Read directly by `read(into:maxLength:)`.
            return true
        case .stream(let handoff, let remaining, let name):
            if remaining == 0 {
                current = nil
                guard try handoff.next() == nil else {
                    throw OpenAIError(kind: .invalidRequest, message: "The stream of \(name) is longer than announced.")
                }
                return true
            }
            guard let chunk = try handoff.next() else {
                throw OpenAIError(
                    kind: .invalidRequest, message: "The stream of \(name) ended \(remaining) bytes early.")
            }
            guard Int64(chunk.count) <= remaining else {
                throw OpenAIError(kind: .invalidRequest, message: "The stream of \(name) is longer than announced.")
            }
            current = .stream(handoff, remaining: remaining - Int64(chunk.count), name: name)
            pending = chunk
            return true
        case nil:
            guard index < segments.count else { return false }
            let segment = segments[index]
            index += 1
            switch segment {
            case .bytes(let data): pending = data
            case .file(let file): try open(file)
            }
            return true
        }
    }

    private func open(_ file: FileUpload) throws {
        switch file.source {
        case .data(let data):
            pending = data
        case .file(let url, let offset, let length):
            guard length > 0 else { return }
            do {
                let handle = try FileHandle(forReadingFrom: url)
                if offset > 0 { try handle.seek(toOffset: UInt64(offset)) }
                current = .file(handle, remaining: length, name: url.path)
            } catch {
                throw OpenAIError(
                    kind: .invalidRequest, message: "Cannot open \(url.path): \(error.localizedDescription)")
            }
        case .stream(let source):
            let handoff = try source.claim()
            let aborted = started.withLock { state in
                state.handoffs.append(handoff)
                return state.aborted
            }
            if aborted { handoff.cancel() }
            current = .stream(handoff, remaining: source.length, name: file.filename)
        }
    }

    /// Stops every stream part's producer and wakes a read waiting for its next chunk, which then
    /// throws ``OpenAIError`` of kind ``OpenAIError/Kind/cancelled``; from any thread (a request
    /// that was cancelled or ran out of time while its body was being read).
    func abort() {
        let handoffs = started.withLock { state in
            state.aborted = true
            return state.handoffs
        }
        for handoff in handoffs { handoff.cancel() }
    }

    /// Releases the open file or stops the stream producer.
    func close() {
        switch current {
        case .file(let handle, _, _): try? handle.close()
        case .stream(let handoff, _, _): handoff.cancel()
        case nil: break
        }
        current = nil
    }
}
