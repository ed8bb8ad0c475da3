#if os(Linux) && canImport(OpenAIRuntimeLibcurl)
    import OpenAIRuntimeLibcurl
    import Foundation

    /// Sends a request with a streamed body (a large multipart upload) through libcurl directly,
    /// for ``URLSessionTransport`` on Linux.
    ///
    /// FoundationNetworking runs URLSession on the same libcurl, but hands every 64 KiB of a
    /// streamed body across dispatch queues (a body-source read, a progress operation on the
    /// delegate queue, socket-source updates): measured with `perf`, an upload spends most of its
    /// time in thread wake-ups, and reaches about 0.7 of `curl`'s throughput on 2 cores. Here one
    /// thread runs `curl_easy_perform`, the read callback fills libcurl's 512 KiB upload buffer
    /// straight from the body's `InputStream`, and the body goes with its `Content-Length`
    /// instead of chunked transfer coding.
    ///
    /// Only bodies whose reads never wait on another task come here (``HTTPBodyStream`` from a
    /// file, or a multipart form of files and bytes), over `http` or `https`, so that libcurl
    /// checks the limits and cancellation between reads. What differs from the URLSession path:
    /// redirects are not followed (a 307 or 308 to the same origin is sent again by the client's
    /// retry loop, the body being replayable; any other comes back as the reply); of the
    /// configuration only `httpAdditionalHeaders` applies (cookies, caches and TLS settings do
    /// not), which is why ``URLSessionTransport`` keeps every request on URLSession when the
    /// configuration sets a proxy dictionary or its own protocol classes. libcurl reads the proxy
    /// environment variables (`https_proxy`, `no_proxy`, ...) as FoundationNetworking does.
    enum CurlUpload {
        /// Whether libcurl is usable (the libcurl.so.4 FoundationNetworking loaded).
        static let isAvailable: Bool = clibcurl_load() == 1

        /// The upload buffer handed to libcurl, in bytes: fewer, larger reads than its 64 KiB
        /// default.
        static let uploadBufferSize = 512 * 1024

        /// Whether `request` takes this path.
        static func accepts(_ request: HTTPRequest, _ body: HTTPBodyStream) -> Bool {
            guard body.readsWithoutWaiting, body.length != nil else { return false }
            let scheme = request.url.scheme?.lowercased()
            return scheme == "http" || scheme == "https"
        }

        /// Sends `request`, its body read from `body`.
        ///
        /// - Returns: The reply with its body (a non-2xx body cut to
        ///   ``URLSessionTransport/maxErrorBodyBytes``).
        /// - Throws: ``OpenAIError`` of kind ``OpenAIError/Kind/timeout`` (the message names the
        ///   limit), ``OpenAIError/Kind/connection``, ``OpenAIError/Kind/cancelled``, or
        ///   ``OpenAIError/Kind/invalidRequest`` for a header with a line break or a body that
        ///   ends before its length.
        static func send(
            _ request: HTTPRequest, body: HTTPBodyStream, timeouts: HTTPTimeouts, additionalHeaders: [String: String]
        ) async throws -> HTTPResponse {
            if Task.isCancelled {
                throw OpenAIError(kind: .cancelled, message: "The request was cancelled before it was sent.")
            }
            let headers = try headerLines(request.headers, additionalHeaders: additionalHeaders)
            let transfer = CurlTransfer(
                input: try body.makeInputStream(), length: body.length ?? 0, progress: request.uploadProgress,
                timeouts: timeouts, streaming: false)
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    let thread = Thread {
                        continuation.resume(with: transfer.perform(request, headerLines: headers))
                    }
                    thread.name = "OpenAI.CurlUpload"
                    thread.start()
                }
            } onCancel: {
                transfer.cancel()
            }
        }

        /// Whether `request` can be streamed on this path: a body of bytes, none, or one read from
        /// files and bytes with a known length, over `http` or `https`.
        static func acceptsStream(_ request: HTTPRequest) -> Bool {
            let scheme = request.url.scheme?.lowercased()
            guard scheme == "http" || scheme == "https" else { return false }
            switch request.body {
            case nil, .data: return true
            case .stream(let body): return accepts(request, body)
            }
        }

        /// Sends `request` and returns once the reply head has arrived; the body follows through a
        /// ``StreamedBody``: libcurl's thread waits in its write callback while the reader is
        /// ``StreamedBody/limit`` bytes behind, so memory stays bounded however slow the reader.
        ///
        /// - Returns: The reply head and its body (a non-2xx body cut to
        ///   ``URLSessionTransport/maxErrorBodyBytes``); ``HTTPStreamingResponse/close`` ends the
        ///   transfer at once (its sockets are shut down).
        /// - Throws: As ``send(_:body:timeouts:additionalHeaders:)``, until the head has arrived.
        static func stream(_ request: HTTPRequest, timeouts: HTTPTimeouts, additionalHeaders: [String: String])
            async throws -> HTTPStreamingResponse
        {
            if Task.isCancelled {
                throw OpenAIError(kind: .cancelled, message: "The request was cancelled before it was sent.")
            }
            let headers = try headerLines(request.headers, additionalHeaders: additionalHeaders)
            let input: InputStream?
            let length: Int64
            switch request.body {
            case nil:
                (input, length) = (nil, 0)
            case .data(let data):
                (input, length) = (InputStream(data: data), Int64(data.count))
            case .stream(let body):
                (input, length) = (try body.makeInputStream(), body.length ?? 0)
            }
            let transfer = CurlTransfer(
                input: input, length: length, progress: request.uploadProgress, timeouts: timeouts, streaming: true)
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    transfer.onHead = { continuation.resume(with: $0) }
                    let thread = Thread {
                        let outcome = transfer.perform(request, headerLines: headers)
                        transfer.finishStream(outcome)
                    }
                    thread.name = "OpenAI.CurlStream"
                    thread.start()
                }
            } onCancel: {
                transfer.cancel()
            }
        }

        /// `Name: value` lines: the configuration's additional headers, then the request's (which
        /// win); libcurl sets `Content-Length` itself, and `Expect:` turns off its
        /// `100-continue` wait.
        ///
        /// - Throws: ``OpenAIError/Kind/invalidRequest`` for a name or value with a line break.
        static func headerLines(_ headers: [String: String], additionalHeaders: [String: String]) throws
            -> [String]
        {
            var merged: [String: (name: String, value: String)] = [:]
            for (name, value) in additionalHeaders { merged[name.lowercased()] = (name, value) }
            for (name, value) in headers { merged[name.lowercased()] = (name, value) }
            merged["content-length"] = nil
            merged["transfer-encoding"] = nil
            var lines: [String] = []
            for key in merged.keys.sorted() {
                let (name, value) = merged[key]!
                guard !(name + value).utf8.contains(where: { $0 == 13 || $0 == 10 }), !name.isEmpty else {
                    throw OpenAIError(
                        kind: .invalidRequest, message: "The header `\(Redaction.text(name))` has a line break.")
                }
                // `Name;` is libcurl's form of a header with an empty value (`Name:` removes it).
                lines.append(value.isEmpty ? "\(name);" : "\(name): \(value)")
            }
            if merged["expect"] == nil { lines.append("Expect:") }
            return lines
        }
    }

    /// One transfer: the state libcurl's callbacks read and write, on the transfer's thread.
    /// `@unchecked Sendable`: `lock` guards `cancelled` and the time limits' state (shared with
    /// the deadline scheduler); `onHead` is set before the thread starts; everything else is touched only by
    /// the thread that runs `perform`.
    final class CurlTransfer: DeadlineOwner, @unchecked Sendable {
        private enum Expiry {
            case idle, request
        }

        /// The request body, `nil` for none.
        private let input: InputStream?
        private let length: Int64
        /// Whether the reply's body goes to `body` as it arrives (``CurlUpload/stream(_:timeouts:additionalHeaders:)``)
        /// rather than into `body`.
        private let streaming: Bool
        /// Receives the reply head (with its streamed body) or the failure before it, once.
        var onHead: ((Result<HTTPStreamingResponse, any Error>) -> Void)?
        /// The streamed body, once the head has arrived.
        private var streamedBody: StreamedBody?
        /// Shuts the transfer's sockets down from another thread (``cancel()``).
        private let sockets: OpaquePointer?
        private let progress: (@Sendable (_ bytesSent: Int64, _ totalBytes: Int64?) -> Void)?
        private let timeouts: HTTPTimeouts
        private let lock = NSLock()
        private var cancelled = false
        private var statusCode = 0
        private var headers: [String: String] = [:]
        private var body = Data()
        /// The bytes of a non-2xx body kept, or of a streamed body handed on.
        private var received = 0
        private var cutAtLimit = false
        private var readFailure: (any Error)?
        private var sent: Int64 = 0
        private var reportedBytes: Int64 = 0
        private var movedBytes: Int64 = 0
        // Time limits, in `DispatchTime` nanoseconds; guarded by `lock`.
        /// Whether a deadline is scheduled with ``DeadlineScheduler/shared``.
        private var armed = false
        private var lastActivity: UInt64 = 0
        private var requestDeadline: UInt64?
        /// Whether the transfer's thread waits for the reader of a streamed body: not idle time.
        private var waitingForReader = false
        private var expiry: Expiry?

        init(
            input: InputStream?, length: Int64,
            progress: (@Sendable (_ bytesSent: Int64, _ totalBytes: Int64?) -> Void)?, timeouts: HTTPTimeouts,
            streaming: Bool
        ) {
            self.input = input
            self.length = length
            self.progress = progress
            self.timeouts = timeouts
            self.streaming = streaming
            sockets = clibcurl_socket_guard_create()
        }

        deinit {
            clibcurl_socket_guard_destroy(sockets)
        }

        /// Ends the transfer from any thread: at once when libcurl waits on the network (its
        /// sockets are shut down), else at its next callback.
        func cancel() {
            lock.withLock { cancelled = true }
            clibcurl_socket_guard_shutdown(sockets)
        }

        private var isCancelled: Bool { lock.withLock { cancelled } }

        /// Runs the transfer to its end, blocking the calling thread.
        func perform(_ request: HTTPRequest, headerLines: [String]) -> Result<HTTPResponse, any Error> {
            guard let handle = clibcurl_easy_init() else {
                return .failure(OpenAIError(kind: .connection, message: "libcurl could not start a transfer."))
            }
            // Valid until `clibcurl_easy_cleanup`, as libcurl requires of its error buffer.
            let errorText = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CLibcurlErrorBufferSize))
            errorText.initialize(repeating: 0, count: Int(CLibcurlErrorBufferSize))
            var list: OpaquePointer?
            for line in headerLines { list = clibcurl_slist_append(list, line) }
            defer {
                clibcurl_easy_cleanup(handle)
                clibcurl_slist_free_all(list)
                errorText.deallocate()
                input?.close()
            }
            let context = Unmanaged.passUnretained(self).toOpaque()
            input?.open()
            clibcurl_setopt_socket_guard(handle, sockets)
            clibcurl_setopt_pointer(handle, Int32(CLibcurlOptionErrorBuffer), errorText)
            clibcurl_setopt_pointer(handle, Int32(CLibcurlOptionURL), request.url.absoluteString)
            clibcurl_setopt_long(handle, Int32(CLibcurlOptionNoSignal), 1)
            clibcurl_setopt_long(handle, Int32(CLibcurlOptionHTTPVersion), Int(CLibcurlHTTPVersion1_1))
            if input != nil {
                clibcurl_setopt_long(handle, Int32(CLibcurlOptionPost), 1)
                clibcurl_setopt_offset(handle, Int32(CLibcurlOptionPostFieldSizeLarge), length)
                clibcurl_setopt_long(handle, Int32(CLibcurlOptionUploadBufferSize), CurlUpload.uploadBufferSize)
                if request.method != "POST" {
                    clibcurl_setopt_pointer(handle, Int32(CLibcurlOptionCustomRequest), request.method)
                }
            } else if request.method == "HEAD" {
                clibcurl_setopt_long(handle, Int32(CLibcurlOptionNoBody), 1)
            } else if request.method != "GET" {
                clibcurl_setopt_pointer(handle, Int32(CLibcurlOptionCustomRequest), request.method)
            }
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
            if !streaming, let whole = Self.milliseconds(timeouts.request) {
                // A streamed reply's body is bounded by the idle limit alone: `progress` checks
                // the request limit until the head.
                clibcurl_setopt_long(handle, Int32(CLibcurlOptionTimeoutMilliseconds), whole)
            }
            let started = ContinuousClock.now
            armLimits()
            let code = clibcurl_easy_perform(handle)
            let elapsed = (ContinuousClock.now - started).seconds
            let expiry = disarmLimits()
            switch code {
            case Int32(CLibcurlOK):
                break
            case Int32(CLibcurlWriteError) where cutAtLimit:
                break  // The error body reached its limit: what arrived is the reply.
            case _ where isCancelled:
                return .failure(OpenAIError(kind: .cancelled, message: "The request was cancelled."))
            case _ where expiry == .idle:
                return .failure(
                    OpenAIError(kind: .timeout, message: "No byte moved for the idle timeout of \(timeouts.idle) s."))
            case _ where expiry == .request:
                return .failure(
                    OpenAIError(
                        kind: .timeout,
                        message: "The attempt took longer than its request timeout of \(timeouts.request) s."))
            case _ where readFailure != nil:
                if let failure = readFailure as? OpenAIError { return .failure(failure) }
                return .failure(
                    OpenAIError(kind: .invalidRequest, message: "The request body could not be read: \(readFailure!)"))
            case Int32(CLibcurlTimedOut):
                let connecting = statusCode == 0 && sent == 0 && elapsed < timeouts.request - 0.05
                return .failure(
                    OpenAIError(
                        kind: .timeout,
                        message: connecting
                            ? "The connection was not made within the connect timeout of \(timeouts.connect) s."
                            : "The attempt took longer than its request timeout of \(timeouts.request) s."))
            default:
                let buffered = String(cString: UnsafePointer(errorText))
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

        private static func milliseconds(_ seconds: TimeInterval) -> Int? {
            guard seconds.isFinite, seconds > 0 else { return nil }
            return Int(min(seconds * 1000, Double(Int32.max)).rounded(.up))
        }

        // MARK: Callbacks, on the transfer's thread

        /// Fills libcurl's buffer: at most the bytes the body has left of its length; a body that
        /// ends before its length fails the request.
        fileprivate func read(into buffer: UnsafeMutablePointer<CChar>, count: Int) -> Int {
            if isCancelled { return Int(CLibcurlReadAbort) }
            guard let input else { return 0 }
            lock.withLock { lastActivity = Self.now() }
            let wanted = Int(min(Int64(count), length - sent))
            guard wanted > 0 else { return 0 }
            let read = buffer.withMemoryRebound(to: UInt8.self, capacity: wanted) { input.read($0, maxLength: wanted) }
            if read < 0 {
                readFailure =
                    input.streamError ?? OpenAIError(kind: .invalidRequest, message: "The body stream failed.")
                return Int(CLibcurlReadAbort)
            }
            if read == 0 {
                readFailure = OpenAIError(
                    kind: .invalidRequest, message: "The request body ended after \(sent) of its \(length) bytes.")
                return Int(CLibcurlReadAbort)
            }
            sent += Int64(read)
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
                received = 0
            } else if text.isEmpty {
                // The end of a head: the reply's own when it is not informational.
                if streaming, statusCode >= 200 { deliverHead() }
            } else if let colon = text.firstIndex(of: ":") {
                let name = String(text[..<colon])
                let value = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                if let key = headers.keys.first(where: { $0.lowercased() == name.lowercased() }) {
                    headers[key] = headers[key]! + ", " + value
                } else {
                    headers[name] = value
                }
            }
        }

        /// Hands the reply head and its body to the caller of ``CurlUpload/stream(_:timeouts:additionalHeaders:)``.
        private func deliverHead() {
            guard streamedBody == nil, let onHead else { return }
            self.onHead = nil
            // The head has arrived: the body is bounded by the idle limit alone.
            lock.withLock { requestDeadline = nil }
            let body = StreamedBody(readerGone: { [weak self] in self?.cancel() })
            streamedBody = body
            onHead(
                .success(
                    HTTPStreamingResponse(
                        statusCode: statusCode, headers: headers, body: body.makeStream(),
                        close: { [weak self] in
                            self?.cancel()
                            body.finish(throwing: OpenAIError(kind: .cancelled, message: "The stream was closed."))
                        })))
        }

        /// Ends a streamed transfer: the body ends with `outcome`'s error, or the caller waiting
        /// for the head gets it (a reply with no body delivers its head here).
        func finishStream(_ outcome: Result<HTTPResponse, any Error>) {
            let failure: (any Error)? = if case .failure(let error) = outcome { error } else { nil }
            if failure == nil, streamedBody == nil { deliverHead() }
            if let onHead {
                self.onHead = nil
                onHead(.failure(failure ?? OpenAIError(kind: .connection, message: "The reply has no head.")))
            }
            streamedBody?.finish(throwing: failure)
        }

        fileprivate func write(_ bytes: UnsafeBufferPointer<CChar>) -> Int {
            let success = (200..<300).contains(statusCode)
            if success, !streaming {
                body.append(UnsafeBufferPointer(rebasing: bytes[...]).withMemoryRebound(to: UInt8.self) { Data($0) })
                return bytes.count
            }
            let kept = success ? bytes.count : min(URLSessionTransport.maxErrorBodyBytes - received, bytes.count)
            if kept > 0 {
                let chunk = UnsafeBufferPointer(rebasing: bytes[..<kept]).withMemoryRebound(to: UInt8.self) {
                    Data($0)
                }
                received += kept
                if streaming {
                    if streamedBody == nil { deliverHead() }
                    // Waits while the reader is behind; the time waited is not idle time.
                    lock.withLock { waitingForReader = true }
                    let appended = streamedBody?.appendWaiting(chunk) == true
                    lock.withLock {
                        waitingForReader = false
                        lastActivity = Self.now()
                    }
                    guard appended else { return 0 }
                } else {
                    body.append(chunk)
                }
            }
            if kept < bytes.count {
                cutAtLimit = true
                return 0  // Stop reading: the start of the error body is enough.
            }
            return bytes.count
        }

        /// Called by libcurl at least once a second: records that bytes moved, reports upload
        /// progress, ends the transfer when it was cancelled.
        fileprivate func progress(received: Int64, sent uploaded: Int64) -> Int32 {
            if isCancelled { return 1 }
            if received + uploaded != movedBytes {
                movedBytes = received + uploaded
                lock.withLock { lastActivity = Self.now() }
            }
            if uploaded != reportedBytes, uploaded > 0 {
                reportedBytes = uploaded
                progress?(uploaded, length)
            }
            return 0
        }

        // MARK: Time limits

        private static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

        private static func nanoseconds(_ seconds: TimeInterval) -> UInt64? {
            guard seconds.isFinite, seconds > 0, seconds < 1e9 else { return nil }
            return UInt64(seconds * 1e9)
        }

        /// Starts the idle limit, and the request limit until a streamed reply's head, on the shared
        /// ``DeadlineScheduler`` (libcurl's own timeout bounds a buffered reply's whole exchange,
        /// and its connect timeout the connection). A limit that passes shuts the transfer's
        /// sockets down.
        private func armLimits() {
            let now = Self.now()
            lock.withLock {
                lastActivity = now
                requestDeadline = streaming ? Self.nanoseconds(timeouts.request).map { now &+ $0 } : nil
                armed = true
                scheduleNextDeadline(from: now)
            }
        }

        /// Stops the limits.
        ///
        /// - Returns: The limit that ended the transfer, if one did.
        private func disarmLimits() -> Expiry? {
            lock.withLock {
                armed = false
                DeadlineScheduler.shared.cancel(self)
                return expiry
            }
        }

        /// Schedules the earliest deadline in force, or a check one idle period ahead while the
        /// transfer waits for its reader. Call with `lock` held.
        private func scheduleNextDeadline(from now: UInt64) {
            let idle = Self.nanoseconds(timeouts.idle).map { (waitingForReader ? now : lastActivity) &+ $0 }
            guard armed, let deadline = [requestDeadline, idle].compactMap({ $0 }).min() else { return }
            DeadlineScheduler.shared.schedule(self, at: max(deadline, now))
        }

        /// The scheduled deadline has passed: ends the transfer when a limit has passed, else
        /// waits for the next deadline.
        func deadlineReached() {
            let now = Self.now()
            let expired: Bool = lock.withLock {
                guard armed, expiry == nil else { return false }
                if let requestDeadline, now >= requestDeadline {
                    expiry = .request
                } else if !waitingForReader, let idle = Self.nanoseconds(timeouts.idle), now >= lastActivity &+ idle {
                    expiry = .idle
                }
                if expiry == nil { scheduleNextDeadline(from: now) }
                return expiry != nil
            }
            if expired { clibcurl_socket_guard_shutdown(sockets) }
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

    private let curlProgress: CLibcurlProgressCallback = { context, _, downloadNow, _, uploadNow in
        transfer(context).progress(received: downloadNow, sent: uploadNow)
    }
#endif
