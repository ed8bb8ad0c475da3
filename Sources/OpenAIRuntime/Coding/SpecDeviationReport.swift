/// Every ``SpecDeviations`` inside a decoded value, with where it was found, and every member
/// that an object inside it has beyond its schema (`undeclaredMembers`):
/// for logging spec drift of a whole reply.
///
/// ```swift
/// let page = try await client.vectorStores.list()
/// for entry in SpecDeviationReport(page).entries {
///     print(entry)  // data[0]: missing usage_bytes
/// }
/// let completion = try await client.chat.completions.create(request)
/// for entry in SpecDeviationReport(completion).undeclaredMembers {
///     print(entry)  // choices[0].message: reasoning_content
/// }
/// ```
///
/// It walks the value with `Mirror`, so it costs far more than decoding did: use it for
/// diagnostics, not on every reply.
public struct SpecDeviationReport: Sendable, CustomStringConvertible {
    /// One object's deviations.
    public struct Entry: Sendable, Hashable, CustomStringConvertible {
        /// Where the object is, in Swift property names and array indices (`data[0].fileCounts`);
        /// empty for the value itself.
        public var path: String
        /// The object's deviations.
        public var deviations: SpecDeviations

        /// `path: deviations`.
        public var description: String { path.isEmpty ? "\(deviations)" : "\(path): \(deviations)" }
    }

    /// One object's members beyond its schema.
    public struct UndeclaredEntry: Sendable, Hashable, CustomStringConvertible {
        /// Where the object is, in Swift property names and array indices
        /// (`choices[0].message`); empty for the value itself.
        public var path: String
        /// The members, in the order received.
        public var members: JSONObject

        /// `path: name, name`.
        public var description: String {
            let names = members.keys.joined(separator: ", ")
            return path.isEmpty ? names : "\(path): \(names)"
        }
    }

    /// The objects with deviations, in the order the walk met them (members in declaration
    /// order, elements by index, dictionary values by key).
    public private(set) var entries: [Entry] = []

    /// The objects with members their schema does not declare, in the order the walk met them.
    /// They are no deviation (a schema allows members it does not name, and servers send them:
    /// `reasoning_content`, `citations`, `x_groq`), so ``isEmpty`` does not count them.
    public private(set) var undeclaredMembers: [UndeclaredEntry] = []

    /// The events a stream skipped (``OpenAIStream/skippedEvents``), given to
    /// ``init(_:skippedEvents:)``; each says why (``SkippedStreamEvent/decodingError`` names the
    /// field path that did not decode).
    public private(set) var skippedEvents: [SkippedStreamEvent] = []

    /// Collects the deviations inside `value`.
    ///
    /// - Parameter value: A decoded value: a generated type, or an array, dictionary or optional
    ///   of them.
    public init(_ value: Any) {
        walk(value, path: "", depth: 0)
    }

    /// Collects the deviations inside a stream's events, and the events it skipped.
    ///
    /// - Parameters:
    ///   - value: The events received (or any decoded value).
    ///   - skippedEvents: ``OpenAIStream/skippedEvents`` of the stream.
    public init(_ value: Any, skippedEvents: [SkippedStreamEvent]) {
        walk(value, path: "", depth: 0)
        self.skippedEvents = skippedEvents
    }

    /// Whether no object inside the value deviated from its schema and no event was skipped.
    public var isEmpty: Bool { entries.isEmpty && skippedEvents.isEmpty }

    /// One line per entry, then one per skipped event (`skipped event: …` with why), then one per
    /// object with undeclared members (`undeclared choices[0].message: reasoning_content`).
    public var description: String {
        let undeclared = undeclaredMembers.map { "undeclared \($0)" }
        guard !isEmpty else { return undeclared.isEmpty ? "no deviations" : undeclared.joined(separator: "\n") }
        let skipped = skippedEvents.map { skipped -> String in
            let name = skipped.event.event.map { " `\($0)`" } ?? ""
            let why =
                skipped.decodingError.map { Redaction.text($0.message) }
                ?? (skipped.reason == .notJSON ? "not JSON" : "shares no member with the event type")
            return "skipped event\(name): \(why)"
        }
        return (entries.map(\.description) + skipped + undeclared).joined(separator: "\n")
    }

    private mutating func walk(_ value: Any, path: String, depth: Int) {
        guard depth < 256 else { return }
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional {
            // `as?` looks through optionals: the payload is checked once, below.
            for child in mirror.children { walk(child.value, path: path, depth: depth + 1) }
            return
        }
        if let reporting = value as? any SpecDeviationReporting {
            if !reporting.specDeviations.isEmpty {
                entries.append(Entry(path: path, deviations: reporting.specDeviations))
            }
            // Read through the mirror: a protocol requirement would cost every generated type a
            // witness, and build time.
            if let members = mirror.children.first(where: { $0.label == "undeclaredMembers" })?.value as? JSONObject,
                !members.isEmpty
            {
                undeclaredMembers.append(UndeclaredEntry(path: path, members: members))
            }
        }
        if value is JSONValue || value is String || value is JSONObject { return }
        switch mirror.displayStyle {
        case .collection?, .set?:
            for (index, child) in mirror.children.enumerated() {
                walk(child.value, path: "\(path)[\(index)]", depth: depth + 1)
            }
        case .dictionary?:
            let pairs = mirror.children.compactMap { child -> (String, Any)? in
                let pair = Array(Mirror(reflecting: child.value).children)
                guard pair.count == 2 else { return nil }
                return ("\(pair[0].value)", pair[1].value)
            }
            for (key, element) in pairs.sorted(by: { $0.0 < $1.0 }) {
                walk(element, path: "\(path)[\(key)]", depth: depth + 1)
            }
        case .enum?, .class?:
            // A union case's payload, or the `Indirect` box of a recursive member: same path.
            for child in mirror.children { walk(child.value, path: path, depth: depth + 1) }
        default:
            for child in mirror.children {
                guard var label = child.label, label != "specDeviations", label != "undeclaredMembers" else { continue }
                if label.hasPrefix("_") { label.removeFirst() }
                walk(child.value, path: path.isEmpty ? label : "\(path).\(label)", depth: depth + 1)
            }
        }
    }
}
