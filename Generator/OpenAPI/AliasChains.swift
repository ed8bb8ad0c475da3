/// Chains of component schemas that are only a `$ref` to the next (`A0: {$ref: A1}`,
/// `A1: {$ref: A2}`, …), measured once each in linear time and held to a length limit.
enum AliasChains {
    /// Of each component, the number of `$ref` hops to the first schema that is not a `$ref` to
    /// another component (0 for that schema itself), and the cycles of `$ref`s, each in chain order
    /// from where the walk met it. Components on a cycle, or leading into one, have no hop count.
    static func walk(_ schemas: [(name: String, schema: Schema)]) -> (hops: [String: Int], cycles: [[String]]) {
        var byName: [String: Schema] = [:]
        for (name, schema) in schemas where byName[name] == nil { byName[name] = schema }
        var hops: [String: Int] = [:]
        var cyclic: Set<String> = []
        var cycles: [[String]] = []
        for (start, _) in schemas where hops[start] == nil && !cyclic.contains(start) {
            var path: [String] = []
            var onPath: [String: Int] = [:]
            var current = start
            var end: Int?
            while true {
                if let known = hops[current] {
                    end = known
                    break
                }
                if cyclic.contains(current) { break }
                if let index = onPath[current] {
                    cycles.append(Array(path[index...]))
                    break
                }
                guard let next = byName[current]?.ref, byName[next] != nil else {
                    end = 0
                    hops[current] = 0
                    break
                }
                onPath[current] = path.count
                path.append(current)
                current = next
            }
            guard let end else {
                cyclic.formUnion(path)
                continue
            }
            for (offset, name) in path.reversed().enumerated() { hops[name] = end + offset + 1 }
        }
        return (hops, cycles)
    }

    /// Fails on the longest chain when it has more than ``OpenAPILoader/aliasChainLimit`` hops,
    /// and on a cycle of more components than that (a shorter cycle is left to translation, which
    /// names every member).
    ///
    /// - Throws: ``OpenAPIError`` at the component the chain starts from (for a cycle, its first
    ///   component in document order).
    static func check(_ schemas: [(name: String, schema: Schema)]) throws {
        let limit = OpenAPILoader.aliasChainLimit
        let (hops, cycles) = walk(schemas)
        var order: [String: Int] = [:]
        for (offset, entry) in schemas.enumerated() where order[entry.name] == nil { order[entry.name] = offset }
        if let cycle = cycles.first(where: { $0.count > limit }) {
            let first = cycle.indices.min { order[cycle[$0]]! < order[cycle[$1]]! }!
            let members = Array(cycle[first...] + cycle[..<first])
            throw OpenAPIError(
                message:
                    "the schemas \(members.prefix(3).joined(separator: " → ")) → … refer to each other through $ref "
                    + "and nothing else in a cycle of \(members.count), more than the \(limit) $refs the generator "
                    + "follows",
                location: schemas[order[members[0]]!].schema.location)
        }
        guard let longest = schemas.max(by: { (hops[$0.name] ?? 0) < (hops[$1.name] ?? 0) }),
            let count = hops[longest.name], count > limit
        else { return }
        var next = longest.schema.ref
        var shown = [longest.name]
        while let name = next, shown.count < 3, let index = order[name] {
            shown.append(name)
            next = schemas[index].schema.ref
        }
        throw OpenAPIError(
            message:
                "the schemas \(shown.joined(separator: " → ")) → … are a chain of \(count) $refs, more than the "
                + "\(limit) the generator follows",
            location: longest.schema.location)
    }
}
