#if os(Linux) && canImport(CLibcurl)
    import CLibcurl
    import Foundation

    /// Sends a request with a streamed body (a large multipart upload) through libcurl directly,
    /// for ``URLSessionTransport`` on Linux.
    ///
    /// FoundationNetworking runs URLSession on the same libcurl, but hands every 64 KiB of a
    /// streamed body across dispatch queues (a body-source read, a progress operation on the
    /// delegate queue, socket-source updates): measured with `perf`, an upload spends most of its
    /// time in thread wake-ups, and reaches about 0.7 of `curl`'s throughput on 2 cores. Here one
    /// thread runs `curl_easy_perform`, the read callback fills libcurl's 512 KiB upload buffer
    /// straight from the body's `InputStream`, and a body of known length goes with its
    /// `Content-Length` instead of chunked transfer coding.
    ///
    /// What differs from the URLSession path: redirects are not followed (a 307 or 308 to the
    /// same origin is sent again by the client's retry loop, any other comes back as the reply);
    /// the configuration's `httpAdditionalHeaders` are sent, its other settings (cookies, caches,
    /// proxies set in `connectionProxyDictionary`) do not apply, which is why a transport made
    /// with a proxy dictionary keeps using URLSession. libcurl reads the proxy environment
    /// variables (`https_proxy`, `no_proxy`, ...) as FoundationNetworking does.
    enum CurlUpload {
        /// Whether libcurl could be loaded (libcurl.so.4, which FoundationNetworking links).
        static let isAvailable: Bool = clibcurl_load() == 1

        /// The upload buffer handed to libcurl, in bytes: fewer, larger reads than its 64 KiB
        /// default.
        static let uploadBufferSize = 512 * 1024

        /// Sends `request`, its body read from `body`.
        ///
        /// - Returns: The reply with its body (a non-2xx body cut to
        ///   ``URLSessionTransport/maxErrorBodyBytes``).
        /// - Throws: ``OpenAIError`` of kind ``OpenAIError/Kind/timeout``,
        ///   ``OpenAIError/Kind/connection``, ``OpenAIError/Kind/cancelled``, or the body's own
        ///   error (``OpenAIError/Kind/invalidRequest`` for a file that ended early).
        static func send(
            _ request: HTTPRequest, body: HTTPBodyStream, timeouts: HTTPTimeouts, additionalHeaders: [String: String]
        ) async throws -> HTTPResponse {
            if Task.isCancelled {
                throw OpenAIError(kind: .cancelled, message: "The request was cancelled before it was sent.")
            }
            let input = try body.makeInputStream()
            let transfer = CurlTransfer(
                input: input, length: body.length, progress: request.uploadProgress, timeouts: timeouts)
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    let thread = Thread {
                        continuation.resume(with: transfer.perform(request, additionalHeaders: additionalHeaders))
                    }
                    thread.name = "OpenAI.CurlUpload"
                    thread.start()
                }
            } onCancel: {
                transfer.cancel()
            }
        }
    }

    /// One transfer: the state libcurl's callbacks read and write, on the transfer's thread.
    /// `@unchecked Sendable`: `lock` guards `cancelled`; everything else is touched only by the
    /// thread that runs `perform`.
    final class CurlTransfer: @unchecked Sendable {
        private let input: InputStream
        private let length: Int64?
        private let progress: (@Sendable (_ bytesSent: Int64, _ totalBytes: Int64?) -> Void)?
        private let timeouts: HTTPTimeouts
        private let lock = NSLock()
        private var cancelled = false
        private var statusCode = 0
        private var headers: [String: String] = [:]
        private var body = Data()
        private var cutAtLimit = false
        private var readFailure: (any Error)?
        private var reportedBytes: Int64 = -1

        init(
            input: InputStream, length: Int64?,
            progress: (@Sendable (_ bytesSent: Int64, _ totalBytes: Int64?) -> Void)?, timeouts: HTTPTimeouts
        ) {
            self.input = input
            self.length = length
            self.progress = progress
            self.timeouts = timeouts
        }

        func cancel() { lock.withLock { cancelled = true } }

        private var isCancelled: Bool { lock.withLock { cancelled } }

        /// Runs the transfer to its end, blocking the calling thread.
        func perform(_ request: HTTPRequest, additionalHeaders: [String: String]) -> Result<HTTPResponse, any Error> {
            guard let handle = clibcurl_easy_init() else {
                return .failure(OpenAIError(kind: .connection, message: "libcurl could not start a transfer."))
            }
            var list: OpaquePointer?
            defer {
                clibcurl_slist_free_all(list)
                clibcurl_easy_cleanup(handle)
                input.close()
            }
            let started = ContinuousClock.now
            var errorBuffer = [CChar](repeating: 0, count: Int(CLibcurlErrorBufferSize))
            let code = errorBuffer.withUnsafeMutableBufferPointer { errorText -> Int32 in
                let context = Unmanaged.passUnretained(self).toOpaque()
                input.open()
                clibcurl_setopt_pointer(handle, Int32(CLibcurlOptionErrorBuffer), errorText.baseAddress)
                clibcurl_setopt_pointer(handle, Int32(CLibcurlOptionURL), request.url.absoluteString)
                clibcurl_setopt_long(handle, Int32(CLibcurlOptionNoSignal), 1)
                clibcurl_setopt_long(handle, Int32(CLibcurlOptionHTTPVersion), Int(CLibcurlHTTPVersion1_1))
                clibcurl_setopt_long(handle, Int32(CLibcurlOptionPost), 1)
                if request.method != "POST" {
                    clibcurl_setopt_pointer(handle, Int32(CLibcurlOptionCustomRequest), request.method)
                }
                clibcurl_setopt_offset(handle, Int32(CLibcurlOptionPostFieldSizeLarge), length ?? -1)
                clibcurl_setopt_long(handle, Int32(CLibcurlOptionUploadBufferSize), CurlUpload.uploadBufferSize)
                list = Self.headerList(request.headers, additionalHeaders: additionalHeaders)
                clibcurl_setopt_pointer(handle, Int32(CLibcurlOptionHTTPHeader), UnsafeRawPointer(list))
                clibcurl_setopt_data_callback(handle, Int32(CLibcurlOptionReadFunction), curlRead)
                clibcurl_setopt_pointer(handle, Int32(CLibcurlOptionReadData), context)
                clibcurl_setopt_data_callback(handle, Int32(CLibcurlOptionHeaderFunction), curlHeader)
                clibcurl_setopt_pointer(handle, Int32(CLibcurlOptionHeaderData), context)
                clibcurl_setopt_data_callback(handle, Int32(CLibcurlOptionWriteFunction), curlWrite)
                clibcurl_setopt_pointer(handle, Int32(CLibcurlOptionWriteData), context)
                clibcurl_setopt_long(handle, Int32(CLibcurlOptionNoProgress), 0)
                clibcurl_setopt_progress_callback(handle, curlProgress)
                clibcurl_setopt_pointer(handle, Int32(CLibcurlOptionProgressData), context)
                if let connect = Self.milliseconds(timeouts.connect) {
                    clibcurl_setopt_long(handle, Int32(CLibcurlOptionConnectTimeoutMilliseconds), connect)
                }
                if let whole = Self.milliseconds(timeouts.request) {
                    clibcurl_setopt_long(handle, Int32(CLibcurlOptionTimeoutMilliseconds), whole)
                }
                if timeouts.idle.isFinite, timeouts.idle > 0 {
                    // Under 1 byte per second for the idle limit (whole seconds) ends the transfer.
                    clibcurl_setopt_long(handle, Int32(CLibcurlOptionLowSpeedLimit), 1)
                    clibcurl_setopt_long(
                        handle, Int32(CLibcurlOptionLowSpeedTime), max(1, Int(timeouts.idle.rounded(.up))))
                }
                return clibcurl_easy_perform(handle)
            }
            let elapsed = ContinuousClock.now - started
            switch code {
            case Int32(CLibcurlOK):
                break
            case Int32(CLibcurlWriteError) where cutAtLimit:
                break  // The error body reached its limit: what arrived is the reply.
            case _ where isCancelled:
                return .failure(OpenAIError(kind: .cancelled, message: "The request was cancelled."))
            case _ where readFailure != nil:
                if let failure = readFailure as? OpenAIError { return .failure(failure) }
                return .failure(
                    OpenAIError(kind: .invalidRequest, message: "The request body could not be read: \(readFailure!)"))
            case Int32(CLibcurlTimedOut):
                let seconds = Double(elapsed.components.seconds)
                let message =
                    seconds + 0.5 >= timeouts.request
                    ? "The attempt took longer than its request timeout of \(timeouts.request) s."
                    : statusCode == 0 && seconds + 0.5 >= timeouts.connect && timeouts.connect < timeouts.idle
                        ? "The connection was not made within the connect timeout of \(timeouts.connect) s."
                        : "No byte moved for the idle timeout of \(timeouts.idle) s."
                return .failure(OpenAIError(kind: .timeout, message: message))
            default:
                let buffered = String(
                    decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                let detail = buffered.isEmpty ? String(cString: clibcurl_easy_strerror(code)) : buffered
                return .failure(
                    OpenAIError(
                        kind: .connection,
                        message: "The connection failed (libcurl \(code): \(Redaction.text(detail)))."))
            }
            var status = 0
            clibcurl_getinfo_long(handle, Int32(CLibcurlInfoResponseCode), &status)
            return .success(HTTPResponse(statusCode: status == 0 ? statusCode : status, headers: headers, body: body))
        }

        /// `Name: value` lines: the configuration's additional headers, then the request's (which
        /// win); libcurl's own `Content-Length` and no `Expect: 100-continue` wait.
        private static func headerList(_ headers: [String: String], additionalHeaders: [String: String])
            -> OpaquePointer?
        {
            var merged: [String: (name: String, value: String)] = [:]
            for (name, value) in additionalHeaders { merged[name.lowercased()] = (name, value) }
            for (name, value) in headers { merged[name.lowercased()] = (name, value) }
            merged["content-length"] = nil
            merged["transfer-encoding"] = nil
            var list: OpaquePointer?
            for key in merged.keys.sorted() {
                let header = merged[key]!
                // A value with a line break would end the header early: never sent.
                guard !header.value.contains(where: { $0 == "\r" || $0 == "\n" }) else { continue }
                list = clibcurl_slist_append(list, "\(header.name): \(header.value)")
            }
            if merged["expect"] == nil { list = clibcurl_slist_append(list, "Expect:") }
            return list
        }

        private static func milliseconds(_ seconds: TimeInterval) -> Int? {
            guard seconds.isFinite, seconds > 0 else { return nil }
            return Int(min(seconds * 1000, Double(Int32.max)).rounded(.up))
        }

        // MARK: Callbacks, on the transfer's thread

        fileprivate func read(into buffer: UnsafeMutablePointer<CChar>, count: Int) -> Int {
            if isCancelled { return Int(CLibcurlReadAbort) }
            let read = buffer.withMemoryRebound(to: UInt8.self, capacity: count) { input.read($0, maxLength: count) }
            if read < 0 {
                readFailure =
                    input.streamError ?? OpenAIError(kind: .invalidRequest, message: "The body stream failed.")
                return Int(CLibcurlReadAbort)
            }
            return read
        }

        fileprivate func header(_ line: UnsafeBufferPointer<CChar>) {
            let text = String(decoding: UnsafeRawBufferPointer(line), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            if text.hasPrefix("HTTP/") {
                // A new reply head (after a 100 Continue): start over.
                let parts = text.split(separator: " ", maxSplits: 2)
                statusCode = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
                headers = [:]
                body = Data()
            } else if let colon = text.firstIndex(of: ":") {
                let name = String(text[..<colon])
                let value = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                if let existing = HTTPHeaders.value(name, in: headers) {
                    let key = headers.keys.first { $0.lowercased() == name.lowercased() }!
                    headers[key] = existing + ", " + value
                } else {
                    headers[name] = value
                }
            }
        }

        fileprivate func write(_ bytes: UnsafeBufferPointer<CChar>) -> Int {
            if (200..<300).contains(statusCode) {
                body.append(UnsafeBufferPointer(rebasing: bytes[...]).withMemoryRebound(to: UInt8.self) { Data($0) })
                return bytes.count
            }
            let room = URLSessionTransport.maxErrorBodyBytes - body.count
            let kept = min(room, bytes.count)
            if kept > 0 {
                body.append(
                    UnsafeBufferPointer(rebasing: bytes[..<kept]).withMemoryRebound(to: UInt8.self) { Data($0) })
            }
            if kept < bytes.count {
                cutAtLimit = true
                return 0  // Stop reading: the start of the error body is enough.
            }
            return bytes.count
        }

        fileprivate func progress(sent: Int64) -> Int32 {
            if isCancelled { return 1 }
            if sent != reportedBytes, sent > 0 {
                reportedBytes = sent
                progress?(sent, length)
            }
            return 0
        }
    }

    private func transfer(_ context: UnsafeMutableRawPointer?) -> CurlTransfer {
        Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
    }

    private let curlRead: CLibcurlDataCallback = { buffer, size, count, context in
        transfer(context).read(into: buffer!, count: size * count)
    }

    private let curlHeader: CLibcurlDataCallback = { buffer, size, count, context in
        transfer(context).header(UnsafeBufferPointer(start: buffer, count: size * count))
        return size * count
    }

    private let curlWrite: CLibcurlDataCallback = { buffer, size, count, context in
        transfer(context).write(UnsafeBufferPointer(start: buffer, count: size * count))
    }

    private let curlProgress: CLibcurlProgressCallback = { context, _, _, _, uploadNow in
        transfer(context).progress(sent: uploadNow)
    }
#endif
