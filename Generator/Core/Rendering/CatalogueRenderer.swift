import Foundation
import OpenAICatalogueModel
import OpenAIGeneratorOpenAPI
import OpenAIYAML

/// The operation catalogue of the `openai` command-line tool (`Catalogue/OperationCatalogue.swift`):
/// every operation of the IR as data the tool reads at run time, so that its commands, flags, help,
/// validation and completions come from one source and its build does not compile the typed SDK.
///
/// The file declares one string, `operationCatalogueJSON`: an ``OperationCatalogue`` (the shared
/// `OpenAICatalogueModel` target, which documents the format) encoded as JSON, one operation per
/// line, in command order. Every name in it is decided here or in ``CommandNaming``: commands,
/// flags, MCP tool names, and which operations are destructive.
enum CatalogueRenderer {
    /// The catalogue file for `model`, its commands named by `names` where it has them, with a
    /// note for each entry of `names` that names no operation and a warning for a command already
    /// taken (the operation then keeps its derived name, or one made of its operationId).
    static func file(_ model: APIModel, names: CommandNameTable) -> (file: GeneratedFile, diagnostics: [Diagnostic]) {
        let declarations = TopLevelDeclaration.indexByPath(model.declarations)
        var diagnostics: [Diagnostic] = []
        func warn(_ message: String, _ section: String, _ key: String, kind: Diagnostic.Kind = .commandUnmatched) {
            diagnostics.append(
                Diagnostic(
                    kind, message: message,
                    location: SourceLocation(
                        file: names.file, mark: Mark(line: 1, column: 1),
                        pointer: "#/\(section)/" + escapePointerToken(key))))
        }
        // One note for the entries whose operationId the spec does not have (a spec older or newer
        // than the table), naming the first ten.
        let known = Set(model.operations.map(\.operationID))
        let unmatched =
            names.commands.keys.filter { !known.contains($0) }.map { "commands/\($0)" }
            + names.aliases.filter { !known.contains($0.value) }.map { "aliases/\($0.key)" }
        if let first = unmatched.sorted().first {
            let listed = unmatched.sorted().prefix(10).joined(separator: ", ")
            let section = String(first.prefix { $0 != "/" })
            warn(
                "\(unmatched.count) entries name operationIds the spec does not have (not applied): \(listed)"
                    + (unmatched.count > 10 ? ", …" : "") + ".",
                section, String(first.drop { $0 != "/" }.dropFirst()))
        }
        // Official names first, so that a derived name yields to an official one.
        var taken: Set<String> = Set(names.aliases.keys)
        var commands: [String: String] = [:]
        for operation in model.operations where names.commands[operation.operationID] != nil {
            let command = names.commands[operation.operationID]!
            if taken.insert(command).inserted {
                commands[operation.operationID] = command
            } else {
                warn(
                    "The command `\(command)` is named twice; \(operation.operationID) is named from its SDK method.",
                    "commands", operation.operationID, kind: .commandTaken)
            }
        }
        for operation in model.operations where commands[operation.operationID] == nil {
            var command = CommandNaming.derivedCommand(operation)
            if !taken.insert(command).inserted {
                command = command.prefix { $0 != " " } + " " + CommandNaming.kebab(operation.operationID)
                taken.insert(command)
            }
            commands[operation.operationID] = command
        }
        var entries: [CatalogueOperation] = []
        let shapes = FlagShapes(declarations: declarations)
        for operation in model.operations {
            let command = commands[operation.operationID]!
            for flag in takenFlags(operation, declarations: declarations) {
                warn(
                    "`openai \(command)` has two flags --\(flag), or one named like a flag every command takes; "
                        + "only the first is reachable.", "commands", operation.operationID, kind: .flagTaken)
            }
            let aliases = names.aliases.filter { $0.value == operation.operationID }.keys.sorted()
            let entry = Entry(operation: operation, declarations: declarations, shapes: shapes)
            entries.append(
                entry.operation(
                    command: command, official: names.commands[operation.operationID] == command, aliases: aliases))
        }
        entries.sort { $0.command < $1.command }
        let body =
            "{\"version\": \(OperationCatalogue.currentVersion), \"operations\": [\n"
            + entries.map(encodedJSON).joined(separator: ",\n") + "\n]}"
        let file = jsonConstantFile(
            path: "Catalogue/OperationCatalogue.swift", name: "operationCatalogueJSON", json: body,
            about: [
                "The operation catalogue of the `openai` command-line tool: every operation, its flags and its reply,",
                "as JSON read at run time (format: Generator/Core/Rendering/CatalogueRenderer.swift).",
            ],
            documentation:
                "The catalogue's JSON text: an `OperationCatalogue` (`{\"version\": \(OperationCatalogue.currentVersion), \"operations\": [...]}`), one operation per line."
        )
        return (file, diagnostics)
    }

