import OpenAIGeneratorOpenAPI

/// Translates schemas to IR types. Every shape decision lives here:
/// `$ref` → the component's type; `allOf` → one flattened struct; `oneOf`/`anyOf` → a union
/// enum (or an open enum when every branch is a string); a `null` branch, a `null` in a type
/// array or `nullable: true` → nullability of the use site; single-value enums and `const` →
/// constants written by the encoder.
struct SchemaTranslator {
    /// What a schema becomes at a use site.
    struct Resolved {
        var type: TypeRef
        var nullable: Bool
        /// A string constant: the property is not stored.
        var constant: String?
    }

    let document: OpenAPIDocument
    /// The type names of this translation (``TypeNames``).
    private(set) var names: TypeNames
    /// Component schema name → Swift type name.
    var componentTypeNames: [String: String] { names.components }
    /// Every top-level Swift type name, which nested names must avoid.
    var topLevelNames: Set<String> { names.topLevel }
    var diagnostics: [Diagnostic] = []
    /// JSON pointers of properties whose values are credentials (never printed).
    var secretPointers: Set<String> = []
    /// JSON names memberwise initialisers take first among the optional members
    /// (``Overrides/leadingMembers``).
    var leadingMembers: [String] = []
    /// Shape (``ShapeFingerprinter``) → the component declared with it, so that an inline schema
    /// of the same shape is emitted as that component instead of a nested copy; the first in
    /// the spec when several components share a shape (``enableComponentReuse(excluding:)``).
    var componentsByShape: [String: String] = [:]
    var fingerprinter = ShapeFingerprinter()
    /// The inline schemas emitted as an equal component: JSON pointer → the component's Swift name.
    private(set) var reusedComponents: [String: String] = [:]

    init(document: OpenAPIDocument, reservedNames: Set<String>) {
        self.document = document
        var diagnostics: [Diagnostic] = []
        self.names = TypeNames(document: document, reserved: reservedNames, diagnostics: &diagnostics)
        self.diagnostics = diagnostics
    }

    /// Reserves a top-level name for a synthesized type (`WebhookEvent`).
    mutating func reserveTopLevelName(_ name: String) -> String {
        names.reserveTopLevel(name)
    }

    // MARK: Names

    /// A nested type name in `scope` derived from `base` (``TypeNames/nestedName(_:used:ancestors:insideSchemaType:)``),
    /// with a `name-taken` note at `schema` when the name needs a number.
    mutating func nestedName(_ base: String, in scope: Scope, for schema: Schema) -> String {
        let (name, numbered) = names.nestedName(
            base, used: &scope.usedNames, ancestors: scope.ancestors, insideSchemaType: scope.isSchemaType)
        if numbered {
            diagnostics.append(
                Diagnostic(
                    .nameTaken,
                    message:
                        "the nested type \(scope.qualified(Naming.typeName(base))) is taken; it is \(scope.qualified(name))",
                    location: schema.location))
        }
        return name
    }

    func warn(_ kind: Diagnostic.Kind, _ message: String, _ schema: Schema) -> Diagnostic {
        Diagnostic(kind, message: message, location: schema.location)
    }

    // MARK: Schema analysis

    /// The component a `$ref` points at.
    func target(_ schema: Schema) -> Schema? {
        schema.ref.flatMap { document.schema(named: $0) }
    }

    static func isNullBranch(_ schema: Schema) -> Bool {
        if schema.ref != nil { return false }
        if schema.types == ["null"] { return true }
        if let values = schema.enumValues, values == [.null] { return true }
        if schema.constValue == .null { return true }
        return false
    }

    /// Whether a property is a convenience OpenAI's SDKs compute (`x-oaiSupportedSDKs`), not a
    /// wire member; hand-written helpers provide it (e.g. `Response.outputText`).
    static func isSDKOnly(_ schema: Schema) -> Bool {
        schema.sdkOnly || (schema.oneOf + schema.anyOf).contains { $0.sdkOnly }
    }

