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
    /// A schema keeps its area of the previous generation (`previous`, ``PreviousLayout``) while
    /// that area is still among the evidence: an operation of the area reaches it at any depth
    /// (`Shared`: operations of several areas do), the schemas that refer to it (else that it
    /// refers to) include the area, or nothing places it and the area still has types. So a spec
    /// update moves a type to another folder only when its area no longer reaches it, not when an
    /// operation elsewhere comes to reach it more directly.
    ///
    /// `reach` holds, for each operation in document order, the schemas it reaches and through how
    /// many references (``SchemaReferences/depths(from:)``).
    static func schemaAreas(
        _ document: OpenAPIDocument, reach: [[String: Int]], routes: [String: RouteNaming.Route],
        references: SchemaReferences, previous: [String: String] = [:]
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
        var areas = depths.reduce(into: [String: String]()) { areas, entry in
            let (name, byArea) = entry
            if let kept = previous[name], byArea[kept] != nil || (kept == "Shared" && byArea.count > 1) {
                areas[name] = kept
                return
            }
            let nearest = byArea.values.min()!
            let nearestAreas = byArea.filter { $0.value == nearest }.keys
            areas[name] = nearestAreas.count == 1 ? nearestAreas.first! : "Shared"
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
                let evidence = from.isEmpty ? to : from
                if let kept = previous[name], evidence.contains(kept) {
                    found[name] = kept
                } else if let area = mostCommon(evidence) {
                    found[name] = area
                }
            }
            if found.isEmpty { break }
            areas.merge(found) { old, _ in old }
        }
        let placed = Set(areas.values)
        for (name, _) in document.schemas where areas[name] == nil {
            // Nothing places it: it stays where it was while that folder still has types.
            areas[name] = previous[name].flatMap { placed.contains($0) ? $0 : nil } ?? fallbackArea(name)
        }
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
