import Foundation
import OpenAIGeneratorOpenAPI

/// Settings of one generation run.
public struct GeneratorConfiguration: Sendable {
    /// Access level of generated declarations: `public`, `package` or `internal`.
    public var access: String
    /// Most lines per generated types file; areas larger than this are split.
    public var lineCap: Int
    /// Naming overrides and spec corrections.
    public var overrides: Overrides
    /// What the previous generation into the output folder decided that this one keeps (the
    /// areas and files of types); empty: the output depends on the spec and the overrides alone.
    public var previousLayout: PreviousLayout
    /// The official CLI's command names (`Spec/cli-commands.json`) for the `openai` tool's catalogue.
    public var commandNames: CommandNameTable

    /// The most lines per types file unless told otherwise (`generate --line-cap`), measured for
    /// compile time (README, "Build cost"); `Scripts/check/lint.sh` holds the generated files to it.
    public static let defaultLineCap = 4000

    public init(
        access: String = "public", lineCap: Int = GeneratorConfiguration.defaultLineCap,
        overrides: Overrides = Overrides(), previousLayout: PreviousLayout = PreviousLayout(),
        commandNames: CommandNameTable = CommandNameTable()
    ) {
        self.commandNames = commandNames
        self.access = access
        self.lineCap = lineCap
        self.overrides = overrides
        self.previousLayout = previousLayout
    }
}

/// One output file, path relative to the output folder.
public struct GeneratedFile: Hashable, Sendable {
    public var path: String
    public var contents: String
}

/// What a generation run made.
public struct GenerationResult: Sendable {
    public var files: [GeneratedFile]
    public var diagnostics: [Diagnostic]
    public var operationCount: Int
    public var schemaCount: Int
    public var typeCount: Int
    /// Operations that stream but have no streaming variant.
    public var incompleteOperations: [String]
    /// How many operations have a streaming variant.
    public var streamingOperations: Int
    /// How many inline schemas were emitted as the component of the same shape.
    public var reusedComponents: Int
    /// The generated articles of the `OpenAI` module's DocC catalog and their manifest, paths
    /// relative to the catalog's `Generated/` folder (``DocumentationCatalog``).
    public var documentation: [GeneratedFile] = []
}

/// The render stage of ``GeneratorPipeline``: the IR in, the Swift files and the DocC articles out.
public enum SwiftGenerator {
    /// The generator's version, written into every file header.
    public static let version = "0.1.0"

