import Foundation
import OpenAIGeneratorCore
import OpenAIGeneratorOpenAPI

/// What `generate` and `check` share: read the spec and the overrides, and generate the files in
/// memory.
struct SpecGeneration {
    /// The spec's path, as given.
    var spec: String
    /// The spec's SHA-256, lowercase hex.
    var sha256: String
    /// The generated files and diagnostics.
    var result: GenerationResult

    /// The options `generate` and `check` both take, with their defaults.
    static let valuedOptions: Set<String> = [
        "--spec", "--output", "--docs-output", "--overrides", "--cli-commands", "--line-cap", "--access",
        "--admin-output", "--catalogue-output",
    ]

    /// The option that names the folder of each target of its own (``OutputLayout/targetFolders``).
    static func option(for folder: OutputLayout.TargetFolder) -> String {
        folder.prefix == SDKModule.admin.folder ? "--admin-output" : "--catalogue-output"
    }

    /// The folders the generated files go to: the output folder (the tree's root), then each part
    /// of the tree that is a target of its own and goes to a folder of its own: the folder its
    /// option names, or by default the `Generated` folder of the target's folder beside the module
    /// folder that holds the output (`Sources/OpenAIAdmin/Generated` for `Sources/OpenAI/Generated`)
    /// when that target's folder exists. A
    /// part not listed stays in the output folder (`Admin/`), so a generation into a folder of its
    /// own keeps the whole tree there.
    static func fileFolders(_ arguments: CommandArguments) -> [(prefix: String, path: String)] {
        let output = outputFolder(arguments)
        var folders = [(prefix: "", path: output)]
        let components = output.split(separator: "/", omittingEmptySubsequences: true)
        for folder in OutputLayout.targetFolders {
            let given = arguments.value(option(for: folder), default: "")
            if !given.isEmpty {
                folders.append((folder.prefix, given))
                continue
            }
            guard components.count >= 2 else { continue }
            let target =
                (output.hasPrefix("/") ? "/" : "")
                + (components.dropLast(2) + [Substring(folder.target)])
                .joined(separator: "/")
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: target, isDirectory: &isFolder), isFolder.boolValue {
                folders.append((folder.prefix, target + "/Generated"))
            }
        }
        return folders
    }

    /// The folders a generation writes or compares, each with its files: those of
    /// ``fileFolders(_:)`` (each with its own manifest), then the DocC articles' folder when there
    /// is one.
    func outputs(_ arguments: CommandArguments) -> [(files: [GeneratedFile], path: String)] {
        let folders = Self.fileFolders(arguments)
        let parts = OutputLayout.split(result.files, placing: folders.dropFirst().map(\.prefix), sha256: sha256)
        var outputs = zip(parts, folders).map { (files: $0, path: $1.path) }
        if let docsPath = Self.documentationFolder(arguments) { outputs.append((result.documentation, docsPath)) }
        return outputs
    }

    /// The output folder `arguments` name (`--output`, by default `Sources/OpenAI/Generated`).
    static func outputFolder(_ arguments: CommandArguments) -> String {
        arguments.value("--output", default: "Sources/OpenAI/Generated")
    }

    /// The folder of the generated DocC articles (`--docs-output`), or `nil` when they are not
    /// written or compared: by default the `Generated` folder of the `OpenAI.docc` catalog beside
    /// the output folder (`Sources/OpenAI/OpenAI.docc/Generated`) when that catalog exists, so a
    /// generation into a folder of its own leaves the catalog alone; `none` for never.
    static func documentationFolder(_ arguments: CommandArguments) -> String? {
        let given = arguments.value("--docs-output", default: "")
        if given == "none" { return nil }
        if !given.isEmpty { return given }
        var output = Substring(outputFolder(arguments))
        while output.count > 1 && output.hasSuffix("/") { output = output.dropLast() }
        let parent = output.lastIndex(of: "/").map { String(output[...$0]) } ?? ""
        let catalog = parent + "OpenAI.docc"
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: catalog, isDirectory: &isFolder), isFolder.boolValue else {
            return nil
        }
        return catalog + "/Generated"
    }

    /// Parses the command line of `generate` or `check` and generates.
    ///
    /// - Parameters:
    ///   - command: The command's name, for messages.
    ///   - words: The command-line words after the command's name.
    ///   - valued: The command's own options with a value, beside ``valuedOptions``.
    ///   - flags: The command's flags.
    ///   - usage: The command's usage text.
    /// - Returns: The parsed arguments and the generation, or the outcome to return at once: the
    ///   usage for `--help`, a usage error (status 2), or a spec that cannot be read or generated.
    static func start(
        _ command: String, _ words: [String], valued: Set<String> = [], flags: Set<String> = [], usage: String
    ) -> Result<(arguments: CommandArguments, generation: SpecGeneration), Failure> {
        do throws(UsageError) {
            let parsed = try CommandArguments(words, valued: valuedOptions.union(valued), flags: flags)
            if parsed.wantsHelp { return .failure(Failure(CommandOutcome(status: 0, output: usage + "\n"))) }
            guard parsed.positional.isEmpty else {
                throw UsageError("\(command) takes no positional argument: \(parsed.positional[0])")
            }
            return try run(parsed).map { (parsed, $0) }
        } catch {
            return .failure(Failure(.usageError(error, usage: usage)))
        }
    }

    /// Reads the spec and the overrides `arguments` name and generates, keeping the areas and
    /// files of the output folder's previous generation.
    ///
    /// - Parameter arguments: The parsed command line (`--spec`, `--overrides`, `--cli-commands`, `--line-cap`,
    ///   `--access`: the access level of the generated declarations, `--output`, `--fresh-layout`).
    /// - Returns: The generation, or the failing outcome: status 3 when the spec cannot be read,
    ///   1 when it or the overrides are invalid (naming file:line:column and the JSON pointer).
    /// - Throws: ``UsageError`` for a `--line-cap` under 100 or an unknown `--access`.
    private static func run(_ arguments: CommandArguments) throws(UsageError) -> Result<
        SpecGeneration, Failure
    > {
        let spec = arguments.value("--spec", default: "Spec/openapi.yaml")
        let access = try arguments.choice("--access", of: ["public", "package", "internal"], default: "public")
        let lineCap = try arguments.integer(
            "--line-cap", atLeast: 100, default: GeneratorConfiguration.defaultLineCap)
        guard let specData = FileManager.default.contents(atPath: spec) else {
            let hint = "run Scripts/spec/fetch-spec.sh for the locked one"
            return .failure(Failure(.failure(3, "\(spec): cannot read the spec (\(hint))")))
        }
        let bytes = [UInt8](specData)
        let sha256 = SHA256.hex(bytes)
        let overrides: Overrides
        let commandNames: CommandNameTable
        do {
            overrides = try arguments.overrides()
            commandNames = try arguments.commandNames()
        } catch {
            return .failure(Failure(.failure(1, "\(error)")))
        }
        let configuration = GeneratorConfiguration(
            access: access, lineCap: lineCap, overrides: overrides, previousLayout: previousLayout(arguments),
            commandNames: commandNames)
        do {
            let result = try GeneratorPipeline(configuration: configuration).run(bytes, file: spec, sha256: sha256)
            return .success(SpecGeneration(spec: spec, sha256: sha256, result: result))
        } catch let error as OpenAPIError {
            return .failure(Failure(.failure(1, "\(error)\nThe output folder was not changed.")))
        } catch {
            return .failure(Failure(.failure(1, "\(error)")))
        }
    }

    /// What the previous generation into the output folder decided (``PreviousLayout``), from its
    /// `TypeIndex.swift` files; empty when there are none or with `--fresh-layout`.
    private static func previousLayout(_ arguments: CommandArguments) -> PreviousLayout {
        if arguments.has("--fresh-layout") { return PreviousLayout() }
        let folders = fileFolders(arguments)
        let indexes = SDKModule.allCases.compactMap { module in
            // The module's folder of its own, or its folder in the output folder.
            let path =
                folders.first { $0.prefix == module.folder && !$0.prefix.isEmpty }.map { $0.path + "/" }
                ?? folders[0].path + "/" + module.folder
            return FileManager.default.contents(atPath: path + "TypeIndex.swift")
                .map { (moduleFolder: module.folder, text: String(decoding: $0, as: UTF8.self)) }
        }
        return PreviousLayout(typeIndexes: indexes)
    }

    /// A command that ends before (or instead of) writing or comparing, with what it reports.
    struct Failure: Error {
        var outcome: CommandOutcome
        init(_ outcome: CommandOutcome) { self.outcome = outcome }
    }
}
