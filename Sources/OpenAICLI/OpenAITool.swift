import Foundation
import OpenAIRuntime

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
    ///   - stdin: Standard input's bytes for a body, read only when an operation has one and standard
    ///     input is a pipe or a file; `nil` when there is none. They must be UTF-8.
    ///   - transport: The HTTP transport (tests).
    package static func run(
        _ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
        terminal: Terminal = Terminal(), stdin: @Sendable () -> Data? = OpenAITool.standardInput,
        transport: (any HTTPTransport)? = nil
    ) async -> Int32 {
        let catalogue = Catalogue.shared
        if arguments.first == "__complete" {
            let line = arguments.count >= 3 && arguments[1] == "--line" ? arguments[2] : ""
            let candidates = Completion.candidates(line: line, catalogue: catalogue)
            return (try? terminal.write(Data(candidates.map { $0 + "\n" }.joined().utf8))) == nil ? 1 : 0
        }
        do {
            switch try Invocation.parse(arguments, catalogue: catalogue) {
            case .help(let text):
                try terminal.line(text)
            case .version:
                try terminal.line(version)
            case .completion(let shell):
                try terminal.line(Completion.script(shell))
            case .mcp(let options) where options.help:
                try terminal.line(MCPOptions.usage)
            case .mcp(let options):
                let server = try MCPServer(
                    options: options, environment: environment, output: terminal, transport: transport)
                if options.list {
                    for tool in server.tools {
                        let summary = tool.definition["title"]?.string ?? ""
                        try terminal.line(tool.name + "\t" + summary)
                    }
                    terminal.error("\(server.tools.count) tools")
                } else {
                    terminal.error(
                        "openai mcp: \(server.operationCount) operations"
                            + (options.mode == .dynamic ? " behind 3 tools" : " as tools")
                            + ", on standard input and output")
                    await server.serve(lines: MCPServer.standardInputLines(maxLineBytes: options.maxLineBytes))
                }
            case .call(let call):
                let input = try RequestInput(
                    operation: call.operation, values: call.values, nested: call.nested,
                    stdinBody: call.operation.body == nil ? nil : try stdin().map(Self.text(ofStandardInput:)),
                    stdinFileFolders: call.fileFolders)
                for note in input.notes { terminal.error(note) }
                let client = try makeClient(
                    call.globals, environment: environment, transport: transport, operation: call.operation)
                do {
                    try await OperationCall(call: call, input: input, client: client, terminal: terminal).run()
                    try terminal.finish(success: true)
                } catch {
                    try? terminal.finish(success: false)
                    throw error
                }
            }
            return ExitStatus.success
        } catch {
            return report(error, terminal: terminal)
        }
    }

    /// Standard input's bytes when it is a pipe or a regular file (not a terminal, not `/dev/null`
    /// or another device) and not empty, else `nil`.
    package static let standardInput: @Sendable () -> Data? = {
        var info = stat()
        guard fstat(STDIN_FILENO, &info) == 0 else { return nil }
        let type = Int(info.st_mode) & Int(S_IFMT)
        guard type == Int(S_IFIFO) || type == Int(S_IFREG) else { return nil }
        let data = FileHandle.standardInput.readDataToEndOfFile()
        return data.isEmpty ? nil : data
    }

    /// Standard input's bytes as text: UTF-8, never repaired (a body is sent as written or not at
    /// all).
    ///
    /// - Throws: ``CLIError/usage(_:usage:)`` naming the line, column and byte of the first byte
    ///   that is not UTF-8.
    static func text(ofStandardInput data: Data) throws -> String {
        if let text = String(data: data, encoding: .utf8) { return text }
        var iterator = data.makeIterator()
        var decoder = UTF8()
        var offset = 0
        var line = 1
        var column = 1
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                offset += UTF8.width(scalar)
                if scalar == "\n" {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
            case .emptyInput:
                throw CLIError.usage("standard input is not UTF-8 text")
            case .error:
                let byte = data[data.startIndex + offset]
                throw CLIError.usage(
                    "standard input is not UTF-8 text: the byte 0x\(String(byte, radix: 16, uppercase: true)) at "
                        + "line \(line), column \(column) (byte \(offset + 1)) starts no UTF-8 character; the body "
                        + "is sent as written or not at all")
            }
        }
    }

    /// The client configured as `OpenAIClient()` configures it (``OpenAIClient/Configuration/fromEnvironment(_:)``,
    /// or Azure's when `AZURE_OPENAI_ENDPOINT` is set), then the global flags over it.
    ///
    /// - Throws: ``CLIError/usage(_:usage:)`` when the operation's credential is missing (an admin
    ///   command without an admin key, another without an API key) or the base URL is not an HTTP
    ///   URL; ``OpenAIError`` when the configuration is not usable.
    static func makeClient(
        _ globals: GlobalOptions, environment: [String: String], transport: (any HTTPTransport)?,
        operation: APIOperation
    ) throws -> OpenAIClient {
        var configuration = try configuration(globals, environment: environment)
        let azure = configuration.azure != nil
        // Each kind of command gets its own kind of key: an admin key is not sent to the API's other
        // endpoints, nor a project key to the admin ones.
        if operation.admin {
            guard configuration.adminAPIKey != nil else {
                throw CLIError.usage(
                    "`openai \(operation.command)` needs an admin key: set OPENAI_ADMIN_KEY or give --admin-api-key")
            }
        } else if configuration.apiKey == nil && !azure {
            throw CLIError.usage(
                "`openai \(operation.command)` needs an API key: set OPENAI_API_KEY or give --api-key")
        } else if !azure {
            configuration.adminAPIKey = nil
        }
        if let transport { return try OpenAIClient(configuration: configuration, transport: transport) }
        return try OpenAIClient(configuration: configuration)
    }

    /// The configuration `OpenAIClient()` reads from the environment (Azure's when
    /// `AZURE_OPENAI_ENDPOINT` is set), the global flags over it.
    ///
    /// - Throws: ``CLIError/usage(_:usage:)`` when the base URL is not an HTTP URL; ``OpenAIError``
    ///   for Azure settings that are incomplete.
    static func configuration(
        _ globals: GlobalOptions, environment: [String: String]
    ) throws -> OpenAIClient.Configuration {
        var configuration: OpenAIClient.Configuration
        if environment["AZURE_OPENAI_ENDPOINT"].map({ !$0.isEmpty }) ?? false {
            configuration = try .azureFromEnvironment(environment: environment)
        } else {
            configuration = .fromEnvironment(environment)
        }
        if let key = globals.apiKey { configuration.apiKey = key }
        if let key = globals.adminAPIKey { configuration.adminAPIKey = key }
        // The tool holds these keys: masked in every spelling a server could echo them in, in every
        // error, `--debug` line and MCP result from now on.
        for key in [configuration.apiKey, configuration.adminAPIKey] {
            if let key { Redaction.registerEverySpelling(of: key) }
        }
        if let organization = globals.organization { configuration.organization = organization }
        if let project = globals.project { configuration.project = project }
        if let base = globals.baseURL {
            guard let url = URL(string: base) else { throw CLIError.usage("--base-url is not a URL") }
            configuration.baseURL = url
        }
        let url = configuration.baseURL
        guard url.scheme == "http" || url.scheme == "https", url.host != nil else {
            throw CLIError.usage("the base URL (--base-url or OPENAI_BASE_URL) is not an http or https URL")
        }
        if globals.debug { configuration.logger = .standardError(level: .debug) }
        if let seconds = globals.timeout {
            configuration.requestTimeout = seconds
            configuration.idleTimeout = min(configuration.idleTimeout, seconds)
        }
        return configuration
    }

    /// Prints `error` on standard error (secrets masked, control characters escaped) and returns
    /// its exit status (``ExitStatus``).
    static func report(_ error: any Error, terminal: Terminal) -> Int32 {
        func say(_ text: String) { terminal.error(Self.printable(Redaction.text(text))) }
        switch error {
        case CLIError.usage(let message, let usage):
            say("error: " + message)
            if let usage { say(usage + "\n(`--help` for the flags)") }
            return ExitStatus.usage
        case CLIError.failure(let message):
            say("error: " + message)
            return ExitStatus.failure
        case let error as OpenAIError:
            var lines = ["error: " + error.message]
            var details: [String] = []
            if let status = error.statusCode { details.append("status \(status)") }
            if let type = error.type { details.append("type \(type)") }
            if let code = error.code { details.append("code \(code)") }
            if let param = error.param { details.append("param \(param)") }
            if !details.isEmpty { lines.append("  " + details.joined(separator: ", ")) }
            if let requestID = error.requestID { lines.append("  request id: \(requestID)") }
            say(lines.joined(separator: "\n"))
            return status(of: error)
        case let error as JSONSyntaxError:
            say("error: the reply is not JSON: \(error)")
            return ExitStatus.failure
        default:
            say("error: \(error)")
            return ExitStatus.failure
        }
    }

    /// `text` with control characters other than newline and tab as `\u{…}`, so that a server's
    /// message cannot drive the terminal.
    static func printable(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if scalar.properties.generalCategory == .control && scalar != "\n" && scalar != "\t" {
                result += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// The exit status of an API error: 4 for a 4xx reply, 5 for 5xx or an error event in a stream,
    /// 6 for no reply, 7 for a stream cut off, 2 for a request the client refused to send.
    static func status(of error: OpenAIError) -> Int32 {
        if let status = error.statusCode, error.kind != .truncatedEvent {
            return (400..<500).contains(status) ? ExitStatus.clientError : status >= 500 ? ExitStatus.serverError : 1
        }
        switch error.kind {
        case .connection, .timeout: return ExitStatus.connection
        case .truncatedEvent, .missingTerminalEvent, .unfinishedChoices: return ExitStatus.incomplete
        case .invalidRequest: return ExitStatus.usage
        case .cancelled: return ExitStatus.interrupted
        case .server: return ExitStatus.serverError
        default: return ExitStatus.failure
        }
    }
}
