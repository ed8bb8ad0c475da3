import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The default transport, on `URLSession` (FoundationNetworking on Linux).
///
/// Response bodies are delivered through a `URLSessionDataDelegate`, so ``stream(_:timeouts:)``
/// yields chunks as they arrive on Linux too (where `URLSession.bytes(for:)` does not exist).
/// The limits of ``HTTPTimeouts`` are enforced by the transport's own timers, alike for whole and
/// fractional values. Redirects follow `RedirectPolicy`: a credential or a body never goes to
/// another origin. TLS certificates are verified by URLSession; the transport has no switch that
/// turns verification off.
/// Cancelling the calling task cancels the `URLSessionTask`, which closes the connection.
/// Request bodies may be streams (``HTTPBodyStream``); upload progress comes from the delegate's
/// `didSendBodyData`. A file body is uploaded with its `Content-Length`. On Apple platforms any
/// other streamed body (a multipart form) is first written to a temporary file, readable by its
/// owner only and removed when the request ends, and uploaded from there: CFNetwork is never
/// handed a custom `InputStream`, and it reads the file again when it resends the body itself (an
/// authentication challenge; a redirect is resent by the client, `RedirectPolicy`). The
/// body passes through memory 512 KiB at a time and costs its size on disk while the request runs.
///
/// A streamed reply (``stream(_:timeouts:)``) is read with back-pressure: while its reader is
/// more than 1 MiB behind, the transport stops reading from the connection (on Apple platforms
/// it suspends the `URLSessionTask`), so a slow reader holds a bounded amount of memory and TCP
/// slows the server to its pace.
///
/// On Linux, requests over `http` and `https` skip URLSession and go through libcurl directly
/// (the `libcurl.so.4` FoundationNetworking itself runs on), on kept connections:
/// - a buffered reply (``send(_:timeouts:)``) of a request whose body is bytes or none: for
///   FoundationNetworking's work around each request (a delegate callback on an operation queue
///   for the head, for each chunk and for the end; the headers converted twice), which made a
///   small request cost about 1.2 times bare `URLSession`'s instructions; on this path it costs
///   about 0.65 times (`Scripts/bench/bench-runtime.sh`);
/// - a streamed body read from files and bytes (a large multipart upload), with its
///   `Content-Length`: FoundationNetworking hands every 64 KiB of it across dispatch queues, which
///   costs about a third of the throughput on 2 cores;
/// - every streamed reply, because a suspended FoundationNetworking task goes on delivering its
///   body: libcurl's thread waits while the reader is behind.
///
/// Each transport keeps its own connections (up to 16 idle handles of 2 connections), DNS cache,
/// TLS sessions and cookies (in memory) for this path. A buffered reply asks for compression as
/// URLSession does (`Accept-Encoding`); a streamed one does not. A redirect of a `GET` or `HEAD`
/// is followed by `RedirectPolicy`, as on URLSession, up to 16 times; a 307 or 308 of a request
/// with a body to the same origin is sent again by the client when the body is replayable; any
/// other 3xx is the reply. Of the configuration, `httpAdditionalHeaders` and the cookie settings
/// apply (caches and TLS settings do not). A transport whose configuration sets
/// `connectionProxyDictionary` or its own `protocolClasses` keeps every request on URLSession
/// (where a streamed reply is read without a bound on Linux); one whose configuration has a cookie
/// store of the caller's (not the shared one, which the transport replaces) keeps requests with a
/// buffered reply there, so that the store sees their cookies.
public final class URLSessionTransport: HTTPTransport {
    private let session: URLSession
    private let delegate: TransportDelegate
    private let delegateDispatchQueue = DispatchQueue(label: "OpenAI.URLSessionTransport.delegate", qos: .userInitiated)
    /// Whether a request with a buffered reply and a body of bytes or none goes through libcurl
    /// directly too: there are direct transfers (`curlPool`), and the cookies are the
    /// transport's own or none.
    private let directBufferedTransfers: Bool
    #if os(Linux) && canImport(OpenAIRuntimeLibcurl)
        /// The libcurl handles of direct transfers (a streamed request body, a streamed reply; see
        /// `CurlUpload`), their connections and cookies; `nil` when requests stay on URLSession
        /// (a proxy dictionary or protocol classes in the configuration, or no libcurl).
        private let curlPool: CurlPool?
    #endif
    /// The configuration's `httpAdditionalHeaders`, for direct transfers.
    private let additionalHeaders: [String: String]
    /// How many transfers went through libcurl directly (for the tests); 0 where there is no such path.
    var directTransferCount: Int {
        #if os(Linux) && canImport(OpenAIRuntimeLibcurl)
            curlPool?.transferCount ?? 0
        #else
            0
        #endif
    }
    /// Whether a streamed body not read from a file is written to a temporary file and uploaded
    /// from there (`SpooledBody`): on Apple platforms, where CFNetwork must not read a custom
    /// `InputStream`; elsewhere only in the tests that run that path.
    let spoolsStreamedBodies: Bool

