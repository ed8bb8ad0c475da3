/// A diff rule: a kind of change and its default verdict for each audience. A nil verdict means
/// the audience is not concerned (e.g. a Swift-only rename has no wire verdict).
public struct DiffRule: Hashable, Sendable {
    /// The change kind, e.g. `enum-value-removed`.
    public var kind: String
    /// What the rule detects, for `--help` and reports.
    public var summary: String
    /// Verdict when the change sits in JSON the caller sends.
    public var request: ChangeSeverity?
    /// Verdict when the change sits in JSON the caller reads.
    public var response: ChangeSeverity?
    /// Verdict for the generated Swift API.
    public var swift: ChangeSeverity?

    /// The default severity for `audience`, or nil when the rule does not judge it.
    /// - Parameters:
    ///   - audience: The audience.
    /// - Returns: The rule's verdict for that audience.
    public func severity(for audience: ChangeAudience) -> ChangeSeverity? {
        switch audience {
        case .wireRequest: request
        case .wireResponse: response
        case .swift: swift
        }
    }

    private init(
        _ kind: String, _ request: ChangeSeverity?, _ response: ChangeSeverity?,
        _ swift: ChangeSeverity?,
        _ summary: String
    ) {
        self.kind = kind
        self.summary = summary
        self.request = request
        self.response = response
        self.swift = swift
    }

    /// Every rule with its default verdicts: request wire, response wire, Swift API.
    public static let catalogue: [DiffRule] = [
        // Operations (request = calling the operation; response = reading its reply).
        DiffRule("operation-added", .info, nil, .info, "an operation (method + path) was added"),
        DiffRule("operation-removed", .breaking, nil, .breaking, "an operation was removed"),
        DiffRule("operation-deprecated", .warning, nil, .warning, "an operation became deprecated"),
        DiffRule("operation-undeprecated", .info, nil, .info, "an operation is no longer deprecated"),
        DiffRule("parameter-added", .info, nil, .info, "an optional parameter was added"),
        DiffRule(
            "required-parameter-added", .breaking, nil, .breaking, "a required parameter was added"),
        DiffRule("parameter-removed", .warning, nil, .breaking, "a parameter was removed"),
        DiffRule("parameter-became-required", .breaking, nil, .breaking, "a parameter became required"),
        DiffRule("parameter-became-optional", .info, nil, .info, "a parameter became optional"),
        DiffRule(
            "request-body-added", .warning, nil, .breaking, "an operation now takes a request body"),
        DiffRule(
            "request-body-removed", .warning, nil, .breaking,
            "an operation no longer takes a request body"),
        DiffRule(
            "request-body-became-required", .breaking, nil, .breaking, "the request body became required"),
        DiffRule("request-body-became-optional", .info, nil, .info, "the request body became optional"),
        DiffRule("request-content-type-added", .info, nil, .info, "a request content type was added"),
        DiffRule(
            "request-content-type-removed", .breaking, nil, .breaking,
            "a request content type was removed"),
        DiffRule(
            "response-content-type-added", nil, .warning, .info, "a response content type was added"),
        DiffRule(
            "response-content-type-removed", nil, .warning, .warning,
            "a response content type was removed"),
        DiffRule("streaming-added", nil, .info, .info, "a response can now stream (text/event-stream)"),
        DiffRule("streaming-removed", nil, .breaking, .breaking, "a response no longer streams"),
        DiffRule("status-code-added", nil, .info, nil, "a response status code was added"),
        DiffRule("status-code-removed", nil, .warning, nil, "a response status code was removed"),
        DiffRule("webhook-added", nil, .info, .info, "a webhook event was added"),
        DiffRule("webhook-removed", nil, .warning, .breaking, "a webhook event was removed"),
        // Component schemas.
        DiffRule("schema-added", .info, .info, .info, "a component schema was added"),
        DiffRule("schema-removed", .warning, .warning, .breaking, "a component schema was removed"),
        DiffRule(
            "schema-renamed", .info, .info, .breaking, "a component schema was renamed (same shape)"),
        DiffRule("schema-deprecated", .info, .info, .warning, "a component schema became deprecated"),
        // Schema contents, judged by where the schema is used.
        DiffRule("property-added", .info, .info, .info, "an optional property was added"),
        DiffRule(
            "required-property-added", .breaking, .info, .warning, "a required property was added"),
        DiffRule("property-removed", .warning, .breaking, .breaking, "a property was removed"),
        DiffRule("became-required", .breaking, .info, .warning, "a property became required"),
        DiffRule("became-optional", .info, .breaking, .breaking, "a property became optional"),
        DiffRule("became-nullable", .info, .breaking, .breaking, "a value may now be null"),
        DiffRule("became-non-nullable", .breaking, .info, .warning, "a value may no longer be null"),
        DiffRule("type-changed", .breaking, .breaking, .breaking, "a value's type changed"),
        DiffRule(
            "type-widened", .info, .breaking, .breaking,
            "a value accepts more than before (more types, or anything): old requests still pass"),
        DiffRule(
            "type-narrowed", .breaking, .info, .breaking,
            "a value accepts less than before: old replies still decode"),
        DiffRule("format-changed", .warning, .warning, .info, "a value's format changed"),
        DiffRule(
            "constraint-narrowed", .breaking, .info, nil,
            "a validation keyword (minLength, maximum, pattern, minItems, multipleOf…) accepts fewer values: added, a smaller maximum, a larger minimum, or a changed pattern (not ordered)"
        ),
        DiffRule(
            "constraint-widened", .info, .warning, nil,
            "a validation keyword accepts more values: removed, a larger maximum or a smaller minimum"),
        DiffRule("enum-value-added", .info, .warning, .info, "an enum gained a value"),
        DiffRule("enum-value-removed", .breaking, .info, .breaking, "an enum lost a value"),
        DiffRule(
            "open-enum-value-added", .info, .info, .info,
            "an open enum (anyOf: [string, enum]) gained a value; any string was already accepted"),
        DiffRule(
            "open-enum-value-removed", .info, .info, .breaking,
            "an open enum (anyOf: [string, enum]) lost a value; it is still accepted as a string, but its Swift constant is gone"
        ),
        DiffRule("enum-constraint-added", .breaking, .info, .breaking, "a free value became an enum"),
        DiffRule("enum-constraint-removed", .info, .warning, .breaking, "an enum became a free value"),
        DiffRule("const-changed", .breaking, .breaking, .info, "a constant value changed"),
        DiffRule("union-variant-added", .info, .warning, .info, "a oneOf/anyOf gained a variant"),
        DiffRule("union-variant-removed", .breaking, .info, .breaking, "a oneOf/anyOf lost a variant"),
        DiffRule(
            "union-case-added", nil, nil, .warning,
            "a union read from replies gained a variant, so its Swift enum a case: a switch that lists every case (`.unknown` too) and has no `default` stops compiling (judged with union-variant-added, on its entry)"
        ),
        DiffRule(
            "additional-properties-changed", .warning, .warning, .warning,
            "additionalProperties changed"),
        // The generated Swift API only.
        DiffRule(
            "ref-changed", .warning, .warning, .breaking,
            "a value now references another component (another Swift type; the wire verdict applies when the shapes differ)"
        ),
        DiffRule("swift-type-renamed", nil, nil, .breaking, "the Swift type's name changed"),
        DiffRule("swift-property-renamed", nil, nil, .breaking, "a Swift property's name changed"),
        DiffRule(
            "swift-case-renamed", nil, nil, .breaking, "a Swift enum or union case's name changed"),
        DiffRule(
            "swift-method-renamed", nil, nil, .breaking, "a client method's name or resource changed"),
        DiffRule(
            "swift-parameter-label-changed", nil, nil, .breaking,
            "a client method's argument label changed"),
    ]

