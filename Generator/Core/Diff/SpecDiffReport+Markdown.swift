import Foundation
import OpenAIYAML

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
    static let additions: Set<ChangeKind> = [
        .operationAdded, .parameterAdded, .requestContentTypeAdded, .responseContentTypeAdded,
        .streamingAdded, .statusCodeAdded, .webhookAdded, .schemaAdded, .propertyAdded,
        .requiredPropertyAdded, .enumValueAdded, .openEnumValueAdded, .unionVariantAdded,
        .requestBodyAdded,
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
    /// nothing is generated for it), what happened, and what it breaks. `markdown: false` gives
    /// plain text (for GitHub annotations).
    static func sentence(_ change: SpecChange, verdict: Bool = true, markdown: Bool = true) -> String {
        let message = markdown ? Markup.inline(change.message) : change.message
        func code(_ text: String) -> String { markdown ? Markup.code(text) : "`\(text)`" }
        let selfContained =
            change.kind.rawValue.hasPrefix("swift-") || change.kind.rawValue.hasPrefix("schema-")
            || change.kind.rawValue.hasPrefix("operation-") || change.kind.rawValue.hasPrefix("webhook-")
        var text: String
        if selfContained {
            text = capitalized(message)
            if let swift = change.swiftDeclaration, !change.kind.rawValue.hasPrefix("swift-"),
                change.kind != .schemaRenamed
            {
                text += " (\(code(swift)))"
            }
        } else {
            text = "\(code(change.swiftDeclaration ?? change.pointer)): \(message)"
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

    /// `12 × status code added` for a group summary (the kind's words).
    static func countPhrase(_ kind: ChangeKind, _ count: Int) -> String {
        let noun = kind.rawValue.split(separator: "-").joined(separator: " ")
        return "\(count) × \(noun)"
    }

    /// Lines added while they fit a byte budget; what does not fit is counted instead.
    struct Budget {
        var remaining: Int
        var dropped = 0

        /// Charges `line` (and its newline) when it fits.
        mutating func fits(_ line: String) -> Bool {
            let size = line.utf8.count + 1
            guard size <= remaining else { return false }
            remaining -= size
            return true
        }
    }

    /// The markdown at the most detailed level that lists every change within the budget: full
    /// entries with pointers; then entries without pointers; then the long tail as counts per
    /// area and kind only. When even that does not fit, entries are cut and counted; every
    /// section keeps its fold and a share of the space.
    func renderMarkdown() -> String {
        var last = ""
        for level in 0..<3 {
            let (text, dropped) = renderMarkdown(level: level)
            if dropped == 0 { return text }
            last = text
        }
        return last
    }

    /// One fold of the report: its opening line, its entries, the line for what did not fit.
    private struct Fold {
        var summary: String
        var open: Bool
        var entries: [String]
        /// A line shown instead of entries when there are none (the long tail at its most
        /// compact).
        var note: String? = nil
        /// Shown in full up to this many entries.
        var shown = 0
        var opening: [String] { ["", "<details\(open ? " open" : "")><summary>\(summary)</summary>", ""] }
        static let closing = ["", "</details>"]
        /// The line that replaces entries that did not fit.
        func moreLine(_ count: Int) -> String { "- … and \(count) more (see the JSON report)." }
        /// The size of the fold without entries, with room for its ``moreLine(_:)``.
        var skeletonSize: Int {
            (opening + Self.closing + [moreLine(entries.count), note ?? ""]).reduce(0) { $0 + $1.utf8.count + 1 }
        }
    }

    private func renderMarkdown(level: Int) -> (text: String, dropped: Int) {
        let single = changes.count == 1
        var head = [
            "## OpenAPI spec changes",
            "",
            "From \(Markup.code(oldLabel)) to \(Markup.code(newLabel)): \(summaryLine).",
            "",
        ]
        if changes.isEmpty {
            head.append("No changes.")
            return (head.joined(separator: "\n") + "\n", 0)
        }
        // What a reviewer reads first: the operations that came and went, with the call each is.
        let operations = changes.filter { $0.kind == .operationAdded || $0.kind == .operationRemoved }
        head += Self.operationsSection(operations)
        var grouped: [Group: [SpecChange]] = [:]
        for change in changes where change.kind != .operationAdded && change.kind != .operationRemoved {
            grouped[Self.group(of: change), default: []].append(change)
        }
        func areas(_ list: [SpecChange]) -> String {
            var counts: [String: Int] = [:]
            for change in list { counts[change.area, default: 0] += 1 }
            let sorted = counts.sorted { ($1.value, $0.key) < ($0.value, $1.key) }
            let shown = sorted.prefix(6).map { "\(Markup.inline($0.key)) \($0.value)" }
            return shown.joined(separator: ", ") + (sorted.count > 6 ? ", …" : "")
        }
        let titles: [Group: String] = [
            .swift: "**Breaks Swift code** (the generated API: code using it may stop compiling)",
            .wire: "**Breaks on the wire** only (requests the API may reject, replies older code may misread)",
            .warning: "Warnings (works, but worth a look)",
            .new: "New (schemas, properties, values)",
            .other: "Other non-breaking changes",
        ]
        head += ["| What | Changes | Areas |", "|---|---:|---|"]
        for (kind, title) in [
            (ChangeKind.operationAdded, "New operations"), (.operationRemoved, "**Removed operations**"),
        ] {
            let list = operations.filter { $0.kind == kind }
            guard !list.isEmpty else { continue }
            head.append(
                "| \(title) (listed above) | \(list.count) | \(areas(list).replacingOccurrences(of: "|", with: "\\|")) |"
            )
        }
        for group in Group.allCases {
            let list = grouped[group] ?? []
            let areaCounts = list.isEmpty ? "" : areas(list).replacingOccurrences(of: "|", with: "\\|")
            head.append("| \(titles[group]!) | \(list.count) | \(areaCounts) |")
        }
        head += [
            "",
            "Each change is judged for the Swift API and for the wire (`wire-request`: JSON the caller sends; "
                + "`wire-response`: JSON the caller reads). \(single ? "The change, with its JSON pointer and spec line, is" : "All \(changes.count) changes, with JSON pointers and spec lines, are") "
                + "in the JSON report (`openai-generator diff OLD NEW --format json`).",
        ]
        // The folds: the three breaking-or-warning sections, then one per area for the rest.
        func entry(_ change: SpecChange) -> String {
            "- **\(Markup.inline(change.area))** \(Self.sentence(change))"
                + (level == 0 ? " <sub>\(Markup.code(change.pointer))</sub>" : "")
        }
        var folds: [Fold] = []
        for (group, title, open) in [
            (Group.swift, "Breaks Swift code", true), (.wire, "Breaks on the wire only", true),
            (.warning, "Warnings", false),
        ] {
            let list = grouped[group] ?? []
            guard !list.isEmpty else { continue }
            folds.append(Fold(summary: "<b>\(title) (\(list.count))</b>", open: open, entries: list.map(entry)))
        }
        let sectionCount = folds.count
        let tail = (grouped[.new] ?? []) + (grouped[.other] ?? [])
        var byArea: [String: [SpecChange]] = [:]
        for change in tail { byArea[change.area, default: []].append(change) }
        for area in byArea.keys.sorted() {
            let list = byArea[area]!
            var byKind: [ChangeKind: [SpecChange]] = [:]
            for change in list { byKind[change.kind, default: []].append(change) }
            let kinds = byKind.keys.sorted { (byKind[$1]!.count, $0) < (byKind[$0]!.count, $1) }
            let summary = kinds.map { Self.countPhrase($0, byKind[$0]!.count) }.joined(separator: ", ")
            let entries =
                level < 2 ? kinds.flatMap { byKind[$0]!.map { "- \(Self.sentence($0, verdict: false))" } } : []
            folds.append(
                Fold(
                    summary: "<b>\(Markup.inline(area))</b>: \(summary)", open: false, entries: entries,
                    note: level == 2 ? "Listed in the JSON report." : nil))
        }
        let tailHeading = tail.isEmpty ? [] : ["", "### Everything else (\(tail.count)), by area"]
        let footerReserve = 400
        var budget = Budget(
            remaining: Self.markdownBudget - (head + tailHeading).reduce(0) { $0 + $1.utf8.count + 1 }
                - footerReserve)
        // Folds that do not fit even empty are left out (counted); the tail's go first.
        var skeleton = folds.reduce(0) { $0 + $1.skeletonSize }
        var omittedAreas: [String] = []
        while skeleton > budget.remaining, folds.count > sectionCount {
            let removed = folds.removeLast()
            skeleton -= removed.skeletonSize
            omittedAreas.append(removed.summary)
        }
        while skeleton > budget.remaining, let removed = folds.popLast() {
            skeleton -= removed.skeletonSize
            budget.dropped += removed.entries.count
        }
        budget.remaining -= skeleton
        // Entries: each breaking or warning section may use half of what is left, the long tail
        // shares the rest fairly among its areas; space a fold does not use flows on.
        for index in folds.indices {
            let isSection = index < min(sectionCount, folds.count)
            let foldsLeft = folds.count - index
            let cap: Int
            if isSection {
                cap = index == folds.count - 1 ? budget.remaining : budget.remaining / 2
            } else {
                cap = budget.remaining / max(1, foldsLeft)
            }
            var share = Budget(remaining: cap)
            for line in folds[index].entries {
                guard share.fits(line) else { break }
                folds[index].shown += 1
            }
            budget.remaining -= cap - share.remaining
        }
        var body: [String] = []
        for (index, fold) in folds.enumerated() {
            if index == min(sectionCount, folds.count) { body += tailHeading }
            body += fold.opening
            body += fold.entries.prefix(fold.shown)
            let missing = fold.entries.count - fold.shown
            if missing > 0 {
                body.append(fold.moreLine(missing))
                budget.dropped += missing
            } else if fold.entries.isEmpty, let note = fold.note {
                body.append(note)
            }
            body += Fold.closing
        }
        if folds.count <= sectionCount, !tail.isEmpty { body += tailHeading }
        var footer: [String] = []
        if !omittedAreas.isEmpty {
            budget.dropped += omittedAreas.count
            footer += ["", "\(omittedAreas.count) more areas are only in the JSON report."]
        }
        if budget.dropped > 0 {
            footer += [
                "",
                "Not every change is listed here, to keep this summary under GitHub's 65,536-character limit; "
                    + "the JSON report has all \(changes.count).",
            ]
        } else if level == 2, !tail.isEmpty {
            footer += ["", "The changes above that are only counted are listed in the JSON report."]
        }
        var text = (head + body + footer).joined(separator: "\n") + "\n"
        if text.utf8.count > Self.markdownBudget {
            // Not expected (every line above is reserved or charged); cut at a fold boundary.
            text = Self.cut(text, to: Self.markdownBudget)
            budget.dropped = max(budget.dropped, 1)
        }
        return (text, budget.dropped)
    }

    /// The most operations the summary lists by name; the others are counted (the JSON report
    /// has every one).
    static let listedOperationLimit = 60

    /// `### Operations`: a table of the operations added and removed (method and path, the Swift
    /// call, the verdict), additions first; empty when there are none.
    static func operationsSection(_ operations: [SpecChange]) -> [String] {
        guard !operations.isEmpty else { return [] }
        let ordered =
            operations.filter { $0.kind == .operationAdded } + operations.filter { $0.kind == .operationRemoved }
        var lines = ["### Operations", "", "| | Operation | Swift | Area |", "|---|---|---|---|"]
        for change in ordered.prefix(listedOperationLimit) {
            let what = change.kind == .operationAdded ? "New" : "**Removed**"
            let call = change.swiftDeclaration.map(Markup.code) ?? ""
            let verdict = change.kind == .operationRemoved ? (verdictPhrase(change).map { " " + $0 } ?? "") : ""
            let cells = [what, Markup.code(operationTitle(change)), call + verdict, Markup.inline(change.area)].map {
                $0.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
            }
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        if ordered.count > listedOperationLimit {
            lines += ["", "… and \(ordered.count - listedOperationLimit) more operations (see the JSON report)."]
        }
        return lines + [""]
    }

    /// `POST /content_provenance_checks`: the method and path an operation change's pointer names
    /// (`#/paths/<path>/<method>`), else its message.
    static func operationTitle(_ change: SpecChange) -> String {
        let tokens = change.pointer.split(separator: "/", omittingEmptySubsequences: false)
        guard tokens.count == 4, tokens[1] == "paths" else { return change.message }
        return tokens[3].uppercased() + " " + unescapePointerToken(tokens[2])
    }

    /// `text` cut after the last `</details>` that ends within `limit` bytes, with a note.
    static func cut(_ text: String, to limit: Int) -> String {
        let note = "\n\nThis summary was cut to stay under GitHub's limit; the JSON report has every change.\n"
        var bytes = Array(text.utf8.prefix(limit - note.utf8.count))
        let closing = Array("</details>".utf8)
        var end = bytes.count - closing.count
        while end >= 0, Array(bytes[end..<(end + closing.count)]) != closing { end -= 1 }
        bytes = end >= 0 ? Array(bytes[..<(end + closing.count)]) : []
        return String(decoding: bytes, as: UTF8.self) + note
    }

    // MARK: GitHub Actions

    /// The most `::error`/`::warning` commands printed (GitHub shows at most 10 of each per step
    /// and 50 per job).
    static let annotationLimit = 50

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
        var notShown = 0
        for change in changes where change.severity >= .warning {
            // GitHub shows a limited number of annotations per step; the rest are counted.
            guard lines.count < Self.annotationLimit else {
                notShown += 1
                continue
            }
            var properties = ["file=\(Self.escapeCommandProperty(annotationFile))"]
            if let line = change.line {
                properties.append("line=\(line)")
                if let column = change.column { properties.append("col=\(column)") }
            }
            properties.append(
                "title=\(Self.escapeCommandProperty("\(change.kind.rawValue) (\(Self.verdicts(change)))"))")
            let command = change.severity == .breaking ? "error" : "warning"
            let message = Self.sentence(change, verdict: false, markdown: false) + " " + change.pointer
            lines.append(
                "::\(command) \(properties.joined(separator: ","))::\(Self.escapeCommandData(message))")
        }
        let rest =
            notShown == 0 ? "" : "; \(notShown) more breaking changes and warnings are not annotated (see the report)"
        lines.append(
            "::notice title=OpenAPI spec changes::"
                + Self.escapeCommandData("\(oldLabel) → \(newLabel): \(summaryLine)\(rest)"))
        return lines.joined(separator: "\n") + "\n"
    }
}

/// Markdown escaping for text from the specs (names, enum values, pointers).
enum Markup {
    /// `text` as a code span, fenced with more backticks than it contains in a row.
    static func code(_ text: String) -> String {
        var longest = 0
        var run = 0
        for character in text {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: longest + 1)
        let padded = text.hasPrefix("`") || text.hasSuffix("`") ? " \(text) " : text
        return fence + padded + fence
    }

    /// A message with its code spans kept: outside them `<` and `>` become entities (no HTML
    /// tag can open), and a backtick without a partner is escaped (it cannot pair with a later
    /// code span on the line).
    static func inline(_ text: String) -> String {
        let characters = Array(text)
        var result = ""
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character == "`" {
                if let close = characters[(index + 1)...].firstIndex(of: "`") {
                    result += String(characters[index...close])
                    index = close + 1
                    continue
                }
                result += "\\`"
            } else if character == "<" {
                result += "&lt;"
            } else if character == ">" {
                result += "&gt;"
            } else {
                result.append(character)
            }
            index += 1
        }
        return result
    }
}
