import Foundation

/// Derives and collects the schemas of Swift types (``JSONSchemaDocument/init(for:)``).
final class JSONSchemaBuilder {
    /// Entries of `$defs` in the order reached; a schema is nil while its type is being derived.
    private var entries: [(reference: JSONSchema.Reference, name: String, schema: JSONSchema?)] = []
    private var indexByType: [ObjectIdentifier: Int] = [:]
    /// Placeholder instances of derived types, handed to the decoders of types that contain them.
    private var placeholders: [ObjectIdentifier: Any] = [:]

    func definitions() -> [JSONSchemaDocument.Definition] {
        entries.compactMap { entry in
            entry.schema.map { JSONSchemaDocument.Definition(name: entry.name, schema: $0, type: entry.reference) }
        }
    }

    /// Removes `reference`'s entry (the root's, which is written inline) and returns its schema.
    func take(_ reference: JSONSchema.Reference) -> JSONSchema? {
        guard let index = indexByType[ObjectIdentifier(reference.type)], let schema = entries[index].schema else {
            return nil
        }
        entries[index].schema = nil
        return schema
    }

    /// `schema` with every reference inside it resolved (each referenced type derived once).
    func resolve(_ schema: JSONSchema, path: [String] = ["#"]) throws -> JSONSchema {
        var copy = schema
        switch schema.kind {
        case .array(let items): copy.kind = .array(try resolve(items, path: path + ["[]"]))
        case .dictionary(let values): copy.kind = .dictionary(try resolve(values, path: path + ["[:]"]))
        case .anyOf(let schemas):
            copy.kind = .anyOf(try schemas.map { try resolve($0, path: path) })
        case .object(let properties):
            copy.kind = .object(
                try properties.map { property in
                    var property = property
                    property.schema = try resolve(property.schema, path: path + [property.name])
                    return property
                })
        case .reference(let reference):
            // A known type, a wrapper or an enum is written in place, like a member of that type.
            let resolved = try self.schema(for: reference.type, path: path)
            if case .reference = resolved.kind { break }
            copy = resolved
            copy.description = schema.description ?? resolved.description
            copy.isNullable = schema.isNullable || resolved.isNullable
        case .string, .integer, .number, .boolean, .null, .enumeration, .any:
            break
        }
        return copy
    }

    /// The schema of `type` at `path` (Swift member names, for errors).
    func schema(for type: any Decodable.Type, path: [String]) throws -> JSONSchema {
        if let known = Self.knownSchema(type) { return known }
        if let stated = type as? any JSONSchemaConvertible.Type {
            let own = stated.jsonSchema
            guard case .object = own.kind else { return try resolve(own, path: path) }
            return try named(type, path: path)
        }
        if let optional = type as? any OptionalSchemaMarker.Type {
            return try schema(for: optional.wrappedDecodable, path: path).orNull
        }
        if let collection = type as? any ArraySchemaMarker.Type {
            return .array(of: try schema(for: collection.elementDecodable, path: path + ["[]"]))
        }
        if let dictionary = type as? any DictionarySchemaMarker.Type {
            if dictionary.keysAreMemberNames {
                return .dictionary(of: try schema(for: dictionary.valueDecodable, path: path + ["[:]"]))
            }
            throw JSONSchemaError(
                path: Self.describe(path),
                message:
                    "\(type): a dictionary whose keys are neither String nor Int encodes as an array of keys and values; use [String: V] or adopt JSONSchemaConvertible"
            )
        }
        if let cases = try Self.enumerationCases(type, path: path) {
            return JSONSchema(.enumeration(cases))
        }
        return try named(type, path: path)
    }

    /// A `$ref` to `type`'s entry, deriving (or resolving) its schema the first time.
    private func named(_ type: any Decodable.Type, path: [String]) throws -> JSONSchema {
        let reference = JSONSchema.Reference(type)
        let id = ObjectIdentifier(type)
        if indexByType[id] != nil { return JSONSchema(.reference(reference)) }
        let index = entries.count
        entries.append((reference, uniqueName(for: type), nil))
        indexByType[id] = index
        let schema: JSONSchema
        if let stated = type as? any JSONSchemaConvertible.Type {
            schema = try resolve(stated.jsonSchema, path: path)
        } else {
            schema = try derive(type, path: path)
        }
        entries[index].schema = schema
        return JSONSchema(.reference(reference))
    }

    private func uniqueName(for type: any Decodable.Type) -> String {
        let base = String(describing: type).map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" }
        let name = String(base)
        var candidate = name
        var counter = 2
        while entries.contains(where: { $0.name == candidate }) {
            candidate = name + String(counter)
            counter += 1
        }
        return candidate
    }

