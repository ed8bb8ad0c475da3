import Foundation
import OpenAIRuntime

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One `tools/call` of an operation's tool: the arguments checked against the tool's schema and
/// read into a request, the reply made into the tool's result (`CallToolResult`).
struct MCPToolCall {
    var operation: APIOperation
    var client: OpenAIClient
    var options: MCPOptions
    /// Called for each event of a stream (its count, its type), for `notifications/progress`.
    var progress: @Sendable (Int, String?) -> Void

    /// The tool's result: `content` (text, or an embedded resource for bytes), `structuredContent`
    /// for a JSON object reply, `isError` for an API error, arguments that do not fit the schema, or a
    /// result over the size budget.
    func run(_ arguments: JSON, validator: SchemaValidator, schema: JSON) async -> ToolResult {
        let problems = validator.errors(arguments, against: schema)
        guard problems.isEmpty else { return .invalidArguments(problems) }
        do {
            let input = try RequestInput(operation: operation, arguments: arguments, fileFolders: options.fileFolders)
            return .result(try await send(input))
        } catch let error as OpenAIError {
            return .result(Self.apiError(error))
        } catch CLIError.usage(let message, _) {
            return .result(Self.error(message))
        } catch CLIError.failure(let message) {
            return .result(Self.error(message))
        } catch {
            return .result(Self.error(Redaction.text("\(error)")))
        }
    }

    private func send(_ input: RequestInput) async throws -> JSON {
        if input.asksForStream(operation) {
            var collector = StreamCollector(stream: operation.stream!)
            let reader = EventStreamReader(client: client, operation: operation)
            var count = 0
            let outcome = try await reader.read(try input.request(for: operation), options: RequestOptions()) { event in
                count += 1
                collector.take(event)
                progress(count, event["type"]?.string ?? event["event"]?.string)
            }
            if case .notAStream(let response) = outcome { return try reply(response) }
            return json(collector.result, note: nil)
        }
        // The reply is read as it arrives and refused once it is larger than any result could be
        // (``maxReplyBytes``): a 300 MB reply is never held whole to be refused afterwards.
        let response = try await client.openReply(try input.request(for: operation), options: RequestOptions())
        let limit = maxReplyBytes
        var body = Data()
        for try await chunk in response.body {
            body.append(chunk)
            if body.count > limit {
                response.close?()
                let type = response.value(forHeader: "Content-Type") ?? "no Content-Type"
                return Self.error(
                    "The reply (\(type)) is more than \(limit) bytes, more than a tool result carries "
                        + (operation.reply == .binary
                            ? "(--max-binary-bytes). `openai \(operation.command) … --output FILE` writes it to a file."
                            : "(--max-result-bytes): ask for less (a smaller `limit`, fewer `include`s)."))
            }
        }
        return try reply(HTTPResponse(statusCode: response.statusCode, headers: response.headers, body: body))
    }

    /// The most bytes of a reply read: a binary reply's budget, or four times the text budget (a
    /// reply indented as OpenAI's are is about twice its compact text).
    private var maxReplyBytes: Int {
        operation.reply == .binary ? options.maxBinaryBytes : min(options.maxResultBytes, Int.max / 4) * 4
    }

