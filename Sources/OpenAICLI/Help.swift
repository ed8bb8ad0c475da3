import Foundation
import OpenAICatalogueModel

/// The help texts, from the catalogue: the spec's summaries and each flag's type, values, facts
/// and whether it is required.
package enum Help {
    /// The first lines of `openai --help`.
    package static let rootUsage = """
        usage: openai <resource>[:<sub>…] <method> [--flag value…]
               openai <resource> --help | openai <resource> <method> --help
               openai completion bash|zsh|fish
               openai mcp [--tools all|dynamic] [--resource PATTERN]... (an MCP server: openai mcp --help)
        """

    /// `openai --help`: the grammar, the global flags, the exit statuses and every resource.
    package static func root(_ catalogue: Catalogue) -> String {
        var lines = [rootUsage, "", "The OpenAI API from the shell: every operation of the spec as a command.", ""]
        lines += [
            "Global flags (anywhere on the line):",
            "  --api-key KEY         the API key (default: OPENAI_API_KEY)",
            "  --admin-api-key KEY   the admin key for admin:… commands (default: OPENAI_ADMIN_KEY)",
            "  --base-url URL        the API's base URL (default: OPENAI_BASE_URL or https://api.openai.com/v1)",
            "  --organization ID     the OpenAI-Organization header (default: OPENAI_ORG_ID)",
            "  --project ID          the OpenAI-Project header (default: OPENAI_PROJECT_ID)",
            "  --format FORMAT       auto (pretty on a terminal, else json), json, jsonl, pretty, yaml, raw",
            "  --transform PATH      print part of the reply: data.#.id, usage.total_tokens (see the README)",
            "  --debug               log each request and reply on standard error (credentials redacted)",
            "  --timeout SECONDS     the longest one attempt may take or stall (default 600; retries follow)",
            "  --version, --help",
            "Command flags: --max-items N (stop after N items across pages, 10000 by default; or N events of a",
            "stream, N items of a list reply),",
            "--output FILE (write the reply to FILE; binary replies need it on a terminal; a FIFO or device is",
            "written directly, a file replaced once the reply is whole, keeping its permissions), --force (let",
            "--output replace a file of another user or with other hard links).",
            "Values: JSON or YAML flow text for objects and arrays, a repeated flag appends to an array (so does",
            "the singular flag of a plural one: --tool '{…}' --tool '{…}'), a dotted flag sets one member of an",
            "object at any depth (--reasoning.effort low, merged with --reasoning or the body's), @path",
            "reads a file (@file://path as text, @data://path as base64), and a body may come as YAML or JSON on",
            "standard input, its strings as text (@ included) unless --allow-files DIR lets it name files under DIR.",
            "Exit status: 0 success, 1 other failure, 2 usage error, 4 the API answered 4xx, 5 the API answered",
            "5xx, 6 connection failure or timeout, 7 the reply ended early (a stream cut off).",
            "",
            "Resources:",
        ]
        let resources = catalogue.resources
        let width = min(48, (resources.map(\.count).max() ?? 0) + 2)
        for resource in resources {
            let methods = catalogue.methods(of: resource).map(\.name)
            lines.append("  " + pad(resource, width) + methods.joined(separator: ", "))
        }
        return lines.joined(separator: "\n")
    }

    /// `openai <resource>`: its methods and their summaries.
    package static func resource(_ resource: String, catalogue: Catalogue) -> String {
        let methods = catalogue.methods(of: resource)
        let width = (methods.map(\.name.count).max() ?? 0) + 2
        var lines = ["usage: openai \(resource) <method> [--flag value…]", "", "Methods:"]
        for (name, operation) in methods {
            let alias = name == operation.method ? "" : " (alias of \(operation.command))"
            lines.append("  " + pad(name, width) + (operation.summary ?? operation.id) + alias)
        }
        lines.append("")
        lines.append("`openai \(resource) <method> --help` describes a method and its flags.")
        return lines.joined(separator: "\n")
    }

    /// The one-line usage of a command, its required flags named.
    package static func usage(_ operation: APIOperation) -> String {
        let required = operation.flags.filter(\.required).map { "--\($0.flag) \(placeholder($0))" }
        return (["usage: openai \(operation.command)"] + required + ["[--flag value…]"]).joined(separator: " ")
    }

    /// `openai <resource> <method> --help`: the summary, the request, and every flag.
    package static func command(_ operation: APIOperation) -> String {
        var lines = [usage(operation), ""]
        if let description = operation.description?.trimmingCharacters(in: .whitespacesAndNewlines) {
            lines += [wrap(description, indent: ""), ""]
        }
        var request = "\(operation.httpMethod) \(operation.path) [\(operation.id)]"
        if operation.admin { request += ", admin key" }
        if operation.deprecated { request += ", deprecated" }
        lines.append(request)
        if operation.stream != nil {
            lines.append(
                "Streams server-sent events when asked (" + streamRequest(operation)
                    + "): one JSON line per event, --format raw for the bytes.")
        }
        if operation.page != nil {
            lines.append("Pages automatically: every item of every page (up to 10000), or --max-items N.")
        }
        if operation.reply == .binary { lines.append("The reply is binary: --output FILE (or a pipe).") }
        let fileFlags = (operation.body?.members ?? []).filter(\.schema.isFile).map { "--\($0.flag) @path" }
        if operation.body?.kind == .multipart, !fileFlags.isEmpty {
            lines.append("A multipart form: " + fileFlags.joined(separator: ", ") + " streams the file from disk.")
        }
        if operation.body != nil { lines.append("The body may also come as YAML or JSON on standard input.") }
        lines.append("")
        lines.append("Flags:")
        for flag in operation.flags {
            var head = "  --\(flag.flag) \(placeholder(flag))"
            var notes: [String] = []
            if flag.required { notes.append("required") }
            notes.append(flag.location == .body ? "body" : flag.location.rawValue)
            if flag.deprecated { notes.append("deprecated") }
            if let singular = flag.singular { notes.append("or --\(singular) for one item, repeatable") }
            for alias in flag.aliases { notes.append("or --\(alias)") }
            head += "  (" + notes.joined(separator: ", ") + ")"
            lines.append(head)
            var text = flag.description ?? ""
            let values = flag.schema.enumValues + flag.schema.anyOf.flatMap(\.enumValues)
            if !values.isEmpty { text += (text.isEmpty ? "" : " ") + "One of: " + values.joined(separator: ", ") + "." }
            let known = flag.schema.examples + flag.schema.anyOf.flatMap(\.examples)
            if !known.isEmpty {
                text += (text.isEmpty ? "" : " ") + "Known values: " + known.joined(separator: ", ") + "."
            }
            if !flag.facts.isEmpty { text += (text.isEmpty ? "" : " ") + flag.facts.joined(separator: " ") }
            if !text.isEmpty { lines.append(wrap(text, indent: "      ")) }
        }
        if operation.page != nil {
            lines.append("  --max-items N\n      Stop after N items across pages (10000 when not given).")
        } else if operation.stream != nil {
            lines.append("  --max-items N\n      Stop a stream after N events.")
        }
        if operation.flags.contains(where: {
            $0.location == .body && ($0.schema.type == "object" || $0.schema.items?.type == "object")
        }) {
            lines.append(
                "  --FLAG.MEMBER VALUE\n      Set one member of an object flag (or of an array's last object), at any"
                    + "\n      depth: --reasoning.effort low, --message.role user.")
        }
        lines.append(
            "  --output FILE\n      Write the reply to FILE (a file is replaced once the reply is whole, keeping its"
                + "\n      permissions; a FIFO or device is written directly).")
        lines.append("  --force\n      Let --output replace a file of another user or with other hard links.")
        if operation.body != nil {
            lines.append(
                "  --allow-files DIR\n      Read @path strings of a body on standard input, for files under DIR"
                    + " (repeatable);\n      without it they are text.")
        }
        return lines.joined(separator: "\n")
    }

    private static func streamRequest(_ operation: APIOperation) -> String {
        guard let stream = operation.stream else { return "" }
        if let query = stream.query { return "--\(query)" }
        return stream.bodySettings.map { member in
            let flag = operation.body?.members.first { $0.name == member.key }?.flag ?? member.key
            switch member.value {
            case .bool(true): return "--\(flag)"
            case .string(let value): return "--\(flag) \(value)"
            default: return "--\(flag) \(member.value.compact)"
            }
        }.joined(separator: " ")
    }

    /// The value a flag takes, as usage shows it: `STRING`, `INTEGER`, `asc|desc`, `@FILE`, `JSON`.
    static func placeholder(_ flag: Flag) -> String {
        let schema = flag.schema
        if schema.isFile { return "@FILE" }
        if !schema.enumValues.isEmpty, schema.enumValues.count <= 6 { return schema.enumValues.joined(separator: "|") }
        switch schema.type {
        case "string"?: return "STRING"
        case "integer"?: return "INTEGER"
        case "number"?: return "NUMBER"
        case "boolean"?: return "[true|false]"
        case "array"?: return (schema.items?.type == "string" ? "STRING" : "JSON") + "…"
        default: return schema.acceptsString ? "STRING|JSON" : "JSON"
        }
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }

    /// `text` wrapped at 100 columns, each line indented; paragraphs and list lines kept.
    static func wrap(_ text: String, indent: String) -> String {
        var output: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var current = indent
            let words = line.split(separator: " ", omittingEmptySubsequences: false)
            if words.isEmpty || line.isEmpty {
                output.append("")
                continue
            }
            for word in words {
                if current.count > indent.count, current.count + 1 + word.count > 100 {
                    output.append(current)
                    current = indent
                }
                current += (current.count > indent.count ? " " : "") + word
            }
            output.append(current)
        }
        return output.joined(separator: "\n")
    }
}