    /// Creates a transport with its own `URLSession`.
    ///
    /// - Parameter configuration: The session configuration (proxies, connection limits, TLS);
    ///   `.default` when not given. It is copied; when it uses the process's shared cookie store
    ///   (as `.default` does), the copy gets a store of its own in memory: each transport, so each
    ///   client, keeps its cookies to itself and writes none to disk.
    public convenience init(configuration: URLSessionConfiguration = .default) {
        #if canImport(Darwin)
            self.init(configuration: configuration, spoolsStreamedBodies: true)
        #else
            self.init(configuration: configuration, spoolsStreamedBodies: false)
        #endif
    }

    /// Creates a transport that may take the upload path of Apple platforms on any platform, so
    /// that the tests run it on Linux too.
    ///
    /// - Parameters:
    ///   - configuration: The session configuration.
    ///   - spoolsStreamedBodies: Whether a streamed body that is not a file is written to a
    ///     temporary file and uploaded from there (`SpooledBody`), as on Apple platforms.
    init(configuration: URLSessionConfiguration, spoolsStreamedBodies: Bool) {
        self.spoolsStreamedBodies = spoolsStreamedBodies
        // Cookies this transport keeps itself (the shared store is replaced by one of its own),
        // none at all, or a store the caller chose (which only URLSession writes to).
        let ownsCookies = configuration.httpCookieStorage === HTTPCookieStorage.shared
        let keepsCookies =
            configuration.httpShouldSetCookies && configuration.httpCookieStorage != nil
            && configuration.httpCookieAcceptPolicy != .never
        let configuration = Self.ownCookies(configuration)
        let delegate = TransportDelegate()
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.name = "OpenAI.URLSessionTransport"
        // Delegate callbacks (each body chunk, the cancellation that ends an unwanted body) should
        // not wait behind other work: a serial queue of their own, at a high QoS. The operation
        // queue does not retain it (`unowned(unsafe)` in swift-corelibs-foundation): `self` does.
        queue.underlyingQueue = delegateDispatchQueue
        self.delegate = delegate
        self.session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
        #if os(Linux) && canImport(OpenAIRuntimeLibcurl)
            // After `URLSession(...)`: FoundationNetworking's own curl_global_init comes first.
            let directTransfers =
                !spoolsStreamedBodies && configuration.connectionProxyDictionary == nil
                && (configuration.protocolClasses ?? []).allSatisfy {
                    String(reflecting: $0).hasPrefix("FoundationNetworking.")
                } && CurlUpload.isAvailable
            directBufferedTransfers = directTransfers && (ownsCookies || !keepsCookies)
            curlPool = directTransfers ? CurlPool(cookies: ownsCookies && keepsCookies) : nil
        #else
            directBufferedTransfers = false
        #endif
        var additional: [String: String] = [:]
        for (name, value) in configuration.httpAdditionalHeaders ?? [:] {
            additional[String(describing: name)] = String(describing: value)
        }
        additionalHeaders = additional
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// A copy of `configuration` whose cookies are this transport's own when it would use the
    /// process's shared store: a cookie a server set for one client (another API key) is never
    /// sent by another, and none is written to disk (FoundationNetworking persists the shared
    /// store in the home folder). A store the caller chose, or none, is kept as it is.
    private static func ownCookies(_ configuration: URLSessionConfiguration) -> URLSessionConfiguration {
        guard let copy = configuration.copy() as? URLSessionConfiguration else { return configuration }
        if copy.httpCookieStorage === HTTPCookieStorage.shared {
            // An ephemeral configuration's store: in memory, and new for each configuration.
            copy.httpCookieStorage = URLSessionConfiguration.ephemeral.httpCookieStorage
        }
        return copy
    }

    /// Sends `request` and returns the response with its whole body.
    ///
    /// - Parameters:
    ///   - request: The request to send.
    ///   - timeouts: The limits of this attempt (``HTTPTimeouts``), enforced by this transport's
    ///     own timers to the millisecond (URLSession's whole-second idle timer is only a backstop;
    ///     a direct upload on Linux checks its idle limit about once a second).
    /// - Returns: The response, whatever its status; a non-2xx reply's body is read up to
    ///   ``maxErrorBodyBytes`` and the connection then closed.
    /// - Throws: ``OpenAIError`` of kind ``OpenAIError/Kind/connection``,
    ///   ``OpenAIError/Kind/timeout`` (the message names the limit) or
    ///   ``OpenAIError/Kind/cancelled``.
    public func send(_ request: HTTPRequest, timeouts: HTTPTimeouts) async throws -> HTTPResponse {
        #if os(Linux) && canImport(OpenAIRuntimeLibcurl)
            if let curlPool {
                if case .stream(let body)? = request.body, CurlUpload.accepts(request, body) {
                    return try await CurlUpload.send(
                        request, body: body, timeouts: timeouts, additionalHeaders: additionalHeaders, pool: curlPool)
                }
                if directBufferedTransfers, CurlUpload.acceptsBuffered(request) {
                    return try await CurlUpload.sendBuffered(
                        request, timeouts: timeouts, additionalHeaders: additionalHeaders, pool: curlPool)
                }
            }
        #endif
        let handler = TaskHandler(mode: .buffered, request: request, timeouts: timeouts)
        let task = try await makeTask(request, timeouts: timeouts, handler: handler)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<HTTPResponse, any Swift.Error>) in
                handler.start(task, buffered: continuation)
            }
        } onCancel: {
            task.cancel()
        }
    }

    /// Sends `request` and returns as soon as the response head arrives; the body follows chunk by
    /// chunk.
    ///
    /// - Parameters:
    ///   - request: The request to send.
    ///   - timeouts: The limits of this attempt: the head within `timeouts.request`, then no gap
    ///     longer than `timeouts.idle` between chunks.
    /// - Returns: The status, headers and body chunks, read with back-pressure (at most about
    ///   1 MiB held unread; see the type's description); cancelling the reading task, or
    ///   releasing the body unfinished, closes the connection.
    /// - Throws: As ``send(_:timeouts:)``.
    public func stream(_ request: HTTPRequest, timeouts: HTTPTimeouts) async throws -> HTTPStreamingResponse {
        #if os(Linux) && canImport(OpenAIRuntimeLibcurl)
            if let curlPool, CurlUpload.acceptsStream(request) {
                return try await CurlUpload.stream(
                    request, timeouts: timeouts, additionalHeaders: additionalHeaders, pool: curlPool)
            }
        #endif
        let handler = TaskHandler(mode: .streaming, request: request, timeouts: timeouts)
        let task = try await makeTask(request, timeouts: timeouts, handler: handler)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<HTTPStreamingResponse, any Swift.Error>) in
                handler.start(task, head: continuation)
            }
        } onCancel: {
            task.cancel()
        }
    }

    /// The most bytes of a non-2xx reply's body that ``send(_:timeouts:)`` keeps (64 KiB); the
    /// connection is closed once they have arrived, so a huge error body costs no memory.
    public static let maxErrorBodyBytes = 64 << 10

    /// The task for `request`, registered with `handler`. A streamed body is first spooled to a
    /// temporary file when ``spoolsStreamedBodies`` (the handler removes the file when the task
    /// ends), within `timeouts`' request and idle limits of its own.
    ///
    /// - Throws: ``OpenAIError``: of kind ``OpenAIError/Kind/cancelled`` when the task is
    ///   cancelled, or what `SpooledBody.spool(_:timeouts:in:)` throws.
    private func makeTask(_ request: HTTPRequest, timeouts: HTTPTimeouts, handler: TaskHandler) async throws
        -> URLSessionDataTask
    {
        if Task.isCancelled {
            throw OpenAIError(kind: .cancelled, message: "The request was cancelled before it was sent.")
        }
        var spooled: SpooledBody?
        if spoolsStreamedBodies, case .stream(let stream)? = request.body, stream.fileURL == nil {
            spooled = try await SpooledBody.spool(stream, timeouts: timeouts)
        }
        do {
            return try makeTask(request, timeouts: timeouts, handler: handler, spooled: spooled)
        } catch {
            spooled?.remove()
            throw error
        }
    }

    private func makeTask(
        _ request: HTTPRequest, timeouts: HTTPTimeouts, handler: TaskHandler, spooled: SpooledBody?
    ) throws -> URLSessionDataTask {
        if Task.isCancelled {
            throw OpenAIError(kind: .cancelled, message: "The request was cancelled before it was sent.")
        }
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        // URLSession's interval is an idle timer (FoundationNetworking truncates it to whole
        // seconds); the handler enforces the exact limits, this is a backstop behind them.
        urlRequest.timeoutInterval = min(max(timeouts.idle.rounded(.up) + 2, 3), HTTPTimeouts.longest)
        URLRequestHeaderFields.set(request.headers, on: &urlRequest)
        let task: URLSessionDataTask
        switch request.body {
        case nil:
            task = session.dataTask(with: urlRequest)
        case .data(let data):
            urlRequest.httpBody = data
            handler.expectedBodyLength = Int64(data.count)
            task = session.dataTask(with: urlRequest)
        case .stream(let stream):
            handler.expectedBodyLength = stream.length
            if let spooled {
                // Sent with its Content-Length, and read again by URLSession when it must resend.
                handler.expectedBodyLength = spooled.length
                handler.cleanup = { spooled.remove() }
                urlRequest.setValue(nil, forHTTPHeaderField: "Transfer-Encoding")
                task = session.uploadTask(with: urlRequest, fromFile: spooled.url)
            } else if let file = stream.fileURL {
                // An upload from a file is sent with its Content-Length.
                task = session.uploadTask(with: urlRequest, fromFile: file)
            } else {
                urlRequest.httpBodyStream = try stream.makeInputStream()
                #if canImport(FoundationNetworking)
                    // FoundationNetworking sends a stream with chunked transfer coding whatever
                    // its length; a Content-Length beside it would make the request invalid.
                    urlRequest.setValue(nil, forHTTPHeaderField: "Content-Length")
                #else
                    if let length = stream.length, request.value(forHeader: "Content-Length") == nil {
                        urlRequest.setValue(String(length), forHTTPHeaderField: "Content-Length")
                    }
                #endif
                task = session.dataTask(with: urlRequest)
            }
        }
        delegate.register(handler, for: task.taskIdentifier)
        return task
    }

    /// Routes the session's delegate callbacks to the handler of each task.
    private final class TransportDelegate: NSObject, URLSessionDataDelegate, Sendable {
        /// The handler of each task in flight, by task identifier.
        private let handlers = Locked<[Int: TaskHandler]>([:])

        func register(_ handler: TaskHandler, for identifier: Int) {
            handlers.withLock { $0[identifier] = handler }
        }

        private func handler(_ identifier: Int, remove: Bool = false) -> TaskHandler? {
            handlers.withLock { remove ? $0.removeValue(forKey: identifier) : $0[identifier] }
        }

        func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
            completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
        ) {
            handler(dataTask.taskIdentifier)?.didReceive(response)
            completionHandler(.allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            handler(dataTask.taskIdentifier)?.didReceive(data)
        }

        func urlSession(
            _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
            totalBytesExpectedToSend: Int64
        ) {
            handler(task.taskIdentifier)?.didSend(totalBytesSent)
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Swift.Error)?) {
            handler(task.taskIdentifier, remove: true)?.didComplete(error)
        }

        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
        ) {
            guard let state = handler(task.taskIdentifier) else { return completionHandler(nil) }
            completionHandler(
                RedirectPolicy.follow(
                    from: state.originalURL, method: state.originalMethod, to: request, hasBody: state.hasBody))
        }
    }
}

