/// Documentation carried to a declaration.
public struct Documentation: Hashable, Sendable {
    public var summary: String?
    /// Where it came from: a JSON pointer or an HTTP route.
    public var remark: String
    public var deprecated: Bool
    /// What the schema states about a member's values, one sentence each (`Default: `1`.`, `At least 0, at most
    /// 2.`): a paragraph of its own after the summary, and after the first sentence in a `- Parameters:` line.
    public var facts: [String]
    /// Paragraphs the doc comment ends with, after the deprecation note: what a pass after
    /// translation adds (the other name of the same type, ``IdenticalComponents``).
    public var notes: [String] = []

    public init(summary: String?, remark: String, deprecated: Bool = false, facts: [String] = []) {
        self.summary = summary
        self.remark = remark
        self.deprecated = deprecated
        self.facts = facts
    }
}

extension Documentation {
    /// `@available(*, deprecated, message: "…")` for a deprecated declaration (the message from
    /// ``DocText/deprecationMessage(_:)``, as a Swift string literal); nil otherwise.
    public var availabilityAttribute: String? {
        deprecated ? DocText.deprecatedAttribute(summary) : nil
    }
}

// MARK: Documentation facts

// What the doc comments say, composed from the spec's text by ``DocText``, so that the renderer
// only prints.

extension Property {
    /// The memberwise init's line for this property: the first sentence of its description and its
    /// facts, else nothing (see ``undescribedParameterLine``).
    public var parameterSummary: String? {
        let first = DocText.summary(documentation.summary)
        guard !documentation.facts.isEmpty else {
            return first
        }
        return DocText.withFacts(first, documentation.facts)
    }

    /// The memberwise init's line for a property the spec says nothing about, when another
    /// parameter is described (DocC wants the list whole): what the encoder does with it, which
    /// the reader cannot tell from the name, and the JSON name where it differs from the Swift one.
    public var undescribedParameterLine: String {
        let wire = Naming.unescaped(name) == wireName ? "" : " The JSON member `\(wireName)`."
        switch (required, nullable) {
        case (true, false): return "Required." + wire
        case (true, true): return "Required; `nil` is sent as `null`." + wire
        default: return "Optional; left out of the JSON when `nil`." + wire
        }
    }
}

extension OperationParameter {
    /// The `- Parameters:` line: the first sentence of its description, else where it goes; then its facts.
    public var summary: String {
        DocText.withFacts(DocText.summary(documentation) ?? "The `\(wireName)` \(location.rawValue) parameter.", facts)
    }
}

extension UnionCase {
    /// The case's doc comment: the first sentence of its variant's description, then which
    /// discriminator values (of the member `discriminator`) select it.
    public func summary(discriminator: String?) -> String? {
        var sentences = DocText.summary(documentation).map { [DocText.sentence($0)] } ?? []
        if let discriminator, !discriminatorValues.isEmpty {
            let values = discriminatorValues.map { "`\($0)`" }
            let listed =
                values.count == 1 ? values[0] : values.dropLast().joined(separator: ", ") + " or " + values.last!
            sentences.append("Selected when `\(discriminator)` is \(listed).")
        }
        return sentences.isEmpty ? nil : sentences.joined(separator: " ")
    }
}

extension OperationDecl {
    /// The main method's summary: the spec's, else what it calls.
    public var methodSummary: String {
        documentation.summary ?? "Calls `\(httpMethod) \(path)`."
    }

    /// The streaming variant's summary: the operation's first sentence, then what the variant
    /// does, as a sentence of its own.
    public var streamSummary: String {
        DocText.variantSummary(
            documentation.summary, adding: "The reply streams as server-sent events.",
            fallback: "Calls `\(httpMethod) \(path)` and streams the reply as server-sent events.")
    }

    /// The download variant's summary, composed like ``streamSummary``.
    public var downloadSummary: String {
        DocText.variantSummary(
            documentation.summary,
            adding: "Writes the reply's bytes to a file as they arrive, without holding them in memory.",
            fallback: "Calls `\(httpMethod) \(path)` and writes the reply's bytes to a file.")
    }
}
