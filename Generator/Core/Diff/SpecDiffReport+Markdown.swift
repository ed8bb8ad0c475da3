import Foundation

/// The markdown and GitHub Actions renderings of a report, written for the reviewer of a pull
/// request: what breaks first, the long tail folded.
extension SpecDiffReport {
    /// GitHub's limit for a pull-request body or a comment, in characters.
    public static let pullRequestBodyLimit = 65_536

    /// What the markdown report stays under, in UTF-8 bytes (never fewer than its characters),
    /// leaving room for a line a workflow adds around it.
    static let markdownBudget = 60_000

    /// Where a change lands in the summary table, in the report's order.
    enum Group: CaseIterable {
        /// Breaks the generated Swift API (user code may stop compiling).
        case swift
        /// Breaks on the wire only.
        case wire
        /// Warnings.
        case warning
        /// Additions that break nothing.
        case new
        /// Every other non-breaking change.
        case other
    }

    /// Kinds that add something.
    static let additions: Set<String> = [
        "operation-added", "parameter-added", "request-content-type-added", "response-content-type-added",
        "streaming-added", "status-code-added", "webhook-added", "schema-added", "property-added",
        "required-property-added", "enum-value-added", "open-enum-value-added", "union-variant-added",
        "request-body-added",
    ]

    static func group(of change: SpecChange) -> Group {
        if change.judgements.contains(where: { $0.audience == .swift && $0.severity == .breaking }) {
            return .swift
        }
        switch change.severity {
        case .breaking: return .wire
        case .warning: return .warning
        case .info: return additions.contains(change.kind) ? .new : .other
        }
    }

    /// The change as a sentence: its subject (the Swift declaration, or the JSON pointer when
    /// nothing is generated for it), what happened, and what it breaks.
    static func sentence(_ change: SpecChange, verdict: Bool = true) -> String {
        let message = escape(change.message)
        let selfContained =
            change.kind.hasPrefix("swift-") || change.kind.hasPrefix("schema-")
            || change.kind.hasPrefix("operation-") || change.kind.hasPrefix("webhook-")
        var text: String
        if selfContained {
            text = capitalized(message)
            if let swift = change.swiftDeclaration, !change.kind.hasPrefix("swift-"),
                change.kind != "schema-renamed"
            {
                text += " (`\(swift)`)"
            }
        } else {
            text = "`\(change.swiftDeclaration ?? change.pointer)`: \(message)"
        }
        if !text.hasSuffix(".") { text += "." }
        if verdict, let phrase = verdictPhrase(change) { text += " " + phrase }
        return text
    }

    /// `*Breaks Swift code and replies.*`, `*Check requests.*`, or nil when nothing is at risk.
    static func verdictPhrase(_ change: SpecChange) -> String? {
        func names(_ severity: ChangeSeverity) -> [String] {
            change.judgements.filter { $0.severity == severity }.map {
                switch $0.audience {
                case .swift: "Swift code"
                case .wireRequest: "requests"
                case .wireResponse: "replies"
                }
            }
        }
        func list(_ words: [String]) -> String {
            words.count <= 1
                ? words.joined() : words.dropLast().joined(separator: ", ") + " and " + words.last!
        }
        var parts: [String] = []
        let breaking = names(.breaking)
        let warning = names(.warning)
        if !breaking.isEmpty { parts.append("Breaks \(list(breaking))") }
        if !warning.isEmpty { parts.append("\(breaking.isEmpty ? "Check" : "check") \(list(warning))") }
        guard !parts.isEmpty else { return nil }
        return "*" + parts.joined(separator: "; ") + ".*"
    }

