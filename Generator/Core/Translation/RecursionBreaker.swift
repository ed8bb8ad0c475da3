/// Finds value types that contain themselves (recursive schemas) and breaks the cycles. Every union
/// is rendered as an `indirect enum` (see `DeclarationRenderer.renderUnion`), so a cycle through a
/// union is broken already; on a cycle through structs (and aliases of them) alone, each struct's
/// property that holds another type of the cycle is stored in a heap box.
enum RecursionBreaker {
    static func breakCycles(_ declarations: [TopLevelDeclaration]) -> [TopLevelDeclaration] {
        let kinds = TopLevelDeclaration.indexByPath(declarations)
        func directTarget(_ type: TypeRef) -> String? {
            if case .named(let name) = type, kinds[name] != nil { return name }
            return nil
        }
        // The edges a cycle can run along: a union's cases hold their payloads in a box.
        func edges(_ declaration: Declaration) -> [String] {
            switch declaration {
            case .structure(let decl):
                return decl.properties.filter { $0.constant == nil }.compactMap { directTarget($0.type) }
            case .alias(let decl): return directTarget(decl.target).map { [$0] } ?? []
            case .union, .openEnum: return []
            }
        }
        let structCycles = stronglyConnected(Array(kinds.keys).sorted()) { edges(kinds[$0]!) }
        var boxed: [String: Set<String>] = [:]  // struct path → targets to box
        for component in structCycles {
            let members = Set(component)
            for name in component {
                guard case .structure = kinds[name]! else { continue }
                for target in edges(kinds[name]!) where members.contains(target) {
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