    /// Whether a schema only annotates (a description, a title, a default) and constrains nothing.
    static func isAnnotationOnly(_ schema: Schema) -> Bool {
        schema.ref == nil && schema.properties.isEmpty && schema.oneOf.isEmpty && schema.anyOf.isEmpty
            && schema.allOf.isEmpty && schema.types.isEmpty && schema.items == nil && schema.enumValues == nil
            && schema.constValue == nil && schema.swiftType == nil
    }

    /// The one `allOf` member that says anything, when the others only annotate and the schema
    /// has no properties of its own (`allOf: [{$ref: X}, {description: ...}]` is X).
    static func singleSubstantiveMember(_ schema: Schema) -> Schema? {
        guard schema.properties.isEmpty, !schema.allOf.isEmpty else { return nil }
        let substantive = schema.allOf.filter { !isAnnotationOnly($0) }
        return substantive.count == 1 ? substantive[0] : nil
    }

    /// `oneOf` and `anyOf` branches without their `null` branches.
    static func branches(_ schema: Schema) -> [Schema] {
        (schema.oneOf + schema.anyOf).filter { !isNullBranch($0) }
    }

    /// Whether `null` is a valid value of the schema itself (not through a `$ref`).
    static func ownNullability(_ schema: Schema) -> Bool {
        schema.nullable || schema.types.contains("null") || (schema.enumValues?.contains(.null) ?? false)
            || (schema.oneOf + schema.anyOf).contains(where: isNullBranch)
    }

    /// Whether `null` is valid, following `$ref`s and single-branch wrappers.
    func isNullable(_ schema: Schema, depth: Int = 0) -> Bool {
        if Self.ownNullability(schema) { return true }
        guard depth < 16 else { return false }
        if let target = target(schema) { return isNullable(target, depth: depth + 1) }
        if let single = Self.singleSubstantiveMember(schema) { return isNullable(single, depth: depth + 1) }
        return false
    }

    /// The string constant a schema stands for (`const`, or an `enum` of one string), following
    /// `$ref`s.
    func constant(_ schema: Schema, depth: Int = 0) -> String? {
        if let value = schema.constValue?.string { return value }
        if let values = schema.enumValues?.filter({ $0 != .null }), values.count == 1, let value = values[0].string {
            return value
        }
        guard depth < 16 else { return nil }
        if let target = target(schema) { return constant(target, depth: depth + 1) }
        let branches = Self.branches(schema)
        if branches.count == 1 && schema.properties.isEmpty { return constant(branches[0], depth: depth + 1) }
        if let single = Self.singleSubstantiveMember(schema) { return constant(single, depth: depth + 1) }
        return nil
    }

    /// The string values a schema allows when it is a string enumeration (or a union of them),
    /// following `$ref`s; `nil` when it is not string-like.
    func stringValues(_ schema: Schema, depth: Int = 0) -> [String]? {
        guard depth < 16 else { return nil }
        if schema.swiftType != nil { return nil }
        if let target = target(schema) { return stringValues(target, depth: depth + 1) }
        if let value = schema.constValue?.string { return [value] }
        if let values = schema.enumValues {
            let strings = values.compactMap(\.string)
            return strings.count == values.filter({ $0 != .null }).count ? strings : nil
        }
        let branches = Self.branches(schema)
        if !branches.isEmpty {
            var result: [String] = []
            for branch in branches {
                guard let values = stringValues(branch, depth: depth + 1) else { return nil }
                result.append(contentsOf: values)
            }
            return result
        }
        if schema.types.filter({ $0 != "null" }) == ["string"], schema.format != "binary" { return [] }
        return nil
    }

    /// Whether a union of strings (``stringValues(_:depth:)``) has a branch that takes any string.
    func takesAnyString(_ schema: Schema, depth: Int = 0) -> Bool {
        guard depth < 16 else { return false }
        if let target = target(schema) { return takesAnyString(target, depth: depth + 1) }
        if schema.constValue != nil || schema.enumValues != nil { return false }
        let branches = Self.branches(schema)
        if !branches.isEmpty { return branches.contains { takesAnyString($0, depth: depth + 1) } }
        return schema.types.filter({ $0 != "null" }) == ["string"] && schema.format != "binary"
    }

