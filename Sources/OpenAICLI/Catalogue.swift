import Foundation
import OpenAICatalogue
import OpenAICatalogueModel
import OpenAIRuntime

/// The operations the `openai` tool offers, read from the catalogue the generator writes
/// (`Sources/OpenAICatalogue/Generated`, an ``OperationCatalogue``).
package struct Catalogue: Sendable {
    package var operations: [APIOperation]
    /// Every command line (`vector-stores:files list`) and alias → its operation's index.
    private var byCommand: [String: Int]
    /// Every resource (`vector-stores:files`), sorted.
    package private(set) var resources: [String]
    /// Each resource's methods (aliases included) with their operations' indices, sorted by method.
    private var methodsByResource: [String: [(name: String, index: Int)]]

    /// The catalogue of the locked spec, parsed once.
    package static let shared: Catalogue = {
        do {
            return try Catalogue(json: Array(operationCatalogueJSON.utf8))
        } catch {
            fatalError("The generated operation catalogue does not parse: \(error)")
        }
    }()

    /// Parses a catalogue's JSON text.
    ///
    /// - Throws: `DecodingError` for text that is not an ``OperationCatalogue`` (a ``JSONSyntaxError``
    ///   underlying one for text that is not JSON); ``CLIError`` for one of another format version.
    package init(json bytes: [UInt8]) throws {
        // The SDK's own decoder: at the tool's every start, it reads the catalogue in about half the
        // time Foundation's `JSONDecoder` takes (Scripts/bench/bench-cli.sh).
        let catalogue = try OrderedJSONDecoder().decode(OperationCatalogue.self, fromBytes: bytes)
        guard catalogue.version == OperationCatalogue.currentVersion else {
            throw CLIError.failure(
                "the catalogue has format version \(catalogue.version); this tool reads \(OperationCatalogue.currentVersion)"
            )
        }
        operations = try catalogue.operations.map(APIOperation.init)
        byCommand = [:]
        methodsByResource = [:]
        for (index, operation) in operations.enumerated() {
            for command in [operation.command] + operation.aliases {
                byCommand[command] = index
                let parts = command.split(separator: " ", maxSplits: 1)
                guard parts.count == 2 else { continue }
                methodsByResource[String(parts[0]), default: []].append((String(parts[1]), index))
            }
        }
        for resource in methodsByResource.keys { methodsByResource[resource]!.sort { $0.name < $1.name } }
        resources = methodsByResource.keys.sorted()
    }

    /// The operation run by `resource method` (`vector-stores:files`, `list`), official or alias.
    package func operation(resource: String, method: String) -> APIOperation? {
        byCommand["\(resource) \(method)"].map { operations[$0] }
    }

    /// The methods of `resource` with their operations, sorted by method; aliases included.
    package func methods(of resource: String) -> [(name: String, operation: APIOperation)] {
        (methodsByResource[resource] ?? []).map { ($0.name, operations[$0.index]) }
    }
}

