import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One HTTP request as the transport sends it.
public struct HTTPRequest: Sendable {
    /// The HTTP method, e.g. `"POST"`.
    public var method: String
    /// The absolute URL, query included.
    public var url: URL
    /// Header fields, by name as sent.
    public var headers: [String: String]
    /// The body bytes, or `nil` for none.
    public var body: Data?

    /// Creates a request.
    public init(method: String, url: URL, headers: [String: String] = [:], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// One HTTP response as the transport received it, its body read whole.
public struct HTTPResponse: Sendable {
    /// The status code, e.g. `200`.
    public var statusCode: Int
    /// Header fields; look them up with ``value(forHeader:)``, which ignores case.
    public var headers: [String: String]
    /// The body bytes.
    public var body: Data

    /// Creates a response.
    public init(statusCode: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
    }

    /// The value of the header field `name`, compared without regard to case (RFC 9110 section 5.1).
    public func value(forHeader name: String) -> String? {
        if let value = headers[name] { return value }
        let lowered = name.lowercased()
        return headers.first { $0.key.lowercased() == lowered }?.value
    }
}

/// Sends HTTP requests for ``OpenAIClient``. Inject your own for tests, proxies or another HTTP stack.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the response, whatever its status.
    ///
    /// - Parameters:
    ///   - request: The request to send.
    ///   - timeout: The longest time this attempt may take, in seconds.
    /// - Returns: The response with its whole body.
    /// - Throws: ``OpenAIError`` of kind ``OpenAIError/Kind/connection``,
    ///   ``OpenAIError/Kind/timeout`` or ``OpenAIError/Kind/cancelled``.
    func send(_ request: HTTPRequest, timeout: TimeInterval) async throws -> HTTPResponse

    /// Sends `request` and returns the response head as soon as it arrives, with the body as a
    /// sequence of chunks (server-sent events, large downloads).
    ///
    /// - Parameters:
    ///   - request: The request to send.
    ///   - timeout: The longest time, in seconds, to wait for the response head and then between
    ///     two chunks.
    /// - Returns: The status, headers and a body stream; cancelling its consumer closes the
    ///   connection.
    /// - Throws: As ``send(_:timeout:)``.
    func stream(_ request: HTTPRequest, timeout: TimeInterval) async throws -> HTTPStreamingResponse
}

/// A response whose body arrives in chunks.
public struct HTTPStreamingResponse: Sendable {
    /// The status code.
    public var statusCode: Int
    /// Header fields.
    public var headers: [String: String]
    /// The body, chunk by chunk as received; it throws ``OpenAIError`` when the connection fails.
    public var body: AsyncThrowingStream<Data, any Swift.Error>

    /// Creates a streaming response.
    public init(statusCode: Int, headers: [String: String], body: AsyncThrowingStream<Data, any Swift.Error>) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
    }
}

extension HTTPTransport {
    /// A default for transports that only buffer: the whole body arrives as one chunk.
    public func stream(_ request: HTTPRequest, timeout: TimeInterval) async throws -> HTTPStreamingResponse {
        let response = try await send(request, timeout: timeout)
        return HTTPStreamingResponse(
            statusCode: response.statusCode, headers: response.headers,
            body: AsyncThrowingStream { continuation in
                continuation.yield(response.body)
                continuation.finish()
            })
    }
}

/// The default transport, on `URLSession` (FoundationNetworking on Linux).
public struct URLSessionTransport: HTTPTransport {
    private let session: URLSession

    /// Creates a transport on `session`.
    public init(session: URLSession = .shared) {
        self.session = session
    }

    public func send(_ request: HTTPRequest, timeout: TimeInterval) async throws -> HTTPResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        urlRequest.timeoutInterval = timeout
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        urlRequest.httpBody = request.body
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: urlRequest)
        } catch let error as URLError {
            switch error.code {
            case .cancelled: throw OpenAIError(kind: .cancelled, message: "The request was cancelled.")
            case .timedOut:
                throw OpenAIError(kind: .timeout, message: "The request timed out after \(timeout) s.")
            default:
                throw OpenAIError(kind: .connection, message: error.localizedDescription)
            }
        } catch is CancellationError {
            throw OpenAIError(kind: .cancelled, message: "The request was cancelled.")
        }
        guard let http = response as? HTTPURLResponse else {
            throw OpenAIError(kind: .connection, message: "The response is not HTTP.")
        }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            headers[String(describing: name)] = String(describing: value)
        }
        return HTTPResponse(statusCode: http.statusCode, headers: headers, body: data)
    }
}
