import Foundation
import OpenAICatalogueModel
import OpenAICommandLine
import OpenAIRuntime

/// What a command line gives an operation's request, each flag's words read by its shape and
/// checked before anything is sent.
///
/// - A string flag takes its word as is; an integer, number or boolean flag a value of that type;
///   an enum flag one of its values; an object, array or union flag JSON or YAML flow text
///   (`{anchor: created_at, seconds: 3600}`), and an array flag given several times appends.
/// - `@path` reads a value from a file: text when it is UTF-8, else base64; `@file://path` always
///   text, `@data://path` always base64; `\@` keeps a leading `@`. Strings inside JSON or YAML values
///   are read the same way. A multipart file flag streams the file at `@path` (a bare word is the
///   part's content).
/// - A body can come on standard input as YAML or JSON; flags set (replace) its members. Its strings
///   are text, `@` included: a body piped from elsewhere must not make the tool read and send local
///   files. Only with `--allow-files DIR` is an `@path` in it read, and only under `DIR` (as
///   `openai mcp --allow-files` does for tool calls).
package struct RequestInput: Sendable {
    package var pathParameters: [String: String] = [:]
    /// Query parameters in flag order.
    package var query: [(name: String, value: JSON)] = []
    package var headers: [String: String] = [:]
    /// The JSON body (an object), or the multipart form's non-file members.
    package var body: JSON?
    /// A multipart form's file members, by wire name (one or several files each).
    package var files: [(name: String, files: [FileUpload])] = []
    /// What the command line probably did not mean, for standard error (a file flag given a
    /// bare path, which is sent as text).
    package var notes: [String] = []

    /// Reads `values` (flag → words) for `operation`.
    ///
    /// - Parameters:
    ///   - values: Each flag's words by its name; a singular flag's (``Flag/singular``) by that name.
    ///   - nested: The dotted flags and their words in command-line order (``NestedFlag``), set
    ///     after the others.
    ///   - stdinBody: The text on standard input when it is not a terminal, for a body.
    ///   - stdinFileFolders: The folders (symbolic links resolved) under which an `@path` in
    ///     `stdinBody` is read (`--allow-files`); empty: its strings are text.
    ///   - directory: Where relative `@path`s are read from.
    /// - Throws: ``CLIError/usage(_:usage:)`` for a value of the wrong shape, an enum value the
    ///   operation does not list, a missing required flag, a file that cannot be read.
    package init(
        operation: APIOperation, values: [String: [String]], nested: [(flag: String, word: String)] = [],
        stdinBody: String?, stdinFileFolders: [String] = [],
        directory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    ) throws {
        let usage = Help.usage(operation)
        let reader = ValueReader(directory: directory, usage: usage)
        var body: [JSON.Member] = []
        let fileMembers = Set(
            operation.body?.kind == .multipart
                ? (operation.body?.members ?? []).filter(\.schema.isFile).map(\.name) : [])
        if let stdinBody, operation.body != nil {
            switch try YAMLText.parse(stdinBody, source: "standard input") {
            case .null:
                break  // Empty, or comments alone.
            case .object(let members):
                // A multipart form's file members stay words (`@train.jsonl`): read as files below.
                body = try members.map { member in
                    fileMembers.contains(member.key) || stdinFileFolders.isEmpty
                        ? member
                        : JSON.Member(
                            member.key,
                            try reader.resolveFiles(member.value, source: "standard input", folders: stdinFileFolders))
                }
            default:
                throw CLIError.usage("the body on standard input is not a mapping of members", usage: usage)
            }
        }
        for flag in operation.flags {
            let items = flag.singular.flatMap { values[$0] } ?? []
            guard let plural = values[flag.flag] ?? (items.isEmpty ? nil : []) else { continue }
            if flag.location == .body, fileMembers.contains(flag.name) {
                let words = plural + items
                guard words.count == 1 || flag.schema.acceptsArray else {
                    throw CLIError.usage(
                        "--\(flag.flag) is given \(words.count) times; it takes one file", usage: usage)
                }
                files.append((flag.name, try words.map { try reader.file($0, flag: flag) }))
                for word in words where !word.hasPrefix("@") && !word.hasPrefix("\\@") {
                    var isFolder: ObjCBool = false
                    let url = URL(fileURLWithPath: word, relativeTo: directory)
                    if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue {
                        notes.append(
                            "note: --\(flag.flag) \(word) sends the text \"\(word)\" as the file's content; "
                                + "write @\(word) to upload the file")
                    }
                }
                body.removeAll { $0.key == flag.name }
                continue
            }
            let value = try reader.value(plural, items: items, flag: flag)
            switch flag.location {
            case .path:
                guard let text = value.string ?? (value == .null ? nil : value.compact) else {
                    throw CLIError.usage("--\(flag.flag) needs a value", usage: usage)
                }
                pathParameters[flag.name] = text
            case .query: query.append((flag.name, value))
            case .header:
                // An array header is a comma-separated list (OpenAPI's `simple` style): `OpenAI-Beta: a=v1,b=v2`.
                headers[flag.name] =
                    value.array.map { $0.map { $0.string ?? $0.compact }.joined(separator: ",") }
                    ?? value.string ?? value.compact
            case .body:
                body.removeAll { $0.key == flag.name }
                body.append(JSON.Member(flag.name, value))
            }
        }
        for (name, word) in nested {
            guard let target = try NestedFlag.resolve(name, operation: operation, schemas: .shared) else { continue }
            let value = try reader.value([word], flag: target.leaf)
            guard target.top.location == .query else {
                body = try target.apply(value, to: body, usage: usage)
                continue
            }
            let index = query.firstIndex { $0.name == target.top.name }
            let given = index.map { [JSON.Member(query[$0].name, query[$0].value)] } ?? []
            guard let set = try target.apply(value, to: given, usage: usage).first?.value else { continue }
            if let index { query[index].value = set } else { query.append((target.top.name, set)) }
        }
        // Members a stdin body gave for a multipart form's files (the flags' were taken above) are read
        // as files, an `@path` only under `--allow-files`.
        if !fileMembers.isEmpty {
            for flag in operation.body?.members ?? [] where fileMembers.contains(flag.name) {
                guard let member = body.first(where: { $0.key == flag.name }) else { continue }
                let words = member.value.array?.compactMap(\.string) ?? member.value.string.map { [$0] } ?? []
                files.append(
                    (
                        flag.name,
                        try words.map { word in
                            let checked =
                                word.hasPrefix("@")
                                ? try reader.allow(
                                    word, source: "standard input's `\(flag.name)`", folders: stdinFileFolders,
                                    flag: flag.flag) : word
                            return try reader.file(checked, flag: flag)
                        }
                    ))
                body.removeAll { $0.key == flag.name }
            }
        }
        let missing = missing(of: operation.flags, body: body)
        guard missing.isEmpty else {
            let list = missing.map { "--" + $0.flag }.joined(separator: ", ")
            throw CLIError.usage("`openai \(operation.command)` needs \(list)", usage: usage)
        }
        setBody(body, for: operation)
    }

    /// The required ones of `flags` that the input does not set, the body's members given as `body`.
    func missing(of flags: [Flag], body: [JSON.Member]) -> [Flag] {
        flags.filter { flag in
            guard flag.required else { return false }
            switch flag.location {
            case .path: return pathParameters[flag.name] == nil
            case .query: return !query.contains { $0.name == flag.name }
            case .header: return headers[flag.name] == nil
            case .body: return !body.contains { $0.key == flag.name } && !files.contains { $0.name == flag.name }
            }
        }
    }

    /// Sets the body to `members` when the operation takes one and there is something to send (or it
    /// must be sent, even empty).
    mutating func setBody(_ members: [JSON.Member], for operation: APIOperation) {
        if operation.body != nil, !members.isEmpty || operation.body?.required == true || !files.isEmpty {
            body = .object(members)
        }
    }
}