    /// Renders the translated API: the types files by module and area, the resource files, the
    /// reply-type tables, the operation index, the `openai` tool's catalogue and its tools' schemas
    /// (``CatalogueRenderer``, ``SchemaCatalogueRenderer``) and the manifest.
    ///
    /// - Parameters:
    ///   - model: The IR.
    ///   - diagnostics: The diagnostics of the earlier stages, passed through to the result.
    ///   - schemaCount: How many component schemas the spec has, for the summary.
    ///   - sha256: The spec's hash, for the manifest.
    ///   - configuration: Access level and line cap.
    static func render(
        _ model: APIModel, diagnostics: [Diagnostic], schemaCount: Int, sha256: String,
        configuration: GeneratorConfiguration
    ) -> GenerationResult {
        // The spec's hash lives in the manifest alone, so a new spec changes only the files whose
        // contents change.
        var files: [GeneratedFile] = []
        let renderer = DeclarationRenderer(access: configuration.access)

        // Types, by module and area (a folder each): the types a reader names in files of their
        // own, named after them; the others in their area's files, in name order, split by
        // content at the line cap (FileLayout).
        var byArea: [AreaKey: [(name: String, printer: CodePrinter)]] = [:]
        var ownFiles: [(key: AreaKey, name: String, units: [(name: String, printer: CodePrinter)])] = []
        var resourceNested: [String: [CodePrinter]] = [:]
        var index: [SDKModule: [(type: String, path: String)]] = [:]
        var pointers: [String: String] = [:]
        var typeCount = 0
        for top in model.declarations {
            var printer = CodePrinter()
            renderer.render(top.declaration, into: &printer)
            typeCount += countTypes(top.declaration)
            if let resourceType = top.resourceType {
                resourceNested[resourceType, default: []].append(printer)
                continue
            }
            pointers[top.declaration.name] = pointers[top.declaration.name] ?? top.declaration.documentation.remark
            let key = AreaKey(module: top.module, area: top.area ?? "Shared")
            var units = [(name: top.declaration.name, printer: printer)]
            // A type larger than the cap keeps its own members in its file; each nested type goes
            // in an extension of it, laid out like the other types (`Outer+Nested`).
            if printer.lines.count > configuration.lineCap, let (outer, nested) = Self.withoutNested(top.declaration) {
                var main = CodePrinter()
                renderer.render(outer, into: &main)
                units = [(outer.name, main)]
                for child in nested {
                    var part = CodePrinter()
                    part.block("extension \(outer.name)") { body in renderer.render(child, into: &body) }
                    units.append(("\(outer.name).\(child.name)", part))
                }
            }
            if top.hasOwnFile && printer.lines.count >= FileLayout.ownFileMinimumLines {
                ownFiles.append((key, top.declaration.name, units))
            } else {
                byArea[key, default: []].append(contentsOf: units)
            }
        }
        var taken: Set<String> = []
        func add(
            _ key: AreaKey, _ layout: [(name: String, units: Range<Int>)],
            _ units: [(name: String, printer: CodePrinter)]
        ) {
            let folder = "\(key.module.folder)Types/\(key.area)/"
            for file in layout {
                // A shard named like a type's own file (`Batch` in the area `Batch`) yields to it.
                var path = folder + file.name + ".swift"
                if taken.contains(path) { path = folder + file.name + "+Types.swift" }
                taken.insert(path)
                let body = units[file.units].map(\.printer.text).joined(separator: "\n")
                files.append(GeneratedFile(path: path, contents: Self.header(key.module) + "\n" + body))
                for unit in units[file.units] where !unit.name.contains(".") {
                    index[key.module, default: []].append((unit.name, path))
                }
            }
        }
        for entry in ownFiles.sorted(by: { ($0.key, $0.name) < ($1.key, $1.name) }) {
            let units = entry.units.sorted { $0.name < $1.name }
            // `Type.swift`, and for a type split at the cap `Type+Nested.swift` for each further file.
            let layout = FileLayout.files(
                area: entry.name, units: units.map { FileLayout.Unit(name: $0.name, lines: $0.printer.lines.count) },
                lineCap: configuration.lineCap
            ).map { file in
                let first = units[file.units.lowerBound].name
                let name =
                    first == entry.name
                    ? entry.name
                    : entry.name + "+" + first.dropFirst(entry.name.count + 1).replacingOccurrences(of: ".", with: "+")
                return (name: name, units: file.units)
            }
            add(entry.key, layout, units)
        }
        for key in byArea.keys.sorted() {
            let types = byArea[key]!.sorted { $0.name < $1.name }
            let units = types.map { FileLayout.Unit(name: $0.name, lines: $0.printer.lines.count) }
            // The file each type had in the previous generation, when it was one of this area's.
            let folder = "\(key.module.folder)Types/\(key.area)/"
            let previous = types.reduce(into: [String: String]()) { previous, type in
                guard let path = configuration.previousLayout.files[type.name], path.hasPrefix(folder) else { return }
                previous[type.name] = String(path.dropFirst(folder.count).dropLast(".swift".count))
            }
            add(
                key,
                FileLayout.files(area: key.area, units: units, lineCap: configuration.lineCap, previous: previous),
                types)
        }
        for module in SDKModule.allCases {
            guard let entries = index[module] else { continue }
            files.append(
                typeIndex(
                    entries.map { ($0.type, $0.path, pointers[$0.type] ?? "") }, module: module))
        }

        // Resources and operations: one file per root resource, split at the line cap like an
        // area's types (FileLayout), one resource per unit.
        let operationRenderer = OperationRenderer(access: configuration.access)
        var byRoot: [String: [ResourceDecl]] = [:]
        for resource in model.resources { byRoot[resource.rootTypeName, default: []].append(resource) }
        for rootType in byRoot.keys.sorted() {
            let resources = byRoot[rootType]!
            let module = resources[0].module
            var units: [(name: String, printer: CodePrinter)] = []
            for resource in resources {
                var printer = CodePrinter()
                if resource.path.count == 1 {
                    let root = resource.path[0]
                    printer.block("extension OpenAIClient") { body in
                        body.line("/// The `\(root)` resource and the resources below it.")
                        body.line(
                            "\(configuration.access) var \(Naming.escaped(root)): \(rootType) { \(rootType)(client: self) }"
                        )
                    }
                    printer.line()
                }
                renderResource(
                    resource, operations: resource.operationIndices.map { model.operations[$0] },
                    nested: resourceNested[resource.typeName] ?? [], renderer: operationRenderer,
                    access: configuration.access, into: &printer)
                units.append((resource.typeName, printer))
            }
            let layout = FileLayout.files(
                area: rootType, units: units.map { FileLayout.Unit(name: $0.name, lines: $0.printer.lines.count) },
                lineCap: configuration.lineCap)
            for file in layout {
                // The root resource comes first, so its file keeps the root's name when split.
                let name = file.units.lowerBound == 0 ? rootType : file.name
                files.append(
                    GeneratedFile(
                        path: "\(module.folder)Resources/\(name).swift",
                        contents: Self.header(module) + "\n"
                            + units[file.units].map(\.printer.text).joined(separator: "\n")))
            }
        }

        // For tests and tools: the response type of each JSON operation, a table per module.
        for module in SDKModule.allCases {
            let operations = model.operations.filter { $0.module == module }
            guard module == .openAI || !operations.isEmpty else { continue }
            files.append(responseTypes(operations, module: module))
        }
        files.append(operationIndex(model, renderer: operationRenderer))
        let catalogue = CatalogueRenderer.file(model, names: configuration.commandNames)
        files.append(catalogue.file)
        files.append(SchemaCatalogueRenderer.file(model))

        files.append(manifest(files, sha256: sha256))
        files.sort { $0.path < $1.path }
        // Operations that stream in reality but got no streaming variant.
        let incomplete = model.operations.filter { $0.streams && $0.streaming == nil }.map(\.operationID).sorted()
        return GenerationResult(
            files: files, diagnostics: diagnostics + catalogue.diagnostics, operationCount: model.operations.count,
            schemaCount: schemaCount, typeCount: typeCount, incompleteOperations: incomplete,
            streamingOperations: model.operations.filter { $0.streaming != nil }.count,
            reusedComponents: model.reusedComponents.count,
            documentation: DocumentationCatalog.files(model))
    }

