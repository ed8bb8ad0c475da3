import Foundation
import OpenAIRuntime

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The `openai` tool: parses a command line, calls the operation through the SDK's runtime
/// (configuration, transport, retries, SSE framing, multipart encoder, redaction) and prints the
/// reply.
package enum OpenAITool {
    /// The tool's version: the SDK's.
    package static var version: String { "openai \(OpenAIClient.sdkVersion) (swift-openai)" }

    /// Runs the tool with `arguments` (the words after the program's name) and returns its exit status.
    ///
    /// - Parameters:
    ///   - environment: The variables the client is configured from.
    ///   - terminal: Where replies and messages go.
    ///   - stdin: Standard input's text for a body, read only when an operation has one and standard
    ///     input is not a terminal; `nil` when there is none.
    ///   - transport: The HTTP transport (tests).
    package static func run(
        _ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
        terminal: Terminal = Terminal(), stdin: @Sendable () -> String? = OpenAITool.standardInput,
        transport: (any HTTPTransport)? = nil
    ) async -> Int32 {
        let catalogue = Catalogue.shared
        if arguments.first == "__complete" {
            let line = arguments.count >= 3 && arguments[1] == "--line" ? arguments[2] : ""
            for candidate in Completion.candidates(line: line, catalogue: catalogue) { terminal.line(candidate) }
            return ExitStatus.success
        }
        let invocation: Invocation
        do {
            invocation = try Invocation.parse(arguments, catalogue: catalogue)
        } catch {
            return report(error, terminal: terminal)
        }
        switch invocation {
        case .help(let text):
            terminal.line(text)
            return ExitStatus.success
        case .version:
            terminal.line(version)
            return ExitStatus.success
        case .completion(let shell):
            terminal.line(Completion.script(shell))
            return ExitStatus.success
        case .call(let call):
            do {
                let input = try RequestInput(
                    operation: call.operation, values: call.values,
                    stdinBody: call.operation.body == nil ? nil : stdin())
                let client = try makeClient(call.globals, environment: environment, transport: transport)
                try await Call(call: call, input: input, client: client, terminal: terminal).run()
                terminal.finish()
                return ExitStatus.success
            } catch {
                terminal.finish()
                return report(error, terminal: terminal)
            }
        }
    }

    /// Standard input's text when it is not a terminal (a pipe or a file), else `nil`.
    package static let standardInput: @Sendable () -> String? = {
        guard isatty(STDIN_FILENO) == 0 else { return nil }
        let data = FileHandle.standardInput.readDataToEndOfFile()
        return data.isEmpty ? nil : String(decoding: data, as: UTF8.self)
    }

    /// The client configured as `OpenAIClient()` configures it (``OpenAIClient/Configuration/fromEnvironment(_:)``,
    /// or Azure's when `AZURE_OPENAI_ENDPOINT` is set), then the global flags over it.
    ///
    /// - Throws: ``OpenAIError`` when the configuration is not usable (no credential at all).
    static func makeClient(
        _ globals: GlobalOptions, environment: [String: String], transport: (any HTTPTransport)?
    ) throws -> OpenAIClient {
        var configuration: OpenAIClient.Configuration
        if environment["AZURE_OPENAI_ENDPOINT"].map({ !$0.isEmpty }) ?? false {
            configuration = try .azureFromEnvironment(environment: environment)
        } else {
            configuration = .fromEnvironment(environment)
        }
        if let key = globals.apiKey { configuration.apiKey = key }
        if let key = globals.adminAPIKey { configuration.adminAPIKey = key }
        if let organization = globals.organization { configuration.organization = organization }
        if let project = globals.project { configuration.project = project }
        if let base = globals.baseURL {
            guard let url = URL(string: base), url.scheme == "http" || url.scheme == "https", url.host != nil else {
                throw CLIError.usage("--base-url \(base) is not an http or https URL")
            }
            configuration.baseURL = url
        }
        if globals.debug { configuration.logger = .standardError(level: .debug) }
        if let transport { return try OpenAIClient(configuration: configuration, transport: transport) }
        return try OpenAIClient(configuration: configuration)
    }

    /// Prints `error` on standard error and returns its exit status (``ExitStatus``).
    static func report(_ error: any Error, terminal: Terminal) -> Int32 {
        switch error {
        case CLIError.usage(let message, let usage):
            terminal.error("error: " + message)
            if let usage { terminal.error(usage + "\n(`--help` for the flags)") }
            return ExitStatus.usage
        case CLIError.failure(let message):
            terminal.error("error: " + message)
            return ExitStatus.failure
        case let error as OpenAIError:
            var lines = ["error: " + Redaction.text(error.message)]
            var details: [String] = []
            if let status = error.statusCode { details.append("status \(status)") }
            if let type = error.type { details.append("type \(type)") }
            if let code = error.code { details.append("code \(code)") }
            if let param = error.param { details.append("param \(param)") }
            if !details.isEmpty { lines.append("  " + details.joined(separator: ", ")) }
            if let requestID = error.requestID { lines.append("  request id: \(requestID)") }
            if let stream = error.stream { lines.append("  after \(stream.eventCount) events of the stream") }
            terminal.error(lines.joined(separator: "\n"))
            return status(of: error)
        case let error as JSONSyntaxError:
            terminal.error("error: the reply is not JSON: \(error)")
            return ExitStatus.failure
        default:
            terminal.error("error: " + Redaction.text("\(error)"))
            return ExitStatus.failure
        }
    }

    /// The exit status of an API error: 4 for a 4xx reply, 5 for 5xx, 6 for no reply, 7 for a
    /// stream cut off, 2 for a request the client refused to send.
    static func status(of error: OpenAIError) -> Int32 {
        if let status = error.statusCode, error.kind != .truncatedEvent {
            return (400..<500).contains(status) ? ExitStatus.clientError : status >= 500 ? ExitStatus.serverError : 1
        }
        switch error.kind {
        case .connection, .timeout: return ExitStatus.connection
        case .truncatedEvent, .missingTerminalEvent, .unfinishedChoices: return ExitStatus.incomplete
        case .invalidRequest: return ExitStatus.usage
        case .cancelled: return ExitStatus.interrupted
        // An error event in a stream: the server's.
        case .server: return ExitStatus.serverError
        default: return ExitStatus.failure
        }
    }
}

