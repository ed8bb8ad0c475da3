import Foundation

/// Prints IR declarations as Swift. Makes no decisions: every name and shape comes from the IR.
struct DeclarationRenderer {
    /// `public`, `package` or `internal`.
    let access: String

    /// What every generated struct and union conforms to. `Equatable`, not `Hashable`: hashing
    /// reply values is rare, and `hash(into:)` was a sixteenth of the SDK's compiled code (open
    /// enums, which are set members and dictionary keys, stay `Hashable`). `Equatable` through
    /// `MemberwiseEquatable` (``renderEquality(members:into:)``, ``renderEquality(cases:into:)``).
    static let valueConformances = "Codable, MemberwiseEquatable, Sendable"

    func render(_ declaration: Declaration, into printer: inout CodePrinter) {
        switch declaration {
        case .structure(let decl): renderStruct(decl, into: &printer)
        case .openEnum(let decl): renderOpenEnum(decl, into: &printer)
        case .union(let decl): renderUnion(decl, into: &printer)
        case .alias(let decl):
            printer.documentation(
                decl.documentation.summary, remark: "Generated from `\(decl.documentation.remark)`.",
                extra: notes(decl.documentation))
            printer.line("\(access) typealias \(decl.name) = \(decl.target.swift)")
        }
    }

    /// A property's doc comment: the spec's description, then what the schema states about its values
    /// (``Documentation/facts``); nil (no comment) when the spec says nothing: its JSON name alone is no
    /// documentation.
    func propertyDocumentation(_ property: Property) -> String? {
        let lines = CodePrinter.commentLines(property.documentation.summary)
        let facts = property.documentation.facts.joined(separator: " ")
        if lines.isEmpty { return facts.isEmpty ? nil : facts }
        return (lines + (facts.isEmpty ? [] : ["", facts])).joined(separator: "\n")
    }

    /// The asides a type's doc comment ends with: the deprecation, then the documentation's
    /// ``Documentation/notes``.
    func notes(_ documentation: Documentation) -> [String] {
        (documentation.deprecated ? ["- Important: Deprecated in the OpenAI API."] : [])
            + documentation.notes.map { "- Note: " + $0 }
    }

    /// The Swift type of a stored property.
    func propertyType(_ property: Property) -> String {
        property.isOptional ? "\(property.type.swift)?" : property.type.swift
    }

