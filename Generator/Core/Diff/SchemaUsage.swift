import OpenAIGeneratorOpenAPI

/// Where a schema is used: in JSON the caller sends, in JSON the caller reads, or both.
struct UsageDirections: OptionSet, Hashable, Sendable {
    let rawValue: Int
    static let request = UsageDirections(rawValue: 1)
    static let response = UsageDirections(rawValue: 2)
    static let both: UsageDirections = [.request, .response]

    /// The wire audiences these directions are judged for.
    var audiences: [ChangeAudience] {
        var result: [ChangeAudience] = []
        if contains(.request) { result.append(.wireRequest) }
        if contains(.response) { result.append(.wireResponse) }
        return result
    }
}

/// The directions every component schema is reachable from: request bodies and parameters give
/// `request`; responses and webhook payloads give `response`. Components no operation reaches
/// (Realtime events) count as `request` when named `…ClientEvent…`, `response` when named
/// `…ServerEvent…`, and both otherwise.
enum SchemaUsage {
    static func directions(of document: OpenAPIDocument) -> [String: UsageDirections] {
        var references: [String: [String]] = [:]
        for (name, schema) in document.schemas {
            var set: Set<String> = []
            collect(schema, into: &set)
            references[name] = set.sorted()
        }
        var result: [String: UsageDirections] = [:]
        func mark(_ roots: Set<String>, _ direction: UsageDirections) {
            var stack = Array(roots)
            while let next = stack.popLast() {
                let before = result[next] ?? []
                guard !before.isSuperset(of: direction) else { continue }
                result[next] = before.union(direction)
                stack.append(contentsOf: references[next] ?? [])
            }
        }
        var requestRoots: Set<String> = []
        var responseRoots: Set<String> = []
        for operation in document.operations {
            for parameter in operation.parameters { collect(parameter.schema, into: &requestRoots) }
            for media in operation.requestBody?.content ?? [] {
                if let schema = media.schema { collect(schema, into: &requestRoots) }
            }
            for response in operation.responses {
                for media in response.content {
                    if let schema = media.schema { collect(schema, into: &responseRoots) }
                }
            }
        }
        for webhook in document.webhooks {
            if let payload = webhook.payload { collect(payload, into: &responseRoots) }
        }
        mark(requestRoots, .request)
        mark(responseRoots, .response)
        var orphans: (request: Set<String>, response: Set<String>) = ([], [])
        for (name, _) in document.schemas where result[name] == nil {
            if name.contains("ClientEvent") {
                orphans.request.insert(name)
            } else if name.contains("ServerEvent") {
                orphans.response.insert(name)
            }
        }
        mark(orphans.request, .request)
        mark(orphans.response, .response)
        mark(Set(document.schemas.map(\.name).filter { result[$0] == nil }), .both)
        return result
    }

    static func collect(_ schema: Schema, into set: inout Set<String>) {
        if let ref = schema.ref { set.insert(ref) }
        for (_, property) in schema.properties { collect(property, into: &set) }
        for branch in schema.oneOf + schema.anyOf + schema.allOf { collect(branch, into: &set) }
        if let items = schema.items { collect(items, into: &set) }
        if case .schema(let value) = schema.additionalProperties { collect(value, into: &set) }
    }
}

extension SchemaUsage {
    /// Components whose every `$ref` is a variant of a union that also takes any string
    /// (`anyOf: [string, $ref ChatModel]`): their enum values are open, so one leaving or joining
    /// changes no JSON that is accepted.
    static func openOnlyComponents(of document: OpenAPIDocument) -> Set<String> {
        var open: Set<String> = []
        var closed: Set<String> = []
        func walk(_ schema: Schema, inOpenUnion: Bool, depth: Int = 0) {
            guard depth < 64 else { return }
            if let ref = schema.ref {
                if inOpenUnion { open.insert(ref) } else { closed.insert(ref) }
            }
            let variants = SchemaShape.variants(schema)
            let isOpen = variants.contains { SchemaShape($0).takesAnyString }
            for variant in variants { walk(variant, inOpenUnion: isOpen, depth: depth + 1) }
            for (_, property) in schema.properties { walk(property, inOpenUnion: false, depth: depth + 1) }
            for member in schema.allOf { walk(member, inOpenUnion: false, depth: depth + 1) }
            if let items = schema.items { walk(items, inOpenUnion: false, depth: depth + 1) }
            if case .schema(let value) = schema.additionalProperties {
                walk(value, inOpenUnion: false, depth: depth + 1)
            }
        }
        for (_, schema) in document.schemas { walk(schema, inOpenUnion: false) }
        for operation in document.operations {
            for parameter in operation.parameters { walk(parameter.schema, inOpenUnion: false) }
            for media in operation.requestBody?.content ?? [] {
                if let schema = media.schema { walk(schema, inOpenUnion: false) }
            }
            for response in operation.responses {
                for media in response.content {
                    if let schema = media.schema { walk(schema, inOpenUnion: false) }
                }
            }
        }
        for webhook in document.webhooks {
            if let payload = webhook.payload { walk(payload, inOpenUnion: false) }
        }
        return open.subtracting(closed)
    }
}