    /// One resource: its struct with the client and a property per sub-resource, then an
    /// extension with its methods and the types nested in it.
    static func renderResource(
        _ resource: ResourceDecl, operations: [OperationDecl], nested: [CodePrinter], renderer: OperationRenderer,
        access: String, into printer: inout CodePrinter
    ) {
        printer.line(
            "/// The `\(resource.path.joined(separator: "."))` resource of ``OpenAIClient``: its operations are methods, its sub-resources properties."
        )
        printer.block("\(access) struct \(resource.typeName): Sendable") { body in
            body.line("/// The client that sends this resource's requests.")
            body.line("\(access) let client: OpenAIClient")
            for child in resource.children {
                body.line()
                body.line("/// The `\((resource.path + [child.member]).joined(separator: "."))` resource.")
                body.line(
                    "\(access) var \(Naming.escaped(child.member)): \(child.typeName) { \(child.typeName)(client: client) }"
                )
            }
        }
        guard !operations.isEmpty || !nested.isEmpty else { return }
        printer.line()
        printer.block("extension \(resource.typeName)") { body in
            var first = true
            for operation in operations {
                if !first { body.line() }
                first = false
                renderer.render(operation, into: &body)
            }
            for type in nested {
                body.line()
                body.append(type)
            }
        }
    }

    /// A struct or union without its nested types, and those types; `nil` when it has none.
    static func withoutNested(_ declaration: Declaration) -> (Declaration, [Declaration])? {
        switch declaration {
        case .structure(var decl) where !decl.nested.isEmpty:
            let nested = decl.nested
            decl.nested = []
            return (.structure(decl), nested)
        case .union(var decl) where !decl.nested.isEmpty:
            let nested = decl.nested
            decl.nested = []
            return (.union(decl), nested)
        default:
            return nil
        }
    }

    /// Types files are grouped by module, then area.
    struct AreaKey: Hashable, Comparable {
        var module: SDKModule
        var area: String

        static func < (lhs: AreaKey, rhs: AreaKey) -> Bool {
            (lhs.module.folder, lhs.area) < (rhs.module.folder, rhs.area)
        }
    }

    /// The lines every Swift file of `module` starts with: the generated-file header and imports.
    static func header(_ module: SDKModule) -> String {
        let imports =
            module == .openAI ? ["import Foundation", "import OpenAIRuntime"] : ["import Foundation", "import OpenAI"]
        return (headerLines + [""] + imports + [""]).joined(separator: "\n")
    }

