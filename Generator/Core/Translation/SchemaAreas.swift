import OpenAIGeneratorOpenAPI

/// The API area of each component schema: the folder of `Types/` its declaration goes in.
extension Translator {
    /// The area of every component schema, in this order of evidence:
    /// 1. the first tag of the operations that reach it most directly (through the fewest `$ref`s
    ///    from an operation's parameters, bodies or replies), or `Shared` when operations of several
    ///    tags reach it equally directly; an operation without a tag counts for its root resource
    ///    (`/responses/compact` for `Responses`);
    /// 2. for a stream's event schema (`Spec/overrides.json` `streaming`), its operation's area;
    /// 3. for a schema no operation reaches (webhook payloads, stream events, WebSocket messages),
    ///    the area most of the schemas that refer to it have, else most of those it refers to, in
    ///    rounds until no schema gets one more (ties: the first area by name);
    /// 4. its name's prefix (``fallbackArea(_:)``).
    ///
    /// `reach` holds, for each operation in document order, the schemas it reaches and through how
    /// many references (``SchemaReferences/depths(from:)``).
    static func schemaAreas(
        _ document: OpenAPIDocument, reach: [[String: Int]], routes: [String: RouteNaming.Route],
        references: SchemaReferences
    ) -> [String: String] {
        var depths: [String: [String: Int]] = [:]  // schema → area → fewest references
        var operationAreas: [String: String] = [:]
        for (operation, reached) in zip(document.operations, reach) {
            let key = Self.operationKey(operation)
            let root = routes[key]?.resourcePath.first
            let area = operation.tags.first.map(Naming.typeName) ?? root.map(Naming.typeName) ?? "Shared"
            operationAreas[key] = area
            for (name, depth) in reached {
                depths[name, default: [:]][area] = min(depths[name]?[area] ?? .max, depth)
            }
        }
        var areas = depths.mapValues { byArea in
            let nearest = byArea.values.min()!
            let areas = byArea.filter { $0.value == nearest }.keys
            return areas.count == 1 ? areas.first! : "Shared"
        }
        let streams = document.operations.compactMap { operation in
            operation.overlay.stream.map { (key: Self.operationKey(operation), eventSchema: $0.eventSchema) }
        }
        for stream in streams.sorted(by: { $0.key < $1.key }) where areas[stream.eventSchema] == nil {
            if let area = operationAreas[stream.key] { areas[stream.eventSchema] = area }
        }
        let referrers = references.referrers
        while true {
            var found: [String: String] = [:]
            for (name, _) in document.schemas where areas[name] == nil {
                let from = (referrers[name] ?? []).compactMap { areas[$0] }
                let to = references.references(of: name).compactMap { areas[$0] }
                if let area = mostCommon(from.isEmpty ? to : from) { found[name] = area }
            }
            if found.isEmpty { break }
            areas.merge(found) { old, _ in old }
        }
        for (name, _) in document.schemas where areas[name] == nil { areas[name] = fallbackArea(name) }
        return areas
    }

    /// The area of a schema nothing places: by its name's prefix (`Realtime…` → `Realtime`,
    /// `Response…` → `Responses`), else `Shared`.
    static func fallbackArea(_ schemaName: String) -> String {
        let prefixes = [
            ("Realtime", "Realtime"), ("Webhook", "Webhooks"), ("Response", "Responses"), ("Chat", "Chat"),
            ("Eval", "Evals"), ("FineTun", "FineTuning"), ("Vector", "VectorStores"), ("Conversation", "Conversations"),
        ]
        for (prefix, area) in prefixes where schemaName.hasPrefix(prefix) { return area }
        return "Shared"
    }

    /// The most frequent of `areas`; ties go to the first by name. Nil when empty.
    static func mostCommon(_ areas: [String]) -> String? {
        var counts: [String: Int] = [:]
        for area in areas { counts[area, default: 0] += 1 }
        return counts.max { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }?.key
    }
}
