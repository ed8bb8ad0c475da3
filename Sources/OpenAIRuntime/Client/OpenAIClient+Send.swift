import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What one attempt produced: the value of a 2xx reply, or a non-2xx reply read whole.
enum AttemptResult<Value> {
    case success(Value, statusCode: Int, headers: [String: String])
    case failure(HTTPResponse)
}

extension OpenAIClient {
    /// Sends `request` and decodes a JSON reply as `Response`.
    package func send<Response: Decodable>(
        _ request: APIRequest, options: RequestOptions, as type: Response.Type
    ) async throws -> Response {
        let (response, head) = try await sendBuffered(request, options: options)
        if let recorder, recorder.defersDecoding,
            recorder.keep(
                UndecodedReply(
                    response: response, head: head, decodingMode: configuration.decodingMode,
                    defaultedBodyMembers: request.defaultedBodyMembers))
        {
            throw DecodingDeferred()
        }
        return try Self.decodeReply(
            Response.self, from: response, mode: configuration.decodingMode,
            defaultedMembers: request.defaultedBodyMembers)
    }

    /// Decodes a 2xx JSON reply as `Response`: with `mode`, and a text reply as a JSON string
    /// for types that take one.
    ///
    /// - Throws: ``OpenAIError`` of kind ``OpenAIError/Kind/decoding``.
    static func decodeReply<Response: Decodable>(
        _ type: Response.Type, from response: HTTPResponse, mode: DecodingMode, defaultedMembers: Set<String>
    ) throws -> Response {
        do {
            var decoder = Self.decoder(mode)
            if !defaultedMembers.isEmpty {
                decoder.userInfo[.openAIDefaultedRequestMembers] = defaultedMembers
            }
            do {
                let value = try decoder.decode(Response.self, from: response.body)
                if let reporting = value as? any SpecDeviationReporting, reporting.specDeviations.sharesNoMember,
                    let error = Self.errorEnvelope(in: response)
                {
                    throw error
                }
                return value
            } catch let error as DecodingError {
                // A text reply where the spec documents JSON (a transcription with
                // `response_format: text`, `srt` or `vtt` is `text/plain`): the text, as a JSON
                // string, for types that take one (a union's string or `unknown` case).
                guard let text = Self.textBody(response),
                    let value = try? decoder.decode(Response.self, from: OrderedJSONEncoder().encode(text))
                else { throw error }
                return value
            }
        } catch let error as DecodingError {
            throw OpenAIError.decoding(error, response: response)
        }
    }

    /// The error of a 2xx reply whose body is an error envelope (`{"error": {...}}`) rather than
    /// the operation's reply, as Azure OpenAI sends for a prompt its content filter stops: the
    /// same error a non-2xx reply with that body gives, of kind ``OpenAIError/Kind/server``.
    static func errorEnvelope(in response: HTTPResponse) -> OpenAIError? {
        guard case .object? = (try? JSONValue(parsing: response.body))?["error"] else { return nil }
        var error = OpenAIError.fromResponse(response)
        error.kind = .server
        return error
    }

    /// The body of a `text/*` reply as text, or `nil` for other media types.
    static func textBody(_ response: HTTPResponse) -> String? {
        guard let type = response.value(forHeader: "Content-Type")?.lowercased(), type.hasPrefix("text/") else {
            return nil
        }
        return String(decoding: response.body, as: UTF8.self)
    }

    /// The decoder of JSON replies for `mode`.
    static func decoder(_ mode: DecodingMode) -> OrderedJSONDecoder {
        var decoder = OrderedJSONDecoder()
        if mode == .strict { decoder.userInfo[.openAIDecodingMode] = DecodingMode.strict }
        return decoder
    }

    /// Sends `request` and returns the reply's body bytes (binary responses: audio, files, video).
    package func sendForData(_ request: APIRequest, options: RequestOptions) async throws -> Data {
        try await sendRaw(request, options: options).body
    }

    /// Sends `request` and returns the reply's body as UTF-8 text (e.g. `application/sdp`).
    package func sendForText(_ request: APIRequest, options: RequestOptions) async throws -> String {
        String(decoding: try await sendRaw(request, options: options).body, as: UTF8.self)
    }

    /// Sends `request` for an operation whose reply has no body in the spec; a body the server
    /// sends anyway is kept for ``OpenAIClient/withRawResponse(isolation:_:)``
    /// (``RawResponse/unreturnedBody``).
    package func sendForNoContent(_ request: APIRequest, options: RequestOptions) async throws {
        let (response, head) = try await sendBuffered(request, options: options)
        if let recorder, !response.body.isEmpty {
            var kept = head
            kept.unreturnedBody = response.body
            recorder.record(kept)
        }
    }

