/// The generated part of the `OpenAI` module's DocC catalog (`Sources/OpenAI/OpenAI.docc/Generated/`):
/// articles that curate what the generator declares, so that the documentation's sidebar lists the
/// client's resources and then the types by area instead of 1,400 top-level types in name order.
///
/// - `API-Resources.md`, "Resources": every resource type of ``OpenAIClient``, grouped by root
///   resource, parents before their sub-resources.
/// - `API-Types.md`, "Types by area": one article per area, in name order.
/// - `Types-<Area>.md`: the area's top-level types, in three groups: the types operations take and
///   return, the event types, and the others.
///
/// The hand-written landing page (`OpenAI.md`) curates the first two. Only the `OpenAI` module is
/// documented: `OpenAIAdmin`'s resources and types are left out.
enum DocumentationCatalog {
    /// The catalog's generated articles and their manifest, paths relative to the catalog's
    /// `Generated/` folder.
    static func files(_ model: APIModel) -> [GeneratedFile] {
        var files: [GeneratedFile] = []
        let resources = model.resources.filter { $0.module == .openAI }
        if !resources.isEmpty { files.append(resourcesArticle(resources)) }

        var byArea: [String: [TopLevelDeclaration]] = [:]
        for top in model.declarations where top.module == .openAI {
            guard let area = top.area else { continue }
            byArea[area, default: []].append(top)
        }
        let areas = byArea.keys.sorted()
        if !areas.isEmpty {
            files.append(typesArticle(areas: areas, titles: model.areaTitles, typeCount: byArea.values.map(\.count)))
            for area in areas {
                files.append(areaArticle(area, title: title(of: area, titles: model.areaTitles), types: byArea[area]!))
            }
        }
        // Without the spec's hash: a spec update that changes no type or resource changes no article.
        files.append(SwiftGenerator.manifest(files, sha256: nil))
        return files.sorted { $0.path < $1.path }
    }

    /// The link name of an area's article (`Types-VectorStores`).
    static func articleName(ofArea area: String) -> String { "Types-" + area }

    /// The human title of an area: the spec's tag (`Vector stores`, `Fine-tuning`), else the area's
    /// name with its words apart (`Content provenance checks`).
    static func title(of area: String, titles: [String: String]) -> String {
        if let tag = titles[area] { return tag }
        var words: [String] = []
        for character in area {
            if character.isUppercase || words.isEmpty {
                words.append(String(character))
            } else {
                words[words.count - 1].append(character)
            }
        }
        return words.enumerated().map { $0.offset == 0 ? $0.element : $0.element.lowercased() }
            .joined(separator: " ")
    }

    /// An article's first lines: its title, then the generated-file mark (DocC wants the title first).
    private static func head(_ title: String, abstract: String) -> [String] {
        [
            "# \(title)", "",
            "<!-- \(SwiftGenerator.headerLines.map { $0.dropFirst(3) }.joined(separator: " ")) -->", "",
            abstract, "", "## Topics",
        ]
    }

    private static func resourcesArticle(_ resources: [ResourceDecl]) -> GeneratedFile {
        let example = resources.first { $0.path.count == 2 } ?? resources[0]
        var lines = head(
            "Resources",
            abstract:
                "Every resource of ``OpenAIClient``, by URL path: an operation is a method of its resource and a "
                + "sub-resource a property (`client.\(example.path.joined(separator: "."))` is ``\(example.typeName)``)."
        )
        var byRoot: [String: [ResourceDecl]] = [:]
        for resource in resources { byRoot[resource.rootTypeName, default: []].append(resource) }
        for root in byRoot.keys.sorted() {
            let name = root.hasSuffix("API") ? String(root.dropLast(3)) : root
            lines += ["", "### \(title(of: name, titles: [:]))", ""]
            lines += byRoot[root]!.map { "- ``\($0.typeName)``" }
        }
        return GeneratedFile(path: "API-Resources.md", contents: lines.joined(separator: "\n") + "\n")
    }

    private static func typesArticle(areas: [String], titles: [String: String], typeCount: [Int]) -> GeneratedFile {
        var lines = head(
            "Types by area",
            abstract:
                "The spec's schemas as Swift types (\(typeCount.reduce(0, +)) at the top level), by the area of the API "
                + "whose operations use them. `TypeIndex.swift` in `Sources/OpenAI/Generated/` names each type's file "
                + "and schema.")
        lines += ["", "### Areas", ""]
        lines += areas.map { "- <doc:\(articleName(ofArea: $0))>" }
        return GeneratedFile(path: "API-Types.md", contents: lines.joined(separator: "\n") + "\n")
    }

    private static func areaArticle(_ area: String, title: String, types: [TopLevelDeclaration]) -> GeneratedFile {
        var lines = head(
            "\(title) types",
            abstract:
                "The \(types.count) top-level types of the \(title) area, declared in "
                + "`Sources/OpenAI/Generated/Types/\(area)/`.")
        var groups: [(title: String, names: [String])] = [
            ("Requests and replies", []), ("Events", []), ("Other types", []),
        ]
        for top in types {
            let name = top.declaration.name
            switch top.role {
            case .operationType: groups[0].names.append(name)
            case .event: groups[1].names.append(name)
            case .supporting: groups[name.hasSuffix("Event") ? 1 : 2].names.append(name)
            }
        }
        for group in groups where !group.names.isEmpty {
            lines += ["", "### \(group.title)", ""]
            lines += group.names.sorted().map { "- ``\($0)``" }
        }
        return GeneratedFile(
            path: articleName(ofArea: area) + ".md", contents: lines.joined(separator: "\n") + "\n")
    }
}