    private func reply(_ response: HTTPResponse) throws -> JSON {
        let type = response.value(forHeader: "Content-Type") ?? ""
        switch operation.reply {
        case .none:
            return Self.text("Done: HTTP \(response.statusCode), no content.")
        case .binary:
            guard response.body.count <= options.maxBinaryBytes else {
                return Self.error(
                    "The reply is \(response.body.count) bytes of \(type), more than the \(options.maxBinaryBytes) "
                        + "a tool result carries (--max-binary-bytes). `openai \(operation.command) … --output FILE` "
                        + "writes it to a file.")
            }
            let resource: JSON = .object([
                .init(
                    "uri",
                    .string(
                        "openai:///"
                            + operation.command.replacingOccurrences(of: ":", with: "/").replacingOccurrences(
                                of: " ", with: "/"))),
                .init("mimeType", .string(type.isEmpty ? "application/octet-stream" : type)),
                .init("blob", .string(response.body.base64EncodedString())),
            ])
            return .object([
                .init(
                    "content",
                    .array([
                        .object([.init("type", .string("resource")), .init("resource", resource)]),
                        .object([
                            .init("type", .string("text")),
                            .init("text", .string("\(response.body.count) bytes of \(type), base64 in the resource.")),
                        ]),
                    ]))
            ])
        case .text:
            return Self.text(String(decoding: response.body, as: UTF8.self))
        case .json:
            guard let value = try? JSON.parse(response.body) else {
                // A text reply where the operation documents JSON (a transcription asked for as text): the
                // text, and as `structuredContent` `{"text": …}` (the declared output schema is an object's).
                if type.lowercased().hasPrefix("text/") {
                    let text = String(decoding: response.body, as: UTF8.self)
                    return Self.text(text).setting("structuredContent", .object([.init("text", .string(text))]))
                }
                return Self.error("The reply (\(type), \(response.body.count) bytes) is not JSON.")
            }
            var note: String?
            if let page = operation.page, value[page.hasMore] == .bool(true), let cursor = page.nextCursor(in: value) {
                note = "More items follow: call again with `\(page.cursor)`: \"\(cursor)\"."
            }
            return json(value, note: note)
        }
    }

    /// A JSON value as text (compact) and, when it is an object, as `structuredContent`; an error
    /// result when the text is over the budget.
    private func json(_ value: JSON, note: String?) -> JSON {
        let text = value.compact
        guard text.utf8.count <= options.maxResultBytes else {
            return Self.error(
                "The result is \(text.utf8.count) bytes, more than the \(options.maxResultBytes) a tool result carries "
                    + "(--max-result-bytes): ask for less (a smaller `limit`, fewer `include`s).")
        }
        var content: [JSON] = [.object([.init("type", .string("text")), .init("text", .string(text))])]
        if let note { content.append(.object([.init("type", .string("text")), .init("text", .string(note))])) }
        var members: [JSON.Member] = [.init("content", .array(content))]
        if case .object = value { members.append(.init("structuredContent", value)) }
        return .object(members)
    }

    static func text(_ text: String) -> JSON {
        .object([.init("content", .array([.object([.init("type", .string("text")), .init("text", .string(text))])]))])
    }

    /// A tool execution error (`isError: true`) with `message`.
    static func error(_ message: String) -> JSON {
        .object([
            .init("content", .array([.object([.init("type", .string("text")), .init("text", .string(message))])])),
            .init("isError", .bool(true)),
        ])
    }

    /// An API error as a tool execution error: OpenAI's message, type, code, param and the request id.
    static func apiError(_ error: OpenAIError) -> JSON {
        var lines = ["OpenAI API error: " + Redaction.text(error.message)]
        if let status = error.statusCode { lines.append("status: \(status)") }
        if let type = error.type { lines.append("type: \(type)") }
        if let code = error.code { lines.append("code: \(code)") }
        if let param = error.param { lines.append("param: \(param)") }
        if let requestID = error.requestID { lines.append("request id: \(requestID)") }
        return Self.error(lines.joined(separator: "\n"))
    }
}

/// A stream's events collected into the object they make: a chat completion's chunks merged into a
/// `chat.completion` by the runtime's rules (``ChatCompletionChunkMerge``); else the final event's
/// `response` (the Responses API), or the final event.
struct StreamCollector {
    var stream: APIOperation.Stream
    private var last: JSON?
    private var terminal: JSON?
    private var chat = ChatCompletionChunkMerge()

    init(stream: APIOperation.Stream) { self.stream = stream }

    mutating func take(_ event: JSON) {
        let payload = stream.namedEvents ? (event["data"] ?? event) : event
        last = payload
        let name = stream.namedEvents ? event["event"]?.string : payload["type"]?.string
        if let name, stream.terminalEvents.contains(name) { terminal = payload }
        if stream.finishedChoices { chat.take(payload.jsonValue) }
    }

