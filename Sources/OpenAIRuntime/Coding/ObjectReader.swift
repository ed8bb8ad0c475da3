import Foundation

/// Reads the members of one generated struct's JSON object under a ``DecodingMode``, collects
/// the object's ``SpecDeviations``, and keeps the members the struct does not declare. Generated
/// `init(from:)` bodies call it; it is the one place where the decoding policy lives.
///
/// In ``DecodingMode/strict`` every method throws what `KeyedDecodingContainer` throws. In
/// ``DecodingMode/lenient`` a member's failure (absent, `null`, another type, a constant with
/// another value) is recorded and the member takes its placeholder or `nil`; only a value that
/// is not a JSON object at all fails the object. In both modes, the members no method asked for
/// are ``undeclaredMembers()``.
///
/// Members are named by their JSON names as `StaticString` literals
/// (`reader.required(Int.self, "created_at")`), which pass as a pointer and a length: a key value
/// built at each of the thousands of call sites was about half of what the optimizer spent on the
/// generated decoders (CONTRIBUTING.md, "Build cost"). Under ``OrderedJSONDecoder`` (every reply
/// the SDK decodes) a name is compared with the member names' bytes, starting at the first member
/// not yet read, so an object whose members come in the schema's order is read in one pass; under
/// another decoder (Foundation's `JSONDecoder`) the reader goes through `KeyedDecodingContainer`.
package struct ObjectReader {
    /// The SDK's decoder, the object's node and the length of its coding path; `nil` under
    /// another decoder, whose keyed container ``keyed`` is then. (Fields, not an enum with
    /// payloads: reading them costs no retain per member.)
    private let ordered: OrderedDecoding?
    private let object: Int
    private let depth: Int
    private let keyed: KeyedDecodingContainer<AnyCodingKey>?
    private let strict: Bool
    /// How many placeholder structs enclose this one (0 for real JSON).
    private let placeholderDepth: Int
    private var deviations: [SpecDeviations.Deviation] = []
    /// Members asked for, members that were present, and whether one of them is required.
    private var asked = 0
    private var present = 0
    private var requiresAny = false
    /// Ordered source: which members were read (bit `n` for member `n`; beyond 64 in
    /// `claimedBeyond`), and the first member not read, with the node of its name.
    private var claimed: UInt64 = 0
    private var claimedBeyond: Set<Int> = []
    private var firstUnread = 0
    private var firstUnreadNode = 0
    /// Keyed source: the names asked for (as literals: no `String` built per member), and whether
    /// `additionalProperties` read every other member.
    private var askedNames: [StaticString] = []
    private var claimsEveryMember = false

    /// Opens the object.
    ///
    /// - Throws: `DecodingError` when the value is not a JSON object.
    package init(_ decoder: any Decoder) throws {
        var decoder = decoder
        var isCase = false
        // Metatype comparisons before any cast: a failed cast of an existential costs more than
        // the rest of opening the object.
        if type(of: decoder) == UnionCaseDecoder.self {
            // A union trying this type as one of its cases: the case's own members decide.
            decoder = (decoder as! UnionCaseDecoder).base
            isCase = true
        }
        if type(of: decoder) == OrderedDecoding.self {
            let decoding = decoder as! OrderedDecoding
            try decoding.expect(.object, KeyedDecodingContainer<AnyCodingKey>.self)
            ordered = decoding
            object = decoding.node
            depth = decoding.path.count
            keyed = nil
            strict = isCase || decoding.isStrict
            placeholderDepth = 0
            firstUnreadNode = decoding.node + 1
            return
        }
        if type(of: decoder) == AbsentValueDecoder.self {
            let absent = decoder as! AbsentValueDecoder
            strict = false
            placeholderDepth = absent.depth
        } else {
            // Lenient decoders (the default) leave `userInfo` empty: no lookup per object.
            let userInfo = decoder.userInfo
            strict = isCase || (!userInfo.isEmpty && (userInfo[.openAIDecodingMode] as? DecodingMode) == .strict)
            placeholderDepth = 0
        }
        keyed = try decoder.container(keyedBy: AnyCodingKey.self)
        askedNames.reserveCapacity(16)
        ordered = nil
        object = 0
        depth = 0
    }

    /// The deviations found, for the struct's ``SpecDeviationReporting/specDeviations``.
    package func finish() -> SpecDeviations {
        let sharesNoMember = requiresAny && present == 0 && asked > 0
        if deviations.isEmpty && !sharesNoMember { return SpecDeviations() }
        return SpecDeviations(deviations, sharesNoMember: sharesNoMember)
    }

    /// The members no method read, for the struct's
    /// `undeclaredMembers`: in the order received (sorted by name from a
    /// decoder that keeps no order). A member named twice counts once, by its first value.
    package func undeclaredMembers() -> JSONObject {
        if let decoding = ordered {
            let document = decoding.document
            let count = Int(document.nodes[object].length)
            guard firstUnread < count else { return JSONObject() }
            var result = JSONObject()
            var name = firstUnreadNode
            for member in firstUnread..<count {
                if !isClaimed(member), !isDeclared(name, decoding, object) {
                    let key = document.string(at: name)
                    if !result.contains(key: key) { result[key] = decoding.value(at: name + 1) }
                }
                name = document.after(name + 1)
            }
            return result
        } else {
            let container = keyed!
            guard !claimsEveryMember else { return JSONObject() }
            let keys = container.allKeys
            guard keys.count > askedNames.count || keys.contains(where: { !isAsked($0.stringValue) }) else {
                return JSONObject()
            }
            var result = JSONObject()
            for key in keys.sorted(by: { $0.stringValue < $1.stringValue }) where !isAsked(key.stringValue) {
                result[key.stringValue] = (try? container.decode(JSONValue.self, forKey: key)) ?? .null
            }
            return result
        }
    }

    /// Whether `name` is one of the names asked for (keyed source).
    private func isAsked(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { bytes in
            askedNames.contains { asked in
                asked.utf8CodeUnitCount == bytes.count
                    && asked.withUTF8Buffer { $0.elementsEqual(bytes) }
            }
        }
    }

    /// A required, non-nullable member. An absent or `null` array or dictionary reads as empty in
    /// both modes and is not recorded: replies leave out empty collections.
    ///
    /// - Throws: In strict mode, the `DecodingError` of a missing, `null` or ill-typed member.
    package mutating func required<T: Decodable>(_ type: T.Type, _ name: StaticString) throws -> T {
        asked += 1
        requiresAny = true
        if let decoding = ordered {
            guard let member = claim(name, decoding, object) else {
                return try recoverRequired(T.self, name, .missing, error: nil)
            }
            do {
                let value = try decoding.decode(T.self, at: member + 1, .member(member))
                present += 1
                return value
            } catch let error as DecodingError {
                let failure: Failure = decoding.isNull(member + 1) ? .null : .invalid(decoding.value(at: member + 1))
                return try recoverRequired(T.self, name, failure, error: error)
            }
        } else {
            let container = keyed!
            let key = AnyCodingKey(name)
            askedNames.append(name)
            do {
                let value = try container.decode(T.self, forKey: key)
                present += 1
                return value
            } catch let error as DecodingError {
                return try recoverRequired(T.self, name, classify(error, key, container), error: error)
            }
        }
    }

    /// What ``required(_:_:)`` returns or throws for a member that failed to decode. Out of line
    /// and never specialized: it runs only for a member that failed, and a copy per member type
    /// (thousands) was release-build time spent on the SDK's rarest path.
    @inline(never)
    @_semantics("optimize.sil.specialize.generic.never")
    private mutating func recoverRequired<T: Decodable>(
        _ type: T.Type, _ name: StaticString, _ failure: Failure, error: DecodingError?
    ) throws -> T {
        if case .missing = failure {} else { present += 1 }
        let codingPath = codingPath + [AnyCodingKey(name)]
        if case .invalid = failure {
        } else if MissingValue.isCollection(T.self) {
            // Replies leave out empty arrays: an absent or `null` one reads as empty, in both
            // modes, and is no deviation.
            return try MissingValue.of(T.self, depth: placeholderDepth, codingPath: codingPath)
        }
        if strict { throw error ?? missing(name) }
        record(failure, name)
        do {
            return try MissingValue.of(T.self, depth: placeholderDepth, codingPath: codingPath)
        } catch {
            throw DecodingError.valueNotFound(
                T.self,
                DecodingError.Context(
                    codingPath: codingPath,
                    debugDescription: "The member is \(failure) and \(T.self) has no placeholder.",
                    underlyingError: error))
        }
    }

    /// An optional member, or a required member whose schema allows `null`.
    ///
    /// - Throws: In strict mode, the `DecodingError` of a member of another type.
    package mutating func optional<T: Decodable>(_ type: T.Type, _ name: StaticString) throws -> T? {
        asked += 1
        if let decoding = ordered {
            guard let member = claim(name, decoding, object), !decoding.isNull(member + 1) else { return nil }
            present += 1
            do {
                return try decoding.decode(T.self, at: member + 1, .member(member))
            } catch let error as DecodingError {
                if strict { throw error }
                record(.invalid(decoding.value(at: member + 1)), name)
                return nil
            }
        } else {
            let container = keyed!
            let key = AnyCodingKey(name)
            askedNames.append(name)
            do {
                let value = try container.decodeIfPresent(T.self, forKey: key)
                if value != nil { present += 1 }
                return value
            } catch let error as DecodingError {
                if strict { throw error }
                present += 1
                record(.invalid((try? container.decode(JSONValue.self, forKey: key)) ?? .null), name)
                return nil
            }
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
        asked += 1
        if required { requiresAny = true }
        let value: JSONValue?
        if let decoding = ordered {
            value = claim(name, decoding, object).map { decoding.value(at: $0 + 1) }
        } else {
            let container = keyed!
            let key = AnyCodingKey(name)
            askedNames.append(name)
            value = container.contains(key) ? (try? container.decode(JSONValue.self, forKey: key)) ?? .null : nil
        }
        guard let value, value != .null else {
            guard required else { return }
            if strict { throw missing(name) }
            record(value == nil ? .missing : .null, name)
            return
        }
        present += 1
        guard value == .string(expected) else {
            if strict {
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(
                        codingPath: codingPath + [AnyCodingKey(name)],
                        debugDescription: "Expected \"\(expected)\", found \(value.compactJSON(limit: 80))."))
            }
            deviations.append(.init(member: name.description, kind: .unexpectedConstant(received: value)))
            return
        }
    }

    /// The members the schema does not name, when it declares their type (`additionalProperties`
    /// beside named properties).
    ///
    /// - Parameter known: The declared members' JSON names.
    /// - Throws: In strict mode, the `DecodingError` of a value of another type.
    package mutating func additionalProperties<Value: Decodable>(
        _ type: Value.Type, excluding known: Set<String>
    ) throws -> [String: Value] {
        var result: [String: Value] = [:]
        if let decoding = ordered {
            let document = decoding.document
            var name = object + 1
            for member in 0..<Int(document.nodes[object].length) {
                defer { name = document.after(name + 1) }
                let key = document.string(at: name)
                guard !known.contains(key), !isClaimed(member), result[key] == nil else { continue }
                markClaimed(member, name)
                do {
                    result[key] = try decoding.decode(Value.self, at: name + 1, .member(name))
                } catch let error as DecodingError {
                    if strict { throw error }
                    deviations.append(.init(member: key, kind: .invalid(received: decoding.value(at: name + 1))))
                }
            }
        } else {
            let members = keyed!
            claimsEveryMember = true
            for key in members.allKeys where !known.contains(key.stringValue) {
                do {
                    result[key.stringValue] = try members.decode(Value.self, forKey: key)
                } catch let error as DecodingError {
                    if strict { throw error }
                    let received = (try? members.decode(JSONValue.self, forKey: key)) ?? .null
                    deviations.append(.init(member: key.stringValue, kind: .invalid(received: received)))
                }
            }
        }
        return result
    }

    // MARK: Ordered members

    /// Finds the first unread member named `name`, marks it read and returns its name's node.
    private mutating func claim(_ name: StaticString, _ decoding: OrderedDecoding, _ object: Int) -> Int? {
        let document = decoding.document
        let count = Int(document.nodes[object].length)
        var member = firstUnread
        var node = firstUnreadNode
        let found = name.withUTF8Buffer { bytes -> Bool in
            while member < count {
                if !isClaimed(member), document.name(at: node, equals: bytes) { return true }
                node = document.after(node + 1)
                member += 1
            }
            return false
        }
        guard found else { return nil }
        markClaimed(member, node)
        return node
    }

    @inline(__always)
    private func isClaimed(_ member: Int) -> Bool {
        member < 64 ? claimed & (1 << UInt64(member)) != 0 : claimedBeyond.contains(member)
    }

    private mutating func markClaimed(_ member: Int, _ node: Int) {
        if member < 64 {
            claimed |= 1 << UInt64(member)
        } else {
            claimedBeyond.insert(member)
        }
        guard member == firstUnread, let decoding = ordered else { return }
        let count = Int(decoding.document.nodes[object].length)
        firstUnreadNode = decoding.document.after(node + 1)
        firstUnread += 1
        while firstUnread < count, isClaimed(firstUnread) {
            firstUnreadNode = decoding.document.after(firstUnreadNode + 1)
            firstUnread += 1
        }
    }

    /// Whether an unread member's name (at `node`) is the name of a member that was read: a
    /// declared member sent twice, which is no undeclared member.
    private func isDeclared(_ node: Int, _ decoding: OrderedDecoding, _ object: Int) -> Bool {
        let document = decoding.document
        let text = document.text(document.nodes[node])
        var other = object + 1
        for member in 0..<Int(document.nodes[object].length) {
            if isClaimed(member), other != node, document.name(at: other, equals: text) { return true }
            other = document.after(other + 1)
        }
        return false
    }

    // MARK: Recording

    private enum Failure: CustomStringConvertible {
        case missing, null
        case invalid(JSONValue)

        var description: String {
            switch self {
            case .missing: "missing"
            case .null: "null"
            case .invalid: "of another type"
            }
        }
    }

    private var codingPath: [any CodingKey] {
        if let decoding = ordered { return decoding.codingPath(depth: depth) }
        return keyed!.codingPath
    }

    private func missing(_ name: StaticString) -> DecodingError {
        let key = AnyCodingKey(name)
        return DecodingError.keyNotFound(
            key,
            DecodingError.Context(
                codingPath: codingPath,
                debugDescription: "No value associated with key \(key.stringValue) (\"\(key.stringValue)\")."))
    }

    /// Whether `error` is about the member `key` itself being absent or `null`, or about its value.
    private func classify(
        _ error: DecodingError, _ key: AnyCodingKey, _ container: KeyedDecodingContainer<AnyCodingKey>
    ) -> Failure {
        let depth = container.codingPath.count
        switch error {
        case .keyNotFound(let missing, let context)
        where context.codingPath.count == depth && missing.stringValue == key.stringValue:
            return .missing
        case .valueNotFound(_, let context)
        where context.codingPath.count == depth + 1 && context.codingPath.last?.stringValue == key.stringValue:
            return .null
        default:
            return .invalid((try? container.decode(JSONValue.self, forKey: key)) ?? .null)
        }
    }

    private mutating func record(_ failure: Failure, _ name: StaticString) {
        let kind: SpecDeviations.Deviation.Kind
        switch failure {
        case .missing: kind = .missing
        case .null: kind = .null
        case .invalid(let received): kind = .invalid(received: received)
        }
        deviations.append(.init(member: name.description, kind: kind))
    }
}
