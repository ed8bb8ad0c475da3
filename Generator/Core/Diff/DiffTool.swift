import Foundation
import OpenAPI

/// The `openai-generator diff` command, as a function of its arguments so tests can run it
/// without a process.
public enum DiffTool {
    /// What a run printed and its exit status.
    public struct Outcome: Sendable {
        /// Exit status: 0 no change at the `--fail-on` level; 1 changes at that level, or a spec
        /// that cannot be read; 2 usage error; 3 I/O error.
        public var status: Int32
        /// Standard output: the report.
        public var output: String
        /// Standard error: usage and error messages.
        public var errorOutput: String
    }

    /// Usage text of `diff`.
    public static let usage = """
        usage: openai-generator diff OLD NEW [--format text|markdown|json|github]
                                             [--fail-on breaking|warning|any|none[@AUDIENCE]]
                                             [--severity KIND[@AUDIENCE]=info|warning|breaking]... [--overrides PATH]
                                             [--old-label TEXT] [--new-label TEXT] [--annotate-file PATH]

        Compares two OpenAPI specs (YAML or JSON) and reports what changed, each with the JSON pointer and the
        Swift declaration affected, judged for the wire (wire-request, wire-response) and the Swift API (swift).
        Defaults: --format text, --fail-on none, --overrides Spec/overrides.json (skipped when absent).
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

    /// Runs `diff` with `arguments` (the words after `diff`).
    /// - Parameters:
    ///   - arguments: Command-line words after `diff`.
    /// - Returns: The printed text and the exit status.
    public static func run(arguments: [String]) -> Outcome {
        func usageError(_ message: String) -> Outcome {
            Outcome(status: 2, output: "", errorOutput: message + "\n" + usage + "\n")
        }
        var files: [String] = []
        var format = SpecDiffReport.Format.text
        var failOn: ChangeSeverity?
        var failAudiences = Set(ChangeAudience.allCases)
        var labels: (old: String?, new: String?) = (nil, nil)
        var annotationFile: String?
        var severityOverrides: [String: ChangeSeverity] = [:]
        var overridesPath = "Spec/overrides.json"
        var remaining = arguments[...]
        while let word = remaining.popFirst() {
            if word == "--help" || word == "-h" {
                return Outcome(status: 0, output: usage + "\n" + ruleList(), errorOutput: "")
            }
            guard word.hasPrefix("--") else {
                files.append(word)
                continue
            }
            guard let value = remaining.popFirst() else { return usageError("missing value for \(word)") }
            switch word {
            case "--format":
                guard let parsed = SpecDiffReport.Format(rawValue: value) else {
                    return usageError("invalid --format \(value)")
                }
                format = parsed
            case "--fail-on":
                let parts = value.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false).map(
                    String.init)
                switch parts.first ?? "" {
                case "breaking": failOn = .breaking
                case "warning": failOn = .warning
                case "any": failOn = .info
                case "none": failOn = nil
                default: return usageError("invalid --fail-on \(value)")
                }
                if parts.count == 2 {
                    if parts[1] == "wire" {
                        failAudiences = [.wireRequest, .wireResponse]
                    } else if let audience = ChangeAudience(rawValue: parts[1]) {
                        failAudiences = [audience]
                    } else {
                        return usageError(
                            "invalid audience in --fail-on \(value): expected swift, wire-request, wire-response or wire"
                        )
                    }
                }
            case "--old-label":
                labels.old = value
            case "--new-label":
                labels.new = value
            case "--annotate-file":
                annotationFile = value
            case "--severity":
                let parts = value.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2, let severity = ChangeSeverity(rawValue: parts[1]) else {
                    return usageError(
                        "invalid --severity \(value): expected KIND[@AUDIENCE]=info|warning|breaking")
                }
                let kind = parts[0].split(separator: "@").first.map(String.init) ?? ""
                guard DiffRule.byKind[kind] != nil else {
                    return usageError("unknown change kind \(kind) in --severity")
                }
                severityOverrides[parts[0]] = severity
            case "--overrides":
                overridesPath = value
            default:
                return usageError("unknown option \(word)")
            }
        }
        guard files.count == 2 else { return usageError("diff takes two specs, OLD and NEW") }
        var specs: [[UInt8]] = []
        for file in files {
            guard let data = FileManager.default.contents(atPath: file) else {
                return Outcome(status: 3, output: "", errorOutput: "\(file): cannot read the spec\n")
            }
            specs.append([UInt8](data))
        }
        let overrides: Overrides
        do {
            overrides = try Overrides.load(from: overridesPath)
        } catch {
            return Outcome(status: 1, output: "", errorOutput: "\(overridesPath): \(error)\n")
        }
        let differ = SpecDiffer(
            configuration: DiffConfiguration(severityOverrides: severityOverrides, overrides: overrides))
        var report: SpecDiffReport
        do {
            report = try differ.diff(
                oldBytes: specs[0], oldFile: files[0], newBytes: specs[1], newFile: files[1])
        } catch {
            return Outcome(status: 1, output: "", errorOutput: "\(error)\n")
        }
        if let label = labels.old { report.oldLabel = label }
        if let label = labels.new { report.newLabel = label }
        if let annotationFile { report.annotationFile = annotationFile }
        let failed =
            failOn.map {
                failAudiences.count == ChangeAudience.allCases.count
                    ? report.hasChanges(atLeast: $0) : report.hasChanges(atLeast: $0, for: failAudiences)
            } ?? false
        return Outcome(status: failed ? 1 : 0, output: report.rendered(format), errorOutput: "")
    }

    /// The rules with their default verdicts, one per line.
    public static func ruleList() -> String {
        var lines = ["", "rules (kind: wire-request / wire-response / swift):"]
        for rule in DiffRule.catalogue {
            let verdicts = [rule.request, rule.response, rule.swift].map { $0?.rawValue ?? "-" }.joined(
                separator: " / ")
            lines.append("  \(rule.kind): \(verdicts) — \(rule.summary)")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
