import Foundation
import OpenAIRuntime

/// A JSON-RPC 2.0 error object (JSON-RPC 2.0 section 5.1): the codes `openai mcp` answers with.
package struct JSONRPCError: Error, Equatable, Sendable {
    /// JSON-RPC's own codes (-32700 to -32600), or the server-defined ones MCP uses (-32000, -32022).
    package var code: Int
    /// One sentence for a person: what was wrong and what to do.
    package var message: String
    /// Details a client can read (the versions supported, for -32022).
    package var data: JSON?

    /// -32700: the line is not JSON.
    package static let parseError = JSONRPCError(code: -32700, message: "Parse error: the line is not JSON")

    /// -32600: the message is not a valid request object (a batch, a bad `jsonrpc`, `id` or line).
    package static func invalidRequest(_ detail: String) -> Self {
        Self(code: -32600, message: "Invalid Request: " + detail)
    }

    /// -32601: a method the server does not have.
    package static func methodNotFound(_ method: String) -> Self {
        Self(code: -32601, message: "Method not found: " + method)
    }

    /// -32602: the method's parameters are wrong (a tool that does not exist, and under MCP
    /// 2025-06-18 arguments that do not match the tool's input schema).
    package static func invalidParams(_ detail: String) -> Self {
        Self(code: -32602, message: "Invalid params: " + detail)
    }

    /// -32000: the server already holds as many calls as it may; the request was not run.
    package static func serverBusy(_ detail: String) -> Self {
        Self(code: -32000, message: "Server busy: " + detail)
    }

    /// -32022 (MCP 2026-07-28): a protocol version the server does not speak, with the ones it does.
    package static func unsupportedProtocolVersion(_ requested: String, supported: [String]) -> Self {
        Self(
            code: -32022, message: "Unsupported protocol version",
            data: .object([
                .init("supported", .array(supported.map(JSON.string))), .init("requested", .string(requested)),
            ]))
    }

    /// The error object: `code`, `message`, and `data` when there is some.
    package var object: JSON {
        var members: [JSON.Member] = [.init("code", .number(String(code))), .init("message", .string(message))]
        if let data { members.append(.init("data", data)) }
        return .object(members)
    }
}

/// What running a tool gave.
package enum ToolResult: Equatable, Sendable {
    /// A `CallToolResult`: `content`, and `structuredContent` or `isError: true` when it has them.
    case result(JSON)
    /// The arguments do not match the tool's input schema, one problem per entry: an error result
    /// (`isError: true`), or under MCP 2025-06-18 the protocol error -32602.
    case invalidArguments([String])

    /// The text of ``invalidArguments(_:)``.
    static func invalidArgumentsText(_ problems: [String]) -> String {
        "The arguments do not match the tool's input schema:\n- " + problems.joined(separator: "\n- ")
    }
}

/// The revision a message is served under.
package enum MCPEra: Equatable, Sendable {
    /// A session `initialize` opened (2025-06-18 or 2025-11-25), or a request before one.
    case legacy(String)
    /// 2026-07-28: each request carries its version and the client's capabilities in `_meta`.
    case modern
}

/// A `tools/call` the session accepted, for the server to run.
package struct MCPCall: Equatable, Sendable {
    /// The request's `id`, as sent.
    package var id: JSON
    /// The id as compact JSON: the key of the call among those in flight.
    package var key: String
    /// The tool's name.
    package var tool: String
    /// The tool's arguments, an object.
    package var arguments: JSON
    /// `params._meta.progressToken`: progress notifications carry it.
    package var progressToken: JSON?
    package var era: MCPEra
}

/// What the server is to do after a message: the session itself does no I/O.
package enum MCPAction: Equatable, Sendable {
    /// Write this message (one line).
    case send(JSON)
    /// Run this call (concurrently with others), then report it with ``MCPSession/finish(_:with:)``.
    case start(MCPCall)
    /// Cancel the running call of this key (its request was cancelled).
    case cancel(key: String)
}