/// The state of one `URLSessionTask`: where its head and body go, and its time limits (a
/// ``TransferState`` on the shared ``DeadlineScheduler``'s timer).
/// `@unchecked Sendable`: `expectedBodyLength` is set before the task starts; the rest that
/// changes is in `state`.
private final class TaskHandler: DeadlineOwner, @unchecked Sendable {
    enum Mode { case buffered, streaming }

    private struct State {
        var buffered: CheckedContinuation<HTTPResponse, any Swift.Error>?
        var head: CheckedContinuation<HTTPStreamingResponse, any Swift.Error>?
        var streamedBody: StreamedBody?
        var response: HTTPURLResponse?
        var data = Data()
        var task: URLSessionDataTask?
        var transfer: TransferState
        var cleanup: (@Sendable () -> Void)?
    }

    let mode: Mode
    let progress: (@Sendable (Int64, Int64?) -> Void)?
    let timeouts: HTTPTimeouts
    /// The URL as the SDK sent it, for the redirect rule.
    let originalURL: URL
    /// Whether the request has a body, for the redirect rule.
    let hasBody: Bool
    /// The method as the SDK sent it, for the redirect rule.
    let originalMethod: String
    var expectedBodyLength: Int64?
    private let state: Locked<State>

    init(mode: Mode, request: HTTPRequest, timeouts: HTTPTimeouts) {
        self.mode = mode
        progress = request.uploadProgress
        self.timeouts = timeouts
        originalURL = request.url
        hasBody = request.body != nil
        originalMethod = request.method
        state = Locked(
            State(transfer: TransferState(timeouts: timeouts, errorBodyLimit: URLSessionTransport.maxErrorBodyBytes)))
    }