    func renderStruct(_ decl: StructDecl, into printer: inout CodePrinter) {
        let stored = decl.properties.filter { $0.constant == nil }
        let constants = decl.properties.filter { $0.constant != nil }
        printer.documentation(
            decl.documentation.summary, remark: "Generated from `\(decl.documentation.remark)`.",
            extra: notes(decl.documentation))
        let conformances = ([Self.valueConformances] + decl.conformances.map(\.rawValue)).joined(separator: ", ")
        let secrets = decl.properties.filter { $0.isSecret && $0.constant == nil }
        printer.block("\(access) struct \(decl.name): \(conformances)") { body in
            for property in stored {
                let type = propertyType(property)
                if property.boxed {
                    body.line(
                        "private var \(property.storageName): Indirect<\(property.type.swift)>\(property.isOptional ? "?" : "")"
                    )
                    body.documentation(propertyDocumentation(property))
                    if let attribute = property.documentation.availabilityAttribute { body.line(attribute) }
                    body.block("\(access) var \(property.name): \(type)") { accessor in
                        if property.isOptional {
                            accessor.line("get { \(property.storageName)?.value }")
                            accessor.line("set { \(property.storageName) = newValue.map(Indirect.init) }")
                        } else {
                            accessor.line("get { \(property.storageName).value }")
                            accessor.line("set { \(property.storageName) = Indirect(newValue) }")
                        }
                    }
                } else if property.documentation.deprecated {
                    body.line("private var \(property.storageName): \(type)")
                    body.documentation(propertyDocumentation(property))
                    if let attribute = property.documentation.availabilityAttribute { body.line(attribute) }
                    body.block("\(access) var \(property.name): \(type)") { accessor in
                        accessor.line("get { \(property.storageName) }")
                        accessor.line("set { \(property.storageName) = newValue }")
                    }
                } else {
                    body.documentation(propertyDocumentation(property))
                    body.line("\(access) var \(property.name): \(type)")
                }
            }
            if let additional = decl.additionalProperties {
                body.line("/// Members not declared by the schema (`additionalProperties`).")
                body.line("\(access) var additionalProperties: [Swift.String: \(additional.swift)]")
            }
            // No initial values (the memberwise initializer sets both empty), and `specDeviations` a
            // `let` that `init(from:)` fills: the compiler writes no initial-value functions for the two
            // and no setter for `specDeviations`, 3,900 of the `OpenAI` module's 88,700 code symbols
            // (see CONTRIBUTING's Build cost).
            body.line("/// What the decoded JSON had that the schema does not allow (see ``DecodingMode``).")
            body.line("\(access) let specDeviations: SpecDeviations")
            body.line("/// The members of the JSON object that the schema does not declare, in the order received;")
            body.line("/// encoded after the declared ones (one named like a declared member replaces its value).")
            body.line("\(access) var undeclaredMembers: JSONObject")
            body.line()
            renderMemberwiseInit(decl, stored: stored, into: &body)
            body.line()
            // Members are keyed by their JSON names (`StaticString` literals that `ObjectReader` and
            // `ObjectWriter` take), not a `CodingKeys` enum per type: the same wire format for a
            // ninth of the compiled code.
            renderDecoder(decl, stored: stored, constants: constants, into: &body)
            body.line()
            renderEncoder(decl, stored: stored, constants: constants, into: &body)
            body.line()
            renderEquality(
                members: stored.map(\.storageName) + (decl.additionalProperties == nil ? [] : ["additionalProperties"])
                    + ["specDeviations", "undeclaredMembers"],
                into: &body)
            if let page = decl.page {
                body.line()
                body.line("/// The items of this page (`data`).")
                body.line("\(access) var pageItems: \(TypeRef.array(page.itemType).swift) { \(page.items) }")
                body.line(
                    "/// Whether more items may follow: `has_more`, or `true` when the reply left it out (an empty")
                body.line("/// next page then ends the list, as in OpenAI's official SDKs).")
                body.line(
                    page.hasMoreIsOptional
                        ? "\(access) var hasMorePages: Swift.Bool { \(page.hasMore) ?? true }"
                        : "\(access) var hasMorePages: Swift.Bool { \(page.hasMore) || specDeviations.isMissing(\"has_more\") }"
                )
                body.line("/// The `\(page.cursorParameter)` cursor of the next page.")
                body.line("\(access) var nextPageCursor: Swift.String? { \(Self.cursorExpression(page)) }")
            }
            if !secrets.isEmpty {
                let names = secrets.map { "`\($0.wireName)`" }.joined(separator: ", ")
                body.line()
                body.line("/// A mirror with \(names) redacted (a credential), so `print` and `dump` show no secret.")
                body.block("\(access) var customMirror: Mirror") { mirror in
                    mirror.line("Mirror(")
                    mirror.line("    self,")
                    mirror.line("    children: [")
                    for property in stored {
                        let label = Naming.unescaped(property.name).swiftLiteral
                        let suffix = property.boxed ? (property.isOptional ? "?.value" : ".value") : ""
                        let value =
                            property.isSecret
                            ? "Redaction.placeholder" : "self.\(property.storageName)\(suffix) as Any"
                        mirror.line("        (\(label), \(value)),")
                    }
                    mirror.line("        (\"specDeviations\", self.specDeviations),")
                    mirror.line("        (\"undeclaredMembers\", self.undeclaredMembers),")
                    mirror.line("    ], displayStyle: .struct)")
                }
            }
            if decl.multipart {
                body.line()
                body.block("package func encode(to form: inout MultipartForm) throws") { method in
                    for property in decl.properties {
                        if let constant = property.constant {
                            method.line("try form.append(\(property.wireName.swiftLiteral), \(constant.swiftLiteral))")
                        } else {
                            let suffix = property.boxed ? (property.isOptional ? "?.value" : ".value") : ""
                            method.line(
                                "try form.append(\(property.wireName.swiftLiteral), self.\(property.storageName)\(suffix))"
                            )
                        }
                    }
                }
            }
            for nested in decl.nested {
                body.line()
                render(nested, into: &body)
            }
        }
    }

    /// `lastID ?? data.last?.id`: the page's cursor sources, the first present one wins.
    static func cursorExpression(_ page: PageInfo) -> String {
        guard !page.nextCursor.isEmpty else { return "nil" }
        return page.nextCursor.map { source in
            switch source {
            case .member(let name): name
            case .lastItemID(let data): "\(data).last?.id"
            }
        }.joined(separator: " ?? ")
    }

