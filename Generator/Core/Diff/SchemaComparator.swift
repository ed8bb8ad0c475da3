import OpenAIGeneratorOpenAPI

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
    /// Pointers of the schemas compared with each other (old, new): the pairs matched by name,
    /// `$ref`, discriminating constant or shape, never by position. Swift names are compared
    /// along these pairs only.
    var matchedPointers: [(old: String, new: String)] = []
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
        _ kind: ChangeKind, _ pointer: String, _ side: DiffFinding.Side, _ message: String,
        _ directions: UsageDirections,
        swift: Bool = true, swiftSeverity: ChangeSeverity? = nil, at schema: Schema? = nil,
        foldedKinds: [ChangeKind] = []
    ) {
        findings.append(
            DiffFinding(
                kind: kind, pointer: pointer, side: side, message: message, directions: directions,
                swift: swift, swiftSeverity: swiftSeverity, mark: schema?.location.mark, foldedKinds: foldedKinds))
    }

    /// Whether enum values of a union's variants are open: the union also takes any string
    /// (`anyOf: [string, enum]`), so a listed value leaving or joining changes no JSON that is
    /// accepted; only the Swift constants change.
    struct Openness {
        /// The new union takes any string: a removed value is still accepted.
        var removals = false
        /// The old union took any string: an added value was already accepted.
        var additions = false
    }

    /// Compares `a` (old) with `b` (new). `required` gives the old and new `required` status when
    /// the schemas are an object property (the Swift type is optional when not required or nullable).
    mutating func compare(
        _ a: Schema, _ b: Schema, _ directions: UsageDirections, required: (Bool, Bool)? = nil,
        openness: Openness = Openness()
    ) {
        guard
            visited.insert(
                VisitKey(
                    old: ObjectIdentifier(a), new: ObjectIdentifier(b), directions: directions.rawValue)
            )
            .inserted
        else { return }
        matchedPointers.append((a.location.pointer, b.location.pointer))
        var sa = SchemaShape(a)
        var sb = SchemaShape(b)
        let pointer = b.location.pointer
        if let ra = sa.schema.ref, let rb = sb.schema.ref {
            compareNullability(sa.nullable, sb.nullable, pointer, directions, required, at: b)
            let mapped = renames[ra] ?? ra
            guard mapped != rb else { return }
            // Another component: judged once here, not followed (each component is compared on its own).
            let shapeA = old.schema(named: ra).map(SchemaShape.init)
            let shapeB = new.schema(named: rb).map(SchemaShape.init)
            if let shapeB, becameUnion(of: "$" + mapped, shapeB, old: false) {
                reportBecameUnion(
                    "the value (`\(ra)`)", shapeB.variants, except: "$" + mapped, directions, union: "`\(rb)`")
                return
            }
            if let shapeA, becameUnion(of: "$" + rb, shapeA, old: true) {
                reportBecameSingle("`\(rb)`", shapeA.variants, except: "$" + rb, directions, union: "`\(ra)`")
                return
            }
            let kindA = shapeA.map(Self.kindName) ?? "any"
            let kindB = shapeB.map(Self.kindName) ?? "any"
            if kindA != kindB {
                emit(
                    .typeChanged, pointer, .new,
                    "now references `\(rb)` (\(Self.readable(kindB))) instead of `\(ra)` (\(Self.readable(kindA)))",
                    directions, at: b)
            } else {
                let sameShape =
                    old.schema(named: ra).map { fingerprint($0) } == new.schema(named: rb).map { fingerprint($0) }
                emit(
                    .refChanged, pointer, .new,
                    "now references `\(rb)` instead of `\(ra)`\(sameShape ? " (same shape)" : "")",
                    sameShape ? [] : directions, at: b)
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
        compareNullability(Self.acceptsNull(sa), Self.acceptsNull(sb), pointer, directions, required, at: b)
        if sa.schema.ref != nil || sb.schema.ref != nil {
            if sa.schema.ref != sb.schema.ref, sa.schema !== a || sb.schema !== b {
                compare(sa.schema, sb.schema, directions, required: nil)
            }
            return
        }
        compareBodies(sa, sb, directions, origins: (originA, originB), originals: (a, b), openness)
    }

    private mutating func compareNullability(
        _ before: Bool, _ after: Bool, _ pointer: String, _ directions: UsageDirections,
        _ required: (Bool, Bool)?, at: Schema
    ) {
        guard before != after else { return }
        let optionalBefore = required.map { !$0.0 || before } ?? before
        let optionalAfter = required.map { !$0.1 || after } ?? after
        emit(
            after ? .becameNullable : .becameNonNullable, pointer, .new,
            after ? "may now be null" : "may no longer be null", directions,
            swift: optionalBefore != optionalAfter, at: at)
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

    /// The kind as words for messages: `a union`, `any value`, `integer or string`.
    static func readable(_ kind: String) -> String {
        switch kind {
        case "oneOf": "a union (oneOf/anyOf)"
        case "any": "any value"
        default: kind.split(separator: "|").joined(separator: " or ")
        }
    }

    /// Whether `shape` accepts every value of no particular type: no type, properties, items,
    /// variants, enum or constant.
    static func acceptsAnything(_ shape: SchemaShape) -> Bool {
        let schema = shape.schema
        return schema.ref == nil && shape.types.isEmpty && shape.variants.isEmpty
            && schema.properties.isEmpty && schema.items == nil && schema.allOf.isEmpty
            && shape.enumValues == nil && schema.constValue == nil
    }

    /// Whether `shape` accepts `null`: it says so (``SchemaShape/nullable``), or it is the empty
    /// schema (`{}`, `true`, or only annotations), which accepts every value, `null` included.
    static func acceptsNull(_ shape: SchemaShape) -> Bool {
        guard !shape.nullable else { return true }
        guard acceptsAnything(shape), shape.schema.swiftType == nil else { return false }
        switch shape.schema.additionalProperties {
        case .absent, .allowed(true): return true
        case .allowed(false), .schema: return false
        }
    }

    /// Whether `after` accepts every value `before` accepts, judged on the type alone (anything,
    /// or a `type` list that grew).
    static func widens(_ before: SchemaShape, to after: SchemaShape) -> Bool {
        if acceptsAnything(after) { return !acceptsAnything(before) }
        guard !before.types.isEmpty, after.types.isSuperset(of: before.types),
            after.types != before.types, after.enumValues == nil, after.schema.constValue == nil
        else { return false }
        return true
    }

    private mutating func compareBodies(
        _ sa: SchemaShape, _ sb: SchemaShape, _ directions: UsageDirections, origins: (String?, String?),
        originals: (Schema, Schema), _ openness: Openness
    ) {
        let a = sa.schema
        let b = sb.schema
        let pointer = b.location.pointer
        guard Self.kindName(sa) == Self.kindName(sb) else {
            reportKindChange(sa, sb, directions, originals: originals)
            return
        }
        if a.format != b.format {
            emit(
                .formatChanged, pointer, .new,
                "format changed from \(a.format ?? "none") to \(b.format ?? "none")",
                directions, swift: (a.format == "binary") != (b.format == "binary"), at: b)
        }
        compareEnums(sa, sb, directions, openness)
        for change in ConstraintChange.changes(from: a, to: b) {
            emit(change.kind, pointer, .new, change.message, directions, swift: false, at: b)
        }
        if a.constValue != b.constValue, a.constValue != nil || b.constValue != nil {
            let before = a.constValue.map(ShapeFingerprinter.text) ?? "none"
            let after = b.constValue.map(ShapeFingerprinter.text) ?? "none"
            emit(
                .constChanged, pointer, .new, "constant changed from \(before) to \(after)", directions,
                at: b)
        }
        compareProperties(a, b, directions, origins: origins)
        if let itemsA = a.items, let itemsB = b.items { compare(itemsA, itemsB, directions) }
        switch (a.additionalProperties, b.additionalProperties) {
        case (.schema(let valueA), .schema(let valueB)):
            compare(valueA, valueB, directions)
        case (.schema, _), (_, .schema), (.allowed(false), .absent), (.allowed(false), .allowed(true)),
            (.absent, .allowed(false)), (.allowed(true), .allowed(false)):
            emit(
                .additionalPropertiesChanged, pointer, .new, "additionalProperties changed", directions,
                at: b)
        default:
            break
        }
        matchMembers(sa.variants, sb.variants, directions)
    }

    /// A value whose kind changed (`string` to a union, `object` to anything): a single schema
    /// becoming a union (or back) when one variant is the old schema, a widened or narrowed type,
    /// or else a type change. Reported where the value is (the property), not at a component it
    /// now references.
    private mutating func reportKindChange(
        _ sa: SchemaShape, _ sb: SchemaShape, _ directions: UsageDirections, originals: (Schema, Schema)
    ) {
        // A one-variant `oneOf`/`anyOf` is its variant (`SchemaShape` unwraps it, and so does the
        // generated Swift): it is matched as that variant, not as the wrapper around it.
        if sa.variants.isEmpty, !sb.variants.isEmpty, !Self.acceptsAnything(sa),
            singleBecameUnion(SchemaShape(originals.0).schema, sb, directions)
        {
            return
        }
        if !sa.variants.isEmpty, sb.variants.isEmpty, !Self.acceptsAnything(sb),
            unionBecameSingle(sa, SchemaShape(originals.1).schema, directions)
        {
            return
        }
        let site = originals.1
        let kindA = Self.readable(Self.kindName(sa))
        let kindB = Self.readable(Self.kindName(sb))
        if Self.widens(sa, to: sb) {
            emit(
                .typeWidened, site.location.pointer, .new, "now accepts \(kindB) instead of only \(kindA)",
                directions, at: site)
        } else if Self.widens(sb, to: sa) {
            emit(
                .typeNarrowed, site.location.pointer, .new, "now accepts only \(kindB) instead of \(kindA)",
                directions, at: site)
        } else {
            emit(
                .typeChanged, site.location.pointer, .new, "type changed from \(kindA) to \(kindB)", directions,
                at: site)
        }
    }

    private mutating func compareEnums(
        _ sa: SchemaShape, _ sb: SchemaShape, _ directions: UsageDirections, _ openness: Openness
    ) {
        let pointer = sb.schema.location.pointer
        switch (sa.enumValues, sb.enumValues) {
        case (let before?, let after?):
            let afterSet = Set(after)
            let beforeSet = Set(before)
            for value in before where !afterSet.contains(value) {
                emit(
                    openness.removals ? .openEnumValueRemoved : .enumValueRemoved,
                    sa.schema.location.pointer, .old,
                    "enum value \(ShapeFingerprinter.text(value)) removed"
                        + (openness.removals ? " (any other string is still accepted)" : ""),
                    directions, at: sa.schema)
            }
            for value in after where !beforeSet.contains(value) {
                emit(
                    openness.additions ? .openEnumValueAdded : .enumValueAdded, pointer, .new,
                    "enum value \(ShapeFingerprinter.text(value)) added"
                        + (openness.additions ? " (any string was already accepted)" : ""),
                    directions, at: sb.schema)
            }
        case (.some, nil):
            emit(
                .enumConstraintRemoved, pointer, .new, "no longer restricted to an enum", directions,
                at: sb.schema)
        case (nil, .some):
            emit(
                .enumConstraintAdded, pointer, .new, "now restricted to an enum", directions, at: sb.schema)
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
                    .propertyRemoved, schemaA.location.pointer, .old, "property `\(name)` removed",
                    directions, at: schemaA)
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
                    isRequired ? .becameRequired : .becameOptional, schemaB.location.pointer, .new,
                    "property `\(name)` became \(isRequired ? "required" : "optional")", directions,
                    swift: swiftChanged, at: schemaB)
            }
            compare(schemaA, schemaB, directions, required: (wasRequired, isRequired))
        }
        for propertyB in flatB.properties where !oldNames.contains(propertyB.name) {
            if let origin = propertyB.origin, flatA.origins.contains(origin) { continue }
            let isRequired = flatB.required.contains(propertyB.name)
            emit(
                isRequired ? .requiredPropertyAdded : .propertyAdded,
                propertyB.schema.location.pointer, .new,
                "\(isRequired ? "required " : "")property `\(propertyB.name)` added", directions,
                at: propertyB.schema)
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

    /// Whether `schema` (following one `$ref`) takes any string: `type: string` without an enum,
    /// a constant or a format that restricts it.
    private func takesAnyString(_ schema: Schema, in document: OpenAPIDocument) -> Bool {
        SchemaShape(schema.ref.flatMap { document.schema(named: $0) } ?? schema).takesAnyString
    }

    /// How a variant is named in messages: `` `Name` ``, `with type "x"`, or
    /// `(an inline object with `a`, `b`, …)`.
    private func describe(_ schema: Schema, in document: OpenAPIDocument) -> String {
        if let ref = schema.ref { return "`\(ref)`" }
        if let value = discriminatorValue(schema, in: document) {
            let parts = value.split(separator: "=", maxSplits: 1)
            return "with \(parts[0]) \"\(parts.count > 1 ? parts[1] : "")\""
        }
        let shape = SchemaShape(schema)
        let names = Self.effectiveProperties(schema, origin: nil, in: document) { $0 }.properties.map(
            \.name)
        let kind = Self.readable(Self.kindName(shape))
        guard !names.isEmpty else { return "(inline: \(kind))" }
        let listed = names.prefix(3).map { "`\($0)`" }.joined(separator: ", ")
        return "(inline \(kind) with \(listed)\(names.count > 3 ? ", …" : ""))"
    }

    /// What identifies a member for matching: `$ref` name (old names mapped through renames).
    private func refKey(_ schema: Schema, old isOld: Bool) -> String? {
        schema.ref.map { "$" + (isOld ? (renames[$0] ?? $0) : $0) }
    }

    /// Whether a union `shape` has a variant that is `key` (`$Name`), a single schema that became
    /// that union.
    private func becameUnion(of key: String, _ shape: SchemaShape, old isOld: Bool) -> Bool {
        guard shape.variants.count >= 2 else { return false }
        return shape.variants.contains { refKey($0, old: isOld) == key }
    }

    /// Reports each variant of a union that a single schema became (except the one that is the
    /// old schema) as added; the Swift type becomes an enum of cases, which the entry says.
    private mutating func reportBecameUnion(
        _ single: String, _ variants: [Schema], except key: String?, _ directions: UsageDirections,
        union: String? = nil
    ) {
        for variant in variants where key == nil || refKey(variant, old: false) != key {
            emit(
                .unionVariantAdded, variant.location.pointer, .new,
                "\(single) became a union\(union.map { " (\($0))" } ?? ""): variant "
                    + "\(describe(variant, in: new)) added (the Swift type changes from a single type to an enum of cases)",
                directions, swiftSeverity: .breaking, at: variant)
        }
    }

    /// The mirror of ``reportBecameUnion``: a union that became one of its variants.
    private mutating func reportBecameSingle(
        _ single: String, _ variants: [Schema], except key: String?, _ directions: UsageDirections,
        union: String? = nil
    ) {
        for variant in variants where key == nil || refKey(variant, old: true) != key {
            emit(
                .unionVariantRemoved, variant.location.pointer, .old,
                "\(union.map { "the union \($0)" } ?? "a union") became \(single): variant "
                    + "\(describe(variant, in: old)) removed (the Swift type changes from an enum of cases to a single type)",
                directions, swiftSeverity: .breaking, at: variant)
        }
    }

    /// An old schema that is not a union compared with a new union: when one variant is the old
    /// schema (same `$ref`, discriminating constant or shape), the change is the union's other
    /// variants being added. Returns false when no variant matches (a plain type change).
    private mutating func singleBecameUnion(
        _ original: Schema, _ sb: SchemaShape, _ directions: UsageDirections
    ) -> Bool {
        let pairs = matchedPairs([original], sb.variants)
        guard let pair = pairs.first else { return false }
        let others = sb.variants.enumerated().filter { $0.offset != pair.1 }.map(\.element)
        compare(original, sb.variants[pair.1], directions)
        reportBecameUnion(
            "the value", others, except: nil, directions)
        return true
    }

    /// The mirror of ``singleBecameUnion(_:_:_:)``.
    private mutating func unionBecameSingle(
        _ sa: SchemaShape, _ original: Schema, _ directions: UsageDirections
    ) -> Bool {
        let pairs = matchedPairs(sa.variants, [original])
        guard let pair = pairs.first else { return false }
        let others = sa.variants.enumerated().filter { $0.offset != pair.0 }.map(\.element)
        compare(sa.variants[pair.0], original, directions)
        reportBecameSingle(
            "a single value", others, except: nil, directions)
        return true
    }

    /// Pairs old and new members: by `$ref` name (renames applied), then by discriminating
    /// constant, then by identical shape, then by similar shape (same kind and at least half of
    /// the property names shared, most similar first; without properties, the only member of its
    /// kind on each side). Never by position.
    private mutating func matchedPairs(_ before: [Schema], _ after: [Schema]) -> [(Int, Int)] {
        var unmatchedOld = Array(before.indices)
        var unmatchedNew = Array(after.indices)
        var pairs: [(Int, Int)] = []
        func pass(_ keyOld: (Int) -> String?, _ keyNew: (Int) -> String?) {
            var byKey: [String: [Int]] = [:]
            for index in unmatchedNew {
                if let key = keyNew(index) { byKey[key, default: []].append(index) }
            }
            var remaining: [Int] = []
            var taken: Set<Int> = []
            for index in unmatchedOld {
                if let key = keyOld(index), var candidates = byKey[key], !candidates.isEmpty {
                    let match = candidates.removeFirst()
                    byKey[key] = candidates
                    pairs.append((index, match))
                    taken.insert(match)
                } else {
                    remaining.append(index)
                }
            }
            unmatchedOld = remaining
            unmatchedNew.removeAll { taken.contains($0) }
        }
        pass({ self.refKey(before[$0], old: true) }, { self.refKey(after[$0], old: false) })
        let old = self.old
        let new = self.new
        pass(
            { self.discriminatorValue(before[$0], in: old) }, { self.discriminatorValue(after[$0], in: new) })
        guard !unmatchedOld.isEmpty, !unmatchedNew.isEmpty else { return pairs }
        func resolved(_ schema: Schema, _ document: OpenAPIDocument) -> Schema {
            schema.ref.flatMap { document.schema(named: $0) } ?? schema
        }
        var fingerprintsOld: [Int: String] = [:]
        var fingerprintsNew: [Int: String] = [:]
        for index in unmatchedOld { fingerprintsOld[index] = fingerprint(resolved(before[index], old)) }
        for index in unmatchedNew { fingerprintsNew[index] = fingerprint(resolved(after[index], new)) }
        pass({ fingerprintsOld[$0] }, { fingerprintsNew[$0] })
        guard !unmatchedOld.isEmpty, !unmatchedNew.isEmpty else { return pairs }
        // Similar shapes: inline members only (a `$ref` to another component is another thing).
        struct Profile {
            var kind: String
            var names: Set<String>
        }
        func profile(_ schema: Schema, _ document: OpenAPIDocument) -> Profile {
            Profile(
                kind: Self.kindName(SchemaShape(schema)),
                names: Set(
                    Self.effectiveProperties(schema, origin: nil, in: document) { $0 }.properties.map(\.name)))
        }
        let inlineOld = unmatchedOld.filter { before[$0].ref == nil }
        let inlineNew = unmatchedNew.filter { after[$0].ref == nil }
        let profilesOld = Dictionary(uniqueKeysWithValues: inlineOld.map { ($0, profile(before[$0], old)) })
        let profilesNew = Dictionary(uniqueKeysWithValues: inlineNew.map { ($0, profile(after[$0], new)) })
        var candidates: [(score: Double, old: Int, new: Int)] = []
        for i in inlineOld {
            for j in inlineNew {
                let p = profilesOld[i]!
                let q = profilesNew[j]!
                guard p.kind == q.kind else { continue }
                if p.names.isEmpty && q.names.isEmpty {
                    let sameKindOld = inlineOld.filter { profilesOld[$0]!.kind == p.kind }.count
                    let sameKindNew = inlineNew.filter { profilesNew[$0]!.kind == p.kind }.count
                    if sameKindOld == 1 && sameKindNew == 1 { candidates.append((1, i, j)) }
                    continue
                }
                let shared = Double(p.names.intersection(q.names).count)
                let score = shared / Double(p.names.union(q.names).count)
                if score >= 0.5 { candidates.append((score, i, j)) }
            }
        }
        candidates.sort { ($0.score, -$0.old, -$0.new) > ($1.score, -$1.old, -$1.new) }
        var usedOld: Set<Int> = []
        var usedNew: Set<Int> = []
        for candidate in candidates
        where !usedOld.contains(candidate.old) && !usedNew.contains(candidate.new) {
            usedOld.insert(candidate.old)
            usedNew.insert(candidate.new)
            pairs.append((candidate.old, candidate.new))
        }
        return pairs
    }

    /// Matches union variants by ``matchedPairs(_:_:)``, compares the matched pairs and reports
    /// the rest as added or removed. A variant that references a pure union and has no partner
    /// is flattened into that union's variants first (the same JSON on the wire; the Swift case
    /// for the nested union goes or comes).
    private mutating func matchMembers(
        _ originalBefore: [Schema], _ originalAfter: [Schema], _ directions: UsageDirections
    ) {
        guard !originalBefore.isEmpty || !originalAfter.isEmpty else { return }
        var before = originalBefore
        var after = originalAfter
        var pairs = matchedPairs(before, after)
        for _ in 0..<16 {
            let pairedOld = Set(pairs.map(\.0))
            let pairedNew = Set(pairs.map(\.1))
            var expanded = false
            for index in before.indices where !pairedOld.contains(index) {
                guard let variants = pureUnionTarget(before[index], in: old) else { continue }
                emit(
                    .unionVariantRemoved, before[index].location.pointer, .old,
                    "variant `\(before[index].ref!)` was flattened into its \(variants.count) variants", [],
                    at: before[index])
                before.remove(at: index)
                before += variants
                expanded = true
                break
            }
            if !expanded {
                for index in after.indices where !pairedNew.contains(index) {
                    guard let variants = pureUnionTarget(after[index], in: new) else { continue }
                    emit(
                        .unionVariantAdded, after[index].location.pointer, .new,
                        "variants were grouped as `\(after[index].ref!)`", [], at: after[index])
                    after.remove(at: index)
                    after += variants
                    expanded = true
                    break
                }
            }
            guard expanded else { break }
            pairs = matchedPairs(before, after)
        }
        let openness = Openness(
            removals: after.contains { takesAnyString($0, in: new) },
            additions: before.contains { takesAnyString($0, in: old) })
        for (oldIndex, newIndex) in pairs.sorted(by: { $0.0 < $1.0 }) {
            compare(before[oldIndex], after[newIndex], directions, openness: openness)
        }
        let pairedOld = Set(pairs.map(\.0))
        let pairedNew = Set(pairs.map(\.1))
        for index in before.indices where !pairedOld.contains(index) {
            emit(
                .unionVariantRemoved, before[index].location.pointer, .old,
                "variant \(describe(before[index], in: old)) removed", directions, at: before[index])
        }
        // Read from replies, the generated enum gains a case: a caller's exhaustive `switch`
        // (`.unknown` listed, no `default`) stops compiling; `union-case-added` judges that.
        let swiftCase = directions.contains(.response)
        for index in after.indices where !pairedNew.contains(index) {
            emit(
                .unionVariantAdded, after[index].location.pointer, .new,
                "variant \(describe(after[index], in: new)) added (a new case of the Swift enum)", directions,
                at: after[index],
                foldedKinds: swiftCase ? [.unionCaseAdded] : [])
        }
    }
}