/// One operation call: the request built from the input, sent the way its reply needs.
struct Call {
    var call: Invocation.Call
    var input: RequestInput
    var client: OpenAIClient
    var terminal: Terminal

    var operation: Operation { call.operation }

    func run() async throws {
        let printer = ReplyPrinter(
            format: call.globals.format, transform: try call.globals.transform.map(Transform.init), terminal: terminal)
        if operation.reply == .binary, call.output == nil, terminal.outputIsTerminal {
            throw CLIError.usage(
                "`openai \(operation.command)` replies with binary data: give --output FILE (or pipe it)",
                usage: Help.usage(operation))
        }
        var options = RequestOptions()
        let upload = input.files.isEmpty ? nil : ProgressBar(terminal: terminal, label: "upload")
        if let upload { options.uploadProgress = { sent, total in upload.update(sent, total) } }
        defer { upload?.end() }
        if operation.reply == .binary, let output = call.output {
            let download = ProgressBar(terminal: terminal, label: "download")
            options.downloadProgress = { received, total in download.update(received, total) }
            defer { download.end() }
            let result = try await client.sendForFile(
                try request(), to: URL(fileURLWithPath: output), options: options)
            terminal.error("wrote \(result.byteCount) bytes to \(output)")
            return
        }
        if let output = call.output { try terminal.redirect(to: output) }
        if isStreaming {
            try await stream(options: options, printer: printer)
            return
        }
        switch operation.reply {
        case .binary, .text:
            terminal.write(try await client.sendForData(try request(), options: options))
        case .none:
            try await client.sendForNoContent(try request(), options: options)
        case .json:
            if operation.page != nil {
                try await pages(options: options, printer: printer)
                return
            }
            let data = try await client.sendForData(try request(), options: options)
            try printJSONReply(data, printer: printer)
        }
    }

    /// Prints a JSON reply; a reply that is not JSON (a transcription asked for as text) is
    /// printed as it came.
    private func printJSONReply(_ data: Data, printer: ReplyPrinter) throws {
        if printer.effectiveFormat == .raw {
            terminal.write(data)
            return
        }
        guard let value = try? JSON.parse(data) else {
            terminal.write(data)
            return
        }
        printer.print(value)
    }

