#if os(Linux) && canImport(OpenAIRuntimeLibcurl)
    import OpenAIRuntimeLibcurl
    import Foundation
    import FoundationNetworking

    /// Sends requests through libcurl directly, for ``URLSessionTransport`` on Linux: requests with
    /// a body of bytes or none (``sendBuffered(_:timeouts:additionalHeaders:pool:)``), streamed
    /// replies (``stream(_:timeouts:additionalHeaders:pool:)``) and streamed bodies read from files
    /// and bytes (``send(_:body:timeouts:additionalHeaders:pool:)``).
    ///
    /// FoundationNetworking runs URLSession on the same libcurl, but hands every 64 KiB of a
    /// streamed body across dispatch queues (a body-source read, a progress operation on the
    /// delegate queue, socket-source updates): measured with `perf`, an upload spends most of its
    /// time in thread wake-ups, and reaches about 0.7 of `curl`'s throughput on 2 cores; and a small
    /// request costs about twice this path's instructions. Here a worker thread (``CurlWorkers``)
    /// runs `curl_easy_perform` on a handle of the transport's ``CurlPool`` (its connections kept),
    /// the read callback fills libcurl's 512 KiB upload buffer straight from the body's
    /// `InputStream`, and the body goes with its `Content-Length` instead of chunked transfer coding.
    ///
    /// Only bodies whose reads never wait on another task come here (bytes, ``HTTPBodyStream`` from
    /// a file, or a multipart form of files and bytes), over `http` or `https`, so that libcurl
    /// checks the limits and cancellation between reads. A body read from a stream gets a handle
    /// with no connection open (it cannot be read again should a kept connection turn out closed).
    /// What differs from the URLSession path: only a `GET` or `HEAD` is redirected here, by
    /// ``RedirectPolicy`` (a 307 or 308 to the same origin of a request with a body is sent again
    /// by the client's retry loop, the body being replayable; any other 3xx comes back as the
    /// reply); of the configuration only `httpAdditionalHeaders` and the cookie settings apply
    /// (caches and TLS settings do not), which is why ``URLSessionTransport`` keeps every request
    /// on URLSession when the configuration sets a proxy dictionary or its own protocol classes.
    /// libcurl reads the proxy environment variables (`https_proxy`, `no_proxy`, ...) as
    /// FoundationNetworking does.
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
            _ request: HTTPRequest, body: HTTPBodyStream, timeouts: HTTPTimeouts, additionalHeaders: [String: String],
            pool: CurlPool
        ) async throws -> HTTPResponse {
            if Task.isCancelled {
                throw OpenAIError(kind: .cancelled, message: "The request was cancelled before it was sent.")
            }
            let headers = try headerLines(request.headers, additionalHeaders: additionalHeaders)
            let transfer = CurlTransfer(
                body: .stream(try body.makeInputStream(), length: body.length ?? 0), pool: pool,
                progress: request.uploadProgress, timeouts: timeouts, streaming: false)
            return try await perform(transfer, request, headerLines: headers)
        }

        /// Whether a request with a buffered reply can take this path: a body of bytes or none,
        /// over `http` or `https`.
        static func acceptsBuffered(_ request: HTTPRequest) -> Bool {
            let scheme = request.url.scheme?.lowercased()
            guard scheme == "http" || scheme == "https" else { return false }
            if case .stream? = request.body { return false }
            return true
        }

        /// The most redirects of a `GET` or `HEAD` followed, as URLSession's limit.
        static let maxRedirects = 16

        /// Sends `request` (its body bytes or none) and returns the reply with its whole body, on a
        /// kept connection when the pool has one.
        ///
        /// A redirect is followed where URLSession would follow it by ``RedirectPolicy`` (a `GET`
        /// or `HEAD`, without the credential headers on another origin), up to
        /// ``maxRedirects``; any other 3xx is the reply.
        ///
        /// - Returns: The reply with its body (a non-2xx body cut to
        ///   ``URLSessionTransport/maxErrorBodyBytes``).
        /// - Throws: As ``send(_:body:timeouts:additionalHeaders:pool:)``; ``OpenAIError/Kind/connection``
        ///   after ``maxRedirects`` redirects.
        static func sendBuffered(
            _ request: HTTPRequest, timeouts: HTTPTimeouts, additionalHeaders: [String: String], pool: CurlPool
        ) async throws -> HTTPResponse {
            var current = request
            for _ in 0...maxRedirects {
                if Task.isCancelled {
                    throw OpenAIError(kind: .cancelled, message: "The request was cancelled before it was sent.")
                }
                let headers = try headerLines(current.headers, additionalHeaders: additionalHeaders)
                let body: CurlTransfer.Body? = if case .data(let data)? = current.body { .data(data) } else { nil }
                let transfer = CurlTransfer(
                    body: body, pool: pool, progress: current.uploadProgress, timeouts: timeouts, streaming: false)
                let response = try await perform(transfer, current, headerLines: headers)
                guard let next = redirect(of: request, current, response) else { return response }
                current = next
            }
            throw OpenAIError(
                kind: .connection,
                message: "The reply redirected more than \(maxRedirects) times; nothing more was sent.")
        }

        /// The request that follows `response`'s redirect, decided by ``RedirectPolicy`` as for
        /// URLSession's redirects: the method URLSession would use (`GET` after a 303, and after a
        /// 301 or 302 of a `POST`), the headers of the request redirected; `nil` to stop.
        private static func redirect(of original: HTTPRequest, _ current: HTTPRequest, _ response: HTTPResponse)
            -> HTTPRequest?
        {
            guard [301, 302, 303, 307, 308].contains(response.statusCode),
                let location = response.value(forHeader: "Location"),
                let target = URL(string: location, relativeTo: current.url)?.absoluteURL
            else { return nil }
            let method = current.method.uppercased()
            var redirected = URLRequest(url: target)
            let becomesGet =
                (response.statusCode == 303 && method != "HEAD")
                || ((response.statusCode == 301 || response.statusCode == 302) && method == "POST")
            redirected.httpMethod = becomesGet ? "GET" : current.method
            for (name, value) in current.headers { redirected.setValue(value, forHTTPHeaderField: name) }
            if !becomesGet, case .data(let data)? = current.body { redirected.httpBody = data }
            guard
                let followed = RedirectPolicy.follow(
                    from: original.url, method: original.method, to: redirected, hasBody: original.body != nil),
                let url = followed.url
            else { return nil }
            return HTTPRequest(
                method: followed.httpMethod ?? "GET", url: url, headers: followed.allHTTPHeaderFields ?? [:],
                body: nil, uploadProgress: nil)
        }

        /// Runs `transfer` on a worker thread; cancelling the calling task cancels it.
        private static func perform(_ transfer: CurlTransfer, _ request: HTTPRequest, headerLines: [String])
            async throws -> HTTPResponse
        {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    CurlWorkers.shared.run {
                        continuation.resume(with: transfer.perform(request, headerLines: headerLines))
                    }
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
        /// - Throws: As ``send(_:body:timeouts:additionalHeaders:pool:)``, until the head has arrived.
        static func stream(
            _ request: HTTPRequest, timeouts: HTTPTimeouts, additionalHeaders: [String: String], pool: CurlPool
        ) async throws -> HTTPStreamingResponse {
            if Task.isCancelled {
                throw OpenAIError(kind: .cancelled, message: "The request was cancelled before it was sent.")
            }
            let headers = try headerLines(request.headers, additionalHeaders: additionalHeaders)
            let body: CurlTransfer.Body?
            switch request.body {
            case nil:
                body = nil
            case .data(let data):
                body = .data(data)
            case .stream(let stream):
                body = .stream(try stream.makeInputStream(), length: stream.length ?? 0)
            }
            let transfer = CurlTransfer(
                body: body, pool: pool, progress: request.uploadProgress, timeouts: timeouts, streaming: true)
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    transfer.onHead = { continuation.resume(with: $0) }
                    CurlWorkers.shared.run {
                        let outcome = transfer.perform(request, headerLines: headers)
                        transfer.finishStream(outcome)
                    }
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
    /// `@unchecked Sendable`: `shared` holds what other threads touch (cancellation, the sockets,
    /// the ``TransferState`` the deadline scheduler reads); `onHead` is set before the thread
    /// starts; everything else is touched only by the thread that runs `perform`.
    final class CurlTransfer: DeadlineOwner, @unchecked Sendable {
        private struct Shared {
            var cancelled = false
            /// The socket guard of the handle while the transfer runs, to shut its sockets down
            /// from another thread (``cancel()``, an expired limit).
            var activeSockets: OpaquePointer?
            /// The idle limit, and the request limit until a streamed reply's head (libcurl's own
            /// timeout bounds a buffered reply's whole exchange, and its connect timeout the
            /// connection); the error-body bound.
            var transfer: TransferState
        }

        /// The request body when it is read from a stream, else `nil`.
        private let input: InputStream?
        /// The request body when it is bytes (libcurl keeps a copy, which it sends again on a
        /// new connection when a kept one turns out closed).
        private let data: Data?
        private let length: Int64
        /// The pool the transfer's handle comes from and goes back to.
        private let pool: CurlPool
        /// Whether the reply's body goes to `body` as it arrives (``CurlUpload/stream(_:timeouts:additionalHeaders:pool:)``)
        /// rather than into `body`.
        private let streaming: Bool
        /// Receives the reply head (with its streamed body) or the failure before it, once.
        var onHead: ((Result<HTTPStreamingResponse, any Error>) -> Void)?
        /// The streamed body, once the head has arrived.
        private var streamedBody: StreamedBody?
        private let progress: (@Sendable (_ bytesSent: Int64, _ totalBytes: Int64?) -> Void)?
        private let timeouts: HTTPTimeouts
        private let shared: Locked<Shared>
        private var statusCode = 0
        private var headers: [String: String] = [:]
        /// The name under which `headers` holds each lowercased name.
        private var headerNames: [String: String] = [:]
        private var body = Data()
        private var readFailure: (any Error)?
        private var sent: Int64 = 0
        private var reportedBytes: Int64 = 0
        private var movedBytes: Int64 = 0

        /// - Parameters:
        ///   - body: The request body: `nil`, bytes, or a stream of `length` bytes.
        init(
            body: Body?, pool: CurlPool, progress: (@Sendable (_ bytesSent: Int64, _ totalBytes: Int64?) -> Void)?,
            timeouts: HTTPTimeouts, streaming: Bool
        ) {
            switch body {
            case nil: (input, data, length) = (nil, nil, 0)
            case .data(let bytes): (input, data, length) = (nil, bytes, Int64(bytes.count))
            case .stream(let stream, let count): (input, data, length) = (stream, nil, count)
            }
            self.pool = pool
            self.progress = progress
            self.timeouts = timeouts
            self.streaming = streaming
            shared = Locked(
                Shared(
                    transfer: TransferState(
                        timeouts: timeouts, limits: streaming ? [.request, .idle] : [.idle],
                        errorBodyLimit: URLSessionTransport.maxErrorBodyBytes)))
        }

        enum Body {
            case data(Data)
            case stream(InputStream, length: Int64)
        }

        /// Ends the transfer from any thread: at once when libcurl waits on the network (its
        /// sockets are shut down), else at its next callback.
        func cancel() {
            shared.withLock { shared in
                shared.cancelled = true
                // Under the lock: once `perform` has cleared it, the handle may serve another transfer.
                if let sockets = shared.activeSockets { clibcurl_socket_guard_shutdown(sockets) }
            }
        }

        private var isCancelled: Bool { shared.withLock { $0.cancelled } }

        /// Runs the transfer to its end, blocking the calling thread.
        func perform(_ request: HTTPRequest, headerLines: [String]) -> Result<HTTPResponse, any Error> {
            // A body read from a stream cannot be read again: its transfer opens its own connection.
            guard let lease = pool.checkout(fresh: input != nil) else {
                return .failure(OpenAIError(kind: .connection, message: "libcurl could not start a transfer."))
            }
            let handle = lease.handle
            let running: Bool = shared.withLock { shared in
                if shared.cancelled { return false }
                shared.activeSockets = lease.sockets
                return true
            }
            guard running else {
                pool.checkin(lease, reusable: true)
                return .failure(OpenAIError(kind: .cancelled, message: "The request was cancelled."))
            }
            // Valid until the handle is reset or cleaned up, as libcurl requires of its error buffer.
            let errorText = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CLibcurlErrorBufferSize))
            errorText.initialize(repeating: 0, count: Int(CLibcurlErrorBufferSize))
            var list: OpaquePointer?
            for line in headerLines { list = clibcurl_slist_append(list, line) }
            var reusable = false
            defer {
                // No shutdown from another thread once the handle may serve another transfer.
                let stopped = shared.withLock { shared in
                    shared.activeSockets = nil
                    return shared.cancelled || shared.transfer.expiry != nil
                }
                pool.checkin(lease, reusable: reusable && !stopped)
                clibcurl_slist_free_all(list)
                errorText.deallocate()
                input?.close()
            }
            let context = Unmanaged.passUnretained(self).toOpaque()
            input?.open()
            clibcurl_setopt_pointer(handle, Int32(CLibcurlOptionErrorBuffer), errorText)
            clibcurl_setopt_pointer(handle, Int32(CLibcurlOptionURL), request.url.absoluteString)
            clibcurl_setopt_long(handle, Int32(CLibcurlOptionNoSignal), 1)
            clibcurl_setopt_long(handle, Int32(CLibcurlOptionHTTPVersion), Int(CLibcurlHTTPVersion1_1))
            if let data {
                clibcurl_setopt_long(handle, Int32(CLibcurlOptionPost), 1)
                // The size first: COPYPOSTFIELDS copies that many bytes.
                clibcurl_setopt_offset(handle, Int32(CLibcurlOptionPostFieldSizeLarge), length)
                data.withUnsafeBytes { bytes in
                    // An empty body still needs a pointer that is not NULL (NULL would mean "read it").
                    _ = clibcurl_setopt_pointer(
                        handle, Int32(CLibcurlOptionCopyPostFields), bytes.baseAddress ?? UnsafeRawPointer(errorText))
                }
                if request.method != "POST" {
                    clibcurl_setopt_pointer(handle, Int32(CLibcurlOptionCustomRequest), request.method)
                }
            } else if input != nil {
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
            if !streaming {
                // Every encoding this libcurl decodes, as URLSession asks (`deflate, gzip, br, zstd`); a
                // streamed reply stays uncompressed, so that each event is handed on as it arrives.
                clibcurl_setopt_pointer(handle, Int32(CLibcurlOptionAcceptEncoding), "")
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
            let (expiry, cutAtLimit) = disarmLimits()
            switch code {
            case Int32(CLibcurlOK):
                reusable = !cutAtLimit
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
            shared.withLock { $0.transfer.activity(at: Self.now()) }
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
                shared.withLock { $0.transfer.replyHead(statusCode: statusCode) }
                headers = [:]
                headerNames = [:]
                body = Data()
            } else if text.isEmpty {
                // The end of a head: the reply's own when it is not informational.
                if streaming, statusCode >= 200 { deliverHead() }
            } else if let colon = text.firstIndex(of: ":") {
                let name = String(text[..<colon])
                let value = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                let lowercased = name.lowercased()
                if let key = headerNames[lowercased] {
                    headers[key] = headers[key]! + ", " + value
                } else {
                    headerNames[lowercased] = name
                    headers[name] = value
                }
            }
        }

        /// Hands the reply head and its body to the caller of ``CurlUpload/stream(_:timeouts:additionalHeaders:pool:)``.
        private func deliverHead() {
            guard streamedBody == nil, let onHead else { return }
            self.onHead = nil
            // The head has arrived: the body is bounded by the idle limit alone.
            shared.withLock { $0.transfer.streamedHeadArrived() }
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
            // A 2xx body is kept whole; an error body up to its limit.
            let kept = shared.withLock { $0.transfer.admit(bytes.count) }
            if kept > 0 {
                let chunk = UnsafeBufferPointer(rebasing: bytes[..<kept]).withMemoryRebound(to: UInt8.self) {
                    Data($0)
                }
                if streaming {
                    if streamedBody == nil { deliverHead() }
                    // Waits while the reader is behind; the time waited is not idle time.
                    shared.withLock { _ = $0.transfer.readerLags(true, at: Self.now()) }
                    let appended = streamedBody?.appendWaiting(chunk) == true
                    let deadline = shared.withLock { $0.transfer.readerLags(false, at: Self.now()) }
                    if let deadline { DeadlineScheduler.shared.schedule(self, at: deadline) }
                    guard appended else { return 0 }
                } else {
                    body.append(chunk)
                }
            }
            // Stop reading at the limit: the start of the error body is enough.
            return kept < bytes.count ? 0 : bytes.count
        }

        /// Called by libcurl at least once a second: records that bytes moved, reports upload
        /// progress, ends the transfer when it was cancelled.
        fileprivate func progress(received: Int64, sent uploaded: Int64) -> Int32 {
            if isCancelled { return 1 }
            if received + uploaded != movedBytes {
                movedBytes = received + uploaded
                shared.withLock { $0.transfer.activity(at: Self.now()) }
            }
            if uploaded != reportedBytes, uploaded > 0 {
                reportedBytes = uploaded
                progress?(uploaded, length)
            }
            return 0
        }

        // MARK: Time limits

        private static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

        /// Starts the limits on the shared ``DeadlineScheduler``; a limit that passes shuts the
        /// transfer's sockets down.
        private func armLimits() {
            let deadline = shared.withLock { $0.transfer.start(at: Self.now()) }
            if let deadline { DeadlineScheduler.shared.schedule(self, at: deadline) }
        }

        /// Stops the limits.
        ///
        /// - Returns: The limit that ended the transfer, if one did, and whether an error body was
        ///   cut at its limit.
        private func disarmLimits() -> (TransferState.Expiry?, cutAtLimit: Bool) {
            let ended = shared.withLock { ($0.transfer.stop(), $0.transfer.cutAtLimit) }
            DeadlineScheduler.shared.cancel(self)
            return ended
        }

        /// The scheduled deadline has passed: ends the transfer when a limit has passed, else
        /// waits for the next deadline.
        func deadlineReached() {
            let outcome = shared.withLock { shared in
                let outcome = shared.transfer.deadlineReached(at: Self.now())
                if case .expired = outcome, let sockets = shared.activeSockets {
                    clibcurl_socket_guard_shutdown(sockets)
                }
                return outcome
            }
            if case .wait(let deadline) = outcome { DeadlineScheduler.shared.schedule(self, at: deadline) }
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