    /// Runs once when the task has ended (removes a spooled body's file); set before it starts.
    var cleanup: (@Sendable () -> Void)? {
        get { state.withLock { $0.cleanup } }
        set { state.withLock { $0.cleanup = newValue } }
    }

    func start(_ task: URLSessionDataTask, buffered continuation: CheckedContinuation<HTTPResponse, any Swift.Error>) {
        start(task) { $0.buffered = continuation }
    }

    func start(
        _ task: URLSessionDataTask, head continuation: CheckedContinuation<HTTPStreamingResponse, any Swift.Error>
    ) {
        start(task) { $0.head = continuation }
    }

    private func start(_ task: URLSessionDataTask, waiting: (inout State) -> Void) {
        let deadline: UInt64? = state.withLock { state in
            waiting(&state)
            state.task = task
            return state.transfer.start(at: Self.now())
        }
        if let deadline { DeadlineScheduler.shared.schedule(self, at: deadline) }
        task.resume()
        if Task.isCancelled { task.cancel() }
    }

    // MARK: Time limits

    private static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// Runs when the scheduled deadline has passed: ends the task when a limit has passed, else
    /// waits for the next.
    func deadlineReached() {
        let (outcome, task): (TransferState.DeadlineOutcome, URLSessionDataTask?) = state.withLock { state in
            guard let task = state.task else { return (.none, nil) }
            return (state.transfer.deadlineReached(at: Self.now()), task)
        }
        switch outcome {
        case .expired: task?.cancel()
        case .wait(let deadline): DeadlineScheduler.shared.schedule(self, at: deadline)
        case .none: break
        }
    }

