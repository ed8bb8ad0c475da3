/// A diff rule: a kind of change and its default verdict for each audience. A nil verdict means
/// the audience is not concerned (e.g. a Swift-only rename has no wire verdict).
public struct DiffRule: Hashable, Sendable {
    /// The change kind, e.g. ``ChangeKind/enumValueRemoved``.
    public var kind: ChangeKind
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

    fileprivate init(
        _ kind: ChangeKind, _ request: ChangeSeverity?, _ response: ChangeSeverity?,
        _ swift: ChangeSeverity?,
        _ summary: String
    ) {
        self.kind = kind
        self.summary = summary
        self.request = request
        self.response = response
        self.swift = swift
    }

    /// Every rule with its default verdicts: request wire, response wire, Swift API, in
    /// ``ChangeKind``'s order.
    public static let catalogue: [DiffRule] = ChangeKind.allCases.map(\.rule)
}

/// Settings of a diff run.
public struct DiffConfiguration: Sendable {
    /// Severity overrides keyed by `kind` (every audience) or `kind@audience` (one audience, e.g.
    /// `union-variant-added@wire-response`); the more specific key wins.
    public var severityOverrides: [String: ChangeSeverity]
    /// `Spec/overrides.json`, laid over both specs when ``SpecDiffer`` loads them.
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
    public func severity(kind: ChangeKind, audience: ChangeAudience) -> ChangeSeverity? {
        severity(kind: kind, audience: audience, instead: nil)
    }

    /// The verdict for `kind` and `audience`, with `instead` replacing the rule's default (for a
    /// change that differs from its rule, e.g. a variant added where the Swift type changes);
    /// `--severity` overrides still win.
    func severity(kind: ChangeKind, audience: ChangeAudience, instead: ChangeSeverity?) -> ChangeSeverity? {
        guard let base = kind.rule.severity(for: audience) else { return nil }
        return severityOverrides["\(kind.rawValue)@\(audience.rawValue)"] ?? severityOverrides[kind.rawValue]
            ?? instead ?? base
    }
}

/// A kind of spec change that `diff` reports, spelled in reports and in `--severity` as its raw
/// value (`enum-value-removed`). Every kind has exactly one rule (``rule``, an exhaustive switch):
/// a change cannot be found without a verdict.
public enum ChangeKind: String, CaseIterable, Hashable, Sendable, Comparable {
    // Operations (request = calling the operation; response = reading its reply).
    case operationAdded = "operation-added"
    case operationRemoved = "operation-removed"
    case operationDeprecated = "operation-deprecated"
    case operationUndeprecated = "operation-undeprecated"
    case parameterAdded = "parameter-added"
    case requiredParameterAdded = "required-parameter-added"
    case parameterRemoved = "parameter-removed"
    case parameterBecameRequired = "parameter-became-required"
    case parameterBecameOptional = "parameter-became-optional"
    case requestBodyAdded = "request-body-added"
    case requestBodyRemoved = "request-body-removed"
    case requestBodyBecameRequired = "request-body-became-required"
    case requestBodyBecameOptional = "request-body-became-optional"
    case requestContentTypeAdded = "request-content-type-added"
    case requestContentTypeRemoved = "request-content-type-removed"
    case responseContentTypeAdded = "response-content-type-added"
    case responseContentTypeRemoved = "response-content-type-removed"
    case streamingAdded = "streaming-added"
    case streamingRemoved = "streaming-removed"
    case statusCodeAdded = "status-code-added"
    case statusCodeRemoved = "status-code-removed"
    case webhookAdded = "webhook-added"
    case webhookRemoved = "webhook-removed"
    // Component schemas.
    case schemaAdded = "schema-added"
    case schemaRemoved = "schema-removed"
    case schemaRenamed = "schema-renamed"
    case schemaDeprecated = "schema-deprecated"
    // Schema contents, judged by where the schema is used.
    case propertyAdded = "property-added"
    case requiredPropertyAdded = "required-property-added"
    case propertyRemoved = "property-removed"
    case becameRequired = "became-required"
    case becameOptional = "became-optional"
    case becameNullable = "became-nullable"
    case becameNonNullable = "became-non-nullable"
    case typeChanged = "type-changed"
    case typeWidened = "type-widened"
    case typeNarrowed = "type-narrowed"
    case formatChanged = "format-changed"
    case constraintNarrowed = "constraint-narrowed"
    case constraintWidened = "constraint-widened"
    case enumValueAdded = "enum-value-added"
    case enumValueRemoved = "enum-value-removed"
    case openEnumValueAdded = "open-enum-value-added"
    case openEnumValueRemoved = "open-enum-value-removed"
    case enumConstraintAdded = "enum-constraint-added"
    case enumConstraintRemoved = "enum-constraint-removed"
    case constChanged = "const-changed"
    case unionVariantAdded = "union-variant-added"
    case unionVariantRemoved = "union-variant-removed"
    case unionCaseAdded = "union-case-added"
    case additionalPropertiesChanged = "additional-properties-changed"
    // The generated Swift API only.
    case refChanged = "ref-changed"
    case swiftTypeRenamed = "swift-type-renamed"
    case swiftPropertyRenamed = "swift-property-renamed"
    case swiftCaseRenamed = "swift-case-renamed"
    case swiftMethodRenamed = "swift-method-renamed"
    case swiftParameterLabelChanged = "swift-parameter-label-changed"

