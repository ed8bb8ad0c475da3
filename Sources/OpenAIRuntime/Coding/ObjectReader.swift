import Foundation

/// Reads the members of one generated struct's JSON object under a ``DecodingMode`` and collects
/// the object's ``SpecDeviations``. Generated `init(from:)` bodies call it; it is the one place
/// where the decoding policy lives.
///
/// In ``DecodingMode/strict`` every method throws what `KeyedDecodingContainer` throws. In
/// ``DecodingMode/lenient`` a member's failure (absent, `null`, another type, a constant with
/// another value) is recorded and the member takes its placeholder or `nil`; only a value that
/// is not a JSON object at all fails the object.
///
/// Members are named by their JSON names as `StaticString` literals
/// (`reader.required(Int.self, "created_at")`), which pass as a pointer and a length: a key value
/// built at each of the thousands of call sites was about half of what the optimizer spent on the
/// generated decoders (CONTRIBUTING.md, "Build cost").
package struct ObjectReader {
    private let decoder: any Decoder
    private let container: KeyedDecodingContainer<AnyCodingKey>
    private let strict: Bool
    /// How many placeholder structs enclose this one (0 for real JSON).
    private let placeholderDepth: Int
    private var deviations: [SpecDeviations.Deviation] = []
    /// Members asked for, members that were present, and whether one of them is required.
    private var asked = 0
    private var present = 0
    private var requiresAny = false

    /// Opens the object.
    ///
    /// - Throws: `DecodingError` when the value is not a JSON object.
    package init(_ decoder: any Decoder) throws {
        if let caseDecoder = decoder as? UnionCaseDecoder {
            // A union trying this type as one of its cases: the case's own members decide.
            self.decoder = caseDecoder.base
            strict = true
            placeholderDepth = 0
        } else if let absent = decoder as? AbsentValueDecoder {
            self.decoder = decoder
            strict = false
            placeholderDepth = absent.depth
        } else {
            self.decoder = decoder
            // Lenient decoders (the default) leave `userInfo` empty: no lookup per object.
            let userInfo = decoder.userInfo
            strict = !userInfo.isEmpty && (userInfo[.openAIDecodingMode] as? DecodingMode) == .strict
            placeholderDepth = 0
        }
        container = try self.decoder.container(keyedBy: AnyCodingKey.self)
    }

    /// The deviations found, for the struct's ``SpecDeviationReporting/specDeviations``.
    package func finish() -> SpecDeviations {
        let sharesNoMember = requiresAny && present == 0 && asked > 0
        if deviations.isEmpty && !sharesNoMember { return SpecDeviations() }
        return SpecDeviations(deviations, sharesNoMember: sharesNoMember)
    }

    /// A required, non-nullable member. An absent or `null` array or dictionary reads as empty in
    /// both modes and is not recorded: replies leave out empty collections.
    ///
    /// - Throws: In strict mode, the `DecodingError` of a missing, `null` or ill-typed member.
    package mutating func required<T: Decodable>(_ type: T.Type, _ name: StaticString) throws -> T {
        let key = AnyCodingKey(name)
        asked += 1
        requiresAny = true
        do {
            let value = try container.decode(T.self, forKey: key)
            present += 1
            return value
        } catch let error as DecodingError {
            return try recoverRequired(T.self, key, from: error)
        }
    }

    /// What ``required(_:_:)`` returns or throws for a member that failed to decode. Out of line
    /// and never specialized: it runs only for a member that failed, and a copy per member type
    /// (thousands) was release-build time spent on the SDK's rarest path.
    @inline(never)
    @_semantics("optimize.sil.specialize.generic.never")
    private mutating func recoverRequired<T: Decodable>(_ type: T.Type, _ key: AnyCodingKey, from error: DecodingError)
        throws
        -> T
    {
        let kind = classify(error, key)
        if kind != .missing { present += 1 }
        if kind != .invalid && MissingValue.isCollection(T.self) {
            // Replies leave out empty arrays: an absent or `null` one reads as empty, in both
            // modes, and is no deviation.
            return try MissingValue.of(T.self, depth: placeholderDepth, codingPath: container.codingPath + [key])
        }
        if strict { throw error }
        record(kind, key)
        do {
            return try MissingValue.of(T.self, depth: placeholderDepth, codingPath: container.codingPath + [key])
        } catch {
            throw DecodingError.valueNotFound(
                T.self,
                DecodingError.Context(
                    codingPath: container.codingPath + [key],
                    debugDescription: "The member is \(kind) and \(T.self) has no placeholder.",
                    underlyingError: error))
        }
    }

    /// An optional member, or a required member whose schema allows `null`.
    ///
    /// - Throws: In strict mode, the `DecodingError` of a member of another type.
    package mutating func optional<T: Decodable>(_ type: T.Type, _ name: StaticString) throws -> T? {
        let key = AnyCodingKey(name)
        asked += 1
        do {
            let value = try container.decodeIfPresent(T.self, forKey: key)
            if value != nil { present += 1 }
            return value
        } catch let error as DecodingError {
            if strict { throw error }
            present += 1
            record(.invalid, key)
            return nil
        }
    }

    /// A constant member (OpenAPI `const` or a single-value `enum`): checked, not stored.
    ///
    /// - Parameters:
    ///   - name: The member's JSON name.
    ///   - expected: The schema's value.
    ///   - required: Whether the schema requires the member.
    /// - Throws: In strict mode, `DecodingError` when the member is missing (and required), or not
    ///   `expected`.
    package mutating func constant(_ name: StaticString, is expected: String, required: Bool) throws {
        let key = AnyCodingKey(name)
        asked += 1
        if required { requiresAny = true }
        let value: String?
        do {
            value = try container.decodeIfPresent(String.self, forKey: key)
        } catch let error as DecodingError {
            if strict { throw error }
            present += 1
            record(.unexpectedConstant, key)
            return
        }
        guard let value else {
            if required {
                if strict {
                    throw DecodingError.keyNotFound(
                        key,
                        DecodingError.Context(
                            codingPath: container.codingPath,
                            debugDescription: "The constant member \(key.stringValue) is missing."))
                }
                record(container.contains(key) ? .null : .missing, key)
            }
            return
        }
        present += 1
        guard value == expected else {
            if strict {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: container, debugDescription: "Expected \"\(expected)\", found \"\(value)\".")
            }
            deviations.append(.init(member: key.stringValue, kind: .unexpectedConstant(received: .string(value))))
            return
        }
    }

    /// The members the schema does not declare (`additionalProperties` beside named properties).
    ///
    /// - Parameter known: The declared members' JSON names.
    /// - Throws: In strict mode, the `DecodingError` of a value of another type.
    package mutating func additionalProperties<Value: Decodable>(
        _ type: Value.Type, excluding known: Set<String>
    ) throws -> [String: Value] {
        let members = try decoder.container(keyedBy: AnyCodingKey.self)
        var result: [String: Value] = [:]
        for key in members.allKeys where !known.contains(key.stringValue) {
            do {
                result[key.stringValue] = try members.decode(Value.self, forKey: key)
            } catch let error as DecodingError {
                if strict { throw error }
                let received = (try? members.decode(JSONValue.self, forKey: key)) ?? .null
                deviations.append(.init(member: key.stringValue, kind: .invalid(received: received)))
            }
        }
        return result
    }

    // MARK: Recording

    private enum Failure: CustomStringConvertible {
        case missing, null, invalid, unexpectedConstant

        var description: String {
            switch self {
            case .missing: "missing"
            case .null: "null"
            case .invalid: "of another type"
            case .unexpectedConstant: "an unexpected constant"
            }
        }
    }

    /// Whether `error` is about the member `key` itself being absent or `null`, or about its value.
    private func classify(_ error: DecodingError, _ key: AnyCodingKey) -> Failure {
        let depth = container.codingPath.count
        switch error {
        case .keyNotFound(let missing, let context)
        where context.codingPath.count == depth && missing.stringValue == key.stringValue:
            return .missing
        case .valueNotFound(_, let context)
        where context.codingPath.count == depth + 1 && context.codingPath.last?.stringValue == key.stringValue:
            return .null
        default:
            return .invalid
        }
    }

    private mutating func record(_ failure: Failure, _ key: AnyCodingKey) {
        let kind: SpecDeviations.Deviation.Kind
        switch failure {
        case .missing: kind = .missing
        case .null: kind = .null
        case .invalid: kind = .invalid(received: (try? container.decode(JSONValue.self, forKey: key)) ?? .null)
        case .unexpectedConstant:
            kind = .unexpectedConstant(received: (try? container.decode(JSONValue.self, forKey: key)) ?? .null)
        }
        deviations.append(.init(member: key.stringValue, kind: kind))
    }
}