    // MARK: Delegate callbacks

    func didReceive(_ response: URLResponse) {
        typealias Delivery = (
            head: CheckedContinuation<HTTPStreamingResponse, any Swift.Error>, body: StreamedBody,
            response: HTTPURLResponse, task: URLSessionDataTask?
        )
        let delivery: Delivery? =
            state.withLock { state in
                state.transfer.activity(at: Self.now())
                guard let http = response as? HTTPURLResponse else { return nil }
                state.response = http
                state.transfer.replyHead(statusCode: http.statusCode)
                guard mode == .streaming, let head = state.head else { return nil }
                state.head = nil
                state.transfer.streamedHeadArrived()
                let task = state.task
                var pause: (@Sendable (Bool) -> Void)?
                if Self.pausesTasks { pause = { [weak self] stop in self?.suspend(stop) } }
                let body = StreamedBody(pause: pause, readerGone: { task?.cancel() })
                state.streamedBody = body
                return (head, body, http, task)
            }
        guard let delivery else { return }
        let task = delivery.task
        delivery.head.resume(
            returning: HTTPStreamingResponse(
                statusCode: delivery.response.statusCode, headers: Self.headers(of: delivery.response),
                body: delivery.body.makeStream(), close: { task?.cancel() }))
    }

    /// Whether a streamed body's back-pressure suspends the task: on Apple platforms, where a
    /// suspended data task stops reading from its connection. FoundationNetworking's does not
    /// (it delivers the rest of the body regardless), which is why Linux streams through libcurl
    /// (`CurlUpload.stream`) whenever it can; a stream that stays on URLSession there (a proxy
    /// dictionary or protocol classes in the configuration) is read without a bound.
    #if canImport(FoundationNetworking)
        static let pausesTasks = false
    #else
        static let pausesTasks = true
    #endif