/// The Model Context Protocol session of `openai mcp`, without I/O: it takes each message and says
/// what to do (``MCPAction``), so the protocol is tested message by message.
///
/// Revisions 2025-06-18 and 2025-11-25 (a session opened by `initialize`, the version negotiated
/// there) and 2026-07-28 (stateless: each request carries its version and the client's capabilities
/// in `params._meta`; `server/discover` describes the server), on one stream, each message served by
/// the revision it speaks. A malformed message gets the JSON-RPC error it deserves; the session goes on.
package struct MCPSession: Sendable {
    /// The revisions served, newest first.
    package static let versions = ["2026-07-28", "2025-11-25", "2025-06-18"]
    static let legacyVersions: Set<String> = ["2025-11-25", "2025-06-18"]
    static let metaVersion = "io.modelcontextprotocol/protocolVersion"
    static let metaCapabilities = "io.modelcontextprotocol/clientCapabilities"
    static let metaServerInfo = "io.modelcontextprotocol/serverInfo"
    /// The most calls that wait for a turn; one more is refused (-32000) rather than held.
    package static let maxWaitingCalls = 1024

    /// What the session needs of the tools: their definitions (for `tools/list`) and whether one
    /// exists (for `tools/call`). Both may build the tools on first use.
    package struct Tools: Sendable {
        package var definitions: @Sendable () -> [JSON]
        package var contains: @Sendable (String) -> Bool

        package init(definitions: @escaping @Sendable () -> [JSON], contains: @escaping @Sendable (String) -> Bool) {
            self.definitions = definitions
            self.contains = contains
        }
    }

    private let tools: Tools
    /// The most calls that run at once (``MCPOptions/maxConcurrentCalls``).
    let maxConcurrentCalls: Int
    /// The most bytes of arguments the calls in flight hold together (``MCPServer/maxHeldArgumentBytes``);
    /// a call that would pass it is refused unless none is in flight.
    let maxHeldArgumentBytes: Int
    /// The most bytes of text a tool result carries (`--max-result-bytes`).
    let maxResultBytes: Int
    /// The most bytes a line may take (`--max-line-bytes`).
    let maxLineBytes: Int

    /// The version `initialize` negotiated (the legacy session of this stream).
    package private(set) var legacyVersion: String?
    /// The calls in flight (running or waiting for a turn), by key: the bytes of their arguments.
    private var inFlight: [String: Int] = [:]
    private var heldBytes = 0
    /// Keys whose call was cancelled while in flight: no response is sent for them.
    private var cancelled: Set<String> = []

    package init(
        tools: Tools, maxConcurrentCalls: Int, maxHeldArgumentBytes: Int, maxResultBytes: Int, maxLineBytes: Int
    ) {
        self.tools = tools
        self.maxConcurrentCalls = maxConcurrentCalls
        self.maxHeldArgumentBytes = maxHeldArgumentBytes
        self.maxResultBytes = maxResultBytes
        self.maxLineBytes = maxLineBytes
    }

    /// How many calls are in flight.
    package var callsInFlight: Int { inFlight.count }

    /// Whether the call of `key` was cancelled (it must not start, nor send progress).
    package func isCancelled(_ key: String) -> Bool { cancelled.contains(key) }

    // MARK: Messages in

    /// A line of the input, trimmed of spaces; an empty one is nothing.
    package mutating func receive(_ line: String) -> [MCPAction] {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return [] }
        guard let message = try? JSON.parse(Array(trimmed.utf8)) else { return [error(.parseError, id: .null)] }
        guard case .object = message else {
            // Batches are not part of MCP (removed in 2025-06-18).
            return [error(.invalidRequest("one JSON-RPC object per line (no batches)"), id: .null)]
        }
        guard message["jsonrpc"] == .string("2.0") else {
            return [error(.invalidRequest("`jsonrpc` must be \"2.0\""), id: Self.validID(message["id"]) ?? .null)]
        }
        guard let method = message["method"]?.string else {
            // A response to a request of ours (the server sends none) or nonsense.
            guard message["result"] == nil && message["error"] == nil else { return [] }
            return [error(.invalidRequest("no `method`"), id: Self.validID(message["id"]) ?? .null)]
        }
        let params = message["params"] ?? .object([])
        guard let rawID = message["id"] else { return notification(method, params: params) }
        guard let id = Self.validID(rawID) else {
            return [error(.invalidRequest("`id` must be a string or an integer"), id: .null)]
        }
        guard case .object = params else { return [error(.invalidParams("`params` must be an object"), id: id)] }
        return request(method, params: params, id: id)
    }

    /// A line of `bytes` bytes, over ``maxLineBytes``, that was dropped unread.
    package func lineTooLong(_ bytes: Int) -> [MCPAction] {
        [
            error(
                .invalidRequest(
                    "a line of \(bytes) bytes, more than the \(maxLineBytes) a message may take (--max-line-bytes); "
                        + "it was not read"),
                id: .null)
        ]
    }

    /// `id` when JSON-RPC allows it as a request id: a string or an integer.
    static func validID(_ id: JSON?) -> JSON? {
        switch id {
        case .string?: return id
        case .number(let text)? where Int(text) != nil: return id
        default: return nil
        }
    }

    private mutating func notification(_ method: String, params: JSON) -> [MCPAction] {
        // notifications/initialized and the rest: nothing to do.
        guard method == "notifications/cancelled", let id = Self.validID(params["requestId"]) else { return [] }
        let key = id.compact
        guard inFlight[key] != nil else { return [] }
        cancelled.insert(key)
        return [.cancel(key: key)]
    }

    private mutating func request(_ method: String, params: JSON, id: JSON) -> [MCPAction] {
        // The era: a request with the 2026-07-28 envelope is served statelessly; `initialize` opens a
        // legacy session; any other request is served in the legacy session (opened or not).
        let meta = params["_meta"]
        if let version = meta?[Self.metaVersion] {
            guard let version = version.string, meta?[Self.metaCapabilities] != nil else {
                return [error(.invalidParams("`_meta` needs \(Self.metaVersion) and \(Self.metaCapabilities)"), id: id)]
            }
            guard version == "2026-07-28" else {
                return [error(.unsupportedProtocolVersion(version, supported: Self.versions), id: id)]
            }
            return serve(method, params: params, id: id, era: .modern)
        }
        switch method {
        case "initialize":
            let requested = params["protocolVersion"]?.string ?? ""
            let version = Self.legacyVersions.contains(requested) ? requested : "2025-11-25"
            legacyVersion = version
            return [
                result(
                    .object([
                        .init("protocolVersion", .string(version)), .init("capabilities", Self.capabilities),
                        .init("serverInfo", Self.serverInfo), .init("instructions", .string(Self.instructions)),
                    ]), id: id, era: .legacy(version))
            ]
        case "server/discover":
            return [error(.invalidParams("server/discover needs `_meta` with \(Self.metaVersion)"), id: id)]
        default:
            return serve(method, params: params, id: id, era: .legacy(legacyVersion ?? "2025-11-25"))
        }
    }

    static let serverInfo: JSON = .object([
        .init("name", .string("openai")), .init("title", .string("OpenAI API")),
        .init("version", .string(OpenAIClient.sdkVersion)),
    ])

    static let capabilities: JSON = .object([.init("tools", .object([.init("listChanged", .bool(false))]))])

    static let instructions =
        "Tools for every operation of the OpenAI API (or, in dynamic mode, three tools that find, describe and call them). "
        + "A list tool returns one page and the cursor of the next."

    private mutating func serve(_ method: String, params: JSON, id: JSON, era: MCPEra) -> [MCPAction] {
        // How long a client may keep what `server/discover` and `tools/list` say (2026-07-28).
        let cache: [JSON.Member] = [.init("ttlMs", .number("3600000")), .init("cacheScope", .string("public"))]
        switch method {
        case "ping":
            return [result(.object([]), id: id, era: era)]
        case "server/discover":
            let members: [JSON.Member] = [
                .init("supportedVersions", .array(Self.versions.map(JSON.string))),
                .init("capabilities", Self.capabilities), .init("instructions", .string(Self.instructions)),
            ]
            return [result(.object(members + cache), id: id, era: era)]
        case "tools/list":
            if let cursor = params["cursor"], cursor != .null {
                return [error(.invalidParams("unknown cursor \(cursor.compact) (the list has one page)"), id: id)]
            }
            let members: [JSON.Member] = [.init("tools", .array(tools.definitions()))]
            return [result(.object(era == .modern ? members + cache : members), id: id, era: era)]
        case "tools/call":
            return call(params: params, id: id, era: era)
        default:
            return [error(.methodNotFound(method), id: id)]
        }
    }

    // MARK: Calls

    private mutating func call(params: JSON, id: JSON, era: MCPEra) -> [MCPAction] {
        guard let name = params["name"]?.string else {
            return [error(.invalidParams("tools/call needs a `name`"), id: id)]
        }
        guard tools.contains(name) else { return [error(.invalidParams("unknown tool \(name)"), id: id)] }
        let arguments = params["arguments"].flatMap { $0 == .null ? nil : $0 } ?? .object([])
        guard case .object = arguments else {
            return [error(.invalidParams("`arguments` must be an object"), id: id)]
        }
        let key = id.compact
        guard inFlight[key] == nil else {
            // With id null: an answer with the id would reach the call still running under it.
            return [
                error(
                    .invalidRequest("the id \(key) belongs to a request still in flight; this one was not run"),
                    id: .null)
            ]
        }
        // Running and waiting calls together are bounded, by count and by the bytes they hold.
        let size = arguments.compact.utf8.count
        guard inFlight.count < maxConcurrentCalls + Self.maxWaitingCalls,
            inFlight.isEmpty || heldBytes + size <= maxHeldArgumentBytes
        else {
            return [
                error(
                    .serverBusy(
                        "\(maxConcurrentCalls) calls run and the rest wait, up to \(Self.maxWaitingCalls) calls or "
                            + "\(maxHeldArgumentBytes) bytes of arguments; send it again later"),
                    id: id)
            ]
        }
        cancelled.remove(key)  // An id may be used again once its request is over.
        inFlight[key] = size
        heldBytes += size
        return [
            .start(
                MCPCall(
                    id: id, key: key, tool: name, arguments: arguments,
                    progressToken: params["_meta"]?["progressToken"], era: era))
        ]
    }

    /// A call is over: `result` is what it gave, `nil` when it did not run (cancelled before its
    /// turn). A cancelled call gets no response (2026-07-28: no further message at all).
    package mutating func finish(_ call: MCPCall, with result: ToolResult?) -> [MCPAction] {
        heldBytes -= inFlight.removeValue(forKey: call.key) ?? 0
        guard cancelled.remove(call.key) == nil, let result else { return [] }
        switch result {
        case .invalidArguments(let problems) where call.era == .legacy("2025-06-18"):
            // 2025-06-18 lists invalid arguments under the protocol's errors.
            return [error(.invalidParams(ToolResult.invalidArgumentsText(problems)), id: call.id)]
        case .invalidArguments(let problems):
            return [
                self.result(MCPToolCall.error(ToolResult.invalidArgumentsText(problems)), id: call.id, era: call.era)
            ]
        case .result(let value):
            return [self.result(bounded(value), id: call.id, era: call.era)]
        }
    }

    /// `result`, or an error result when its text is over ``maxResultBytes``.
    private func bounded(_ result: JSON) -> JSON {
        let size = (result["content"]?.array ?? []).reduce(0) { $0 + ($1["text"]?.string?.utf8.count ?? 0) }
        guard size > maxResultBytes else { return result }
        return MCPToolCall.error(
            "The result is \(size) bytes of text, more than the \(maxResultBytes) a tool result carries "
                + "(--max-result-bytes): ask for less (a smaller `limit`, fewer `include`s).")
    }

    // MARK: Messages out

    /// A `notifications/progress` for a call's progress token: `count` events so far, `message` the last one's type.
    package static func progress(token: JSON, count: Int, message: String?) -> JSON {
        var params: [JSON.Member] = [.init("progressToken", token), .init("progress", .number(String(count)))]
        if let message { params.append(.init("message", .string(message))) }
        return .object([
            .init("jsonrpc", .string("2.0")), .init("method", .string("notifications/progress")),
            .init("params", .object(params)),
        ])
    }

    private func result(_ result: JSON, id: JSON, era: MCPEra) -> MCPAction {
        var result = result
        if era == .modern {
            result = result.setting("resultType", .string("complete"))
            let meta = (result["_meta"] ?? .object([])).setting(Self.metaServerInfo, Self.serverInfo)
            result = result.setting("_meta", meta)
        }
        return .send(.object([.init("jsonrpc", .string("2.0")), .init("id", id), .init("result", result)]))
    }

    private func error(_ error: JSONRPCError, id: JSON) -> MCPAction {
        .send(.object([.init("jsonrpc", .string("2.0")), .init("id", id), .init("error", error.object)]))
    }
}
