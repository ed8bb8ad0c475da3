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
/// The protocol is ``MCPSession``'s; the server reads lines, does what the session says (writes
/// messages, starts and cancels calls) and runs the calls. Standard output carries protocol
/// messages only; logs go to standard error.
package final class MCPServer: Sendable {
    let options: MCPOptions
    /// The operations served (the filters applied), in command order.
    private let operations: [APIOperation]
    /// The tools, built on first use; the session asks them too.
    private let toolSet: ToolSet
    private let client: OpenAIClient?
    private let adminClient: OpenAIClient?
    /// The operations' schemas, parsed on first use.
    private var schemas: SchemaSet { SchemaSet.shared }
    private let output: Terminal
    /// The protocol's state; every message goes through it under this lock, in order.
    private let session: Locked<MCPSession>
    /// The tasks of the calls in flight, by key, each with its number (a finished call removes its
    /// own task only, never one a later request with the same id started), and the last number given.
    private let running = Locked((tasks: [String: (number: UInt64, task: Task<Void, Never>)](), last: UInt64(0)))
    /// Turns for tool calls: at most ``MCPOptions/maxConcurrentCalls`` run at once.
    private let slots: CallSlots
    /// The most bytes of arguments the calls in flight hold together (``MCPOptions/maxHeldArgumentBytes``).
    package var maxHeldArgumentBytes: Int { options.maxHeldArgumentBytes }

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
        let toolSet = ToolSet(operations: operations, mode: options.mode)
        self.toolSet = toolSet
        session = Locked(
            MCPSession(
                tools: MCPSession.Tools(
                    definitions: { toolSet.tools().list.map(\.definition) },
                    contains: { toolSet.tools().byName[$0] != nil }),
                maxConcurrentCalls: options.maxConcurrentCalls, maxHeldArgumentBytes: options.maxHeldArgumentBytes,
                maxResultBytes: options.maxResultBytes, maxLineBytes: options.maxLineBytes))
    }

    /// How many operations are served (as tools, or through the dynamic mode's).
    package var operationCount: Int { operations.count }

    /// The tools served: one per operation, or the dynamic mode's three.
    package var tools: [MCPTool] { toolSet.tools().list }

    // MARK: The stream

    /// Serves the lines of standard input until it ends, in order: each message is routed before the
    /// next is read (so a cancellation never overtakes its call), tool calls then run concurrently,
    /// and the server waits for those in flight when the input ends.
    package func serve(lines: AsyncStream<InputLine>) async {
        for await line in lines {
            switch line {
            case .text(let text): handle(text)
            case .tooLong(let bytes): perform(session.withLock { $0.lineTooLong(bytes) })
            }
        }
        // The input ended: calls in flight get 2 seconds to finish (their responses may still be read),
        // then they are cancelled, so the server exits promptly (the transports' shutdown rule).
        guard running.withLock({ !$0.tasks.isEmpty }) else { return }
        let deadline = ContinuousClock.now + .seconds(2)
        while ContinuousClock.now < deadline, running.withLock({ !$0.tasks.isEmpty }) {
            try? await Task.sleep(for: .milliseconds(20))
        }
        for task in running.withLock({ $0.tasks.values.map(\.task) }) { task.cancel() }
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

    /// Handles one message (a line): what the session says is done before this returns (a call is
    /// started, not awaited).
    package func handle(_ line: String) {
        perform(session.withLock { $0.receive(line) })
    }

    private func perform(_ actions: [MCPAction]) {
        for action in actions {
            switch action {
            case .send(let message): write(message)
            case .start(let call): start(call)
            case .cancel(let key): running.withLock { $0.tasks[key] }?.task.cancel()
            }
        }
    }

    // MARK: Calls

    /// Runs `call` in a task of its own, registered before any message after this one is handled;
    /// the task's own use of `running` waits for its registration, so a cancellation always finds it.
    private func start(_ call: MCPCall) {
        running.withLock { running in
            running.last += 1
            let number = running.last
            running.tasks[call.key] = (
                number,
                Task {
                    // Its turn among the calls in flight (``MCPOptions/maxConcurrentCalls``).
                    let turn = await self.slots.acquire()
                    let proceed = turn && !self.session.withLock { $0.isCancelled(call.key) }
                    let result = proceed ? await self.run(call) : nil
                    if turn { await self.slots.release() }
                    self.running.withLock { running in
                        if running.tasks[call.key]?.number == number { running.tasks.removeValue(forKey: call.key) }
                    }
                    let actions = self.session.withLock { $0.finish(call, with: Task.isCancelled ? nil : result) }
                    self.perform(actions)
                }
            )
        }
    }

    private func run(_ call: MCPCall) async -> ToolResult {
        guard let tool = toolSet.tools().byName[call.tool] else {
            return .result(MCPToolCall.error("Unknown tool \(call.tool)."))
        }
        guard let operation = tool.operation else { return await dynamic(tool.name, call) }
        return await invoke(operation, arguments: call.arguments, schema: tool.validationSchema, call: call)
    }

    private func invoke(_ operation: APIOperation, arguments: JSON, schema: JSON, call: MCPCall) async -> ToolResult {
        guard let client = operation.admin ? adminClient : client else {
            return .result(
                MCPToolCall.error(
                    operation.admin
                        ? "This tool needs an admin key: start the server with OPENAI_ADMIN_KEY or --admin-api-key."
                        : "This tool needs an API key: start the server with OPENAI_API_KEY or --api-key."))
        }
        let pace = ProgressPace(interval: 0.1)
        let token = call.progressToken
        let key = call.key
        let notify: @Sendable (Int, String?) -> Void = { [weak self] count, type in
            // No progress for a request that was cancelled (nor any other message for it).
            guard let self, let token, !Task.isCancelled, !self.session.withLock({ $0.isCancelled(key) })
            else { return }
            self.write(MCPSession.progress(token: token, count: count, message: type))
        }
        // At most 10 a second (an endless stream would otherwise flood the client); the last one
        // held back goes out before the result, so the client sees the final count.
        let progress: @Sendable (Int, String?) -> Void = { count, type in
            if pace.allows() { notify(count, type) } else { pace.hold(count, type) }
        }
        let toolCall = MCPToolCall(operation: operation, client: client, options: options, progress: progress)
        let result = await toolCall.run(arguments, validator: SchemaValidator(schemas: schemas), schema: schema)
        if let (count, type) = pace.takeHeld() { notify(count, type) }
        return result
    }

    /// The dynamic mode's tools.
    private func dynamic(_ name: String, _ call: MCPCall) async -> ToolResult {
        let arguments = call.arguments
        switch name {
        case "list_api_endpoints":
            let search = (arguments["search_query"]?.string ?? arguments["search"]?.string ?? "").lowercased()
            let found = toolSet.tools().endpoints.values.sorted { $0.name < $1.name }.filter { tool in
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
            return .result(
                MCPToolCall.text(JSON.object([.init("endpoints", list)]).compact)
                    .setting("structuredContent", .object([.init("endpoints", list)])))
        case "get_api_endpoint_schema":
            guard let endpoint = arguments["endpoint"]?.string, let tool = toolSet.tools().endpoints[endpoint] else {
                return .result(
                    MCPToolCall.error(
                        "No endpoint \(arguments["endpoint"]?.compact ?? "(none)"): list_api_endpoints gives their names."
                    ))
            }
            // The whole input schema, references kept and their definitions attached.
            var described = tool.definition.setting("inputSchema", schemas.withDefinitions(tool.validationSchema))
            if case .object(var members) = described {
                members.removeAll { $0.key == "outputSchema" }
                described = .object(members)
            }
            return .result(MCPToolCall.text(described.compact).setting("structuredContent", described))
        case "invoke_api_endpoint":
            let name = arguments["endpoint_name"] ?? arguments["endpoint"]
            guard let endpoint = name?.string, let tool = toolSet.tools().endpoints[endpoint],
                let operation = tool.operation
            else {
                return .result(
                    MCPToolCall.error(
                        "No endpoint \(name?.compact ?? "(none)"): `endpoint_name` takes a name list_api_endpoints gives."
                    ))
            }
            return await invoke(
                operation, arguments: arguments["args"] ?? .object([]), schema: tool.validationSchema, call: call)
        default:
            return .result(MCPToolCall.error("Unknown tool \(name)."))
        }
    }

    /// One message, one line (compact JSON escapes every newline).
    private func write(_ message: JSON) {
        try? output.line(message.compact)
    }
}

/// The tools of one server, built on first use (an `initialize` is answered without building them).
private final class ToolSet: Sendable {
    struct Tools: Sendable {
        var list: [MCPTool]
        var byName: [String: MCPTool]
        /// Every served operation's tool, for the dynamic mode's lookups.
        var endpoints: [String: MCPTool]
    }

    private let operations: [APIOperation]
    private let mode: MCPOptions.Mode
    private let built = Locked<Tools?>(nil)

    init(operations: [APIOperation], mode: MCPOptions.Mode) {
        self.operations = operations
        self.mode = mode
    }

    /// One tool per operation (or, in dynamic mode, the three that find, describe and call them)
    /// and every operation's tool by name.
    func tools() -> Tools {
        built.withLock { built in
            if let built { return built }
            var endpoints: [String: MCPTool] = [:]
            var list: [MCPTool] = []
            for operation in operations {
                let tool = MCPTool.forOperation(operation, schemas: .shared)
                endpoints[tool.name] = tool
                list.append(tool)
            }
            if mode == .dynamic { list = MCPTool.dynamic }
            let tools = Tools(
                list: list, byName: Dictionary(list.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first }),
                endpoints: endpoints)
            built = tools
            return tools
        }
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
