import OpenAPI

/// Compares two schemas structurally, judged in the directions they are used. Component
/// references with the same name (or a detected rename) are not followed: each component is
/// compared once on its own. An inline schema compared with a `$ref` is compared with the
/// referenced component, so moving an inline schema to an equivalent component is no change.
struct SchemaComparator {
    let old: OpenAPIDocument
    let new: OpenAPIDocument
    /// Old component name → new component name, for renamed schemas.
    let renames: [String: String]
    var findings: [DiffFinding] = []
    private var fingerprints = ShapeFingerprinter()
    private var visited: Set<VisitKey> = []

    private struct VisitKey: Hashable {
        var old: ObjectIdentifier
        var new: ObjectIdentifier
        var directions: Int
    }

    init(old: OpenAPIDocument, new: OpenAPIDocument, renames: [String: String]) {
        self.old = old
        self.new = new
        self.renames = renames
    }

    mutating func fingerprint(_ schema: Schema) -> String { fingerprints.fingerprint(schema) }

    private mutating func emit(
        _ kind: String, _ pointer: String, _ side: DiffFinding.Side, _ message: String,
        _ directions: UsageDirections,
        swift: Bool = true
    ) {
        findings.append(
            DiffFinding(
                kind: kind, pointer: pointer, side: side, message: message, directions: directions,
                swift: swift))
    }

    /// Compares `a` (old) with `b` (new). `required` gives the old and new `required` status when
    /// the schemas are an object property (the Swift type is optional when not required or nullable).
    mutating func compare(
        _ a: Schema, _ b: Schema, _ directions: UsageDirections, required: (Bool, Bool)? = nil
    ) {
        guard
            visited.insert(
                VisitKey(
                    old: ObjectIdentifier(a), new: ObjectIdentifier(b), directions: directions.rawValue)
            )
            .inserted
        else { return }
        var sa = SchemaShape(a)
        var sb = SchemaShape(b)
        let pointer = b.location.pointer
        if let ra = sa.schema.ref, let rb = sb.schema.ref {
            compareNullability(sa.nullable, sb.nullable, pointer, directions, required)
            let mapped = renames[ra] ?? ra
            guard mapped != rb else { return }
            // Another component: judged once here, not followed (each component is compared on its own).
            let targetA = old.schema(named: ra)
            let targetB = new.schema(named: rb)
            let sameShape = targetA.map { fingerprint($0) } == targetB.map { fingerprint($0) }
            let kindA = targetA.map { Self.kindName(SchemaShape($0)) } ?? "any"
            let kindB = targetB.map { Self.kindName(SchemaShape($0)) } ?? "any"
            if kindA != kindB {
                emit(
                    "type-changed", pointer, .new,
                    "now `$ref` \(rb) (\(kindB)) instead of `$ref` \(ra) (\(kindA))", directions)
            } else {
                emit(
                    "ref-changed", pointer, .new,
                    "now `$ref` \(rb) instead of `$ref` \(ra)\(sameShape ? " (same shape)" : "")",
                    sameShape ? [] : directions)
            }
            return
        }
        var originA: String?
        var originB: String?
        if let ra = sa.schema.ref, let target = old.schema(named: ra) {
            originA = renames[ra] ?? ra
            let nullable = sa.nullable
            sa = SchemaShape(target)
            sa.nullable = sa.nullable || nullable
        }
        if let rb = sb.schema.ref, let target = new.schema(named: rb) {
            originB = rb
            let nullable = sb.nullable
            sb = SchemaShape(target)
            sb.nullable = sb.nullable || nullable
        }
        compareNullability(sa.nullable, sb.nullable, pointer, directions, required)
        if sa.schema.ref != nil || sb.schema.ref != nil {
            if sa.schema.ref != sb.schema.ref, sa.schema !== a || sb.schema !== b {
                compare(sa.schema, sb.schema, directions, required: nil)
            }
            return
        }
        compareBodies(sa, sb, directions, origins: (originA, originB))
    }

    private mutating func compareNullability(
        _ before: Bool, _ after: Bool, _ pointer: String, _ directions: UsageDirections,
        _ required: (Bool, Bool)?
    ) {
        guard before != after else { return }
        let optionalBefore = required.map { !$0.0 || before } ?? before
        let optionalAfter = required.map { !$0.1 || after } ?? after
        emit(
            after ? "became-nullable" : "became-non-nullable", pointer, .new,
            after ? "may now be null" : "may no longer be null", directions,
            swift: optionalBefore != optionalAfter)
    }