    /// ``catalogue`` by kind.
    public static let byKind: [String: DiffRule] = Dictionary(
        uniqueKeysWithValues: catalogue.map { ($0.kind, $0) })
}

/// Settings of a diff run.
public struct DiffConfiguration: Sendable {
    /// Severity overrides keyed by `kind` (every audience) or `kind@audience` (one audience, e.g.
    /// `union-variant-added@wire-response`); the more specific key wins.
    public var severityOverrides: [String: ChangeSeverity]
    /// Naming overrides applied to both specs when translating them (`Spec/overrides.json`).
    public var overrides: Overrides

    /// Creates a configuration.
    /// - Parameters:
    ///   - severityOverrides: Severity overrides by `kind` or `kind@audience`.
    ///   - overrides: Naming overrides for both specs.
    public init(severityOverrides: [String: ChangeSeverity] = [:], overrides: Overrides = Overrides()) {
        self.severityOverrides = severityOverrides
        self.overrides = overrides
    }

    /// The verdict for `kind` and `audience` after overrides, or nil when the rule does not
    /// judge that audience.
    /// - Parameters:
    ///   - kind: The change kind.
    ///   - audience: The audience.
    /// - Returns: The configured severity.
    public func severity(kind: String, audience: ChangeAudience) -> ChangeSeverity? {
        severity(kind: kind, audience: audience, instead: nil)
    }

    /// The verdict for `kind` and `audience`, with `instead` replacing the rule's default (for a
    /// change that differs from its rule, e.g. a variant added where the Swift type changes);
    /// `--severity` overrides still win.
    func severity(kind: String, audience: ChangeAudience, instead: ChangeSeverity?) -> ChangeSeverity? {
        guard let base = DiffRule.byKind[kind]?.severity(for: audience) else { return nil }
        return severityOverrides["\(kind)@\(audience.rawValue)"] ?? severityOverrides[kind] ?? instead
            ?? base
    }
}
