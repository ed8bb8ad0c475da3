import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An `InputStream` over a ``MultipartBodyReader``, for `HTTPBodyStream`. The bytes are produced
/// as the reader asks for them: libcurl or `URLRequest.httpBodyStream` on Linux, `SpooledBody`
/// on Apple platforms (CFNetwork never gets this subclass: it would call run-loop scheduling
/// methods an `InputStream` subclass does not implement).
///
/// Read from one thread at a time, as every `InputStream`.
final class MultipartInputStream: InputStream {
    private let reader: MultipartBodyReader
    private var status = Stream.Status.notOpen
    private var failure: (any Swift.Error)?

    init(reader: MultipartBodyReader) {
        self.reader = reader
        super.init(data: Data())
    }

    override func open() {
        if status == .notOpen { status = .open }
    }

    /// Stops the stream parts' producers from any thread: a `read` waiting for a chunk returns -1
    /// (``MultipartBodyReader/abort()``).
    func abort() {
        reader.abort()
    }

    override func close() {
        reader.close()
        status = .closed
    }

    override var streamStatus: Stream.Status { status }

    override var streamError: (any Swift.Error)? { failure }

    override var hasBytesAvailable: Bool { status == .notOpen || status == .open || status == .reading }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength len: Int) -> Int {
        if status == .notOpen { status = .open }
        guard hasBytesAvailable else { return status == .atEnd ? 0 : -1 }
        do {
            let count = try reader.read(into: buffer, maxLength: len)
            if count == 0 { status = .atEnd }
            return count
        } catch {
            failure = error
            status = .error
            reader.close()
            return -1
        }
    }

    override func getBuffer(
        _ buffer: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, length len: UnsafeMutablePointer<Int>
    ) -> Bool {
        false
    }
}