    /// Sends `request` with retries and returns the 2xx reply.
    ///
    /// - Throws: ``OpenAIError`` for a non-2xx reply (after retries), a transport failure, or
    ///   cancellation.
    package func sendRaw(_ request: APIRequest, options: RequestOptions) async throws -> HTTPResponse {
        try await sendBuffered(request, options: options).value
    }

    /// Sends `request` with retries and returns the 2xx reply, read whole, and its head.
    private func sendBuffered(_ request: APIRequest, options: RequestOptions) async throws -> (
        value: HTTPResponse, response: RawResponse
    ) {
        try await withRetries(request, options: options) { httpRequest, timeouts -> AttemptResult<HTTPResponse> in
            let response = try await self.pipeline.send(httpRequest, timeouts: timeouts)
            guard (200..<300).contains(response.statusCode) else { return .failure(response) }
            return .success(response, statusCode: response.statusCode, headers: response.headers)
        }
    }

    /// Sends `request` with retries and streams the 2xx reply's body to the file at `destination`
    /// without holding it in memory (one chunk at a time); the file is replaced, and removed again
    /// when the transfer fails.
    ///
    /// - Returns: The file, the number of bytes written and the reply head.
    /// - Throws: ``OpenAIError`` as ``sendRaw(_:options:)``; the file-system error when
    ///   `destination` cannot be written.
    package func sendForFile(_ request: APIRequest, to destination: URL, options: RequestOptions) async throws
        -> DownloadResult
    {
        let (written, head) = try await withRetries(request, options: options) {
            httpRequest, timeouts -> AttemptResult<Int64> in
            let response = try await self.pipeline.stream(httpRequest, timeouts: timeouts)
            guard (200..<300).contains(response.statusCode) else {
                return .failure(try await Self.readErrorBody(response))
            }
            let manager = FileManager.default
            try? manager.removeItem(at: destination)
            guard manager.createFile(atPath: destination.path, contents: nil) else {
                throw OpenAIError(kind: .invalidRequest, message: "Cannot create \(destination.path).")
            }
            let handle = try FileHandle(forWritingTo: destination)
            var written: Int64 = 0
            let total = response.value(forHeader: "Content-Length").flatMap { Int64($0) }
            do {
                for try await chunk in response.body {
                    try handle.write(contentsOf: chunk)
                    written += Int64(chunk.count)
                    options.downloadProgress?(written, total)
                }
                try handle.close()
            } catch {
                try? handle.close()
                try? manager.removeItem(at: destination)
                throw error
            }
            return .success(written, statusCode: response.statusCode, headers: response.headers)
        }
        return DownloadResult(fileURL: destination, byteCount: written, response: head)
    }

    /// Runs `attempt` until it succeeds, the ``RetryPolicy`` gives up, or the task is cancelled.
    /// The credential is fetched before every attempt; the request (idempotency key included) is
    /// otherwise the same each time.
    ///
    /// - Returns: The successful attempt's value and the head of its reply.
    func withRetries<Value>(
        _ request: APIRequest, options: RequestOptions,
        _ attempt: (HTTPRequest, HTTPTimeouts) async throws -> AttemptResult<Value>
    ) async throws -> (value: Value, response: RawResponse) {
        let (request, changes) = try adaptedToProvider(request)
        var httpRequest = try makeHTTPRequest(request, options: options)
        if !changes.isEmpty { AttemptLog(logger: configuration.logger).adapted(httpRequest, changes) }
        try HTTPTimeouts.check(
            request: options.requestTimeout, idle: options.idleTimeout, connect: options.connectTimeout,
            of: "RequestOptions")
        let timeouts = HTTPTimeouts(
            request: options.requestTimeout ?? configuration.requestTimeout,
            idle: options.idleTimeout ?? configuration.idleTimeout,
            connect: options.connectTimeout ?? configuration.connectTimeout)
        if let retries = options.maxRetries, retries < 0 {
            throw OpenAIError(
                kind: .invalidRequest, message: "RequestOptions.maxRetries is \(retries); it must be 0 or more.")
        }
        let policy = RetryPolicy(maxRetries: options.maxRetries ?? configuration.maxRetries)
        let log = AttemptLog(logger: configuration.logger)
        var retries = 0
        var redirects = 0
        while true {
            if Task.isCancelled { throw OpenAIError.cancelled() }
            let outcome: RetryPolicy.Outcome
            let error: OpenAIError
            var failedResponse: HTTPResponse?
            let started = ContinuousClock.now
            do {
                try await authorize(&httpRequest, request, options: options)
                setAttemptHeaders(&httpRequest, retries: retries, timeout: timeouts.request, options: options)
                switch try await attempt(httpRequest, timeouts) {
                case .success(let value, let statusCode, let headers):
                    let head = RawResponse(statusCode: statusCode, headers: headers, attempts: retries + 1)
                    log.reply(httpRequest, status: statusCode, headers: headers, attempt: retries + 1, since: started)
                    recorder?.record(head)
                    return (value, head)
                case .failure(let response):
                    failedResponse = response
                    if redirects < RedirectPolicy.maxBodyRedirects, httpRequest.body?.isReplayable ?? true,
                        let target = RedirectPolicy.sameOriginLocation(of: response, for: httpRequest.url)
                    {
                        // A 307/308 to the same origin: the same request, body included, again.
                        redirects += 1
                        httpRequest.url = target
                        continue
                    }
                    recorder?.record(
                        RawResponse(statusCode: response.statusCode, headers: response.headers, attempts: retries + 1))
                    error = .fromResponse(response)
                    outcome = .response(statusCode: response.statusCode, headers: response.headers)
                }
            } catch let failure as OpenAIError {
                error = failure
                outcome = .failure(failure.kind)
            } catch is CancellationError {
                throw OpenAIError.cancelled()
            } catch let failure as URLError where failure.code == .cancelled {
                throw OpenAIError.cancelled()
            } catch {
                // Not retried: a key provider's, a middleware's or the file system's own error.
                log.failure(httpRequest, nil, error: error, attempt: retries + 1, since: started)
                throw error
            }
            let decision = policy.decide(
                retriesSoFar: retries, outcome: outcome, bodyIsReplayable: httpRequest.body?.isReplayable ?? true,
                isCancelled: Task.isCancelled || error.kind == .cancelled, now: Date(), jitter: jitter())
            guard case .retry(let delay) = decision else {
                log.failure(httpRequest, failedResponse, error: error, attempt: retries + 1, since: started)
                throw error
            }
            log.retry(httpRequest, failedResponse, error: error, delay: delay, attempt: retries + 1, since: started)
            retries += 1
            do {
                try await sleeper.sleep(seconds: delay)
            } catch {
                throw OpenAIError.cancelled("The request was cancelled while waiting \(delay) s to retry.")
            }
        }
    }