    public static func < (lhs: ChangeKind, rhs: ChangeKind) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The rule: what the change is and its default verdicts for the request wire, the response
    /// wire and the Swift API (`nil`: that audience is not concerned).
    public var rule: DiffRule {
        switch self {
        /// Every rule with its default verdicts: request wire, response wire, Swift API.
        // Operations (request = calling the operation; response = reading its reply).
        case .operationAdded: DiffRule(self, .info, nil, .info, "an operation (method + path) was added")
        case .operationRemoved: DiffRule(self, .breaking, nil, .breaking, "an operation was removed")
        case .operationDeprecated: DiffRule(self, .warning, nil, .warning, "an operation became deprecated")
        case .operationUndeprecated: DiffRule(self, .info, nil, .info, "an operation is no longer deprecated")
        case .parameterAdded: DiffRule(self, .info, nil, .info, "an optional parameter was added")
        case .requiredParameterAdded: DiffRule(self, .breaking, nil, .breaking, "a required parameter was added")
        case .parameterRemoved: DiffRule(self, .warning, nil, .breaking, "a parameter was removed")
        case .parameterBecameRequired: DiffRule(self, .breaking, nil, .breaking, "a parameter became required")
        case .parameterBecameOptional: DiffRule(self, .info, nil, .info, "a parameter became optional")
        case .requestBodyAdded: DiffRule(self, .warning, nil, .breaking, "an operation now takes a request body")
        case .requestBodyRemoved:
            DiffRule(self, .warning, nil, .breaking, "an operation no longer takes a request body")
        case .requestBodyBecameRequired: DiffRule(self, .breaking, nil, .breaking, "the request body became required")
        case .requestBodyBecameOptional: DiffRule(self, .info, nil, .info, "the request body became optional")
        case .requestContentTypeAdded: DiffRule(self, .info, nil, .info, "a request content type was added")
        case .requestContentTypeRemoved: DiffRule(self, .breaking, nil, .breaking, "a request content type was removed")
        case .responseContentTypeAdded: DiffRule(self, nil, .warning, .info, "a response content type was added")
        case .responseContentTypeRemoved: DiffRule(self, nil, .warning, .warning, "a response content type was removed")
        case .streamingAdded: DiffRule(self, nil, .info, .info, "a response can now stream (text/event-stream)")
        case .streamingRemoved: DiffRule(self, nil, .breaking, .breaking, "a response no longer streams")
        case .statusCodeAdded: DiffRule(self, nil, .info, nil, "a response status code was added")
        case .statusCodeRemoved: DiffRule(self, nil, .warning, nil, "a response status code was removed")
        case .webhookAdded: DiffRule(self, nil, .info, .info, "a webhook event was added")
        case .webhookRemoved: DiffRule(self, nil, .warning, .breaking, "a webhook event was removed")
        // Component schemas.
        case .schemaAdded: DiffRule(self, .info, .info, .info, "a component schema was added")
        case .schemaRemoved: DiffRule(self, .warning, .warning, .breaking, "a component schema was removed")
        case .schemaRenamed: DiffRule(self, .info, .info, .breaking, "a component schema was renamed (same shape)")
        case .schemaDeprecated: DiffRule(self, .info, .info, .warning, "a component schema became deprecated")
        // Schema contents, judged by where the schema is used.
        case .propertyAdded: DiffRule(self, .info, .info, .info, "an optional property was added")
        case .requiredPropertyAdded: DiffRule(self, .breaking, .info, .warning, "a required property was added")
        case .propertyRemoved: DiffRule(self, .warning, .breaking, .breaking, "a property was removed")
        case .becameRequired: DiffRule(self, .breaking, .info, .warning, "a property became required")
        case .becameOptional: DiffRule(self, .info, .breaking, .breaking, "a property became optional")
        case .becameNullable: DiffRule(self, .info, .breaking, .breaking, "a value may now be null")
        case .becameNonNullable: DiffRule(self, .breaking, .info, .warning, "a value may no longer be null")
        case .typeChanged: DiffRule(self, .breaking, .breaking, .breaking, "a value's type changed")
        case .typeWidened:
            DiffRule(
                self, .info, .breaking, .breaking,
                "a value accepts more than before (more types, or anything): old requests still pass")
        case .typeNarrowed:
            DiffRule(self, .breaking, .info, .breaking, "a value accepts less than before: old replies still decode")
        case .formatChanged: DiffRule(self, .warning, .warning, .info, "a value's format changed")
        case .constraintNarrowed:
            DiffRule(
                self, .breaking, .info, nil,
                "a validation keyword (minLength, maximum, pattern, minItems, multipleOf…) accepts fewer values: added, a smaller maximum, a larger minimum, or a changed pattern (not ordered)"
            )
        case .constraintWidened:
            DiffRule(
                self, .info, .warning, nil,
                "a validation keyword accepts more values: removed, a larger maximum or a smaller minimum")
        case .enumValueAdded: DiffRule(self, .info, .warning, .info, "an enum gained a value")
        case .enumValueRemoved: DiffRule(self, .breaking, .info, .breaking, "an enum lost a value")
        case .openEnumValueAdded:
            DiffRule(
                self, .info, .info, .info,
                "an open enum (anyOf: [string, enum]) gained a value; any string was already accepted")
        case .openEnumValueRemoved:
            DiffRule(
                self, .info, .info, .breaking,
                "an open enum (anyOf: [string, enum]) lost a value; it is still accepted as a string, but its Swift constant is gone"
            )
        case .enumConstraintAdded: DiffRule(self, .breaking, .info, .breaking, "a free value became an enum")
        case .enumConstraintRemoved: DiffRule(self, .info, .warning, .breaking, "an enum became a free value")
        case .constChanged: DiffRule(self, .breaking, .breaking, .info, "a constant value changed")
        case .unionVariantAdded: DiffRule(self, .info, .warning, .info, "a oneOf/anyOf gained a variant")
        case .unionVariantRemoved: DiffRule(self, .breaking, .info, .breaking, "a oneOf/anyOf lost a variant")
        case .unionCaseAdded:
            DiffRule(
                self, nil, nil, .warning,
                "a union read from replies gained a variant, so its Swift enum a case: a switch that lists every case (`.unknown` too) and has no `default` stops compiling (judged with union-variant-added, on its entry)"
            )
        case .additionalPropertiesChanged: DiffRule(self, .warning, .warning, .warning, "additionalProperties changed")
        // The generated Swift API only.
        case .refChanged:
            DiffRule(
                self, .warning, .warning, .breaking,
                "a value now references another component (another Swift type; the wire verdict applies when the shapes differ)"
            )
        case .swiftTypeRenamed: DiffRule(self, nil, nil, .breaking, "the Swift type's name changed")
        case .swiftPropertyRenamed: DiffRule(self, nil, nil, .breaking, "a Swift property's name changed")
        case .swiftCaseRenamed: DiffRule(self, nil, nil, .breaking, "a Swift enum or union case's name changed")
        case .swiftMethodRenamed: DiffRule(self, nil, nil, .breaking, "a client method's name or resource changed")
        case .swiftParameterLabelChanged:
            DiffRule(self, nil, nil, .breaking, "a client method's argument label changed")
        }
    }
}