    func renderMemberwiseInit(_ decl: StructDecl, stored: [Property], into printer: inout CodePrinter) {
        let ordered = decl.initializerOrder(stored)
        var parameters = ordered.map { property -> String in
            let local = property.parameterLocalName
            let label = local == property.name ? property.name : "\(property.name) \(local)"
            return property.isOptional
                ? "\(label): \(propertyType(property)) = nil" : "\(label): \(propertyType(property))"
        }
        if let additional = decl.additionalProperties {
            parameters.append("additionalProperties: [Swift.String: \(additional.swift)] = [:]")
        }
        var docs: [String] = []
        if !parameters.isEmpty {
            // Once one parameter is described, every one is (DocC checks the list is whole): a
            // parameter the spec says nothing about by what the encoder does with it. With none
            // described, there is nothing to list.
            let summaries = ordered.map(\.parameterSummary)
            if decl.additionalProperties != nil || summaries.contains(where: { $0 != nil }) {
                for (property, summary) in zip(ordered, summaries) {
                    let text = summary ?? property.undescribedParameterLine
                    docs.append("  - \(Naming.unescaped(property.name)): \(text)")
                }
            }
            if decl.additionalProperties != nil {
                docs.append("  - additionalProperties: Members not declared by the schema.")
            }
            if !docs.isEmpty { docs.insert("- Parameters:", at: 0) }
        }
        printer.documentation("Creates a new `\(decl.name)`.", extra: docs)
        if parameters.count <= 1 {
            printer.block("\(access) init(\(parameters.joined()))") { body in
                emitAssignments(decl, stored: stored, into: &body)
            }
        } else {
            printer.line("\(access) init(")
            for (index, parameter) in parameters.enumerated() {
                printer.line("    \(parameter)\(index == parameters.count - 1 ? "" : ",")")
            }
            printer.block(")") { body in emitAssignments(decl, stored: stored, into: &body) }
        }
    }

    private func emitAssignments(_ decl: StructDecl, stored: [Property], into body: inout CodePrinter) {
        for property in stored {
            let value = property.parameterLocalName
            if property.boxed {
                body.line(
                    property.isOptional
                        ? "self.\(property.storageName) = \(value).map(Indirect.init)"
                        : "self.\(property.storageName) = Indirect(\(value))")
            } else {
                body.line("self.\(property.storageName) = \(value)")
            }
        }
        if decl.additionalProperties != nil { body.line("self.additionalProperties = additionalProperties") }
        body.line("self.specDeviations = SpecDeviations()")
        body.line("self.undeclaredMembers = JSONObject()")
    }

    func renderDecoder(_ decl: StructDecl, stored: [Property], constants: [Property], into printer: inout CodePrinter) {
        let keyed = stored + constants
        printer.line(
            "/// Decodes `\(decl.name)` from its JSON object under the decoder's ``DecodingMode``; members it does")
        printer.line(
            "/// not declare are kept in ``undeclaredMembers``, what the schema does not allow in ``specDeviations``.")
        printer.line("///")
        printer.line("/// - Throws: `DecodingError` when the value is not a JSON object, or in ``DecodingMode/strict``")
        printer.line(
            "///   naming the coding path of a required member that is missing or of a member that does not fit.")
        printer.block("\(access) init(from decoder: any Decoder) throws") { body in
            body.line("var reader = try ObjectReader(decoder)")
            for property in constants {
                body.line(
                    "try reader.constant(\(property.wireName.swiftLiteral), is: \(property.constant!.swiftLiteral), required: \(property.required))"
                )
            }
            for property in stored {
                let method = property.isOptional ? "optional" : "required"
                var expression = "try reader.\(method)(\(property.type.swift).self, \(property.wireName.swiftLiteral))"
                if property.boxed {
                    expression = property.isOptional ? "\(expression).map(Indirect.init)" : "Indirect(\(expression))"
                }
                body.line("self.\(property.storageName) = \(expression)")
            }
            if let additional = decl.additionalProperties {
                let known = keyed.map { $0.wireName.swiftLiteral }.joined(separator: ", ")
                body.line(
                    "self.additionalProperties = try reader.additionalProperties(\(additional.swift).self, excluding: [\(known)])"
                )
            }
            body.line("self.undeclaredMembers = reader.undeclaredMembers()")
            body.line("self.specDeviations = reader.finish()")
        }
    }