    /// The flattened properties and `required` list of an object schema: `allOf` members and
    /// `$ref`s merged in order, later definitions winning.
    func flattenedObject(_ schema: Schema, depth: Int = 0)
        -> (properties: [(name: String, schema: Schema)], required: [String], additional: Schema.AdditionalProperties)
    {
        var properties: [(name: String, schema: Schema)] = []
        var required: [String] = []
        var additional = Schema.AdditionalProperties.absent
        func merge(_ other: [(name: String, schema: Schema)]) {
            for entry in other {
                if let index = properties.firstIndex(where: { $0.name == entry.name }) {
                    properties[index] = entry
                } else {
                    properties.append(entry)
                }
            }
        }
        guard depth < 16 else { return (properties, required, additional) }
        if let target = target(schema) {
            return flattenedObject(target, depth: depth + 1)
        }
        for member in schema.allOf {
            let flattened = flattenedObject(member, depth: depth + 1)
            merge(flattened.properties)
            required.append(contentsOf: flattened.required)
            if case .absent = additional { additional = flattened.additional }
        }
        merge(schema.properties)
        required.append(contentsOf: schema.required)
        if case .absent = schema.additionalProperties {} else { additional = schema.additionalProperties }
        return (properties, required, additional)
    }

    /// Whether a schema describes a JSON object with named members.
    func isObjectLike(_ schema: Schema, depth: Int = 0) -> Bool {
        guard depth < 16 else { return false }
        if let target = target(schema) { return isObjectLike(target, depth: depth + 1) }
        if !schema.properties.isEmpty { return true }
        let branches = Self.branches(schema)
        if branches.count == 1, schema.allOf.isEmpty { return isObjectLike(branches[0], depth: depth + 1) }
        if schema.allOf.contains(where: { isObjectLike($0, depth: depth + 1) }) { return true }
        return false
    }

    /// The JSON kind a schema accepts, for naming anonymous union cases and reporting overlap.
    func kind(_ schema: Schema, depth: Int = 0) -> String {
        guard depth < 16 else { return "json" }
        if let target = target(schema) { return kind(target, depth: depth + 1) }
        let types = schema.types.filter { $0 != "null" }
        if types.count == 1 {
            switch types[0] {
            case "string": return "string"
            case "integer": return "integer"
            case "number": return "number"
            case "boolean": return "bool"
            case "array": return "array"
            case "object": return "object"
            default: break
            }
        }
        if schema.enumValues != nil || schema.constValue != nil { return "string" }
        if !schema.properties.isEmpty || !schema.allOf.isEmpty { return "object" }
        if schema.items != nil { return "array" }
        let branches = Self.branches(schema)
        if branches.count == 1 { return kind(branches[0], depth: depth + 1) }
        return "json"
    }

    // MARK: Use sites