/// One operation of the catalogue.
package struct APIOperation: Sendable {
    package var id: String
    /// `vector-stores:files list`.
    package var command: String
    package var aliases: [String]
    /// Named as the official CLI names it.
    package var official: Bool
    /// The MCP tool's name (`vector_stores_files_list`).
    package var tool: String
    /// Whether it deletes, or ends or takes away something (MCP's `destructiveHint`).
    package var destructive: Bool
    /// Called with the admin key.
    package var admin: Bool
    package var deprecated: Bool
    /// `GET`, `POST`, …
    package var httpMethod: String
    /// The path template below the base URL (`/vector_stores/{vector_store_id}/files`).
    package var path: String
    /// Query pairs the spec's path carries (`beta=true`).
    package var fixedQuery: [(String, String)]
    package var summary: String?
    package var description: String?
    /// Path, query and header parameters.
    package var parameters: [Flag]
    package var body: Body?
    package var reply: Reply
    package var accept: String?
    package var stream: Stream?
    package var page: Page?

    /// The resource part of the command (`vector-stores:files`).
    package var resource: String { String(command.prefix { $0 != " " }) }
    /// The method part of the command (`list`).
    package var method: String { String(command.drop { $0 != " " }.dropFirst()) }

    /// Every flag: the parameters, then the body's members.
    package var flags: [Flag] { parameters + (body?.members ?? []) }

    package enum Reply: String, Sendable { case json, binary, text, none }

    /// The request body.
    package struct Body: Sendable {
        package enum Kind: String, Sendable { case json, multipart, text }
        package var kind: Kind
        package var contentType: String
        package var required: Bool
        /// The top-level members, each a flag.
        package var members: [Flag]
    }

    /// How the operation streams server-sent events.
    package struct Stream: Sendable {
        /// `event`: the `event:` field names the event and `data:` holds its payload; `data`: the
        /// payload's `type` names it.
        package var namedEvents: Bool
        /// Body members whose values ask for the stream (`stream: true`).
        package var bodySettings: [JSON.Member]
        /// A boolean query parameter that asks for it (`stream=true`).
        package var query: String?
        /// Event types (or names) that complete the stream.
        package var terminalEvents: [String]
        /// Complete when every choice has a `finish_reason` (Chat Completions).
        package var finishedChoices: Bool
    }

    /// How a list reply pages (a cursor in the query, `has_more` in the reply).
    package struct Page: Sendable {
        /// The query parameter taking the cursor (`after`, or `page`).
        package var cursor: String
        /// The reply member holding the items (`data`).
        package var items: String
        /// The reply member saying whether more pages follow (`has_more`).
        package var hasMore: String
        /// Reply members holding the next cursor, first present wins; `#last-id`: the last item's `id`.
        package var next: [String]

        /// The cursor of the page after `reply`, from the first of ``next`` it has (not empty).
        package func nextCursor(in reply: JSON) -> String? {
            for source in next {
                if source == "#last-id" {
                    if let id = reply[items]?.array?.last?["id"]?.string { return id }
                } else if let cursor = reply[source]?.string, !cursor.isEmpty {
                    return cursor
                }
            }
            return nil
        }
    }

    /// - Throws: ``CLIError`` for a parameter whose location is not `path`, `query` or `header`.
    init(_ entry: CatalogueOperation) throws {
        id = entry.id
        command = entry.command
        aliases = entry.aliases ?? []
        official = entry.official
        tool = entry.tool
        destructive = entry.destructive
        admin = entry.admin
        deprecated = entry.deprecated ?? false
        httpMethod = entry.method
        path = entry.path
        fixedQuery = (entry.query ?? [:]).sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        summary = entry.summary
        description = entry.description
        parameters = try entry.parameters.map { parameter in
            guard let location = parameter.location.flatMap(Flag.Location.init(rawValue:)), location != .body else {
                throw CLIError.failure("the parameter \(parameter.name) of \(entry.id) has no location")
            }
            return Flag(parameter, location: location)
        }
        body = entry.body.flatMap { body in
            Body.Kind(rawValue: body.kind).map { kind in
                Body(
                    kind: kind, contentType: body.contentType, required: body.required,
                    members: (body.members ?? []).map { Flag($0, location: .body) })
            }
        }
        reply = Reply(rawValue: entry.reply.rawValue) ?? .json
        accept = entry.accept
        stream = entry.stream.map { stream in
            Stream(
                namedEvents: stream.framing == "event",
                bodySettings: (stream.set ?? [:]).sorted { $0.key < $1.key }.map { key, value in
                    switch value {
                    case .bool(let flag): JSON.Member(key, .bool(flag))
                    case .string(let text): JSON.Member(key, .string(text))
                    }
                },
                query: stream.query, terminalEvents: stream.terminal ?? [], finishedChoices: stream.choices ?? false)
        }
        page = entry.page.map { Page(cursor: $0.cursor, items: $0.items, hasMore: $0.hasMore, next: $0.next) }
        nameOtherSpellings()
    }

    /// The flag named `name` (without dashes) by its own name or an alias, or by its singular
    /// (`tool` for `--tools`: one item per occurrence).
    package func flag(named name: String) -> (flag: Flag, singular: Bool)? {
        for flag in flags {
            if flag.flag == name || flag.aliases.contains(name) { return (flag, false) }
            if flag.singular == name { return (flag, true) }
        }
        return nil
    }

    /// Gives the flags the official CLI's other spellings where they name nothing else of the
    /// command (its flags, the command and global flags): the singular of a plural array flag
    /// (``Flag/singular``), and `beta` for the `OpenAI-Beta` header (``Flag/aliases``).
    private mutating func nameOtherSpellings() {
        // A command's own flag wins over a global one of the same name (`--project` for one item of
        // `--projects`), except over the flags that shape every command's output.
        var taken = Set(flags.map(\.flag)).union(Invocation.commandValued).union(["force"])
            .union(GlobalOptions.switches).union(["format", "transform", "timeout"])
        func spell(_ flag: inout Flag) {
            if flag.location == .header, flag.name.lowercased().hasPrefix("openai-") {
                let alias = String(flag.flag.dropFirst("openai-".count))
                if taken.insert(alias).inserted { flag.aliases.append(alias) }
            }
            if flag.schema.acceptsArray, let singular = Flag.singular(of: flag.flag), taken.insert(singular).inserted {
                flag.singular = singular
            }
        }
        for index in parameters.indices { spell(&parameters[index]) }
        if body != nil { for index in body!.members.indices { spell(&body!.members[index]) } }
    }
}

