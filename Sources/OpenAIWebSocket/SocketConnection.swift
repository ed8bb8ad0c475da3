#if canImport(Glibc) && canImport(OpenAIWebSocketOpenSSL)
    import Foundation
    import OpenAIRuntime
    import Glibc

    /// One WebSocket connection over a POSIX socket (and OpenSSL for `wss://`), driven by a dedicated
    /// I/O thread so no Swift concurrency thread ever blocks.
    ///
    /// The I/O thread owns the socket, the TLS session and the frame parser; it polls the socket and
    /// a wake-up pipe. Other threads only touch ``shared`` (under its lock): they queue encoded frames
    /// and write one byte to the pipe. Framing and the handshake are the pure state machines
    /// ``WebSocketFrameParser``, ``WebSocketFrameEncoder`` and ``WebSocketHandshake``.
    ///
    /// `@unchecked Sendable`: the mutable stored properties below `shared` are touched only by the
    /// I/O thread (after `start`), `shared` is lock-guarded, everything else is immutable.
    final class SocketConnection: WebSocketConnection, @unchecked Sendable {
        struct Shared {
            var outbound: [UInt8] = []
            var maskingKeys = MaskingKeyPool()
            var wireBytes = 0
            var wakePending = false
            var closeSent = false
            var localClose: WebSocketCloseInfo?
            var peerClose: WebSocketCloseInfo?
            var closeDeadline: ContinuousClock.Instant?
            var aborted = false
            var subprotocol: String?
            var finished: WebSocketCloseInfo?
            var finishedError: WebSocketError?
            var drainWaiters: [CheckedContinuation<Void, Error>] = []
            var closeWaiters: [CheckedContinuation<Void, Never>] = []
            var pingWaiters: [UInt64: CheckedContinuation<Void, Error>] = [:]
            var nextPingID: UInt64 = 0
        }

        let handshake: WebSocketHandshake
        let configuration: WebSocketConfiguration
        let sink: WebSocketMessageSink
        let shared = Locked(Shared())
        let wakeRead: Int32
        let wakeWrite: Int32

        // I/O thread only (internal so the +Opening and +EventLoop extensions can use them).
        var socket: Int32 = -1
        var tls: TLSSession?
        var parser: WebSocketFrameParser
        var wire: [UInt8] = []
        var wireOffset = 0
        var receivedClose = false
        var stopAfterFlush = false
        var closeInfo: WebSocketCloseInfo?
        var terminalError: WebSocketError?

        init(
            handshake: WebSocketHandshake, configuration: WebSocketConfiguration,
            sink: WebSocketMessageSink
        ) throws(WebSocketError) {
            self.handshake = handshake
            self.configuration = configuration
            self.sink = sink
            parser = WebSocketFrameParser(maxMessageBytes: configuration.maxMessageBytes)
            var fds: [Int32] = [-1, -1]
            guard pipe(&fds) == 0 else {
                throw WebSocketError(
                    .connectionFailed, "pipe() failed: \(String(cString: strerror(errno)))")
            }
            for fd in fds {
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            }
            wakeRead = fds[0]
            wakeWrite = fds[1]
        }

        deinit {
            // The pipe lives as long as this object, so a sender holding a reference can always write to it.
            Glibc.close(wakeRead)
            Glibc.close(wakeWrite)
        }

        // MARK: API for any thread

        /// Starts the I/O thread and waits for the opening handshake.
        ///
        /// - Returns: The negotiated subprotocol.
        /// - Throws: ``WebSocketError`` from connect, TLS or the upgrade; ``WebSocketError/Kind/cancelled``.
        func start() async throws -> String? {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation {
                    (connected: CheckedContinuation<String?, Error>) in
                    let thread = Thread { [self] in
                        Self.liveIOThreads.withLock { $0 += 1 }
                        defer { Self.liveIOThreads.withLock { $0 -= 1 } }
                        self.run(connected: connected)
                    }
                    thread.name = "OpenAIRealtime.WebSocket"
                    thread.start()
                }
            } onCancel: {
                abort()
            }
        }

        /// Hard stop: the I/O thread closes the socket at once (no closing handshake if still connecting).
        func abort() {
            shared.withLock { state in
                state.aborted = true
                wakeLocked(&state)
            }
        }

        private func wakeLocked(_ state: inout Shared) {
            guard !state.wakePending else { return }
            state.wakePending = true
            var one: UInt8 = 1
            _ = Glibc.write(wakeWrite, &one, 1)
        }

        var endInfo: WebSocketCloseInfo? { shared.withLock { $0.finished } }

        /// Payloads above this many bytes are framed outside the lock (64 KiB).
        static var frameOutsideLockBytes: Int { 64 << 10 }

        /// How many I/O threads are running in this process (for tests that check nothing leaks).
        static let liveIOThreads = Locked(0)

        /// The I/O threads running now (their block has not returned).
        static var liveIOThreadCount: Int { liveIOThreads.withLock { $0 } }

        func closedError(_ state: Shared) -> WebSocketError {
            if let error = state.finishedError { return error }
            let info =
                state.finished ?? state.peerClose ?? state.localClose
                ?? WebSocketCloseInfo(code: .normalClosure, reason: "", initiatedByPeer: false)
            return .closed(info)
        }

        /// Queues a data frame; waits while the send buffer is above its high-water mark.
        ///
        /// - Parameters:
        ///   - opcode: `.text` or `.binary`.
        ///   - payload: The unmasked payload.
        /// - Throws: ``WebSocketError`` of kind ``WebSocketError/Kind/closed`` once closing has started.
        func send(_ opcode: WebSocketOpcode, _ payload: some Collection<UInt8>) async throws {
            let highWater = configuration.sendBufferHighWaterBytes
            // Large payloads are framed and masked before taking the lock, so the I/O thread is
            // not held up; small ones straight into the queue (one copy of the payload).
            let largeFrame =
                payload.count > Self.frameOutsideLockBytes
                ? WebSocketFrameEncoder.encode(opcode: opcode, payload: payload) : nil
            let mustWait = try shared.withLock { state throws(WebSocketError) -> Bool in
                guard state.finished == nil, !state.closeSent else { throw closedError(state) }
                if let largeFrame {
                    if state.outbound.isEmpty {
                        state.outbound = largeFrame
                    } else {
                        state.outbound.append(contentsOf: largeFrame)
                    }
                } else {
                    WebSocketFrameEncoder.append(
                        opcode: opcode, payload: payload, maskingKey: state.maskingKeys.next(),
                        to: &state.outbound)
                }
                wakeLocked(&state)
                return state.outbound.count + state.wireBytes > highWater
            }
            guard mustWait else { return }
            try await withCheckedThrowingContinuation {
                (waiter: CheckedContinuation<Void, Error>) in
                let resumeNow: Result<Void, Error>? = shared.withLock { state in
                    if state.finished != nil { return .failure(closedError(state)) }
                    if state.outbound.count + state.wireBytes <= highWater / 2 {
                        return .success(())
                    }
                    state.drainWaiters.append(waiter)
                    return nil
                }
                if let resumeNow { waiter.resume(with: resumeNow) }
            }
        }

        /// Sends a ping with an 8-byte id and waits for the matching pong.
        ///
        /// - Throws: ``WebSocketError`` of kind ``WebSocketError/Kind/closed`` if the connection closes
        ///   first, ``WebSocketError/Kind/cancelled`` if the task is cancelled.
        func ping() async throws {
            let id = shared.withLock { state -> UInt64 in
                state.nextPingID += 1
                return state.nextPingID
            }
            let payload = (0..<8).map { UInt8((id >> UInt64(56 - 8 * $0)) & 0xFF) }
            let frame = WebSocketFrameEncoder.encode(opcode: .ping, payload: payload)
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation {
                    (waiter: CheckedContinuation<Void, Error>) in
                    let failure: WebSocketError? = shared.withLock { state in
                        guard state.finished == nil, !state.closeSent else {
                            return closedError(state)
                        }
                        state.pingWaiters[id] = waiter
                        state.outbound.append(contentsOf: frame)
                        wakeLocked(&state)
                        return nil
                    }
                    if let failure { waiter.resume(throwing: failure) }
                }
            } onCancel: {
                let waiter = shared.withLock { $0.pingWaiters.removeValue(forKey: id) }
                waiter?.resume(throwing: WebSocketError(.cancelled, "ping cancelled"))
            }
        }

        /// Starts the closing handshake unless closing has already started.
        ///
        /// - Parameters:
        ///   - code: The close code to send.
        ///   - reason: The reason, truncated to 123 UTF-8 bytes.
        func requestClose(code: WebSocketCloseCode, reason: String) {
            shared.withLock { state in
                guard state.finished == nil, !state.closeSent else { return }
                state.closeSent = true
                state.localClose = WebSocketCloseInfo(
                    code: code, reason: reason, initiatedByPeer: false)
                state.closeDeadline = .now + configuration.closeTimeout
                state.outbound.append(
                    contentsOf: WebSocketFrameEncoder.encode(
                        opcode: .close,
                        payload: WebSocketFrameEncoder.closePayload(code: code, reason: reason)))
                wakeLocked(&state)
            }
        }

        /// Performs the closing handshake and waits until the connection is closed.
        ///
        /// - Parameters:
        ///   - code: The close code to send.
        ///   - reason: The reason.
        func close(code: WebSocketCloseCode, reason: String) async {
            requestClose(code: code, reason: reason)
            await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                let done = shared.withLock { state -> Bool in
                    if state.finished != nil { return true }
                    state.closeWaiters.append(waiter)
                    return false
                }
                if done { waiter.resume() }
            }
        }

        // MARK: I/O thread

        private func run(connected: CheckedContinuation<String?, Error>) {
            let subprotocol: String?
            do {
                subprotocol = try openConnection()
            } catch {
                tls = nil
                if socket >= 0 { Glibc.close(socket) }
                socket = -1
                let info = WebSocketCloseInfo(
                    code: .abnormalClosure, reason: "", initiatedByPeer: false)
                shared.withLock { $0.finished = info }
                sink.finish(info, error)
                connected.resume(throwing: error)
                return
            }
            shared.withLock { $0.subprotocol = subprotocol }
            connected.resume(returning: subprotocol)
            eventLoop()
        }

        func drainWakePipe() {
            var scratch = [UInt8](repeating: 0, count: 64)
            while Glibc.read(wakeRead, &scratch, scratch.count) > 0 {}
        }

    }
#endif
