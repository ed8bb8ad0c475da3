#if canImport(Glibc) && canImport(OpenAIWebSocketOpenSSL)
    import Foundation
    import Glibc

    /// The opening handshake of ``SocketConnection``: TCP connect, TLS handshake and HTTP upgrade,
    /// blocking with a deadline on the connection's I/O thread (never on a Swift concurrency thread).
    extension SocketConnection {

        func openConnection() throws(WebSocketError) -> String? {
            let deadline = ContinuousClock.now + configuration.connectTimeout
            try connectTCP(deadline: deadline)
            if handshake.usesTLS {
                let session = try TLSSession(host: handshake.host, configuration: configuration.tls)
                tls = session
                while true {
                    let done = try session.handshake()
                    var out: [UInt8] = []
                    session.drainOutput(into: &out)
                    try sendAll(out, deadline: deadline)
                    if done { break }
                    var buffer = [UInt8](repeating: 0, count: 16384)
                    let count = try receive(into: &buffer, deadline: deadline)
                    guard count > 0 else {
                        throw WebSocketError(
                            .tlsFailed, "server closed the connection during the TLS handshake")
                    }
                    buffer.withUnsafeBytes {
                        session.feed(UnsafeRawBufferPointer(rebasing: $0[0..<count]))
                    }
                }
            }
            try sendApplicationBytes(handshake.requestBytes(), deadline: deadline)
            var response: [UInt8] = []
            while true {
                if let (head, length) = try WebSocketHandshake.parseResponseHead(response) {
                    var rest = Array(response[length...])
                    if head.status != 101 {
                        let expected = Int(head.value(for: "Content-Length") ?? "") ?? 0
                        let bodyDeadline = min(deadline, .now + .seconds(1))
                        while rest.count < min(expected, 1024),
                            (try? receiveApplicationBytes(into: &rest, deadline: bodyDeadline))
                                == true
                        {}
                    }
                    let subprotocol = try handshake.validate(head, body: rest)
                    parser.append(contentsOf: rest)
                    return subprotocol
                }
                guard try receiveApplicationBytes(into: &response, deadline: deadline) else {
                    throw WebSocketError(
                        .handshakeRejected,
                        "server closed the connection before answering the upgrade")
                }
            }
        }

        func connectTCP(deadline: ContinuousClock.Instant) throws(WebSocketError) {
            var hints = addrinfo()
            hints.ai_family = AF_UNSPEC
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            var list: UnsafeMutablePointer<addrinfo>?
            let status = getaddrinfo(handshake.host, String(handshake.port), &hints, &list)
            guard status == 0, let list else {
                throw WebSocketError(
                    .connectionFailed,
                    "cannot resolve \(handshake.host): \(String(cString: gai_strerror(status)))")
            }
            defer { freeaddrinfo(list) }
            var lastError = "no address"
            var entry: UnsafeMutablePointer<addrinfo>? = list
            while let current = entry {
                entry = current.pointee.ai_next
                let fd = Glibc.socket(
                    current.pointee.ai_family,
                    Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue),
                    current.pointee.ai_protocol)
                guard fd >= 0 else { continue }
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                var one: Int32 = 1
                _ = setsockopt(
                    fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
                socket = fd
                if Glibc.connect(fd, current.pointee.ai_addr, current.pointee.ai_addrlen) == 0 {
                    return
                }
                if errno == EINPROGRESS {
                    try wait(for: Int16(POLLOUT), deadline: deadline)
                    var socketError: Int32 = 0
                    var length = socklen_t(MemoryLayout<Int32>.size)
                    _ = getsockopt(fd, SOL_SOCKET, SO_ERROR, &socketError, &length)
                    if socketError == 0 { return }
                    lastError = String(cString: strerror(socketError))
                } else {
                    lastError = String(cString: strerror(errno))
                }
                Glibc.close(fd)
                socket = -1
            }
            throw WebSocketError(
                .connectionFailed,
                "cannot connect to \(handshake.host):\(handshake.port): \(lastError)")
        }

        /// Polls the socket (and the wake pipe) until `events` or the deadline.
        func wait(for events: Int16, deadline: ContinuousClock.Instant)
            throws(WebSocketError)
        {
            while true {
                if shared.withLock({ $0.aborted }) {
                    throw WebSocketError(.cancelled, "connect cancelled")
                }
                let remaining = (deadline - .now).wholeMilliseconds
                guard remaining > 0 else {
                    throw WebSocketError(
                        .timeout, "connect timed out after \(configuration.connectTimeout)")
                }
                var fds = [
                    pollfd(fd: socket, events: events, revents: 0),
                    pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
                ]
                let result = poll(&fds, 2, Int32(min(remaining, 1000)))
                if result < 0, errno != EINTR {
                    throw WebSocketError(
                        .connectionFailed, "poll failed: \(String(cString: strerror(errno)))")
                }
                if fds[1].revents != 0 { drainWakePipe() }
                if fds[0].revents != 0 { return }
            }
        }

        func sendAll(_ bytes: [UInt8], deadline: ContinuousClock.Instant)
            throws(WebSocketError)
        {
            var offset = 0
            while offset < bytes.count {
                let count = bytes.withUnsafeBytes {
                    Glibc.send(
                        socket, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
                }
                if count >= 0 {
                    offset += count
                } else if errno == EAGAIN || errno == EWOULDBLOCK {
                    try wait(for: Int16(POLLOUT), deadline: deadline)
                } else if errno != EINTR {
                    throw WebSocketError(
                        .connectionFailed, "send failed: \(String(cString: strerror(errno)))")
                }
            }
        }

        func receive(into buffer: inout [UInt8], deadline: ContinuousClock.Instant)
            throws(WebSocketError) -> Int
        {
            while true {
                let count = buffer.withUnsafeMutableBytes {
                    Glibc.recv(socket, $0.baseAddress, $0.count, 0)
                }
                if count >= 0 { return count }
                if errno == EAGAIN || errno == EWOULDBLOCK {
                    try wait(for: Int16(POLLIN), deadline: deadline)
                } else if errno != EINTR {
                    throw WebSocketError(
                        .connectionFailed, "recv failed: \(String(cString: strerror(errno)))")
                }
            }
        }

        func sendApplicationBytes(_ bytes: [UInt8], deadline: ContinuousClock.Instant)
            throws(WebSocketError)
        {
            guard let tls else { return try sendAll(bytes, deadline: deadline) }
            try tls.write(bytes)
            var out: [UInt8] = []
            tls.drainOutput(into: &out)
            try sendAll(out, deadline: deadline)
        }

        /// Appends at least one byte of plaintext to `bytes`; returns `false` at end of stream.
        func receiveApplicationBytes(
            into bytes: inout [UInt8], deadline: ContinuousClock.Instant
        ) throws(WebSocketError) -> Bool {
            var buffer = [UInt8](repeating: 0, count: 16384)
            while true {
                if let tls {
                    let before = bytes.count
                    let ended = try tls.read(into: &bytes)
                    var out: [UInt8] = []
                    tls.drainOutput(into: &out)
                    try sendAll(out, deadline: deadline)
                    if bytes.count > before { return true }
                    if ended { return false }
                }
                let count = try receive(into: &buffer, deadline: deadline)
                if count == 0 { return false }
                if let tls {
                    buffer.withUnsafeBytes {
                        tls.feed(UnsafeRawBufferPointer(rebasing: $0[0..<count]))
                    }
                } else {
                    bytes.append(contentsOf: buffer[0..<count])
                    return true
                }
            }
        }

    }
#endif