    func renderEncoder(_ decl: StructDecl, stored: [Property], constants: [Property], into printer: inout CodePrinter) {
        printer.line("/// Encodes this value as its JSON object: constants included, then ``undeclaredMembers``.")
        printer.line("///")
        printer.line("/// - Throws: `EncodingError` when a member cannot be encoded.")
        printer.block("\(access) func encode(to encoder: any Encoder) throws") { body in
            body.line("var writer = ObjectWriter(encoder, self.specDeviations)")
            for property in constants {
                body.line("try writer.encode(\(property.constant!.swiftLiteral), \(property.wireName.swiftLiteral))")
            }
            for property in stored {
                var value = "self." + property.storageName
                if property.boxed { value += property.isOptional ? "?.value" : ".value" }
                // Required and nullable: `nil` is sent as an explicit `null`.
                let method = property.required || !property.isOptional ? "encode" : "encodeIfPresent"
                body.line("try writer.\(method)(\(value), \(property.wireName.swiftLiteral))")
            }
            if decl.additionalProperties != nil {
                body.line("try encoder.encodeAdditionalProperties(self.additionalProperties)")
            }
            body.line("try writer.encode(undeclared: self.undeclaredMembers)")
        }
    }

    /// A struct's `isMemberwiseEqual(to:)`: each stored property (by its storage name) in turn,
    /// what a derived `==` compares. The comparisons call the runtime's `equal(_:_:)`, not `==`: the
    /// compiler weighs every overload of `==` in scope for each `==` it type-checks, a derived
    /// conformance's included: that was most of the `OpenAI` module's 18 s of SILGen, and the debug
    /// build is 7% faster without it (CONTRIBUTING § Build cost).
    func renderEquality(members: [String], into printer: inout CodePrinter) {
        printer.line("/// Whether every stored property equals `other`'s, in declaration order: what `==` compares.")
        printer.block("\(access) func isMemberwiseEqual(to other: Self) -> Swift.Bool") { body in
            for member in members.dropLast() {
                body.line("guard equal(self.\(member), other.\(member)) else { return false }")
            }
            body.line("return equal(self.\(members.last!), other.\(members.last!))")
        }
    }

    /// A union's `isMemberwiseEqual(to:)`: the same case with an equal payload, through `equal(_:_:)`
    /// as a struct's (``renderEquality(members:into:)``).
    func renderEquality(cases: [String], into printer: inout CodePrinter) {
        printer.line("/// Whether `other` is the same case with an equal payload: what `==` compares.")
        printer.block("\(access) func isMemberwiseEqual(to other: Self) -> Swift.Bool") { method in
            method.switchBlock("switch (self, other)") { switchBody in
                for name in cases {
                    switchBody.line("case (.\(name)(let lhs), .\(name)(let rhs)): return equal(lhs, rhs)")
                }
                switchBody.line("default: return false")
            }
        }
    }

    func renderOpenEnum(_ decl: OpenEnumDecl, into printer: inout CodePrinter) {
        printer.documentation(
            decl.documentation.summary,
            remark: "Generated from `\(decl.documentation.remark)`.",
            extra: ["An open enumeration: values this SDK does not list decode and re-encode unchanged."]
                + notes(decl.documentation))
        printer.block("\(access) struct \(decl.name): OpenEnum") { body in
            body.line("/// The wire value.")
            body.line("\(access) var rawValue: Swift.String")
            body.line()
            body.line("/// Creates a value from its wire value, known or not.")
            body.line("\(access) init(rawValue: Swift.String) { self.rawValue = rawValue }")
            for value in decl.values {
                body.line()
                let wire = "`\(value.rawValue.replacingOccurrences(of: "`", with: "'"))`"
                if let description = value.documentation {
                    body.documentation(description, extra: ["The wire value \(wire)."])
                } else {
                    body.documentation(wire)
                }
                body.line("\(access) static var \(value.name): Self { Self(rawValue: \(value.rawValue.swiftLiteral)) }")
            }
        }
    }