    /// What `schema` becomes where it is used; inline structured schemas become nested types in
    /// `scope`, named from `suggestedName`.
    mutating func resolve(_ schema: Schema, suggestedName: String, scope: Scope, multipart: Bool = false)
        -> Resolved
    {
        let nullable = Self.ownNullability(schema)
        if let swiftType = schema.swiftType {
            return Resolved(type: .named(swiftType), nullable: nullable, constant: nil)
        }
        if let ref = schema.ref, let name = componentTypeNames[ref] {
            let target = document.schema(named: ref)
            if let target, target.swiftType != nil {
                return Resolved(
                    type: .named(target.swiftType!), nullable: nullable || isNullable(target), constant: nil)
            }
            return Resolved(
                type: .named(name), nullable: nullable || (target.map { isNullable($0) } ?? false),
                constant: target.flatMap { constant($0) })
        }
        if let value = constant(schema), schema.enumValues != nil || schema.constValue != nil {
            return Resolved(type: .string, nullable: nullable, constant: value)
        }
        let branches = Self.branches(schema)
        if branches.count == 1 && schema.properties.isEmpty && schema.allOf.isEmpty && schema.discriminator == nil {
            var inner = resolve(branches[0], suggestedName: suggestedName, scope: scope, multipart: multipart)
            inner.nullable = inner.nullable || nullable
            return inner
        }
        if let single = Self.singleSubstantiveMember(schema), branches.isEmpty {
            var inner = resolve(single, suggestedName: suggestedName, scope: scope, multipart: multipart)
            inner.nullable = inner.nullable || nullable
            return inner
        }
        // An inline schema of a component's shape is that component (multipart forms excepted:
        // their binary members are file uploads, not `Data`).
        if !multipart, let component = equalComponent(schema, scope: scope) {
            reusedComponents[schema.location.pointer] = component
            return Resolved(type: .named(component), nullable: nullable, constant: nil)
        }
        if let declaration = makeDeclaration(
            schema, name: nil, suggestedName: suggestedName, scope: scope, multipart: multipart)
        {
            scope.nested.append(declaration)
            return Resolved(type: .named(scope.qualified(declaration.name)), nullable: nullable, constant: nil)
        }
        return Resolved(
            type: simpleType(schema, suggestedName: suggestedName, scope: scope, multipart: multipart),
            nullable: nullable, constant: nil)
    }

    /// The type of a schema that needs no declaration of its own: primitives, arrays,
    /// dictionaries and free-form JSON.
    mutating func simpleType(_ schema: Schema, suggestedName: String, scope: Scope, multipart: Bool) -> TypeRef {
        let types = schema.types.filter { $0 != "null" }
        if types.count == 1 || types.isEmpty {
            switch types.first {
            case "string":
                if schema.format == "binary" { return multipart ? .file : .data }
                return .string
            case "integer": return .int
            case "number": return .double
            case "boolean": return .bool
            case "array":
                guard let items = schema.items else { return .array(.json) }
                let element = resolve(
                    items, suggestedName: Naming.itemTypeName(suggestedName), scope: scope, multipart: multipart)
                return .array(element.type)
            default:
                if let items = schema.items, types.isEmpty {
                    let element = resolve(items, suggestedName: Naming.itemTypeName(suggestedName), scope: scope)
                    return .array(element.type)
                }
                if case .schema(let valueSchema) = schema.additionalProperties {
                    let value = resolve(
                        valueSchema, suggestedName: SynthesizedNames.dictionaryValue(of: suggestedName), scope: scope)
                    return .dictionary(value.nullable ? .json : value.type)
                }
                if types == ["object"] { return .dictionary(.json) }
                return .json
            }
        }
        return .json
    }