    /// Whether the request asks for a stream: the stream's body members set as the stream needs
    /// (`--stream`), or its query flag.
    private var isStreaming: Bool {
        guard let stream = operation.stream else { return false }
        if let query = stream.query {
            return input.query.contains { $0.name == query && $0.value == .bool(true) }
        }
        guard !stream.bodySettings.isEmpty, let body = input.body else { return false }
        return stream.bodySettings.allSatisfy { body[$0.key] == $0.value }
    }

    /// The request for the input, with `cursor` as the page cursor when given.
    func request(cursor: String? = nil) throws -> APIRequest {
        var request = APIRequest(
            method: operation.httpMethod, path: operation.path, operationID: operation.id,
            authentication: operation.admin ? .adminAPIKey : .apiKey)
        for (name, value) in input.pathParameters { try request.setPathParameter(name, value) }
        for (name, value) in operation.fixedQuery { try request.addQuery(name, value) }
        for (name, value) in input.query where name != operation.page?.cursor || cursor == nil {
            try request.addQuery(name, value.jsonValue)
        }
        if let cursor, let name = operation.page?.cursor { try request.addQuery(name, cursor) }
        for (name, value) in input.headers { try request.addHeader(name, value) }
        if let accept = operation.accept { request.accept = accept }
        if let body = input.body, let kind = operation.body?.kind {
            switch kind {
            case .json:
                request.setRawBody(Data(body.compact.utf8), contentType: "application/json")
            case .multipart:
                try request.setMultipartBody(Form(body: body, files: input.files, operation: operation))
            case .text:
                request.setTextBody(body.string ?? body.compact, contentType: operation.body!.contentType)
            }
        }
        return request
    }

    // MARK: Paging

    /// Fetches pages until the last one or `--max-items`, then prints the first page with every
    /// item (`data`) and `has_more` telling whether more remained; `jsonl` prints each item as its
    /// page arrives.
    private func pages(options: RequestOptions, printer: ReplyPrinter) async throws {
        guard let page = operation.page else { return }
        var items: [JSON] = []
        var first: JSON?
        var last: JSON?
        var cursor: String? = nil
        var seen: Set<String> = []
        var more = false
        let lines = printer.effectiveFormat == .jsonl || printer.effectiveFormat == .raw
        while true {
            let data = try await client.sendForData(try request(cursor: cursor), options: options)
            let value = try JSON.parse(data)
            if first == nil { first = value }
            last = value
            var pageItems = value[page.items]?.array ?? []
            if let max = call.maxItems, items.count + pageItems.count >= max {
                more = items.count + pageItems.count > max || value[page.hasMore]?.bool == true
                pageItems = Array(pageItems.prefix(max - items.count))
                items += pageItems
                if lines { for item in pageItems { printer.print(item, oneLine: true) } }
                break
            }
            items += pageItems
            if lines { for item in pageItems { printer.print(item, oneLine: true) } }
            // An absent `has_more` reads as "maybe": the next page tells.
            let hasMore = value[page.hasMore]?.bool ?? !pageItems.isEmpty
            guard hasMore, let next = nextCursor(value, page: page), seen.insert(next).inserted else {
                more = hasMore
                break
            }
            cursor = next
        }
        guard !lines, var merged = first else { return }
        merged = merged.setting(page.items, .array(items))
        if merged[page.hasMore] != nil || more { merged = merged.setting(page.hasMore, .bool(more)) }
        for key in ["last_id", "next_page"] where last?[key] != nil {
            merged = merged.setting(key, last![key]!)
        }
        printer.print(merged)
    }

    private func nextCursor(_ value: JSON, page: Operation.Page) -> String? {
        for source in page.next {
            if source == "#last-id" {
                if let id = value[page.items]?.array?.last?["id"]?.string { return id }
            } else if let cursor = value[source]?.string, !cursor.isEmpty {
                return cursor
            }
        }
        return nil
    }

    // MARK: Streaming