    /// Runs `type`'s `init(from:)` against a recording decoder.
    private func derive(_ type: any Decodable.Type, path: [String]) throws -> JSONSchema {
        let decoder = SchemaRecordingDecoder(builder: self, path: path)
        let value: Any
        do {
            value = try type.init(from: decoder)
        } catch let error as JSONSchemaError {
            throw error
        } catch {
            if type is any RawRepresentable.Type && !(type is any CaseIterable.Type) {
                throw JSONSchemaError(
                    path: Self.describe(path),
                    message:
                        "\(type) is an enum whose cases are unknown without CaseIterable; adopt CaseIterable or JSONSchemaConvertible"
                )
            }
            throw JSONSchemaError(
                path: Self.describe(path),
                message:
                    "\(type)'s init(from:) failed on placeholder values (\(error)); adopt JSONSchemaConvertible to state its schema"
            )
        }
        if Mirror(reflecting: value).displayStyle == .enum, type is any RawRepresentable.Type {
            // Its raw value decoded, so the placeholder hit a case; the other cases stay unknown.
            throw JSONSchemaError(
                path: Self.describe(path),
                message:
                    "\(type) is an enum whose cases are unknown without CaseIterable; adopt CaseIterable or JSONSchemaConvertible"
            )
        }
        placeholders[ObjectIdentifier(type)] = value
        var schema = decoder.recorded(type: type)
        if let described = type as? any JSONSchemaDescribable.Type {
            schema.description = described.jsonSchemaDescription ?? schema.description
            if case .object(let properties) = schema.kind {
                let descriptions = described.jsonSchemaPropertyDescriptions
                schema.kind = .object(
                    properties.map { property in
                        var property = property
                        if let text = descriptions[property.name] { property.schema.description = text }
                        return property
                    })
            }
        }
        return schema
    }

    /// A value of `type` for the decoder of a type that contains it.
    func placeholder<T: Decodable>(_ type: T.Type, path: [String]) throws -> T {
        if let value = Self.knownPlaceholder(type) { return value }
        if let optional = type as? any OptionalSchemaMarker.Type { return optional.noValue as! T }
        if let collection = type as? any ArraySchemaMarker.Type { return collection.empty as! T }
        if let dictionary = type as? any DictionarySchemaMarker.Type { return dictionary.empty as! T }
        if let first = Self.firstCase(type) { return first as! T }
        if let value = placeholders[ObjectIdentifier(type)] as? T { return value }
        if let stated = type as? any JSONSchemaConvertible.Type {
            // Decoded from a value of its stated schema, not by its own decoder against
            // placeholders (which is what stating the schema avoids).
            let schema = try resolve(stated.jsonSchema, path: path)
            let instance = Self.instance(of: schema) { reference in
                self.indexByType[ObjectIdentifier(reference.type)].flatMap { self.entries[$0].schema }
                    ?? (reference.type as? any JSONSchemaConvertible.Type)?.jsonSchema
            }
            do {
                let decoder = JSONDecoder()
                decoder.dateDecodingStrategy = .iso8601
                let value = try decoder.decode(T.self, from: OrderedJSONEncoder().encode(instance))
                placeholders[ObjectIdentifier(type)] = value
                return value
            } catch {
                throw JSONSchemaError(
                    path: Self.describe(path),
                    message:
                        "\(type) does not decode from a value of its stated schema (\(error)), so the type that holds it cannot be derived; make the member optional or state that type's schema too"
                )
            }
        }
        throw JSONSchemaError(
            path: Self.describe(path),
            message:
                "\(type) holds itself through a member that is neither optional nor a collection, so no value of it is finite"
        )
    }

    /// A small value valid against `schema`: `""` (or a value of its format), `0`, `false`, the
    /// first enum value, empty arrays and dictionaries, every required member, `null` where allowed.
    static func instance(
        of schema: JSONSchema, definitions: (JSONSchema.Reference) -> JSONSchema?, depth: Int = 0
    ) -> JSONValue {
        if schema.isNullable || depth > 16 { return .null }
        switch schema.kind {
        case .string(let format):
            switch format {
            case "date-time": return "2026-01-01T00:00:00Z"
            case "date": return "2026-01-01"
            case "time": return "00:00:00"
            case "uuid": return "00000000-0000-0000-0000-000000000000"
            default: return ""
            }
        case .integer, .number: return 0
        case .boolean: return false
        case .null, .any: return .null
        case .enumeration(let values): return values.first ?? .null
        case .array: return []
        case .dictionary: return [:]
        case .object(let properties):
            var members = JSONObject()
            for property in properties where property.isRequired {
                members[property.name] = instance(of: property.schema, definitions: definitions, depth: depth + 1)
            }
            return .object(members)
        case .anyOf(let schemas):
            return schemas.first.map { instance(of: $0, definitions: definitions, depth: depth + 1) } ?? .null
        case .reference(let reference):
            return definitions(reference).map { instance(of: $0, definitions: definitions, depth: depth + 1) } ?? .null
        }
    }

    /// `Order.items[].name` for the path `["Order", "items", "[]", "name"]`.
    static func describe(_ path: [String]) -> String {
        path.joined(separator: ".").replacingOccurrences(of: ".[", with: "[")
    }

    // MARK: Types the SDK knows

