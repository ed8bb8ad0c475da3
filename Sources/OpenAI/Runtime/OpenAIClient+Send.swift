import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension OpenAIClient {
    /// Sends `request` and decodes a JSON reply as `Response`.
    func send<Response: Decodable>(
        _ request: APIRequest, options: RequestOptions, as type: Response.Type
    ) async throws -> Response {
        let response = try await sendRaw(request, options: options)
        do {
            return try JSONDecoder().decode(Response.self, from: response.body)
        } catch let error as DecodingError {
            throw OpenAIError.decoding(error, response: response)
        }
    }

    /// Sends `request` and returns the reply's body bytes (binary responses: audio, files, video).
    func sendForData(_ request: APIRequest, options: RequestOptions) async throws -> Data {
        try await sendRaw(request, options: options).body
    }

    /// Sends `request` and returns the reply's body as UTF-8 text (e.g. `application/sdp`).
    func sendForText(_ request: APIRequest, options: RequestOptions) async throws -> String {
        String(decoding: try await sendRaw(request, options: options).body, as: UTF8.self)
    }

    /// Sends `request` for an operation whose reply has no body.
    func sendForNoContent(_ request: APIRequest, options: RequestOptions) async throws {
        _ = try await sendRaw(request, options: options)
    }

    /// Sends `request` with retries and returns the 2xx reply.
    ///
    /// - Throws: ``OpenAIError`` for a non-2xx reply (after retries), a transport failure, or
    ///   cancellation.
    func sendRaw(_ request: APIRequest, options: RequestOptions) async throws -> HTTPResponse {
        let httpRequest = try makeHTTPRequest(request, options: options)
        let timeout = options.timeout ?? configuration.timeout
        let maxRetries = max(0, options.maxRetries ?? configuration.maxRetries)
        var attempt = 0
        while true {
            try Task.checkCancellation()
            let outcome: Result<HTTPResponse, OpenAIError>
            do {
                outcome = .success(try await transport.send(httpRequest, timeout: timeout))
            } catch let error as OpenAIError {
                outcome = .failure(error)
            } catch is CancellationError {
                throw OpenAIError(kind: .cancelled, message: "The request was cancelled.")
            }
            if case .success(let response) = outcome, (200..<300).contains(response.statusCode) {
                return response
            }
            let error: OpenAIError =
                switch outcome {
                case .success(let response): .fromResponse(response)
                case .failure(let error): error
                }
            guard attempt < maxRetries, !Task.isCancelled,
                let delay = RetryPolicy.delay(
                    attempt: attempt, response: try? outcome.get(), error: error)
            else { throw error }
            attempt += 1
            do {
                try await Task.sleep(nanoseconds: UInt64(delay * 1_000_000_000))
            } catch {
                throw OpenAIError(kind: .cancelled, message: "The request was cancelled during a retry wait.")
            }
        }
    }

    func makeHTTPRequest(_ request: APIRequest, options: RequestOptions) throws -> HTTPRequest {
        let base = configuration.baseURL.absoluteString
        let trimmed = base.hasSuffix("/") ? String(base.dropLast()) : base
        guard var components = URLComponents(string: trimmed + request.path) else {
            throw OpenAIError(kind: .invalidRequest, message: "Invalid URL for \(request.operationID).")
        }
        let query = (components.queryItems ?? []) + request.query + options.query
        if !query.isEmpty {
            components.queryItems = query
            // `+` is legal in a query but read as a space by many servers; encode it.
            components.percentEncodedQuery = components.percentEncodedQuery?
                .replacingOccurrences(of: "+", with: "%2B")
        }
        guard let url = components.url else {
            throw OpenAIError(kind: .invalidRequest, message: "Invalid URL for \(request.operationID).")
        }
        var headers: [String: String] = [
            "Accept": request.accept,
            "User-Agent": "OpenAI-Swift/\(OpenAIClient.sdkVersion)",
        ]
        let key: String? =
            switch request.authentication {
            case .apiKey: configuration.apiKey ?? configuration.adminAPIKey
            case .adminAPIKey: configuration.adminAPIKey ?? configuration.apiKey
            }
        if let key { headers["Authorization"] = "Bearer \(key)" }
        if let organization = configuration.organization { headers["OpenAI-Organization"] = organization }
        if let project = configuration.project { headers["OpenAI-Project"] = project }
        if let contentType = request.contentType { headers["Content-Type"] = contentType }
        for (name, value) in request.headers { headers[name] = value }
        if let idempotencyKey = options.idempotencyKey { headers["Idempotency-Key"] = idempotencyKey }
        for (name, value) in configuration.defaultHeaders { headers[name] = value }
        for (name, value) in options.headers {
            headers = headers.filter { $0.key.lowercased() != name.lowercased() }
            if let value { headers[name] = value }
        }
        var body = request.body
        if !options.extraBody.isEmpty, let data = body, request.contentType == "application/json" {
            var object = (try? JSONDecoder().decode([String: JSONValue].self, from: data)) ?? [:]
            object.merge(options.extraBody) { _, extra in extra }
            body = try APIRequest.encoder.encode(object)
        }
        return HTTPRequest(method: request.method, url: url, headers: headers, body: body)
    }

    /// The SDK's version, sent in `User-Agent`.
    public static let sdkVersion = "0.1.0"
}

/// When to retry, and how long to wait: the rules of OpenAI's official SDKs.
enum RetryPolicy {
    /// The longest `Retry-After` the SDK honours, in seconds; a longer one falls back to the
    /// exponential backoff, so a reply asking for an hour neither sleeps an hour nor hangs.
    static let maxRetryAfter: TimeInterval = 60

    /// The delay before retry number `attempt + 1`, in seconds, or `nil` when the failure is not
    /// retryable.
    static func delay(attempt: Int, response: HTTPResponse?, error: OpenAIError) -> TimeInterval? {
        if let response {
            switch response.value(forHeader: "x-should-retry")?.lowercased() {
            case "true": break
            case "false": return nil
            default:
                guard [408, 409, 429].contains(response.statusCode) || response.statusCode >= 500 else {
                    return nil
                }
            }
            if let advised = retryAfter(response), advised >= 0, advised <= maxRetryAfter {
                return advised
            }
        } else {
            guard error.kind == .connection || error.kind == .timeout else { return nil }
        }
        let base = min(0.5 * pow(2, Double(attempt)), 8)
        return base * (1 - Double.random(in: 0...0.25))
    }

    /// `retry-after-ms`, then `Retry-After` as seconds or an HTTP date, in seconds.
    static func retryAfter(_ response: HTTPResponse) -> TimeInterval? {
        if let text = response.value(forHeader: "retry-after-ms"), let milliseconds = Double(text) {
            return milliseconds / 1000
        }
        guard let text = response.value(forHeader: "retry-after") else { return nil }
        if let seconds = Double(text) { return seconds }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: text).map { $0.timeIntervalSinceNow }
    }
}