/// Reads flag words by their shape.
struct ValueReader {
    var directory: URL
    var usage: String

    /// The value of a flag given `words` (one per occurrence), and `items` given by its singular
    /// flag (one item each, appended).
    func value(_ words: [String], items: [String] = [], flag: Flag) throws -> JSON {
        let schema = flag.schema
        if !items.isEmpty {
            let element = (schema.type == "array" ? schema.items : schema.anyOf.first { $0.type == "array" }?.items)
            var elements: [JSON] = []
            if !words.isEmpty {
                let given = try value(words, flag: flag)
                elements = given.array ?? [given]
            }
            for word in items {
                // As the official CLI's singular flags, an array of items is taken too (`--tool '[{…}, {…}]'`).
                if word.trimmingCharacters(in: .whitespaces).hasPrefix("["), element?.type != "array" {
                    elements += try value([word], flag: flag).array ?? []
                } else {
                    elements.append(try single(word, schema: element ?? CatalogueSchema.any, flag: flag))
                }
            }
            return .array(elements)
        }
        if flag.nullable, words == ["null"] { return .null }
        if schema.type == "array" {
            var elements: [JSON] = []
            for word in words {
                let trimmed = word.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("[") || (word.hasPrefix("@") && schema.items?.type != "string") {
                    guard case .array(let given) = try parsed(word, flag: flag) else {
                        throw CLIError.usage("--\(flag.flag) \(word) is not an array", usage: usage)
                    }
                    elements += given
                } else {
                    elements.append(try single(word, schema: schema.items ?? CatalogueSchema.any, flag: flag))
                }
            }
            return try resolveFiles(.array(elements), source: "--" + flag.flag)
        }
        guard words.count == 1 else {
            throw CLIError.usage("--\(flag.flag) is given \(words.count) times; it takes one value", usage: usage)
        }
        return try single(words[0], schema: schema, flag: flag)
    }

