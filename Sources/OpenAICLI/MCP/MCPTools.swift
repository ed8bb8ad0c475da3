import Foundation
import OpenAICommandLine

/// What `openai mcp` serves and how (its command line).
package struct MCPOptions: Sendable {
    /// `--tools all` (one tool per operation) or `dynamic` (three tools that find, describe and call
    /// operations).
    package enum Mode: String, Sendable { case all, dynamic }

    package var globals = GlobalOptions()
    package var mode = Mode.all
    /// `--resource PATTERN`: only these resources (`*` and `?` wildcards, `vector-stores*`); all when empty.
    package var resources: [String] = []
    /// `--operation NAME`: only these operations (tool name, command or operationId); all when empty.
    package var operations: [String] = []
    /// `--no-<resource>`: without these resources and those below them.
    package var excluded: [String] = []
    /// `--read-only`: only `GET` operations.
    package var readOnly = false
    /// `--list`: print the tools and exit instead of serving.
    package var list = false
    /// `--help`: print the usage and exit.
    package var help = false
    /// The most bytes of one tool result's text (`--max-result-bytes`); a larger result is an error
    /// result that says so.
    package var maxResultBytes = 200_000
    /// The most bytes of a binary reply sent as an embedded resource (`--max-binary-bytes`).
    package var maxBinaryBytes = 4 << 20
    /// The most tool calls that run at once (`--max-concurrent-calls`); later ones wait their turn,
    /// in order, so that the calls in flight hold a bounded number of connections and descriptors.
    package var maxConcurrentCalls = 16
    /// The longest line (one JSON-RPC message) read, in bytes (`--max-line-bytes`): 16 MiB, room
    /// for a data URL of a 12 MB file. A longer one is dropped as it arrives and answered with
    /// an error, so memory stays bounded whatever the client sends.
    package var maxLineBytes = 16 << 20
    /// The most bytes of arguments the calls in flight (running and waiting) hold together: four
    /// lines of the largest size (64 MiB by default); a call that would pass it is refused (-32000)
    /// unless none is in flight. The count of calls bounds many small calls, this a few large ones.
    package var maxHeldArgumentBytes: Int { maxLineBytes * 4 }
    /// Folders a tool's file argument may name as `@path` (`--allow-files DIR`); none by default, so
    /// a model can send only `data:` URLs and cannot make the server upload a local file.
    package var fileFolders: [String] = []
    /// The size budget of one tool's `inputSchema` in bytes of compact JSON (``SchemaSet/inlined(_:budget:loose:)``).
    package static let inputSchemaBudget = 16_384
    /// The size budget of one tool's `outputSchema`.
    package static let outputSchemaBudget = 4_096

    package init() {}

    /// The usage of `openai mcp`.
    package static let usage = """
        usage: openai mcp [--tools all|dynamic] [--resource PATTERN]... [--operation NAME]... [--no-RESOURCE]...
                          [--read-only] [--list] [--max-result-bytes N] [--max-binary-bytes N]
                          [--max-concurrent-calls N] [--max-line-bytes N] [--allow-files DIR]... [global flags]

        An MCP server over standard input and output (protocol revisions 2025-06-18, 2025-11-25, 2026-07-28): one
        tool per operation (`responses_create`), or with --tools dynamic three tools (list_api_endpoints,
        get_api_endpoint_schema, invoke_api_endpoint). Admin tools only with an admin key. --list prints the tools.
        A file argument is a data: URL, or with --allow-files DIR a local file under DIR as @path.
        At most --max-concurrent-calls calls (16) run at once, the others wait in order; progress notifications
        come at most 10 a second per call; --timeout SECONDS bounds each attempt of a call. A message (one line)
        longer than --max-line-bytes (16 MiB) is answered with an error and not read.
        """

    /// Parses the words after `openai mcp`.
    ///
    /// - Throws: ``CLIError/usage(_:usage:)`` for an unknown flag or a bad value.
    package static func parse(_ words: [String]) throws -> MCPOptions {
        var options = MCPOptions()
        var scanner = FlagScanner(words)
        func value(_ name: String, _ inline: String?) throws -> String {
            guard let value = scanner.value(inline: inline) else {
                throw CLIError.usage("--\(name) needs a value", usage: usage)
            }
            return value
        }
        while let token = scanner.next() {
            let name: String
            let inline: String?
            switch token {
            case .help:
                options.help = true
                continue
            case .positional(let word):
                throw CLIError.usage("openai mcp takes no argument `\(word)`", usage: usage)
            case .flag(let flag, let value):
                (name, inline) = (flag, value)
            }
            switch name {
            case "tools":
                let given = try value(name, inline)
                guard let mode = Mode(rawValue: given) else {
                    throw CLIError.usage("--tools takes all or dynamic, not `\(given)`", usage: usage)
                }
                options.mode = mode
            case "resource": options.resources.append(try value(name, inline))
            case "allow-files":
                let folder = URL(fileURLWithPath: try value(name, inline)).resolvingSymlinksInPath().standardized
                var isFolder: ObjCBool = false
                guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue
                else { throw CLIError.usage("--allow-files \(folder.path) is not a folder", usage: usage) }
                options.fileFolders.append(folder.path)
            case "operation": options.operations.append(try value(name, inline))
            case "read-only": options.readOnly = true
            case "list": options.list = true
            case "debug": options.globals.debug = true
            case "max-result-bytes", "max-binary-bytes":
                let given = try value(name, inline)
                guard let number = Int(given), number >= 1024 else {
                    throw CLIError.usage("--\(name) takes a whole number of at least 1024", usage: usage)
                }
                if name == "max-result-bytes" {
                    options.maxResultBytes = number
                } else {
                    options.maxBinaryBytes = number
                }
            case "max-line-bytes":
                let given = try value(name, inline)
                guard let number = Int(given), number >= 1024, number <= 1 << 30 else {
                    throw CLIError.usage("--\(name) takes a whole number from 1024 to 1073741824", usage: usage)
                }
                options.maxLineBytes = number
            case "max-concurrent-calls":
                let given = try value(name, inline)
                guard let number = Int(given), (1...256).contains(number) else {
                    throw CLIError.usage("--\(name) takes a whole number from 1 to 256", usage: usage)
                }
                options.maxConcurrentCalls = number
            case _ where name.hasPrefix("no-") && name.count > 3:
                options.excluded.append(String(name.dropFirst(3)))
            case _ where GlobalOptions.valued.contains(name):
                try options.globals.set(name, try value(name, inline))
            case "help":
                options.help = true
            default:
                throw CLIError.usage(
                    "unknown flag --\(name) for `openai mcp`"
                        + Suggestion.didYouMean(
                            name,
                            among: [
                                "tools", "resource", "operation", "read-only", "list", "max-result-bytes",
                                "max-binary-bytes", "max-concurrent-calls", "max-line-bytes", "allow-files", "debug",
                            ] + Array(GlobalOptions.valued), prefix: "--"),
                    usage: usage)
            }
        }
        return options
    }

    /// Whether the operation is served: its resource matches `--resource` (when given) and no
    /// `--no-…`, its name `--operation` (when given), it reads (with `--read-only`), and an admin
    /// one only with an admin key.
    func includes(_ operation: APIOperation, hasAdminKey: Bool) -> Bool {
        if operation.admin && !hasAdminKey { return false }
        if readOnly && operation.httpMethod != "GET" { return false }
        let resource = operation.resource
        if excluded.contains(where: { resource == $0 || resource.hasPrefix($0 + ":") }) { return false }
        if !resources.isEmpty, !resources.contains(where: { Glob.matches(resource, $0) }) { return false }
        if !operations.isEmpty {
            let names = [MCPTool.name(operation), operation.command, operation.id]
            if !operations.contains(where: { pattern in names.contains { Glob.matches($0, pattern) } }) { return false }
        }
        return true
    }
}

