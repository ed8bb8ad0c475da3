import Foundation

/// The result of comparing two specs: every change, worst first, and counts.
public struct SpecDiffReport: Sendable {
    /// Report formats.
    public enum Format: String, CaseIterable, Sendable {
        /// One line per change, for a terminal.
        case text
        /// A short summary table on top and details below, for a pull-request comment.
        case markdown
        /// One JSON object: `changes` and `summary` (the interface the project's checks use).
        case json
        /// GitHub Actions workflow commands: `::error` per breaking change and `::warning` per
        /// warning, each on the new spec's line (`file=`, `line=`, `col=`), then one `::notice`
        /// with the counts. See GitHub's "Workflow commands for GitHub Actions".
        case github
    }

    /// Counts of changes.
    public struct Counts: Hashable, Sendable, Codable {
        /// Changes whose worst verdict is `breaking`.
        public var breaking = 0
        /// Changes whose worst verdict is `warning`.
        public var warning = 0
        /// Changes whose worst verdict is `info`.
        public var info = 0
        /// All changes.
        public var total: Int { breaking + warning + info }

        mutating func add(_ severity: ChangeSeverity) {
            switch severity {
            case .breaking: breaking += 1
            case .warning: warning += 1
            case .info: info += 1
            }
        }
    }

    /// The old spec's path as given.
    public var oldFile: String
    /// The new spec's path as given.
    public var newFile: String
    /// How reports name the old spec (a commit or URL); defaults to ``oldFile``, or its file
    /// name when it sits in a temporary folder.
    public var oldLabel: String
    /// How reports name the new spec; defaults like ``oldLabel``.
    public var newLabel: String
    /// The file GitHub annotations point at (`--format github`); defaults to ``newFile``.
    public var annotationFile: String
    /// The changes: breaking first, then by area, pointer and kind.
    public var changes: [SpecChange]

    /// Creates a report, sorting `changes` into report order.
    /// - Parameters:
    ///   - oldFile: The old spec's path.
    ///   - newFile: The new spec's path.
    ///   - changes: The changes, in any order.
    public init(oldFile: String, newFile: String, changes: [SpecChange]) {
        self.oldFile = oldFile
        self.newFile = newFile
        oldLabel = Self.defaultLabel(oldFile)
        newLabel = Self.defaultLabel(newFile)
        annotationFile = newFile
        self.changes = changes.sorted { a, b in
            if a.severity != b.severity { return a.severity > b.severity }
            if a.area != b.area { return a.area < b.area }
            if a.pointer != b.pointer { return a.pointer < b.pointer }
            if a.kind != b.kind { return a.kind < b.kind }
            return a.message < b.message
        }
    }

    /// `path` unless it is in a temporary folder (`/tmp`, `/var/tmp`, `$TMPDIR`), where only its
    /// file name is meaningful to a reader.
    static func defaultLabel(_ path: String) -> String {
        var temporary = ["/tmp/", "/var/tmp/", "/private/tmp/", "/private/var/folders/", "/var/folders/"]
        if let folder = ProcessInfo.processInfo.environment["TMPDIR"], folder.hasPrefix("/") {
            temporary.append(folder.hasSuffix("/") ? folder : folder + "/")
        }
        guard temporary.contains(where: { path.hasPrefix($0) }) else { return path }
        return String(path.split(separator: "/").last ?? Substring(path))
    }

    /// Counts by worst verdict.
    public var counts: Counts {
        var counts = Counts()
        for change in changes { counts.add(change.severity) }
        return counts
    }

    /// Counts by worst verdict for each area, areas sorted by name.
    public var countsByArea: [(area: String, counts: Counts)] {
        var byArea: [String: Counts] = [:]
        for change in changes { byArea[change.area, default: Counts()].add(change.severity) }
        return byArea.keys.sorted().map { ($0, byArea[$0]!) }
    }

    /// Whether a change reaches `threshold`.
    /// - Parameters:
    ///   - threshold: `breaking` fails on breaking changes, `warning` on warnings too, `info` on any change.
    /// - Returns: Whether some change is at least that severe.
    public func hasChanges(atLeast threshold: ChangeSeverity) -> Bool {
        changes.contains { $0.severity >= threshold }
    }