    /// Reads the start of a non-2xx streamed reply's body, at most
    /// ``URLSessionTransport/maxErrorBodyBytes``, and stops reading there (the connection closes),
    /// so a huge error body costs neither memory nor time.
    static func readErrorBody(_ response: HTTPStreamingResponse) async throws -> HTTPResponse {
        var body = Data()
        for try await chunk in response.body {
            body.append(chunk.prefix(URLSessionTransport.maxErrorBodyBytes - body.count))
            if body.count >= URLSessionTransport.maxErrorBodyBytes { break }
        }
        return HTTPResponse(statusCode: response.statusCode, headers: response.headers, body: body)
    }

    /// `request` with its Chat Completions body adapted to the configuration's provider, and the
    /// changes in words (see ``ProviderAdaptation``).
    private func adaptedToProvider(_ request: APIRequest) throws -> (APIRequest, [String]) {
        guard let provider = configuration.provider, request.method == "POST",
            ProviderAdaptation.adaptedPaths.contains(request.path), request.contentType == "application/json",
            let body = request.body, let object = (try? JSONValue(parsing: body))?.objectValue
        else { return (request, []) }
        let (adapted, changes) = ProviderAdaptation.adapt(object, to: provider)
        guard !changes.isEmpty else { return (request, []) }
        var request = request
        request.body = Data(try APIRequest.encoder.encodeBytes(adapted))
        return (request, changes.map { "\(provider.name): \($0)" })
    }

