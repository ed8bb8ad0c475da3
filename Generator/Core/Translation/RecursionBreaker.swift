/// Finds value types that contain themselves (recursive schemas) and breaks the cycles: unions
/// on a cycle become `indirect enum`s; struct-only cycles store the property in a heap box.
enum RecursionBreaker {
    static func breakCycles(_ declarations: [TopLevelDeclaration]) -> [TopLevelDeclaration] {
        let kinds = TopLevelDeclaration.indexByPath(declarations)
        func directTarget(_ type: TypeRef) -> String? {
            if case .named(let name) = type, kinds[name] != nil { return name }
            return nil
        }
        func edges(_ declaration: Declaration, skipUnions: Bool) -> [String] {
            switch declaration {
            case .structure(let decl):
                return decl.properties.filter { $0.constant == nil }.compactMap { directTarget($0.type) }
            case .union(let decl): return skipUnions ? [] : decl.cases.compactMap { directTarget($0.type) }
            case .alias(let decl): return directTarget(decl.target).map { [$0] } ?? []
            case .openEnum: return []
            }
        }
        let unionCycles = stronglyConnected(Array(kinds.keys).sorted()) { edges(kinds[$0]!, skipUnions: false) }
        var indirectUnions: Set<String> = []
        for component in unionCycles {
            for name in component {
                if case .union = kinds[name]! { indirectUnions.insert(name) }
            }
        }
        // With those unions indirect, only cycles through structs alone remain.
        let structCycles = stronglyConnected(Array(kinds.keys).sorted()) { name in
            if indirectUnions.contains(name) { return [] }
            return edges(kinds[name]!, skipUnions: false)
        }
        var boxed: [String: Set<String>] = [:]  // struct path → targets to box
        for component in structCycles {
            let members = Set(component)
            for name in component {
                guard case .structure = kinds[name]! else { continue }
                for target in edges(kinds[name]!, skipUnions: false) where members.contains(target) {
                    boxed[name, default: []].insert(target)
                }
            }
        }
        func rewrite(_ declaration: Declaration, prefix: String) -> Declaration {
            let path = prefix.isEmpty ? declaration.name : "\(prefix).\(declaration.name)"
            switch declaration {
            case .structure(var decl):
                if let targets = boxed[path] {
                    for index in decl.properties.indices {
                        if let target = directTarget(decl.properties[index].type), targets.contains(target) {
                            decl.properties[index].boxed = true
                        }
                    }
                }
                decl.nested = decl.nested.map { rewrite($0, prefix: path) }
                return .structure(decl)
            case .union(var decl):
                decl.isIndirect = indirectUnions.contains(path)
                decl.nested = decl.nested.map { rewrite($0, prefix: path) }
                return .union(decl)
            default:
                return declaration
            }
        }
        return declarations.map { top in
            var copy = top
            copy.declaration = rewrite(top.declaration, prefix: top.resourceType ?? "")
            return copy
        }
    }

    /// Tarjan's algorithm; returns the components that form a cycle (more than one node, or a
    /// node with an edge to itself), each sorted, in a deterministic order.
    static func stronglyConnected(_ nodes: [String], edges: (String) -> [String]) -> [[String]] {
        var index = 0
        var indices: [String: Int] = [:]
        var lowlinks: [String: Int] = [:]
        var onStack: Set<String> = []
        var stack: [String] = []
        var result: [[String]] = []
        func visit(_ node: String) {
            indices[node] = index
            lowlinks[node] = index
            index += 1
            stack.append(node)
            onStack.insert(node)
            for next in edges(node) {
                if indices[next] == nil {
                    visit(next)
                    lowlinks[node] = min(lowlinks[node]!, lowlinks[next]!)
                } else if onStack.contains(next) {
                    lowlinks[node] = min(lowlinks[node]!, indices[next]!)
                }
            }
            if lowlinks[node] == indices[node] {
                var component: [String] = []
                while let top = stack.popLast() {
                    onStack.remove(top)
                    component.append(top)
                    if top == node { break }
                }
                if component.count > 1 || edges(node).contains(node) { result.append(component.sorted()) }
            }
        }
        for node in nodes where indices[node] == nil { visit(node) }
        return result
    }
}
