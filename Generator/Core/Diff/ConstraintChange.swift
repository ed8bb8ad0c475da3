import OpenAIGeneratorOpenAPI

/// A change of one validation keyword (`maxLength`, `minimum`, `pattern`…) between two schemas,
/// ordered by what it does to the set of values the schema accepts: `narrowed` (fewer values: a
/// smaller maximum, a larger minimum, a keyword added, a changed `pattern`) or `widened` (more
/// values: the reverse, or a keyword removed).
struct ConstraintChange: Equatable {
    /// Which way the accepted values move.
    enum Direction: Equatable {
        case narrowed
        case widened
    }

    /// The keyword, e.g. `maxLength`.
    var keyword: String
    var before: ScalarValue?
    var after: ScalarValue?
    var direction: Direction

    /// The rule kind: `constraint-narrowed` or `constraint-widened`.
    var kind: ChangeKind { direction == .narrowed ? .constraintNarrowed : .constraintWidened }

    /// The entry's message: `maxLength narrowed from 100 to 50`, `pattern "^a" added`.
    var message: String {
        let word = direction == .narrowed ? "narrowed" : "widened"
        switch (before, after) {
        case (nil, let after?):
            return "\(keyword) \(Self.text(after)) added (\(word))"
        case (let before?, nil):
            return "\(keyword) \(Self.text(before)) removed (\(word))"
        case (let before?, let after?):
            let unordered = keyword == "pattern" || (direction == .narrowed && !Self.ordered(keyword, before, after))
            return "\(keyword) \(unordered ? "changed" : word) from \(Self.text(before)) to \(Self.text(after))"
                + (unordered ? " (cannot be ordered: treated as narrowed)" : "")
        case (nil, nil):
            return keyword
        }
    }

    /// Keywords whose larger value accepts fewer values.
    private static let lowerBounds: Set<String> = [
        "minLength", "minimum", "exclusiveMinimum", "minItems", "minProperties",
    ]
    /// Keywords whose larger value accepts more values.
    private static let upperBounds: Set<String> = [
        "maxLength", "maximum", "exclusiveMaximum", "maxItems", "maxProperties",
    ]

    /// The changed keywords of ``Schema/constraintKeywords`` between `before` and `after`, in that
    /// order. A `false` flag (`uniqueItems: false`, OpenAPI 3.0's `exclusiveMinimum: false`) is
    /// the same as no keyword.
    static func changes(from before: Schema, to after: Schema) -> [ConstraintChange] {
        guard !before.constraints.isEmpty || !after.constraints.isEmpty else { return [] }
        var result: [ConstraintChange] = []
        for keyword in Schema.constraintKeywords {
            let old = normalized(before.constraints[keyword])
            let new = normalized(after.constraints[keyword])
            guard old != new, let direction = direction(keyword, from: old, to: new) else { continue }
            result.append(ConstraintChange(keyword: keyword, before: old, after: new, direction: direction))
        }
        return result
    }

    private static func normalized(_ value: ScalarValue?) -> ScalarValue? {
        value == .bool(false) ? nil : value
    }

    /// Which way a keyword's change moves the accepted values; nil when it does not move them.
    static func direction(_ keyword: String, from before: ScalarValue?, to after: ScalarValue?) -> Direction? {
        switch (before, after) {
        case (nil, nil): return nil
        case (nil, _): return .narrowed
        case (_, nil): return .widened
        case (let before?, let after?):
            guard before != after else { return nil }
            if let old = number(before), let new = number(after) {
                guard old != new else { return nil }  // `1` and `1.0`
                if lowerBounds.contains(keyword) { return new > old ? .narrowed : .widened }
                if upperBounds.contains(keyword) { return new < old ? .narrowed : .widened }
                if keyword == "multipleOf", old > 0, new > 0, isWholeMultiple(old, of: new) { return .widened }
            }
            // A changed `pattern`, a `multipleOf` that is not a divisor of the old one, a flag that
            // became a number: not ordered, so judged as narrowed (old values may be refused).
            return .narrowed
        }
    }

    /// Whether `after` compares with `before` on a line (both numbers of a bound keyword).
    private static func ordered(_ keyword: String, _ before: ScalarValue, _ after: ScalarValue) -> Bool {
        guard number(before) != nil, number(after) != nil else { return false }
        if lowerBounds.contains(keyword) || upperBounds.contains(keyword) { return true }
        guard keyword == "multipleOf", let old = number(before), let new = number(after) else { return false }
        return old > 0 && new > 0 && isWholeMultiple(new, of: old)
    }

    private static func isWholeMultiple(_ value: Double, of divisor: Double) -> Bool {
        let quotient = value / divisor
        return quotient == quotient.rounded() && quotient.isFinite
    }

    private static func number(_ value: ScalarValue) -> Double? {
        switch value {
        case .int(let number): Double(number)
        case .double(let number): number
        default: nil
        }
    }

    private static func text(_ value: ScalarValue) -> String {
        ShapeFingerprinter.text(value)
    }
}