    /// A generated Swift file declaring one `package let` string constant that holds `json`: a raw
    /// string literal whose delimiter (`#`, `##`, …) occurs nowhere in the text after `"` or `\`
    /// (where it would end the literal or start an escape), so the text is the JSON byte for byte.
    ///
    /// - Parameters:
    ///   - about: The lines of the comment under the header, without `// `.
    ///   - documentation: The constant's doc comment.
    static func jsonConstantFile(path: String, name: String, json: String, about: [String], documentation: String)
        -> GeneratedFile
    {
        var delimiter = "#"
        while json.contains("\"" + delimiter) || json.contains("\\" + delimiter) { delimiter += "#" }
        let lines =
            SwiftGenerator.headerLines + ["//"] + about.map { "// " + $0 } + [
                "",
                "/// " + documentation,
                "package let \(name) = \(delimiter)\"\"\"",
                json,
                "\"\"\"\(delimiter)",
            ]
        return GeneratedFile(path: path, contents: lines.joined(separator: "\n") + "\n")
    }

    /// The struct a type names, through aliases (an operation's body members), or `nil` for another shape.
    static func structure(_ type: TypeRef, in declarations: [String: Declaration]) -> StructDecl? {
        guard case .named(let name) = type else { return nil }
        switch declarations[name] {
        case .structure(let decl)?: return decl
        case .alias(let decl)?: return structure(decl.target, in: declarations)
        default: return nil
        }
    }

    /// Flags every command takes (beside the global ones, which may also come before the command).
    static let commandFlags: Set<String> = ["output", "max-items", "help", "force", "allow-files"]

    /// The flags of `operation` that are named twice, or like one of ``commandFlags``.
    static func takenFlags(_ operation: OperationDecl, declarations: [String: Declaration]) -> [String] {
        var names = operation.parameters.map { CommandNaming.kebab($0.wireName) }
        switch operation.bodies.first {
        case .json(let type)?, .multipart(let type)?:
            names += (structure(type, in: declarations)?.properties ?? []).map { CommandNaming.kebab($0.wireName) }
        case .text?, nil:
            break
        }
        var seen: Set<String> = []
        return names.filter { !seen.insert($0).inserted || commandFlags.contains($0) }
    }

    /// One operation's catalogue entry.
    private struct Entry {
        var operation: OperationDecl
        var declarations: [String: Declaration]
        /// Each flag's shape, from the JSON Schema of its value.
        var shapes: FlagShapes