    /// Builds the HTTP request for `request`: URL (base URL, Azure deployment path, query),
    /// default and per-request headers, the static credential and the body.
    ///
    /// - Throws: ``OpenAIError`` of kind ``OpenAIError/Kind/invalidRequest`` when the URL is
    ///   invalid; `EncodingError` when extra body members do not encode.
    func makeHTTPRequest(_ request: APIRequest, options: RequestOptions) throws -> HTTPRequest {
        let baseURL = options.baseURL ?? configuration.baseURL
        let trimmed = options.baseURL.map(RequestTemplate.trimmed) ?? template.baseURLText
        var path = request.path
        // The operation's items, the default items it and the request do not name, the request's.
        var query = request.query
        if !configuration.defaultQuery.isEmpty {
            let named = Set(query.map(\.name) + options.query.map(\.name))
            query += configuration.defaultQuery.filter { !named.contains($0.name) }
        }
        query += options.query
        if let azure = configuration.azure {
            if request.method == "POST", Configuration.Azure.deploymentScopedPaths.contains(path),
                !baseURL.pathComponents.contains("deployments"),
                let deployment = azure.deployment ?? request.bodyModel ?? Self.model(in: request.body)
            {
                path = "/deployments/\(try APIRequest.pathSegment(deployment, naming: "The Azure deployment"))" + path
            }
            if !query.contains(where: { $0.name == "api-version" }) {
                query.append(URLQueryItem(name: "api-version", value: azure.apiVersion))
            }
        }
        let url: URL
        if query.isEmpty, let plain = URL(string: trimmed + path) {
            url = plain
        } else {
            guard var components = URLComponents(string: trimmed + path) else {
                throw OpenAIError(kind: .invalidRequest, message: "Invalid URL for \(request.operationID).")
            }
            components.queryItems = (components.queryItems ?? []) + query
            // `+` is legal in a query but read as a space by many servers; encode it.
            components.percentEncodedQuery = components.percentEncodedQuery?
                .replacingOccurrences(of: "+", with: "%2B")
            guard let built = components.url else {
                throw OpenAIError(kind: .invalidRequest, message: "Invalid URL for \(request.operationID).")
            }
            url = built
        }
        // The client's headers (platform, `User-Agent`, organization, project, default headers),
        // then the request's, each unless a default header has its name; the options' last.
        var headers = template.headers
        template.set("Accept", request.accept, in: &headers)
        if let credential = template.credential(for: request.authentication) {
            template.set(template.credentialName, credential, in: &headers)
        }
        if let contentType = request.contentType { template.set("Content-Type", contentType, in: &headers) }
        for (name, value) in request.headers { template.set(name, value, in: &headers) }
        if let idempotencyKey = options.idempotencyKey {
            template.set("Idempotency-Key", idempotencyKey, in: &headers)
        }
        for (name, value) in options.headers { Self.set(name, value, in: &headers) }
        var body = request.httpBody
        if !options.extraBody.isEmpty, case .data(let data)? = body, request.contentType == "application/json" {
            var object = (try? JSONValue(parsing: data))?.objectValue ?? [:]
            object.merge(options.extraBody)
            body = .data(try APIRequest.encoder.encode(object))
        }
        return HTTPRequest(
            method: request.method, url: url, headers: headers, body: body, uploadProgress: options.uploadProgress)
    }

    /// Sets the credential fetched from ``Configuration/apiKeyProvider`` for this attempt, unless
    /// the caller's options set or removed that header.
    func authorize(_ httpRequest: inout HTTPRequest, _ request: APIRequest, options: RequestOptions) async throws {
        guard let provider = configuration.apiKeyProvider,
            !(request.authentication == .adminAPIKey && configuration.adminAPIKey != nil),
            !options.headers.keys.contains(where: { $0.lowercased() == credentialHeaderName.lowercased() })
        else { return }
        let key = try await provider()
        guard !key.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw OpenAIError(
                kind: .authentication, message: "The API key provider returned an empty key; nothing was sent.")
        }
        Redaction.register(secret: key)
        Self.set(credentialHeaderName, credentialHeaderValue(key), in: &httpRequest.headers)
    }

    /// `X-Stainless-Retry-Count` (the retries before this attempt, from 0) and
    /// `X-Stainless-Timeout` (the attempt's request timeout in whole seconds, the fraction dropped
    /// as openai-node's `Math.trunc` drops it), as OpenAI's SDKs send them on every attempt, unless
    /// the configuration's or the request's headers set them.
    func setAttemptHeaders(
        _ httpRequest: inout HTTPRequest, retries: Int, timeout: TimeInterval, options: RequestOptions
    ) {
        func callerSets(_ name: String) -> Bool {
            template.defaultHeaderNames.contains(name)
                || options.headers.keys.contains { HTTPHeaders.sameName($0, name) }
        }
        if !callerSets("x-stainless-retry-count") {
            Self.set("X-Stainless-Retry-Count", String(retries), in: &httpRequest.headers)
        }
        if timeout.isFinite, timeout > 0, !callerSets("x-stainless-timeout") {
            Self.set("X-Stainless-Timeout", String(Int(timeout.rounded(.towardZero))), in: &httpRequest.headers)
        }
    }

    /// The header that carries the credential: `api-key` for Azure keys, else `Authorization`.
    private var credentialHeaderName: String { template.credentialName }

    private func credentialHeaderValue(_ key: String) -> String {
        template.sendsBearer ? "Bearer \(key)" : key
    }

    /// Sets (or, for `nil`, removes) the header `name`, replacing any spelling of it.
    static func set(_ name: String, _ value: String?, in headers: inout [String: String]) {
        var others: [String] = []
        for key in headers.keys where key != name && HTTPHeaders.sameName(key, name) { others.append(key) }
        for key in others { headers[key] = nil }
        headers[name] = value
    }

    /// The `model` member of a JSON body (the Azure deployment when none is configured).
    private static func model(in body: Data?) -> String? {
        guard let body, let object = try? JSONValue(parsing: body) else { return nil }
        return object["model"]?.stringValue
    }
}
