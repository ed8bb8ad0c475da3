#if canImport(Glibc) && canImport(OpenAIWebSocketOpenSSL)
    import Foundation
    import Glibc

    /// The non-blocking event loop of ``SocketConnection`` after the handshake, on its I/O thread:
    /// writes queued frames, reads and parses frames, answers pings and runs the closing handshake.
    extension SocketConnection {

        func eventLoop() {
            var readBuffer = [UInt8](repeating: 0, count: 65536)
            // Frames that arrived together with the 101 response are already in the parser.
            _ = processEvents()
            while true {
                let (outbound, aborted, closeDeadline) = shared.withLock { state in
                    let outbound = state.outbound
                    state.outbound = []
                    state.wakePending = false
                    return (outbound, state.aborted, state.closeDeadline)
                }
                if aborted {
                    if closeInfo == nil {
                        closeInfo = WebSocketCloseInfo(
                            code: .abnormalClosure, reason: "aborted", initiatedByPeer: false)
                    }
                    return finish()
                }
                if !outbound.isEmpty { appendToWire(outbound) }
                if terminalError != nil && wire.count == wireOffset { return finish() }
                if stopAfterFlush && wire.count == wireOffset { return finish() }
                let sentClose = shared.withLock { $0.closeSent }
                if receivedClose && sentClose && wire.count == wireOffset { return finish() }

                var timeout: Int32 = -1
                if let closeDeadline {
                    let remaining = (closeDeadline - .now).wholeMilliseconds
                    if remaining <= 0 {
                        if closeInfo == nil {
                            closeInfo = shared.withLock { $0.localClose }
                        }
                        return finish()
                    }
                    timeout = Int32(min(remaining, Int(Int32.max)))
                }
                let wantsWrite = wire.count > wireOffset
                var fds = [
                    pollfd(
                        fd: socket, events: Int16(POLLIN) | (wantsWrite ? Int16(POLLOUT) : 0),
                        revents: 0),
                    pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
                ]
                let result = poll(&fds, 2, timeout)
                if result < 0 {
                    if errno == EINTR { continue }
                    fail(
                        WebSocketError(
                            .connectionFailed, "poll failed: \(String(cString: strerror(errno)))"))
                    return finish()
                }
                if fds[1].revents != 0 { drainWakePipe() }
                let socketEvents = fds[0].revents
                if socketEvents & Int16(POLLOUT) != 0
                    || (wantsWrite && socketEvents & Int16(POLLERR) != 0)
                {
                    if !flushWire() { return finish() }
                }
                if socketEvents & (Int16(POLLIN) | Int16(POLLHUP) | Int16(POLLERR)) != 0 {
                    if !readAvailable(into: &readBuffer) { return finish() }
                }
            }
        }

        func fail(_ error: WebSocketError) {
            if terminalError == nil { terminalError = error }
            if closeInfo == nil {
                closeInfo = WebSocketCloseInfo(
                    code: .abnormalClosure, reason: error.message, initiatedByPeer: true)
            }
        }

        func appendToWire(_ plaintext: [UInt8]) {
            if wireOffset > 0, wireOffset == wire.count {
                wire.removeAll(keepingCapacity: true)
                wireOffset = 0
            }
            if let tls {
                do {
                    try tls.write(plaintext)
                } catch {
                    fail(error)
                }
                tls.drainOutput(into: &wire)
            } else if wire.isEmpty {
                wire = plaintext  // no copy
            } else {
                wire.append(contentsOf: plaintext)
            }
        }

        /// Writes queued bytes until the socket would block; `false` on a fatal error.
        func flushWire() -> Bool {
            while wireOffset < wire.count {
                let count = wire.withUnsafeBytes {
                    Glibc.send(
                        socket, $0.baseAddress! + wireOffset, $0.count - wireOffset,
                        Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
                }
                if count > 0 {
                    wireOffset += count
                } else if errno == EAGAIN || errno == EWOULDBLOCK {
                    break
                } else if errno != EINTR {
                    fail(
                        WebSocketError(
                            .connectionFailed, "send failed: \(String(cString: strerror(errno)))"))
                    return false
                }
            }
            if wireOffset == wire.count {
                wire.removeAll(keepingCapacity: true)
                wireOffset = 0
            } else if wireOffset > 1 << 20 {
                wire.removeSubrange(0..<wireOffset)
                wireOffset = 0
            }
            let pending = wire.count - wireOffset
            let highWater = configuration.sendBufferHighWaterBytes
            let waiters = shared.withLock { state -> [CheckedContinuation<Void, Error>] in
                state.wireBytes = pending
                guard state.outbound.count + pending <= highWater / 2 else { return [] }
                defer { state.drainWaiters = [] }
                return state.drainWaiters
            }
            for waiter in waiters { waiter.resume() }
            return true
        }

        /// Reads what the socket has and handles the resulting events; `false` when the loop must end.
        func readAvailable(into buffer: inout [UInt8]) -> Bool {
            for _ in 0..<16 {
                let count = buffer.withUnsafeMutableBytes {
                    Glibc.recv(socket, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT))
                }
                if count < 0 {
                    if errno == EAGAIN || errno == EWOULDBLOCK { return true }
                    if errno == EINTR { continue }
                    fail(
                        WebSocketError(
                            .connectionFailed, "recv failed: \(String(cString: strerror(errno)))"))
                    return false
                }
                var ended = count == 0
                if let tls {
                    buffer.withUnsafeBytes {
                        tls.feed(UnsafeRawBufferPointer(rebasing: $0[0..<count]))
                    }
                    var plaintext: [UInt8] = []
                    do {
                        if try tls.read(into: &plaintext) { ended = true }
                    } catch {
                        fail(error)
                        return false
                    }
                    tls.drainOutput(into: &wire)
                    parser.append(contentsOf: plaintext)
                } else if count > 0 {
                    buffer.withUnsafeBytes {
                        parser.append(UnsafeRawBufferPointer(rebasing: $0[0..<count]))
                    }
                }
                if !processEvents() { return true }
                if ended {
                    if !receivedClose {
                        fail(
                            .closed(
                                WebSocketCloseInfo(
                                    code: .abnormalClosure,
                                    reason: "connection closed without a close frame",
                                    initiatedByPeer: true)))
                    }
                    return false
                }
            }
            return true
        }

        /// Handles parsed events; `false` after a protocol violation (the close frame is queued).
        func processEvents() -> Bool {
            while true {
                let event: WebSocketFrameParser.Event?
                do {
                    event = try parser.next()
                } catch {
                    let info = WebSocketCloseInfo(
                        code: error.closeCode, reason: error.reason, initiatedByPeer: false)
                    closeInfo = info
                    terminalError = WebSocketError(
                        .protocolViolation, "peer violated RFC 6455: \(error.reason)",
                        closeInfo: info)
                    sendCloseFromIOThread(code: error.closeCode, reason: error.reason)
                    stopAfterFlush = true
                    return false
                }
                guard let event else { return true }
                switch event {
                case .text(let text):
                    sink.receive(.text(text))
                case .binary(let bytes):
                    sink.receive(.binary(Data(bytes)))
                case .ping(let payload):
                    if !shared.withLock({ $0.closeSent }) {
                        appendToWire(WebSocketFrameEncoder.encode(opcode: .pong, payload: payload))
                    }
                case .pong(let payload):
                    guard payload.count == 8 else { continue }
                    let id = payload.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                    let waiter = shared.withLock { $0.pingWaiters.removeValue(forKey: id) }
                    waiter?.resume()
                case .close(let code, let reason):
                    receivedClose = true
                    let localClose = shared.withLock { $0.localClose }
                    if let localClose {
                        closeInfo = localClose
                    } else {
                        let info = WebSocketCloseInfo(
                            code: code ?? .noStatusReceived, reason: reason, initiatedByPeer: true)
                        closeInfo = info
                        shared.withLock { $0.peerClose = info }
                        // Echo the peer's code (section 5.5.1); an empty close is answered with an empty close.
                        sendCloseFromIOThread(code: code, reason: "")
                    }
                    return true
                }
            }
        }

        func sendCloseFromIOThread(code: WebSocketCloseCode?, reason: String) {
            let alreadySent = shared.withLock { state -> Bool in
                defer {
                    state.closeSent = true
                    if state.closeDeadline == nil {
                        state.closeDeadline = .now + configuration.closeTimeout
                    }
                }
                return state.closeSent
            }
            guard !alreadySent else { return }
            let payload =
                code.map { WebSocketFrameEncoder.closePayload(code: $0, reason: reason) } ?? []
            appendToWire(WebSocketFrameEncoder.encode(opcode: .close, payload: payload))
        }

        func finish() {
            if wire.count > wireOffset { _ = flushWire() }
            if let tls {
                tls.shutdown()
                var out: [UInt8] = []
                tls.drainOutput(into: &out)
                _ = out.withUnsafeBytes {
                    Glibc.send(
                        socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
                }
            }
            tls = nil
            Glibc.close(socket)
            socket = -1
            let info =
                closeInfo
                ?? WebSocketCloseInfo(code: .abnormalClosure, reason: "", initiatedByPeer: true)
            var error = terminalError
            if error == nil, info.initiatedByPeer, info.code != .normalClosure {
                error = .closed(info)
            }
            let (drain, close, pings) = shared.withLock { state in
                state.finished = info
                state.finishedError = error
                defer {
                    state.drainWaiters = []
                    state.closeWaiters = []
                    state.pingWaiters = [:]
                }
                return (state.drainWaiters, state.closeWaiters, Array(state.pingWaiters.values))
            }
            let closedError = error ?? .closed(info)
            for waiter in drain { waiter.resume(throwing: closedError) }
            for waiter in pings { waiter.resume(throwing: closedError) }
            sink.finish(info, error)
            for waiter in close { waiter.resume() }
        }
    }
#endif