        func operation(command: String, official: Bool, aliases: [String]) -> CatalogueOperation {
            var entry = CatalogueOperation(
                id: operation.operationID, command: command, official: official,
                tool: CommandNaming.toolName(command: command),
                destructive: CommandNaming.isDestructive(command: command, httpMethod: operation.httpMethod),
                admin: operation.adminAuthentication, method: operation.httpMethod, path: operation.path,
                parameters: [], reply: reply)
            if !aliases.isEmpty { entry.aliases = aliases }
            if operation.documentation.deprecated { entry.deprecated = true }
            if !operation.fixedQuery.isEmpty {
                entry.query = Dictionary(operation.fixedQuery, uniquingKeysWith: { first, _ in first })
            }
            let text = operation.documentation.summary.map { DocText.absoluteLinks(DocText.asidesLast($0)) }
            entry.summary = DocText.summary(text)
            if let text, !text.isEmpty { entry.description = text }
            entry.parameters = operation.parameters.map { parameter in
                var flag = CatalogueFlag(
                    name: parameter.wireName, location: parameter.location.rawValue,
                    flag: CommandNaming.kebab(parameter.wireName), required: parameter.required,
                    schema: shapes.shape(of: parameter.type))
                flag.description = firstParagraph(parameter.documentation)
                if !parameter.facts.isEmpty { flag.facts = parameter.facts }
                return flag
            }
            entry.body = body()
            if !operation.acceptTypes.isEmpty { entry.accept = operation.acceptTypes.joined(separator: ", ") }
            entry.stream = operation.streaming.map(stream)
            entry.page = page()
            return entry
        }

        private var reply: CatalogueOperation.Reply {
            switch operation.response {
            case .json: .json
            case .binary: .binary
            case .text: .text
            case .none: .none
            }
        }

        /// The JSON (or multipart, or text) body and its top-level members.
        private func body() -> CatalogueBody? {
            switch operation.bodies.first {
            case nil:
                return nil
            case .json(let type)?:
                var body = CatalogueBody(
                    kind: "json", contentType: "application/json", required: operation.bodyRequired)
                body.schema = shapes.shape(of: type)
                body.members = members(type)
                return body
            case .multipart(let type)?:
                var body = CatalogueBody(
                    kind: "multipart", contentType: "multipart/form-data", required: operation.bodyRequired)
                body.schema = shapes.shape(of: type)
                body.members = members(type)
                return body
            case .text(let contentType)?:
                return CatalogueBody(kind: "text", contentType: contentType, required: operation.bodyRequired)
            }
        }

        /// The properties of the body's struct (through aliases), or none for another shape.
        private func members(_ type: TypeRef) -> [CatalogueFlag] {
            guard let structure = structure(type) else { return [] }
            return structure.properties.filter { $0.constant == nil || $0.required }.map { property in
                var flag = CatalogueFlag(
                    name: property.wireName, location: nil, flag: CommandNaming.kebab(property.wireName),
                    required: property.required, schema: shapes.shape(of: property.type))
                if property.nullable { flag.nullable = true }
                if let constant = property.constant {
                    flag.schema = CatalogueSchema(type: "string", enumValues: [constant])
                }
                flag.description = firstParagraph(property.documentation.summary)
                if !property.documentation.facts.isEmpty { flag.facts = property.documentation.facts }
                if property.documentation.deprecated { flag.deprecated = true }
                return flag
            }
        }

        private func structure(_ type: TypeRef) -> StructDecl? {
            CatalogueRenderer.structure(type, in: declarations)
        }

        private func stream(_ streaming: StreamingInfo) -> CatalogueStream {
            var result = CatalogueStream(framing: streaming.framing == .data ? "data" : "event")
            var settings: [String: CatalogueStream.Setting] = [:]
            let bodyStruct = operation.bodies.lazy.compactMap { body -> StructDecl? in
                if case .json(let type) = body { return structure(type) }
                return nil
            }.first
            let multipartStruct = operation.bodies.lazy.compactMap { body -> StructDecl? in
                if case .multipart(let type) = body { return structure(type) }
                return nil
            }.first
            let settingsSource =
                streaming.bodySettings.isEmpty
                ? (streaming.multipartBodySettings, multipartStruct) : (streaming.bodySettings, bodyStruct)
            for setting in settingsSource.0 {
                let wire =
                    settingsSource.1?.properties.first { $0.name == setting.property }?.wireName ?? setting.property
                switch setting.value {
                case .bool(let value): settings[wire] = .bool(value)
                case .string(let value): settings[wire] = .string(value)
                }
            }
            if !settings.isEmpty { result.set = settings }
            result.query = streaming.queryFlag
            switch streaming.ending {
            case .unspecified: break
            case .terminalEvents(let events): result.terminal = events
            case .finishedChoices: result.choices = true
            }
            return result
        }

