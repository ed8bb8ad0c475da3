import Foundation
import OpenAIGeneratorCore
import OpenAIGeneratorOpenAPI

/// `openai-generator diff OLD NEW`: what changed between two specs, and what it breaks.
public enum DiffCommand {
    /// Usage text of `diff`.
    public static let usage = """
        usage: openai-generator diff OLD NEW [--format text|markdown|json|github]
                                             [--fail-on breaking|warning|any|none[@AUDIENCE]]
                                             [--severity KIND[@AUDIENCE]=info|warning|breaking]... [--overrides PATH]
                                             [--old-label TEXT] [--new-label TEXT] [--annotate-file PATH]

        Compares two OpenAPI specs (YAML or JSON) and reports what changed, each with the JSON pointer and the
        Swift declaration affected, judged for the wire (wire-request, wire-response) and the Swift API (swift).
        Defaults: --format text, --fail-on none, --overrides Spec/overrides.json (skipped when absent; a path
        given must exist; `none`: no overrides).
        --format markdown: a pull-request summary, always under 65,536 characters (the long tail folded; the
          JSON report has every change). github: GitHub Actions ::error/::warning commands on the new spec's lines.
        --fail-on breaking: exit 1 when a change is breaking; warning: breaking or warning; any: any change.
          @AUDIENCE counts one audience's verdicts only: swift, wire-request, wire-response or wire (both),
          e.g. --fail-on breaking@swift fails on Swift-API breaks only.
        --severity: override a rule's verdict, e.g. --severity union-variant-added@wire-response=info.
        --old-label, --new-label: how the report names each spec (a commit or URL; default: the path, or just
          the file name for a path in a temporary folder). --annotate-file: the path GitHub annotations name
          (default: NEW as given).
        Exit status: 0 nothing at the --fail-on level; 1 changes at that level or an unreadable spec;
        2 usage error; 3 I/O error.
        """

    /// Runs `diff` with `arguments` (the words after `diff`), relative to the current directory.
    ///
    /// - Parameter arguments: The command-line words after `diff`.
    /// - Returns: The report (standard output), messages (standard error) and the exit status: 0
    ///   nothing at the `--fail-on` level; 1 changes at that level or a spec that cannot be read;
    ///   2 usage error; 3 I/O error.
    public static func run(arguments: [String]) -> CommandOutcome {
        let parsed: CommandArguments
        let format: SpecDiffReport.Format
        let failOn: ChangeSeverity?
        var failAudiences = Set(ChangeAudience.allCases)
        var severityOverrides: [String: ChangeSeverity] = [:]
        do throws(UsageError) {
            parsed = try CommandArguments(
                arguments,
                valued: [
                    "--format", "--fail-on", "--old-label", "--new-label", "--annotate-file", "--severity",
                    "--overrides",
                ])
            if parsed.wantsHelp { return CommandOutcome(status: 0, output: usage + "\n" + ruleList()) }
            let formatName = parsed.value("--format", default: "text")
            guard let chosen = SpecDiffReport.Format(rawValue: formatName) else {
                throw UsageError("invalid --format \(formatName)")
            }
            format = chosen
            (failOn, failAudiences) = try failLevel(parsed.value("--fail-on", default: "none"))
            for value in parsed.values("--severity") {
                let parts = value.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2, let severity = ChangeSeverity(rawValue: parts[1]) else {
                    throw UsageError("invalid --severity \(value): expected KIND[@AUDIENCE]=info|warning|breaking")
                }
                let kind = parts[0].split(separator: "@").first.map(String.init) ?? ""
                guard ChangeKind(rawValue: kind) != nil else {
                    throw UsageError("unknown change kind \(kind) in --severity")
                }
                severityOverrides[parts[0]] = severity
            }
        } catch {
            return .usageError(error, usage: usage)
        }
        let files = parsed.positional
        let labels = (old: parsed.value("--old-label"), new: parsed.value("--new-label"))
        let annotationFile = parsed.value("--annotate-file")
        guard files.count == 2 else {
            return .usageError(UsageError("diff takes two specs, OLD and NEW"), usage: usage)
        }
        var specs: [[UInt8]] = []
        for file in files {
            guard let data = FileManager.default.contents(atPath: file) else {
                return .failure(3, "\(file): cannot read the spec")
            }
            specs.append([UInt8](data))
        }
        let overrides: Overrides
        do {
            overrides = try parsed.overrides()
        } catch {
            return .failure(1, "\(error)")
        }
        let differ = SpecDiffer(
            configuration: DiffConfiguration(severityOverrides: severityOverrides, overrides: overrides))
        var report: SpecDiffReport
        do {
            report = try differ.diff(
                oldBytes: specs[0], oldFile: files[0], newBytes: specs[1], newFile: files[1])
        } catch {
            return .failure(1, "\(error)")
        }
        if let label = labels.old { report.oldLabel = label }
        if let label = labels.new { report.newLabel = label }
        if let annotationFile { report.annotationFile = annotationFile }
        let failed =
            failOn.map {
                failAudiences.count == ChangeAudience.allCases.count
                    ? report.hasChanges(atLeast: $0) : report.hasChanges(atLeast: $0, for: failAudiences)
            } ?? false
        return CommandOutcome(status: failed ? 1 : 0, output: report.rendered(format))
    }

    /// The verdict `--fail-on LEVEL[@AUDIENCE]` fails on (`nil`: never) and the audiences it counts.
    ///
    /// - Throws: ``UsageError`` for an unknown level or audience.
    static func failLevel(_ value: String) throws(UsageError) -> (ChangeSeverity?, Set<ChangeAudience>) {
        let parts = value.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let level: ChangeSeverity?
        switch parts.first ?? "" {
        case "breaking": level = .breaking
        case "warning": level = .warning
        case "any": level = .info
        case "none": level = nil
        default: throw UsageError("invalid --fail-on \(value)")
        }
        guard parts.count == 2 else { return (level, Set(ChangeAudience.allCases)) }
        if parts[1] == "wire" { return (level, [.wireRequest, .wireResponse]) }
        guard let audience = ChangeAudience(rawValue: parts[1]) else {
            throw UsageError(
                "invalid audience in --fail-on \(value): expected swift, wire-request, wire-response or wire")
        }
        return (level, [audience])
    }

    /// The rules with their default verdicts, one per line.
    public static func ruleList() -> String {
        var lines = ["", "rules (kind: wire-request / wire-response / swift):"]
        for rule in DiffRule.catalogue {
            let verdicts = [rule.request, rule.response, rule.swift].map { $0?.rawValue ?? "-" }.joined(
                separator: " / ")
            lines.append("  \(rule.kind.rawValue): \(verdicts) — \(rule.summary)")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