    /// One word read as `schema` says.
    private func single(_ word: String, schema: CatalogueSchema, flag: Flag) throws -> JSON {
        let name = "--" + flag.flag
        switch schema.type {
        case "string"?:
            let text = try string(word, source: name)
            if !schema.enumValues.isEmpty, !schema.enumValues.contains(text) {
                throw CLIError.usage(
                    "\(name) \(text) is not one of \(schema.enumValues.joined(separator: ", "))"
                        + Suggestion.didYouMean(text, among: schema.enumValues),
                    usage: usage)
            }
            return .string(text)
        case "integer"?:
            // `+5` and `007` are whole numbers to `Int`, but not JSON numbers as written.
            guard let number = Int(word) else {
                throw CLIError.usage("\(name) takes a whole number, not `\(word)`", usage: usage)
            }
            return .number(String(number))
        case "number"?:
            guard let number = Double(word), number.isFinite,
                (try? JSON.parse(Array(word.utf8))) == .number(word)
            else {
                throw CLIError.usage("\(name) takes a number, not `\(word)`", usage: usage)
            }
            return .number(word)
        case "boolean"?:
            guard word == "true" || word == "false" else {
                throw CLIError.usage("\(name) takes true or false, not `\(word)`", usage: usage)
            }
            return .bool(word == "true")
        default:
            // A union's number or boolean alternative takes a word of that type (`3` for
            // `"auto" | integer`), as a flag of that type would.
            for alternative in schema.anyOf where ["integer", "number", "boolean"].contains(alternative.type ?? "") {
                if let value = try? single(word, schema: alternative, flag: flag) { return value }
            }
            // A union with a string alternative takes a word that is not JSON or YAML structure as
            // that string.
            let trimmed = word.trimmingCharacters(in: .whitespaces)
            if schema.acceptsString, !trimmed.hasPrefix("{"), !trimmed.hasPrefix("["), !word.hasPrefix("@") {
                let text = try string(word, source: name)
                let values = schema.anyOf.flatMap(\.enumValues)
                let free =
                    schema.anyOf.contains { $0.type == "string" && $0.enumValues.isEmpty } || schema.anyOf.isEmpty
                if !free, !values.isEmpty, !values.contains(text) {
                    throw CLIError.usage(
                        "\(name) \(text) is not one of \(values.joined(separator: ", ")) and not JSON or YAML"
                            + Suggestion.didYouMean(text, among: values),
                        usage: usage)
                }
                return .string(text)
            }
            if word.hasPrefix("@"), schema.acceptsString {
                // A file for a string-or-structure flag: its text is the string unless it is JSON or
                // YAML flow structure.
                let text = try string(word, source: name)
                let start = text.trimmingCharacters(in: .whitespacesAndNewlines).first
                if start != "{" && start != "[" { return .string(text) }
            }
            let value = try resolveFiles(try parsed(word, flag: flag), source: name)
            if schema.type == "object", case .object = value {
            } else if schema.type == "object" {
                throw CLIError.usage("\(name) takes an object (JSON or YAML flow: '{key: value}')", usage: usage)
            }
            return value
        }
    }

