/// How much a spec change matters to SDK users, from least to most.
public enum ChangeSeverity: String, Comparable, CaseIterable, Sendable, Codable {
    /// Nothing stops working.
    case info
    /// Works, but a careful user should look (e.g. a response enum gains a value that a closed
    /// `switch` elsewhere would not know).
    case warning
    /// Stops working: a request the API now rejects, a reply a reader cannot handle, or user code
    /// that no longer compiles against the generated SDK.
    case breaking

    private var rank: Int {
        switch self {
        case .info: 0
        case .warning: 1
        case .breaking: 2
        }
    }

    /// Orders `info` < `warning` < `breaking`.
    /// - Parameters:
    ///   - lhs: The left severity.
    ///   - rhs: The right severity.
    /// - Returns: Whether `lhs` is less severe than `rhs`.
    public static func < (lhs: ChangeSeverity, rhs: ChangeSeverity) -> Bool { lhs.rank < rhs.rank }
}

/// Who a change is judged for: the wire (a request the caller sends, a reply the caller reads)
/// or the generated Swift API (what user code compiles against).
public enum ChangeAudience: String, CaseIterable, Sendable, Codable {
    /// JSON the SDK user sends: request bodies and parameters.
    case wireRequest = "wire-request"
    /// JSON the SDK user reads: response bodies and webhook payloads.
    case wireResponse = "wire-response"
    /// The generated Swift declarations.
    case swift
}

/// One audience's verdict on a change.
public struct ChangeJudgement: Hashable, Sendable, Codable {
    /// The audience judged.
    public var audience: ChangeAudience
    /// The verdict for that audience.
    public var severity: ChangeSeverity

    /// Creates a judgement.
    /// - Parameters:
    ///   - audience: The audience judged.
    ///   - severity: The verdict.
    public init(audience: ChangeAudience, severity: ChangeSeverity) {
        self.audience = audience
        self.severity = severity
    }
}

/// One difference between two OpenAPI documents, with the JSON pointer it sits at, the Swift
/// declaration it affects and a verdict per audience.
public struct SpecChange: Hashable, Sendable {
    /// The rule that found it, e.g. `property-removed`, `operation-added`, `became-nullable`
    /// (see ``DiffRule/catalogue``).
    public var kind: ChangeKind
    /// JSON pointer (RFC 6901, as `#/...`) in the new spec, or in the old one for something removed.
    public var pointer: String
    /// The API area (the Swift file group, e.g. `Chat`, `Responses`, `Shared`) for the summary.
    public var area: String
    /// The Swift declaration affected, e.g. `CreateChatCompletionRequest.reasoningEffort` or
    /// `client.chat.completions.create(_:)`; nil when none is generated.
    public var swiftDeclaration: String?
    /// A sentence saying what changed.
    public var message: String
    /// The verdict per audience, in ``ChangeAudience`` order.
    public var judgements: [ChangeJudgement]
    /// 1-based line in the new spec: where the change is, or for something removed, where the
    /// nearest enclosing thing that remains (the schema that lost a property) is; nil when the
    /// new spec has nothing there.
    public var line: Int?
    /// 1-based column on ``line``.
    public var column: Int?

    /// The worst verdict over all audiences (`info` when there is none).
    public var severity: ChangeSeverity { judgements.map(\.severity).max() ?? .info }

    /// Creates a change.
    /// - Parameters:
    ///   - kind: The rule's kind.
    ///   - pointer: JSON pointer in the new spec (the old one for removals).
    ///   - area: API area for the summary.
    ///   - swiftDeclaration: The affected Swift declaration, if any.
    ///   - message: What changed.
    ///   - judgements: Verdicts per audience.
    ///   - line: 1-based line in the new spec, if known.
    ///   - column: 1-based column in the new spec, if known.
    public init(
        kind: ChangeKind, pointer: String, area: String, swiftDeclaration: String?, message: String,
        judgements: [ChangeJudgement], line: Int? = nil, column: Int? = nil
    ) {
        self.line = line
        self.column = column
        self.kind = kind
        self.pointer = pointer
        self.area = area
        self.swiftDeclaration = swiftDeclaration
        self.message = message
        self.judgements = judgements
    }
}
