import Foundation
import OpenAIRuntime

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// `openai mcp`: a Model Context Protocol server over standard input and output, one JSON-RPC 2.0
/// message per line, serving the operations as tools.
///
/// Protocol revisions 2025-06-18 and 2025-11-25 (a session opened by `initialize`, the version
/// negotiated there) and 2026-07-28 (stateless: each request carries its version and the client's
/// capabilities in `params._meta`; `server/discover` describes the server), on one stream, each
/// message served by the era it speaks. Standard output carries protocol messages only; logs go to
/// standard error. A malformed message gets the JSON-RPC error it deserves and the server goes on.
package final class MCPServer: Sendable {
    /// The revisions served, newest first.
    package static let versions = ["2026-07-28", "2025-11-25", "2025-06-18"]
    static let legacyVersions: Set<String> = ["2025-11-25", "2025-06-18"]
    static let metaVersion = "io.modelcontextprotocol/protocolVersion"
    static let metaCapabilities = "io.modelcontextprotocol/clientCapabilities"
    static let metaServerInfo = "io.modelcontextprotocol/serverInfo"

    let options: MCPOptions
    /// The operations served (the filters applied), in command order.
    private let operations: [APIOperation]
    /// The tools, built on first use (an `initialize` is answered without building them).
    private let built = Locked<Tools?>(nil)

    private struct Tools: Sendable {
        var list: [MCPTool]
        var byName: [String: MCPTool]
        /// Every served operation's tool, for the dynamic mode's lookups.
        var endpoints: [String: MCPTool]
    }
    private let client: OpenAIClient?
    private let adminClient: OpenAIClient?
    /// The operations' schemas, parsed on first use.
    private var schemas: SchemaSet { SchemaSet.shared }
    private let output: Terminal
    private let state = Locked(State())
    /// Turns for tool calls: at most ``MCPOptions/maxConcurrentCalls`` run at once.
    private let slots: CallSlots
    /// The most calls that wait for a turn; one more is refused (-32000) rather than held.
    static let maxWaitingCalls = 1024
    /// The most bytes of arguments the calls in flight (running and waiting) hold together: four
    /// lines of the largest size (`--max-line-bytes`; 64 MiB by default); a call that would pass it
    /// is refused (-32000) unless none is in flight. The count bounds many small calls, this a few
    /// large ones.
    package var maxHeldArgumentBytes: Int { options.maxLineBytes * 4 }

    private struct State {
        /// The version `initialize` negotiated (the legacy session of this stream).
        var legacyVersion: String?
        /// The calls in flight, by request id, to cancel.
        var running: [String: Task<Void, Never>] = [:]
        /// Ids whose call was cancelled while it ran: no response is sent for them.
        var cancelled: Set<String> = []
        /// The bytes of each call in flight's arguments (compact JSON), by request id.
        var held: [String: Int] = [:]
        var heldBytes = 0
    }

    /// A server for `options`, its clients configured as the tool's commands are (the environment,
    /// then the global flags); admin tools only when an admin key is configured.
    ///
    /// - Throws: ``CLIError/usage(_:usage:)`` for a base URL that is not an HTTP URL; ``OpenAIError``
    ///   for a configuration the client refuses.
    package init(
        options: MCPOptions, environment: [String: String], output: Terminal, transport: (any HTTPTransport)? = nil
    ) throws {
        self.options = options
        self.output = output
        slots = CallSlots(options.maxConcurrentCalls)
        let configuration = try OpenAITool.configuration(options.globals, environment: environment)
        var project = configuration
        project.adminAPIKey = nil
        var admin = configuration
        admin.apiKey = nil
        func make(_ configuration: OpenAIClient.Configuration) throws -> OpenAIClient {
            if let transport { return try OpenAIClient(configuration: configuration, transport: transport) }
            return try OpenAIClient(configuration: configuration)
        }
        let hasKey = configuration.apiKey != nil || configuration.azure != nil
        client = hasKey ? try make(project) : nil
        adminClient = configuration.adminAPIKey != nil ? try make(admin) : nil
        operations = Catalogue.shared.operations.filter {
            options.includes($0, hasAdminKey: configuration.adminAPIKey != nil)
        }.sorted { $0.command < $1.command }
    }

    /// How many operations are served (as tools, or through the dynamic mode's).
    package var operationCount: Int { operations.count }

    /// The tools served: one per operation, or the dynamic mode's three.
    package var tools: [MCPTool] { catalogue().list }

    private func catalogue() -> Tools {
        built.withLock { built in
            if let built { return built }
            var endpoints: [String: MCPTool] = [:]
            var list: [MCPTool] = []
            for operation in operations {
                let tool = MCPTool.forOperation(operation, schemas: schemas)
                endpoints[tool.name] = tool
                list.append(tool)
            }
            if options.mode == .dynamic { list = MCPTool.dynamic }
            let tools = Tools(
                list: list, byName: Dictionary(list.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first }),
                endpoints: endpoints)
            built = tools
            return tools
        }
    }

    // MARK: The stream

    /// Serves the lines of standard input until it ends, in order: each message is routed before the
    /// next is read (so a cancellation never overtakes its call), tool calls then run concurrently,
    /// and the server waits for those in flight when the input ends.
    package func serve(lines: AsyncStream<InputLine>) async {
        for await line in lines {
            switch line {
            case .text(let text):
                let trimmed = text.trimmingCharacters(in: .whitespaces)
                guard !trimmed.isEmpty else { continue }
                await handle(trimmed)
            case .tooLong(let bytes):
                send(
                    error: -32600,
                    "Invalid Request: a line of \(bytes) bytes, more than the \(options.maxLineBytes) a message may "
                        + "take (--max-line-bytes); it was not read",
                    id: .null)
            }
        }
        // The input ended: calls in flight get 2 seconds to finish (their responses may still be read),
        // then they are cancelled, so the server exits promptly (the transports' shutdown rule).
        let running = state.withLock { Array($0.running.values) }
        guard !running.isEmpty else { return }
        let deadline = ContinuousClock.now + .seconds(2)
        while ContinuousClock.now < deadline, state.withLock({ !$0.running.isEmpty }) {
            try? await Task.sleep(for: .milliseconds(20))
        }
        for task in state.withLock({ Array($0.running.values) }) { task.cancel() }
    }

    /// Standard input's lines, read on a thread of their own (a blocking read) in 64 KiB chunks,
    /// none held longer than `maxLineBytes` (``LineSplitter``).
    package static func standardInputLines(maxLineBytes: Int) -> AsyncStream<InputLine> {
        AsyncStream { continuation in
            let thread = Thread {
                var splitter = LineSplitter(maxLineBytes: maxLineBytes)
                var buffer = [UInt8](repeating: 0, count: 1 << 16)
                while true {
                    // read(2) itself: FileHandle.availableData traps on a read error and, on Darwin,
                    // returns a whole regular file at once. An error other than EINTR ends the input.
                    let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
                    if count < 0, errno == EINTR { continue }
                    if count <= 0 { break }
                    for line in splitter.feed(Data(buffer[0..<count])) { continuation.yield(line) }
                }
                for line in splitter.finish() { continuation.yield(line) }
                continuation.finish()
            }
            thread.start()
        }
    }

    /// Handles one message (a line).
    package func handle(_ line: String) async {
        guard let message = try? JSON.parse(Array(line.utf8)) else {
            send(error: -32700, "Parse error: the line is not JSON", id: .null)
            return
        }
        guard case .object = message else {
            // Batches are not part of MCP (removed in 2025-06-18).
            send(error: -32600, "Invalid Request: one JSON-RPC object per line (no batches)", id: .null)
            return
        }
        guard message["jsonrpc"] == .string("2.0") else {
            send(error: -32600, "Invalid Request: `jsonrpc` must be \"2.0\"", id: Self.validID(message["id"]) ?? .null)
            return
        }
        guard let method = message["method"]?.string else {
            // A response to a request of ours (the server sends none) or nonsense.
            if message["result"] == nil && message["error"] == nil {
                send(error: -32600, "Invalid Request: no `method`", id: Self.validID(message["id"]) ?? .null)
            }
            return
        }
        let params = message["params"] ?? .object([])
        guard let rawID = message["id"] else {
            notification(method, params: params)
            return
        }
        guard let id = Self.validID(rawID) else {
            send(error: -32600, "Invalid Request: `id` must be a string or an integer", id: .null)
            return
        }
        guard case .object = params else {
            send(error: -32602, "Invalid params: `params` must be an object", id: id)
            return
        }
        await request(method, params: params, id: id)
    }

    static func validID(_ id: JSON?) -> JSON? {
        switch id {
        case .string?: return id
        case .number(let text)? where Int(text) != nil: return id
        default: return nil
        }
    }

    private func notification(_ method: String, params: JSON) {
        switch method {
        case "notifications/cancelled":
            guard let id = Self.validID(params["requestId"]) else { return }
            let key = id.compact
            let task = state.withLock { state -> Task<Void, Never>? in
                guard let task = state.running[key] else { return nil }
                state.cancelled.insert(key)
                return task
            }
            task?.cancel()
        default:
            break  // notifications/initialized and the rest: nothing to do.
        }
    }

    private func request(_ method: String, params: JSON, id: JSON) async {
        // The era: a request with the 2026-07-28 envelope is served statelessly; `initialize` opens a
        // legacy session; any other request is served in the legacy session (opened or not).
        let meta = params["_meta"]
        if let version = meta?[Self.metaVersion] {
            guard let version = version.string, meta?[Self.metaCapabilities] != nil else {
                send(
                    error: -32602, "Invalid params: `_meta` needs \(Self.metaVersion) and \(Self.metaCapabilities)",
                    id: id)
                return
            }
            guard version == "2026-07-28" else {
                send(
                    error: -32022, "Unsupported protocol version", id: id,
                    data: .object([
                        .init("supported", .array(Self.versions.map(JSON.string))),
                        .init("requested", .string(version)),
                    ]))
                return
            }
            await serve(method, params: params, id: id, era: .modern)
            return
        }
        if method == "initialize" {
            let requested = params["protocolVersion"]?.string ?? ""
            let version = Self.legacyVersions.contains(requested) ? requested : "2025-11-25"
            state.withLock { $0.legacyVersion = version }
            send(
                result: .object([
                    .init("protocolVersion", .string(version)),
                    .init("capabilities", .object([.init("tools", .object([.init("listChanged", .bool(false))]))])),
                    .init("serverInfo", Self.serverInfo),
                    .init("instructions", .string(Self.instructions)),
                ]), id: id)
            return
        }
        if method == "server/discover" {
            send(error: -32602, "Invalid params: server/discover needs `_meta` with \(Self.metaVersion)", id: id)
            return
        }
        let version = state.withLock { $0.legacyVersion } ?? "2025-11-25"
        await serve(method, params: params, id: id, era: .legacy(version))
    }

    enum Era: Equatable {
        case legacy(String)
        case modern
    }

    static let serverInfo: JSON = .object([
        .init("name", .string("openai")), .init("title", .string("OpenAI API")),
        .init("version", .string(OpenAIClient.sdkVersion)),
    ])

    static let instructions =
        "Tools for every operation of the OpenAI API (or, in dynamic mode, three tools that find, describe and call them). "
        + "A list tool returns one page and the cursor of the next."

    private func serve(_ method: String, params: JSON, id: JSON, era: Era) async {
        switch method {
        case "ping":
            send(result: .object([]), id: id, era: era)
        case "server/discover":
            send(
                result: .object([
                    .init("supportedVersions", .array(Self.versions.map(JSON.string))),
                    .init("capabilities", .object([.init("tools", .object([.init("listChanged", .bool(false))]))])),
                    .init("instructions", .string(Self.instructions)),
                    .init("ttlMs", .number("3600000")), .init("cacheScope", .string("public")),
                ]), id: id, era: era)
        case "tools/list":
            if let cursor = params["cursor"], cursor != .null {
                send(error: -32602, "Invalid params: unknown cursor \(cursor.compact) (the list has one page)", id: id)
                return
            }
            var result: [JSON.Member] = [.init("tools", .array(tools.map(\.definition)))]
            if era == .modern {
                result += [.init("ttlMs", .number("3600000")), .init("cacheScope", .string("public"))]
            }
            send(result: .object(result), id: id, era: era)
        case "tools/call":
            await call(params: params, id: id, era: era)
        default:
            send(error: -32601, "Method not found: \(method)", id: id)
        }
    }

    // MARK: Calls

    private func call(params: JSON, id: JSON, era: Era) async {
        guard let name = params["name"]?.string else {
            send(error: -32602, "Invalid params: tools/call needs a `name`", id: id)
            return
        }
        guard let tool = catalogue().byName[name] else {
            send(error: -32602, "Invalid params: unknown tool \(name)", id: id)
            return
        }
        let arguments = params["arguments"].flatMap { $0 == .null ? nil : $0 } ?? .object([])
        guard case .object = arguments else {
            send(error: -32602, "Invalid params: `arguments` must be an object", id: id)
            return
        }
        let token = params["_meta"]?["progressToken"]
        let key = id.compact
        let size = arguments.compact.utf8.count
        // Created and registered under one lock: the task's own first use of the lock waits for its
        // registration, so a cancellation always finds it, and every exit removes it. An id still in
        // flight is not taken a second time (its cancellation would otherwise reach the wrong call).
        enum Refusal { case inUse, busy }
        let refusal = state.withLock { state -> Refusal? in
            guard state.running[key] == nil else { return .inUse }
            // Running and waiting calls together are bounded too: each holds its arguments.
            guard state.running.count < options.maxConcurrentCalls + Self.maxWaitingCalls,
                state.running.isEmpty || state.heldBytes + size <= maxHeldArgumentBytes
            else { return .busy }
            state.cancelled.remove(key)  // An id may be used again once its request is over.
            state.held[key] = size
            state.heldBytes += size
            state.running[key] = Task {
                // Its turn among the calls in flight (``MCPOptions/maxConcurrentCalls``).
                let turn = await self.slots.acquire()
                let proceed = turn && self.state.withLock { !$0.cancelled.contains(key) }
                let result =
                    proceed ? await self.run(tool, arguments: arguments, token: token, key: key, era: era) : nil
                if turn { await self.slots.release() }
                let cancelled = self.state.withLock { state -> Bool in
                    state.running.removeValue(forKey: key)
                    state.heldBytes -= state.held.removeValue(forKey: key) ?? 0
                    return state.cancelled.remove(key) != nil
                }
                // A cancelled request gets no response (2026-07-28: no further message at all).
                guard let result, !cancelled, !Task.isCancelled else { return }
                if era == .legacy("2025-06-18"), result["isError"] == .bool(true),
                    let text = result["content"]?.array?.first?["text"]?.string,
                    text.hasPrefix("The arguments do not match")
                {
                    // 2025-06-18 lists invalid arguments under the protocol's errors.
                    self.send(error: -32602, "Invalid params: " + text, id: id)
                    return
                }
                self.send(result: self.bounded(result), id: id, era: era)
            }
            return nil
        }
        if refusal == .busy {
            send(
                error: -32000,
                "Server busy: \(options.maxConcurrentCalls) calls run and the rest wait, up to \(Self.maxWaitingCalls) "
                    + "calls or \(maxHeldArgumentBytes) bytes of arguments; send it again later",
                id: id)
        } else if refusal == .inUse {
            // With id null: an answer with the id would reach the call still running under it.
            send(
                error: -32600,
                "Invalid Request: the id \(key) belongs to a request still in flight; this one was not run",
                id: .null)
        }
    }

    /// `result`, or an error result when its text is over `--max-result-bytes`.
    private func bounded(_ result: JSON) -> JSON {
        let size = (result["content"]?.array ?? []).reduce(0) { $0 + ($1["text"]?.string?.utf8.count ?? 0) }
        guard size > options.maxResultBytes else { return result }
        return MCPToolCall.error(
            "The result is \(size) bytes of text, more than the \(options.maxResultBytes) a tool result carries "
                + "(--max-result-bytes): ask for less (a smaller `limit`, fewer `include`s).")
    }

    private func run(_ tool: MCPTool, arguments: JSON, token: JSON?, key: String, era: Era) async -> JSON {
        guard let operation = tool.operation else {
            return await dynamic(tool.name, arguments: arguments, token: token, key: key, era: era)
        }
        return await invoke(operation, arguments: arguments, schema: tool.validationSchema, token: token, key: key)
    }

    private func invoke(
        _ operation: APIOperation, arguments: JSON, schema: JSON, token: JSON?, key: String
    ) async -> JSON {
        guard let client = operation.admin ? adminClient : client else {
            return MCPToolCall.error(
                operation.admin
                    ? "This tool needs an admin key: start the server with OPENAI_ADMIN_KEY or --admin-api-key."
                    : "This tool needs an API key: start the server with OPENAI_API_KEY or --api-key.")
        }
        let pace = ProgressPace(interval: 0.1)
        let notify: @Sendable (Int, String?) -> Void = { [weak self] count, type in
            // No progress for a request that was cancelled (nor any other message for it).
            guard let self, let token, !Task.isCancelled, !self.state.withLock({ $0.cancelled.contains(key) })
            else { return }
            var params: [JSON.Member] = [.init("progressToken", token), .init("progress", .number(String(count)))]
            if let type { params.append(.init("message", .string(type))) }
            self.write(
                .object([
                    .init("jsonrpc", .string("2.0")), .init("method", .string("notifications/progress")),
                    .init("params", .object(params)),
                ]))
        }
        // At most 10 a second (an endless stream would otherwise flood the client); the last one
        // held back goes out before the result, so the client sees the final count.
        let progress: @Sendable (Int, String?) -> Void = { count, type in
            if pace.allows() { notify(count, type) } else { pace.hold(count, type) }
        }
        let call = MCPToolCall(operation: operation, client: client, options: options, progress: progress)
        let result = await call.run(arguments, validator: SchemaValidator(schemas: schemas), schema: schema)
        if let (count, type) = pace.takeHeld() { notify(count, type) }
        return result
    }

    /// The dynamic mode's tools.
    private func dynamic(_ name: String, arguments: JSON, token: JSON?, key: String, era: Era) async -> JSON {
        switch name {
        case "list_api_endpoints":
            let search = (arguments["search_query"]?.string ?? arguments["search"]?.string ?? "").lowercased()
            let found = catalogue().endpoints.values.sorted { $0.name < $1.name }.filter { tool in
                guard !search.isEmpty, let operation = tool.operation else { return true }
                return [tool.name, operation.command, operation.path, operation.summary ?? ""]
                    .contains { $0.lowercased().contains(search) }
            }
            let list: JSON = .array(
                found.map { tool in
                    .object([
                        .init("name", .string(tool.name)),
                        .init("method", .string(tool.operation?.httpMethod ?? "")),
                        .init("path", .string(tool.operation?.path ?? "")),
                        .init("summary", .string(tool.operation?.summary ?? "")),
                    ])
                })
            return MCPToolCall.text(JSON.object([.init("endpoints", list)]).compact)
                .setting("structuredContent", .object([.init("endpoints", list)]))
        case "get_api_endpoint_schema":
            guard let endpoint = arguments["endpoint"]?.string, let tool = catalogue().endpoints[endpoint] else {
                return MCPToolCall.error(
                    "No endpoint \(arguments["endpoint"]?.compact ?? "(none)"): list_api_endpoints gives their names.")
            }
            // The whole input schema, references kept and their definitions attached.
            var described = tool.definition.setting("inputSchema", schemas.withDefinitions(tool.validationSchema))
            if case .object(var members) = described {
                members.removeAll { $0.key == "outputSchema" }
                described = .object(members)
            }
            return MCPToolCall.text(described.compact).setting("structuredContent", described)
        case "invoke_api_endpoint":
            let name = arguments["endpoint_name"] ?? arguments["endpoint"]
            guard let endpoint = name?.string, let tool = catalogue().endpoints[endpoint],
                let operation = tool.operation
            else {
                return MCPToolCall.error(
                    "No endpoint \(name?.compact ?? "(none)"): `endpoint_name` takes a name list_api_endpoints gives.")
            }
            return await invoke(
                operation, arguments: arguments["args"] ?? .object([]), schema: tool.validationSchema, token: token,
                key: key)
        default:
            return MCPToolCall.error("Unknown tool \(name).")
        }
    }

    // MARK: Writing

    private func send(result: JSON, id: JSON, era: Era = .legacy("2025-11-25")) {
        var result = result
        if era == .modern {
            result = result.setting("resultType", .string("complete"))
            let meta = (result["_meta"] ?? .object([])).setting(Self.metaServerInfo, Self.serverInfo)
            result = result.setting("_meta", meta)
        }
        write(.object([.init("jsonrpc", .string("2.0")), .init("id", id), .init("result", result)]))
    }

    private func send(error code: Int, _ message: String, id: JSON, data: JSON? = nil) {
        var error: [JSON.Member] = [.init("code", .number(String(code))), .init("message", .string(message))]
        if let data { error.append(.init("data", data)) }
        write(.object([.init("jsonrpc", .string("2.0")), .init("id", id), .init("error", .object(error))]))
    }

    /// One message, one line (compact JSON escapes every newline).
    private func write(_ message: JSON) {
        try? output.line(message.compact)
    }
}