    /// Whether a change reaches `threshold` for one of `audiences`.
    /// - Parameters:
    ///   - threshold: The least severity that counts.
    ///   - audiences: The audiences whose verdicts count (e.g. `[.swift]` fails on Swift-API
    ///     breaks only).
    /// - Returns: Whether some change's verdict for one of `audiences` is at least `threshold`.
    public func hasChanges(atLeast threshold: ChangeSeverity, for audiences: Set<ChangeAudience>)
        -> Bool
    {
        changes.contains { change in
            change.judgements.contains { audiences.contains($0.audience) && $0.severity >= threshold }
        }
    }

    /// The report as text.
    /// - Parameters:
    ///   - format: The format.
    /// - Returns: The rendered report, ending with a newline.
    public func rendered(_ format: Format) -> String {
        switch format {
        case .text: renderText()
        case .markdown: renderMarkdown()
        case .json: renderJSON()
        case .github: renderGitHub()
        }
    }

    /// `1 breaking, 2 non-breaking (1 warning, 1 info)`.
    public var summaryLine: String {
        let counts = counts
        return "\(counts.breaking) breaking, \(counts.warning + counts.info) non-breaking "
            + "(\(counts.warning) warning\(counts.warning == 1 ? "" : "s"), \(counts.info) info)"
    }

    static func verdicts(_ change: SpecChange) -> String {
        change.judgements.map { "\($0.audience.rawValue): \($0.severity.rawValue)" }.joined(
            separator: ", ")
    }

    private func renderText() -> String {
        var lines = [
            "openai-generator diff \(oldLabel) → \(newLabel)", "changes: \(changes.count); \(summaryLine)",
        ]
        for change in changes {
            var line =
                "\(change.severity.rawValue.uppercased()) \(change.kind.rawValue) \(change.pointer): \(change.message)"
            if let swift = change.swiftDeclaration { line += " [Swift: \(swift)]" }
            if !change.judgements.isEmpty { line += " {\(Self.verdicts(change))}" }
            lines.append(line)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private struct JSONReport: Encodable {
        struct Change: Encodable {
            var kind: String
            var pointer: String
            var severity: String
            var message: String
            var area: String
            var swift: String?
            var judgements: [String: String]
            var line: Int?
            var column: Int?

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(kind, forKey: .kind)
                try container.encode(pointer, forKey: .pointer)
                try container.encode(severity, forKey: .severity)
                try container.encode(message, forKey: .message)
                try container.encode(area, forKey: .area)
                try container.encode(swift, forKey: .swift)
                try container.encode(judgements, forKey: .judgements)
                try container.encode(line, forKey: .line)
                try container.encode(column, forKey: .column)
            }

            enum CodingKeys: String, CodingKey {
                case kind, pointer, severity, message, area, swift, judgements, line, column
            }
        }

        struct Summary: Encodable {
            var breaking: Int
            var warning: Int
            var info: Int
            var total: Int
            var byArea: [String: [String: Int]]
        }

        var old: String
        var new: String
        var summary: Summary
        var changes: [Change]
    }

    private func renderJSON() -> String {
        let counts = counts
        var byArea: [String: [String: Int]] = [:]
        for (area, areaCounts) in countsByArea {
            byArea[area] = [
                "breaking": areaCounts.breaking, "warning": areaCounts.warning, "info": areaCounts.info,
            ]
        }
        let report = JSONReport(
            old: oldLabel, new: newLabel,
            summary: JSONReport.Summary(
                breaking: counts.breaking, warning: counts.warning, info: counts.info, total: counts.total,
                byArea: byArea),
            changes: changes.map { change in
                JSONReport.Change(
                    kind: change.kind.rawValue, pointer: change.pointer, severity: change.severity.rawValue,
                    message: change.message, area: change.area, swift: change.swiftDeclaration,
                    judgements: Dictionary(
                        change.judgements.map { ($0.audience.rawValue, $0.severity.rawValue) },
                        uniquingKeysWith: { first, _ in first }), line: change.line, column: change.column)
            })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(report)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