    /// The table of each JSON operation's reply type in `module` (`OperationResponseTypes`, in
    /// `OpenAIAdmin` `AdminOperationResponseTypes`), for tests and tools.
    static func responseTypes(_ operations: [OperationDecl], module: SDKModule) -> GeneratedFile {
        let name = module == .openAI ? "OperationResponseTypes" : "AdminOperationResponseTypes"
        var table = CodePrinter()
        table.line(
            "/// The documented 2xx JSON reply types of the operations\(module == .admin ? " of `OpenAIAdmin`" : "").")
        table.block("enum \(name)") { body in
            body.line("/// The reply type of the operation `operationID`, or `nil` when its reply is not JSON.")
            body.block("static func responseType(of operationID: Swift.String) -> (any Decodable.Type)?") { method in
                method.switchBlock("switch operationID") { cases in
                    for operation in operations.sorted(by: { $0.operationID < $1.operationID }) {
                        if case .json(let type) = operation.response {
                            cases.line("case \(operation.operationID.swiftLiteral): return \(type.swift).self")
                        }
                    }
                    cases.line("default: return nil")
                }
            }
        }
        return GeneratedFile(path: "\(module.folder)\(name).swift", contents: header(module) + "\n" + table.text)
    }

    /// For readers: every operation, by path and HTTP method, and the method that calls it, as a
    /// Swift file of comments (`OperationIndex.swift`).
    static func operationIndex(_ model: APIModel, renderer: OperationRenderer) -> GeneratedFile {
        var lines =
            headerLines + [
                "//",
                "// Every operation of the spec and the method that calls it, by path (the operationId in brackets).",
                "// A streaming operation also has `…Stream(…)`; a binary download also has `…(…, to:)`.",
                "//",
            ]
        let sorted = model.operations.sorted {
            ($0.path, $0.httpMethod, $0.operationID) < ($1.path, $1.httpMethod, $1.operationID)
        }
        for operation in sorted {
            let call = CodePrinter.withoutLineTerminators(renderer.callSpelling(operation))
            let id = CodePrinter.withoutLineTerminators(operation.operationID)
            lines.append("// \(operation.httpMethod) \(CodePrinter.withoutLineTerminators(operation.path))")
            lines.append("//     \(call) [\(id)]")
        }
        return GeneratedFile(path: "OperationIndex.swift", contents: lines.joined(separator: "\n") + "\n")
    }

    /// The index of a module's top-level types (`TypeIndex.swift`, comments only): each type, the
    /// file that declares it and the spec schema it comes from, by name, so a reader who searches
    /// the repository for a type finds its file.
    static func typeIndex(_ entries: [(type: String, path: String, pointer: String)], module: SDKModule)
        -> GeneratedFile
    {
        var lines =
            headerLines + [
                "//",
                "// Every top-level type of the `\(module.rawValue)` module: the file that declares it (relative to this one)",
                "// and the spec schema it is generated from. Types an operation names have a file of their own.",
                "//",
            ]
        for entry in entries.sorted(by: { $0.type < $1.type }) {
            let path = entry.path.dropFirst(module.folder.count)
            lines.append("// \(entry.type) → \(path)" + (entry.pointer.isEmpty ? "" : " (\(entry.pointer))"))
        }
        return GeneratedFile(path: module.folder + "TypeIndex.swift", contents: lines.joined(separator: "\n") + "\n")
    }

    /// The folder's manifest: the spec's sha256 (when given) and every file the generator owns
    /// there (``OutputWriter``), as a Swift file of comments.
    static func manifest(_ files: [GeneratedFile], sha256: String?) -> GeneratedFile {
        var lines =
            headerLines + [
                "//",
                "// The manifest of this folder: "
                    + (sha256 == nil ? "" : "the spec it was generated from and ")
                    + "every file the generator owns here.",
                "// `openai-generator generate` replaces or removes only these files; `check` compares them with the spec.",
                "//",
            ]
        if let sha256 { lines.append("// spec-sha256: \(sha256)") }
        lines += files.map(\.path).sorted().map { "// file: \($0)" }
        return GeneratedFile(path: OutputWriter.manifestName, contents: lines.joined(separator: "\n") + "\n")
    }

    /// The first lines of every generated file, the manifest included (``OutputWriter/headerPrefix``).
    static let headerLines = [
        "\(OutputWriter.headerPrefix) \(version) from the OpenAI OpenAPI spec.",
        "// DO NOT EDIT: regenerate with Scripts/regenerate.sh.",
    ]

    static func countTypes(_ declaration: Declaration) -> Int {
        switch declaration {
        case .structure(let decl): 1 + decl.nested.map(countTypes).reduce(0, +)
        case .union(let decl): 1 + decl.nested.map(countTypes).reduce(0, +)
        case .openEnum, .alias: 1
        }
    }
}