        private func page() -> CataloguePage? {
            guard let cursor = operation.pageCursor, case .json(let reply) = operation.response,
                let structure = structure(reply), let info = structure.page
            else { return nil }
            func wire(_ swiftName: String) -> String {
                structure.properties.first { $0.name == swiftName }?.wireName ?? swiftName
            }
            return CataloguePage(
                cursor: cursor.wireName, items: wire(info.items), hasMore: wire(info.hasMore),
                next: info.nextCursor.map { source -> String in
                    switch source {
                    case .member(let name): return wire(name)
                    case .lastItemID: return "#last-id"
                    }
                })
        }

        /// The first paragraph of a description, its wrapped lines joined, links made absolute.
        private func firstParagraph(_ text: String?) -> String? {
            guard let text else { return nil }
            var lines: [String] = []
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.isEmpty {
                    if lines.isEmpty { continue }
                    break
                }
                lines.append(trimmed)
            }
            return lines.isEmpty ? nil : DocText.absoluteLinks(lines.joined(separator: " "))
        }
    }

    /// Compact JSON with sorted keys and unescaped slashes, in ASCII (every other character as a
    /// `\u` escape, so no line separator or invisible character reaches the file): the same bytes
    /// for the same value.
    static func encodedJSON(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return asciiOnly(String(decoding: try! encoder.encode(value), as: UTF8.self))
    }

    /// ``encodedJSON(_:)`` for a value of `JSONSerialization` (the schema catalogue's).
    static func json(_ value: Any) -> String {
        let data = try! JSONSerialization.data(
            withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed])
        return asciiOnly(String(decoding: data, as: UTF8.self))
    }

    /// `text` with every character outside ASCII as `\u` escapes (UTF-16 units).
    private static func asciiOnly(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                result.unicodeScalars.append(scalar)
            } else {
                for unit in String(scalar).utf16 { result += String(format: "\\u%04x", unit) }
            }
        }
        return result
    }
}

/// The official CLI's command names for operations (`Spec/cli-commands.json`), which the
/// catalogue uses where it has one; every other operation is named from its SDK method.
public struct CommandNameTable: Sendable, Hashable {
    /// operationId → command line (`vector-stores:files list`).
    public var commands: [String: String]
    /// Further command lines → operationId: official commands that call an operation another
    /// official command also calls.
    public var aliases: [String: String]
    /// The table's path, for diagnostics.
    public var file: String

    public init(commands: [String: String] = [:], aliases: [String: String] = [:], file: String = "") {
        self.commands = commands
        self.aliases = aliases
        self.file = file
    }

    /// Reads the table's JSON (`commands` and `aliases`: objects of strings).
    ///
    /// - Throws: ``CommandNameTableError`` when the text is not JSON, or the root or a section is
    ///   not an object of strings.
    public init(json data: Data, file: String) throws {
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw CommandNameTableError(message: "\(file): not JSON (\(error))")
        }
        guard let root = parsed as? [String: Any] else {
            throw CommandNameTableError(message: "\(file): the root is not a JSON object")
        }
        func strings(_ key: String) throws -> [String: String] {
            guard let value = root[key] else { return [:] }
            guard let table = value as? [String: String] else {
                throw CommandNameTableError(message: "\(file): /\(key) is not an object of strings")
            }
            return table
        }
        self.init(commands: try strings("commands"), aliases: try strings("aliases"), file: file)
    }
}

/// A command-name table that cannot be read.
public struct CommandNameTableError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
