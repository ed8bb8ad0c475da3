import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The default transport, on `URLSession` (FoundationNetworking on Linux).
///
/// Response bodies are delivered through a `URLSessionDataDelegate`, so ``stream(_:timeout:)``
/// yields chunks as they arrive on Linux too (where `URLSession.bytes(for:)` does not exist).
/// Cancelling the calling task cancels the `URLSessionTask`, which closes the connection.
/// Request bodies may be streams (``HTTPBodyStream``); upload progress comes from the delegate's
/// `didSendBodyData`. A file body is uploaded with its `Content-Length`; on Linux any other
/// stream is sent with chunked transfer coding (FoundationNetworking cannot send a stream with a
/// `Content-Length`).
public final class URLSessionTransport: HTTPTransport {
    private let session: URLSession
    private let delegate: TransportDelegate

    /// Creates a transport with its own `URLSession`.
    ///
    /// - Parameter configuration: The session configuration (proxies, connection limits, TLS);
    ///   `.default` when not given.
    public init(configuration: URLSessionConfiguration = .default) {
        let delegate = TransportDelegate()
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.name = "OpenAI.URLSessionTransport"
        self.delegate = delegate
        self.session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// Sends `request` and returns the response with its whole body.
    ///
    /// - Parameters:
    ///   - request: The request to send.
    ///   - timeout: The longest time the attempt may go without progress, in seconds
    ///     (`URLRequest.timeoutInterval`, as URLSession and openai-python's read timeout do); a
    ///     fractional or sub-second value is enforced as a deadline for the whole reply.
    /// - Returns: The response, whatever its status.
    /// - Throws: ``OpenAIError`` of kind ``OpenAIError/Kind/connection``,
    ///   ``OpenAIError/Kind/timeout`` or ``OpenAIError/Kind/cancelled``.
    public func send(_ request: HTTPRequest, timeout: TimeInterval) async throws -> HTTPResponse {
        let handler = TaskHandler(mode: .buffered, progress: request.uploadProgress, timeout: timeout)
        let task = try makeTask(request, timeout: timeout, handler: handler)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<HTTPResponse, any Swift.Error>) in
                handler.start(task, buffered: continuation, deadline: timeout)
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
    ///   - timeout: The longest wait for the response head, then between two chunks, in seconds.
    /// - Returns: The status, headers and body chunks; ending the body's iteration early (or
    ///   cancelling its task) cancels the `URLSessionTask`.
    /// - Throws: As ``send(_:timeout:)``.
    public func stream(_ request: HTTPRequest, timeout: TimeInterval) async throws -> HTTPStreamingResponse {
        let handler = TaskHandler(mode: .streaming, progress: request.uploadProgress, timeout: timeout)
        let task = try makeTask(request, timeout: timeout, handler: handler)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<HTTPStreamingResponse, any Swift.Error>) in
                handler.start(task, head: continuation, deadline: timeout)
            }
        } onCancel: {
            task.cancel()
        }
    }

    private func makeTask(_ request: HTTPRequest, timeout: TimeInterval, handler: TaskHandler) throws
        -> URLSessionDataTask
    {
        if Task.isCancelled {
            throw OpenAIError(kind: .cancelled, message: "The request was cancelled before it was sent.")
        }
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        // FoundationNetworking truncates the interval to whole seconds (0.5 s would time out at
        // once); the handler's deadline enforces the exact per-attempt limit.
        urlRequest.timeoutInterval = max(timeout.rounded(.up), 1)
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
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
            if let file = stream.fileURL {
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
    /// `@unchecked Sendable`: `lock` guards `handlers`.
    private final class TransportDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        private let lock = NSLock()
        private var handlers: [Int: TaskHandler] = [:]

        func register(_ handler: TaskHandler, for identifier: Int) {
            lock.lock()
            handlers[identifier] = handler
            lock.unlock()
        }

        private func handler(_ identifier: Int, remove: Bool = false) -> TaskHandler? {
            lock.lock()
            defer { lock.unlock() }
            return remove ? handlers.removeValue(forKey: identifier) : handlers[identifier]
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
    }
}

/// The state of one `URLSessionTask`: where its head and body go.
/// `@unchecked Sendable`: `lock` guards every `var` except `expectedBodyLength`, which is set
/// before the task starts.
private final class TaskHandler: @unchecked Sendable {
    enum Mode { case buffered, streaming }

    let mode: Mode
    let progress: (@Sendable (Int64, Int64?) -> Void)?
    let timeout: TimeInterval
    var expectedBodyLength: Int64?

    private let lock = NSLock()
    private var buffered: CheckedContinuation<HTTPResponse, any Swift.Error>?
    private var head: CheckedContinuation<HTTPStreamingResponse, any Swift.Error>?
    private var bodyContinuation: AsyncThrowingStream<Data, any Swift.Error>.Continuation?
    private var response: HTTPURLResponse?
    private var data = Data()
    private var timedOut = false
    private var deadline: (any DispatchSourceTimer)?
    private var task: URLSessionDataTask?

    init(mode: Mode, progress: (@Sendable (Int64, Int64?) -> Void)?, timeout: TimeInterval) {
        self.mode = mode
        self.progress = progress
        self.timeout = timeout
    }

    func start(
        _ task: URLSessionDataTask, buffered continuation: CheckedContinuation<HTTPResponse, any Swift.Error>,
        deadline: TimeInterval
    ) {
        lock.lock()
        buffered = continuation
        self.task = task
        lock.unlock()
        arm(task, after: deadline)
        task.resume()
        if Task.isCancelled { task.cancel() }
    }

    func start(
        _ task: URLSessionDataTask, head continuation: CheckedContinuation<HTTPStreamingResponse, any Swift.Error>,
        deadline: TimeInterval
    ) {
        lock.lock()
        head = continuation
        self.task = task
        lock.unlock()
        arm(task, after: deadline)
        task.resume()
        if Task.isCancelled { task.cancel() }
    }

    /// For a timeout FoundationNetworking cannot represent (it truncates
    /// `URLRequest.timeoutInterval` to whole seconds), cancels `task` as timed out when no reply
    /// (buffered: no complete reply; streaming: no head) arrives within `seconds`. Whole-second
    /// timeouts are left to URLSession's own timer (no per-request timer cost).
    private func arm(_ task: URLSessionDataTask, after seconds: TimeInterval) {
        guard seconds.isFinite, seconds > 0, seconds < 1 || seconds != seconds.rounded() else { return }
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.setEventHandler { [weak self] in
            guard let self else { return }
            self.lock.lock()
            self.timedOut = true
            self.lock.unlock()
            task.cancel()
        }
        timer.schedule(deadline: .now() + seconds)
        lock.lock()
        deadline = timer
        lock.unlock()
        timer.resume()
    }

    /// Cancels the deadline timer; call with `lock` held.
    private func disarm() {
        deadline?.cancel()
        deadline = nil
    }

    func didReceive(_ response: URLResponse) {
        lock.lock()
        guard let http = response as? HTTPURLResponse else {
            lock.unlock()
            return
        }
        self.response = http
        guard mode == .streaming, let head else {
            lock.unlock()
            return
        }
        self.head = nil
        disarm()
        let (body, continuation) = AsyncThrowingStream<Data, any Swift.Error>.makeStream()
        bodyContinuation = continuation
        let task = self.task
        lock.unlock()
        continuation.onTermination = { termination in
            if case .cancelled = termination { task?.cancel() }
        }
        head.resume(
            returning: HTTPStreamingResponse(statusCode: http.statusCode, headers: Self.headers(of: http), body: body))
    }

    func didReceive(_ chunk: Data) {
        lock.lock()
        if mode == .buffered {
            data.append(chunk)
            lock.unlock()
        } else {
            let continuation = bodyContinuation
            lock.unlock()
            continuation?.yield(chunk)
        }
    }

    func didSend(_ totalBytesSent: Int64) {
        progress?(totalBytesSent, expectedBodyLength)
    }

    func didComplete(_ error: (any Swift.Error)?) {
        lock.lock()
        disarm()
        let failure = error.map { Self.mapError($0, timedOut: timedOut, timeout: timeout) }
        let buffered = self.buffered
        let head = self.head
        let body = bodyContinuation
        let response = self.response
        let data = self.data
        self.buffered = nil
        self.head = nil
        self.bodyContinuation = nil
        self.data = Data()
        self.task = nil
        lock.unlock()
        if let buffered {
            if let failure {
                buffered.resume(throwing: failure)
            } else if let response {
                buffered.resume(
                    returning: HTTPResponse(
                        statusCode: response.statusCode, headers: Self.headers(of: response), body: data))
            } else {
                buffered.resume(throwing: OpenAIError(kind: .connection, message: "The response is not HTTP."))
            }
        }
        if let head {
            head.resume(throwing: failure ?? OpenAIError(kind: .connection, message: "The response is not HTTP."))
        }
        if let body {
            if let failure { body.finish(throwing: failure) } else { body.finish() }
        }
    }

    static func headers(of response: HTTPURLResponse) -> [String: String] {
        var headers: [String: String] = [:]
        for (name, value) in response.allHeaderFields {
            headers[String(describing: name)] = String(describing: value)
        }
        return headers
    }

    static func mapError(_ error: any Swift.Error, timedOut: Bool, timeout: TimeInterval) -> OpenAIError {
        if let error = error as? OpenAIError { return error }
        guard let urlError = error as? URLError else {
            return OpenAIError(kind: .connection, message: String(describing: error))
        }
        switch urlError.code {
        case .cancelled where timedOut, .timedOut:
            return OpenAIError(kind: .timeout, message: "The request timed out after \(timeout) s.")
        case .cancelled:
            return OpenAIError(kind: .cancelled, message: "The request was cancelled.")
        default:
            return OpenAIError(
                kind: .connection, message: "The connection failed (URLError \(urlError.code.rawValue)).")
        }
    }
}