    /// The declaration a schema needs (struct, union, open enum), or `nil` when it is simple.
    /// `name` is the exact name to use (component types); otherwise a nested name is reserved
    /// from `suggestedName`.
    mutating func makeDeclaration(
        _ schema: Schema, name fixedName: String?, suggestedName: String, scope: Scope, multipart: Bool = false
    ) -> Declaration? {
        func reserve() -> String { fixedName ?? nestedName(suggestedName, in: scope, for: schema) }
        let documentation = Documentation(
            summary: schema.description ?? schema.title, remark: schema.location.pointer,
            deprecated: schema.deprecated)
        let branches = Self.branches(schema)

        if let values = schema.enumValues?.compactMap(\.string), values.count >= 1,
            values.count == schema.enumValues!.filter({ $0 != .null }).count,
            values.count > 1 || fixedName != nil
        {
            return .openEnum(makeOpenEnum(name: reserve(), values: values, documentation: documentation))
        }
        // A discriminated union stays a union with one variant: a second one is a new case, not a
        // type change for callers.
        let isUnion = branches.count >= 2 || (branches.count == 1 && schema.discriminator != nil)
        if isUnion && schema.properties.isEmpty && schema.allOf.isEmpty {
            if let values = stringValues(schema) {
                if values.isEmpty { return nil }
                var decl = makeOpenEnum(name: reserve(), values: values, documentation: documentation)
                decl.acceptsOtherStrings = takesAnyString(schema)
                return .openEnum(decl)
            }
            return .union(
                makeUnion(
                    schema, branches: branches, name: reserve(), documentation: documentation, scope: scope,
                    multipart: multipart))
        }
        let types = schema.types.filter { $0 != "null" }
        if types.count >= 2 {
            // A type array such as [string, number]: a union of primitives.
            let name = reserve()
            let inner = scope.child(name)
            var cases: [UnionCase] = []
            var used = Naming.reservedCaseNames
            for type in types {
                var ref: TypeRef
                var caseName = type == "boolean" ? "boolean" : type
                switch type {
                case "string": ref = .string
                case "integer": ref = .int
                case "number": ref = .double
                case "boolean": ref = .bool
                case "array":
                    ref = .array(.json)
                    if let items = schema.items {
                        ref = .array(resolve(items, suggestedName: "Item", scope: inner).type)
                        caseName = anonymousCaseName(Schema.arrayOf(items, location: schema.location))
                    }
                case "object": ref = .dictionary(.json)
                default: ref = .json
                }
                cases.append(
                    UnionCase(
                        name: UnionCaseNaming.unique(caseName, used: &used), type: ref, discriminatorValues: [],
                        documentation: nil))
            }
            return .union(
                UnionDecl(
                    name: name, documentation: documentation, discriminator: nil, cases: cases, nested: inner.nested))
        }
        // `allOf: [<union>, {properties}]`: the union, its variants carrying the shared members.
        if schema.properties.isEmpty, schema.allOf.count >= 2,
            let unionIndex = schema.allOf.firstIndex(where: { isUnionSchema($0) }),
            schema.allOf.filter({ isUnionSchema($0) }).count == 1
        {
            let union = schema.allOf[unionIndex]
            let resolvedUnion = target(union) ?? union
            let shared = schema.allOf.enumerated().filter { $0.offset != unionIndex }
                .flatMap { flattenedObject($0.element).properties.map(\.name) }
            if !shared.isEmpty {
                diagnostics.append(
                    warn(
                        .allOfUnion,
                        "\(scope.qualified(fixedName ?? suggestedName)): allOf of a union and the members \(shared.joined(separator: ", ")); generated as the union, whose variants must declare those members",
                        schema))
            }
            return .union(
                makeUnion(
                    resolvedUnion, branches: Self.branches(resolvedUnion), name: reserve(),
                    documentation: documentation,
                    scope: scope))
        }
        let isObject = !schema.properties.isEmpty || !schema.allOf.isEmpty
        if isObject {
            return .structure(
                makeStruct(schema, name: reserve(), documentation: documentation, scope: scope, multipart: multipart))
        }
        // Primitives, arrays, dictionaries and free-form objects need no declaration of their own.
        return nil
    }

    func makeOpenEnum(name: String, values: [String], documentation: Documentation) -> OpenEnumDecl {
        let descriptions = DocText.valueDescriptions(documentation.summary, values: values)
        let members = Naming.enumMemberNames(values).map { value, member in
            EnumValue(name: member, rawValue: value, documentation: descriptions[value])
        }
        return OpenEnumDecl(name: name, documentation: documentation, values: members)
    }