/// `*` (any run) and `?` (any one character) patterns.
enum Glob {
    static func matches(_ text: String, _ pattern: String) -> Bool {
        let text = Array(text)
        let pattern = Array(pattern)
        var memo: [Int: Bool] = [:]
        func match(_ t: Int, _ p: Int) -> Bool {
            let key = t * (pattern.count + 1) + p
            if let known = memo[key] { return known }
            let result: Bool
            if p == pattern.count {
                result = t == text.count
            } else if pattern[p] == "*" {
                result = match(t, p + 1) || (t < text.count && match(t + 1, p))
            } else {
                result = t < text.count && (pattern[p] == "?" || pattern[p] == text[t]) && match(t + 1, p + 1)
            }
            memo[key] = result
            return result
        }
        return match(0, 0)
    }
}

/// One MCP tool: an operation, or one of the dynamic mode's three.
package struct MCPTool: Sendable {
    package var name: String
    /// The operation it calls (`nil` for the dynamic mode's tools).
    package var operation: APIOperation?
    /// The tool's definition (`Tool` of the MCP schema): name, title, description, inputSchema,
    /// outputSchema, annotations.
    package var definition: JSON
    /// The input schema arguments are checked against before anything is sent: the whole schema,
    /// its references resolved through the schema set.
    package var validationSchema: JSON

    /// The tool name of an operation, as the catalogue gives it (`CommandNaming.toolName` in the
    /// generator): its command in snake case (`vector-stores:files list` →
    /// `vector_stores_files_list`), at most 64 characters of `[A-Za-z0-9_]`.
    package static func name(_ operation: APIOperation) -> String { operation.tool }

    /// The tool of `operation`.
    package static func forOperation(_ operation: APIOperation, schemas: SchemaSet) -> MCPTool {
        let input = schemas.input(operation.id)
        var inputSchema = schemas.inlined(input, budget: MCPOptions.inputSchemaBudget)
        if inputSchema["properties"] == nil { inputSchema = inputSchema.setting("properties", .object([])) }
        // Deleting, and the methods that end or take away something (cancel a run, archive a
        // project), as the catalogue says (`CommandNaming.isDestructive` in the generator).
        let destructive = operation.destructive
        var description = operation.summary ?? operation.id
        if let text = operation.description, let paragraph = Self.firstParagraph(text), paragraph != description {
            description += "\n\n" + paragraph
        }
        description +=
            "\n\n`\(operation.httpMethod) \(operation.path)`" + (destructive ? " (destructive: it deletes)." : ".")
        if operation.stream != nil {
            description += " A streamed reply is collected into its final object."
        }
        if operation.page != nil {
            description += " Returns one page; pass its cursor (`\(operation.page!.cursor)`) for the next."
        }
        var members: [JSON.Member] = [
            .init("name", .string(name(operation))),
            .init("title", .string(operation.summary ?? "openai \(operation.command)")),
            .init("description", .string(description)),
            .init("inputSchema", inputSchema),
        ]
        if let output = outputSchema(operation, schemas: schemas) { members.append(.init("outputSchema", output)) }
        let method = operation.httpMethod
        members.append(
            .init(
                "annotations",
                .object([
                    .init("title", .string("openai \(operation.command)")),
                    .init("readOnlyHint", .bool(method == "GET")),
                    .init("destructiveHint", .bool(destructive)),
                    .init("idempotentHint", .bool(["GET", "PUT", "DELETE", "HEAD"].contains(method))),
                    .init("openWorldHint", .bool(true)),
                ])))
        return MCPTool(
            name: name(operation), operation: operation, definition: .object(members), validationSchema: input)
    }

    /// The output schema of a JSON reply that is an object: its members, named and described, and no
    /// other constraint, so a reply that differs from the spec where real servers differ still
    /// matches (the SDK reads such replies leniently too).
    static func outputSchema(_ operation: APIOperation, schemas: SchemaSet) -> JSON? {
        guard operation.reply == .json, var root = schemas.output(operation.id) else { return nil }
        // The reply's own type, through aliases (`$ref` to `$ref`).
        var hops = 0
        while let reference = root["$ref"]?.string, reference.hasPrefix("#/$defs/"), hops < 8,
            let definition = schemas.definitions[String(reference.dropFirst("#/$defs/".count))]
        {
            root = definition
            hops += 1
        }
        guard root["type"] == .string("object"), case .object(let properties)? = root["properties"] else { return nil }
        // Each member's description (its own, else its type's), at most 300 characters: the names and
        // what they mean, within a few KiB even for the largest replies.
        let described = properties.map { member -> JSON.Member in
            var text = member.value["description"]?.string
            if text == nil, let reference = member.value["$ref"]?.string, reference.hasPrefix("#/$defs/") {
                text = schemas.definitions[String(reference.dropFirst("#/$defs/".count))]?["description"]?.string
            }
            guard var text else { return .init(member.key, .object([])) }
            if text.count > 300 { text = String(text.prefix(299)) + "…" }
            return .init(member.key, .object([.init("description", .string(text))]))
        }
        var members: [JSON.Member] = [.init("type", .string("object")), .init("properties", .object(described))]
        if let text = root["description"] { members.append(.init("description", text)) }
        return .object(members)
    }

    static func firstParagraph(_ text: String) -> String? {
        let paragraph = text.components(separatedBy: "\n\n").first { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        return paragraph.map { $0.replacingOccurrences(of: "\n", with: " ") }
    }

    /// The dynamic mode's tools.
    package static let dynamic: [MCPTool] = {
        func object(_ properties: [JSON.Member], required: [String]) -> JSON {
            .object([
                .init("type", .string("object")), .init("properties", .object(properties)),
                .init("required", .array(required.map(JSON.string))),
            ])
        }
        func tool(_ name: String, _ title: String, _ description: String, _ input: JSON, readOnly: Bool) -> MCPTool {
            MCPTool(
                name: name, operation: nil,
                definition: .object([
                    .init("name", .string(name)), .init("title", .string(title)),
                    .init("description", .string(description)), .init("inputSchema", input),
                    .init(
                        "annotations",
                        .object([
                            .init("readOnlyHint", .bool(readOnly)), .init("destructiveHint", .bool(!readOnly)),
                            .init("idempotentHint", .bool(readOnly)), .init("openWorldHint", .bool(!readOnly)),
                        ])),
                ]), validationSchema: input)
        }
        /// A member of the given JSON type with its description.
        func member(_ name: String, _ type: String, _ description: String) -> JSON.Member {
            .init(name, .object([.init("type", .string(type)), .init("description", .string(description))]))
        }
        // The arguments are named as Stainless's MCP servers name them (`search_query`, `endpoint`,
        // `endpoint_name` and `args`), which agents' prompts are written against; the names of earlier
        // versions (`search`, and `endpoint` for invoke_api_endpoint) are still read.
        let endpoint = member("endpoint", "string", "The endpoint's name, e.g. `responses_create`.")
        return [
            tool(
                "list_api_endpoints", "List OpenAI API endpoints",
                "Lists the OpenAI API's endpoints (operations) whose name, command, path or summary contains the search text (all when it is empty): each endpoint's name, HTTP method and path, and summary.",
                object(
                    [member("search_query", "string", "Text to look for, any case (`vector store`, `files`).")],
                    required: []),
                readOnly: true),
            tool(
                "get_api_endpoint_schema", "Describe an OpenAI API endpoint",
                "The description and the JSON Schema of the arguments of one endpoint, by the name list_api_endpoints gives.",
                object([endpoint], required: ["endpoint"]), readOnly: true),
            tool(
                "invoke_api_endpoint", "Call an OpenAI API endpoint",
                "Calls one endpoint with arguments that match its schema (get_api_endpoint_schema); the arguments are checked before anything is sent.",
                object(
                    [
                        member("endpoint_name", "string", "The endpoint's name, e.g. `responses_create`."),
                        member("args", "object", "The endpoint's arguments, as its schema describes them."),
                    ],
                    required: ["endpoint_name"]), readOnly: false),
        ]
    }()
}