    static func kindName(_ shape: SchemaShape) -> String {
        if !shape.types.isEmpty { return shape.types.sorted().joined(separator: "|") }
        if !shape.variants.isEmpty { return "oneOf" }
        if !shape.schema.allOf.isEmpty || shape.schema.discriminator != nil { return "object" }
        if let values = shape.enumValues ?? shape.schema.constValue.map({ [$0] }) {
            if values.allSatisfy({ $0.string != nil }) { return "string" }
        }
        return "any"
    }

    private mutating func compareBodies(
        _ sa: SchemaShape, _ sb: SchemaShape, _ directions: UsageDirections, origins: (String?, String?)
    ) {
        let a = sa.schema
        let b = sb.schema
        let pointer = b.location.pointer
        let kindA = Self.kindName(sa)
        let kindB = Self.kindName(sb)
        if kindA != kindB {
            emit("type-changed", pointer, .new, "type changed from \(kindA) to \(kindB)", directions)
            return
        }
        if a.format != b.format {
            emit(
                "format-changed", pointer, .new,
                "format changed from \(a.format ?? "none") to \(b.format ?? "none")",
                directions, swift: (a.format == "binary") != (b.format == "binary"))
        }
        compareEnums(sa, sb, directions)
        if a.constValue != b.constValue, a.constValue != nil || b.constValue != nil {
            let before = a.constValue.map(ShapeFingerprinter.text) ?? "none"
            let after = b.constValue.map(ShapeFingerprinter.text) ?? "none"
            emit("const-changed", pointer, .new, "const changed from \(before) to \(after)", directions)
        }
        compareProperties(a, b, directions, origins: origins)
        if let itemsA = a.items, let itemsB = b.items { compare(itemsA, itemsB, directions) }
        switch (a.additionalProperties, b.additionalProperties) {
        case (.schema(let valueA), .schema(let valueB)):
            compare(valueA, valueB, directions)
        case (.schema, _), (_, .schema), (.allowed(false), .absent), (.allowed(false), .allowed(true)),
            (.absent, .allowed(false)), (.allowed(true), .allowed(false)):
            emit(
                "additional-properties-changed", pointer, .new, "additionalProperties changed", directions)
        default:
            break
        }
        matchMembers(sa.variants, sb.variants, directions, union: true, pointer: pointer)
    }

    private mutating func compareEnums(
        _ sa: SchemaShape, _ sb: SchemaShape, _ directions: UsageDirections
    ) {
        let pointer = sb.schema.location.pointer
        switch (sa.enumValues, sb.enumValues) {
        case (let before?, let after?):
            let afterSet = Set(after)
            let beforeSet = Set(before)
            for value in before where !afterSet.contains(value) {
                emit(
                    "enum-value-removed", sa.schema.location.pointer, .old,
                    "enum value \(ShapeFingerprinter.text(value)) removed", directions)
            }
            for value in after where !beforeSet.contains(value) {
                emit(
                    "enum-value-added", pointer, .new, "enum value \(ShapeFingerprinter.text(value)) added",
                    directions)
            }
        case (.some, nil):
            emit("enum-constraint-removed", pointer, .new, "no longer restricted to an enum", directions)
        case (nil, .some):
            emit("enum-constraint-added", pointer, .new, "now restricted to an enum", directions)
        case (nil, nil):
            break
        }
    }

    /// A property with the component it comes from (through `allOf` or a followed `$ref`).
    struct EffectiveProperty {
        var name: String
        var schema: Schema
        var origin: String?
    }

    /// The properties of `schema` and of its `allOf` members, with `required` merged.
    static func effectiveProperties(
        _ schema: Schema, origin: String?, in document: OpenAPIDocument, rename: (String) -> String,
        depth: Int = 0
    ) -> (properties: [EffectiveProperty], required: Set<String>, origins: Set<String>) {
        var properties = schema.properties.map {
            EffectiveProperty(name: $0.name, schema: $0.schema, origin: origin)
        }
        var required = Set(schema.required)
        var origins: Set<String> = origin.map { [$0] } ?? []
        guard depth < 8 else { return (properties, required, origins) }
        for member in schema.allOf {
            var target = member
            var memberOrigin = origin
            if let ref = member.ref, let resolved = document.schema(named: ref) {
                target = resolved
                memberOrigin = rename(ref)
            }
            let inner = effectiveProperties(
                target, origin: memberOrigin, in: document, rename: rename, depth: depth + 1)
            let known = Set(properties.map(\.name))
            properties += inner.properties.filter { !known.contains($0.name) }
            required.formUnion(inner.required)
            origins.formUnion(inner.origins)
        }
        return (properties, required, origins)
    }