    static func knownSchema(_ type: Any.Type) -> JSONSchema? {
        switch type {
        case is String.Type, is Substring.Type, is Character.Type: .string()
        case is Bool.Type: .boolean()
        case is Int.Type, is Int8.Type, is Int16.Type, is Int32.Type, is Int64.Type, is UInt.Type, is UInt8.Type,
            is UInt16.Type, is UInt32.Type, is UInt64.Type:
            .integer()
        case is Double.Type, is Float.Type, is Decimal.Type: .number()
        // OpenAI's strict mode accepts no `uri` format.
        case is URL.Type: .string()
        case is UUID.Type: .string(format: "uuid")
        case is JSONValue.Type: JSONSchema(.any)
        default: nil
        }
    }

    static func knownPlaceholder<T>(_ type: T.Type) -> T? {
        let value: Any? =
            switch type {
            case is String.Type: ""
            case is Substring.Type: Substring("")
            case is Character.Type: Character(" ")
            case is Bool.Type: false
            case is Int.Type: 0
            case is Int8.Type: Int8(0)
            case is Int16.Type: Int16(0)
            case is Int32.Type: Int32(0)
            case is Int64.Type: Int64(0)
            case is UInt.Type: UInt(0)
            case is UInt8.Type: UInt8(0)
            case is UInt16.Type: UInt16(0)
            case is UInt32.Type: UInt32(0)
            case is UInt64.Type: UInt64(0)
            case is Double.Type: 0.0
            case is Float.Type: Float(0)
            case is Decimal.Type: Decimal(0)
            case is URL.Type: URL(string: "https://example.com")!
            case is UUID.Type: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
            case is JSONValue.Type: JSONValue.null
            default: nil
            }
        return value as? T
    }

    /// The raw values of a `CaseIterable` enum with `String` or `Int` raw values, in order.
    ///
    /// - Throws: ``JSONSchemaError`` for `Date` and `Data`, whose JSON depends on the decoder.
    static func enumerationCases(_ type: any Decodable.Type, path: [String]) throws -> [JSONValue]? {
        if type is Date.Type || type is Data.Type {
            throw JSONSchemaError(
                path: describe(path),
                message:
                    "\(type)'s JSON form depends on the JSONDecoder's strategies; use a String (e.g. ISO 8601) or adopt JSONSchemaConvertible"
            )
        }
        guard let iterable = type as? any CaseIterable.Type else { return nil }
        let values = Self.allCases(iterable).map { value -> JSONValue? in
            guard let raw = value as? any RawRepresentable else { return nil }
            switch Self.rawValue(raw) {
            case let text as String: return .string(text)
            case let number as Int: return .int(number)
            default: return nil
            }
        }
        guard !values.isEmpty, values.allSatisfy({ $0 != nil }) else {
            throw JSONSchemaError(
                path: describe(path),
                message:
                    "\(type): a CaseIterable enum needs String or Int raw values, or a JSONSchemaConvertible conformance"
            )
        }
        return values.compactMap { $0 }
    }

    static func firstCase(_ type: Any.Type) -> Any? {
        guard let iterable = type as? any CaseIterable.Type else { return nil }
        return allCases(iterable).first
    }

    private static func allCases<E: CaseIterable>(_ type: E.Type) -> [Any] {
        Array(E.allCases)
    }

    private static func rawValue<R: RawRepresentable>(_ value: R) -> Any {
        value.rawValue
    }
}

// MARK: Generic wrappers, recognised by their element types

protocol OptionalSchemaMarker {
    static var wrappedDecodable: any Decodable.Type { get }
    static var noValue: Self { get }
}

extension Optional: OptionalSchemaMarker where Wrapped: Decodable {
    static var wrappedDecodable: any Decodable.Type { Wrapped.self }
    static var noValue: Self { nil }
}

protocol ArraySchemaMarker {
    static var elementDecodable: any Decodable.Type { get }
    static var empty: Self { get }
}

extension Array: ArraySchemaMarker where Element: Decodable {
    static var elementDecodable: any Decodable.Type { Element.self }
    static var empty: Self { [] }
}

extension Set: ArraySchemaMarker where Element: Decodable {
    static var elementDecodable: any Decodable.Type { Element.self }
    static var empty: Self { [] }
}

extension ContiguousArray: ArraySchemaMarker where Element: Decodable {
    static var elementDecodable: any Decodable.Type { Element.self }
    static var empty: Self { [] }
}

/// A dictionary. `[String: V]` and `[Int: V]` are JSON objects (the numbers as member names);
/// `JSONEncoder` writes any other as an array of alternating keys and values.
protocol DictionarySchemaMarker {
    static var keysAreMemberNames: Bool { get }
    static var valueDecodable: any Decodable.Type { get }
    static var empty: Self { get }
}

extension Dictionary: DictionarySchemaMarker where Value: Decodable {
    static var keysAreMemberNames: Bool { Key.self == String.self || Key.self == Int.self }
    static var valueDecodable: any Decodable.Type { Value.self }
    static var empty: Self { [:] }
}
