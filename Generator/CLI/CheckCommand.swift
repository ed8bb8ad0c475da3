import Foundation
import OpenAIGeneratorCore

/// `openai-generator check`: whether the committed generated code is what the spec gives, and the
/// spec the one the lock pins.
public enum CheckCommand {
    /// Usage text of `check`.
    public static let usage = """
        usage: openai-generator check [--spec PATH] [--output DIR] [--admin-output DIR] [--catalogue-output DIR]
                                      [--docs-output DIR|none] [--lock PATH]
                                      [--overrides PATH] [--cli-commands PATH] [--line-cap N]
                                      [--access public|package|internal]

        Defaults: --spec Spec/openapi.yaml, --output Sources/OpenAI/Generated, --admin-output,
        --catalogue-output and --docs-output as for generate,
        --lock Spec/lock.json, --overrides Spec/overrides.json (skipped when absent; a path given must exist;
        `none`: no overrides), --cli-commands as for generate, --line-cap \(GeneratorConfiguration.defaultLineCap), --access public (what
        `generate` was given).
        Generates in memory, laid out as the output folder's TypeIndex.swift says (as generate lays it out),
        and compares with the output folders (and the DocC articles' folder), file by file; writes nothing.
        Exit status: 0 the folder matches and the spec's sha256 is the lock's; 1 drift, another spec, or an
        invalid spec; 2 usage error; 3 I/O error.
        """

    /// Runs `check` with `arguments` (the words after `check`), relative to the current directory.
    ///
    /// - Parameter arguments: The command-line words after `check`.
    /// - Returns: Each problem (standard output) and the status.
    public static func run(arguments: [String]) -> CommandOutcome {
        let start = Date()
        let parsed: CommandArguments
        let generation: SpecGeneration
        switch SpecGeneration.start("check", arguments, valued: ["--lock"], usage: usage) {
        case .success(let started): (parsed, generation) = started
        case .failure(let stop): return stop.outcome
        }
        let lockPath = parsed.value("--lock", default: "Spec/lock.json")
        var problems: [String] = []
        if let data = FileManager.default.contents(atPath: lockPath),
            let lock = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
            let locked = lock["sha256"] as? String
        {
            if locked != generation.sha256 {
                problems.append(
                    "\(generation.spec): sha256 \(generation.sha256) differs from the lock's \(locked) (\(lockPath))")
            }
        } else {
            problems.append("\(lockPath): cannot read the lock's sha256")
        }
        let outputs = generation.outputs(parsed)
        for output in outputs {
            for difference in OutputWriter.differences(output.files, in: URL(fileURLWithPath: output.path)) {
                problems.append("\(output.path)/\(difference)")
            }
        }
        if problems.isEmpty {
            let seconds = String(format: "%.3f", Date().timeIntervalSince(start))
            return CommandOutcome(
                status: 0,
                output:
                    "check: \(outputs.map(\.files.count).reduce(0, +)) generated files match \(generation.spec) (\(seconds) s)\n"
            )
        }
        let report =
            problems.joined(separator: "\n")
            + "\ncheck: \(problems.count) problem(s); run Scripts/regenerate.sh and commit the result\n"
        return CommandOutcome(status: 1, output: report)
    }
}