    mutating func makeStruct(
        _ schema: Schema, name: String, documentation: Documentation, scope: Scope, multipart: Bool
    ) -> StructDecl {
        let inner = scope.child(name)
        let flattened = flattenedObject(schema)
        let requiredSet = Set(flattened.required)
        let declared = Set(flattened.properties.map(\.name))
        var reported: Set<String> = []
        for missing in flattened.required where !declared.contains(missing) && reported.insert(missing).inserted {
            diagnostics.append(
                warn(
                    .requiredUndeclared,
                    "\(scope.qualified(name)) lists \(missing) in `required` but declares no such property; it is ignored",
                    schema))
        }
        var properties: [Property] = []
        var usedNames = Naming.reservedMemberNames
        for (wireName, propertySchema) in flattened.properties where !Self.isSDKOnly(propertySchema) {
            let resolved = resolve(propertySchema, suggestedName: wireName, scope: inner, multipart: multipart)
            let described = memberDocumentation(description: nil, schema: propertySchema)
            var swiftName = Naming.memberName(wireName)
            var counter = 2
            while usedNames.contains(Naming.unescaped(swiftName)) {
                swiftName = Naming.escaped(Naming.unescaped(Naming.memberName(wireName)) + String(counter))
                counter += 1
            }
            usedNames.insert(Naming.unescaped(swiftName))
            properties.append(
                Property(
                    name: swiftName, wireName: wireName, type: resolved.type, required: requiredSet.contains(wireName),
                    nullable: resolved.nullable || isNullable(propertySchema), constant: resolved.constant,
                    boxed: false, isSecret: secretPointers.contains(propertySchema.location.pointer),
                    documentation: Documentation(
                        summary: described.summary, remark: propertySchema.location.pointer,
                        deprecated: propertySchema.deprecated, facts: described.facts)))
        }
        var additional: TypeRef?
        switch flattened.additional {
        case .schema(let valueSchema):
            if !properties.isEmpty {
                let value = resolve(valueSchema, suggestedName: "AdditionalProperty", scope: inner)
                additional = value.nullable ? .json : value.type
            }
        case .allowed(true):
            if !properties.isEmpty { additional = nil }
        default: break
        }
        let names = Set(properties.map(\.wireName))
        return StructDecl(
            name: name, documentation: documentation, properties: properties, additionalProperties: additional,
            multipart: multipart, nested: inner.nested, leadingMembers: leadingMembers.filter(names.contains))
    }

    /// A description with the unit its format implies (`unixtime` is Unix time in seconds).
    static func withUnits(_ description: String?, format: String?) -> String? {
        let note: String? =
            switch format {
            case "unixtime": "Unix time, in seconds."
            case "date-time": "A date and time in RFC 3339 form (`2025-01-31T09:30:00Z`)."
            case "date": "A date in RFC 3339 `full-date` form (`2025-01-31`)."
            case "binary": "Raw bytes."
            default: nil
            }
        guard let note else { return description }
        guard let description, !description.isEmpty else { return note }
        let lowered = description.lowercased()
        if format == "unixtime" && lowered.contains("unix") { return description }
        if format?.hasPrefix("date") == true && (lowered.contains("rfc 3339") || lowered.contains("iso 8601")) {
            return description
        }
        return description.hasSuffix("\n") ? description + "\n" + note : description + "\n\n" + note
    }

    // MARK: Unions

    /// The discriminator values of a union branch for the member `property`.
    func discriminatorValues(_ branch: Schema, property: String, depth: Int = 0) -> [String]? {
        // A variant that is itself a union: the values of all its variants.
        let resolved = target(branch) ?? branch
        let nested = Self.branches(resolved)
        if !nested.isEmpty, resolved.properties.isEmpty, resolved.allOf.isEmpty, depth < 4 {
            var values: [String] = []
            for member in nested {
                guard let memberValues = discriminatorValues(member, property: property, depth: depth + 1) else {
                    return nil
                }
                values += memberValues
            }
            return values
        }
        let flattened = flattenedObject(branch)
        guard let entry = flattened.properties.first(where: { $0.name == property }) else { return nil }
        guard let values = stringValues(entry.schema), !values.isEmpty else { return nil }
        return values
    }

    /// A member every object branch has with disjoint constant values: the implicit discriminator.
    /// Whether a schema becomes a union enum (two or more non-null variants that are not all strings).
    func isUnionSchema(_ schema: Schema) -> Bool {
        let resolved = target(schema) ?? schema
        let nested = Self.branches(resolved)
        return nested.count >= 2 && resolved.properties.isEmpty && resolved.allOf.isEmpty
            && stringValues(resolved) == nil
    }

