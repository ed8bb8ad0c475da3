import Foundation

/// The client side of the opening handshake (RFC 6455 section 4.1); pure, no I/O.
///
/// Builds the HTTP/1.1 upgrade request and validates the server's 101 response, including
/// `Sec-WebSocket-Accept` and the negotiated subprotocol.
struct WebSocketHandshake: Sendable {
    /// The GUID appended to the key before hashing (section 1.3).
    static let acceptGUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
    /// The longest response head accepted, in bytes.
    static let maxResponseHeadBytes = 16384

    /// The response status line and headers.
    struct ResponseHead: Sendable, Equatable {
        var status: Int
        var reasonPhrase: String
        var headers: [(name: String, value: String)]

        /// The comma-joined values of every header named `name` (case-insensitive), or `nil`.
        func value(for name: String) -> String? {
            let values = headers.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }
            return values.isEmpty ? nil : values.map(\.value).joined(separator: ", ")
        }

        static func == (lhs: ResponseHead, rhs: ResponseHead) -> Bool {
            lhs.status == rhs.status && lhs.reasonPhrase == rhs.reasonPhrase
                && lhs.headers.map(\.name) == rhs.headers.map(\.name)
                && lhs.headers.map(\.value) == rhs.headers.map(\.value)
        }
    }

    /// The host to connect to, without IPv6 brackets.
    let host: String
    /// The TCP port.
    let port: Int
    /// Whether the scheme is `wss`.
    let usesTLS: Bool
    /// The request target: path and query.
    let requestTarget: String
    /// The `Sec-WebSocket-Key` value: base64 of 16 random bytes.
    let key: String
    /// The offered subprotocols, in preference order.
    let subprotocols: [String]
    /// Extra request headers, sorted by name.
    let extraHeaders: [(name: String, value: String)]

    private static let reservedHeaders: Set<String> = [
        "host", "upgrade", "connection", "sec-websocket-key", "sec-websocket-version",
        "sec-websocket-protocol", "sec-websocket-extensions",
    ]

    /// Prepares a handshake.
    ///
    /// - Parameters:
    ///   - url: A `ws://` or `wss://` URL.
    ///   - headers: Extra headers such as `Authorization`.
    ///   - subprotocols: Offered subprotocols (RFC 6455 section 1.9), each an HTTP token.
    ///   - key: The `Sec-WebSocket-Key`; random by default.
    /// - Throws: ``WebSocketError`` of kind ``WebSocketError/Kind/invalidURL`` for an unsupported scheme,
    ///   a missing host, a header with CR/LF, or a header the transport sets itself.
    init(
        url: URL, headers: [String: String], subprotocols: [String],
        key: String = WebSocketHandshake.randomKey()
    ) throws(WebSocketError) {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let scheme = components.scheme?.lowercased(), scheme == "ws" || scheme == "wss",
            var host = components.host, !host.isEmpty
        else {
            throw WebSocketError(.invalidURL, "expected a ws:// or wss:// URL with a host")
        }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        self.host = host
        usesTLS = scheme == "wss"
        port = components.port ?? (usesTLS ? 443 : 80)
        var target = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        if let query = components.percentEncodedQuery { target += "?" + query }
        requestTarget = target
        self.key = key
        let tokenCharacters = CharacterSet(
            charactersIn:
                "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        for subprotocol in subprotocols
        where subprotocol.isEmpty
            || subprotocol.unicodeScalars.contains(where: { !tokenCharacters.contains($0) })
        {
            throw WebSocketError(.invalidURL, "subprotocol is not an HTTP token")
        }
        self.subprotocols = subprotocols
        var extra: [(name: String, value: String)] = []
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            if Self.reservedHeaders.contains(name.lowercased()) {
                throw WebSocketError(
                    .invalidURL, "header \(name) is set by the WebSocket transport")
            }
            if name.isEmpty
                || name.unicodeScalars.contains(where: { !tokenCharacters.contains($0) })
                || value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" })
            {
                // The value is not echoed: it may be a credential.
                throw WebSocketError(.invalidURL, "header \(name) has an invalid name or value")
            }
            extra.append((name, value))
        }
        extraHeaders = extra
    }

    /// A fresh `Sec-WebSocket-Key`: base64 of 16 random bytes (section 4.1, item 7).
    static func randomKey() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return Data(bytes).base64EncodedString()
    }

    /// The `Sec-WebSocket-Accept` value a server must return for `key`:
    /// base64(SHA-1(key + GUID)) (section 4.2.2).
    ///
    /// - Parameters:
    ///   - key: The `Sec-WebSocket-Key` sent.
    /// - Returns: The expected accept value.
    static func acceptValue(forKey key: String) -> String {
        Data(SHA1Digest.hash(Array((key + acceptGUID).utf8))).base64EncodedString()
    }

    /// The `Host` header value: the host, bracketed if IPv6, with the port unless it is the default.
    var hostHeader: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return port == (usesTLS ? 443 : 80) ? name : "\(name):\(port)"
    }

    /// The upgrade request bytes.
    ///
    /// - Returns: The request line, headers and the empty line, CRLF-terminated.
    func requestBytes() -> [UInt8] {
        var lines = [
            "GET \(requestTarget) HTTP/1.1",
            "Host: \(hostHeader)",
            "Upgrade: websocket",
            "Connection: Upgrade",
            "Sec-WebSocket-Key: \(key)",
            "Sec-WebSocket-Version: 13",
        ]
        if !subprotocols.isEmpty {
            lines.append("Sec-WebSocket-Protocol: \(subprotocols.joined(separator: ", "))")
        }
        for header in extraHeaders { lines.append("\(header.name): \(header.value)") }
        return Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
    }

    /// Parses a response head from the start of `bytes`.
    ///
    /// - Parameters:
    ///   - bytes: The bytes received so far.
    /// - Returns: The head and its length in bytes (including the empty line), or `nil` if incomplete.
    /// - Throws: ``WebSocketError`` of kind ``WebSocketError/Kind/handshakeRejected`` when the head
    ///   is malformed or longer than ``maxResponseHeadBytes``.
    static func parseResponseHead(_ bytes: [UInt8]) throws(WebSocketError) -> (ResponseHead, Int)? {
        let terminator: [UInt8] = [13, 10, 13, 10]
        var end: Int?
        if bytes.count >= 4 {
            for index in 0...(bytes.count - 4) where bytes[index] == 13 {
                if bytes[index..<(index + 4)].elementsEqual(terminator) {
                    end = index
                    break
                }
            }
        }
        guard let end else {
            if bytes.count > maxResponseHeadBytes {
                throw WebSocketError(
                    .handshakeRejected, "response head longer than \(maxResponseHeadBytes) bytes")
            }
            return nil
        }
        let text = String(decoding: bytes[0..<end], as: UTF8.self)
        var lines = text.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
            throw WebSocketError(
                .handshakeRejected, "malformed status line: \(statusLine.prefix(80))")
        }
        var headers: [(name: String, value: String)] = []
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else {
                throw WebSocketError(
                    .handshakeRejected, "malformed header line: \(line.prefix(80))")
            }
            let name = String(line[..<colon])
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers.append((name, value))
        }
        let head = ResponseHead(
            status: status, reasonPhrase: parts.count > 2 ? String(parts[2]) : "", headers: headers)
        return (head, end + 4)
    }

    /// Validates the server's response (section 4.1, the client's checks 1-6).
    ///
    /// - Parameters:
    ///   - head: The parsed response head.
    ///   - body: Any bytes of a non-101 response body received, for the error excerpt.
    /// - Returns: The subprotocol the server selected, or `nil` if none.
    /// - Throws: ``WebSocketError`` of kind ``WebSocketError/Kind/handshakeRejected`` naming the failed check,
    ///   with the HTTP status and a body excerpt.
    func validate(_ head: ResponseHead, body: [UInt8] = []) throws(WebSocketError) -> String? {
        func reject(_ message: String) -> WebSocketError {
            WebSocketError(
                .handshakeRejected, message, httpStatus: head.status,
                bodyExcerpt: String(decoding: body.prefix(1024), as: UTF8.self))
        }
        guard head.status == 101 else {
            throw reject(
                "server answered the upgrade with HTTP \(head.status) \(head.reasonPhrase)")
        }
        guard head.value(for: "Upgrade")?.lowercased() == "websocket" else {
            throw reject("response lacks Upgrade: websocket")
        }
        let connectionTokens = (head.value(for: "Connection") ?? "").lowercased()
            .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard connectionTokens.contains("upgrade") else {
            throw reject("response lacks Connection: Upgrade")
        }
        guard head.value(for: "Sec-WebSocket-Accept") == Self.acceptValue(forKey: key) else {
            throw reject("Sec-WebSocket-Accept does not match the key sent")
        }
        if let extensions = head.value(for: "Sec-WebSocket-Extensions"), !extensions.isEmpty {
            throw reject("server selected extension \(extensions) that was not offered")
        }
        guard let selected = head.value(for: "Sec-WebSocket-Protocol") else { return nil }
        guard subprotocols.contains(selected) else {
            throw reject("server selected a subprotocol that was not offered")
        }
        return selected
    }
}
