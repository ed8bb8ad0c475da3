import Foundation
import OpenAIRuntime

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Security)
    import Security
#endif

/// The `URLSessionWebSocketTask` transport behind ``WebSocket``: the default on Apple platforms,
/// and ``WebSocketTransport/urlSession`` on Linux (FoundationNetworking, on libcurl). The task does
/// its own framing, pings and TLS: the system's verification, with extra roots added as anchors on
/// Apple platforms; on Linux only the system roots (FoundationNetworking offers no per-session
/// trust), so extra roots are refused with ``WebSocketError/Kind/unsupported``.
///
/// Compiled on Linux too, where the test suite checks the libcurl-without-WebSocket error; the
/// connected paths run on Apple platforms and on Linux with a libcurl that has WebSocket support.
/// `@unchecked Sendable`: all mutable state is in `shared` (lock-guarded); the other stored
/// properties are immutable after `init`.
final class URLSessionWebSocketConnection: NSObject, URLSessionWebSocketDelegate,
    WebSocketConnection, @unchecked Sendable
{
    struct Shared {
        var finished: WebSocketCloseInfo?
        var finishedError: WebSocketError?
        var localClose: WebSocketCloseInfo?
        var tlsFailure: String?
        var opened: CheckedContinuation<String?, Error>?
        var closeWaiters: [CheckedContinuation<Void, Never>] = []
        var task: URLSessionWebSocketTask?
        var session: URLSession?
        var cancelled = false
        /// The connect deadline passed before the upgrade completed (``start()``'s timer).
        var connectTimedOut = false
    }

    /// `URLRequest.timeoutInterval` of the upgrade request, in seconds: on Apple platforms it is
    /// the longest a task may go without receiving data, for a WebSocket task too, so the
    /// connect deadline cannot be given there (a quiet session would end when the connect
    /// deadline passed with no message). A day: the connection ends only when a side closes it
    /// or the network drops it; ``WebSocketConfiguration/connectTimeout`` is ``start()``'s timer.
    static let idleTimeoutSeconds: TimeInterval = 24 * 60 * 60

    /// Whether this is watchOS, where a failed connection may be TN3135's restriction (the check
    /// that reads it compiles on every platform).
    static var runsOnWatchOS: Bool {
        #if os(watchOS)
            true
        #else
            false
        #endif
    }

    let shared = Locked(Shared())
    private let request: URLRequest
    private let configuration: WebSocketConfiguration
    private let sink: WebSocketMessageSink
    #if canImport(Security)
        private let anchors: [SecCertificate]
    #endif

    /// Prepares the upgrade request; nothing is sent until ``start()``.
    ///
    /// - Throws: ``WebSocketError`` of kind ``WebSocketError/Kind/unsupported`` on Linux when
    ///   the configuration asks for trust roots other than the system's.
    init(
        handshake: WebSocketHandshake, url: URL, configuration: WebSocketConfiguration,
        sink: WebSocketMessageSink
    ) throws(WebSocketError) {
        var request = URLRequest(url: url)
        request.timeoutInterval = Self.idleTimeoutSeconds
        for header in handshake.extraHeaders {
            request.setValue(header.value, forHTTPHeaderField: header.name)
        }
        if !handshake.subprotocols.isEmpty {
            request.setValue(
                handshake.subprotocols.joined(separator: ", "),
                forHTTPHeaderField: "Sec-WebSocket-Protocol")
        }
        self.request = request
        self.configuration = configuration
        self.sink = sink
        let tls = configuration.tls
        #if canImport(Security)
            var pem = tls.additionalTrustRootsPEM ?? ""
            if let file = tls.additionalTrustRootsFile,
                let text = try? String(contentsOfFile: file, encoding: .utf8)
            {
                pem += "\n" + text
            }
            anchors = Self.certificates(fromPEM: pem)
        #else
            guard tls.additionalTrustRootsPEM == nil, tls.additionalTrustRootsFile == nil,
                tls.trustsSystemRoots
            else {
                throw WebSocketError(
                    .unsupported,
                    "the URLSession transport on Linux trusts the system roots only; use "
                        + "WebSocketTransport.builtIn for extra trust roots")
            }
        #endif
    }

    #if canImport(Security)
        private static func certificates(fromPEM pem: String) -> [SecCertificate] {
            pem.components(separatedBy: "-----BEGIN CERTIFICATE-----").dropFirst().compactMap {
                block in
                guard
                    let body = block.components(separatedBy: "-----END CERTIFICATE-----").first,
                    let der = Data(base64Encoded: body, options: .ignoreUnknownCharacters)
                else { return nil }
                return SecCertificateCreateWithData(nil, der as CFData)
            }
        }
    #endif

    var endInfo: WebSocketCloseInfo? { shared.withLock { $0.finished } }

    func start() async throws -> String? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (opened: CheckedContinuation<String?, Error>) in
                let sessionConfiguration = URLSessionConfiguration.ephemeral
                sessionConfiguration.timeoutIntervalForRequest = Self.idleTimeoutSeconds
                let session = URLSession(
                    configuration: sessionConfiguration, delegate: self, delegateQueue: nil)
                let task = session.webSocketTask(with: request)
                task.maximumMessageSize = configuration.maxMessageBytes
                let cancelled = shared.withLock { state in
                    state.opened = opened
                    state.task = task
                    state.session = session
                    return state.cancelled
                }
                // Cancelled before the task existed: the handler below found no task to cancel.
                if cancelled { task.cancel() }
                task.resume()
                startConnectDeadline(task)
            }
        } onCancel: {
            let task = shared.withLock { state in
                state.cancelled = true
                return state.task
            }
            task?.cancel()
        }
    }

    /// Cancels the task when the upgrade has not completed within
    /// ``WebSocketConfiguration/connectTimeout``; ``urlSession(_:task:didCompleteWithError:)``
    /// then throws ``WebSocketError/Kind/timeout`` from ``start()``.
    private func startConnectDeadline(_ task: URLSessionWebSocketTask) {
        let deadline = configuration.connectTimeout
        Task { [weak self] in
            try? await Task.sleep(for: deadline)
            guard let self else { return }
            let stillOpening = shared.withLock { state -> Bool in
                guard state.opened != nil, state.finished == nil else { return false }
                state.connectTimedOut = true
                return true
            }
            if stillOpening { task.cancel() }
        }
    }

    func send(_ opcode: WebSocketOpcode, _ payload: some Collection<UInt8>) async throws {
        let (task, failure) = shared.withLock {
            state -> (URLSessionWebSocketTask?, WebSocketError?) in
            if let error = state.finishedError { return (nil, error) }
            if let info = state.finished ?? state.localClose { return (nil, .closed(info)) }
            return (state.task, nil)
        }
        if let failure { throw failure }
        let message: URLSessionWebSocketTask.Message =
            opcode == .text
            ? .string(String(decoding: payload, as: UTF8.self)) : .data(Data(payload))
        do {
            try await task?.send(message)
        } catch {
            throw WebSocketError(
                .connectionFailed, "send failed: \(error.localizedDescription)")
        }
    }

    func ping() async throws {
        guard let task = shared.withLock({ $0.task }) else { return }
        try await withCheckedThrowingContinuation {
            (waiter: CheckedContinuation<Void, Error>) in
            task.sendPing { error in
                if let error {
                    waiter.resume(
                        throwing: WebSocketError(
                            .closed, "ping failed: \(error.localizedDescription)"))
                } else {
                    waiter.resume()
                }
            }
        }
    }

    func requestClose(code: WebSocketCloseCode, reason: String) {
        let task = shared.withLock { state -> URLSessionWebSocketTask? in
            guard state.finished == nil, state.localClose == nil else { return nil }
            state.localClose = WebSocketCloseInfo(
                code: code, reason: reason, initiatedByPeer: false)
            return state.task
        }
        let closeCode =
            URLSessionWebSocketTask.CloseCode(rawValue: Int(code.rawValue)) ?? .normalClosure
        let reasonBytes = Array(
            WebSocketFrameEncoder.closePayload(code: code, reason: reason).dropFirst(2))
        task?.cancel(with: closeCode, reason: Data(reasonBytes))
    }

    func close(code: WebSocketCloseCode, reason: String) async {
        requestClose(code: code, reason: reason)
        let timeout = configuration.closeTimeout
        Task { [self] in
            try? await Task.sleep(for: timeout)
            // On the delegate queue, like every other delivery, so no message can follow the end.
            shared.withLock { $0.session }?.delegateQueue.addOperation { [self] in
                finish(info: shared.withLock { $0.localClose }, error: nil)
            }
        }
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let done = shared.withLock { state -> Bool in
                if state.finished != nil { return true }
                state.closeWaiters.append(waiter)
                return false
            }
            if done { waiter.resume() }
        }
    }

    private func receiveNext(_ task: URLSessionWebSocketTask) {
        #if compiler(>=6.1) || !canImport(FoundationNetworking)
            task.receive { [self] result in
                // Completions run on the session's serial delegate queue, where `finish` runs too.
                deliver(result, from: task)
            }
        #else
            // swift-corelibs-foundation 6.0 keeps `receive(completionHandler:)` private (public
            // from 6.1): the async form, delivered on the delegate queue as the completion would be.
            Task { [self] in
                let result: Result<URLSessionWebSocketTask.Message, Error>
                do {
                    result = .success(try await task.receive())
                } catch {
                    result = .failure(error)
                }
                shared.withLock { $0.session }?.delegateQueue.addOperation { [self] in
                    deliver(result, from: task)
                }
            }
        #endif
    }

    /// One `receive` result, on the delegate queue: the message to the sink and the next
    /// `receive`, or the end.
    private func deliver(
        _ result: Result<URLSessionWebSocketTask.Message, Error>, from task: URLSessionWebSocketTask
    ) {
        guard shared.withLock({ $0.finished == nil }) else { return }
        switch result {
        case .success(.string(let text)):
            sink.receive(.text(text))
            receiveNext(task)
        case .success(.data(let data)):
            sink.receive(.binary(data))
            receiveNext(task)
        case .success:
            receiveNext(task)
        case .failure:
            finishFromTask(task)
        }
    }

    private func finishFromTask(_ task: URLSessionWebSocketTask) {
        if let local = shared.withLock({ $0.localClose }) {
            return finish(info: local, error: nil)
        }
        if task.closeCode != .invalid {
            let reason = task.closeReason.map { String(decoding: $0, as: UTF8.self) } ?? ""
            let info = WebSocketCloseInfo(
                code: WebSocketCloseCode(rawValue: UInt16(clamping: task.closeCode.rawValue)),
                reason: reason,
                initiatedByPeer: true)
            return finish(info: info, error: info.code == .normalClosure ? nil : .closed(info))
        }
        let info = WebSocketCloseInfo(
            code: .abnormalClosure, reason: "connection closed without a close frame",
            initiatedByPeer: true)
        finish(info: info, error: .closed(info))
    }

    private func finish(info: WebSocketCloseInfo?, error: WebSocketError?) {
        let info =
            info
            ?? WebSocketCloseInfo(code: .abnormalClosure, reason: "", initiatedByPeer: true)
        let (waiters, session, first) = shared.withLock { state in
            let first = state.finished == nil
            if first {
                state.finished = info
                state.finishedError = error
            }
            defer { state.closeWaiters = [] }
            return (state.closeWaiters, state.session, first)
        }
        guard first else { return }
        sink.finish(info, error)
        session?.invalidateAndCancel()
        for waiter in waiters { waiter.resume() }
    }

    // MARK: URLSessionWebSocketDelegate

    func urlSession(
        _ session: URLSession, webSocketTask: URLSessionWebSocketTask,
        didOpenWithProtocol protocol: String?
    ) {
        let opened = shared.withLock { state in
            defer { state.opened = nil }
            return state.opened
        }
        opened?.resume(returning: `protocol`)
        receiveNext(webSocketTask)
    }

    func urlSession(
        _ session: URLSession, webSocketTask: URLSessionWebSocketTask,
        didCloseWith closeCode: URLSessionWebSocketTask.CloseCode, reason: Data?
    ) {
        finishFromTask(webSocketTask)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?
    ) {
        let (opened, tlsFailure, connectTimedOut) = shared.withLock { state in
            defer { state.opened = nil }
            return (state.opened, state.tlsFailure, state.connectTimedOut)
        }
        if let opened {
            let status = (task.response as? HTTPURLResponse)?.statusCode
            let urlError = error as? URLError
            let failure: WebSocketError
            if let tlsFailure {
                failure = WebSocketError(
                    .tlsVerificationFailed, "certificate verification failed: \(tlsFailure)")
            } else if let status, status != 101 {
                failure = WebSocketError(
                    .handshakeRejected, "server answered the upgrade with HTTP \(status)",
                    httpStatus: status)
            } else if connectTimedOut || urlError?.code == .timedOut {
                failure = WebSocketError(
                    .timeout, "connect timed out after \(configuration.connectTimeout)")
            } else if urlError?.code == .cancelled {
                failure = WebSocketError(.cancelled, "connect cancelled")
            } else if urlError?.code == .unsupportedURL {
                // FoundationNetworking on a libcurl without WebSocket: "WebSockets not
                // supported by libcurl", before anything is sent.
                failure = WebSocketError(
                    .unsupported,
                    "URLSessionWebSocketTask cannot connect here: "
                        + (error?.localizedDescription ?? "unsupported URL"))
            } else if let code = urlError?.code,
                [
                    .serverCertificateUntrusted, .serverCertificateHasUnknownRoot,
                    .serverCertificateHasBadDate,
                    .serverCertificateNotYetValid,
                ].contains(code)
            {
                failure = WebSocketError(
                    .tlsVerificationFailed,
                    error?.localizedDescription ?? "untrusted certificate")
            } else if Self.runsOnWatchOS, urlError?.code == .notConnectedToInternet {
                // TN3135: watchOS lets an app use URLSessionWebSocketTask only while it has an
                // active audio session (long-form audio) or a CallKit call; otherwise the
                // connection fails as if there were no network. The error does not tell that
                // from a watch that is offline, so it is what it says, a connection failure
                // (retried like any other platform's offline error), and the message names the
                // restriction as the other cause.
                failure = WebSocketError(
                    .connectionFailed,
                    (error?.localizedDescription ?? "not connected to the internet")
                        + " (on watchOS also the error of an app without an active audio session or "
                        + "CallKit call, which alone may use URLSessionWebSocketTask: Apple TN3135)")
            } else {
                failure = WebSocketError(
                    .connectionFailed, error?.localizedDescription ?? "connection failed")
            }
            finish(info: nil, error: failure)
            opened.resume(throwing: failure)
        } else if let webSocketTask = task as? URLSessionWebSocketTask {
            finishFromTask(webSocketTask)
        }
    }

    #if canImport(Security)
        func urlSession(
            _ session: URLSession, didReceive challenge: URLAuthenticationChallenge
        ) async -> (URLSession.AuthChallengeDisposition, URLCredential?) {
            guard
                challenge.protectionSpace.authenticationMethod
                    == NSURLAuthenticationMethodServerTrust,
                let trust = challenge.protectionSpace.serverTrust,
                !anchors.isEmpty || !configuration.tls.trustsSystemRoots
            else { return (.performDefaultHandling, nil) }
            _ = SecTrustSetAnchorCertificates(trust, anchors as CFArray)
            _ = SecTrustSetAnchorCertificatesOnly(trust, !configuration.tls.trustsSystemRoots)
            var error: CFError?
            if SecTrustEvaluateWithError(trust, &error) {
                return (.useCredential, URLCredential(trust: trust))
            }
            let reason =
                error.map { CFErrorCopyDescription($0) as String } ?? "untrusted certificate"
            shared.withLock { $0.tlsFailure = reason }
            return (.cancelAuthenticationChallenge, nil)
        }
    #endif
}