    /// Whether a schema is a union of object variants (through `$ref`s), e.g. `RunStreamEvent`.
    func isObjectUnion(_ schema: Schema, depth: Int = 0) -> Bool {
        let resolved = target(schema) ?? schema
        let nested = Self.branches(resolved)
        guard nested.count >= 2, resolved.properties.isEmpty, resolved.allOf.isEmpty, depth < 4 else { return false }
        return nested.allSatisfy { isObjectLike($0) || isObjectUnion($0, depth: depth + 1) }
    }

    /// The member names of an object variant, or of the first variant of a nested union.
    func memberNames(_ schema: Schema, depth: Int = 0) -> [String] {
        let resolved = target(schema) ?? schema
        let nested = Self.branches(resolved)
        if !nested.isEmpty, resolved.properties.isEmpty, resolved.allOf.isEmpty, depth < 4 {
            return memberNames(nested[0], depth: depth + 1)
        }
        return flattenedObject(schema).properties.map(\.name)
    }

    func implicitDiscriminator(_ branches: [Schema]) -> String? {
        guard branches.count >= 2, branches.allSatisfy({ isObjectLike($0) || isObjectUnion($0) }) else { return nil }
        let candidates = memberNames(branches[0])
        for candidate in candidates {
            var seen: Set<String> = []
            var ok = true
            for branch in branches {
                guard let values = discriminatorValues(branch, property: candidate) else {
                    ok = false
                    break
                }
                for value in values where !seen.insert(value).inserted {
                    ok = false
                }
                if !ok { break }
            }
            if ok { return candidate }
        }
        return nil
    }

    mutating func makeUnion(
        _ schema: Schema, branches: [Schema], name: String, documentation: Documentation, scope: Scope,
        multipart: Bool = false
    ) -> UnionDecl {
        let inner = scope.child(name)
        var discriminator = schema.discriminator?.propertyName
        if let explicit = schema.discriminator, explicit.mapping.isEmpty {
            diagnostics.append(
                warn(
                    .discriminatorWithoutMapping,
                    "\(scope.qualified(name)): discriminator `\(explicit.propertyName)` has no mapping; dispatching on each variant's constant value",
                    schema))
        }
        if discriminator == nil { discriminator = implicitDiscriminator(branches) }
        var values: [[String]] = branches.map { _ in [] }
        if let discriminator {
            for (index, branch) in branches.enumerated() {
                if let mapping = schema.discriminator?.mapping, !mapping.isEmpty, let ref = branch.ref {
                    values[index] = mapping.filter { $0.componentName == ref }.map(\.value)
                }
                if values[index].isEmpty {
                    values[index] = discriminatorValues(branch, property: discriminator) ?? []
                }
            }
            // A value claimed by two variants cannot dispatch: those variants are tried instead.
            var counts: [String: Int] = [:]
            for list in values { for value in list { counts[value, default: 0] += 1 } }
            for index in values.indices where values[index].contains(where: { counts[$0]! > 1 }) {
                values[index] = []
            }
        }
        // Case names: the discriminator value when a variant has exactly one, else the `$ref`
        // name without the prefix all variants share, else the title, else the JSON kind.
        let refNames = branches.map { $0.ref.map { componentTypeNames[$0] ?? $0 } }
        let prefix = UnionCaseNaming.commonWordPrefix(refNames.compactMap { $0 }, minimumCount: branches.count)
        var used = Naming.reservedCaseNames
        var cases: [UnionCase] = []
        for (index, branch) in branches.enumerated() {
            let base = UnionCaseNaming.base(
                discriminatorValues: values[index], componentName: refNames[index], commonPrefix: prefix,
                title: branch.title, isScalar: ["string", "integer", "number", "bool"].contains(kind(branch)),
                anonymous: { anonymousCaseName(branch) })
            let caseName = UnionCaseNaming.unique(base, used: &used)
            let resolved = resolve(
                branch, suggestedName: Naming.unescaped(caseName), scope: inner, multipart: multipart)
            cases.append(
                UnionCase(
                    name: caseName, type: resolved.type, discriminatorValues: discriminator == nil ? [] : values[index],
                    documentation: branch.description ?? target(branch)?.description,
                    payloadIsUnion: isUnionSchema(branch)))
        }
        if schema.oneOf.count >= 2, discriminator == nil {
            let objectBranches = branches.enumerated().filter { kind($0.element) == "object" }
            if objectBranches.count >= 2 {
                let names = objectBranches.map { cases[$0.offset].name }.joined(separator: ", ")
                diagnostics.append(
                    warn(
                        .overlappingOneOf,
                        "\(scope.qualified(name)): oneOf variants \(names) can match the same JSON object; decoding tries them in spec order",
                        schema))
            }
        }
        let usedDiscriminator = cases.contains { !$0.discriminatorValues.isEmpty } ? discriminator : nil
        return UnionDecl(
            name: name, documentation: documentation, discriminator: usedDiscriminator, cases: cases,
            nested: inner.nested)
    }