    /// A word as JSON or YAML text; `@path` reads the text from a file first.
    private func parsed(_ word: String, flag: Flag) throws -> JSON {
        let text = word.hasPrefix("@") ? try string(word, source: "--" + flag.flag) : word
        do {
            return try YAMLText.parse(text, source: "--" + flag.flag)
        } catch CLIError.usage(let message, _) {
            throw CLIError.usage(message, usage: usage)
        }
    }

    /// A string word: `@path` read from a file, `\@` unescaped.
    func string(_ word: String, source: String) throws -> String {
        if word.hasPrefix("\\@") { return String(word.dropFirst()) }
        guard word.hasPrefix("@"), word.count > 1 else { return word }
        var path = String(word.dropFirst())
        var encoding: String? = nil
        for scheme in ["file://", "data://"] where path.hasPrefix(scheme) {
            encoding = scheme
            path = String(path.dropFirst(scheme.count))
        }
        let url = URL(fileURLWithPath: path, relativeTo: directory)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw CLIError.usage(
                "\(source): cannot read the file \(path) (write `\\@` for a value that starts with @)", usage: usage)
        }
        switch encoding {
        case "file://"?:
            return String(decoding: data, as: UTF8.self)
        case "data://"?:
            return data.base64EncodedString()
        default:
            if !data.contains(0), let text = String(data: data, encoding: .utf8) { return text }
            return data.base64EncodedString()
        }
    }

    /// `value` with every string read as a word (``string(_:source:)``); with `folders`, an
    /// `@path` must name a file under one of them (``allow(_:source:folders:flag:)``).
    func resolveFiles(_ value: JSON, source: String, folders: [String]? = nil) throws -> JSON {
        switch value {
        case .string(let text):
            let word = folders != nil && text.hasPrefix("@") ? try allow(text, source: source, folders: folders!) : text
            return .string(try string(word, source: source))
        case .array(let elements):
            return .array(try elements.map { try resolveFiles($0, source: source, folders: folders) })
        case .object(let members):
            return .object(
                try members.map { JSON.Member($0.key, try resolveFiles($0.value, source: source, folders: folders)) })
        default: return value
        }
    }

    /// Whether `url` (symbolic links already resolved) lies under one of `folders`: the rule of
    /// `--allow-files`, for piped bodies and for `openai mcp`'s tool calls alike.
    static func isInside(_ url: URL, folders: [String]) -> Bool {
        folders.contains { url.path.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }
    }

    /// Refuses an `@path` word (from standard input) unless its file is under one of `folders`,
    /// symbolic links resolved first; `flag` names the command-line flag to suggest instead.
    ///
    /// - Throws: ``CLIError/usage(_:usage:)`` naming `--allow-files`.
    /// - Returns: The word to read: `@`, its scheme and the resolved path that was checked (so a
    ///   symbolic link swapped in after the check is not followed to another file).
    func allow(_ word: String, source: String, folders: [String], flag: String? = nil) throws -> String {
        var path = String(word.dropFirst())
        var prefix = ""
        for scheme in ["file://", "data://"] where path.hasPrefix(scheme) {
            prefix = scheme
            path = String(path.dropFirst(scheme.count))
        }
        let url = URL(fileURLWithPath: path, relativeTo: directory).resolvingSymlinksInPath().standardized
        guard Self.isInside(url, folders: folders) else {
            throw CLIError.usage(
                "\(source) names the file \(path): files named on standard input are read only under "
                    + (folders.isEmpty ? "a folder given with --allow-files DIR" : folders.joined(separator: ", "))
                    + "; or give it on the command line (`--\(flag ?? "<flag>") @\(path)`)",
                usage: usage)
        }
        return "@" + prefix + url.path
    }

    /// A multipart file: the file at `@path` streamed from disk, else the word's bytes as the part's content
    /// (named after the flag).
    func file(_ word: String, flag: Flag) throws -> FileUpload {
        if word.hasPrefix("@"), word.count > 1 {
            var path = String(word.dropFirst())
            for scheme in ["file://", "data://"] where path.hasPrefix(scheme) {
                path = String(path.dropFirst(scheme.count))
            }
            let url = URL(fileURLWithPath: path, relativeTo: directory)
            do {
                return try FileUpload(fileURL: url)
            } catch {
                throw CLIError.usage("--\(flag.flag): cannot read the file \(path)", usage: usage)
            }
        }
        let text = word.hasPrefix("\\@") ? String(word.dropFirst()) : word
        return FileUpload(data: Data(text.utf8), filename: flag.name)
    }
}

