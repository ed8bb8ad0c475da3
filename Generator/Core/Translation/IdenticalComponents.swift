/// Component schemas that would declare the same Swift type twice, declared once.
///
/// The spec repeats many schemas under a second name: 218 of the locked spec's `Beta…` schemas
/// generate the declaration of the schema without the prefix (`BetaResponseUsage` and
/// `ResponseUsage`), once the references they hold are read as the pairs they are. Each was a full second type, compiled and
/// documented twice. Here the second one becomes a `typealias` of the first: both names stay, a
/// value of one is a value of the other, and each doc comment names the other.
///
/// "The same shape" is decided on the generated declarations, not on the schemas: `BetaX` repeats
/// `X` when their declarations are equal apart from documentation text, with each reference to a
/// `BetaY` that repeats `Y` read as `Y`. The pairs are the largest set for which that holds (a
/// greatest fixed point: every pair is assumed until one of its references or members differs), so
/// mutually recursive pairs merge, and a pair that differs anywhere below (a type, a constant, a
/// required member, a deprecation, a boxed member) does not. A shape shared by unrelated schemas
/// (two enumerations of the same statuses) stays two types: a coincidence a later spec may undo,
/// where a `Beta…` schema is a copy the spec keeps on purpose.
enum IdenticalComponents {
    /// `declarations` with each `Beta…` component that repeats another (same module) as an
    /// ``AliasDecl`` of it.
    static func merge(_ declarations: [TopLevelDeclaration]) -> [TopLevelDeclaration] {
        let candidates = candidates(declarations)
        var targets: [String: String] = [:]
        for (name, index) in candidates where name.hasPrefix(betaPrefix) {
            let plain = String(name.dropFirst(betaPrefix.count))
            guard let other = candidates[plain], declarations[other].module == declarations[index].module else {
                continue
            }
            targets[name] = plain
        }
        // Each round drops the pairs that differ once references are read through the pairs left;
        // a round that drops none is the last.
        while true {
            let kept = targets.filter { beta, plain in
                shape(of: declarations[candidates[beta]!].declaration, targets: targets)
                    == shape(of: declarations[candidates[plain]!].declaration, targets: targets)
            }
            if kept.count == targets.count { break }
            targets = kept
        }
        guard !targets.isEmpty else { return declarations }
        let aliasesOf = Dictionary(grouping: targets.keys.sorted(), by: { targets[$0]! })
        return declarations.map { top in
            var top = top
            let name = top.declaration.name
            guard top.resourceType == nil, let schemaName = top.schemaName else { return top }
            if let target = targets[name] {
                var documentation = top.declaration.documentation
                documentation.notes.append(
                    "The same type as ``\(target)``: the spec's `\(schemaName)` schema has its shape (descriptions aside)."
                )
                top.declaration = .alias(AliasDecl(name: name, documentation: documentation, target: .named(target)))
            } else if let aliases = aliasesOf[name] {
                top.declaration.documentation.notes.append(
                    "Also named " + aliases.map { "``\($0)``" }.joined(separator: ", ")
                        + ": the spec's schema of that name has this shape (descriptions aside).")
            }
            return top
        }
    }

    static let betaPrefix = "Beta"

    /// The components that may repeat another: the top-level declarations generated from
    /// component schemas, by Swift name → index in `declarations`.
    private static func candidates(_ declarations: [TopLevelDeclaration]) -> [String: Int] {
        var result: [String: Int] = [:]
        for (index, top) in declarations.enumerated() where top.schemaName != nil && top.resourceType == nil {
            result[top.declaration.name] = index
        }
        return result
    }

    /// `declaration` as compared: named `name` (the empty name for the top-level type), its
    /// documentation reduced to whether it is deprecated (which the generated code carries), and
    /// each reference to a `BetaY` of `targets` written as its `Y`.
    private static func shape(of declaration: Declaration, named name: String = "", targets: [String: String])
        -> Declaration
    {
        func mapped(_ type: TypeRef) -> TypeRef {
            switch type {
            case .named(let path):
                let head = path.prefix { $0 != "." }
                guard let target = targets[String(head)] else { return type }
                return .named(target + path.dropFirst(head.count))
            case .array(let element): return .array(mapped(element))
            case .dictionary(let value): return .dictionary(mapped(value))
            default: return type
            }
        }
        func bare(_ documentation: Documentation) -> Documentation {
            Documentation(summary: nil, remark: "", deprecated: documentation.deprecated)
        }
        switch declaration {
        case .structure(var decl):
            decl.name = name
            decl.documentation = bare(decl.documentation)
            for index in decl.properties.indices {
                decl.properties[index].type = mapped(decl.properties[index].type)
                decl.properties[index].documentation = bare(decl.properties[index].documentation)
            }
            decl.additionalProperties = decl.additionalProperties.map(mapped)
            if var page = decl.page {
                page.itemType = mapped(page.itemType)
                decl.page = page
            }
            decl.nested = decl.nested.map { shape(of: $0, named: $0.name, targets: targets) }
            return .structure(decl)
        case .openEnum(var decl):
            decl.name = name
            decl.documentation = bare(decl.documentation)
            for index in decl.values.indices { decl.values[index].documentation = nil }
            return .openEnum(decl)
        case .union(var decl):
            decl.name = name
            decl.documentation = bare(decl.documentation)
            for index in decl.cases.indices {
                // A case named after its variant's component is named after the component it repeats.
                if case .named(let path) = decl.cases[index].type, let target = targets[path],
                    decl.cases[index].name == Naming.memberName(path)
                {
                    decl.cases[index].name = Naming.memberName(target)
                }
                decl.cases[index].type = mapped(decl.cases[index].type)
                decl.cases[index].documentation = nil
            }
            decl.nested = decl.nested.map { shape(of: $0, named: $0.name, targets: targets) }
            return .union(decl)
        case .alias(var decl):
            decl.name = name
            decl.documentation = bare(decl.documentation)
            decl.target = mapped(decl.target)
            return .alias(decl)
        }
    }
}