    /// Compares properties, `allOf` members flattened. A property that comes from the same
    /// component on both sides is skipped: that component's own comparison reports it.
    private mutating func compareProperties(
        _ a: Schema, _ b: Schema, _ directions: UsageDirections, origins: (String?, String?)
    ) {
        let renames = self.renames
        let flatA = Self.effectiveProperties(a, origin: origins.0, in: old) { renames[$0] ?? $0 }
        let flatB = Self.effectiveProperties(b, origin: origins.1, in: new) { $0 }
        guard !flatA.properties.isEmpty || !flatB.properties.isEmpty else { return }
        let newByName = Dictionary(
            flatB.properties.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let oldNames = Set(flatA.properties.map(\.name))
        for propertyA in flatA.properties {
            let name = propertyA.name
            let schemaA = propertyA.schema
            guard let propertyB = newByName[name] else {
                if let origin = propertyA.origin, flatB.origins.contains(origin) { continue }
                emit(
                    "property-removed", schemaA.location.pointer, .old, "property `\(name)` removed",
                    directions)
                continue
            }
            if propertyA.origin != nil, propertyA.origin == propertyB.origin { continue }
            let schemaB = propertyB.schema
            let wasRequired = flatA.required.contains(name)
            let isRequired = flatB.required.contains(name)
            if wasRequired != isRequired {
                let nullableA = SchemaShape(schemaA).nullable
                let nullableB = SchemaShape(schemaB).nullable
                let swiftChanged = (!wasRequired || nullableA) != (!isRequired || nullableB)
                emit(
                    isRequired ? "became-required" : "became-optional", schemaB.location.pointer, .new,
                    "property `\(name)` became \(isRequired ? "required" : "optional")", directions,
                    swift: swiftChanged)
            }
            compare(schemaA, schemaB, directions, required: (wasRequired, isRequired))
        }
        for propertyB in flatB.properties where !oldNames.contains(propertyB.name) {
            if let origin = propertyB.origin, flatA.origins.contains(origin) { continue }
            let isRequired = flatB.required.contains(propertyB.name)
            emit(
                isRequired ? "required-property-added" : "property-added",
                propertyB.schema.location.pointer, .new,
                "\(isRequired ? "required " : "")property `\(propertyB.name)` added", directions)
        }
    }

    /// The discriminating constant of a variant: its `type` (or `event`, `object`) property's
    /// `const` or single-value `enum`, following a `$ref`.
    private func discriminatorValue(_ schema: Schema, in document: OpenAPIDocument, depth: Int = 0)
        -> String?
    {
        guard depth < 6 else { return nil }
        let target = schema.ref.flatMap { document.schema(named: $0) } ?? schema
        for key in ["type", "event", "object"] {
            guard let property = target.properties.first(where: { $0.name == key })?.schema else {
                continue
            }
            if let value = property.constValue?.string { return key + "=" + value }
            if let values = property.enumValues, values.count == 1, let value = values[0].string {
                return key + "=" + value
            }
        }
        for member in target.allOf {
            if let value = discriminatorValue(member, in: document, depth: depth + 1) { return value }
        }
        return nil
    }

    /// Whether `schema` is a `$ref` to a component that is only a union (its variants can be
    /// flattened into an enclosing union without changing the wire).
    private func pureUnionTarget(_ schema: Schema, in document: OpenAPIDocument) -> [Schema]? {
        guard let ref = schema.ref, let target = document.schema(named: ref) else { return nil }
        let shape = SchemaShape(target)
        guard shape.schema === target, target.properties.isEmpty, target.allOf.isEmpty,
            !shape.variants.isEmpty
        else {
            return nil
        }
        return shape.variants
    }

    private func describe(_ schema: Schema, in document: OpenAPIDocument) -> String {
        if let ref = schema.ref { return "`$ref` \(ref)" }
        if let value = discriminatorValue(schema, in: document) { return "inline variant (\(value))" }
        return "inline \(Self.kindName(SchemaShape(schema))) variant"
    }

    /// Matches union variants (or allOf members) by `$ref` name, then by discriminating constant,
    /// then by shape; compares the matched pairs and reports the rest as added or removed.
    private mutating func matchMembers(
        _ originalBefore: [Schema], _ originalAfter: [Schema], _ directions: UsageDirections,
        union: Bool, pointer: String
    ) {
        guard !originalBefore.isEmpty || !originalAfter.isEmpty else { return }
        var before = originalBefore
        var after = originalAfter
        var unmatchedOld = Array(before.indices)
        var unmatchedNew = Array(after.indices)
        var pairs: [(Int, Int)] = []
        func pass(_ keyOld: (Schema) -> String?, _ keyNew: (Schema) -> String?) {
            var byKey: [String: [Int]] = [:]
            for index in unmatchedNew {
                if let key = keyNew(after[index]) { byKey[key, default: []].append(index) }
            }
            var remaining: [Int] = []
            for index in unmatchedOld {
                if let key = keyOld(before[index]), var candidates = byKey[key], !candidates.isEmpty {
                    let match = candidates.removeFirst()
                    byKey[key] = candidates
                    pairs.append((index, match))
                    unmatchedNew.removeAll { $0 == match }
                } else {
                    remaining.append(index)
                }
            }
            unmatchedOld = remaining
        }
        let renames = self.renames
        pass({ $0.ref.map { "$" + (renames[$0] ?? $0) } }, { $0.ref.map { "$" + $0 } })
        let old = self.old
        let new = self.new
        // A variant that references a pure union, with no partner, is flattened into its variants:
        // the same JSON on the wire, but the Swift case for the nested union goes or comes.
        if union {
            for _ in 0..<3 {
                var expanded = false
                for index in unmatchedOld {
                    guard let variants = pureUnionTarget(before[index], in: old) else { continue }
                    emit(
                        "union-variant-removed", before[index].location.pointer, .old,
                        "variant `$ref` \(before[index].ref!) flattened into its \(variants.count) variants", []
                    )
                    unmatchedOld.removeAll { $0 == index }
                    unmatchedOld += before.count..<(before.count + variants.count)
                    before += variants
                    expanded = true
                }
                for index in unmatchedNew {
                    guard let variants = pureUnionTarget(after[index], in: new) else { continue }
                    emit(
                        "union-variant-added", after[index].location.pointer, .new,
                        "variants grouped as `$ref` \(after[index].ref!)", [])
                    unmatchedNew.removeAll { $0 == index }
                    unmatchedNew += after.count..<(after.count + variants.count)
                    after += variants
                    expanded = true
                }
                guard expanded else { break }
                pass({ $0.ref.map { "$" + (renames[$0] ?? $0) } }, { $0.ref.map { "$" + $0 } })
            }
        }
        pass({ self.discriminatorValue($0, in: old) }, { self.discriminatorValue($0, in: new) })
        var fingerprintsOld: [Int: String] = [:]
        var fingerprintsNew: [Int: String] = [:]
        for index in unmatchedOld {
            fingerprintsOld[index] = fingerprint(
                before[index].ref.flatMap { old.schema(named: $0) } ?? before[index])
        }
        for index in unmatchedNew {
            fingerprintsNew[index] = fingerprint(
                after[index].ref.flatMap { new.schema(named: $0) } ?? after[index])
        }
        let byIdentityOld = Dictionary(
            uniqueKeysWithValues: unmatchedOld.map { (ObjectIdentifier(before[$0]), $0) })
        let byIdentityNew = Dictionary(
            uniqueKeysWithValues: unmatchedNew.map { (ObjectIdentifier(after[$0]), $0) })
        pass(
            { byIdentityOld[ObjectIdentifier($0)].flatMap { fingerprintsOld[$0] } },
            { byIdentityNew[ObjectIdentifier($0)].flatMap { fingerprintsNew[$0] } })
        // The same number of inline members left on both sides: compare them in order.
        if !unmatchedOld.isEmpty, unmatchedOld.count == unmatchedNew.count,
            unmatchedOld.allSatisfy({ before[$0].ref == nil }),
            unmatchedNew.allSatisfy({ after[$0].ref == nil })
        {
            pairs.append(contentsOf: zip(unmatchedOld, unmatchedNew).map { ($0, $1) })
            unmatchedOld = []
            unmatchedNew = []
        }
        for (oldIndex, newIndex) in pairs.sorted(by: { $0.0 < $1.0 }) {
            compare(before[oldIndex], after[newIndex], directions)
        }
        let noun = "variant"
        for index in unmatchedOld {
            emit(
                "union-variant-removed", before[index].location.pointer, .old,
                "\(noun) \(describe(before[index], in: old)) removed", directions)
        }
        for index in unmatchedNew {
            emit(
                "union-variant-added", after[index].location.pointer, .new,
                "\(noun) \(describe(after[index], in: new)) added", directions)
        }
    }
}