    static func capitalized(_ text: String) -> String {
        guard let first = text.first, first.isLowercase else { return text }
        return first.uppercased() + text.dropFirst()
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "<", with: "&lt;")
    }

    /// `12 status codes added` for a group summary.
    static func countPhrase(_ kind: String, _ count: Int) -> String {
        let noun = kind.split(separator: "-").joined(separator: " ")
        return "\(count) × \(noun)"
    }

    /// Lines added while they fit a byte budget; what does not fit is counted instead.
    struct Budget {
        var remaining: Int
        var dropped = 0

        mutating func fits(_ line: String) -> Bool {
            let size = line.utf8.count + 1
            guard size <= remaining else { return false }
            remaining -= size
            return true
        }
    }

    /// The markdown at the most detailed level that lists every change within the budget: full
    /// entries with pointers; then breaking entries without pointers; then the long tail as
    /// counts per area and kind only. When even that does not fit, entries are cut and counted.
    func renderMarkdown() -> String {
        var last = ""
        for level in 0..<3 {
            let (text, dropped) = renderMarkdown(level: level)
            if dropped == 0 { return text }
            last = text
        }
        return last
    }

    private func renderMarkdown(level: Int) -> (text: String, dropped: Int) {
        var head = [
            "## OpenAPI spec changes",
            "",
            "From `\(Self.escape(oldLabel))` to `\(Self.escape(newLabel))`: \(summaryLine).",
            "",
        ]
        if changes.isEmpty {
            head.append("No changes.")
            return (head.joined(separator: "\n") + "\n", 0)
        }
        var grouped: [Group: [SpecChange]] = [:]
        for change in changes { grouped[Self.group(of: change), default: []].append(change) }
        func areas(_ list: [SpecChange]) -> String {
            var counts: [String: Int] = [:]
            for change in list { counts[change.area, default: 0] += 1 }
            let sorted = counts.sorted { ($1.value, $0.key) < ($0.value, $1.key) }
            let shown = sorted.prefix(6).map { "\($0.key) \($0.value)" }
            return shown.joined(separator: ", ") + (sorted.count > 6 ? ", …" : "")
        }
        let titles: [Group: String] = [
            .swift: "**Breaks Swift code** (the generated API: code using it may stop compiling)",
            .wire: "**Breaks on the wire** only (requests the API may reject, replies older code may misread)",
            .warning: "Warnings (works, but worth a look)",
            .new: "New (operations, schemas, properties, values)",
            .other: "Other non-breaking changes",
        ]
        head += ["| What | Changes | Areas |", "|---|---:|---|"]
        for group in Group.allCases {
            let list = grouped[group] ?? []
            head.append("| \(titles[group]!) | \(list.count) | \(list.isEmpty ? "" : areas(list)) |")
        }
        head += [
            "",
            "Each change is judged for the Swift API and for the wire (`wire-request`: JSON the caller sends; "
                + "`wire-response`: JSON the caller reads). All \(changes.count) changes, with JSON pointers and "
                + "spec lines, are in the JSON report (`openai-generator diff OLD NEW --format json`).",
        ]
        let footerReserve = 600
        var budget = Budget(
            remaining: Self.markdownBudget - head.joined(separator: "\n").utf8.count - footerReserve)
        var body: [String] = []
        /// Lists `list` in full sentences with their pointers while they fit.
        func section(_ title: String, _ list: [SpecChange], open: Bool) {
            guard !list.isEmpty else { return }
            let opening = [
                "", "<details\(open ? " open" : "")><summary><b>\(title) (\(list.count))</b></summary>", "",
            ]
            let closing = ["", "</details>"]
            guard budget.fits(opening.joined(separator: "\n") + closing.joined(separator: "\n")) else {
                budget.dropped += list.count
                return
            }
            body += opening
            var shown = 0
            for change in list {
                let line =
                    "- **\(change.area)** \(Self.sentence(change))"
                    + (level == 0 ? " <sub>`\(change.pointer)`</sub>" : "")
                guard budget.fits(line) else { break }
                body.append(line)
                shown += 1
            }
            if shown < list.count {
                let more = "- … and \(list.count - shown) more (see the JSON report)."
                _ = budget.fits(more)
                body.append(more)
                budget.dropped += list.count - shown
            }
            body += closing
        }
        section("Breaks Swift code", grouped[.swift] ?? [], open: true)
        section("Breaks on the wire only", grouped[.wire] ?? [], open: true)
        section("Warnings", grouped[.warning] ?? [], open: false)
        // The long tail: one fold per area, its changes by kind, in short sentences.
        let tail = (grouped[.new] ?? []) + (grouped[.other] ?? [])
        if !tail.isEmpty {
            var byArea: [String: [SpecChange]] = [:]
            for change in tail { byArea[change.area, default: []].append(change) }
            let heading = ["", "### Everything else (\(tail.count)), by area"]
            if budget.fits(heading.joined(separator: "\n")) { body += heading }
            for area in byArea.keys.sorted() {
                let list = byArea[area]!
                var byKind: [String: [SpecChange]] = [:]
                for change in list { byKind[change.kind, default: []].append(change) }
                let kinds = byKind.keys.sorted { (byKind[$1]!.count, $0) < (byKind[$0]!.count, $1) }
                let summary = kinds.map { Self.countPhrase($0, byKind[$0]!.count) }.joined(separator: ", ")
                let opening = ["", "<details><summary><b>\(area)</b>: \(summary)</summary>", ""]
                let closing = ["", "</details>"]
                guard budget.fits(opening.joined(separator: "\n") + closing.joined(separator: "\n")) else {
                    budget.dropped += list.count
                    continue
                }
                body += opening
                var shown = 0
                outer: for kind in kinds where level < 2 {
                    for change in byKind[kind]! {
                        let line = "- \(Self.sentence(change, verdict: false))"
                        guard budget.fits(line) else { break outer }
                        body.append(line)
                        shown += 1
                    }
                }
                if shown < list.count {
                    if level < 2 {
                        body.append("- … and \(list.count - shown) more (see the JSON report).")
                        budget.dropped += list.count - shown
                    } else {
                        body.append("Listed in the JSON report.")
                    }
                }
                body += closing
            }
        }
        var footer: [String] = []
        if budget.dropped > 0 {
            footer += [
                "",
                "\(budget.dropped) of \(changes.count) changes are not listed here, to keep this summary under "
                    + "GitHub's 65,536-character limit; the JSON report has them all.",
            ]
        } else if level == 2 {
            footer += [
                "", "The changes above that are only counted are listed in the JSON report.",
            ]
        }
        return ((head + body + footer).joined(separator: "\n") + "\n", budget.dropped)
    }

    // MARK: GitHub Actions

    /// GitHub's escaping for a workflow command's message.
    static func escapeCommandData(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    /// GitHub's escaping for a workflow command's property value.
    static func escapeCommandProperty(_ text: String) -> String {
        escapeCommandData(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(
            of: ",", with: "%2C")
    }

    func renderGitHub() -> String {
        var lines: [String] = []
        for change in changes where change.severity >= .warning {
            var properties = ["file=\(Self.escapeCommandProperty(annotationFile))"]
            if let line = change.line {
                properties.append("line=\(line)")
                if let column = change.column { properties.append("col=\(column)") }
            }
            properties.append(
                "title=\(Self.escapeCommandProperty("\(change.kind) (\(Self.verdicts(change)))"))")
            let command = change.severity == .breaking ? "error" : "warning"
            let message = Self.sentence(change, verdict: false) + " " + change.pointer
            lines.append(
                "::\(command) \(properties.joined(separator: ","))::\(Self.escapeCommandData(message))")
        }
        lines.append(
            "::notice title=OpenAPI spec changes::"
                + Self.escapeCommandData("\(oldLabel) → \(newLabel): \(summaryLine)"))
        return lines.joined(separator: "\n") + "\n"
    }
}