    /// The case name of an anonymous union variant, from its JSON kind: `string`, `integer`,
    /// and for arrays the plural of the element (`strings`, `integerArrays`, `inputItems`).
    func anonymousCaseName(_ branch: Schema, depth: Int = 0) -> String {
        let kind = kind(branch)
        if kind == "string", (target(branch) ?? branch).format == "binary" { return "file" }
        guard kind == "array", depth < 4 else { return kind == "bool" ? "boolean" : kind }
        let element = (target(branch) ?? branch).items
        guard let element else { return "array" }
        if let ref = element.ref, let name = componentTypeNames[ref] {
            return UnionCaseNaming.plural(name)
        }
        if let title = element.title { return UnionCaseNaming.plural(Naming.upperCamel(title)) }
        return UnionCaseNaming.arrayCase(elementCase: anonymousCaseName(element, depth: depth + 1))
    }

    // MARK: Components

    /// The top-level declaration of the component schema `name`. `multipart` marks a schema
    /// used as a `multipart/form-data` body: its binary fields become file uploads.
    mutating func declareComponent(_ name: String, schema: Schema, multipart: Bool = false) -> [Declaration] {
        let swiftName = componentTypeNames[name]!
        let scope = Scope(path: "", ancestors: [])
        let documentation = Documentation(
            summary: schema.description ?? schema.title, remark: schema.location.pointer, deprecated: schema.deprecated)
        let inner = unwrapped(schema)
        if schema.swiftType == nil, inner.ref == nil,
            let declaration = makeDeclaration(
                inner, name: swiftName, suggestedName: swiftName, scope: scope, multipart: multipart)
        {
            return [declaration]
        }
        // An alias (e.g. a dictionary or array) whose element is an inline type: that type is
        // declared at the top level beside it.
        let resolved = resolve(schema, suggestedName: swiftName, scope: scope, multipart: multipart)
        for nested in scope.nested { names.insertTopLevel(nested.name) }
        return [.alias(AliasDecl(name: swiftName, documentation: documentation, target: resolved.type))] + scope.nested
    }

    /// The schema inside nullable or single-member wrappers (`anyOf: [X, null]`, `allOf: [X]`),
    /// when X is inline.
    func unwrapped(_ schema: Schema) -> Schema {
        var current = schema
        for _ in 0..<8 {
            guard current.ref == nil, current.properties.isEmpty else { break }
            let branches = Self.branches(current)
            if branches.count == 1, current.allOf.isEmpty, branches[0].ref == nil, current.discriminator == nil {
                current = branches[0]
            } else if let single = Self.singleSubstantiveMember(current), branches.isEmpty, single.ref == nil {
                current = single
            } else {
                break
            }
        }
        return current
    }

    func renamed(_ declaration: Declaration, to name: String) -> Declaration {
        switch declaration {
        case .structure(var decl):
            decl.name = name
            return .structure(decl)
        case .openEnum(var decl):
            decl.name = name
            return .openEnum(decl)
        case .union(var decl):
            decl.name = name
            return .union(decl)
        case .alias(var decl):
            decl.name = name
            return .alias(decl)
        }
    }
}