    /// The collected object.
    var result: JSON {
        if stream.finishedChoices, let merged = chat.completion, let json = try? JSON.parse(Array(merged.jsonText.utf8))
        {
            return json
        }
        let final = terminal ?? last ?? .object([])
        if case .object? = final["response"] { return final["response"]! }
        return final
    }
}

extension RequestInput {
    /// The input of a tool call's `arguments`: each member by the wire name of a path, query or
    /// header parameter or a top-level body member; any other member goes into a JSON body as is.
    /// A multipart file member takes a `data:` URL, or `@path` for a file under `fileFolders`.
    ///
    /// - Throws: ``CLIError/usage(_:usage:)`` for a member that has nowhere to go, a file that
    ///   cannot be read, a missing required member.
    init(operation: APIOperation, arguments: JSON, fileFolders: [String]) throws {
        guard case .object(let members) = arguments else {
            throw CLIError.usage("the arguments are not an object")
        }
        var body: [JSON.Member] = []
        for member in members {
            if let parameter = operation.parameters.first(where: { $0.name == member.key }) {
                switch parameter.location {
                case .path:
                    guard member.value.string?.isEmpty == false || (member.value != .null && member.value.string == nil)
                    else { throw CLIError.usage("`\(member.key)` is empty") }
                    pathParameters[member.key] = member.value.string ?? member.value.compact
                case .query: query.append((member.key, member.value))
                case .header: headers[member.key] = member.value.string ?? member.value.compact
                case .body: break
                }
                continue
            }
            let flag = operation.body?.members.first { $0.name == member.key }
            if let flag, operation.body?.kind == .multipart, flag.schema.isFile {
                let words = member.value.array?.compactMap(\.string) ?? member.value.string.map { [$0] } ?? []
                files.append((member.key, try words.map { try Self.file($0, name: member.key, folders: fileFolders) }))
                continue
            }
            guard operation.body != nil else {
                throw CLIError.usage("`openai \(operation.command)` takes no member `\(member.key)`")
            }
            body.append(member)
        }
        // The body's required members were checked with the schema; the parameters are checked here.
        let missing = missing(of: operation.parameters, body: body)
        guard missing.isEmpty else {
            throw CLIError.usage("missing \(missing.map(\.name).joined(separator: ", "))")
        }
        setBody(body, for: operation)
    }

    /// A file member's value: `data:<type>;base64,<bytes>` gives the bytes; `@path` streams a local
    /// file, only one under `folders` (symbolic links resolved first).
    static func file(_ word: String, name: String, folders: [String]) throws -> FileUpload {
        if word.hasPrefix("@") {
            let url = URL(fileURLWithPath: String(word.dropFirst())).resolvingSymlinksInPath().standardized
            guard ValueReader.isInside(url, folders: folders) else {
                throw CLIError.usage(
                    "`\(name)`: local files are not readable"
                        + (folders.isEmpty
                            ? " (the server was started without --allow-files)"
                            : " outside \(folders.joined(separator: ", "))") + "; send the content as a data: URL")
            }
            do {
                return try FileUpload(fileURL: url)
            } catch {
                throw CLIError.usage("`\(name)`: cannot read the file \(url.path)")
            }
        }
        if word.hasPrefix("data:"), let comma = word.firstIndex(of: ",") {
            let header = word[word.index(word.startIndex, offsetBy: 5)..<comma]
            guard header.hasSuffix(";base64"), let data = Data(base64Encoded: String(word[word.index(after: comma)...]))
            else { throw CLIError.usage("`\(name)`: a data URL must be base64 (`data:<type>;base64,<bytes>`)") }
            let type = String(header.dropLast(";base64".count))
            return FileUpload(data: data, filename: name, contentType: type.isEmpty ? nil : type)
        }
        throw CLIError.usage("`\(name)` takes a file: `@/path/to/file` or `data:<type>;base64,<bytes>`")
    }
}