    /// Suspends the task while the reader of its body is behind, resumes it once the reader has
    /// caught up (``StreamedBody``'s `pause`, called in order).
    private func suspend(_ stop: Bool) {
        let (task, deadline): (URLSessionDataTask?, UInt64?) = state.withLock { state in
            guard let task = state.task else { return (nil, nil) }
            return (task, state.transfer.readerLags(stop, at: Self.now()))
        }
        guard let task else { return }
        if let deadline { DeadlineScheduler.shared.schedule(self, at: deadline) }
        if stop { task.suspend() } else { task.resume() }
    }

    func didReceive(_ chunk: Data) {
        let (kept, body, cancel): (Data, StreamedBody?, URLSessionDataTask?) = state.withLock { state in
            state.transfer.activity(at: Self.now())
            guard !state.transfer.cutAtLimit else { return (Data(), nil, nil) }
            let kept = chunk.prefix(state.transfer.admit(chunk.count))
            // A non-2xx body beyond what the error keeps: stop reading it and close the connection.
            let cancel = state.transfer.cutAtLimit ? state.task : nil
            guard mode == .streaming else {
                state.data.append(kept)
                return (Data(), nil, cancel)
            }
            return (kept, state.streamedBody, cancel)
        }
        if !kept.isEmpty { body?.append(kept) }
        cancel?.cancel()
    }

    func didSend(_ totalBytesSent: Int64) {
        state.withLock { $0.transfer.activity(at: Self.now()) }
        progress?(totalBytesSent, expectedBodyLength)
    }

    func didComplete(_ error: (any Swift.Error)?) {
        let ended = state.withLock { state in
            let expiry = state.transfer.stop()
            let failure =
                state.transfer.cutAtLimit ? nil : error.map { Self.mapError($0, expired: expiry, timeouts: timeouts) }
            defer {
                state.buffered = nil
                state.head = nil
                state.streamedBody = nil
                state.data = Data()
                state.task = nil
                state.cleanup = nil
            }
            return (
                failure: failure, buffered: state.buffered, head: state.head, body: state.streamedBody,
                response: state.response, data: state.data, cleanup: state.cleanup
            )
        }
        DeadlineScheduler.shared.cancel(self)
        ended.cleanup?()
        if let buffered = ended.buffered {
            if let failure = ended.failure {
                buffered.resume(throwing: failure)
            } else if let response = ended.response {
                buffered.resume(
                    returning: HTTPResponse(
                        statusCode: response.statusCode, headers: Self.headers(of: response), body: ended.data))
            } else {
                buffered.resume(throwing: OpenAIError(kind: .connection, message: "The response is not HTTP."))
            }
        }
        if let head = ended.head {
            head.resume(
                throwing: ended.failure ?? OpenAIError(kind: .connection, message: "The response is not HTTP."))
        }
        ended.body?.finish(throwing: ended.failure)
    }

    /// The reply's header fields as text (cast, as they are strings; described otherwise).
    static func headers(of response: HTTPURLResponse) -> [String: String] {
        let fields = response.allHeaderFields
        var headers: [String: String] = [:]
        headers.reserveCapacity(fields.count)
        for (name, value) in fields {
            headers[name as? String ?? String(describing: name)] = value as? String ?? String(describing: value)
        }
        return headers
    }

    static func mapError(
        _ error: any Swift.Error, expired: TransferState.Expiry?, timeouts: HTTPTimeouts
    ) -> OpenAIError {
        if let error = error as? OpenAIError { return error }
        guard let urlError = error as? URLError else {
            return OpenAIError(kind: .connection, message: String(describing: error))
        }
        switch (urlError.code, expired) {
        case (.cancelled, .request?):
            return OpenAIError(
                kind: .timeout, message: "The attempt took longer than its request timeout of \(timeouts.request) s.")
        case (.cancelled, .idle?), (.timedOut, _):
            return OpenAIError(
                kind: .timeout, message: "No byte arrived for the idle timeout of \(timeouts.idle) s.")
        case (.cancelled, .connect?):
            return OpenAIError(
                kind: .timeout,
                message: "The connection was not established within its connect timeout of \(timeouts.connect) s.")
        case (.cancelled, nil):
            return OpenAIError(kind: .cancelled, message: "The request was cancelled.")
        default:
            return OpenAIError(
                kind: .connection, message: "The connection failed (URLError \(urlError.code.rawValue)).")
        }
    }
}