    func renderUnion(_ decl: UnionDecl, into printer: inout CodePrinter) {
        let decoding =
            if let discriminator = decl.discriminator {
                "Decoded by the `\(discriminator)` member; an unknown value decodes as ``unknown(_:)``."
            } else {
                "Decoded by trying each case in the order listed; JSON that matches none decodes as ``unknown(_:)``."
            }
        printer.documentation(
            decl.documentation.summary, remark: "Generated from `\(decl.documentation.remark)`.",
            extra: [decoding] + notes(decl.documentation))
        let conformances = ([Self.valueConformances, "UnknownCaseRepresentable"] + decl.conformances.map(\.rawValue))
            .joined(separator: ", ")
        let stringCase = decl.cases.first { $0.type == .string }
        // Every union is `indirect`: its cases hold their payloads in a box, so the enum is one reference. Inline, a
        // union copies, compares and destroys each case's payload field by field in routines of its own, and so does
        // every struct that holds it: boxed, the `OpenAI` module's debug machine code and read-only data are 14%
        // smaller, and decoding no slower (CONTRIBUTING § Build cost). It also breaks every cycle through a union
        // (`RecursionBreaker`).
        printer.block("\(access) indirect enum \(decl.name): \(conformances)") { body in
            for unionCase in decl.cases {
                body.documentation(unionCase.summary(discriminator: decl.discriminator))
                body.line("case \(unionCase.name)(\(unionCase.type.swift))")
            }
            body.line("/// A variant this SDK does not know, kept as its raw JSON.")
            body.line("case unknown(JSONValue)")
            body.line()
            if let stringCase {
                body.line("/// Creates the ``\(Naming.unescaped(stringCase.name))(_:)`` case from a string literal.")
                body.line("\(access) init(stringLiteral value: Swift.String) { self = .\(stringCase.name)(value) }")
                body.line()
            }
            body.line("/// Decodes the variant the JSON holds, or ``unknown(_:)`` when it matches none.")
            body.line("///")
            body.line("/// - Throws: `DecodingError` only when the input is not JSON.")
            body.block("\(access) init(from decoder: any Decoder) throws") { method in
                let dispatched = decl.cases.filter { !$0.discriminatorValues.isEmpty }
                let tried = decl.cases.filter { $0.discriminatorValues.isEmpty }
                if let discriminator = decl.discriminator, !dispatched.isEmpty {
                    method.switchBlock("switch decoder.discriminator(\(discriminator.swiftLiteral))") { switchBody in
                        for unionCase in dispatched {
                            let values = unionCase.discriminatorValues.map(\.swiftLiteral).joined(separator: ", ")
                            switchBody.line("case \(values):")
                            switchBody.line("    self = .\(unionCase.name)(try \(unionCase.type.swift)(from: decoder))")
                        }
                        switchBody.line("default:")
                        var fallback = CodePrinter()
                        renderTries(tried, into: &fallback)
                        switchBody.append(indented(fallback))
                    }
                } else {
                    renderTries(tried, into: &method)
                }
            }
            body.line()
            body.line("/// Encodes the variant's value as it is (an unknown variant as its original JSON).")
            body.line("///")
            body.line("/// - Throws: `EncodingError` when the value cannot be encoded.")
            body.block("\(access) func encode(to encoder: any Encoder) throws") { method in
                method.switchBlock("switch self") { switchBody in
                    for unionCase in decl.cases {
                        switchBody.line("case .\(unionCase.name)(let value): try value.encode(to: encoder)")
                    }
                    switchBody.line("case .unknown(let value): try value.encode(to: encoder)")
                }
            }
            body.line()
            renderEquality(cases: decl.cases.map(\.name) + ["unknown"], into: &body)
            for nested in decl.nested {
                body.line()
                render(nested, into: &body)
            }
        }
    }

    private func indented(_ printer: CodePrinter) -> CodePrinter {
        var result = CodePrinter()
        for line in printer.lines { result.line(line.isEmpty ? "" : "    " + line) }
        return result
    }

    private func renderTries(_ cases: [UnionCase], into printer: inout CodePrinter) {
        for unionCase in cases {
            printer.block("if let value = decoder.attemptCase(\(unionCase.type.swift).self)") { body in
                if unionCase.payloadIsUnion {
                    // A nested union accepts anything as `unknown`; that is no match here.
                    body.block("if case .unknown = value {} else") { inner in
                        inner.line("self = .\(unionCase.name)(value)")
                        inner.line("return")
                    }
                } else {
                    body.line("self = .\(unionCase.name)(value)")
                    body.line("return")
                }
            }
        }
        printer.line("self = .unknown(try JSONValue(from: decoder))")
    }
}