extension RequestInput {
    /// Whether the input asks `operation` for a stream: the stream's body members set as the
    /// stream needs (`--stream`, `--stream-format sse`), or its query flag (`--stream`).
    func asksForStream(_ operation: APIOperation) -> Bool {
        guard let stream = operation.stream else { return false }
        if let query = stream.query {
            return self.query.contains { $0.name == query && $0.value == .bool(true) }
        }
        guard !stream.bodySettings.isEmpty, let body else { return false }
        return stream.bodySettings.allSatisfy { body[$0.key] == $0.value }
    }

    /// The request for `operation`, with `cursor` as the page cursor when given.
    ///
    /// - Throws: ``OpenAIError`` of kind `invalidRequest` for a path parameter that would address
    ///   another endpoint (empty, `.`, `..`); what the multipart encoder throws.
    func request(for operation: APIOperation, cursor: String? = nil) throws -> APIRequest {
        var request = APIRequest(
            method: operation.httpMethod, path: operation.path, operationID: operation.id,
            authentication: operation.admin ? .adminAPIKey : .apiKey)
        for (name, value) in pathParameters { try request.setPathParameter(name, value) }
        for (name, value) in operation.fixedQuery { try request.addQuery(name, value) }
        for (name, value) in query where name != operation.page?.cursor || cursor == nil {
            try request.addQuery(name, value.jsonValue)
        }
        if let cursor, let name = operation.page?.cursor { try request.addQuery(name, cursor) }
        for (name, value) in headers { try request.addHeader(name, value) }
        if let accept = operation.accept { request.accept = accept }
        if let body, let kind = operation.body?.kind {
            switch kind {
            case .json:
                request.setRawBody(Data(body.compact.utf8), contentType: "application/json")
            case .multipart:
                try request.setMultipartBody(MultipartValues(body: body, files: files, operation: operation))
            case .text:
                request.setTextBody(
                    body.string ?? body.compact, contentType: operation.body?.contentType ?? "text/plain")
            }
        }
        return request
    }
}

/// A multipart form of the command line's values: the members as text parts (objects and arrays
/// by the runtime's conventions: `name[key]`, `name[]`), then the files.
struct MultipartValues: MultipartFormEncodable {
    var body: JSON
    var files: [(name: String, files: [FileUpload])]
    var operation: APIOperation

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