/// Turns for the tool calls of one server: ``acquire()`` waits, in order, while `limit` calls run.
actor CallSlots {
    private var available: Int
    private var waiting: [(id: UInt64, continuation: CheckedContinuation<Bool, Never>)] = []
    private var nextID: UInt64 = 0

    init(_ limit: Int) { available = max(1, limit) }

    /// Waits for a turn; `false` when the task was cancelled before it came (no turn is held then).
    func acquire() async -> Bool {
        if Task.isCancelled { return false }
        if available > 0 {
            available -= 1
            return true
        }
        nextID += 1
        let id = nextID
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in waiting.append((id, continuation)) }
        } onCancel: {
            Task { await self.cancel(id) }
        }
    }

    /// Ends a turn: the next waiting call gets it.
    func release() {
        if waiting.isEmpty {
            available += 1
        } else {
            waiting.removeFirst().continuation.resume(returning: true)
        }
    }

    private func cancel(_ id: UInt64) {
        guard let index = waiting.firstIndex(where: { $0.id == id }) else { return }
        waiting.remove(at: index).continuation.resume(returning: false)
    }
}

/// Lets an event through at most once per `interval` seconds (progress notifications), keeping
/// the last one held back for the end.
package struct ProgressPace: Sendable {
    private let state = Locked<(last: Date?, held: (count: Int, message: String?)?)>((nil, nil))
    private let interval: TimeInterval

    package init(interval: TimeInterval) { self.interval = interval }

    /// Whether an event may go now (and, when it may, from now on the interval counts; nothing is
    /// held any more).
    package func allows(now: Date = Date()) -> Bool {
        state.withLock { state in
            if let previous = state.last, now.timeIntervalSince(previous) < interval { return false }
            state = (now, nil)
            return true
        }
    }

    /// Keeps an event that did not go, replacing the one kept before.
    package func hold(_ count: Int, _ message: String?) {
        state.withLock { $0.held = (count, message) }
    }

    /// The event kept back, if any (and forgets it).
    package func takeHeld() -> (count: Int, message: String?)? {
        state.withLock { state in
            defer { state.held = nil }
            return state.held
        }
    }
}