    /// Prints each event as one JSON line (`--format raw`: the bytes as received), and fails with
    /// status 7 when the stream ends before what completes it.
    private func stream(options: RequestOptions, printer: ReplyPrinter) async throws {
        guard let stream = operation.stream else { return }
        var request = try request()
        request.accept = "text/event-stream"
        let response = try await client.openEventStream(request, options: options)
        let requestID = response.value(forHeader: "x-request-id")
        var parser = ServerSentEventParser()
        var tracker = StreamTracker(stream: stream)
        let raw = printer.effectiveFormat == .raw
        do {
            for try await chunk in response.body {
                if raw { terminal.write(chunk) }
                for event in parser.consume(chunk) {
                    try handle(event, tracker: &tracker, printer: raw ? nil : printer, requestID: requestID)
                }
            }
            for event in parser.finish() {
                try handle(event, tracker: &tracker, printer: raw ? nil : printer, requestID: requestID)
            }
        } catch let error as OpenAIError where error.kind == .connection || error.kind == .timeout {
            throw OpenAIError(
                kind: .truncatedEvent,
                message: "The stream was cut off after \(tracker.events) events: \(error.message)",
                requestID: requestID)
        }
        if !tracker.complete(midEvent: parser.hasIncompleteEvent) {
            throw OpenAIError(
                kind: .missingTerminalEvent,
                message: "The stream ended after \(tracker.events) events without its final event"
                    + (stream.terminalEvents.isEmpty ? "" : " (\(stream.terminalEvents.joined(separator: ", ")))")
                    + ".",
                requestID: requestID)
        }
    }

    private func handle(
        _ event: ServerSentEvent, tracker: inout StreamTracker, printer: ReplyPrinter?, requestID: String?
    ) throws {
        if event.data == "[DONE]" {
            tracker.done = true
            return
        }
        if event.data.isEmpty && event.event == nil { return }
        try OpenAIClient.throwIfError(event, requestID: requestID)
        let payload = (try? JSON.parse(Array(event.data.utf8))) ?? .string(event.data)
        tracker.observe(event, payload: payload)
        guard let printer else { return }
        if operation.stream?.namedEvents == true, let name = event.event {
            printer.printEvent(.object([JSON.Member("event", .string(name)), JSON.Member("data", payload)]))
        } else {
            printer.printEvent(payload)
        }
    }
}

/// Whether a stream got what completes it: `[DONE]`, a terminal event, or every choice finished.
struct StreamTracker {
    var stream: Operation.Stream
    var events = 0
    var done = false
    var terminal = false
    /// Each choice's index → whether it has a `finish_reason`.
    var choices: [String: Bool] = [:]

    init(stream: Operation.Stream) { self.stream = stream }

    mutating func observe(_ event: ServerSentEvent, payload: JSON) {
        events += 1
        let name = stream.namedEvents ? event.event : payload["type"]?.string
        if let name, stream.terminalEvents.contains(name) { terminal = true }
        for choice in payload["choices"]?.array ?? [] {
            let index = choice["index"]?.compact ?? "0"
            let finished = choice["finish_reason"].map { $0 != .null } ?? false
            choices[index] = (choices[index] ?? false) || finished
        }
    }

    /// Whether the stream is complete, given that it ended `midEvent` or between events.
    func complete(midEvent: Bool) -> Bool {
        if done || terminal { return true }
        if !stream.terminalEvents.isEmpty { return false }
        if stream.finishedChoices { return !choices.isEmpty && choices.values.allSatisfy { $0 } }
        return !midEvent
    }
}

/// A multipart form of the command line's values: the members as text parts (objects and arrays
/// as the runtime's conventions say), then the files.
struct Form: MultipartFormEncodable {
    var body: JSON
    var files: [(name: String, files: [FileUpload])]
    var operation: Operation

    func encode(to form: inout MultipartForm) throws {
        if case .object(let members) = body {
            for member in members { try form.append(member.key, member.value.jsonValue) }
        }
        for (name, uploads) in files {
            let schema = operation.body?.members.first { $0.name == name }?.schema
            if schema?.type == "array" || (uploads.count > 1 && schema?.acceptsArray == true) {
                try form.append(name, uploads)
            } else if let upload = uploads.last {
                try form.append(name, upload)
            }
        }
    }
}
