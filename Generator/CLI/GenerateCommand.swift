import Foundation
import OpenAIGeneratorCore

/// `openai-generator generate`: writes the SDK's generated code from a spec.
public enum GenerateCommand {
    /// Usage text of `generate`.
    public static let usage = """
        usage: openai-generator generate [--spec PATH] [--output DIR] [--admin-output DIR]
                                         [--catalogue-output DIR] [--docs-output DIR|none]
                                         [--access public|package|internal] [--overrides PATH] [--force]
                                         [--strict] [--line-cap N] [--fresh-layout] [--cli-commands PATH]
                                         [--list-outputs]

        Defaults: --spec Spec/openapi.yaml, --output Sources/OpenAI/Generated (the OpenAI module's files),
        --admin-output and --catalogue-output the OpenAIAdmin and OpenAICatalogue folders beside the output
        folder's module folder (Sources/OpenAIAdmin/Generated, Sources/OpenAICatalogue/Generated) when those
        targets' folders exist, else Admin/ and
        Catalogue/ inside the output folder, --docs-output the Generated
        folder of the OpenAI.docc catalog beside the output folder when there is one (the DocC articles that
        curate the generated API; `none`: not written), --overrides Spec/overrides.json (skipped when absent; a
        path given must exist; `none`: no overrides), --cli-commands Spec/cli-commands.json (the official CLI's
        command names for the `openai` tool's catalogue, Catalogue/; skipped when absent), --access public,
        --line-cap \(GeneratorConfiguration.defaultLineCap).
        Writes only into an empty folder or one it wrote before (its Manifest.swift), and replaces or removes
        only its own files; --force writes into another folder (still touching only its own files, and
        replacing others at generated paths); --strict fails on any warning (exit status 1, the output folder
        left as it was); --line-cap sets the most lines per types file (measured: see CONTRIBUTING.md "Build
        cost").
        Types keep the folder and file the output folder's TypeIndex.swift gives them (a spec update moves a
        type when its area's operations no longer reach it, when it gets or leaves a file of its own, or when
        its file grows over the line cap); --fresh-layout lays every type out from the spec alone, as in an
        empty folder.
        --list-outputs prints the folders generate writes with these options (the output folder, the
        admin and catalogue folders when they are folders of their own, then the DocC folder when there is one), one per line, and reads and writes nothing: Scripts/spec/update-spec.sh
        snapshots, rolls back and commits exactly these.
        Exit status: 0 success; 1 invalid spec or overrides, a warning with --strict, or a folder it does not
        own; 2 usage error; 3 I/O error.
        """

    /// Runs `generate` with `arguments` (the words after `generate`), relative to the current
    /// directory.
    ///
    /// - Parameter arguments: The command-line words after `generate`.
    /// - Returns: The report (standard output), the diagnostics (standard error) and the status.
    public static func run(arguments: [String]) -> CommandOutcome {
        if arguments.contains("--list-outputs") { return listOutputs(arguments) }
        let start = Date()
        let parsed: CommandArguments
        let generation: SpecGeneration
        switch SpecGeneration.start(
            "generate", arguments, flags: ["--force", "--strict", "--fresh-layout"], usage: usage)
        {
        case .success(let started): (parsed, generation) = started
        case .failure(let stop): return stop.outcome
        }
        let result = generation.result
        let warnings = result.diagnostics.filter { $0.severity == .warning }
        var errorOutput = ""
        if parsed.has("--strict") && !warnings.isEmpty {
            for diagnostic in warnings { errorOutput += "\(diagnostic)\n" }
            errorOutput += "generate --strict: \(warnings.count) warning(s); the output folder was not changed.\n"
            return CommandOutcome(status: 1, errorOutput: errorOutput)
        }
        let outputs = generation.outputs(parsed)
        var written = 0
        do {
            // Every folder is judged before any is written: a refusal changes none.
            for output in outputs {
                try OutputWriter.verifyOwnership(
                    output.files, in: URL(fileURLWithPath: output.path), force: parsed.has("--force"))
            }
        } catch {
            let unchanged =
                outputs.count == 1
                ? "The output folder was not changed."
                : outputs.count == 2 ? "Neither output folder was changed." : "No output folder was changed."
            return .failure(1, "\(error)\n\(unchanged)")
        }
        for output in outputs {
            do {
                written += try OutputWriter.write(
                    output.files, to: URL(fileURLWithPath: output.path), force: parsed.has("--force"))
            } catch {
                return .failure(3, "cannot write \(output.path): \(error)")
            }
        }
        for diagnostic in result.diagnostics { errorOutput += "\(diagnostic)\n" }
        var byKind: [String: Int] = [:]
        for diagnostic in warnings { byKind[diagnostic.kind.rawValue, default: 0] += 1 }
        let lines = result.files.reduce(0) { $0 + $1.contents.utf8.reduce(0) { $1 == 10 ? $0 + 1 : $0 } }
        let incomplete =
            result.incompleteOperations.isEmpty ? "" : " (" + result.incompleteOperations.joined(separator: ", ") + ")"
        var report = [
            "openai-generator \(SwiftGenerator.version): \(generation.spec) (sha256 \(generation.sha256))",
            "operations: \(result.operationCount) (methods: \(result.operationCount))",
            "schemas: \(result.schemaCount); types: \(result.typeCount) "
                + "(inline schemas emitted as an equal component: \(result.reusedComponents))",
            "files (lines: \(lines)): "
                + outputs.map { "\($0.files.count) in \($0.path)" }.joined(separator: ", ") + "; \(written) changed",
            "warnings: \(warnings.count); notes: \(result.diagnostics.count - warnings.count)",
        ]
        for kind in byKind.keys.sorted() { report.append("  \(kind): \(byKind[kind] ?? 0)") }
        report.append(
            "streaming variants: \(result.streamingOperations); incomplete: \(result.incompleteOperations.count)\(incomplete)"
        )
        report.append(String(format: "time: %.3f s", Date().timeIntervalSince(start)))
        return CommandOutcome(status: 0, output: report.joined(separator: "\n") + "\n", errorOutput: errorOutput)
    }

    /// `generate --list-outputs`: the folders a generation with the same options writes, one a
    /// line, without reading the spec.
    private static func listOutputs(_ words: [String]) -> CommandOutcome {
        do throws(UsageError) {
            let parsed = try CommandArguments(
                words, valued: SpecGeneration.valuedOptions,
                flags: ["--force", "--strict", "--fresh-layout", "--list-outputs"])
            guard parsed.positional.isEmpty else {
                throw UsageError("generate takes no positional argument: \(parsed.positional[0])")
            }
            let folders =
                SpecGeneration.fileFolders(parsed).map(\.path)
                + [SpecGeneration.documentationFolder(parsed)].compactMap { $0 }
            return CommandOutcome(status: 0, output: folders.joined(separator: "\n") + "\n")
        } catch {
            return .usageError(error, usage: usage)
        }
    }
}