/// One line of the MCP input stream: its text, or the size of a line too long to read.
package enum InputLine: Sendable, Equatable {
    case text(String)
    /// A line of this many bytes, more than the limit: dropped as it arrived, never held whole.
    case tooLong(bytes: Int)
}

/// Splits bytes into lines (`\n`, a `\r` before it dropped) holding at most `maxLineBytes` of a
/// line: a longer line is dropped as it arrives and reported by its size, so a 200 MB line costs
/// no more memory than the limit.
package struct LineSplitter: Sendable {
    package let maxLineBytes: Int
    private var pending: [UInt8] = []
    /// The bytes of the line being dropped, or `nil` when reading one.
    private var dropping: Int?

    package init(maxLineBytes: Int) { self.maxLineBytes = maxLineBytes }

    /// The lines that `chunk` completes.
    package mutating func feed(_ chunk: Data) -> [InputLine] {
        var lines: [InputLine] = []
        var start = chunk.startIndex
        while start < chunk.endIndex {
            let newline = chunk[start...].firstIndex(of: 0x0A)
            let end = newline ?? chunk.endIndex
            let count = end - start
            if let dropped = dropping {
                dropping = dropped + count
            } else if pending.count + count > maxLineBytes {
                dropping = pending.count + count
                pending = []
            } else {
                pending += chunk[start..<end]
            }
            guard let newline else { break }
            lines.append(takeLine())
            start = newline + 1
        }
        return lines
    }

    /// The last line, when the input ended without a newline after it.
    package mutating func finish() -> [InputLine] {
        pending.isEmpty && dropping == nil ? [] : [takeLine()]
    }

    private mutating func takeLine() -> InputLine {
        defer {
            pending = []
            dropping = nil
        }
        if let dropped = dropping { return .tooLong(bytes: dropped) }
        if pending.last == 0x0D { pending.removeLast() }
        return .text(String(decoding: pending, as: UTF8.self))
    }
}