/// A flag: a path, query or header parameter, or a top-level member of the body.
package struct Flag: Sendable {
    package enum Location: String, Sendable { case path, query, header, body }

    /// The wire name (`vector_store_id`, `include[]`).
    package var name: String
    package var location: Location
    /// The flag without its dashes (`vector-store-id`).
    package var flag: String
    package var required: Bool
    package var nullable: Bool
    package var deprecated: Bool
    package var schema: CatalogueSchema
    package var description: String?
    /// What the spec states about the values (`Default: `1`.`).
    package var facts: [String]
    /// Other names taking the same values: `beta` for the `OpenAI-Beta` header, as the official
    /// CLI names it.
    package var aliases: [String] = []
    /// For an array flag with a plural name, the official CLI's singular flag that takes one item
    /// per occurrence and appends it (`tool` for `--tools`, `file-id` for `--file-ids`).
    package var singular: String?

    /// A flag for a member below a top-level one (``NestedFlag``): `name` and `flag` its dotted
    /// spelling, in the body.
    init(nested flag: String, schema: CatalogueSchema, nullable: Bool) {
        name = flag
        self.flag = flag
        location = .body
        required = false
        self.nullable = nullable
        deprecated = false
        self.schema = schema
        facts = []
    }

    /// The singular of a plural flag name's last word (`tools` → `tool`, `file-ids` → `file-id`,
    /// `geographies` → `geography`, `sizes` → `size`, `statuses` → `status`, `matches` → `match`), or `nil` for one
    /// that does not read as a plural (`include`, `input`, `status`, `analysis`).
    package static func singular(of name: String) -> String? {
        func drop(_ count: Int, adding suffix: String = "") -> String { String(name.dropLast(count)) + suffix }
        let word = name.split(separator: "-").last.map(String.init) ?? name
        guard word.count >= 3, word.hasSuffix("s") else { return nil }
        if word.hasSuffix("ies") { return drop(3, adding: "y") }
        for suffix in ["sses", "tuses", "xes", "ches", "shes"] where word.hasSuffix(suffix) { return drop(2) }
        for suffix in ["ss", "us", "is"] where word.hasSuffix(suffix) { return nil }
        return drop(1)
    }

    init(_ entry: CatalogueFlag, location: Location) {
        name = entry.name
        flag = entry.flag
        self.location = location
        required = entry.required
        nullable = entry.nullable ?? false
        deprecated = entry.deprecated ?? false
        schema = entry.schema
        description = entry.description
        facts = entry.facts ?? []
    }
}

/// What the tool asks of a value's shape (``CatalogueSchema``: the catalogue's for a flag, or the one
/// ``NestedFlag`` derives from the operation's JSON Schema).
extension CatalogueSchema {
    /// Every value help shows and completion offers: the enum's, or the known ones, of this shape and its alternatives.
    package var knownValues: [String] { enumValues + examples + anyOf.flatMap(\.knownValues) }

    /// Whether a value may be an array (the flag may be repeated).
    package var acceptsArray: Bool { type == "array" || anyOf.contains { $0.type == "array" } }

    /// Whether a value may be a string.
    package var acceptsString: Bool { type == "string" || anyOf.contains { $0.type == "string" } }

    /// Whether the value is a file (or files) of a multipart form.
    package var isFile: Bool { type == "file" || items?.type == "file" || anyOf.contains { $0.isFile } }

    /// The type as help shows it: `string`, `integer`, `array of string`, `string | array`, `json`.
    package var label: String {
        if !anyOf.isEmpty { return anyOf.map(\.label).joined(separator: " | ") }
        switch type {
        case "array"?: return "array of " + (items?.label ?? "json")
        case "object"?: return "object"
        case let type?: return type
        case nil: return "json"
        }
    }
}
