import OpenAIGeneratorOpenAPI

/// Where a member's documentation comes from. The spec often puts a property's description, default and range
/// not on the property but on the non-null branch of `anyOf: [X, {type: null}]` or on the component a `$ref`
/// names; the doc comment takes each from the nearest schema that states it.
extension SchemaTranslator {
    /// The schemas that describe a use of `schema`, nearest first: the schema itself; its single non-null
    /// `anyOf`/`oneOf` branch; its single substantive `allOf` member; and the component each of those names by
    /// `$ref`. A union of several non-null branches stops the walk: its branches describe its cases, not it.
    func describingSchemas(_ schema: Schema) -> [Schema] {
        var chain: [Schema] = []
        var pending: [Schema] = [schema]
        while let next = pending.first, chain.count < 8 {
            pending.removeFirst()
            guard !chain.contains(where: { $0 === next }) else { continue }
            chain.append(next)
            let branches = Self.branches(next)
            if branches.count == 1 { pending.append(branches[0]) }
            if let member = Self.singleSubstantiveMember(next) { pending.append(member) }
            if let target = target(next) { pending.append(target) }
        }
        return chain
    }

    /// A member's documentation (a property, a parameter): its own description, else the first along
    /// ``describingSchemas(_:)``, with the unit its format implies (``withUnits(_:format:)``); and, as facts, what the
    /// schemas state about its values, the nearest first: the default, the range, the length, the number of items.
    func memberDocumentation(description own: String?, schema: Schema) -> (summary: String?, facts: [String]) {
        let chain = describingSchemas(schema)
        let description = ([own] + chain.map(\.description)).lazy.compactMap { $0 }.first { !$0.isEmpty }
        let format = chain.lazy.compactMap(\.format).first
        var constraints: [String: ScalarValue] = [:]
        for link in chain {
            constraints.merge(link.constraints) { nearest, _ in nearest }
        }
        let facts = Self.valueFacts(default: chain.lazy.compactMap(\.defaultValue).first, constraints: constraints)
        return (Self.withUnits(description, format: format), facts)
    }

    /// Sentences for the default and the validation keywords (`Default: `1`.`, `At least 0, at most 2.`,
    /// `At most 64 characters.`, `1 to 20 items.`), in that order; empty when there is nothing to say.
    static func valueFacts(default value: ScalarValue?, constraints: [String: ScalarValue]) -> [String] {
        var facts: [String] = []
        if let value, value != .null { facts.append("Default: `\(literal(value))`.") }
        var bounds: [String] = []
        if let minimum = number(constraints["minimum"]) {
            bounds.append(
                constraints["exclusiveMinimum"] == .bool(true) ? "greater than \(minimum)" : "at least \(minimum)")
        } else if let minimum = number(constraints["exclusiveMinimum"]) {
            bounds.append("greater than \(minimum)")
        }
        if let maximum = number(constraints["maximum"]) {
            bounds.append(
                constraints["exclusiveMaximum"] == .bool(true) ? "less than \(maximum)" : "at most \(maximum)")
        } else if let maximum = number(constraints["exclusiveMaximum"]) {
            bounds.append("less than \(maximum)")
        }
        if !bounds.isEmpty { facts.append(sentence(bounds.joined(separator: ", "))) }
        if let count = counted(constraints, minimum: "minLength", maximum: "maxLength", unit: "characters") {
            facts.append(count)
        }
        if let count = counted(constraints, minimum: "minItems", maximum: "maxItems", unit: "items") {
            facts.append(count)
        }
        return facts
    }

    /// `1 to 20 items.`, `At least 1 item.`, `At most 64 characters.`; nil when neither keyword is set.
    private static func counted(_ constraints: [String: ScalarValue], minimum: String, maximum: String, unit: String)
        -> String?
    {
        let low = number(constraints[minimum])
        let high = number(constraints[maximum])
        // `1 item`, `2 items`: the unit is given in the plural.
        func units(_ count: String) -> String { count == "1" ? String(unit.dropLast()) : unit }
        switch (low, high) {
        case (let low?, let high?) where low == high: return "Exactly \(low) \(units(low))."
        case (let low?, let high?): return "\(low) to \(high) \(unit)."
        case (let low?, nil): return low == "0" ? nil : "At least \(low) \(units(low))."
        case (nil, let high?): return "At most \(high) \(units(high))."
        case (nil, nil): return nil
        }
    }

    /// A number as the spec wrote it (`2`, `0.5`); nil for anything else.
    private static func number(_ value: ScalarValue?) -> String? {
        switch value {
        case .int(let number): String(number)
        case .double(let number):
            number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
        default: nil
        }
    }

    /// A scalar as JSON writes it.
    private static func literal(_ value: ScalarValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let flag): flag ? "true" : "false"
        case .int, .double: number(value) ?? ""
        case .string(let text):
            "\"" + text.split(separator: "`", omittingEmptySubsequences: false).joined(separator: "'") + "\""
        }
    }

    private static func sentence(_ text: String) -> String {
        text.prefix(1).uppercased() + text.dropFirst() + "."
    }
}
